/*
 * cli_common.c: what the commands share: the cache, the width, sizes,
 * errors, the footer's data age, health and why nothing matched.
 */
#include "config.h"
#include "cli.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#ifdef HAVE_SYS_IOCTL_H
#include <sys/ioctl.h>
#endif

#include "answer.h"
#include "cache.h"
#include "offer.h"
#include "columns.h"
#include "db.h"
#include "err.h"
#include "health.h"
#include "query.h"
#include "paths.h"
#include "provider.h"
#include "rentable.h"
#include "snapshot_info.h"

size_t
cli_output_width(FILE *out)
{
	const char *env;
	long v;

#ifdef TIOCGWINSZ
	struct winsize ws;

	if (isatty(fileno(out)) && ioctl(fileno(out), TIOCGWINSZ, &ws) == 0 &&
	    ws.ws_col > 0)
		return ws.ws_col;
#endif
	env = getenv("COLUMNS");
	if (env != NULL && (v = strtol(env, NULL, 10)) > 0 && v < 10000)
		return (size_t)v;
	return 0;
}

void
cli_human_bytes(uint64_t bytes, char *buf, size_t size)
{
	if (bytes >= 1000 * 1000)
		snprintf(buf, size, "%.1f MB", (double)bytes / 1e6);
	else if (bytes >= 1000)
		snprintf(buf, size, "%.0f kB", (double)bytes / 1e3);
	else
		snprintf(buf, size, "%llu B", (unsigned long long)bytes);
}

void
cli_error(const char *fmt, ...)
{
	va_list ap;

	fputs("gpucost: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

bool
cli_retired(const struct offer_filter *f)
{
	const struct retired *r;
	size_t i;

	for (i = 0; i < f->nproviders; i++)
		if ((r = retired_provider(f->providers[i])) != NULL) {
			cli_error("%s is retired since %s (%s): it is not "
			    "refreshed and its offers are not shown", r->provider,
			    r->date, r->source);
			return true;
		}
	return false;
}

void
cli_question(const struct cli_options *o, struct question *q)
{
	memset(q, 0, sizeof *q);
	q->filter = o->filter;
	/* Market references are judged at the time of the question (after
	 * any --max-age refresh). */
	q->filter.now = (int64_t)time(NULL);
	q->sort = o->sort;
	q->reverse = o->reverse;
}

struct db *
cli_open_cache(const struct cli_options *o)
{
	char path[4096];
	struct err err;
	struct db *db;

	if (paths_db(o->db, path, sizeof path, &err) < 0 ||
	    cache_open(path, &db, &err) < 0) {
		cli_error("%s", err.msg);
		return NULL;
	}
	return db;
}

void
cli_data_age(FILE *out, const struct plan *plans, size_t n, int64_t now)
{
	struct {
		const char *provider;
		int64_t oldest;
		enum offer_source source;
	} seen[32];
	size_t nseen = 0, i, j;
	char age[16];
	bool snapshot = false;

	for (i = 0; i < n; i++) {
		const struct offer *o = plans[i].offer;

		for (j = 0; j < nseen; j++)
			if (strcmp(seen[j].provider, o->provider) == 0)
				break;
		if (j == nseen) {
			if (nseen == sizeof seen / sizeof seen[0])
				continue;
			seen[nseen].provider = o->provider;
			seen[nseen].oldest = o->fetched_at;
			seen[nseen].source = o->source;
			nseen++;
		} else if (o->fetched_at < seen[j].oldest) {
			seen[j].oldest = o->fetched_at;
			if (o->source == SRC_SNAPSHOT)
				seen[j].source = SRC_SNAPSHOT;
		}
	}
	for (i = 0; i < nseen; i++) {
		const struct provider *p = provider_find(seen[i].provider);
		struct snapshot_source src;

		column_age(now - seen[i].oldest, age, sizeof age);
		fprintf(out, "%s%s %s", i == 0 ? "; data age: " : ", ",
		    seen[i].provider, age);
		if (seen[i].source != SRC_SNAPSHOT)
			continue;
		/* No feed to refresh from: the list's own date says it. */
		if (p != NULL && p->no_feed != NULL &&
		    snapshot_source(p->id, &src))
			fprintf(out, " (list prices of %s)", src.date);
		else {
			fputs(" (snapshot)", out);
			snapshot = true;
		}
	}
	if (snapshot)
		fputs("; 'gpucost refresh' fetches live prices", out);
	fputc('\n', out);
}

/*
 * A line on stderr for each provider among the shown plans whose
 * refreshes have all failed for a week or whose last one shrank
 * (health.h): its rows may be old or only part of what it sells.
 */
void
cli_health(struct db *db, const struct plan *plans, size_t n, int64_t now)
{
	const char *done[FILTER_PROVIDERS_MAX];
	struct refresh_outcome *rows;
	struct provider_health h;
	struct err err;
	size_t ndone = 0, nrows, i, j;
	char why[256], age[16];

	for (i = 0; i < n && ndone < FILTER_PROVIDERS_MAX; i++) {
		const char *p = plans[i].offer->provider;

		for (j = 0; j < ndone; j++)
			if (strcmp(done[j], p) == 0)
				break;
		if (j < ndone)
			continue;
		done[ndone++] = p;
		/* Health is advice: a cache that cannot say stays quiet. */
		if (db_outcomes(db, p, &rows, &nrows, &err) < 0)
			continue;
		health_judge(rows, nrows, now, &h);
		free(rows);
		if (health_describe(&h, now, why, sizeof why) == 0)
			continue;
		if (h.state == HEALTH_SHRUNK)
			fprintf(stderr, "gpucost: %s has shrunk: %s; its list "
			    "may be incomplete\n", p, why);
		else if (h.last_success > 0) {
			column_age(now - h.last_success, age, sizeof age);
			fprintf(stderr, "gpucost: %s is failing: %s; its rows "
			    "are from its last success, %s ago\n", p, why, age);
		} else
			fprintf(stderr, "gpucost: %s is failing: %s; its rows "
			    "are the snapshot's\n", p, why);
	}
}

/* Say which option left no offer, and what to do (query.c). */
void
cli_explain_empty(struct db *db, const struct offer_filter *f,
    size_t left_out, bool query_given)
{
	struct offer_filter all;
	struct offer_list offers;
	char why[1024];
	struct err err;

	if (left_out > 0) {
		fprintf(stderr, "gpucost: no offer matched; %zu marketplace "
		    "listing%s older than a day did (market references, not "
		    "offers: --include-stale shows them)\n", left_out,
		    left_out == 1 ? "" : "s");
		return;
	}
	offer_list_init(&offers);
	offer_filter_init(&all);
	all.now = f->now;
	all.include_stale = f->include_stale;
	if (db_query(db, &all, &offers, &err) == 0 &&
	    query_explain_empty(offers.v, offers.n, f, why,
	    sizeof why) > 0)
		fprintf(stderr, "gpucost: %s\n", why);
	else
		fprintf(stderr, "gpucost: no offer matched%s\n",
		    query_given ? " the query" : "");
	offer_list_done(&offers);
}

/*
 * Did --train's memory rule alone leave no plan? The offers read were
 * tested with it (db_query()), so read the query's offers without it.
 */
bool
cli_train_refused(struct db *db, const struct offer_filter *f)
{
	struct offer_filter g = *f;
	struct offer_list offers;
	struct err err;
	bool short_of_memory = false;

	if (!train_given(&f->train))
		return false;
	train_init(&g.train);
	offer_list_init(&offers);
	if (db_query(db, &g, &offers, &err) == 0)
		short_of_memory = query_train_short(offers.v, offers.n, f);
	offer_list_done(&offers);
	return short_of_memory;
}

struct db *
cli_answer(const struct cli_options *o, const struct question *q,
    struct answer *a)
{
	struct err err;
	struct db *db;

	if ((db = cli_open_cache(o)) == NULL)
		return NULL;
	if (answer_get(db, q, a, &err) < 0) {
		cli_error("%s", err.msg);
		db_close(db);
		return NULL;
	}
	return db;
}
