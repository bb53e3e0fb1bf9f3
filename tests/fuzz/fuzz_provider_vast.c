/*
 * fuzz_provider_vast.c: the Vast.ai adapter on a fuzzed body:
 * the bundles search answer (one POST, no pagination).
 */
#include "config.h"

#include <stddef.h>
#include <stdint.h>

#include "fuzz_run.h"
#include "provider.h"

extern const struct provider provider_vast;

int	LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_provider_body(&provider_vast, data, size);
	return 0;
}
