/*
 * db_rows.c: the row reader below every reader of the offers table: a
 * row of OFFER_COLUMNS into a struct offer (db_row_to_offer(), counted
 * for db_offers_read()) and offers looked up by provider and key
 * (db_offers_get()). It calls no other file of the offers' reads or
 * writes (tests/check_layering.sh).
 */
#include "config.h"
#include "db.h"

#include <sqlite3.h>
#include <string.h>

#include "db_internal.h"
#include "str.h"

/* Offers read whole by this process (db_offers_read()). */
static size_t offers_read;

size_t
db_offers_read(void)
{
	return offers_read;
}

/* Column i's text, "" for NULL: valid until st steps again. */
const char *
row_text(sqlite3_stmt *st, int i)
{
	const unsigned char *t = sqlite3_column_text(st, i);

	return t != NULL ? (const char *)t : "";
}

/*
 * Fill an offer from a row of SELECT OFFER_COLUMNS. Its text is the
 * row's (valid until st steps again: copy it with offer_list_add_copy()
 * to keep it), so a row the caller leaves out costs no copy.
 */
void
db_row_to_offer(sqlite3_stmt *st, struct offer *o)
{
	offers_read++;
	o->provider = row_text(st, 0);
	o->key = row_text(st, 1);
	o->instance_type = row_text(st, 2);
	o->region = row_text(st, 3);
	o->gpu = row_text(st, 4);
	o->gpu_raw = row_text(st, 5);
	o->gpu_count = sqlite3_column_int(st, 6);
	o->vram_gb = sqlite3_column_int(st, 7);
	/* The row's own text, parsed in place: no copy (a million rows
	 * for the TUI's first screen). */
	if (interconnect_parse(row_text(st, 8), &o->interconnect) < 0)
		o->interconnect = IC_UNKNOWN;
	o->vcpus = sqlite3_column_int(st, 9);
	o->ram_gb = sqlite3_column_double(st, 10);
	o->price = db_stmt_money(st, 11);
	o->spot_price = db_stmt_money(st, 12);
	if (availability_parse(row_text(st, 13), &o->availability) < 0)
		o->availability = AV_UNKNOWN;
	o->spot_interruption = sqlite3_column_type(st, 14) == SQLITE_NULL ?
	    -1 : sqlite3_column_int(st, 14);
	o->reliability = sqlite3_column_type(st, 15) == SQLITE_NULL ?
	    -1 : sqlite3_column_double(st, 15);
	o->fetched_at = sqlite3_column_int64(st, 16);
	o->source = strcmp(row_text(st, 17), "live") == 0 ? SRC_LIVE :
	    SRC_SNAPSHOT;
	o->notes = (unsigned)sqlite3_column_int64(st, 18);
	o->spot_zone = row_text(st, 19);
	db_column_text(st, 20, o->currency, sizeof o->currency);
	if (o->currency[0] == '\0')
		str_copy(o->currency, sizeof o->currency, "USD");
	o->price_original = db_stmt_money(st, 21);
	o->nodes = sqlite3_column_int(st, 22);
	if (o->nodes < 1)
		o->nodes = 1;
	o->price_from = db_stmt_money(st, 23);
	offer_set_fabric(o);
	/* An older cache may hold figures no real host has, and spot
	 * prices with no command (db_sort_keys_update() writes them out). */
	offer_host_bounds(o);
	offer_spot_vet(o);
}

int
db_offers_get(struct db *db, const char *const *providers,
    const char *const *keys, size_t n, struct offer_list *out,
    struct err *err)
{
	sqlite3_stmt *st;
	struct offer o;
	size_t from = out->n, i;
	bool began;
	int rc;

	if ((st = db_prepare(db, "SELECT " OFFER_COLUMNS " FROM offers "
	    "WHERE provider = ? AND key = ?", err)) == NULL)
		return -1;
	began = db_read_begin(db);
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
			db_read_end(db, began);
			return -1;
		}
		sqlite3_reset(st);
	}
	sqlite3_finalize(st);
	rc = db_committed_attach(db, out, from, err);
	db_read_end(db, began);
	return rc;
}
