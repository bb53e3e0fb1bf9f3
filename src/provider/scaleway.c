/*
 * scaleway.c: the Scaleway adapter.
 *
 * The Instance API lists the server types of one zone and, separately,
 * their stock; both are keyless and paged (page from 1, per_page at
 * most 100, a short page is the last; SCALEWAY_PAGES_MAX pages at most):
 *
 *	GET https://api.scaleway.com/instance/v1/zones/<zone>/products/servers?per_page=100&page=N
 *	GET https://api.scaleway.com/instance/v1/zones/<zone>/products/servers/availability?per_page=100&page=N
 *
 * for every zone of scaleway_zones (a zone without GPUs answers
 * {"servers": {}}). Both answers are maps keyed by the commercial type
 * ("H100-1-80G"); the availability map lists other types than the
 * servers map, so the two are joined by name in finish(), and a GPU
 * type the map does not mention is unknown.
 *
 * One offer per (GPU type, zone): key "<type>/<zone>", instance type
 * the type, region the zone. Fields:
 *
 *	gpu		gpu_info.gpu_name ("H100-SXM" kept as gpu_raw), resolved
 *			with gpu_info.gpu_memory (bytes per GPU) as the hint
 *	count		gpu (never the digits of the type name)
 *	interconnect	"SXM" in gpu_name nvlink, "PCIe" pcie, else the
 *			model's only form
 *	vcpus, ram_gb	ncpus; ram (bytes) in GiB
 *	price		hourly_price, EUR per instance-hour (the API names no
 *			currency), times run->usd_per_eur; currency "EUR" and
 *			price_original keep the EUR figure. No spot.
 *	availability	available, scarce, shortage: available, limited,
 *			unavailable; anything else or absent: unknown
 *
 * Skipped and counted in run->skipped and run->note: CPU types (gpu 0 or
 * gpu_info null), MIG slices (mig_profile not null: a fraction of a GPU)
 * and types without a price.
 */
#include "config.h"
#include "provider.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "currency.h"
#include "err.h"
#include "json.h"
#include "money.h"
#include "str.h"
#include "xalloc.h"

#define SCALEWAY_ORIGIN		"https://api.scaleway.com"
#define SCALEWAY_PER_PAGE	100	/* the API's largest page */
#define SCALEWAY_PAGES_MAX	20	/* per list and zone: more is a loop */
#define GIB			1073741824.0
#define SCALEWAY_BYTES_MAX	(OFFER_RAM_MAX * GIB)	/* RAM or VRAM */

/* Every zone of the Instance API (research/providers.md section 13). */
static const char *const scaleway_zones[] = {
	"fr-par-1", "fr-par-2", "fr-par-3",
	"nl-ams-1", "nl-ams-2", "nl-ams-3",
	"pl-waw-1", "pl-waw-2", "pl-waw-3",
};
#define NZONES	(sizeof scaleway_zones / sizeof scaleway_zones[0])

/* The two lists of a zone; tag = zone * LIST_COUNT + list. */
enum scaleway_list {
	LIST_SERVERS,
	LIST_AVAILABILITY,
	LIST_COUNT
};

static const char *const scaleway_list_path[LIST_COUNT] = {
	"products/servers",
	"products/servers/availability",
};

/* Why a type gave no offer, in the order the note lists them. */
enum scaleway_skip {
	SKIP_CPU,
	SKIP_MIG,
	SKIP_ZERO,
	SKIP_COUNT
};

static const char *const scaleway_skip_what[SKIP_COUNT][2] = {
	{ "CPU type", "CPU types" },
	{ "MIG slice", "MIG slices" },
	{ "type without a price", "types without a price" },
};

/* One entry of an availability map. */
struct scaleway_stock {
	size_t		  zone;
	char		  type[OFFER_NAME_MAX];
	enum availability av;
};

/* The refresh in progress (run->state). */
struct scaleway_state {
	int	 pages[NZONES][LIST_COUNT];	/* requests made */
	struct scaleway_stock *stock;
	size_t	 nstock, stock_cap;
	size_t	 skipped[SKIP_COUNT];
	size_t	 zone;		/* of the page being parsed */
	enum scaleway_list list;
	size_t	 nentries;	/* on that page */
};

/* "fr-par-1/servers", "fr-par-1/availability": a list's name. */
static void
list_name(size_t zone, enum scaleway_list list, char *buf, size_t size)
{
	snprintf(buf, size, "%s/%s", scaleway_zones[zone],
	    list == LIST_SERVERS ? "servers" : "availability");
}

/* Queue page number st->pages[zone][list] + 1 of a zone's list. */
static void
scaleway_queue(struct provider_run *run, struct scaleway_state *st,
    size_t zone, enum scaleway_list list)
{
	struct http_request *req;
	char *path, name[48];

	st->pages[zone][list]++;
	path = xasprintf("/instance/v1/zones/%s/%s?per_page=%d&page=%d",
	    scaleway_zones[zone], scaleway_list_path[list], SCALEWAY_PER_PAGE,
	    st->pages[zone][list]);
	req = provider_queue(run, provider_url(run, SCALEWAY_ORIGIN, path),
	    NULL, (int)(zone * LIST_COUNT + list));
	free(path);
	/* Page 1 is the whole list when the list was one page last time. */
	if (st->pages[zone][list] == 1) {
		list_name(zone, list, name, sizeof name);
		provider_first_page(run, req, name);
	}
	http_request_header(req, "Accept", "application/json");
}

/* What the GPUs of a type are: 0, or 1 when it has none (a CPU type). */
static int
scaleway_gpus(const cJSON *type, const char *path, long long *count,
    char *gpu_name, size_t size, double *vram_bytes, struct err *err)
{
	const cJSON *info;
	char ipath[OFFER_NAME_MAX + 32];
	bool found;

	if (json_get_int(type, "gpu", path, 0, OFFER_GPU_COUNT_MAX, count,
	    &found, err) < 0)
		return -1;
	info = cJSON_GetObjectItemCaseSensitive(type, "gpu_info");
	if (!found || *count == 0 || info == NULL || cJSON_IsNull(info))
		return 1;
	if (!cJSON_IsObject(info)) {
		err_set(err, "%s.gpu_info: expected an object, got %s", path,
		    json_type_name(info));
		return -1;
	}
	snprintf(ipath, sizeof ipath, "%s.gpu_info", path);
	if (json_get_string(info, "gpu_name", ipath, gpu_name, size, NULL,
	    err) < 0 ||
	    provider_get_number(info, "gpu_memory", ipath, SCALEWAY_BYTES_MAX,
	    vram_bytes, err) < 0)
		return -1;
	if (gpu_name[0] == '\0') {
		err_set(err, "%s.gpu_name: empty for a type with %lld GPUs",
		    ipath, *count);
		return -1;
	}
	return 0;
}

/* One type of a servers page: an offer, or a reason it has none. */
static int
scaleway_type(struct provider_run *run, struct scaleway_state *st,
    size_t zone, const cJSON *type, struct err *err)
{
	char name[OFFER_NAME_MAX], path[OFFER_NAME_MAX + 16];
	char gpu_name[OFFER_NAME_MAX];
	const cJSON *mig;
	struct offer *o;
	double vram = -1, cpus, ram;
	int64_t eur, usd;
	long long count;
	int rc;

	provider_copy(name, sizeof name, type->string);
	if (name[0] == '\0' || strlen(type->string) >= OFFER_NAME_MAX) {
		err_set(err, "servers: a type name that is empty or longer than "
		    "%d bytes", OFFER_NAME_MAX - 1);
		return -1;
	}
	snprintf(path, sizeof path, "servers.%s", name);
	if (!cJSON_IsObject(type)) {
		err_set(err, "%s: expected an object, got %s", path,
		    json_type_name(type));
		return -1;
	}
	if ((rc = scaleway_gpus(type, path, &count, gpu_name, sizeof gpu_name,
	    &vram, err)) < 0)
		return -1;
	if (rc > 0) {
		provider_skip(run, &st->skipped[SKIP_CPU]);
		return 0;
	}
	mig = cJSON_GetObjectItemCaseSensitive(type, "mig_profile");
	if (mig != NULL && !cJSON_IsNull(mig)) {
		provider_skip(run, &st->skipped[SKIP_MIG]);
		return 0;
	}
	if (json_get_money(type, "hourly_price", path, &eur, NULL, err) < 0)
		return -1;
	if (eur > OFFER_PRICE_MAX) {
		err_set(err, "%s.hourly_price %.2f is out of range 0..%d EUR/h",
		    path, (double)eur / MONEY_UNIT, OFFER_PRICE_MAX_USD);
		return -1;
	}
	if (eur == 0) {
		provider_skip(run, &st->skipped[SKIP_ZERO]);
		return 0;
	}
	if (provider_get_number(type, "ncpus", path, OFFER_VCPUS_MAX, &cpus,
	    err) < 0 ||
	    provider_get_number(type, "ram", path, SCALEWAY_BYTES_MAX, &ram,
	    err) < 0)
		return -1;
	/* Absent is -1 (unknown); the offer says 0. */
	vram = fmax(vram, 0);
	cpus = fmax(cpus, 0);
	ram = fmax(ram, 0);
	if ((usd = currency_to_usd(eur, run->usd_per_eur)) <= 0) {
		err_set(err, "%s: no USD per EUR rate to convert %.4f EUR",
		    path, (double)eur / MONEY_UNIT);
		return -1;
	}

	o = offer_list_add(&run->offers);
	offer_set_keyf(&run->offers, o, "%s/%s", name, scaleway_zones[zone]);
	offer_set_instance_type(&run->offers, o, name);
	offer_set_region(&run->offers, o, scaleway_zones[zone]);
	o->gpu_count = (int)count;
	provider_set_gpu(run, o, gpu_name, (int)lround(vram / GIB));
	if (o->gpu[0] == '\0')
		o->vram_gb = (int)lround(vram / GIB);
	o->interconnect = provider_interconnect(gpu_name, o->gpu, o->gpu_count);
	o->vcpus = (int)cpus;
	o->ram_gb = round(ram / GIB * 100) / 100;
	o->price = usd;
	str_copy(o->currency, sizeof o->currency, "EUR");
	o->price_original = eur;
	return provider_offer_done(run, err);
}

/* "available", "scarce", "shortage"; anything else is unknown. */
static enum availability
scaleway_availability(const char *s)
{
	if (strcmp(s, "available") == 0)
		return AV_AVAILABLE;
	if (strcmp(s, "scarce") == 0)
		return AV_LIMITED;
	if (strcmp(s, "shortage") == 0)
		return AV_UNAVAILABLE;
	return AV_UNKNOWN;
}

/* One entry of an availability page, kept for finish(). */
static int
scaleway_stock(struct scaleway_state *st, size_t zone, const cJSON *entry,
    struct err *err)
{
	char name[OFFER_NAME_MAX], path[OFFER_NAME_MAX + 16], value[32];
	struct scaleway_stock *s;
	bool found;

	provider_copy(name, sizeof name, entry->string);
	snprintf(path, sizeof path, "servers.%s", name);
	if (!cJSON_IsObject(entry)) {
		err_set(err, "%s: expected an object, got %s", path,
		    json_type_name(entry));
		return -1;
	}
	if (json_get_string(entry, "availability", path, value, sizeof value,
	    &found, err) < 0)
		return -1;
	if (!found || name[0] == '\0')
		return 0;
	if (st->nstock == st->stock_cap) {
		st->stock_cap = st->stock_cap ? st->stock_cap * 2 : 64;
		st->stock = xreallocarray(st->stock, st->stock_cap,
		    sizeof *st->stock);
	}
	s = &st->stock[st->nstock++];
	s->zone = zone;
	str_copy(s->type, sizeof s->type, name);
	s->av = scaleway_availability(value);
	return 0;
}

/* Queue every zone's first page of both lists. */
static int
scaleway_start(struct provider_run *run, struct err *err)
{
	struct scaleway_state *st;
	size_t zone;

	if (run->usd_per_eur <= 0) {
		err_set(err, "no USD per EUR rate (prices are in EUR)");
		return -1;
	}
	st = xcalloc(1, sizeof *st);
	run->state = st;
	for (zone = 0; zone < NZONES; zone++) {
		scaleway_queue(run, st, zone, LIST_SERVERS);
		scaleway_queue(run, st, zone, LIST_AVAILABILITY);
	}
	return 0;
}

/* The map of one page of st->zone's st->list. */
static int
scaleway_page(struct provider_run *run, const cJSON *root, struct err *err)
{
	struct scaleway_state *st = run->state;
	const cJSON *servers, *entry;

	if ((servers = json_get_object(root, "servers", "response", err)) ==
	    NULL)
		return -1;
	cJSON_ArrayForEach(entry, servers) {
		st->nentries++;
		if ((st->list == LIST_SERVERS ?
		    scaleway_type(run, st, st->zone, entry, err) :
		    scaleway_stock(st, st->zone, entry, err)) < 0)
			return -1;
	}
	return 0;
}

/* One page of a zone's servers or availability map. */
static int
scaleway_response(struct provider_run *run, const struct http_result *result,
    struct err *err)
{
	struct scaleway_state *st = run->state;
	enum scaleway_list list;
	size_t zone;
	char name[48];

	if (result->req->tag < 0 ||
	    (size_t)result->req->tag >= NZONES * LIST_COUNT) {
		err_set(err, "response to an unknown request (tag %d)",
		    result->req->tag);
		return -1;
	}
	zone = (size_t)result->req->tag / LIST_COUNT;
	list = (enum scaleway_list)(result->req->tag % LIST_COUNT);
	st->zone = zone;
	st->list = list;
	st->nentries = 0;
	if (provider_parse_json(run, result, scaleway_page, err) < 0)
		goto fail;
	if (st->nentries < SCALEWAY_PER_PAGE) {
		/* A short page is the last. */
		list_name(zone, list, name, sizeof name);
		provider_list_pages(run, name, st->pages[zone][list]);
		return 0;
	}
	if (st->pages[zone][list] >= SCALEWAY_PAGES_MAX) {
		err_set(err, "more than %d full pages (a paging loop?)",
		    SCALEWAY_PAGES_MAX);
		goto fail;
	}
	scaleway_queue(run, st, zone, list);
	return 0;
fail:
	err_prefix(err, "%s %s page %d", scaleway_zones[zone],
	    list == LIST_SERVERS ? "servers" : "availability",
	    st->pages[zone][list]);
	return -1;
}

/* Join the stock to the offers by zone and type; say what was skipped. */
static int
scaleway_finish(struct provider_run *run, struct err *err)
{
	struct scaleway_state *st = run->state;
	struct offer *o;
	size_t i, j;

	for (i = 0; i < run->offers.n; i++) {
		o = &run->offers.v[i];
		for (j = 0; j < st->nstock; j++)
			if (strcmp(scaleway_zones[st->stock[j].zone],
			    o->region) == 0 &&
			    strcmp(st->stock[j].type, o->instance_type) == 0)
				o->availability = st->stock[j].av;
	}
	for (i = 0; i < SKIP_COUNT; i++) {
		if (st->skipped[i] == 0)
			continue;
		provider_note(run, "%zu %s skipped", st->skipped[i],
		    scaleway_skip_what[i][st->skipped[i] == 1 ? 0 : 1]);
	}
	(void)err;
	return 0;
}

/* Free the state. */
static void
scaleway_done(struct provider_run *run)
{
	struct scaleway_state *st = run->state;

	if (st == NULL)
		return;
	free(st->stock);
	free(st);
	run->state = NULL;
}

const struct provider provider_scaleway = {
	.id = "scaleway",
	.name = "Scaleway",
	.key_env = NULL,
	.key_required = false,
	.currency = "EUR",
	.start = scaleway_start,
	.response = scaleway_response,
	.finish = scaleway_finish,
	.done = scaleway_done,
};
