/* committed.c: committed prices (reservations, savings plans, CUDs). */
#include "config.h"
#include "committed.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "money.h"

static const char *const kind_names[CK_COUNT] = {
	"reservation", "savings-plan", "commitment"
};

static const char *const upfront_names[CU_COUNT] = {
	"none", "partial", "all"
};

const char *
committed_kind_name(enum committed_kind k)
{
	return (unsigned)k < CK_COUNT ? kind_names[k] : "?";
}

int
committed_kind_parse(const char *s, enum committed_kind *out)
{
	int i;

	for (i = 0; i < CK_COUNT; i++)
		if (strcmp(s, kind_names[i]) == 0) {
			*out = (enum committed_kind)i;
			return 0;
		}
	return -1;
}

const char *
committed_upfront_name(enum committed_upfront u)
{
	return (unsigned)u < CU_COUNT ? upfront_names[u] : "?";
}

int
committed_upfront_parse(const char *s, enum committed_upfront *out)
{
	int i;

	for (i = 0; i < CU_COUNT; i++)
		if (strcmp(s, upfront_names[i]) == 0) {
			*out = (enum committed_upfront)i;
			return 0;
		}
	return -1;
}

void
committed_term_name(char *buf, size_t size, int months)
{
	if (months == TERM_ANY)
		snprintf(buf, size, "any");
	else if (months > 0 && months % 12 == 0)
		snprintf(buf, size, "%dy", months / 12);
	else
		snprintf(buf, size, "%dm", months);
}

int
committed_term_parse(const char *s, int *months)
{
	char *end;
	long n;

	if (strcmp(s, "any") == 0) {
		*months = TERM_ANY;
		return 0;
	}
	if (s[0] < '1' || s[0] > '9')
		return -1;
	n = strtol(s, &end, 10);
	/* Providers sell terms of 1 and 3 years (issue 44): no 2y. */
	if (strcmp(end, "y") == 0 && (n == 1 || n == 3))
		n *= 12;
	else if (strcmp(end, "m") != 0)
		return -1;
	if (n < 1 || n > COMMITTED_MONTHS_MAX)
		return -1;
	*months = (int)n;
	return 0;
}

int64_t
committed_term_hours(int months)
{
	return (int64_t)months * COMMITTED_HOURS_PER_MONTH;
}

int64_t
committed_effective(int64_t hourly, int64_t upfront, int months)
{
	if (!money_known(hourly) || months <= 0 || hourly < 0)
		return MONEY_NONE;
	if (!money_known(upfront) || upfront <= 0)
		return hourly;
	return hourly + money_div_round(upfront, committed_term_hours(months));
}

int
committed_add(struct committed *v, uint8_t *n, enum committed_kind kind,
    int months, enum committed_upfront upfront, int64_t price_hour,
    int64_t upfront_usd)
{
	struct committed *c = NULL;
	size_t i;

	if (!money_known(price_hour) || price_hour <= 0 || months <= 0 ||
	    months > COMMITTED_MONTHS_MAX || (unsigned)kind >= CK_COUNT ||
	    (unsigned)upfront >= CU_COUNT)
		return -1;
	for (i = 0; i < *n; i++)
		if (v[i].kind == kind && v[i].months == months &&
		    v[i].upfront_kind == upfront) {
			c = &v[i];
			break;
		}
	if (c != NULL) {
		if (price_hour >= c->price_hour)
			return 0;
	} else {
		if (*n >= OFFER_COMMITTED_MAX)
			return -1;
		c = &v[(*n)++];
	}
	c->price_hour = price_hour;
	c->upfront = money_known(upfront_usd) && upfront_usd > 0 ?
	    upfront_usd : 0;
	c->months = (uint16_t)months;
	c->kind = (uint8_t)kind;
	c->upfront_kind = (uint8_t)upfront;
	return 0;
}

const struct committed *
committed_best(const struct committed *v, size_t n, int term)
{
	const struct committed *best = NULL;
	size_t i;

	if (term == TERM_NONE)
		return NULL;
	for (i = 0; i < n; i++) {
		if (term != TERM_ANY && v[i].months != term)
			continue;
		if (best == NULL || v[i].price_hour < best->price_hour ||
		    (v[i].price_hour == best->price_hour &&
		    v[i].upfront < best->upfront))
			best = &v[i];
	}
	return best;
}

static int
committed_cmp(const void *pa, const void *pb)
{
	const struct committed *a = pa, *b = pb;

	if (a->kind != b->kind)
		return a->kind < b->kind ? -1 : 1;
	if (a->months != b->months)
		return a->months < b->months ? -1 : 1;
	if (a->upfront_kind != b->upfront_kind)
		return a->upfront_kind < b->upfront_kind ? -1 : 1;
	return 0;
}

void
committed_sort(struct committed *v, size_t n)
{
	if (n > 1)
		qsort(v, n, sizeof *v, committed_cmp);
}

size_t
committed_prune(struct committed *v, uint8_t *n, int64_t on_demand)
{
	size_t i, kept = 0, dropped = 0;

	for (i = 0; i < *n; i++) {
		if (money_known(on_demand) && on_demand > 0 &&
		    v[i].price_hour < on_demand / 10) {
			dropped++;
			continue;
		}
		v[kept++] = v[i];
	}
	*n = (uint8_t)kept;
	committed_sort(v, kept);
	return dropped;
}
