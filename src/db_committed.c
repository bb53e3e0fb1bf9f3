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
#include "cost.h"
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
 * The order an offer's committed rows are read in, the primary key's
 * (so free): committed_add() keeps the first OFFER_COMMITTED_MAX, so
 * db_terms_update() must meet them as db_committed_attach() does.
 */
#define COMMITTED_ORDER	"kind, months, upfront"

/*
 * Add the committed row at columns col.. of st (kind, months, upfront,
 * price_hour, upfront_usd) to c[0..*nc), as every reader of the table
 * takes it: a row this program cannot read is left out.
 */
static void
committed_row_add(sqlite3_stmt *st, int col, struct committed *c,
    uint8_t *nc)
{
	char kind[32], upfront[16];
	enum committed_kind k;
	enum committed_upfront u;

	db_column_text(st, col, kind, sizeof kind);
	db_column_text(st, col + 2, upfront, sizeof upfront);
	if (committed_kind_parse(kind, &k) < 0 ||
	    committed_upfront_parse(upfront, &u) < 0)
		return;
	(void)committed_add(c, nc, k, sqlite3_column_int(st, col + 1), u,
	    sqlite3_column_int64(st, col + 3),
	    sqlite3_column_int64(st, col + 4));
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
	char last[OFFER_PROVIDER_MAX] = "";
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
		    "provider = ? AND key = ? ORDER BY " COMMITTED_ORDER, err))
		    == NULL)
			goto fail;
		sqlite3_reset(st);
		sqlite3_bind_text(st, 1, o->provider, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 2, o->key, -1, SQLITE_STATIC);
		while ((rc = sqlite3_step(st)) == SQLITE_ROW)
			committed_row_add(st, 0, c, &nc);
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

/*
 * The offer_terms rows of one offer (provider, key, gpu_count) whose
 * committed prices are c[0..nc): for each term it has, and for any
 * (TERM_ANY), the best price per GPU-hour as cost_plan_term() computes
 * it (INT64_MAX, last, when it has none: no GPU count).
 */
static int
terms_put(struct db *db, sqlite3_stmt *ins, const char *provider,
    const char *key, int gpu_count, const struct committed *c, size_t nc,
    struct err *err)
{
	const struct committed *best;
	int64_t gpu;
	size_t i, j;
	int term;

	for (i = 0; i <= nc; i++) {
		term = i < nc ? c[i].months : TERM_ANY;
		for (j = 0; j < i && i < nc; j++)
			if (c[j].months == c[i].months)
				break;
		if (i < nc && j < i)
			continue;	/* that term is done */
		if ((best = committed_best(c, nc, term)) == NULL)
			continue;
		gpu = cost_per_gpu_hour(best->price_hour, gpu_count);
		sqlite3_reset(ins);
		sqlite3_bind_text(ins, 1, provider, -1, SQLITE_STATIC);
		sqlite3_bind_text(ins, 2, key, -1, SQLITE_STATIC);
		sqlite3_bind_int(ins, 3, term);
		sqlite3_bind_int64(ins, 4, money_known(gpu) ? gpu : INT64_MAX);
		if (sqlite3_step(ins) != SQLITE_DONE) {
			db_err(db, err, "write failed");
			return -1;
		}
	}
	return 0;
}

int
db_terms_update(struct db *db, const char *provider, struct err *err)
{
	sqlite3_stmt *st = NULL, *ins = NULL;
	struct committed c[OFFER_COMMITTED_MAX];
	char key[OFFER_KEY_MAX] = "";
	int gpu_count = 0, rc = -1, step;
	bool have = false;
	uint8_t nc = 0;

	if ((st = db_prepare(db, "DELETE FROM offer_terms WHERE "
	    "t_provider = ?", err)) == NULL)
		return -1;
	sqlite3_bind_text(st, 1, provider, -1, SQLITE_STATIC);
	if (db_step_done(db, st, err) < 0)
		return -1;
	/* Each offer's rows together, in db_committed_attach()'s order. */
	if ((st = db_prepare(db, "SELECT c.kind, c.months, c.upfront, "
	    "c.price_hour, c.upfront_usd, c.key, o.gpu_count FROM committed c "
	    "JOIN offers o ON o.provider = c.provider AND o.key = c.key "
	    "WHERE c.provider = ? ORDER BY c.key, " COMMITTED_ORDER, err))
	    == NULL ||
	    /* The offer's GPU and per-GPU sort key as stored. */
	    (ins = db_prepare(db, "INSERT INTO offer_terms (t_provider, t_key, "
	    "t_months, t_gpu_price, t_gpu, t_sk_gpu_price) SELECT ?1, ?2, ?3, "
	    "?4, gpu, sk_gpu_price FROM offers WHERE provider = ?1 AND "
	    "key = ?2", err)) == NULL)
		goto done;
	sqlite3_bind_text(st, 1, provider, -1, SQLITE_STATIC);
	for (;;) {
		const unsigned char *k;

		step = sqlite3_step(st);
		if (step != SQLITE_ROW && step != SQLITE_DONE) {
			db_file_error(db, err);
			goto done;
		}
		k = step == SQLITE_ROW ? sqlite3_column_text(st, 5) : NULL;
		/* A key too long for an offer is no offer's: never read. */
		if (k != NULL && sqlite3_column_bytes(st, 5) >= OFFER_KEY_MAX)
			continue;
		if (have && (k == NULL || strcmp((const char *)k, key) != 0)) {
			committed_sort(c, nc);
			if (terms_put(db, ins, provider, key, gpu_count, c, nc,
			    err) < 0)
				goto done;
			have = false;
		}
		if (k == NULL)
			break;
		if (!have) {
			str_copy(key, sizeof key, (const char *)k);
			gpu_count = sqlite3_column_int(st, 6);
			nc = 0;
			have = true;
		}
		committed_row_add(st, 0, c, &nc);
	}
	rc = 0;
done:
	sqlite3_finalize(st);
	sqlite3_finalize(ins);
	return rc;
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
