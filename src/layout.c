/* layout.c: fit table columns into a width. */
#include "config.h"
#include "layout.h"

/* Width of the shown columns at their current widths, with gaps. */
static size_t
layout_total(const struct layout_column *cols, size_t n)
{
	size_t i, total = 0, shown = 0;

	for (i = 0; i < n; i++)
		if (cols[i].shown) {
			total += cols[i].width;
			shown++;
		}
	return total + (shown > 1 ? (shown - 1) * LAYOUT_GAP : 0);
}

/* The narrowest a column may become. */
static size_t
col_floor(const struct layout_column *c)
{
	if (!c->flexible || c->min > c->want)
		return c->want;
	return c->min;
}

size_t
layout_fit(struct layout_column *cols, size_t n, size_t width)
{
	size_t i, total, excess, cut, room, worst;

	for (i = 0; i < n; i++) {
		cols[i].shown = true;
		cols[i].width = cols[i].want;
	}
	if (width == 0)
		return layout_total(cols, n);
	/* Drop the least important columns until the floors fit. */
	for (;;) {
		for (i = 0; i < n; i++)
			if (cols[i].shown)
				cols[i].width = col_floor(&cols[i]);
		if (layout_total(cols, n) <= width)
			break;
		worst = n;
		for (i = 0; i < n; i++)
			if (cols[i].shown && cols[i].priority > 0 &&
			    (worst == n ||
			    cols[i].priority >= cols[worst].priority))
				worst = i;
		/*
		 * Only kept columns left and still too wide: the one of
		 * highest last_resort goes, of equals the rightmost.
		 */
		if (worst == n) {
			for (i = 0; i < n; i++)
				if (cols[i].shown && (worst == n ||
				    cols[i].last_resort >=
				    cols[worst].last_resort))
					worst = i;
		}
		if (worst == n)
			return 0;
		/* Keep at least one column, cut to the width. */
		if (layout_total(cols, n) == cols[worst].width) {
			cols[worst].width = width;
			return width;
		}
		cols[worst].shown = false;
	}
	/* Give the flexible columns back what room there is, in order. */
	for (i = 0; i < n; i++)
		if (cols[i].shown)
			cols[i].width = cols[i].want;
	/*
	 * A name is not cut below LAYOUT_NAME_KEEP columns to make room for
	 * a less important number: while the names at that width (or their
	 * own, if narrower) do not fit, drop the fixed column of highest
	 * priority number above the most important flexible one. Past that
	 * width the flexible columns share the cut.
	 */
	for (;;) {
		int name_prio = -1;

		for (i = 0; i < n; i++) {
			if (!cols[i].shown)
				continue;
			cols[i].width = cols[i].want;
			if (!cols[i].flexible)
				continue;
			if (cols[i].want > LAYOUT_NAME_KEEP)
				cols[i].width = col_floor(&cols[i]) >
				    LAYOUT_NAME_KEEP ? col_floor(&cols[i]) :
				    LAYOUT_NAME_KEEP;
			if (name_prio < 0 || cols[i].priority < name_prio)
				name_prio = cols[i].priority;
		}
		if (layout_total(cols, n) <= width || name_prio < 0)
			break;
		worst = n;
		for (i = 0; i < n; i++)
			if (cols[i].shown && !cols[i].flexible &&
			    cols[i].priority > name_prio && (worst == n ||
			    cols[i].priority >= cols[worst].priority))
				worst = i;
		if (worst == n)
			break;
		cols[worst].shown = false;
	}
	for (i = 0; i < n; i++)
		if (cols[i].shown)
			cols[i].width = cols[i].want;
	total = layout_total(cols, n);
	if (total <= width)
		return total;
	excess = total - width;
	/* Cut the flexible columns, widest slack first, evenly. */
	while (excess > 0) {
		room = 0;
		for (i = 0; i < n; i++)
			if (cols[i].shown && cols[i].width > col_floor(&cols[i]))
				room++;
		if (room == 0)
			break;
		cut = excess / room;
		if (cut == 0)
			cut = 1;
		for (i = 0; i < n && excess > 0; i++) {
			size_t slack;

			if (!cols[i].shown || cols[i].width <= col_floor(&cols[i]))
				continue;
			slack = cols[i].width - col_floor(&cols[i]);
			if (slack > cut)
				slack = cut;
			if (slack > excess)
				slack = excess;
			cols[i].width -= slack;
			excess -= slack;
		}
	}
	return layout_total(cols, n);
}
