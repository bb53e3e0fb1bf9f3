/*
 * answer.h: the one query function (issue 48).
 *
 * Every face asks answer_get() for its rows and renders what it returns:
 * the table, CSV, TSV and JSON (cmd_query.c), --group-by and the TUI's
 * summary, the TUI's first screen (tui/model.c), MCP's find_offers (the
 * table's rows, mcp_offers.c) and market_summary (which runs the
 * query), `launch` (the plan it prints is
 * the row the query shows) and `watch`. So one question gets one answer:
 * the same filter, the same rentability rules (rentable.h), the same
 * order, the same numbers and notes, whichever face asks.
 *
 * answer_get() takes the shortest way to the answer the cache allows
 * (issue 29): the first rows from an index walk, plans of several nodes
 * from the walks that can win, --group-by from the groups kept at write
 * time or from the summary index. Each of those gives exactly what the
 * full path gives (read every matching offer, query_plans(), fold,
 * summary_build()); GPUCOST_DEBUG_FULL_PATH=1 makes every answer take the
 * full path, and tests/cli/one_answer.sh compares the two, and every
 * face, on the same questions.
 */
#ifndef GPUCOST_ANSWER_H
#define GPUCOST_ANSWER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "db.h"
#include "offer.h"
#include "summary.h"

struct err;

/* What a face asks. */
struct question {
	struct offer_filter filter;	/* filter.now: the time it is asked at */
	enum sort_key	 sort;
	bool		 reverse;
	size_t		 limit;		/* rows (groups) at most; 0: every one */
	bool		 fold;		/* one row per instance type (+N) */
	bool		 regions;	/* with fold: each row's folded regions
					   named (answer.region) */
	struct group_by	 group_by;	/* nkeys 0: rows of plans */
	/*
	 * Does the face show what is said of every row (the count of all
	 * matches, the market references left out, the data age of every
	 * plan)? Then the answer holds them; without, a shorter way may
	 * leave them unknown (ANSWER_UNKNOWN).
	 */
	bool		 counts;
	bool		 status;	/* each provider's status row too */
};

#define ANSWER_UNKNOWN	((size_t)-1)

/* What it gets. */
struct answer {
	/*
	 * The rows, in order: at most question.limit of them, folded when
	 * question.fold (other_regions, fold_low ...). Empty with a
	 * --group-by answered from the kept groups or the summary index.
	 * They borrow their offers from `offers`.
	 */
	struct plan	*plans;
	size_t		 nplans;
	struct offer_list offers;
	/*
	 * Of the whole answer, not only the rows given: its rows, the
	 * offers in them (folded ones included), the marketplace listings
	 * left out as market references (rentable.h). ANSWER_UNKNOWN where
	 * a shorter way did not count them (question.counts false).
	 */
	size_t		 nrows;
	size_t		 matched;
	size_t		 left_out;
	/*
	 * question.regions: the regions of row i's folded offers, other
	 * than its own, each once, in the answer's order, are
	 * region[region_at[i]] up to region[region_at[i + 1]]; they point
	 * into `offers`. NULL otherwise.
	 */
	const char	**region;
	size_t		 *region_at;
	/* --group-by: every group, cheapest first (summary_sort()). */
	struct summary_group *groups;
	size_t		 ngroups;
	/* question.status: every provider's status row. */
	struct provider_status *status;
	size_t		 nstatus;
	const char	*path;		/* the way taken (tests, debug) */
};

void	answer_init(struct answer *a);
void	answer_done(struct answer *a);

/*
 * Answer q from the cache db into a (answer_init()ed; answer_done()
 * frees it, also on failure). Returns 0, or -1 with err.
 */
int	answer_get(struct db *db, const struct question *q, struct answer *a,
	    struct err *err);

#endif
