/* query.c: filter offers into sorted plans. */
#include "config.h"
#include "query.h"

#include "cost.h"
#include "xalloc.h"

void
query_plans(const struct offer *offers, size_t n, const struct offer_filter *f,
    enum sort_key key, bool reverse, struct plan **out, size_t *nout)
{
	struct plan *plans;
	size_t i, k = 0;
	int nodes;

	plans = xreallocarray(NULL, n > 0 ? n : 1, sizeof *plans);
	for (i = 0; i < n; i++) {
		if (!offer_matches(f, &offers[i], &nodes))
			continue;
		cost_plan(&plans[k], &offers[i], nodes);
		if (plan_matches_price(f, &plans[k]))
			k++;
	}
	plan_sort(plans, k, key, reverse);
	*out = plans;
	*nout = k;
}
