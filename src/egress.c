/* egress.c: internet egress prices per provider (data/egress.tsv). */
#include "config.h"
#include "egress.h"

#include <fnmatch.h>
#include <math.h>
#include <string.h>

#include "money.h"

const struct egress_tier *
egress_find(const char *provider, const char *region, size_t *n)
{
	size_t i, j;

	*n = 0;
	for (i = 0; i < egress_tier_count; i = j) {
		/* A group: the lines up to the one without a bound. */
		for (j = i; j < egress_tier_count && egress_tiers[j].upto > 0;
		    j++)
			;
		j++;
		if (strcmp(egress_tiers[i].provider, provider) == 0 &&
		    fnmatch(egress_tiers[i].region, region, 0) == 0) {
			*n = j - i;
			return &egress_tiers[i];
		}
	}
	return NULL;
}

int64_t
egress_cost(const char *provider, const char *region, double gb)
{
	const struct egress_tier *t;
	double amount, from = 0, part, usd = 0;
	int64_t micro;
	size_t n, i;

	if (!(gb >= 0))
		return MONEY_NONE;
	if (!(gb > 0))
		return 0;
	if ((t = egress_find(provider, region, &n)) == NULL)
		return MONEY_NONE;
	/* gb in the table's unit: GiB are 1.073741824 GB. */
	amount = t->gib ? gb / 1.073741824 : gb;
	for (i = 0; i < n && amount > from; i++) {
		part = t[i].upto > 0 && t[i].upto < amount ? t[i].upto - from :
		    amount - from;
		if (t[i].usd < 0)
			return MONEY_NONE;
		usd += part * t[i].usd;
		if (t[i].upto <= 0)
			break;
		from = t[i].upto;
	}
	if (money_from_double(usd, &micro) < 0)
		return MONEY_NONE;
	return micro;
}
