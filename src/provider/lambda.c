/*
 * lambda.c: the Lambda Cloud adapter.
 *
 * One request, GET https://cloud.lambdalabs.com/api/v1/instance-types,
 * with the key in "Authorization: Bearer KEY" (Lambda also accepts Basic
 * "KEY:"; Bearer needs no base64 and, like Basic, keeps the key out of
 * the URL). The answer maps every instance-type name to its hardware,
 * its price and the regions that have capacity right now:
 *
 *	{"data": {"gpu_8x_h100_sxm5": {
 *	    "instance_type": {"name": "gpu_8x_h100_sxm5",
 *		"description": "8x H100 (80 GB SXM5)",
 *		"gpu_description": "H100 (80 GB SXM5)",
 *		"price_cents_per_hour": 2392,
 *		"specs": {"vcpus": 208, "memory_gib": 1800,
 *		    "storage_gib": 24780, "gpus": 8}},
 *	    "regions_with_capacity_available": [
 *		{"name": "us-east-1", "description": "Virginia, USA"}]}}}
 *
 * How fields map to offers:
 * - One offer per region with capacity: key "<type>/<region>", region
 *   the region's name, available. A type with no capacity anywhere is
 *   kept once, region "(sold out)" (SOLD_OUT_REGION), key
 *   "<type>/(sold out)", unavailable, so its price can still be compared.
 * - price_cents_per_hour (an integer, or a numeric string as in Lambda's
 *   OpenAPI example) is US cents per instance-hour: x 10,000 micro-USD,
 *   exactly. Lambda has no spot market: spot_price stays unknown. A type
 *   priced at 0 is skipped.
 * - GPU count, model and VRAM come from the description ("8x H100 (80 GB
 *   SXM5)", "8x Tesla V100 (16 GB)"), else gpu_description, else the
 *   name (gpu_8x_a100_80gb_sxm4); specs.gpus, when given, must agree.
 * - Interconnect: an SXMn form word or _sxmN name suffix is nvlink,
 *   PCIe / _pcie is pcie (gpu_8x_a100 is "8x A100 (40 GB SXM4)": nvlink);
 *   Lambda's 8x V100 servers are SXM2 boards in an NVLink mesh: nvlink;
 *   see interconnect_of_model() for the rest (GH200 is a single
 *   superchip with no GPU-to-GPU link: unknown).
 * - vcpus from specs.vcpus; ram_gb from specs.memory_gib as given (GiB,
 *   as the snapshot and the other providers' RAM figures are).
 * - Types without GPUs (specs.gpus 0, cpu_* names, no "Nx ..." anywhere)
 *   are skipped and counted in run->skipped.
 */
#include "config.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "json.h"
#include "money.h"
#include "provider.h"
#include "str.h"

#define LAMBDA_ORIGIN		"https://cloud.lambdalabs.com"
#define LAMBDA_PATH		"/api/v1/instance-types"
/* Real answers are about 30 KB. */
#define LAMBDA_MAX_BODY		((size_t)8 << 20)
#define SOLD_OUT_REGION		"(sold out)"

/* What a description, gpu_description or type name says about the GPUs. */
struct gpu_text {
	int	 count;			/* GPUs; 0 when not given */
	char	 model[OFFER_NAME_MAX];	/* "H100", "Tesla V100"; "" if none */
	int	 vram_gb;		/* per GPU; 0 when not given */
	enum interconnect ic;		/* from a form word, else IC_UNKNOWN */
};

/* Tallies for the summary note. */
struct tally {
	size_t	 types;			/* instance types in the response */
	size_t	 no_gpu;		/* skipped: CPU-only */
	size_t	 no_price;		/* skipped: priced at 0 */
	size_t	 sold_out;		/* kept once, unavailable */
};

/* Queue the one request; the key goes in a header only. */
static int
lambda_start(struct provider_run *run, struct err *err)
{
	struct http_request *req;

	if (run->api_key == NULL || run->api_key[0] == '\0') {
		err_set(err, "LAMBDA_API_KEY is not set");
		return -1;
	}
	req = provider_queue(run, provider_url(run, LAMBDA_ORIGIN, LAMBDA_PATH),
	    "GET", 0);
	req->max_body = LAMBDA_MAX_BODY;
	provider_conditional(req);	/* one document: every type */
	provider_bearer(run, req);
	http_request_header(req, "Accept", "application/json");
	return 0;
}

/* Interconnect implied by the model alone, when no text names a form. */
static enum interconnect
interconnect_of_model(const char *gpu, int count)
{
	enum interconnect ic;

	/* Lambda's 8x V100 machines are SXM2 boards in an NVLink mesh. */
	if (strncmp(gpu, "V100", 4) == 0 && count == 8)
		return IC_NVLINK;
	/*
	 * Lambda's description names the form of every SXM and PCIe machine
	 * ("8x A100 (40 GB SXM4)", "1x A100 (40 GB PCIe)"); without one the
	 * card decides: A6000s a bridge may pair are unknown in numbers, an
	 * A100 of unnamed form or a GH200 unknown.
	 */
	ic = provider_interconnect(NULL, gpu, count);
	return ic;
}

/* Read a run of digits at *p (capped, never overflowing); -1 if none. */
static long
read_number(const char **p)
{
	long n = 0;

	if (!isdigit((unsigned char)**p))
		return -1;
	for (; isdigit((unsigned char)**p); (*p)++)
		if (n < 10000000)
			n = n * 10 + (**p - '0');
	return n;
}

/*
 * Parse "8x H100 (80 GB SXM5)" (with_count) or "H100 (80 GB SXM5)" into
 * g. False when s does not have that shape.
 */
static bool
parse_gpu_text(const char *s, bool with_count, struct gpu_text *g)
{
	const char *p = s, *open, *close, *end;
	char inside[OFFER_NAME_MAX];
	long n;

	memset(g, 0, sizeof *g);
	if (with_count) {
		if ((n = read_number(&p)) < 0 || (*p != 'x' && *p != 'X') ||
		    p[1] != ' ')
			return false;
		g->count = (int)n;
		p++;
	}
	while (*p == ' ')
		p++;
	open = strchr(p, '(');
	end = open != NULL ? open : p + strlen(p);
	while (end > p && end[-1] == ' ')
		end--;
	if (end == p)
		return false;
	str_sanitize(g->model, sizeof g->model, p, (size_t)(end - p));
	if (open == NULL)
		return true;
	p = open + 1;
	while (*p == ' ')
		p++;
	if ((n = read_number(&p)) > 0) {
		while (*p == ' ')
			p++;
		if (*p == 'G' || *p == 'g')
			g->vram_gb = (int)n;
	}
	close = strchr(open, ')');
	end = close != NULL ? close : open + strlen(open);
	str_sanitize(inside, sizeof inside, open + 1, (size_t)(end - open - 1));
	if (str_find_nocase(inside, "sxm") != NULL)
		g->ic = IC_NVLINK;
	else if (str_find_nocase(inside, "pcie") != NULL)
		g->ic = IC_PCIE;
	return true;
}

/*
 * Parse a type name "gpu_8x_a100_80gb_sxm4" into g: count, model word,
 * an "NNgb" word as VRAM, an "sxmN"/"pcie" word as the form.
 */
static bool
parse_type_name(const char *name, struct gpu_text *g)
{
	const char *p, *end, *q;
	char word[OFFER_NAME_MAX];
	size_t len;
	long n;

	memset(g, 0, sizeof *g);
	if (strncmp(name, "gpu_", 4) != 0)
		return false;
	p = name + 4;
	if ((n = read_number(&p)) < 0 || p[0] != 'x' || p[1] != '_')
		return false;
	g->count = (int)n;
	for (p += 2; *p != '\0'; p = *end == '_' ? end + 1 : end) {
		if ((end = strchr(p, '_')) == NULL)
			end = p + strlen(p);
		len = (size_t)(end - p);
		if (len == 0 || len >= sizeof word)
			continue;
		memcpy(word, p, len);
		word[len] = '\0';
		if (g->model[0] == '\0')
			str_copy(g->model, sizeof g->model, word);
		else if (len > 2 && isdigit((unsigned char)word[0]) &&
		    strcmp(word + len - 2, "gb") == 0) {
			q = word;
			g->vram_gb = (int)read_number(&q);
		} else if (strncmp(word, "sxm", 3) == 0)
			g->ic = IC_NVLINK;
		else if (strcmp(word, "pcie") == 0)
			g->ic = IC_PCIE;
	}
	return g->model[0] != '\0';
}

/* Add the offer of tmpl in region with GPU g; path names the record. */
static int
add_offer(struct provider_run *run, const struct offer *tmpl,
    const struct gpu_text *g, const char *region, enum availability av,
    const char *path, struct err *err)
{
	char key[OFFER_KEY_MAX];
	struct offer *o;

	snprintf(key, sizeof key, "%s/%s", tmpl->instance_type, region);
	if (provider_offer_find(run, key) != NULL) {
		err_set(err, "%s: duplicate offer %s", path, key);
		return -1;
	}
	o = offer_list_add(&run->offers);
	*o = *tmpl;
	offer_set_key(&run->offers, o, key);
	offer_set_region(&run->offers, o, region);
	o->availability = av;
	provider_set_gpu(run, o, g->model, g->vram_gb);
	o->interconnect = g->ic != IC_UNKNOWN ? g->ic :
	    interconnect_of_model(o->gpu, o->gpu_count);
	return provider_offer_done(run, err);
}

/* Read specs: vcpus, memory_gib and gpus (-1 when not given). */
static int
parse_specs(const cJSON *it, const char *ipath, struct offer *tmpl,
    long long *gpus, struct err *err)
{
	char path[128];
	const cJSON *specs;
	long long vcpus;
	double mem;
	bool found;

	*gpus = -1;
	specs = cJSON_GetObjectItemCaseSensitive(it, "specs");
	if (specs == NULL || cJSON_IsNull(specs))
		return 0;
	if (!cJSON_IsObject(specs)) {
		err_set(err, "%s.specs: expected an object, got %s", ipath,
		    json_type_name(specs));
		return -1;
	}
	snprintf(path, sizeof path, "%s.specs", ipath);
	if (json_get_int(specs, "vcpus", path, 0, OFFER_VCPUS_MAX, &vcpus,
	    &found, err) < 0)
		return -1;
	if (found)
		tmpl->vcpus = (int)vcpus;
	if (json_get_number(specs, "memory_gib", path, &mem, &found, err) < 0)
		return -1;
	if (found && (mem < 0 || mem > OFFER_RAM_MAX)) {
		err_set(err, "%s.memory_gib: %g is out of range 0..%.0f",
		    path, mem, OFFER_RAM_MAX);
		return -1;
	}
	if (found)
		tmpl->ram_gb = mem;
	if (json_get_int(specs, "gpus", path, 0, OFFER_GPU_COUNT_MAX, gpus,
	    &found, err) < 0)
		return -1;
	if (!found)
		*gpus = -1;
	return 0;
}

/*
 * Turn one "data" member into offers (one per region with capacity, or
 * one sold-out offer), or skip it when it has no GPU or no price.
 */
static int
parse_type(struct provider_run *run, const cJSON *rec, struct tally *t,
    struct err *err)
{
	/* Big enough for "data.<key>.regions_with_capacity_available[N]". */
	char path[80], ipath[96], rpath[128];
	char mapkey[OFFER_NAME_MAX], name[OFFER_NAME_MAX];
	char desc[2 * OFFER_NAME_MAX], gdesc[2 * OFFER_NAME_MAX];
	char region[OFFER_NAME_MAX];
	struct gpu_text d, gd, nm, g;
	const cJSON *it, *regions, *r;
	struct offer tmpl;
	long long gpus;
	double cents;
	bool has_desc, has_gdesc, got_d, got_gd, got_nm;
	int i, n;

	provider_copy(mapkey, sizeof mapkey, rec->string != NULL ?
	    rec->string : "");
	snprintf(path, sizeof path, "data.%s", mapkey);
	if (!cJSON_IsObject(rec)) {
		err_set(err, "%s: expected an object, got %s", path,
		    json_type_name(rec));
		return -1;
	}
	if ((it = json_get_object(rec, "instance_type", path, err)) == NULL)
		return -1;
	snprintf(ipath, sizeof ipath, "%s.instance_type", path);
	offer_init(&tmpl);
	if (json_get_string(it, "name", ipath, name, sizeof name, NULL,
	    err) < 0)
		return -1;
	if (name[0] == '\0') {
		err_set(err, "%s.name: empty", ipath);
		return -1;
	}
	offer_set_instance_type(&run->offers, &tmpl, name);
	if (json_get_string(it, "description", ipath, desc, sizeof desc,
	    &has_desc, err) < 0 ||
	    json_get_string(it, "gpu_description", ipath, gdesc, sizeof gdesc,
	    &has_gdesc, err) < 0)
		return -1;
	if (json_get_number(it, "price_cents_per_hour", ipath, &cents, NULL,
	    err) < 0)
		return -1;
	if (cents < 0 || cents > 1e9) {
		err_set(err, "%s.price_cents_per_hour: %g cents is %s", ipath,
		    cents, cents < 0 ? "negative" : "absurd");
		return -1;
	}
	if (parse_specs(it, ipath, &tmpl, &gpus, err) < 0)
		return -1;
	if ((regions = json_get_array(rec, "regions_with_capacity_available",
	    path, err)) == NULL)
		return -1;

	got_d = has_desc && parse_gpu_text(desc, true, &d);
	got_gd = has_gdesc && parse_gpu_text(gdesc, false, &gd);
	got_nm = parse_type_name(name, &nm);
	if (gpus == 0 || strncmp(name, "cpu_", 4) == 0 ||
	    (!got_d && !got_gd && !got_nm)) {
		provider_skip(run, &t->no_gpu);
		return 0;
	}
	if (!got_d)
		memset(&d, 0, sizeof d);
	if (!got_gd)
		memset(&gd, 0, sizeof gd);
	if (!got_nm)
		memset(&nm, 0, sizeof nm);
	if (gpus > 0 && d.count > 0 && d.count != gpus) {
		err_set(err, "%s.description: \"%s\" disagrees with specs.gpus "
		    "%lld", ipath, desc, gpus);
		return -1;
	}
	memset(&g, 0, sizeof g);
	g.count = gpus > 0 ? (int)gpus : d.count > 0 ? d.count : nm.count;
	str_copy(g.model, sizeof g.model, d.model[0] != '\0' ? d.model :
	    gd.model[0] != '\0' ? gd.model : nm.model);
	g.vram_gb = d.vram_gb > 0 ? d.vram_gb : gd.vram_gb > 0 ? gd.vram_gb :
	    nm.vram_gb;
	g.ic = d.ic != IC_UNKNOWN ? d.ic : gd.ic != IC_UNKNOWN ? gd.ic : nm.ic;
	if (g.count < 1 || g.count > OFFER_GPU_COUNT_MAX) {
		err_set(err, "%s.%s: GPU count %d is out of range 1..%d",
		    ipath, d.count > 0 ? "description" : "name", g.count,
		    OFFER_GPU_COUNT_MAX);
		return -1;
	}
	if (!(cents > 0)) {
		provider_skip(run, &t->no_price);
		return 0;
	}
	tmpl.gpu_count = g.count;
	tmpl.vram_gb = g.vram_gb;
	/* Cents x 10,000 is micro-USD; cents are whole in practice. */
	tmpl.price = (int64_t)llround(cents * 10000.0);
	if (tmpl.price / g.count > OFFER_GPU_HOUR_PRICE_MAX) {
		err_set(err, "%s.price_cents_per_hour: %.0f cents for %d GPU%s "
		    "is over 100 USD per GPU-hour", ipath, cents, g.count,
		    g.count == 1 ? "" : "s");
		return -1;
	}
	tmpl.availability = AV_AVAILABLE;

	n = cJSON_GetArraySize(regions);
	if (n == 0) {
		t->sold_out++;
		return add_offer(run, &tmpl, &g, SOLD_OUT_REGION,
		    AV_UNAVAILABLE, path, err);
	}
	for (i = 0; i < n; i++) {
		r = cJSON_GetArrayItem(regions, i);
		snprintf(rpath, sizeof rpath,
		    "%s.regions_with_capacity_available[%d]", path, i);
		if (!cJSON_IsObject(r)) {
			err_set(err, "%s: expected an object, got %s", rpath,
			    json_type_name(r));
			return -1;
		}
		if (json_get_string(r, "name", rpath, region, sizeof region,
		    NULL, err) < 0)
			return -1;
		if (region[0] == '\0') {
			err_set(err, "%s.name: empty", rpath);
			return -1;
		}
		if (add_offer(run, &tmpl, &g, region, AV_AVAILABLE, path,
		    err) < 0)
			return -1;
	}
	return 0;
}

/* Write the summary note: sold-out and skipped types. */
static void
set_note(struct provider_run *run, const struct tally *t)
{
	if (t->sold_out > 0)
		provider_note(run, "%zu type%s sold out everywhere",
		    t->sold_out, t->sold_out == 1 ? "" : "s");
	if (t->no_gpu > 0)
		provider_note(run, "skipped %zu CPU-only type%s", t->no_gpu,
		    t->no_gpu == 1 ? "" : "s");
	if (t->no_price > 0)
		provider_note(run, "skipped %zu type%s priced at 0",
		    t->no_price, t->no_price == 1 ? "" : "s");
}

/* Parse the whole instance-types document. */
static int
parse_document(struct provider_run *run, const cJSON *root, struct err *err)
{
	const cJSON *data, *rec, *e;
	struct tally t;
	char msg[200];
	bool found;

	memset(&t, 0, sizeof t);
	/* {"error": {"code": ..., "message": ...}}: Lambda's error shape. */
	e = cJSON_GetObjectItemCaseSensitive(root, "error");
	if (cJSON_GetObjectItemCaseSensitive(root, "data") == NULL &&
	    cJSON_IsObject(e)) {
		if (json_get_string(e, "message", "error", msg, sizeof msg,
		    &found, err) == 0 && found && msg[0] != '\0')
			err_set(err, "Lambda API error: %s", msg);
		else
			err_set(err, "Lambda API error (no message)");
		return -1;
	}
	if ((data = json_get_object(root, "data", "response", err)) == NULL)
		return -1;
	cJSON_ArrayForEach(rec, data) {
		t.types++;
		if (parse_type(run, rec, &t, err) < 0)
			return -1;
	}
	if (t.types == 0) {
		err_set(err, "response.data: no instance types");
		return -1;
	}
	if (run->offers.n == 0) {
		err_set(err, "response.data: no GPU offers among %zu instance "
		    "type%s", t.types, t.types == 1 ? "" : "s");
		return -1;
	}
	set_note(run, &t);
	return 0;
}

/* The instance-types answer arrived: parse it into offers. */
static int
lambda_response(struct provider_run *run, const struct http_result *res,
    struct err *err)
{
	return provider_parse_json(run, res, parse_document, err);
}

const struct provider provider_lambda = {
	.id = "lambda",
	.name = "Lambda",
	.key_env = "LAMBDA_API_KEY",
	.key_required = true,
	.start = lambda_start,
	.response = lambda_response,
};
