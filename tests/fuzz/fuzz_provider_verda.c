/*
 * fuzz_provider_verda.c: the Verda adapter on a fuzzed body: the
 * pricing page (one GET; only its JSON-LD block is read).
 */
#include "config.h"

#include <stddef.h>
#include <stdint.h>

#include "fuzz_run.h"
#include "provider.h"

extern const struct provider provider_verda;

int	LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_provider_body(&provider_verda, data, size);
	return 0;
}
