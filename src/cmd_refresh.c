/* cmd_refresh.c: `gpucost refresh`: fetch live prices into the cache. */
#include "config.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cache.h"
#include "cli.h"
#include "db.h"
#include "err.h"
#include "paths.h"
#include "refresh.h"
#include "settings.h"
#include "str.h"

/* Days of price history kept unless the config says otherwise. */
#define HISTORY_DAYS_DEFAULT	400

/* "12.3 MB" */
static void
human_bytes(size_t bytes, char *buf, size_t size)
{
	if (bytes >= 1000 * 1000)
		snprintf(buf, size, "%.1f MB", (double)bytes / 1e6);
	else if (bytes >= 1000)
		snprintf(buf, size, "%.0f kB", (double)bytes / 1e3);
	else
		snprintf(buf, size, "%zu B", bytes);
}

/* One live status line on a terminal: every provider's progress. */
static void
draw_progress(const struct refresh_progress *pr, size_t n)
{
	char line[512], bytes[32];
	size_t i, len = 0;

	for (i = 0; i < n && len < sizeof line; i++) {
		const char *state = "";

		switch (pr[i].state) {
		case REFRESH_RUNNING:
			human_bytes(pr[i].bytes, bytes, sizeof bytes);
			len += (size_t)snprintf(line + len, sizeof line - len,
			    "%s%s %s, %zu offers", i == 0 ? "" : " | ",
			    pr[i].provider, bytes, pr[i].offers);
			continue;
		case REFRESH_OK:
			state = "done";
			break;
		case REFRESH_FAILED:
			state = "FAILED";
			break;
		case REFRESH_SKIPPED:
			state = "skipped";
			break;
		}
		len += (size_t)snprintf(line + len, sizeof line - len, "%s%s %s",
		    i == 0 ? "" : " | ", pr[i].provider, state);
	}
	fprintf(stderr, "\r\033[K%.*s", 200, line);
	fflush(stderr);
}

/*
 * Keep the price history bounded: change points older than history_days
 * (config file) or GPUCOST_HISTORY_DAYS (default 400) go, but for each
 * offer's last one before the cut. Returns 0, or -1 after saying why.
 */
static int
prune_history(const char *path)
{
	struct settings cfg;
	const char *days_s;
	struct err err;
	struct db *db;
	char *end;
	long days = HISTORY_DAYS_DEFAULT;
	int rc;

	if (settings_load(&cfg, &err) < 0)
		cfg.n = 0;
	if ((days_s = settings_get(&cfg, "GPUCOST_HISTORY_DAYS",
	    "history_days")) != NULL) {
		days = strtol(days_s, &end, 10);
		if (*end != '\0' || days < 1 || days > 36500) {
			cli_error("history_days: expected a number of days from "
			    "1 to 36500");
			return -1;
		}
	}
	if (cache_open(path, &db, &err) < 0) {
		cli_error("%s", err.msg);
		return -1;
	}
	rc = db_prune_history(db, (int64_t)time(NULL) - days * 86400, &err);
	if (rc < 0)
		cli_error("%s", err.msg);
	db_close(db);
	return rc;
}

static int
cmd_refresh_exec(const struct cli_options *o)
{
	const struct refresh_progress *pr;
	struct refresh_options ropts;
	struct refresh *r;
	char path[4096], bytes[32];
	bool tty = !o->quiet && isatty(fileno(stderr));
	struct err err;
	size_t n, i, failed;
	int rc, sig;

	memset(&ropts, 0, sizeof ropts);
	if (paths_db(o->db, path, sizeof path, &err) < 0) {
		cli_error("%s", err.msg);
		return EXIT_DATA;
	}
	ropts.db_path = path;
	ropts.timeout = o->timeout;
	ropts.deadline = o->deadline;
	ropts.lock_wait = o->lock_wait;
	ropts.catch_signals = true;
	for (i = 0; i < o->filter.nproviders; i++)
		str_copy(ropts.providers[i], sizeof ropts.providers[i],
		    o->filter.providers[i]);
	ropts.nproviders = o->filter.nproviders;
	rc = refresh_begin(&ropts, &r, &err);
	if (rc < 0) {
		fprintf(stderr, "gpucost: refresh: %s\n", err.msg);
		return rc == REFRESH_BUSY ? EXIT_REFRESH : EXIT_DATA;
	}
	/* Even with --quiet: a key others can read is worth a cron mail. */
	if (refresh_warning(r) != NULL)
		fprintf(stderr, "gpucost: warning: %s\n", refresh_warning(r));
	while (refresh_poll(r, -1, 200) > 0) {
		if (tty) {
			n = refresh_progress(r, &pr);
			draw_progress(pr, n);
		}
	}
	if (tty)
		fputs("\r\033[K", stderr);
	n = refresh_progress(r, &pr);
	for (i = 0; i < n; i++) {
		switch (pr[i].state) {
		case REFRESH_OK:
			if (!tty)
				break;
			human_bytes(pr[i].bytes, bytes, sizeof bytes);
			fprintf(stderr, "%s: %zu offers, %zu price changes, %s "
			    "in %.1f s", pr[i].provider, pr[i].offers,
			    pr[i].history, bytes, pr[i].seconds);
			if (pr[i].unknown_gpu > 0)
				fprintf(stderr, ", %zu with a GPU not in the "
				    "catalogue", pr[i].unknown_gpu);
			if (pr[i].message[0] != '\0')
				fprintf(stderr, "; %s", pr[i].message);
			fputc('\n', stderr);
			break;
		case REFRESH_SKIPPED:
			if (!o->quiet)
				fprintf(stderr, "%s: %s\n", pr[i].provider,
				    pr[i].message);
			break;
		case REFRESH_FAILED:
			fprintf(stderr, "gpucost: %s: %s\n", pr[i].provider,
			    pr[i].message);
			break;
		case REFRESH_RUNNING:
			break;
		}
	}
	failed = refresh_failures(r);
	sig = refresh_signal(r);
	refresh_end(r);
	if (sig != 0)
		raise(sig);	/* recorded; now end as the signal asked */
	if (prune_history(path) < 0)
		return EXIT_DATA;
	return failed > 0 ? EXIT_REFRESH : EXIT_OK;
}

const struct cmd_entry cmd_refresh_entry = {
	CMD_REFRESH, "refresh", "[--provider LIST] [--timeout S] [--quiet]",
	"fetch live prices into the cache", CMD_SCOPE_REFRESH, true,
	cmd_refresh_exec
};
