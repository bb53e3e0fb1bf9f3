/*
 * akash.c: the Akash Network adapter.
 *
 * One keyless GET, a whole document (conditional):
 *
 *	GET https://console-api.akash.network/v1/gpu-prices
 *
 * answered with {"availability": {"total", "available"}, "models": [...]}
 * (akash-network/console, apps/api/src/gpu/). The server caches it for
 * 120 s and recomputes it at most every 15 minutes, so a refresh more
 * often than that gains nothing. Each model row is one GPU kind:
 * vendor ("nvidia"), model ("h100", "pro6000se": Akash's lower-case
 * shorthand), ram ("80Gi"), interface ("SXM5", "PCIe"), availability
 * {total, available} in GPUs, and price {currency, min, max, avg,
 * weightedAverage, med} in USD per GPU-hour, or null. The prices are the
 * providers' best bids over the last 31 days, one per provider;
 * weightedAverage weights each provider by its GPU count.
 *
 * One offer per model row: the model name alone is not a key (v100
 * comes as 16Gi SXM2 and as 32Gi PCIe). Key "<vendor>/<model>/<ram>/
 * <interface>", instance type "<model> <ram> <interface>" (what a
 * deployment's SDL asks for), region "global" (the feed names no
 * place), 1 GPU. Fields:
 *
 *	gpu		akash_names[] below turns Akash's shorthand into a
 *			name the catalogue knows; any other model is resolved
 *			as written (with the ram as the VRAM hint), or kept
 *			raw and counted. gpu_raw is Akash's model as written
 *	vram_gb		ram, "80Gi" -> 80 (Akash writes the marketed size)
 *	price		price.weightedAverage, USD per GPU-hour: the market
 *			price across the providers' bids. No spot
 *	price_from	price.min, the cheapest provider's bid (it may have
 *			no free GPU); unknown when not in (0, price]
 *	availability	availability.available > 0: available; 0:
 *			unavailable; absent: unknown
 *
 * Skipped and counted (run->skipped, run->note): a model whose price is
 * null or absent, or whose weightedAverage is 0 (every price 0 occurs:
 * no bid, not a free GPU), and a price in another currency than USD.
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

#define AKASH_ORIGIN	"https://console-api.akash.network"
#define AKASH_PATH	"/v1/gpu-prices"
#define AKASH_REGION	"global"
#define AKASH_GPUS_MAX	1e9	/* GPUs counted in availability */

/*
 * Akash's shorthands the catalogue's spelling rules cannot read, and
 * the name they stand for (Akash's provider-configs GPU database and
 * the Console's display names). Any model not here is resolved as
 * Akash writes it: "h100", "a100" + 80Gi, "rtx4090", "rtx4060ti" +
 * 16Gi, "gtx1080ti", "p40" are the catalogue's own ids or families
 * under its spelling rules (data/README.md).
 */
static const struct {
	const char	*akash;
	const char	*name;
} akash_names[] = {
	{ "pro6000se",		"RTX PRO 6000 Server" },
	{ "pro6000we",		"RTX PRO 6000 WS" },
	{ "pro6000",		"RTX PRO 6000" },
	{ "rtx4000sada",	"RTX 4000 SFF Ada" },
	{ "rtx4000sffada",	"RTX 4000 SFF Ada" },
	{ "rtxa6000",		"RTX A6000" },
	{ "rtxa5000",		"RTX A5000" },
	{ "rtxa4500",		"RTX A4500" },
	{ "rtxa4000",		"RTX A4000" },
	{ "rtxa2000",		"RTX A2000" },
	{ "rtx4070s",		"RTX 4070 SUPER" },
	{ "rtx4080s",		"RTX 4080 SUPER" },
	{ "rtx5060ti",		"RTX 5060 Ti" },
};

enum akash_skip {
	SKIP_NO_PRICE,
	SKIP_CURRENCY,
	SKIP_COUNT
};

static const char *const akash_skip_what[SKIP_COUNT][2] = {
	{ "model without a price", "models without a price" },
	{ "model priced in another currency",
	    "models priced in another currency" },
};

struct akash_state {
	size_t	skipped[SKIP_COUNT];
};

/* The catalogue's name for Akash's model (as written when unknown). */
static const char *
akash_name(const char *model)
{
	size_t i;

	for (i = 0; i < sizeof akash_names / sizeof akash_names[0]; i++)
		if (str_eq_nocase(akash_names[i].akash, model))
			return akash_names[i].name;
	return model;
}

/* "80Gi" (or "80G", "80GB") as GB; 0 when it is not such a size. */
static int
akash_ram_gb(const char *ram)
{
	char *end;
	long gb;

	if (ram[0] < '0' || ram[0] > '9')
		return 0;
	gb = strtol(ram, &end, 10);
	if (gb <= 0 || gb > OFFER_VRAM_MAX || (strcmp(end, "Gi") != 0 &&
	    strcmp(end, "G") != 0 && strcmp(end, "GB") != 0))
		return 0;
	return (int)gb;
}

/* A string member, sanitised; "" when absent. */
static int
akash_text(const cJSON *m, const char *key, const char *path, char *buf,
    size_t size, struct err *err)
{
	char raw[OFFER_KEY_MAX];

	if (json_get_string(m, key, path, raw, sizeof raw, NULL, err) < 0)
		return -1;
	provider_copy(buf, size, raw);
	if (buf[0] == '\0') {
		err_set(err, "%s.%s: empty", path, key);
		return -1;
	}
	return 0;
}

/* One model row: an offer, or a skip. */
static int
akash_model(struct provider_run *run, struct akash_state *st,
    const cJSON *m, const char *path, struct err *err)
{
	const cJSON *price, *avail;
	char vendor[OFFER_NAME_MAX], model[OFFER_NAME_MAX], ram[OFFER_NAME_MAX],
	    iface[OFFER_NAME_MAX], cur[8], ppath[OFFER_NAME_MAX + 16],
	    type[OFFER_NAME_MAX * 4];
	int64_t avg, min;
	double nfree;
	bool found;
	struct offer *o;

	if (!cJSON_IsObject(m)) {
		err_set(err, "%s: expected an object, got %s", path,
		    json_type_name(m));
		return -1;
	}
	if (akash_text(m, "vendor", path, vendor, sizeof vendor, err) < 0 ||
	    akash_text(m, "model", path, model, sizeof model, err) < 0 ||
	    akash_text(m, "ram", path, ram, sizeof ram, err) < 0 ||
	    akash_text(m, "interface", path, iface, sizeof iface, err) < 0)
		return -1;
	price = cJSON_GetObjectItemCaseSensitive(m, "price");
	if (price == NULL || cJSON_IsNull(price)) {
		provider_skip(run, &st->skipped[SKIP_NO_PRICE]);
		return 0;
	}
	snprintf(ppath, sizeof ppath, "%s.price", path);
	if (!cJSON_IsObject(price)) {
		err_set(err, "%s: expected an object, got %s", ppath,
		    json_type_name(price));
		return -1;
	}
	if (json_get_string(price, "currency", ppath, cur, sizeof cur, &found,
	    err) < 0)
		return -1;
	if (found && strcmp(cur, "USD") != 0) {
		provider_skip(run, &st->skipped[SKIP_CURRENCY]);
		return 0;
	}
	if (json_get_money(price, "min", ppath, &min, &found, err) < 0 ||
	    json_get_money(price, "weightedAverage", ppath, &avg, &found,
	    err) < 0)
		return -1;
	if (!found || avg == 0) {
		provider_skip(run, &st->skipped[SKIP_NO_PRICE]);
		return 0;
	}
	if (avg > OFFER_GPU_HOUR_PRICE_MAX) {
		err_set(err, "%s.weightedAverage: %g USD per GPU-hour is "
		    "absurd", ppath, (double)avg / MONEY_UNIT);
		return -1;
	}
	nfree = -1;
	avail = cJSON_GetObjectItemCaseSensitive(m, "availability");
	if (avail != NULL && !cJSON_IsNull(avail)) {
		char apath[OFFER_NAME_MAX + 24];

		snprintf(apath, sizeof apath, "%s.availability", path);
		if (!cJSON_IsObject(avail)) {
			err_set(err, "%s: expected an object, got %s", apath,
			    json_type_name(avail));
			return -1;
		}
		if (provider_get_number_at(avail, "available", apath,
		    AKASH_GPUS_MAX, &nfree, err) < 0)
			return -1;
	}

	o = offer_list_add(&run->offers);
	offer_set_keyf(&run->offers, o, "%s/%s/%s/%s", vendor, model, ram,
	    iface);
	snprintf(type, sizeof type, "%s %s %s", model, ram, iface);
	offer_set_instance_type(&run->offers, o, type);
	offer_set_region(&run->offers, o, AKASH_REGION);
	o->gpu_count = 1;
	o->vram_gb = akash_ram_gb(ram);
	provider_set_gpu(run, o, akash_name(model), o->vram_gb);
	/* What Akash wrote, not the name it was looked up by. */
	offer_set_gpu_raw(&run->offers, o, model);
	o->interconnect = provider_interconnect(iface, o->gpu, 1);
	o->price = avg;
	o->price_from = money_known(min) && min > 0 && min <= avg ? min :
	    MONEY_NONE;
	str_copy(o->currency, sizeof o->currency, "USD");
	o->price_original = avg;
	o->availability = nfree < 0 ? AV_UNKNOWN : nfree > 0 ? AV_AVAILABLE :
	    AV_UNAVAILABLE;
	return provider_offer_done(run, err);
}

static int
akash_prices(struct provider_run *run, const cJSON *root, struct err *err)
{
	struct akash_state *st = run->state;
	const cJSON *models, *m;
	char path[32];
	size_t i = 0;

	if ((models = json_get_array(root, "models", "response", err)) == NULL)
		return -1;
	cJSON_ArrayForEach(m, models) {
		snprintf(path, sizeof path, "models[%zu]", i++);
		if (akash_model(run, st, m, path, err) < 0)
			return -1;
	}
	return 0;
}

static int
akash_start(struct provider_run *run, struct err *err)
{
	struct http_request *req;

	(void)err;
	run->state = xcalloc(1, sizeof(struct akash_state));
	req = provider_queue(run, provider_url(run, AKASH_ORIGIN, AKASH_PATH),
	    NULL, 0);
	http_request_header(req, "Accept", "application/json");
	provider_conditional(req);
	return 0;
}

static int
akash_response(struct provider_run *run, const struct http_result *result,
    struct err *err)
{
	return provider_parse_json(run, result, akash_prices, err);
}

static int
akash_finish(struct provider_run *run, struct err *err)
{
	struct akash_state *st = run->state;

	provider_note_skips(run, st->skipped, akash_skip_what, SKIP_COUNT);
	(void)err;
	return 0;
}

static void
akash_done(struct provider_run *run)
{
	free(run->state);
	run->state = NULL;
}

const struct provider provider_akash = {
	.id = "akash",
	.name = "Akash Network",
	.key_env = NULL,
	.key_required = false,
	.currency = NULL,
	.start = akash_start,
	.response = akash_response,
	.finish = akash_finish,
	.done = akash_done,
};
