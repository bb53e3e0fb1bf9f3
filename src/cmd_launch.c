/*
 * cmd_launch.c: `gpucost launch KEY [query options] [--spot | --vertex]`:
 * the provider's own command that rents the plan the query shows (issue
 * 48). It asks answer_get() the query's question (its filters, --count,
 * --nodes, --multi-node, --fabric, --sort ...), so the row it launches
 * is the table's row and JSON's offer, command for command; KEY names
 * the row (launch_find(): a key, an instance type as the table shows
 * it, or TYPE/REGION). A plan of several nodes is followed by its
 * setup steps (JSON's cluster_setup) as shell comments.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "answer.h"
#include "cli.h"
#include "cost.h"
#include "db.h"
#include "err.h"
#include "launch.h"
#include "money.h"
#include "offer.h"
#include "query.h"
#include "region.h"
#include "str.h"
#include "xalloc.h"

#define LAUNCH_WHY_MAX	1024

/*
 * KEY is no row of the answer: say why. An offer of the cache it names
 * is left out by the question (which option, query_explain_empty(), or
 * a market reference); else the keys and types it may have meant.
 */
static void
launch_not_found(struct db *db, const struct cli_options *o,
    const struct question *q)
{
	struct offer_filter all;
	struct offer_list offers;
	struct launch_pick pick;
	struct plan *plans = NULL;
	char key[160], why[LAUNCH_WHY_MAX], near[512], what[192];
	const struct offer *hit;
	struct offer *named = NULL;
	struct err err;
	size_t i, nnamed = 0;

	str_quoted(o->operand, key, sizeof key);
	offer_list_init(&offers);
	offer_filter_init(&all);
	all.now = q->filter.now;
	all.include_stale = true;
	if (db_query(db, &all, &offers, &err) < 0) {
		cli_error("launch: %s", err.msg);
		goto done;
	}
	plans = xreallocarray(NULL, offers.n > 0 ? offers.n : 1,
	    sizeof *plans);
	for (i = 0; i < offers.n; i++)
		cost_plan(&plans[i], &offers.v[i], 1);
	if (launch_find(plans, offers.n, o->operand, &pick) == LAUNCH_NONE) {
		if (launch_suggest(offers.v, offers.n, o->operand, near,
		    sizeof near) > 0)
			cli_error("launch: no offer has the key %s; did you "
			    "mean %s?", key, near);
		else
			cli_error("launch: no offer has the key %s (the "
			    "table's INSTANCE, or JSON's key, names one)",
			    key);
		goto done;
	}
	hit = plans[pick.row].offer;
	/*
	 * What KEY names: its offer, or every region's of a type (a shallow
	 * copy each, their text the list's): why the question leaves out
	 * all of them, not the one region the pick happened to fall on.
	 */
	named = xreallocarray(NULL, offers.n, sizeof *named);
	for (i = 0; i < offers.n; i++)
		if (pick.by_type ? strcmp(offers.v[i].provider,
		    hit->provider) == 0 && strcmp(offers.v[i].instance_type,
		    hit->instance_type) == 0 : &offers.v[i] == hit)
			named[nnamed++] = offers.v[i];
	/* A type names no one region: say none. */
	snprintf(what, sizeof what, "%s %s%s%s", hit->provider,
	    hit->instance_type, pick.by_type ? "" : " in ",
	    pick.by_type ? "" : hit->region);
	if (offer_market_reference(hit, q->filter.now) &&
	    !q->filter.include_stale)
		cli_error("launch: %s is %s, a marketplace listing older than "
		    "a day (a market reference, not an offer: --include-stale "
		    "shows it)", key, what);
	else if (query_explain_empty(named, nnamed, &q->filter, why,
	    sizeof why) > 0)
		cli_error("launch: %s is %s, which these options leave out: "
		    "%s", key, what, why);
	else
		cli_error("launch: %s is %s, which these options leave out",
		    key, what);
done:
	free(named);
	free(plans);
	offer_list_done(&offers);
}

/*
 * The region the command names for an offer priced the same everywhere:
 * the one KEY chose, else --region when it is one of the provider's own
 * names; NULL leaves the offer's (the command says REGION and lists them).
 */
static const char *
launch_region(const struct cli_options *o, const struct offer *of,
    const struct launch_pick *pick)
{
	if (pick->region != NULL)
		return pick->region;
	if (region_is_any(of->region) && o->filter.region[0] != '\0' &&
	    region_listed(of->provider, o->filter.region))
		return o->filter.region;
	return NULL;
}

/*
 * The command, then a plan's setup steps (launch_cluster_setup(): "; "
 * between them, never inside parentheses) as "# " lines.
 */
static int
launch_print(const struct plan *p, const char *cmd)
{
	char steps[LAUNCH_CMD_MAX], *s;
	int depth = 0;

	printf("%s\n", cmd);
	if (launch_cluster_setup(p, steps, sizeof steps) > 0) {
		printf("# %d nodes of %s: ", p->nodes, p->offer->instance_type);
		for (s = steps; *s != '\0'; s++) {
			depth += *s == '(' ? 1 : *s == ')' && depth > 0 ? -1 : 0;
			if (depth == 0 && s[0] == ';' && s[1] == ' ') {
				fputs("\n# ", stdout);
				s++;
			} else
				putchar(*s);
		}
		putchar('\n');
	}
	return fflush(stdout) == 0 ? 0 : -1;
}

static int
cmd_launch_exec(const struct cli_options *o)
{
	struct question q;
	struct answer a;
	struct launch_pick pick;
	struct offer chosen;
	struct plan plan;
	const struct offer *of;
	const char *region;
	char key[160], *cmd = NULL;
	size_t size = LAUNCH_CMD_MAX;
	struct err err;
	struct db *db;
	int rc = EXIT_DATA;

	if (cli_retired(&o->filter))
		return EXIT_USAGE;
	if ((db = cli_open_cache(o)) == NULL)
		return EXIT_DATA;
	/* The query's question, every row of it, unfolded. */
	cli_question(o, &q);
	answer_init(&a);
	if (answer_get(db, &q, &a, &err) < 0) {
		cli_error("launch: %s", err.msg);
		goto done;
	}
	str_quoted(o->operand, key, sizeof key);
	switch (launch_find(a.plans, a.nplans, o->operand, &pick)) {
	case LAUNCH_NONE:
		launch_not_found(db, o, &q);
		rc = EXIT_NO_MATCH;
		goto done;
	case LAUNCH_AMBIGUOUS:
		cli_error("launch: %s is at %s and %s: name one with "
		    "--provider", key, a.plans[pick.row].offer->provider,
		    pick.other);
		rc = EXIT_USAGE;
		goto done;
	case LAUNCH_FOUND:
		break;
	}
	plan = a.plans[pick.row];
	of = plan.offer;
	/* An offer of every region, launched in the one asked for. */
	if ((region = launch_region(o, of, &pick)) != NULL) {
		chosen = *of;
		chosen.region = region;
		plan.offer = &chosen;
	}
	cmd = xmalloc(size);
	if (o->filter.vertex) {
		if (launch_vertex_command(&plan, cmd, size) == 0) {
			cli_error("launch: Vertex AI training does not offer "
			    "%s in %s", of->instance_type, of->region);
			rc = EXIT_NO_MATCH;
			goto done;
		}
	} else if (o->filter.spot) {
		if (launch_spot_command(&plan, cmd, size) == 0) {
			cli_error("launch: %s %s has no spot price, so no spot "
			    "command; drop --spot for the on-demand one",
			    of->provider, of->instance_type);
			rc = EXIT_NO_MATCH;
			goto done;
		}
	} else if (launch_command(&plan, cmd, size) == 0) {
		cli_error("launch: %s %s has no on-demand command%s",
		    of->provider, of->instance_type,
		    money_known(of->spot_price) ? "; --spot gives the "
		    "spot one" : "");
		rc = EXIT_NO_MATCH;
		goto done;
	}
	rc = launch_print(&plan, cmd) == 0 ? EXIT_OK : EXIT_DATA;
done:
	free(cmd);
	answer_done(&a);
	db_close(db);
	return rc;
}

const struct cmd_entry cmd_launch_entry = {
	CMD_LAUNCH, "launch", "KEY [query options] [--spot | --vertex]",
	"the command that rents the query's row KEY (instance or JSON key)",
	CMD_SCOPE_LAUNCH, false,
	cmd_launch_exec
};
