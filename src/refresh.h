/*
 * refresh.h: fetch live offers from providers into the cache.
 *
 * One refresh runs every selected provider's adapter through one
 * concurrent HTTP batch and writes each provider's result to the cache
 * in its own transaction as soon as that provider finishes: on success
 * its offers are replaced (changed prices appended to the history), or,
 * when every request answered 304 to the validators of the last good
 * answer, kept and confirmed at this check ("unchanged (304)"); on any
 * failure nothing of that provider changes and its status records the
 * error. A lock file next to the cache keeps two refreshes from
 * running at once; readers are never blocked (WAL).
 *
 *	refresh_begin(&opts, &r, err)	lock, read keys/config, start adapters
 *	while (refresh_poll(r, fd, ms) > 0)	(the CLI loops; the TUI polls
 *		refresh_progress(r, ...)	 from its event loop)
 *	refresh_end(r)			unlock, free
 *
 * The CLI's `gpucost refresh` and the TUI's R key both use this.
 */
#ifndef GPUCOST_REFRESH_H
#define GPUCOST_REFRESH_H

#include <stdbool.h>
#include <stddef.h>

#include "offer.h"

struct err;

enum refresh_state {
	REFRESH_RUNNING = 0,
	REFRESH_OK,		/* offers replaced, or confirmed unchanged */
	REFRESH_FAILED,		/* kept the old offers; message says why */
	REFRESH_SKIPPED		/* no API key; message names the variable */
};

/* Where one provider is. */
struct refresh_progress {
	const char	*provider;	/* id, static */
	enum refresh_state state;
	size_t		 bytes;		/* received so far */
	size_t		 offers;	/* parsed (final count when OK) */
	size_t		 skipped;	/* records skipped on purpose */
	size_t		 unknown_gpu;	/* offers with an unknown GPU */
	size_t		 history;	/* price changes recorded */
	double		 seconds;	/* elapsed */
	char		 message[384];	/* error, skip hint or adapter note */
	/*
	 * Skipped because the provider publishes no price feed (provider.h
	 * no_feed): its built-in list prices stand; message says which.
	 */
	bool		 listed;
};

struct refresh_options {
	const char	*db_path;	/* the cache */
	char		 providers[FILTER_PROVIDERS_MAX][OFFER_PROVIDER_MAX]; /* none: all */
	size_t		 nproviders;
	long		 timeout;	/* seconds per transfer; 0: default */
	long		 deadline;	/* seconds per provider; 0: default */
	long		 lock_wait;	/* seconds to wait for another refresh */
	bool		 catch_signals;	/* SIGINT/SIGTERM/SIGHUP end it */
};

/*
 * The most one provider's refresh may take, every request and retry
 * included, unless --deadline says otherwise (or --timeout asks for a
 * longer single transfer): a server that drips bytes cannot hold a cron
 * run for the 30 minutes its retries would otherwise allow.
 */
#define REFRESH_DEADLINE_DEFAULT	900

struct refresh;

#define REFRESH_BUSY	(-2)	/* refresh_begin: another refresh holds the lock */

/*
 * Take the refresh lock (waiting up to opts->lock_wait seconds), open the
 * cache and start every selected provider. Returns 0; REFRESH_BUSY when
 * another refresh kept the lock; or -1 with err set (cache unusable, bad
 * configuration file).
 */
int	refresh_begin(const struct refresh_options *opts, struct refresh **out,
	    struct err *err);

/*
 * Make progress for at most timeout_ms (waking early when extra_fd, if
 * >= 0, is readable); write finished providers to the cache. Returns the
 * number of providers still running.
 */
int	refresh_poll(struct refresh *r, int extra_fd, int timeout_ms);

/* Per-provider progress, in provider order; valid until the next poll. */
size_t	refresh_progress(struct refresh *r,
	    const struct refresh_progress **out);

/*
 * A warning for the user from refresh_begin(), one line, or NULL: the
 * configuration file holds API keys and other users may read it.
 */
const char *refresh_warning(const struct refresh *r);

/*
 * Stop every provider still running, recording "interrupted by WHY after
 * N s" as its failure; the cached offers stay.
 */
void	refresh_interrupt(struct refresh *r, const char *why);

/*
 * With opts->catch_signals, SIGINT, SIGTERM or SIGHUP during
 * refresh_poll() fail the running providers as "interrupted by SIGTERM
 * ...", recorded in their status, and the poll then returns 0. This
 * gives the signal that did it, or 0. refresh_end() puts the previous
 * handlers back; the caller may then re-raise the signal.
 */
int	refresh_signal(const struct refresh *r);

/* Providers that ended REFRESH_FAILED. */
size_t	refresh_failures(const struct refresh *r);

/* Release the lock and free everything (NULL is fine). */
void	refresh_end(struct refresh *r);

#endif
