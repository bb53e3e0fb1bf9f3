/*
 * cloudrift.c: the CloudRift adapter.
 *
 * One keyless POST (a POST, so never conditional):
 *
 *	POST https://api.cloudrift.ai/api/v1/instance-types/list
 *	{"version": "2025-03-21",
 *	 "data": {"selector": {"ByServiceAndLocation": {"services": ["vm"]}}}}
 *
 * answered (201 per the OpenAPI spec; any 2xx) with {"version": ...,
 * "data": {"instance_types": [...]}}. Each instance type is a family
 * ("rtx49-8c-nr") with variants ("rtx49-8c-nr.2", one per GPU count)
 * and the datacenters it runs in. No live capture is public: the tests'
 * fixtures follow the spec (rift-server OpenAPI 0.61.0) field by field.
 *
 * One offer per (variant, datacenter in the variant's nodes_per_dc with
 * at least one node): key "<variant>/<datacenter>". Fields:
 *
 *	gpu		the type's brand_short ("RTX 4090", "RTX PRO 6000",
 *			"MI350X"), resolved with vram (bytes per GPU) as the
 *			hint; an unknown name is kept raw
 *	count		gpu_count (never the digits of the name)
 *	vcpus, ram_gb	logical_cpu_count (threads, as other clouds count
 *			vCPUs; cpu_count when absent); dram (bytes) in GiB
 *	price		variant cost_per_hour, US cents per instance-hour
 *			(a double: 139.36 is $1.3936). No spot.
 *	availability	available_nodes_per_dc[dc] > 0: available; 0:
 *			unavailable; absent: unknown
 *
 * Skipped and counted (run->skipped, run->note): CPU variants (gpu_count
 * null or 0), MIG slices (mig_profile not null: a fraction of a GPU),
 * variants without a price, and variants configured in no datacenter.
 */
#include "config.h"
#include "provider.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "json.h"
#include "money.h"
#include "str.h"
#include "xalloc.h"

#define CLOUDRIFT_ORIGIN	"https://api.cloudrift.ai"
#define CLOUDRIFT_PATH		"/api/v1/instance-types/list"
#define GIB			1073741824.0
#define CLOUDRIFT_BYTES_MAX	(OFFER_RAM_MAX * GIB)
#define CLOUDRIFT_CENTS_MAX	((double)OFFER_PRICE_MAX_USD * 100)
#define CLOUDRIFT_NODES_MAX	1e6

static const char cloudrift_query[] =
	"{\"version\": \"2025-03-21\", \"data\": {\"selector\": "
	"{\"ByServiceAndLocation\": {\"services\": [\"vm\"]}}}}";

enum cloudrift_skip {
	SKIP_CPU,
	SKIP_MIG,
	SKIP_PRICE,
	SKIP_NOWHERE,
	SKIP_COUNT
};

static const char *const cloudrift_skip_what[SKIP_COUNT][2] = {
	{ "CPU variant", "CPU variants" },
	{ "MIG slice", "MIG slices" },
	{ "variant without a price", "variants without a price" },
	{ "variant in no datacenter", "variants in no datacenter" },
};

struct cloudrift_state {
	size_t	skipped[SKIP_COUNT];
};

/* A per-datacenter map member of v ("nodes_per_dc"), or NULL. */
static int
dc_map(const cJSON *v, const char *key, const char *path,
    const cJSON **out, struct err *err)
{
	const cJSON *m = cJSON_GetObjectItemCaseSensitive(v, key);

	*out = NULL;
	if (m == NULL || cJSON_IsNull(m))
		return 0;
	if (!cJSON_IsObject(m)) {
		err_set(err, "%s.%s: expected an object, got %s", path, key,
		    json_type_name(m));
		return -1;
	}
	*out = m;
	return 0;
}

/* Nodes of a datacenter in a map: -1 when absent. */
static int
dc_nodes(const cJSON *map, const char *dc, const char *path,
    const char *key, double *out, struct err *err)
{
	const cJSON *n;

	*out = -1;
	if (map == NULL ||
	    (n = cJSON_GetObjectItemCaseSensitive(map, dc)) == NULL ||
	    cJSON_IsNull(n))
		return 0;
	if (!cJSON_IsNumber(n) || !isfinite(n->valuedouble) ||
	    n->valuedouble < 0 || n->valuedouble > CLOUDRIFT_NODES_MAX) {
		err_set(err, "%s.%s: a node count that is not a number in "
		    "0..%.0f", path, key, CLOUDRIFT_NODES_MAX);
		return -1;
	}
	*out = n->valuedouble;
	return 0;
}

/* One variant of type (GPU name gpu): its offers, or a skip. */
static int
cloudrift_variant(struct provider_run *run, struct cloudrift_state *st,
    const char *gpu, const cJSON *v, const char *path, struct err *err)
{
	const cJSON *mig, *nodes, *avail, *dc;
	char name[OFFER_NAME_MAX], dcname[OFFER_NAME_MAX];
	double cents, cpus, threads, dram, vram, n, nfree;
	long long count = 0;
	bool found, any = false;
	struct offer *o;

	if (!cJSON_IsObject(v)) {
		err_set(err, "%s: expected an object, got %s", path,
		    json_type_name(v));
		return -1;
	}
	if (json_get_string(v, "name", path, name, sizeof name, NULL, err) < 0)
		return -1;
	if (name[0] == '\0') {
		err_set(err, "%s.name: empty", path);
		return -1;
	}
	if (json_get_int(v, "gpu_count", path, 0, OFFER_GPU_COUNT_MAX, &count,
	    &found, err) < 0)
		return -1;
	if (!found || count == 0) {
		provider_skip(run, &st->skipped[SKIP_CPU]);
		return 0;
	}
	mig = cJSON_GetObjectItemCaseSensitive(v, "mig_profile");
	if (mig != NULL && !cJSON_IsNull(mig)) {
		provider_skip(run, &st->skipped[SKIP_MIG]);
		return 0;
	}
	if (provider_get_number_at(v, "cost_per_hour", path, CLOUDRIFT_CENTS_MAX,
	    &cents, err) < 0 ||
	    provider_get_number_at(v, "cpu_count", path, OFFER_VCPUS_MAX, &cpus,
	    err) < 0 ||
	    provider_get_number_at(v, "logical_cpu_count", path, OFFER_VCPUS_MAX,
	    &threads, err) < 0 ||
	    provider_get_number_at(v, "dram", path, CLOUDRIFT_BYTES_MAX, &dram,
	    err) < 0 ||
	    provider_get_number_at(v, "vram", path, OFFER_VRAM_MAX * GIB, &vram,
	    err) < 0)
		return -1;
	if (cents <= 0) {
		provider_skip(run, &st->skipped[SKIP_PRICE]);
		return 0;
	}
	if (dc_map(v, "nodes_per_dc", path, &nodes, err) < 0 ||
	    dc_map(v, "available_nodes_per_dc", path, &avail, err) < 0)
		return -1;
	if (nodes != NULL) {
		cJSON_ArrayForEach(dc, nodes) {
			if (dc_nodes(nodes, dc->string, path, "nodes_per_dc", &n,
			    err) < 0 ||
			    dc_nodes(avail, dc->string, path,
			    "available_nodes_per_dc", &nfree, err) < 0)
				return -1;
			provider_copy(dcname, sizeof dcname, dc->string);
			if (n < 1 || dcname[0] == '\0')
				continue;
			any = true;
			o = offer_list_add(&run->offers);
			offer_set_keyf(&run->offers, o, "%s/%s", name, dcname);
			offer_set_instance_type(&run->offers, o, name);
			offer_set_region(&run->offers, o, dcname);
			o->gpu_count = (int)count;
			provider_set_gpu(run, o, gpu,
			    (int)lround(fmax(vram, 0) / GIB));
			if (o->gpu[0] == '\0')
				o->vram_gb = (int)lround(fmax(vram, 0) / GIB);
			o->interconnect = provider_interconnect(NULL, o->gpu,
			    o->gpu_count);
			o->vcpus = (int)(threads > 0 ? threads : fmax(cpus, 0));
			o->ram_gb = round(fmax(dram, 0) / GIB * 100) / 100;
			/* Cents to micro-USD: x 10^4, to the micro-dollar. */
			o->price = llround(cents * 10000);
			str_copy(o->currency, sizeof o->currency, "USD");
			o->price_original = o->price;
			o->availability = nfree < 0 ? AV_UNKNOWN :
			    nfree >= 1 ? AV_AVAILABLE : AV_UNAVAILABLE;
			if (provider_offer_done(run, err) < 0)
				return -1;
		}
	}
	if (!any)
		provider_skip(run, &st->skipped[SKIP_NOWHERE]);
	return 0;
}

/* One instance type: its GPU name, then its variants. */
static int
cloudrift_type(struct provider_run *run, struct cloudrift_state *st,
    const cJSON *type, const char *path, struct err *err)
{
	const cJSON *variants, *v;
	char brand[OFFER_NAME_MAX], name[OFFER_NAME_MAX];
	char vpath[OFFER_NAME_MAX + 48];
	bool found;
	size_t i = 0;

	if (!cJSON_IsObject(type)) {
		err_set(err, "%s: expected an object, got %s", path,
		    json_type_name(type));
		return -1;
	}
	if (json_get_string(type, "name", path, name, sizeof name, NULL,
	    err) < 0 ||
	    json_get_string(type, "brand_short", path, brand, sizeof brand,
	    &found, err) < 0)
		return -1;
	if ((variants = json_get_array(type, "variants", path, err)) == NULL)
		return -1;
	cJSON_ArrayForEach(v, variants) {
		snprintf(vpath, sizeof vpath, "%s.variants[%zu]", path, i++);
		/* Without a brand the family name is the GPU's only name. */
		if (cloudrift_variant(run, st, brand[0] != '\0' ? brand : name,
		    v, vpath, err) < 0)
			return -1;
	}
	return 0;
}

static int
cloudrift_list(struct provider_run *run, const cJSON *root, struct err *err)
{
	struct cloudrift_state *st = run->state;
	const cJSON *data, *types, *type;
	char path[48];
	size_t i = 0;

	if ((data = json_get_object(root, "data", "response", err)) == NULL ||
	    (types = json_get_array(data, "instance_types", "response.data",
	    err)) == NULL)
		return -1;
	cJSON_ArrayForEach(type, types) {
		snprintf(path, sizeof path, "instance_types[%zu]", i++);
		if (cloudrift_type(run, st, type, path, err) < 0)
			return -1;
	}
	return 0;
}

static int
cloudrift_start(struct provider_run *run, struct err *err)
{
	struct http_request *req;

	(void)err;
	run->state = xcalloc(1, sizeof(struct cloudrift_state));
	req = provider_queue(run, provider_url(run, CLOUDRIFT_ORIGIN,
	    CLOUDRIFT_PATH), "POST", 0);
	req->body = xstrdup(cloudrift_query);
	req->body_len = strlen(cloudrift_query);
	http_request_header(req, "Content-Type", "application/json");
	http_request_header(req, "Accept", "application/json");
	return 0;
}

static int
cloudrift_response(struct provider_run *run, const struct http_result *result,
    struct err *err)
{
	return provider_parse_json(run, result, cloudrift_list, err);
}

static int
cloudrift_finish(struct provider_run *run, struct err *err)
{
	struct cloudrift_state *st = run->state;

	provider_note_skips(run, st->skipped, cloudrift_skip_what, SKIP_COUNT);
	(void)err;
	return 0;
}

static void
cloudrift_done(struct provider_run *run)
{
	free(run->state);
	run->state = NULL;
}

const struct provider provider_cloudrift = {
	.id = "cloudrift",
	.name = "CloudRift",
	.key_env = NULL,
	.key_required = false,
	.currency = NULL,
	.start = cloudrift_start,
	.response = cloudrift_response,
	.finish = cloudrift_finish,
	.done = cloudrift_done,
};
