/*
 * db_settings.c: what the cache knows about each provider. Its one job:
 * the provider_status rows (new provider, failed refresh, status list)
 * and the provider_meta settings (name = value per provider).
 */
#include "config.h"
#include "db.h"

#include <sqlite3.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "db_internal.h"
#include "err.h"
#include "provider.h"
#include "str.h"
#include "xalloc.h"

int
db_provider_seed_due(struct db *db, const char *provider,
    const char *snapshot_version, bool *due, struct err *err)
{
	sqlite3_stmt *st;
	int rc;
	bool old = false;

	/* Asked of each provider by every command (cache_seed()): parsed
	 * once, not 17 times (5 % of a query's instructions). */
	if ((st = db_prepare_cached(db, DB_STMT_PROVIDER_SEED, "SELECT "
	    "s.source = 'snapshot' AND coalesce((SELECT m.value FROM "
	    "provider_meta m WHERE m.provider = s.provider AND m.name = ?3), "
	    "'') <> ?2 FROM provider_status s WHERE s.provider = ?1",
	    err)) == NULL)
		return -1;
	sqlite3_bind_text(st, 1, provider, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, snapshot_version, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, DB_META_SNAPSHOT, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		old = sqlite3_column_int(st, 0) != 0;
	else if (rc != SQLITE_DONE)
		db_file_error(db, err);
	/* Reset at once: a cached statement left stepping would keep a
	 * read transaction open. */
	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return -1;
	*due = rc == SQLITE_DONE || old;
	return 0;
}

int
db_record_failure(struct db *db, const char *provider, int64_t now,
    const char *error, struct err *err)
{
	const struct db_column_limit *lim;
	sqlite3_stmt *st;
	char *cut;
	int rc;

	/*
	 * What a copy's readers accept: an error longer than that (Azure's
	 * carry its long filter URL) would make the team's copy refused.
	 */
	lim = db_column_limit("provider_status", "last_error");
	cut = xmalloc(lim->size);
	str_cut(cut, lim->size, error);
	st = db_prepare(db, "INSERT INTO provider_status (provider, source, "
	    "last_attempt, last_error) VALUES (?1, 'snapshot', ?2, ?3) "
	    "ON CONFLICT (provider) DO UPDATE SET last_attempt = ?2, "
	    "last_error = ?3", err);
	if (st == NULL) {
		free(cut);
		return -1;
	}
	sqlite3_bind_text(st, 1, provider, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, now);
	sqlite3_bind_text(st, 3, cut, -1, SQLITE_STATIC);
	rc = db_step_done(db, st, err);
	free(cut);
	return rc;
}

/* A provider_status row. */
static void
row_status(sqlite3_stmt *st, void *elem)
{
	struct provider_status *s = elem;
	char src[16];

	db_column_text(st, 0, s->provider, sizeof s->provider);
	db_column_text(st, 1, src, sizeof src);
	s->source = strcmp(src, "live") == 0 ? SRC_LIVE : SRC_SNAPSHOT;
	s->last_attempt = sqlite3_column_int64(st, 2);
	s->last_success = sqlite3_column_int64(st, 3);
	db_column_text(st, 4, s->last_error, sizeof s->last_error);
	s->offer_count = (long)sqlite3_column_int64(st, 5);
	s->oldest = sqlite3_column_int64(st, 6);
	s->newest = sqlite3_column_int64(st, 7);
}

int
db_status(struct db *db, struct provider_status **out, size_t *n,
    struct err *err)
{
	sqlite3_stmt *st;
	void *v;
	int rc;

	*out = NULL;
	*n = 0;
	/* Counts and ages are kept by db_replace_offers_meta(). */
	st = db_prepare(db, "SELECT provider, source, last_attempt, "
	    "last_success, last_error, offer_count, coalesce(oldest, 0), "
	    "coalesce(newest, 0) FROM provider_status ORDER BY provider", err);
	if (st == NULL)
		return -1;
	rc = db_rows(db, st, sizeof **out, row_status, &v, n, err);
	*out = v;
	return rc;
}

int
db_meta_get(struct db *db, const char *provider, const char *name,
    char *value, size_t size, bool *found, struct err *err)
{
	sqlite3_stmt *st;
	int rc;

	*found = false;
	if (size > 0)
		value[0] = '\0';
	st = db_prepare(db, "SELECT value FROM provider_meta WHERE "
	    "provider = ? AND name = ?", err);
	if (st == NULL)
		return -1;
	sqlite3_bind_text(st, 1, provider, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, name, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		db_column_text(st, 0, value, size);
		*found = true;
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
		db_file_error(db, err);
		return -1;
	}
	return 0;
}

int
db_meta_set(struct db *db, const char *provider, const char *name,
    const char *value, struct err *err)
{
	sqlite3_stmt *st;

	st = db_prepare(db, "INSERT OR REPLACE INTO provider_meta (provider, "
	    "name, value) VALUES (?, ?, ?)", err);
	if (st == NULL)
		return -1;
	sqlite3_bind_text(st, 1, provider, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, name, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, value, -1, SQLITE_STATIC);
	return db_step_done(db, st, err);
}

/* A provider_meta row: name, value. */
static void
row_meta(sqlite3_stmt *st, void *elem)
{
	struct provider_meta *m = elem;

	db_column_text(st, 0, m->name, sizeof m->name);
	db_column_text(st, 1, m->value, sizeof m->value);
}

int
db_meta_list(struct db *db, const char *provider, struct provider_meta **out,
    size_t *n, struct err *err)
{
	sqlite3_stmt *st;
	void *v;
	int rc;

	*out = NULL;
	*n = 0;
	st = db_prepare(db, "SELECT name, value FROM provider_meta WHERE "
	    "provider = ? ORDER BY name", err);
	if (st == NULL)
		return -1;
	sqlite3_bind_text(st, 1, provider, -1, SQLITE_STATIC);
	rc = db_rows(db, st, sizeof **out, row_meta, &v, n, err);
	*out = v;
	return rc;
}
