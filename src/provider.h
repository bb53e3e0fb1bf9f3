/*
 * provider.h: the GPU providers and the adapter contract.
 *
 * An adapter (src/provider/<id>.c) describes the HTTP requests that
 * fetch a provider's offers and parses the responses into offers. It
 * never calls libcurl or SQLite and keeps no globals: refresh.c runs
 * every provider's requests in one concurrent batch (http.h) and hands
 * each response back to its adapter. An adapter includes this header
 * (which brings request.h, the plain request record) and never http.h;
 * the toolkit below holds what more than one adapter needs. Call order
 * for one refresh:
 *
 *	configure(run, setting, ctx)	optional: the provider's own settings
 *	start(run)			queue the first requests
 *	chunk(run, req, data)		streamed bodies, piece by piece
 *	response(run, result)		each finished request, in completion
 *					order; may queue more (next page)
 *	(.batches: run->offers staged in the cache after chunk/response)
 *	finish(run)			after the last request: merge, check
 *	done(run)			always: free run->state
 *
 * Conditional refresh: an adapter marks a GET whose answer is a whole
 * document by itself with provider_conditional(); refresh.c then sends
 * the validators (ETag, Last-Modified) of the last good answer to that
 * URL and keeps the new ones. Adapters never see a 304: when every
 * request answered 304 the provider is unchanged (start() ran, then
 * only done(): its cached offers stay and are stamped as checked now);
 * when only some did, refresh.c asks for those again without
 * validators and the adapter gets every body as usual.
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
#include "request.h"

struct cJSON;
struct err;

#define PROVIDER_META_NAME_MAX	64
#define PROVIDER_META_VALUE_MAX	128

/*
 * A small named setting kept per provider between refreshes (an AWS
 * region's published version); the cache stores these as they are.
 */
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
	const char *account;	/* the account the API's paths name (Salad's
				   organisation), set by configure(), or NULL */
	const char *regions;	/* comma list, set by configure(), or NULL */
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

/*
 * A provider setting besides its key: the environment variable env if
 * set, else the configuration file's key name, else NULL. The string
 * lives as long as the refresh.
 */
typedef const char *provider_setting_fn(void *ctx, const char *env,
	    const char *name);

struct provider {
	const char *id;		/* "vast": --provider, cache key, GPUCOST_VAST_URL */
	const char *name;	/* "Vast.ai", for display */
	const char *key_env;	/* "VAST_API_KEY"; NULL when the API takes none */
	bool	 key_required;	/* skipped with a hint when the key is unset */
	const char *currency;	/* "EUR": prices converted; NULL for USD */
	/*
	 * The answer can be larger than memory should hold (a marketplace
	 * lists up to millions of machines): refresh.c takes run->offers
	 * after each chunk() or response() that left PROVIDER_BATCH or
	 * more, marks their notes and stages them in the cache (db.h,
	 * db_stage_offers()), and empties the list, so memory stays flat
	 * in the number of offers. The write at the end still swaps the
	 * whole set in one transaction, or nothing on a failure. Such an
	 * adapter only ever sees the current batch in run->offers: it
	 * keeps no region (provider_keep_region()), its finish() looks at
	 * no earlier offer, and each offer is its own instance type (the
	 * price-outlier note compares offers of one instance type, and is
	 * marked per batch). A key repeated across batches fails the
	 * provider, as provider_check_unique() does within one.
	 */
	bool	 batches;
	/*
	 * The provider publishes no price feed gpucost can read ("CoreWeave
	 * publishes no price feed"), or none without a key when key_env is
	 * set and key_required is not: its offers are the dated list prices
	 * of the built-in snapshot (data/list_prices.tsv). A refresh of it
	 * fetches nothing and says so in one line, with the list's date and
	 * source (the snapshot's "# source" line); with a key, start() runs
	 * as for any provider. NULL for a provider with a feed.
	 */
	const char *no_feed;

	/*
	 * Optional, before start(): read the provider's own settings into
	 * run (AWS: GPUCOST_AWS_REGIONS / aws_regions into run->regions).
	 */
	void	(*configure)(struct provider_run *run,
		    provider_setting_fn *setting, void *ctx);
	/* Queue the first request(s); NULL only with no_feed. */
	int	(*start)(struct provider_run *run, struct err *err);
	/* Streamed body piece of req (req->stream); NULL if none stream. */
	int	(*chunk)(struct provider_run *run, const struct http_request *req,
		    const char *data, size_t len, struct err *err);
	/* Mandatory: a request finished successfully (2xx; never a 304). */
	int	(*response)(struct provider_run *run,
		    const struct http_result *result, struct err *err);
	/* Optional: every request is done. */
	int	(*finish)(struct provider_run *run, struct err *err);
	/* Optional: free run->state. */
	void	(*done)(struct provider_run *run);
};

/* Offers a provider with .batches holds before they are staged. */
#define PROVIDER_BATCH	4096

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

/*
 * req (a GET without a body) asks for a document that is complete by
 * itself -- one response is everything the provider says there, as
 * Lambda's instance-types or AWS's spot feed -- so refresh.c may ask
 * for it conditionally. Never for a page of a paged list (page 1
 * unchanged says nothing of page 2) nor for a POST; ignored for those.
 * Setting req->refetch as well asks for it in full this time while
 * still keeping the validators of the answer for the next refresh.
 */
void	provider_conditional(struct http_request *req);

/*
 * Page 1 of a paged list (named list: "plans", "fr-par-1/servers") is
 * a whole document only if the list ended on it. provider_first_page()
 * marks req, page 1, conditional, and refetched in full unless the last
 * success recorded with provider_list_pages() that list as one page.
 */
void	provider_first_page(const struct provider_run *run,
	    struct http_request *req, const char *list);
void	provider_list_pages(struct provider_run *run, const char *list,
	    int pages);

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
/*
 * Set a text of o (offer_set_region ...) from provider text: sanitised
 * as provider_copy() does, stored in run->offers, cut at the field's
 * OFFER_*_MAX (offer.h).
 */
void	provider_text(struct provider_run *run, struct offer *o,
	    offer_setter *set, const char *src);

/*
 * The adapter toolkit: what more than one adapter needs, written once.
 * The sanity limits adapters check against are offer.h's OFFER_*_MAX.
 */

/*
 * s percent-encoded for a URL query value (a page token, a cursor):
 * every byte but RFC 3986's unreserved A-Z a-z 0-9 - . _ ~ becomes %XX.
 * Caller frees.
 */
char	*provider_url_escape(const char *s);

/*
 * Add "Authorization: Bearer <key>" to req when run has an API key;
 * nothing when it has none. The key never goes into a URL.
 */
void	provider_bearer(const struct provider_run *run,
	    struct http_request *req);

/* The offer of this run with key, or NULL (duplicate checks, merges). */
struct offer *provider_offer_find(struct provider_run *run, const char *key);

/* Parses a whole JSON document; root is always an object. */
typedef int provider_parse_fn(struct provider_run *run,
	    const struct cJSON *root, struct err *err);

/*
 * The response hook of an adapter that reads one JSON document per
 * response: parse res's body (no body reads as an empty one, which
 * json_parse() reports), fail with "expected a JSON object, got <type>"
 * for any other root, else hand the root to parse; the document is
 * freed after. Returns what parse returns.
 */
int	provider_parse_json(struct provider_run *run,
	    const struct http_result *res, provider_parse_fn *parse,
	    struct err *err);

/*
 * An optional number member key of obj in 0..max: *out is -1 when it is
 * absent or null; outside the range fails with "<key> <v> is out of
 * range 0..<max>" (path names obj for json.c's type errors).
 */
int	provider_get_number(const struct cJSON *obj, const char *key,
	    const char *path, double max, double *out, struct err *err);

/*
 * provider_get_number(), with path named in the range error too
 * ("data[2].memory -1 is out of range 0..1e+06"): for an adapter whose
 * records are many members deep.
 */
int	provider_get_number_at(const struct cJSON *obj, const char *key,
	    const char *path, double max, double *out, struct err *err);

/*
 * The note's skip counts: "<n> <what> skipped" for every counts[i] > 0,
 * what[i] in the singular and the plural.
 */
void	provider_note_skips(struct provider_run *run, const size_t *counts,
	    const char *const (*what)[2], size_t n);

/*
 * Append one part to the summary note (run->note), "; " between parts,
 * cut when the note is full. Adapters write skip counts with it:
 * "skipped 2 MIG slices", "1 zero-priced offer skipped".
 */
void	provider_note(struct provider_run *run, const char *fmt, ...)
	    __attribute__((format(printf, 2, 3)));

/*
 * A record that is not an offer on purpose: counted in run->skipped
 * and, when tally is not NULL, in the adapter's own count for the note.
 */
void	provider_skip(struct provider_run *run, size_t *tally);

/* Mask run's API key wherever it appears in err's message. */
void	provider_redact(const struct provider_run *run, struct err *err);

#endif
