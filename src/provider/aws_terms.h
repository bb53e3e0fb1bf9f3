/*
 * aws_terms.h: AWS committed prices, gathered while aws.c streams the
 * price lists and put on its offers at the end of the refresh.
 *
 * Reserved Instances come from the same regional CSV as on-demand
 * prices: rows with TermType "Reserved", one per price dimension of a
 * term (SKU + OfferTermCode): "Hrs" the hourly fee, "Quantity" (the
 * "Upfront Fee") the one-time fee. A term's effective hourly price is
 * hourly + upfront / (years x 8,760) (committed_effective()), kept per
 * offer for each lease (1yr, 3yr) and purchase option (No, Partial,
 * All Upfront); of the standard and convertible classes the cheaper
 * stands (standard, in every list seen).
 *
 * Pure, as an adapter is: aws.c decodes the CSV fields, this file only
 * adds up terms.
 */
#ifndef GPUCOST_AWS_TERMS_H
#define GPUCOST_AWS_TERMS_H

#include <stddef.h>
#include <stdint.h>

struct err;
struct offer_list;

/* One price dimension of a Reserved term, as the CSV row says it. */
struct aws_reserved_row {
	const char	*sku;		/* SKU */
	const char	*term_code;	/* OfferTermCode */
	const char	*type;		/* Instance Type */
	const char	*region;	/* Region Code */
	const char	*lease;		/* LeaseContractLength: "1yr", "3yr" */
	const char	*purchase;	/* PurchaseOption: "No Upfront" ... */
	const char	*unit;		/* Unit: "Hrs" or "Quantity" */
	int64_t		 price;		/* PricePerUnit, micro-USD */
};

/* What became of the terms, for the summary note. */
struct aws_terms_stats {
	size_t	terms;		/* terms read (SKU + OfferTermCode) */
	size_t	kept;		/* committed prices put on offers */
	size_t	incomplete;	/* terms whose dimensions do not add up */
	size_t	unmatched;	/* terms of a type/region with no offer */
};

struct aws_terms;

struct aws_terms *aws_terms_new(void);
void	aws_terms_free(struct aws_terms *t);	/* NULL is fine */

/*
 * Take one Reserved row. -1 with err (naming the field) for a lease,
 * purchase option or unit this file does not know: a changed price
 * list must not pass as a smaller discount.
 */
int	aws_terms_reserved(struct aws_terms *t, const struct aws_reserved_row *row,
	    struct err *err);

/*
 * Put the committed prices on the offers they belong to (key
 * "<type>/<region>"); an offer's on-demand price prunes implausible
 * ones (committed_prune()).
 */
void	aws_terms_apply(struct aws_terms *t, struct offer_list *offers,
	    struct aws_terms_stats *stats);

#endif
