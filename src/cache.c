/*
 * cache.c: the cache as the program uses it. Its one job: open the
 * SQLite file (db.h) and give every provider the cache has never seen
 * its offers from the embedded snapshot. It writes no SQL; db.c and the
 * db_*.c files are the storage itself and know nothing of the snapshot.
 */
#include "config.h"
#include "cache.h"

#include <stdbool.h>
#include <time.h>

#include "db.h"
#include "err.h"
#include "offer.h"
#include "provider.h"
#include "snapshot.h"

/* Seed every provider the cache has never seen from the snapshot. */
static int
cache_seed(struct db *db, struct err *err)
{
	struct offer_list offers;
	bool is_new;
	size_t i;

	for (i = 0; providers[i] != NULL; i++) {
		if (db_provider_is_new(db, providers[i]->id, &is_new, err) < 0)
			return -1;
		if (!is_new)
			continue;
		offer_list_init(&offers);
		if (snapshot_load(providers[i]->id, &offers, err) < 0 ||
		    db_replace_offers(db, providers[i]->id, offers.v, offers.n,
		    SRC_SNAPSHOT, (int64_t)time(NULL), NULL, err) < 0) {
			offer_list_done(&offers);
			err_prefix(err, "seeding the cache from the snapshot");
			return -1;
		}
		offer_list_done(&offers);
	}
	return 0;
}

int
cache_open(const char *path, struct db **out, struct err *err)
{
	struct db *db;

	*out = NULL;
	if (db_open_reader(path, &db, err) < 0)
		return -1;
	/* A cache we may only read is seeded by the one who writes it. */
	if (!db_read_only(db) && cache_seed(db, err) < 0) {
		db_close(db);
		return -1;
	}
	*out = db;
	return 0;
}

int
cache_open_writer(const char *path, struct db **out, struct err *err)
{
	struct db *db;

	*out = NULL;
	if (db_open(path, &db, err) < 0)
		return -1;
	if (db_check_sound(db, err) < 0 || cache_seed(db, err) < 0) {
		db_close(db);
		return -1;
	}
	*out = db;
	return 0;
}
