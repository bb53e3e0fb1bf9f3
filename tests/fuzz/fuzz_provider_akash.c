/*
 * fuzz_provider_akash.c: the Akash adapter on a fuzzed body: the
 * gpu-prices document (one GET).
 */
#include "config.h"

#include <stddef.h>
#include <stdint.h>

#include "fuzz_run.h"
#include "provider.h"

extern const struct provider provider_akash;

int	LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_provider_body(&provider_akash, data, size);
	return 0;
}
