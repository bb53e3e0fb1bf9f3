/* aws_terms.c: AWS Reserved Instance terms into committed prices. */
#include "config.h"
#include "aws_terms.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "committed.h"
#include "err.h"
#include "money.h"
#include "offer.h"
#include "str.h"
#include "xalloc.h"

#define TERM_SKU_MAX	32	/* "ZCVBWGSYUQ3MRV8R" */
#define TERM_CODE_MAX	16	/* "NKH4FZ3HCV" */

/* One price dimension of one term. */
struct term_part {
	char	 sku[TERM_SKU_MAX];
	char	 code[TERM_CODE_MAX];
	char	 type[OFFER_NAME_MAX];
	char	 region[OFFER_NAME_MAX];
	int	 months;
	enum committed_upfront upfront;
	bool	 fee;		/* the upfront fee ("Quantity"), else hourly */
	int64_t	 price;
};

struct aws_terms {
	struct term_part *v;
	size_t	 n;
	size_t	 cap;
};

struct aws_terms *
aws_terms_new(void)
{
	return xcalloc(1, sizeof(struct aws_terms));
}

void
aws_terms_free(struct aws_terms *t)
{
	if (t == NULL)
		return;
	free(t->v);
	free(t);
}

int
aws_terms_reserved(struct aws_terms *t, const struct aws_reserved_row *row,
    struct err *err)
{
	struct term_part *p;
	enum committed_upfront upfront;
	int months;
	bool fee;

	if (strcmp(row->lease, "1yr") == 0)
		months = 12;
	else if (strcmp(row->lease, "3yr") == 0)
		months = 36;
	else {
		err_set(err, "LeaseContractLength: expected 1yr or 3yr, got "
		    "\"%s\"", row->lease);
		return -1;
	}
	if (strcmp(row->purchase, "No Upfront") == 0)
		upfront = CU_NONE;
	else if (strcmp(row->purchase, "Partial Upfront") == 0)
		upfront = CU_PARTIAL;
	else if (strcmp(row->purchase, "All Upfront") == 0)
		upfront = CU_ALL;
	else {
		err_set(err, "PurchaseOption: expected No, Partial or All "
		    "Upfront, got \"%s\"", row->purchase);
		return -1;
	}
	if (strcmp(row->unit, "Hrs") == 0)
		fee = false;
	else if (strcmp(row->unit, "Quantity") == 0)
		fee = true;
	else {
		err_set(err, "Unit: expected Hrs or Quantity for a Reserved "
		    "term, got \"%s\"", row->unit);
		return -1;
	}
	if (strlen(row->sku) >= TERM_SKU_MAX ||
	    strlen(row->term_code) >= TERM_CODE_MAX || row->sku[0] == '\0' ||
	    row->term_code[0] == '\0') {
		err_set(err, "SKU or OfferTermCode: empty or too long");
		return -1;
	}
	if (t->n == t->cap) {
		t->cap = t->cap == 0 ? 256 : t->cap * 2;
		t->v = xreallocarray(t->v, t->cap, sizeof *t->v);
	}
	p = &t->v[t->n++];
	str_copy(p->sku, sizeof p->sku, row->sku);
	str_copy(p->code, sizeof p->code, row->term_code);
	str_copy(p->type, sizeof p->type, row->type);
	str_copy(p->region, sizeof p->region, row->region);
	p->months = months;
	p->upfront = upfront;
	p->fee = fee;
	p->price = row->price;
	return 0;
}

/* By offer (region, type), then term (SKU, OfferTermCode). */
static int
part_cmp(const void *pa, const void *pb)
{
	const struct term_part *a = pa, *b = pb;
	int c;

	if ((c = strcmp(a->region, b->region)) != 0 ||
	    (c = strcmp(a->type, b->type)) != 0 ||
	    (c = strcmp(a->sku, b->sku)) != 0)
		return c;
	return strcmp(a->code, b->code);
}

static bool
same_term(const struct term_part *a, const struct term_part *b)
{
	return strcmp(a->sku, b->sku) == 0 && strcmp(a->code, b->code) == 0 &&
	    strcmp(a->type, b->type) == 0 && strcmp(a->region, b->region) == 0;
}

/*
 * The effective price of the term in parts[0..n), or MONEY_NONE when
 * its dimensions do not make the purchase option it names: No Upfront
 * is an hourly fee alone, All Upfront a fee (and an hourly 0), Partial
 * both; one of each at most, and the lease and option alike in all.
 */
static int64_t
term_price(const struct term_part *parts, size_t n, int64_t *upfront)
{
	int64_t hourly = MONEY_NONE;
	size_t i;

	*upfront = MONEY_NONE;
	for (i = 0; i < n; i++) {
		if (parts[i].months != parts[0].months ||
		    parts[i].upfront != parts[0].upfront)
			return MONEY_NONE;
		if (parts[i].fee) {
			if (money_known(*upfront))
				return MONEY_NONE;
			*upfront = parts[i].price;
		} else {
			if (money_known(hourly))
				return MONEY_NONE;
			hourly = parts[i].price;
		}
	}
	switch (parts[0].upfront) {
	case CU_NONE:
		if (!money_known(hourly) || hourly == 0 ||
		    (money_known(*upfront) && *upfront != 0))
			return MONEY_NONE;
		*upfront = 0;
		break;
	case CU_PARTIAL:
		if (!money_known(hourly) || hourly == 0 ||
		    !money_known(*upfront) || *upfront == 0)
			return MONEY_NONE;
		break;
	case CU_ALL:
		if (!money_known(*upfront) || *upfront == 0 ||
		    (money_known(hourly) && hourly != 0))
			return MONEY_NONE;
		hourly = 0;
		break;
	default:
		return MONEY_NONE;
	}
	return committed_effective(hourly, *upfront, parts[0].months);
}

/* The offer with key, looked up once per run of parts of one offer. */
static struct offer *
offer_by_key(struct offer_list *offers, const char *key)
{
	size_t i;

	for (i = 0; i < offers->n; i++)
		if (strcmp(offers->v[i].key, key) == 0)
			return &offers->v[i];
	return NULL;
}

void
aws_terms_apply(struct aws_terms *t, struct offer_list *offers,
    struct aws_terms_stats *stats)
{
	char key[OFFER_KEY_MAX], last[OFFER_KEY_MAX] = "";
	struct offer *o = NULL;
	int64_t price, upfront;
	size_t i, j, k;

	memset(stats, 0, sizeof *stats);
	if (t->n > 1)
		qsort(t->v, t->n, sizeof *t->v, part_cmp);
	for (i = 0; i < t->n; i = j) {
		for (j = i + 1; j < t->n && same_term(&t->v[i], &t->v[j]); j++)
			;
		stats->terms++;
		snprintf(key, sizeof key, "%s/%s", t->v[i].type,
		    t->v[i].region);
		if (strcmp(key, last) != 0) {
			o = offer_by_key(offers, key);
			str_copy(last, sizeof last, key);
		}
		if (o == NULL) {
			stats->unmatched++;
			continue;
		}
		price = term_price(&t->v[i], j - i, &upfront);
		if (!money_known(price) || price > OFFER_PRICE_MAX ||
		    offer_add_committed(offers, o, CK_RESERVATION,
		    t->v[i].months, t->v[i].upfront, price, upfront) < 0)
			stats->incomplete++;
	}
	for (k = 0; k < offers->n; k++) {
		o = &offers->v[k];
		if (o->ncommitted == 0)
			continue;
		stats->incomplete += offer_prune_committed(offers, o);
		stats->kept += o->ncommitted;
	}
}
