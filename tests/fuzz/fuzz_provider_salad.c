/*
 * fuzz_provider_salad.c: the SaladCloud adapter (with a key and an
 * organisation, as fuzz_provider() gives) on a fuzzed body: the
 * gpu-classes document (one GET).
 */
#include "config.h"

#include <stddef.h>
#include <stdint.h>

#include "fuzz_run.h"
#include "provider.h"

extern const struct provider provider_salad;

int	LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_provider_body(&provider_salad, data, size);
	return 0;
}
