/*
 * db_fold.c: what a folded row says of its instance type's other
 * offers (db_fold_class(), db.h): how many the filter matches, and the
 * range of their prices, from one indexed count. answer.c asks it for
 * each of the first rows of a folded answer instead of reading every
 * matching offer.
 */
#include "config.h"
#include "db.h"

#include <sqlite3.h>
#include <stdio.h>
#include <string.h>

#include "db_internal.h"
#include "err.h"
#include "money.h"
#include "offer.h"
#include "rentable.h"

/* One known price column value, or MONEY_NONE. */
static int64_t
column_money(sqlite3_stmt *st, int i)
{
	return sqlite3_column_type(st, i) == SQLITE_NULL ? MONEY_NONE :
	    (int64_t)sqlite3_column_int64(st, i);
}

/* The count and range of one class into out: bound after *k. */
static int
class_step(sqlite3_stmt *st, int k, const struct offer *o, bool listing,
    struct db_fold_class *out)
{
	int rc;

	sqlite3_bind_text(st, k++, o->provider, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, k++, o->instance_type, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, k++, o->gpu, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, k++, o->gpu_raw, -1, SQLITE_STATIC);
	sqlite3_bind_int(st, k++, o->gpu_count);
	sqlite3_bind_int(st, k++, listing);
	db_bind_money(st, k++, o->price);
	db_bind_money(st, k++, o->spot_price);
	sqlite3_bind_int(st, k++, o->vram_gb);
	sqlite3_bind_text(st, k++, interconnect_name(o->interconnect), -1,
	    SQLITE_STATIC);
	sqlite3_bind_int(st, k++, o->vcpus);
	sqlite3_bind_double(st, k++, o->ram_gb);
	sqlite3_bind_text(st, k++, availability_name(o->availability), -1,
	    SQLITE_STATIC);
	memset(out, 0, sizeof *out);
	out->price_low = out->price_high = MONEY_NONE;
	out->spot_low = out->spot_high = MONEY_NONE;
	if ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		out->offers = (size_t)sqlite3_column_int64(st, 0);
		out->price_low = column_money(st, 1);
		out->price_high = column_money(st, 2);
		out->spot_low = column_money(st, 3);
		out->spot_high = column_money(st, 4);
	}
	sqlite3_reset(st);
	return rc == SQLITE_ROW ? 0 : -1;
}

int
db_fold_classes(struct db *db, const struct offer_filter *f,
    const struct offer *const *o, const bool *listing, size_t n,
    struct db_fold_class *out, struct err *err)
{
	/*
	 * The spot cut (?1), the filter's values, then the class's: one
	 * statement,
	 * bound again for each class. A listing's class (?6 true) is also
	 * equal in every value but the region; IS compares unknowns.
	 */
	char sql[8192] = "SELECT count(*), min(price), max(price), "
	    "min(CASE WHEN fetched_at >= ?1 THEN spot_price END), "
	    "max(CASE WHEN fetched_at >= ?1 THEN spot_price END) "
	    "FROM offers WHERE 1";
	struct rentable_sql rq;
	sqlite3_stmt *st;
	bool current;
	size_t i;
	int k = 2, first;	/* ?1: the spot cut */

	/* The filter's stored values must be this program's (db.h). */
	if (db_sort_keys_current(db, &current, err) < 0)
		return -1;
	if (!current)
		return 1;
	if (rentable_prepare(db, f, &rq, err) < 0)
		return -1;
	filter_sql(f, &rq, sql, sizeof sql);
	/* plan_matches_price(), as db_query_top() tests it. */
	if (money_known(f->max_price_gpu_hour))
		strncat(sql, f->spot ? " AND sk_spot_gpu <= ?" :
		    " AND sk_gpu_price <= ?", sizeof sql - strlen(sql) - 1);
	strncat(sql, " AND provider = ? AND instance_type = ? AND gpu = ? "
	    "AND gpu_raw = ? AND gpu_count = ? AND (NOT ? OR (price IS ? "
	    "AND spot_price IS ? AND vram_gb = ? AND interconnect = ? "
	    "AND vcpus = ? AND ram_gb = ? AND availability = ?))",
	    sizeof sql - strlen(sql) - 1);
	if ((st = db_prepare(db, sql, err)) == NULL)
		return -1;
	/* A spot price that is history is none (rentable.h). */
	sqlite3_bind_int64(st, 1, rq.spot_rule ? rq.spot_cut : INT64_MIN);
	filter_bind(st, f, &rq, &k);
	if (money_known(f->max_price_gpu_hour))
		sqlite3_bind_int64(st, k++, f->max_price_gpu_hour);
	first = k;
	for (i = 0; i < n; i++)
		if (class_step(st, first, o[i], listing[i], &out[i]) < 0) {
			db_file_error(db, err);
			sqlite3_finalize(st);
			return -1;
		}
	sqlite3_finalize(st);
	return 0;
}
