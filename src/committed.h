/*
 * committed.h: committed prices of an offer -- reservations, savings
 * plans and committed-use discounts -- beside its on-demand and spot
 * prices. Pure: no I/O, no globals.
 *
 * Every entry carries its effective price per instance-hour: what one
 * hour costs when the whole term is paid for and used, the upfront fee
 * spread over the term's hours,
 *
 *	price_hour = hourly fee + upfront / (months x 730)
 *
 * (730 hours a month, so 8,760 a year: AWS's and Azure's convention),
 * and the upfront fee itself. A term is paid whatever is used: a job
 * of H hours on a 1-year term costs price_hour x 8,760, not x H.
 */
#ifndef GPUCOST_COMMITTED_H
#define GPUCOST_COMMITTED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * Entries one offer keeps: AWS has 6 reservation terms (1y/3y x no,
 * partial, all upfront), Azure 2 reservations and 2 savings plans, GCP 2
 * commitments. AWS Savings Plans (6 more) would need 12. An offer holds
 * a pointer to its entries (24 bytes each), allocated only when it has
 * some: the marketplaces' offers have none.
 */
#define OFFER_COMMITTED_MAX	8
#define COMMITTED_HOURS_PER_MONTH 730
#define COMMITTED_MONTHS_MAX	60	/* the longest term accepted */

enum committed_kind {
	CK_RESERVATION = 0,	/* an instance reserved for the term */
	CK_SAVINGS_PLAN,	/* a spend per hour committed for the term */
	CK_COMMITMENT,		/* GCP committed use (resource-based) */
	CK_COUNT
};

enum committed_upfront {
	CU_NONE = 0,		/* billed hourly over the term */
	CU_PARTIAL,		/* part paid at the start, the rest hourly */
	CU_ALL,			/* the whole term paid at the start */
	CU_COUNT
};

/* One committed price of an offer (24 bytes). */
struct committed {
	int64_t	price_hour;	/* effective micro-USD per instance-hour */
	int64_t	upfront;	/* micro-USD paid at the start; 0 none */
	uint16_t months;	/* the term: 12, 36, 1, 3, 6 ... */
	uint8_t	kind;		/* enum committed_kind */
	uint8_t	upfront_kind;	/* enum committed_upfront */
};

/* What --term asks for: a term in months, or any. */
#define TERM_NONE	0	/* no --term: on-demand */
#define TERM_ANY	(-1)	/* the best of every term */

const char *committed_kind_name(enum committed_kind k);	/* "reservation" */
int	committed_kind_parse(const char *s, enum committed_kind *out);
const char *committed_upfront_name(enum committed_upfront u);	/* "partial" */
int	committed_upfront_parse(const char *s, enum committed_upfront *out);

/* "1y", "3y", "6m", "1m": years when whole, else months. */
void	committed_term_name(char *buf, size_t size, int months);
/*
 * Parse a --term value: "1y", "3y", "6m", "12m", "any" (TERM_ANY) into
 * *months. -1 for anything else: years other than 1 and 3 (no provider
 * sells a 2-year term) or months beyond COMMITTED_MONTHS_MAX.
 */
int	committed_term_parse(const char *s, int *months);

/* Hours a term of months is billed for: months x 730. */
int64_t	committed_term_hours(int months);

/*
 * The effective price per hour of a term: hourly + upfront / hours of
 * the term, rounded to the micro-USD. MONEY_NONE when hourly is unknown
 * or months is not positive.
 */
int64_t	committed_effective(int64_t hourly, int64_t upfront, int months);

/*
 * Add an entry to the array v of *n (capacity OFFER_COMMITTED_MAX): an
 * entry of the same kind, term and upfront is replaced when the new
 * price is lower (AWS standard and convertible, two regions' rows).
 * -1 when the price is not positive or the array is full.
 */
int	committed_add(struct committed *v, uint8_t *n, enum committed_kind kind,
	    int months, enum committed_upfront upfront, int64_t price_hour,
	    int64_t upfront_usd);

/*
 * The lowest effective price among v[0..n) for term (months, or
 * TERM_ANY), or NULL when none has that term.
 */
const struct committed *committed_best(const struct committed *v, size_t n,
	    int term);

/*
 * Drop from v[0..*n) every entry whose effective price is below a tenth
 * of the on-demand price per instance-hour (when that is known): such a
 * price is a misread term (a whole term's price divided by the wrong
 * hours), never a discount anyone sells. Then sort what is left
 * (committed_sort()). Returns the number dropped.
 */
size_t	committed_prune(struct committed *v, uint8_t *n, int64_t on_demand);

/* Sort v[0..n) by kind, term, upfront: a stable order for output. */
void	committed_sort(struct committed *v, size_t n);

#endif
