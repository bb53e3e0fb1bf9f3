/*
 * db_history.c: what the cache remembers over time. Its one job: price
 * history (change points and refresh times, and their pruning) and the
 * stored watches with the offers each last saw.
 */
#include "config.h"
#include "db.h"

#include <sqlite3.h>
#include <stdint.h>

#include "db_internal.h"
#include "err.h"
#include "offer.h"

/* A price point: observed_at, price, spot_price, availability. */
static void
row_point(sqlite3_stmt *st, void *elem)
{
	struct price_point *p = elem;
	char buf[16];

	p->at = sqlite3_column_int64(st, 0);
	p->price = db_stmt_money(st, 1);
	p->spot_price = db_stmt_money(st, 2);
	db_column_text(st, 3, buf, sizeof buf);
	if (availability_parse(buf, &p->availability) < 0)
		p->availability = AV_UNKNOWN;
}

int
db_history(struct db *db, const char *provider, const char *key,
    struct price_point **out, size_t *n, struct err *err)
{
	sqlite3_stmt *st;
	void *v;
	int rc;

	*out = NULL;
	*n = 0;
	st = db_prepare(db, "SELECT observed_at, price, spot_price, "
	    "availability FROM price_history WHERE provider = ? AND key = ? "
	    "ORDER BY observed_at, rowid", err);
	if (st == NULL)
		return -1;
	sqlite3_bind_text(st, 1, provider, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, key, -1, SQLITE_STATIC);
	rc = db_rows(db, st, sizeof **out, row_point, &v, n, err);
	*out = v;
	return rc;
}

/* One integer column. */
static void
row_int64(sqlite3_stmt *st, void *elem)
{
	*(int64_t *)elem = sqlite3_column_int64(st, 0);
}

int
db_refresh_times(struct db *db, const char *provider, int64_t since,
    int64_t **out, size_t *n, struct err *err)
{
	sqlite3_stmt *st;
	void *v;
	int rc;

	*out = NULL;
	*n = 0;
	st = db_prepare(db, "SELECT at FROM refresh_log WHERE provider = ? "
	    "AND at >= ? ORDER BY at", err);
	if (st == NULL)
		return -1;
	sqlite3_bind_text(st, 1, provider, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, since);
	rc = db_rows(db, st, sizeof **out, row_int64, &v, n, err);
	*out = v;
	return rc;
}

int
db_prune_history(struct db *db, int64_t before, struct err *err)
{
	sqlite3_stmt *st;
	int rc;

	/*
	 * Old change points go, except each offer's last one before the
	 * cut: it is the price the period starts at.
	 */
	st = db_prepare(db, "DELETE FROM price_history AS h WHERE "
	    "observed_at < ?1 AND observed_at < (SELECT max(observed_at) FROM "
	    "price_history WHERE provider = h.provider AND key = h.key AND "
	    "observed_at < ?1);"
	    , err);
	if (st == NULL)
		return -1;
	sqlite3_bind_int64(st, 1, before);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		db_err(db, err, "write failed");
		return -1;
	}
	st = db_prepare(db, "DELETE FROM committed_history AS h WHERE "
	    "observed_at < ?1 AND observed_at < (SELECT max(observed_at) FROM "
	    "committed_history WHERE provider = h.provider AND key = h.key "
	    "AND kind = h.kind AND months = h.months AND upfront = h.upfront "
	    "AND observed_at < ?1)", err);
	if (st == NULL)
		return -1;
	sqlite3_bind_int64(st, 1, before);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		db_err(db, err, "write failed");
		return -1;
	}
	st = db_prepare(db, "DELETE FROM refresh_log WHERE at < ?", err);
	if (st == NULL)
		return -1;
	sqlite3_bind_int64(st, 1, before);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		db_err(db, err, "write failed");
		return -1;
	}
	return 0;
}

/* A watch_offer row. */
static void
row_watch_offer(sqlite3_stmt *st, void *elem)
{
	struct db_watch_offer *w = elem;
	char buf[16];

	db_column_text(st, 0, w->provider, sizeof w->provider);
	db_column_text(st, 1, w->key, sizeof w->key);
	w->price = db_stmt_money(st, 2);
	db_column_text(st, 3, buf, sizeof buf);
	if (availability_parse(buf, &w->availability) < 0)
		w->availability = AV_UNKNOWN;
	w->reported_at = sqlite3_column_int64(st, 4);
}

int
db_watch_load(struct db *db, const char *query, struct db_watch_offer **out,
    size_t *n, bool *known, struct err *err)
{
	sqlite3_stmt *st;
	void *v;
	int rc;

	*out = NULL;
	*n = 0;
	*known = false;
	if ((st = db_prepare(db, "SELECT 1 FROM watch WHERE query = ?", err))
	    == NULL)
		return -1;
	sqlite3_bind_text(st, 1, query, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
		db_file_error(db, err);
		return -1;
	}
	*known = rc == SQLITE_ROW;
	st = db_prepare(db, "SELECT provider, key, price, availability, "
	    "reported_at FROM watch_offer WHERE query = ?", err);
	if (st == NULL)
		return -1;
	sqlite3_bind_text(st, 1, query, -1, SQLITE_STATIC);
	rc = db_rows(db, st, sizeof **out, row_watch_offer, &v, n, err);
	*out = v;
	return rc;
}

int
db_watch_store(struct db *db, const char *query,
    const struct db_watch_offer *v, size_t n, int64_t now, struct err *err)
{
	sqlite3_stmt *st = NULL;
	size_t i;

	if (db_exec(db, "BEGIN IMMEDIATE", err) < 0)
		return -1;
	if ((st = db_prepare(db, "INSERT INTO watch (query, created_at, "
	    "last_run) VALUES (?1, ?2, ?2) ON CONFLICT (query) DO UPDATE SET "
	    "last_run = ?2", err)) == NULL)
		goto fail;
	sqlite3_bind_text(st, 1, query, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, now);
	if (sqlite3_step(st) != SQLITE_DONE)
		goto sqlfail;
	sqlite3_finalize(st);
	if ((st = db_prepare(db, "DELETE FROM watch_offer WHERE query = ?",
	    err)) == NULL)
		goto fail;
	sqlite3_bind_text(st, 1, query, -1, SQLITE_STATIC);
	if (sqlite3_step(st) != SQLITE_DONE)
		goto sqlfail;
	sqlite3_finalize(st);
	if ((st = db_prepare(db, "INSERT OR REPLACE INTO watch_offer (query, "
	    "provider, key, price, availability, reported_at) VALUES "
	    "(?, ?, ?, ?, ?, ?)", err)) == NULL)
		goto fail;
	for (i = 0; i < n; i++) {
		sqlite3_bind_text(st, 1, query, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 2, v[i].provider, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 3, v[i].key, -1, SQLITE_STATIC);
		db_bind_money(st, 4, v[i].price);
		sqlite3_bind_text(st, 5, availability_name(v[i].availability),
		    -1, SQLITE_STATIC);
		sqlite3_bind_int64(st, 6, v[i].reported_at);
		if (sqlite3_step(st) != SQLITE_DONE)
			goto sqlfail;
		sqlite3_reset(st);
	}
	sqlite3_finalize(st);
	st = NULL;
	if (db_exec(db, "COMMIT", err) < 0)
		goto fail;
	return 0;
sqlfail:
	db_err(db, err, "write failed");
fail:
	sqlite3_finalize(st);
	sqlite3_exec(db->sql, "ROLLBACK", NULL, NULL, NULL);
	return -1;
}

/* A stored watch with the number of offers it tracks. */
static void
row_watch(sqlite3_stmt *st, void *elem)
{
	struct db_watch *w = elem;

	db_column_text(st, 0, w->query, sizeof w->query);
	w->created_at = sqlite3_column_int64(st, 1);
	w->last_run = sqlite3_column_int64(st, 2);
	w->offers = (size_t)sqlite3_column_int64(st, 3);
}

int
db_watch_list(struct db *db, struct db_watch **out, size_t *n,
    struct err *err)
{
	sqlite3_stmt *st;
	void *v;
	int rc;

	*out = NULL;
	*n = 0;
	st = db_prepare(db, "SELECT w.query, w.created_at, w.last_run, "
	    "(SELECT count(*) FROM watch_offer o WHERE o.query = w.query) "
	    "FROM watch w ORDER BY w.created_at, w.query", err);
	if (st == NULL)
		return -1;
	rc = db_rows(db, st, sizeof **out, row_watch, &v, n, err);
	*out = v;
	return rc;
}

int
db_watch_forget(struct db *db, const char *query, bool *found,
    struct err *err)
{
	sqlite3_stmt *st = NULL;

	*found = false;
	if (db_exec(db, "BEGIN IMMEDIATE", err) < 0)
		return -1;
	if ((st = db_prepare(db, "DELETE FROM watch WHERE query = ?", err)) ==
	    NULL)
		goto fail;
	sqlite3_bind_text(st, 1, query, -1, SQLITE_STATIC);
	if (sqlite3_step(st) != SQLITE_DONE)
		goto sqlfail;
	*found = sqlite3_changes(db->sql) > 0;
	sqlite3_finalize(st);
	if ((st = db_prepare(db, "DELETE FROM watch_offer WHERE query = ?",
	    err)) == NULL)
		goto fail;
	sqlite3_bind_text(st, 1, query, -1, SQLITE_STATIC);
	if (sqlite3_step(st) != SQLITE_DONE)
		goto sqlfail;
	sqlite3_finalize(st);
	st = NULL;
	return db_exec(db, "COMMIT", err) < 0 ? -1 : 0;
sqlfail:
	db_err(db, err, "write failed");
fail:
	sqlite3_finalize(st);
	sqlite3_exec(db->sql, "ROLLBACK", NULL, NULL, NULL);
	return -1;
}
