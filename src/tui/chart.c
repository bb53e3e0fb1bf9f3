/* tui/chart.c: scale a price history into a grid of characters. */
#include "config.h"
#include "tui/chart.h"

#include <string.h>

#include "money.h"

/* Row of value v: the top row is vmax, the bottom vmin; flat in the middle. */
int
chart_row(const struct chart *c, int64_t v)
{
	double span = (double)c->vmax - (double)c->vmin;
	double frac;
	int row;

	if (c->height <= 1)
		return 0;
	if (span <= 0)
		return (c->height - 1) / 2;
	frac = ((double)v - (double)c->vmin) / span;
	row = (c->height - 1) - (int)(frac * (c->height - 1) + 0.5);
	if (row < 0)
		row = 0;
	if (row > c->height - 1)
		row = c->height - 1;
	return row;
}

/* Time of column x. */
int64_t
chart_time(const struct chart *c, int x)
{
	if (c->width <= 1 || c->t1 <= c->t0)
		return c->t1;
	return c->t0 + (int64_t)((double)(c->t1 - c->t0) * x /
	    (c->width - 1) + 0.5);
}

/* Price of one series at time t: the last observation at or before t. */
static int64_t
value_at(const struct price_point *pts, size_t n, int64_t t, int spot)
{
	int64_t v = MONEY_NONE;
	size_t i;

	for (i = 0; i < n && pts[i].at <= t; i++)
		v = spot ? pts[i].spot_price : pts[i].price;
	return v;
}

/* Put ch at (x, row) unless a stronger mark is there. */
static void
put(struct chart *c, int x, int row, char ch)
{
	char *cell = &c->cells[(size_t)row * (size_t)c->width + (size_t)x];

	/* On-demand marks win over spot marks, points over joins. */
	if (*cell == CHART_PRICE)
		return;
	if (*cell == CHART_SPOT && ch != CHART_PRICE)
		return;
	if (*cell == CHART_RISE && ch == CHART_SPOT_RISE)
		return;
	*cell = ch;
}

/* Draw one series, joining changes with a vertical run. */
static void
plot_series(struct chart *c, const struct price_point *pts, size_t n,
    int spot)
{
	char mark = spot ? CHART_SPOT : CHART_PRICE;
	char join = spot ? CHART_SPOT_RISE : CHART_RISE;
	int x, row, prev = -1, r;
	int64_t v;

	for (x = 0; x < c->width; x++) {
		v = value_at(pts, n, chart_time(c, x), spot);
		if (!money_known(v)) {
			prev = -1;
			continue;
		}
		row = chart_row(c, v);
		if (prev >= 0 && prev != row)
			for (r = prev < row ? prev + 1 : row + 1;
			    r < (prev < row ? row : prev); r++)
				put(c, x, r, join);
		put(c, x, row, mark);
		prev = row;
	}
}

/* Scale and draw both series. */
int
chart_plot(struct chart *c, const struct price_point *pts, size_t n,
    int64_t now)
{
	size_t i;
	int have = 0;

	memset(c->cells, CHART_EMPTY, (size_t)c->width * (size_t)c->height);
	c->changes = 0;
	c->vmin = c->vmax = 0;
	c->t0 = c->t1 = now;
	for (i = 0; i < n; i++) {
		const int64_t v[2] = { pts[i].price, pts[i].spot_price };
		int k, known = 0;

		for (k = 0; k < 2; k++) {
			if (!money_known(v[k]))
				continue;
			known = 1;
			if (!have || v[k] < c->vmin)
				c->vmin = v[k];
			if (!have || v[k] > c->vmax)
				c->vmax = v[k];
			have = 1;
		}
		c->changes += (size_t)known;
	}
	if (!have)
		return -1;
	c->t0 = pts[0].at;
	c->t1 = pts[n - 1].at > now ? pts[n - 1].at : now;
	plot_series(c, pts, n, 1);
	plot_series(c, pts, n, 0);
	return 0;
}
