/*
 * cache.c: the cache as the program uses it. Its one job: open the
 * SQLite file (db.h) and give every provider the cache has never seen
 * (or holds another build's snapshot of) its offers from the embedded
 * snapshot. It writes no SQL; db.c and the
 * db_*.c files are the storage itself and know nothing of the snapshot.
 */
#include "config.h"
#include "cache.h"

#include <stdbool.h>
#include <string.h>
#include <time.h>

#include "db.h"
#include "err.h"
#include "offer.h"
#include "provider.h"
#include "snapshot.h"
#include "str.h"

/*
 * Seed every provider the cache has never seen from the snapshot, and
 * reseed every one whose offers are still another build's snapshot: an
 * upgraded gpucost must not go on answering from the snapshot it
 * replaced (instances since retired, a spot market since closed).
 */
static int
cache_seed(struct db *db, struct err *err)
{
	struct offer_list offers;
	struct provider_meta meta;
	bool due;
	size_t i;

	memset(&meta, 0, sizeof meta);
	str_copy(meta.name, sizeof meta.name, DB_META_SNAPSHOT);
	str_copy(meta.value, sizeof meta.value, snapshot_tsv_version);
	for (i = 0; providers[i] != NULL; i++) {
		if (db_provider_seed_due(db, providers[i]->id,
		    snapshot_tsv_version, &due, err) < 0)
			return -1;
		if (!due)
			continue;
		offer_list_init(&offers);
		if (snapshot_load(providers[i]->id, &offers, err) < 0 ||
		    db_replace_offers_meta(db, providers[i]->id, offers.v,
		    offers.n, SRC_SNAPSHOT, &meta, 1, (int64_t)time(NULL), NULL,
		    err) < 0) {
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
