/*
 * cache.h: open the cache and seed it from the embedded snapshot.
 */
#ifndef GPUCOST_CACHE_H
#define GPUCOST_CACHE_H

#include <stdint.h>

struct db;
struct err;

/*
 * db_open(path), then give every provider the cache has never seen its
 * offers from the embedded snapshot, so the first run answers offline.
 * Returns 0 and *out, or -1 with err set.
 */
int	cache_open(const char *path, struct db **out, struct err *err);

#endif
