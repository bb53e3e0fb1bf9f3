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

#endif
