/*
 * fuzz_provider_aws.c: the AWS adapter on a fuzzed regional price list.
 *
 * The input is the us-east-1 CSV, streamed in two chunks split at a
 * point taken from its last byte, so the line carried from one chunk to
 * the next is exercised. The three buffered feeds get small valid bodies,
 * except that an input that looks like one of them (JSON naming
 * "currentVersionUrl" or "spot_advisor", or any other JSON or JSONP
 * body, which goes to the spot feed) is given to that feed instead: the
 * seeds from tests/fixtures/aws hold all four kinds.
 */
#include "config.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "err.h"
#include "fuzz_run.h"
#include "http.h"
#include "provider.h"

extern const struct provider provider_aws;

int	LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char index_body[] =
    "{\"regions\":{\"us-east-1\":{\"regionCode\":\"us-east-1\","
    "\"currentVersionUrl\":\"/offers/v1.0/aws/AmazonEC2/20250912225308/"
    "us-east-1/index.json\"}}}";

static const char spot_body[] =
    "{\"config\":{\"rate\":\"perhr\",\"regions\":[{\"region\":"
    "\"us-east-1\",\"instanceTypes\":[{\"type\":\"gpuCurrentGen\","
    "\"sizes\":[{\"size\":\"p4d.24xlarge\",\"valueColumns\":[{\"name\":"
    "\"linux\",\"prices\":{\"USD\":\"8.9231\"}}]},{\"size\":\"g5.xlarge\","
    "\"valueColumns\":[{\"name\":\"linux\",\"prices\":{\"USD\":"
    "\"0.4429\"}}]}]}]}]}}";

static const char advisor_body[] =
    "{\"spot_advisor\":{\"us-east-1\":{\"Linux\":{\"p4d.24xlarge\":"
    "{\"s\":70,\"r\":2},\"g5.xlarge\":{\"s\":60,\"r\":1}}}}}";

struct input {
	const char	*data;
	size_t		 len;
	int		 index;		/* it is region_index.json */
	int		 spot;		/* ... spot.json or spot.js */
	int		 advisor;	/* ... spot-advisor-data.json */
};

/* Does the input start like JSON or JSONP ("callback({")? */
static int
looks_like_json(const char *s, size_t len)
{
	size_t i = 0, j;

	while (i < len && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r' ||
	    s[i] == '\n'))
		i++;
	if (i < len && (s[i] == '{' || s[i] == '['))
		return 1;
	for (j = i; j < len && j - i < 64; j++)
		if (s[j] == '(')
			return j > i;
		else if (s[j] == ',' || s[j] == '"' || s[j] == '\n')
			break;
	return 0;
}

/* Answer a request by its path. */
static int
answer(void *udata, const struct http_request *req, size_t nth,
    const char **body, size_t *len)
{
	const struct input *in = udata;

	(void)nth;
	if (strstr(req->url, "/index.csv") != NULL ||
	    (in->index && strstr(req->url, "/region_index.json") != NULL) ||
	    (in->spot && strstr(req->url, "/spot.json") != NULL) ||
	    (in->advisor && strstr(req->url, "/spot-advisor") != NULL)) {
		*body = in->data;
		*len = in->len;
	} else if (strstr(req->url, "/region_index.json") != NULL) {
		*body = index_body;
		*len = sizeof index_body - 1;
	} else if (strstr(req->url, "/spot.json") != NULL) {
		*body = spot_body;
		*len = sizeof spot_body - 1;
	} else if (strstr(req->url, "/spot-advisor") != NULL) {
		*body = advisor_body;
		*len = sizeof advisor_body - 1;
	} else
		return -1;
	return 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct provider_run run;
	struct input in;
	struct err err;
	size_t split;
	int rc;

	in.data = (const char *)data;
	in.len = size;
	in.index = memmem(data, size, "currentVersionUrl", 17) != NULL;
	in.advisor = !in.index &&
	    memmem(data, size, "spot_advisor", 12) != NULL;
	in.spot = !in.index && !in.advisor && looks_like_json(in.data, size);
	split = size > 0 ? (size_t)data[size - 1] * size / 255 : 0;

	provider_run_init(&run, &provider_aws);
	run.now = 1757720000;
	run.regions = "us-east-1";
	rc = fuzz_run(&provider_aws, &run, answer, &in, split, &err);
	fuzz_check_run(&run, rc, &err);
	provider_run_done(&run);
	return 0;
}
