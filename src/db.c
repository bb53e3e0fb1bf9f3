/*
 * db.c: the storage of the cache. Its one job: the SQLite file -- open
 * and check it, migrate the schema, read and write offers, history,
 * status and settings -- and it is the only module that talks to
 * SQLite. What goes in on first use (the snapshot) is cache.c's call.
 */
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
#include <unistd.h>

#include "cost.h"
#include "err.h"
#include "filter.h"
#include "gpu.h"
#include "money.h"
#include "notes.h"
#include "provider.h"
#include "paths.h"
#include "rentable.h"
#include "str.h"
#include "xalloc.h"

/* 'gpuc': marks a file as a gpucost cache. */
#define DB_APPLICATION_ID	0x67707563
#define DB_BUSY_TIMEOUT_MS	10000

struct db {
	sqlite3	*sql;
	char	*path;
	bool	 read_only;	/* opened read-only: we may not write it */
	bool	 had_wal;	/* a -wal was there before we opened it */
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
	/* Never written (issue 10); a shipped migration never changes. */
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
	 * 3 -> 4: an offer's stored notes (a mask of NOTE_BIT()s, notes.h)
	 * and the zone its spot price is from.
	 */
	"ALTER TABLE offers ADD COLUMN notes INTEGER NOT NULL DEFAULT 0;"
	"ALTER TABLE offers ADD COLUMN spot_zone TEXT NOT NULL DEFAULT '';",
	/*
	 * 4 -> 5: the source's currency and its own price (Scaleway bills
	 * in EUR); rows cached before were all USD.
	 */
	"ALTER TABLE offers ADD COLUMN currency TEXT NOT NULL DEFAULT 'USD';"
	"ALTER TABLE offers ADD COLUMN price_original INTEGER;",
	/*
	 * 5 -> 6: sort keys computed at write time (per-GPU price, per-GPU
	 * spot price, $/PFLOP-h; SK_UNKNOWN_* when unknown, so they sort
	 * last), an index per query shape, and each provider's offer count
	 * and age range kept in its status row, so a query reads no
	 * offers it does not show. The sort keys of existing rows are
	 * filled in by db_sort_keys_update() (they need the GPU catalogue).
	 */
	"ALTER TABLE offers ADD COLUMN sk_gpu_price INTEGER NOT NULL "
	"  DEFAULT 9223372036854775807;"
	"ALTER TABLE offers ADD COLUMN sk_spot_gpu INTEGER NOT NULL "
	"  DEFAULT 9223372036854775807;"
	"ALTER TABLE offers ADD COLUMN sk_pflop REAL NOT NULL "
	"  DEFAULT 1e308;"
	"ALTER TABLE provider_status ADD COLUMN oldest INTEGER;"
	"ALTER TABLE provider_status ADD COLUMN newest INTEGER;"
	"ALTER TABLE provider_status ADD COLUMN sort_keys TEXT;"
	"UPDATE provider_status SET"
	"  offer_count = (SELECT count(*) FROM offers o"
	"    WHERE o.provider = provider_status.provider),"
	"  oldest = (SELECT min(fetched_at) FROM offers o"
	"    WHERE o.provider = provider_status.provider),"
	"  newest = (SELECT max(fetched_at) FROM offers o"
	"    WHERE o.provider = provider_status.provider);"
	"DROP INDEX offers_gpu;"
	"CREATE INDEX offers_gpu ON offers (gpu, gpu_count, sk_gpu_price);"
	"CREATE INDEX offers_count ON offers (gpu_count, sk_gpu_price,"
	"  provider, key, vram_gb, interconnect);"
	"CREATE INDEX offers_gpu_price ON offers (sk_gpu_price);"
	"CREATE INDEX offers_provider_price ON offers (provider,"
	"  sk_gpu_price);"
	"CREATE INDEX offers_provider_pflop ON offers (provider, sk_pflop,"
	"  sk_gpu_price);"
	"CREATE INDEX offers_spot_gpu ON offers (sk_spot_gpu,"
	"  sk_gpu_price);",
	/*
	 * 6 -> 7: when each provider's offers were observed (the refreshes
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

/*
 * Stored sort keys of an unknown value: larger than any known one, so an
 * ascending walk of an index meets the unknowns last (plan_sort()'s
 * rule) without a separate pass.
 */
#define SK_UNKNOWN_MONEY	INT64_MAX
#define SK_UNKNOWN_MONEY_SQL	"9223372036854775807"
#define SK_UNKNOWN_REAL		1e308
#define SK_UNKNOWN_REAL_SQL	"1e308"

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

/*
 * The message for a statement that failed on the cache (opening,
 * reading or preparing): names the file and explains the common ways
 * it is not a usable cache.
 */
static void
db_file_error(struct db *db, struct err *err)
{
	int code = sqlite3_errcode(db->sql);
	int sys = sqlite3_system_errno(db->sql);

	if (code == SQLITE_NOTADB)
		err_set(err, "cache %s: not an SQLite database; move it away "
		    "or choose another file with --db", db->path);
	else if (code == SQLITE_CORRUPT)
		err_set(err, "cache %s: database is corrupt; move it away "
		    "(gpucost rebuilds a new one) or choose another with --db",
		    db->path);
	else if (code == SQLITE_NOMEM)
		err_set(err, "cache %s: out of memory", db->path);
	else if ((code == SQLITE_IOERR || code == SQLITE_CANTOPEN ||
	    code == SQLITE_FULL) && sys != 0)
		/* "disk I/O error" alone hides ENOSPC, EFBIG, EIO, EACCES. */
		err_set(err, "cache %s: %s (%s)", db->path,
		    sqlite3_errmsg(db->sql), strerror(sys));
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

/*
 * Close a database we refused or failed on, writing nothing to it. A
 * -wal that was there before we came (a crashed writer's, or someone
 * else's) must not be checkpointed into a file we refuse; one we made
 * is empty and goes away with a normal close.
 */
static void
db_abandon(struct db *db)
{
	if (db->sql != NULL && db->had_wal)
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
		db_file_error(db, err);
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

/* Does path-SUFFIX exist with any bytes in it? */
static bool
db_side_file(const char *path, const char *suffix, bool *nonempty)
{
	struct stat sb;
	char *side = xasprintf("%s%s", path, suffix);
	bool exists = stat(side, &sb) == 0;

	free(side);
	if (nonempty != NULL)
		*nonempty = exists && sb.st_size > 0;
	return exists;
}

/*
 * Errors that mean "this connection may not write, or may not create the
 * -wal/-shm files next to the cache": the cases a reader retries
 * read-only.
 */
static bool
db_cannot_write(int code)
{
	return code == SQLITE_READONLY || code == SQLITE_CANTOPEN ||
	    code == SQLITE_PERM || code == SQLITE_AUTH;
}

/* Open db->sql with flags (and a file: URI query, or NULL). */
static int
db_connect(struct db *db, int flags, const char *query, struct err *err)
{
	char *uri = NULL;
	int rc;

	sqlite3_close(db->sql);
	db->sql = NULL;
	if (query != NULL) {
		uri = db_uri(db->path, query);
		flags |= SQLITE_OPEN_URI;
	}
	rc = sqlite3_open_v2(uri != NULL ? uri : db->path, &db->sql,
	    flags | SQLITE_OPEN_NOMUTEX, NULL);
	free(uri);
	if (rc != SQLITE_OK) {
		if (db->sql == NULL)
			err_set(err, "cache %s: out of memory", db->path);
		else
			db_file_error(db, err);
		return -1;
	}
	sqlite3_extended_result_codes(db->sql, 0);
	sqlite3_busy_timeout(db->sql, DB_BUSY_TIMEOUT_MS);
	db->read_only = sqlite3_db_readonly(db->sql, "main") == 1;
	return 0;
}

/* Why we may not write path: "Permission denied", "Read-only file system". */
static const char *
db_write_denied(const char *path)
{
	if (access(path, W_OK) == 0)
		return "cannot create or write the -wal and -shm files next "
		    "to it (is its directory writable?)";
	return strerror(errno);
}

/*
 * The read-only ways in, for a reader that may not write the cache: a
 * plain read-only connection, which uses WAL with the -shm and -wal the
 * writer left (or creates them if the directory allows); failing that,
 * with no -wal holding data, the file alone as an immutable database
 * (on a read-only file system nothing can change it; elsewhere a writer
 * starting now would write the -wal first, which this reader ignores).
 */
static int
db_connect_read_only(struct db *db, long long *version, struct err *err)
{
	bool wal_data;

	if (db_connect(db, SQLITE_OPEN_READONLY, NULL, err) == 0 &&
	    db_check_identity(db, version, err) == 0)
		return 0;
	if (db->sql == NULL || !db_cannot_write(sqlite3_errcode(db->sql)))
		return -1;
	db_side_file(db->path, "-wal", &wal_data);
	if (wal_data) {
		err_set(err, "cache %s: cannot read it without write access "
		    "to its directory (SQLite needs %s-shm next to its -wal); "
		    "let its owner run 'gpucost refresh' once, which leaves "
		    "the -shm for readers", db->path, db->path);
		return -1;
	}
	if (db_connect(db, SQLITE_OPEN_READONLY, "immutable=1", err) < 0)
		return -1;
	return db_check_identity(db, version, err);
}

/*
 * A cache others read through a shared directory (the file and its
 * directory open to group or others) keeps its -wal (emptied) and -shm
 * after the last writer closes: a reader who may not create files there
 * needs them to read the WAL database safely.
 */
static void
db_keep_wal_for_readers(struct db *db)
{
	char *dir, *slash;
	struct stat fsb, dsb;
	int on = 1, shared;

	dir = xstrdup(db->path);
	slash = strrchr(dir, '/');
	if (slash == NULL)
		strcpy(dir, ".");
	else if (slash == dir)
		slash[1] = '\0';
	else
		*slash = '\0';
	shared = stat(db->path, &fsb) == 0 && stat(dir, &dsb) == 0 &&
	    (fsb.st_mode & 0044) != 0 && (dsb.st_mode & 0011) != 0;
	free(dir);
	if (!shared)
		return;
	sqlite3_file_control(db->sql, "main", SQLITE_FCNTL_PERSIST_WAL, &on);
	sqlite3_exec(db->sql, "PRAGMA journal_size_limit = 0", NULL, NULL,
	    NULL);
}

/*
 * Open the cache. may_read_only: a reader that cannot write gets a
 * read-only connection instead of an error. No pre-check of the file:
 * only the real open, with its -wal, can tell a sound cache from a
 * corrupt one, and until we write nothing the file stays as it was.
 */
static int
db_open_mode(const char *path, bool may_read_only, struct db **out,
    struct err *err)
{
	struct db *db;
	struct err ferr;
	long long version;
	int exists, fd, journal_wal = 0;

	*out = NULL;
	switch (paths_open_regular(path, &fd, &ferr)) {
	case 0:
		close(fd);
		exists = 1;
		break;
	case 1:
		exists = 0;
		break;
	default:
		err_set(err, "cache %s", ferr.msg);
		return -1;
	}
	db = xcalloc(1, sizeof *db);
	db->path = xstrdup(path);
	db->had_wal = exists && db_side_file(path, "-wal", NULL);
	if (db_connect(db, SQLITE_OPEN_READWRITE |
	    (exists ? 0 : SQLITE_OPEN_CREATE), NULL, err) < 0) {
		if (!(exists && may_read_only && db->sql != NULL &&
		    db_cannot_write(sqlite3_errcode(db->sql))))
			goto fail;
		if (db_connect_read_only(db, &version, err) < 0)
			goto fail;
	} else if (db_check_identity(db, &version, err) < 0) {
		if (!(may_read_only && db_cannot_write(sqlite3_errcode(db->sql))))
			goto fail;
		if (db_connect_read_only(db, &version, err) < 0)
			goto fail;
	}
	if (db->read_only) {
		if (!may_read_only) {
			err_set(err, "cache %s: cannot write it: %s", path,
			    db_write_denied(path));
			goto fail;
		}
		if (version < DB_SCHEMA_VERSION) {
			err_set(err, "cache %s: schema version %lld is older "
			    "than this gpucost's (%d) and the cache is "
			    "read-only here; let its owner run 'gpucost "
			    "refresh' once", path, version, DB_SCHEMA_VERSION);
			goto fail;
		}
		*out = db;
		return 0;
	}
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
	    "PRAGMA temp_store = FILE;", err) < 0)
		goto fail;
	if (version < DB_SCHEMA_VERSION && db_migrate(db, version, err) < 0)
		goto fail;
	db_keep_wal_for_readers(db);
	*out = db;
	return 0;
fail:
	db_abandon(db);
	return -1;
}

int
db_open(const char *path, struct db **out, struct err *err)
{
	return db_open_mode(path, false, out, err);
}

int
db_open_reader(const char *path, struct db **out, struct err *err)
{
	return db_open_mode(path, true, out, err);
}

bool
db_read_only(const struct db *db)
{
	return db->read_only;
}

int
db_check_sound(struct db *db, struct err *err)
{
	sqlite3_stmt *st;
	const unsigned char *verdict;
	const char *code = NULL;
	int rc, errcode;

	if (sqlite3_prepare_v2(db->sql, "PRAGMA quick_check(1)", -1, &st,
	    NULL) != SQLITE_OK) {
		db_file_error(db, err);
		return -1;
	}
	rc = sqlite3_step(st);
	verdict = rc == SQLITE_ROW ? sqlite3_column_text(st, 0) : NULL;
	if (rc != SQLITE_ROW) {
		db_file_error(db, err);
		rc = -1;
	} else if (verdict == NULL ||
	    (code = strstr((const char *)verdict, "error code=")) != NULL) {
		/*
		 * Not a verdict on the file: the check itself could not read
		 * a page ("unable to get the page. error code=7" is SQLite
		 * out of memory). Calling that corrupt would advise moving a
		 * sound cache away.
		 */
		errcode = code != NULL ? atoi(code + strlen("error code=")) :
		    sqlite3_errcode(db->sql);
		if ((errcode & 0xff) == SQLITE_NOMEM || verdict == NULL)
			err_set(err, "cache %s: out of memory while checking it",
			    db->path);
		else
			err_set(err, "cache %s: cannot read it to check it (%s)",
			    db->path, sqlite3_errstr(errcode));
		rc = -1;
	} else if (strcmp((const char *)verdict, "ok") != 0) {
		err_set(err, "cache %s: database is corrupt (%.80s); move it "
		    "away (gpucost rebuilds a new one) or choose another with "
		    "--db", db->path, verdict != NULL ?
		    (const char *)verdict : "?");
		rc = -1;
	} else
		rc = 0;
	sqlite3_finalize(st);
	return rc;
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

/*
 * Statistics for the query planner from a sample of each index of the
 * offers: milliseconds even at a million offers, and enough for it to
 * pick the index each query shape was given.
 */
#define DB_ANALYZE	"PRAGMA analysis_limit = 1000; ANALYZE offers"

/* Step a write statement once and finalize it: 0, or -1 with err. */
static int
db_step_done(struct db *db, sqlite3_stmt *st, struct err *err)
{
	int rc = sqlite3_step(st);

	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		db_err(db, err, "write failed");
		return -1;
	}
	return 0;
}

/* Prepare sql, or fill err and return NULL. */
static sqlite3_stmt *
db_prepare(struct db *db, const char *sql, struct err *err)
{
	sqlite3_stmt *st;

	if (sqlite3_prepare_v2(db->sql, sql, -1, &st, NULL) != SQLITE_OK) {
		db_file_error(db, err);
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

/* A money result column: MONEY_NONE for NULL (bind_money()'s inverse). */
static int64_t
stmt_money(sqlite3_stmt *st, int i)
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

/* Fill one array element from the current row of a statement. */
typedef void db_row_fn(sqlite3_stmt *st, void *elem);

/*
 * Step st to its end, one zeroed element of size bytes per row filled
 * by row(), and finalize it. Returns 0 with *out (freed with free(),
 * NULL when no row) and *n, or -1 with err and nothing allocated.
 */
static int
db_rows(struct db *db, sqlite3_stmt *st, size_t size, db_row_fn *row,
    void **out, size_t *n, struct err *err)
{
	char *v = NULL;
	size_t cap = 0;
	int rc;

	*out = NULL;
	*n = 0;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (*n == cap) {
			cap = cap == 0 ? 16 : cap * 2;
			v = xreallocarray(v, cap, size);
		}
		memset(v + *n * size, 0, size);
		row(st, v + *n * size);
		(*n)++;
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		db_file_error(db, err);
		free(v);
		*n = 0;
		return -1;
	}
	*out = v;
	return 0;
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
		db_file_error(db, err);
		return -1;
	}
	*is_new = rc == SQLITE_DONE;
	return 0;
}

#define OFFER_COLUMNS							\
	"provider, key, instance_type, region, gpu, gpu_raw, gpu_count, " \
	"vram_gb, interconnect, vcpus, ram_gb, price, spot_price, "	\
	"availability, spot_interruption, reliability, fetched_at, source, " \
	"notes, spot_zone, currency, price_original"

/* OFFER_COLUMNS and the sort keys computed at write time. */
#define WRITE_COLUMNS	OFFER_COLUMNS ", sk_gpu_price, sk_spot_gpu, sk_pflop"

/* An offer's stored sort keys: its plan of one instance, as plan_sort()'s. */
struct sort_keys {
	int64_t	gpu_price;
	int64_t	spot_gpu;
	double	pflop;
};

static void
offer_sort_keys(const struct offer *o, struct sort_keys *k)
{
	struct plan p;

	cost_plan(&p, o, 1);
	k->gpu_price = money_known(p.price_gpu_hour) ? p.price_gpu_hour :
	    SK_UNKNOWN_MONEY;
	k->spot_gpu = money_known(p.spot_gpu_hour) ? p.spot_gpu_hour :
	    SK_UNKNOWN_MONEY;
	k->pflop = p.usd_per_pflop_hour < SK_UNKNOWN_REAL ?
	    p.usd_per_pflop_hour : SK_UNKNOWN_REAL;
}

/*
 * What the stored sort keys were computed with: the formula's version
 * and the catalogue's BF16 figures ($/PFLOP-h depends on them). A
 * provider whose status row names another version has its keys
 * recomputed before a query relies on them (db_sort_keys_update()).
 */
static const char *
sort_keys_version(void)
{
	static char version[32];
	uint64_t h = 1469598103934665603ULL;	/* FNV-1a */
	char buf[GPU_NORM_MAX + 64];
	size_t i, j, len;

	if (version[0] != '\0')
		return version;
	for (i = 0; i < gpu_model_count; i++) {
		len = (size_t)snprintf(buf, sizeof buf, "%s %.17g %.17g;",
		    gpu_models[i].id, gpu_models[i].bf16_tflops,
		    gpu_models[i].bf16_tflops_pcie);
		for (j = 0; j < len && j < sizeof buf; j++)
			h = (h ^ (unsigned char)buf[j]) * 1099511628211ULL;
	}
	snprintf(version, sizeof version, "1-%016llx", (unsigned long long)h);
	return version;
}

/* Bind one offer to the 25 placeholders of a WRITE_COLUMNS insert. */
static void
bind_offer(sqlite3_stmt *st, const char *provider, const struct offer *o)
{
	struct sort_keys k;

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
	sqlite3_bind_int64(st, 19, (sqlite3_int64)o->notes);
	sqlite3_bind_text(st, 20, o->spot_zone, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 21, o->currency, -1, SQLITE_STATIC);
	bind_money(st, 22, o->price_original);
	offer_sort_keys(o, &k);
	sqlite3_bind_int64(st, 23, k.gpu_price);
	sqlite3_bind_int64(st, 24, k.spot_gpu);
	sqlite3_bind_double(st, 25, k.pflop);
}

int
db_replace_offers(struct db *db, const char *provider,
    const struct offer *offers, size_t n, enum offer_source source,
    int64_t now, struct db_replace_stats *stats, struct err *err)
{
	return db_replace_offers_meta(db, provider, offers, n, source, NULL, 0,
	    now, stats, err);
}

int
db_replace_offers_meta(struct db *db, const char *provider,
    const struct offer *offers, size_t n, enum offer_source source,
    const struct provider_meta *meta, size_t nmeta, int64_t now,
    struct db_replace_stats *stats, struct err *err)
{
	sqlite3_stmt *st = NULL;
	long long stored = 0, oldest = 0, newest = 0;
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
	st = db_prepare(db, "INSERT OR REPLACE INTO incoming (" WRITE_COLUMNS
	    ") VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)", err);
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
	/*
	 * Duplicate keys in the input collapse to the last one. The count
	 * and age range go to the status row, so that a query reads them
	 * there instead of grouping every offer (db_status()).
	 */
	if ((st = db_prepare(db, "SELECT count(*), coalesce(min(fetched_at), "
	    "0), coalesce(max(fetched_at), 0) FROM incoming", err)) == NULL)
		goto fail;
	if (sqlite3_step(st) != SQLITE_ROW) {
		db_err(db, err, "write failed");
		goto fail;
	}
	stored = sqlite3_column_int64(st, 0);
	oldest = sqlite3_column_int64(st, 1);
	newest = sqlite3_column_int64(st, 2);
	sqlite3_finalize(st);
	st = NULL;

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
	 * Rows whose indexed columns (gpu, gpu_count, vram_gb,
	 * interconnect, the sort keys) change go and come back whole;
	 * every other row is updated in place by the upsert below, which
	 * leaves those columns and so the indexes alone (half the cost of
	 * replacing a row; a refresh changes about 1 % of the prices).
	 */
	if ((st = db_prepare(db, "DELETE FROM offers WHERE provider = ? AND "
	    "EXISTS (SELECT 1 FROM incoming i WHERE i.key = offers.key AND "
	    "(i.gpu IS NOT offers.gpu OR i.gpu_count IS NOT offers.gpu_count "
	    "OR i.price IS NOT offers.price "
	    "OR i.vram_gb IS NOT offers.vram_gb "
	    "OR i.interconnect IS NOT offers.interconnect "
	    "OR i.sk_gpu_price IS NOT offers.sk_gpu_price "
	    "OR i.sk_spot_gpu IS NOT offers.sk_spot_gpu "
	    "OR i.sk_pflop IS NOT offers.sk_pflop))", err)) == NULL)
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
	    "gpu_raw = excluded.gpu_raw, vcpus = excluded.vcpus, "
	    "ram_gb = excluded.ram_gb, spot_price = excluded.spot_price, "
	    "availability = excluded.availability, "
	    "spot_interruption = excluded.spot_interruption, "
	    "reliability = excluded.reliability, "
	    "fetched_at = excluded.fetched_at, source = excluded.source, "
	    "notes = excluded.notes, spot_zone = excluded.spot_zone, "
	    "currency = excluded.currency, "
	    "price_original = excluded.price_original", err) < 0)
		goto fail;
	if (db_exec(db, "DELETE FROM incoming", err) < 0)
		goto fail;

	if ((st = db_prepare(db, "INSERT INTO provider_status (provider, "
	    "source, last_attempt, last_success, offer_count, last_error, "
	    "oldest, newest, sort_keys) "
	    "VALUES (?1, ?2, ?3, ?3, ?4, NULL, ?5, ?6, ?7) "
	    "ON CONFLICT (provider) DO UPDATE SET source = ?2, "
	    "last_attempt = ?3, last_success = ?3, offer_count = ?4, "
	    "last_error = NULL, oldest = ?5, newest = ?6, sort_keys = ?7",
	    err)) == NULL)
		goto fail;
	sqlite3_bind_text(st, 1, provider, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, source_name(source), -1, SQLITE_STATIC);
	if (source == SRC_LIVE)
		sqlite3_bind_int64(st, 3, now);
	else
		sqlite3_bind_null(st, 3);
	sqlite3_bind_int64(st, 4, stored);
	sqlite3_bind_int64(st, 5, oldest);
	sqlite3_bind_int64(st, 6, newest);
	sqlite3_bind_text(st, 7, sort_keys_version(), -1, SQLITE_STATIC);
	rc = db_step_done(db, st, err);
	st = NULL;
	if (rc < 0)
		goto fail;
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
	/*
	 * Statistics for the query planner (which index serves which
	 * filter), from a sample of each index: milliseconds, even at a
	 * million offers. Without them SQLite walks the GPU index for
	 * queries that name no GPU.
	 */
	if (db_exec(db, DB_ANALYZE, err) < 0)
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
db_confirm_offers(struct db *db, const char *provider,
    const struct provider_meta *meta, size_t nmeta, int64_t now,
    size_t *offers, struct err *err)
{
	sqlite3_stmt *st = NULL;
	long long n;
	size_t i;
	int rc;

	*offers = 0;
	if (db_exec(db, "BEGIN IMMEDIATE", err) < 0)
		return -1;
	/* fetched_at is in no index: a plain in-place update. */
	if ((st = db_prepare(db, "UPDATE offers SET fetched_at = ?1 "
	    "WHERE provider = ?2", err)) == NULL)
		goto fail;
	sqlite3_bind_int64(st, 1, now);
	sqlite3_bind_text(st, 2, provider, -1, SQLITE_STATIC);
	if (sqlite3_step(st) != SQLITE_DONE) {
		db_err(db, err, "write failed");
		goto fail;
	}
	n = sqlite3_changes(db->sql);
	sqlite3_finalize(st);
	st = NULL;
	if (n == 0) {
		err_set(err, "no cached offers to keep");
		goto fail;
	}
	if ((st = db_prepare(db, "UPDATE provider_status SET "
	    "last_attempt = ?1, last_success = ?1, last_error = NULL, "
	    "offer_count = ?2, oldest = ?1, newest = ?1 WHERE provider = ?3",
	    err)) == NULL)
		goto fail;
	sqlite3_bind_int64(st, 1, now);
	sqlite3_bind_int64(st, 2, n);
	sqlite3_bind_text(st, 3, provider, -1, SQLITE_STATIC);
	rc = db_step_done(db, st, err);
	st = NULL;
	if (rc < 0)
		goto fail;
	if ((st = db_prepare(db, "INSERT INTO refresh_log (provider, at) "
	    "VALUES (?, ?)", err)) == NULL)
		goto fail;
	sqlite3_bind_text(st, 1, provider, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, now);
	rc = db_step_done(db, st, err);
	st = NULL;
	if (rc < 0)
		goto fail;
	for (i = 0; i < nmeta; i++)
		if (db_meta_set(db, provider, meta[i].name, meta[i].value,
		    err) < 0)
			goto fail;
	if (db_exec(db, "COMMIT", err) < 0)
		goto fail;
	*offers = (size_t)n;
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
	o->price = stmt_money(st, 11);
	o->spot_price = stmt_money(st, 12);
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
	o->notes = (unsigned)sqlite3_column_int64(st, 18);
	column_text(st, 19, o->spot_zone, sizeof o->spot_zone);
	column_text(st, 20, o->currency, sizeof o->currency);
	if (o->currency[0] == '\0')
		str_copy(o->currency, sizeof o->currency, "USD");
	o->price_original = stmt_money(st, 21);
	/* An older cache may hold figures no real host has. */
	offer_host_bounds(o);
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

/*
 * The rentable.h rules in SQL, as offer_matches() tests them (it tests
 * every row read again, exactly). Retired sizes are matched on the key's
 * "<size>/" prefix and retired providers on the provider, both in every
 * index, so an index walk stays covering. Market references are judged
 * per marketplace provider (rentable.h) from its status row: all of its
 * offers older than a day, the provider is left out; none, nothing is
 * tested; only a mix tests notes and age row by row.
 */
#define RENTABLE_SQL_MAX	8
struct rentable_sql {
	const char	*all_old[RENTABLE_SQL_MAX];	/* marketplaces, all stale */
	size_t		 nall_old;
	const char	*mixed[RENTABLE_SQL_MAX];	/* some stale */
	size_t		 nmixed;
	int64_t		 cutoff;	/* older than this: a reference */
	bool		 only;		/* only_stale: per row */
};

static int
rentable_prepare(struct db *db, const struct offer_filter *f,
    struct rentable_sql *rq, struct err *err)
{
	sqlite3_stmt *st;
	const char *m;
	int64_t oldest, newest;
	size_t i;
	int rc;

	memset(rq, 0, sizeof *rq);
	if (f->now == 0 || (f->include_stale && !f->only_stale))
		return 0;
	rq->cutoff = f->now - RENTABLE_MARKET_SECONDS;
	if ((rq->only = f->only_stale))
		return 0;
	if ((st = db_prepare(db, "SELECT oldest, newest FROM provider_status "
	    "WHERE provider = ? AND offer_count > 0", err)) == NULL)
		return -1;
	for (i = 0; (m = marketplace_providers[i]) != NULL &&
	    rq->nmixed < RENTABLE_SQL_MAX && rq->nall_old < RENTABLE_SQL_MAX;
	    i++) {
		sqlite3_bind_text(st, 1, m, -1, SQLITE_STATIC);
		if ((rc = sqlite3_step(st)) == SQLITE_ROW) {
			oldest = sqlite3_column_int64(st, 0);
			newest = sqlite3_column_int64(st, 1);
			/* NULL (an older cache's row): judge row by row. */
			if (sqlite3_column_type(st, 1) != SQLITE_NULL &&
			    newest < rq->cutoff)
				rq->all_old[rq->nall_old++] = m;
			else if (sqlite3_column_type(st, 0) == SQLITE_NULL ||
			    oldest < rq->cutoff)
				rq->mixed[rq->nmixed++] = m;
		} else if (rc != SQLITE_DONE) {
			sqlite3_finalize(st);
			db_file_error(db, err);
			return -1;
		}
		sqlite3_reset(st);
	}
	sqlite3_finalize(st);
	return 0;
}

static void
rentable_sql(const struct rentable_sql *rq, char *sql, size_t size)
{
	size_t i;

	for (i = 0; i < retired_count; i++)
		strncat(sql, strcmp(retired_table[i].instance_type, "*") == 0 ?
		    " AND provider IS NOT ?" : " AND NOT (provider = ? AND "
		    "substr(key, 1, ?) = ? COLLATE NOCASE)",
		    size - strlen(sql) - 1);
	if (rq->only)
		strncat(sql, " AND (notes & ?) <> 0 AND fetched_at < ?",
		    size - strlen(sql) - 1);
	for (i = 0; i < rq->nall_old; i++)
		strncat(sql, " AND provider IS NOT ?", size - strlen(sql) - 1);
	for (i = 0; i < rq->nmixed; i++)
		strncat(sql, " AND (provider IS NOT ? OR (notes & ?) = 0 OR "
		    "fetched_at >= ?)", size - strlen(sql) - 1);
}

static void
rentable_bind(sqlite3_stmt *st, const struct rentable_sql *rq, int *k)
{
	const sqlite3_int64 bit = (sqlite3_int64)NOTE_BIT(NOTE_SINGLE_LISTING);
	const struct retired *r;
	size_t i;
	char prefix[OFFER_NAME_MAX + 2];

	for (i = 0; i < retired_count; i++) {
		r = &retired_table[i];
		sqlite3_bind_text(st, (*k)++, r->provider, -1, SQLITE_STATIC);
		if (strcmp(r->instance_type, "*") == 0)
			continue;
		snprintf(prefix, sizeof prefix, "%s/", r->instance_type);
		sqlite3_bind_int(st, (*k)++, (int)strlen(prefix));
		sqlite3_bind_text(st, (*k)++, prefix, -1, SQLITE_TRANSIENT);
	}
	if (rq->only) {
		sqlite3_bind_int64(st, (*k)++, bit);
		sqlite3_bind_int64(st, (*k)++, rq->cutoff);
	}
	for (i = 0; i < rq->nall_old; i++)
		sqlite3_bind_text(st, (*k)++, rq->all_old[i], -1,
		    SQLITE_STATIC);
	for (i = 0; i < rq->nmixed; i++) {
		sqlite3_bind_text(st, (*k)++, rq->mixed[i], -1, SQLITE_STATIC);
		sqlite3_bind_int64(st, (*k)++, bit);
		sqlite3_bind_int64(st, (*k)++, rq->cutoff);
	}
}

/* Append to sql (size bytes) the conditions of f that SQL tests. */
static void
filter_sql(const struct offer_filter *f, const struct rentable_sql *rq,
    char *sql, size_t size)
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
	if (f->no_outliers)
		strncat(sql, " AND (notes & ?) = 0", size - strlen(sql) - 1);
	rentable_sql(rq, sql, size);
}

/*
 * The filter fields filter_sql() tests whole, with the maximum price
 * (db_query_top() tests it on the stored per-GPU price). Keep it with
 * filter_sql(): a field missing here only costs the --limit shortcut.
 */
static const enum filter_field sql_fields[] = {
	FF_GPU, FF_COUNT, FF_VRAM, FF_LINK, FF_PROVIDERS, FF_MAX_PRICE,
	FF_SPOT, FF_AVAILABLE, FF_NO_OUTLIERS, FF_INCLUDE_STALE
};

bool
db_filter_in_sql(const struct offer_filter *f)
{
	size_t i;
	int ff;

	for (ff = 0; ff < FILTER_FIELD_COUNT; ff++) {
		if (!filter_is_set(f, (enum filter_field)ff))
			continue;
		for (i = 0; i < sizeof sql_fields / sizeof sql_fields[0]; i++)
			if (sql_fields[i] == (enum filter_field)ff)
				break;
		if (i == sizeof sql_fields / sizeof sql_fields[0])
			return false;
	}
	/* --gpu's form word ("H100 SXM") is tested in C. */
	return f->form == GPU_FORM_ANY;
}

/* Bind f's values to the placeholders of filter_sql(), from number *k. */
static void
filter_bind(sqlite3_stmt *st, const struct offer_filter *f,
    const struct rentable_sql *rq, int *k)
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
	if (f->no_outliers)
		sqlite3_bind_int64(st, (*k)++,
		    (sqlite3_int64)NOTE_BIT(NOTE_PRICE_OUTLIER));
	rentable_bind(st, rq, k);
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
		db_file_error(db, err);
		return -1;
	}
	return 0;
}

int
db_query(struct db *db, const struct offer_filter *f, struct offer_list *out,
    struct err *err)
{
	char sql[2048] = "SELECT " OFFER_COLUMNS " FROM offers WHERE 1";
	struct rentable_sql rq;
	sqlite3_stmt *st;
	int k = 1;

	if (rentable_prepare(db, f, &rq, err) < 0)
		return -1;
	filter_sql(f, &rq, sql, sizeof sql);
	if ((st = db_prepare(db, sql, err)) == NULL)
		return -1;
	filter_bind(st, f, &rq, &k);
	return read_offers(db, st, f, out, err);
}

/*
 * How SQL orders offers by one sort key, the way plan_sort() orders
 * their plans of one instance: known values first, in the key's natural
 * direction (desc: largest first) or its reverse, then (tiebreak()) the
 * lower price per GPU-hour, provider and key. known is the condition of
 * a known value (NULL: always known); last marks the stored sort keys
 * whose unknowns already sort after every known value ascending, which
 * lets an ascending walk of their index take both at once.
 */
struct sort_sql {
	const char *known;
	const char *expr;
	bool	desc;
	bool	last;
};

static const struct sort_sql sort_sql[SORT_KEY_COUNT] = {
	[SORT_GPU_PRICE] = { "sk_gpu_price < " SK_UNKNOWN_MONEY_SQL,
	    "sk_gpu_price", false, true },
	[SORT_PRICE] = { "price IS NOT NULL", "price", false, false },
	[SORT_SPOT] = { "spot_price IS NOT NULL", "spot_price", false, false },
	[SORT_SPOT_GPU] = { "sk_spot_gpu < " SK_UNKNOWN_MONEY_SQL,
	    "sk_spot_gpu", false, true },
	/* cost_spot_savings_pct(), the same double operations. */
	[SORT_SAVINGS] = { "price > 0 AND spot_price IS NOT NULL",
	    "100.0 * (1.0 - CAST(spot_price AS REAL) / CAST(price AS REAL))",
	    true, false },
	[SORT_VRAM] = { "vram_gb > 0", "vram_gb", true, false },
	[SORT_PFLOP] = { "sk_pflop < " SK_UNKNOWN_REAL_SQL, "sk_pflop", false,
	    true },
	[SORT_PROVIDER] = { "provider <> ''", "provider", false, false },
	[SORT_INSTANCE] = { "instance_type <> ''", "instance_type", false,
	    false },
	[SORT_REGION] = { "region <> ''", "region", false, false },
	/* Unknown GPUs among themselves by raw name: top_sql(). */
	[SORT_GPU] = { "gpu <> ''", "gpu", false, false },
	[SORT_COUNT] = { NULL, "gpu_count", true, false },
	/* The stored names sort as plan_sort() ranks them. */
	[SORT_INTERCONNECT] = { "interconnect <> 'unknown'", "interconnect",
	    false, false },
	[SORT_AVAILABILITY] = { "availability <> 'unknown'", "availability",
	    false, false },
	[SORT_AGE] = { NULL, "fetched_at", true, false },
};

/* plan_sort()'s ties after the key: lower price per GPU-hour, provider, key. */
static const char *
tiebreak(enum sort_key key)
{
	return key == SORT_GPU_PRICE ? "provider, key" :
	    "sk_gpu_price, provider, key";
}

/*
 * The WHERE conditions of a top query: filter_sql() and the maximum
 * price, which on one instance is a test of the stored per-GPU key.
 */
static void
top_where(const struct offer_filter *f, const struct rentable_sql *rq,
    char *where, size_t size)
{
	filter_sql(f, rq, where, size);
	if (money_known(f->max_price_gpu_hour))
		strncat(where, f->spot ? " AND sk_spot_gpu <= ?" :
		    " AND sk_gpu_price <= ?", size - strlen(where) - 1);
}

static void
top_bind(sqlite3_stmt *st, const struct offer_filter *f,
    const struct rentable_sql *rq, int *k)
{
	filter_bind(st, f, rq, k);
	if (money_known(f->max_price_gpu_hour))
		sqlite3_bind_int64(st, (*k)++, f->max_price_gpu_hour);
}

/*
 * The query db_query_top() runs: the keys of the first `limit` offers
 * with a known value, in order (one walk of the right index), and of
 * the first `limit` with an unknown one; then those rows whole. *parts
 * is how many (one or two) subqueries take their filter and limit.
 */
static void
top_sql(const struct offer_filter *f, const struct rentable_sql *rq,
    enum sort_key key, bool reverse, char *sql, size_t size, int *parts)
{
	const struct sort_sql *s = &sort_sql[key];
	char where[1536] = "";
	bool desc = s->desc != reverse;

	top_where(f, rq, where, sizeof where);
	if (s->known == NULL || (s->last && !desc)) {
		*parts = 1;
		snprintf(sql, size, "SELECT " OFFER_COLUMNS " FROM offers WHERE "
		    "(provider, key) IN (SELECT provider, key FROM offers "
		    "WHERE 1%s ORDER BY %s%s, %s LIMIT ?)", where, s->expr,
		    desc ? " DESC" : "", tiebreak(key));
		return;
	}
	*parts = 2;
	snprintf(sql, size, "SELECT " OFFER_COLUMNS " FROM offers WHERE "
	    "(provider, key) IN ("
	    "SELECT * FROM (SELECT provider, key FROM offers WHERE 1%s AND %s "
	    "ORDER BY %s%s, %s LIMIT ?) UNION ALL "
	    "SELECT * FROM (SELECT provider, key FROM offers WHERE 1%s AND "
	    "NOT coalesce(%s, 0) ORDER BY %s%s LIMIT ?))",
	    where, s->known, s->expr, desc ? " DESC" : "", tiebreak(key),
	    /* known may be NULL (a NULL price): that row is unknown. */
	    where, s->known,
	    key != SORT_GPU ? "" : reverse ? "gpu_raw = '', gpu_raw DESC, " :
	    "gpu_raw = '', gpu_raw, ", tiebreak(key));
}

/*
 * Recompute the stored sort keys of every provider whose status row
 * names another version of them (a cache from before migration 4, or a
 * catalogue whose BF16 figures changed since its last refresh). Once,
 * in one transaction; afterwards a check of the small status table.
 */
static int
db_sort_keys_update(struct db *db, struct err *err)
{
	static const char stale_sql[] = "SELECT 1 FROM provider_status "
	    "WHERE sort_keys IS NOT ?1 AND offer_count > 0 LIMIT 1";
	sqlite3_stmt *st = NULL, *up = NULL;
	const char *version = sort_keys_version();
	struct sort_keys k;
	struct offer o;
	char buf[16];
	int rc, i;

	for (i = 0; i < 2; i++) {
		/* Again under the lock: another process may have done it. */
		if (i == 1 && db_exec(db, "BEGIN IMMEDIATE", err) < 0)
			return -1;
		if ((st = db_prepare(db, stale_sql, err)) == NULL)
			goto fail;
		sqlite3_bind_text(st, 1, version, -1, SQLITE_STATIC);
		rc = sqlite3_step(st);
		sqlite3_finalize(st);
		st = NULL;
		if (rc == SQLITE_DONE) {
			if (i == 1 && db_exec(db, "COMMIT", err) < 0)
				goto fail;
			return 0;
		}
		if (rc != SQLITE_ROW) {
			db_file_error(db, err);
			goto fail;
		}
	}
	if ((st = db_prepare(db, "SELECT provider, key, price, spot_price, "
	    "gpu_count, gpu, interconnect FROM offers WHERE provider IN "
	    "(SELECT provider FROM provider_status WHERE sort_keys IS NOT ?1)",
	    err)) == NULL ||
	    (up = db_prepare(db, "UPDATE offers SET sk_gpu_price = ?, "
	    "sk_spot_gpu = ?, sk_pflop = ? WHERE provider = ? AND key = ?",
	    err)) == NULL)
		goto fail;
	sqlite3_bind_text(st, 1, version, -1, SQLITE_STATIC);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		offer_init(&o);
		o.price = stmt_money(st, 2);
		o.spot_price = stmt_money(st, 3);
		o.gpu_count = sqlite3_column_int(st, 4);
		column_text(st, 5, o.gpu, sizeof o.gpu);
		column_text(st, 6, buf, sizeof buf);
		if (interconnect_parse(buf, &o.interconnect) < 0)
			o.interconnect = IC_UNKNOWN;
		offer_sort_keys(&o, &k);
		sqlite3_bind_int64(up, 1, k.gpu_price);
		sqlite3_bind_int64(up, 2, k.spot_gpu);
		sqlite3_bind_double(up, 3, k.pflop);
		sqlite3_bind_value(up, 4, sqlite3_column_value(st, 0));
		sqlite3_bind_value(up, 5, sqlite3_column_value(st, 1));
		if (sqlite3_step(up) != SQLITE_DONE) {
			db_err(db, err, "write failed");
			goto fail;
		}
		sqlite3_reset(up);
	}
	if (rc != SQLITE_DONE) {
		db_file_error(db, err);
		goto fail;
	}
	sqlite3_finalize(st);
	sqlite3_finalize(up);
	st = up = NULL;
	if ((st = db_prepare(db, "UPDATE provider_status SET sort_keys = ?1 "
	    "WHERE sort_keys IS NOT ?1", err)) == NULL)
		goto fail;
	sqlite3_bind_text(st, 1, version, -1, SQLITE_STATIC);
	rc = db_step_done(db, st, err);
	st = NULL;
	if (rc < 0 || db_exec(db, DB_ANALYZE "; COMMIT", err) < 0)
		goto fail;
	return 0;
fail:
	sqlite3_finalize(st);
	sqlite3_finalize(up);
	sqlite3_exec(db->sql, "ROLLBACK", NULL, NULL, NULL);
	err_prefix(err, "updating sort keys");
	return -1;
}

int
db_query_top(struct db *db, const struct offer_filter *f, enum sort_key key,
    bool reverse, size_t limit, struct offer_list *out, size_t *matched,
    struct err *err)
{
	char where[1536] = "", sql[4096];
	int64_t n = limit < INT64_MAX ? (int64_t)limit : INT64_MAX;
	struct rentable_sql rq;
	sqlite3_stmt *st;
	int k = 1, rc, parts, i;

	if (matched != NULL)
		*matched = 0;
	if ((unsigned)key >= SORT_KEY_COUNT) {
		err_set(err, "cache %s: no such sort key", db->path);
		return -1;
	}
	if (db_sort_keys_update(db, err) < 0 ||
	    rentable_prepare(db, f, &rq, err) < 0)
		return -1;
	if (matched != NULL) {
		top_where(f, &rq, where, sizeof where);
		snprintf(sql, sizeof sql, "SELECT count(*) FROM offers "
		    "WHERE 1%s", where);
		if ((st = db_prepare(db, sql, err)) == NULL)
			return -1;
		top_bind(st, f, &rq, &k);
		rc = sqlite3_step(st);
		if (rc == SQLITE_ROW)
			*matched = (size_t)sqlite3_column_int64(st, 0);
		sqlite3_finalize(st);
		if (rc != SQLITE_ROW) {
			db_file_error(db, err);
			return -1;
		}
	}
	top_sql(f, &rq, key, reverse, sql, sizeof sql, &parts);
	if ((st = db_prepare(db, sql, err)) == NULL)
		return -1;
	k = 1;
	for (i = 0; i < parts; i++) {
		top_bind(st, f, &rq, &k);
		sqlite3_bind_int64(st, k++, n);
	}
	return read_offers(db, st, f, out, err);
}

int
db_query_top_plan(struct db *db, const struct offer_filter *f,
    enum sort_key key, bool reverse, char *out, size_t size,
    struct err *err)
{
	char sql[4200] = "EXPLAIN QUERY PLAN ";
	struct rentable_sql rq;
	sqlite3_stmt *st;
	size_t len = 0;
	int k = 1, rc, parts, i;

	if (size > 0)
		out[0] = '\0';
	if (rentable_prepare(db, f, &rq, err) < 0)
		return -1;
	top_sql(f, &rq, key, reverse, sql + strlen(sql),
	    sizeof sql - strlen(sql), &parts);
	if ((st = db_prepare(db, sql, err)) == NULL)
		return -1;
	for (i = 0; i < parts; i++) {
		top_bind(st, f, &rq, &k);
		sqlite3_bind_int64(st, k++, 20);
	}
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const unsigned char *d = sqlite3_column_text(st, 3);

		if (d != NULL && len < size)
			len += (size_t)snprintf(out + len, size - len, "%s\n",
			    (const char *)d);
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		db_file_error(db, err);
		return -1;
	}
	return 0;
}

/* A provider_status row. */
static void
row_status(sqlite3_stmt *st, void *elem)
{
	struct provider_status *s = elem;
	char src[16];

	column_text(st, 0, s->provider, sizeof s->provider);
	column_text(st, 1, src, sizeof src);
	s->source = strcmp(src, "live") == 0 ? SRC_LIVE : SRC_SNAPSHOT;
	s->last_attempt = sqlite3_column_int64(st, 2);
	s->last_success = sqlite3_column_int64(st, 3);
	column_text(st, 4, s->last_error, sizeof s->last_error);
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

/* A price point: observed_at, price, spot_price, availability. */
static void
row_point(sqlite3_stmt *st, void *elem)
{
	struct price_point *p = elem;
	char buf[16];

	p->at = sqlite3_column_int64(st, 0);
	p->price = stmt_money(st, 1);
	p->spot_price = stmt_money(st, 2);
	column_text(st, 3, buf, sizeof buf);
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

/* A provider_meta row: name, value. */
static void
row_meta(sqlite3_stmt *st, void *elem)
{
	struct provider_meta *m = elem;

	column_text(st, 0, m->name, sizeof m->name);
	column_text(st, 1, m->value, sizeof m->value);
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

	column_text(st, 0, w->provider, sizeof w->provider);
	column_text(st, 1, w->key, sizeof w->key);
	w->price = stmt_money(st, 2);
	column_text(st, 3, buf, sizeof buf);
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

/* A stored watch with the number of offers it tracks. */
static void
row_watch(sqlite3_stmt *st, void *elem)
{
	struct db_watch *w = elem;

	column_text(st, 0, w->query, sizeof w->query);
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

/*
 * Sharing one cache (gpucost publish, refresh --from): a consistent
 * copy for others, opening such a copy, and merging it in.
 */

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
	 * bookkeeping (where it last pulled from): neither is shared. A
	 * plain rollback journal, so the copy is one file wherever it goes.
	 */
	if (sqlite3_exec(copy, "PRAGMA journal_mode = DELETE;"
	    "DELETE FROM watch; DELETE FROM watch_offer;"
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
