/* runpod_graphql.c: RunPod's GraphQL API, as both RunPod adapters use it. */
#include "config.h"
#include "runpod_graphql.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "err.h"
#include "gpu.h"
#include "json.h"
#include "money.h"
#include "provider.h"
#include "str.h"
#include "xalloc.h"

#define RUNPOD_ORIGIN		"https://api.runpod.io"
#define RUNPOD_PATH		"/graphql"
/* Real answers are about 20 KB. */
#define RUNPOD_MAX_BODY		((size_t)8 << 20)

struct http_request *
runpod_graphql_queue(struct provider_run *run, const char *query)
{
	struct http_request *req;

	req = provider_queue(run, provider_url(run, RUNPOD_ORIGIN, RUNPOD_PATH),
	    "POST", 0);
	req->max_body = RUNPOD_MAX_BODY;
	req->body = xstrdup(query);
	req->body_len = strlen(query);
	http_request_header(req, "Content-Type", "application/json");
	http_request_header(req, "Accept", "application/json");
	return req;
}

int
runpod_graphql_errors(const cJSON *root)
{
	const cJSON *errors = cJSON_GetObjectItemCaseSensitive(root, "errors");

	if (errors == NULL || cJSON_IsNull(errors))
		return 0;
	return cJSON_IsArray(errors) ? cJSON_GetArraySize(errors) : 1;
}

void
runpod_graphql_message(const cJSON *root, int i, char *buf, size_t size)
{
	const cJSON *errors, *e;
	struct err scratch;
	bool found;

	errors = cJSON_GetObjectItemCaseSensitive(root, "errors");
	e = cJSON_IsArray(errors) ? cJSON_GetArrayItem(errors, i) : NULL;
	buf[0] = '\0';
	/* A message that is no string is no message. */
	if (cJSON_IsObject(e) && json_get_string(e, "message", "errors",
	    buf, size, &found, &scratch) < 0)
		buf[0] = '\0';
}

/* The array data.<list> of an answer, or NULL with err. */
static const cJSON *
graphql_list(const struct provider_run *run, const cJSON *root,
    const char *list, struct err *err)
{
	const cJSON *data, *items;
	char msg[RUNPOD_GRAPHQL_MESSAGE_MAX];
	int n;

	if ((n = runpod_graphql_errors(root)) > 0) {
		runpod_graphql_message(root, 0, msg, sizeof msg);
		if (msg[0] == '\0')
			str_copy(msg, sizeof msg, "(no message)");
		if (n > 1)
			err_set(err, "GraphQL error: %s (and %d more)", msg,
			    n - 1);
		else
			err_set(err, "GraphQL error: %s", msg);
		/* The key never appears in a message, even if echoed back. */
		provider_redact(run, err);
		return NULL;
	}
	if ((data = json_get_object(root, "data", "response", err)) == NULL ||
	    (items = json_get_array(data, list, "data", err)) == NULL)
		return NULL;
	if (cJSON_GetArraySize(items) == 0) {
		err_set(err, "data.%s: empty", list);
		return NULL;
	}
	return items;
}

int
runpod_graphql_each(struct provider_run *run, const cJSON *root,
    const char *list, runpod_graphql_fn *fn, void *arg, struct err *err)
{
	const cJSON *items, *item;
	int n = 0;

	if ((items = graphql_list(run, root, list, err)) == NULL)
		return -1;
	cJSON_ArrayForEach(item, items) {
		if (fn(run, item, n, arg, err) < 0)
			return -1;
		n++;
	}
	return n;
}

int
runpod_graphql_type(const cJSON *obj, int index, struct runpod_type *t,
    char *path, size_t pathsize, struct err *err)
{
	long long v;
	bool found;

	memset(t, 0, sizeof *t);
	snprintf(path, pathsize, "data.gpuTypes[%d]", index);
	if (!cJSON_IsObject(obj)) {
		err_set(err, "%s: expected an object, got %s", path,
		    json_type_name(obj));
		return -1;
	}
	if (json_get_string(obj, "id", path, t->id, sizeof t->id, NULL,
	    err) < 0)
		return -1;
	if (t->id[0] == '\0') {
		err_set(err, "%s.id: empty", path);
		return -1;
	}
	/* From here on the record is named by its id. */
	snprintf(path, pathsize, "data.gpuTypes[\"%s\"]", t->id);
	if (json_get_string(obj, "displayName", path, t->name, sizeof t->name,
	    &found, err) < 0)
		return -1;
	if (t->name[0] == '\0')
		str_copy(t->name, sizeof t->name, t->id);
	if (json_get_int(obj, "memoryInGb", path, 0, OFFER_VRAM_MAX, &v, &found,
	    err) < 0)
		return -1;
	t->vram_gb = found ? (int)v : 0;
	if (json_get_int(obj, "maxGpuCount", path, 0, OFFER_GPU_COUNT_MAX, &v,
	    &found, err) < 0)
		return -1;
	t->max_gpus = found ? (int)v : -1;
	return 0;
}

int
runpod_graphql_price(const cJSON *obj, const char *key, const char *path,
    int64_t *out, struct err *err)
{
	char buf[32];
	bool found;

	if (json_get_money(obj, key, path, out, &found, err) < 0)
		return -1;
	if (!found || *out == 0) {
		*out = MONEY_NONE;
		return 0;
	}
	if (*out > OFFER_GPU_HOUR_PRICE_MAX) {
		money_format(buf, sizeof buf, *out, 2);
		err_set(err, "%s.%s: %s USD per GPU-hour is absurd", path, key,
		    buf);
		return -1;
	}
	return 0;
}

int
runpod_graphql_lowest(const cJSON *obj, const char *path, const cJSON **lp,
    char *lpath, size_t size, struct err *err)
{
	*lp = cJSON_GetObjectItemCaseSensitive(obj, "lowestPrice");
	if (*lp == NULL || cJSON_IsNull(*lp)) {
		*lp = NULL;
		return 0;
	}
	snprintf(lpath, size, "%s.lowestPrice", path);
	if (!cJSON_IsObject(*lp)) {
		err_set(err, "%s: expected an object, got %s", lpath,
		    json_type_name(*lp));
		return -1;
	}
	return 0;
}

int
runpod_graphql_stock(const cJSON *lp, const char *lpath,
    enum availability *out, struct err *err)
{
	char stock[32];
	bool found;

	if (json_get_string(lp, "stockStatus", lpath, stock, sizeof stock,
	    &found, err) < 0)
		return -1;
	if (!found || stock[0] == '\0' || str_eq_nocase(stock, "none"))
		*out = AV_UNAVAILABLE;
	else if (str_eq_nocase(stock, "high") || str_eq_nocase(stock, "medium"))
		*out = AV_AVAILABLE;
	else if (str_eq_nocase(stock, "low"))
		*out = AV_LIMITED;
	else
		*out = AV_UNKNOWN;
	return 0;
}

enum interconnect
runpod_graphql_interconnect(const struct runpod_type *t, const char *gpu,
    int count)
{
	enum interconnect ic = provider_interconnect(t->id, NULL, count);

	if (ic == IC_UNKNOWN)
		ic = provider_interconnect(t->name, gpu, count);
	/* MI300X is an OAM module on Infinity Fabric: not NVLink, not PCIe. */
	return ic;
}

const char *
runpod_graphql_raw(const struct runpod_type *t)
{
	if (gpu_resolve(t->name, t->vram_gb) == NULL &&
	    gpu_resolve(t->id, t->vram_gb) != NULL)
		return t->id;
	return t->name;
}
