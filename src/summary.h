/*
 * summary.h: market summaries: plans grouped by GPU, provider, region,
 * continent (any combination), with the number of offers and the minimum, median
 * and maximum price per GPU-hour, on demand and spot, and the cheapest
 * offer of each group. Pure: no I/O.
 */
#ifndef GPUCOST_SUMMARY_H
#define GPUCOST_SUMMARY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "offer.h"

struct err;

/* id, word (--group-by, the JSON/CSV column) */
#define GROUP_KEY_INFO(X)						\
	X(GROUP_GPU,		"gpu")					\
	X(GROUP_PROVIDER,	"provider")				\
	X(GROUP_REGION,		"region")				\
	X(GROUP_CONTINENT,	"continent")

enum group_key {
#define X(id, word) id,
	GROUP_KEY_INFO(X)
#undef X
	GROUP_KEY_COUNT
};

/* What to group by, in the order given ("gpu,provider"). */
struct group_by {
	enum group_key	keys[GROUP_KEY_COUNT];
	size_t		nkeys;		/* 0: no grouping */
};

const char *group_key_name(enum group_key key);

/*
 * Parse a comma list of group keys into g (replacing it). Returns 0, or
 * -1 with "--group-by: ..." in err.
 */
int	group_by_parse(const char *s, struct group_by *g, struct err *err);

/* Minimum, median and maximum of the known prices; NONE when none. */
struct price_stats {
	size_t	n;		/* known prices */
	int64_t	min, median, max;	/* micro-USD per GPU-hour */
};

/*
 * The statistics of the n known prices v[] (sorted in place). The
 * median of an even count is the mean of the middle two, rounded down.
 */
void	price_stats_of(int64_t *v, size_t n, struct price_stats *st);

struct summary_group {
	char	values[GROUP_KEY_COUNT][OFFER_NAME_MAX];	/* by keys[i] */
	size_t	offers;
	struct price_stats price;	/* on demand, per GPU-hour */
	struct price_stats spot;	/* spot, per GPU-hour */
	struct price_stats term;	/* --term's effective, per GPU-hour */
	const struct plan *cheapest;	/* lowest price per GPU-hour (spot
					   with spot_rank); borrowed */
	int64_t	rank_min;		/* the minimum groups are ordered by */
	int64_t	stored;			/* a stored summary's number of the
					   group (db_groups_stored()) */
};

/*
 * Group plans[0..n) by g. With spot_rank the cheapest offer of a group
 * is the one with the lowest spot price; plans of a --term query (they
 * carry a term price: cost_plan_term()) rank by it instead. Groups come cheapest first
 * (by the minimum of the ranked price, unknown last, then by values).
 * *out is a new array the caller frees; its plans are borrowed.
 */
void	summary_build(const struct plan *plans, size_t n,
	    const struct group_by *g, bool spot_rank,
	    struct summary_group **out, size_t *nout);

/*
 * The same summary from the offers' rows instead of their plans (the
 * CLI's --group-by reads them from one index, db_summary_scan()), for a
 * query of plans of one node and no --term: summary_acc_add() each
 * matching offer once; summary_acc_candidates() lists (borrowed, in two
 * new arrays the caller frees) the offers that may be a group's cheapest:
 * those tied at its lowest ranked price, or all of a group's when it has
 * none; summary_acc_finish() takes their plans in the query's order and
 * gives what summary_build() gives on every plan (the plans borrowed), or
 * -1 when some group's cheapest is not among them.
 */
struct summary_acc;
struct summary_acc *summary_acc_new(const struct group_by *g, bool spot_rank);
void	summary_acc_add(struct summary_acc *a, const char *gpu,
	    const char *provider, const char *region, const char *key,
	    int64_t price_gpu_hour, int64_t spot_gpu_hour);
size_t	summary_acc_candidates(const struct summary_acc *a,
	    const char ***providers, const char ***keys);
int	summary_acc_finish(struct summary_acc *a, const struct plan *plans,
	    size_t n, struct summary_group **out, size_t *nout);
void	summary_acc_free(struct summary_acc *a);

/*
 * Summaries kept at write time (db_summary.c's db_groups_store()): one
 * walk of every offer into an accumulator grouped by gpu, provider and
 * region (each group one "atom": what every other grouping is a union
 * of); summary_acc_regroup() then gives the accumulator of grouping g
 * from it without reading the offers again (its values stay the atoms',
 * which must outlive it), exactly what adding every
 * offer to summary_acc_new(g) would hold (the same groups, counts,
 * prices and candidates; the order of the candidates aside, which no
 * answer depends on: query_plans() orders them). summary_acc_each()
 * calls fn once per group with its statistics (summary_group: values,
 * offers, price, spot, rank_min; no cheapest), the GPU id of its offers
 * ("" unknown; meaningful when g groups by GPU) and the offers that may
 * be its cheapest.
 */
struct summary_cand {
	char	*provider;
	char	*key;
};
struct summary_acc *summary_acc_regroup(const struct summary_acc *atoms,
	    const struct group_by *g);
/*
 * Keep of a group's candidates only the first in (provider, key) order
 * (what a kept summary stores): before any summary_acc_add(); a
 * regrouped accumulator does as its atoms'.
 */
void	summary_acc_least(struct summary_acc *a);
/*
 * A ranked accumulator keeps no values (at a million offers they were
 * most of a write's memory): summary_acc_ranked() before any
 * summary_acc_add(), which then counts the known prices of each kind
 * (0 on demand, 1 spot); then every value of a kind is given again in
 * ascending order, kind by kind: summary_acc_rank() to the atoms'
 * accumulator (it returns the offer's group there, SIZE_MAX if none),
 * summary_acc_rank_group() with that group to each regrouped one
 * (regrouped after the counting). summary_acc_each() then gives the
 * same statistics as from the values; summary_acc_ranked_check() is -1
 * when the walks gave some group another count than the rows did.
 */
void	summary_acc_ranked(struct summary_acc *a);
size_t	summary_acc_rank(struct summary_acc *a, int kind, const char *gpu,
	    const char *provider, const char *region, int64_t v);
void	summary_acc_rank_group(struct summary_acc *a, int kind,
	    size_t src_group, int64_t v);
int	summary_acc_ranked_check(const struct summary_acc *a);
typedef int summary_each_fn(const struct summary_group *group,
	    const char *gpu, const struct summary_cand *cands, size_t ncands,
	    void *ctx);
int	summary_acc_each(struct summary_acc *a, summary_each_fn *fn,
	    void *ctx);

/* Order groups as summary_build() gives them: cheapest first. */
void	summary_sort(struct summary_group *groups, size_t n);

/*
 * The cheapest of stored groups[0..n) (each with its price statistics,
 * rank_min on demand), from the plans (in the query's order) of the
 * offers that may be one: providers[i], keys[i] is a candidate of group
 * group_of[i] (>= n: of a group not asked). As summary_acc_finish(): the
 * first plan of a group tied at its minimum (its first plan when it has
 * no known price). Returns 0, or -1 when some group has none (the
 * summary and the offers disagree: the caller answers another way).
 */
int	summary_stored_finish(struct summary_group *groups, size_t n,
	    const char *const *providers, const char *const *keys,
	    const size_t *group_of, size_t ncands, const struct plan *plans,
	    size_t nplans);

#endif
