/* cmd_query.c: `gpucost [query options]`: find, rank and print offers. */
#include "config.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "answer.h"
#include "cache.h"
#include "cli.h"
#include "cli_refresh.h"
#include "columns.h"
#include "db.h"
#include "err.h"
#include "health.h"
#include "history.h"
#include "http.h"
#include "money.h"
#include "notes.h"
#include "output.h"
#include "paths.h"
#include "provider.h"
#include "query.h"
#include "rentable.h"
#include "settings.h"
#include "str.h"
#include "summary.h"

/*
 * The footer's word on market references (rentable.h): how many were
 * left out and how to see them, or how many of those shown are ones.
 */
static void
print_market(const struct plan *plans, size_t n, size_t left_out,
    bool summary, int64_t now)
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
		fprintf(stderr, "; %zu %s %s market reference%s (marketplace "
		    "listing%s older than a day)", shown,
		    summary ? "of them" : "shown", shown == 1 ? "is a" : "are",
		    shown == 1 ? "" : "s", shown == 1 ? "" : "s");
}

/*
 * One line on stderr saying how many offers were shown and how old their
 * prices are, per provider: "gpucost: 12 offers; data age: aws 72d
 * (snapshot), vast 2h" (cli_data_age()).
 */
static void
print_data_age(const struct plan *plans, size_t n, size_t matched,
    size_t folded, size_t left_out, int64_t now)
{
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
	print_market(plans, n, left_out, false, now);
	cli_data_age(stderr, plans, n, now);
}

/*
 * Under a table, the note letters its rows show, in words ("notes: !
 * price-outlier, o stale"): only those shown, on stderr with the data age
 * so the rows on stdout stay rows.
 */
static void
print_notes_legend(const struct plan *plans, size_t n, int64_t now)
{
	char legend[512];
	unsigned notes = 0;
	size_t i;

	for (i = 0; i < n; i++)
		notes |= notes_at(plans[i].offer, now);
	if (notes_legend(notes, legend, sizeof legend) > 0)
		fprintf(stderr, "gpucost: %s\n", legend);
}

/*
 * A line on stderr for each provider among the shown plans whose
 * refreshes have all failed for a week or whose last one shrank
 * (health.h): its rows may be old or only part of what it sells.
 */
static void
print_health(struct db *db, const struct plan *plans, size_t n, int64_t now)
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
 * --group-by: the answer's groups, cheapest first, at most --limit of
 * them. Returns 0, or -1 on a write error.
 */
static int
print_groups(const struct cli_options *o, const struct answer *a)
{
	size_t shown;

	shown = o->limit > 0 && (size_t)o->limit < a->ngroups ?
	    (size_t)o->limit : a->ngroups;
	if ((a->ngroups > 0 || o->format != OUTPUT_TABLE) &&
	    (output_groups(stdout, o->format, cli_output_width(stdout),
	    &o->group_by, o->filter.term != TERM_NONE, o->hours, a->groups,
	    shown) < 0 ||
	    fflush(stdout) != 0))
		return -1;
	return 0;
}

/*
 * --max-age (or max_age in the config): before answering, refresh the
 * providers the query may use that need no API key and whose data is
 * older than max_age. Progress on a terminal, nothing on a pipe; if the
 * refresh cannot be made the answer still comes from the cache, and why
 * is left in note for the footer.
 */
static void
refresh_stale(const struct cli_options *o, int64_t max_age, char *note,
    size_t size)
{
	struct cli_refresh_result res;
	struct refresh_options ropts;
	struct provider_status *status = NULL;
	const struct provider *p;
	size_t nstatus = 0, i, k;
	int64_t now = (int64_t)time(NULL), newest;
	char path[4096];
	struct err err;
	struct db *db;

	note[0] = '\0';
	memset(&ropts, 0, sizeof ropts);
	if (paths_db(o->db, path, sizeof path, &err) < 0 ||
	    cache_open(path, &db, &err) < 0)
		return;		/* cli_open_cache() says why next */
	if (db_status(db, &status, &nstatus, &err) < 0) {
		db_close(db);
		return;
	}
	db_close(db);
	for (i = 0; providers[i] != NULL; i++) {
		p = providers[i];
		/* Keyed, or nothing to fetch (list prices only). */
		if (p->key_required || p->no_feed != NULL)
			continue;
		if (o->filter.nproviders > 0) {
			for (k = 0; k < o->filter.nproviders; k++)
				if (strcmp(o->filter.providers[k], p->id) == 0)
					break;
			if (k == o->filter.nproviders)
				continue;
		}
		newest = 0;
		for (k = 0; k < nstatus; k++)
			if (strcmp(status[k].provider, p->id) == 0)
				newest = status[k].last_success >
				    status[k].newest ? status[k].last_success :
				    status[k].newest;
		if (now - newest <= max_age ||
		    ropts.nproviders == FILTER_PROVIDERS_MAX)
			continue;
		str_copy(ropts.providers[ropts.nproviders++],
		    sizeof ropts.providers[0], p->id);
	}
	free(status);
	if (ropts.nproviders == 0)
		return;
	if (http_global_init() < 0) {
		snprintf(note, size, "--max-age: cannot refresh (libcurl: %s); "
		    "answered from the cache", http_global_error());
		return;
	}
	ropts.db_path = path;
	ropts.lock_wait = 60;
	ropts.catch_signals = true;
	if (cli_refresh_run(&ropts, !o->quiet && isatty(fileno(stderr)),
	    false, true, &res, &err) < 0)
		snprintf(note, size, "--max-age: cannot refresh (%s); answered "
		    "from the cache", err.msg);
	else if (res.failed > 0)
		snprintf(note, size, "--max-age: %zu provider%s failed to "
		    "refresh (%s); answered from the cache", res.failed,
		    res.failed == 1 ? "" : "s", res.first_error);
	http_global_cleanup();
	if (res.signal != 0)
		raise(res.signal);	/* recorded; end as the signal asked */
}

/* The duration of --max-age, else the config's max_age; 0 for none. */
static int
max_age_of(const struct cli_options *o, int64_t *max_age)
{
	struct settings cfg;
	const char *v;
	struct err err;

	*max_age = o->max_age;
	if (*max_age > 0)
		return 0;
	if (settings_load(&cfg, &err) < 0) {
		cli_error("%s", err.msg);
		return -1;
	}
	if ((v = settings_get(&cfg, "GPUCOST_MAX_AGE", "max_age")) == NULL)
		return 0;
	if (history_parse_duration(v, max_age, &err) < 0) {
		cli_error("max_age: expected a duration such as 1d, 12h or 90m");
		return -1;
	}
	return 0;
}

/*
 * Tests (tests/cli/one_answer.sh): GPUCOST_DEBUG_ROWS=FILE appends the
 * rows this answer renders (column_dump()), for comparing the faces.
 */
static void
debug_rows(const struct cli_options *o, const struct question *q,
    const struct answer *a)
{
	const char *path = getenv("GPUCOST_DEBUG_ROWS");
	struct column_ctx ctx = { .now = q->filter.now, .hours = o->hours };
	FILE *f;

	if (path == NULL || path[0] == '\0' || (f = fopen(path, "a")) == NULL)
		return;
	column_dump(f, output_format_name(o->format), a->plans, a->nplans,
	    &ctx);
	fclose(f);
}

/* The question a query's options ask (answer.h). */
static void
query_question(const struct cli_options *o, struct question *q)
{
	memset(q, 0, sizeof *q);
	q->filter = o->filter;
	/* Market references are judged at the time of the query (after any
	 * --max-age refresh). */
	q->filter.now = (int64_t)time(NULL);
	q->sort = o->sort;
	q->reverse = o->reverse;
	q->limit = o->limit > 0 ? (size_t)o->limit : 0;
	/* Tables fold an instance type's regions; CSV and JSON do not. */
	q->fold = o->format == OUTPUT_TABLE && !o->all_regions;
	q->group_by = o->group_by;
	/* The footer (and JSON's count) is about the whole answer. */
	q->counts = !o->quiet || (o->format == OUTPUT_JSON &&
	    o->group_by.nkeys == 0);
	q->status = o->format == OUTPUT_JSON || !o->quiet;
}

static int
cmd_query_exec(const struct cli_options *o)
{
	struct output_opts out_opts;
	struct question q;
	struct answer a;
	size_t folded = 0, i;
	char refresh_note[768] = "";
	int64_t max_age;
	struct err err;
	struct db *db;
	int rc = EXIT_DATA;

	if (cli_retired(&o->filter))
		return EXIT_USAGE;
	if (max_age_of(o, &max_age) < 0)
		return EXIT_USAGE;
	if (max_age > 0)
		refresh_stale(o, max_age, refresh_note, sizeof refresh_note);
	query_question(o, &q);
	if ((db = cli_open_cache(o)) == NULL)
		return EXIT_DATA;
	if (!cli_region_known(db, &o->filter)) {
		db_close(db);
		return EXIT_USAGE;
	}
	answer_init(&a);
	if (answer_get(db, &q, &a, &err) < 0) {
		cli_error("%s", err.msg);
		goto done;
	}
	if (o->group_by.nkeys > 0) {
		if (print_groups(o, &a) < 0) {
			cli_error("writing the output: %s", strerror(errno));
			goto done;
		}
		if (!o->quiet) {
			fprintf(stderr, "gpucost: %zu offer%s in %zu group%s",
			    a.nplans, a.nplans == 1 ? "" : "s", a.ngroups,
			    a.ngroups == 1 ? "" : "s");
			print_market(a.plans, a.nplans, a.left_out, true,
			    q.filter.now);
			cli_data_age(stderr, a.plans, a.nplans, q.filter.now);
		}
		rc = a.matched > 0 ? EXIT_OK : EXIT_NO_MATCH;
		goto done;
	}
	for (i = 0; i < a.nplans; i++)
		folded += (size_t)a.plans[i].other_regions;
	debug_rows(o, &q, &a);

	memset(&out_opts, 0, sizeof out_opts);
	out_opts.format = o->format;
	out_opts.width = cli_output_width(stdout);
	out_opts.hours = o->hours;
	out_opts.now = q.filter.now;
	out_opts.status = a.status;
	out_opts.nstatus = a.nstatus;
	out_opts.matched = a.matched != ANSWER_UNKNOWN ? a.matched : a.nplans;
	out_opts.sort = o->sort;
	out_opts.term = o->filter.term;
	out_opts.region = o->filter.region;
	out_opts.fabric_filter = o->filter.fabrics != 0 ||
	    o->filter.min_node_gbps > 0;
	if (a.nplans > 0 || o->format != OUTPUT_TABLE) {
		if (output_plans(stdout, &out_opts, a.plans, a.nplans) < 0 ||
		    fflush(stdout) != 0) {
			cli_error("writing the output: %s", strerror(errno));
			goto done;
		}
	}
	/* --hours with --term: the job each way, for the first row. */
	if (a.nplans > 0 && o->format == OUTPUT_TABLE && o->hours >= 0 &&
	    o->filter.term != TERM_NONE &&
	    (output_term_comparison(stdout, &a.plans[0], o->hours) < 0 ||
	    fflush(stdout) != 0)) {
		cli_error("writing the output: %s", strerror(errno));
		goto done;
	}
	if (a.nplans == 0) {
		if (!o->quiet)
			explain_empty(db, o, &q.filter, a.left_out);
		rc = EXIT_NO_MATCH;
	} else {
		if (!o->quiet && o->format == OUTPUT_TABLE)
			print_notes_legend(a.plans, a.nplans, out_opts.now);
		if (!o->quiet) {
			print_data_age(a.plans, a.nplans, a.matched, folded,
			    a.left_out, out_opts.now);
			print_health(db, a.plans, a.nplans, out_opts.now);
		}
		rc = EXIT_OK;
	}
done:
	/* Tests (tests/cli/plans_paths.sh): what this answer read whole. */
	if (getenv("GPUCOST_DEBUG_READS") != NULL)
		fprintf(stderr, "gpucost: debug: %zu offers read whole\n",
		    db_offers_read());
	if (getenv("GPUCOST_DEBUG_PATH") != NULL)
		fprintf(stderr, "gpucost: debug: answered by %s\n", a.path);
	/* Even with -q: the answer is older than was asked for. */
	if (refresh_note[0] != '\0')
		fprintf(stderr, "gpucost: %s\n", refresh_note);
	answer_done(&a);
	db_close(db);
	return rc;
}

const struct cmd_entry cmd_query_entry = {
	CMD_QUERY, "", "[query options]",
	"find GPU offers (the TUI on a terminal when no option is given)",
	CMD_SCOPE_QUERY, false, cmd_query_exec
};
