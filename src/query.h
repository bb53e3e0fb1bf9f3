/*
 * query.h: turn a list of offers into sorted plans for a filter.
 *
 * The CLI loads only the candidate offers (db_query) and the TUI loads
 * everything once, but both call query_plans() on what they have, so
 * the same filter gives the same results in both faces. Pure.
 */
#ifndef GPUCOST_QUERY_H
#define GPUCOST_QUERY_H

#include <stdbool.h>
#include <stddef.h>

#include "offer.h"

/*
 * Plans for every offer of offers[0..n) that matches f, sorted by key
 * (reverse flips it). *out points into a new array the caller frees;
 * each plan borrows its offer from `offers`.
 */
void	query_plans(const struct offer *offers, size_t n,
	    const struct offer_filter *f, enum sort_key key, bool reverse,
	    struct plan **out, size_t *nout);

#endif
