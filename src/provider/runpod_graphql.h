/*
 * runpod_graphql.h: RunPod's GraphQL API, the part both RunPod adapters
 * share (runpod.c: pods; runpod_clusters.c: Instant Clusters): the POST
 * to https://api.runpod.io/graphql, the answer's errors/data envelope,
 * and the fields of a data.gpuTypes element both read.
 *
 * An answer is {"data": {"<list>": [...]}}, or {"errors": [{"message":
 * ...}, ...]} (data then null) when RunPod refuses the query, as it does
 * a query naming a field it no longer has. runpod_graphql_errors() and
 * runpod_graphql_message() say what the errors are, for an adapter that
 * would rather not fail on one of them; runpod_graphql_each() fails on
 * any.
 *
 * Pure, as an adapter is.
 */
#ifndef GPUCOST_RUNPOD_GRAPHQL_H
#define GPUCOST_RUNPOD_GRAPHQL_H

#include <stddef.h>
#include <stdint.h>

#include "offer.h"

struct cJSON;
struct err;
struct http_request;
struct provider_run;

/* The longest error message kept, NUL included. */
#define RUNPOD_GRAPHQL_MESSAGE_MAX	240

/*
 * Queue the POST of query, a whole JSON body ({"query": ...,
 * "variables": ...}), asking for JSON. No key: a caller that sends one
 * adds it to the request returned (provider_bearer()).
 */
struct http_request *runpod_graphql_queue(struct provider_run *run,
	    const char *query);

/*
 * How many errors the answer reports: 0 when "errors" is absent, null
 * or [], else the array's length (1 for an "errors" that is no array).
 */
int	runpod_graphql_errors(const struct cJSON *root);

/*
 * The message of error i, sanitised and cut to size; "" when that error
 * has none (or is not there).
 */
void	runpod_graphql_message(const struct cJSON *root, int i, char *buf,
	    size_t size);

/* Read element index of a list; -1 with err to stop. */
typedef int runpod_graphql_fn(struct provider_run *run,
	    const struct cJSON *item, int index, void *arg, struct err *err);

/*
 * Call fn(run, item, index, arg, err) on each element of the array
 * data.<list>, in order. Returns how many there are, or -1: fn's
 * failure, or err when the answer reports errors ("GraphQL error: <the
 * first message> (and N more)", the key masked), has no data object,
 * or no non-empty array there.
 */
int	runpod_graphql_each(struct provider_run *run, const struct cJSON *root,
	    const char *list, runpod_graphql_fn *fn, void *arg,
	    struct err *err);

/* The fields of a data.gpuTypes element both adapters read. */
struct runpod_type {
	char	 id[OFFER_NAME_MAX];	/* RunPod's GPU id, never empty */
	char	 name[OFFER_NAME_MAX];	/* displayName, else the id */
	int	 vram_gb;		/* memoryInGb; 0 unknown */
	int	 max_gpus;		/* maxGpuCount; -1 absent */
};

/*
 * Read element index of data.gpuTypes into t. path (pathsize bytes)
 * names the element for messages, by its id once that is read:
 * "data.gpuTypes[\"<id>\"]".
 */
int	runpod_graphql_type(const struct cJSON *obj, int index,
	    struct runpod_type *t, char *path, size_t pathsize,
	    struct err *err);

/*
 * A per-GPU price field (USD per GPU-hour) in micro-USD: MONEY_NONE
 * when null, absent or 0; -1 with err for an absurd one.
 */
int	runpod_graphql_price(const struct cJSON *obj, const char *key,
	    const char *path, int64_t *out, struct err *err);

/*
 * The element's lowestPrice object in *lp, NULL when null or absent;
 * its path in lpath (size bytes). -1 with err when it is no object.
 */
int	runpod_graphql_lowest(const struct cJSON *obj, const char *path,
	    const struct cJSON **lp, char *lpath, size_t size,
	    struct err *err);

/*
 * lowestPrice.stockStatus: High and Medium available, Low limited, None
 * or none said unavailable, any other word unknown.
 */
int	runpod_graphql_stock(const struct cJSON *lp, const char *lpath,
	    enum availability *out, struct err *err);

/* The interconnect RunPod's id or display name names, else the model's. */
enum interconnect runpod_graphql_interconnect(const struct runpod_type *t,
	    const char *gpu, int count);

/* The spelling to resolve the GPU by: the one the catalogue knows,
 * display name first. */
const char *runpod_graphql_raw(const struct runpod_type *t);

#endif
