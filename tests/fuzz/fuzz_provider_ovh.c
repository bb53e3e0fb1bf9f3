/*
 * fuzz_provider_ovh.c: the OVHcloud adapter on a fuzzed body: the FR
 * order catalog (one GET, no pagination).
 */
#include "config.h"

#include <stddef.h>
#include <stdint.h>

#include "fuzz_run.h"
#include "provider.h"

extern const struct provider provider_ovh;

int	LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_provider_body(&provider_ovh, data, size);
	return 0;
}
