/* summary.c: plans grouped into market summaries. */
#include "config.h"
#include "summary.h"

#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "money.h"
#include "region.h"
#include "str.h"
#include "xalloc.h"

static const char *const group_key_names[] = {
#define X(id, word) word,
	GROUP_KEY_INFO(X)
#undef X
};

const char *
group_key_name(enum group_key key)
{
	return (unsigned)key < GROUP_KEY_COUNT ? group_key_names[key] : "?";
}

int
group_by_parse(const char *s, struct group_by *g, struct err *err)
{
	struct group_by out = { .nkeys = 0 };
	char item[32], q[80];
	size_t len, i, k;

	for (;;) {
		s += strspn(s, " ");
		len = strcspn(s, ", ");
		if (len == 0 || len >= sizeof item)
			goto bad;
		memcpy(item, s, len);
		item[len] = '\0';
		for (k = 0; k < GROUP_KEY_COUNT; k++)
			if (str_eq_nocase(item, group_key_names[k]))
				break;
		if (k == GROUP_KEY_COUNT)
			goto bad;
		for (i = 0; i < out.nkeys; i++)
			if (out.keys[i] == (enum group_key)k)
				break;
		if (i == out.nkeys)
			out.keys[out.nkeys++] = (enum group_key)k;
		s += len;
		s += strspn(s, " ");
		if (*s == '\0')
			break;
		if (*s != ',' || *(s + 1 + strspn(s + 1, " ")) == '\0')
			goto bad;
		s++;
	}
	*g = out;
	return 0;
bad:
	err_set(err, "--group-by: expected a comma list of gpu, provider, "
	    "region and continent, got %s", str_quoted(s, q, sizeof q));
	return -1;
}

/* The value of key for plan p ("" for an unknown GPU). */
static const char *
key_value(const struct plan *p, enum group_key key)
{
	switch (key) {
	case GROUP_GPU:
		return p->offer->gpu[0] != '\0' ? p->offer->gpu : "unknown";
	case GROUP_PROVIDER:
		return p->offer->provider;
	case GROUP_REGION:
		return p->offer->region;
	case GROUP_CONTINENT: {
		const char *country, *continent;

		region_locate(p->offer->provider, p->offer->region, &country,
		    &continent);
		return continent[0] != '\0' ? continent : "unknown";
	}
	case GROUP_KEY_COUNT:
		break;
	}
	return "";
}

static int
cmp_money(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * Stats of the n known values of v (sorted in place). The median of an
 * even count is the mean of the middle two, rounded down.
 */
void
price_stats_of(int64_t *v, size_t n, struct price_stats *st)
{
	st->n = n;
	if (n == 0) {
		st->min = st->median = st->max = MONEY_NONE;
		return;
	}
	qsort(v, n, sizeof *v, cmp_money);
	st->min = v[0];
	st->max = v[n - 1];
	st->median = n % 2 == 1 ? v[n / 2] : v[n / 2 - 1] +
	    (v[n / 2] - v[n / 2 - 1]) / 2;
}

/* One group being built: its plans' indexes. */
struct building {
	struct summary_group group;
	size_t	*members;
	size_t	 nmembers, cap;
};

/* The price a group ranks by: spot, the term's or on demand per GPU-hour. */
static int64_t
rank_price(const struct plan *p, bool spot)
{
	if (!spot && p->term != NULL)
		return p->term_gpu_hour;
	return spot ? p->spot_gpu_hour : p->price_gpu_hour;
}

/* Order for the result: lowest ranked minimum first, unknown last. */
static int
cmp_group(const void *a, const void *b)
{
	const struct summary_group *x = a, *y = b;
	bool kx = money_known(x->rank_min), ky = money_known(y->rank_min);
	size_t k;
	int c;

	if (kx && ky && x->rank_min != y->rank_min)
		return x->rank_min < y->rank_min ? -1 : 1;
	if (kx != ky)
		return kx ? -1 : 1;
	for (k = 0; k < GROUP_KEY_COUNT; k++)
		if ((c = strcmp(x->values[k], y->values[k])) != 0)
			return c;
	return 0;
}

void
summary_build(const struct plan *plans, size_t n, const struct group_by *g,
    bool spot_rank, struct summary_group **out, size_t *nout)
{
	struct building *b = NULL;
	struct summary_group *groups;
	int64_t *prices, *spots, *terms;
	size_t nb = 0, capb = 0, i, j, k, np, ns, nt;
	/* A --term query: every plan has a term price (plan_matches_price). */
	bool term_rank = !spot_rank && n > 0 && plans[0].term != NULL;

	for (i = 0; i < n; i++) {
		for (j = 0; j < nb; j++) {
			for (k = 0; k < g->nkeys; k++)
				if (strcmp(b[j].group.values[k],
				    key_value(&plans[i], g->keys[k])) != 0)
					break;
			if (k == g->nkeys)
				break;
		}
		if (j == nb) {
			if (nb == capb) {
				capb = capb == 0 ? 16 : capb * 2;
				b = xreallocarray(b, capb, sizeof *b);
			}
			memset(&b[nb], 0, sizeof b[nb]);
			for (k = 0; k < g->nkeys; k++)
				str_copy(b[nb].group.values[k], OFFER_NAME_MAX,
				    key_value(&plans[i], g->keys[k]));
			nb++;
		}
		if (b[j].nmembers == b[j].cap) {
			b[j].cap = b[j].cap == 0 ? 8 : b[j].cap * 2;
			b[j].members = xreallocarray(b[j].members, b[j].cap,
			    sizeof *b[j].members);
		}
		b[j].members[b[j].nmembers++] = i;
	}
	groups = xcalloc(nb > 0 ? nb : 1, sizeof *groups);
	prices = xcalloc(n > 0 ? n : 1, sizeof *prices);
	spots = xcalloc(n > 0 ? n : 1, sizeof *spots);
	terms = xcalloc(n > 0 ? n : 1, sizeof *terms);
	for (j = 0; j < nb; j++) {
		const struct plan *best = NULL;

		groups[j] = b[j].group;
		groups[j].offers = b[j].nmembers;
		np = ns = nt = 0;
		for (i = 0; i < b[j].nmembers; i++) {
			const struct plan *p = &plans[b[j].members[i]];
			int64_t r = rank_price(p, spot_rank);

			if (money_known(p->price_gpu_hour))
				prices[np++] = p->price_gpu_hour;
			if (money_known(p->spot_gpu_hour))
				spots[ns++] = p->spot_gpu_hour;
			if (money_known(p->term_gpu_hour))
				terms[nt++] = p->term_gpu_hour;
			if (money_known(r) && (best == NULL ||
			    r < rank_price(best, spot_rank)))
				best = p;
		}
		price_stats_of(prices, np, &groups[j].price);
		price_stats_of(spots, ns, &groups[j].spot);
		price_stats_of(terms, nt, &groups[j].term);
		groups[j].rank_min = spot_rank ? groups[j].spot.min :
		    term_rank ? groups[j].term.min : groups[j].price.min;
		groups[j].cheapest = best != NULL ? best :
		    &plans[b[j].members[0]];
		free(b[j].members);
	}
	free(prices);
	free(spots);
	free(terms);
	free(b);
	qsort(groups, nb, sizeof *groups, cmp_group);
	*out = groups;
	*nout = nb;
}
