/* footer.c: the lines under an answer, most important first (footer.h). */
#include "config.h"
#include "footer.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "columns.h"
#include "db.h"
#include "err.h"
#include "filter.h"
#include "health.h"
#include "notes.h"
#include "provider.h"
#include "rentable.h"
#include "snapshot_info.h"
#include "str.h"
#include "xalloc.h"

void
footer_init(struct footer *f)
{
	memset(f, 0, sizeof *f);
}

void
footer_done(struct footer *f)
{
	size_t i;

	for (i = 0; i < f->n; i++)
		free(f->text[i]);
	f->n = 0;
}

void
footer_add(struct footer *f, enum footer_rank rank, const char *fmt, ...)
{
	va_list ap;
	char *s;
	int len;

	if (f->n == FOOTER_MAX)
		return;
	va_start(ap, fmt);
	len = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (len < 0)
		return;
	s = xmalloc((size_t)len + 1);
	va_start(ap, fmt);
	vsnprintf(s, (size_t)len + 1, fmt, ap);
	va_end(ap);
	f->rank[f->n] = rank;
	f->text[f->n++] = s;
}

/* Append to buf[*len] as snprintf would, never past size. */
static void __attribute__((format(__printf__, 4, 5)))
append(char *buf, size_t size, size_t *len, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (*len >= size)
		return;
	va_start(ap, fmt);
	n = vsnprintf(buf + *len, size - *len, fmt, ap);
	va_end(ap);
	if (n > 0)
		*len = *len + (size_t)n < size ? *len + (size_t)n : size - 1;
}

/*
 * Is provider one with no price feed (CoreWeave, SaladCloud without a
 * key: provider.h's no_feed), whose snapshot rows are its dated list?
 * *date, unless NULL, is the list's date.
 */
static bool
list_date(const char *provider, const char **date)
{
	const struct provider *p = provider_find(provider);
	static struct snapshot_source src;

	if (p == NULL || p->no_feed == NULL || !snapshot_source(p->id, &src))
		return false;
	if (date != NULL)
		*date = src.date;
	return true;
}

size_t
footer_age_text(const struct plan *plans, size_t n, int64_t now, char *buf,
    size_t size)
{
	struct {
		const char *provider;
		int64_t oldest;
		enum offer_source source;
	} seen[32];
	size_t nseen = 0, nsnap = 0, len = 0, i, j;
	char age[16];

	if (size > 0)
		buf[0] = '\0';
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
	if (nseen == 0)
		return 0;
	for (i = 0; i < nseen; i++)
		if (seen[i].source == SRC_SNAPSHOT && !list_date(seen[i].provider,
		    NULL))
			nsnap++;
	append(buf, size, &len, "data age:");
	for (i = 0; i < nseen; i++) {
		const char *date;

		column_age(now - seen[i].oldest, age, sizeof age);
		append(buf, size, &len, "%s %s %s", i == 0 ? "" : ",",
		    seen[i].provider, age);
		if (seen[i].source != SRC_SNAPSHOT)
			continue;
		/* No feed to refresh from: the list's own date says it. */
		if (list_date(seen[i].provider, &date))
			append(buf, size, &len, " (list prices of %s)", date);
		else if (nsnap < nseen)
			append(buf, size, &len, " (snapshot)");
	}
	/* All from the snapshot: say it once. */
	if (nsnap == nseen)
		append(buf, size, &len, ", all from the built-in snapshot: "
		    "'gpucost refresh' fetches live prices");
	else if (nsnap > 0)
		append(buf, size, &len, "; 'gpucost refresh' fetches live "
		    "prices");
	return len;
}

void
footer_data_age(struct footer *f, const struct plan *plans, size_t n,
    int64_t now)
{
	char text[1024];

	if (footer_age_text(plans, n, now, text, sizeof text) > 0)
		footer_add(f, FOOTER_AGE, "%s", text);
}

void
footer_market(struct footer *f, const struct plan *plans, size_t n,
    size_t left_out, bool summary, int64_t now)
{
	size_t i, shown = 0;

	for (i = 0; i < n; i++)
		if (offer_market_reference(plans[i].offer, now))
			shown++;
	if (left_out == 1)
		footer_add(f, FOOTER_LEFT_OUT, "1 marketplace listing older "
		    "than a day left out (a market reference, not an offer: "
		    "--include-stale shows it)");
	else if (left_out > 0 && left_out != (size_t)-1)
		footer_add(f, FOOTER_LEFT_OUT, "%zu marketplace listings older "
		    "than a day left out (market references, not offers: "
		    "--include-stale shows them)", left_out);
	if (shown > 0)
		footer_add(f, FOOTER_LEFT_OUT, "%zu %s %s market reference%s "
		    "(marketplace listing%s older than a day)", shown,
		    summary ? "of the offers" : "rows shown",
		    shown == 1 ? "is a" : "are", shown == 1 ? "" : "s",
		    shown == 1 ? "" : "s");
}

/* Does the filter allow provider id (no --provider: every one)? */
static bool
filter_allows(const struct offer_filter *filter, const char *id)
{
	size_t k;

	if (filter->nproviders == 0)
		return true;
	for (k = 0; k < filter->nproviders; k++)
		if (strcmp(filter->providers[k], id) == 0)
			return true;
	return false;
}

void
footer_no_data(struct footer *f, const struct offer_filter *filter,
    const struct provider_status *status, size_t nstatus)
{
	char names[512], keys[256];
	size_t len = 0, klen = 0, count = 0, i, k;
	const struct provider *p;

	names[0] = keys[0] = '\0';
	for (i = 0; providers[i] != NULL; i++) {
		p = providers[i];
		if (!filter_allows(filter, p->id))
			continue;
		for (k = 0; k < nstatus; k++)
			if (strcmp(status[k].provider, p->id) == 0)
				break;
		if (k < nstatus && status[k].offer_count > 0)
			continue;
		append(names, sizeof names, &len, "%s%s", count > 0 ? ", " :
		    "", p->id);
		count++;
		/* A refresh skips it without its key: say which. */
		if (p->key_required && p->key_env != NULL)
			append(keys, sizeof keys, &klen, "%s%s needs %s",
			    klen > 0 ? ", " : "; ", p->id, p->key_env);
	}
	if (count == 0)
		return;
	footer_add(f, FOOTER_LEFT_OUT, "no data yet from %s (not in the "
	    "built-in snapshot): 'gpucost refresh' fetches %s offers%s", names,
	    count == 1 ? "its" : "their", keys);
}

void
footer_health(struct footer *f, struct db *db, const struct plan *plans,
    size_t n, int64_t now)
{
	const char *done[FILTER_PROVIDERS_MAX];
	struct refresh_outcome *rows;
	struct provider_health h;
	struct err err;
	size_t ndone = 0, nrows, i, j;
	char why[256], age[16], rows_are[64];

	for (i = 0; i < n && ndone < FILTER_PROVIDERS_MAX; i++) {
		const char *p = plans[i].offer->provider;

		for (j = 0; j < ndone; j++)
			if (strcmp(done[j], p) == 0)
				break;
		if (j < ndone)
			continue;
		done[ndone++] = p;
		if (db_outcomes(db, p, &rows, &nrows, &err) < 0)
			continue;
		health_judge(rows, nrows, now, &h);
		free(rows);
		if (health_describe(&h, now, why, sizeof why) == 0)
			continue;
		if (h.last_success > 0) {
			column_age(now - h.last_success, age, sizeof age);
			snprintf(rows_are, sizeof rows_are, "its rows are from "
			    "its last success, %s ago", age);
		} else
			str_copy(rows_are, sizeof rows_are, "its rows are the "
			    "snapshot's");
		if (h.state == HEALTH_SHRUNK)
			footer_add(f, FOOTER_HEALTH, "%s has shrunk: %s; its "
			    "list may be incomplete", p, why);
		else if (h.state == HEALTH_FAILING)
			footer_add(f, FOOTER_HEALTH, "%s is failing: %s; %s", p,
			    why, rows_are);
		else
			footer_add(f, FOOTER_HEALTH, "%s: %s; %s", p, why,
			    rows_are);
	}
}

void
footer_count(struct footer *f, const struct plan *plans, size_t n,
    size_t matched)
{
	size_t folded = 0, i;

	for (i = 0; i < n; i++)
		folded += (size_t)plans[i].other_regions;
	if (matched == (size_t)-1)
		matched = n + folded;
	if (folded > 0 && n + folded < matched)
		footer_add(f, FOOTER_COUNT, "%zu of %zu offers in %zu row%s "
		    "(+N: more regions, --all-regions lists them)", n + folded,
		    matched, n, n == 1 ? "" : "s");
	else if (folded > 0)
		footer_add(f, FOOTER_COUNT, "%zu offers in %zu row%s (+N: more "
		    "regions, --all-regions lists them)", n + folded, n,
		    n == 1 ? "" : "s");
	else if (n < matched)
		footer_add(f, FOOTER_COUNT, "%zu of %zu offers", n, matched);
	else
		footer_add(f, FOOTER_COUNT, "%zu offer%s", n, n == 1 ? "" : "s");
}

void
footer_notes(struct footer *f, const struct plan *plans, size_t n,
    int64_t now)
{
	char legend[512];
	unsigned notes = 0;
	size_t i;

	for (i = 0; i < n; i++)
		notes |= notes_at(plans[i].offer, now);
	if (notes_legend(notes, legend, sizeof legend) == 0)
		return;
	/* "o stale" is never split over two lines ("notes: o stale, ..."). */
	for (i = 0; legend[i] != '\0'; i++)
		if ((i >= 2 && legend[i - 1] == ' ' && (legend[i - 2] == ',' ||
		    legend[i - 2] == ':')) && legend[i + 1] == ' ')
			legend[i + 1] = FOOTER_NBSP;
	footer_add(f, FOOTER_NOTES, "%s", legend);
}

/* A growing string. */
struct text {
	char	*s;
	size_t	 len, cap;
};

static void
text_put(struct text *t, const char *s, size_t n)
{
	if (t->len + n + 1 > t->cap) {
		t->cap = (t->len + n + 1) * 2;
		t->s = xreallocarray(t->s, t->cap, 1);
	}
	memcpy(t->s + t->len, s, n);
	t->len += n;
	t->s[t->len] = '\0';
}

/* Wrap text into t: first, then words; continuation lines indented. */
static void
wrap_into(struct text *t, const char *first, const char *text, size_t width)
{
	size_t indent = str_width(first), col, w, n, i;
	const char *p = text, *end;
	char word[1024];
	bool start = true;

	text_put(t, first, strlen(first));
	col = indent;
	while (*p != '\0') {
		while (*p == ' ')
			p++;
		if (*p == '\0')
			break;
		end = p + strcspn(p, " ");
		n = (size_t)(end - p);
		/* The word alone, its FOOTER_NBSP spaces again. */
		if (n >= sizeof word)
			n = sizeof word - 1;
		memcpy(word, p, n);
		word[n] = '\0';
		for (i = 0; i < n; i++)
			if (word[i] == FOOTER_NBSP)
				word[i] = ' ';
		w = str_width(word);
		if (!start && width > 0 && col + 1 + w > width) {
			text_put(t, "\n", 1);
			for (col = 0; col < indent; col++)
				text_put(t, " ", 1);
			start = true;
		}
		if (!start) {
			text_put(t, " ", 1);
			col++;
		}
		text_put(t, word, n);
		col += w;
		start = false;
		p = end;
	}
	text_put(t, "\n", 1);
}

char *
footer_wrap(const char *first, const char *text, size_t width)
{
	struct text t = { NULL, 0, 0 };

	wrap_into(&t, first, text, width);
	return t.s;
}

char *
footer_text(const struct footer *f, size_t width)
{
	struct text t = { NULL, 0, 0 };
	size_t i;
	int rank;

	text_put(&t, "", 0);
	for (rank = FOOTER_AGE; rank <= FOOTER_OTHER; rank++)
		for (i = 0; i < f->n; i++)
			if ((int)f->rank[i] == rank)
				wrap_into(&t, FOOTER_PREFIX, f->text[i], width);
	return t.s;
}
