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
#include "footer.h"
#include "err.h"
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
