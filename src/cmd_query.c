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
#include "footer.h"
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

/* --train's assumptions, one line on stderr under the table. */
static void
print_train(const struct train *t)
{
	char line[1024];

	output_train_assumptions(t, line, sizeof line);
	fprintf(stderr, "gpucost: %s\n", line);
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
 * --max-age's refresh: how old is too old, and its bounds. A query
 * waits for it, so it never waits for the lock another refresh holds,
 * and the whole of it has a budget (max_age_budget, 10 s by default):
 * every provider still running then fails, its cached offers answer.
 */
struct stale_refresh {
	int64_t	max_age;	/* seconds; 0: no refresh */
	long	budget;		/* seconds for the whole refresh */
	long	timeout;	/* per transfer: the config's, within budget */
};
#define MAX_AGE_BUDGET		10	/* max_age_budget's default, seconds */
#define MAX_AGE_BUDGET_MAX	3600	/* settings.c checks the file's */

/*
 * --max-age (or max_age in the config): before answering, refresh the
 * providers the query may use that need no API key and whose data is
 * older than max_age. Progress on a terminal, nothing on a pipe; if the
 * refresh cannot be made (in time) the answer still comes from the
 * cache, and why is left in note for the footer.
 */
static void
refresh_stale(const struct cli_options *o, const struct stale_refresh *sr,
    char *note, size_t size)
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
		if (now - newest <= sr->max_age ||
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
	ropts.lock_wait = 0;		/* another refresh: answer now */
	ropts.timeout = sr->timeout;
	/* Providers run at once: each one's deadline bounds the whole. */
	ropts.deadline = sr->budget;
	ropts.catch_signals = true;
	if (cli_refresh_run(&ropts, !o->quiet && isatty(fileno(stderr)),
	    false, true, &res, &err) < 0)
		snprintf(note, size, res.busy ? "--max-age: another refresh "
		    "holds the lock, not waited for; answered from the cache" :
		    "--max-age: cannot refresh (%s); answered from the cache",
		    err.msg);
	else if (res.failed > 0)
		snprintf(note, size, "--max-age: %zu provider%s failed to "
		    "refresh (%s); answered from the cache", res.failed,
		    res.failed == 1 ? "" : "s", res.first_error);
	http_global_cleanup();
	if (res.signal != 0)
		raise(res.signal);	/* recorded; end as the signal asked */
}

/*
 * The duration of --max-age, else the config's max_age (0: none), and
 * the bounds of its refresh: max_age_budget (GPUCOST_MAX_AGE_BUDGET)
 * and the config's timeout, neither longer than the budget.
 */
static int
stale_refresh_of(const struct cli_options *o, struct stale_refresh *sr)
{
	struct settings cfg;
	const char *v;
	struct err err;
	char *end;
	long n;

	memset(sr, 0, sizeof *sr);
	if (settings_load(&cfg, &err) < 0) {
		cli_error("%s", err.msg);
		return -1;
	}
	sr->max_age = o->max_age;
	if (sr->max_age == 0 &&
	    (v = settings_get(&cfg, "GPUCOST_MAX_AGE", "max_age")) != NULL &&
	    history_parse_duration(v, &sr->max_age, &err) < 0) {
		cli_error("max_age: expected a duration such as 1d, 12h or 90m");
		return -1;
	}
	if (sr->max_age <= 0)
		return 0;
	sr->budget = MAX_AGE_BUDGET;
	if ((v = settings_get(&cfg, "GPUCOST_MAX_AGE_BUDGET",
	    "max_age_budget")) != NULL) {
		n = strtol(v, &end, 10);
		if (end == v || *end != '\0' || n < 1 ||
		    n > MAX_AGE_BUDGET_MAX) {
			cli_error("max_age_budget: expected a number of seconds "
			    "from 1 to %d", MAX_AGE_BUDGET_MAX);
			return -1;
		}
		sr->budget = n;
	}
	/* Checked when the file was read. */
	if ((v = settings_get(&cfg, NULL, "timeout")) != NULL)
		sr->timeout = strtol(v, NULL, 10);
	if (sr->timeout <= 0 || sr->timeout > sr->budget)
		sr->timeout = sr->budget;
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
	cli_question(o, q);
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
	struct footer foot;
	char refresh_note[768] = "";
	struct stale_refresh sr;
	struct err err;
	struct db *db;
	int rc = EXIT_DATA;

	if (cli_retired(&o->filter))
		return EXIT_USAGE;
	/* The MCP server's queries never reach the network (offline). */
	memset(&sr, 0, sizeof sr);
	if (!o->offline && stale_refresh_of(o, &sr) < 0)
		return EXIT_USAGE;
	if (!o->offline && sr.max_age > 0)
		refresh_stale(o, &sr, refresh_note, sizeof refresh_note);
	query_question(o, &q);
	if ((db = cli_open_cache(o)) == NULL)
		return EXIT_DATA;
	if (!cli_region_known(db, &o->filter)) {
		db_close(db);
		return EXIT_USAGE;
	}
	answer_init(&a);
	footer_init(&foot);
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
			footer_data_age(&foot, a.plans, a.nplans, q.filter.now);
			footer_market(&foot, a.plans, a.nplans, a.left_out,
			    true, q.filter.now);
			footer_no_data(&foot, &q.filter, a.status, a.nstatus);
			footer_add(&foot, FOOTER_COUNT, "%zu offer%s in %zu "
			    "group%s", a.nplans, a.nplans == 1 ? "" : "s",
			    a.ngroups, a.ngroups == 1 ? "" : "s");
			cli_footer_print(&foot);
		}
		rc = a.matched > 0 ? EXIT_OK : EXIT_NO_MATCH;
		goto done;
	}
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
	out_opts.train = train_given(&q.filter.train) ? &q.filter.train :
	    NULL;
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
	/* --train: the first row's job on its best term, if it has one. */
	if (a.nplans > 0 && o->format == OUTPUT_TABLE &&
	    (output_train_term(stdout, &a.plans[0]) < 0 ||
	    fflush(stdout) != 0)) {
		cli_error("writing the output: %s", strerror(errno));
		goto done;
	}
	if (a.nplans == 0) {
		if (!o->quiet && !cli_explain_empty(db, o, &q.filter, &a)) {
			footer_no_data(&foot, &q.filter, a.status, a.nstatus);
			cli_footer_print(&foot);
		}
		rc = EXIT_NO_MATCH;
		/* Plans there were, but none holds the run: a refusal. */
		if (cli_train_refused(db, &q.filter)) {
			if (o->quiet)
				cli_explain_empty(db, o, &q.filter, &a);
			rc = EXIT_USAGE;
		}
	} else {
		if (!o->quiet) {
			footer_data_age(&foot, a.plans, a.nplans, out_opts.now);
			footer_market(&foot, a.plans, a.nplans, a.left_out,
			    false, out_opts.now);
			footer_no_data(&foot, &q.filter, a.status, a.nstatus);
			footer_health(&foot, db, a.plans, a.nplans,
			    out_opts.now);
			footer_count(&foot, a.plans, a.nplans, a.matched);
			if (o->format == OUTPUT_TABLE)
				footer_notes(&foot, a.plans, a.nplans,
				    out_opts.now);
			cli_footer_print(&foot);
		}
		/* JSON says them at its top; a table under it, once. */
		if (!o->quiet && o->format == OUTPUT_TABLE &&
		    out_opts.train != NULL)
			print_train(out_opts.train);
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
	footer_done(&foot);
	answer_done(&a);
	db_close(db);
	return rc;
}

const struct cmd_entry cmd_query_entry = {
	CMD_QUERY, "", "[query options]",
	"find GPU offers (the TUI on a terminal when no option is given)",
	CMD_SCOPE_QUERY, false, cmd_query_exec
};
