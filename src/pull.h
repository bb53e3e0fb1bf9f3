/*
 * pull.h: `gpucost refresh --from URL|DIR`: bring a published cache
 * (publish.h) into this one.
 *
 * Under the refresh lock: the manifest is fetched (over http(s)
 * conditionally, with the ETag / Last-Modified of the last time); when
 * the server says "not modified" or it names the data already
 * imported, nothing more is transferred. Otherwise the data file is
 * streamed, hashed and decompressed into a temporary file next to the
 * cache, at most the manifest's sizes; its size, sha256, gzip trailer,
 * SQLite integrity and schema are checked (db_open_snapshot()); then
 * db_merge_from() merges it per provider in one transaction. Any
 * refusal leaves the cache as it was and removes the temporary file.
 */
#ifndef GPUCOST_PULL_H
#define GPUCOST_PULL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "db.h"
#include "manifest.h"
#include "offer.h"

struct err;

#define PULL_BUSY	(-2)	/* another refresh holds the lock */
#define PULL_REFUSED	(-3)	/* the source: unreachable, bad, tampered */

/* The cache's own provider_meta owner for the pull state. */
#define PULL_META_OWNER	"@from"

struct pull_options {
	const char	*db_path;
	const char	*source;	/* http(s) URL or a directory */
	char		 providers[FILTER_PROVIDERS_MAX][OFFER_PROVIDER_MAX];
	size_t		 nproviders;	/* 0: every provider */
	long		 timeout;	/* seconds per transfer; 0: default */
	long		 lock_wait;	/* seconds */
};

struct pull_report {
	bool		 not_modified;	/* the server answered 304 */
	bool		 already;	/* the manifest names what we imported */
	struct manifest	 manifest;	/* when one was read */
	uint64_t	 manifest_bytes;	/* transferred */
	uint64_t	 data_bytes;		/* transferred */
	struct db_merge_result res[MANIFEST_PROVIDERS_MAX];
	size_t		 nres;
};

/*
 * Pull opts->source into the cache. Returns 0 (rep says what happened);
 * PULL_BUSY or PULL_REFUSED with one line in err naming the URL or file
 * and the cause; or -1 with err for the cache's own failures.
 */
int	pull_cache(const struct pull_options *opts, struct pull_report *rep,
	    struct err *err);

#endif
