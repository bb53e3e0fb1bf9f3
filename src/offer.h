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

#include "gpu.h"

#define OFFER_PROVIDER_MAX	16
#define OFFER_KEY_MAX		128
#define OFFER_NAME_MAX		64
#define OFFER_GPU_MAX		24

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

struct offer {
	char	provider[OFFER_PROVIDER_MAX];	/* "aws", "vast" ... */
	char	key[OFFER_KEY_MAX];	/* unique within provider */
	char	instance_type[OFFER_NAME_MAX];	/* provider's name */
	char	region[OFFER_NAME_MAX];	/* provider's region/location */
	char	gpu[OFFER_GPU_MAX];	/* canonical id; "" when unknown */
	char	gpu_raw[OFFER_NAME_MAX];	/* provider's GPU text */
	int	gpu_count;		/* GPUs in one instance, >= 1 */
	int	vram_gb;		/* memory per GPU, GB; 0 unknown */
	enum interconnect interconnect;
	int	vcpus;			/* whole instance; 0 unknown */
	double	ram_gb;			/* whole instance, GB; 0 unknown */
	int64_t	price;			/* micro-USD per instance-hour, on-demand */
	int64_t	spot_price;		/* micro-USD per instance-hour, spot */
	enum availability availability;
	int	spot_interruption;	/* AWS Spot Advisor bucket 0..4; -1 unknown */
	double	reliability;		/* Vast host reliability 0..1; < 0 unknown */
	int64_t	fetched_at;		/* UTC epoch seconds */
	enum offer_source source;
	unsigned notes;			/* stored notes, NOTE_BIT()s (notes.h) */
	char	spot_zone[OFFER_NAME_MAX];	/* zone of the spot price; "" */
};

/* A growable array of offers; it owns its elements' storage. */
struct offer_list {
	struct offer	*v;
	size_t		 n;
	size_t		 cap;
};

void	offer_init(struct offer *o);	/* zero, prices NONE, unknowns */
void	offer_list_init(struct offer_list *list);
void	offer_list_done(struct offer_list *list);	/* frees storage */
/* Append an initialised offer and return it (valid until the next add). */
struct offer *offer_list_add(struct offer_list *list);
/* Drop the last offer (a parser rejecting the record it just added). */
void	offer_list_pop(struct offer_list *list);

const char *interconnect_name(enum interconnect ic);	/* "nvlink" ... */
int	interconnect_parse(const char *s, enum interconnect *out);
const char *availability_name(enum availability av);	/* "available" ... */
int	availability_parse(const char *s, enum availability *out);
const char *source_name(enum offer_source src);	/* "snapshot", "live" */
/* Spot Advisor interruption label ("<5%" ...) or NULL for unknown. */
const char *spot_interruption_name(int bucket);

/*
 * Check an offer against the sanity limits every adapter applies: a
 * GPU count 1..64, VRAM 0..1024 GB, known prices in (0, 5000] USD per
 * instance-hour and at least one of them known, a non-empty key,
 * instance type, region and GPU name. Returns 0, or -1 with the offer's
 * key and the field in err (the caller adds the provider).
 */
struct err;
int	offer_check(const struct offer *o, struct err *err);

#define FILTER_PROVIDERS_MAX	8

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
	bool	vertex;			/* only offers Vertex AI trains on */
};

void	offer_filter_init(struct offer_filter *f);

/*
 * Does the offer satisfy the filter? On a match, *nodes is the number of
 * instances needed for the requested GPU count (1 unless multi-node).
 * max_price and spot are checked on plans (they depend on nodes), see
 * plan_matches_price().
 */
bool	offer_matches(const struct offer_filter *f, const struct offer *o,
	    int *nodes);

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
};

/*
 * The link between the GPUs of one node of p: the offer's, but none
 * (IC_UNKNOWN) for nodes of one GPU, which meet only over the network.
 */
enum interconnect plan_link(const struct plan *p);

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
	X(SORT_AGE,		"age")

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
 * savings, VRAM and GPU count largest first, names A-Z, interconnect
 * nvlink then pcie, availability available/limited/unavailable, age
 * newest first; unknown values (and unknown GPUs) always last; reverse
 * flips the order of known values only. Ties go to the lower price per GPU-hour, then provider
 * and key, so output is deterministic.
 */
void	plan_sort(struct plan *plans, size_t n, enum sort_key key, bool reverse);

#endif
