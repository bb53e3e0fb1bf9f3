/*
 * cmd_history.c: `gpucost history [query options] [--since DURATION]`:
 * for each matching offer, its price and spot price at every change,
 * min / median / max over the period and the share of refreshes in
 * which it was available.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "columns.h"
#include "db.h"
#include "err.h"
#include "footer.h"
#include "history.h"
#include "money.h"
#include "output.h"
#include "query.h"
#include "str.h"
#include "xalloc.h"

/* One offer's history. */
struct offer_history {
	const struct offer *offer;
	struct price_point *points;	/* owned; oldest first */
	size_t	 npoints;
	struct history_stats stats;
};

struct history_rows {
	struct offer_history *h;
	size_t	 n;
	/* Flattened (offer, point) pairs for CSV/TSV. */
	size_t	*row_offer, *row_point;
};

enum {
	HC_PROVIDER, HC_INSTANCE, HC_REGION, HC_GPUS, HC_CHANGES, HC_MIN,
	HC_MEDIAN, HC_MAX, HC_AVAIL, HC_TREND, HC_COUNT
};

static const struct output_column table_columns[HC_COUNT] = {
	[HC_PROVIDER] =	{ "provider", "PROVIDER", 1, false, false },
	/* Names a buyer copies: whole or not at all (issue 45). */
	[HC_INSTANCE] =	{ "instance_type", "INSTANCE", 1, false, false },
	[HC_REGION] =	{ "region", "REGION", 2, false, false },
	[HC_GPUS] =	{ "gpus", "GPUS", 1, false, false },
	[HC_CHANGES] =	{ "changes", "CHANGES", 3, true, false },
	[HC_MIN] =	{ "min_price_gpu_hour", "MIN $/GPU-H", 1, true, false },
	[HC_MEDIAN] =	{ "median_price_gpu_hour", "MEDIAN", 2, true, false },
	[HC_MAX] =	{ "max_price_gpu_hour", "MAX", 2, true, false },
	[HC_AVAIL] =	{ "available_share", "AVAIL", 3, true, false },
	[HC_TREND] =	{ "trend", "TREND", 4, false, false },
};

enum {
	PC_PROVIDER, PC_KEY, PC_INSTANCE, PC_REGION, PC_GPU, PC_COUNT_GPUS,
	PC_AT, PC_PRICE, PC_SPOT, PC_AVAILABILITY, PC_COUNT
};

static const struct output_column point_columns[PC_COUNT] = {
	[PC_PROVIDER] =		{ "provider", "", 1, false, false },
	[PC_KEY] =		{ "key", "", 1, false, false },
	[PC_INSTANCE] =		{ "instance_type", "", 1, false, false },
	[PC_REGION] =		{ "region", "", 1, false, false },
	[PC_GPU] =		{ "gpu", "", 1, false, false },
	[PC_COUNT_GPUS] =	{ "gpu_count", "", 1, false, false },
	[PC_AT] =		{ "at", "", 1, false, false },
	[PC_PRICE] =		{ "price_hour", "", 1, false, false },
	[PC_SPOT] =		{ "spot_hour", "", 1, false, false },
	[PC_AVAILABILITY] =	{ "availability", "", 1, false, false },
};


/* The share of refreshes the offer was available in, or NULL. */
static enum field_kind
share_cell(const struct history_stats *st, bool human, char *buf,
    size_t size)
{
	double share;

	if (st->refreshes == 0)
		return FIELD_NULL;
	share = (double)st->available / (double)st->refreshes;
	if (human)
		snprintf(buf, size, "%.0f%%", share * 100);
	else
		snprintf(buf, size, "%.4g", share);
	return FIELD_NUMBER;
}

static enum field_kind
table_value(const void *ctx, size_t row, size_t col, bool human, char *buf,
    size_t size)
{
	const struct history_rows *r = ctx;
	const struct offer_history *h = &r->h[row];
	const struct offer *o = h->offer;

	switch (col) {
	case HC_PROVIDER:
		str_copy(buf, size, o->provider);
		return FIELD_STRING;
	case HC_INSTANCE:
		str_copy(buf, size, o->instance_type);
		return FIELD_STRING;
	case HC_REGION:
		str_copy(buf, size, human ? column_region(o->region) :
		    o->region);
		return FIELD_STRING;
	case HC_GPUS:
		snprintf(buf, size, "%dx %s", o->gpu_count,
		    o->gpu[0] != '\0' ? o->gpu : o->gpu_raw);
		return FIELD_STRING;
	case HC_CHANGES:
		snprintf(buf, size, "%zu", h->stats.npoints);
		return FIELD_NUMBER;
	case HC_MIN:
		return output_money(h->stats.min, human, buf, size);
	case HC_MEDIAN:
		return output_money(h->stats.median, human, buf, size);
	case HC_MAX:
		return output_money(h->stats.max, human, buf, size);
	case HC_AVAIL:
		return share_cell(&h->stats, human, buf, size);
	case HC_TREND:
		history_sparkline(h->points + h->stats.first, h->stats.npoints,
		    16, buf, size);
		return buf[0] != '\0' ? FIELD_STRING : FIELD_NULL;
	}
	return FIELD_NULL;
}

static enum field_kind
point_value(const void *ctx, size_t row, size_t col, bool human, char *buf,
    size_t size)
{
	const struct history_rows *r = ctx;
	const struct offer_history *h = &r->h[r->row_offer[row]];
	const struct price_point *pt = &h->points[r->row_point[row]];
	const struct offer *o = h->offer;

	(void)human;
	switch (col) {
	case PC_PROVIDER:
		str_copy(buf, size, o->provider);
		return FIELD_STRING;
	case PC_KEY:
		str_copy(buf, size, o->key);
		return FIELD_STRING;
	case PC_INSTANCE:
		str_copy(buf, size, o->instance_type);
		return FIELD_STRING;
	case PC_REGION:
		str_copy(buf, size, o->region);
		return FIELD_STRING;
	case PC_GPU:
		str_copy(buf, size, o->gpu);
		return o->gpu[0] != '\0' ? FIELD_STRING : FIELD_NULL;
	case PC_COUNT_GPUS:
		snprintf(buf, size, "%d", o->gpu_count);
		return FIELD_NUMBER;
	case PC_AT:
		output_iso8601(pt->at, buf, size);
		return FIELD_STRING;
	case PC_PRICE:
		return output_money(pt->price, false, buf, size);
	case PC_SPOT:
		return output_money(pt->spot_price, false, buf, size);
	case PC_AVAILABILITY:
		str_copy(buf, size, availability_name(pt->availability));
		return FIELD_STRING;
	}
	return FIELD_NULL;
}

/* JSON: each offer with its statistics and its points. */
static int
write_json(FILE *out, const struct history_rows *r, int64_t since,
    int64_t now)
{
	char buf[64];
	size_t i, j;
	int c;

	output_iso8601(now, buf, sizeof buf);
	fprintf(out, "{\n  \"generated_at\": \"%s\",\n", buf);
	output_iso8601(since, buf, sizeof buf);
	fprintf(out, "  \"since\": \"%s\",\n  \"offers\": [", buf);
	for (i = 0; i < r->n; i++) {
		const struct offer_history *h = &r->h[i];

		const struct offer *o = h->offer;

		fputs(i == 0 ? "\n    {\"provider\": " : ",\n    {\"provider\": ",
		    out);
		output_json_string(out, o->provider);
		fputs(", \"key\": ", out);
		output_json_string(out, o->key);
		fputs(", \"instance_type\": ", out);
		output_json_string(out, o->instance_type);
		fputs(", \"region\": ", out);
		output_json_string(out, o->region);
		fputs(", \"gpu\": ", out);
		if (o->gpu[0] != '\0')
			output_json_string(out, o->gpu);
		else
			fputs("null", out);
		fprintf(out, ", \"gpu_count\": %d", o->gpu_count);
		for (c = HC_MIN; c <= HC_AVAIL; c++) {
			enum field_kind k = table_value(r, i, (size_t)c, false,
			    buf, sizeof buf);

			fprintf(out, ", \"%s\": %s", table_columns[c].name,
			    k == FIELD_NULL ? "null" : buf);
		}
		fputs(", \"points\": [", out);
		for (j = h->stats.first; j < h->npoints; j++) {
			const struct price_point *pt = &h->points[j];
			char p[32], s[32];

			output_iso8601(pt->at, buf, sizeof buf);
			fprintf(out, "%s{\"at\": \"%s\", \"price_hour\": %s, "
			    "\"spot_hour\": %s, \"availability\": \"%s\"}",
			    j == h->stats.first ? "" : ", ", buf,
			    output_money(pt->price, false, p, sizeof p) ==
			    FIELD_NULL ? "null" : p,
			    output_money(pt->spot_price, false, s, sizeof s) ==
			    FIELD_NULL ? "null" : s,
			    availability_name(pt->availability));
		}
		fputs("]}", out);
	}
	fputs(r->n > 0 ? "\n  ]\n}\n" : "]\n}\n", out);
	return ferror(out) ? -1 : 0;
}

static int
write_history(const struct cli_options *o, struct history_rows *r,
    int64_t since, int64_t now)
{
	struct output_schema table = {
		"offers", table_columns, HC_COUNT, table_value, r
	};
	struct output_schema points = {
		"points", point_columns, PC_COUNT, point_value, r
	};
	size_t i, j, n = 0;
	int rc;

	if (o->format == OUTPUT_JSON)
		return write_json(stdout, r, since, now);
	if (o->format == OUTPUT_TABLE)
		return output_records(stdout, o->format,
		    cli_output_width(stdout), &table, r->n);
	for (i = 0; i < r->n; i++)
		n += r->h[i].npoints - r->h[i].stats.first;
	r->row_offer = xcalloc(n > 0 ? n : 1, sizeof *r->row_offer);
	r->row_point = xcalloc(n > 0 ? n : 1, sizeof *r->row_point);
	n = 0;
	for (i = 0; i < r->n; i++)
		for (j = r->h[i].stats.first; j < r->h[i].npoints; j++) {
			r->row_offer[n] = i;
			r->row_point[n++] = j;
		}
	rc = output_records(stdout, o->format, 0, &points, n);
	free(r->row_offer);
	free(r->row_point);
	return rc;
}

/*
 * The offers whose history is shown: with --limit only the first ones,
 * as the query's shortcuts find them (issue 29): db_query_top() when SQL
 * tests the whole filter, the walks of db_query_nodes() for plans of
 * several nodes by price per GPU-hour (cmd_query.c's rules; no rows
 * are folded here); else every matching offer.
 */
static int
history_read(struct db *db, const struct cli_options *o,
    const struct offer_filter *f, struct offer_list *out, struct err *err)
{
	if (o->limit > 0 && db_filter_in_sql(f) && db_sort_in_sql(o->sort))
		return db_query_top(db, f, o->sort, o->reverse,
		    (size_t)o->limit, out, NULL, err);
	if (o->limit > 0 && query_nodes_walk(f, o->sort, o->reverse))
		return db_query_nodes(db, f, (size_t)o->limit, out, NULL, err);
	return db_query(db, f, out, err);
}

static int
cmd_history_exec(const struct cli_options *o)
{
	struct offer_history *h = NULL;
	struct history_rows rows;
	struct offer_list offers;
	struct offer_filter f = o->filter;
	struct plan *plans = NULL;
	int64_t now = (int64_t)time(NULL), since, *times = NULL;
	const char *times_of = NULL;
	size_t nplans = 0, n = 0, ntimes = 0, i;
	struct err err;
	struct db *db;
	bool began = false;
	int rc = EXIT_DATA;

	since = now - (o->since > 0 ? o->since : 30 * 86400);
	f.now = now;	/* market references as a query judges them */
	if ((db = cli_open_cache(o)) == NULL)
		return EXIT_DATA;
	if (!cli_region_known(db, &o->filter)) {
		db_close(db);
		return EXIT_USAGE;
	}
	offer_list_init(&offers);
	if (history_read(db, o, &f, &offers, &err) < 0) {
		cli_error("%s", err.msg);
		goto done;
	}
	query_plans(offers.v, offers.n, &f, o->sort, o->reverse,
	    &plans, &nplans);
	n = o->limit > 0 && (size_t)o->limit < nplans ? (size_t)o->limit :
	    nplans;
	h = xcalloc(n > 0 ? n : 1, sizeof *h);
	/* Every offer's points from one state of the cache, locked once. */
	began = db_read_begin(db);
	for (i = 0; i < n; i++) {
		const struct offer *of = plans[i].offer;

		h[i].offer = of;
		if (times_of == NULL || strcmp(times_of, of->provider) != 0) {
			free(times);
			times = NULL;
			if (db_refresh_times(db, of->provider, since, &times,
			    &ntimes, &err) < 0) {
				cli_error("%s", err.msg);
				goto done;
			}
			times_of = of->provider;
		}
		/* With --term, the history of the term's price ranked. */
		if ((plans[i].term != NULL ? db_committed_history(db,
		    of->provider, of->key, plans[i].term, &h[i].points,
		    &h[i].npoints, &err) : db_history(db, of->provider,
		    of->key, &h[i].points, &h[i].npoints, &err)) < 0) {
			cli_error("%s", err.msg);
			goto done;
		}
		history_summarise(h[i].points, h[i].npoints, of->gpu_count,
		    since, times, ntimes, &h[i].stats);
	}
	db_read_end(db, began);
	began = false;
	rows.h = h;
	rows.n = n;
	if ((n > 0 || o->format != OUTPUT_TABLE) &&
	    (write_history(o, &rows, since, now) < 0 || fflush(stdout) != 0)) {
		cli_error("writing the output: %s", strerror(errno));
		goto done;
	}
	if (n == 0 && !o->quiet)
		cli_error("no offer matched%s", o->query_given ? " the query" :
		    "");
	else if (!o->quiet) {
		struct footer foot;

		footer_init(&foot);
		footer_data_age(&foot, plans, n, now);
		/* Issue 44 item 10: a snapshot row is no price change. */
		for (i = 0; i < n; i++)
			if (plans[i].offer->source == SRC_SNAPSHOT)
				break;
		if (i < n)
			footer_add(&foot, FOOTER_AGE, "the built-in "
			    "snapshot's prices are where history starts, not "
			    "changes: history begins at the first 'gpucost "
			    "refresh'");
		footer_count(&foot, plans, n, n);
		cli_footer_print(&foot);
		footer_done(&foot);
	}
	rc = n > 0 ? EXIT_OK : EXIT_NO_MATCH;
done:
	db_read_end(db, began);
	/* Tests (tests/cli/plans_paths.sh): what this answer read whole. */
	if (getenv("GPUCOST_DEBUG_READS") != NULL)
		fprintf(stderr, "gpucost: debug: %zu offers read whole\n",
		    db_offers_read());
	for (i = 0; h != NULL && i < n; i++)
		free(h[i].points);
	free(h);
	free(times);
	free(plans);
	offer_list_done(&offers);
	db_close(db);
	return rc;
}

const struct cmd_entry cmd_history_entry = {
	CMD_HISTORY, "history", "[query options] [--since DURATION]",
	"how the matching offers' prices moved", CMD_SCOPE_QUERY |
	CMD_SCOPE_HISTORY, false, cmd_history_exec
};
