/*
 * fuzz_provider_gcp.c: the Google Cloud adapter on a fuzzed page of
 * Cloud Billing Catalog SKUs. The input is the first page; a page it
 * asks for after that (nextPageToken) is a fixed empty last page, so the
 * run reaches finish(), where the offers are made.
 */
#include "config.h"

#include <stddef.h>
#include <stdint.h>

#include "fuzz_run.h"
#include "provider.h"

extern const struct provider provider_gcp;

int	LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char last_page[] = "{\"skus\":[],\"nextPageToken\":\"\"}";

struct input {
	const char	*data;
	size_t		 len;
};

/* The input first, then the last page. */
static int
answer(void *udata, const struct http_request *req, size_t nth,
    const char **body, size_t *len)
{
	const struct input *in = udata;

	(void)req;
	if (nth == 0) {
		*body = in->data;
		*len = in->len;
	} else {
		*body = last_page;
		*len = sizeof last_page - 1;
	}
	return 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct input in = { (const char *)data, size };

	fuzz_provider(&provider_gcp, answer, &in, 0);
	return 0;
}
