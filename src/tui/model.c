/* tui/model.c: load the cache once, filter and sort it per change. */
#include "config.h"
#include "tui/model.h"

#include <stdlib.h>
#include <string.h>

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

/* Read every offer and the provider status. */
int
model_load(struct model *m, struct err *err)
{
	struct offer_list offers;
	struct offer_filter all;
	struct provider_status *status = NULL;
	size_t nstatus = 0, expected = 0, i;

	offer_list_init(&offers);
	offer_filter_init(&all);
	if (db_status(m->db, &status, &nstatus, err) < 0)
		return -1;
	/* Every offer is read: room for all of them at once. */
	for (i = 0; i < nstatus; i++)
		expected += status[i].offer_count > 0 ?
		    (size_t)status[i].offer_count : 0;
	/* A count is a hint, never a reason to reserve gigabytes. */
	offer_list_reserve(&offers, expected < MODEL_RESERVE_MAX ? expected :
	    MODEL_RESERVE_MAX);
	if (db_query(m->db, &all, &offers, err) < 0) {
		offer_list_done(&offers);
		free(status);
		return -1;
	}
	offer_list_done(&m->offers);
	free(m->status);
	m->offers = offers;
	m->status = status;
	m->nstatus = nstatus;
	m->generation++;
	/* Plans point into the old list: rebuild everything. */
	free(m->base);
	m->base = NULL;
	m->nbase = 0;
	m->base_valid = false;
	free(m->plans);
	m->last_valid = false;
	m->cap = m->offers.n > 0 ? m->offers.n : 1;
	m->plans = xreallocarray(NULL, m->cap, sizeof *m->plans);
	xalloc_large_hint(m->plans, m->cap * sizeof *m->plans);
	m->nplans = 0;
	model_query(m);
	return 0;
}

/* Lowest prices and oldest data among the shown plans. */
static void
model_stats(struct model *m)
{
	size_t i;

	m->best_gpu_price = m->best_spot_gpu_price = MONEY_NONE;
	m->oldest = 0;
	m->any_snapshot = false;
	for (i = 0; i < m->nplans; i++) {
		const struct plan *p = &m->plans[i];

		if (money_known(p->price_gpu_hour) &&
		    (!money_known(m->best_gpu_price) ||
		    p->price_gpu_hour < m->best_gpu_price))
			m->best_gpu_price = p->price_gpu_hour;
		if (money_known(p->spot_gpu_hour) &&
		    (!money_known(m->best_spot_gpu_price) ||
		    p->spot_gpu_hour < m->best_spot_gpu_price))
			m->best_spot_gpu_price = p->spot_gpu_hour;
		if (m->oldest == 0 || p->offer->fetched_at < m->oldest)
			m->oldest = p->offer->fetched_at;
		if (p->offer->source == SRC_SNAPSHOT)
			m->any_snapshot = true;
	}
}

/*
 * Is filter f the last one with more text typed? Then its plans are a
 * subset of the current ones: every word of the old text is a prefix
 * of a word of the new text, or the new text has more words.
 */
static bool
model_narrows(const struct model *m, const struct offer_filter *f)
{
	struct offer_filter a = m->last, b = *f;
	size_t len = strlen(m->last.text);

	if (!m->last_valid || strncmp(f->text, m->last.text, len) != 0)
		return false;
	memset(a.text, 0, sizeof a.text);
	memset(b.text, 0, sizeof b.text);
	/* A byte-wise difference (padding included) just means "no". */
	return memcmp(&a, &b, sizeof a) == 0;
}

/* Fold regions unless asked not to, then the statistics. */
static void
model_fold(struct model *m)
{
	m->noffers_shown = m->nplans;
	if (!m->all_regions) {
		m->nplans = query_fold_regions(m->plans, m->nplans);
		/* Folded plans are not a superset to narrow from. */
		m->last_valid = false;
	}
	model_stats(m);
}

/* Filter and sort: see the equivalence argument in model.h. */
void
model_query(struct model *m)
{
	struct offer_filter all;
	const struct plan *from;
	struct plan *q;
	size_t i, k = 0, nq, nfrom;
	int nodes;

	if (m->plans == NULL) {
		m->cap = 1;
		m->plans = xreallocarray(NULL, m->cap, sizeof *m->plans);
	}
	/* The spot filter ranks by spot, as --spot does. */
	if (m->filter.spot != m->spot_ranked) {
		if (m->filter.spot && m->sort == SORT_GPU_PRICE)
			m->sort = SORT_SPOT_GPU;
		else if (!m->filter.spot && m->sort == SORT_SPOT_GPU)
			m->sort = SORT_GPU_PRICE;
		m->spot_ranked = m->filter.spot;
	}
	if (m->filter.multi_node && m->filter.count > 0) {
		m->last_valid = false;
		query_plans(m->offers.v, m->offers.n, &m->filter, m->sort,
		    m->reverse, &q, &nq);
		if (nq > m->cap) {
			m->cap = nq;
			m->plans = xreallocarray(m->plans, m->cap,
			    sizeof *m->plans);
		}
		memcpy(m->plans, q, nq * sizeof *q);
		m->nplans = nq;
		free(q);
		model_fold(m);
		return;
	}
	if (!m->base_valid || m->base_sort != m->sort ||
	    m->base_reverse != m->reverse) {
		offer_filter_init(&all);
		free(m->base);
		query_plans(m->offers.v, m->offers.n, &all, m->sort, m->reverse,
		    &m->base, &m->nbase);
		m->base_valid = true;
		m->base_sort = m->sort;
		m->base_reverse = m->reverse;
		m->last_valid = false;
		if (m->nbase > m->cap) {
			m->cap = m->nbase;
			m->plans = xreallocarray(m->plans, m->cap,
			    sizeof *m->plans);
		}
	}
	/* Cut the sorted list, or (typing on) the current result in place. */
	from = m->base;
	nfrom = m->nbase;
	if (model_narrows(m, &m->filter)) {
		from = m->plans;
		nfrom = m->nplans;
	}
	for (i = 0; i < nfrom; i++) {
		struct plan p = from[i];

		/* The base is of no term: the term's price is the filter's. */
		if (m->filter.term != TERM_NONE)
			cost_plan_term(&p, m->filter.term);
		if (offer_matches(&m->filter, p.offer, &nodes) && nodes == 1 &&
		    plan_matches_price(&m->filter, &p))
			m->plans[k++] = p;
	}
	/* The base was sorted without term prices: rank by them now. */
	if (m->filter.term != TERM_NONE)
		plan_sort(m->plans, k, m->sort, m->reverse);
	m->nplans = k;
	m->last = m->filter;
	m->last_valid = true;
	model_fold(m);
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
	free(m->status);
	offer_list_done(&m->offers);
	db_close(m->db);
	model_init(m);
}
