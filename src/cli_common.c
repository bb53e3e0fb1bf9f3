/* cli_common.c: what the commands share: the cache, the width, sizes, errors. */
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
#include "filter.h"
#include "footer.h"
#include "err.h"
#include "query.h"
#include "paths.h"
#include "provider.h"
#include "rentable.h"
#include "snapshot_info.h"
#include "xalloc.h"

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

struct names {
	char	**v;
	size_t	 n, cap;
};

static void
names_add(const char *s, void *ctx)
{
	struct names *ns = ctx;

	if (ns->n == ns->cap) {
		ns->cap = ns->cap == 0 ? 64 : ns->cap * 2;
		ns->v = xreallocarray(ns->v, ns->cap, sizeof *ns->v);
	}
	ns->v[ns->n++] = xstrdup(s);
}

bool
cli_region_known(struct db *db, const struct offer_filter *f)
{
	struct names ns = { NULL, 0, 0 };
	struct err err;
	size_t i;
	int rc;

	/* The tables know most: the cache is read only for the rest. */
	if (filter_region_check(f, NULL, 0, &err) == 0)
		return true;
	if (db_region_names_open(db, names_add, &ns, &err) < 0)
		rc = -1;
	else
		rc = filter_region_check(f, (const char *const *)ns.v, ns.n,
		    &err);
	for (i = 0; i < ns.n; i++)
		free(ns.v[i]);
	free(ns.v);
	if (rc == 0)
		return true;
	cli_error("%s", err.msg);
	return false;
}

size_t
cli_footer_width(void)
{
#ifdef TIOCGWINSZ
	struct winsize ws;

	/* Only a person's terminal: a script reads one line per entry. */
	if (isatty(fileno(stderr)) && ioctl(fileno(stderr), TIOCGWINSZ,
	    &ws) == 0 && ws.ws_col > 0)
		return ws.ws_col;
#endif
	return isatty(fileno(stderr)) ? cli_output_width(stderr) : 0;
}

void
cli_footer_print(const struct footer *f)
{
	char *text = footer_text(f, cli_footer_width());

	fputs(text, stderr);
	free(text);
}

/*
 * Does every provider --provider names have no offer in the cache (not
 * in the snapshot, never refreshed)? Then that, not the filter, is why.
 */
static bool
named_have_no_data(const struct offer_filter *f,
    const struct provider_status *status, size_t nstatus)
{
	size_t i, k;

	if (f->nproviders == 0 || status == NULL)
		return false;
	for (i = 0; i < f->nproviders; i++)
		for (k = 0; k < nstatus; k++)
			if (strcmp(status[k].provider, f->providers[i]) == 0 &&
			    status[k].offer_count > 0)
				return false;
	return true;
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

/*
 * Say which option left no offer, and what to do (query.c). Returns
 * whether it said the providers asked have no data.
 */
bool
cli_explain_empty(struct db *db, const struct cli_options *o,
    const struct offer_filter *f, const struct answer *a)
{
	struct offer_filter all;
	struct offer_list offers;
	char why[1024], names[512];
	size_t left_out = a->left_out, len = 0, i;
	struct err err;

	if (named_have_no_data(f, a->status, a->nstatus)) {
		names[0] = '\0';
		for (i = 0; i < f->nproviders; i++)
			len += (size_t)snprintf(names + len, len < sizeof names ?
			    sizeof names - len : 0, "%s%s", i == 0 ? "" : ",",
			    f->providers[i]);
		fprintf(stderr, "gpucost: %s ha%s no data until 'gpucost "
		    "refresh --provider %s' brings %s offers (not in the "
		    "built-in snapshot)\n", names, f->nproviders == 1 ? "s" :
		    "ve", names, f->nproviders == 1 ? "its" : "their");
		return true;
	}
	if (left_out > 0 && left_out != ANSWER_UNKNOWN) {
		fprintf(stderr, "gpucost: no offer matched; %zu marketplace "
		    "listing%s older than a day did (market references, not "
		    "offers: --include-stale shows them)\n", left_out,
		    left_out == 1 ? "" : "s");
		return false;
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
		    o->query_given ? " the query" : "");
	offer_list_done(&offers);
	return false;
}
