/*
 * vast.c: the Vast.ai adapter.
 *
 * One request: POST https://console.vast.ai/api/v0/bundles/ with a JSON
 * filter asking for every verified, rentable, not rented, non-external
 * on-demand offer (VAST_LIMIT of them at most; Vast has no pagination).
 * The answer is {"offers":[...]}, about 2 kB per offer, streamed: each
 * offer is cut out of the body as it arrives (json_stream.c) and parsed
 * alone, and the offers go to the cache's staging table in batches
 * (.batches, provider.h), so memory does not grow with the answer. A key is sent as
 * "Authorization: Bearer" when one is set: the search works without one.
 *
 * Every offer is one record. Key and instance type are the offer id in
 * decimal ("11684738"): what `vastai create instance` takes, and stable
 * for as long as the host keeps the listing. Fields:
 *
 *	price		dph_total (USD/h, whole offer, includes the
 *			VAST_STORAGE_GB of disk the query prices)
 *	spot		min_bid; 0 or missing is unknown, never 0
 *	gpu		gpu_name, resolved with gpu_ram (MB per GPU) / 1024
 *			as the VRAM hint; vram_gb = the model's VRAM, or the
 *			rounded hint when the name is not in the catalogue
 *	interconnect	bw_nvlink > 0 or SXM in the name: nvlink; PCIE in
 *			the name: pcie; else unknown
 *	region		geolocation, "unknown" when null or empty
 *	vcpus		cpu_cores_effective (the cores rented with the
 *			GPUs), rounded; else cpu_cores (whole machine)
 *			times gpu_frac; else unknown
 *	ram_gb		cpu_ram (MB, whole machine) / 1000 times gpu_frac
 *			(the share of the machine's GPUs, and so of its RAM,
 *			rented with the offer: what Vast's own listing
 *			shows); without gpu_frac, times cpu_cores_effective
 *			/ cpu_cores; with neither, unknown (0), never the
 *			whole machine's
 *	reliability	reliability2, else reliability (0..1)
 *	availability	available, unless rentable is false or rented true
 *
 * An offer priced 0 is skipped and counted; a NaN, negative or absurd
 * price, or a GPU count outside 1..OFFER_GPU_COUNT_MAX, fails the
 * provider.
 */
#include "config.h"
#include "provider.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "json.h"
#include "json_stream.h"
#include "notes.h"
#include "money.h"
#include "str.h"
#include "xalloc.h"

#define VAST_ORIGIN	"https://console.vast.ai"
#define VAST_PATH	"/api/v0/bundles/"
#define VAST_LIMIT	10000		/* offers asked for */
#define VAST_STORAGE_GB	5		/* GB of disk in dph_total (as the CLI) */
/*
 * The answer streams, so its size costs no memory; the cap only stops a
 * body that never ends. 10,000 offers are ~20 MB. What is held at once
 * (one offer, or the body around the offers) is capped by VAST_MAX_KEPT.
 */
#define VAST_MAX_BODY	((size_t)256 << 20)
#define VAST_MAX_KEPT	((size_t)16 << 20)
#define VAST_GPU_RAM_MAX (OFFER_VRAM_MAX * 1024.0)	/* MB per GPU */


/* A price in USD per hour: -1 if NaN, negative or absurd. */
static int
get_price(const cJSON *obj, const char *key, const char *path, double *out,
    bool *found, struct err *err)
{
	if (json_get_number(obj, key, path, out, found, err) < 0)
		return -1;
	if (found != NULL && !*found)
		return 0;
	if (!(*out >= 0 && *out <= OFFER_PRICE_MAX_USD)) {
		err_set(err, "%s %g is out of range 0..%d USD/h", key, *out,
		    OFFER_PRICE_MAX_USD);
		return -1;
	}
	return 0;
}

/* nvlink when the host measured NVLink bandwidth, else by name and model. */
static enum interconnect
vast_interconnect(const char *gpu_name, const char *gpu, int count,
    double bw_nvlink)
{
	if (bw_nvlink > 0)
		return IC_NVLINK;
	return provider_interconnect(gpu_name, gpu, count);
}

/* rentable false or rented true: unavailable; anything else available. */
static enum availability
vast_availability(const cJSON *offer)
{
	const cJSON *rentable, *rented;

	rentable = cJSON_GetObjectItemCaseSensitive(offer, "rentable");
	rented = cJSON_GetObjectItemCaseSensitive(offer, "rented");
	if (cJSON_IsFalse(rentable) || cJSON_IsTrue(rented))
		return AV_UNAVAILABLE;
	return AV_AVAILABLE;
}

/*
 * Fill o from one offer (path "offers[i]"). Returns 0, or -1 with err;
 * *zero is set when the offer has a zero price and is to be skipped.
 */
static int
vast_fill(struct provider_run *run, struct offer *o, const cJSON *item,
    const char *path, bool *zero, struct err *err)
{
	char name[OFFER_NAME_MAX], region[OFFER_NAME_MAX];
	double dph, bid, ngpus, gpu_ram, bw, cores, eff, ram, frac, rel;
	bool found;
	int hint;

	*zero = false;
	if (get_price(item, "dph_total", path, &dph, NULL, err) < 0 ||
	    get_price(item, "min_bid", path, &bid, &found, err) < 0)
		return -1;
	if (!(dph > 0)) {
		*zero = true;
		return 0;
	}
	if (money_from_double(dph, &o->price) < 0) {
		err_set(err, "dph_total %g is not a price", dph);
		return -1;
	}
	if (found && bid > 0 && money_from_double(bid, &o->spot_price) < 0) {
		err_set(err, "min_bid %g is not a price", bid);
		return -1;
	}

	if (json_get_number(item, "num_gpus", path, &ngpus, NULL, err) < 0)
		return -1;
	if (ngpus > floor(ngpus) || ngpus < 1 || ngpus > OFFER_GPU_COUNT_MAX) {
		err_set(err, "num_gpus %g is out of range 1..%d", ngpus,
		    OFFER_GPU_COUNT_MAX);
		return -1;
	}
	o->gpu_count = (int)ngpus;

	if (json_get_string(item, "gpu_name", path, name, sizeof name, NULL,
	    err) < 0)
		return -1;
	if (name[0] == '\0') {
		err_set(err, "gpu_name is empty");
		return -1;
	}
	if (provider_get_number(item, "gpu_ram", path, VAST_GPU_RAM_MAX,
	    &gpu_ram, err) < 0 ||
	    provider_get_number(item, "bw_nvlink", path, 1e9, &bw, err) < 0)
		return -1;
	hint = gpu_ram > 0 ? (int)lround(gpu_ram / 1024) : 0;
	o->vram_gb = 0;
	provider_set_gpu(run, o, name, hint);
	if (o->gpu[0] == '\0')
		o->vram_gb = hint;
	o->interconnect = vast_interconnect(o->gpu_raw, o->gpu, o->gpu_count,
	    bw);

	if (provider_get_number(item, "cpu_cores", path, OFFER_VCPUS_MAX,
	    &cores, err) < 0 ||
	    provider_get_number(item, "cpu_cores_effective", path,
	    OFFER_VCPUS_MAX, &eff, err) < 0 ||
	    provider_get_number(item, "cpu_ram", path, 1e9, &ram, err) < 0 ||
	    provider_get_number(item, "gpu_frac", path, 1, &frac, err) < 0)
		return -1;
	/* The offer's share of the machine; unknown stays unknown. */
	if (!(frac > 0) && eff > 0 && cores > 0 && eff <= cores)
		frac = eff / cores;
	if (eff >= 0)
		o->vcpus = (int)lround(eff);
	else if (cores > 0 && frac > 0)
		o->vcpus = (int)lround(cores * frac);
	if (ram > 0 && frac > 0)
		o->ram_gb = round(ram / 1000 * frac * 100) / 100;

	if (json_get_number(item, "reliability2", path, &rel, &found,
	    err) < 0)
		return -1;
	if (!found && json_get_number(item, "reliability", path, &rel,
	    &found, err) < 0)
		return -1;
	o->reliability = found && rel >= 0 && rel <= 1 ? rel : -1;

	if (json_get_string(item, "geolocation", path, region,
	    sizeof region, &found, err) < 0)
		return -1;
	offer_set_region(&run->offers, o, region[0] != '\0' ? region :
	    "unknown");
	o->availability = vast_availability(item);
	o->notes |= NOTE_BIT(NOTE_SINGLE_LISTING);	/* one machine */
	return 0;
}

/* Parse offers[index] into a new offer. */
static int
vast_offer(struct provider_run *run, const cJSON *item, size_t index,
    size_t *zero_priced, struct err *err)
{
	char path[40], msg[ERR_MSG_MAX];
	struct offer *o;
	long long id;
	bool zero;

	snprintf(path, sizeof path, "offers[%zu]", index);
	if (!cJSON_IsObject(item)) {
		err_set(err, "%s: expected an object, got %s", path,
		    json_type_name(item));
		return -1;
	}
	if (json_get_int(item, "id", path, 0, 9007199254740991LL, &id, NULL,
	    err) < 0)
		return -1;
	if ((o = offer_list_try_add(&run->offers)) == NULL) {
		err_set(err, "out of memory after %zu offers", run->offers.n);
		return -1;
	}
	offer_set_keyf(&run->offers, o, "%lld", id);
	o->instance_type = o->key;	/* the machine's id: one string */
	if (vast_fill(run, o, item, path, &zero, err) < 0) {
		offer_list_pop(&run->offers);
		err_prefix(err, "offer %lld", id);
		return -1;
	}
	if (zero) {
		offer_list_pop(&run->offers);
		provider_skip(run, zero_priced);
		return 0;
	}
	if (provider_offer_done(run, err) < 0) {
		/* offer_check() starts with the key: "4100001: ..." */
		if (err != NULL) {
			memcpy(msg, err->msg, sizeof msg);
			err_set(err, "offer %s", msg);
		}
		return -1;
	}
	return 0;
}

/* The body is not {"offers":[...]}: say so, with Vast's own message if any. */
static void
vast_no_offers(const cJSON *root, struct err *err)
{
	static const char *const keys[] = { "msg", "error", "detail", NULL };
	char why[128];
	size_t i;
	bool found;

	if (!cJSON_IsObject(root)) {
		err_set(err, "expected a JSON object with \"offers\", got %s",
		    json_type_name(root));
		return;
	}
	for (i = 0; keys[i] != NULL; i++) {
		if (json_get_string(root, keys[i], "response", why, sizeof why,
		    &found, NULL) == 0 && found && why[0] != '\0') {
			err_prefix(err, "Vast says \"%s\"", why);
			return;
		}
	}
}

/* The search in progress: its body's scanner and what it found. */
struct vast_state {
	struct provider_run *run;
	struct json_stream *js;
	size_t	 zero;			/* zero-priced offers skipped */
};

/* One offer cut out of the streamed body. */
static int
vast_element(void *arg, const cJSON *item, size_t index, size_t offset,
    struct err *err)
{
	struct vast_state *st = arg;

	(void)offset;
	return vast_offer(st->run, item, index, &st->zero, err);
}

/* Queue the search. */
static int
vast_start(struct provider_run *run, struct err *err)
{
	struct http_request *req;
	struct vast_state *st;

	(void)err;
	st = xcalloc(1, sizeof *st);
	st->run = run;
	st->js = json_stream_new("offers", VAST_MAX_BODY, VAST_MAX_KEPT,
	    vast_element, st);
	run->state = st;
	req = provider_queue(run, provider_url(run, VAST_ORIGIN, VAST_PATH),
	    "POST", 0);
	req->body = xasprintf("{\"verified\":{\"eq\":true},"
	    "\"external\":{\"eq\":false},\"rentable\":{\"eq\":true},"
	    "\"rented\":{\"eq\":false},\"type\":\"on-demand\","
	    "\"allocated_storage\":%d,\"limit\":%d}", VAST_STORAGE_GB,
	    VAST_LIMIT);
	req->body_len = strlen(req->body);
	req->stream = true;
	http_request_header(req, "Content-Type", "application/json");
	http_request_header(req, "Accept", "application/json");
	provider_bearer(run, req);
	return 0;
}

/* A piece of {"offers":[...]}: its complete offers are parsed now. */
static int
vast_chunk(struct provider_run *run, const struct http_request *req,
    const char *data, size_t len, struct err *err)
{
	struct vast_state *st = run->state;

	(void)req;
	return json_stream_feed(st->js, data, len, err);
}

/*
 * The body ended: check the rest of it ({"offers":[]} once the offers
 * are cut out, or whatever else came) as the whole body was checked
 * before streaming.
 */
static int
vast_response(struct provider_run *run, const struct http_result *result,
    struct err *err)
{
	struct vast_state *st = run->state;
	const cJSON *offers, *item;
	size_t index, zero;
	cJSON *root;
	int rc = 0;

	(void)result;
	if (json_stream_finish(st->js, &root, err) < 0)
		return -1;
	index = json_stream_count(st->js);
	if ((offers = json_get_array(root, "offers", "response", err)) ==
	    NULL) {
		vast_no_offers(root, err);
		cJSON_Delete(root);
		return -1;
	}
	/* Offers the scanner left in place (a body it did not stream). */
	cJSON_ArrayForEach(item, offers) {
		if ((rc = vast_offer(run, item, index, &st->zero, err)) < 0)
			break;
		index++;
	}
	cJSON_Delete(root);
	if (rc < 0)
		return rc;
	zero = st->zero;
	if (zero > 0)
		provider_note(run, "%zu zero-priced offer%s skipped", zero,
		    zero == 1 ? "" : "s");
	if (index >= VAST_LIMIT)
		provider_note(run, "%zu offers: the search limit, more may "
		    "exist", index);
	return 0;
}

static void
vast_done(struct provider_run *run)
{
	struct vast_state *st = run->state;

	if (st == NULL)
		return;
	json_stream_free(st->js);
	free(st);
	run->state = NULL;
}

const struct provider provider_vast = {
	.id = "vast",
	.name = "Vast.ai",
	.key_env = "VAST_API_KEY",
	.key_required = false,
	.batches = true,	/* offers go to the cache as they come */
	.start = vast_start,
	.chunk = vast_chunk,
	.response = vast_response,
	.done = vast_done,
};
