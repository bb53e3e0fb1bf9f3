/*
 * runpod.c: the RunPod adapter.
 *
 * One GraphQL request, POST https://api.runpod.io/graphql, body
 *
 *	{"query": "query GpuTypes($lowestPriceInput: GpuLowestPriceInput) {
 *	    gpuTypes { id displayName memoryInGb maxGpuCount
 *	    maxGpuCountSecureCloud maxGpuCountCommunityCloud secureCloud
 *	    communityCloud securePrice communityPrice
 *	    lowestPrice(input: $lowestPriceInput) { stockStatus } } }",
 *	 "variables": {"lowestPriceInput": {"gpuCount": 1}}}
 *
 * The GPU catalogue answers without a key; RUNPOD_API_KEY, when set, is
 * sent as "Authorization: Bearer KEY" (never as ?api_key=, which would
 * put it in the URL). The answer is {"data": {"gpuTypes": [...]}}; an
 * {"errors": [{"message": ...}]} envelope fails the refresh with that
 * message, but for one case below. The request, that envelope and the
 * fields of a gpuTypes element this adapter shares with runpod-clusters
 * are in runpod_graphql.c.
 *
 * RunPod ended spot ("interruptible") pods on 2026-09-11 and said it
 * removes them from the API (runpod/runpodctl PR #267): the spot fields
 * (secureSpotPrice, communitySpotPrice) are not asked, and no offer has
 * a spot price, whatever an answer holds. A field RunPod removes from
 * its schema makes it refuse the whole query (errors "Cannot query field
 * \"X\" on type \"GpuType\"", data null). Every field but id has a
 * meaning when absent (below), so when each error of an answer names a
 * field the query asked, other than id, the adapter asks once more
 * without those fields and says so in the note: a removed field costs
 * what it told, not the refresh. One retry only, never for another kind
 * of error; not asking for the optional fields at all would give up,
 * while they exist, the flags that expose RunPod's placeholder prices.
 *
 * How fields map to offers:
 * - Prices are USD per GPU-hour. Each type gives offers for 1, 2, 4 and
 *   8 GPUs (up to the cloud's maxGpuCountSecureCloud /
 *   maxGpuCountCommunityCloud, else maxGpuCount; 1 when both are
 *   missing), in the secure and the community cloud separately: price =
 *   per-GPU price x count.
 * - secureCloud / communityCloud false: the type is not sold in that
 *   cloud, whatever its price says (RunPod answers a placeholder such
 *   as 0.5 there): no offer in it. A null or 0 price likewise; a missing
 *   flag leaves the price to decide. No spot price (see above).
 * - Region is the cloud, "secure" or "community" (the query does not
 *   ask per data centre). Key "<count>x_<id>_SECURE" or "_COMMUNITY",
 *   from RunPod's stable GPU id ("8x_NVIDIA H100 80GB HBM3_SECURE");
 *   instance_type "<count>x <displayName>" ("8x H100 SXM").
 * - Availability from lowestPrice.stockStatus, which the query asks for
 *   1 GPU in either cloud, applied to every offer of the type: High and
 *   Medium available, Low limited, null/absent (or lowestPrice null)
 *   unavailable, any other word unknown; unknown when lowestPrice is
 *   not asked (dropped after RunPod refused it).
 * - GPU: displayName, else id, resolved with memoryInGb as the VRAM hint;
 *   gpu_raw is the spelling that resolved (displayName when neither).
 * - Interconnect: SXM or HBM3 (RunPod's H100 SXM id) in the id or name:
 *   nvlink; PCIe or NVL: pcie; otherwise by model, see
 *   interconnect_of_model(): SXM-only parts (B200) nvlink, data-centre
 *   PCIe, workstation and GeForce cards pcie; AMD MI300X (OAM modules on
 *   Infinity Fabric, not NVLink) and unnamed forms unknown.
 * - vcpus and ram_gb stay unknown (0): lowestPrice.minVcpu/minMemory
 *   describe the cheapest 1-GPU machine in whichever cloud, not these
 *   offers, so they are not asked for.
 * - Skipped and counted in run->skipped: types with no price in either
 *   cloud (RunPod's "unknown" placeholder type), MIG slices of a GPU,
 *   types with maxGpuCount 0.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "json.h"
#include "money.h"
#include "provider.h"
#include "str.h"
#include "xalloc.h"
#include "runpod_graphql.h"

/* The fields asked after id, in the query's order; lowestPrice last. */
enum field {
	F_DISPLAY_NAME = 0,
	F_MEMORY,
	F_MAX_COUNT,
	F_MAX_SECURE,
	F_MAX_COMMUNITY,
	F_SECURE_CLOUD,
	F_COMMUNITY_CLOUD,
	F_SECURE_PRICE,
	F_COMMUNITY_PRICE,
	F_LOWEST_PRICE,
	F_COUNT
};

static const char *const field_names[F_COUNT] = {
	"displayName", "memoryInGb", "maxGpuCount", "maxGpuCountSecureCloud",
	"maxGpuCountCommunityCloud", "secureCloud", "communityCloud",
	"securePrice", "communityPrice", "lowestPrice"
};

#define FIELD_BIT(f)	(1u << (f))
#define QUERY_MAX	1024

/* Across the run: what RunPod refused, and whether it was asked again. */
struct runpod_state {
	unsigned dropped;		/* FIELD_BIT()s no longer asked */
	bool	 retried;
};

/* The GPU counts offered per type, each up to maxGpuCount. */
static const int gpu_counts[] = { 1, 2, 4, 8 };

/* A cloud, with the fields that price it. */
struct cloud {
	const char	*region;	/* offer region */
	const char	*suffix;	/* offer key suffix */
	const char	*price;		/* per-GPU on-demand field */
	const char	*sold;		/* boolean: the type is sold there */
	const char	*max_count;	/* GPUs per pod there */
};

static const struct cloud clouds[] = {
	{ "secure", "SECURE", "securePrice", "secureCloud",
	    "maxGpuCountSecureCloud" },
	{ "community", "COMMUNITY", "communityPrice", "communityCloud",
	    "maxGpuCountCommunityCloud" },
};

#define NCLOUDS	(sizeof clouds / sizeof clouds[0])

/* Tallies for the summary note. */
struct tally {
	bool	 stock_asked;		/* lowestPrice in the query */
	size_t	 types;			/* GPU types in the response */
	size_t	 no_price;		/* skipped: no price in either cloud */
	size_t	 mig;			/* skipped: MIG slices */
	size_t	 no_count;		/* skipped: maxGpuCount 0 */
	size_t	 not_sold;		/* prices of a cloud that does not sell it */
};

/* One GPU type's fields, as parsed. */
struct gpu_type {
	struct runpod_type base;	/* id, name, memory, maxGpuCount */
	int	 max_count;		/* maxGpuCount, 1 when absent */
	int	 cloud_max[NCLOUDS];	/* per cloud, else max_count */
	int64_t	 price[NCLOUDS];	/* micro-USD per GPU-hour or NONE */
	bool	 sold[NCLOUDS];		/* false: the cloud's price is a placeholder */
	enum availability availability;
};

/*
 * The request body asking for every field not dropped; the variable is
 * declared only with lowestPrice, which uses it (GraphQL refuses an
 * unused variable).
 */
static void
build_query(unsigned dropped, char *q, size_t size)
{
	bool lowest = (dropped & FIELD_BIT(F_LOWEST_PRICE)) == 0;
	size_t len;
	int f;

	len = str_copy(q, size, "{\"query\": \"query GpuTypes");
	if (lowest)
		len += str_copy(q + len, size - len,
		    "($lowestPriceInput: GpuLowestPriceInput)");
	len += str_copy(q + len, size - len, " { gpuTypes { id");
	for (f = 0; f < F_LOWEST_PRICE; f++)
		if ((dropped & FIELD_BIT(f)) == 0)
			len += (size_t)snprintf(q + len, size - len, " %s",
			    field_names[f]);
	if (lowest)
		len += str_copy(q + len, size - len,
		    " lowestPrice(input: $lowestPriceInput) { stockStatus }");
	len += str_copy(q + len, size - len, " } }\"");
	if (lowest)
		len += str_copy(q + len, size - len, ", \"variables\": "
		    "{\"lowestPriceInput\": {\"gpuCount\": 1}}");
	str_copy(q + len, size - len, "}");
}

/* Queue the GraphQL request; a key, when set, goes in a header. */
static void
queue_query(struct provider_run *run)
{
	const struct runpod_state *st = run->state;
	char q[QUERY_MAX];

	build_query(st->dropped, q, sizeof q);
	provider_bearer(run, runpod_graphql_queue(run, q));
}

static int
runpod_start(struct provider_run *run, struct err *err)
{
	(void)err;
	run->state = xcalloc(1, sizeof(struct runpod_state));
	queue_query(run);
	return 0;
}

static void
runpod_done(struct provider_run *run)
{
	free(run->state);
	run->state = NULL;
}

/*
 * The field of the query that a GraphQL error message says the schema
 * lacks ("Cannot query field \"X\" on type \"GpuType\". Did you mean
 * ...?"), or -1: another error, id, or a field not asked.
 */
static int
unknown_field(const char *msg, unsigned dropped)
{
	static const char head[] = "Cannot query field \"";
	static const char tail[] = "\" on type \"GpuType\"";
	const char *name, *q;
	size_t len;
	int f;

	if (strncmp(msg, head, sizeof head - 1) != 0)
		return -1;
	name = msg + sizeof head - 1;
	if ((q = strchr(name, '"')) == NULL ||
	    strncmp(q, tail, sizeof tail - 1) != 0)
		return -1;
	len = (size_t)(q - name);
	for (f = 0; f < F_COUNT; f++)
		if (strlen(field_names[f]) == len &&
		    strncmp(name, field_names[f], len) == 0)
			return (dropped & FIELD_BIT(f)) != 0 ? -1 : f;
	return -1;
}

/*
 * An answer whose every error names a field of the query the schema
 * lacks: ask once more without them (true). Anything else, or a second
 * time: false, and the envelope fails the refresh.
 */
static bool
retry_without_fields(struct provider_run *run, const cJSON *root)
{
	struct runpod_state *st = run->state;
	char msg[RUNPOD_GRAPHQL_MESSAGE_MAX], names[256];
	unsigned drop = 0;
	size_t len = 0;
	int i, n, f;

	if (st->retried || (n = runpod_graphql_errors(root)) <= 0)
		return false;
	names[0] = '\0';
	for (i = 0; i < n; i++) {
		runpod_graphql_message(root, i, msg, sizeof msg);
		if ((f = unknown_field(msg, st->dropped)) < 0)
			return false;
		if ((drop & FIELD_BIT(f)) == 0)
			len += (size_t)snprintf(names + len, sizeof names - len,
			    "%s%s", len > 0 ? ", " : "", field_names[f]);
		drop |= FIELD_BIT(f);
	}
	st->dropped |= drop;
	st->retried = true;
	provider_note(run, "RunPod's schema has no %s: asked again without "
	    "it", names);
	queue_query(run);
	return true;
}

/* Read a cloud's boolean: true when absent or null, as before RunPod had it. */
static int
get_sold(const cJSON *obj, const char *key, const char *path, bool *out,
    struct err *err)
{
	const cJSON *item = cJSON_GetObjectItemCaseSensitive(obj, key);

	*out = true;
	if (item == NULL || cJSON_IsNull(item))
		return 0;
	if (!cJSON_IsBool(item)) {
		err_set(err, "%s.%s: expected a boolean, got %s", path, key,
		    json_type_name(item));
		return -1;
	}
	*out = cJSON_IsTrue(item);
	return 0;
}

/* Map lowestPrice.stockStatus to an availability. */
static int
get_stock(const cJSON *obj, const char *path, enum availability *out,
    struct err *err)
{
	const cJSON *lp;
	char lpath[OFFER_NAME_MAX + 48];

	*out = AV_UNAVAILABLE;
	if (runpod_graphql_lowest(obj, path, &lp, lpath, sizeof lpath,
	    err) < 0)
		return -1;
	return lp != NULL ? runpod_graphql_stock(lp, lpath, out, err) : 0;
}

/* Read one gpuTypes element into t; path names it for messages. */
static int
read_gpu_type(const cJSON *obj, int index, bool stock_asked,
    struct gpu_type *t, char *path, size_t pathsize, struct err *err)
{
	long long v;
	bool found;
	size_t i;

	memset(t, 0, sizeof *t);
	if (runpod_graphql_type(obj, index, &t->base, path, pathsize,
	    err) < 0)
		return -1;
	t->max_count = t->base.max_gpus >= 0 ? t->base.max_gpus : 1;
	for (i = 0; i < NCLOUDS; i++) {
		if (runpod_graphql_price(obj, clouds[i].price, path,
		    &t->price[i], err) < 0 ||
		    get_sold(obj, clouds[i].sold, path, &t->sold[i], err) < 0)
			return -1;
		if (json_get_int(obj, clouds[i].max_count, path, 0,
		    OFFER_GPU_COUNT_MAX, &v, &found, err) < 0)
			return -1;
		t->cloud_max[i] = found ? (int)v : t->max_count;
	}
	if (!stock_asked) {
		t->availability = AV_UNKNOWN;
		return 0;
	}
	return get_stock(obj, path, &t->availability, err);
}

/* Add the offer of count GPUs of t in cloud c. */
static int
add_offer(struct provider_run *run, const struct gpu_type *t,
    const struct cloud *c, size_t ci, int count, const char *raw,
    const char *path, struct err *err)
{
	char key[OFFER_KEY_MAX], itype[OFFER_NAME_MAX + 16];
	struct offer *o;

	snprintf(key, sizeof key, "%dx_%s_%s", count, t->base.id, c->suffix);
	if (provider_offer_find(run, key) != NULL) {
		err_set(err, "%s.id: duplicate GPU type (offer %s)", path, key);
		return -1;
	}
	o = offer_list_add(&run->offers);
	offer_set_key(&run->offers, o, key);
	/* Through a bigger buffer, then cut at a character boundary with
	 * no blank left at the end. */
	snprintf(itype, sizeof itype, "%dx %s", count, t->base.name);
	provider_text(run, o, offer_set_instance_type, itype);
	offer_set_region(&run->offers, o, c->region);
	o->gpu_count = count;
	o->vram_gb = t->base.vram_gb;
	provider_set_gpu(run, o, raw, t->base.vram_gb);
	o->interconnect = runpod_graphql_interconnect(&t->base, o->gpu,
	    o->gpu_count);
	o->price = money_mul(t->price[ci], count);
	o->spot_price = MONEY_NONE;	/* RunPod sells no spot pods */
	o->availability = t->availability;
	return provider_offer_done(run, err);
}

/* Turn one gpuTypes element into its offers, or skip it. */
static int
parse_gpu_type(struct provider_run *run, const cJSON *obj, int index,
    void *arg, struct err *err)
{
	struct tally *tl = arg;
	char path[OFFER_NAME_MAX + 32];
	struct gpu_type t;
	const char *raw;
	size_t ci, k;
	bool priced = false;

	if (read_gpu_type(obj, index, tl->stock_asked, &t, path, sizeof path,
	    err) < 0)
		return -1;
	for (ci = 0; ci < NCLOUDS; ci++) {
		/* A price where the type is not sold is a placeholder. */
		if (!t.sold[ci] && money_known(t.price[ci])) {
			t.price[ci] = MONEY_NONE;
			tl->not_sold++;
		}
		if (money_known(t.price[ci]))
			priced = true;
	}
	/* "... Server Edition MIG 1g.24gb": a slice of a GPU, not a GPU. */
	if (str_find_nocase(t.base.id, " MIG ") != NULL ||
	    str_find_nocase(t.base.name, " MIG ") != NULL) {
		provider_skip(run, &tl->mig);
		return 0;
	}
	if (!priced) {
		provider_skip(run, &tl->no_price);
		return 0;
	}
	if (t.max_count == 0) {
		provider_skip(run, &tl->no_count);
		return 0;
	}
	raw = runpod_graphql_raw(&t.base);
	for (ci = 0; ci < NCLOUDS; ci++) {
		if (!money_known(t.price[ci]))
			continue;
		for (k = 0; k < sizeof gpu_counts / sizeof gpu_counts[0]; k++) {
			if (gpu_counts[k] > t.cloud_max[ci])
				break;
			if (add_offer(run, &t, &clouds[ci], ci, gpu_counts[k],
			    raw, path, err) < 0)
				return -1;
		}
	}
	return 0;
}

/* Write the summary note: what was skipped and why. */
static void
set_note(struct provider_run *run, const struct tally *t)
{
	if (t->no_price > 0)
		provider_note(run, "skipped %zu type%s with no price",
		    t->no_price, t->no_price == 1 ? "" : "s");
	if (t->mig > 0)
		provider_note(run, "skipped %zu MIG slice%s", t->mig,
		    t->mig == 1 ? "" : "s");
	if (t->no_count > 0)
		provider_note(run, "skipped %zu type%s with maxGpuCount 0",
		    t->no_count, t->no_count == 1 ? "" : "s");
	if (t->not_sold > 0)
		provider_note(run, "ignored %zu placeholder price%s of a cloud "
		    "that does not sell the type", t->not_sold,
		    t->not_sold == 1 ? "" : "s");
}

/* Parse the whole GraphQL answer. */
static int
parse_document(struct provider_run *run, const cJSON *root, struct err *err)
{
	const struct runpod_state *st = run->state;
	struct tally tl;
	int n;

	/* A field RunPod removed: asked again, the next answer decides. */
	if (retry_without_fields(run, root))
		return 0;
	memset(&tl, 0, sizeof tl);
	tl.stock_asked = (st->dropped & FIELD_BIT(F_LOWEST_PRICE)) == 0;
	if ((n = runpod_graphql_each(run, root, "gpuTypes", parse_gpu_type,
	    &tl, err)) < 0)
		return -1;
	tl.types = (size_t)n;
	if (run->offers.n == 0) {
		err_set(err, "data.gpuTypes: no priced GPU among %zu type%s",
		    tl.types, tl.types == 1 ? "" : "s");
		return -1;
	}
	set_note(run, &tl);
	return 0;
}

/* The GraphQL answer arrived: parse it into offers. */
static int
runpod_response(struct provider_run *run, const struct http_result *res,
    struct err *err)
{
	return provider_parse_json(run, res, parse_document, err);
}

const struct provider provider_runpod = {
	.id = "runpod",
	.name = "RunPod",
	.key_env = "RUNPOD_API_KEY",
	.key_required = false,
	.start = runpod_start,
	.response = runpod_response,
	.done = runpod_done,
};
