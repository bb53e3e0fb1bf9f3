/*
 * egress.h: what moving data out of a provider to the internet costs
 * (--egress). The table is data/egress.tsv (each line with its source),
 * compiled in by tools/gen-egress-table.sh: per provider and region
 * glob, a group of tiers, each pricing the part of a month's transfer
 * up to its own bound (the free allowance is a tier at 0), the last one
 * without a bound. A provider with no line, or a tier without a price
 * (Vast: per host; Azure past 500 TB), is unknown, never guessed. Pure.
 */
#ifndef GPUCOST_EGRESS_H
#define GPUCOST_EGRESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* One line of data/egress.tsv. */
struct egress_tier {
	const char	*provider;
	const char	*region;	/* fnmatch(3) glob on the region */
	bool		 gib;		/* the unit: GiB (2^30 bytes), else GB */
	double		 upto;		/* bound in the unit; 0: none (the last) */
	double		 usd;		/* per unit; < 0 not published */
	const char	*source;
	const char	*note;		/* "" when none */
};

extern const struct egress_tier egress_tiers[];
extern const size_t egress_tier_count;

/*
 * The tiers of provider's egress from region: the first of the group
 * that applies and, in *n, how many it has; NULL (and 0) when unknown.
 */
const struct egress_tier *egress_find(const char *provider,
	    const char *region, size_t *n);

/*
 * What moving gb (10^9 bytes, >= 0) out from region costs, one month's
 * tiers: micro-USD; 0 for nothing moved; MONEY_NONE when unknown.
 */
int64_t	egress_cost(const char *provider, const char *region, double gb);

#endif
