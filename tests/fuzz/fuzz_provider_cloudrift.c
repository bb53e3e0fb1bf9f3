/*
 * fuzz_provider_cloudrift.c: the CloudRift adapter on a fuzzed body: the
 * instance-types list (one POST, no pagination).
 */
#include "config.h"

#include <stddef.h>
#include <stdint.h>

#include "fuzz_run.h"
#include "provider.h"

extern const struct provider provider_cloudrift;

int	LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_provider_body(&provider_cloudrift, data, size);
	return 0;
}
