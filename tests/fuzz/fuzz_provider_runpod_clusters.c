/*
 * fuzz_provider_runpod_clusters.c: the RunPod Instant Clusters adapter on a
 * fuzzed body: the GraphQL cluster gpuTypes answer (one POST).
 */
#include "config.h"

#include <stddef.h>
#include <stdint.h>

#include "fuzz_run.h"
#include "provider.h"

extern const struct provider provider_runpod_clusters;

int	LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_provider_body(&provider_runpod_clusters, data, size);
	return 0;
}
