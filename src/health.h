/*
 * health.h: is a provider's source still telling the truth? From the
 * outcome of each of its recent refreshes (the cache's refresh_outcome
 * table, db.h), a provider is
 *
 *	failing	every refresh since its last success has failed, the
 *		first of them HEALTH_FAILING_DAYS or more ago: its cached
 *		rows are only as new as that success;
 *	failed	its last refresh failed (not yet for so long), or none
 *		has ever worked: never "ok" next to an error (issue 45);
 *	shrunk	its last success stored at most half the median offer
 *		count of the HEALTH_MEDIAN_OF successes before it (with
 *		HEALTH_MEDIAN_MIN of them at least): the source may have
 *		lost part of its list;
 *	ok	neither; unknown when it has no recorded refresh.
 *
 * `gpucost providers` shows the state and the endpoint of the last
 * success; an answer using a failing or shrunk provider's rows says so
 * under the table. Pure: no I/O.
 */
#ifndef GPUCOST_HEALTH_H
#define GPUCOST_HEALTH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define HEALTH_FAILING_DAYS	7
#define HEALTH_MEDIAN_OF	10
#define HEALTH_MEDIAN_MIN	3
#define HEALTH_ENDPOINT_MAX	128

/* One refresh of one provider, as the cache records it. */
struct refresh_outcome {
	int64_t	at;			/* UTC epoch seconds */
	bool	ok;
	long	offers;			/* stored by a success; 0 on failure */
	char	endpoint[HEALTH_ENDPOINT_MAX];	/* "https://host[:port]" */
};

enum health_state {
	HEALTH_UNKNOWN = 0,
	HEALTH_OK,
	HEALTH_FAILING,
	HEALTH_SHRUNK,
	HEALTH_FAILED
};

struct provider_health {
	enum health_state state;
	int64_t	last_success;		/* 0 when none is recorded */
	int64_t	failing_since;		/* first failure after it; 0 none */
	size_t	failures;		/* refreshes failed since it */
	long	offers;			/* the last success's count */
	long	median;			/* of the successes before; 0 unknown */
	/* Where the last success came from ("" none) and when. */
	char	endpoint[HEALTH_ENDPOINT_MAX];
};

/* Judge rows (newest first) at now. */
void	health_judge(const struct refresh_outcome *rows, size_t n, int64_t now,
	    struct provider_health *out);

/* "ok", "failing", "failed", "shrunk", or NULL for unknown. */
const char *health_name(enum health_state state);

/*
 * One line for people: "every refresh has failed for 9 days (14 tries)",
 * "its last refresh failed (2 tries since its last success)",
 * "no refresh has worked yet (1 try)", "its last refresh found 12
 * offers, under half the median (40) of the 10 before"; "" when there
 * is nothing to say. Returns the length.
 */
size_t	health_describe(const struct provider_health *h, int64_t now,
	    char *buf, size_t size);

/*
 * The origin of url ("https://api.linode.com"), without any user
 * name or password and without the path: what the health records.
 */
void	health_endpoint(const char *url, char *buf, size_t size);

#endif
