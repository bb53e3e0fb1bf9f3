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
#include "cli_refresh.h"
#include "db.h"
#include "err.h"
#include "paths.h"
#include "pull.h"
#include "refresh.h"
#include "settings.h"
#include "sign.h"
#include "str.h"
#include "xalloc.h"

/* Days of price history kept unless the config says otherwise. */
#define HISTORY_DAYS_DEFAULT	400

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

/* "2026-11-23 10:00" (UTC) of t. */
static void
short_time(int64_t t, char *buf, size_t size)
{
	char iso[32];

	if (t <= 0) {
		str_copy(buf, size, "never");
		return;
	}
	manifest_time(t, iso, sizeof iso);
	snprintf(buf, size, "%.10s %.5s", iso, iso + 11);
}

/*
 * refresh --from (or the config's `from`): pull a published cache. Exit
 * statuses as a refresh's: 4 when the source cannot be had or is
 * refused (or another refresh holds the lock), 3 for the cache's own
 * trouble.
 */
static int
refresh_from(const struct cli_options *o, const char *path, const char *source)
{
	struct pull_options popts;
	struct pull_report *rep;
	struct sign_public key;
	struct settings cfg;
	char when[32], theirs[32], ours[32], bytes[32], mbytes[32];
	const char *key_arg = o->from_key;
	char *from;
	struct err err;
	size_t i;
	int rc, sig;

	memset(&popts, 0, sizeof popts);
	/* Never a password in a message: from is the URL as shown. */
	from = str_url_redact(source, NULL, NULL);
	if (key_arg == NULL && settings_load(&cfg, &err) == 0)
		key_arg = settings_get(&cfg, "GPUCOST_FROM_KEY", "from_key");
	if (key_arg != NULL) {
		if (sign_public_load(key_arg, &key, &err) < 0) {
			cli_error("refresh --from: %s", err.msg);
			free(from);
			return EXIT_USAGE;
		}
		popts.key = &key;
	}
	popts.db_path = path;
	popts.source = source;
	popts.timeout = o->timeout;
	popts.deadline = o->deadline;
	popts.now = (int64_t)time(NULL);
	popts.lock_wait = o->lock_wait;
	popts.catch_signals = true;
	for (i = 0; i < o->filter.nproviders; i++)
		str_copy(popts.providers[i], sizeof popts.providers[i],
		    o->filter.providers[i]);
	popts.nproviders = o->filter.nproviders;
	rep = xmalloc(sizeof *rep);
	rc = pull_cache(&popts, rep, &err);
	if (rc < 0) {
		fprintf(stderr, "gpucost: refresh --from: %s\n", err.msg);
		sig = rep->signal;
		free(rep);
		free(from);
		if (sig != 0)
			raise(sig);	/* recorded; now end as it asked */
		return rc == -1 ? EXIT_DATA : EXIT_REFRESH;
	}
	/*
	 * Data taken over plain http with nothing to check it against:
	 * said each time data is imported, --quiet or not (a cron mail).
	 */
	if (key_arg == NULL && strncmp(source, "http://", 7) == 0 &&
	    !rep->not_modified && !rep->already)
		fprintf(stderr, "gpucost: warning: %s is plain http and no "
		    "from_key is pinned: anyone on the path could have changed "
		    "the prices just imported (use https, or publish --sign "
		    "and from_key)\n", from);
	cli_human_bytes((uint64_t)rep->manifest_bytes, mbytes, sizeof mbytes);
	cli_human_bytes((uint64_t)rep->data_bytes, bytes, sizeof bytes);
	if (o->quiet)
		;
	else if (rep->not_modified)
		fprintf(stderr, "%s: not modified since the last pull; nothing "
		    "downloaded\n", from);
	else if (rep->already) {
		short_time(rep->manifest.created_at, when, sizeof when);
		fprintf(stderr, "%s: the snapshot of %s is the one already "
		    "imported; manifest %s, no data downloaded\n", from, when,
		    mbytes);
	} else {
		short_time(rep->manifest.created_at, when, sizeof when);
		fprintf(stderr, "%s: snapshot of %s: manifest %s, data %s%s%s"
		    "\n", from, when, mbytes, bytes, rep->signed_by ?
		    ", signed by key " : "", rep->signed_by ?
		    rep->manifest.key_id : "");
		for (i = 0; i < rep->nres; i++) {
			const struct db_merge_result *r = &rep->res[i];

			short_time(r->published_time, theirs, sizeof theirs);
			short_time(r->local_time, ours, sizeof ours);
			switch (r->outcome) {
			case DB_MERGE_REPLACED:
				fprintf(stderr, "%s: %ld offers from the team "
				    "snapshot (data of %s), %zu price changes "
				    "added\n", r->provider, r->offers, theirs,
				    r->history_added);
				break;
			case DB_MERGE_KEPT:
				if (r->local_time == r->published_time) {
					fprintf(stderr, "%s: already current "
					    "(data of %s)\n", r->provider, ours);
					break;
				}
				fprintf(stderr, "%s: kept, local data newer "
				    "(%s, snapshot %s); %zu price changes "
				    "added\n", r->provider, ours, theirs,
				    r->history_added);
				break;
			case DB_MERGE_ABSENT:
				fprintf(stderr, "%s: not in the snapshot\n",
				    r->provider);
				break;
			}
		}
	}
	sig = rep->signal;
	free(rep);
	free(from);
	if (sig != 0)
		raise(sig);	/* it came after the merge: end as it asked */
	if (prune_history(path) < 0)
		return EXIT_DATA;
	return EXIT_OK;
}

static int
cmd_refresh_exec(const struct cli_options *o)
{
	struct cli_refresh_result res;
	struct refresh_options ropts;
	char path[4096];
	bool tty = !o->quiet && isatty(fileno(stderr));
	struct err err;
	size_t i, failed;
	int rc, sig;

	memset(&ropts, 0, sizeof ropts);
	if (paths_db(o->db, path, sizeof path, &err) < 0) {
		cli_error("%s", err.msg);
		return EXIT_DATA;
	}
	if (o->from != NULL && o->live) {
		cli_error("refresh: --from and --live contradict each other");
		return EXIT_USAGE;
	}
	if (o->from != NULL)
		return refresh_from(o, path, o->from);
	if (!o->live) {
		/* The config's `from`: a plain refresh pulls the team's copy. */
		struct settings cfg;
		const char *from;

		if (settings_load(&cfg, &err) < 0) {
			fprintf(stderr, "gpucost: refresh: %s\n", err.msg);
			return EXIT_DATA;
		}
		if ((from = settings_get(&cfg, "GPUCOST_FROM", "from")) != NULL) {
			char *copy = xstrdup(from);

			rc = refresh_from(o, path, copy);
			free(copy);
			return rc;
		}
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
	if (cli_refresh_run(&ropts, tty, tty, o->quiet, &res, &err) < 0) {
		fprintf(stderr, "gpucost: refresh: %s\n", err.msg);
		return res.busy ? EXIT_REFRESH : EXIT_DATA;
	}
	failed = res.failed;
	sig = res.signal;
	if (sig != 0)
		raise(sig);	/* recorded; now end as the signal asked */
	if (prune_history(path) < 0)
		return EXIT_DATA;
	return failed > 0 ? EXIT_REFRESH : EXIT_OK;
}

const struct cmd_entry cmd_refresh_entry = {
	CMD_REFRESH, "refresh", "[--provider LIST] [--from URL|DIR | --live] [--quiet]",
	"fetch live prices (or a published cache) into the cache", CMD_SCOPE_REFRESH, true,
	cmd_refresh_exec
};
