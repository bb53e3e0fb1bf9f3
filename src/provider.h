/*
 * provider.h: the GPU providers and the adapter contract.
 *
 * An adapter (src/provider/<id>.c) describes the HTTP requests that
 * fetch a provider's offers and parses the responses into offers. It
 * never calls libcurl or SQLite and keeps no globals: refresh.c runs
 * every provider's requests in one concurrent batch (http.h) and hands
 * each response back to its adapter. Call order for one refresh:
 *
 *	start(run)			queue the first requests
 *	chunk(run, req, data)		streamed bodies, piece by piece
 *	response(run, result)		each finished request, in completion
 *					order; may queue more (next page)
 *	finish(run)			after the last request: merge, check
 *	done(run)			always: free run->state
 *
 * Any hook returning -1 (with err naming the record and field) fails
 * the whole provider for this refresh: its cached offers stay as they
 * were. Records that are not offers on purpose (a CPU-only type, a
 * fractional vGPU slice, a plan without a price) are skipped and
 * counted in run->skipped, never stored. A GPU name the catalogue does
 * not know is kept with its raw text and counted in run->unknown_gpu.
 */
#ifndef GPUCOST_PROVIDER_H
#define GPUCOST_PROVIDER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "offer.h"

struct err;
struct http_request;
struct http_result;

#define PROVIDER_META_NAME_MAX	64
#define PROVIDER_META_VALUE_MAX	128

/* A small named setting kept per provider between refreshes. */
struct provider_meta {
	char	name[PROVIDER_META_NAME_MAX];
	char	value[PROVIDER_META_VALUE_MAX];
};

/* One provider's refresh in progress. */
struct provider_run {
	const struct provider *provider;

	/* In: set by refresh.c before start(). */
	const char *base_url;	/* GPUCOST_<ID>_URL or NULL: see provider_url() */
	const char *api_key;	/* NULL when none is configured */
	const char *regions;	/* comma list from config/env (AWS) or NULL */
	int64_t	 usd_per_eur;	/* millionths (currency.h), for a EUR source */
	int64_t	 now;		/* UTC epoch seconds: fetched_at of new offers */
	const struct provider_meta *old_meta;	/* from the last success */
	size_t	 nold_meta;

	/* Out: what the adapter produced. */
	struct offer_list offers;
	struct provider_meta *new_meta;	/* stored if this refresh succeeds */
	size_t	 nnew_meta;
	char	(*keep_regions)[OFFER_NAME_MAX];	/* keep cached offers here */
	size_t	 nkeep_regions;
	size_t	 skipped;	/* records that are not offers, on purpose */
	size_t	 unknown_gpu;	/* offers whose GPU is not in the catalogue */
	char	 note[256];	/* short detail for the summary line, or "" */

	/* Adapter's private state (freed by its done hook). */
	void	*state;

	/* Requests queued by the adapter, taken by refresh.c. */
	struct http_request **queue;
	size_t	 nqueue;
	size_t	 queue_cap;
};

struct provider {
	const char *id;		/* "vast": --provider, cache key, GPUCOST_VAST_URL */
	const char *name;	/* "Vast.ai", for display */
	const char *key_env;	/* "VAST_API_KEY"; NULL when the API takes none */
	bool	 key_required;	/* skipped with a hint when the key is unset */
	const char *currency;	/* "EUR": prices converted; NULL for USD */

	/* Mandatory: queue the first request(s). */
	int	(*start)(struct provider_run *run, struct err *err);
	/* Streamed body piece of req (req->stream); NULL if none stream. */
	int	(*chunk)(struct provider_run *run, const struct http_request *req,
		    const char *data, size_t len, struct err *err);
	/* Mandatory: a request finished successfully (2xx or 304). */
	int	(*response)(struct provider_run *run,
		    const struct http_result *result, struct err *err);
	/* Optional: every request is done. */
	int	(*finish)(struct provider_run *run, struct err *err);
	/* Optional: free run->state. */
	void	(*done)(struct provider_run *run);
};

/* Every provider, in display order, NULL-terminated. */
extern const struct provider *const providers[];

/* The provider with this id (case-insensitive), or NULL. */
const struct provider *provider_find(const char *id);

/* Comma-separated list of every id ("aws,gcp,..."), for messages. */
const char *provider_id_list(void);

/* Prepare / release a run (refresh.c and tests). */
void	provider_run_init(struct provider_run *run, const struct provider *p);
void	provider_run_done(struct provider_run *run);

/*
 * URL for path (which starts with '/' and may carry a query) on the
 * provider's real origin default_origin ("https://api.vultr.com"), or on
 * run->base_url instead when that is set: the override replaces scheme,
 * host and port and keeps the path. Caller frees.
 */
char	*provider_url(const struct provider_run *run, const char *default_origin,
	    const char *path);

/*
 * A new GET (method NULL) or other request for url (taken over), tagged
 * tag and queued on the run. Returns it so the caller can add headers,
 * a body, stream or max_body.
 */
struct http_request *provider_queue(struct provider_run *run, char *url,
	    const char *method, int tag);

/* The value stored by the last successful refresh, or NULL. */
const char *provider_old_meta(const struct provider_run *run, const char *name);
/* Record a value to store if this refresh succeeds. */
void	provider_set_meta(struct provider_run *run, const char *name,
	    const char *value);
/* Keep the cached offers of region as they are (nothing new fetched). */
void	provider_keep_region(struct provider_run *run, const char *region);

/*
 * Fill o->gpu_raw (sanitised) from raw and resolve it against the
 * catalogue with the VRAM hint (GB per GPU, 0 unknown): sets o->gpu and,
 * when o->vram_gb is 0, the model's VRAM; counts unknown GPUs in run.
 */
void	provider_set_gpu(struct provider_run *run, struct offer *o,
	    const char *raw, int vram_gb);

/*
 * Stamp o (provider, fetched_at = run->now, source live), check it
 * against the sanity limits, and keep it; on a failed check the offer
 * is dropped and -1 returned with the record named in err.
 */
int	provider_offer_done(struct provider_run *run, struct err *err);

/*
 * The interconnect inside an instance of count GPUs: from the provider's
 * own words in text (may be NULL) -- "SXM", "HBM3" or "NVLink" mean
 * nvlink, "PCIe" or "NVL" pcie -- else from the model's only form in the
 * catalogue (gpu_id, canonical, may be ""): an SXM-only model is nvlink,
 * a PCIe-only card pcie, a card an NVLink bridge may pair pcie when
 * alone; else IC_UNKNOWN.
 */
enum interconnect provider_interconnect(const char *text, const char *gpu_id,
	    int count);

/*
 * Every offer key of the run is unique; otherwise -1 naming the first
 * repeated key (the cache would silently keep only one of them).
 * refresh.c checks this after finish() for every adapter.
 */
int	provider_check_unique(const struct provider_run *run, struct err *err);

/* Copy provider text into a fixed field, sanitised. */
void	provider_copy(char *dst, size_t size, const char *src);

#endif
