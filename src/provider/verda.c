/*
 * verda.c: the Verda (formerly DataCrunch) adapter.
 *
 * Verda's API needs an OAuth client; its public pricing page does not,
 * and carries the prices as schema.org structured data: one
 *
 *	GET https://verda.com/pricing
 *	<script type="application/ld+json">{"@graph": [{"@type": "Offer",
 *	    "name": "1x H100 SXM5 80GB on-demand", "price": 3.25,
 *	    "priceCurrency": "USD", "priceSpecification": {"unitText":
 *	    "hour"}}, ...]}</script>
 *
 * Only that block is read, never the page's layout: a page without it
 * (a redesign, an error page) is refused whole, so the cached offers
 * stay. The page is one document, asked for conditionally.
 *
 * An Offer named "<N>x <model> <M>GB on-demand" is the on-demand price
 * of an instance with N GPUs of that model and M GB each, in USD for the
 * whole instance per hour; "... spot" the same instance's spot price.
 * One offer per instance (key and instance type "<N>x <model> <M>GB"),
 * in region "nordics" (Verda's data centres are in Finland and Iceland;
 * the page does not say which sells what), availability unknown. The
 * model keeps Verda's words ("H100 SXM5", "RTX PRO 6000 CC": CC is the
 * confidential-computing variant, a separate instance); the GPU is
 * resolved from the model without "CC", with M as the hint. A name the
 * same twice is one instance when the prices agree; when they do not the
 * instance is left out (which price is true cannot be told).
 *
 * Skipped and counted (run->skipped, run->note): CPU instances (no
 * model), instant clusters, serverless containers and storage (other products),
 * prices not per hour or not in USD, names of another shape, and
 * instances whose repeated prices disagree.
 */
#include "config.h"
#include "provider.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "json.h"
#include "money.h"
#include "str.h"
#include "xalloc.h"

#define VERDA_ORIGIN	"https://verda.com"
#define VERDA_PATH	"/pricing"
#define VERDA_REGION	"nordics"
#define VERDA_MAX_BODY	(8 * 1024 * 1024)
#define JSONLD_TYPE	"application/ld+json"

enum verda_skip {
	SKIP_CPU,
	SKIP_PRODUCT,
	SKIP_UNIT,
	SKIP_SHAPE,
	SKIP_CONFLICT,
	SKIP_COUNT
};

static const char *const verda_skip_what[SKIP_COUNT][2] = {
	{ "CPU instance price", "CPU instance prices" },
	{ "price of another product", "prices of other products" },
	{ "price not in USD per hour", "prices not in USD per hour" },
	{ "name of another shape", "names of another shape" },
	{ "instance with disagreeing prices",
	  "instances with disagreeing prices" },
};

enum verda_tier {
	TIER_ON_DEMAND,
	TIER_SPOT,
	TIER_OTHER
};

/* The instances of the page, prices merged (run->state). */
struct verda_instance {
	char	name[OFFER_NAME_MAX];	/* "1x H100 SXM5 80GB" */
	char	model[OFFER_NAME_MAX];	/* "H100 SXM5" */
	int	count;
	int	vram_gb;
	int64_t	price;			/* MONEY_NONE until seen */
	int64_t	spot;
	bool	conflict;
};

struct verda_state {
	struct verda_instance *v;
	size_t	 n, cap;
	size_t	 skipped[SKIP_COUNT];
};

/*
 * Does s end with the word suf (case-sensitive), after a space or as
 * all of s (a CPU row's " on-demand" loses its blank when sanitised)?
 * The length to cut then, else 0.
 */
static size_t
suffix(const char *s, const char *suf)
{
	size_t n = strlen(s), m = strlen(suf);

	if (n < m || strcmp(s + n - m, suf) != 0)
		return 0;
	if (n == m)
		return m;
	return s[n - m - 1] == ' ' ? m + 1 : 0;
}

/*
 * The tier of an Offer name and the length of the name before it.
 * Serverless and cluster tiers end in " spot" too: they are checked
 * first.
 */
static enum verda_tier
verda_tier(const char *name, size_t *len)
{
	size_t n = strlen(name), m;

	*len = n;
	if (strstr(name, " serverless") != NULL ||
	    strstr(name, " instant cluster") != NULL)
		return TIER_OTHER;
	if ((m = suffix(name, "on-demand")) > 0) {
		*len = n - m;
		return TIER_ON_DEMAND;
	}
	if ((m = suffix(name, "spot")) > 0) {
		*len = n - m;
		return TIER_SPOT;
	}
	return TIER_OTHER;
}

/*
 * "<N>x <model> <M>GB" into count, model and GB: 0, or -1 when the
 * name has another shape. An empty name (a CPU instance) is 1.
 */
static int
verda_shape(const char *s, int *count, char *model, size_t size, int *gb)
{
	const char *p = s, *last, *m;
	char *end;
	long n, g;

	while (*p == ' ')
		p++;
	if (*p == '\0')
		return 1;
	if (!isdigit((unsigned char)*p))
		return -1;
	n = strtol(p, &end, 10);
	if (end[0] != 'x' || end[1] != ' ' || n < 1 ||
	    n > OFFER_GPU_COUNT_MAX)
		return -1;
	m = end + 2;
	if ((last = strrchr(m, ' ')) == NULL || last == m)
		return -1;
	if (!isdigit((unsigned char)last[1]))
		return -1;
	g = strtol(last + 1, &end, 10);
	if (strcmp(end, "GB") != 0 || g < 1 || g > OFFER_VRAM_MAX)
		return -1;
	if ((size_t)(last - m) >= size)
		return -1;
	memcpy(model, m, (size_t)(last - m));
	model[last - m] = '\0';
	*count = (int)n;
	*gb = (int)g;
	return 0;
}

static struct verda_instance *
verda_instance(struct verda_state *st, const char *name)
{
	struct verda_instance *v;
	size_t i;

	for (i = 0; i < st->n; i++)
		if (strcmp(st->v[i].name, name) == 0)
			return &st->v[i];
	if (st->n == st->cap) {
		st->cap = st->cap ? st->cap * 2 : 32;
		st->v = xreallocarray(st->v, st->cap, sizeof *st->v);
	}
	v = &st->v[st->n++];
	memset(v, 0, sizeof *v);
	str_copy(v->name, sizeof v->name, name);
	v->price = v->spot = MONEY_NONE;
	return v;
}

/* One node of the graph. */
static int
verda_node(struct provider_run *run, struct verda_state *st,
    const cJSON *node, const char *path, struct err *err)
{
	const cJSON *spec, *t;
	char name[OFFER_NAME_MAX * 2], cur[8] = "";
	char unit[32] = "", inst[OFFER_NAME_MAX], model[OFFER_NAME_MAX];
	struct verda_instance *v;
	enum verda_tier tier;
	int64_t price, *slot;
	int count, gb, rc;
	size_t len;
	bool found;

	/* Organization, WebPage ... nodes are not ours to judge. */
	t = cJSON_GetObjectItemCaseSensitive(node, "@type");
	if (!cJSON_IsObject(node) || !cJSON_IsString(t) ||
	    strcmp(t->valuestring, "Offer") != 0)
		return 0;
	if (json_get_string(node, "name", path, name, sizeof name, NULL,
	    err) < 0 ||
	    json_get_money(node, "price", path, &price, NULL, err) < 0 ||
	    json_get_string(node, "priceCurrency", path, cur, sizeof cur,
	    &found, err) < 0)
		return -1;
	spec = cJSON_GetObjectItemCaseSensitive(node, "priceSpecification");
	if (cJSON_IsObject(spec) && json_get_string(spec, "unitText", path,
	    unit, sizeof unit, &found, err) < 0)
		return -1;
	if (price > OFFER_PRICE_MAX) {
		err_set(err, "%s.price %.2f is out of range 0..%d USD/h", path,
		    (double)price / MONEY_UNIT, OFFER_PRICE_MAX_USD);
		return -1;
	}
	tier = verda_tier(name, &len);
	if (tier == TIER_OTHER) {
		provider_skip(run, &st->skipped[SKIP_PRODUCT]);
		return 0;
	}
	if (strcmp(cur, "USD") != 0 || strcmp(unit, "hour") != 0 ||
	    price == 0) {
		provider_skip(run, &st->skipped[SKIP_UNIT]);
		return 0;
	}
	if (len >= sizeof inst) {
		provider_skip(run, &st->skipped[SKIP_SHAPE]);
		return 0;
	}
	memcpy(inst, name, len);
	inst[len] = '\0';
	if ((rc = verda_shape(inst, &count, model, sizeof model, &gb)) != 0) {
		provider_skip(run, &st->skipped[rc > 0 ? SKIP_CPU :
		    SKIP_SHAPE]);
		return 0;
	}
	v = verda_instance(st, inst);
	str_copy(v->model, sizeof v->model, model);
	v->count = count;
	v->vram_gb = gb;
	slot = tier == TIER_SPOT ? &v->spot : &v->price;
	if (*slot != MONEY_NONE && *slot != price)
		v->conflict = true;
	*slot = price;
	return 0;
}

/* The model without Verda's "CC" word: the GPU it names. */
static void
verda_gpu_name(const char *model, char *buf, size_t size)
{
	const char *p;
	size_t o = 0, n;

	buf[0] = '\0';
	for (p = model; *p != '\0'; p += n) {
		while (*p == ' ')
			p++;
		n = strcspn(p, " ");
		if (n == 0 || (n == 2 && strncmp(p, "CC", 2) == 0))
			continue;
		if (o + n + 2 > size)
			break;
		if (o > 0)
			buf[o++] = ' ';
		memcpy(buf + o, p, n);
		o += n;
		buf[o] = '\0';
	}
}

/* The JSON-LD block of the page: [*start, *start + *len). */
static int
verda_jsonld(const char *body, size_t len, const char **start,
    size_t *blen, struct err *err)
{
	const char *p = body, *end = body + len, *tag, *close, *gt;

	for (;;) {
		tag = memmem(p, (size_t)(end - p), "<script", 7);
		if (tag == NULL)
			break;
		gt = memchr(tag, '>', (size_t)(end - tag));
		if (gt == NULL)
			break;
		p = gt + 1;
		if (memmem(tag, (size_t)(gt - tag), JSONLD_TYPE,
		    sizeof JSONLD_TYPE - 1) == NULL)
			continue;
		close = memmem(p, (size_t)(end - p), "</script>", 9);
		if (close == NULL) {
			err_set(err, "the schema.org JSON-LD block is not "
			    "closed (a page cut short?)");
			return -1;
		}
		*start = p;
		*blen = (size_t)(close - p);
		return 0;
	}
	if (len == 0)
		err_set(err, "empty response body");
	else
		err_set(err, "HTML page without a schema.org JSON-LD block "
		    "(<script type=\"" JSONLD_TYPE "\">): refused, as its "
		    "layout is not read");
	return -1;
}

static int
verda_start(struct provider_run *run, struct err *err)
{
	struct http_request *req;

	(void)err;
	run->state = xcalloc(1, sizeof(struct verda_state));
	req = provider_queue(run, provider_url(run, VERDA_ORIGIN, VERDA_PATH),
	    NULL, 0);
	req->max_body = VERDA_MAX_BODY;
	provider_conditional(req);
	http_request_header(req, "Accept", "text/html");
	return 0;
}

static int
verda_response(struct provider_run *run, const struct http_result *res,
    struct err *err)
{
	struct verda_state *st = run->state;
	const cJSON *graph, *node;
	const char *block;
	cJSON *root = NULL;
	char path[32];
	size_t blen, i = 0;
	int rc = -1;

	if (verda_jsonld(res->body != NULL ? res->body : "",
	    res->body != NULL ? res->body_len : 0, &block, &blen, err) < 0)
		return -1;
	if (json_parse(block, blen, &root, err) < 0) {
		err_prefix(err, "JSON-LD block");
		return -1;
	}
	graph = cJSON_IsArray(root) ? root :
	    cJSON_GetObjectItemCaseSensitive(root, "@graph");
	if (!cJSON_IsArray(graph)) {
		err_set(err, "JSON-LD block: expected an @graph array, got %s",
		    json_type_name(graph));
		goto done;
	}
	cJSON_ArrayForEach(node, graph) {
		snprintf(path, sizeof path, "@graph[%zu]", i++);
		if (verda_node(run, st, node, path, err) < 0)
			goto done;
	}
	rc = 0;
done:
	cJSON_Delete(root);
	return rc;
}

static int
verda_finish(struct provider_run *run, struct err *err)
{
	struct verda_state *st = run->state;
	const struct verda_instance *v;
	char gpu[OFFER_NAME_MAX];
	struct offer *o;
	size_t i;

	for (i = 0; i < st->n; i++) {
		v = &st->v[i];
		if (v->conflict) {
			provider_skip(run, &st->skipped[SKIP_CONFLICT]);
			continue;
		}
		o = offer_list_add(&run->offers);
		offer_set_keyf(&run->offers, o, "%s", v->name);
		offer_set_instance_type(&run->offers, o, v->name);
		offer_set_region(&run->offers, o, VERDA_REGION);
		o->gpu_count = v->count;
		verda_gpu_name(v->model, gpu, sizeof gpu);
		provider_set_gpu(run, o, gpu, v->vram_gb);
		o->vram_gb = v->vram_gb;
		o->interconnect = provider_interconnect(v->model, o->gpu,
		    o->gpu_count);
		o->price = v->price;
		o->spot_price = v->spot;
		str_copy(o->currency, sizeof o->currency, "USD");
		o->price_original = v->price;
		if (provider_offer_done(run, err) < 0) {
			err_prefix(err, "%s", v->name);
			return -1;
		}
	}
	provider_note_skips(run, st->skipped, verda_skip_what, SKIP_COUNT);
	return 0;
}

static void
verda_done(struct provider_run *run)
{
	struct verda_state *st = run->state;

	if (st == NULL)
		return;
	free(st->v);
	free(st);
	run->state = NULL;
}

const struct provider provider_verda = {
	.id = "verda",
	.name = "Verda",
	.key_env = NULL,
	.key_required = false,
	.currency = NULL,
	.start = verda_start,
	.response = verda_response,
	.finish = verda_finish,
	.done = verda_done,
};
