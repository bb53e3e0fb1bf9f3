/*
 * offer.h: the offer record, lists of offers, filters and plans.
 *
 * An offer is one rentable configuration at one provider in one region:
 * the record every adapter produces, the cache stores and both faces
 * show. A plan is an offer taken `nodes` times to reach a GPU count
 * (nodes > 1 only with --multi-node), with its prices worked out by the
 * cost model. Pure: no I/O, no globals.
 */
#ifndef GPUCOST_OFFER_H
#define GPUCOST_OFFER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "committed.h"
#include "fabric.h"
#include "gpu.h"
#include "money.h"
#include "train.h"

/*
 * The longest text an offer keeps, in bytes with the terminating NUL
 * (so a key holds at most 127 bytes): the setters below cut longer
 * provider text there (never inside a UTF-8 character), as the fixed
 * arrays these once sized did, and offer_check() refuses an offer whose
 * text is longer (one filled without the setters, a copy's row), so a
 * hostile provider string costs at most this much memory.
 */
#define OFFER_PROVIDER_MAX	16
#define OFFER_KEY_MAX		128
#define OFFER_NAME_MAX		64	/* instance type, region, GPU text, zone */
#define OFFER_GPU_MAX		24

/*
 * The sanity limits of offer_check(), stated once: adapters that check
 * a field before the offer exists (to name the field in the message)
 * use these too.
 */
#define OFFER_GPU_COUNT_MAX	64		/* GPUs in one instance */
#define OFFER_NODES_MAX		64		/* nodes of a cluster product */
#define OFFER_VRAM_MAX		1024		/* GB per GPU */
#define OFFER_VCPUS_MAX		100000		/* vCPUs in one instance */
#define OFFER_RAM_MAX		1e6		/* GB in one instance */
#define OFFER_PRICE_MAX_USD	5000		/* USD per instance-hour */
#define OFFER_PRICE_MAX		((int64_t)OFFER_PRICE_MAX_USD * MONEY_UNIT)
/*
 * Not checked by offer_check() (an instance may hold many GPUs): an
 * adapter reading a price per GPU-hour rejects more than this as a
 * broken record.
 */
#define OFFER_GPU_HOUR_PRICE_MAX ((int64_t)100 * MONEY_UNIT)

enum interconnect {
	IC_UNKNOWN = 0,
	IC_PCIE,
	IC_NVLINK
};

enum availability {
	AV_UNKNOWN = 0,
	AV_AVAILABLE,
	AV_LIMITED,
	AV_UNAVAILABLE
};

enum offer_source {
	SRC_SNAPSHOT = 0,	/* the dated snapshot shipped in data/ */
	SRC_LIVE		/* fetched from the provider's API */
};

/*
 * Sized for a million in memory (issue 29): the text is pointers, not
 * arrays. Never NULL: "" when unknown. An offer in an offer_list points
 * into the list's own storage (written through offer_set_*()) or at
 * static strings; a copy to another list goes through
 * offer_list_add_copy(), never a plain assignment, so no offer points
 * into a list that may be freed first. A lone offer (a test's, a row
 * being checked) may point at any string that outlives it.
 */
struct offer {
	const char *provider;		/* "aws", "vast" ... */
	const char *key;		/* unique within provider */
	const char *instance_type;	/* provider's name */
	const char *region;		/* provider's region/location */
	const char *gpu;		/* canonical id; "" when unknown */
	const char *gpu_raw;		/* provider's GPU text */
	const char *spot_zone;		/* zone of the spot price; "" */
	/*
	 * Committed prices (committed.h): reservations, savings plans,
	 * committed use; same fetched_at and source as the offer. NULL
	 * when none (most offers): allocated only when present.
	 */
	const struct committed *committed;
	/*
	 * Its line of data/fabric.tsv, the network between its nodes, or
	 * NULL when unknown: set from provider and instance type by
	 * offer_set_fabric() where offers are read from the cache, the one
	 * place snapshot and live offers both pass.
	 */
	const struct fabric *fabric;
	int64_t	price;			/* micro-USD per instance-hour, on-demand */
	int64_t	spot_price;		/* micro-USD per instance-hour, spot */
	int64_t	fetched_at;		/* UTC epoch seconds */
	/*
	 * The provider's own price before conversion to USD: currency is
	 * its ISO 4217 code ("USD", "EUR"), price_original the on-demand
	 * price of one instance-hour in millionths of that currency
	 * (MONEY_NONE when the source published none).
	 */
	int64_t	price_original;
	/*
	 * What an aggregate price starts from: the lowest of the sellers'
	 * prices behind it (Akash: price.min, the cheapest provider's bid,
	 * where price is the weighted average of all of them), micro-USD
	 * per instance-hour, in (0, price]; MONEY_NONE when the source
	 * gives none (every provider but Akash).
	 */
	int64_t	price_from;
	double	ram_gb;			/* whole instance, GB; 0 unknown */
	double	reliability;		/* Vast host reliability 0..1; < 0 unknown */
	int	gpu_count;		/* GPUs in one instance, >= 1 */
	int	vram_gb;		/* memory per GPU, GB; 0 unknown */
	int	vcpus;			/* whole instance; 0 unknown */
	int	spot_interruption;	/* AWS Spot Advisor bucket 0..4; -1 unknown */
	/*
	 * A cluster product (issue 26): nodes > 1 is one offer of that many
	 * nodes sold as one cluster (RunPod Instant Clusters), gpu_count
	 * GPUs and price (per instance-hour) per node. 1: one machine.
	 */
	int	nodes;
	unsigned notes;			/* stored NOTE_BIT()s (note_info.h) */
	enum interconnect interconnect;
	enum availability availability;
	enum offer_source source;
	char	currency[4];
	uint8_t	ncommitted;
};

/* Look up o's fabric (data/fabric.tsv) by provider and instance type. */
void	offer_set_fabric(struct offer *o);
/* The fabric's kind and Gb/s per node; unknown: FABRIC_UNKNOWN, 0. */
enum fabric_kind offer_fabric_kind(const struct offer *o);
int	offer_node_gbps(const struct offer *o);

struct offer_text;

/*
 * A growable array of offers; it owns its elements' storage: the array
 * and, in text, every string and committed price its offers' setters
 * wrote (freed with the list; emptied by offer_list_clear()).
 */
struct offer_list {
	struct offer	*v;
	size_t		 n;
	size_t		 cap;
	struct offer_text *text;	/* NULL until the first string */
};

void	offer_init(struct offer *o);	/* zero, prices NONE, unknowns */
void	offer_list_init(struct offer_list *list);
void	offer_list_done(struct offer_list *list);	/* frees storage */
/* Append an initialised offer and return it (valid until the next add). */
struct offer *offer_list_add(struct offer_list *list);
/*
 * Room for n offers in all, allocated once (and, when large, backed by
 * huge pages: xalloc_large_hint()), for a caller that knows how many
 * are coming: growing by doubling would copy and fault them in again.
 */
void	offer_list_reserve(struct offer_list *list, size_t n);
/*
 * offer_list_add() for a list whose size the input decides (a streamed
 * marketplace answer): NULL when the memory for more is not there, so
 * the caller fails that provider as "out of memory" and the refresh
 * goes on and records it, instead of the process ending.
 */
struct offer *offer_list_try_add(struct offer_list *list);
/*
 * Drop the last offer (a parser rejecting the record it just added);
 * the text written for it since it was added is given back.
 */
void	offer_list_pop(struct offer_list *list);
/* No offers, and their text freed; the array is kept for reuse. */
void	offer_list_clear(struct offer_list *list);
/*
 * Append a copy of src (which may be in any list, dst included), its
 * text and committed prices copied into dst's storage.
 */
struct offer *offer_list_add_copy(struct offer_list *dst,
	    const struct offer *src);

/*
 * Set an offer's text: s copied into list's storage (o must be one of
 * list's offers, or a template later copied into the list by
 * assignment), cut at the field's OFFER_*_MAX above as str_copy() cuts;
 * repeated values (a region, an instance type) are stored once. The
 * text is stored as given: an adapter sanitises provider text first
 * (provider_copy()). offer_set_keyf() formats the key.
 */
void	offer_set_provider(struct offer_list *list, struct offer *o,
	    const char *s);
void	offer_set_key(struct offer_list *list, struct offer *o, const char *s);
void	offer_set_keyf(struct offer_list *list, struct offer *o,
	    const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void	offer_set_instance_type(struct offer_list *list, struct offer *o,
	    const char *s);
/*
 * May a region name hold byte c? Letters (UTF-8 too), digits, blank and
 * "-_.,()/:" (every provider's names: "us-east-1", "Texas, US",
 * "EU-RO-1"); nothing a shell reads as syntax or a glob (issue 43: a
 * pulled copy's region reaches shell completion). offer_set_region()
 * turns any other byte into '_'; offer_check() refuses an offer holding
 * one, so a copy holds only what gpucost writes.
 */
bool	offer_region_char_ok(unsigned char c);
void	offer_set_region(struct offer_list *list, struct offer *o,
	    const char *s);
void	offer_set_gpu(struct offer_list *list, struct offer *o, const char *s);
void	offer_set_gpu_raw(struct offer_list *list, struct offer *o,
	    const char *s);
void	offer_set_spot_zone(struct offer_list *list, struct offer *o,
	    const char *s);
/* One of the setters above, for a caller that fills several alike. */
typedef void offer_setter(struct offer_list *, struct offer *, const char *);
/*
 * The OFFER_*_MAX of the field set writes: a caller that sanitises
 * first (str_sanitize() drops the blanks a cut leaves at the end) cuts
 * there itself.
 */
size_t	offer_setter_max(offer_setter *set);
/* The offer's committed prices: n (<= OFFER_COMMITTED_MAX) copied. */
void	offer_set_committed(struct offer_list *list, struct offer *o,
	    const struct committed *c, size_t n);
/*
 * committed_add() and committed_prune() on an offer's committed prices
 * (each writes a new array into list's storage when they change).
 */
int	offer_add_committed(struct offer_list *list, struct offer *o,
	    enum committed_kind kind, int months, enum committed_upfront up,
	    int64_t price_hour, int64_t upfront);
size_t	offer_prune_committed(struct offer_list *list, struct offer *o);

const char *interconnect_name(enum interconnect ic);	/* "nvlink" ... */
int	interconnect_parse(const char *s, enum interconnect *out);
const char *availability_name(enum availability av);	/* "available" ... */
int	availability_parse(const char *s, enum availability *out);
const char *source_name(enum offer_source src);	/* "snapshot", "live" */
/* Spot Advisor interruption label ("<5%" ...) or NULL for unknown. */
const char *spot_interruption_name(int bucket);

/*
 * Check an offer against the sanity limits every adapter applies (the
 * OFFER_*_MAX above): a GPU count 1..64, VRAM 0..1024 GB, known prices
 * in (0, 5000] USD per instance-hour and at least one of them known
 * (none for capacity noted not-on-demand: how it is sold is the fact),
 * vCPUs and RAM in range, a non-empty key,
 * instance type, region and GPU name. Returns 0, or -1 with the offer's
 * key and the field in err (the caller adds the provider).
 */
struct err;
int	offer_check(const struct offer *o, struct err *err);

/*
 * What can be rented (rentable.h holds the data and the bounds): is the
 * offer's size or provider retired; is it a market reference at now (a
 * marketplace listing older than a day); host figures beyond any real
 * machine dropped to unknown (returns 1 vCPUs dropped | 2 RAM dropped);
 * a spot price with no spot command (rentable_spot_launch()) dropped
 * with its zone and interruption bucket (returns true if it was; an
 * offer sold only at that price keeps it: see offers_vet()); and,
 * before a write, the n offers of v kept that can be rented (retired
 * sizes go, host bounds applied, a spot price with no command dropped
 * and an offer left with no price at all dropped; compacts v, returns
 * the number kept).
 */
bool	offer_retired(const struct offer *o);
/*
 * Is o's spot price one a plan may use under f: known, and current
 * (rentable_spot_stale() at f->now) or asked for with --include-stale?
 * And p's spot made unknown where it is not (after cost_plan(): every
 * maker of plans for a filter calls it, so SAVE, spot totals, --spot's
 * rank and --term's comparison never use history).
 */
struct offer_filter;
struct plan;
bool	offer_spot_current(const struct offer_filter *f, const struct offer *o);
void	plan_spot_rule(struct plan *p, const struct offer_filter *f);
bool	offer_market_reference(const struct offer *o, int64_t now);
int	offer_host_bounds(struct offer *o);
bool	offer_spot_vet(struct offer *o);
size_t	offers_vet(struct offer *v, size_t n);

#define FILTER_PROVIDERS_MAX	24	/* more than there are providers */

/* What a query asks for; a zero field means "any". */
struct offer_filter {
	const struct gpu_model *gpus[GPU_MATCH_MAX];	/* any of these */
	size_t	ngpus;
	int	count;			/* GPUs wanted; 0 any */
	bool	multi_node;		/* allow k instances of count/k GPUs */
	int	min_vram_gb;		/* per GPU */
	enum interconnect interconnect;	/* IC_UNKNOWN: any */
	char	providers[FILTER_PROVIDERS_MAX][OFFER_PROVIDER_MAX];
	size_t	nproviders;
	char	region[OFFER_NAME_MAX];	/* substring, or glob with * ? [ */
	int64_t	max_price_gpu_hour;	/* micro-USD; MONEY_NONE any */
	bool	spot;			/* rank by spot: needs a spot price */
	bool	available;		/* only offers known to be available */
	char	text[OFFER_NAME_MAX];	/* TUI text filter: gpu/provider/... */
	bool	no_outliers;		/* skip price-outlier offers */
	enum gpu_form form;		/* --gpu "H100 SXM": only this form */
	int	min_vcpus_per_gpu;	/* host vCPUs per GPU at least; 0 any */
	int	min_ram_gb_per_gpu;	/* host RAM per GPU (GB) at least; 0 any */
	bool	vertex;			/* only offers Vertex AI trains on */
	/*
	 * What can be rented (rentable.h). A marketplace listing older
	 * than a day at `now` is a market reference: left out unless
	 * include_stale; only_stale keeps nothing else (to count what
	 * was left out). now is set by the command (the time of the
	 * query); 0 applies no age rule. Retired sizes never match.
	 */
	bool	include_stale;		/* --include-stale */
	bool	only_stale;		/* only market references */
	int64_t	now;			/* UTC epoch seconds; 0: no age rule */
	/*
	 * --term: TERM_NONE (0) on-demand; months, or TERM_ANY: only
	 * offers with a committed price of that term, ranked by the best
	 * one (checked on plans: plan_matches_price()).
	 */
	int	term;
	/*
	 * Clusters (issue 26). fabrics: FABRIC_BIT()s of the fabric
	 * between nodes, FABRIC_ANY, or 0 for the default rule (plans of
	 * several nodes need FABRIC_TRAINING and 2 GPUs a node). nodes:
	 * exactly that many nodes; 0 any.
	 */
	unsigned fabrics;
	int	min_node_gbps;		/* fabric Gb/s per node at least */
	int	nodes;
	/*
	 * --train (train.h): a plan must hold the run's training state in
	 * its GPUs' memory; without --count or --nodes, an offer's plan is
	 * the fewest of its nodes that can (plan_nodes()). params 0: none.
	 */
	struct train train;
};

void	offer_filter_init(struct offer_filter *f);

/*
 * The offer's board form: what its GPU text or instance type says
 * ("A100-SXM4-80GB", "gpu_1x_h100_pcie"), else what the model is only
 * made as, else its interconnect for ids sold in both forms (NVLink:
 * SXM). GPU_FORM_ANY when unknown.
 */
enum gpu_form offer_form(const struct offer *o);

/*
 * --match's words (the filter's text), as offer_matches() reads them
 * and the cache's SQL tests them (db_filter.c), so the two agree:
 * offer_text_word() puts the next space-separated word of p into word
 * (ASCII folded, cut at size - 1 bytes, *len its length) and returns
 * where the text goes on, or NULL at its end. A word is in an offer's
 * names when it is in offer_search_text()'s text (the names folded,
 * each followed by a space: a word holds no space, so it never spans
 * two), or it is a form word (offer_form_word(): "sxm", "sxm4", "pcie")
 * of the offer's form.
 */
const char	*offer_text_word(const char *p, char *word, size_t size,
		    size_t *len);
size_t		 offer_search_text(const struct offer *o, char *buf,
		    size_t size);
enum gpu_form	 offer_form_word(const char *word);
#define OFFER_SEARCH_MAX	1024	/* the five names, folded */

/* Host vCPUs and RAM (GB) per GPU of one instance; 0 when unknown. */
double	offer_vcpus_per_gpu(const struct offer *o);
double	offer_ram_gb_per_gpu(const struct offer *o);

#define HOST_LIGHT_VCPUS_PER_GPU	2	/* the usual rule for training: */
#define HOST_LIGHT_RAM_GB_PER_GPU	8	/* 2-4 cores, 8-16 GB per GPU */

/*
 * Is the host too light to keep its GPUs fed (below 2 vCPUs or 8 GB of
 * RAM per GPU, when known)? The "host-light" note.
 */
bool	offer_host_light(const struct offer *o);

/*
 * GB of GPU memory in nodes of o: its VRAM per GPU, else the
 * catalogue's; 0 when neither knows.
 */
double	plan_vram_gb(const struct offer *o, int nodes);

/*
 * Does the offer satisfy the filter? On a match, *nodes is the number of
 * instances needed for the requested GPU count (1 unless multi-node; a
 * cluster product's own node count). A plan of several instances of
 * one offer (same type, same region) matches only where they can be
 * placed together on a fabric a trainer would accept: by default one of
 * FABRIC_TRAINING, at least 2 GPUs a node and no more nodes than the
 * fabric's largest published group; --fabric any lifts the first two,
 * --nodes N the second. A cluster product matches only with
 * --multi-node or --nodes equal to its own. With --train, the plan's
 * GPUs must hold the run's training state (train_fits()); without
 * --count and --nodes, *nodes is the fewest that do (one machine, else
 * several where they may be assembled as above).
 * max_price and spot are checked on plans (they depend on nodes), see
 * plan_matches_price().
 */
bool	offer_matches(const struct offer_filter *f, const struct offer *o,
	    int *nodes);

/*
 * May f's plans have other than one node (--nodes N > 1; --multi-node:
 * assembled plans and cluster products)? Every face asks this one
 * question before it takes a way that holds only for plans of one node
 * (the TUI's per-keystroke path, its first screen, the walk of the first
 * rows).
 */
bool	offer_filter_multi_node(const struct offer_filter *f);

/*
 * --train on one plan (cost_plan_train()): the run's hours and what they
 * cost there. NAN and MONEY_NONE are unknown (no BF16 peak, no price).
 */
struct plan_job {
	double	gpu_hours;	/* FLOPs / (BF16 peak x MFU) / 3600 */
	double	scaling;	/* efficiency of the plan's nodes; 1: one */
	double	hours;		/* wall clock: gpu_hours / GPUs / scaling */
	double	rate;		/* spot interruptions per node-hour */
	bool	rate_known;	/* from AWS's Spot Advisor, else the default */
	double	spot_hours;	/* expected wall clock on spot, restarts in */
	double	interruptions;	/* expected on spot, of the whole plan */
	int64_t	cost;		/* on demand: price_hour x hours */
	int64_t	spot_cost;	/* spot: spot_hour x spot_hours */
	int64_t	per_btok;	/* cost per 10^9 tokens trained */
	int64_t	egress;		/* --egress: 0 none asked; NONE unknown */
	const struct committed *term;	/* the term it is cheapest on; NULL */
	int64_t	term_cost;	/* the job on it, whole terms paid */
	int64_t	term_commitment; /* one term of the plan: the least paid */
	int64_t	total;		/* the rank: cost (spot_cost with --spot)
				   plus egress */
};

/*
 * A plan: nodes identical instances of one offer. A single-listing offer
 * (one marketplace machine) is never taken more than once.
 */
struct plan {
	const struct offer *offer;	/* borrowed from an offer_list */
	const struct gpu_model *model;	/* NULL if the GPU is unknown */
	int	nodes;			/* instances, >= 1 */
	int	total_gpus;		/* nodes * gpu_count */
	int64_t	price_hour;		/* micro-USD, all nodes; NONE unknown */
	int64_t	price_gpu_hour;		/* micro-USD per GPU-hour */
	int64_t	spot_hour;		/* micro-USD, all nodes */
	int64_t	spot_gpu_hour;
	double	spot_savings_pct;	/* NAN when either price is unknown */
	double	usd_per_pflop_hour;	/* NAN when unknown */
	int	other_regions;		/* table rows: the other offers of its
					   instance type folded into this one
					   (query_fold_regions()) */
	/*
	 * The on-demand and spot prices per GPU-hour of the plans folded
	 * into this one and its own: the lowest and highest known
	 * (MONEY_NONE when none is). Set by query_fold_start() and
	 * widened by query_fold_add().
	 */
	int64_t	fold_low, fold_high;
	int64_t	fold_spot_low, fold_spot_high;
	uint64_t fold_hash;		/* query.c's hash of what folding
					   compares; 0: not computed yet */
	/* The filter's --term (cost_plan_term()); NULL / NONE / NAN. */
	const struct committed *term;	/* the offer's best for the term */
	int64_t	term_hour;		/* effective micro-USD, all nodes */
	int64_t	term_gpu_hour;
	double	term_savings_pct;	/* against on-demand */
	/* --train's job on this plan (cost_plan_train()); NULL without. */
	const struct plan_job *job;
};

/*
 * The link between the GPUs of one node of p: the offer's, but none
 * (IC_UNKNOWN) for nodes of one GPU, which meet only over the network.
 */
enum interconnect plan_link(const struct plan *p);

/*
 * What kind of plan p is: "single-node" (one machine), "multi-node"
 * (nodes instances of one offer, assembled by the buyer) or
 * "cluster-product" (sold by the provider as one cluster).
 */
const char *plan_type_name(const struct plan *p);

/* The per-GPU price the filter's --max-price applies to is within it. */
bool	plan_matches_price(const struct offer_filter *f, const struct plan *p);

/* Sort keys: the CLI's --sort values and every TUI column. */
#define SORT_KEY_INFO(X)						\
	X(SORT_GPU_PRICE,	"gpu-price")				\
	X(SORT_PRICE,		"price")				\
	X(SORT_SPOT,		"spot")					\
	X(SORT_SPOT_GPU,	"spot-gpu-price")			\
	X(SORT_SAVINGS,		"savings")				\
	X(SORT_VRAM,		"vram")					\
	X(SORT_PFLOP,		"pflop")				\
	X(SORT_PROVIDER,	"provider")				\
	X(SORT_INSTANCE,	"instance")				\
	X(SORT_REGION,		"region")				\
	X(SORT_GPU,		"gpu")					\
	X(SORT_COUNT,		"count")				\
	X(SORT_INTERCONNECT,	"interconnect")				\
	X(SORT_AVAILABILITY,	"availability")				\
	X(SORT_AGE,		"age")					\
	X(SORT_VCPUS_GPU,	"vcpus-per-gpu")			\
	X(SORT_RAM_GPU,		"ram-per-gpu")				\
	X(SORT_TERM_GPU,	"term-gpu-price")				\
	X(SORT_JOB,		"job")

enum sort_key {
#define X(id, name) id,
	SORT_KEY_INFO(X)
#undef X
	SORT_KEY_COUNT
};

const char *sort_key_name(enum sort_key key);
int	sort_key_parse(const char *s, enum sort_key *out);

/*
 * Sort plans by key: prices and price-performance cheapest first,
 * savings, VRAM, GPU count and host per GPU largest first, names A-Z, interconnect
 * nvlink then pcie, availability available/limited/unavailable, age
 * newest first; unknown values (and unknown GPUs) always last; reverse
 * flips the order of known values only. Ties go to the lower price per GPU-hour, then provider
 * and key, so output is deterministic.
 */
void	plan_sort(struct plan *plans, size_t n, enum sort_key key, bool reverse);
/* plan_sort()'s order of a and b: < 0, 0 (the same plan) or > 0. */
int	plan_compare(const struct plan *a, const struct plan *b,
	    enum sort_key key, bool reverse);

#endif
