/*
 * vultr.c: the Vultr adapter.
 *
 * Two lists, fetched in parallel, each followed page by page through
 * meta.links.next (a cursor: the next request adds "&cursor=<next>";
 * "" or no meta ends the list; VULTR_PAGES_MAX pages at most and a page
 * that names its own cursor again fail as a loop):
 *
 *	GET https://api.vultr.com/v2/plans?type=all&per_page=500	"plans"
 *	GET https://api.vultr.com/v2/plans-metal?per_page=500	"plans_metal"
 *
 * No key is needed; one that is set goes in "Authorization: Bearer".
 *
 * A plan is a GPU plan when it has a gpu_type other than "none", or when
 * its id is in vultr_known_plans (bare metal and dedicated "vdm" plans
 * carry no GPU fields at all). The GPU count is the plan's gpu_count (a
 * string, "1" or a fraction "1/4"), else the table's, else gpu_vram_gb
 * (the plan's TOTAL VRAM) over the model's VRAM when that divides
 * exactly. Skipped and counted in run->skipped and run->note: CPU plans,
 * fractional vGPU slices (a fraction, or less memory than one card), GPU
 * plans whose count cannot be known (an ambiguous family such as
 * NVIDIA_A100 without gpu_count, VRAM that does not divide, an unknown
 * bare-metal id), zero-priced plans and GPU plans with no location.
 *
 * One offer per (plan, location): key "<plan id>/<location>", instance
 * type the plan id, region the location. Fields:
 *
 *	gpu		gpu_type ("NVIDIA_A100" kept as gpu_raw), resolved with
 *			the VRAM per GPU, gpu_vram_gb / count, as the hint
 *			(NVIDIA_A100 with 80 GB per GPU is A100-80); vram_gb =
 *			that per-GPU figure (1536 GB / 8 = 192 for the B200),
 *			else the model's VRAM
 *	price		hourly_cost; location_cost[<location>].hourly_cost
 *			overrides it; 0 or missing: not an offer
 *	price		none when deploy_ondemand is false: the plan is not
 *			sold on demand, so it is no offer
 *	spot		never: hourly_cost_preemptible is in the plan list,
 *			but no other source confirms it and whether a
 *			preemptible deploy is a create-time flag is unknown,
 *			so there is no command to rent at it (issue 48:
 *			rentable.h's spot_launch_providers[])
 *	interconnect	the table's for known plans (HGX 8-GPU boards nvlink);
 *			else SXM in gpu_type nvlink, PCIE pcie, several GPUs
 *			pcie, one GPU unknown
 *	vcpus		vcpu_count (VM), cpu_threads or cpu_count (metal)
 *	ram_gb		ram (MB) / 1024, to 0.01
 *	availability	unknown (locations[] lists where a plan is sold, not
 *			stock)
 */
#include "config.h"
#include "provider.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "gpu.h"
#include "json.h"
#include "money.h"
#include "str.h"
#include "xalloc.h"

#define VULTR_ORIGIN		"https://api.vultr.com"
#define VULTR_PAGES_MAX		50	/* per list: more is a cursor loop */
#define VULTR_CURSOR_MAX	512	/* bytes */
/* GB in one plan: every GPU at the per-GPU limit. */
#define VULTR_VRAM_MAX		((double)OFFER_GPU_COUNT_MAX * OFFER_VRAM_MAX)
#define VULTR_RAM_MAX		(OFFER_RAM_MAX * 1000)	/* MB */

/* The two plan lists; the index is the request tag. */
enum vultr_list {
	LIST_PLANS,
	LIST_METAL,
	LIST_COUNT
};

static const struct {
	const char	*path;		/* first page */
	const char	*key;		/* the array in each page */
} vultr_lists[LIST_COUNT] = {
	{ "/v2/plans?type=all&per_page=500", "plans" },
	{ "/v2/plans-metal?per_page=500", "plans_metal" },
};

/* Why a plan gave no offer, in the order the note lists them. */
enum vultr_skip {
	SKIP_FRACTIONAL,
	SKIP_CPU,
	SKIP_ZERO,
	SKIP_SHAPE,
	SKIP_NOWHERE,
	SKIP_NOT_ON_DEMAND,
	SKIP_COUNT,
	SKIP_NONE = SKIP_COUNT
};

static const char *const vultr_skip_what[SKIP_COUNT][2] = {
	{ "fractional vGPU plan", "fractional vGPU plans" },
	{ "CPU plan", "CPU plans" },
	{ "zero-priced plan", "zero-priced plans" },
	{ "GPU plan of unknown shape", "GPU plans of unknown shape" },
	{ "GPU plan without a location", "GPU plans without a location" },
	{ "GPU plan not sold on demand",
	    "GPU plans not sold on demand" },
};

/*
 * GPU plans whose API entry has no GPU fields: bare metal (plans-metal)
 * and dedicated metal ("vdm", in /v2/plans). From gpuhunt's
 * BARE_METAL_GPU_DETAILS / VDM_GPU_DETAILS and sc-crawler's
 * _DEDICATED_METAL_GPU_PLANS (research/providers.md section 6). Left
 * out on purpose: vcg-mi325x-252c-2872g-1536vram (gpuhunt says 8 GPUs,
 * sc-crawler and the id's 1536 GB say 6). vram_gb is per GPU and only
 * picks the family member (A100 80 GB).
 */
static const struct vultr_known_plan {
	const char	*id;
	const char	*gpu_type;	/* Vultr's spelling: the gpu_raw */
	int		 count;
	int		 vram_gb;
	enum interconnect ic;
} vultr_known_plans[] = {
	/* Bare metal. HGX 8-GPU boards are NVLink/NVSwitch. */
	{ "vbm-48c-1024gb-4-a100-gpu",	  "NVIDIA_A100", 4, 80, IC_UNKNOWN },
	{ "vbm-112c-2048gb-8-a100-gpu",	  "NVIDIA_A100", 8, 80, IC_NVLINK },
	{ "vbm-112c-2048gb-8-h100-gpu",	  "NVIDIA_H100", 8, 80, IC_NVLINK },
	{ "vbm-256c-3072gb-8-b200-gpu",	  "NVIDIA_B200", 8, 192, IC_NVLINK },
	/* gpuhunt maps this "l40" id to L40S, Vultr's only L40-class card. */
	{ "vbm-64c-2048gb-8-l40-gpu",	  "NVIDIA_L40S", 8, 48, IC_PCIE },
	{ "vbm-72c-480gb-gh200-gpu",	  "NVIDIA_GH200", 1, 96, IC_UNKNOWN },
	/* AMD OAM boards: Infinity Fabric is not NVLink. */
	{ "vbm-256c-2048gb-8-mi300x-gpu", "AMD_MI300X", 8, 192, IC_UNKNOWN },
	{ "vbm-256c-3072gb-8-mi325x-gpu", "AMD_MI325X", 8, 256, IC_UNKNOWN },
	{ "vbm-256c-3072gb-8-mi355x-gpu", "AMD_MI355X", 8, 288, IC_UNKNOWN },
	/* Dedicated metal (vdm). A16 and L40S have no NVLink at all. */
	{ "vcg-a16-6c-64g-16vram",	  "NVIDIA_A16", 1, 16, IC_PCIE },
	{ "vcg-a16-96c-878g-256vram",	  "NVIDIA_A16", 16, 16, IC_PCIE },
	{ "vcg-a16-96c-960g-256vram",	  "NVIDIA_A16", 16, 16, IC_PCIE },
	{ "vcg-a40-24c-120g-48vram",	  "NVIDIA_A40", 1, 48, IC_PCIE },
	{ "vcg-a40-96c-480g-192vram",	  "NVIDIA_A40", 4, 48, IC_UNKNOWN },
	{ "vcg-a100-12c-120g-80vram",	  "NVIDIA_A100", 1, 80, IC_UNKNOWN },
	{ "vcg-a100-96c-896g-320vram",	  "NVIDIA_A100", 4, 80, IC_UNKNOWN },
	{ "vcg-a100-96c-960g-640vram",	  "NVIDIA_A100", 8, 80, IC_NVLINK },
	{ "vcg-h100-216c-1914gb-640vram", "NVIDIA_H100", 8, 80, IC_NVLINK },
	/* 1536 GB of VRAM over 8 GPUs: Vultr's B200 is the 192 GB figure. */
	{ "vcg-b200-248c-2826g-1536vram", "NVIDIA_B200", 8, 192, IC_NVLINK },
	{ "vcg-mi355x-252c-2872g-2304vram", "AMD_MI355X", 8, 288, IC_UNKNOWN },
};

/* What GPUs a plan has. */
struct vultr_shape {
	char	gpu_raw[OFFER_NAME_MAX];
	int	count;
	int	vram_gb;		/* per GPU: resolve hint, 0 unknown */
	enum interconnect ic;
};

/* The refresh in progress (run->state). */
struct vultr_state {
	int	 pages[LIST_COUNT];	/* requests made per list */
	char	*cursor[LIST_COUNT];	/* of the last page asked for */
	size_t	 skipped[SKIP_COUNT];
};

/* Queue the next page of list (the first when no cursor is stored). */
static void
vultr_queue(struct provider_run *run, struct vultr_state *st,
    enum vultr_list list)
{
	struct http_request *req;
	char *path, *cursor;

	if (st->cursor[list] != NULL) {
		cursor = provider_url_escape(st->cursor[list]);
		path = xasprintf("%s&cursor=%s", vultr_lists[list].path,
		    cursor);
		free(cursor);
	} else
		path = xstrdup(vultr_lists[list].path);
	req = provider_queue(run, provider_url(run, VULTR_ORIGIN, path), NULL,
	    (int)list);
	free(path);
	/* Page 1 is the whole list when the list was one page last time. */
	if (st->cursor[list] == NULL)
		provider_first_page(run, req, vultr_lists[list].key);
	http_request_header(req, "Accept", "application/json");
	provider_bearer(run, req);
	st->pages[list]++;
}

/*
 * gpu_count: a whole number or a string "N" or "N/D". *present is false
 * when there is none; *fraction is set for a count that is not whole.
 */
static int
get_gpu_count(const cJSON *plan, const char *path, long *count,
    bool *present, bool *fraction, struct err *err)
{
	const cJSON *item = cJSON_GetObjectItemCaseSensitive(plan, "gpu_count");
	char shown[24], *end;
	const char *s;
	long num, den = 1;

	*count = 0;
	*present = *fraction = false;
	if (item == NULL || cJSON_IsNull(item))
		return 0;
	*present = true;
	if (cJSON_IsNumber(item)) {
		if (!(item->valuedouble >= 0 && item->valuedouble <= 1e6)) {
			err_set(err, "gpu_count %g is out of range 1..%d",
			    item->valuedouble, OFFER_GPU_COUNT_MAX);
			return -1;
		}
		*fraction = item->valuedouble > floor(item->valuedouble);
		*count = (long)item->valuedouble;
		return 0;
	}
	if (!cJSON_IsString(item)) {
		err_set(err, "%s.gpu_count: expected a number or a string, "
		    "got %s", path, json_type_name(item));
		return -1;
	}
	s = item->valuestring;
	if (s[0] < '0' || s[0] > '9')
		goto bad;
	num = strtol(s, &end, 10);
	if (*end == '/') {
		if (end[1] < '0' || end[1] > '9')
			goto bad;
		den = strtol(end + 1, &end, 10);
	}
	if (*end != '\0' || num > 1000000 || den < 1 || den > 1000000)
		goto bad;
	*fraction = num % den != 0;
	*count = num / den;
	return 0;
bad:
	str_sanitize(shown, sizeof shown, s, strlen(s));
	err_set(err, "%s.gpu_count: expected a whole number or a fraction, "
	    "got \"%s\"", path, shown);
	return -1;
}

/* The table entry for a plan id, or NULL. */
static const struct vultr_known_plan *
vultr_known(const char *id)
{
	size_t i;

	for (i = 0; i < sizeof vultr_known_plans /
	    sizeof vultr_known_plans[0]; i++)
		if (strcmp(vultr_known_plans[i].id, id) == 0)
			return &vultr_known_plans[i];
	return NULL;
}

/*
 * By the type's words or the model's only form; otherwise several GPUs
 * in a Vultr VM are PCIe passthrough, and one GPU is unknown.
 */
static enum interconnect
vultr_type_ic(const char *gpu_type, const char *gpu, long count)
{
	enum interconnect ic = provider_interconnect(gpu_type, gpu, (int)count);

	if (ic == IC_UNKNOWN && count > 1)
		ic = IC_PCIE;
	return ic;
}

/* Smallest and largest VRAM of the models gpu_type may name; 0 if none. */
static void
vram_range(const char *gpu_type, int hint, int *lo, int *hi)
{
	const struct gpu_model *models[GPU_MATCH_MAX];
	size_t n, i;

	*lo = *hi = 0;
	n = gpu_query(gpu_type, models, GPU_MATCH_MAX);
	if (n == 0 && (models[0] = gpu_resolve(gpu_type, hint)) != NULL)
		n = 1;
	for (i = 0; i < n; i++) {
		if (*lo == 0 || models[i]->vram_gb < *lo)
			*lo = models[i]->vram_gb;
		if (models[i]->vram_gb > *hi)
			*hi = models[i]->vram_gb;
	}
}

/* A plan without gpu_type: a known GPU plan, or why it is skipped. */
static int
vultr_shape_known(const cJSON *plan, const char *path, const char *id,
    bool metal, struct vultr_shape *sh, enum vultr_skip *skip,
    struct err *err)
{
	const struct vultr_known_plan *known = vultr_known(id);
	char brand[32], type[32];
	bool found, typed;

	if (known != NULL) {
		str_copy(sh->gpu_raw, sizeof sh->gpu_raw, known->gpu_type);
		sh->count = known->count;
		sh->vram_gb = known->vram_gb;
		sh->ic = known->ic;
		return 0;
	}
	if (json_get_string(plan, "gpu_brand", path, brand, sizeof brand,
	    &found, err) < 0 ||
	    json_get_string(plan, "type", path, type, sizeof type, &typed,
	    err) < 0)
		return -1;
	/* A GPU plan the table does not describe, or a CPU plan. */
	if ((found && brand[0] != '\0' && !str_eq_nocase(brand, "none")) ||
	    (typed && (str_eq_nocase(type, "vcg") ||
	    str_eq_nocase(type, "vdm"))) ||
	    (metal && strstr(id, "gpu") != NULL))
		*skip = SKIP_SHAPE;
	else
		*skip = SKIP_CPU;
	return 0;
}

/*
 * What GPUs the plan has: 0 with sh filled, or with *skip set to why
 * the plan is no offer; -1 for an impossible record.
 */
static int
vultr_shape(const cJSON *plan, const char *path, const char *id, bool metal,
    struct vultr_shape *sh, enum vultr_skip *skip, struct err *err)
{
	const struct vultr_known_plan *known = vultr_known(id);
	const struct gpu_model *m;
	char gpu_type[OFFER_NAME_MAX];
	double total, per_gpu;
	bool found, present, fraction;
	long count;
	int lo, hi;

	memset(sh, 0, sizeof *sh);
	*skip = SKIP_NONE;
	if (json_get_string(plan, "gpu_type", path, gpu_type, sizeof gpu_type,
	    &found, err) < 0)
		return -1;
	if (!found || gpu_type[0] == '\0' || str_eq_nocase(gpu_type, "none"))
		return vultr_shape_known(plan, path, id, metal, sh, skip, err);
	if (get_gpu_count(plan, path, &count, &present, &fraction, err) < 0 ||
	    provider_get_number(plan, "gpu_vram_gb", path, VULTR_VRAM_MAX,
	    &total, err) < 0)
		return -1;
	if (fraction) {
		*skip = SKIP_FRACTIONAL;
		return 0;
	}
	if (!present && known != NULL) {
		count = known->count;
		present = true;
	}
	if (!present) {
		/* Only a model with one VRAM size can be counted. */
		m = gpu_resolve(gpu_type, 0);
		if (m == NULL || total <= 0)
			*skip = SKIP_SHAPE;
		else if (total < m->vram_gb)
			*skip = SKIP_FRACTIONAL;
		else if (fmod(total, m->vram_gb) > 0)
			*skip = SKIP_SHAPE;
		else
			count = (long)(total / m->vram_gb);
		if (*skip != SKIP_NONE)
			return 0;
	}
	if (count < 1 || count > OFFER_GPU_COUNT_MAX) {
		err_set(err, "gpu_count %ld is out of range 1..%d", count,
		    OFFER_GPU_COUNT_MAX);
		return -1;
	}
	sh->count = (int)count;
	sh->vram_gb = known != NULL ? known->vram_gb : 0;
	if (total > 0) {
		per_gpu = total / (double)count;
		sh->vram_gb = (int)lround(per_gpu);
		/* Less memory than one card is a slice, whatever the count. */
		vram_range(gpu_type, sh->vram_gb, &lo, &hi);
		if (lo > 0 && per_gpu < lo * 0.85) {
			*skip = SKIP_FRACTIONAL;
			return 0;
		}
		if (hi > 0 && per_gpu > hi * 1.25) {
			*skip = SKIP_SHAPE;
			return 0;
		}
	}
	str_copy(sh->gpu_raw, sizeof sh->gpu_raw, gpu_type);
	if (known != NULL)
		sh->ic = known->ic;
	else {
		const struct gpu_model *model =
		    gpu_resolve(gpu_type, sh->vram_gb);

		sh->ic = vultr_type_ic(gpu_type, model != NULL ? model->id :
		    "", count);
	}
	return 0;
}

/* A price in micro-USD: 0..OFFER_PRICE_MAX, MONEY_NONE when absent. */
static int
get_price(const cJSON *obj, const char *key, const char *path,
    int64_t *out, struct err *err)
{
	bool found;

	if (json_get_money(obj, key, path, out, &found, err) < 0)
		return -1;
	if (money_known(*out) && *out > OFFER_PRICE_MAX) {
		err_set(err, "%s %.2f is out of range 0..%d USD/h", key,
		    (double)*out / MONEY_UNIT, OFFER_PRICE_MAX_USD);
		return -1;
	}
	return 0;
}

/* What every offer of a plan shares. */
struct vultr_plan_info {
	const char	*id;
	const struct vultr_shape *shape;
	int64_t		 price;
	int		 vcpus;
	double		 ram_gb;
	bool		 ondemand;	/* deploy_ondemand not false */
};

/* The offer of plan p in one location; *made is set when one was added. */
static int
vultr_offer(struct provider_run *run, const struct vultr_plan_info *p,
    const cJSON *costs, const cJSON *loc, const char *lpath, size_t first,
    bool *made, bool *zero, struct err *err)
{
	char region[OFFER_NAME_MAX], cpath[OFFER_NAME_MAX + 64];
	const cJSON *cost;
	struct offer *o;
	int64_t price = p->price, v;
	size_t i;

	*made = false;
	if (!cJSON_IsString(loc)) {
		err_set(err, "%s: expected a string, got %s", lpath,
		    json_type_name(loc));
		return -1;
	}
	provider_copy(region, sizeof region, loc->valuestring);
	if (region[0] == '\0')
		return 0;
	for (i = first; i < run->offers.n; i++)
		if (strcmp(run->offers.v[i].region, region) == 0)
			return 0;	/* listed twice */
	cost = costs != NULL ?
	    cJSON_GetObjectItemCaseSensitive(costs, loc->valuestring) : NULL;
	if (cJSON_IsObject(cost)) {
		snprintf(cpath, sizeof cpath, "location_cost.%s", region);
		if (get_price(cost, "hourly_cost", cpath, &v, err) < 0)
			return -1;
		if (money_known(v))
			price = v;
	}
	/* A plan not deployable on demand is no offer. */
	if (!p->ondemand)
		return 0;
	if (!money_known(price) || price == 0) {
		*zero = true;
		return 0;
	}
	o = offer_list_add(&run->offers);
	offer_set_keyf(&run->offers, o, "%s/%s", p->id, region);
	offer_set_instance_type(&run->offers, o, p->id);
	offer_set_region(&run->offers, o, region);
	o->gpu_count = p->shape->count;
	/* Vultr's own memory per GPU, else the model's. */
	o->vram_gb = p->shape->vram_gb;
	provider_set_gpu(run, o, p->shape->gpu_raw, p->shape->vram_gb);
	o->interconnect = p->shape->ic;
	o->vcpus = p->vcpus;
	o->ram_gb = p->ram_gb;
	o->price = price;
	o->availability = AV_UNKNOWN;
	if (provider_offer_done(run, err) < 0)
		return -1;
	*made = true;
	return 0;
}

/* Prices, host resources and flags shared by a plan's offers. */
static int
vultr_plan_info(const cJSON *plan, const char *path, bool metal,
    struct vultr_plan_info *p, struct err *err)
{
	double cpus, ram;

	if (get_price(plan, "hourly_cost", path, &p->price, err) < 0)
		return -1;
	if (provider_get_number(plan, metal ? "cpu_threads" : "vcpu_count",
	    path, OFFER_VCPUS_MAX, &cpus, err) < 0)
		return -1;
	if (cpus < 0 && metal && provider_get_number(plan, "cpu_count", path,
	    OFFER_VCPUS_MAX, &cpus, err) < 0)
		return -1;
	if (provider_get_number(plan, "ram", path, VULTR_RAM_MAX, &ram,
	    err) < 0)
		return -1;
	p->vcpus = cpus > 0 ? (int)lround(cpus) : 0;
	p->ram_gb = ram > 0 ? round(ram / 1024 * 100) / 100 : 0;
	p->ondemand = !cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(plan,
	    "deploy_ondemand"));
	return 0;
}

/* One plan of a page: its offers, or a reason it has none. */
static int
vultr_plan(struct provider_run *run, struct vultr_state *st,
    const cJSON *plan, const char *path, bool metal, struct err *err)
{
	char id[OFFER_NAME_MAX * 2], lpath[OFFER_NAME_MAX + 32];
	const cJSON *locations, *costs, *loc;
	struct vultr_plan_info p;
	struct vultr_shape shape;
	enum vultr_skip skip;
	size_t first = run->offers.n, i = 0;
	bool made, any = false, zero = false;

	if (!cJSON_IsObject(plan)) {
		err_set(err, "%s: expected an object, got %s", path,
		    json_type_name(plan));
		return -1;
	}
	if (json_get_string(plan, "id", path, id, sizeof id, NULL, err) < 0)
		return -1;
	if (id[0] == '\0' || strlen(id) >= OFFER_NAME_MAX) {
		err_set(err, "%s.id: empty or longer than %d bytes", path,
		    OFFER_NAME_MAX - 1);
		return -1;
	}
	if (vultr_shape(plan, path, id, metal, &shape, &skip, err) < 0)
		goto fail;
	if (skip != SKIP_NONE) {
		provider_skip(run, &st->skipped[skip]);
		return 0;
	}
	memset(&p, 0, sizeof p);
	p.id = id;
	p.shape = &shape;
	if (vultr_plan_info(plan, path, metal, &p, err) < 0)
		goto fail;
	locations = cJSON_GetObjectItemCaseSensitive(plan, "locations");
	if (locations != NULL && !cJSON_IsNull(locations) &&
	    json_get_array(plan, "locations", path, err) == NULL)
		goto fail;
	costs = cJSON_GetObjectItemCaseSensitive(plan, "location_cost");
	if (costs != NULL && !cJSON_IsNull(costs) && !cJSON_IsObject(costs)) {
		err_set(err, "%s.location_cost: expected an object, got %s",
		    path, json_type_name(costs));
		goto fail;
	}
	cJSON_ArrayForEach(loc, locations) {
		snprintf(lpath, sizeof lpath, "%s.locations[%zu]", path, i++);
		if (vultr_offer(run, &p, costs, loc, lpath, first, &made,
		    &zero, err) < 0)
			goto fail;
		any = any || made;
	}
	if (!any)
		provider_skip(run, &st->skipped[!p.ondemand &&
		    locations != NULL && cJSON_GetArraySize(locations) > 0 ?
		    SKIP_NOT_ON_DEMAND : zero ? SKIP_ZERO : SKIP_NOWHERE]);
	return 0;
fail:
	err_prefix(err, "plan %s", id);
	return -1;
}

/* Queue the page after this one, if meta.links.next names one. */
static int
vultr_next(struct provider_run *run, struct vultr_state *st,
    enum vultr_list list, const cJSON *root, struct err *err)
{
	const cJSON *meta, *links, *next;
	const char *what = vultr_lists[list].key;

	meta = cJSON_GetObjectItemCaseSensitive(root, "meta");
	links = cJSON_IsObject(meta) ?
	    cJSON_GetObjectItemCaseSensitive(meta, "links") : NULL;
	next = cJSON_IsObject(links) ?
	    cJSON_GetObjectItemCaseSensitive(links, "next") : NULL;
	if (next == NULL || cJSON_IsNull(next))
		goto last;
	if (!cJSON_IsString(next)) {
		err_set(err, "%s page %d: meta.links.next: expected a string, "
		    "got %s", what, st->pages[list], json_type_name(next));
		return -1;
	}
	if (next->valuestring[0] == '\0')
		goto last;
	if (strlen(next->valuestring) > VULTR_CURSOR_MAX) {
		err_set(err, "%s page %d: meta.links.next: a cursor longer "
		    "than %d bytes", what, st->pages[list], VULTR_CURSOR_MAX);
		return -1;
	}
	if (st->cursor[list] != NULL &&
	    strcmp(st->cursor[list], next->valuestring) == 0) {
		err_set(err, "%s page %d: meta.links.next repeats the page's "
		    "own cursor (a cursor loop)", what, st->pages[list]);
		return -1;
	}
	if (st->pages[list] >= VULTR_PAGES_MAX) {
		err_set(err, "%s: more than %d pages (a cursor loop?)", what,
		    VULTR_PAGES_MAX);
		return -1;
	}
	free(st->cursor[list]);
	st->cursor[list] = xstrdup(next->valuestring);
	vultr_queue(run, st, list);
	return 0;
last:
	provider_list_pages(run, what, st->pages[list]);
	return 0;
}

/* Queue the first page of both lists. */
static int
vultr_start(struct provider_run *run, struct err *err)
{
	struct vultr_state *st;

	(void)err;
	st = xcalloc(1, sizeof *st);
	run->state = st;
	vultr_queue(run, st, LIST_PLANS);
	vultr_queue(run, st, LIST_METAL);
	return 0;
}

/* One page of plans or plans_metal. */
static int
vultr_response(struct provider_run *run, const struct http_result *result,
    struct err *err)
{
	struct vultr_state *st = run->state;
	enum vultr_list list;
	const cJSON *plans, *plan;
	char path[48];
	size_t i = 0;
	cJSON *root;
	int rc = 0;

	if (result->req->tag < 0 || result->req->tag >= LIST_COUNT) {
		err_set(err, "response to an unknown request (tag %d)",
		    result->req->tag);
		return -1;
	}
	list = (enum vultr_list)result->req->tag;
	if (json_parse(result->body, result->body_len, &root, err) < 0) {
		err_prefix(err, "%s page %d", vultr_lists[list].key,
		    st->pages[list]);
		return -1;
	}
	if ((plans = json_get_array(root, vultr_lists[list].key, "response",
	    err)) == NULL)
		rc = -1;
	else
		cJSON_ArrayForEach(plan, plans) {
			snprintf(path, sizeof path, "%s[%zu]",
			    vultr_lists[list].key, i++);
			if ((rc = vultr_plan(run, st, plan, path,
			    list == LIST_METAL, err)) < 0)
				break;
		}
	if (rc == 0)
		rc = vultr_next(run, st, list, root, err);
	else if (plans == NULL)
		err_prefix(err, "%s page %d", vultr_lists[list].key,
		    st->pages[list]);
	cJSON_Delete(root);
	return rc;
}

/* Every page is in: say what was skipped. */
static int
vultr_finish(struct provider_run *run, struct err *err)
{
	struct vultr_state *st = run->state;
	size_t i;

	for (i = 0; i < SKIP_COUNT; i++)
		if (st->skipped[i] > 0)
			provider_note(run, "%zu %s skipped", st->skipped[i],
			    vultr_skip_what[i][st->skipped[i] == 1 ? 0 : 1]);
	(void)err;
	return 0;
}

/* Free the state. */
static void
vultr_done(struct provider_run *run)
{
	struct vultr_state *st = run->state;
	size_t i;

	if (st == NULL)
		return;
	for (i = 0; i < LIST_COUNT; i++)
		free(st->cursor[i]);
	free(st);
	run->state = NULL;
}

const struct provider provider_vultr = {
	.id = "vultr",
	.name = "Vultr",
	.key_env = "VULTR_API_KEY",
	.key_required = false,
	.start = vultr_start,
	.response = vultr_response,
	.finish = vultr_finish,
	.done = vultr_done,
};
