/*
 * db_committed.c: committed prices (committed.h) in the cache: the
 * committed table beside offers and its history. They are written with
 * their offers, in the same transaction (db_replace_offers_meta()), and
 * read back onto the offers a query returns (read_offers()).
 */
#include "config.h"
#include "db.h"
#include "db_internal.h"

#include <stdbool.h>
#include <string.h>

#include "committed.h"
#include "err.h"
#include "money.h"
#include "offer.h"
#include "str.h"

/*
 * Replace provider's committed prices by those of offers[0..n), with a
 * history row (at the offer's fetched_at) for each new or changed one.
 * Inside db_replace_offers_meta()'s transaction, before the incoming
 * offers are cleared.
 */
int
db_committed_replace(struct db *db, const char *provider,
    const struct offer *offers, size_t n, struct err *err)
{
	const struct committed *c;
	sqlite3_stmt *st = NULL;
	size_t i, j;

	if (db_exec(db, "CREATE TEMP TABLE IF NOT EXISTS incoming_committed "
	    "AS SELECT * FROM committed WHERE 0;"
	    "CREATE UNIQUE INDEX IF NOT EXISTS temp.incoming_committed_key "
	    "ON incoming_committed (key, kind, months, upfront);"
	    "DELETE FROM incoming_committed;", err) < 0)
		return -1;
	st = db_prepare(db, "INSERT OR REPLACE INTO incoming_committed "
	    "(provider, key, kind, months, upfront, price_hour, upfront_usd) "
	    "VALUES (?,?,?,?,?,?,?)", err);
	if (st == NULL)
		return -1;
	for (i = 0; i < n; i++) {
		for (j = 0; j < offers[i].ncommitted; j++) {
			c = &offers[i].committed[j];
			sqlite3_bind_text(st, 1, provider, -1, SQLITE_STATIC);
			sqlite3_bind_text(st, 2, offers[i].key, -1,
			    SQLITE_STATIC);
			sqlite3_bind_text(st, 3, committed_kind_name(c->kind),
			    -1, SQLITE_STATIC);
			sqlite3_bind_int(st, 4, c->months);
			sqlite3_bind_text(st, 5,
			    committed_upfront_name(c->upfront_kind), -1,
			    SQLITE_STATIC);
			sqlite3_bind_int64(st, 6, c->price_hour);
			sqlite3_bind_int64(st, 7, c->upfront);
			if (sqlite3_step(st) != SQLITE_DONE) {
				db_err(db, err, "write failed");
				sqlite3_finalize(st);
				return -1;
			}
			sqlite3_reset(st);
		}
	}
	sqlite3_finalize(st);
	st = db_prepare(db, "INSERT INTO committed_history (provider, key, "
	    "kind, months, upfront, observed_at, price_hour, upfront_usd) "
	    "SELECT i.provider, i.key, i.kind, i.months, i.upfront, "
	    "coalesce((SELECT fetched_at FROM incoming o WHERE o.key = i.key), "
	    "0), i.price_hour, i.upfront_usd FROM incoming_committed i "
	    "LEFT JOIN committed c ON c.provider = i.provider AND "
	    "c.key = i.key AND c.kind = i.kind AND c.months = i.months AND "
	    "c.upfront = i.upfront WHERE c.key IS NULL OR "
	    "c.price_hour IS NOT i.price_hour OR "
	    "c.upfront_usd IS NOT i.upfront_usd;", err);
	if (st == NULL || db_step_done(db, st, err) < 0)
		return -1;
	st = db_prepare(db, "DELETE FROM committed WHERE provider = ?", err);
	if (st == NULL)
		return -1;
	sqlite3_bind_text(st, 1, provider, -1, SQLITE_STATIC);
	if (db_step_done(db, st, err) < 0)
		return -1;
	return db_exec(db, "INSERT INTO committed SELECT * FROM "
	    "incoming_committed; DELETE FROM incoming_committed;", err);
}

/*
 * Put the stored committed prices on out->v[from..n). Providers with
 * none (the marketplaces: most offers) cost one look-up each.
 */
int
db_committed_attach(struct db *db, struct offer_list *out, size_t from,
    struct err *err)
{
	sqlite3_stmt *has = NULL, *st = NULL;
	char last[OFFER_PROVIDER_MAX] = "", kind[32], upfront[16];
	enum committed_kind k;
	enum committed_upfront u;
	struct committed c[OFFER_COMMITTED_MAX];
	struct offer *o;
	bool any = false;
	uint8_t nc;
	size_t i;
	int rc;

	for (i = from; i < out->n; i++) {
		o = &out->v[i];
		if (strcmp(o->provider, last) != 0) {
			if (has == NULL && (has = db_prepare(db, "SELECT 1 FROM "
			    "committed WHERE provider = ? LIMIT 1", err)) ==
			    NULL)
				goto fail;
			sqlite3_reset(has);
			sqlite3_bind_text(has, 1, o->provider, -1,
			    SQLITE_TRANSIENT);
			rc = sqlite3_step(has);
			if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
				db_file_error(db, err);
				goto fail;
			}
			any = rc == SQLITE_ROW;
			str_copy(last, sizeof last, o->provider);
		}
		o->ncommitted = 0;
		o->committed = NULL;
		if (!any)
			continue;
		nc = 0;
		if (st == NULL && (st = db_prepare(db, "SELECT kind, months, "
		    "upfront, price_hour, upfront_usd FROM committed WHERE "
		    "provider = ? AND key = ?", err)) == NULL)
			goto fail;
		sqlite3_reset(st);
		sqlite3_bind_text(st, 1, o->provider, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 2, o->key, -1, SQLITE_STATIC);
		while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
			db_column_text(st, 0, kind, sizeof kind);
			db_column_text(st, 2, upfront, sizeof upfront);
			/* A row this program cannot read is left out. */
			if (committed_kind_parse(kind, &k) < 0 ||
			    committed_upfront_parse(upfront, &u) < 0)
				continue;
			(void)committed_add(c, &nc, k,
			    sqlite3_column_int(st, 1), u,
			    sqlite3_column_int64(st, 3),
			    sqlite3_column_int64(st, 4));
		}
		if (rc != SQLITE_DONE) {
			db_file_error(db, err);
			goto fail;
		}
		committed_sort(c, nc);
		offer_set_committed(out, o, c, nc);
	}
	sqlite3_finalize(has);
	sqlite3_finalize(st);
	return 0;
fail:
	sqlite3_finalize(has);
	sqlite3_finalize(st);
	return -1;
}


/* A committed_history row as a price point. */
static void
row_committed_point(sqlite3_stmt *st, void *elem)
{
	struct price_point *p = elem;

	p->at = sqlite3_column_int64(st, 0);
	p->price = sqlite3_column_int64(st, 1);
	p->spot_price = MONEY_NONE;
	p->availability = AV_UNKNOWN;
}

int
db_committed_history(struct db *db, const char *provider, const char *key,
    const struct committed *c, struct price_point **out, size_t *n,
    struct err *err)
{
	sqlite3_stmt *st;
	void *v;
	int rc;

	*out = NULL;
	*n = 0;
	st = db_prepare_cached(db, DB_STMT_COMMITTED_HISTORY, "SELECT "
	    "observed_at, price_hour FROM committed_history WHERE "
	    "provider = ? AND key = ? AND kind = ? AND months = ? AND "
	    "upfront = ? ORDER BY observed_at, rowid", err);
	if (st == NULL)
		return -1;
	sqlite3_bind_text(st, 1, provider, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, key, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, committed_kind_name(c->kind), -1,
	    SQLITE_STATIC);
	sqlite3_bind_int(st, 4, c->months);
	sqlite3_bind_text(st, 5, committed_upfront_name(c->upfront_kind), -1,
	    SQLITE_STATIC);
	rc = db_rows_cached(db, st, sizeof **out, row_committed_point, &v, n,
	    err);
	*out = v;
	return rc;
}

/* The SQL copies of the bounds stay the bounds. */
_Static_assert(COMMITTED_MONTHS_MAX == 60, "COMMITTED_MONTHS_SQL");
_Static_assert(OFFER_PRICE_MAX == (int64_t)5000000000, "COMMITTED_PRICE_MAX_SQL");
