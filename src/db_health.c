/*
 * db_health.c: the cache's record of refresh outcomes, what a
 * provider's health is judged by (health.h). SQL lives only in the
 * cache's files.
 */
#include "config.h"

#include <sqlite3.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "db.h"
#include "db_internal.h"
#include "err.h"

#define DAY		86400
#define OUTCOMES_MAX	1000	/* read back: far more than a month holds */

int
db_log_outcome(struct db *db, const char *provider, int64_t at, bool ok,
    long offers, const char *endpoint, struct err *err)
{
	sqlite3_stmt *st;

	if ((st = db_prepare(db, "INSERT INTO refresh_outcome (provider, at, "
	    "ok, offers, endpoint) VALUES (?1, ?2, ?3, ?4, ?5)", err)) == NULL)
		return -1;
	sqlite3_bind_text(st, 1, provider, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, at);
	sqlite3_bind_int(st, 3, ok);
	sqlite3_bind_int64(st, 4, offers);
	sqlite3_bind_text(st, 5, endpoint != NULL ? endpoint : "", -1,
	    SQLITE_STATIC);
	if (db_step_done(db, st, err) < 0)
		return -1;
	/* The median needs the last successes, whatever their age. */
	if ((st = db_prepare(db, "DELETE FROM refresh_outcome WHERE "
	    "provider = ?1 AND at < ?2 AND rowid NOT IN (SELECT rowid FROM "
	    "refresh_outcome WHERE provider = ?1 AND ok = 1 ORDER BY at DESC "
	    "LIMIT ?3)", err)) == NULL)
		return -1;
	sqlite3_bind_text(st, 1, provider, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, at - (int64_t)HEALTH_KEEP_DAYS * DAY);
	sqlite3_bind_int(st, 3, HEALTH_MEDIAN_OF + 1);
	return db_step_done(db, st, err);
}

static void
row_outcome(sqlite3_stmt *st, void *elem)
{
	struct refresh_outcome *o = elem;

	o->at = sqlite3_column_int64(st, 0);
	o->ok = sqlite3_column_int(st, 1) != 0;
	o->offers = (long)sqlite3_column_int64(st, 2);
	db_column_text(st, 3, o->endpoint, sizeof o->endpoint);
}

int
db_outcomes(struct db *db, const char *provider, struct refresh_outcome **out,
    size_t *n, struct err *err)
{
	sqlite3_stmt *st;
	void *v;
	int rc;

	*out = NULL;
	*n = 0;
	if ((st = db_prepare(db, "SELECT at, ok, offers, endpoint FROM "
	    "refresh_outcome WHERE provider = ? ORDER BY at DESC, rowid DESC "
	    "LIMIT ?", err)) == NULL)
		return -1;
	sqlite3_bind_text(st, 1, provider, -1, SQLITE_STATIC);
	sqlite3_bind_int(st, 2, OUTCOMES_MAX);
	rc = db_rows(db, st, sizeof **out, row_outcome, &v, n, err);
	*out = v;
	return rc;
}
