/*
 * salad.c: the SaladCloud adapter.
 *
 * SaladCloud publishes no keyless price feed: its prices are a web page
 * (https://salad.com/pricing), restated in data/list_prices.tsv and
 * built into the snapshot, and a refresh without a key fetches nothing
 * and says which list its offers are (provider.h, no_feed). With an API
 * key (SALAD_API_KEY) and the organisation it belongs to
 * (GPUCOST_SALAD_ORGANIZATION or salad_organization in the config) one
 * GET reads the prices live, a whole document (conditional):
 *
 *	GET https://api.salad.com/api/public/organizations/<org>/gpu-classes
 *	Salad-Api-Key: <key>
 *
 * answered with {"items": [{"id", "name" ("RTX 4090 (24 GB)"),
 * "gpu_class_type", "is_high_demand", "prices": [{"priority", "price"}]}]}:
 * USD per GPU-hour as decimal strings, per priority (high, medium, low,
 * batch).
 *
 * One offer per GPU class, as the list's: key and instance type the
 * class name, region "global" (consumer machines around the world), 1
 * GPU (a container instance takes one). Fields:
 *
 *	gpu		the name without its "(24 GB)", resolved with that
 *			size as the VRAM hint; unknown names kept raw
 *	price		the high priority price: never preempted by other
 *			workloads, but still lost when the home machine
 *			disconnects
 *	spot_price	the batch (lowest) priority price
 *	notes		interruptible (note_info.h): that, in words
 *	vcpus, ram_gb	unknown: the API gives none (the list's page does
 *			for some classes)
 *
 * Skipped and counted: a class with neither a high nor a batch price.
 */
#include "config.h"
#include "provider.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "json.h"
#include "money.h"
#include "note_info.h"
#include "str.h"
#include "xalloc.h"

#define SALAD_ORIGIN	"https://api.salad.com"
#define SALAD_REGION	"global"

struct salad_state {
	size_t	unpriced;
};

/* "RTX 4090 (24 GB)": the name before " (", and the GB inside. */
static void
salad_gpu_name(const char *name, char *gpu, size_t size, int *vram)
{
	const char *open = strstr(name, " (");
	char *end;
	long gb;

	*vram = 0;
	if (open == NULL) {
		str_copy(gpu, size, name);
		return;
	}
	snprintf(gpu, size, "%.*s", (int)(open - name), name);
	gb = strtol(open + 2, &end, 10);
	if (gb > 0 && gb <= OFFER_VRAM_MAX && strncmp(end, " GB)", 4) == 0)
		*vram = (int)gb;
}

/* The price of priority in prices (an array), or MONEY_NONE. */
static int
salad_price(const cJSON *prices, const char *priority, const char *path,
    int64_t *out, struct err *err)
{
	const cJSON *p;
	char name[16], ppath[OFFER_NAME_MAX + 32];
	size_t i = 0;

	*out = MONEY_NONE;
	cJSON_ArrayForEach(p, prices) {
		snprintf(ppath, sizeof ppath, "%s.prices[%zu]", path, i++);
		if (!cJSON_IsObject(p)) {
			err_set(err, "%s: expected an object, got %s", ppath,
			    json_type_name(p));
			return -1;
		}
		if (json_get_string(p, "priority", ppath, name, sizeof name,
		    NULL, err) < 0)
			return -1;
		if (strcmp(name, priority) != 0)
			continue;
		if (json_get_money(p, "price", ppath, out, NULL, err) < 0)
			return -1;
		if (*out > OFFER_GPU_HOUR_PRICE_MAX) {
			err_set(err, "%s.price: %g USD per GPU-hour is absurd",
			    ppath, (double)*out / MONEY_UNIT);
			return -1;
		}
		if (*out == 0)
			*out = MONEY_NONE;	/* no price, not free */
		return 0;
	}
	return 0;
}

static int
salad_class(struct provider_run *run, struct salad_state *st,
    const cJSON *c, const char *path, struct err *err)
{
	const cJSON *prices;
	char raw[OFFER_KEY_MAX], name[OFFER_NAME_MAX], gpu[OFFER_NAME_MAX];
	int64_t high, batch;
	int vram;
	struct offer *o;

	if (!cJSON_IsObject(c)) {
		err_set(err, "%s: expected an object, got %s", path,
		    json_type_name(c));
		return -1;
	}
	if (json_get_string(c, "name", path, raw, sizeof raw, NULL, err) < 0)
		return -1;
	provider_copy(name, sizeof name, raw);
	if (name[0] == '\0') {
		err_set(err, "%s.name: empty", path);
		return -1;
	}
	if ((prices = json_get_array(c, "prices", path, err)) == NULL ||
	    salad_price(prices, "high", path, &high, err) < 0 ||
	    salad_price(prices, "batch", path, &batch, err) < 0)
		return -1;
	if (!money_known(high) && !money_known(batch)) {
		provider_skip(run, &st->unpriced);
		return 0;
	}
	salad_gpu_name(name, gpu, sizeof gpu, &vram);
	o = offer_list_add(&run->offers);
	offer_set_key(&run->offers, o, name);
	offer_set_instance_type(&run->offers, o, name);
	offer_set_region(&run->offers, o, SALAD_REGION);
	o->gpu_count = 1;
	o->vram_gb = vram;
	provider_set_gpu(run, o, gpu, vram);
	o->interconnect = provider_interconnect(NULL, o->gpu, 1);
	o->price = high;
	o->spot_price = batch;
	/* Batch alone: sold only as interruptible capacity. */
	if (!money_known(high))
		o->notes |= NOTE_BIT(NOTE_NOT_ON_DEMAND);
	o->notes |= NOTE_BIT(NOTE_INTERRUPTIBLE);
	str_copy(o->currency, sizeof o->currency, "USD");
	o->price_original = high;
	return provider_offer_done(run, err);
}

static int
salad_classes(struct provider_run *run, const cJSON *root, struct err *err)
{
	struct salad_state *st = run->state;
	const cJSON *items, *c;
	char path[32];
	size_t i = 0;

	if ((items = json_get_array(root, "items", "response", err)) == NULL)
		return -1;
	cJSON_ArrayForEach(c, items) {
		snprintf(path, sizeof path, "items[%zu]", i++);
		if (salad_class(run, st, c, path, err) < 0)
			return -1;
	}
	return 0;
}

static void
salad_configure(struct provider_run *run, provider_setting_fn *setting,
    void *ctx)
{
	run->account = setting(ctx, "GPUCOST_SALAD_ORGANIZATION",
	    "salad_organization");
}

static int
salad_start(struct provider_run *run, struct err *err)
{
	struct http_request *req;
	char *org, *path;

	if (run->account == NULL || run->account[0] == '\0') {
		err_set(err, "SALAD_API_KEY is set but not the organisation "
		    "it belongs to: set salad_organization in the config (or "
		    "GPUCOST_SALAD_ORGANIZATION)");
		return -1;
	}
	run->state = xcalloc(1, sizeof(struct salad_state));
	org = provider_url_escape(run->account);
	path = xasprintf("/api/public/organizations/%s/gpu-classes", org);
	req = provider_queue(run, provider_url(run, SALAD_ORIGIN, path), NULL,
	    0);
	free(path);
	free(org);
	http_request_header(req, "Accept", "application/json");
	if (run->api_key != NULL)
		http_request_header(req, "Salad-Api-Key", run->api_key);
	provider_conditional(req);
	return 0;
}

static int
salad_response(struct provider_run *run, const struct http_result *result,
    struct err *err)
{
	return provider_parse_json(run, result, salad_classes, err);
}

static int
salad_finish(struct provider_run *run, struct err *err)
{
	struct salad_state *st = run->state;

	if (st->unpriced > 0)
		provider_note(run, "%zu GPU class%s without a price skipped",
		    st->unpriced, st->unpriced == 1 ? "" : "es");
	(void)err;
	return 0;
}

static void
salad_done(struct provider_run *run)
{
	free(run->state);
	run->state = NULL;
}

const struct provider provider_salad = {
	.id = "salad",
	.name = "SaladCloud",
	.key_env = "SALAD_API_KEY",
	.key_required = false,
	.currency = NULL,
	.no_feed = "SaladCloud publishes no keyless price feed (SALAD_API_KEY "
	    "and salad_organization read it live)",
	.configure = salad_configure,
	.start = salad_start,
	.response = salad_response,
	.finish = salad_finish,
	.done = salad_done,
};
