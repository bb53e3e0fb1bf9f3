/*
 * fuzz_provider_lambda.c: the Lambda adapter on a fuzzed body:
 * the instance-types answer (one GET, no pagination).
 */
#include "config.h"

#include <stddef.h>
#include <stdint.h>

#include "fuzz_run.h"
#include "provider.h"

extern const struct provider provider_lambda;

int	LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_provider_body(&provider_lambda, data, size);
	return 0;
}
