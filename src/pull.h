/*
 * pull.h: `gpucost refresh --from URL|DIR`: bring a published cache
 * (publish.h) into this one.
 *
 * Under the refresh lock, all of it within the deadline and stopped by
 * SIGINT, SIGTERM or SIGHUP (recorded in the status of the providers
 * being pulled, as an interrupted refresh is): the manifest is fetched
 * (over http(s) conditionally, with the ETag / Last-Modified of the
 * last time, but only when that pull merged every provider asked for
 * now; a 304 to a request without validators is refused); its date
 * may not be ahead of this clock (DB_COPY_SKEW) and, with a pinned key,
 * its signature must match. When it names the copy every provider
 * asked for was merged from (the state keeps, per provider, the sha256
 * it was last merged from), nothing more is transferred. Otherwise
 * the data file (beside the URL that answered for the manifest, after
 * redirects) is streamed as the server holds it (no Content-Encoding
 * undone) into a temporary file, hashed, at most the manifest's size,
 * after a free-space check; only when its size and sha256 match is it
 * inflated, at most the manifest's db_size; then db_merge_from() checks
 * and merges it. Any refusal leaves the cache as it was and removes
 * the temporary files. A password in the source URL appears in no
 * message (str_url_redact()).
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
/* Its name prefix for "the copy provider X was last merged from". */
#define PULL_META_MERGED	"merged/"
/* The most a pull may take unless --deadline says (refresh's default). */
#define PULL_DEADLINE_DEFAULT	900

struct sign_public;

struct pull_options {
	const char	*db_path;
	const char	*source;	/* http(s) URL or a directory */
	char		 providers[FILTER_PROVIDERS_MAX][OFFER_PROVIDER_MAX];
	size_t		 nproviders;	/* 0: every provider */
	long		 timeout;	/* seconds per transfer; 0: default */
	long		 lock_wait;	/* seconds */
	long		 deadline;	/* seconds for the whole pull; 0: default */
	int64_t		 now;		/* UTC epoch seconds (the clock) */
	bool		 catch_signals;	/* stop and record on INT/TERM/HUP */
	const struct sign_public *key;	/* pinned key, or NULL */
};

struct pull_report {
	bool		 not_modified;	/* the server answered 304 */
	bool		 already;	/* the manifest names what we imported */
	bool		 signed_by;	/* its signature matched the pinned key */
	int		 signal;	/* the signal that ended it, or 0 */
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
