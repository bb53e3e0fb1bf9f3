/*
 * fuzz_provider_oci.c: the Oracle OCI adapter on a fuzzed price list or
 * shapes document. OCI joins two documents: an input that looks like
 * shapes (it names "gpuQty") is the shapes document and meets a fixed
 * price list; any other input is the price list and meets fixed shapes.
 * The fixed halves name parts and shapes of the fixtures, so a fuzzed
 * half joins with real rows.
 */
#include "config.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "fuzz_run.h"
#include "http.h"
#include "provider.h"

extern const struct provider provider_oci;

int	LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define USD(v)								\
	"\"currencyCodeLocalizations\":[{\"currencyCode\":\"USD\","	\
	"\"prices\":[{\"model\":\"PAY_AS_YOU_GO\",\"value\":" v "}]}]"

static const char fixed_prices[] =
    "{\"items\":["
    "{\"partNumber\":\"B98415\",\"metricName\":\"GPU Per Hour\"," USD("10")
    "},{\"partNumber\":\"B95909\",\"metricName\":\"GPU Per Hour\"," USD("2")
    "},{\"partNumber\":\"B93113\",\"metricName\":\"OCPU Per Hour\","
    USD("0.025") "},{\"partNumber\":\"B93114\",\"metricName\":"
    "\"Gigabyte Per Hour\"," USD("0.0015") "}]}";

static const char fixed_shapes[] =
    "{\"items\":["
    "{\"name\":\"BM.GPU.H100.8\",\"status\":\"ACTIVE\",\"hidden\":false,"
    "\"gpuQty\":8,\"bundleMemoryQty\":2048,\"subType\":{\"value\":\"gpu\"},"
    "\"products\":[{\"partNumber\":\"B98415\",\"qty\":112,\"type\":"
    "{\"value\":\"ocpu\"}}]},"
    "{\"name\":\"VM.GPU.A10.1\",\"status\":\"ACTIVE\",\"hidden\":false,"
    "\"allowPreemptible\":true,\"gpuQty\":1,\"subType\":{\"value\":\"gpu\"},"
    "\"products\":[{\"partNumber\":\"B95909\",\"qty\":15,\"type\":"
    "{\"value\":\"ocpu\"}}]},"
    "{\"name\":\"VM.GPU2.1\",\"status\":\"ACTIVE\",\"gpuQty\":1,"
    "\"subType\":{\"value\":\"gpu\"},\"products\":[{\"partNumber\":"
    "\"B93113\",\"qty\":12,\"type\":{\"value\":\"ocpu\"}},{\"partNumber\":"
    "\"B93114\",\"qty\":72,\"type\":{\"value\":\"memory\"}}]}]}";

struct input {
	const char	*data;
	size_t		 len;
	int		 shapes;	/* the input is the shapes document */
};

static int
answer(void *udata, const struct http_request *req, size_t nth,
    const char **body, size_t *len)
{
	const struct input *in = udata;
	int shapes_req = strstr(req->url, "shapes.json") != NULL;

	(void)nth;
	if (shapes_req == in->shapes) {
		*body = in->data;
		*len = in->len;
	} else if (shapes_req) {
		*body = fixed_shapes;
		*len = sizeof fixed_shapes - 1;
	} else {
		*body = fixed_prices;
		*len = sizeof fixed_prices - 1;
	}
	return 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct input in = { (const char *)data, size, 0 };

	in.shapes = memmem(data, size, "\"gpuQty\"", 8) != NULL;
	fuzz_provider(&provider_oci, answer, &in, 0);
	return 0;
}
