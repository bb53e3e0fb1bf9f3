/*
 * tui/fields.h: what the filter panel adds to the filter fields.
 *
 * The panel's rows are filter.h's fields, parsed by filter_set() like
 * the CLI options. This module adds the panel's own ways of changing
 * them -- stepping a value with the arrow keys -- and counts the offers
 * per GPU model and per provider that the rest of the filter leaves (the
 * numbers shown in the pick lists). Pure: no I/O, no curses.
 */
#ifndef GPUCOST_TUI_FIELDS_H
#define GPUCOST_TUI_FIELDS_H

#include <stdbool.h>
#include <stddef.h>

#include "filter.h"
#include "offer.h"

/*
 * Arrow keys: toggle a boolean, step a choice (any, nvlink, pcie), a
 * count (any, 1, 2, 4, 8, 16), a VRAM floor or a price ceiling by dir
 * (-1 or +1). Returns false for fields that do not step (text, lists).
 */
bool	field_step(struct offer_filter *f, enum filter_field ff, int dir);

/* A value in a pick list and how many offers it would show. */
struct facet {
	const char	*name;		/* GPU id or provider id; static */
	size_t		 count;		/* offers matching with it */
	bool		 selected;	/* in the filter now */
};

/*
 * GPU models of offers[0..n) that match f when its GPU field is ignored,
 * with counts, A-Z; models selected in f are listed even at 0. Fills at
 * most max and returns how many.
 */
size_t	facet_gpus(const struct offer *offers, size_t n,
	    const struct offer_filter *f, struct facet *out, size_t max);

/*
 * Every provider (registry order) with the number of offers of it that
 * match f when its provider field is ignored.
 */
size_t	facet_providers(const struct offer *offers, size_t n,
	    const struct offer_filter *f, struct facet *out, size_t max);

/* Put the GPU models / providers named by facets marked selected into f. */
void	facet_apply_gpus(struct offer_filter *f, const struct facet *v,
	    size_t n);
void	facet_apply_providers(struct offer_filter *f, const struct facet *v,
	    size_t n);

#endif
