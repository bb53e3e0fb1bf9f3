/*
 * linode.c: the Akamai/Linode adapter.
 *
 * Three keyless lists, each in Linode's paged envelope ({"data": [...],
 * "page": N, "pages": M, "results": K}; page_size up to 500), every page
 * followed until page == pages (LINODE_PAGES_MAX pages at most):
 *
 *	GET https://api.linode.com/v4/linode/types?page=N&page_size=500
 *	GET https://api.linode.com/v4/regions?page=N&page_size=500
 *	GET https://api.linode.com/v4/regions/availability?page=N&page_size=500
 *
 * The three are joined in finish(), since they complete in any order.
 * One offer per (GPU plan, region where GPU plans are sold): key
 * "<plan>/<region>". A region sells GPU plans when its capabilities list
 * "GPU Linodes" (research/providers.md part 3, section 1); the stock
 * list only says whether a plan is in stock there. Fields:
 *
 *	gpu		from the plan id's family (g1-gpu-rtx6000-*: the 24 GB
 *			Quadro RTX 6000, never the RTX 6000 Ada; g2-gpu-rtx4000a*:
 *			RTX 4000 Ada; g3-gpu-rtxpro6000-blackwell-*: RTX PRO 6000
 *			Blackwell), else the label kept raw and counted unknown;
 *			the API names no GPU model and no VRAM
 *	count		gpus (never the digits of the id)
 *	vcpus, ram_gb	vcpus; memory (MB) / 1024
 *	price		price.hourly, USD per instance-hour before tax, or the
 *			region's region_prices[].hourly where one is listed.
 *			No spot.
 *	availability	a stock row (region, plan) with available true:
 *			available, false: unavailable; no row: unknown
 *
 * Skipped and counted in run->skipped and run->note: plans that are not
 * class "gpu" (CPU plans, the NETINT "accelerated" VPU plans) and GPU
 * plans without an hourly price.
 */
#include "config.h"
#include "provider.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "json.h"
#include "money.h"
#include "str.h"
#include "xalloc.h"

#define LINODE_ORIGIN		"https://api.linode.com"
#define LINODE_PAGE_SIZE	500	/* the API's largest page */
#define LINODE_PAGES_MAX	20	/* per list: more is a loop */
#define LINODE_MB_MAX		(OFFER_RAM_MAX * 1024)
#define LINODE_GPU_CAPABILITY	"GPU Linodes"

enum linode_list {
	LIST_TYPES,
	LIST_REGIONS,
	LIST_STOCK,
	LIST_COUNT
};

static const char *const linode_list_path[LIST_COUNT] = {
	"/v4/linode/types",
	"/v4/regions",
	"/v4/regions/availability",
};

static const char *const linode_list_name[LIST_COUNT] = {
	"types", "regions", "availability",
};

/* The GPU of a plan family: id prefix -> the catalogue's name. */
static const struct {
	const char *prefix;
	const char *gpu;
} linode_gpus[] = {
	{ "g1-gpu-rtx6000-", "Quadro RTX 6000 24GB" },
	{ "g2-gpu-rtx4000a", "RTX 4000 Ada" },
	{ "g3-gpu-rtxpro6000-blackwell-", "RTX PRO 6000 Blackwell" },
};

enum linode_skip {
	SKIP_CPU,
	SKIP_PRICE,
	SKIP_COUNT
};

static const char *const linode_skip_what[SKIP_COUNT][2] = {
	{ "plan without GPUs", "plans without GPUs" },
	{ "GPU plan without an hourly price", "GPU plans without an hourly price" },
};

/* A region's own price of a plan (region_prices[]). */
struct linode_override {
	char	region[OFFER_NAME_MAX];
	int64_t	hourly;
};

/* A GPU plan of the types list. */
struct linode_type {
	char	id[OFFER_NAME_MAX];
	char	label[OFFER_NAME_MAX];
	int	gpus;
	int	vcpus;
	double	memory_mb;
	int64_t	hourly;
	struct linode_override *over;
	size_t	nover;
};

/* A region selling GPU plans. */
struct linode_region {
	char	id[OFFER_NAME_MAX];
};

/* A row of the stock list. */
struct linode_stock {
	char	region[OFFER_NAME_MAX];
	char	plan[OFFER_NAME_MAX];
	bool	available;
};

/* The refresh in progress (run->state). */
struct linode_state {
	int	 pages[LIST_COUNT];	/* requests made per list */
	struct linode_type *types;
	size_t	 ntypes, types_cap;
	struct linode_region *regions;
	size_t	 nregions, regions_cap;
	struct linode_stock *stock;
	size_t	 nstock, stock_cap;
	size_t	 skipped[SKIP_COUNT];
	enum linode_list list;	/* of the page being parsed */
	long long page, npages;	/* that page's envelope */
};

/* Grow an array of n elements of size to hold one more. */
static void *
grow(void *v, size_t n, size_t *cap, size_t size)
{
	if (n < *cap)
		return v;
	*cap = *cap != 0 ? *cap * 2 : 16;
	return xreallocarray(v, *cap, size);
}

/* Queue page st->pages[list] + 1 of a list. */
static void
linode_queue(struct provider_run *run, struct linode_state *st,
    enum linode_list list)
{
	struct http_request *req;
	char *path;

	st->pages[list]++;
	path = xasprintf("%s?page=%d&page_size=%d", linode_list_path[list],
	    st->pages[list], LINODE_PAGE_SIZE);
	req = provider_queue(run, provider_url(run, LINODE_ORIGIN, path),
	    NULL, (int)list);
	free(path);
	if (st->pages[list] == 1)
		provider_first_page(run, req, linode_list_name[list]);
	http_request_header(req, "Accept", "application/json");
}

/* region_prices[] of a GPU plan. */
static int
linode_overrides(struct linode_type *t, const cJSON *type, const char *path,
    struct err *err)
{
	const cJSON *list, *item;
	char ipath[OFFER_NAME_MAX + 64], region[OFFER_NAME_MAX];
	int64_t hourly;
	size_t i = 0;
	bool found;

	list = cJSON_GetObjectItemCaseSensitive(type, "region_prices");
	if (list == NULL || cJSON_IsNull(list))
		return 0;
	if (!cJSON_IsArray(list)) {
		err_set(err, "%s.region_prices: expected an array, got %s",
		    path, json_type_name(list));
		return -1;
	}
	t->over = xcalloc((size_t)cJSON_GetArraySize(list) + 1,
	    sizeof *t->over);
	cJSON_ArrayForEach(item, list) {
		snprintf(ipath, sizeof ipath, "%s.region_prices[%zu]", path,
		    i++);
		if (!cJSON_IsObject(item)) {
			err_set(err, "%s: expected an object, got %s", ipath,
			    json_type_name(item));
			return -1;
		}
		if (json_get_string(item, "id", ipath, region, sizeof region,
		    NULL, err) < 0 ||
		    json_get_money(item, "hourly", ipath, &hourly, &found,
		    err) < 0)
			return -1;
		if (hourly > OFFER_PRICE_MAX) {
			err_set(err, "%s.hourly %.2f is out of range 0..%d USD/h",
			    ipath, (double)hourly / MONEY_UNIT,
			    OFFER_PRICE_MAX_USD);
			return -1;
		}
		/* A region listed without an hourly price keeps the base. */
		if (!found || hourly == 0 || region[0] == '\0')
			continue;
		str_copy(t->over[t->nover].region, sizeof t->over[0].region,
		    region);
		t->over[t->nover++].hourly = hourly;
	}
	return 0;
}

/* One plan of the types list: kept when it is a GPU plan with a price. */
static int
linode_type(struct provider_run *run, struct linode_state *st,
    const cJSON *type, const char *path, struct err *err)
{
	struct linode_type *t;
	const cJSON *price;
	char cls[32] = "", id[OFFER_NAME_MAX], ppath[OFFER_NAME_MAX + 32];
	long long gpus = 0, vcpus = 0;
	double memory = -1;
	int64_t hourly = MONEY_NONE;
	bool found;

	if (json_get_string(type, "id", path, id, sizeof id, NULL, err) < 0 ||
	    json_get_string(type, "class", path, cls, sizeof cls, &found,
	    err) < 0 ||
	    json_get_int(type, "gpus", path, 0, OFFER_GPU_COUNT_MAX, &gpus,
	    &found, err) < 0)
		return -1;
	if (id[0] == '\0') {
		err_set(err, "%s.id: empty", path);
		return -1;
	}
	if (strcmp(cls, "gpu") != 0 || gpus == 0) {
		provider_skip(run, &st->skipped[SKIP_CPU]);
		return 0;
	}
	if (json_get_int(type, "vcpus", path, 0, OFFER_VCPUS_MAX, &vcpus,
	    &found, err) < 0 ||
	    provider_get_number_at(type, "memory", path, LINODE_MB_MAX, &memory,
	    err) < 0)
		return -1;
	snprintf(ppath, sizeof ppath, "%s.price", path);
	price = cJSON_GetObjectItemCaseSensitive(type, "price");
	if (price != NULL && !cJSON_IsNull(price)) {
		if (!cJSON_IsObject(price)) {
			err_set(err, "%s: expected an object, got %s", ppath,
			    json_type_name(price));
			return -1;
		}
		if (json_get_money(price, "hourly", ppath, &hourly, &found,
		    err) < 0)
			return -1;
	}
	if (hourly != MONEY_NONE && hourly > OFFER_PRICE_MAX) {
		err_set(err, "%s.hourly %.2f is out of range 0..%d USD/h", ppath,
		    (double)hourly / MONEY_UNIT, OFFER_PRICE_MAX_USD);
		return -1;
	}
	if (hourly == MONEY_NONE || hourly == 0) {
		provider_skip(run, &st->skipped[SKIP_PRICE]);
		return 0;
	}
	st->types = grow(st->types, st->ntypes, &st->types_cap,
	    sizeof *st->types);
	t = &st->types[st->ntypes++];
	memset(t, 0, sizeof *t);
	provider_copy(t->id, sizeof t->id, id);
	if (json_get_string(type, "label", path, t->label, sizeof t->label,
	    &found, err) < 0)
		return -1;
	provider_copy(t->label, sizeof t->label, t->label);
	t->gpus = (int)gpus;
	t->vcpus = (int)vcpus;
	t->memory_mb = memory > 0 ? memory : 0;
	t->hourly = hourly;
	return linode_overrides(t, type, path, err);
}

/* One region: kept when it sells GPU plans. */
static int
linode_region(struct linode_state *st, const cJSON *region, const char *path,
    struct err *err)
{
	const cJSON *caps, *cap;
	char id[OFFER_NAME_MAX];

	if (json_get_string(region, "id", path, id, sizeof id, NULL, err) < 0)
		return -1;
	if (id[0] == '\0') {
		err_set(err, "%s.id: empty", path);
		return -1;
	}
	caps = cJSON_GetObjectItemCaseSensitive(region, "capabilities");
	if (caps == NULL || cJSON_IsNull(caps))
		return 0;
	if (!cJSON_IsArray(caps)) {
		err_set(err, "%s.capabilities: expected an array, got %s", path,
		    json_type_name(caps));
		return -1;
	}
	cJSON_ArrayForEach(cap, caps) {
		if (!cJSON_IsString(cap) ||
		    strcmp(cap->valuestring, LINODE_GPU_CAPABILITY) != 0)
			continue;
		st->regions = grow(st->regions, st->nregions, &st->regions_cap,
		    sizeof *st->regions);
		provider_copy(st->regions[st->nregions++].id,
		    sizeof st->regions[0].id, id);
		break;
	}
	return 0;
}

/* One row of the stock list. */
static int
linode_stock(struct linode_state *st, const cJSON *row, const char *path,
    struct err *err)
{
	struct linode_stock *s;
	const cJSON *av;
	char region[OFFER_NAME_MAX], plan[OFFER_NAME_MAX];
	bool found_r, found_p;

	if (json_get_string(row, "region", path, region, sizeof region,
	    &found_r, err) < 0 ||
	    json_get_string(row, "plan", path, plan, sizeof plan, &found_p,
	    err) < 0)
		return -1;
	av = cJSON_GetObjectItemCaseSensitive(row, "available");
	if (av != NULL && !cJSON_IsNull(av) && !cJSON_IsBool(av)) {
		err_set(err, "%s.available: expected a boolean, got %s", path,
		    json_type_name(av));
		return -1;
	}
	/* A row without a region, plan or answer says nothing. */
	if (!found_r || !found_p || !cJSON_IsBool(av))
		return 0;
	st->stock = grow(st->stock, st->nstock, &st->stock_cap,
	    sizeof *st->stock);
	s = &st->stock[st->nstock++];
	provider_copy(s->region, sizeof s->region, region);
	provider_copy(s->plan, sizeof s->plan, plan);
	s->available = cJSON_IsTrue(av);
	return 0;
}

/* One page of st->list: the envelope, then every element of data. */
static int
linode_page(struct provider_run *run, const cJSON *root, struct err *err)
{
	struct linode_state *st = run->state;
	const cJSON *data, *item;
	char path[48];
	size_t i = 0;
	bool found;
	int rc;

	if ((data = json_get_array(root, "data", "response", err)) == NULL)
		return -1;
	if (json_get_int(root, "page", "response", 0, LINODE_PAGES_MAX * 100,
	    &st->page, &found, err) < 0)
		return -1;
	if (!found)
		st->page = st->pages[st->list];
	if (json_get_int(root, "pages", "response", 0, LINODE_PAGES_MAX * 100,
	    &st->npages, &found, err) < 0)
		return -1;
	if (!found)
		st->npages = st->page;
	cJSON_ArrayForEach(item, data) {
		snprintf(path, sizeof path, "data[%zu]", i++);
		if (!cJSON_IsObject(item)) {
			err_set(err, "%s: expected an object, got %s", path,
			    json_type_name(item));
			return -1;
		}
		switch (st->list) {
		case LIST_TYPES:
			rc = linode_type(run, st, item, path, err);
			break;
		case LIST_REGIONS:
			rc = linode_region(st, item, path, err);
			break;
		default:
			rc = linode_stock(st, item, path, err);
			break;
		}
		if (rc < 0)
			return -1;
	}
	return 0;
}

static int
linode_start(struct provider_run *run, struct err *err)
{
	struct linode_state *st;
	int list;

	(void)err;
	st = xcalloc(1, sizeof *st);
	run->state = st;
	for (list = 0; list < LIST_COUNT; list++)
		linode_queue(run, st, (enum linode_list)list);
	return 0;
}

static int
linode_response(struct provider_run *run, const struct http_result *result,
    struct err *err)
{
	struct linode_state *st = run->state;
	enum linode_list list;

	if (result->req->tag < 0 || result->req->tag >= LIST_COUNT) {
		err_set(err, "response to an unknown request (tag %d)",
		    result->req->tag);
		return -1;
	}
	list = (enum linode_list)result->req->tag;
	st->list = list;
	if (provider_parse_json(run, result, linode_page, err) < 0)
		goto fail;
	if (st->page != st->pages[list]) {
		err_set(err, "answered page %lld", st->page);
		goto fail;
	}
	if (st->page >= st->npages) {
		provider_list_pages(run, linode_list_name[list],
		    st->pages[list]);
		return 0;
	}
	if (st->pages[list] >= LINODE_PAGES_MAX) {
		err_set(err, "more than %d pages (a paging loop?)",
		    LINODE_PAGES_MAX);
		goto fail;
	}
	linode_queue(run, st, list);
	return 0;
fail:
	err_prefix(err, "%s page %d", linode_list_name[list], st->pages[list]);
	return -1;
}

/* The stock of plan in region. */
static enum availability
linode_availability(const struct linode_state *st, const char *plan,
    const char *region)
{
	size_t i;

	for (i = 0; i < st->nstock; i++)
		if (strcmp(st->stock[i].plan, plan) == 0 &&
		    strcmp(st->stock[i].region, region) == 0)
			return st->stock[i].available ? AV_AVAILABLE :
			    AV_UNAVAILABLE;
	return AV_UNKNOWN;
}

/* The GPU name of a plan: the family's, else its label. */
static const char *
linode_gpu_name(const struct linode_type *t)
{
	size_t i;

	for (i = 0; i < sizeof linode_gpus / sizeof linode_gpus[0]; i++)
		if (strncmp(t->id, linode_gpus[i].prefix,
		    strlen(linode_gpus[i].prefix)) == 0)
			return linode_gpus[i].gpu;
	return t->label[0] != '\0' ? t->label : t->id;
}

/* One offer of plan t in region. */
static int
linode_offer(struct provider_run *run, const struct linode_state *st,
    const struct linode_type *t, const char *region, struct err *err)
{
	struct offer *o;
	size_t i;

	o = offer_list_add(&run->offers);
	offer_set_keyf(&run->offers, o, "%s/%s", t->id, region);
	offer_set_instance_type(&run->offers, o, t->id);
	offer_set_region(&run->offers, o, region);
	o->gpu_count = t->gpus;
	provider_set_gpu(run, o, linode_gpu_name(t), 0);
	o->interconnect = provider_interconnect(NULL, o->gpu, o->gpu_count);
	o->vcpus = t->vcpus;
	o->ram_gb = t->memory_mb / 1024;
	o->price = t->hourly;
	for (i = 0; i < t->nover; i++)
		if (strcmp(t->over[i].region, region) == 0)
			o->price = t->over[i].hourly;
	str_copy(o->currency, sizeof o->currency, "USD");
	o->price_original = o->price;
	o->availability = linode_availability(st, t->id, region);
	return provider_offer_done(run, err);
}

/* Every GPU plan in every region that sells GPU plans. */
static int
linode_finish(struct provider_run *run, struct err *err)
{
	struct linode_state *st = run->state;
	size_t i, j;

	for (i = 0; i < st->ntypes; i++)
		for (j = 0; j < st->nregions; j++)
			if (linode_offer(run, st, &st->types[i],
			    st->regions[j].id, err) < 0) {
				err_prefix(err, "%s in %s", st->types[i].id,
				    st->regions[j].id);
				return -1;
			}
	if (st->ntypes > 0 && st->nregions == 0)
		provider_note(run, "no region lists \"%s\"",
		    LINODE_GPU_CAPABILITY);
	provider_note_skips(run, st->skipped, linode_skip_what, SKIP_COUNT);
	return 0;
}

static void
linode_done(struct provider_run *run)
{
	struct linode_state *st = run->state;
	size_t i;

	if (st == NULL)
		return;
	for (i = 0; i < st->ntypes; i++)
		free(st->types[i].over);
	free(st->types);
	free(st->regions);
	free(st->stock);
	free(st);
	run->state = NULL;
}

const struct provider provider_linode = {
	.id = "linode",
	.name = "Akamai/Linode",
	.key_env = NULL,
	.key_required = false,
	.currency = NULL,
	.start = linode_start,
	.response = linode_response,
	.finish = linode_finish,
	.done = linode_done,
};
