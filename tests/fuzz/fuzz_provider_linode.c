/*
 * fuzz_provider_linode.c: the Akamai/Linode adapter on a fuzzed page.
 * The input is page 1 of all three lists (types, regions, stock), so a
 * seed of any kind reaches its parser and the join in finish(); a
 * further page a fuzzed envelope asks for is an empty last page.
 */
#include "config.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "fuzz_run.h"
#include "http.h"
#include "provider.h"

extern const struct provider provider_linode;

int	LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char last_page[] = "{\"data\": [], \"page\": 2, \"pages\": 2}";

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
	if (strstr(req->url, "?page=1&") != NULL) {
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

	fuzz_provider(&provider_linode, answer, &in, 0);
	return 0;
}
