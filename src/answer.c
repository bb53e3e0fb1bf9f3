/*
 * answer.c: the one query function (answer.h). The full path reads
 * every matching offer; the shorter ways below give the same rows, and
 * each says when it cannot (return 1: the next way answers).
 */
#include "config.h"
#include "answer.h"

#include <stdlib.h>
#include <string.h>

#include "cost.h"
#include "err.h"
#include "money.h"
#include "note_info.h"
#include "query.h"
#include "xalloc.h"

void
answer_init(struct answer *a)
{
	memset(a, 0, sizeof *a);
	offer_list_init(&a->offers);
	a->nrows = a->matched = a->left_out = ANSWER_UNKNOWN;
	a->path = "none";
}

void
answer_done(struct answer *a)
{
	free(a->plans);
	free(a->region);
	free(a->region_at);
	free(a->groups);
	free(a->status);
	offer_list_done(&a->offers);
	a->plans = NULL;
	a->region = NULL;
	a->region_at = NULL;
	a->groups = NULL;
	a->status = NULL;
	a->nplans = a->ngroups = a->nstatus = 0;
}

/* Keep the first `limit` of the rows (0: all). */
static void
answer_cut(struct answer *a, size_t limit)
{
	if (limit > 0 && a->nplans > limit)
		a->nplans = limit;
}

/* Is the full path forced (tests compare it with the others)? */
static bool
full_path_forced(void)
{
	const char *v = getenv("GPUCOST_DEBUG_FULL_PATH");

	return v != NULL && v[0] != '\0' && strcmp(v, "0") != 0;
}

/*
 * How many plans the question would have had but for the
 * market-reference rule (0 when it was not applied): the same question
 * asked of the references alone.
 */
static int
count_left_out(struct db *db, const struct question *q, size_t *out,
    struct err *err)
{
	struct offer_filter refs = q->filter;
	struct offer_list offers;
	struct plan *plans = NULL;
	size_t nplans = 0;
	int rc;

	*out = 0;
	if (q->filter.include_stale || q->filter.now == 0)
		return 0;
	refs.only_stale = true;
	offer_list_init(&offers);
	if ((rc = db_query(db, &refs, &offers, err)) == 0) {
		query_plans(offers.v, offers.n, &refs, q->sort, q->reverse,
		    &plans, &nplans);
		*out = nplans;
	}
	free(plans);
	offer_list_done(&offers);
	return rc;
}

/* ------------------------------------------------------------------ */
/* --group-by                                                          */
/* ------------------------------------------------------------------ */

/*
 * From the groups kept when the offers were written (db_groups_stored():
 * no filter but one --gpu): the groups read as they are, and only the
 * kept cheapest offer of each group shown read whole, its plan checked
 * as the full path ranks every plan. 0 answered; 1 another way must.
 */
static int
groups_stored(struct db *db, const struct question *q, struct answer *a,
    struct err *err)
{
	struct db_groups kept;
	struct plan *plans = NULL;
	size_t nplans = 0, shown;
	int rc;

	/*
	 * A group keeps one offer of those tied at its lowest price: the
	 * first in (provider, key) order, which is the first in the order
	 * of price per GPU-hour (either way: plan_cmp() breaks ties by
	 * provider and key). Under another sort another one may be.
	 */
	if (q->sort != SORT_GPU_PRICE)
		return 1;
	if ((rc = db_groups_stored(db, &q->group_by, &q->filter, q->limit,
	    &kept, err)) <= 0)
		return rc < 0 ? -1 : 1;
	rc = 1;
	query_plans(kept.cands.v, kept.cands.n, &q->filter, q->sort,
	    q->reverse, &plans, &nplans);
	shown = q->limit > 0 && q->limit < kept.n ? q->limit : kept.n;
	if (summary_stored_finish(kept.v, shown,
	    (const char *const *)kept.providers,
	    (const char *const *)kept.keys, kept.group_of, kept.ncands, plans,
	    nplans) < 0)
		goto done;	/* another way answers */
	/* The groups borrow their cheapest plans: the answer keeps both. */
	a->groups = kept.v;
	a->ngroups = kept.n;
	kept.v = NULL;
	a->plans = plans;
	a->nplans = 0;		/* no rows: the groups are the answer */
	plans = NULL;
	a->offers = kept.cands;
	offer_list_init(&kept.cands);
	a->matched = kept.offers;
	a->path = "groups-kept";
	rc = 0;
done:
	free(plans);
	db_groups_done(&kept);
	return rc;
}

static void
group_row(const struct db_summary_row *r, void *ctx)
{
	summary_acc_add(ctx, r->gpu, r->provider, r->region, r->key,
	    r->price_gpu_hour, r->spot_gpu_hour);
}

/*
 * From the summary index (db_summary_scan(): a filter SQL tests whole):
 * every matching offer's GPU, region and prices from one index walk, and
 * only the offers tied for a group's cheapest read whole, their plans
 * ranked as the full path ranks every plan. 0 answered; 1 another way
 * must (the stored keys cannot serve it, or the rows read and their
 * plans disagree).
 */
static int
groups_indexed(struct db *db, const struct question *q, struct answer *a,
    struct err *err)
{
	struct summary_acc *acc;
	struct plan *plans = NULL;
	const char **provs = NULL, **keys = NULL;
	size_t nplans = 0, ncands, rows = 0;
	int rc = 1, scan;

	if (!db_filter_in_sql(&q->filter))
		return 1;
	acc = summary_acc_new(&q->group_by, q->filter.spot);
	if ((scan = db_summary_scan(db, &q->filter, group_row, acc, &rows,
	    err)) != 0) {
		rc = scan < 0 ? -1 : 1;
		goto done;
	}
	ncands = summary_acc_candidates(acc, &provs, &keys);
	if (db_offers_get(db, provs, keys, ncands, &a->offers, err) < 0) {
		rc = -1;
		goto done;
	}
	query_plans(a->offers.v, a->offers.n, &q->filter, q->sort,
	    q->reverse, &plans, &nplans);
	if (summary_acc_finish(acc, plans, nplans, &a->groups,
	    &a->ngroups) < 0) {
		free(a->groups);
		a->groups = NULL;
		a->ngroups = 0;
		offer_list_clear(&a->offers);
		goto done;	/* rc 1: the full path answers */
	}
	a->plans = plans;	/* the groups' cheapest point here */
	a->nplans = 0;
	plans = NULL;
	a->matched = rows;
	a->path = "groups-indexed";
	rc = 0;
done:
	free(plans);
	free(provs);
	free(keys);
	summary_acc_free(acc);
	return rc;
}

/* ------------------------------------------------------------------ */
/* Rows                                                                */
/* ------------------------------------------------------------------ */

/*
 * Can SQL pick the rows (db_query_top())? With a limit, rows not folded
 * and every filter tested in SQL (db_filter_in_sql()), the first N plans
 * are the first N offers in the sort key's order. With --term, of the
 * offers that have a committed price of the term, in the order of its
 * best price per GPU-hour kept at write time (db_term_in_sql()).
 */
static bool
top_n_serves(const struct question *q)
{
	const struct offer_filter *f = &q->filter;

	return q->limit > 0 && !q->fold && !offer_filter_multi_node(f) &&
	    ((db_filter_in_sql(f) && db_sort_in_sql(q->sort)) ||
	    db_term_in_sql(f, q->sort));
}

/*
 * The first `limit` plans from a walk that can stop there: db_query_top()
 * (top_n_serves()) or, for plans of several nodes, db_query_nodes()'s
 * walks (query_nodes_walk()); rows not folded.
 */
static int
rows_walked(struct db *db, const struct question *q, bool nodes,
    struct answer *a, struct err *err)
{
	size_t matched = 0, *m = q->counts ? &matched : NULL;

	if ((nodes ? db_query_nodes(db, &q->filter, q->limit, &a->offers, m,
	    err) : db_query_top(db, &q->filter, q->sort, q->reverse, q->limit,
	    &a->offers, m, err)) < 0)
		return -1;
	query_plans(a->offers.v, a->offers.n, &q->filter, q->sort, q->reverse,
	    &a->plans, &a->nplans);
	answer_cut(a, q->limit);
	if (q->counts)
		a->matched = a->nrows = matched;
	a->path = nodes ? "nodes" : "top";
	return 0;
}

/*
 * The first rows of a folded answer (the TUI's first screen, a table
 * with --limit) from the walk of db_query_top(): each instance type's
 * row is its first plan in the answer's order, so the first `limit`
 * types met in a walk long enough are the first rows, and one count per
 * row (db_fold_class(): the offers of its type the filter matches, and
 * their price range) gives its +N. A walk that met too few types is
 * made four times longer, up to ANSWER_WALK_MAX; past that the full
 * path answers. Only where the filter is tested whole in SQL, in a sort
 * SQL walks, for plans of one node, and the rows' regions not named (a
 * count names none).
 */
#define ANSWER_WALK_MAX	((size_t)1 << 16)

static bool
leaders_serve(const struct question *q)
{
	const struct offer_filter *f = &q->filter;

	return q->limit > 0 && q->fold && !q->counts && !q->regions &&
	    !offer_filter_multi_node(f) && f->term == TERM_NONE &&
	    db_filter_in_sql(f) && db_sort_in_sql(q->sort);
}

static int
rows_leaders(struct db *db, const struct question *q, struct answer *a,
    struct err *err)
{
	struct offer_list list;
	struct plan *p = NULL, *lead;
	size_t walk, np, usable, nlead, i;
	struct db_fold_class *cls = NULL;
	const struct offer **os = NULL;
	bool *listing = NULL;
	int rc = 1;

	for (walk = q->limit * 2 < 64 ? 64 : q->limit * 2; ; walk *= 4) {
		offer_list_init(&list);
		if (db_query_top(db, &q->filter, q->sort, q->reverse, walk,
		    &list, NULL, err) < 0) {
			rc = -1;
			goto done;
		}
		query_plans(list.v, list.n, &q->filter, q->sort, q->reverse,
		    &p, &np);
		/* Past `walk`, the plans read are not the answer's next. */
		usable = np < walk ? np : walk;
		nlead = query_fold_regions(p, usable);
		if (nlead >= q->limit || np < walk)
			break;
		free(p);
		p = NULL;
		offer_list_done(&list);
		if (walk * 4 > ANSWER_WALK_MAX)
			return 1;
	}
	if (nlead > q->limit)
		nlead = q->limit;
	/* Each row's count and range: its type's offers, not those read. */
	cls = xreallocarray(NULL, nlead > 0 ? nlead : 1, sizeof *cls);
	os = xreallocarray(NULL, nlead > 0 ? nlead : 1, sizeof *os);
	listing = xreallocarray(NULL, nlead > 0 ? nlead : 1, sizeof *listing);
	for (i = 0; i < nlead; i++) {
		os[i] = p[i].offer;
		listing[i] = (p[i].offer->notes &
		    NOTE_BIT(NOTE_SINGLE_LISTING)) != 0;
	}
	if ((rc = db_fold_classes(db, &q->filter, os, listing, nlead, cls,
	    err)) != 0)
		goto done;	/* -1, or 1: the full path answers */
	for (i = 0; i < nlead; i++) {
		lead = &p[i];
		query_fold_start(lead);
		lead->other_regions = cls[i].offers > 0 ?
		    (int)(cls[i].offers - 1) : 0;
		lead->fold_low = cost_per_gpu_hour(cls[i].price_low,
		    lead->offer->gpu_count);
		lead->fold_high = cost_per_gpu_hour(cls[i].price_high,
		    lead->offer->gpu_count);
		lead->fold_spot_low = cost_per_gpu_hour(cls[i].spot_low,
		    lead->offer->gpu_count);
		lead->fold_spot_high = cost_per_gpu_hour(cls[i].spot_high,
		    lead->offer->gpu_count);
	}
	a->offers = list;
	offer_list_init(&list);
	a->plans = p;
	a->nplans = nlead;
	p = NULL;
	a->path = "leaders";
	rc = 0;
done:
	free(cls);
	free(os);
	free(listing);
	free(p);
	offer_list_done(&list);
	return rc;
}

/*
 * Fold a's plans (query_fold_regions()) and name, for each of the first
 * `limit` rows (0: every one), the other regions folded into it
 * (question.regions). A row is the first plan of its class in the
 * answer's order, so the classes in the order first met are the rows.
 */
static void
fold_naming_regions(struct answer *a, size_t limit)
{
	size_t n = a->nplans, nclass, nrows = 0, i, k, r, from, total;
	const char **lead, *region;
	uint32_t *cls;
	size_t *row_of, *count;

	cls = xreallocarray(NULL, n > 0 ? n : 1, sizeof *cls);
	nclass = query_fold_classes(a->plans, n, cls);
	row_of = xreallocarray(NULL, nclass > 0 ? nclass : 1, sizeof *row_of);
	for (i = 0; i < nclass; i++)
		row_of[i] = SIZE_MAX;
	for (i = 0; i < n; i++)
		if (row_of[cls[i]] == SIZE_MAX)
			row_of[cls[i]] = nrows++;
	if (limit > 0 && nrows > limit)
		nrows = limit;
	/* Room for every plan of a row, then each region once. */
	a->region_at = xcalloc(nrows + 1, sizeof *a->region_at);
	for (i = 0; i < n; i++)
		if ((r = row_of[cls[i]]) < nrows)
			a->region_at[r + 1]++;
	for (r = 0; r < nrows; r++)
		a->region_at[r + 1] += a->region_at[r];
	a->region = xreallocarray(NULL, a->region_at[nrows] > 0 ?
	    a->region_at[nrows] : 1, sizeof *a->region);
	count = xcalloc(nrows + 1, sizeof *count);
	lead = xcalloc(nrows + 1, sizeof *lead);
	for (i = 0; i < n; i++) {
		if ((r = row_of[cls[i]]) >= nrows)
			continue;
		region = a->plans[i].offer->region;
		if (lead[r] == NULL) {
			lead[r] = region;	/* the row's own */
			continue;
		}
		if (strcmp(region, lead[r]) == 0)
			continue;
		for (k = 0; k < count[r]; k++)
			if (strcmp(a->region[a->region_at[r] + k], region) == 0)
				break;
		if (k == count[r])
			a->region[a->region_at[r] + count[r]++] = region;
	}
	for (total = 0, r = 0; r < nrows; r++) {
		from = a->region_at[r];
		a->region_at[r] = total;
		memmove(&a->region[total], &a->region[from],
		    count[r] * sizeof *a->region);
		total += count[r];
	}
	a->region_at[nrows] = total;
	free(lead);
	free(count);
	free(row_of);
	free(cls);
	a->nplans = query_fold_regions(a->plans, n);
}

/* Every matching offer read, every plan made, folded, cut. */
static int
rows_full(struct db *db, const struct question *q, struct answer *a,
    struct err *err)
{
	if (db_query(db, &q->filter, &a->offers, err) < 0)
		return -1;
	query_plans(a->offers.v, a->offers.n, &q->filter, q->sort, q->reverse,
	    &a->plans, &a->nplans);
	a->matched = a->nplans;
	if (q->group_by.nkeys > 0) {
		summary_build(a->plans, a->nplans, &q->group_by,
		    q->filter.spot, &a->groups, &a->ngroups);
		a->nrows = a->nplans;
		a->path = "full";
		return 0;
	}
	if (q->fold && q->regions)
		fold_naming_regions(a, q->limit);
	else if (q->fold)
		a->nplans = query_fold_regions(a->plans, a->nplans);
	a->nrows = a->nplans;
	answer_cut(a, q->limit);
	a->path = "full";
	return 0;
}

int
answer_get(struct db *db, const struct question *q, struct answer *a,
    struct err *err)
{
	bool full = full_path_forced();
	int rc = 1;

	if (q->group_by.nkeys > 0 && !full && !q->counts) {
		if ((rc = groups_stored(db, q, a, err)) == 1)
			rc = groups_indexed(db, q, a, err);
	} else if (q->group_by.nkeys == 0 && !full) {
		if (top_n_serves(q))
			rc = rows_walked(db, q, false, a, err);
		else if (q->limit > 0 && !q->fold &&
		    query_nodes_walk(&q->filter, q->sort, q->reverse))
			rc = rows_walked(db, q, true, a, err);
		else if (leaders_serve(q))
			rc = rows_leaders(db, q, a, err);
	}
	if (rc == 1)
		rc = rows_full(db, q, a, err);
	if (rc < 0)
		return -1;
	if (q->counts && count_left_out(db, q, &a->left_out, err) < 0)
		return -1;
	if (q->status && db_status(db, &a->status, &a->nstatus, err) < 0)
		return -1;
	return 0;
}
