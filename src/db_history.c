/*
 * db_history.c: what the cache remembers over time. Its one job: price
 * history (change points and refresh times, and their pruning) and the
 * stored watches with the offers each last saw.
 */
#include "config.h"
#include "db.h"

#include <errno.h>
#include <fcntl.h>
#include <sqlite3.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "db_internal.h"
#include "err.h"
#include "offer.h"
#include "xalloc.h"

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
	st = db_prepare_cached(db, DB_STMT_HISTORY, "SELECT observed_at, "
	    "price, spot_price, availability FROM price_history WHERE "
	    "provider = ? AND key = ? ORDER BY observed_at, rowid", err);
	if (st == NULL)
		return -1;
	sqlite3_bind_text(st, 1, provider, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, key, -1, SQLITE_STATIC);
	rc = db_rows_cached(db, st, sizeof **out, row_point, &v, n, err);
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
    size_t *n, int64_t *last_run, struct err *err)
{
	sqlite3_stmt *st;
	void *v;
	int rc;

	long long version;
	bool began;

	*out = NULL;
	*n = 0;
	*last_run = 0;
	free(db->watch_query);
	db->watch_query = NULL;
	/* One snapshot: the rows, and the data_version they are of. */
	began = db_read_begin(db);
	if ((st = db_prepare(db, "SELECT last_run FROM watch WHERE query = ?",
	    err)) == NULL)
		goto fail;
	sqlite3_bind_text(st, 1, query, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		*last_run = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
		db_file_error(db, err);
		goto fail;
	}
	st = db_prepare(db, "SELECT provider, key, price, availability, "
	    "reported_at FROM watch_offer WHERE query = ? ORDER BY provider, "
	    "key", err);
	if (st == NULL)
		goto fail;
	sqlite3_bind_text(st, 1, query, -1, SQLITE_STATIC);
	if (db_rows(db, st, sizeof **out, row_watch_offer, &v, n, err) < 0)
		goto fail;
	*out = v;
	if (db_int(db, "PRAGMA data_version", &version, err) < 0) {
		free(*out);
		*out = NULL;
		*n = 0;
		goto fail;
	}
	db->watch_query = xstrdup(query);
	db->watch_version = version;
	db_read_end(db, began);
	return 0;
fail:
	db_read_end(db, began);
	return -1;
}

static int
watch_key_cmp(const struct db_watch_offer *a, const struct db_watch_offer *b)
{
	int c;

	if ((c = strcmp(a->provider, b->provider)) != 0)
		return c;
	return strcmp(a->key, b->key);
}

/* An offer to store and its place in the caller's array. */
struct watch_ref {
	const struct db_watch_offer *w;
	size_t	 at;
};

/* By key, then by place: the last of a repeated key sorts last. */
static int
watch_ref_cmp(const void *a, const void *b)
{
	const struct watch_ref *x = a, *y = b;
	int c = watch_key_cmp(x->w, y->w);

	return c != 0 ? c : x->at < y->at ? -1 : x->at > y->at;
}

static bool
watch_offer_same(const struct db_watch_offer *a, const struct db_watch_offer *b)
{
	return a->price == b->price && a->availability == b->availability &&
	    a->reported_at == b->reported_at;
}

/*
 * Replace what the watch knows by v[0..n) (the last of a repeated offer
 * standing), writing only what differs from the rows stored now: a run
 * that reports 20 offers of a watch that knows 1,000 rewrote all 1,000.
 * The rows are compared inside the write transaction, so the table ends
 * as v says whatever another run stored meanwhile.
 */
int
db_watch_store(struct db *db, const char *query,
    const struct db_watch_offer *v, size_t n, int64_t now,
    const struct db_watch_offer *loaded, size_t nloaded, struct err *err)
{
	sqlite3_stmt *st = NULL, *put = NULL, *del = NULL;
	struct db_watch_offer *read = NULL;
	const struct db_watch_offer *cur = NULL;
	struct watch_ref *idx = NULL;
	size_t ncur = 0, i, j, k, m;
	long long version;
	void *rows;
	int c;

	if (db_exec(db, "BEGIN IMMEDIATE", err) < 0)
		return -1;
	/* Under the write lock: has another connection written since? */
	if (db_int(db, "PRAGMA data_version", &version, err) < 0)
		goto fail;
	if (loaded != NULL && db->watch_query != NULL &&
	    strcmp(db->watch_query, query) == 0 &&
	    version == db->watch_version) {
		cur = loaded;
		ncur = nloaded;
	}
	if ((st = db_prepare(db, "INSERT INTO watch (query, created_at, "
	    "last_run) VALUES (?1, ?2, ?2) ON CONFLICT (query) DO UPDATE SET "
	    "last_run = ?2", err)) == NULL)
		goto fail;
	sqlite3_bind_text(st, 1, query, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, now);
	if (sqlite3_step(st) != SQLITE_DONE)
		goto sqlfail;
	sqlite3_finalize(st);
	/* What is stored now, in key order (the primary key's). */
	if (cur == NULL) {
		if ((st = db_prepare(db, "SELECT provider, key, price, "
		    "availability, reported_at FROM watch_offer WHERE "
		    "query = ? ORDER BY provider, key", err)) == NULL)
			goto fail;
		sqlite3_bind_text(st, 1, query, -1, SQLITE_STATIC);
		if (db_rows(db, st, sizeof *read, row_watch_offer, &rows,
		    &ncur, err) < 0) {
			st = NULL;
			goto fail;
		}
		st = NULL;
		cur = read = rows;
	}
	/* v by key, each key's last; repeated keys are adjacent. */
	idx = xcalloc(n > 0 ? n : 1, sizeof *idx);
	for (i = 0; i < n; i++) {
		idx[i].w = &v[i];
		idx[i].at = i;
	}
	qsort(idx, n, sizeof *idx, watch_ref_cmp);
	for (i = m = 0; i < n; i++) {
		if (m > 0 && watch_key_cmp(idx[m - 1].w, idx[i].w) == 0)
			m--;
		idx[m++] = idx[i];
	}
	if ((put = db_prepare(db, "INSERT OR REPLACE INTO watch_offer (query, "
	    "provider, key, price, availability, reported_at) VALUES "
	    "(?, ?, ?, ?, ?, ?)", err)) == NULL ||
	    (del = db_prepare(db, "DELETE FROM watch_offer WHERE query = ? "
	    "AND provider = ? AND key = ?", err)) == NULL)
		goto fail;
	for (i = j = 0; i < m || j < ncur;) {
		const struct db_watch_offer *w = i < m ? idx[i].w : NULL;

		c = w == NULL ? 1 : j == ncur ? -1 : watch_key_cmp(w, &cur[j]);
		if (c > 0) {
			/* Stored, no longer known. */
			sqlite3_bind_text(del, 1, query, -1, SQLITE_STATIC);
			sqlite3_bind_text(del, 2, cur[j].provider, -1,
			    SQLITE_STATIC);
			sqlite3_bind_text(del, 3, cur[j].key, -1,
			    SQLITE_STATIC);
			if (sqlite3_step(del) != SQLITE_DONE)
				goto sqlfail;
			sqlite3_reset(del);
			j++;
			continue;
		}
		k = j;
		if (c == 0)
			j++;
		i++;
		if (c == 0 && watch_offer_same(w, &cur[k]))
			continue;
		sqlite3_bind_text(put, 1, query, -1, SQLITE_STATIC);
		sqlite3_bind_text(put, 2, w->provider, -1, SQLITE_STATIC);
		sqlite3_bind_text(put, 3, w->key, -1, SQLITE_STATIC);
		db_bind_money(put, 4, w->price);
		sqlite3_bind_text(put, 5, availability_name(w->availability),
		    -1, SQLITE_STATIC);
		sqlite3_bind_int64(put, 6, w->reported_at);
		if (sqlite3_step(put) != SQLITE_DONE)
			goto sqlfail;
		sqlite3_reset(put);
	}
	sqlite3_finalize(put);
	sqlite3_finalize(del);
	put = del = NULL;
	/* What `watch --list` shows, counted once here. */
	if ((st = db_prepare(db, "UPDATE watch SET offers = ?2 WHERE "
	    "query = ?1", err)) == NULL)
		goto fail;
	sqlite3_bind_text(st, 1, query, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, (sqlite3_int64)m);
	if (sqlite3_step(st) != SQLITE_DONE)
		goto sqlfail;
	sqlite3_finalize(st);
	st = NULL;
	if (db_exec(db, "COMMIT", err) < 0)
		goto fail;
	/* Our own write: the next store compares with what it reads. */
	free(db->watch_query);
	db->watch_query = NULL;
	free(read);
	free(idx);
	return 0;
sqlfail:
	db_err(db, err, "write failed");
fail:
	sqlite3_finalize(st);
	sqlite3_finalize(put);
	sqlite3_finalize(del);
	sqlite3_exec(db->sql, "ROLLBACK", NULL, NULL, NULL);
	free(read);
	free(idx);
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
	/* The count stored by the last run; counted for a watch from before. */
	st = db_prepare(db, "SELECT w.query, w.created_at, w.last_run, "
	    "coalesce(w.offers, (SELECT count(*) FROM watch_offer o "
	    "WHERE o.query = w.query)) "
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
	free(db->watch_query);		/* our write: load again to compare */
	db->watch_query = NULL;
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
 * The watch state file: the watch tables of the cache's schema (the
 * migrations 6 -> 7 and 13 -> 14 made them) and nothing else, marked
 * 'gpuw'. Version 1 had no watch.offers (WATCH_STATE_V2 adds it).
 */
#define WATCH_STATE_APP_ID	0x67707577
#define WATCH_STATE_VERSION	2
#define WATCH_STATE_V2	"ALTER TABLE watch ADD COLUMN offers INTEGER;"
#define WATCH_STATE_SCHEMA						\
	"CREATE TABLE IF NOT EXISTS watch ("				\
	"  query TEXT PRIMARY KEY,"					\
	"  created_at INTEGER NOT NULL,"				\
	"  last_run INTEGER NOT NULL,"					\
	"  offers INTEGER"						\
	");"								\
	"CREATE TABLE IF NOT EXISTS watch_offer ("			\
	"  query TEXT NOT NULL,"					\
	"  provider TEXT NOT NULL,"					\
	"  key TEXT NOT NULL,"						\
	"  price INTEGER,"						\
	"  availability TEXT NOT NULL,"				\
	"  reported_at INTEGER NOT NULL,"				\
	"  PRIMARY KEY (query, provider, key)"				\
	") WITHOUT ROWID;"

int
db_open_watch_state(const char *path, struct db **out, struct err *err)
{
	struct stat sb;
	struct db *db;
	long long app, version, objects;
	int fd;

	*out = NULL;
	/* The user's own file: made 0600 before SQLite opens it, never a link. */
	fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC,
	    0600);
	if (fd < 0) {
		err_set(err, "watch state %s: %s", path, strerror(errno));
		return -1;
	}
	if (fstat(fd, &sb) < 0 || !S_ISREG(sb.st_mode)) {
		err_set(err, "watch state %s: not a regular file", path);
		close(fd);
		return -1;
	}
	close(fd);
	db = xcalloc(1, sizeof *db);
	db->path = xstrdup(path);
	if (sqlite3_open_v2(path, &db->sql, SQLITE_OPEN_READWRITE |
	    SQLITE_OPEN_NOFOLLOW, NULL) != SQLITE_OK) {
		db_err(db, err, "cannot open it");
		goto fail;
	}
	sqlite3_busy_timeout(db->sql, 10000);
	if (db_int(db, "PRAGMA application_id", &app, err) < 0 ||
	    db_int(db, "PRAGMA user_version", &version, err) < 0 ||
	    db_int(db, "SELECT count(*) FROM sqlite_master", &objects, err) < 0)
		goto fail;
	/* Only an empty file becomes one: never someone else's database. */
	if (app == 0 && version == 0 && objects == 0) {
		if (db_exec(db, "BEGIN IMMEDIATE;" WATCH_STATE_SCHEMA
		    "PRAGMA user_version = 2;"
		    /* WATCH_STATE_APP_ID */
		    "PRAGMA application_id = 1735423351;" "COMMIT", err) < 0) {
			sqlite3_exec(db->sql, "ROLLBACK", NULL, NULL, NULL);
			goto fail;
		}
	} else if (app == WATCH_STATE_APP_ID && version == 1) {
		/* user_version read again under the lock: another process
		 * may have brought it to 2 meanwhile. */
		if (db_exec(db, "BEGIN IMMEDIATE", err) < 0 ||
		    db_int(db, "PRAGMA user_version", &version, err) < 0 ||
		    (version == 1 && db_exec(db, WATCH_STATE_V2
		    "PRAGMA user_version = 2;", err) < 0) ||
		    db_exec(db, "COMMIT", err) < 0) {
			sqlite3_exec(db->sql, "ROLLBACK", NULL, NULL, NULL);
			err_prefix(err, "upgrading the watch state");
			goto fail;
		}
	} else if (app != WATCH_STATE_APP_ID ||
	    version != WATCH_STATE_VERSION) {
		err_set(err, "watch state %s: not a gpucost watch state file "
		    "(or one from a newer gpucost); move it away", path);
		goto fail;
	}
	*out = db;
	return 0;
fail:
	db_close(db);
	return -1;
}
