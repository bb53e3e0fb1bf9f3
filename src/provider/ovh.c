/*
 * ovh.c: the OVHcloud Public Cloud adapter.
 *
 * One keyless document, the public order catalog of the FR billing
 * subsidiary (about 8 MB, so asked for conditionally):
 *
 *	GET https://eu.api.ovh.com/1.0/order/catalog/public/cloud?ovhSubsidiary=FR
 *
 * The subsidiary decides the currency: FR bills in EUR, and the answer
 * must say so (locale.subsidiary "FR", locale.currencyCode "EUR"), else
 * the whole answer is refused rather than priced in the wrong money.
 * Every priced variant of a flavor is one entry of addons[]: planCode
 * "<flavor>.consumption" is the hourly price, ".monthly.postpaid" the
 * monthly one, "win-<flavor>..." includes a Windows licence, and
 * ".consumption.3AZ" / ".consumption.LZ.EU" are other region classes.
 *
 * One offer per (GPU flavor, region): key "<flavor>/<region>", instance
 * type the flavor (invoiceName), region as OVH spells it ("GRA11").
 * Fields:
 *
 *	gpu		blobs.technical.gpu.model ("H100", "A100", "L40S",
 *			"Tesla V100S", "Quadro-RTX5000"), resolved with
 *			gpu.memory.size (GB per GPU) as the hint
 *	count		gpu.number
 *	vcpus, ram_gb	cpu.cores; memory.size (GB)
 *	price		the one pricing of the .consumption entry: an integer
 *			in 1e-8 EUR per instance-hour before VAT, converted
 *			with run->usd_per_eur; currency "EUR" and
 *			price_original keep the EUR figure. No spot.
 *	region		configurations[name=region].values, merged over every
 *			variant of the flavor (the hourly entry's list may be
 *			empty while the monthly one has it): where it can be
 *			ordered, not stock, so availability is unknown
 *
 * Skipped and counted (run->skipped, run->note): entries that are not
 * GPU instances (blobs.commercial.brick other than "gpu": CPU flavors,
 * the per-minute ai-* products), monthly prices, Windows and the other
 * region classes, flavors tagged coming_soon, and hourly entries with
 * no price, a price per other unit, or more than one pricing phase.
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

#define OVH_ORIGIN	"https://eu.api.ovh.com"
#define OVH_SUBSIDIARY	"FR"
#define OVH_CURRENCY	"EUR"
#define OVH_PATH	"/1.0/order/catalog/public/cloud?ovhSubsidiary=" \
			    OVH_SUBSIDIARY
#define OVH_HOURLY	".consumption"
#define OVH_MONTHLY	".monthly.postpaid"
#define OVH_PRICE_UNIT	100000000.0	/* 1e-8 of the currency */
#define OVH_REGIONS_MAX	64		/* per flavor */

enum ovh_skip {
	SKIP_NOT_GPU,
	SKIP_MONTHLY,
	SKIP_OTHER,
	SKIP_SOON,
	SKIP_PRICE,
	SKIP_COUNT
};

static const char *const ovh_skip_what[SKIP_COUNT][2] = {
	{ "entry that is not a GPU instance",
	  "entries that are not GPU instances" },
	{ "monthly price", "monthly prices" },
	{ "Windows or other region-class price",
	  "Windows or other region-class prices" },
	{ "coming-soon flavor", "coming-soon flavors" },
	{ "hourly entry without one hourly price",
	  "hourly entries without one hourly price" },
};

/* The regions of one flavor, over all its variants. */
struct ovh_flavor {
	char	name[OFFER_NAME_MAX];
	char	region[OVH_REGIONS_MAX][OFFER_NAME_MAX];
	size_t	nregion;
};

/* The refresh in progress (run->state). */
struct ovh_state {
	struct ovh_flavor *flavors;
	size_t	 nflavors, flavors_cap;
	size_t	 skipped[SKIP_COUNT];
};

static struct ovh_flavor *
ovh_flavor(struct ovh_state *st, const char *name, bool add)
{
	size_t i;

	for (i = 0; i < st->nflavors; i++)
		if (strcmp(st->flavors[i].name, name) == 0)
			return &st->flavors[i];
	if (!add)
		return NULL;
	if (st->nflavors == st->flavors_cap) {
		st->flavors_cap = st->flavors_cap ? st->flavors_cap * 2 : 32;
		st->flavors = xreallocarray(st->flavors, st->flavors_cap,
		    sizeof *st->flavors);
	}
	memset(&st->flavors[st->nflavors], 0, sizeof *st->flavors);
	str_copy(st->flavors[st->nflavors].name, OFFER_NAME_MAX, name);
	return &st->flavors[st->nflavors++];
}

/* An object member that may be absent; NULL then, -1 if not an object. */
static int
ovh_object(const cJSON *obj, const char *key, const char *path,
    const cJSON **out, struct err *err)
{
	const cJSON *item = cJSON_GetObjectItemCaseSensitive(obj, key);

	*out = NULL;
	if (item == NULL || cJSON_IsNull(item))
		return 0;
	if (!cJSON_IsObject(item)) {
		err_set(err, "%s.%s: expected an object, got %s", path, key,
		    json_type_name(item));
		return -1;
	}
	*out = item;
	return 0;
}

/* Add an addon's region list to its flavor. */
static int
ovh_regions(struct ovh_state *st, const cJSON *addon, const char *flavor,
    const char *path, struct err *err)
{
	const cJSON *confs, *conf, *values, *v;
	struct ovh_flavor *f;
	char name[32], region[OFFER_NAME_MAX];
	size_t i;

	confs = cJSON_GetObjectItemCaseSensitive(addon, "configurations");
	if (confs == NULL || cJSON_IsNull(confs))
		return 0;
	if (!cJSON_IsArray(confs)) {
		err_set(err, "%s.configurations: expected an array, got %s",
		    path, json_type_name(confs));
		return -1;
	}
	cJSON_ArrayForEach(conf, confs) {
		if (!cJSON_IsObject(conf))
			continue;
		name[0] = '\0';
		if (json_get_string(conf, "name", path, name, sizeof name, NULL,
		    err) < 0)
			return -1;
		if (strcmp(name, "region") != 0)
			continue;
		values = cJSON_GetObjectItemCaseSensitive(conf, "values");
		if (!cJSON_IsArray(values)) {
			err_set(err, "%s.configurations.values: expected an "
			    "array, got %s", path, json_type_name(values));
			return -1;
		}
		f = ovh_flavor(st, flavor, true);
		cJSON_ArrayForEach(v, values) {
			if (!cJSON_IsString(v)) {
				err_set(err, "%s.configurations.values: expected "
				    "strings, got %s", path, json_type_name(v));
				return -1;
			}
			provider_copy(region, sizeof region, v->valuestring);
			if (region[0] == '\0')
				continue;
			for (i = 0; i < f->nregion; i++)
				if (strcmp(f->region[i], region) == 0)
					break;
			if (i < f->nregion)
				continue;
			if (f->nregion == OVH_REGIONS_MAX) {
				err_set(err, "%s: more than %d regions", path,
				    OVH_REGIONS_MAX);
				return -1;
			}
			str_copy(f->region[f->nregion++], OFFER_NAME_MAX,
			    region);
		}
	}
	return 0;
}

/* The invoiceName of an addon (its flavor), or "" when it has none. */
static int
ovh_invoice_name(const cJSON *addon, const char *path, char *buf,
    size_t size, struct err *err)
{
	bool found;

	buf[0] = '\0';
	if (json_get_string(addon, "invoiceName", path, buf, size, &found,
	    err) < 0)
		return -1;
	provider_copy(buf, size, buf);
	return 0;
}

/* First pass: every addon's regions, merged per flavor. */
static int
ovh_all_regions(struct ovh_state *st, const cJSON *addons, struct err *err)
{
	const cJSON *addon;
	char path[48], flavor[OFFER_NAME_MAX], code[OFFER_NAME_MAX + 32];
	char hourly[OFFER_NAME_MAX + 32], monthly[OFFER_NAME_MAX + 32];
	size_t i = 0;
	bool found;

	cJSON_ArrayForEach(addon, addons) {
		snprintf(path, sizeof path, "addons[%zu]", i++);
		if (!cJSON_IsObject(addon)) {
			err_set(err, "%s: expected an object, got %s", path,
			    json_type_name(addon));
			return -1;
		}
		if (ovh_invoice_name(addon, path, flavor, sizeof flavor,
		    err) < 0 ||
		    json_get_string(addon, "planCode", path, code, sizeof code,
		    &found, err) < 0)
			return -1;
		/*
		 * Only the Linux hourly and monthly variants share a region
		 * class: Windows, 3-AZ and Local Zone entries list regions
		 * at other prices.
		 */
		snprintf(hourly, sizeof hourly, "%s" OVH_HOURLY, flavor);
		snprintf(monthly, sizeof monthly, "%s" OVH_MONTHLY, flavor);
		if (flavor[0] != '\0' && (strcmp(code, hourly) == 0 ||
		    strcmp(code, monthly) == 0) &&
		    ovh_regions(st, addon, flavor, path, err) < 0)
			return -1;
	}
	return 0;
}

/* Is s tagged tag in blobs.tags[]? */
static bool
ovh_tagged(const cJSON *blobs, const char *tag)
{
	const cJSON *tags = cJSON_GetObjectItemCaseSensitive(blobs, "tags");
	const cJSON *t;

	if (!cJSON_IsArray(tags))
		return false;
	cJSON_ArrayForEach(t, tags)
		if (cJSON_IsString(t) && strcmp(t->valuestring, tag) == 0)
			return true;
	return false;
}

/*
 * The hourly price of a .consumption entry in micro-EUR: 0 when it has
 * none to take (not one pricing, or a unit other than the hour).
 */
static int
ovh_price(const cJSON *addon, const char *path, int64_t *micro,
    struct err *err)
{
	const cJSON *pricings, *p, *price;
	char unit[16] = "", ppath[64];
	bool found;

	*micro = 0;
	pricings = cJSON_GetObjectItemCaseSensitive(addon, "pricings");
	if (pricings == NULL || cJSON_IsNull(pricings))
		return 0;
	if (!cJSON_IsArray(pricings)) {
		err_set(err, "%s.pricings: expected an array, got %s", path,
		    json_type_name(pricings));
		return -1;
	}
	if (cJSON_GetArraySize(pricings) != 1)
		return 0;
	p = cJSON_GetArrayItem(pricings, 0);
	snprintf(ppath, sizeof ppath, "%s.pricings[0]", path);
	if (!cJSON_IsObject(p)) {
		err_set(err, "%s: expected an object, got %s", ppath,
		    json_type_name(p));
		return -1;
	}
	if (json_get_string(p, "intervalUnit", ppath, unit, sizeof unit,
	    &found, err) < 0)
		return -1;
	/* The US book says "none" on hourly rows: the planCode decides. */
	if (found && strcmp(unit, "hour") != 0 && strcmp(unit, "none") != 0)
		return 0;
	price = cJSON_GetObjectItemCaseSensitive(p, "price");
	if (price == NULL || cJSON_IsNull(price))
		return 0;
	if (!cJSON_IsNumber(price) || !isfinite(price->valuedouble) ||
	    price->valuedouble < 0 ||
	    floor(price->valuedouble) < price->valuedouble ||
	    price->valuedouble / OVH_PRICE_UNIT > OFFER_PRICE_MAX_USD) {
		if (cJSON_IsNumber(price))
			err_set(err, "%s.price %g is not a whole number of "
			    "1e-8 EUR in 0..%d EUR/h", ppath,
			    price->valuedouble, OFFER_PRICE_MAX_USD);
		else
			err_set(err, "%s.price: expected a number, got %s",
			    ppath, json_type_name(price));
		return -1;
	}
	*micro = (int64_t)llround(price->valuedouble / 100);
	return 0;
}

/* The GPU blob of a GPU instance entry; -1 when it is broken. */
static int
ovh_gpu(const cJSON *technical, const char *path, char *model, size_t size,
    long long *count, double *vram, double *cores, double *ram,
    struct err *err)
{
	const cJSON *gpu, *mem, *cpu, *memory;
	char gpath[96], mpath[112];

	if (ovh_object(technical, "gpu", path, &gpu, err) < 0)
		return -1;
	if (gpu == NULL) {
		err_set(err, "%s.gpu: missing for a GPU instance", path);
		return -1;
	}
	snprintf(gpath, sizeof gpath, "%s.gpu", path);
	if (json_get_string(gpu, "model", gpath, model, size, NULL, err) < 0 ||
	    json_get_int(gpu, "number", gpath, 1, OFFER_GPU_COUNT_MAX, count,
	    NULL, err) < 0)
		return -1;
	if (model[0] == '\0') {
		err_set(err, "%s.model: empty", gpath);
		return -1;
	}
	*vram = 0;
	if (ovh_object(gpu, "memory", gpath, &mem, err) < 0)
		return -1;
	snprintf(mpath, sizeof mpath, "%s.memory", gpath);
	if (mem != NULL && provider_get_number_at(mem, "size", mpath,
	    OFFER_VRAM_MAX, vram, err) < 0)
		return -1;
	*cores = *ram = 0;
	if (ovh_object(technical, "cpu", path, &cpu, err) < 0 ||
	    ovh_object(technical, "memory", path, &memory, err) < 0)
		return -1;
	snprintf(mpath, sizeof mpath, "%s.cpu", path);
	if (cpu != NULL && provider_get_number_at(cpu, "cores", mpath,
	    OFFER_VCPUS_MAX, cores, err) < 0)
		return -1;
	snprintf(mpath, sizeof mpath, "%s.memory", path);
	if (memory != NULL && provider_get_number_at(memory, "size", mpath,
	    OFFER_RAM_MAX, ram, err) < 0)
		return -1;
	*vram = fmax(*vram, 0);
	*cores = fmax(*cores, 0);
	*ram = fmax(*ram, 0);
	return 0;
}

/* Does s end with suffix? */
static bool
ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && strcmp(s + n - m, suffix) == 0;
}

/* One addon: the offers of a GPU flavor's hourly entry, or a skip. */
static int
ovh_addon(struct provider_run *run, struct ovh_state *st, const cJSON *addon,
    const char *path, struct err *err)
{
	const cJSON *blobs, *commercial, *technical;
	const struct ovh_flavor *f;
	char code[OFFER_NAME_MAX + 32], flavor[OFFER_NAME_MAX];
	char brick[32] = "", model[OFFER_NAME_MAX], tpath[64];
	double vram, cores, ram;
	long long count;
	int64_t eur, usd;
	struct offer *o;
	size_t i;
	bool found;

	code[0] = '\0';
	if (json_get_string(addon, "planCode", path, code, sizeof code, NULL,
	    err) < 0 ||
	    ovh_invoice_name(addon, path, flavor, sizeof flavor, err) < 0 ||
	    ovh_object(addon, "blobs", path, &blobs, err) < 0)
		return -1;
	commercial = technical = NULL;
	if (blobs != NULL && (ovh_object(blobs, "commercial", path,
	    &commercial, err) < 0 ||
	    ovh_object(blobs, "technical", path, &technical, err) < 0))
		return -1;
	if (commercial != NULL && json_get_string(commercial, "brick", path,
	    brick, sizeof brick, &found, err) < 0)
		return -1;
	if (strcmp(brick, "gpu") != 0 || technical == NULL) {
		provider_skip(run, &st->skipped[SKIP_NOT_GPU]);
		return 0;
	}
	if (strstr(code, ".monthly") != NULL) {
		provider_skip(run, &st->skipped[SKIP_MONTHLY]);
		return 0;
	}
	if (strncmp(code, "win-", 4) == 0 || !ends_with(code, OVH_HOURLY) ||
	    flavor[0] == '\0') {
		provider_skip(run, &st->skipped[SKIP_OTHER]);
		return 0;
	}
	if (ovh_tagged(blobs, "coming_soon")) {
		provider_skip(run, &st->skipped[SKIP_SOON]);
		return 0;
	}
	snprintf(tpath, sizeof tpath, "%s.blobs.technical", path);
	if (ovh_gpu(technical, tpath, model, sizeof model, &count, &vram,
	    &cores, &ram, err) < 0 || ovh_price(addon, path, &eur, err) < 0)
		return -1;
	if (eur == 0) {
		provider_skip(run, &st->skipped[SKIP_PRICE]);
		return 0;
	}
	if ((usd = currency_to_usd(eur, run->usd_per_eur)) <= 0) {
		err_set(err, "%s: no USD per EUR rate to convert %.4f EUR",
		    path, (double)eur / MONEY_UNIT);
		return -1;
	}
	if ((f = ovh_flavor(st, flavor, false)) == NULL)
		return 0;	/* priced, but orderable nowhere */
	for (i = 0; i < f->nregion; i++) {
		o = offer_list_add(&run->offers);
		offer_set_keyf(&run->offers, o, "%s/%s", flavor, f->region[i]);
		offer_set_instance_type(&run->offers, o, flavor);
		offer_set_region(&run->offers, o, f->region[i]);
		o->gpu_count = (int)count;
		provider_set_gpu(run, o, model, (int)lround(vram));
		if (o->gpu[0] == '\0')
			o->vram_gb = (int)lround(vram);
		o->interconnect = provider_interconnect(NULL, o->gpu,
		    o->gpu_count);
		o->vcpus = (int)cores;
		o->ram_gb = ram;
		o->price = usd;
		str_copy(o->currency, sizeof o->currency, OVH_CURRENCY);
		o->price_original = eur;
		if (provider_offer_done(run, err) < 0)
			return -1;
	}
	return 0;
}

/* The catalog: its locale, then every addon. */
static int
ovh_catalog(struct provider_run *run, const cJSON *root, struct err *err)
{
	struct ovh_state *st = run->state;
	const cJSON *locale, *addons, *addon;
	char sub[16], cur[8], path[48];
	size_t i = 0;

	if ((locale = json_get_object(root, "locale", "catalog", err)) == NULL)
		return -1;
	if (json_get_string(locale, "subsidiary", "catalog.locale", sub,
	    sizeof sub, NULL, err) < 0 ||
	    json_get_string(locale, "currencyCode", "catalog.locale", cur,
	    sizeof cur, NULL, err) < 0)
		return -1;
	provider_copy(sub, sizeof sub, sub);
	provider_copy(cur, sizeof cur, cur);
	if (strcmp(sub, OVH_SUBSIDIARY) != 0 || strcmp(cur, OVH_CURRENCY) != 0) {
		err_set(err, "catalog.locale: subsidiary %s in %s, asked for "
		    OVH_SUBSIDIARY " in " OVH_CURRENCY, sub, cur);
		return -1;
	}
	if ((addons = json_get_array(root, "addons", "catalog", err)) == NULL)
		return -1;
	if (ovh_all_regions(st, addons, err) < 0)
		return -1;
	cJSON_ArrayForEach(addon, addons) {
		snprintf(path, sizeof path, "addons[%zu]", i++);
		if (ovh_addon(run, st, addon, path, err) < 0)
			return -1;
	}
	return 0;
}

static int
ovh_start(struct provider_run *run, struct err *err)
{
	struct http_request *req;

	if (run->usd_per_eur <= 0) {
		err_set(err, "no USD per EUR rate (prices are in EUR)");
		return -1;
	}
	run->state = xcalloc(1, sizeof(struct ovh_state));
	req = provider_queue(run, provider_url(run, OVH_ORIGIN, OVH_PATH),
	    NULL, 0);
	provider_conditional(req);
	http_request_header(req, "Accept", "application/json");
	return 0;
}

static int
ovh_response(struct provider_run *run, const struct http_result *result,
    struct err *err)
{
	return provider_parse_json(run, result, ovh_catalog, err);
}

static int
ovh_finish(struct provider_run *run, struct err *err)
{
	struct ovh_state *st = run->state;

	provider_note_skips(run, st->skipped, ovh_skip_what, SKIP_COUNT);
	(void)err;
	return 0;
}

static void
ovh_done(struct provider_run *run)
{
	struct ovh_state *st = run->state;

	if (st == NULL)
		return;
	free(st->flavors);
	free(st);
	run->state = NULL;
}

const struct provider provider_ovh = {
	.id = "ovh",
	.name = "OVHcloud",
	.key_env = NULL,
	.key_required = false,
	.currency = "EUR",
	.start = ovh_start,
	.response = ovh_response,
	.finish = ovh_finish,
	.done = ovh_done,
};
