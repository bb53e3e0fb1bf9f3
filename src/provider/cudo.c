/*
 * cudo.c: the Cudo Compute adapter.
 *
 * One keyless list, no paging:
 *
 *	GET https://rest.compute.cudo.org/v1/vms/machine-types
 *
 * answers {"machineTypes": [...]}, one record per (data center, machine
 * type) with the prices of the parts a VM is built from, as decimal
 * strings in USD per hour: gpuPriceHr per GPU, vcpuPriceHr per vCPU,
 * memoryGibPriceHr per GiB of RAM (research/providers.md section 14).
 *
 * A Cudo VM is priced as the sum of its parts, so every GPU record gives
 * one offer per count n of 1, 2, 4 and 8 within [minGpuPerVm,
 * maxGpuPerVm] (1..8 when absent), with the smallest legal host:
 *
 *	vcpus	= max(1, ceil(n x minVcpuPerGpu))
 *	ram_gib	= max(1, ceil(vcpus / maxVcpuPerMemoryGib))
 *	price	= n x gpuPriceHr + vcpus x vcpuPriceHr + ram_gib x memoryGibPriceHr
 *
 * so the vCPU:GiB ratio is the largest the data center allows; vcpus and
 * ram_gb are stored so the price can be re-derived. Disk and IPv4 are
 * extra. Key "<machineType>/<dataCenterId>/<n>", instance type the
 * machineType, region the dataCenterId.
 *
 *	gpu		gpuModel ("H100 SXM" kept as gpu_raw), resolved with
 *			gpuMemoryGib as the hint
 *	interconnect	"SXM" in gpuModel nvlink, "PCIe" pcie, else the
 *			model's only form
 *	availability	an n-GPU VM needs one host with n free GPUs:
 *			maxGpuFree >= n available, else unavailable; absent
 *			unknown
 *
 * Skipped and counted in run->skipped and run->note: CPU types (empty
 * gpuModel), records whose gpuPriceHr is 0 or absent, and records whose
 * limits allow no count of 1, 2, 4 or 8.
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

#define CUDO_ORIGIN		"https://rest.compute.cudo.org"
#define CUDO_PATH		"/v1/vms/machine-types"
#define CUDO_PART_MAX		((int64_t)1000 * MONEY_UNIT)	/* per unit-hour */
#define CUDO_VCPU_PER_GPU_MAX	1024.0
#define CUDO_RATIO_MAX		1024.0	/* vCPUs per GiB */
#define CUDO_FREE_MAX		1000000	/* free GPUs in one data center */

static const int cudo_counts[] = { 1, 2, 4, 8 };

/* Why a record gave no offer, in the order the note lists them. */
enum cudo_skip {
	SKIP_CPU,
	SKIP_ZERO,
	SKIP_COUNTS,
	SKIP_COUNT
};

static const char *const cudo_skip_what[SKIP_COUNT][2] = {
	{ "CPU type", "CPU types" },
	{ "GPU type without a price", "GPU types without a price" },
	{ "GPU type without a count of 1, 2, 4 or 8",
	  "GPU types without a count of 1, 2, 4 or 8" },
};

/* The refresh in progress (run->state). */
struct cudo_state {
	size_t	 skipped[SKIP_COUNT];
};

/* What a record's offers share. */
struct cudo_record {
	char	 type[OFFER_NAME_MAX];
	char	 dc[OFFER_NAME_MAX];
	char	 gpu_model[OFFER_NAME_MAX];
	int	 vram_gb;		/* gpuMemoryGib; 0 unknown */
	int64_t	 gpu_price, vcpu_price, mem_price;	/* micro-USD */
	double	 min_vcpu_per_gpu;
	double	 max_vcpu_per_gib;	/* may be INFINITY */
	long long min_gpus, max_gpus;
	long long max_free;		/* -1 unknown */
};

/* A price object {"value": "0.52"} in micro-USD; MONEY_NONE if absent. */
static int
get_part(const cJSON *rec, const char *key, const char *path, int64_t *out,
    struct err *err)
{
	const cJSON *obj = cJSON_GetObjectItemCaseSensitive(rec, key);
	char ppath[OFFER_NAME_MAX * 2];

	*out = MONEY_NONE;
	if (obj == NULL || cJSON_IsNull(obj))
		return 0;
	snprintf(ppath, sizeof ppath, "%s.%s", path, key);
	if (!cJSON_IsObject(obj)) {
		err_set(err, "%s: expected an object, got %s", ppath,
		    json_type_name(obj));
		return -1;
	}
	if (json_get_money(obj, "value", ppath, out, NULL, err) < 0)
		return -1;
	if (*out > CUDO_PART_MAX) {
		err_set(err, "%s.value %.2f is out of range 0..%d USD/h", ppath,
		    (double)*out / MONEY_UNIT, (int)(CUDO_PART_MAX / MONEY_UNIT));
		return -1;
	}
	return 0;
}

/*
 * A limit in 0..max, or "Infinity" (a number or that string) when inf_ok;
 * dflt when absent.
 */
static int
get_limit(const cJSON *rec, const char *key, const char *path, double max,
    bool inf_ok, double dflt, double *out, struct err *err)
{
	const cJSON *item = cJSON_GetObjectItemCaseSensitive(rec, key);

	if (inf_ok && cJSON_IsString(item) &&
	    strcmp(item->valuestring, "Infinity") == 0) {
		*out = INFINITY;
		return 0;
	}
	if (provider_get_number(rec, key, path, max, out, err) < 0)
		return -1;
	if (*out < 0)
		*out = dflt;
	return 0;
}

/* Read a record's fields; 1 (with *skip) when it is no GPU offer. */
static int
cudo_record(const cJSON *rec, const char *path, struct cudo_record *r,
    enum cudo_skip *skip, struct err *err)
{
	long long v;
	bool found;

	memset(r, 0, sizeof *r);
	if (json_get_string(rec, "machineType", path, r->type, sizeof r->type,
	    NULL, err) < 0 ||
	    json_get_string(rec, "dataCenterId", path, r->dc, sizeof r->dc,
	    NULL, err) < 0 ||
	    json_get_string(rec, "gpuModel", path, r->gpu_model,
	    sizeof r->gpu_model, &found, err) < 0)
		return -1;
	if (r->type[0] == '\0' || r->dc[0] == '\0') {
		err_set(err, "%s: empty machineType or dataCenterId", path);
		return -1;
	}
	if (!found || r->gpu_model[0] == '\0') {
		*skip = SKIP_CPU;
		return 1;
	}
	if (get_part(rec, "gpuPriceHr", path, &r->gpu_price, err) < 0 ||
	    get_part(rec, "vcpuPriceHr", path, &r->vcpu_price, err) < 0 ||
	    get_part(rec, "memoryGibPriceHr", path, &r->mem_price, err) < 0)
		return -1;
	if (!money_known(r->gpu_price) || r->gpu_price == 0) {
		*skip = SKIP_ZERO;
		return 1;
	}
	if (!money_known(r->vcpu_price) || !money_known(r->mem_price)) {
		err_set(err, "%s: a GPU type without vcpuPriceHr or "
		    "memoryGibPriceHr", path);
		return -1;
	}
	if (get_limit(rec, "minVcpuPerGpu", path, CUDO_VCPU_PER_GPU_MAX, false,
	    1, &r->min_vcpu_per_gpu, err) < 0 ||
	    get_limit(rec, "maxVcpuPerMemoryGib", path, CUDO_RATIO_MAX, true,
	    1, &r->max_vcpu_per_gib, err) < 0)
		return -1;
	if (r->max_vcpu_per_gib <= 0) {
		err_set(err, "%s.maxVcpuPerMemoryGib: must be above 0", path);
		return -1;
	}
	if (json_get_int(rec, "minGpuPerVm", path, 0, OFFER_GPU_COUNT_MAX,
	    &r->min_gpus, &found, err) < 0)
		return -1;
	if (!found)
		r->min_gpus = 1;
	if (json_get_int(rec, "maxGpuPerVm", path, 0, OFFER_GPU_COUNT_MAX,
	    &r->max_gpus, &found, err) < 0)
		return -1;
	if (!found)
		r->max_gpus = 8;
	if (json_get_int(rec, "maxGpuFree", path, 0, CUDO_FREE_MAX,
	    &r->max_free, &found, err) < 0)
		return -1;
	if (!found)
		r->max_free = -1;
	if (json_get_int(rec, "gpuMemoryGib", path, 0, OFFER_VRAM_MAX, &v,
	    &found, err) < 0)
		return -1;
	r->vram_gb = found ? (int)v : 0;
	return 0;
}

/* The offer of n GPUs of a record. */
static int
cudo_offer(struct provider_run *run, const struct cudo_record *r, int n,
    struct err *err)
{
	struct offer *o;
	double vcpus, ram;
	int64_t price, part;

	vcpus = fmax(1, ceil(n * r->min_vcpu_per_gpu));
	ram = fmax(1, ceil(vcpus / r->max_vcpu_per_gib));
	price = money_mul(r->gpu_price, n);
	if ((part = money_mul(r->vcpu_price, (int64_t)vcpus)) == MONEY_NONE ||
	    __builtin_add_overflow(price, part, &price) ||
	    (part = money_mul(r->mem_price, (int64_t)ram)) == MONEY_NONE ||
	    __builtin_add_overflow(price, part, &price)) {
		err_set(err, "the price of %d GPUs overflows", n);
		return -1;
	}
	o = offer_list_add(&run->offers);
	snprintf(o->key, sizeof o->key, "%.61s/%.61s/%d", r->type, r->dc, n);
	str_copy(o->instance_type, sizeof o->instance_type, r->type);
	str_copy(o->region, sizeof o->region, r->dc);
	o->gpu_count = n;
	provider_set_gpu(run, o, r->gpu_model, r->vram_gb);
	if (o->gpu[0] == '\0')
		o->vram_gb = r->vram_gb;
	o->interconnect = provider_interconnect(r->gpu_model, o->gpu, n);
	o->vcpus = (int)vcpus;
	o->ram_gb = ram;
	o->price = price;
	if (r->max_free >= 0)
		o->availability = r->max_free >= n ? AV_AVAILABLE :
		    AV_UNAVAILABLE;
	return provider_offer_done(run, err);
}

/* One record: its offers, or a reason it has none. */
static int
cudo_type(struct provider_run *run, struct cudo_state *st, const cJSON *rec,
    const char *path, struct err *err)
{
	struct cudo_record r;
	enum cudo_skip skip = SKIP_COUNT;
	size_t i;
	int rc;
	bool any = false;

	if (!cJSON_IsObject(rec)) {
		err_set(err, "%s: expected an object, got %s", path,
		    json_type_name(rec));
		return -1;
	}
	if ((rc = cudo_record(rec, path, &r, &skip, err)) < 0)
		return -1;
	if (rc == 0) {
		for (i = 0; i < sizeof cudo_counts / sizeof cudo_counts[0];
		    i++) {
			if (cudo_counts[i] < r.min_gpus ||
			    cudo_counts[i] > r.max_gpus)
				continue;
			if (cudo_offer(run, &r, cudo_counts[i], err) < 0) {
				err_prefix(err, "%s (%s in %s)", path, r.type,
				    r.dc);
				return -1;
			}
			any = true;
		}
		if (any)
			return 0;
		skip = SKIP_COUNTS;
	}
	provider_skip(run, &st->skipped[skip]);
	return 0;
}

/* Queue the one request. */
static int
cudo_start(struct provider_run *run, struct err *err)
{
	struct http_request *req;

	(void)err;
	run->state = xcalloc(1, sizeof(struct cudo_state));
	req = provider_queue(run, provider_url(run, CUDO_ORIGIN, CUDO_PATH),
	    NULL, 0);
	provider_conditional(req);	/* one document: no paging */
	http_request_header(req, "Accept", "application/json");
	return 0;
}

/* The machine types. */
static int
cudo_types(struct provider_run *run, const cJSON *root, struct err *err)
{
	struct cudo_state *st = run->state;
	const cJSON *types, *rec;
	char path[48];
	size_t i = 0;

	if ((types = json_get_array(root, "machineTypes", "response", err)) ==
	    NULL)
		return -1;
	cJSON_ArrayForEach(rec, types) {
		snprintf(path, sizeof path, "machineTypes[%zu]", i++);
		if (cudo_type(run, st, rec, path, err) < 0)
			return -1;
	}
	return 0;
}

static int
cudo_response(struct provider_run *run, const struct http_result *result,
    struct err *err)
{
	return provider_parse_json(run, result, cudo_types, err);
}

/* Say what was skipped. */
static int
cudo_finish(struct provider_run *run, struct err *err)
{
	struct cudo_state *st = run->state;
	size_t i;

	for (i = 0; i < SKIP_COUNT; i++) {
		if (st->skipped[i] == 0)
			continue;
		provider_note(run, "%zu %s skipped", st->skipped[i],
		    cudo_skip_what[i][st->skipped[i] == 1 ? 0 : 1]);
	}
	(void)err;
	return 0;
}

/* Free the state. */
static void
cudo_done(struct provider_run *run)
{
	free(run->state);
	run->state = NULL;
}

const struct provider provider_cudo = {
	.id = "cudo",
	.name = "Cudo Compute",
	.key_env = NULL,
	.key_required = false,
	.start = cudo_start,
	.response = cudo_response,
	.finish = cudo_finish,
	.done = cudo_done,
};
