/*
 * fuzz_provider_azure.c: the Azure adapter on a fuzzed Retail Prices
 * page. The input is the first page; every page its NextPageLink leads
 * to is a fixed empty last page, so the link rewriting is fuzzed too.
 */
#include "config.h"

#include <stddef.h>
#include <stdint.h>

#include "fuzz_run.h"
#include "http.h"
#include "provider.h"

extern const struct provider provider_azure;

int	LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char last_page[] =
    "{\"BillingCurrency\":\"USD\",\"Items\":[],\"NextPageLink\":null,"
    "\"Count\":0}";

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

	fuzz_provider(&provider_azure, answer, &in, 0);
	return 0;
}
