/* cli_common.c: what the commands share: the cache, the width, sizes, errors. */
#include "config.h"
#include "cli.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#ifdef HAVE_SYS_IOCTL_H
#include <sys/ioctl.h>
#endif

#include "cache.h"
#include "offer.h"
#include "columns.h"
#include "db.h"
#include "filter.h"
#include "err.h"
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
