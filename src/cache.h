/*
 * cache.h: open the cache and seed it from the embedded snapshot.
 */
#ifndef GPUCOST_CACHE_H
#define GPUCOST_CACHE_H

#include <stdint.h>

struct db;
struct err;

/*
 * Open the cache for reading (db_open_reader(): read-only when it may
 * not be written), then give every provider the cache has never seen its
 * offers from the embedded snapshot, so the first run answers offline,
 * and every provider whose offers are another build's snapshot this
 * build's (db_provider_seed_due()).
 * Returns 0 and *out, or -1 with err set (one line naming the file).
 */
int	cache_open(const char *path, struct db **out, struct err *err);

/*
 * The same for a writer (a refresh): the cache must be writable and
 * sound (SQLite's quick_check) before anything is downloaded into it.
 */
int	cache_open_writer(const char *path, struct db **out, struct err *err);

#endif
