/*
 * db_complete.c: what shell completion reads from the cache: the
 * region names, hopping along the offers_region index, and the instance
 * types `gpucost launch` takes (offers_instance).
 */
#include "config.h"

#include <sqlite3.h>
#include <stdio.h>

#include "db.h"
#include "db_internal.h"
#include "err.h"

/* Each non-empty value of st's one column to emit; SQLite's last code. */
static int
emit_rows(sqlite3_stmt *st, void (*emit)(const char *, void *), void *ctx)
{
	int rc;

	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const unsigned char *r = sqlite3_column_text(st, 0);

		if (r != NULL && r[0] != '\0')
			emit((const char *)r, ctx);
	}
	return rc;
}

/* Each value of the one column sql gives, from the cache at path. */
static int
complete_names(const char *path, const char *sql_text, const char *what,
    void (*emit)(const char *, void *), void *ctx, struct err *err)
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
	if (sqlite3_prepare_v2(sql, sql_text, -1, &st, NULL) != SQLITE_OK) {
		sqlite3_close(sql);
		return 0;
	}
	rc = emit_rows(st, emit, ctx);
	if (rc != SQLITE_DONE) {
		err_set(err, "cache %s: reading the %s: %s", path, what,
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
db_region_names(const char *path, void (*emit)(const char *, void *),
    void *ctx, struct err *err)
{
	return complete_names(path, DB_REGION_NAMES_CTE " SELECT n FROM names "
	    "WHERE n IS NOT NULL", "regions", emit, ctx, err);
}

int
db_instance_types(const char *path, void (*emit)(const char *, void *),
    void *ctx, struct err *err)
{
	return complete_names(path, "SELECT DISTINCT instance_type FROM "
	    "offers INDEXED BY offers_instance ORDER BY 1", "instance types",
	    emit, ctx, err);
}

/* The region names, from a cache already open (--region's check). */
int
db_region_names_open(struct db *db, void (*emit)(const char *, void *),
    void *ctx, struct err *err)
{
	sqlite3_stmt *st;
	int rc;

	if ((st = db_prepare(db, DB_REGION_NAMES_CTE " SELECT n FROM names "
	    "WHERE n IS NOT NULL", err)) == NULL)
		return -1;
	rc = emit_rows(st, emit, ctx);
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		db_file_error(db, err);
		return -1;
	}
	return 0;
}
