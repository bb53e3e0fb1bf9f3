/*
 * tui/chart.h: a small text chart of an offer's price history.
 *
 * The history (db_history(), oldest first) is a step function: a price
 * holds from the time it was observed until the next observation. The
 * chart samples it at one time per column, from the first observation
 * to `now`, and puts each known price on a row scaled between the
 * lowest and highest price of either series. Cells hold a character
 * per series: CHART_PRICE, CHART_SPOT, or CHART_RISE / CHART_SPOT_RISE
 * on the vertical joins where a price changes; the view colours them.
 * Pure: no I/O, no curses.
 */
#ifndef GPUCOST_TUI_CHART_H
#define GPUCOST_TUI_CHART_H

#include <stddef.h>
#include <stdint.h>

#include "db.h"

#define CHART_EMPTY	' '
#define CHART_PRICE	'*'	/* on-demand price */
#define CHART_SPOT	'o'	/* spot price */
#define CHART_RISE	'|'	/* on-demand price changing */
#define CHART_SPOT_RISE	':'	/* spot price changing */

struct chart {
	/* in */
	int	 width;		/* columns of the plot area, >= 1 */
	int	 height;	/* rows of the plot area, >= 1 */
	char	*cells;		/* width * height bytes, top row first; caller's */
	/* out */
	int64_t	 vmin, vmax;	/* micro-USD/instance-hour: bottom, top row */
	int64_t	 t0, t1;	/* UTC epoch seconds: first, last column */
	size_t	 changes;	/* history points with a known price */
};

/*
 * Plot pts[0..n) into c->cells. Returns 0, or -1 (cells all blank) when
 * no point has a known on-demand or spot price.
 */
int	chart_plot(struct chart *c, const struct price_point *pts, size_t n,
	    int64_t now);

/* Row (0 at the top) of price v in a plotted chart. */
int	chart_row(const struct chart *c, int64_t v);

/* The time column x of a plotted chart stands for. */
int64_t	chart_time(const struct chart *c, int x);

#endif
