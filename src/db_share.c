/*
 * db_share.c: sharing one cache (gpucost publish, refresh --from). Its
 * one job: a consistent copy for others, opening such a copy with its
 * checks, and merging it into this cache provider by provider.
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

int
db_publish_copy(struct db *db, const char *path, struct err *err)
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
	/*
	 * Watches are one user's own, and rows under "@" are this cache's
	 * bookkeeping (where it last pulled from), as are its refresh
	 * outcomes (the endpoints it asked): none is shared. A plain
	 * rollback journal, so the copy is one file wherever it goes.
	 */
	if (sqlite3_exec(copy, "PRAGMA journal_mode = DELETE;"
	    "DELETE FROM watch; DELETE FROM watch_offer;"
	    "DELETE FROM refresh_outcome;"
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
	return 0;
}

/*
 * Text a gpucost cache never holds (everything is sanitised before it
 * is stored): C0 controls, DEL, C1 controls. A copy that has them did
 * not come from gpucost and could reach a terminal through `providers`.
 */
#define DB_CONTROLS_GLOB	"*[\x01-\x1f\x7f-\xc2\x9f]*"

static const char *const snapshot_text_checks[] = {
	"SELECT count(*) FROM offers WHERE (provider || key || instance_type "
	"|| region || gpu || gpu_raw || interconnect || availability || "
	"source || spot_zone || currency) GLOB ?1",
	"SELECT count(*) FROM provider_status WHERE (provider || source || "
	"coalesce(last_error, '') || coalesce(sort_keys, '')) GLOB ?1",
	"SELECT count(*) FROM provider_meta WHERE (provider || name || value) "
	"GLOB ?1",
	"SELECT count(*) FROM price_history WHERE (provider || key || "
	"availability) GLOB ?1",
	"SELECT count(*) FROM refresh_log WHERE provider GLOB ?1",
	"SELECT count(*) FROM committed WHERE (provider || key || kind || "
	"upfront) GLOB ?1",
	"SELECT count(*) FROM committed_history WHERE (provider || key || "
	"kind || upfront) GLOB ?1",
};

int
db_open_snapshot(const char *path, struct db **out, struct err *err)
{
	struct db *db;
	sqlite3_stmt *st;
	long long version, app_id;
	char why[160];
	size_t i;
	int rc;

	*out = NULL;
	db = xcalloc(1, sizeof *db);
	db->path = xstrdup(path);
	if (sqlite3_open_v2(path, &db->sql, SQLITE_OPEN_READWRITE |
	    SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK) {
		err_set(err, "cannot open it: %s", db->sql != NULL ?
		    sqlite3_errmsg(db->sql) : "out of memory");
		goto fail;
	}
	sqlite3_extended_result_codes(db->sql, 0);
	if (db_int(db, "PRAGMA application_id", &app_id, err) < 0 ||
	    db_int(db, "PRAGMA user_version", &version, err) < 0) {
		err_set(err, "not an SQLite database (%s)",
		    sqlite3_errmsg(db->sql));
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
	if (sql_check(db->sql, "PRAGMA integrity_check(1)", why,
	    sizeof why) < 0) {
		err_set(err, "fails SQLite's integrity check (%s)", why);
		goto fail;
	}
	/* Older: brought up to date like any cache (it is our temp copy). */
	if (version < DB_SCHEMA_VERSION && db_migrate(db, version, err) < 0)
		goto fail;
	for (i = 0; i < sizeof snapshot_text_checks /
	    sizeof snapshot_text_checks[0]; i++) {
		if ((st = db_prepare(db, snapshot_text_checks[i], err)) == NULL)
			goto fail;
		sqlite3_bind_text(st, 1, DB_CONTROLS_GLOB, -1, SQLITE_STATIC);
		rc = sqlite3_step(st);
		if (rc != SQLITE_ROW || sqlite3_column_int64(st, 0) != 0) {
			sqlite3_finalize(st);
			err_set(err, "%s", rc != SQLITE_ROW ?
			    "cannot read its tables" :
			    "holds control characters gpucost never stores");
			goto fail;
		}
		sqlite3_finalize(st);
	}
	*out = db;
	return 0;
fail:
	db_close(db);
	return -1;
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

/* Run sql with ?1 = provider; *changes gets the rows it changed. */
static int
db_exec_provider(struct db *db, const char *sql, const char *provider,
    size_t *changes, struct err *err)
{
	sqlite3_stmt *st;

	if ((st = db_prepare(db, sql, err)) == NULL)
		return -1;
	sqlite3_bind_text(st, 1, provider, -1, SQLITE_STATIC);
	if (db_step_done(db, st, err) < 0)
		return -1;
	if (changes != NULL)
		*changes = (size_t)sqlite3_changes(db->sql);
	return 0;
}

/* Merge one provider of the attached copy "pub" into main. */
static int
db_merge_one(struct db *db, sqlite3_stmt *pub_q, sqlite3_stmt *main_q,
    struct db_merge_result *r, struct err *err)
{
	int64_t pv[2], lv[1];
	bool pub_has, local_has;
	size_t n;

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
		    "provider = ?1", r->provider, NULL, err) < 0 ||
		    db_exec_provider(db, "INSERT INTO main.offers ("
		    WRITE_COLUMNS ") SELECT " WRITE_COLUMNS " FROM pub.offers "
		    "WHERE provider = ?1", r->provider, &n, err) < 0)
			return -1;
		r->offers = (long)n;
		/*
		 * Their committed prices come with them, those of the kinds,
		 * terms and ranges this program writes (db_committed_attach()
		 * reads nothing else).
		 */
		if (db_exec_provider(db, "DELETE FROM main.committed WHERE "
		    "provider = ?1", r->provider, NULL, err) < 0 ||
		    db_exec_provider(db, "INSERT INTO main.committed (provider, "
		    "key, kind, months, upfront, price_hour, upfront_usd) "
		    "SELECT c.provider, c.key, c.kind, c.months, c.upfront, "
		    "c.price_hour, c.upfront_usd FROM pub.committed c WHERE "
		    "c.provider = ?1 AND c.kind IN ('reservation', "
		    "'savings-plan', 'commitment') AND c.upfront IN ('none', "
		    "'partial', 'all') AND typeof(c.months) = 'integer' AND "
		    "c.months BETWEEN 1 AND " COMMITTED_MONTHS_SQL " AND "
		    "typeof(c.price_hour) = 'integer' AND c.price_hour > 0 AND "
		    "c.price_hour <= " COMMITTED_PRICE_MAX_SQL " AND "
		    "typeof(c.upfront_usd) = 'integer' AND c.upfront_usd >= 0 "
		    "AND EXISTS (SELECT 1 FROM main.offers o WHERE "
		    "o.provider = c.provider AND o.key = c.key)", r->provider,
		    NULL, err) < 0)
			return -1;
		/* Its status as the copy says, the counts as stored now. */
		if (db_exec_provider(db, "INSERT INTO main.provider_status "
		    "(provider, source, last_attempt, last_success, "
		    "offer_count, last_error, oldest, newest, sort_keys) "
		    "SELECT s.provider, s.source, s.last_attempt, "
		    "s.last_success, (SELECT count(*) FROM main.offers o WHERE "
		    "o.provider = ?1), s.last_error, (SELECT min(fetched_at) "
		    "FROM main.offers o WHERE o.provider = ?1), (SELECT "
		    "max(fetched_at) FROM main.offers o WHERE o.provider = ?1), "
		    "s.sort_keys FROM pub.provider_status s WHERE s.provider = ?1 "
		    "ON CONFLICT (provider) DO UPDATE SET source = "
		    "excluded.source, last_attempt = excluded.last_attempt, "
		    "last_success = excluded.last_success, offer_count = "
		    "excluded.offer_count, last_error = excluded.last_error, "
		    "oldest = excluded.oldest, newest = excluded.newest, "
		    "sort_keys = excluded.sort_keys", r->provider, NULL,
		    err) < 0)
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
}

int
db_merge_from(struct db *db, const char *path, struct db_merge_result *res,
    size_t n, const char *owner, const struct provider_meta *meta,
    size_t nmeta, struct err *err)
{
	sqlite3_stmt *st, *pub_q = NULL, *main_q = NULL;
	size_t i;
	int rc;

	if ((st = db_prepare(db, "ATTACH ?1 AS pub", err)) == NULL)
		return -1;
	sqlite3_bind_text(st, 1, path, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		db_err(db, err, "cannot attach the copy");
		return -1;
	}
	if (db_exec(db, "BEGIN IMMEDIATE", err) < 0)
		goto detach;
	pub_q = db_prepare(db, "SELECT " DATA_TIME("s") " FROM "
	    "pub.provider_status s WHERE s.provider = ?1", err);
	main_q = db_prepare(db, "SELECT " DATA_TIME("s") " FROM "
	    "main.provider_status s WHERE s.provider = ?1", err);
	if (pub_q == NULL || main_q == NULL)
		goto fail;
	for (i = 0; i < n; i++) {
		res[i].offers = 0;
		res[i].history_added = 0;
		res[i].published_time = res[i].local_time = 0;
		if (db_merge_one(db, pub_q, main_q, &res[i], err) < 0) {
			err_prefix(err, "%s", res[i].provider);
			goto fail;
		}
	}
	sqlite3_finalize(pub_q);
	sqlite3_finalize(main_q);
	pub_q = main_q = NULL;
	/* Where this came from commits with it (refresh --from's state). */
	for (i = 0; i < nmeta; i++)
		if (db_meta_set(db, owner, meta[i].name, meta[i].value, err) < 0)
			goto fail;
	if (db_exec(db, DB_ANALYZE, err) < 0 || db_exec(db, "COMMIT", err) < 0)
		goto fail;
	db_exec(db, "DETACH pub", err);
	return 0;
fail:
	sqlite3_finalize(pub_q);
	sqlite3_finalize(main_q);
	sqlite3_exec(db->sql, "ROLLBACK", NULL, NULL, NULL);
detach:
	sqlite3_exec(db->sql, "DETACH pub", NULL, NULL, NULL);
	return -1;
}
