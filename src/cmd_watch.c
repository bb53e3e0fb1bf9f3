/*
 * cmd_watch.c: `gpucost watch [query options] [--exec CMD]`, for cron
 * after `gpucost refresh`: the offers matching the query that are new,
 * became available, or got cheaper than this watch last reported. The
 * watch is kept in the cache under its normalised query (the filter's
 * CLI words), so the same question asked again is the same watch.
 * `--list` shows the watches, `--forget` drops the query's.
 */
#include "config.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>

#include "cli.h"
#include "db.h"
#include "err.h"
#include "filter.h"
#include "money.h"
#include "output.h"
#include "query.h"
#include "str.h"
#include "xalloc.h"

/* The price a watch compares: spot with --spot, else on demand. */
static int64_t
watched_price(const struct cli_options *o, const struct plan *p)
{
	return o->filter.spot ? p->spot_gpu_hour : p->price_gpu_hour;
}

/* What the watch knew of offer p, or NULL. */
static const struct db_watch_offer *
known_offer(const struct db_watch_offer *v, size_t n, const struct plan *p)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (strcmp(v[i].key, p->offer->key) == 0 &&
		    strcmp(v[i].provider, p->offer->provider) == 0)
			return &v[i];
	return NULL;
}

/* Is p news: new to the watch, available again, or cheaper? */
static bool
is_news(const struct cli_options *o, const struct db_watch_offer *k,
    const struct plan *p)
{
	int64_t price = watched_price(o, p);

	if (k == NULL)
		return true;
	if (p->offer->availability == AV_AVAILABLE &&
	    k->availability != AV_AVAILABLE)
		return true;
	return money_known(price) && (!money_known(k->price) ||
	    price < k->price);
}

/* Run cmd through /bin/sh with the news as JSON on its standard input. */
static int
deliver(const char *cmd, const struct output_opts *oo,
    const struct plan *news, size_t n, struct err *err)
{
	struct sigaction ign, old;
	FILE *pipe;
	int status, wrc;

	/* A command that stops reading must not kill us with SIGPIPE. */
	memset(&ign, 0, sizeof ign);
	ign.sa_handler = SIG_IGN;
	sigaction(SIGPIPE, &ign, &old);
	fflush(NULL);
	if ((pipe = popen(cmd, "w")) == NULL) {
		sigaction(SIGPIPE, &old, NULL);
		err_set(err, "--exec: cannot run the command: %s",
		    strerror(errno));
		return -1;
	}
	wrc = output_plans(pipe, oo, news, n);
	status = pclose(pipe);
	sigaction(SIGPIPE, &old, NULL);
	if (status == -1) {
		err_set(err, "--exec: %s", strerror(errno));
		return -1;
	}
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		if (WIFEXITED(status))
			err_set(err, "--exec: the command exited with status "
			    "%d; the news stays unreported", WEXITSTATUS(status));
		else
			err_set(err, "--exec: the command was killed by signal "
			    "%d; the news stays unreported", WTERMSIG(status));
		return -1;
	}
	if (wrc < 0) {
		err_set(err, "--exec: the command did not read the news");
		return -1;
	}
	return 0;
}

static int
watch_list(const struct cli_options *o, struct db *db)
{
	struct db_watch *w;
	char created[32], last[32];
	struct err err;
	size_t n, i;

	if (db_watch_list(db, &w, &n, &err) < 0) {
		cli_error("%s", err.msg);
		return EXIT_DATA;
	}
	for (i = 0; i < n; i++) {
		output_iso8601(w[i].created_at, created, sizeof created);
		output_iso8601(w[i].last_run, last, sizeof last);
		printf("%s\t%s\t%zu offers\t%s\n", created, last, w[i].offers,
		    w[i].query[0] != '\0' ? w[i].query : "(every offer)");
	}
	free(w);
	if (n == 0 && !o->quiet)
		cli_error("no watch is stored");
	return fflush(stdout) != 0 ? EXIT_DATA : n > 0 ? EXIT_OK :
	    EXIT_NO_MATCH;
}

static int
cmd_watch_exec(const struct cli_options *o)
{
	struct db_watch_offer *known = NULL, *next = NULL;
	struct plan *plans = NULL, *news = NULL;
	struct offer_list offers;
	struct output_opts oo;
	struct offer_filter f = o->filter;
	char query[512];
	int64_t now = (int64_t)time(NULL);
	size_t nknown = 0, nplans = 0, nnews = 0, i;
	struct err err;
	struct db *db;
	bool exists, found;
	int rc = EXIT_DATA;

	if ((db = cli_open_cache(o)) == NULL)
		return EXIT_DATA;
	if (o->watch_list) {
		rc = watch_list(o, db);
		db_close(db);
		return rc;
	}
	filter_describe(&o->filter, query, sizeof query);
	if (o->watch_forget) {
		if (db_watch_forget(db, query, &found, &err) < 0)
			cli_error("%s", err.msg);
		else if (!found)
			rc = EXIT_NO_MATCH;
		else
			rc = EXIT_OK;
		if (rc == EXIT_NO_MATCH && !o->quiet)
			cli_error("no watch of \"%s\"", query);
		db_close(db);
		return rc;
	}
	/* Market references are judged now (rentable.h). */
	f.now = now;
	offer_list_init(&offers);
	if (db_watch_load(db, query, &known, &nknown, &exists, &err) < 0 ||
	    db_query(db, &f, &offers, &err) < 0) {
		cli_error("%s", err.msg);
		goto done;
	}
	query_plans(offers.v, offers.n, &f, o->sort, o->reverse,
	    &plans, &nplans);
	news = xcalloc(nplans > 0 ? nplans : 1, sizeof *news);
	next = xcalloc(nplans > 0 ? nplans : 1, sizeof *next);
	for (i = 0; i < nplans; i++) {
		const struct db_watch_offer *k = known_offer(known, nknown,
		    &plans[i]);
		bool report = is_news(o, k, &plans[i]);

		str_copy(next[i].provider, sizeof next[i].provider,
		    plans[i].offer->provider);
		str_copy(next[i].key, sizeof next[i].key, plans[i].offer->key);
		next[i].availability = plans[i].offer->availability;
		/* The price compared next time is the last one reported. */
		next[i].price = report ? watched_price(o, &plans[i]) : k->price;
		next[i].reported_at = report ? now : k->reported_at;
		if (report)
			news[nnews++] = plans[i];
	}
	if (o->limit > 0 && (size_t)o->limit < nnews)
		nnews = (size_t)o->limit;
	memset(&oo, 0, sizeof oo);
	oo.format = o->exec != NULL ? OUTPUT_JSON : o->format;
	oo.width = cli_output_width(stdout);
	oo.hours = o->hours;
	oo.now = now;
	oo.matched = nnews;
	if (nnews > 0) {
		if (o->exec != NULL) {
			if (deliver(o->exec, &oo, news, nnews, &err) < 0) {
				cli_error("%s", err.msg);
				goto done;
			}
		} else if (output_plans(stdout, &oo, news, nnews) < 0 ||
		    fflush(stdout) != 0) {
			cli_error("writing the output: %s", strerror(errno));
			goto done;
		}
	}
	/* Only news that reached its reader counts as reported. */
	if (db_watch_store(db, query, next, nplans, now, &err) < 0) {
		cli_error("%s", err.msg);
		goto done;
	}
	rc = nnews > 0 ? EXIT_OK : EXIT_NO_MATCH;
done:
	free(next);
	free(news);
	free(known);
	free(plans);
	offer_list_done(&offers);
	db_close(db);
	return rc;
}

const struct cmd_entry cmd_watch_entry = {
	CMD_WATCH, "watch", "[query options] [--exec CMD] [--list | --forget]",
	"only what is new, available again or cheaper since the last run",
	CMD_SCOPE_QUERY | CMD_SCOPE_WATCH, false, cmd_watch_exec
};
