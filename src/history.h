/*
 * history.h: how an offer's price moved: the change points of a period
 * (the price in effect when it starts, then every change), the minimum,
 * median and maximum per GPU-hour over them, the share of the
 * provider's refreshes in which the offer was available, and a text
 * sparkline. The CLI's `history` command and the TUI's detail chart read
 * the same points (db_history()). Pure: no I/O.
 */
#ifndef GPUCOST_HISTORY_H
#define GPUCOST_HISTORY_H

#include <stddef.h>
#include <stdint.h>

#include "db.h"

struct err;

struct history_stats {
	size_t	first;		/* index of the first point of the period */
	size_t	npoints;	/* points of the period, from first */
	int64_t	min, median, max;	/* on demand per GPU-hour; NONE */
	size_t	refreshes;	/* refreshes in the period that knew its
				   availability */
	size_t	available;	/* of them, when the offer was available */
};

/*
 * Summarise pts[0..n) (oldest first, as db_history() gives them) over
 * the period from since on, for an offer of gpu_count GPUs; refresh
 * times[0..ntimes) are the provider's observations in the period.
 */
void	history_summarise(const struct price_point *pts, size_t n,
	    int gpu_count, int64_t since, const int64_t *times, size_t ntimes,
	    struct history_stats *out);

/*
 * A sparkline of the on-demand price of pts[first..first+n) in at most
 * width cells (UTF-8 block characters); "" when there is no price.
 * Returns the length in bytes.
 */
size_t	history_sparkline(const struct price_point *pts, size_t n,
	    size_t width, char *buf, size_t size);

/*
 * A duration ("30d", "12h", "2w", "90m", or seconds) in seconds. Returns
 * 0, or -1 with "--since: ..." in err.
 */
int	history_parse_duration(const char *s, int64_t *out, struct err *err);

#endif
