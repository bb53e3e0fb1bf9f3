/* notes.c: the notes an offer earns: at query time, and when written. */
#include "config.h"
#include "notes.h"

#include <stdlib.h>
#include <string.h>

#include "money.h"
#include "offer.h"
#include "rentable.h"
#include "xalloc.h"

unsigned
notes_at(const struct offer *o, int64_t now)
{
	unsigned mask = o->notes;

	if (now - o->fetched_at > NOTE_STALE_SECONDS)
		mask |= NOTE_BIT(NOTE_STALE);
	if (offer_host_light(o))
		mask |= NOTE_BIT(NOTE_HOST_LIGHT);
	if (money_known(o->spot_price) && rentable_spot_stale(o->fetched_at,
	    now))
		mask |= NOTE_BIT(NOTE_SPOT_HISTORY);
	return mask;
}

/* qsort() order of offer pointers: provider, instance type, price. */
static int
cmp_group(const void *a, const void *b)
{
	const struct offer *x = *(const struct offer *const *)a;
	const struct offer *y = *(const struct offer *const *)b;
	int c;

	if ((c = strcmp(x->provider, y->provider)) != 0 ||
	    (c = strcmp(x->instance_type, y->instance_type)) != 0)
		return c;
	return (x->price > y->price) - (x->price < y->price);
}

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Distinct regions among the n offers of a group. */
static size_t
count_regions(struct offer **g, size_t n, const char **scratch)
{
	size_t i, k = 0;

	for (i = 0; i < n; i++)
		scratch[i] = g[i]->region;
	qsort(scratch, n, sizeof *scratch, cmp_str);
	for (i = 0; i < n; i++)
		if (i == 0 || strcmp(scratch[i], scratch[i - 1]) != 0)
			k++;
	return k;
}

/* Mark the outliers of one group, sorted by price, all priced. */
static void
mark_group(struct offer **g, size_t n, const char **scratch)
{
	int64_t median;
	size_t i;

	if (n < NOTE_OUTLIER_REGIONS ||
	    count_regions(g, n, scratch) < NOTE_OUTLIER_REGIONS)
		return;
	median = n % 2 == 1 ? g[n / 2]->price :
	    g[n / 2 - 1]->price / 2 + g[n / 2]->price / 2;
	for (i = 0; i < n; i++)
		/* Prices are at most 5000 USD: no overflow in x 167. */
		if (g[i]->price * 100 < median * NOTE_OUTLIER_LOW ||
		    g[i]->price * 100 > median * NOTE_OUTLIER_HIGH)
			g[i]->notes |= NOTE_BIT(NOTE_PRICE_OUTLIER);
}

void
notes_mark(struct offer *v, size_t n)
{
	struct offer **priced;
	const char **scratch;
	size_t i, k = 0, start;

	priced = xreallocarray(NULL, n > 0 ? n : 1, sizeof *priced);
	scratch = xreallocarray(NULL, n > 0 ? n : 1, sizeof *scratch);
	for (i = 0; i < n; i++) {
		v[i].notes &= ~(NOTE_BIT(NOTE_PRICE_OUTLIER) |
		    NOTE_BIT(NOTE_SPOT_NOT_CHEAPER));
		if (money_known(v[i].price) && money_known(v[i].spot_price) &&
		    v[i].spot_price >= v[i].price)
			v[i].notes |= NOTE_BIT(NOTE_SPOT_NOT_CHEAPER);
		/* A doubtful price is no evidence of what the price is. */
		if (money_known(v[i].price) && v[i].price > 0 &&
		    (v[i].notes & NOTE_BIT(NOTE_DOUBTFUL_PRICE)) == 0)
			priced[k++] = &v[i];
	}
	qsort(priced, k, sizeof *priced, cmp_group);
	for (start = 0, i = 1; i <= k; i++)
		if (i == k || strcmp(priced[start]->provider,
		    priced[i]->provider) != 0 ||
		    strcmp(priced[start]->instance_type,
		    priced[i]->instance_type) != 0) {
			mark_group(priced + start, i - start, scratch);
			start = i;
		}
	free(scratch);
	free(priced);
}
