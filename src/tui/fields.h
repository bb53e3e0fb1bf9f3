/*
 * tui/fields.h: the filter panel's fields over struct offer_filter.
 *
 * The panel edits the same struct offer_filter the CLI options fill, one
 * field per option, with the CLI's validation (so a value the panel
 * accepts is one `gpucost --option value` accepts). This module gives a
 * field's value as text, parses typed text into it, steps it with the
 * arrow keys, describes a whole filter in one line for the header, and
 * counts the offers per GPU model and per provider that the rest of the
 * filter leaves (the numbers shown in the pick lists). Pure: no I/O, no
 * curses.
 */
#ifndef GPUCOST_TUI_FIELDS_H
#define GPUCOST_TUI_FIELDS_H

#include <stdbool.h>
#include <stddef.h>

#include "offer.h"

struct err;

enum field_kind {
	FK_PICK,	/* chosen from a list (GPU models, providers) */
	FK_NUMBER,	/* typed, or stepped with the arrow keys */
	FK_TEXT,	/* typed */
	FK_CHOICE,	/* stepped through a few values */
	FK_BOOL		/* toggled */
};

/* id, label, kind, the CLI option that sets the same thing */
#define FILTER_FIELD_INFO(X)						\
	X(FF_GPU,	"GPU model",	FK_PICK,	"--gpu")	\
	X(FF_COUNT,	"GPU count",	FK_NUMBER,	"--count")	\
	X(FF_MULTI_NODE, "Multi-node",	FK_BOOL,	"--multi-node")	\
	X(FF_VRAM,	"Min VRAM/GPU",	FK_NUMBER,	"--min-vram")	\
	X(FF_LINK,	"Interconnect",	FK_CHOICE,	"--interconnect") \
	X(FF_PROVIDERS,	"Providers",	FK_PICK,	"--provider")	\
	X(FF_REGION,	"Region",	FK_TEXT,	"--region")	\
	X(FF_MAX_PRICE,	"Max $/GPU-h",	FK_NUMBER,	"--max-price")	\
	X(FF_SPOT,	"Spot only",	FK_BOOL,	"--spot")	\
	X(FF_AVAILABLE,	"Available only", FK_BOOL,	"--available")	\
	X(FF_TEXT,	"Text search",	FK_TEXT,	"/")

enum filter_field {
#define X(id, label, kind, opt) id,
	FILTER_FIELD_INFO(X)
#undef X
	FILTER_FIELD_COUNT
};

struct field_info {
	const char	*label;
	enum field_kind	 kind;
	const char	*option;
};

extern const struct field_info field_info[FILTER_FIELD_COUNT];

/* The field's value for people ("any" when unset). Returns the length. */
size_t	field_value(const struct offer_filter *f, enum filter_field ff,
	    char *buf, size_t size);

/* Is the field set (not "any")? */
bool	field_is_set(const struct offer_filter *f, enum filter_field ff);

/* Set the field to "any". */
void	field_clear(struct offer_filter *f, enum filter_field ff);

/*
 * The field's value as it would be typed (the prompt's starting text):
 * "" when unset, "4", "2.5", "aws,gcp".
 */
size_t	field_edit_text(const struct offer_filter *f, enum filter_field ff,
	    char *buf, size_t size);

/*
 * Set the field from typed text with the CLI's rules; "" or "any" sets
 * it to any. Returns 0, or -1 with a message in err and f unchanged.
 */
int	field_parse(struct offer_filter *f, enum filter_field ff,
	    const char *text, struct err *err);

/*
 * Arrow keys: toggle a boolean, step a choice (any, nvlink, pcie), a
 * count (any, 1, 2, 4, 8, 16), a VRAM floor or a price ceiling by dir
 * (-1 or +1). Returns false for fields that do not step (text, lists).
 */
bool	field_step(struct offer_filter *f, enum filter_field ff, int dir);

/*
 * The whole filter in one line, CLI words: "gpu=H100 count=8 link=nvlink
 * text=\"us\"". "" when nothing is set. Returns the length.
 */
size_t	filter_describe(const struct offer_filter *f, char *buf, size_t size);

/* Clear every field. */
void	filter_clear_all(struct offer_filter *f);

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
