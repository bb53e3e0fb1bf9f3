/* history.c: the price history of an offer over a period. */
#include "config.h"
#include "history.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cost.h"
#include "err.h"
#include "money.h"
#include "str.h"
#include "summary.h"
#include "xalloc.h"

void
history_summarise(const struct price_point *pts, size_t n, int gpu_count,
    int64_t since, const int64_t *times, size_t ntimes,
    struct history_stats *out)
{
	struct price_stats st;
	int64_t *v;
	size_t i, k, nv = 0;

	memset(out, 0, sizeof *out);
	/* The period starts with the price in effect at since. */
	for (i = 0; i < n && pts[i].at <= since; i++)
		;
	out->first = i > 0 ? i - 1 : 0;
	out->npoints = n - out->first;
	v = xcalloc(n > 0 ? n : 1, sizeof *v);
	for (i = out->first; i < n; i++)
		if (money_known(pts[i].price))
			v[nv++] = cost_per_gpu_hour(pts[i].price, gpu_count);
	price_stats_of(v, nv, &st);
	out->min = st.min;
	out->median = st.median;
	out->max = st.max;
	free(v);
	/*
	 * Availability at each refresh: the last change point at or before
	 * it; refreshes that knew nothing of it do not count.
	 */
	k = 0;
	for (i = 0; i < ntimes; i++) {
		if (times[i] < since)
			continue;
		while (k < n && pts[k].at <= times[i])
			k++;
		if (k == 0 || pts[k - 1].availability == AV_UNKNOWN)
			continue;	/* not listed yet, or nothing known */
		out->refreshes++;
		if (pts[k - 1].availability == AV_AVAILABLE)
			out->available++;
	}
}

size_t
history_sparkline(const struct price_point *pts, size_t n, size_t width,
    char *buf, size_t size)
{
	static const char *const bars[] = {
		"\xe2\x96\x81", "\xe2\x96\x82", "\xe2\x96\x83", "\xe2\x96\x84",
		"\xe2\x96\x85", "\xe2\x96\x86", "\xe2\x96\x87", "\xe2\x96\x88"
	};
	int64_t lo = 0, hi = 0, span;
	size_t i, len = 0, cells, start;
	bool any = false;

	if (size == 0)
		return 0;
	buf[0] = '\0';
	for (i = 0; i < n; i++) {
		if (!money_known(pts[i].price))
			continue;
		if (!any || pts[i].price < lo)
			lo = pts[i].price;
		if (!any || pts[i].price > hi)
			hi = pts[i].price;
		any = true;
	}
	if (!any || width == 0)
		return 0;
	/*
	 * The scale is at least a tenth of the highest price: a move of
	 * $0.0005 on $2.00 stays a flat line instead of a full jump.
	 */
	span = hi - lo;
	if (span < hi / 10)
		span = hi / 10;
	/* The last width points: the recent past matters most. */
	cells = n < width ? n : width;
	start = n - cells;
	for (i = start; i < n && len + 4 <= size; i++) {
		int level = 0;

		if (!money_known(pts[i].price))
			continue;
		if (span > 0)
			level = (int)((pts[i].price - lo) * 7 / span);
		len += str_copy(buf + len, size - len, bars[level]);
	}
	return len;
}

int
history_parse_duration(const char *s, int64_t *out, struct err *err)
{
	char *end, q[80];
	long long v;
	int64_t unit = 1;

	errno = 0;
	v = strtoll(s, &end, 10);
	if (s[0] >= '0' && s[0] <= '9' && errno == 0 && v > 0) {
		switch (*end) {
		case 'w':
			unit = 7 * 86400;
			end++;
			break;
		case 'd':
			unit = 86400;
			end++;
			break;
		case 'h':
			unit = 3600;
			end++;
			break;
		case 'm':
			unit = 60;
			end++;
			break;
		case 's':
			end++;
			break;
		}
		if (*end == '\0' && v <= 100LL * 365 * 86400 / unit) {
			*out = (int64_t)v * unit;
			return 0;
		}
	}
	err_set(err, "--since: expected a duration such as 30d, 12h, 2w or "
	    "90m, got %s", str_quoted(s, q, sizeof q));
	return -1;
}
