/*
 * db_share.c: sharing one cache (gpucost publish, refresh --from). Its
 * one job: a consistent copy for others, opening such a copy with its
 * checks, and merging it into this cache provider by provider.
 */
#include "config.h"
#include "db.h"

#include <signal.h>
#include <sqlite3.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "db_internal.h"
#include "err.h"
#include "gpu.h"
#include "money.h"
#include "notes.h"
#include "offer.h"
#include "provider.h"
#include "str.h"
#include "xalloc.h"

/* provider_meta rows of this provider are the cache's own, not a provider's. */
#define DB_LOCAL_META_PREFIX	"@"

/* Run a one-value PRAGMA check ("ok" or a problem) on sql; 0 if "ok". */
static int
sql_check(sqlite3 *sql, const char *pragma, char *why, size_t size)
{
	sqlite3_stmt *st;
	const unsigned char *v;
	int rc = -1;

	str_copy(why, size, "cannot run the check");
	if (sqlite3_prepare_v2(sql, pragma, -1, &st, NULL) != SQLITE_OK) {
		str_copy(why, size, sqlite3_errmsg(sql));
		return -1;
	}
	if (sqlite3_step(st) == SQLITE_ROW) {
		v = sqlite3_column_text(st, 0);
		if (v != NULL && strcmp((const char *)v, "ok") == 0)
			rc = 0;
		else if (v != NULL)
			str_sanitize(why, size, (const char *)v,
			    strlen((const char *)v));
	} else
		str_copy(why, size, sqlite3_errmsg(sql));
	sqlite3_finalize(st);
	return rc;
}

static int	copy_check_file(const char *, int64_t, struct err *);

/*
 * Cut the copy's texts of columns gpucost cuts when it writes them
 * (db_column_limits[]) that are longer: an older gpucost stored errors
 * of up to 383 bytes, which its readers refuse.
 */
static int
copy_cut_texts(sqlite3 *copy, struct err *err)
{
	const struct db_column_limit *l;
	sqlite3_stmt *rd = NULL, *wr = NULL;
	const unsigned char *t;
	char *q, *cut;
	size_t i;
	int rc = -1;

	for (i = 0; i < db_column_limit_count; i++) {
		l = &db_column_limits[i];
		if (!l->cut)
			continue;
		q = xasprintf("SELECT rowid, %s FROM %s WHERE typeof(%s) = "
		    "'text' AND length(CAST(%s AS BLOB)) >= %zu LIMIT 1",
		    l->column, l->table, l->column, l->column, l->size);
		rc = sqlite3_prepare_v2(copy, q, -1, &rd, NULL);
		free(q);
		q = xasprintf("UPDATE %s SET %s = ?1 WHERE rowid = ?2",
		    l->table, l->column);
		if (rc == SQLITE_OK)
			rc = sqlite3_prepare_v2(copy, q, -1, &wr, NULL);
		free(q);
		if (rc != SQLITE_OK)
			goto fail;
		cut = xmalloc(l->size);
		/* Each row cut no longer matches: one at a time to the end. */
		while ((rc = sqlite3_step(rd)) == SQLITE_ROW) {
			t = sqlite3_column_text(rd, 1);
			str_cut(cut, l->size, t != NULL ? (const char *)t : "");
			sqlite3_bind_text(wr, 1, cut, -1, SQLITE_STATIC);
			sqlite3_bind_int64(wr, 2, sqlite3_column_int64(rd, 0));
			sqlite3_reset(rd);
			rc = sqlite3_step(wr);
			sqlite3_reset(wr);
			if (rc != SQLITE_DONE)
				break;
		}
		free(cut);
		if (rc != SQLITE_DONE)
			goto fail;
		sqlite3_finalize(rd);
		sqlite3_finalize(wr);
		rd = wr = NULL;
	}
	return 0;
fail:
	err_set(err, "cannot cut its long texts: %s", sqlite3_errmsg(copy));
	sqlite3_finalize(rd);
	sqlite3_finalize(wr);
	return -1;
}

int
db_publish_copy(struct db *db, const char *path, int64_t now,
    struct err *err)
{
	sqlite3_stmt *st;
	sqlite3 *copy = NULL;
	char why[160];
	char *msg = NULL;
	int rc;

	/*
	 * VACUUM INTO reads one snapshot of the cache in a read
	 * transaction: a refresh writing meanwhile neither waits nor shows
	 * half in the copy (WAL), and the copy has no free pages.
	 */
	if ((st = db_prepare(db, "VACUUM INTO ?1", err)) == NULL)
		return -1;
	sqlite3_bind_text(st, 1, path, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		err_set(err, "cache %s: cannot copy it to %s: %s", db->path,
		    path, sqlite3_errmsg(db->sql));
		return -1;
	}
	if (sqlite3_open_v2(path, &copy, SQLITE_OPEN_READWRITE |
	    SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK) {
		err_set(err, "%s: cannot open the copy: %s", path,
		    copy != NULL ? sqlite3_errmsg(copy) : "out of memory");
		sqlite3_close(copy);
		return -1;
	}
	if (copy_cut_texts(copy, err) < 0) {
		err_prefix(err, "%s", path);
		sqlite3_close(copy);
		return -1;
	}
	/*
	 * Watches are one user's own, and rows under "@" are this cache's
	 * bookkeeping (where it last pulled from), as are its refresh
	 * outcomes (the endpoints it asked): none is shared. A plain
	 * rollback journal, so the copy is one file wherever it goes.
	 */
	if (sqlite3_exec(copy, "PRAGMA journal_mode = DELETE;"
	    "DELETE FROM watch;"
	    "DELETE FROM refresh_outcome;"
	    /* Derived: whoever merges the copy computes its own. */
	    "DELETE FROM offer_terms;"
	    "DELETE FROM provider_meta WHERE substr(provider, 1, 1) = '"
	    DB_LOCAL_META_PREFIX "'; VACUUM;", NULL, NULL, &msg) != SQLITE_OK) {
		err_set(err, "%s: cannot prepare the copy: %s", path,
		    msg != NULL ? msg : sqlite3_errmsg(copy));
		sqlite3_free(msg);
		sqlite3_close(copy);
		return -1;
	}
	if (sql_check(copy, "PRAGMA integrity_check(1)", why, sizeof why) < 0) {
		err_set(err, "%s: the copy fails SQLite's integrity check "
		    "(%s)", path, why);
		sqlite3_close(copy);
		return -1;
	}
	if (sqlite3_close(copy) != SQLITE_OK) {
		err_set(err, "%s: cannot close the copy", path);
		return -1;
	}
	/* What its readers check, here first: never a copy they refuse. */
	if (copy_check_file(path, now, err) < 0) {
		err_prefix(err, "the copy of cache %s would be refused by "
		    "every reader", db->path);
		return -1;
	}
	return 0;
}

/*
 * Text a gpucost cache never holds (everything is sanitised before it
 * is stored): C0 controls, DEL, C1 controls. A copy that has them did
 * not come from gpucost and could reach a terminal through `providers`.
 */
#define DB_CONTROLS_GLOB	"*[\x01-\x1f\x7f-\xc2\x9f]*"

/*
 * A copy is data, never code: whatever opens one (publish's own copy,
 * a downloaded one) does it through copy_connect(), which turns off
 * what a schema could run (views, triggers, functions marked unsafe),
 * and under a budget: every so many SQLite steps copy_work_check()
 * looks at the clock and at the stop flag (a signal), and ends the
 * statement when either says so. Nothing of a copy is read before its
 * schema matches the one this program makes (copy_schema_check()).
 */
struct copy_work {
	double	deadline;		/* CLOCK_MONOTONIC seconds */
	double	seconds;		/* the budget, for the message */
	volatile sig_atomic_t *stop;
	int	why;			/* COPY_WORK_* that ended a statement */
};
#define COPY_WORK_TIME	1
#define COPY_WORK_STOP	2
#define COPY_WORK_STEPS	1000	/* VM steps between looks at the clock */
#define DB_MERGE_CACHE_KB "16384"	/* the merge's page cache, KiB */

/* "2026-11-23 10:00 UTC" of t. */
static void
format_utc(int64_t t, char *buf, size_t size)
{
	time_t tt = (time_t)t;
	struct tm tm;

	if (gmtime_r(&tt, &tm) == NULL || strftime(buf, size,
	    "%Y-%m-%d %H:%M UTC", &tm) == 0)
		snprintf(buf, size, "%lld", (long long)t);
}

static double
copy_clock(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int
copy_work_check(void *udata)
{
	struct copy_work *w = udata;

	if (w->stop != NULL && *w->stop != 0)
		w->why = COPY_WORK_STOP;
	else if (copy_clock() > w->deadline)
		w->why = COPY_WORK_TIME;
	return w->why != 0;
}

static void
copy_work_init(struct copy_work *w, const struct db_copy_limits *lim)
{
	memset(w, 0, sizeof *w);
	w->seconds = lim != NULL && lim->seconds > 0 ? lim->seconds :
	    DB_COPY_WORK_MAX;
	w->deadline = copy_clock() + w->seconds;
	w->stop = lim != NULL ? lim->stop : NULL;
}

/* One line for a statement on a copy that failed: why, with what. */
static void
copy_err(sqlite3 *sql, const struct copy_work *w, struct err *err,
    const char *what)
{
	if (w->why == COPY_WORK_STOP)
		err_set(err, "%s: interrupted", what);
	else if (w->why == COPY_WORK_TIME)
		err_set(err, "%s: stopped after %.0f s (a copy gpucost made "
		    "takes far less)", what, w->seconds);
	else
		err_set(err, "%s: %s", what, sqlite3_errmsg(sql));
}

/* Open target (a path, or a file: URI with uri) as copy_connect says. */
static int
copy_connect(const char *target, int flags, struct copy_work *w,
    sqlite3 **out, struct err *err)
{
	sqlite3 *sql = NULL;

	*out = NULL;
	if (sqlite3_open_v2(target, &sql, flags | SQLITE_OPEN_NOMUTEX, NULL) !=
	    SQLITE_OK) {
		err_set(err, "cannot open it: %s", sql != NULL ?
		    sqlite3_errmsg(sql) : "out of memory");
		sqlite3_close(sql);
		return -1;
	}
	sqlite3_extended_result_codes(sql, 0);
	sqlite3_busy_timeout(sql, DB_BUSY_TIMEOUT_MS);
#ifdef SQLITE_DBCONFIG_TRUSTED_SCHEMA
	sqlite3_db_config(sql, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, NULL);
#endif
#ifdef SQLITE_DBCONFIG_ENABLE_VIEW
	sqlite3_db_config(sql, SQLITE_DBCONFIG_ENABLE_VIEW, 0, NULL);
#endif
	sqlite3_db_config(sql, SQLITE_DBCONFIG_ENABLE_TRIGGER, 0, NULL);
	sqlite3_db_config(sql, SQLITE_DBCONFIG_DEFENSIVE, 1, NULL);
	sqlite3_progress_handler(sql, COPY_WORK_STEPS, copy_work_check, w);
	if (sqlite3_exec(sql, "PRAGMA trusted_schema = OFF", NULL, NULL,
	    NULL) != SQLITE_OK) {
		copy_err(sql, w, err, "cannot set it up");
		sqlite3_close(sql);
		return -1;
	}
	*out = sql;
	return 0;
}

/* Is this object one SQLite itself adds (ANALYZE's statistics)? */
static bool
copy_schema_extra(const char *type, const char *name, const char *sql)
{
	static const char *const extras[][2] = {
		{ "sqlite_stat1", "CREATE TABLE sqlite_stat1(tbl,idx,stat)" },
		{ "sqlite_stat4", "CREATE TABLE sqlite_stat4(tbl,idx,neq,nlt,"
		    "ndlt,sample)" },
	};
	size_t i;

	for (i = 0; i < sizeof extras / sizeof extras[0]; i++)
		if (strcmp(type, "table") == 0 &&
		    strcmp(name, extras[i][0]) == 0 &&
		    strcmp(sql, extras[i][1]) == 0)
			return true;
	return false;
}

/*
 * Does schema (of connection sql: "main", "pub") hold exactly the
 * tables and indexes a gpucost cache of this version has (the text
 * SQLite keeps of each, compared whole, against a cache this program
 * makes in memory), and nothing else but ANALYZE's statistics: no view,
 * no trigger, no table or index of its own?
 */
static int
copy_schema_check(sqlite3 *sql, const char *schema, long long version,
    struct copy_work *w, struct err *err)
{
	static char mem_name[] = "(memory)";
	struct db mem;
	sqlite3_stmt *st = NULL, *q = NULL;
	char query[200], clean[64];
	const char *type, *name, *tbl, *text;
	long long want, have = 0;
	int rc = -1, step;

	memset(&mem, 0, sizeof mem);
	mem.path = mem_name;
	if (version < 1 || version > DB_SCHEMA_VERSION) {
		err_set(err, "schema %lld is not one gpucost knows", version);
		return -1;
	}
	if (sqlite3_open_v2(":memory:", &mem.sql, SQLITE_OPEN_READWRITE |
	    SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK) {
		err_set(err, "out of memory");
		goto done;
	}
	if (db_schema_build(&mem, version, err) < 0)
		goto done;
	if (db_int(&mem, "SELECT count(*) FROM sqlite_master", &want,
	    err) < 0)
		goto done;
	if (sqlite3_prepare_v2(mem.sql, "SELECT count(*) FROM sqlite_master "
	    "WHERE type = ?1 AND name = ?2 AND tbl_name = ?3 AND "
	    "coalesce(sql, '') = ?4", -1, &q, NULL) != SQLITE_OK) {
		err_set(err, "out of memory");
		goto done;
	}
	/* Code first (views, triggers): the worst a copy can hold. */
	snprintf(query, sizeof query, "SELECT type, name, tbl_name, "
	    "coalesce(sql, '') FROM %s.sqlite_master ORDER BY type NOT IN "
	    "('view', 'trigger'), name", schema);
	if (sqlite3_prepare_v2(sql, query, -1, &st, NULL) != SQLITE_OK) {
		copy_err(sql, w, err, "cannot read its schema");
		goto done;
	}
	while ((step = sqlite3_step(st)) == SQLITE_ROW) {
		type = (const char *)sqlite3_column_text(st, 0);
		name = (const char *)sqlite3_column_text(st, 1);
		tbl = (const char *)sqlite3_column_text(st, 2);
		text = (const char *)sqlite3_column_text(st, 3);
		if (type == NULL || name == NULL || tbl == NULL || text == NULL) {
			err_set(err, "its schema has an unnamed object");
			goto done;
		}
		sqlite3_bind_text(q, 1, type, -1, SQLITE_STATIC);
		sqlite3_bind_text(q, 2, name, -1, SQLITE_STATIC);
		sqlite3_bind_text(q, 3, tbl, -1, SQLITE_STATIC);
		sqlite3_bind_text(q, 4, text, -1, SQLITE_STATIC);
		if (sqlite3_step(q) == SQLITE_ROW &&
		    sqlite3_column_int64(q, 0) == 1)
			have++;
		else if (!copy_schema_extra(type, name, text)) {
			str_sanitize(clean, sizeof clean, name, strlen(name));
			err_set(err, "its schema is not gpucost's: %s %s%s",
			    strcmp(type, "view") == 0 ? "a view" :
			    strcmp(type, "trigger") == 0 ? "a trigger" :
			    strcmp(type, "table") == 0 ? "a table" :
			    strcmp(type, "index") == 0 ? "an index" :
			    "an object", clean, strcmp(type, "view") == 0 ||
			    strcmp(type, "trigger") == 0 ? " (a copy is data; "
			    "code in it is never run)" : " unlike this "
			    "gpucost's own");
			goto done;
		}
		sqlite3_reset(q);
		sqlite3_clear_bindings(q);
	}
	if (step != SQLITE_DONE) {
		copy_err(sql, w, err, "cannot read its schema");
		goto done;
	}
	if (have != want) {
		err_set(err, "its schema lacks part of gpucost's (%lld of %lld "
		    "objects)", have, want);
		goto done;
	}
	rc = 0;
done:
	sqlite3_finalize(st);
	sqlite3_finalize(q);
	sqlite3_close(mem.sql);
	return rc;
}

/* Run a one-value PRAGMA check on sql: 0 if "ok", else why (cleaned). */
static int
copy_check(sqlite3 *sql, struct copy_work *w, const char *pragma,
    char *why, size_t size)
{
	struct err e;

	if (sql_check(sql, pragma, why, size) == 0)
		return 0;
	if (w->why != 0) {
		copy_err(sql, w, &e, "the check");
		str_copy(why, size, e.msg);
	}
	return -1;
}

/*
 * Open a copy (a file of ours) as data: the gate db_open_snapshot() and
 * db_merge_from() both go through. Refuses what is not SQLite, not a
 * gpucost cache, from a newer schema, or has anything in its schema
 * gpucost does not make; migrates an older one (its schema checked
 * first, so the migration runs on gpucost's tables alone).
 */
static int
copy_open_checked(const char *path, struct copy_work *w, sqlite3 **out,
    long long *version_out, struct err *err)
{
	struct db tmp;
	long long version, app_id;

	memset(&tmp, 0, sizeof tmp);
	if (copy_connect(path, SQLITE_OPEN_READONLY, w, &tmp.sql, err) < 0)
		return -1;
	tmp.path = xstrdup(path);
	if (db_int(&tmp, "PRAGMA application_id", &app_id, err) < 0 ||
	    db_int(&tmp, "PRAGMA user_version", &version, err) < 0) {
		err_set(err, "not an SQLite database (%s)",
		    sqlite3_errmsg(tmp.sql));
		goto fail;
	}
	if (app_id != DB_APPLICATION_ID || version < 1) {
		err_set(err, "an SQLite database, but not a gpucost cache");
		goto fail;
	}
	if (version > DB_SCHEMA_VERSION) {
		err_set(err, "made by a newer gpucost (cache schema %lld; this "
		    "one knows up to %d); upgrade gpucost", version,
		    DB_SCHEMA_VERSION);
		goto fail;
	}
	if (copy_schema_check(tmp.sql, "main", version, w, err) < 0)
		goto fail;
	/*
	 * Older: brought up to date like any cache (it is our temporary
	 * copy, and its schema is gpucost's alone), the one write to it.
	 */
	if (version < DB_SCHEMA_VERSION) {
		sqlite3_close(tmp.sql);
		if (copy_connect(path, SQLITE_OPEN_READWRITE, w, &tmp.sql,
		    err) < 0)
			goto fail;
		if (copy_schema_check(tmp.sql, "main", version, w, err) < 0)
			goto fail;
		if (db_migrate(&tmp, version, err) < 0) {
			if (w->why != 0)
				copy_err(tmp.sql, w, err, "its schema "
				    "migration");
			goto fail;
		}
	}
	*out = tmp.sql;
	*version_out = version;
	free(tmp.path);
	return 0;
fail:
	sqlite3_close(tmp.sql);
	free(tmp.path);
	return -1;
}

/* Each after "SELECT count(*) FROM <schema>.". */
static const char *const snapshot_text_checks[] = {
	"offers WHERE (provider || key || instance_type || region || gpu || "
	"gpu_raw || interconnect || availability || source || spot_zone || "
	"currency) GLOB ?1",
	"provider_status WHERE (provider || source || coalesce(last_error, "
	"'') || coalesce(sort_keys, '')) GLOB ?1",
	"provider_meta WHERE (provider || name || value) GLOB ?1",
	"price_history WHERE (provider || key || availability) GLOB ?1",
	"refresh_log WHERE provider GLOB ?1",
	"committed WHERE (provider || key || kind || upfront) GLOB ?1",
	"committed_history WHERE (provider || key || kind || upfront) GLOB ?1",
};

/* The integrity and text checks of a copy in schema (main or pub). */
static int
copy_content_check(sqlite3 *sql, const char *schema, struct copy_work *w,
    struct err *err)
{
	sqlite3_stmt *st;
	char query[512], why[160];
	size_t i;
	int rc;

	snprintf(query, sizeof query, "PRAGMA %s.integrity_check(1)", schema);
	if (copy_check(sql, w, query, why, sizeof why) < 0) {
		err_set(err, "fails SQLite's integrity check (%s)", why);
		return -1;
	}
	for (i = 0; i < sizeof snapshot_text_checks /
	    sizeof snapshot_text_checks[0]; i++) {
		snprintf(query, sizeof query, "SELECT count(*) FROM %s.%s",
		    schema, snapshot_text_checks[i]);
		if (sqlite3_prepare_v2(sql, query, -1, &st, NULL) != SQLITE_OK) {
			copy_err(sql, w, err, "cannot read its tables");
			return -1;
		}
		sqlite3_bind_text(st, 1, DB_CONTROLS_GLOB, -1, SQLITE_STATIC);
		rc = sqlite3_step(st);
		if (rc != SQLITE_ROW || sqlite3_column_int64(st, 0) != 0) {
			if (rc != SQLITE_ROW)
				copy_err(sql, w, err, "cannot read its tables");
			else
				err_set(err, "holds control characters gpucost "
				    "never stores");
			sqlite3_finalize(st);
			return -1;
		}
		sqlite3_finalize(st);
	}
	return 0;
}

int
db_open_snapshot(const char *path, struct db **out, struct err *err)
{
	struct copy_work w;
	struct db *db;
	sqlite3 *sql;
	long long version;

	*out = NULL;
	copy_work_init(&w, NULL);
	if (copy_open_checked(path, &w, &sql, &version, err) < 0)
		return -1;
	if (copy_content_check(sql, "main", &w, err) < 0) {
		sqlite3_close(sql);
		return -1;
	}
	/* What reads it from here is ours: no budget any more. */
	sqlite3_progress_handler(sql, 0, NULL, NULL);
	db = xcalloc(1, sizeof *db);
	db->path = xstrdup(path);
	db->sql = sql;
	*out = db;
	return 0;
}

/* A provider's data time: its newest offer or its last success. */
#define DATA_TIME(s)	"max(coalesce(" s ".newest, 0), " \
			"coalesce(" s ".last_success, 0))"

/* Step st (which returns one row of integers) into v[0..n). */
static int
db_row_ints(struct db *db, sqlite3_stmt *st, int64_t *v, int n, bool *found,
    struct err *err)
{
	int rc = sqlite3_step(st), i;

	*found = rc == SQLITE_ROW;
	if (rc == SQLITE_ROW)
		for (i = 0; i < n; i++)
			v[i] = sqlite3_column_int64(st, i);
	sqlite3_reset(st);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
		db_err(db, err, "cannot read");
		return -1;
	}
	return 0;
}

/* Run sql with ?1 = provider, ?2 = text. */
static int
db_exec_provider2(struct db *db, const char *sql, const char *provider,
    const char *text, struct err *err)
{
	sqlite3_stmt *st;

	if ((st = db_prepare(db, sql, err)) == NULL)
		return -1;
	sqlite3_bind_text(st, 1, provider, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, text, -1, SQLITE_STATIC);
	return db_step_done(db, st, err);
}

/*
 * The test of one column as db_column_limits[] says gpucost writes it:
 * an SQL expression, true or false (never NULL), ?1 being now + the
 * skew. Made of the table's own names and numbers, never of a copy's.
 */
static char *
limit_sql(const struct db_column_limit *l)
{
	const char *c = l->column;
	char *test, *words, *w, *out;
	size_t i, n;

	switch (l->kind) {
	case DB_COL_TEXT:
		test = xasprintf("typeof(%s) = 'text' AND length(CAST(%s AS "
		    "BLOB)) < %zu", c, c, l->size);
		break;
	case DB_COL_WORD:
		/* "a b" -> 'a', 'b' */
		n = strlen(l->words);
		words = w = xmalloc(n * 4 + 3);
		*w++ = '\'';
		for (i = 0; i < n; i++) {
			if (l->words[i] == ' ') {
				memcpy(w, "', '", 4);
				w += 4;
			} else
				*w++ = l->words[i];
		}
		*w++ = '\'';
		*w = '\0';
		test = xasprintf("typeof(%s) = 'text' AND %s IN (%s)", c, c,
		    words);
		free(words);
		break;
	case DB_COL_INTEGER:
		test = xasprintf("typeof(%s) = 'integer' AND %s BETWEEN %lld "
		    "AND %lld", c, c, (long long)l->min, (long long)l->max);
		break;
	case DB_COL_TIME:
		test = xasprintf("typeof(%s) = 'integer' AND %s BETWEEN 0 AND "
		    "?1", c, c);
		break;
	default:
		test = xasprintf("0");
		break;
	}
	out = xasprintf("coalesce(%s%s%s(%s)%s, 0)", l->null_ok ? "(" : "",
	    l->null_ok ? c : "", l->null_ok ? " IS NULL OR " : "", test,
	    l->null_ok ? ")" : "");
	free(test);
	return out;
}

/*
 * The check of a copy's table: "SELECT provider, i FROM pub.table WHERE
 * NOT (every column's test) LIMIT 1", i the row of db_column_limits[]
 * of the first column the row fails. Returns a malloc'd query.
 */
static char *
limits_query(const char *table)
{
	char *cases = xasprintf("%s", ""), *all = xasprintf("1"), *t, *q;
	size_t i;

	for (i = 0; i < db_column_limit_count; i++) {
		if (strcmp(db_column_limits[i].table, table) != 0)
			continue;
		t = limit_sql(&db_column_limits[i]);
		q = xasprintf("%s WHEN NOT %s THEN %zu", cases, t, i);
		free(cases);
		cases = q;
		q = xasprintf("%s AND %s", all, t);
		free(all);
		all = q;
		free(t);
	}
	q = xasprintf("SELECT provider, CASE%s ELSE -1 END FROM pub.%s WHERE "
	    "NOT (%s) LIMIT 1", cases, table, all);
	free(cases);
	free(all);
	return q;
}

/* Why a value is not what row l allows, for a message. */
static void
limit_why(const struct db_column_limit *l, char *buf, size_t size)
{
	const char *p;
	size_t n;

	switch (l->kind) {
	case DB_COL_TEXT:
		snprintf(buf, size, "not text of at most %zu bytes",
		    l->size - 1);
		break;
	case DB_COL_WORD:
		n = (size_t)snprintf(buf, size, "not one of ");
		for (p = l->words; *p != '\0' && n + 3 < size; p++) {
			if (*p == ' ') {
				buf[n++] = ',';
				buf[n++] = ' ';
			} else
				buf[n++] = *p;
		}
		buf[n] = '\0';
		break;
	case DB_COL_INTEGER:
		snprintf(buf, size, "not an integer from %lld to %lld",
		    (long long)l->min, (long long)l->max);
		break;
	case DB_COL_TIME:
		snprintf(buf, size, "not a time");
		break;
	default:
		snprintf(buf, size, "set where gpucost writes nothing");
		break;
	}
}

/*
 * Every row of the copy's tables but the offers as gpucost writes them
 * (db_column_limits[]). Returns 0, or -1 naming the table, the provider
 * and the first column of the first row that is not.
 */
static int
copy_rows_check(struct db *m, int64_t max_time, struct err *err)
{
	const struct db_column_limit *l;
	sqlite3_stmt *st;
	char clean[32], why[96];
	const char *p;
	char *q;
	size_t i, j;
	int64_t at;
	int rc;

	for (i = 0; i < db_column_limit_count; i++) {
		/* Each table once, at its first row. */
		for (j = 0; j < i; j++)
			if (strcmp(db_column_limits[j].table,
			    db_column_limits[i].table) == 0)
				break;
		if (j < i)
			continue;
		q = limits_query(db_column_limits[i].table);
		st = db_prepare(m, q, err);
		free(q);
		if (st == NULL)
			return -1;
		sqlite3_bind_int64(st, 1, max_time);
		rc = sqlite3_step(st);
		if (rc == SQLITE_ROW) {
			p = (const char *)sqlite3_column_text(st, 0);
			str_sanitize(clean, sizeof clean, p != NULL &&
			    sqlite3_column_type(st, 0) == SQLITE_TEXT ? p : "?",
			    p != NULL ? strlen(p) : 1);
			at = sqlite3_column_int64(st, 1);
			l = at >= 0 && (size_t)at < db_column_limit_count ?
			    &db_column_limits[at] : NULL;
			if (l != NULL)
				limit_why(l, why, sizeof why);
			err_set(err, "%s: a row of %s is not one gpucost writes "
			    "(%s: %s)", db_column_limits[i].table, clean,
			    l != NULL ? l->column : "?", l != NULL ? why : "?");
			sqlite3_finalize(st);
			return -1;
		}
		sqlite3_finalize(st);
		if (rc != SQLITE_DONE) {
			db_err(m, err, "cannot read it");
			return -1;
		}
	}
	return 0;
}

/* The newest time anywhere in the copy (0: none). */
#define COPY_NEWEST_SQL	"SELECT max(t) FROM (" \
	"SELECT max(fetched_at) AS t FROM pub.offers UNION ALL " \
	"SELECT max(max(coalesce(last_attempt, 0), coalesce(last_success, 0), " \
	"coalesce(newest, 0))) FROM pub.provider_status UNION ALL " \
	"SELECT max(observed_at) FROM pub.price_history UNION ALL " \
	"SELECT max(at) FROM pub.refresh_log UNION ALL " \
	"SELECT max(observed_at) FROM pub.committed_history)"

/*
 * One offer row of the copy as an adapter's offer: every column of the
 * type gpucost stores, text that fits, then offer_check() (the limits
 * every adapter applies), the GPU a catalogue id, the time not ahead
 * of max_time. Returns 0, or -1 with the provider, key and field.
 */
static int
copy_offer(sqlite3_stmt *st, int64_t max_time, struct offer *o,
    struct err *err)
{
	static const struct {
		int	col;
		int	type;		/* SQLITE_TEXT, _INTEGER, _FLOAT (number) */
		bool	null_ok;
		size_t	size;		/* text: the buffer it goes into */
	} cols[] = {
		{ 0, SQLITE_TEXT, false, OFFER_PROVIDER_MAX },
		{ 1, SQLITE_TEXT, false, OFFER_KEY_MAX },
		{ 2, SQLITE_TEXT, false, OFFER_NAME_MAX },
		{ 3, SQLITE_TEXT, false, OFFER_NAME_MAX },
		{ 4, SQLITE_TEXT, false, OFFER_GPU_MAX },
		{ 5, SQLITE_TEXT, false, OFFER_NAME_MAX },
		{ 6, SQLITE_INTEGER, false, 0 },
		{ 7, SQLITE_INTEGER, false, 0 },
		{ 8, SQLITE_TEXT, false, 16 },
		{ 9, SQLITE_INTEGER, false, 0 },
		{ 10, SQLITE_FLOAT, false, 0 },
		{ 11, SQLITE_INTEGER, true, 0 },
		{ 12, SQLITE_INTEGER, true, 0 },
		{ 13, SQLITE_TEXT, false, 16 },
		{ 14, SQLITE_INTEGER, true, 0 },
		{ 15, SQLITE_FLOAT, true, 0 },
		{ 16, SQLITE_INTEGER, false, 0 },
		{ 17, SQLITE_TEXT, false, 16 },
		{ 18, SQLITE_INTEGER, false, 0 },
		{ 19, SQLITE_TEXT, false, OFFER_NAME_MAX },
		{ 20, SQLITE_TEXT, false, sizeof o->currency },
		{ 21, SQLITE_INTEGER, true, 0 },
		{ 22, SQLITE_INTEGER, false, 0 },
		{ 23, SQLITE_INTEGER, true, 0 },
	};
	static const char *const names[] = { "provider", "key",
	    "instance_type", "region", "gpu", "gpu_raw", "gpu_count",
	    "vram_gb", "interconnect", "vcpus", "ram_gb", "price",
	    "spot_price", "availability", "spot_interruption", "reliability",
	    "fetched_at", "source", "notes", "spot_zone", "currency",
	    "price_original", "nodes", "price_from" };
	const unsigned char *p, *k;
	char key[OFFER_KEY_MAX];
	size_t i;
	int t;

	p = sqlite3_column_text(st, 0);
	k = sqlite3_column_text(st, 1);
	snprintf(key, sizeof key, "%.15s %.100s", p != NULL ? (const char *)p :
	    "?", k != NULL ? (const char *)k : "?");
	memset(o, 0, sizeof *o);
	/* A column added to OFFER_COLUMNS needs its row above: say so. */
	if (sqlite3_column_count(st) != (int)(sizeof cols / sizeof cols[0]) ||
	    sizeof names / sizeof names[0] != sizeof cols / sizeof cols[0]) {
		err_set(err, "offer %s: this gpucost checks %zu columns of "
		    "%d (db_share.c: copy_offer())", key,
		    sizeof cols / sizeof cols[0], sqlite3_column_count(st));
		return -1;
	}
	for (i = 0; i < sizeof cols / sizeof cols[0]; i++) {
		t = sqlite3_column_type(st, cols[i].col);
		if (t == SQLITE_NULL && cols[i].null_ok)
			continue;
		if (t == cols[i].type || (cols[i].type == SQLITE_FLOAT &&
		    t == SQLITE_INTEGER)) {
			if (t == SQLITE_TEXT && (size_t)sqlite3_column_bytes(st,
			    cols[i].col) >= cols[i].size)
				goto longer;
			continue;
		}
		err_set(err, "offer %s: %s: %s where gpucost stores %s", key,
		    names[cols[i].col], t == SQLITE_TEXT ? "text" :
		    t == SQLITE_NULL ? "nothing" : t == SQLITE_BLOB ? "bytes" :
		    "a number", cols[i].type == SQLITE_TEXT ? "text" :
		    "a number");
		return -1;
longer:
		err_set(err, "offer %s: %s: longer than gpucost stores", key,
		    names[cols[i].col]);
		return -1;
	}
	/* The reader makes 1 of a nodes below 1; a copy may not hold one. */
	if (sqlite3_column_int64(st, 22) < 1) {
		err_set(err, "offer %s: nodes: out of range", key);
		return -1;
	}
	db_row_to_offer(st, o);
	if (offer_check(o, err) < 0) {
		err_prefix(err, "offer of %s", o->provider);
		return -1;
	}
	if (o->gpu[0] != '\0' && gpu_find(o->gpu) == NULL) {
		err_set(err, "offer %s: gpu: not a GPU of the catalogue", key);
		return -1;
	}
	if (o->fetched_at <= 0 || o->fetched_at > max_time) {
		err_set(err, "offer %s: fetched_at: %s", key, o->fetched_at <= 0 ?
		    "not a time" : "in the future");
		return -1;
	}
	if (o->spot_interruption > 4 || o->spot_interruption < -1 ||
	    (sqlite3_column_type(st, 15) != SQLITE_NULL &&
	    !(o->reliability >= 0 && o->reliability <= 1)) || (money_known(o->price_original) &&
	    (o->price_original <= 0 || o->price_original > 2 *
	    OFFER_PRICE_MAX))) {
		err_set(err, "offer %s: spot_interruption, reliability or "
		    "price_original out of range", key);
		return -1;
	}
	o->notes &= NOTE_BIT(NOTE_COUNT) - 1;
	return 0;
}

/*
 * Check everything of the copy attached as "pub" that the merge may
 * take: the schema again (this connection's view of it), integrity,
 * text, dates, and every row against the rules its writer keeps.
 */
static int
copy_verify(struct db *m, struct copy_work *w, int64_t now, struct err *err)
{
	sqlite3_stmt *st = NULL;
	struct offer o;
	long long version, app_id;
	int64_t max_time = now + DB_COPY_SKEW, newest;
	char when[32], clock_now[32];
	int rc;

	if (db_int(m, "PRAGMA pub.application_id", &app_id, err) < 0 ||
	    db_int(m, "PRAGMA pub.user_version", &version, err) < 0 ||
	    app_id != DB_APPLICATION_ID || version != DB_SCHEMA_VERSION) {
		err_set(err, "changed under us");
		return -1;
	}
	if (copy_schema_check(m->sql, "pub", version, w, err) < 0 ||
	    copy_content_check(m->sql, "pub", w, err) < 0)
		return -1;
	/* Dated ahead of our clock: it would win every merge until then. */
	if ((st = db_prepare(m, COPY_NEWEST_SQL, err)) == NULL)
		goto sqlfail;
	if (sqlite3_step(st) != SQLITE_ROW)
		goto sqlfail;
	newest = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	st = NULL;
	if (newest > max_time) {
		format_utc(newest, when, sizeof when);
		format_utc(now, clock_now, sizeof clock_now);
		err_set(err, "dated in the future (%s; this clock says %s, and "
		    "a copy may be at most %d minutes ahead)", when, clock_now,
		    DB_COPY_SKEW / 60);
		return -1;
	}
	if (copy_rows_check(m, max_time, err) < 0) {
		if (w->why != 0)
			copy_err(m->sql, w, err, "cannot read it");
		return -1;
	}
	/* Every offer, as an adapter's would be checked. */
	if ((st = db_prepare(m, "SELECT " OFFER_COLUMNS " FROM pub.offers",
	    err)) == NULL)
		goto sqlfail;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		if (copy_offer(st, max_time, &o, err) < 0) {
			sqlite3_finalize(st);
			return -1;
		}
	if (rc != SQLITE_DONE)
		goto sqlfail;
	sqlite3_finalize(st);
	return 0;
sqlfail:
	copy_err(m->sql, w, err, "cannot read it");
	sqlite3_finalize(st);
	return -1;
}

/* Attach the copy at path to m as "pub": read-only, immutable. */
static int
copy_attach(struct db *m, const char *path, struct copy_work *w,
    struct err *err)
{
	sqlite3_stmt *st;
	char *uri;
	int rc = SQLITE_ERROR;

	uri = db_uri(path, "mode=ro&immutable=1");
	st = db_prepare(m, "ATTACH ?1 AS pub", err);
	if (st != NULL) {
		sqlite3_bind_text(st, 1, uri, -1, SQLITE_STATIC);
		rc = sqlite3_step(st);
		sqlite3_finalize(st);
	}
	free(uri);
	if (rc != SQLITE_DONE) {
		copy_err(m->sql, w, err, "cannot attach the copy");
		return -1;
	}
	return 0;
}

/*
 * Does the copy at path pass every check db_merge_from() makes at now?
 * (publish: a copy its readers would refuse is never published.)
 */
static int
copy_check_file(const char *path, int64_t now, struct err *err)
{
	static char mem_name[] = "(the copy's check)";
	struct copy_work w;
	struct db m;
	sqlite3 *gate;
	long long version;
	int rc = -1;

	copy_work_init(&w, NULL);
	if (copy_open_checked(path, &w, &gate, &version, err) < 0)
		return -1;
	sqlite3_close(gate);
	memset(&m, 0, sizeof m);
	m.path = mem_name;
	if (copy_connect(":memory:", SQLITE_OPEN_READWRITE, &w, &m.sql,
	    err) < 0)
		return -1;
	if (copy_attach(&m, path, &w, err) == 0 &&
	    copy_verify(&m, &w, now, err) == 0)
		rc = 0;
	sqlite3_close(m.sql);
	return rc;
}

/* Merge one provider of the attached copy "pub" into main. */
static int
db_merge_one(struct db *db, sqlite3_stmt *pub_q, sqlite3_stmt *main_q,
    int64_t max_time, struct db_merge_result *r, struct err *err)
{
	sqlite3_stmt *rd = NULL, *wr = NULL;
	struct offer o;
	int64_t pv[2], lv[1];
	bool pub_has, local_has;
	long n = 0;
	int rc;

	sqlite3_bind_text(pub_q, 1, r->provider, -1, SQLITE_STATIC);
	sqlite3_bind_text(main_q, 1, r->provider, -1, SQLITE_STATIC);
	if (db_row_ints(db, pub_q, pv, 2, &pub_has, err) < 0 ||
	    db_row_ints(db, main_q, lv, 1, &local_has, err) < 0)
		return -1;
	r->local_time = local_has ? lv[0] : 0;
	r->outcome = DB_MERGE_ABSENT;
	if (!pub_has)
		return 0;
	r->published_time = pv[0];
	r->outcome = DB_MERGE_KEPT;
	/* A live local refresh is never replaced by an older copy. */
	if (pv[0] > r->local_time) {
		r->outcome = DB_MERGE_REPLACED;
		if (db_exec_provider(db, "DELETE FROM main.offers WHERE "
		    "provider = ?1", r->provider, NULL, err) < 0)
			return -1;
		/*
		 * Row by row through the writer refresh uses: checked as
		 * an adapter's offer, its sort keys computed here (never
		 * the copy's, which would rank it).
		 */
		rd = db_prepare(db, "SELECT " OFFER_COLUMNS " FROM pub.offers "
		    "WHERE provider = ?1", err);
		wr = db_prepare(db, "INSERT INTO main.offers (" WRITE_COLUMNS
		    ") VALUES (" WRITE_PLACEHOLDERS ")",
		    err);
		if (rd == NULL || wr == NULL)
			goto fail;
		sqlite3_bind_text(rd, 1, r->provider, -1, SQLITE_STATIC);
		while ((rc = sqlite3_step(rd)) == SQLITE_ROW) {
			if (copy_offer(rd, max_time, &o, err) < 0)
				goto fail;
			db_bind_offer(wr, r->provider, &o);
			if (sqlite3_step(wr) != SQLITE_DONE) {
				db_err(db, err, "write failed");
				goto fail;
			}
			sqlite3_reset(wr);
			n++;
		}
		if (rc != SQLITE_DONE) {
			db_err(db, err, "cannot read the copy");
			goto fail;
		}
		sqlite3_finalize(rd);
		sqlite3_finalize(wr);
		rd = wr = NULL;
		r->offers = n;
		/*
		 * Their committed prices come with them (every row was
		 * checked by copy_verify(); only those of an offer kept).
		 */
		if (db_exec_provider(db, "DELETE FROM main.committed WHERE "
		    "provider = ?1", r->provider, NULL, err) < 0 ||
		    db_exec_provider(db, "INSERT INTO main.committed (provider, "
		    "key, kind, months, upfront, price_hour, upfront_usd) "
		    "SELECT c.provider, c.key, c.kind, c.months, c.upfront, "
		    "c.price_hour, c.upfront_usd FROM pub.committed c WHERE "
		    "c.provider = ?1 AND EXISTS "
		    "(SELECT 1 FROM main.offers o WHERE o.provider = c.provider "
		    "AND o.key = c.key)", r->provider, NULL, err) < 0 ||
		    db_terms_update(db, r->provider, err) < 0)
			return -1;
		/*
		 * Its status as the copy says, the counts as stored now,
		 * the sort keys' version ours (computed above).
		 */
		if (db_exec_provider2(db, "INSERT INTO main.provider_status "
		    "(provider, source, last_attempt, last_success, "
		    "offer_count, last_error, oldest, newest, sort_keys) "
		    "SELECT s.provider, s.source, s.last_attempt, "
		    "s.last_success, (SELECT count(*) FROM main.offers o WHERE "
		    "o.provider = ?1), s.last_error, (SELECT min(fetched_at) "
		    "FROM main.offers o WHERE o.provider = ?1), (SELECT "
		    "max(fetched_at) FROM main.offers o WHERE o.provider = ?1), "
		    "?2 FROM pub.provider_status s WHERE s.provider = ?1 "
		    "ON CONFLICT (provider) DO UPDATE SET source = "
		    "excluded.source, last_attempt = excluded.last_attempt, "
		    "last_success = excluded.last_success, offer_count = "
		    "excluded.offer_count, last_error = excluded.last_error, "
		    "oldest = excluded.oldest, newest = excluded.newest, "
		    "sort_keys = excluded.sort_keys", r->provider,
		    db_sort_keys_version(), err) < 0)
			return -1;
		/* The settings that describe the offers come with them. */
		if (db_exec_provider(db, "DELETE FROM main.provider_meta "
		    "WHERE provider = ?1", r->provider, NULL, err) < 0 ||
		    db_exec_provider(db, "INSERT INTO main.provider_meta "
		    "(provider, name, value) SELECT provider, name, value FROM "
		    "pub.provider_meta WHERE provider = ?1", r->provider, NULL,
		    err) < 0)
			return -1;
	}
	/*
	 * History is observations: those the copy has and this cache has
	 * not (the same provider, offer and time) are added whether or not
	 * the offers were replaced; none is added twice.
	 */
	if (db_exec_provider(db, "INSERT INTO main.price_history (provider, "
	    "key, observed_at, price, spot_price, availability) SELECT "
	    "h.provider, h.key, h.observed_at, h.price, h.spot_price, "
	    "h.availability FROM pub.price_history h WHERE h.provider = ?1 "
	    "AND NOT EXISTS (SELECT 1 FROM main.price_history m WHERE "
	    "m.provider = h.provider AND m.key = h.key AND "
	    "m.observed_at = h.observed_at)", r->provider,
	    &r->history_added, err) < 0)
		return -1;
	if (db_exec_provider(db, "INSERT INTO main.committed_history "
	    "(provider, key, kind, months, upfront, observed_at, price_hour, "
	    "upfront_usd) SELECT h.provider, h.key, h.kind, h.months, "
	    "h.upfront, h.observed_at, h.price_hour, h.upfront_usd FROM "
	    "pub.committed_history h WHERE h.provider = ?1 AND NOT EXISTS "
	    "(SELECT 1 FROM main.committed_history m WHERE m.provider = "
	    "h.provider AND m.key = h.key AND m.kind = h.kind AND m.months = "
	    "h.months AND m.upfront = h.upfront AND m.observed_at = "
	    "h.observed_at)", r->provider, NULL, err) < 0)
		return -1;
	if (db_exec_provider(db, "INSERT INTO main.refresh_log (provider, at) "
	    "SELECT DISTINCT provider, at FROM pub.refresh_log l WHERE "
	    "l.provider = ?1 AND NOT EXISTS (SELECT 1 FROM main.refresh_log m "
	    "WHERE m.provider = l.provider AND m.at = l.at)", r->provider,
	    NULL, err) < 0)
		return -1;
	return 0;
fail:
	sqlite3_finalize(rd);
	sqlite3_finalize(wr);
	return -1;
}

int
db_merge_from(struct db *db, const char *path,
    const struct db_copy_limits *lim, struct db_merge_result *res,
    size_t n, const char *owner, const struct provider_meta *meta,
    size_t nmeta, struct err *err)
{
	sqlite3_stmt *pub_q = NULL, *main_q = NULL;
	struct copy_work w;
	struct db m;
	sqlite3 *gate;
	long long version;
	char *uri;
	size_t i;
	int rc;

	copy_work_init(&w, lim);
	/* The gate: schema (and an older one migrated), in the file alone. */
	if (copy_open_checked(path, &w, &gate, &version, err) < 0)
		return -1;
	sqlite3_close(gate);

	/*
	 * From here one connection does it all: every check and the
	 * merge read the same bytes (the copy attached read-only and
	 * immutable: nothing can change it, nothing of it is run).
	 */
	memset(&m, 0, sizeof m);
	m.path = db->path;
	uri = db_uri(db->path, "mode=rw");
	rc = copy_connect(uri, SQLITE_OPEN_READWRITE | SQLITE_OPEN_URI, &w,
	    &m.sql, err);
	free(uri);
	if (rc < 0) {
		err_prefix(err, "cache %s", db->path);
		return -1;
	}
	/*
	 * As the cache's own writer (db.c), and a larger page cache for
	 * the cache and the copy: with SQLite's 2 MB a merge of 50,000
	 * offers made 411,000 reads and 160,000 writes of a page; with 16
	 * MB each, 21,000 and 22,000 (peak RSS 52 MB against 19 MB).
	 */
	if (db_exec(&m, "PRAGMA synchronous = NORMAL; PRAGMA temp_store = "
	    "FILE; PRAGMA cache_size = -" DB_MERGE_CACHE_KB, err) < 0)
		goto close;
	if (copy_attach(&m, path, &w, err) < 0)
		goto close;
	if (db_exec(&m, "PRAGMA pub.cache_size = -" DB_MERGE_CACHE_KB,
	    err) < 0 || copy_verify(&m, &w, lim != NULL ? lim->now : 0,
	    err) < 0)
		goto close;
	if (db_exec(&m, "BEGIN IMMEDIATE", err) < 0)
		goto fail;
	pub_q = db_prepare(&m, "SELECT " DATA_TIME("s") " FROM "
	    "pub.provider_status s WHERE s.provider = ?1", err);
	main_q = db_prepare(&m, "SELECT " DATA_TIME("s") " FROM "
	    "main.provider_status s WHERE s.provider = ?1", err);
	if (pub_q == NULL || main_q == NULL)
		goto fail;
	for (i = 0; i < n; i++) {
		res[i].offers = 0;
		res[i].history_added = 0;
		res[i].published_time = res[i].local_time = 0;
		if (db_merge_one(&m, pub_q, main_q, (lim != NULL ? lim->now :
		    0) + DB_COPY_SKEW, &res[i], err) < 0) {
			err_prefix(err, "%s", res[i].provider);
			goto fail;
		}
	}
	sqlite3_finalize(pub_q);
	sqlite3_finalize(main_q);
	pub_q = main_q = NULL;
	/* Where this came from commits with it (refresh --from's state). */
	for (i = 0; i < nmeta; i++)
		if (db_meta_set(&m, owner, meta[i].name, meta[i].value,
		    err) < 0)
			goto fail;
	/* --group-by's kept answers, of the offers merged. */
	if (db_groups_store(&m, (int64_t)time(NULL), err) < 0 ||
	    db_exec(&m, DB_ANALYZE, err) < 0 ||
	    db_exec(&m, "COMMIT", err) < 0)
		goto fail;
	sqlite3_close(m.sql);
	return 0;
fail:
	if (w.why != 0)
		copy_err(m.sql, &w, err, "the merge");
	sqlite3_finalize(pub_q);
	sqlite3_finalize(main_q);
	sqlite3_exec(m.sql, "ROLLBACK", NULL, NULL, NULL);
close:
	sqlite3_close(m.sql);
	return -1;
}
