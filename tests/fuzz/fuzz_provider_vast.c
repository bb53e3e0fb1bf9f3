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

struct input {
	const char	*data;
	size_t		 len;
};

/* Every request gets the input. */
static int
answer(void *udata, const struct http_request *req, size_t nth,
    const char **body, size_t *len)
{
	const struct input *in = udata;

	(void)req;
	(void)nth;
	*body = in->data;
	*len = in->len;
	return 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct input in = { (const char *)data, size };

	fuzz_provider(&provider_vast, answer, &in, 0);
	return 0;
}
