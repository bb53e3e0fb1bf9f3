/*
 * db_complete.c: what shell completion reads from the cache: the
 * region names, hopping along the offers_region index.
 */
#include "config.h"

#include <sqlite3.h>
#include <stdio.h>

#include "db.h"
#include "db_internal.h"
#include "err.h"

int
db_region_names(const char *path, void (*emit)(const char *, void *),
    void *ctx, struct err *err)
{
	sqlite3 *sql = NULL;
	sqlite3_stmt *st = NULL;
	int rc;

	/* No file: nothing to offer, and nothing may be created. */
	if (sqlite3_open_v2(path, &sql, SQLITE_OPEN_READONLY, NULL) !=
	    SQLITE_OK) {
		sqlite3_close(sql);
		return 0;
	}
	sqlite3_busy_timeout(sql, 200);
	/* A cache without the table (not ours, or new): no names. */
	if (sqlite3_prepare_v2(sql, DB_REGION_NAMES_CTE " SELECT n FROM names "
	    "WHERE n IS NOT NULL", -1, &st, NULL) != SQLITE_OK) {
		sqlite3_close(sql);
		return 0;
	}
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const unsigned char *r = sqlite3_column_text(st, 0);

		if (r != NULL && r[0] != '\0')
			emit((const char *)r, ctx);
	}
	if (rc != SQLITE_DONE) {
		err_set(err, "cache %s: reading the regions: %s", path,
		    sqlite3_errmsg(sql));
		sqlite3_finalize(st);
		sqlite3_close(sql);
		return -1;
	}
	sqlite3_finalize(st);
	sqlite3_close(sql);
	return 0;
}

int
db_region_names_open(struct db *db, void (*emit)(const char *, void *),
    void *ctx, struct err *err)
{
	sqlite3_stmt *st;
	int rc;

	if ((st = db_prepare(db, DB_REGION_NAMES_CTE " SELECT n FROM names "
	    "WHERE n IS NOT NULL", err)) == NULL)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const unsigned char *r = sqlite3_column_text(st, 0);

		if (r != NULL && r[0] != '\0')
			emit((const char *)r, ctx);
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		db_file_error(db, err);
		return -1;
	}
	return 0;
}
