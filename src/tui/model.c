/* tui/model.c: load the cache once, filter and sort it per change. */
#include "config.h"
#include "tui/model.h"

#include <stdlib.h>
#include <string.h>

#include "answer.h"
#include "cache.h"
#include "cost.h"
#include "err.h"
#include "money.h"
#include "paths.h"
#include "query.h"
#include "str.h"
#include "xalloc.h"

/* Offers reserved up front from the status counts, at most (2M: 1 GB). */
#define MODEL_RESERVE_MAX	((size_t)1 << 21)

/* Start empty. */
void
model_init(struct model *m)
{
	memset(m, 0, sizeof *m);
	offer_list_init(&m->offers);
	offer_list_init(&m->first_offers);
	m->counted = true;
	offer_filter_init(&m->filter);
	m->sort = SORT_GPU_PRICE;
	m->best_gpu_price = m->best_spot_gpu_price = MONEY_NONE;
}

/* Open (and on first use seed) the cache. */
int
model_open(struct model *m, const char *db_opt, struct err *err)
{
	if (paths_db(db_opt, m->db_path, sizeof m->db_path, err) < 0)
		return -1;
	return cache_open(m->db_path, &m->db, err);
}

/*
 * The offers changed (a new load): every plan pointed into the old
 * ones, so everything made from them goes, and the views re-measure.
 */
static void
model_forget(struct model *m)
{
	m->generation++;
	free(m->base);
	m->base = NULL;
	m->nbase = 0;
	m->base_valid = false;
	m->names_valid = m->pre_valid = m->match_valid = false;
	free(m->plans);
	m->plans = NULL;
	m->nplans = 0;
}

/* Read every offer and the provider status; plans wait for a query. */
static int
model_read(struct model *m, struct err *err)
{
	struct offer_list offers;
	struct offer_filter all;
	struct provider_status *status = NULL;
	size_t nstatus = 0, expected = 0, i;

	offer_list_init(&offers);
	offer_filter_init(&all);
	/*
	 * Every offer, cluster products too (an empty filter asks for plans
	 * of one node, and SQL then leaves them out): --nodes 2 and
	 * --multi-node plans are made from them.
	 */
	all.multi_node = true;
	if (db_status(m->db, &status, &nstatus, err) < 0)
		return -1;
	/* Every offer is read: room for all of them at once. */
	for (i = 0; i < nstatus; i++)
		expected += status[i].offer_count > 0 ?
		    (size_t)status[i].offer_count : 0;
	/* A count is a hint, never a reason to reserve gigabytes. */
	offer_list_reserve(&offers, expected < MODEL_RESERVE_MAX ? expected :
	    MODEL_RESERVE_MAX);
	/* Nearly every row: a scan of the table, not an index walk. */
	if (db_query_scan(m->db, &all, &offers, err) < 0) {
		offer_list_done(&offers);
		free(status);
		return -1;
	}
	offer_list_done(&m->offers);
	free(m->status);
	m->offers = offers;
	m->status = status;
	m->nstatus = nstatus;
	model_forget(m);
	/* The first screen's offers (model_first_sql()) had no other use. */
	offer_list_done(&m->first_offers);
	m->counted = true;
	m->cap = m->offers.n > 0 ? m->offers.n : 1;
	m->plans = xreallocarray(NULL, m->cap, sizeof *m->plans);
	xalloc_large_hint(m->plans, m->cap * sizeof *m->plans);
	m->nplans = 0;
	return 0;
}

int
model_load(struct model *m, struct err *err)
{
	if (model_read(m, err) < 0)
		return -1;
	model_query(m);
	return 0;
}

/*
 * Count plan p into the model's lowest prices and oldest data; its
 * offer's fetched_at and whether it is from the snapshot are passed in
 * (keep() has them in its row, without reading the offer).
 */
static void
model_stats_add(struct model *m, const struct plan *p, int64_t fetched_at,
    bool snapshot)
{
	if (money_known(p->price_gpu_hour) &&
	    (!money_known(m->best_gpu_price) ||
	    p->price_gpu_hour < m->best_gpu_price))
		m->best_gpu_price = p->price_gpu_hour;
	if (money_known(p->spot_gpu_hour) &&
	    (!money_known(m->best_spot_gpu_price) ||
	    p->spot_gpu_hour < m->best_spot_gpu_price))
		m->best_spot_gpu_price = p->spot_gpu_hour;
	if (m->oldest == 0 || fetched_at < m->oldest)
		m->oldest = fetched_at;
	if (snapshot)
		m->any_snapshot = true;
}

/* The plan's own offer time and source, for model_stats_add(). */
static void
model_stats_plan(struct model *m, const struct plan *p)
{
	model_stats_add(m, p, p->offer->fetched_at,
	    p->offer->source == SRC_SNAPSHOT);
}

/*
 * Lowest prices and oldest data among the plans of the answer, those
 * folded into a row included: what model_best_sql() reads of the same
 * answer from the indexes.
 */
static void
model_stats(struct model *m)
{
	size_t i;

	m->best_gpu_price = m->best_spot_gpu_price = MONEY_NONE;
	m->oldest = 0;
	m->any_snapshot = false;
	for (i = 0; i < m->nplans; i++)
		model_stats_plan(m, &m->plans[i]);
}

/*
 * Keystrokes. A profile of typing "rtx 4090 texas" at 100k offers put
 * 70 % of the time on the first load of each offer in offer_matches()
 * (cache misses: the plans are in price order, the offers in key order,
 * 728 bytes apart) and most of the rest on folding regions (a sort of
 * every match at each key) and the statistics (the offer again). So
 * model_query() reads, per plan, only what it needs, kept in base's
 * order:
 *
 *  - pre: the plans of base that pass every test of the filter but its
 *    text (their indices in base), cut again only when the rest of the
 *    filter, the sort or the offers change;
 *  - rows: per base plan, its fold class (query_fold_classes(): the
 *    classes query_fold_regions() folds by), fetched_at, snapshot, and
 *    its five searched names folded to lower case in one arena, so a
 *    text test is a memmem() per word over ~60 contiguous bytes;
 *  - match: the pre plans that pass the text too; when the text only
 *    grows, the new matches are a subset and only they are tested.
 *
 * Folding is then one pass: the first plan of a class in sort order is
 * the one kept, as in query_fold_regions(). A word the board form can
 * match ("sxm", "pcie": offer_form(), not a name) takes offer_matches()
 * itself, and narrows nothing: "pci" is no superset of "pcie".
 */
struct model_row {
	size_t		 names;		/* offset in m->names */
	uint32_t	 names_len;	/* its five names, NULs included */
	uint32_t	 cls;		/* fold class */
	int64_t		 fetched_at;
	bool		 snapshot;
};

/* Words longer than this take offer_matches(), which truncates them. */
#define MODEL_WORD_MAX	32

/* The text's words, folded as offer.c's text_matches() folds them. */
struct model_words {
	char		 buf[sizeof ((struct offer_filter *)0)->text * 2];
	const char	*w[sizeof ((struct offer_filter *)0)->text];
	size_t		 n[sizeof ((struct offer_filter *)0)->text];
	size_t		 count;
	bool		 slow;		/* a form word or a long one */
};

static unsigned char
fold_byte(unsigned char c)
{
	return c >= 'A' && c <= 'Z' ? (unsigned char)(c - 'A' + 'a') : c;
}

/* Split text into folded words; ws->slow when one needs offer_matches(). */
static void
words_split(const char *text, struct model_words *ws)
{
	size_t i, len = 0, n;

	ws->count = 0;
	ws->slow = false;
	for (;;) {
		while (*text == ' ')
			text++;
		if (*text == '\0')
			break;
		for (n = 0; text[n] != '\0' && text[n] != ' '; n++)
			;
		ws->w[ws->count] = ws->buf + len;
		ws->n[ws->count++] = n;
		for (i = 0; i < n; i++)
			ws->buf[len++] = (char)fold_byte((unsigned char)text[i]);
		ws->buf[len++] = '\0';
		if (n >= MODEL_WORD_MAX ||
		    strstr(ws->w[ws->count - 1], "sxm") != NULL ||
		    strstr(ws->w[ws->count - 1], "pcie") != NULL)
			ws->slow = true;
		text += n;
	}
}

/* Append s folded and its NUL to the names arena. */
static void
names_add(struct model *m, size_t *cap, const char *s)
{
	size_t n = strlen(s) + 1, i;

	if (m->names_len + n > *cap) {
		*cap = (*cap + n) * 2;
		m->names = xreallocarray(m->names, *cap, 1);
	}
	for (i = 0; i < n; i++)
		m->names[m->names_len + i] = (char)fold_byte((unsigned char)s[i]);
	m->names_len += n;
}

/* The searched names of every base plan, built on the first text typed. */
static void
names_build(struct model *m)
{
	size_t i, cap = m->nbase * 64 + 1;

	free(m->names);
	m->names = xmalloc(cap);
	m->names_len = 0;
	for (i = 0; i < m->nbase; i++) {
		const struct offer *o = m->base[i].offer;
		size_t at = m->names_len;

		/* offer.c's text_matches() searches these five. */
		names_add(m, &cap, o->gpu);
		names_add(m, &cap, o->gpu_raw);
		names_add(m, &cap, o->provider);
		names_add(m, &cap, o->instance_type);
		names_add(m, &cap, o->region);
		m->rows[i].names = at;
		m->rows[i].names_len = (uint32_t)(m->names_len - at);
	}
	m->names_valid = true;
}

/* Every offer as a plan in the current order, with its row. */
static void
base_build(struct model *m)
{
	struct offer_filter all;
	uint32_t *cls;
	size_t i;

	offer_filter_init(&all);
	/*
	 * A spot price that is history is no plan's (plan_spot_rule()):
	 * the base ranks spot as the filter's time and --include-stale
	 * say, and is made again when --include-stale changes. The
	 * market references go by the same two: the filter leaves out
	 * the same ones again.
	 */
	all.now = m->filter.now;
	all.include_stale = m->filter.include_stale;
	free(m->base);
	query_plans(m->offers.v, m->offers.n, &all, m->sort, m->reverse,
	    &m->base, &m->nbase);
	m->base_valid = true;
	m->base_stale = all.include_stale;
	m->base_sort = m->sort;
	m->base_reverse = m->reverse;
	if (m->nbase > m->cap) {
		m->cap = m->nbase;
		m->plans = xreallocarray(m->plans, m->cap, sizeof *m->plans);
	}
	free(m->rows);
	m->rows = xreallocarray(NULL, m->nbase > 0 ? m->nbase : 1,
	    sizeof *m->rows);
	cls = xreallocarray(NULL, m->nbase > 0 ? m->nbase : 1, sizeof *cls);
	m->nclasses = query_fold_classes(m->base, m->nbase, cls);
	for (i = 0; i < m->nbase; i++) {
		m->rows[i].cls = cls[i];
		m->rows[i].fetched_at = m->base[i].offer->fetched_at;
		m->rows[i].snapshot = m->base[i].offer->source == SRC_SNAPSHOT;
		m->rows[i].names = 0;
		m->rows[i].names_len = 0;
	}
	free(cls);
	free(m->leader);
	m->leader = xreallocarray(NULL, m->nclasses > 0 ? m->nclasses : 1,
	    sizeof *m->leader);
	m->names_valid = false;
	m->pre_valid = false;
	m->match_valid = false;
}

/* Is f, text aside, the filter pre was cut with? */
static bool
pre_current(const struct model *m, const struct offer_filter *f)
{
	struct offer_filter a = *f;

	/* A byte-wise difference (padding included) just means "no". */
	memset(a.text, 0, sizeof a.text);
	return m->pre_valid && memcmp(&a, &m->pre_filter, sizeof a) == 0;
}

/* base's plans that pass every test of the filter but its text. */
static void
pre_build(struct model *m)
{
	struct offer_filter f = m->filter;
	struct plan *tp = NULL;
	uint32_t *row_of;
	size_t i, k = 0;
	int nodes;

	memset(f.text, 0, sizeof f.text);
	m->pre_filter = f;
	free(m->pre_row);
	m->pre_row = xreallocarray(NULL, m->nbase > 0 ? m->nbase : 1,
	    sizeof *m->pre_row);
	if (f.term != TERM_NONE)
		tp = xreallocarray(NULL, m->nbase > 0 ? m->nbase : 1,
		    sizeof *tp);
	for (i = 0; i < m->nbase; i++) {
		struct plan p = m->base[i];

		/* The base is of no term: the term's price is the filter's. */
		if (f.term != TERM_NONE)
			cost_plan_term(&p, f.term);
		if (!offer_matches(&f, p.offer, &nodes) || nodes != 1 ||
		    !plan_matches_price(&f, &p))
			continue;
		if (tp != NULL)
			tp[k] = p;
		m->pre_row[k++] = (uint32_t)i;
	}
	m->npre = k;
	if (tp != NULL) {
		/* The base was sorted without term prices: rank by them now. */
		plan_sort(tp, k, m->sort, m->reverse);
		row_of = xreallocarray(NULL, m->offers.n > 0 ? m->offers.n : 1,
		    sizeof *row_of);
		for (i = 0; i < m->nbase; i++)
			row_of[m->base[i].offer - m->offers.v] = (uint32_t)i;
		for (i = 0; i < k; i++)
			m->pre_row[i] = row_of[tp[i].offer - m->offers.v];
		free(row_of);
		free(tp);
	}
	free(m->match);
	m->match = xreallocarray(NULL, k > 0 ? k : 1, sizeof *m->match);
	m->pre_valid = true;
	m->match_valid = false;
}

/* Does pre plan j pass the text's words? */
static bool
text_passes(const struct model *m, const struct model_words *ws, size_t j)
{
	const struct model_row *r = &m->rows[m->pre_row[j]];
	const char *names = m->names + r->names;
	size_t w;
	int nodes;

	/* pre passed the rest of the filter: this tests the text. */
	if (ws->slow)
		return offer_matches(&m->filter, m->base[m->pre_row[j]].offer,
		    &nodes);
	for (w = 0; w < ws->count; w++)
		if (memmem(names, r->names_len, ws->w[w], ws->n[w]) == NULL)
			return false;
	return true;
}

/* The pre plans that pass the text: from the last matches if it grew. */
static void
match_build(struct model *m)
{
	struct model_words ws;
	size_t i, k = 0, len = strlen(m->match_text);

	words_split(m->filter.text, &ws);
	if (ws.count > 0 && !ws.slow && !m->names_valid)
		names_build(m);
	if (m->match_valid && !ws.slow &&
	    strncmp(m->filter.text, m->match_text, len) == 0) {
		for (i = 0; i < m->nmatch; i++)
			if (text_passes(m, &ws, m->match[i]))
				m->match[k++] = m->match[i];
	} else
		for (i = 0; i < m->npre; i++)
			if (ws.count == 0 || text_passes(m, &ws, i))
				m->match[k++] = (uint32_t)i;
	m->nmatch = k;
	str_copy(m->match_text, sizeof m->match_text, m->filter.text);
	m->match_valid = true;
}

/* Put plan p (of row r) in plans[k], counting it in the statistics. */
static void
keep(struct model *m, size_t k, const struct plan *p,
    const struct model_row *r)
{
	m->plans[k] = *p;
	query_fold_start(&m->plans[k]);
	model_stats_add(m, p, r->fetched_at, r->snapshot);
}

/* plans[] from the matches, folded by class unless all_regions. */
static void
match_emit(struct model *m)
{
	size_t i, k = 0;

	m->best_gpu_price = m->best_spot_gpu_price = MONEY_NONE;
	m->oldest = 0;
	m->any_snapshot = false;
	if (!m->all_regions)
		memset(m->leader, 0, (m->nclasses > 0 ? m->nclasses : 1) *
		    sizeof *m->leader);
	for (i = 0; i < m->nmatch; i++) {
		uint32_t row = m->pre_row[m->match[i]];
		const struct model_row *r = &m->rows[row];
		struct plan p;

		/* The first of a class in sort order stays, the rest count. */
		if (!m->all_regions && m->leader[r->cls] != 0) {
			query_fold_add(&m->plans[m->leader[r->cls] - 1],
			    &m->base[row]);
			model_stats_add(m, &m->base[row], r->fetched_at,
			    r->snapshot);
			continue;
		}
		p = m->base[row];
		if (m->filter.term != TERM_NONE)
			cost_plan_term(&p, m->filter.term);
		keep(m, k, &p, r);
		if (!m->all_regions)
			m->leader[r->cls] = (uint32_t)(k + 1);
		k++;
	}
	m->noffers_shown = m->nmatch;
	m->nplans = k;
}

/* The spot filter ranks by spot, as --spot does. */
static void
rank_spot(struct model *m)
{
	if (m->filter.spot != m->spot_ranked) {
		if (m->filter.spot && m->sort == SORT_GPU_PRICE)
			m->sort = SORT_SPOT_GPU;
		else if (!m->filter.spot && m->sort == SORT_SPOT_GPU)
			m->sort = SORT_GPU_PRICE;
		m->spot_ranked = m->filter.spot;
	}
}

/*
 * The first screen without sorting every offer (issue 29: at 100k
 * offers the sort, cost and fold classes of base_build() were half of
 * the load, the read itself the other half). What model_query() shows
 * is, per fold class of the matches, its first plan in sort order
 * (other_regions: the rest of the class), those leaders in sort order,
 * and statistics over the leaders. So: the plans that pass the filter
 * as pre_build() and text_passes() decide it (offer_matches() with the
 * text), built as base_build() builds them (query_plans() with an
 * empty filter, then the term); one pass groups them by class in a
 * hash table, keeping each class's least plan under plan_compare() (a
 * total order: the one model_query() keeps) and its size; a heap of the
 * `first` least leaders, sorted at the end. O(n log first), no sort of
 * n. false (nothing done) where that argument does not hold: the
 * multi-node path, or a fetched_at <= 0 (keep()'s oldest then depends
 * on the order of the leaders).
 */
static bool
model_first(struct model *m, size_t first)
{
	struct offer_filter all;
	struct plan *v, *heap, tmp;
	uint32_t *slot, *count;
	size_t nv = 0, nslots, i, j, s, nlead = 0, nheap = 0, c;
	int nodes;

	rank_spot(m);
	if (offer_filter_multi_node(&m->filter) || first == 0)
		return false;
	offer_filter_init(&all);
	v = xreallocarray(NULL, m->offers.n > 0 ? m->offers.n : 1, sizeof *v);
	for (i = 0; i < m->offers.n; i++) {
		const struct offer *o = &m->offers.v[i];
		struct plan p;

		if (!offer_matches(&all, o, &nodes))
			continue;
		cost_plan(&p, o, nodes);
		plan_spot_rule(&p, &m->filter);
		if (!plan_matches_price(&all, &p))
			continue;
		query_fold_hash(&p);
		if (m->filter.term != TERM_NONE)
			cost_plan_term(&p, m->filter.term);
		if (!offer_matches(&m->filter, o, &nodes) || nodes != 1 ||
		    !plan_matches_price(&m->filter, &p))
			continue;
		if (o->fetched_at <= 0) {
			free(v);
			return false;
		}
		query_fold_start(&p);
		v[nv++] = p;
	}
	/* Open addressing on the fold hash: slot[] holds a leader + 1. */
	for (nslots = 16; nslots < nv * 2; nslots *= 2)
		;
	slot = xcalloc(nslots, sizeof *slot);
	count = xreallocarray(NULL, nv > 0 ? nv : 1, sizeof *count);
	for (i = 0; i < nv; i++) {
		if (m->all_regions) {
			count[nlead++] = (uint32_t)i;
			continue;
		}
		for (s = v[i].fold_hash & (nslots - 1); slot[s] != 0 &&
		    !query_fold_same(&v[slot[s] - 1], &v[i]);
		    s = (s + 1) & (nslots - 1))
			;
		if (slot[s] == 0) {
			slot[s] = (uint32_t)(i + 1);
			continue;
		}
		j = slot[s] - 1;
		if (plan_compare(&v[i], &v[j], m->sort, m->reverse) < 0) {
			/* The new least plan leads; it takes the count. */
			query_fold_take(&v[i], &v[j]);
			query_fold_start(&v[j]);
			slot[s] = (uint32_t)(i + 1);
		} else
			query_fold_add(&v[j], &v[i]);
	}
	if (!m->all_regions)
		for (s = 0; s < nslots; s++)
			if (slot[s] != 0)
				count[nlead++] = slot[s] - 1;
	free(slot);
	/* Statistics over every match, as match_emit(). */
	m->best_gpu_price = m->best_spot_gpu_price = MONEY_NONE;
	m->oldest = 0;
	m->any_snapshot = false;
	for (i = 0; i < nv; i++)
		model_stats_plan(m, &v[i]);
	/* A max-heap of the `first` least leaders (plans[] is the room). */
	heap = m->plans;
	for (i = 0; i < nlead; i++) {
		const struct plan *p = &v[count[i]];

		if (nheap == first) {
			if (plan_compare(p, &heap[0], m->sort,
			    m->reverse) >= 0)
				continue;
			j = 0;		/* replace the top, sift it down */
			tmp = *p;
		} else {
			/* sift up from the end */
			for (j = nheap++; j > 0; j = (j - 1) / 2) {
				if (plan_compare(&heap[(j - 1) / 2], p,
				    m->sort, m->reverse) >= 0)
					break;
				heap[j] = heap[(j - 1) / 2];
			}
			heap[j] = *p;
			continue;
		}
		for (;;) {
			c = 2 * j + 1;
			if (c >= nheap)
				break;
			if (c + 1 < nheap && plan_compare(&heap[c + 1],
			    &heap[c], m->sort, m->reverse) > 0)
				c++;
			if (plan_compare(&heap[c], &tmp, m->sort,
			    m->reverse) <= 0)
				break;
			heap[j] = heap[c];
			j = c;
		}
		heap[j] = tmp;
	}
	plan_sort(heap, nheap, m->sort, m->reverse);
	free(count);
	free(v);
	m->nplans = nlead;
	m->noffers_shown = nv;
	m->nready = nheap;
	m->partial = true;
	return true;
}

void
model_question(const struct model *m, size_t limit, struct question *q)
{
	memset(q, 0, sizeof *q);
	q->filter = m->filter;
	q->sort = m->sort;
	q->reverse = m->reverse;
	q->limit = limit;
	q->fold = !m->all_regions;
}

/*
 * The lowest known plan price of the filter's matches under key (a
 * price: unknown prices sort last), from one step of the indexes;
 * MONEY_NONE if none is known.
 */
static int
model_best_sql(struct model *m, enum sort_key key, int64_t *best,
    struct err *err)
{
	struct offer_list one;
	struct plan *q = NULL;
	size_t nq = 0;

	offer_list_init(&one);
	if (db_query_top(m->db, &m->filter, key, false, 1, &one, NULL,
	    err) < 0) {
		offer_list_done(&one);
		return -1;
	}
	query_plans(one.v, one.n, &m->filter, key, false, &q, &nq);
	*best = nq == 0 ? MONEY_NONE : key == SORT_SPOT_GPU ?
	    q[0].spot_gpu_hour : q[0].price_gpu_hour;
	free(q);
	offer_list_done(&one);
	return 0;
}

/*
 * The first screen from the cache's indexes, without reading every
 * offer (issue 29: at 1M offers the read alone took a second before
 * anything was drawn): answer_get() for the first `first` rows of the
 * model's question, which takes its index walk where one serves (the
 * same rows the whole load gives: answer.h). The lowest prices come
 * from one step each. The rest (the counts, the oldest data, the
 * snapshot's share) waits for model_finish(): m->counted is false. 0
 * (nothing done) where no walk serves (the full path would read every
 * offer: the whole load does that, and counts), or no row matches (the
 * table then says why, from every offer); 1 done; -1 with err set.
 */
static int
model_first_sql(struct model *m, size_t first, struct err *err)
{
	struct question q;
	struct answer a;
	bool current;
	int64_t best_gpu, best_spot;
	int rc = 0;

	if (offer_filter_multi_node(&m->filter) || first == 0)
		return 0;
	/*
	 * Keys of another version (a new gpucost on an old cache): the
	 * full load, which needs none. Bringing them up to date here would
	 * take the write lock, and wait for a refresh that holds it.
	 */
	if (db_sort_keys_current(m->db, &current, err) < 0)
		return -1;
	if (!current)
		return 0;
	model_question(m, first, &q);
	answer_init(&a);
	if (answer_get(m->db, &q, &a, err) < 0) {
		rc = -1;
		goto done;
	}
	/* The full path read everything: the whole load does it better. */
	if (strcmp(a.path, "full") == 0 || a.nplans == 0)
		goto done;
	if (model_best_sql(m, SORT_GPU_PRICE, &best_gpu, err) < 0 ||
	    model_best_sql(m, SORT_SPOT_GPU, &best_spot, err) < 0) {
		rc = -1;
		goto done;
	}
	/* What an earlier load read is gone: the counts are to come. */
	offer_list_done(&m->offers);
	model_forget(m);
	offer_list_done(&m->first_offers);
	m->first_offers = a.offers;	/* now the model's */
	offer_list_init(&a.offers);
	/* The answer's block, whole (a plan may point into it). */
	m->plans = a.plans;
	a.plans = NULL;
	m->cap = a.nplans;
	m->nplans = m->nready = a.nplans;
	m->noffers_shown = 0;
	m->best_gpu_price = best_gpu;
	m->best_spot_gpu_price = best_spot;
	m->oldest = 0;
	m->any_snapshot = false;
	m->partial = true;
	m->counted = false;
	rc = 1;
done:
	answer_done(&a);
	return rc;
}

int
model_load_first(struct model *m, size_t first, struct err *err)
{
	int rc;

	rank_spot(m);
	if ((rc = model_first_sql(m, first, err)) != 0)
		return rc < 0 ? -1 : 0;
	if (model_read(m, err) < 0)
		return -1;
	if (!model_first(m, first))
		model_query(m);
	return 0;
}

int
model_finish(struct model *m, struct err *err)
{
	if (!m->partial)
		return 0;
	if (!m->counted && model_read(m, err) < 0)
		return -1;
	model_query(m);
	return 0;
}

/* Filter and sort: see the equivalence argument in model.h. */
void
model_query(struct model *m)
{
	struct plan *q;
	size_t nq;

	if (m->plans == NULL) {
		m->cap = 1;
		m->plans = xreallocarray(NULL, m->cap, sizeof *m->plans);
	}
	m->partial = false;
	rank_spot(m);
	if (offer_filter_multi_node(&m->filter)) {
		query_plans(m->offers.v, m->offers.n, &m->filter, m->sort,
		    m->reverse, &q, &nq);
		/*
		 * The model takes the block whole: with --train each plan
		 * points at its job, kept after the plans in the same
		 * block (query_plans()), which a copy would leave behind.
		 */
		free(m->plans);
		m->plans = q;
		m->cap = nq > 0 ? nq : 1;
		m->nplans = nq;
		m->noffers_shown = m->nplans;
		model_stats(m);		/* of every plan, before folding */
		if (!m->all_regions)
			m->nplans = query_fold_regions(m->plans, m->nplans);
		return;
	}
	if (!m->base_valid || m->base_sort != m->sort ||
	    m->base_reverse != m->reverse ||
	    m->base_stale != m->filter.include_stale)
		base_build(m);
	if (!pre_current(m, &m->filter))
		pre_build(m);
	match_build(m);
	match_emit(m);
}

/* Find a plan by its offer's identity. */
size_t
model_find(const struct model *m, const char *provider, const char *key,
    int nodes)
{
	size_t i;

	for (i = 0; i < m->nplans; i++) {
		const struct plan *p = &m->plans[i];

		if (p->nodes == nodes && strcmp(p->offer->key, key) == 0 &&
		    strcmp(p->offer->provider, provider) == 0)
			return i;
	}
	return (size_t)-1;
}

/* Free everything. */
void
model_done(struct model *m)
{
	free(m->plans);
	free(m->base);
	free(m->rows);
	free(m->names);
	free(m->pre_row);
	free(m->match);
	free(m->leader);
	free(m->status);
	offer_list_done(&m->offers);
	offer_list_done(&m->first_offers);
	db_close(m->db);
	model_init(m);
}
