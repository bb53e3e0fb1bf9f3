/* cmd_query.c: `gpucost [query options]`: find, rank and print offers. */
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
#include "money.h"
#include "output.h"
#include "query.h"
#include "rentable.h"
#include "summary.h"

/*
 * The footer's word on market references (rentable.h): how many were
 * left out and how to see them, or how many of those shown are ones.
 */
static void
print_market(const struct plan *plans, size_t n, size_t left_out,
    int64_t now)
{
	size_t i, shown = 0;

	for (i = 0; i < n; i++)
		if (offer_market_reference(plans[i].offer, now))
			shown++;
	if (left_out > 0)
		fprintf(stderr, "; %zu marketplace listing%s older than a day "
		    "left out (market references, not offers: --include-stale "
		    "shows them)", left_out, left_out == 1 ? "" : "s");
	if (shown > 0)
		fprintf(stderr, "; %zu shown %s market reference%s (marketplace "
		    "listing%s older than a day)", shown,
		    shown == 1 ? "is a" : "are", shown == 1 ? "" : "s",
		    shown == 1 ? "" : "s");
}

/*
 * How many plans the query would have shown but for the market-reference
 * rule (0 when it was not applied).
 */
static size_t
count_left_out(struct db *db, const struct cli_options *o,
    const struct offer_filter *f)
{
	struct offer_filter refs = *f;
	struct offer_list offers;
	struct plan *plans = NULL;
	size_t nplans = 0;
	struct err err;

	if (f->include_stale || f->now == 0)
		return 0;
	refs.only_stale = true;
	offer_list_init(&offers);
	if (db_query(db, &refs, &offers, &err) == 0)
		query_plans(offers.v, offers.n, &refs, o->sort, o->reverse,
		    &plans, &nplans);
	free(plans);
	offer_list_done(&offers);
	return nplans;
}

/*
 * One line on stderr saying how old the shown prices are, per provider:
 * "gpucost: 12 offers; data age: aws 72d (snapshot), vast 2h".
 */
static void
print_data_age(const struct plan *plans, size_t n, size_t matched,
    size_t folded, size_t left_out, int64_t now)
{
	struct {
		const char *provider;
		int64_t oldest;
		enum offer_source source;
	} seen[16];
	size_t nseen = 0, i, j;
	char age[16];
	bool snapshot = false;

	for (i = 0; i < n; i++) {
		const struct offer *o = plans[i].offer;

		for (j = 0; j < nseen; j++)
			if (strcmp(seen[j].provider, o->provider) == 0)
				break;
		if (j == nseen) {
			if (nseen == 16)
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
	if (folded > 0 && n + folded < matched)
		fprintf(stderr, "gpucost: %zu of %zu offers in %zu rows (+N: "
		    "more regions, --all-regions lists them)", n + folded,
		    matched, n);
	else if (folded > 0)
		fprintf(stderr, "gpucost: %zu offers in %zu rows (+N: more "
		    "regions, --all-regions lists them)", n + folded, n);
	else if (n < matched)
		fprintf(stderr, "gpucost: %zu of %zu offers", n, matched);
	else
		fprintf(stderr, "gpucost: %zu offer%s", n, n == 1 ? "" : "s");
	print_market(plans, n, left_out, now);
	for (i = 0; i < nseen; i++) {
		column_age(now - seen[i].oldest, age, sizeof age);
		fprintf(stderr, "%s%s %s%s", i == 0 ? "; data age: " : ", ",
		    seen[i].provider, age,
		    seen[i].source == SRC_SNAPSHOT ? " (snapshot)" : "");
		if (seen[i].source == SRC_SNAPSHOT)
			snapshot = true;
	}
	if (snapshot)
		fputs("; 'gpucost refresh' fetches live prices", stderr);
	fputc('\n', stderr);
}

/* Does the answer fold offers that differ only in region (tables)? */
static bool
query_folds(const struct cli_options *o)
{
	return o->format == OUTPUT_TABLE && !o->all_regions;
}

/*
 * Can SQL pick the offers to show (db_query_top())? With --limit, rows
 * not folded by region and every filter tested in SQL
 * (db_filter_in_sql()), the first N plans are the first N offers in the
 * sort key's order, and the rest of the cache need not be read.
 */
static bool
query_top_n(const struct cli_options *o, const struct offer_filter *f)
{
	return o->limit > 0 && o->group_by.nkeys == 0 && !query_folds(o) &&
	    db_filter_in_sql(f);
}

/* Say which option left no offer, and what to do (query.c). */
static void
explain_empty(struct db *db, const struct cli_options *o,
    const struct offer_filter *f, size_t left_out)
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
		    o->query_given ? " the query" : "");
	offer_list_done(&offers);
}

/*
 * --group-by: the plans summarised per group, cheapest group first, at
 * most --limit groups. Returns 0, or -1 on a write error.
 */
static int
print_groups(const struct cli_options *o, const struct plan *plans,
    size_t nplans, size_t *ngroups)
{
	struct summary_group *groups;
	size_t shown;
	int rc = 0;

	summary_build(plans, nplans, &o->group_by, o->filter.spot, &groups,
	    ngroups);
	shown = o->limit > 0 && (size_t)o->limit < *ngroups ?
	    (size_t)o->limit : *ngroups;
	if ((*ngroups > 0 || o->format != OUTPUT_TABLE) &&
	    (output_groups(stdout, o->format, cli_output_width(stdout),
	    &o->group_by, groups, shown) < 0 || fflush(stdout) != 0))
		rc = -1;
	free(groups);
	return rc;
}

static int
cmd_query_exec(const struct cli_options *o)
{
	struct output_opts out_opts;
	struct provider_status *status = NULL;
	struct offer_list offers;
	struct offer_filter f = o->filter;
	struct plan *plans = NULL;
	size_t nplans = 0, shown, nstatus = 0, matched = 0, rows, i;
	size_t folded = 0, left_out = 0;
	bool top_n;
	struct err err;
	struct db *db;
	int rc = EXIT_DATA;

	/* Market references are judged at the time of the query; a summary
	 * may use them (the footer says how many it did). */
	f.now = (int64_t)time(NULL);
	if (o->group_by.nkeys > 0)
		f.include_stale = true;
	top_n = query_top_n(o, &f);

	if (cli_retired(&o->filter))
		return EXIT_USAGE;
	if ((db = cli_open_cache(o)) == NULL)
		return EXIT_DATA;
	offer_list_init(&offers);
	/* The count of all matches is shown by JSON and the age line. */
	if ((top_n ? db_query_top(db, &f, o->sort, o->reverse,
	    (size_t)o->limit, &offers, o->quiet && o->format != OUTPUT_JSON ?
	    NULL : &matched, &err) :
	    db_query(db, &f, &offers, &err)) < 0 ||
	    /* Only JSON shows the status; the full path keeps reading it. */
	    ((!top_n || o->format == OUTPUT_JSON) &&
	    db_status(db, &status, &nstatus, &err) < 0)) {
		cli_error("%s", err.msg);
		goto done;
	}
	query_plans(offers.v, offers.n, &f, o->sort, o->reverse,
	    &plans, &nplans);
	if (!top_n)
		matched = nplans;
	if (!o->quiet)
		left_out = count_left_out(db, o, &f);
	if (o->group_by.nkeys > 0) {
		size_t ngroups = 0;

		if (print_groups(o, plans, nplans, &ngroups) < 0) {
			cli_error("writing the output: %s", strerror(errno));
			goto done;
		}
		if (!o->quiet) {
			fprintf(stderr, "gpucost: %zu offer%s in %zu group%s",
			    nplans, nplans == 1 ? "" : "s", ngroups,
			    ngroups == 1 ? "" : "s");
			print_market(plans, nplans, 0, f.now);
			fputc('\n', stderr);
		}
		rc = nplans > 0 ? EXIT_OK : EXIT_NO_MATCH;
		goto done;
	}
	rows = query_folds(o) ? query_fold_regions(plans, nplans) : nplans;
	shown = o->limit > 0 && (size_t)o->limit < rows ?
	    (size_t)o->limit : rows;
	for (i = 0; i < shown; i++)
		folded += (size_t)plans[i].other_regions;

	memset(&out_opts, 0, sizeof out_opts);
	out_opts.format = o->format;
	out_opts.width = cli_output_width(stdout);
	out_opts.hours = o->hours;
	out_opts.now = f.now;
	out_opts.status = status;
	out_opts.nstatus = nstatus;
	out_opts.matched = matched;
	out_opts.sort = o->sort;
	if (nplans > 0 || o->format != OUTPUT_TABLE) {
		if (output_plans(stdout, &out_opts, plans, shown) < 0 ||
		    fflush(stdout) != 0) {
			cli_error("writing the output: %s", strerror(errno));
			goto done;
		}
	}
	if (nplans == 0) {
		if (!o->quiet)
			explain_empty(db, o, &f, left_out);
		rc = EXIT_NO_MATCH;
	} else {
		if (!o->quiet)
			print_data_age(plans, shown, matched, folded,
			    left_out, out_opts.now);
		rc = EXIT_OK;
	}
done:
	free(plans);
	free(status);
	offer_list_done(&offers);
	db_close(db);
	return rc;
}

const struct cmd_entry cmd_query_entry = {
	CMD_QUERY, "", "[query options]",
	"find GPU offers (the TUI on a terminal when no option is given)",
	CMD_SCOPE_QUERY, false, cmd_query_exec
};
