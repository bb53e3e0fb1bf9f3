/*
 * db_offers.c: the writes of the offers table. Its one job: write a
 * provider's offers (replace, merge, stage, confirm) with the values
 * computed from each (db_bind_offer(), db_sort_keys.c), a refresh
 * writing only the rows that changed (row_hash). The reads are
 * db_query.c's and db_summary.c's.
 */
#include "config.h"
#include "db.h"

#include <sqlite3.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db_internal.h"
#include "err.h"
#include "provider.h"
#include "xalloc.h"

/*
 * What stage_changed() found comparing the offers to write with the rows
 * stored: only the new and changed ones are staged.
 */
struct stage_result {
	size_t	 stored;	/* distinct keys: the offers stored after */
	int64_t	 oldest, newest;	/* their fetched_at range */
	size_t	 staged;	/* new or changed: written */
	size_t	 fresh;		/* of them, keys not stored before */
	char	**gone;		/* stored keys not offered: to delete */
	size_t	 ngone;
	bool	 touch;		/* unchanged rows get fetched_at = touch_at */
	int64_t	 touch_at;
};

static int	incoming_ready(struct db *, struct err *);
static int	merge_offers(struct db *, const char *, size_t, bool *,
		    struct err *);
static int	staged_fresh(struct db *, const char *, size_t, size_t,
		    size_t *, struct err *);
static int	stage_changed(struct db *, const char *, const struct offer *,
		    size_t, struct stage_result *, struct err *);
static void	stage_result_done(struct stage_result *);
static int	stage_apply(struct db *, const char *,
		    const struct stage_result *, struct err *);
static int	incoming_add(struct db *, const char *, const struct offer *,
		    size_t, bool, struct err *);

/*
 * Swap provider's offers for offers[0..n), and with staged for what
 * db_stage_offers() staged before them as well, in one transaction.
 */
static int
replace_offers(struct db *db, const char *provider, const struct offer *offers,
    size_t n, bool staged, enum offer_source source,
    const struct provider_meta *meta, size_t nmeta, int64_t now,
    struct db_replace_stats *stats, struct err *err)
{
	sqlite3_stmt *st = NULL;
	struct stage_result sr;
	long long stored = 0, oldest = 0, newest = 0, written;
	size_t i, fresh, removed = 0;
	bool rebuilt = false;
	int rc;

	memset(&sr, 0, sizeof sr);
	if (stats != NULL)
		memset(stats, 0, sizeof *stats);
	if (db_exec(db, "BEGIN IMMEDIATE", err) < 0)
		return -1;
	if (incoming_ready(db, err) < 0)
		goto fail;
	/*
	 * Duplicate keys in an unstaged input collapse to the last one
	 * (the caller checked the set); staged, they fail. The count
	 * and age range go to the status row, so that a query reads them
	 * there instead of grouping every offer (db_status()).
	 */
	if (!staged) {
		/* Only what is new or changed (stage_changed()). */
		db_stage_drop(db, provider);
		if (stage_changed(db, provider, offers, n, &sr, err) < 0)
			goto fail;
		stored = (long long)sr.stored;
		oldest = sr.oldest;
		newest = sr.newest;
		written = (long long)sr.staged;
	} else {
		if (incoming_add(db, provider, offers, n, false, err) < 0)
			goto fail;
		if ((st = db_prepare(db, "SELECT count(*), "
		    "coalesce(min(fetched_at), 0), coalesce(max(fetched_at), "
		    "0) FROM incoming WHERE provider = ?", err)) == NULL)
			goto fail;
		sqlite3_bind_text(st, 1, provider, -1, SQLITE_STATIC);
		if (sqlite3_step(st) != SQLITE_ROW) {
			db_err(db, err, "write failed");
			goto fail;
		}
		stored = sqlite3_column_int64(st, 0);
		oldest = sqlite3_column_int64(st, 1);
		newest = sqlite3_column_int64(st, 2);
		written = stored;
		sqlite3_finalize(st);
		st = NULL;
	}

	/* History: new offers and changed prices or availability. */
	if ((st = db_prepare(db, "INSERT INTO price_history (provider, key, "
	    "observed_at, price, spot_price, availability) "
	    "SELECT i.provider, i.key, i.fetched_at, i.price, i.spot_price, "
	    "i.availability FROM incoming i LEFT JOIN offers o "
	    "ON o.provider = i.provider AND o.key = i.key "
	    "WHERE (o.key IS NULL OR o.price IS NOT i.price "
	    "OR o.spot_price IS NOT i.spot_price "
	    "OR o.availability IS NOT i.availability) AND i.provider = ?",
	    err)) == NULL)
		goto fail;
	sqlite3_bind_text(st, 1, provider, -1, SQLITE_STATIC);
	if (sqlite3_step(st) != SQLITE_DONE) {
		db_err(db, err, "write failed");
		goto fail;
	}
	if (stats != NULL)
		stats->history_rows = (size_t)sqlite3_changes(db->sql);
	sqlite3_finalize(st);
	st = NULL;
	if (db_committed_replace(db, provider, offers, n, err) < 0)
		goto fail;

	if (!staged) {
		if (stage_apply(db, provider, &sr, err) < 0)
			goto fail;
		removed = sr.ngone;
		fresh = sr.fresh;
	} else {
		/* Every row left is staged: the rest of the staged is new. */
		if (db_exec_provider(db, "DELETE FROM offers WHERE "
		    "provider = ?1 AND key NOT IN (SELECT key FROM incoming "
		    "WHERE provider = ?1)", provider, &removed, err) < 0 ||
		    staged_fresh(db, provider, (size_t)stored, removed, &fresh,
		    err) < 0)
			goto fail;
	}
	if (stats != NULL)
		stats->removed = removed;

	if (merge_offers(db, provider, fresh, &rebuilt, err) < 0 ||
	    db_terms_update(db, provider, err) < 0)
		goto fail;
	db_stage_drop(db, provider);

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
	sqlite3_bind_text(st, 7, db_sort_keys_version(), -1, SQLITE_STATIC);
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
	/* --group-by's kept answers, true of the offers as written. */
	if (db_groups_store(db, now, err) < 0)
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
	if (stats != NULL) {
		stats->offers = (size_t)stored;
		stats->written = (size_t)written;
		stats->indexes_rebuilt = rebuilt;
	}
	stage_result_done(&sr);
	return 0;
fail:
	sqlite3_finalize(st);
	sqlite3_exec(db->sql, "ROLLBACK", NULL, NULL, NULL);
	db_stage_drop(db, provider);
	stage_result_done(&sr);
	err_prefix(err, "%s", provider);
	return -1;
}

/*
 * The SQL of merge_offers(), made from the offers table's own columns
 * (so a column added by a migration is compared and copied too): every
 * column but the key, split by whether an index holds it.
 */
#define MERGE_ROW	" FROM incoming i WHERE i.provider = offers.provider " \
			"AND i.key = offers.key"
struct merge_sql {
	char	all_set[4096];		/* (a, b) = (SELECT i.a, i.b ...) */
	char	idx_diff[4096];		/* i.a IS NOT offers.a OR ... */
	char	plain_set[4096];
	char	plain_diff[4096];
};

/* Append the strings of a NULL-terminated list to buf; -1 if cut. */
static int
merge_append(char *buf, size_t size, ...)
{
	va_list ap;
	const char *p;
	size_t len = strlen(buf), n;
	int rc = 0;

	va_start(ap, size);
	while ((p = va_arg(ap, const char *)) != NULL) {
		n = strlen(p);
		if (len + n >= size) {
			rc = -1;
			break;
		}
		memcpy(buf + len, p, n + 1);
		len += n;
	}
	va_end(ap);
	return rc;
}

static int
merge_sql_make(struct db *db, struct merge_sql *m, struct err *err)
{
	char cols[2][4096] = { "", "" }, vals[2][4096] = { "", "" };
	char *diff;
	sqlite3_stmt *st;
	const char *name, *sep;
	int idx, rc, bad = 0;

	memset(m, 0, sizeof *m);
	if ((st = db_prepare(db, "SELECT t.name, EXISTS (SELECT 1 FROM "
	    "pragma_index_list('offers') l, pragma_index_info(l.name) c "
	    "WHERE l.origin = 'c' AND c.name = t.name) "
	    "FROM pragma_table_info('offers') t WHERE t.pk = 0 ORDER BY t.cid",
	    err)) == NULL)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		name = (const char *)sqlite3_column_text(st, 0);
		if (name == NULL)
			continue;
		/*
		 * fetched_at changes in every row at every refresh, and only
		 * two (partial) indexes hold it: with the columns no index
		 * holds, it moves those two entries, not the 21 a row's whole
		 * update moves (Vast's 100,000 unchanged offers: 11.8 s).
		 */
		idx = sqlite3_column_int(st, 1) != 0 &&
		    strcmp(name, "fetched_at") != 0;
		sep = cols[0][0] == '\0' ? "" : ", ";
		bad |= merge_append(cols[0], sizeof cols[0], sep, name, NULL);
		bad |= merge_append(vals[0], sizeof vals[0], sep, "i.", name,
		    NULL);
		if (!idx) {
			sep = cols[1][0] == '\0' ? "" : ", ";
			bad |= merge_append(cols[1], sizeof cols[1], sep, name,
			    NULL);
			bad |= merge_append(vals[1], sizeof vals[1], sep, "i.",
			    name, NULL);
		}
		diff = idx ? m->idx_diff : m->plain_diff;
		bad |= merge_append(diff, sizeof m->idx_diff, diff[0] == '\0' ?
		    "" : " OR ", "i.", name, " IS NOT offers.", name, NULL);
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		db_err(db, err, "reading the offers' columns failed");
		return -1;
	}
	bad |= merge_append(m->all_set, sizeof m->all_set, "(", cols[0],
	    ") = (SELECT ", vals[0], MERGE_ROW ")", NULL);
	bad |= merge_append(m->plain_set, sizeof m->plain_set, "(", cols[1],
	    ") = (SELECT ", vals[1], MERGE_ROW ")", NULL);
	if (bad || m->idx_diff[0] == '\0' || m->plain_diff[0] == '\0') {
		err_set(err, "cache %s: the offers table's columns do not fit "
		    "merge_offers()", db->path);
		return -1;
	}
	return 0;
}

/*
 * The staged path's new rows: the staged keys (stored) less the rows of
 * provider left after the gone were deleted, every one of which is
 * staged. The rows before are the status row's count, written with them.
 */
static int
staged_fresh(struct db *db, const char *provider, size_t stored,
    size_t removed, size_t *fresh, struct err *err)
{
	sqlite3_stmt *st;
	size_t before = 0;
	int rc;

	if ((st = db_prepare(db, "SELECT offer_count FROM main.provider_status "
	    "WHERE provider = ?", err)) == NULL)
		return -1;
	sqlite3_bind_text(st, 1, provider, -1, SQLITE_STATIC);
	if ((rc = sqlite3_step(st)) == SQLITE_ROW &&
	    sqlite3_column_int64(st, 0) > 0)
		before = (size_t)sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
		db_file_error(db, err);
		return -1;
	}
	before = before > removed ? before - removed : 0;
	*fresh = stored > before ? stored - before : 0;
	return 0;
}

/*
 * Insert the staged offers of provider that are not stored yet; fresh
 * is how many. Each row inserted is an entry in each of the offers'
 * indexes (21 at schema 23), and in a table larger than the page cache
 * each entry lands on a page that has to be read back: the first Vast
 * refresh of 100,000 offers spent 9 of its 14 s in pread(2) and
 * pwrite(2). When the new rows are many and at least a quarter of the
 * table, the indexes are dropped, the rows inserted and the indexes
 * made again from their own CREATE statements: CREATE INDEX sorts its
 * entries and writes each page once (the same refresh: 4.4 s). Both
 * ways leave the same table and indexes, in the caller's transaction:
 * a reader keeps its snapshot, and a failure rolls everything back.
 */
#define DB_REBUILD_MIN_ROWS	5000

/* An index of the offers, as sqlite_master holds it. */
struct index_def {
	char	*name, *sql;
};

static void
row_index_def(sqlite3_stmt *st, void *elem)
{
	struct index_def *d = elem;

	d->name = xstrdup(row_text(st, 0));
	d->sql = xstrdup(row_text(st, 1));
}

static int
insert_fresh(struct db *db, const char *provider, size_t fresh, bool *rebuilt,
    struct err *err)
{
	static const char insert[] = "INSERT INTO offers SELECT * FROM "
	    "incoming i WHERE i.provider = ?1 AND NOT EXISTS (SELECT 1 FROM "
	    "offers o WHERE o.provider = i.provider AND o.key = i.key)";
	sqlite3_stmt *st;
	struct index_def *defs = NULL;
	char *drop;
	long long total;
	size_t n = 0, i;
	void *v;
	int rc = -1, step;

	*rebuilt = false;
	if (fresh < DB_REBUILD_MIN_ROWS)
		return db_exec_provider(db, insert, provider, NULL, err);
	if (db_int(db, "SELECT coalesce(sum(offer_count), 0) FROM "
	    "main.provider_status", &total, err) < 0)
		return -1;
	/* The status counts are the table before: fresh rows come on top
	 * (the provider's own old count overstates it: never by much
	 * where the rows are mostly new). */
	if ((long long)fresh * 4 < total + (long long)fresh)
		return db_exec_provider(db, insert, provider, NULL, err);
	/* Only indexes made by CREATE INDEX: the key's is the table. */
	if ((st = db_prepare(db, "SELECT name, sql FROM main.sqlite_master "
	    "WHERE type = 'index' AND tbl_name = 'offers' AND sql IS NOT NULL "
	    "ORDER BY rowid", err)) == NULL ||
	    db_rows(db, st, sizeof *defs, row_index_def, &v, &n, err) < 0)
		return -1;
	defs = v;
	for (i = 0; i < n; i++) {
		/* A name is not a parameter: quoted as an identifier. */
		if ((drop = sqlite3_mprintf("DROP INDEX main.\"%w\"",
		    defs[i].name)) == NULL) {
			err_set(err, "out of memory");
			goto done;
		}
		step = db_exec(db, drop, err);
		sqlite3_free(drop);
		if (step < 0)
			goto done;
	}
	if (db_exec_provider(db, insert, provider, NULL, err) < 0)
		goto done;
	for (i = 0; i < n; i++)
		if (db_exec(db, defs[i].sql, err) < 0)
			goto done;
	*rebuilt = true;
	rc = 0;
done:
	for (i = 0; i < n; i++) {
		free(defs[i].name);
		free(defs[i].sql);
	}
	free(defs);
	return rc;
}

/*
 * Bring provider's rows of offers to what incoming holds, gone rows
 * already deleted. A refresh changes a few prices but every row's
 * fetched_at: rewriting each row whole (an upsert naming every column)
 * rewrote an entry in every index that holds a named column for every
 * row, whether its value changed or not (4 s at 100k offers). So: rows
 * whose indexed columns changed are updated whole (a few); the others
 * only in fetched_at and the columns no index holds (an entry moves in
 * the two indexes that hold fetched_at, none in the rest), and only
 * where something changed; new rows are inserted (insert_fresh()).
 * Three passes along the primary key, one transaction (the caller's).
 */
static int
merge_offers(struct db *db, const char *provider, size_t fresh, bool *rebuilt,
    struct err *err)
{
	struct merge_sql m;
	const char *set[2], *diff[2];
	char sql[sizeof m.all_set + sizeof m.idx_diff + 256];
	int pass;

	if (merge_sql_make(db, &m, err) < 0)
		return -1;
	set[0] = m.all_set;
	diff[0] = m.idx_diff;
	set[1] = m.plain_set;
	diff[1] = m.plain_diff;
	for (pass = 0; pass < 2; pass++) {
		/* Not UPDATE ... FROM: that needs SQLite 3.33, we take 3.27. */
		/* Driven by the staged keys (a seek each): after
		 * stage_changed() they are few, the rows many. */
		snprintf(sql, sizeof sql, "UPDATE offers SET %s WHERE "
		    "(provider, key) IN (SELECT provider, key FROM incoming "
		    "WHERE provider = ?1) AND EXISTS (SELECT 1 FROM incoming i "
		    "WHERE i.provider = offers.provider AND i.key = offers.key "
		    "AND (%s))", set[pass], diff[pass]);
		if (db_exec_provider(db, sql, provider, NULL, err) < 0)
			return -1;
	}
	return insert_fresh(db, provider, fresh, rebuilt, err);
}

int
db_replace_offers(struct db *db, const char *provider,
    const struct offer *offers, size_t n, enum offer_source source,
    int64_t now, struct db_replace_stats *stats, struct err *err)
{
	return db_replace_offers_meta(db, provider, offers, n, source, NULL, 0,
	    now, stats, err);
}

/*
 * The staging table: a private temporary table (temp_store = FILE, so
 * it spills to a file, not to memory), one per connection, holding the
 * incoming offers of any provider being written, keyed by provider and
 * key. Writing it takes no lock on the cache.
 */
static int
incoming_ready(struct db *db, struct err *err)
{
	sqlite3_stmt *st;
	const unsigned char *cols;
	char sql[4096];
	int rc;

	/*
	 * Keyed by (provider, key) WITHOUT ROWID, the key being the table:
	 * one b-tree insert per staged offer and one seek per row in each
	 * of replace_offers()'s joins, not an index entry and a rowid
	 * lookup besides. Its columns are the offers' own, in their order
	 * (INSERT INTO offers SELECT * FROM incoming), read from the table.
	 */
	if ((st = db_prepare(db, "SELECT (SELECT count(*) FROM "
	    "temp.sqlite_master WHERE name = 'incoming'), (SELECT "
	    "group_concat(name || ' ' || type, ', ') FROM (SELECT name, type "
	    "FROM pragma_table_info('offers') ORDER BY cid))", err)) == NULL)
		return -1;
	if (sqlite3_step(st) != SQLITE_ROW) {
		sqlite3_finalize(st);
		db_err(db, err, "reading the offers' columns failed");
		return -1;
	}
	if (sqlite3_column_int(st, 0) != 0) {
		sqlite3_finalize(st);
		return 0;
	}
	cols = sqlite3_column_text(st, 1);
	rc = snprintf(sql, sizeof sql, "CREATE TEMP TABLE incoming (%s, "
	    "PRIMARY KEY (provider, key)) WITHOUT ROWID",
	    cols != NULL ? (const char *)cols : "");
	sqlite3_finalize(st);
	if (cols == NULL || rc < 0 || (size_t)rc >= sizeof sql) {
		err_set(err, "cache %s: cannot make the staging table",
		    db->path);
		return -1;
	}
	return db_exec(db, sql, err);
}

/*
 * Add offers[0..n) of provider to the staging table. replace: a repeated
 * key replaces the earlier one (the caller checked the set); else it is
 * an error naming the key.
 */
static int
incoming_add(struct db *db, const char *provider, const struct offer *offers,
    size_t n, bool replace, struct err *err)
{
	sqlite3_stmt *st;
	size_t i;
	int rc;

	st = db_prepare(db, replace ? "INSERT OR REPLACE INTO incoming ("
	    WRITE_COLUMNS ") VALUES (" WRITE_PLACEHOLDERS ")" :
	    "INSERT INTO incoming (" WRITE_COLUMNS ") VALUES ("
	    WRITE_PLACEHOLDERS ")", err);
	if (st == NULL)
		return -1;
	for (i = 0; i < n; i++) {
		db_bind_offer(st, provider, &offers[i]);
		if ((rc = sqlite3_step(st)) != SQLITE_DONE) {
			if ((rc & 0xff) == SQLITE_CONSTRAINT)
				err_set(err, "offer %s is listed twice",
				    offers[i].key);
			else
				db_err(db, err, "write failed");
			sqlite3_finalize(st);
			return -1;
		}
		sqlite3_reset(st);
	}
	sqlite3_finalize(st);
	return 0;
}

/* Offers ordered by key, then by their place in the input. */
struct keyed {
	const char *key;
	size_t	 i;
};

static int
cmp_keyed(const void *a, const void *b)
{
	const struct keyed *x = a, *y = b;
	int c = strcmp(x->key, y->key);

	return c != 0 ? c : x->i < y->i ? -1 : x->i > y->i;
}

/*
 * Stage the offers[0..n) of provider that are new or changed, found by
 * one walk of its stored rows in key order beside the offers sorted by
 * key (strcmp() is SQLite's BINARY order of the text keys): a row whose
 * row_hash is the offer's, and whose fetched_at is the same or moves
 * with every other unchanged row's (sr->touch), is not written again.
 * A repeated key is its last offer, as INSERT OR REPLACE leaves it. The
 * stored keys no offer has go to sr->gone. A refresh that changes 1 %
 * of 100k prices stages 1,000 rows instead of 100,000.
 */
static int
stage_changed(struct db *db, const char *provider, const struct offer *offers,
    size_t n, struct stage_result *sr, struct err *err)
{
	sqlite3_stmt *rows = NULL, *ins = NULL;
	struct keyed *ord = NULL;
	const struct offer *o;
	const char *key;
	size_t m = 0, j = 0, cap = 0, i;
	bool uniform = true;
	int rc, c;

	memset(sr, 0, sizeof *sr);
	ord = xcalloc(n > 0 ? n : 1, sizeof *ord);
	for (i = 0; i < n; i++) {
		ord[i].key = offers[i].key;
		ord[i].i = i;
	}
	qsort(ord, n, sizeof *ord, cmp_keyed);
	/* Keep the last of each key. */
	for (i = 0; i < n; i++) {
		if (i + 1 < n && strcmp(ord[i].key, ord[i + 1].key) == 0)
			continue;
		ord[m++] = ord[i];
	}
	for (i = 0; i < m; i++) {
		o = &offers[ord[i].i];
		if (i == 0 || o->fetched_at < sr->oldest)
			sr->oldest = o->fetched_at;
		if (i == 0 || o->fetched_at > sr->newest)
			sr->newest = o->fetched_at;
	}
	sr->stored = m;
	/* One fetched_at for every offer (a refresh's time): unchanged rows
	 * take it in one statement (stage_apply()); else they are staged. */
	uniform = m > 0 && sr->oldest == sr->newest;
	if ((rows = db_prepare(db, "SELECT key, row_hash, fetched_at FROM "
	    "offers WHERE provider = ?1 ORDER BY key", err)) == NULL ||
	    (ins = db_prepare(db, "INSERT INTO incoming (" WRITE_COLUMNS
	    ") VALUES (" WRITE_PLACEHOLDERS ")", err)) == NULL)
		goto fail;
	sqlite3_bind_text(rows, 1, provider, -1, SQLITE_STATIC);
	rc = sqlite3_step(rows);
	while (rc == SQLITE_ROW || j < m) {
		key = rc == SQLITE_ROW ?
		    (const char *)sqlite3_column_text(rows, 0) : NULL;
		if (rc == SQLITE_ROW && key == NULL)
			key = "";
		c = key == NULL ? 1 : j == m ? -1 : strcmp(key, ord[j].key);
		if (c < 0) {
			if (sr->ngone == cap) {
				cap = cap == 0 ? 16 : cap * 2;
				sr->gone = xreallocarray(sr->gone, cap,
				    sizeof *sr->gone);
			}
			sr->gone[sr->ngone++] = xstrdup(key);
			rc = sqlite3_step(rows);
			continue;
		}
		o = &offers[ord[j++].i];
		if (c == 0 && sqlite3_column_type(rows, 1) == SQLITE_INTEGER &&
		    sqlite3_column_int64(rows, 1) ==
		    db_offer_row_hash(provider, o) &&
		    (sqlite3_column_int64(rows, 2) == o->fetched_at ||
		    uniform)) {
			if (sqlite3_column_int64(rows, 2) != o->fetched_at)
				sr->touch = true;
		} else {
			db_bind_offer(ins, provider, o);
			if (sqlite3_step(ins) != SQLITE_DONE) {
				db_err(db, err, "write failed");
				goto fail;
			}
			sqlite3_reset(ins);
			sr->staged++;
			if (c != 0)
				sr->fresh++;
		}
		if (c == 0)
			rc = sqlite3_step(rows);
	}
	if (rc != SQLITE_DONE && rc != SQLITE_ROW) {
		db_file_error(db, err);
		goto fail;
	}
	sr->touch_at = sr->newest;
	sqlite3_finalize(rows);
	sqlite3_finalize(ins);
	free(ord);
	return 0;
fail:
	sqlite3_finalize(rows);
	sqlite3_finalize(ins);
	free(ord);
	stage_result_done(sr);
	return -1;
}

static void
stage_result_done(struct stage_result *sr)
{
	size_t i;

	for (i = 0; i < sr->ngone; i++)
		free(sr->gone[i]);
	free(sr->gone);
	sr->gone = NULL;
	sr->ngone = 0;
}

/*
 * Before merge_offers(): the unchanged rows take the offers' one
 * fetched_at (a row also staged or gone takes it too; merge_offers()
 * or the delete then has the last word), and the gone rows go.
 */
static int
stage_apply(struct db *db, const char *provider, const struct stage_result *sr,
    struct err *err)
{
	sqlite3_stmt *st;
	size_t i;

	if (sr->touch) {
		if ((st = db_prepare(db, "UPDATE offers SET fetched_at = ?2 "
		    "WHERE provider = ?1 AND fetched_at IS NOT ?2", err)) ==
		    NULL)
			return -1;
		sqlite3_bind_text(st, 1, provider, -1, SQLITE_STATIC);
		sqlite3_bind_int64(st, 2, sr->touch_at);
		if (db_step_done(db, st, err) < 0)
			return -1;
	}
	if (sr->ngone == 0)
		return 0;
	if (sr->stored == 0)
		return db_exec_provider(db, "DELETE FROM offers WHERE "
		    "provider = ?1", provider, NULL, err);
	if ((st = db_prepare(db, "DELETE FROM offers WHERE provider = ?1 AND "
	    "key = ?2", err)) == NULL)
		return -1;
	sqlite3_bind_text(st, 1, provider, -1, SQLITE_STATIC);
	for (i = 0; i < sr->ngone; i++) {
		sqlite3_bind_text(st, 2, sr->gone[i], -1, SQLITE_STATIC);
		if (sqlite3_step(st) != SQLITE_DONE) {
			sqlite3_finalize(st);
			db_err(db, err, "write failed");
			return -1;
		}
		sqlite3_reset(st);
	}
	sqlite3_finalize(st);
	return 0;
}

int
db_stage_offers(struct db *db, const char *provider,
    const struct offer *offers, size_t n, struct err *err)
{
	/* A transaction of the temporary database only: the cache's
	 * readers and writers never wait for it. */
	if (incoming_ready(db, err) < 0 || db_exec(db, "BEGIN", err) < 0)
		return -1;
	if (incoming_add(db, provider, offers, n, false, err) < 0 ||
	    db_exec(db, "COMMIT", err) < 0) {
		sqlite3_exec(db->sql, "ROLLBACK", NULL, NULL, NULL);
		return -1;
	}
	return 0;
}

void
db_stage_drop(struct db *db, const char *provider)
{
	sqlite3_stmt *st;

	if (sqlite3_prepare_v2(db->sql, "DELETE FROM temp.incoming WHERE "
	    "provider = ?", -1, &st, NULL) != SQLITE_OK) {
		sqlite3_finalize(st);
		return;		/* nothing was ever staged */
	}
	sqlite3_bind_text(st, 1, provider, -1, SQLITE_STATIC);
	sqlite3_step(st);
	sqlite3_finalize(st);
}

int
db_replace_offers_meta(struct db *db, const char *provider,
    const struct offer *offers, size_t n, enum offer_source source,
    const struct provider_meta *meta, size_t nmeta, int64_t now,
    struct db_replace_stats *stats, struct err *err)
{
	return replace_offers(db, provider, offers, n, false, source, meta,
	    nmeta, now, stats, err);
}

int
db_replace_staged(struct db *db, const char *provider,
    const struct offer *offers, size_t n, const struct provider_meta *meta,
    size_t nmeta, int64_t now, struct db_replace_stats *stats,
    struct err *err)
{
	return replace_offers(db, provider, offers, n, true, SRC_LIVE, meta,
	    nmeta, now, stats, err);
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
	/*
	 * The offers are newer: a listing that was a market reference may
	 * be an offer again, which the kept groups must count.
	 */
	if (db_groups_store(db, now, err) < 0 ||
	    db_exec(db, "COMMIT", err) < 0)
		goto fail;
	*offers = (size_t)n;
	return 0;
fail:
	sqlite3_finalize(st);
	sqlite3_exec(db->sql, "ROLLBACK", NULL, NULL, NULL);
	err_prefix(err, "%s", provider);
	return -1;
}
