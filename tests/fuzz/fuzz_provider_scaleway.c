/*
 * fuzz_provider_scaleway.c: the Scaleway adapter on a fuzzed page. The
 * input is the first page of both lists (servers and availability) of
 * one zone, fr-par-2, so a seed of either kind reaches its parser and
 * the join of the two; every other zone, and any further page, is the
 * empty map a zone without GPUs answers.
 */
#include "config.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "fuzz_run.h"
#include "http.h"
#include "provider.h"

extern const struct provider provider_scaleway;

int	LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char empty_zone[] = "{\"servers\": {}}";

struct input {
	const char	*data;
	size_t		 len;
};

static int
answer(void *udata, const struct http_request *req, size_t nth,
    const char **body, size_t *len)
{
	const struct input *in = udata;

	(void)nth;
	if (strstr(req->url, "/zones/fr-par-2/") != NULL &&
	    strstr(req->url, "&page=1") != NULL) {
		*body = in->data;
		*len = in->len;
	} else {
		*body = empty_zone;
		*len = sizeof empty_zone - 1;
	}
	return 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct input in = { (const char *)data, size };

	fuzz_provider(&provider_scaleway, answer, &in, 0);
	return 0;
}
