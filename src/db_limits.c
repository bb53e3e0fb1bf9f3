/*
 * db_limits.c: what gpucost writes into each column of the tables a
 * published copy carries beside its offers. Its one job: the table the
 * writers and the checks on a copy both read (db.h), so what a refresh
 * stores is by definition what a reader of its copy accepts (issue 43:
 * an error of 275 bytes, stored by a refresh, made every copy refused
 * by a check that allowed 255).
 */
#include "config.h"
#include "db.h"

#include <stdint.h>
#include <string.h>

#include "committed.h"
#include "offer.h"
#include "provider.h"

/* The words db_bind_offer() and db_committed.c write (test_share checks). */
#define AVAILABILITY_WORDS	"unknown available limited unavailable"
#define KIND_WORDS		"reservation savings-plan commitment"
#define UPFRONT_WORDS		"none partial all"
/* db_sort_keys_version(): "4-" and 16 hexadecimal digits. */
#define SORT_KEYS_SIZE		64

#define TEXT(t, c, sz)	{ .table = t, .column = c, .kind = DB_COL_TEXT, \
			  .size = sz }
#define WORD(t, c, w)	{ .table = t, .column = c, .kind = DB_COL_WORD, \
			  .words = w }
#define TIME(t, c, n)	{ .table = t, .column = c, .kind = DB_COL_TIME, \
			  .null_ok = n }
#define INTEGER(t, c, n, lo, hi) { .table = t, .column = c, \
			  .kind = DB_COL_INTEGER, .null_ok = n, .min = lo, \
			  .max = hi }
/* A price per instance-hour as an adapter may store it. */
#define PRICE(t, c)	INTEGER(t, c, true, 1, OFFER_PRICE_MAX)

const struct db_column_limit db_column_limits[] = {
	TEXT("provider_status", "provider", OFFER_PROVIDER_MAX),
	WORD("provider_status", "source", "live snapshot"),
	TIME("provider_status", "last_attempt", true),
	TIME("provider_status", "last_success", true),
	INTEGER("provider_status", "offer_count", false, 0, INT64_MAX),
	{ .table = "provider_status", .column = "last_error",
	  .kind = DB_COL_TEXT, .null_ok = true, .cut = true,
	  .size = DB_ERROR_MAX },
	{ .table = "provider_status", .column = "data_version",
	  .kind = DB_COL_NEVER, .null_ok = true },
	TIME("provider_status", "oldest", true),
	TIME("provider_status", "newest", true),
	{ .table = "provider_status", .column = "sort_keys",
	  .kind = DB_COL_TEXT, .null_ok = true, .size = SORT_KEYS_SIZE },

	TEXT("price_history", "provider", OFFER_PROVIDER_MAX),
	TEXT("price_history", "key", OFFER_KEY_MAX),
	TIME("price_history", "observed_at", false),
	PRICE("price_history", "price"),
	PRICE("price_history", "spot_price"),
	WORD("price_history", "availability", AVAILABILITY_WORDS),

	TEXT("provider_meta", "provider", OFFER_PROVIDER_MAX),
	TEXT("provider_meta", "name", PROVIDER_META_NAME_MAX),
	TEXT("provider_meta", "value", PROVIDER_META_VALUE_MAX),

	TEXT("refresh_log", "provider", OFFER_PROVIDER_MAX),
	TIME("refresh_log", "at", false),

	TEXT("committed", "provider", OFFER_PROVIDER_MAX),
	TEXT("committed", "key", OFFER_KEY_MAX),
	WORD("committed", "kind", KIND_WORDS),
	INTEGER("committed", "months", false, 1, COMMITTED_MONTHS_MAX),
	WORD("committed", "upfront", UPFRONT_WORDS),
	INTEGER("committed", "price_hour", false, 1, OFFER_PRICE_MAX),
	INTEGER("committed", "upfront_usd", false, 0, INT64_MAX),

	TEXT("committed_history", "provider", OFFER_PROVIDER_MAX),
	TEXT("committed_history", "key", OFFER_KEY_MAX),
	WORD("committed_history", "kind", KIND_WORDS),
	INTEGER("committed_history", "months", false, 1,
	    COMMITTED_MONTHS_MAX),
	WORD("committed_history", "upfront", UPFRONT_WORDS),
	TIME("committed_history", "observed_at", false),
	INTEGER("committed_history", "price_hour", false, 1,
	    OFFER_PRICE_MAX),
	INTEGER("committed_history", "upfront_usd", false, 0, INT64_MAX),
};
const size_t db_column_limit_count = sizeof db_column_limits /
    sizeof db_column_limits[0];

const struct db_column_limit *
db_column_limit(const char *table, const char *column)
{
	size_t i;

	for (i = 0; i < db_column_limit_count; i++)
		if (strcmp(db_column_limits[i].table, table) == 0 &&
		    strcmp(db_column_limits[i].column, column) == 0)
			return &db_column_limits[i];
	return NULL;
}
