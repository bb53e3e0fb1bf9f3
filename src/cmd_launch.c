/*
 * cmd_launch.c: `gpucost launch KEY [--spot | --vertex]`: the provider's
 * own command that rents one offer, by the key the machine formats print
 * (JSON "key"), without a detour through --format json | jq.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cost.h"
#include "db.h"
#include "err.h"
#include "launch.h"
#include "offer.h"
#include "str.h"

/* The offers whose key is key (at --provider's providers if given). */
static size_t
find_offers(const struct offer_list *all, const char *key,
    const struct offer **found, size_t max)
{
	size_t i, n = 0;

	for (i = 0; i < all->n; i++)
		if (strcmp(all->v[i].key, key) == 0 && n < max)
			found[n++] = &all->v[i];
	return n;
}

static int
cmd_launch_exec(const struct cli_options *o)
{
	const struct offer *found[8];
	struct offer_filter f;
	struct offer_list offers;
	struct plan plan;
	char q[160], *cmd = NULL;
	size_t n, size = 8192;
	struct err err;
	struct db *db;
	int rc = EXIT_DATA;

	if ((db = cli_open_cache(o)) == NULL)
		return EXIT_DATA;
	offer_filter_init(&f);
	memcpy(f.providers, o->filter.providers, sizeof f.providers);
	f.nproviders = o->filter.nproviders;
	offer_list_init(&offers);
	if (db_query(db, &f, &offers, &err) < 0) {
		cli_error("launch: %s", err.msg);
		goto done;
	}
	n = find_offers(&offers, o->operand, found, 8);
	if (n == 0) {
		cli_error("launch: no offer has the key %s%s ('gpucost --format "
		    "json' prints each offer's key)", str_quoted(o->operand, q,
		    sizeof q), f.nproviders > 0 ? " at that --provider" : "");
		rc = EXIT_NO_MATCH;
		goto done;
	}
	if (n > 1) {
		cli_error("launch: the key %s is at %s and %s: name one with "
		    "--provider", str_quoted(o->operand, q, sizeof q),
		    found[0]->provider, found[1]->provider);
		rc = EXIT_USAGE;
		goto done;
	}
	cost_plan(&plan, found[0], 1);
	cmd = malloc(size);
	if (cmd == NULL) {
		cli_error("launch: out of memory");
		goto done;
	}
	if (o->filter.vertex) {
		if (launch_vertex_command(&plan, cmd, size) == 0) {
			cli_error("launch: Vertex AI training does not offer "
			    "%s in %s", found[0]->instance_type,
			    found[0]->region);
			rc = EXIT_NO_MATCH;
			goto done;
		}
	} else if (o->filter.spot) {
		if (launch_spot_command(&plan, cmd, size) == 0) {
			cli_error("launch: %s %s has no spot price, so no spot "
			    "command; drop --spot for the on-demand one",
			    found[0]->provider, found[0]->instance_type);
			rc = EXIT_NO_MATCH;
			goto done;
		}
	} else if (launch_command(&plan, cmd, size) == 0) {
		cli_error("launch: %s %s has no on-demand command%s",
		    found[0]->provider, found[0]->instance_type,
		    money_known(found[0]->spot_price) ? "; --spot gives the "
		    "spot one" : "");
		rc = EXIT_NO_MATCH;
		goto done;
	}
	printf("%s\n", cmd);
	rc = fflush(stdout) == 0 ? EXIT_OK : EXIT_DATA;
done:
	free(cmd);
	offer_list_done(&offers);
	db_close(db);
	return rc;
}

const struct cmd_entry cmd_launch_entry = {
	CMD_LAUNCH, "launch", "KEY [--provider ID] [--spot | --vertex]",
	"the command that rents the offer KEY (JSON's key)",
	CMD_SCOPE_LAUNCH, false,
	cmd_launch_exec
};
