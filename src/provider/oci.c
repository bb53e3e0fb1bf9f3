/*
 * oci.c: the Oracle Cloud Infrastructure adapter (no key).
 *
 * Two documents on two hosts, fetched in parallel (GPUCOST_OCI_URL
 * replaces the scheme, host and port of both):
 *
 *	GET https://apexapps.oracle.com/pls/apex/cetools/api/v1/products/
 *	    ?currencyCode=USD					prices
 *	GET https://www.oracle.com/a/ocom/docs/cloudestimator2/data/
 *	    shapes.json						shapes
 *
 * A shape is a GPU offer when its status is "ACTIVE", it is not hidden,
 * its name starts "BM." or "VM.", subType.value is "gpu" and gpuQty > 0
 * (SkyPilot's fetch_oci.py); display suffixes ("BM.GPU.GB200.4 (NVL72)")
 * are cut at the first space. Its price is that of its "ocpu" product,
 * joined to the price list by partNumber only -- never by displayName,
 * which is not unique, lacks the GPU on older parts ("Compute - GPU -
 * E3" is BM.GPU4.8) and is shared by software licence rows ("OCI -
 * NVIDIA AI Enterprise - H100") that look like rentals:
 *
 *	metricName "GPU Per Hour"	USD per GPU-hour x gpuQty
 *	metricName "OCPU Per Hour"	x the product's qty, plus the memory
 *					product's part x its qty
 *	anything else (per node, per day)	not a shape price: skipped
 *
 * Preemptible capacity is 50 % of on-demand where allowPreemptible is
 * true (docs.oracle.com, Compute, "Preemptible Instances").
 *
 * The GPU comes from the shape name (the last number is the count,
 * gpuQty is used), see oci_gpus[]: gpuMemoryQty is the shape's total on
 * most shapes but per GPU on BM.GPU.MI355X.8, so VRAM comes from the
 * GPU catalogue. A model the table does not know is kept as written in
 * the name and reported as unknown, never guessed ("H100T" is not H100).
 *
 * Oracle publishes one price for every commercial region and no
 * per-region availability, so each shape is one offer in region "all"
 * with availability unknown; listing ~45 regions would claim an
 * availability nobody published. Key and instance type: the shape name.
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

#define OCI_PRICES_ORIGIN	"https://apexapps.oracle.com"
#define OCI_PRICES_PATH		"/pls/apex/cetools/api/v1/products/?currencyCode=USD"
#define OCI_SHAPES_ORIGIN	"https://www.oracle.com"
#define OCI_SHAPES_PATH		"/a/ocom/docs/cloudestimator2/data/shapes.json"
#define OCI_QTY_MAX		OFFER_RAM_MAX	/* OCPUs or GB in one product */
/* Preemptible instances cost half the on-demand price. */
#define OCI_PREEMPTIBLE_DIVISOR	2

enum oci_doc {
	DOC_PRICES,
	DOC_SHAPES,
	DOC_COUNT
};

static const char *const oci_doc_name[DOC_COUNT] = { "prices", "shapes" };

/* Why a shape gave no offer, in the order the note lists them. */
enum oci_skip {
	OCI_SKIP_INACTIVE,	/* not ACTIVE, or hidden */
	OCI_SKIP_NOT_GPU,
	OCI_SKIP_NO_PRICE,	/* part not in the list, or no USD price */
	OCI_SKIP_METRIC,	/* per node, per day ...: not an hourly price */
	OCI_SKIP_REPEAT,	/* a name seen before (display suffixes cut) */
	OCI_SKIP_COUNT
};

static const char *const oci_skip_label[OCI_SKIP_COUNT] = {
	"inactive or hidden", "non-GPU", "unpriced", "not hourly", "repeated",
};

/*
 * The GPU of a shape name's model word ("H100" in BM.GPU.H100.8) or
 * generation ("GPU4" in BM.GPU4.8). vram_gb only picks the family
 * member; ic is that of the bare-metal shapes (HGX and GB200/GB300
 * boards are NVLink; AMD's Infinity Fabric is not); grace: Arm hosts,
 * where one OCPU is one vCPU (two on x86).
 */
static const struct oci_gpu {
	const char	*word;
	const char	*gpu_raw;
	int		 vram_gb;
	enum interconnect ic;
	bool		 grace;
} oci_gpus[] = {
	{ "GPU2",	"P100",		16,	IC_UNKNOWN,	false },
	{ "GPU3",	"V100",		16,	IC_NVLINK,	false },
	{ "GPU4",	"A100",		40,	IC_NVLINK,	false },
	{ "A100-v2",	"A100",		80,	IC_NVLINK,	false },
	{ "A10",	"A10",		24,	IC_PCIE,	false },
	{ "L40S",	"L40S",		48,	IC_PCIE,	false },
	{ "H100",	"H100 SXM",	80,	IC_NVLINK,	false },
	{ "H200",	"H200",		141,	IC_NVLINK,	false },
	{ "B200",	"B200",		180,	IC_NVLINK,	false },
	{ "B300",	"B300",		0,	IC_NVLINK,	false },
	{ "GB200",	"GB200",	0,	IC_NVLINK,	true },
	{ "GB300",	"GB300",	0,	IC_NVLINK,	true },
	{ "MI300X",	"MI300X",	192,	IC_UNKNOWN,	false },
	{ "MI355X",	"MI355X",	288,	IC_UNKNOWN,	false },
	{ "RTXPRO",	"RTX PRO 6000",	96,	IC_PCIE,	false },
};

/* The refresh in progress (run->state). */
struct oci_state {
	cJSON	*doc[DOC_COUNT];	/* parsed, until finish() */
	size_t	 skipped[OCI_SKIP_COUNT];
};

/* The USD pay-as-you-go price of a price-list item; MONEY_NONE if none. */
static int
oci_item_usd(const cJSON *item, const char *path, double *usd,
    struct err *err)
{
	const cJSON *locs, *loc, *prices, *price, *v;
	char code[8], model[32];

	*usd = -1;
	locs = cJSON_GetObjectItemCaseSensitive(item, "currencyCodeLocalizations");
	cJSON_ArrayForEach(loc, locs) {
		if (json_get_string(loc, "currencyCode", path, code,
		    sizeof code, NULL, err) < 0)
			return -1;
		if (strcmp(code, "USD") != 0)
			continue;
		prices = cJSON_GetObjectItemCaseSensitive(loc, "prices");
		cJSON_ArrayForEach(price, prices) {
			if (json_get_string(price, "model", path, model,
			    sizeof model, NULL, err) < 0)
				return -1;
			if (strcmp(model, "PAY_AS_YOU_GO") != 0)
				continue;
			v = cJSON_GetObjectItemCaseSensitive(price, "value");
			if (!cJSON_IsNumber(v) || !(v->valuedouble >= 0 &&
			    v->valuedouble <= (double)OFFER_PRICE_MAX_USD)) {
				err_set(err, "%s: PAY_AS_YOU_GO value is not a "
				    "price in 0..%d USD", path,
				    OFFER_PRICE_MAX_USD);
				return -1;
			}
			*usd = v->valuedouble;
			return 0;
		}
	}
	return 0;
}

/* The price-list item of a part number, or NULL. */
static const cJSON *
oci_part(const cJSON *items, const char *part)
{
	const cJSON *item, *pn;

	cJSON_ArrayForEach(item, items) {
		pn = cJSON_GetObjectItemCaseSensitive(item, "partNumber");
		if (cJSON_IsString(pn) && strcmp(pn->valuestring, part) == 0)
			return item;
	}
	return NULL;
}

/* A shape's product of this type ("ocpu", "memory"), or NULL. */
static const cJSON *
oci_product(const cJSON *shape, const char *type)
{
	const cJSON *products, *p, *t, *v;

	products = cJSON_GetObjectItemCaseSensitive(shape, "products");
	cJSON_ArrayForEach(p, products) {
		t = cJSON_GetObjectItemCaseSensitive(p, "type");
		v = cJSON_IsObject(t) ?
		    cJSON_GetObjectItemCaseSensitive(t, "value") : NULL;
		if (cJSON_IsString(v) && strcmp(v->valuestring, type) == 0)
			return p;
	}
	return NULL;
}

/* An optional quantity in 0..OCI_QTY_MAX; 0 when absent or null. */
static int
oci_qty(const cJSON *obj, const char *key, const char *path, double *out,
    struct err *err)
{
	if (provider_get_number(obj, key, path, OCI_QTY_MAX, out, err) < 0)
		return -1;
	if (*out < 0)
		*out = 0;
	return 0;
}

/* A string member's value inside an object member ("subType.value"). */
static const char *
oci_value(const cJSON *shape, const char *key)
{
	const cJSON *o = cJSON_GetObjectItemCaseSensitive(shape, key), *v;

	v = cJSON_IsObject(o) ? cJSON_GetObjectItemCaseSensitive(o, "value") :
	    NULL;
	return cJSON_IsString(v) ? v->valuestring : "";
}

/*
 * The price of one shape-hour in USD from its products; *why set (and
 * *usd < 0) when the shape has no hourly price in the list.
 */
static int
oci_shape_price(const cJSON *items, const cJSON *shape, const char *path,
    int gpus, double *usd, enum oci_skip *why, struct err *err)
{
	const cJSON *ocpu, *mem, *item;
	char part[32], metric[64], ipath[64];
	double unit, qty, mem_unit, mem_qty;

	*usd = -1;
	*why = OCI_SKIP_NO_PRICE;
	if ((ocpu = oci_product(shape, "ocpu")) == NULL)
		return 0;
	if (json_get_string(ocpu, "partNumber", path, part, sizeof part, NULL,
	    err) < 0 || oci_qty(ocpu, "qty", path, &qty, err) < 0)
		return -1;
	if ((item = oci_part(items, part)) == NULL)
		return 0;
	snprintf(ipath, sizeof ipath, "prices part %s", part);
	if (json_get_string(item, "metricName", ipath, metric, sizeof metric,
	    NULL, err) < 0 || oci_item_usd(item, ipath, &unit, err) < 0)
		return -1;
	if (unit <= 0)
		return 0;
	if (strcmp(metric, "GPU Per Hour") == 0) {
		*usd = unit * gpus;
	} else if (strcmp(metric, "OCPU Per Hour") == 0 && qty > 0) {
		*usd = unit * qty;
		if ((mem = oci_product(shape, "memory")) != NULL) {
			if (json_get_string(mem, "partNumber", path, part,
			    sizeof part, NULL, err) < 0 ||
			    oci_qty(mem, "qty", path, &mem_qty, err) < 0)
				return -1;
			snprintf(ipath, sizeof ipath, "prices part %s", part);
			mem_unit = -1;
			if ((item = oci_part(items, part)) != NULL &&
			    oci_item_usd(item, ipath, &mem_unit, err) < 0)
				return -1;
			if (mem_unit < 0) {
				*usd = -1;
				return 0;
			}
			*usd += mem_unit * mem_qty;
		}
	} else {
		*why = OCI_SKIP_METRIC;
		return 0;
	}
	if (*usd > (double)OFFER_PRICE_MAX_USD) {
		err_set(err, "%s: %.2f USD per hour is out of range 0..%g",
		    path, *usd, (double)OFFER_PRICE_MAX_USD);
		return -1;
	}
	return 0;
}

/* The table entry for a shape name's model word, or NULL. */
static const struct oci_gpu *
oci_gpu_find(const char *word)
{
	size_t i;

	for (i = 0; i < sizeof oci_gpus / sizeof oci_gpus[0]; i++)
		if (str_eq_nocase(oci_gpus[i].word, word))
			return &oci_gpus[i];
	return NULL;
}

/*
 * The model word of a shape name: "H100" of BM.GPU.H100.8, "GPU4" of
 * BM.GPU4.8, "" when the name has no such form.
 */
static void
oci_model_word(const char *name, char *word, size_t size)
{
	const char *p = name + 3, *last = strrchr(name, '.');

	word[0] = '\0';
	if (last == NULL || last <= p)
		return;
	if (strncmp(p, "GPU.", 4) == 0 && last > p + 4)
		p += 4;
	if ((size_t)(last - p) >= size)
		return;
	memcpy(word, p, (size_t)(last - p));
	word[last - p] = '\0';
}

/* One shape of the shapes document. */
static int
oci_shape(struct provider_run *run, struct oci_state *st,
    const cJSON *items, const cJSON *shape, const char *path,
    struct err *err)
{
	char name[OFFER_NAME_MAX], status[32], word[OFFER_NAME_MAX];
	const struct oci_gpu *g;
	const cJSON *ocpu;
	enum oci_skip why;
	struct offer *o;
	double usd, qty, mem;
	long long gpus;
	bool found;

	if (!cJSON_IsObject(shape)) {
		err_set(err, "%s: expected an object, got %s", path,
		    json_type_name(shape));
		return -1;
	}
	if (json_get_string(shape, "name", path, name, sizeof name, NULL,
	    err) < 0 ||
	    json_get_string(shape, "status", path, status, sizeof status,
	    &found, err) < 0 ||
	    json_get_int(shape, "gpuQty", path, 0, OFFER_GPU_COUNT_MAX, &gpus,
	    &found, err) < 0)
		return -1;
	if (!found)
		gpus = 0;
	name[strcspn(name, " ")] = '\0';	/* "BM.GPU.GB200.4 (NVL72)" */
	if (strcmp(status, "ACTIVE") != 0 || cJSON_IsTrue(
	    cJSON_GetObjectItemCaseSensitive(shape, "hidden")))
		why = OCI_SKIP_INACTIVE;
	else if ((strncmp(name, "BM.", 3) != 0 &&
	    strncmp(name, "VM.", 3) != 0) ||
	    strcmp(oci_value(shape, "subType"), "gpu") != 0 || gpus < 1)
		why = OCI_SKIP_NOT_GPU;
	else if (oci_shape_price(items, shape, path, (int)gpus, &usd, &why,
	    err) < 0)
		goto fail;
	else if (usd > 0)
		why = provider_offer_find(run, name) != NULL ?
		    OCI_SKIP_REPEAT : OCI_SKIP_COUNT;
	if (why != OCI_SKIP_COUNT) {
		provider_skip(run, &st->skipped[why]);
		return 0;
	}
	oci_model_word(name, word, sizeof word);
	g = oci_gpu_find(word);
	if ((ocpu = oci_product(shape, "ocpu")) == NULL ||
	    oci_qty(ocpu, "qty", path, &qty, err) < 0 ||
	    oci_qty(shape, "bundleMemoryQty", path, &mem, err) < 0)
		goto fail;
	o = offer_list_add(&run->offers);
	offer_set_key(&run->offers, o, name);
	offer_set_instance_type(&run->offers, o, name);
	offer_set_region(&run->offers, o, "all");
	o->gpu_count = (int)gpus;
	provider_set_gpu(run, o, g != NULL ? g->gpu_raw : word,
	    g != NULL ? g->vram_gb : 0);
	if (g != NULL && strncmp(name, "BM.", 3) == 0)
		o->interconnect = g->ic;
	else
		o->interconnect = provider_interconnect(NULL, o->gpu,
		    o->gpu_count);
	o->vcpus = (int)lround(qty * (g != NULL && g->grace ? 1 : 2));
	o->ram_gb = mem;
	if (money_from_double(usd, &o->price) < 0) {
		offer_list_pop(&run->offers);
		err_set(err, "%s: price %g USD is not a price", path, usd);
		goto fail;
	}
	o->spot_price = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(shape,
	    "allowPreemptible")) ?
	    money_div_round(o->price, OCI_PREEMPTIBLE_DIVISOR) : MONEY_NONE;
	o->availability = AV_UNKNOWN;
	if (provider_offer_done(run, err) < 0)
		goto fail;
	return 0;
fail:
	err_prefix(err, "shape %s", name);
	return -1;
}

static int
oci_start(struct provider_run *run, struct err *err)
{
	struct http_request *req;

	(void)err;
	run->state = xcalloc(1, sizeof(struct oci_state));
	req = provider_queue(run, provider_url(run, OCI_PRICES_ORIGIN,
	    OCI_PRICES_PATH), NULL, DOC_PRICES);
	provider_conditional(req);	/* each document is whole */
	http_request_header(req, "Accept", "application/json");
	req = provider_queue(run, provider_url(run, OCI_SHAPES_ORIGIN,
	    OCI_SHAPES_PATH), NULL, DOC_SHAPES);
	provider_conditional(req);
	http_request_header(req, "Accept", "application/json");
	return 0;
}

/* Keep each document until both are in. */
static int
oci_response(struct provider_run *run, const struct http_result *result,
    struct err *err)
{
	struct oci_state *st = run->state;
	int tag = result->req->tag;
	cJSON *root;

	if (tag < 0 || tag >= DOC_COUNT || st->doc[tag] != NULL) {
		err_set(err, "unexpected response (tag %d)", tag);
		return -1;
	}
	if (json_parse(result->body, result->body_len, &root, err) < 0) {
		err_prefix(err, "%s", oci_doc_name[tag]);
		return -1;
	}
	if (json_get_array(root, "items", oci_doc_name[tag], err) == NULL) {
		cJSON_Delete(root);
		return -1;
	}
	st->doc[tag] = root;
	return 0;
}

/* Both documents are in: one offer per priced GPU shape. */
static int
oci_finish(struct provider_run *run, struct err *err)
{
	struct oci_state *st = run->state;
	const cJSON *items, *shapes, *shape;
	char path[32];
	bool first = true;
	size_t i = 0;

	if (st->doc[DOC_PRICES] == NULL || st->doc[DOC_SHAPES] == NULL) {
		err_set(err, "the %s document is missing",
		    oci_doc_name[st->doc[DOC_PRICES] == NULL ? DOC_PRICES :
		    DOC_SHAPES]);
		return -1;
	}
	items = cJSON_GetObjectItemCaseSensitive(st->doc[DOC_PRICES], "items");
	shapes = cJSON_GetObjectItemCaseSensitive(st->doc[DOC_SHAPES], "items");
	cJSON_ArrayForEach(shape, shapes) {
		snprintf(path, sizeof path, "shapes.items[%zu]", i++);
		if (oci_shape(run, st, items, shape, path, err) < 0)
			return -1;
	}
	for (i = 0; i < OCI_SKIP_COUNT; i++) {
		if (st->skipped[i] == 0)
			continue;
		provider_note(run, "%s%zu %s", first ? "skipped shapes: " : "",
		    st->skipped[i], oci_skip_label[i]);
		first = false;
	}
	return 0;
}

static void
oci_done(struct provider_run *run)
{
	struct oci_state *st = run->state;
	size_t i;

	if (st == NULL)
		return;
	for (i = 0; i < DOC_COUNT; i++)
		cJSON_Delete(st->doc[i]);
	free(st);
	run->state = NULL;
}

const struct provider provider_oci = {
	.id = "oci",
	.name = "Oracle Cloud",
	.key_env = NULL,
	.key_required = false,
	.start = oci_start,
	.response = oci_response,
	.finish = oci_finish,
	.done = oci_done,
};
