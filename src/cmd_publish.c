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
#include "sign.h"
#include "xalloc.h"

/* publish --keygen FILE: a key pair for publish --sign and from_key. */
static int
keygen(const char *path)
{
	char pub[128];
	struct err err;

	if (sign_keygen(path, pub, sizeof pub, &err) < 0) {
		cli_error("publish --keygen: %s", err.msg);
		return EXIT_DATA;
	}
	printf("%s\n", pub);
	fprintf(stderr, "secret key in %s (keep it; publish --sign %s), "
	    "public key in %s.pub and above (readers: from_key = the line, "
	    "or --from-key %s.pub)\n", path, path, path, path);
	return EXIT_OK;
}

static int
cmd_publish_exec(const struct cli_options *o)
{
	struct publish_result *res;
	struct sign_secret sk;
	char path[4096], packed[32], plain[32], when[32];
	struct err err;
	struct db *db;
	int rc;

	if (o->keygen) {
		if (o->sign != NULL) {
			cli_error("publish: --keygen and --sign: make the key "
			    "first, then sign with it");
			return EXIT_USAGE;
		}
		return keygen(o->operand);
	}
	if (o->sign != NULL && sign_secret_load(o->sign, &sk, &err) < 0) {
		cli_error("publish --sign: %s", err.msg);
		return EXIT_DATA;
	}
	if (paths_db(o->db, path, sizeof path, &err) < 0 ||
	    cache_open(path, &db, &err) < 0) {
		cli_error("publish: %s", err.msg);
		if (o->sign != NULL)
			sign_secret_done(&sk);
		return EXIT_DATA;
	}
	res = xmalloc(sizeof *res);
	rc = publish_cache(db, o->operand, (int64_t)time(NULL),
	    PACKAGE_NAME " " PACKAGE_VERSION, o->sign != NULL ? &sk : NULL,
	    res, &err);
	if (o->sign != NULL)
		sign_secret_done(&sk);
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
	CMD_PUBLISH, "publish", "DIR [--sign KEYFILE] [--quiet] | --keygen KEYFILE",
	"a checked, gzipped copy of the cache for others' refresh --from",
	CMD_SCOPE_PUBLISH, false,
	cmd_publish_exec
};
