/*
 * db_summary.c: the reads of the answers that need not read every offer
 * whole (issue 29): a --group-by summary walks one narrow covering index
 * (offers_summary: GPU, region, the per-GPU prices, the primary key) and
 * reads whole only the rows that may be a group's cheapest; plans of
 * several nodes walk the offers that can make one in price order and
 * stop at --limit.
 */
#include "config.h"
#include "db.h"

#include <sqlite3.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cost.h"
#include "db_internal.h"
#include "err.h"
#include "fabric.h"
#include "money.h"
#include "note_info.h"
#include "str.h"

/* The stored sort keys' unknown (db_offers.c): after every known value. */
#define SK_UNKNOWN	INT64_MAX

static int64_t
sk_money(sqlite3_stmt *st, int col)
{
	int64_t v = sqlite3_column_int64(st, col);

	return v == SK_UNKNOWN ? MONEY_NONE : v;
}

/*
 * The summary's walk: f's conditions (filter_sql(), whole: the caller
 * checked db_filter_in_sql()) and its maximum price on the stored
 * per-GPU key, as db_query_top() tests it, on the offers_summary index.
 */
static void
summary_sql(const struct offer_filter *f, const struct rentable_sql *rq,
    bool plan, char *sql, size_t size)
{
	snprintf(sql, size, "%sSELECT provider, key, gpu, region, "
	    "sk_gpu_price, sk_spot_gpu FROM offers INDEXED BY offers_summary "
	    "WHERE 1", plan ? "EXPLAIN QUERY PLAN " : "");
	filter_sql(f, rq, sql, size);
	if (money_known(f->max_price_gpu_hour))
		strncat(sql, f->spot ? " AND sk_spot_gpu <= ?" :
		    " AND sk_gpu_price <= ?", size - strlen(sql) - 1);
}

static sqlite3_stmt *
summary_prepare(struct db *db, const struct offer_filter *f, bool plan,
    struct err *err)
{
	char sql[2560];
	struct rentable_sql rq;
	sqlite3_stmt *st;
	int k = 1;

	if (db_sort_keys_update(db, err) < 0 ||
	    rentable_prepare(db, f, &rq, err) < 0)
		return NULL;
	summary_sql(f, &rq, plan, sql, sizeof sql);
	if ((st = db_prepare(db, sql, err)) == NULL)
		return NULL;
	filter_bind(st, f, &rq, &k);
	if (money_known(f->max_price_gpu_hour))
		sqlite3_bind_int64(st, k++, f->max_price_gpu_hour);
	return st;
}

int
db_summary_scan(struct db *db, const struct offer_filter *f,
    db_summary_fn *fn, void *ctx, size_t *rows, struct err *err)
{
	struct db_summary_row r;
	sqlite3_stmt *st;
	int rc;

	*rows = 0;
	if ((st = summary_prepare(db, f, false, err)) == NULL)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		r.provider = (const char *)sqlite3_column_text(st, 0);
		r.key = (const char *)sqlite3_column_text(st, 1);
		r.gpu = (const char *)sqlite3_column_text(st, 2);
		r.region = (const char *)sqlite3_column_text(st, 3);
		if (r.provider == NULL || r.key == NULL || r.gpu == NULL ||
		    r.region == NULL)
			continue;	/* NOT NULL columns: never */
		r.price_gpu_hour = sk_money(st, 4);
		r.spot_gpu_hour = sk_money(st, 5);
		fn(&r, ctx);
		(*rows)++;
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		db_file_error(db, err);
		return -1;
	}
	return 0;
}

int
db_summary_plan(struct db *db, const struct offer_filter *f, char *out,
    size_t size, struct err *err)
{
	sqlite3_stmt *st;
	size_t len = 0;
	int rc;

	if (size > 0)
		out[0] = '\0';
	if ((st = summary_prepare(db, f, true, err)) == NULL)
		return -1;
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

int
db_offers_get(struct db *db, const char *const *providers,
    const char *const *keys, size_t n, struct offer_list *out,
    struct err *err)
{
	sqlite3_stmt *st;
	struct offer o;
	size_t from = out->n, i;
	int rc;

	if ((st = db_prepare(db, "SELECT " OFFER_COLUMNS " FROM offers "
	    "WHERE provider = ? AND key = ?", err)) == NULL)
		return -1;
	for (i = 0; i < n; i++) {
		sqlite3_bind_text(st, 1, providers[i], -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 2, keys[i], -1, SQLITE_STATIC);
		if ((rc = sqlite3_step(st)) == SQLITE_ROW) {
			offer_init(&o);
			db_row_to_offer(st, &o);
			offer_list_add_copy(out, &o);	/* the row's text */
		} else if (rc != SQLITE_DONE) {
			sqlite3_finalize(st);
			db_file_error(db, err);
			return -1;
		}
		sqlite3_reset(st);
	}
	sqlite3_finalize(st);
	return db_committed_attach(db, out, from, err);
}

/*
 * Plans of several nodes (db_query_nodes()). A plan's price per GPU-hour
 * is its offer's, so plans come in the order of the stored per-GPU key;
 * the offers that can make one fall into three disjoint walks, each in
 * that order on an index, each tested in C (offer_matches(): the node
 * rules, the fabric looked up by provider and instance type) and
 * stopped at the limit:
 *   NODES_CLUSTER   cluster products (nodes > 1): few, sorted;
 *   NODES_WHOLE     one machine of exactly --count GPUs (offers_count);
 *   NODES_ASSEMBLED machines of fewer GPUs taken several times: only
 *                   offers that are no marketplace's single listing
 *                   (offers_assembled, their partial index, migration
 *                   17), with the fabric assembled_ok() asks (any
 *                   kind with --fabric any) and a placement that holds
 *                   that many nodes, on the values stored from
 *                   data/fabric.tsv, so the walk reads no row that
 *                   cannot make a plan.
 */
enum nodes_walk {
	NODES_CLUSTER,
	NODES_WHOLE,
	NODES_ASSEMBLED
};

/* The note bit of a single listing, as offers_assembled's WHERE has it. */
_Static_assert(NOTE_BIT(NOTE_SINGLE_LISTING) == 32,
    "offers_assembled (migration 16) names the single-listing bit 32");

/*
 * Append NODES_ASSEMBLED's conditions: plan_nodes() and assembled_ok()
 * in SQL, never fewer rows than they keep (C tests each row again).
 */
static void
assembled_sql(const struct offer_filter *f, char *sql, size_t size)
{
	bool any = (f->fabrics & FABRIC_ANY) != 0;
	const char *k = f->nodes > 1 ? "?" : "(? / gpu_count)";
	int kind, n;

	/* The partial index's own condition, word for word. */
	strncat(sql, " AND nodes = 1 AND (notes & 32) = 0 AND gpu_count > 0",
	    size - strlen(sql) - 1);
	if (f->nodes > 1) {
		if (f->count > 0)
			strncat(sql, " AND gpu_count * ? = ?",
			    size - strlen(sql) - 1);
	} else
		/* k = count / gpu_count > 1 nodes. */
		strncat(sql, " AND gpu_count < ? AND ? % gpu_count = 0",
		    size - strlen(sql) - 1);
	if (any)
		return;
	/* No more than 4 nodes per 8 GPUs asked, unless --nodes says. */
	if (f->nodes <= 1)
		strncat(sql, " AND gpu_count >= 2", size - strlen(sql) - 1);
	/* --fabric's kinds are filter_sql()'s; by default a trainer's. */
	if (f->fabrics == 0) {
		strncat(sql, " AND fabric IN (", size - strlen(sql) - 1);
		for (kind = 1, n = 0; kind < FABRIC_KIND_COUNT; kind++)
			if (fabric_set_has(FABRIC_TRAINING, kind))
				strncat(sql, n++ > 0 ? ",?" : "?",
				    size - strlen(sql) - 1);
		strncat(sql, ")", size - strlen(sql) - 1);
	}
	/* A placement construct that holds k nodes (fabric_nodes). */
	strncat(sql, " AND (fabric_nodes = 0 OR fabric_nodes >= ",
	    size - strlen(sql) - 1);
	strncat(sql, k, size - strlen(sql) - 1);
	strncat(sql, ")", size - strlen(sql) - 1);
}

static void
assembled_bind(sqlite3_stmt *st, const struct offer_filter *f, int *k)
{
	int kind;

	if (f->nodes > 1) {
		if (f->count > 0) {
			sqlite3_bind_int(st, (*k)++, f->nodes);
			sqlite3_bind_int(st, (*k)++, f->count);
		}
	} else {
		sqlite3_bind_int(st, (*k)++, f->count);
		sqlite3_bind_int(st, (*k)++, f->count);
	}
	if ((f->fabrics & FABRIC_ANY) != 0)
		return;
	if (f->fabrics == 0)
		for (kind = 1; kind < FABRIC_KIND_COUNT; kind++)
			if (fabric_set_has(FABRIC_TRAINING, kind))
				sqlite3_bind_int(st, (*k)++, kind);
	sqlite3_bind_int(st, (*k)++, f->nodes > 1 ? f->nodes : f->count);
}

static int
nodes_walk(struct db *db, const struct offer_filter *f,
    const struct rentable_sql *rq, enum nodes_walk walk, size_t limit,
    struct offer_list *out, size_t *matched, struct err *err)
{
	static const char *const index[] = {
		[NODES_CLUSTER] = "",
		[NODES_WHOLE] = " INDEXED BY offers_count",
		[NODES_ASSEMBLED] = " INDEXED BY offers_assembled",
	};
	char sql[3072];
	sqlite3_stmt *st, *row;
	struct offer o;
	struct plan p;
	size_t from = out->n, kept = 0;
	int k = 1, rc, nodes;

	/*
	 * The walk selects the key alone and each row it passes is read
	 * by it: the offers are WITHOUT ROWID, so a walk that selects a
	 * column its index lacks seeks the table at every entry before it
	 * tests the index's own columns (offers_assembled holds what the
	 * node rules and the usual filters test, so its walk reads only
	 * the rows that pass them).
	 */
	snprintf(sql, sizeof sql, "SELECT provider, key FROM offers%s "
	    "WHERE 1", index[walk]);
	filter_sql(f, rq, sql, sizeof sql);
	if (money_known(f->max_price_gpu_hour))
		strncat(sql, f->spot ? " AND sk_spot_gpu <= ?" :
		    " AND sk_gpu_price <= ?", sizeof sql - strlen(sql) - 1);
	if (walk == NODES_ASSEMBLED)
		assembled_sql(f, sql, sizeof sql);
	else
		strncat(sql, walk == NODES_CLUSTER ? " AND nodes > 1" :
		    " AND nodes = 1 AND gpu_count = ?",
		    sizeof sql - strlen(sql) - 1);
	strncat(sql, " ORDER BY sk_gpu_price, provider, key",
	    sizeof sql - strlen(sql) - 1);
	if ((st = db_prepare(db, sql, err)) == NULL)
		return -1;
	if ((row = db_prepare(db, "SELECT " OFFER_COLUMNS " FROM offers "
	    "WHERE provider = ? AND key = ?", err)) == NULL) {
		sqlite3_finalize(st);
		return -1;
	}
	filter_bind(st, f, rq, &k);
	if (money_known(f->max_price_gpu_hour))
		sqlite3_bind_int64(st, k++, f->max_price_gpu_hour);
	if (walk == NODES_ASSEMBLED)
		assembled_bind(st, f, &k);
	if (walk == NODES_WHOLE)
		sqlite3_bind_int(st, k++, f->count);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		sqlite3_reset(row);
		sqlite3_bind_value(row, 1, sqlite3_column_value(st, 0));
		sqlite3_bind_value(row, 2, sqlite3_column_value(st, 1));
		/* The same read transaction: the row the walk found. */
		if ((rc = sqlite3_step(row)) == SQLITE_DONE)
			continue;
		if (rc != SQLITE_ROW)
			break;
		offer_init(&o);
		db_row_to_offer(row, &o);	/* the row's text until a step */
		if (!offer_matches(f, &o, &nodes))
			continue;
		cost_plan(&p, &o, nodes);
		if (!plan_matches_price(f, &p))
			continue;
		if (matched != NULL)
			(*matched)++;
		if (kept == limit)
			continue;	/* counted, not shown */
		offer_list_add_copy(out, &o);
		if (++kept == limit && matched == NULL)
			break;
	}
	sqlite3_finalize(row);
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE && rc != SQLITE_ROW) {
		db_file_error(db, err);
		return -1;
	}
	return db_committed_attach(db, out, from, err);
}

int
db_query_nodes(struct db *db, const struct offer_filter *f, size_t limit,
    struct offer_list *out, size_t *matched, struct err *err)
{
	struct rentable_sql rq;

	if (matched != NULL)
		*matched = 0;
	if (db_sort_keys_update(db, err) < 0 ||
	    rentable_prepare(db, f, &rq, err) < 0)
		return -1;
	if (nodes_walk(db, f, &rq, NODES_CLUSTER, limit, out, matched,
	    err) < 0)
		return -1;
	if (f->nodes <= 1 && f->count > 0 && nodes_walk(db, f, &rq,
	    NODES_WHOLE, limit, out, matched, err) < 0)
		return -1;
	return nodes_walk(db, f, &rq, NODES_ASSEMBLED, limit, out, matched,
	    err);
}
