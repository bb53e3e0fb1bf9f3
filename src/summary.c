/* summary.c: plans grouped into market summaries. */
#include "config.h"
#include "summary.h"

#include <stdio.h>
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

/* The value of key for an offer of this GPU, provider and region. */
static const char *
key_value_of(const char *gpu, const char *provider, const char *region,
    enum group_key key)
{
	switch (key) {
	case GROUP_GPU:
		return gpu[0] != '\0' ? gpu : "unknown";
	case GROUP_PROVIDER:
		return provider;
	case GROUP_REGION:
		return region;
	case GROUP_CONTINENT: {
		const char *country, *continent;

		/* A price of every region is in every continent: "all". */
		if (region_is_any(region))
			return "all";
		region_locate(provider, region, &country, &continent);
		return continent[0] != '\0' ? continent : "unknown";
	}
	case GROUP_KEY_COUNT:
		break;
	}
	return "";
}

/* The value of key for plan p ("unknown" for an unknown GPU). */
static const char *
key_value(const struct plan *p, enum group_key key)
{
	return key_value_of(p->offer->gpu, p->offer->provider,
	    p->offer->region, key);
}

static int
cmp_money(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * The median of n > 0 values from its middle ones, hi at rank n / 2 and
 * lo at n / 2 - 1 (read for an even n only): the mean of the two,
 * rounded down. The three ways to the statistics share it.
 */
static int64_t
median_of_middle(size_t n, int64_t lo, int64_t hi)
{
	return n % 2 == 1 ? hi : lo + (hi - lo) / 2;
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
	st->median = median_of_middle(n, v[n > 1 ? n / 2 - 1 : 0], v[n / 2]);
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

/*
 * The summary from rows (summary_acc_*): the same groups, counts and
 * statistics as summary_build(), from one pass over what the cache's
 * index holds of each offer; the cheapest of a group is picked among the
 * offers tied at its lowest ranked price, whose plans the caller makes
 * in the query's order.
 */

/*
 * A ranked accumulator's statistics of one kind of price of a group:
 * its count from the rows, then its values walked in ascending order
 * (summary_acc_rank()), of which only the middle ones are kept.
 */
struct rank_track {
	size_t	 n, seen;		/* known values; walked so far */
	int64_t	 min, max, lo, hi;	/* hi: the value at rank n / 2; lo:
					   at n / 2 - 1 */
};

struct acc_group {
	struct summary_group group;
	const char *atom;		/* its first offer's atom (the
					   atoms table's name) */
	int64_t	*prices, *spots;	/* known values (not ranked) */
	size_t	 np, capp, ns, caps;
	struct rank_track rank[2];	/* ranked: on demand, spot */
	bool	 best_known;		/* a ranked price is known */
	int64_t	 best;			/* the lowest, when known */
	struct summary_cand *cands;		/* tied at best (every offer while
					   none is known) */
	size_t	 nc, capc;
	size_t	*parts;			/* regrouped: its groups of src, whose
					   values it holds (not copied) */
	size_t	 nparts, capparts;
};

/* A string-keyed open-addressing table of group indexes. */
struct acc_slot {
	char	*name;			/* owned; NULL: empty */
	size_t	 group;
};

struct summary_acc {
	const struct summary_acc *src;	/* regrouped from (borrowed) */
	struct group_by	 by;
	bool		 spot_rank;
	bool		 least;		/* keep of the candidates only the
					   first in (provider, key) order */
	struct acc_group *groups;
	size_t		 ngroups, capg;
	struct acc_slot	*atoms;		/* "gpu\x1fprovider\x1fregion" */
	struct acc_slot	*names;		/* the group's values, joined */
	size_t		 natoms, nnames, cap;	/* cap: slots of each */
	bool		 ranked;	/* values walked later, not kept */
	size_t		*of_src;	/* regrouped: the group of each of
					   src's groups */
};

static uint64_t
acc_hash(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	for (; *s != '\0'; s++) {
		h ^= (unsigned char)*s;
		h *= 0x100000001b3ULL;
	}
	return h;
}

/* The slot of name in t (cap a power of two): its own or the empty one. */
static struct acc_slot *
acc_slot(struct acc_slot *t, size_t cap, const char *name)
{
	size_t i = (size_t)acc_hash(name) & (cap - 1);

	while (t[i].name != NULL && strcmp(t[i].name, name) != 0)
		i = (i + 1) & (cap - 1);
	return &t[i];
}

/* Double both tables (kept at most half full). */
static void
acc_grow(struct summary_acc *a)
{
	struct acc_slot *old[2] = { a->atoms, a->names }, **t[2] =
	    { &a->atoms, &a->names };
	size_t oldcap = a->cap, i, j;

	a->cap = a->cap * 2;
	for (j = 0; j < 2; j++) {
		*t[j] = xcalloc(a->cap, sizeof **t[j]);
		for (i = 0; i < oldcap; i++)
			if (old[j][i].name != NULL)
				*acc_slot(*t[j], a->cap, old[j][i].name) =
				    old[j][i];
		free(old[j]);
	}
}

struct summary_acc *
summary_acc_new(const struct group_by *g, bool spot_rank)
{
	struct summary_acc *a = xcalloc(1, sizeof *a);

	a->by = *g;
	a->spot_rank = spot_rank;
	a->cap = 64;
	a->atoms = xcalloc(a->cap, sizeof *a->atoms);
	a->names = xcalloc(a->cap, sizeof *a->names);
	return a;
}

/*
 * "gpu\x1fprovider\x1fregion" into buf (3 * OFFER_NAME_MAX + 4 bytes),
 * each truncated as an offer's would be: once per offer read, so by
 * hand (a formatted print was a sixth of --group-by's time).
 */
static void
atom_make(char *buf, const char *gpu, const char *provider,
    const char *region)
{
	const char *v[3] = { gpu, provider, region };
	size_t i, len, at = 0;

	for (i = 0; i < 3; i++) {
		len = strlen(v[i]);
		if (len > OFFER_NAME_MAX)
			len = OFFER_NAME_MAX;
		memcpy(buf + at, v[i], len);
		at += len;
		buf[at++] = i < 2 ? '\x1f' : '\0';
	}
}

/* The group of an offer of gpu, provider and region, made if new. */
static size_t
acc_group_of(struct summary_acc *a, const char *gpu, const char *provider,
    const char *region)
{
	char atom[3 * OFFER_NAME_MAX + 4], name[GROUP_KEY_COUNT *
	    (OFFER_NAME_MAX + 1) + 1];
	const char *v[GROUP_KEY_COUNT], *first;
	struct acc_slot *s;
	struct acc_group *grp;
	size_t k, len = 0;

	atom_make(atom, gpu, provider, region);
	if ((s = acc_slot(a->atoms, a->cap, atom))->name != NULL)
		return s->group;
	name[0] = '\0';
	for (k = 0; k < a->by.nkeys; k++) {
		v[k] = key_value_of(gpu, provider, region, a->by.keys[k]);
		/* As summary_build() compares them: truncated to a value. */
		len += (size_t)snprintf(name + len, sizeof name - len,
		    "%.*s\x1f", OFFER_NAME_MAX - 1, v[k]);
		if (len >= sizeof name)
			len = sizeof name - 1;
	}
	s->name = xstrdup(atom);
	a->natoms++;
	first = s->name;
	s = acc_slot(a->names, a->cap, name);
	if (s->name == NULL) {
		if (a->ngroups == a->capg) {
			a->capg = a->capg == 0 ? 16 : a->capg * 2;
			a->groups = xreallocarray(a->groups, a->capg,
			    sizeof *a->groups);
		}
		grp = &a->groups[a->ngroups];
		memset(grp, 0, sizeof *grp);
		grp->atom = first;
		for (k = 0; k < a->by.nkeys; k++)
			str_copy(grp->group.values[k], OFFER_NAME_MAX, v[k]);
		s->name = xstrdup(name);
		s->group = a->ngroups++;
		a->nnames++;
	}
	k = s->group;
	acc_slot(a->atoms, a->cap, atom)->group = k;
	if (2 * (a->natoms > a->nnames ? a->natoms : a->nnames) >= a->cap)
		acc_grow(a);
	return k;
}

static void	rank_stats(const struct rank_track *, struct price_stats *);

static void
acc_push(int64_t **v, size_t *n, size_t *cap, int64_t x)
{
	if (*n == *cap) {
		*cap = *cap == 0 ? 64 : *cap * 2;
		*v = xreallocarray(*v, *cap, sizeof **v);
	}
	(*v)[(*n)++] = x;
}

static void
acc_cands_clear(struct acc_group *grp)
{
	size_t i;

	for (i = 0; i < grp->nc; i++) {
		free(grp->cands[i].provider);
		free(grp->cands[i].key);
	}
	grp->nc = 0;
}

static void
acc_cand_push(const struct summary_acc *a, struct acc_group *grp,
    const char *provider, const char *key)
{
	int c;

	if (a->least && grp->nc == 1) {
		if ((c = strcmp(provider, grp->cands[0].provider)) > 0 ||
		    (c == 0 && strcmp(key, grp->cands[0].key) >= 0))
			return;
		acc_cands_clear(grp);
	}
	if (grp->nc == grp->capc) {
		grp->capc = grp->capc == 0 ? 4 : grp->capc * 2;
		grp->cands = xreallocarray(grp->cands, grp->capc,
		    sizeof *grp->cands);
	}
	grp->cands[grp->nc].provider = xstrdup(provider);
	grp->cands[grp->nc].key = xstrdup(key);
	grp->nc++;
}

void
summary_acc_add(struct summary_acc *a, const char *gpu, const char *provider,
    const char *region, const char *key, int64_t price_gpu_hour,
    int64_t spot_gpu_hour)
{
	size_t g = acc_group_of(a, gpu, provider, region);	/* may move */
	struct acc_group *grp = &a->groups[g];
	int64_t r = a->spot_rank ? spot_gpu_hour : price_gpu_hour;

	grp->group.offers++;
	if (a->ranked) {
		grp->rank[0].n += money_known(price_gpu_hour);
		grp->rank[1].n += money_known(spot_gpu_hour);
	} else {
		if (money_known(price_gpu_hour))
			acc_push(&grp->prices, &grp->np, &grp->capp,
			    price_gpu_hour);
		if (money_known(spot_gpu_hour))
			acc_push(&grp->spots, &grp->ns, &grp->caps,
			    spot_gpu_hour);
	}
	/* summary_build(): the first of the lowest, else the first. */
	if (money_known(r) && (!grp->best_known || r < grp->best)) {
		acc_cands_clear(grp);
		grp->best_known = true;
		grp->best = r;
	} else if (money_known(r) ? r != grp->best : grp->best_known)
		return;
	acc_cand_push(a, grp, provider, key);
}

size_t
summary_acc_candidates(const struct summary_acc *a, const char ***providers,
    const char ***keys)
{
	size_t n = 0, i, j;

	for (i = 0; i < a->ngroups; i++)
		n += a->groups[i].nc;
	*providers = xreallocarray(NULL, n > 0 ? n : 1, sizeof **providers);
	*keys = xreallocarray(NULL, n > 0 ? n : 1, sizeof **keys);
	for (i = n = 0; i < a->ngroups; i++)
		for (j = 0; j < a->groups[i].nc; j++) {
			(*providers)[n] = a->groups[i].cands[j].provider;
			(*keys)[n++] = a->groups[i].cands[j].key;
		}
	return n;
}

/*
 * The k-th smallest of v[0..n) into v[k], every value before it no
 * larger (Hoare's selection): price_stats_of()'s figures without its
 * sort, in linear time.
 */
static void
select_kth(int64_t *v, size_t n, size_t k)
{
	ptrdiff_t lo = 0, hi = (ptrdiff_t)n - 1, i, j, kk = (ptrdiff_t)k;
	int64_t pivot, a, b, c, t;

	while (lo < hi) {
		a = v[lo];
		b = v[lo + (hi - lo) / 2];
		c = v[hi];
		pivot = a < b ? (b < c ? b : a < c ? c : a) :
		    (a < c ? a : b < c ? c : b);
		i = lo;
		j = hi;
		while (i <= j) {
			while (v[i] < pivot)
				i++;
			while (v[j] > pivot)
				j--;
			if (i <= j) {
				t = v[i];
				v[i] = v[j];
				v[j] = t;
				i++;
				j--;
			}
		}
		if (kk <= j)
			hi = j;
		else if (kk >= i)
			lo = i;
		else
			return;
	}
}

/* price_stats_of()'s figures of v[0..n) (reordered), without a sort. */
static void
price_stats_select(int64_t *v, size_t n, struct price_stats *st)
{
	int64_t lo;
	size_t i;

	st->n = n;
	if (n == 0) {
		st->min = st->median = st->max = MONEY_NONE;
		return;
	}
	st->min = st->max = v[0];
	for (i = 1; i < n; i++) {
		if (v[i] < st->min)
			st->min = v[i];
		if (v[i] > st->max)
			st->max = v[i];
	}
	select_kth(v, n, n / 2);
	/* An even count's lower middle: the largest before v[n / 2]. */
	lo = v[0];
	for (i = 1; n % 2 == 0 && i < n / 2; i++)
		if (v[i] > lo)
			lo = v[i];
	st->median = median_of_middle(n, lo, v[n / 2]);
}

int
summary_acc_finish(struct summary_acc *a, const struct plan *plans, size_t n,
    struct summary_group **out, size_t *nout)
{
	struct summary_group *groups;
	struct acc_group *grp;
	const struct offer *o;
	size_t i, missing = a->ngroups;
	char atom[3 * OFFER_NAME_MAX + 4];
	struct acc_slot *s;
	int64_t r;

	/* In the query's order: the first plan tied at its group's best. */
	for (i = 0; i < n && missing > 0; i++) {
		o = plans[i].offer;
		atom_make(atom, o->gpu, o->provider, o->region);
		if ((s = acc_slot(a->atoms, a->cap, atom))->name == NULL)
			continue;
		grp = &a->groups[s->group];
		r = rank_price(&plans[i], a->spot_rank);
		if (grp->group.cheapest != NULL || money_known(r) !=
		    grp->best_known || (grp->best_known && r != grp->best))
			continue;
		grp->group.cheapest = &plans[i];
		missing--;
	}
	if (missing > 0)
		return -1;	/* the rows read and the plans disagree */
	groups = xcalloc(a->ngroups > 0 ? a->ngroups : 1, sizeof *groups);
	for (i = 0; i < a->ngroups; i++) {
		grp = &a->groups[i];
		price_stats_select(grp->prices, grp->np, &grp->group.price);
		price_stats_select(grp->spots, grp->ns, &grp->group.spot);
		price_stats_of(NULL, 0, &grp->group.term);
		grp->group.rank_min = a->spot_rank ? grp->group.spot.min :
		    grp->group.price.min;
		groups[i] = grp->group;
	}
	qsort(groups, a->ngroups, sizeof *groups, cmp_group);
	*out = groups;
	*nout = a->ngroups;
	return 0;
}

void
summary_acc_free(struct summary_acc *a)
{
	size_t i;

	if (a == NULL)
		return;
	for (i = 0; i < a->ngroups; i++) {
		acc_cands_clear(&a->groups[i]);
		free(a->groups[i].cands);
		free(a->groups[i].prices);
		free(a->groups[i].spots);
		free(a->groups[i].parts);
	}
	for (i = 0; i < a->cap; i++) {
		free(a->atoms[i].name);
		free(a->names[i].name);
	}
	free(a->atoms);
	free(a->names);
	free(a->groups);
	free(a->of_src);
	free(a);
}

struct summary_acc *
summary_acc_regroup(const struct summary_acc *src, const struct group_by *g)
{
	struct summary_acc *a = summary_acc_new(g, src->spot_rank);
	const struct acc_group *s;
	struct acc_group *d;
	char atom[3 * OFFER_NAME_MAX + 4], *provider, *region;
	size_t i, j;

	a->src = src;
	a->least = src->least;
	a->ranked = src->ranked;
	if (a->ranked)
		a->of_src = xcalloc(src->ngroups > 0 ? src->ngroups : 1,
		    sizeof *a->of_src);

	for (i = 0; i < src->ngroups; i++) {
		s = &src->groups[i];
		/* "gpu\x1fprovider\x1fregion", as atom_make() wrote it. */
		str_copy(atom, sizeof atom, s->atom);
		if ((provider = strchr(atom, '\x1f')) == NULL ||
		    (region = strchr(provider + 1, '\x1f')) == NULL)
			continue;	/* never: atom_make() wrote two */
		*provider++ = '\0';
		*region++ = '\0';
		j = acc_group_of(a, atom, provider, region);	/* may move */
		d = &a->groups[j];
		d->group.offers += s->group.offers;
		if (a->ranked) {
			a->of_src[i] = j;
			d->rank[0].n += s->rank[0].n;
			d->rank[1].n += s->rank[1].n;
		}
		/* Its values stay src's (at a million offers, a copy of
		 * them all was most of a write's memory). */
		if (d->nparts == d->capparts) {
			d->capparts = d->capparts == 0 ? 4 : d->capparts * 2;
			d->parts = xreallocarray(d->parts, d->capparts,
			    sizeof *d->parts);
		}
		d->parts[d->nparts++] = i;
		/*
		 * summary_acc_add()'s candidates of the union: those tied at
		 * the lowest known ranked price, or every offer while none
		 * is known.
		 */
		if (s->best_known && (!d->best_known || s->best < d->best)) {
			acc_cands_clear(d);
			d->best_known = true;
			d->best = s->best;
		} else if (s->best_known ? s->best != d->best : d->best_known)
			continue;
		for (j = 0; j < s->nc; j++)
			acc_cand_push(a, d, s->cands[j].provider,
			    s->cands[j].key);
	}
	return a;
}

int
summary_acc_each(struct summary_acc *a, summary_each_fn *fn, void *ctx)
{
	struct acc_group *grp;
	const struct acc_group *s;
	char gpu[OFFER_NAME_MAX + 1];
	int64_t *v = NULL;
	size_t i, j, len, n, cap = 0, kind;
	int rc = 0;

	for (i = 0; i < a->ngroups && rc == 0; i++) {
		grp = &a->groups[i];
		/* summary_acc_finish()'s statistics. */
		if (a->ranked) {
			rank_stats(&grp->rank[0], &grp->group.price);
			rank_stats(&grp->rank[1], &grp->group.spot);
		} else if (a->src == NULL) {
			price_stats_select(grp->prices, grp->np,
			    &grp->group.price);
			price_stats_select(grp->spots, grp->ns,
			    &grp->group.spot);
		}
		/* Regrouped: its parts' values gathered, one group at a
		 * time, into one buffer (selection reorders it). */
		for (kind = 0; a->src != NULL && !a->ranked && kind < 2;
		    kind++) {
			for (j = n = 0; j < grp->nparts; j++) {
				s = &a->src->groups[grp->parts[j]];
				n += kind == 0 ? s->np : s->ns;
			}
			if (n > cap) {
				cap = n;
				free(v);
				v = xreallocarray(NULL, cap, sizeof *v);
			}
			for (j = n = 0; j < grp->nparts; j++) {
				s = &a->src->groups[grp->parts[j]];
				if (kind == 0 && s->np > 0)
					memcpy(v + n, s->prices,
					    s->np * sizeof *v);
				if (kind == 1 && s->ns > 0)
					memcpy(v + n, s->spots,
					    s->ns * sizeof *v);
				n += kind == 0 ? s->np : s->ns;
			}
			price_stats_select(v, n, kind == 0 ?
			    &grp->group.price : &grp->group.spot);
		}
		price_stats_of(NULL, 0, &grp->group.term);
		grp->group.rank_min = a->spot_rank ? grp->group.spot.min :
		    grp->group.price.min;
		grp->group.cheapest = NULL;
		len = strcspn(grp->atom, "\x1f");
		if (len >= sizeof gpu)
			len = sizeof gpu - 1;
		memcpy(gpu, grp->atom, len);
		gpu[len] = '\0';
		if (fn(&grp->group, gpu, grp->cands, grp->nc, ctx) < 0)
			rc = -1;
	}
	free(v);
	return rc;
}

void
summary_acc_ranked(struct summary_acc *a)
{
	a->ranked = true;
}

/* The next value of t's kind in ascending order. */
static void
rank_track_add(struct rank_track *t, int64_t v)
{
	if (t->seen == 0)
		t->min = v;
	t->max = v;
	if (t->n % 2 == 0 && t->seen + 1 == t->n / 2)
		t->lo = v;
	if (t->seen == t->n / 2)
		t->hi = v;
	t->seen++;
}

/* price_stats_select()'s figures, from what the walk kept. */
static void
rank_stats(const struct rank_track *t, struct price_stats *st)
{
	st->n = t->n;
	if (t->n == 0) {
		st->min = st->median = st->max = MONEY_NONE;
		return;
	}
	st->min = t->min;
	st->max = t->max;
	st->median = median_of_middle(t->n, t->lo, t->hi);
}

size_t
summary_acc_rank(struct summary_acc *a, int kind, const char *gpu,
    const char *provider, const char *region, int64_t v)
{
	char atom[3 * OFFER_NAME_MAX + 4];
	struct acc_slot *s;

	atom_make(atom, gpu, provider, region);
	if ((s = acc_slot(a->atoms, a->cap, atom))->name == NULL)
		return SIZE_MAX;
	rank_track_add(&a->groups[s->group].rank[kind], v);
	return s->group;
}

void
summary_acc_rank_group(struct summary_acc *a, int kind, size_t src_group,
    int64_t v)
{
	rank_track_add(&a->groups[a->of_src[src_group]].rank[kind], v);
}

int
summary_acc_ranked_check(const struct summary_acc *a)
{
	size_t i;

	for (i = 0; i < a->ngroups; i++)
		if (a->groups[i].rank[0].seen != a->groups[i].rank[0].n ||
		    a->groups[i].rank[1].seen != a->groups[i].rank[1].n)
			return -1;
	return 0;
}

void
summary_sort(struct summary_group *groups, size_t n)
{
	if (n > 1)
		qsort(groups, n, sizeof *groups, cmp_group);
}

/* A candidate of a stored group, sorted by (provider, key). */
struct cand_ref {
	const char	*provider, *key;
	size_t		 group;
};

static int
cmp_cand_ref(const void *a, const void *b)
{
	const struct cand_ref *x = a, *y = b;
	int c = strcmp(x->provider, y->provider);

	return c != 0 ? c : strcmp(x->key, y->key);
}

int
summary_stored_finish(struct summary_group *groups, size_t n,
    const char *const *providers, const char *const *keys,
    const size_t *group_of, size_t ncands, const struct plan *plans,
    size_t nplans)
{
	struct cand_ref *refs, want, *hit;
	struct summary_group *grp;
	size_t i, missing = n;
	int64_t r;

	refs = xreallocarray(NULL, ncands > 0 ? ncands : 1, sizeof *refs);
	for (i = 0; i < ncands; i++) {
		refs[i].provider = providers[i];
		refs[i].key = keys[i];
		refs[i].group = group_of[i];
	}
	qsort(refs, ncands, sizeof *refs, cmp_cand_ref);
	for (i = 0; i < n; i++)
		groups[i].cheapest = NULL;
	/* In the query's order: the first plan tied at its group's best. */
	for (i = 0; i < nplans && missing > 0; i++) {
		want.provider = plans[i].offer->provider;
		want.key = plans[i].offer->key;
		if ((hit = bsearch(&want, refs, ncands, sizeof *refs,
		    cmp_cand_ref)) == NULL || hit->group >= n)
			continue;
		grp = &groups[hit->group];
		r = rank_price(&plans[i], false);
		if (grp->cheapest != NULL || money_known(r) !=
		    money_known(grp->rank_min) || (money_known(r) &&
		    r != grp->rank_min))
			continue;
		grp->cheapest = &plans[i];
		missing--;
	}
	free(refs);
	return missing > 0 ? -1 : 0;
}

void
summary_acc_least(struct summary_acc *a)
{
	a->least = true;
}
