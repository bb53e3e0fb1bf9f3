/*
 * cli_refresh.h: running a refresh for a person or a script: the one
 * live progress line on a terminal, then one line per provider. Shared
 * by `gpucost refresh` and a query's --max-age.
 */
#ifndef GPUCOST_CLI_REFRESH_H
#define GPUCOST_CLI_REFRESH_H

#include <stdbool.h>
#include <stddef.h>

#include "refresh.h"

/* How a refresh run ended, for the caller's exit status or footer. */
struct cli_refresh_result {
	size_t	failed;		/* providers that failed */
	int	signal;		/* the signal that interrupted it, or 0 */
	bool	busy;		/* another refresh held the lock */
	/* The first failure in one line ("vast: HTTP 500"), or "". */
	char	first_error[512];
};

/*
 * Run a refresh with ropts to its end. progress: draw the live line on
 * stderr (a terminal); report_ok: a line per provider that worked;
 * quiet: no skip lines. Failures are always printed. Returns 0, or -1
 * when the refresh could not start (err set; res->busy if the lock was
 * held).
 */
struct err;
int	cli_refresh_run(const struct refresh_options *ropts, bool progress,
	    bool report_ok, bool quiet, struct cli_refresh_result *res,
	    struct err *err);

/*
 * The progress line of n providers fitted to width columns (0: 80): how
 * many are done ("3/9 done, 1 failed"), then each one still running with
 * its bytes and offers so far, cut with '~' rather than wrapped.
 */
size_t	cli_refresh_progress_line(const struct refresh_progress *pr,
	    size_t n, size_t width, char *buf, size_t size);

#endif
