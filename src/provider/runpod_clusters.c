/*
 * runpod_clusters.c: RunPod Instant Clusters, a cluster product.
 *
 * RunPod sells 2 to 8 nodes of 8 GPUs in one data centre as one
 * "Instant Cluster", joined by a network it describes as high-speed
 * (1600-3200 Gb/s per node, InfiniBand or RoCE not said). It is its own
 * provider, not part of the pod adapter: a different product with its
 * own prices, places and failures, so a broken cluster answer never
 * costs the pod offers, and `providers` shows each one's state.
 *
 * The same keyless GraphQL endpoint as the pods, POST
 * https://api.runpod.io/graphql, asking only for cluster types:
 *
 *	query GpuTypes($lowestPriceInput: GpuLowestPriceInput,
 *	    $gpuTypesInput: GpuTypeFilter) { gpuTypes(input: $gpuTypesInput)
 *	    { id displayName memoryInGb maxGpuCount clusterPrice
 *	    nodeGroupDatacenters { id } lowestPrice(input: $lowestPriceInput)
 *	    { minVcpu minMemory stockStatus } } }
 *	variables {"gpuTypesInput": {"cluster": true},
 *	    "lowestPriceInput": {"gpuCount": 8}}
 *
 * (the query of dstackai/gpuhunt's RunPod cluster offers; the variable
 * names must match, or RunPod silently ignores the filter). No key is
 * sent. An {"errors": [...]} envelope fails the refresh with its message.
 * The request, that envelope and the fields of a gpuTypes element both
 * RunPod adapters read are in runpod_graphql.c.
 *
 * How fields map to offers:
 * - clusterPrice is USD per GPU-hour; maxGpuCount the GPUs of one node.
 *   One offer per GPU type, data centre (nodeGroupDatacenters[].id, the
 *   region) and node count 2..8 (RunPod's API does not list the counts;
 *   its clusters are 2-8 nodes): nodes = N, gpu_count = maxGpuCount,
 *   price = clusterPrice x maxGpuCount per node-hour, so a plan of the
 *   cluster costs N x that. No spot price.
 * - Key "<N>x<gpus>_<id>_<dc>" ("2x8_NVIDIA H100 80GB HBM3_US-KS-2"),
 *   instance_type "Instant Cluster <gpus>x <displayName>", which
 *   data/fabric.tsv's runpod-clusters lines match (A100: 1600 Gb/s).
 * - vcpus and ram_gb: lowestPrice.minVcpu and minMemory, asked for a node
 *   of 8 GPUs. Availability from lowestPrice.stockStatus as for pods:
 *   High and Medium available, Low limited, none unavailable.
 * - GPU and interconnect as the pod adapter does (displayName, else id,
 *   with memoryInGb as the VRAM hint; SXM/HBM3 nvlink, PCIe pcie).
 * - Skipped and counted in run->skipped: types with a null or 0
 *   clusterPrice (not sold as clusters), no data centre (no cluster can
 *   be placed: "nodeGroupDatacenters" empty), a null lowestPrice or
 *   minVcpu/minMemory (out of stock for long, as gpuhunt reads it), and
 *   maxGpuCount 0 or missing.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "json.h"
#include "money.h"
#include "provider.h"
#include "xalloc.h"
#include "runpod_graphql.h"

/* RunPod's Instant Clusters: 2 to 8 nodes. */
#define CLUSTER_NODES_MIN	2
#define CLUSTER_NODES_MAX	8
/* Data centres of one type, at most (RunPod has about 30). */
#define CLUSTER_DCS_MAX		64

static const char clusters_query[] =
    "{\"query\": \"query GpuTypes($lowestPriceInput: GpuLowestPriceInput, "
    "$gpuTypesInput: GpuTypeFilter) { gpuTypes(input: $gpuTypesInput) { "
    "id displayName memoryInGb maxGpuCount clusterPrice "
    "nodeGroupDatacenters { id } "
    "lowestPrice(input: $lowestPriceInput) { minVcpu minMemory "
    "stockStatus } } }\", "
    "\"variables\": {\"gpuTypesInput\": {\"cluster\": true}, "
    "\"lowestPriceInput\": {\"gpuCount\": 8}}}";

/* Tallies for the summary note. */
struct tally {
	size_t	types;
	size_t	no_price;	/* clusterPrice null or 0 */
	size_t	no_dc;		/* no data centre */
	size_t	no_stock;	/* lowestPrice or its host figures null */
	size_t	no_count;	/* maxGpuCount 0 or missing */
};

/* One cluster type, as parsed. */
struct cluster_type {
	struct runpod_type base;	/* id, name, memory, maxGpuCount */
	int	 gpus;		/* per node; 0 when absent */
	int64_t	 price;		/* micro-USD per GPU-hour; NONE */
	int	 vcpus;		/* per node; -1 null */
	double	 ram_gb;	/* per node; < 0 null */
	bool	 stock;		/* lowestPrice present */
	enum availability availability;
};

static int
clusters_start(struct provider_run *run, struct err *err)
{
	(void)err;
	runpod_graphql_queue(run, clusters_query);
	return 0;
}

/* lowestPrice: host figures of a node of 8 GPUs and the stock word. */
static int
read_lowest(const cJSON *obj, const char *path, struct cluster_type *t,
    struct err *err)
{
	const cJSON *lp;
	char lpath[OFFER_NAME_MAX + 48];
	double v;

	t->stock = false;
	t->vcpus = -1;
	t->ram_gb = -1;
	t->availability = AV_UNAVAILABLE;
	if (runpod_graphql_lowest(obj, path, &lp, lpath, sizeof lpath,
	    err) < 0)
		return -1;
	if (lp == NULL)
		return 0;
	t->stock = true;
	if (provider_get_number(lp, "minVcpu", lpath, OFFER_VCPUS_MAX, &v,
	    err) < 0)
		return -1;
	t->vcpus = v < 0 ? -1 : (int)v;
	if (provider_get_number(lp, "minMemory", lpath, OFFER_RAM_MAX, &v,
	    err) < 0)
		return -1;
	t->ram_gb = v;
	return runpod_graphql_stock(lp, lpath, &t->availability, err);
}

/* Read one gpuTypes element into t; path names it for messages. */
static int
read_type(const cJSON *obj, int index, struct cluster_type *t, char *path,
    size_t pathsize, struct err *err)
{
	memset(t, 0, sizeof *t);
	if (runpod_graphql_type(obj, index, &t->base, path, pathsize,
	    err) < 0)
		return -1;
	t->gpus = t->base.max_gpus >= 0 ? t->base.max_gpus : 0;
	if (runpod_graphql_price(obj, "clusterPrice", path, &t->price,
	    err) < 0)
		return -1;
	return read_lowest(obj, path, t, err);
}

/* The offer of nodes nodes of t in data centre dc. */
static int
add_offer(struct provider_run *run, const struct cluster_type *t,
    const char *raw, const char *dc, int nodes, const char *path,
    struct err *err)
{
	char key[OFFER_KEY_MAX], itype[OFFER_NAME_MAX + 32];
	struct offer *o;

	snprintf(key, sizeof key, "%dx%d_%s_%s", nodes, t->gpus, t->base.id,
	    dc);
	if (provider_offer_find(run, key) != NULL) {
		err_set(err, "%s: duplicate GPU type or data centre (offer %s)",
		    path, key);
		return -1;
	}
	o = offer_list_add(&run->offers);
	offer_set_key(&run->offers, o, key);
	snprintf(itype, sizeof itype, "Instant Cluster %dx %s", t->gpus,
	    t->base.name);
	provider_text(run, o, offer_set_instance_type, itype);
	provider_text(run, o, offer_set_region, dc);
	o->gpu_count = t->gpus;
	o->nodes = nodes;
	o->vram_gb = t->base.vram_gb;
	provider_set_gpu(run, o, raw, t->base.vram_gb);
	o->interconnect = runpod_graphql_interconnect(&t->base, o->gpu,
	    t->gpus);
	o->vcpus = t->vcpus > 0 ? t->vcpus : 0;
	o->ram_gb = t->ram_gb > 0 ? t->ram_gb : 0;
	o->price = money_mul(t->price, t->gpus);
	o->availability = t->availability;
	return provider_offer_done(run, err);
}

/* The data centre ids of t into dcs; returns how many, or -1. */
static int
read_dcs(const cJSON *obj, const char *path, char dcs[][OFFER_NAME_MAX],
    struct err *err)
{
	const cJSON *list, *dc;
	char dpath[OFFER_NAME_MAX + 64];
	int n = 0;

	list = cJSON_GetObjectItemCaseSensitive(obj, "nodeGroupDatacenters");
	if (list == NULL || cJSON_IsNull(list))
		return 0;
	if (!cJSON_IsArray(list)) {
		err_set(err, "%s.nodeGroupDatacenters: expected an array, got %s",
		    path, json_type_name(list));
		return -1;
	}
	cJSON_ArrayForEach(dc, list) {
		snprintf(dpath, sizeof dpath, "%s.nodeGroupDatacenters[%d]",
		    path, n);
		if (!cJSON_IsObject(dc)) {
			err_set(err, "%s: expected an object, got %s", dpath,
			    json_type_name(dc));
			return -1;
		}
		if (n == CLUSTER_DCS_MAX) {
			err_set(err, "%s: more than %d data centres", dpath,
			    CLUSTER_DCS_MAX);
			return -1;
		}
		if (json_get_string(dc, "id", dpath, dcs[n], OFFER_NAME_MAX,
		    NULL, err) < 0)
			return -1;
		if (dcs[n][0] == '\0') {
			err_set(err, "%s.id: empty", dpath);
			return -1;
		}
		n++;
	}
	return n;
}

/* Turn one gpuTypes element into its cluster offers, or skip it. */
static int
parse_type(struct provider_run *run, const cJSON *obj, int index,
    void *arg, struct err *err)
{
	struct tally *tl = arg;
	char path[OFFER_NAME_MAX + 32], (*dcs)[OFFER_NAME_MAX];
	struct cluster_type t;
	const char *raw;
	int ndc, i, nodes, rc = -1;

	if (read_type(obj, index, &t, path, sizeof path, err) < 0)
		return -1;
	dcs = xreallocarray(NULL, CLUSTER_DCS_MAX, sizeof *dcs);
	if ((ndc = read_dcs(obj, path, dcs, err)) < 0)
		goto out;
	rc = 0;
	if (!money_known(t.price)) {
		provider_skip(run, &tl->no_price);
		goto out;
	}
	if (t.gpus == 0) {
		provider_skip(run, &tl->no_count);
		goto out;
	}
	if (ndc == 0) {
		provider_skip(run, &tl->no_dc);
		goto out;
	}
	if (!t.stock || t.vcpus < 0 || t.ram_gb < 0) {
		provider_skip(run, &tl->no_stock);
		goto out;
	}
	raw = runpod_graphql_raw(&t.base);
	for (i = 0; i < ndc && rc == 0; i++)
		for (nodes = CLUSTER_NODES_MIN; nodes <= CLUSTER_NODES_MAX &&
		    rc == 0; nodes++)
			rc = add_offer(run, &t, raw, dcs[i], nodes, path, err);
out:
	free(dcs);
	return rc;
}

static void
set_note(struct provider_run *run, const struct tally *t)
{
	if (t->no_price > 0)
		provider_note(run, "skipped %zu type%s with no cluster price",
		    t->no_price, t->no_price == 1 ? "" : "s");
	if (t->no_dc > 0)
		provider_note(run, "skipped %zu type%s with no data centre",
		    t->no_dc, t->no_dc == 1 ? "" : "s");
	if (t->no_stock > 0)
		provider_note(run, "skipped %zu type%s out of stock",
		    t->no_stock, t->no_stock == 1 ? "" : "s");
	if (t->no_count > 0)
		provider_note(run, "skipped %zu type%s with maxGpuCount 0",
		    t->no_count, t->no_count == 1 ? "" : "s");
}

static int
parse_document(struct provider_run *run, const cJSON *root, struct err *err)
{
	struct tally tl;
	int n;

	memset(&tl, 0, sizeof tl);
	if ((n = runpod_graphql_each(run, root, "gpuTypes", parse_type, &tl,
	    err)) < 0)
		return -1;
	tl.types = (size_t)n;
	/* A 200 with no cluster at all is a broken answer, not an empty
	 * product: the cached clusters stay. */
	if (run->offers.n == 0) {
		err_set(err, "data.gpuTypes: no priced cluster among %zu type%s",
		    tl.types, tl.types == 1 ? "" : "s");
		return -1;
	}
	set_note(run, &tl);
	return 0;
}

static int
clusters_response(struct provider_run *run, const struct http_result *res,
    struct err *err)
{
	return provider_parse_json(run, res, parse_document, err);
}

const struct provider provider_runpod_clusters = {
	.id = "runpod-clusters",
	.name = "RunPod Instant Clusters",
	.key_env = NULL,
	.key_required = false,
	.start = clusters_start,
	.response = clusters_response,
};
