/*
 * fuzz_provider_cudo.c: the Cudo Compute adapter on a fuzzed list of
 * machine types (its one request).
 */
#include "config.h"

#include <stddef.h>
#include <stdint.h>

#include "fuzz_run.h"
#include "http.h"
#include "provider.h"

extern const struct provider provider_cudo;

int	LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct input {
	const char	*data;
	size_t		 len;
};

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

	fuzz_provider(&provider_cudo, answer, &in, 0);
	return 0;
}
