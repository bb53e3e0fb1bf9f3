/*
 * fuzz_provider_vultr.c: the Vultr adapter on a fuzzed page of plans.
 * Vultr has two lists, "plans" and "plans_metal", each paged by cursor.
 * The input is the first page of every list whose key it names (so the
 * seeds plans-1.json and plans-metal.json each reach their own list);
 * any other page is a fixed empty last page of both.
 */
#include "config.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "fuzz_run.h"
#include "http.h"
#include "provider.h"

extern const struct provider provider_vultr;

int	LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char last_page[] =
    "{\"plans\":[],\"plans_metal\":[],"
    "\"meta\":{\"total\":0,\"links\":{\"next\":\"\",\"prev\":\"\"}}}";

struct input {
	const char	*data;
	size_t		 len;
	int		 plans;		/* names "plans" */
	int		 metal;		/* names "plans_metal" */
};

/* The first page of a list the input names, else the last page. */
static int
answer(void *udata, const struct http_request *req, size_t nth,
    const char **body, size_t *len)
{
	const struct input *in = udata;
	int first = strstr(req->url, "cursor=") == NULL;
	int metal = strstr(req->url, "/plans-metal") != NULL;

	(void)nth;
	if (first && (metal ? in->metal : in->plans)) {
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
	struct input in = { (const char *)data, size, 0, 0 };

	in.plans = memmem(data, size, "\"plans\"", 7) != NULL;
	in.metal = memmem(data, size, "\"plans_metal\"", 13) != NULL;
	/* Neither: the plans list gets it, to exercise the errors. */
	if (!in.plans && !in.metal)
		in.plans = 1;
	fuzz_provider(&provider_vultr, answer, &in, 0);
	return 0;
}
