/*
 * cmd_publish.c: `gpucost publish DIR`: a verified, compressed copy of
 * the cache and its manifest in DIR, for `gpucost refresh --from`.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cache.h"
#include "cli.h"
#include "db.h"
#include "err.h"
#include "paths.h"
#include "publish.h"
#include "xalloc.h"

static int
cmd_publish_exec(const struct cli_options *o)
{
	struct publish_result *res;
	char path[4096], packed[32], plain[32], when[32];
	struct err err;
	struct db *db;
	int rc;

	if (paths_db(o->db, path, sizeof path, &err) < 0 ||
	    cache_open(path, &db, &err) < 0) {
		cli_error("publish: %s", err.msg);
		return EXIT_DATA;
	}
	res = xmalloc(sizeof *res);
	rc = publish_cache(db, o->operand, (int64_t)time(NULL),
	    PACKAGE_NAME " " PACKAGE_VERSION, res, &err);
	db_close(db);
	if (rc < 0) {
		cli_error("publish: %s", err.msg);
		free(res);
		return EXIT_DATA;
	}
	if (!o->quiet && res->unchanged) {
		manifest_time(res->manifest.created_at, when, sizeof when);
		fprintf(stderr, "unchanged: %s/%s, published %s, holds the "
		    "same data; left as it is\n", o->operand,
		    res->manifest.file, when);
	} else if (!o->quiet) {
		cli_human_bytes(res->manifest.size, packed, sizeof packed);
		cli_human_bytes(res->manifest.db_size, plain, sizeof plain);
		fprintf(stderr, "published %s/%s: %s (%s uncompressed, %.0f%%), "
		    "%zu providers, in %.1f s", o->operand, res->manifest.file,
		    packed, plain, 100.0 * (double)res->manifest.size /
		    (double)res->manifest.db_size, res->manifest.nproviders,
		    res->seconds);
		if (res->pruned > 0)
			fprintf(stderr, "; removed %zu older data file%s",
			    res->pruned, res->pruned == 1 ? "" : "s");
		fputc('\n', stderr);
	}
	free(res);
	return EXIT_OK;
}

const struct cmd_entry cmd_publish_entry = {
	CMD_PUBLISH, "publish", "DIR [--quiet]",
	"a checked, gzipped copy of the cache for others' refresh --from",
	CMD_SCOPE_PUBLISH, false,
	cmd_publish_exec
};
