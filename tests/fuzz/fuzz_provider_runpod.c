/*
 * fuzz_provider_runpod.c: the RunPod adapter on a fuzzed body:
 * the GraphQL gpuTypes answer (one POST, no pagination).
 */
#include "config.h"

#include <stddef.h>
#include <stdint.h>

#include "fuzz_run.h"
#include "provider.h"

extern const struct provider provider_runpod;

int	LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_provider_body(&provider_runpod, data, size);
	return 0;
}
