/*
 * tui/model.h: the offers the TUI shows, loaded once and re-filtered on
 * every change.
 *
 * model_load() reads every cached offer (db_query_scan(), the table in
 * key order, with an empty filter) and model_query() turns them into
 * the plans for the current filter and sort. The result is exactly
 * query_plans(offers, filter, sort), the CLI's answer for the same
 * options, but cheaper per keystroke: for filters whose plans are all
 * of one node (offer_filter_multi_node() false: no --multi-node, no
 * --nodes N > 1), every plan has nodes = 1, so the model sorts all offers
 * once per sort order (query_plans with an empty filter: "base") and
 * each filter change keeps the plans of that sorted list that pass
 * offer_matches() and plan_matches_price() -- the very tests
 * query_plans applies. The sort is a total order (ties end on provider
 * and key), so filtering the sorted list and sorting the filtered list
 * give the same sequence. The plans that pass every test but the text
 * are kept ("pre"), so a keystroke tests only the text, on a copy of
 * each plan's five searched names folded to lower case; typing more
 * text only narrows: when the new text starts with the old one, only
 * the last matches are tested again (a board-form word, "sxm" or
 * "pcie", is tested by offer_matches() and never narrows). Multi-node
 * filters call query_plans directly. Unless all_regions is set, plans
 * that differ only in region are then folded into one, the first in
 * sort order, as query_fold_regions() (the CLI's table) folds them: by
 * classes numbered once per sort (query_fold_classes()), in one pass.
 * tests/unit/test_tui_logic.c compares every step (typing, erasing,
 * sort, folding, term, reload) with a fresh query_plans() and
 * query_fold_regions(). Turning the spot filter on while sorted by
 * $/GPU-h sorts by spot $/GPU-h, as the CLI's --spot
 * does; turning it off goes back. No curses.
 */
#ifndef GPUCOST_TUI_MODEL_H
#define GPUCOST_TUI_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "db.h"
#include "offer.h"

#define MODEL_PATH_MAX	4096
/*
 * The plans a first screen reads: the offers table measures its column
 * widths on its first 500 rows (view_offers.c) and shows fewer.
 */
#define MODEL_FIRST_ROWS	500

struct err;
struct model_row;
struct question;

struct model {
	struct db	*db;		/* owned; NULL until model_open() */
	char		 db_path[MODEL_PATH_MAX];
	struct offer_list offers;	/* every cached offer */
	struct provider_status *status;	/* per provider, from db_status() */
	size_t		 nstatus;
	unsigned	 generation;	/* bumped by each successful load */

	/* What to show: set these, then call model_query(). */
	struct offer_filter filter;
	enum sort_key	 sort;
	bool		 reverse;
	bool		 all_regions;	/* a row per region, not one and +N */

	/* The result: plans borrow offers from `offers`. */
	struct plan	*plans;
	size_t		 nplans;
	/* Lowest $/GPU-h and spot $/GPU-h of the answer (its folded plans
	   too), micro-USD, or MONEY_NONE. */
	int64_t		 best_gpu_price;
	int64_t		 best_spot_gpu_price;
	int64_t		 oldest;	/* oldest fetched_at shown; 0 none */
	bool		 any_snapshot;	/* a shown offer is from the snapshot */

	/* Private: every offer as a plan in sort order, and buffer sizes. */
	struct plan	*base;
	size_t		 nbase;
	bool		 base_valid;
	enum sort_key	 base_sort;
	bool		 base_reverse;
	bool		 base_stale;	/* --include-stale it was made with */
	size_t		 cap;		/* plans[] capacity */
	bool		 spot_ranked;	/* filter.spot when the sort last followed it */
	size_t		 noffers_shown;	/* offers in plans[], folded included */
	/*
	 * After model_load_first(): only plans[0, nready) are there;
	 * model_finish() makes the rest. False after model_load() and
	 * model_query(). When counted, nplans, noffers_shown and the
	 * statistics are whole; when not (the first screen came from the
	 * indexes, and `offers` is not read yet), nplans is nready, the
	 * lowest prices are whole, and noffers_shown, oldest and
	 * any_snapshot wait: what the first screen's plans borrow is in
	 * first_offers until then.
	 */
	bool		 partial;
	bool		 counted;
	size_t		 nready;
	struct offer_list first_offers;

	/*
	 * Private, for keystrokes (model.c explains): per base plan, what a
	 * keystroke reads instead of the offer; the plans of base that pass
	 * every test of the filter but its text; of those, the ones that
	 * pass the text too (before folding).
	 */
	struct model_row *rows;		/* nbase of them, base's order */
	char		*names;		/* rows' folded names, NUL-separated */
	size_t		 names_len;
	bool		 names_valid;
	size_t		 nclasses;	/* fold classes among base's plans */
	struct plan	*pre;
	uint32_t	*pre_row;	/* each pre plan's index in base */
	size_t		 npre;
	bool		 pre_valid;
	struct offer_filter pre_filter;	/* what pre was cut with, text "" */
	uint32_t	*match;		/* indices into pre, in order */
	size_t		 nmatch;
	bool		 match_valid;
	char		 match_text[sizeof ((struct offer_filter *)0)->text];
	uint32_t	*leader;	/* per class: its row in plans[] + 1 */
};

/* Zero m: no cache, no offers, empty filter, sorted by $/GPU-h. */
void	model_init(struct model *m);

/*
 * Open the cache (--db path or the default, seeding it from the snapshot
 * on first use). Returns 0, or -1 with err set.
 */
int	model_open(struct model *m, const char *db_opt, struct err *err);

/*
 * (Re)load every offer and the provider status, then model_query().
 * On failure the model keeps what it had and returns -1 with err set.
 */
int	model_load(struct model *m, struct err *err);

/*
 * The question the model asks answer_get() (answer.h): its filter,
 * sort and folding, at most `limit` rows (0: all). One question, so the
 * first screen and every face give the same rows.
 */
void	model_question(const struct model *m, size_t limit,
	    struct question *q);

/*
 * model_load() for a first screen (issue 29): of the plans only the
 * first `first` (or all, if fewer), each with its other_regions,
 * exactly as model_load() would put them in plans[0, first); the rest
 * of plans[] is not there until model_finish() (m->partial says so).
 * The caller draws, then calls model_finish() before it acts on a key.
 * Two ways, model.c explains each: where SQL can walk the filter and
 * sort whole, the first plans come from the indexes without reading
 * every offer (the lowest prices too, but not the counts, the oldest
 * data or the snapshot's share: m->counted is false); otherwise every
 * offer is read and only the sort of them all waits (counts and
 * statistics whole). A multi-node filter is model_load().
 * tests/unit/test_tui_logic.c compares each with model_load().
 */
int	model_load_first(struct model *m, size_t first, struct err *err);

/*
 * The rest of model_load_first()'s load: every offer read if it was
 * not, and every plan. Nothing if the model is not partial. On failure
 * (the cache cannot be read) the first screen stays, -1 with err set.
 */
int	model_finish(struct model *m, struct err *err);

/* Recompute plans for the current filter, sort and reverse. */
void	model_query(struct model *m);

/* Index in plans of offer (provider, key) with nodes, or (size_t)-1. */
size_t	model_find(const struct model *m, const char *provider,
	    const char *key, int nodes);

/* Free everything and close the cache. */
void	model_done(struct model *m);

#endif
