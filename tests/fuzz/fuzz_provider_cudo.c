/*
 * fuzz_provider_cudo.c: the Cudo Compute adapter on a fuzzed list of
 * machine types (its one request).
 */
#include "config.h"

#include <stddef.h>
#include <stdint.h>

#include "fuzz_run.h"
#include "provider.h"

extern const struct provider provider_cudo;

int	LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_provider_body(&provider_cudo, data, size);
	return 0;
}
