/*
 * publish.h: `gpucost publish DIR`: a consistent, verified, compressed
 * copy of the cache in DIR for others to pull, and its manifest.
 *
 * Under DIR/.gpucost-publish.lock: the copy (db_publish_copy(): VACUUM
 * INTO, so refreshes go on) is gzipped to a temporary name, fsync'd and
 * renamed to gpucost-<created>-<sha8>.db.gz; then manifest.json is
 * written to a temporary name, fsync'd and renamed (last: a reader never
 * sees a manifest naming a file that is not whole), and DIR is fsync'd.
 * When the data is the same as the current manifest names, both stay
 * as they are (readers' conditional requests then cost nothing). Data
 * files other than the new one and the one the previous manifest
 * named (a reader may be downloading it) are removed, as are temporary
 * files a killed publish left.
 */
#ifndef GPUCOST_PUBLISH_H
#define GPUCOST_PUBLISH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "manifest.h"

struct db;
struct err;
struct sign_secret;

#define PUBLISH_LOCK_WAIT	60	/* seconds to wait for another publish */

struct publish_result {
	struct manifest manifest;	/* as written */
	bool	unchanged;		/* the data was already published:
					   manifest the one there, untouched */
	size_t	pruned;			/* old data files removed */
	double	seconds;		/* copy, check, compress, write */
};

/*
 * Publish the cache db into the existing directory dir; created_at is
 * now, generator names this program ("gpucost 0.1.0"); sk (or NULL)
 * signs the manifest (sign.h). The same data under a manifest signed
 * otherwise gets a new manifest naming the same file. Returns 0, or -1
 * with err (one line naming the file) and DIR as it was, but for
 * temporary files removed.
 */
int	publish_cache(struct db *db, const char *dir, int64_t now,
	    const char *generator, const struct sign_secret *sk,
	    struct publish_result *res, struct err *err);

#endif
