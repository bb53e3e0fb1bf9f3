/*
 * layout.h: fit table columns into a terminal width.
 *
 * Used by the CLI table and the TUI alike. Each column wants the width
 * of its widest cell, can shrink to a minimum when it is flexible (long
 * names are cut with an ellipsis), and has a priority: when even the
 * minimum widths do not fit, the least important columns (highest
 * priority number, the rightmost of equals) are dropped first; a
 * priority 0 column only when nothing else is left. Pure: no I/O.
 */
#ifndef GPUCOST_LAYOUT_H
#define GPUCOST_LAYOUT_H

#include <stdbool.h>
#include <stddef.h>

#define LAYOUT_GAP	2	/* spaces between columns */
#define LAYOUT_EMPTY	100	/* added to the priority of an empty column */
#define LAYOUT_NAME_KEEP 20	/* a name is not cut below this for a number */

struct layout_column {
	/* in */
	size_t	want;		/* widest cell including the header */
	size_t	min;		/* narrowest it may be cut to (flexible) */
	int	priority;	/* 0 = never dropped; higher drops first */
	int	last_resort;	/* priority 0 left and too wide: the highest
				   goes first (equals: the rightmost) */
	bool	flexible;	/* may be cut below want */
	/* out */
	bool	shown;
	size_t	width;
};

/*
 * Choose shown columns and widths for total width `width` (0: no limit,
 * every column at its wanted width). Returns the width used.
 */
size_t	layout_fit(struct layout_column *cols, size_t n, size_t width);

#endif
