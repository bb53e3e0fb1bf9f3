/*
 * health.c: a provider's health from its recent refresh outcomes
 * (health.h). Pure: no I/O.
 */
#include "config.h"
#include "health.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "str.h"

#define DAY	86400

static int
cmp_long(const void *a, const void *b)
{
	long x = *(const long *)a, y = *(const long *)b;

	return x < y ? -1 : x > y;
}

void
health_judge(const struct refresh_outcome *rows, size_t n, int64_t now,
    struct provider_health *out)
{
	long counts[HEALTH_MEDIAN_OF];
	size_t k, i, m = 0;

	memset(out, 0, sizeof *out);
	if (n == 0)
		return;
	out->state = HEALTH_OK;
	for (k = 0; k < n && !rows[k].ok; k++)
		;
	/* rows[0 .. k-1] failed, newest first; rows[k] is the success. */
	out->failures = k;
	if (k > 0)
		out->failing_since = rows[k - 1].at;
	if (k < n) {
		out->last_success = rows[k].at;
		out->offers = rows[k].offers;
		str_copy(out->endpoint, sizeof out->endpoint,
		    rows[k].endpoint);
		for (i = k + 1; i < n && m < HEALTH_MEDIAN_OF; i++)
			if (rows[i].ok)
				counts[m++] = rows[i].offers;
	}
	if (k > 0 && now - out->failing_since >= HEALTH_FAILING_DAYS * DAY) {
		out->state = HEALTH_FAILING;
		return;
	}
	/*
	 * The last attempt failed: whatever came before, not ok (shrunk
	 * says more, of the rows the cache holds).
	 */
	if (k > 0)
		out->state = HEALTH_FAILED;
	if (m < HEALTH_MEDIAN_MIN)
		return;
	qsort(counts, m, sizeof counts[0], cmp_long);
	out->median = m % 2 ? counts[m / 2] :
	    (counts[m / 2 - 1] + counts[m / 2]) / 2;
	/* "50 % fewer than the median": half of it or less. */
	if (out->median > 0 && 2 * out->offers <= out->median)
		out->state = HEALTH_SHRUNK;
}

const char *
health_name(enum health_state state)
{
	switch (state) {
	case HEALTH_OK:
		return "ok";
	case HEALTH_FAILING:
		return "failing";
	case HEALTH_SHRUNK:
		return "shrunk";
	case HEALTH_FAILED:
		return "failed";
	default:
		return NULL;
	}
}

size_t
health_describe(const struct provider_health *h, int64_t now, char *buf,
    size_t size)
{
	int len = 0;

	if (size == 0)
		return 0;
	buf[0] = '\0';
	if (h->state == HEALTH_FAILING)
		len = snprintf(buf, size, "every refresh has failed for %lld "
		    "days (%zu tr%s)%s", (long long)((now - h->failing_since) /
		    DAY), h->failures, h->failures == 1 ? "y" : "ies",
		    h->last_success > 0 ? "" : " and none ever worked");
	else if (h->state == HEALTH_FAILED && h->last_success > 0)
		len = snprintf(buf, size, "its last refresh failed (%zu "
		    "tr%s since its last success)", h->failures,
		    h->failures == 1 ? "y" : "ies");
	else if (h->state == HEALTH_FAILED)
		len = snprintf(buf, size, "no refresh has worked yet (%zu "
		    "tr%s)", h->failures, h->failures == 1 ? "y" : "ies");
	else if (h->state == HEALTH_SHRUNK)
		len = snprintf(buf, size, "its last refresh found %ld "
		    "offer%s, under half the median (%ld) of the refreshes "
		    "before", h->offers, h->offers == 1 ? "" : "s",
		    h->median);
	if (len < 0)
		return 0;
	return (size_t)len < size ? (size_t)len : size - 1;
}

void
health_endpoint(const char *url, char *buf, size_t size)
{
	const char *host = strstr(url, "://"), *end, *at;
	size_t scheme;

	if (size == 0)
		return;
	buf[0] = '\0';
	if (host == NULL)
		return;
	scheme = (size_t)(host - url) + 3;
	host += 3;
	end = host + strcspn(host, "/?#");
	/* A user name or password in the URL is not ours to record. */
	for (at = host; at < end; at++)
		if (*at == '@')
			host = at + 1;
	snprintf(buf, size, "%.*s%.*s", (int)scheme, url, (int)(end - host),
	    host);
}
