/* db.c: the SQLite cache. */
#include "config.h"
#include "db.h"

#include <errno.h>
#include <math.h>
#include <sqlite3.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "err.h"
#include "money.h"
#include "str.h"
#include "xalloc.h"

/* 'gpuc': marks a file as a gpucost cache. */
#define DB_APPLICATION_ID	0x67707563
#define DB_BUSY_TIMEOUT_MS	10000

struct db {
	sqlite3	*sql;
	char	*path;
};

/*
 * Migrations: entry i brings a cache from user_version i to i + 1. Never
 * edit a shipped entry; append a new one and bump DB_SCHEMA_VERSION.
 */
static const char *const migrations[DB_SCHEMA_VERSION] = {
	/* 0 -> 1: offers, their price history, provider status. */
	"CREATE TABLE offers ("
	"  provider TEXT NOT NULL,"
	"  key TEXT NOT NULL,"
	"  instance_type TEXT NOT NULL,"
	"  region TEXT NOT NULL,"
	"  gpu TEXT NOT NULL,"		/* canonical id, '' unknown */
	"  gpu_raw TEXT NOT NULL,"
	"  gpu_count INTEGER NOT NULL,"
	"  vram_gb INTEGER NOT NULL,"	/* per GPU */
	"  interconnect TEXT NOT NULL,"
	"  vcpus INTEGER NOT NULL,"
	"  ram_gb REAL NOT NULL,"
	"  price INTEGER,"		/* micro-USD per instance-hour */
	"  spot_price INTEGER,"		/* micro-USD per instance-hour */
	"  availability TEXT NOT NULL,"
	"  spot_interruption INTEGER,"	/* Spot Advisor bucket 0..4 */
	"  reliability REAL,"
	"  fetched_at INTEGER NOT NULL,"	/* UTC epoch seconds */
	"  source TEXT NOT NULL,"
	"  PRIMARY KEY (provider, key)"
	") WITHOUT ROWID;"
	"CREATE INDEX offers_gpu ON offers (gpu, gpu_count);"
	"CREATE TABLE price_history ("
	"  provider TEXT NOT NULL,"
	"  key TEXT NOT NULL,"
	"  observed_at INTEGER NOT NULL,"
	"  price INTEGER,"
	"  spot_price INTEGER,"
	"  availability TEXT NOT NULL"
	");"
	"CREATE INDEX price_history_offer ON price_history (provider, key,"
	"  observed_at);"
	"CREATE TABLE provider_status ("
	"  provider TEXT PRIMARY KEY,"
	"  source TEXT NOT NULL,"
	"  last_attempt INTEGER,"
	"  last_success INTEGER,"
	"  offer_count INTEGER NOT NULL DEFAULT 0,"
	"  last_error TEXT,"
	"  data_version TEXT"
	");",
	/* 1 -> 2: per-provider settings (published versions per region). */
	"CREATE TABLE provider_meta ("
	"  provider TEXT NOT NULL,"
	"  name TEXT NOT NULL,"
	"  value TEXT NOT NULL,"
	"  PRIMARY KEY (provider, name)"
	") WITHOUT ROWID;",
	/*
	 * 2 -> 3: the GPU index holds the price too, so the cheapest N
	 * offers of a GPU come from the index alone (db_query_top()).
	 */
	"DROP INDEX offers_gpu;"
	"CREATE INDEX offers_gpu ON offers (gpu, gpu_count, price);",
	/*
	 * 3 -> 4: when each provider's offers were observed (the refreshes
	 * history counts availability over), and what each watch last
	 * reported, per normalised query and offer.
	 */
	"CREATE TABLE refresh_log ("
	"  provider TEXT NOT NULL,"
	"  at INTEGER NOT NULL"
	");"
	"CREATE INDEX refresh_log_at ON refresh_log (provider, at);"
	"CREATE TABLE watch ("
	"  query TEXT PRIMARY KEY,"
	"  created_at INTEGER NOT NULL,"
	"  last_run INTEGER NOT NULL"
	");"
	"CREATE TABLE watch_offer ("
	"  query TEXT NOT NULL,"
	"  provider TEXT NOT NULL,"
	"  key TEXT NOT NULL,"
	"  price INTEGER,"		/* last reported, ranked per GPU-hour */
	"  availability TEXT NOT NULL,"	/* at the last run */
	"  reported_at INTEGER NOT NULL,"
	"  PRIMARY KEY (query, provider, key)"
	") WITHOUT ROWID;",
};

/* Put "cache PATH: sqlite message" into err. */
static void
db_err(struct db *db, struct err *err, const char *what)
{
	err_set(err, "cache %s: %s: %s", db->path, what,
	    sqlite3_errmsg(db->sql));
}

/* Run one statement that returns no rows we need. */
static int
db_exec(struct db *db, const char *sql, struct err *err)
{
	char *msg = NULL;

	if (sqlite3_exec(db->sql, sql, NULL, NULL, &msg) != SQLITE_OK) {
		err_set(err, "cache %s: %s", db->path,
		    msg != NULL ? msg : sqlite3_errmsg(db->sql));
		sqlite3_free(msg);
		return -1;
	}
	return 0;
}

/* Read one integer PRAGMA (or any one-value query). */
static int
db_int(struct db *db, const char *sql, long long *out, struct err *err)
{
	sqlite3_stmt *st;
	int rc;

	if (sqlite3_prepare_v2(db->sql, sql, -1, &st, NULL) != SQLITE_OK) {
		db_err(db, err, "cannot read");
		return -1;
	}
	rc = sqlite3_step(st);
	if (rc != SQLITE_ROW) {
		db_err(db, err, "cannot read");
		sqlite3_finalize(st);
		return -1;
	}
	*out = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return 0;
}

/* Explain the common ways an existing file is not a usable cache. */
static void
db_open_error(struct db *db, struct err *err)
{
	int code = sqlite3_errcode(db->sql);

	if (code == SQLITE_NOTADB)
		err_set(err, "cache %s: not an SQLite database; move it away "
		    "or choose another file with --db", db->path);
	else if (code == SQLITE_CORRUPT)
		err_set(err, "cache %s: database is corrupt; move it away "
		    "(gpucost rebuilds a new one) or choose another with --db",
		    db->path);
	else
		err_set(err, "cache %s: %s", db->path,
		    sqlite3_errmsg(db->sql));
}

/* Bring the schema from version `from` to DB_SCHEMA_VERSION. */
static int
db_migrate(struct db *db, long long from, struct err *err)
{
	char pragma[64];
	long long v;

	if (db_exec(db, "BEGIN IMMEDIATE", err) < 0)
		return -1;
	/* Another process may have migrated while we waited for the lock. */
	if (db_int(db, "PRAGMA user_version", &v, err) < 0)
		goto fail;
	for (from = v; from < DB_SCHEMA_VERSION; from++) {
		if (db_exec(db, migrations[from], err) < 0)
			goto fail;
	}
	snprintf(pragma, sizeof pragma, "PRAGMA user_version = %d",
	    DB_SCHEMA_VERSION);
	if (db_exec(db, pragma, err) < 0)
		goto fail;
	snprintf(pragma, sizeof pragma, "PRAGMA application_id = %d",
	    DB_APPLICATION_ID);
	if (db_exec(db, pragma, err) < 0 || db_exec(db, "COMMIT", err) < 0)
		goto fail;
	return 0;
fail:
	err_prefix(err, "schema migration from version %lld", from);
	sqlite3_exec(db->sql, "ROLLBACK", NULL, NULL, NULL);
	return -1;
}

/* Close a database we refused or failed on, writing nothing to it. */
static void
db_abandon(struct db *db)
{
	/* A leftover -wal must not be checkpointed into a file we refuse. */
	if (db->sql != NULL)
		sqlite3_db_config(db->sql, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1,
		    (int *)NULL);
	db_close(db);
}

/*
 * Refuse what is not a usable gpucost cache: not SQLite, corrupt, someone
 * else's database, or a newer schema. Reads only. *version gets the
 * schema version on success.
 */
static int
db_check_identity(struct db *db, long long *version, struct err *err)
{
	long long app_id, tables;

	if (db_int(db, "PRAGMA user_version", version, err) < 0 ||
	    db_int(db, "PRAGMA application_id", &app_id, err) < 0 ||
	    db_int(db, "SELECT count(*) FROM sqlite_master", &tables, err) < 0) {
		db_open_error(db, err);
		return -1;
	}
	if (*version > DB_SCHEMA_VERSION) {
		err_set(err, "cache %s: schema version %lld is newer than this "
		    "gpucost supports (%d); upgrade gpucost or use another --db",
		    db->path, *version, DB_SCHEMA_VERSION);
		return -1;
	}
	if ((app_id != 0 && app_id != DB_APPLICATION_ID) ||
	    (*version == 0 && tables > 0)) {
		err_set(err, "cache %s: an SQLite database, but not a gpucost "
		    "cache; choose another file with --db", db->path);
		return -1;
	}
	return 0;
}

/* A file: URI for path with the given query ("immutable=1"). */
static char *
db_uri(const char *path, const char *query)
{
	static const char hex[] = "0123456789ABCDEF";
	char *uri, *o;
	const unsigned char *p;

	uri = xmalloc(strlen(path) * 3 + strlen(query) + 8);
	o = uri;
	memcpy(o, "file:", 5);
	o += 5;
	for (p = (const unsigned char *)path; *p != '\0'; p++) {
		if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		    (*p >= '0' && *p <= '9') || strchr("/-._~", *p) != NULL)
			*o++ = (char)*p;
		else {
			*o++ = '%';
			*o++ = hex[*p >> 4];
			*o++ = hex[*p & 15];
		}
	}
	*o++ = '?';
	strcpy(o, query);
	return uri;
}

/*
 * Check an existing file before opening it for real: as an immutable
 * database SQLite takes no lock and creates no -wal or -shm file, so a
 * file we refuse is left exactly as it was, side files included.
 *
 * Without locks the probe can read pages that a checkpoint of another
 * process (a refresh) is writing, and see a healthy cache as corrupt:
 * a corrupt verdict is believed only when it holds for about a second
 * (DB_PRECHECK_TRIES probes). The real open checks again, with locks.
 */
#define DB_PRECHECK_TRIES	20
#define DB_PRECHECK_PAUSE_MS	50

static int
db_precheck(const char *path, struct err *err)
{
	struct db probe = { .sql = NULL, .path = (char *)(uintptr_t)path };
	long long version;
	char *uri;
	int rc, code, tries = 0;

	uri = db_uri(path, "immutable=1");
	do {
		if (tries > 0)
			sqlite3_sleep(DB_PRECHECK_PAUSE_MS);
		rc = sqlite3_open_v2(uri, &probe.sql, SQLITE_OPEN_READONLY |
		    SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX, NULL);
		if (rc != SQLITE_OK) {
			if (probe.sql == NULL)
				err_set(err, "cache %s: out of memory", path);
			else
				db_err(&probe, err, "cannot open");
			sqlite3_close(probe.sql);
			free(uri);
			return -1;
		}
		rc = db_check_identity(&probe, &version, err);
		code = sqlite3_errcode(probe.sql);
		sqlite3_close(probe.sql);
		probe.sql = NULL;
	} while (rc < 0 && code == SQLITE_CORRUPT && ++tries < DB_PRECHECK_TRIES);
	free(uri);
	return rc;
}

int
db_open(const char *path, struct db **out, struct err *err)
{
	struct db *db;
	struct stat sb;
	long long version;
	int exists, flags, journal_wal = 0;

	*out = NULL;
	exists = stat(path, &sb) == 0;
	if (exists && S_ISDIR(sb.st_mode)) {
		err_set(err, "cache %s: is a directory", path);
		return -1;
	}
	if (!exists && errno != ENOENT) {
		err_set(err, "cache %s: %s", path, strerror(errno));
		return -1;
	}
	if (exists && db_precheck(path, err) < 0)
		return -1;
	db = xcalloc(1, sizeof *db);
	db->path = xstrdup(path);
	flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX;
	if (!exists)
		flags |= SQLITE_OPEN_CREATE;
	if (sqlite3_open_v2(path, &db->sql, flags, NULL) != SQLITE_OK) {
		if (db->sql == NULL)
			err_set(err, "cache %s: out of memory", path);
		else
			db_err(db, err, "cannot open");
		goto fail;
	}
	sqlite3_extended_result_codes(db->sql, 0);
	sqlite3_busy_timeout(db->sql, DB_BUSY_TIMEOUT_MS);

	/* Again, now with any -wal content: a refused file stays untouched. */
	if (db_check_identity(db, &version, err) < 0)
		goto fail;
	{
		sqlite3_stmt *st;

		if (sqlite3_prepare_v2(db->sql, "PRAGMA journal_mode", -1, &st,
		    NULL) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW) {
			const unsigned char *mode = sqlite3_column_text(st, 0);

			journal_wal = mode != NULL &&
			    strcmp((const char *)mode, "wal") == 0;
		}
		sqlite3_finalize(st);
	}
	if (!journal_wal &&
	    db_exec(db, "PRAGMA journal_mode = WAL", err) < 0)
		goto fail;
	if (db_exec(db, "PRAGMA synchronous = NORMAL;"
	    "PRAGMA temp_store = MEMORY;", err) < 0)
		goto fail;
	if (version < DB_SCHEMA_VERSION && db_migrate(db, version, err) < 0)
		goto fail;
	*out = db;
	return 0;
fail:
	db_abandon(db);
	return -1;
}

void
db_close(struct db *db)
{
	if (db == NULL)
		return;
	sqlite3_close(db->sql);
	free(db->path);
	free(db);
}

const char *
db_path(const struct db *db)
{
	return db->path;
}

/* Prepare sql, or fill err and return NULL. */
static sqlite3_stmt *
db_prepare(struct db *db, const char *sql, struct err *err)
{
	sqlite3_stmt *st;

	if (sqlite3_prepare_v2(db->sql, sql, -1, &st, NULL) != SQLITE_OK) {
		db_open_error(db, err);
		return NULL;
	}
	return st;
}

static void
bind_money(sqlite3_stmt *st, int i, int64_t v)
{
	if (money_known(v))
		sqlite3_bind_int64(st, i, v);
	else
		sqlite3_bind_null(st, i);
}

static int64_t
column_money(sqlite3_stmt *st, int i)
{
	if (sqlite3_column_type(st, i) == SQLITE_NULL)
		return MONEY_NONE;
	return sqlite3_column_int64(st, i);
}

/* Copy a text column into a fixed buffer ("" for NULL). */
static void
column_text(sqlite3_stmt *st, int i, char *dst, size_t size)
{
	const unsigned char *t = sqlite3_column_text(st, i);

	str_copy(dst, size, t != NULL ? (const char *)t : "");
}

int
db_provider_is_new(struct db *db, const char *provider, bool *is_new,
    struct err *err)
{
	sqlite3_stmt *st;
	int rc;

	st = db_prepare(db, "SELECT 1 FROM provider_status WHERE provider = ?",
	    err);
	if (st == NULL)
		return -1;
	sqlite3_bind_text(st, 1, provider, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
		db_open_error(db, err);
		return -1;
	}
	*is_new = rc == SQLITE_DONE;
	return 0;
}

#define OFFER_COLUMNS							\
	"provider, key, instance_type, region, gpu, gpu_raw, gpu_count, " \
	"vram_gb, interconnect, vcpus, ram_gb, price, spot_price, "	\
	"availability, spot_interruption, reliability, fetched_at, source"

/* Bind one offer to the 18 placeholders of an OFFER_COLUMNS insert. */
static void
bind_offer(sqlite3_stmt *st, const char *provider, const struct offer *o)
{
	sqlite3_bind_text(st, 1, provider, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, o->key, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, o->instance_type, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 4, o->region, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 5, o->gpu, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 6, o->gpu_raw, -1, SQLITE_STATIC);
	sqlite3_bind_int(st, 7, o->gpu_count);
	sqlite3_bind_int(st, 8, o->vram_gb);
	sqlite3_bind_text(st, 9, interconnect_name(o->interconnect), -1,
	    SQLITE_STATIC);
	sqlite3_bind_int(st, 10, o->vcpus);
	sqlite3_bind_double(st, 11, o->ram_gb);
	bind_money(st, 12, o->price);
	bind_money(st, 13, o->spot_price);
	sqlite3_bind_text(st, 14, availability_name(o->availability), -1,
	    SQLITE_STATIC);
	if (o->spot_interruption >= 0)
		sqlite3_bind_int(st, 15, o->spot_interruption);
	else
		sqlite3_bind_null(st, 15);
	if (o->reliability >= 0)
		sqlite3_bind_double(st, 16, o->reliability);
	else
		sqlite3_bind_null(st, 16);
	sqlite3_bind_int64(st, 17, o->fetched_at);
	sqlite3_bind_text(st, 18, source_name(o->source), -1, SQLITE_STATIC);
}

int
db_replace_offers(struct db *db, const char *provider,
    const struct offer *offers, size_t n, enum offer_source source,
    const char *data_version, int64_t now, struct db_replace_stats *stats,
    struct err *err)
{
	return db_replace_offers_meta(db, provider, offers, n, source,
	    data_version, NULL, 0, now, stats, err);
}

int
db_replace_offers_meta(struct db *db, const char *provider,
    const struct offer *offers, size_t n, enum offer_source source,
    const char *data_version, const struct db_meta *meta, size_t nmeta,
    int64_t now, struct db_replace_stats *stats, struct err *err)
{
	sqlite3_stmt *st = NULL;
	long long stored = 0;
	size_t i;
	int rc;

	if (stats != NULL)
		memset(stats, 0, sizeof *stats);
	if (db_exec(db, "BEGIN IMMEDIATE", err) < 0)
		return -1;
	if (db_exec(db, "CREATE TEMP TABLE IF NOT EXISTS incoming AS "
	    "SELECT * FROM offers WHERE 0;"
	    "CREATE UNIQUE INDEX IF NOT EXISTS temp.incoming_key ON "
	    "incoming (key);"
	    "DELETE FROM incoming;", err) < 0)
		goto fail;
	st = db_prepare(db, "INSERT OR REPLACE INTO incoming (" OFFER_COLUMNS
	    ") VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)", err);
	if (st == NULL)
		goto fail;
	for (i = 0; i < n; i++) {
		bind_offer(st, provider, &offers[i]);
		if (sqlite3_step(st) != SQLITE_DONE) {
			db_err(db, err, "write failed");
			goto fail;
		}
		sqlite3_reset(st);
	}
	sqlite3_finalize(st);
	st = NULL;
	/* Duplicate keys in the input collapse to the last one. */
	if (db_int(db, "SELECT count(*) FROM incoming", &stored, err) < 0)
		goto fail;

	/* History: new offers and changed prices or availability. */
	if ((st = db_prepare(db, "INSERT INTO price_history (provider, key, "
	    "observed_at, price, spot_price, availability) "
	    "SELECT i.provider, i.key, i.fetched_at, i.price, i.spot_price, "
	    "i.availability FROM incoming i LEFT JOIN offers o "
	    "ON o.provider = i.provider AND o.key = i.key "
	    "WHERE o.key IS NULL OR o.price IS NOT i.price "
	    "OR o.spot_price IS NOT i.spot_price "
	    "OR o.availability IS NOT i.availability", err)) == NULL)
		goto fail;
	if (sqlite3_step(st) != SQLITE_DONE) {
		db_err(db, err, "write failed");
		goto fail;
	}
	if (stats != NULL)
		stats->history_rows = (size_t)sqlite3_changes(db->sql);
	sqlite3_finalize(st);
	st = NULL;

	if ((st = db_prepare(db, "DELETE FROM offers WHERE provider = ? AND "
	    "key NOT IN (SELECT key FROM incoming)", err)) == NULL)
		goto fail;
	sqlite3_bind_text(st, 1, provider, -1, SQLITE_STATIC);
	if (sqlite3_step(st) != SQLITE_DONE) {
		db_err(db, err, "write failed");
		goto fail;
	}
	if (stats != NULL)
		stats->removed = (size_t)sqlite3_changes(db->sql);
	sqlite3_finalize(st);
	st = NULL;

	/*
	 * Rows whose indexed columns (gpu, gpu_count, price) change go and
	 * come back whole; every other row is updated in place by the
	 * upsert below, which leaves those columns and so the offers_gpu
	 * index alone (half the cost of replacing a row; a refresh changes
	 * about 1 % of the prices).
	 */
	if ((st = db_prepare(db, "DELETE FROM offers WHERE provider = ? AND "
	    "EXISTS (SELECT 1 FROM incoming i WHERE i.key = offers.key AND "
	    "(i.gpu IS NOT offers.gpu OR i.gpu_count IS NOT offers.gpu_count "
	    "OR i.price IS NOT offers.price))", err)) == NULL)
		goto fail;
	sqlite3_bind_text(st, 1, provider, -1, SQLITE_STATIC);
	if (sqlite3_step(st) != SQLITE_DONE) {
		db_err(db, err, "write failed");
		goto fail;
	}
	sqlite3_finalize(st);
	st = NULL;
	if (db_exec(db, "INSERT INTO offers SELECT * FROM incoming WHERE true "
	    "ON CONFLICT (provider, key) DO UPDATE SET "
	    "instance_type = excluded.instance_type, region = excluded.region, "
	    "gpu_raw = excluded.gpu_raw, vram_gb = excluded.vram_gb, "
	    "interconnect = excluded.interconnect, vcpus = excluded.vcpus, "
	    "ram_gb = excluded.ram_gb, spot_price = excluded.spot_price, "
	    "availability = excluded.availability, "
	    "spot_interruption = excluded.spot_interruption, "
	    "reliability = excluded.reliability, "
	    "fetched_at = excluded.fetched_at, source = excluded.source",
	    err) < 0)
		goto fail;
	if (db_exec(db, "DELETE FROM incoming", err) < 0)
		goto fail;

	if ((st = db_prepare(db, "INSERT INTO provider_status (provider, "
	    "source, last_attempt, last_success, offer_count, last_error, "
	    "data_version) VALUES (?1, ?2, ?3, ?3, ?4, NULL, ?5) "
	    "ON CONFLICT (provider) DO UPDATE SET source = ?2, "
	    "last_attempt = ?3, last_success = ?3, offer_count = ?4, "
	    "last_error = NULL, data_version = ?5", err)) == NULL)
		goto fail;
	sqlite3_bind_text(st, 1, provider, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, source_name(source), -1, SQLITE_STATIC);
	if (source == SRC_LIVE)
		sqlite3_bind_int64(st, 3, now);
	else
		sqlite3_bind_null(st, 3);
	sqlite3_bind_int64(st, 4, stored);
	if (data_version != NULL)
		sqlite3_bind_text(st, 5, data_version, -1, SQLITE_STATIC);
	else
		sqlite3_bind_null(st, 5);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	st = NULL;
	if (rc != SQLITE_DONE) {
		db_err(db, err, "write failed");
		goto fail;
	}
	/* One observation of every offer of provider, for history. */
	if ((st = db_prepare(db, "INSERT INTO refresh_log (provider, at) "
	    "VALUES (?, ?)", err)) == NULL)
		goto fail;
	sqlite3_bind_text(st, 1, provider, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, now);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	st = NULL;
	if (rc != SQLITE_DONE) {
		db_err(db, err, "write failed");
		goto fail;
	}
	/* The settings that describe these offers commit with them. */
	for (i = 0; i < nmeta; i++)
		if (db_meta_set(db, provider, meta[i].name, meta[i].value,
		    err) < 0)
			goto fail;
	if (db_exec(db, "COMMIT", err) < 0)
		goto fail;
	if (stats != NULL)
		stats->offers = (size_t)stored;
	return 0;
fail:
	sqlite3_finalize(st);
	sqlite3_exec(db->sql, "ROLLBACK", NULL, NULL, NULL);
	err_prefix(err, "%s", provider);
	return -1;
}

int
db_record_failure(struct db *db, const char *provider, int64_t now,
    const char *error, struct err *err)
{
	sqlite3_stmt *st;
	int rc;

	st = db_prepare(db, "INSERT INTO provider_status (provider, source, "
	    "last_attempt, last_error) VALUES (?1, 'snapshot', ?2, ?3) "
	    "ON CONFLICT (provider) DO UPDATE SET last_attempt = ?2, "
	    "last_error = ?3", err);
	if (st == NULL)
		return -1;
	sqlite3_bind_text(st, 1, provider, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, now);
	sqlite3_bind_text(st, 3, error, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		db_err(db, err, "write failed");
		return -1;
	}
	return 0;
}

/* Fill an offer from a row of SELECT OFFER_COLUMNS. */
static void
row_to_offer(sqlite3_stmt *st, struct offer *o)
{
	char buf[16];

	column_text(st, 0, o->provider, sizeof o->provider);
	column_text(st, 1, o->key, sizeof o->key);
	column_text(st, 2, o->instance_type, sizeof o->instance_type);
	column_text(st, 3, o->region, sizeof o->region);
	column_text(st, 4, o->gpu, sizeof o->gpu);
	column_text(st, 5, o->gpu_raw, sizeof o->gpu_raw);
	o->gpu_count = sqlite3_column_int(st, 6);
	o->vram_gb = sqlite3_column_int(st, 7);
	column_text(st, 8, buf, sizeof buf);
	if (interconnect_parse(buf, &o->interconnect) < 0)
		o->interconnect = IC_UNKNOWN;
	o->vcpus = sqlite3_column_int(st, 9);
	o->ram_gb = sqlite3_column_double(st, 10);
	o->price = column_money(st, 11);
	o->spot_price = column_money(st, 12);
	column_text(st, 13, buf, sizeof buf);
	if (availability_parse(buf, &o->availability) < 0)
		o->availability = AV_UNKNOWN;
	o->spot_interruption = sqlite3_column_type(st, 14) == SQLITE_NULL ?
	    -1 : sqlite3_column_int(st, 14);
	o->reliability = sqlite3_column_type(st, 15) == SQLITE_NULL ?
	    -1 : sqlite3_column_double(st, 15);
	o->fetched_at = sqlite3_column_int64(st, 16);
	column_text(st, 17, buf, sizeof buf);
	o->source = strcmp(buf, "live") == 0 ? SRC_LIVE : SRC_SNAPSHOT;
}

/* Append " AND col IN (?,?,...)" for n values. */
static void
sql_in(char *sql, size_t size, const char *col, size_t n)
{
	size_t len = strlen(sql), i;

	len += (size_t)snprintf(sql + len, size - len, " AND %s IN (", col);
	for (i = 0; i < n && len < size; i++)
		len += (size_t)snprintf(sql + len, size - len, "%s?",
		    i == 0 ? "" : ",");
	if (len < size)
		snprintf(sql + len, size - len, ")");
}

/* Append to sql (size bytes) the conditions of f that SQL tests. */
static void
filter_sql(const struct offer_filter *f, char *sql, size_t size)
{
	if (f->ngpus > 0)
		sql_in(sql, size, "gpu", f->ngpus);
	if (f->count > 0)
		strncat(sql, f->multi_node ? " AND gpu_count <= ?" :
		    " AND gpu_count = ?", size - strlen(sql) - 1);
	if (f->min_vram_gb > 0)
		strncat(sql, " AND vram_gb >= ?", size - strlen(sql) - 1);
	if (f->interconnect != IC_UNKNOWN)
		strncat(sql, " AND interconnect = ?", size - strlen(sql) - 1);
	if (f->nproviders > 0)
		sql_in(sql, size, "provider", f->nproviders);
	if (f->available)
		strncat(sql, " AND availability = 'available'",
		    size - strlen(sql) - 1);
	if (f->spot)
		strncat(sql, " AND spot_price IS NOT NULL",
		    size - strlen(sql) - 1);
}

/* Bind f's values to the placeholders of filter_sql(), from number *k. */
static void
filter_bind(sqlite3_stmt *st, const struct offer_filter *f, int *k)
{
	size_t i;

	for (i = 0; i < f->ngpus; i++)
		sqlite3_bind_text(st, (*k)++, f->gpus[i]->id, -1,
		    SQLITE_STATIC);
	if (f->count > 0)
		sqlite3_bind_int(st, (*k)++, f->count);
	if (f->min_vram_gb > 0)
		sqlite3_bind_int(st, (*k)++, f->min_vram_gb);
	if (f->interconnect != IC_UNKNOWN)
		sqlite3_bind_text(st, (*k)++,
		    interconnect_name(f->interconnect), -1, SQLITE_STATIC);
	for (i = 0; i < f->nproviders; i++)
		sqlite3_bind_text(st, (*k)++, f->providers[i], -1,
		    SQLITE_STATIC);
}

/* Append the offers of a prepared OFFER_COLUMNS query that match f. */
static int
read_offers(struct db *db, sqlite3_stmt *st, const struct offer_filter *f,
    struct offer_list *out, struct err *err)
{
	struct offer *o;
	int rc;

	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		o = offer_list_add(out);
		row_to_offer(st, o);
		if (!offer_matches(f, o, NULL))
			offer_list_pop(out);
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		db_open_error(db, err);
		return -1;
	}
	return 0;
}

int
db_query(struct db *db, const struct offer_filter *f, struct offer_list *out,
    struct err *err)
{
	char sql[1024] = "SELECT " OFFER_COLUMNS " FROM offers WHERE 1";
	sqlite3_stmt *st;
	int k = 1;

	filter_sql(f, sql, sizeof sql);
	if ((st = db_prepare(db, sql, err)) == NULL)
		return -1;
	filter_bind(st, f, &k);
	return read_offers(db, st, f, out, err);
}

/* plan_sort()'s price per GPU-hour: money_div_round(price, gpu_count). */
#define SQL_GPU_PRICE	"(2 * price + gpu_count) / (2 * gpu_count)"

int
db_query_top(struct db *db, const struct offer_filter *f, enum sort_key key,
    bool reverse, size_t limit, struct offer_list *out, size_t *matched,
    struct err *err)
{
	char where[768] = "", sql[1536];
	const char *order;
	sqlite3_stmt *st;
	int k = 1, rc;

	*matched = 0;
	filter_sql(f, where, sizeof where);
	snprintf(sql, sizeof sql, "SELECT count(*) FROM offers WHERE 1%s",
	    where);
	if ((st = db_prepare(db, sql, err)) == NULL)
		return -1;
	filter_bind(st, f, &k);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		*matched = (size_t)sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	if (rc != SQLITE_ROW) {
		db_open_error(db, err);
		return -1;
	}
	/*
	 * plan_sort(): unknown prices last, then the key (reversed or
	 * not), then the lower price per GPU-hour, provider and key. The
	 * inner query reads only offers_gpu (gpu, gpu_count, price and
	 * the primary key); only the rows picked are read whole.
	 */
	if (key == SORT_PRICE)
		order = reverse ? "price IS NULL, price DESC, " SQL_GPU_PRICE
		    ", provider, key" : "price IS NULL, price, " SQL_GPU_PRICE
		    ", provider, key";
	else
		order = reverse ? "price IS NULL, " SQL_GPU_PRICE " DESC, "
		    "provider, key" : "price IS NULL, " SQL_GPU_PRICE ", "
		    "provider, key";
	snprintf(sql, sizeof sql, "SELECT " OFFER_COLUMNS " FROM offers "
	    "WHERE (provider, key) IN (SELECT provider, key FROM offers "
	    "WHERE 1%s ORDER BY %s LIMIT ?)", where, order);
	if ((st = db_prepare(db, sql, err)) == NULL)
		return -1;
	k = 1;
	filter_bind(st, f, &k);
	sqlite3_bind_int64(st, k, limit < INT64_MAX ? (int64_t)limit :
	    INT64_MAX);
	return read_offers(db, st, f, out, err);
}

int
db_status(struct db *db, struct provider_status **out, size_t *n,
    struct err *err)
{
	sqlite3_stmt *st;
	struct provider_status *v = NULL, *s;
	size_t cap = 0;
	int rc;

	*out = NULL;
	*n = 0;
	/* One pass over the offers for all three figures, not three. */
	st = db_prepare(db, "SELECT s.provider, s.source, s.last_attempt, "
	    "s.last_success, s.last_error, s.data_version, coalesce(o.n, 0), "
	    "o.oldest, o.newest FROM provider_status s LEFT JOIN "
	    "(SELECT provider, count(*) AS n, min(fetched_at) AS oldest, "
	    "max(fetched_at) AS newest FROM offers GROUP BY provider) o "
	    "ON o.provider = s.provider ORDER BY s.provider", err);
	if (st == NULL)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		char src[16];

		if (*n == cap) {
			cap = cap == 0 ? 8 : cap * 2;
			v = xreallocarray(v, cap, sizeof *v);
		}
		s = &v[(*n)++];
		memset(s, 0, sizeof *s);
		column_text(st, 0, s->provider, sizeof s->provider);
		column_text(st, 1, src, sizeof src);
		s->source = strcmp(src, "live") == 0 ? SRC_LIVE : SRC_SNAPSHOT;
		s->last_attempt = sqlite3_column_int64(st, 2);
		s->last_success = sqlite3_column_int64(st, 3);
		column_text(st, 4, s->last_error, sizeof s->last_error);
		column_text(st, 5, s->data_version, sizeof s->data_version);
		s->offer_count = (long)sqlite3_column_int64(st, 6);
		s->oldest = sqlite3_column_int64(st, 7);
		s->newest = sqlite3_column_int64(st, 8);
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		db_open_error(db, err);
		free(v);
		*n = 0;
		return -1;
	}
	*out = v;
	return 0;
}

int
db_history(struct db *db, const char *provider, const char *key,
    struct price_point **out, size_t *n, struct err *err)
{
	sqlite3_stmt *st;
	struct price_point *v = NULL;
	size_t cap = 0;
	char buf[16];
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
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (*n == cap) {
			cap = cap == 0 ? 16 : cap * 2;
			v = xreallocarray(v, cap, sizeof *v);
		}
		v[*n].at = sqlite3_column_int64(st, 0);
		v[*n].price = column_money(st, 1);
		v[*n].spot_price = column_money(st, 2);
		column_text(st, 3, buf, sizeof buf);
		if (availability_parse(buf, &v[*n].availability) < 0)
			v[*n].availability = AV_UNKNOWN;
		(*n)++;
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		db_open_error(db, err);
		free(v);
		*n = 0;
		return -1;
	}
	*out = v;
	return 0;
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
		column_text(st, 0, value, size);
		*found = true;
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
		db_open_error(db, err);
		return -1;
	}
	return 0;
}

int
db_meta_set(struct db *db, const char *provider, const char *name,
    const char *value, struct err *err)
{
	sqlite3_stmt *st;
	int rc;

	st = db_prepare(db, "INSERT OR REPLACE INTO provider_meta (provider, "
	    "name, value) VALUES (?, ?, ?)", err);
	if (st == NULL)
		return -1;
	sqlite3_bind_text(st, 1, provider, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, name, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, value, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		db_err(db, err, "write failed");
		return -1;
	}
	return 0;
}

int
db_meta_list(struct db *db, const char *provider, struct db_meta **out,
    size_t *n, struct err *err)
{
	struct db_meta *v = NULL;
	sqlite3_stmt *st;
	size_t cap = 0;
	int rc;

	*out = NULL;
	*n = 0;
	st = db_prepare(db, "SELECT name, value FROM provider_meta WHERE "
	    "provider = ? ORDER BY name", err);
	if (st == NULL)
		return -1;
	sqlite3_bind_text(st, 1, provider, -1, SQLITE_STATIC);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (*n == cap) {
			cap = cap == 0 ? 16 : cap * 2;
			v = xreallocarray(v, cap, sizeof *v);
		}
		column_text(st, 0, v[*n].name, sizeof v[*n].name);
		column_text(st, 1, v[*n].value, sizeof v[*n].value);
		(*n)++;
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		db_open_error(db, err);
		free(v);
		*n = 0;
		return -1;
	}
	*out = v;
	return 0;
}

int
db_refresh_times(struct db *db, const char *provider, int64_t since,
    int64_t **out, size_t *n, struct err *err)
{
	sqlite3_stmt *st;
	int64_t *v = NULL;
	size_t cap = 0;
	int rc;

	*out = NULL;
	*n = 0;
	st = db_prepare(db, "SELECT at FROM refresh_log WHERE provider = ? "
	    "AND at >= ? ORDER BY at", err);
	if (st == NULL)
		return -1;
	sqlite3_bind_text(st, 1, provider, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, since);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (*n == cap) {
			cap = cap == 0 ? 64 : cap * 2;
			v = xreallocarray(v, cap, sizeof *v);
		}
		v[(*n)++] = sqlite3_column_int64(st, 0);
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		db_err(db, err, "cannot read");
		free(v);
		*n = 0;
		return -1;
	}
	*out = v;
	return 0;
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

int
db_watch_load(struct db *db, const char *query, struct db_watch_offer **out,
    size_t *n, bool *known, struct err *err)
{
	sqlite3_stmt *st;
	struct db_watch_offer *v = NULL;
	size_t cap = 0;
	char buf[16];
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
		db_err(db, err, "cannot read");
		return -1;
	}
	*known = rc == SQLITE_ROW;
	st = db_prepare(db, "SELECT provider, key, price, availability, "
	    "reported_at FROM watch_offer WHERE query = ?", err);
	if (st == NULL)
		return -1;
	sqlite3_bind_text(st, 1, query, -1, SQLITE_STATIC);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (*n == cap) {
			cap = cap == 0 ? 16 : cap * 2;
			v = xreallocarray(v, cap, sizeof *v);
		}
		column_text(st, 0, v[*n].provider, sizeof v[*n].provider);
		column_text(st, 1, v[*n].key, sizeof v[*n].key);
		v[*n].price = column_money(st, 2);
		column_text(st, 3, buf, sizeof buf);
		if (availability_parse(buf, &v[*n].availability) < 0)
			v[*n].availability = AV_UNKNOWN;
		v[*n].reported_at = sqlite3_column_int64(st, 4);
		(*n)++;
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		db_err(db, err, "cannot read");
		free(v);
		*n = 0;
		return -1;
	}
	*out = v;
	return 0;
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
		bind_money(st, 4, v[i].price);
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

int
db_watch_list(struct db *db, struct db_watch **out, size_t *n,
    struct err *err)
{
	sqlite3_stmt *st;
	struct db_watch *v = NULL;
	size_t cap = 0;
	int rc;

	*out = NULL;
	*n = 0;
	st = db_prepare(db, "SELECT w.query, w.created_at, w.last_run, "
	    "(SELECT count(*) FROM watch_offer o WHERE o.query = w.query) "
	    "FROM watch w ORDER BY w.created_at, w.query", err);
	if (st == NULL)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (*n == cap) {
			cap = cap == 0 ? 8 : cap * 2;
			v = xreallocarray(v, cap, sizeof *v);
		}
		column_text(st, 0, v[*n].query, sizeof v[*n].query);
		v[*n].created_at = sqlite3_column_int64(st, 1);
		v[*n].last_run = sqlite3_column_int64(st, 2);
		v[*n].offers = (size_t)sqlite3_column_int64(st, 3);
		(*n)++;
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		db_err(db, err, "cannot read");
		free(v);
		*n = 0;
		return -1;
	}
	*out = v;
	return 0;
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
