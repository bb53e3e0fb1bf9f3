/*
 * db_offers.c: the offers table. Its one job: write a provider's offers
 * (replace, confirm), with their stored sort keys, and read them back for
 * a filter (filter_sql()) or as the first N in one sort order.
 */
#include "config.h"
#include "db.h"

#include <sqlite3.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cost.h"
#include "db_internal.h"
#include "err.h"
#include "fabric.h"
#include "filter.h"
#include "gcp_catalog.h"
#include "gpu.h"
#include "money.h"
#include "notes.h"
#include "provider.h"
#include "region.h"
#include "rentable.h"
#include "str.h"
#include "xalloc.h"

/*
 * Stored sort keys of an unknown value: larger than any known one, so an
 * ascending walk of an index meets the unknowns last (plan_sort()'s
 * rule) without a separate pass (money's: SK_UNKNOWN_MONEY, db_internal.h).
 */
#define SK_UNKNOWN_REAL		1e308
#define SK_UNKNOWN_REAL_SQL	"1e308"

/*
 * An offer's stored sort keys: its plan of one instance, as
 * plan_sort()'s; and what its filters test that is no SQL expression on
 * its columns (migration 13), from the functions offer_matches() calls.
 */
struct sort_keys {
	int64_t	gpu_price;
	int64_t	spot_gpu;
	double	pflop;
	const char *continent;	/* static: region.c's tables */
	const char *country;
	int	form;		/* enum gpu_form */
	int	vertex;		/* 1: Vertex AI trains on it */
	int	fabric;		/* enum fabric_kind (migration 16) */
	int	node_gbps;	/* 0 unknown */
	int	fabric_nodes;	/* most nodes of a plan: 0 any, 1 none */
	size_t	search_len;
	char	search[OFFER_SEARCH_MAX];	/* offer_search_text() */
};

static void
offer_sort_keys(const char *provider, const struct offer *o,
    struct sort_keys *k)
{
	const struct fabric *fab;
	struct plan p;

	/*
	 * The provider the row is written under (db_row_to_offer() looks
	 * the fabric up by the row's): assembled_ok()'s placement rule as
	 * a number of nodes.
	 */
	fab = fabric_find(provider, o->instance_type);
	k->fabric = fab != NULL ? (int)fab->kind : FABRIC_UNKNOWN;
	k->node_gbps = fab != NULL ? fab->node_gbps : 0;
	k->fabric_nodes = fab == NULL ? 0 : fab->placement == PLACE_NONE ? 1 :
	    fab->max_nodes > 0 ? fab->max_nodes : 0;
	region_locate(o->provider, o->region, &k->country, &k->continent);
	k->form = (int)offer_form(o);
	k->vertex = gcp_vertex_training(gcp_gpu_find(o->provider,
	    o->instance_type, o->gpu), o->region) == VERTEX_YES;
	k->search_len = offer_search_text(o, k->search, sizeof k->search);

	cost_plan(&p, o, 1);
	k->gpu_price = money_known(p.price_gpu_hour) ? p.price_gpu_hour :
	    SK_UNKNOWN_MONEY;
	k->spot_gpu = money_known(p.spot_gpu_hour) ? p.spot_gpu_hour :
	    SK_UNKNOWN_MONEY;
	k->pflop = p.usd_per_pflop_hour < SK_UNKNOWN_REAL ?
	    p.usd_per_pflop_hour : SK_UNKNOWN_REAL;
}

/* FNV-1a of len bytes of p into *h. */
static void
fnv(uint64_t *h, const char *p, size_t len)
{
	*h = str_fnv1a(*h, p, len);
}

static void
fnv_text(uint64_t *h, const char *s)
{
	fnv(h, s != NULL ? s : "", (s != NULL ? strlen(s) : 0) + 1);
}

static void
fnv_int(uint64_t *h, int64_t v)
{
	fnv(h, (const char *)&v, sizeof v);
}

static void
fnv_real(uint64_t *h, double v)
{
	fnv(h, (const char *)&v, sizeof v);
}

/*
 * What the stored sort keys and derived filter values were computed
 * with: the formula's version, the catalogue's BF16 figures ($/PFLOP-h
 * depends on them) and forms, the region tables, where Vertex AI
 * trains and the fabric table (what of it the stored fabric holds). A provider whose status row names another version has them
 * recomputed before a query relies on them (db_sort_keys_update()).
 */
const char *
db_sort_keys_version(void)
{
	static char version[32];
	uint64_t h = 1469598103934665603ULL;	/* FNV-1a */
	const struct region_place *pl;
	const struct fabric *fab;
	const char *p;
	size_t i, len;

	/*
	 * Each field whole, text with its NUL and numbers as their bytes:
	 * no printf (it was 1.3 million instructions of every query, 15 %
	 * of a `history`), and no buffer to cut a long field.
	 */
	if (version[0] != '\0')
		return version;
	for (i = 0; i < gpu_model_count; i++) {
		fnv_text(&h, gpu_models[i].id);
		fnv_real(&h, gpu_models[i].bf16_tflops);
		fnv_real(&h, gpu_models[i].bf16_tflops_pcie);
		fnv_text(&h, gpu_models[i].form);
		fnv_text(&h, gpu_models[i].vendor);
	}
	for (i = 0; i < region_place_count; i++) {
		pl = &region_places[i];
		fnv_text(&h, pl->provider);
		fnv_text(&h, pl->region);
		fnv_text(&h, pl->country);
		fnv_text(&h, pl->continent);
	}
	for (i = 0; i < region_country_count; i++) {
		fnv_text(&h, region_countries[i].code);
		fnv_text(&h, region_countries[i].continent);
		fnv_text(&h, region_countries[i].names);
	}
	p = gcp_vertex_table(&len);
	fnv(&h, p, len);
	for (i = 0; i < fabric_row_count; i++) {
		fab = &fabric_rows[i];
		fnv_text(&h, fab->provider);
		fnv_text(&h, fab->pattern);
		fnv_int(&h, (int64_t)fab->kind);
		fnv_int(&h, fab->node_gbps);
		fnv_int(&h, (int64_t)fab->placement);
		fnv_int(&h, fab->max_nodes);
	}
	snprintf(version, sizeof version, "4-%016llx", (unsigned long long)h);
	return version;
}

/*
 * The row_hash of offer o of provider: every value db_bind_offer()
 * writes from it but fetched_at (a refresh moves every offer's; a
 * write sets it apart, replace_offers()), and the sort-keys version, of
 * which every other column is a function (a new version changes every
 * hash: each row is written again with its values derived anew). Text
 * with its NUL, so that fields cannot run into each other.
 */
int64_t
db_offer_row_hash(const char *provider, const struct offer *o)
{
	uint64_t h = 1469598103934665603ULL;	/* FNV-1a */

	fnv_text(&h, db_sort_keys_version());
	fnv_text(&h, provider);
	fnv_text(&h, o->key);
	fnv_text(&h, o->instance_type);
	fnv_text(&h, o->region);
	fnv_text(&h, o->gpu);
	fnv_text(&h, o->gpu_raw);
	fnv_int(&h, o->gpu_count);
	fnv_int(&h, o->vram_gb);
	fnv_int(&h, (int64_t)o->interconnect);
	fnv_int(&h, o->vcpus);
	fnv_real(&h, o->ram_gb);
	fnv_int(&h, money_known(o->price) ? o->price : MONEY_NONE);
	fnv_int(&h, money_known(o->spot_price) ? o->spot_price : MONEY_NONE);
	fnv_int(&h, (int64_t)o->availability);
	fnv_int(&h, o->spot_interruption >= 0 ? o->spot_interruption : -1);
	fnv_real(&h, o->reliability >= 0 ? o->reliability : -1.0);
	fnv_int(&h, (int64_t)o->source);
	fnv_int(&h, (int64_t)o->notes);
	fnv_text(&h, o->spot_zone);
	fnv_text(&h, o->currency);
	fnv_int(&h, money_known(o->price_original) ? o->price_original :
	    MONEY_NONE);
	fnv_int(&h, o->nodes > 1 ? o->nodes : 1);
	return (int64_t)h;
}

/*
 * Bind one offer to the 35 placeholders of a WRITE_COLUMNS insert. A
 * value added here from the offer is added to db_offer_row_hash() too.
 */
void
db_bind_offer(sqlite3_stmt *st, const char *provider, const struct offer *o)
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
	db_bind_money(st, 12, o->price);
	db_bind_money(st, 13, o->spot_price);
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
	db_bind_money(st, 22, o->price_original);
	sqlite3_bind_int(st, 23, o->nodes > 1 ? o->nodes : 1);
	offer_sort_keys(provider, o, &k);
	sqlite3_bind_int64(st, 24, k.gpu_price);
	sqlite3_bind_int64(st, 25, k.spot_gpu);
	sqlite3_bind_double(st, 26, k.pflop);
	sqlite3_bind_text(st, 27, k.continent, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 28, k.country, -1, SQLITE_STATIC);
	sqlite3_bind_int(st, 29, k.form);
	sqlite3_bind_int(st, 30, k.vertex);
	sqlite3_bind_blob(st, 31, k.search, (int)k.search_len,
	    SQLITE_TRANSIENT);
	sqlite3_bind_int(st, 32, k.fabric);
	sqlite3_bind_int(st, 33, k.node_gbps);
	sqlite3_bind_int(st, 34, k.fabric_nodes);
	sqlite3_bind_int64(st, 35, db_offer_row_hash(provider, o));
}

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
static const char *row_text(sqlite3_stmt *, int);
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
	if (db_groups_store(db, err) < 0)
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

/* Offers read whole by this process (db_offers_read()). */
static size_t offers_read;

size_t
db_offers_read(void)
{
	return offers_read;
}

/* Column i's text, "" for NULL: valid until st steps again. */
static const char *
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
	offer_set_fabric(o);
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
static void	filter_functions(struct db *);

int
rentable_prepare(struct db *db, const struct offer_filter *f,
    struct rentable_sql *rq, struct err *err)
{
	sqlite3_stmt *st;
	const char *m;
	int64_t oldest, newest;
	size_t i;
	int rc;

	memset(rq, 0, sizeof *rq);
	filter_functions(db);
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

/*
 * Is retired_table[i] the first of its provider's rows? The retired
 * sizes are tested per provider: one comparison of the provider for
 * every other offer, not one per size (0.8k instructions a row of
 * every walk, with Azure's four sizes).
 */
static bool
retired_first(size_t i)
{
	size_t j;

	for (j = 0; j < i; j++)
		if (strcmp(retired_table[j].provider,
		    retired_table[i].provider) == 0)
			return false;
	return true;
}

/* Is the whole of retired_table[i]'s provider retired? */
static bool
retired_whole(size_t i)
{
	return retired_provider(retired_table[i].provider) != NULL;
}

static void
rentable_sql(const struct rentable_sql *rq, char *sql, size_t size)
{
	size_t i, j;
	bool first;

	for (i = 0; i < retired_count; i++) {
		if (!retired_first(i))
			continue;
		if (retired_whole(i)) {
			strncat(sql, " AND provider IS NOT ?",
			    size - strlen(sql) - 1);
			continue;
		}
		strncat(sql, " AND NOT (provider = ? AND (",
		    size - strlen(sql) - 1);
		for (j = i, first = true; j < retired_count; j++) {
			if (strcmp(retired_table[j].provider,
			    retired_table[i].provider) != 0)
				continue;
			strncat(sql, first ? "substr(key, 1, ?) = ? COLLATE "
			    "NOCASE" : " OR substr(key, 1, ?) = ? COLLATE "
			    "NOCASE", size - strlen(sql) - 1);
			first = false;
		}
		strncat(sql, "))", size - strlen(sql) - 1);
	}
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

	size_t j;

	/* As rentable_sql() asks: the provider, then each size of it. */
	for (i = 0; i < retired_count; i++) {
		if (!retired_first(i))
			continue;
		r = &retired_table[i];
		sqlite3_bind_text(st, (*k)++, r->provider, -1, SQLITE_STATIC);
		if (retired_whole(i))
			continue;
		for (j = i; j < retired_count; j++) {
			r = &retired_table[j];
			if (strcmp(r->provider, retired_table[i].provider) != 0)
				continue;
			snprintf(prefix, sizeof prefix, "%s/",
			    r->instance_type);
			sqlite3_bind_int(st, (*k)++, (int)strlen(prefix));
			sqlite3_bind_text(st, (*k)++, prefix, -1,
			    SQLITE_TRANSIENT);
		}
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

/*
 * The filters tested on the values stored at write time (migration 13)
 * or on an expression of the columns, each exactly as offer_matches()
 * tests it (it tests every row read again): --region (a continent or a
 * country on the stored codes; a region name or glob through
 * gpucost_region(), region.c's own test; "all" matches any), the form,
 * --vertex, host per GPU (offer_vcpus_per_gpu()/offer_ram_gb_per_gpu()
 * after the read's host bounds), --match (offer_text_word()'s words
 * in the stored folded names, or a form word of the offer's form), and
 * --fabric and --min-node-gbps on the stored fabric (migration 16;
 * "any" tests nothing: fabric_set_has()).
 */
#define ANY_REGION_SQL	"region = 'all' COLLATE NOCASE"
/*
 * The cache's region names that a name or glob (?, ?: its kind and
 * text) matches, "all" included, each name tested once
 * (DB_REGION_NAMES_CTE). As a list, "region IN" seeks each name's
 * offers in an index (offers_region_gpu with --gpu) where a test of
 * every row could not.
 */
#define REGIONS_MATCHING_SQL						\
	"(" DB_REGION_NAMES_CTE " SELECT n FROM names WHERE "		\
	"n IS NOT NULL AND (n = 'all' COLLATE NOCASE OR "		\
	"gpucost_region(?, ?, n)))"

/* How many kinds a --fabric set names; 0 for "any" (no test) and unset. */
static size_t
fabric_kinds(unsigned set)
{
	size_t n = 0;
	int kind;

	if ((set & FABRIC_ANY) != 0)
		return 0;
	for (kind = 1; kind < FABRIC_KIND_COUNT; kind++)
		if (set & FABRIC_BIT(kind))
			n++;
	return n;
}

static void
derived_sql(const struct offer_filter *f, const struct rentable_sql *rq,
    char *sql, size_t size)
{
	struct region_query q;
	char word[OFFER_NAME_MAX];
	const char *p;
	size_t n;

	if (rq->stale_derived)
		return;
	if (f->region[0] != '\0') {
		if (region_query_parse(f->region, &q) < 0)
			strncat(sql, " AND 0", size - strlen(sql) - 1);
		else if (q.kind == RQ_CONTINENT)
			strncat(sql, " AND (continent = ? OR " ANY_REGION_SQL ")",
			    size - strlen(sql) - 1);
		else if (q.kind == RQ_COUNTRY)
			strncat(sql, " AND (country = ? OR " ANY_REGION_SQL ")",
			    size - strlen(sql) - 1);
		else if (q.kind != RQ_ANY)
			strncat(sql, " AND region IN " REGIONS_MATCHING_SQL,
			    size - strlen(sql) - 1);
	}
	if (f->form != GPU_FORM_ANY)
		strncat(sql, " AND form = ?", size - strlen(sql) - 1);
	if (f->vertex)
		strncat(sql, " AND vertex = 1", size - strlen(sql) - 1);
	if (fabric_kinds(f->fabrics) > 0)
		sql_in(sql, size, "fabric", fabric_kinds(f->fabrics));
	else if (f->fabrics != 0 && (f->fabrics & FABRIC_ANY) == 0)
		strncat(sql, " AND 0", size - strlen(sql) - 1);
	if (f->min_node_gbps > 0)
		strncat(sql, " AND node_gbps >= ?", size - strlen(sql) - 1);
	if (f->min_vcpus_per_gpu > 0)
		strncat(sql, " AND vcpus > 0 AND gpu_count > 0 AND "
		    "vcpus <= ? * gpu_count AND "
		    "CAST(vcpus AS REAL) / gpu_count >= ?",
		    size - strlen(sql) - 1);
	if (f->min_ram_gb_per_gpu > 0)
		strncat(sql, " AND ram_gb > 0 AND gpu_count > 0 AND "
		    "ram_gb <= ? * gpu_count AND ram_gb / gpu_count >= ?",
		    size - strlen(sql) - 1);
	for (p = f->text; (p = offer_text_word(p, word, sizeof word, &n)) !=
	    NULL;)
		strncat(sql, offer_form_word(word) != GPU_FORM_ANY ?
		    " AND (instr(search, ?) > 0 OR form = ?)" :
		    " AND instr(search, ?) > 0", size - strlen(sql) - 1);
}

static void
derived_bind(sqlite3_stmt *st, const struct offer_filter *f,
    const struct rentable_sql *rq, int *k)
{
	struct region_query q;
	char word[OFFER_NAME_MAX];
	const char *p;
	enum gpu_form form;
	size_t n;
	int kind;

	if (rq->stale_derived)
		return;
	if (f->region[0] != '\0' && region_query_parse(f->region, &q) == 0) {
		if (q.kind == RQ_CONTINENT || q.kind == RQ_COUNTRY)
			sqlite3_bind_text(st, (*k)++, q.code, -1,
			    SQLITE_TRANSIENT);
		else if (q.kind != RQ_ANY) {
			sqlite3_bind_int(st, (*k)++, (int)q.kind);
			sqlite3_bind_text(st, (*k)++, f->region, -1,
			    SQLITE_STATIC);
		}
	}
	if (f->form != GPU_FORM_ANY)
		sqlite3_bind_int(st, (*k)++, (int)f->form);
	if (fabric_kinds(f->fabrics) > 0)
		for (kind = 1; kind < FABRIC_KIND_COUNT; kind++)
			if (f->fabrics & FABRIC_BIT(kind))
				sqlite3_bind_int(st, (*k)++, kind);
	if (f->min_node_gbps > 0)
		sqlite3_bind_int(st, (*k)++, f->min_node_gbps);
	if (f->min_vcpus_per_gpu > 0) {
		sqlite3_bind_double(st, (*k)++,
		    (double)RENTABLE_VCPUS_PER_GPU_MAX);
		sqlite3_bind_int(st, (*k)++, f->min_vcpus_per_gpu);
	}
	if (f->min_ram_gb_per_gpu > 0) {
		sqlite3_bind_double(st, (*k)++,
		    (double)RENTABLE_RAM_GB_PER_GPU_MAX);
		sqlite3_bind_int(st, (*k)++, f->min_ram_gb_per_gpu);
	}
	for (p = f->text; (p = offer_text_word(p, word, sizeof word, &n)) !=
	    NULL;) {
		sqlite3_bind_blob(st, (*k)++, word, (int)n, SQLITE_TRANSIENT);
		if ((form = offer_form_word(word)) != GPU_FORM_ANY)
			sqlite3_bind_int(st, (*k)++, (int)form);
	}
}

/* gpucost_region(kind, text, region): region_text_match() for SQL. */
static void
sql_region(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	const unsigned char *text, *region;

	(void)argc;
	text = sqlite3_value_text(argv[1]);
	region = sqlite3_value_text(argv[2]);
	sqlite3_result_int(ctx, text != NULL && region != NULL &&
	    region_text_match((enum region_query_kind)sqlite3_value_int(
	    argv[0]), (const char *)text, (const char *)region));
}

/*
 * The functions filter_sql() calls, on the connection (once per query:
 * cheap). Direct only: never from a view or trigger of a copy.
 */
static void
filter_functions(struct db *db)
{
	int flags = SQLITE_UTF8 | SQLITE_DETERMINISTIC;

#ifdef SQLITE_DIRECTONLY
	flags |= SQLITE_DIRECTONLY;
#endif
	sqlite3_create_function(db->sql, "gpucost_region", 3, flags, NULL,
	    sql_region, NULL, NULL);
}

/* Append to sql (size bytes) the conditions of f that SQL tests. */
void
filter_sql(const struct offer_filter *f, const struct rentable_sql *rq,
    char *sql, size_t size)
{
	if (f->ngpus > 0)
		sql_in(sql, size, "gpu", f->ngpus);
	if (f->count > 0)
		strncat(sql, f->multi_node || f->nodes > 0 ?
		    " AND gpu_count <= ?" : " AND gpu_count = ?",
		    size - strlen(sql) - 1);
	/* Cluster products only where plans of several nodes are asked. */
	if (!f->multi_node && f->nodes <= 1)
		strncat(sql, " AND nodes = 1", size - strlen(sql) - 1);
	if (f->min_vram_gb > 0)
		strncat(sql, " AND vram_gb >= ?", size - strlen(sql) - 1);
	if (f->interconnect != IC_UNKNOWN)
		strncat(sql, " AND interconnect = ?", size - strlen(sql) - 1);
	if (f->nproviders > 0)
		sql_in(sql, size, "provider", f->nproviders);
	if (f->available)
		/* Unary +: no index walk by it (offers_availability is the
		 * --sort walk's). Most offers are available, so the walk of
		 * the other filters' index is the short one (--available
		 * --count 4 walked every available offer for 4-GPU ones). */
		strncat(sql, " AND +availability = 'available'",
		    size - strlen(sql) - 1);
	if (f->spot)
		strncat(sql, " AND spot_price IS NOT NULL",
		    size - strlen(sql) - 1);
	if (f->no_outliers)
		strncat(sql, " AND (notes & ?) = 0", size - strlen(sql) - 1);
	derived_sql(f, rq, sql, size);
	rentable_sql(rq, sql, size);
}

/*
 * The filter fields filter_sql() tests whole, with the maximum price
 * (db_query_top() tests it on the stored per-GPU price). Keep it with
 * filter_sql(): a field missing here only costs the --limit shortcut.
 */
static const enum filter_field sql_fields[] = {
	FF_GPU, FF_COUNT, FF_VRAM, FF_LINK, FF_PROVIDERS, FF_MAX_PRICE,
	FF_SPOT, FF_AVAILABLE, FF_NO_OUTLIERS, FF_INCLUDE_STALE,
	/* derived_sql()'s (the form comes with FF_GPU) */
	FF_REGION, FF_VCPUS_GPU, FF_RAM_GPU, FF_VERTEX, FF_TEXT, FF_FABRIC,
	FF_NODE_GBPS
};

/* Does SQL test every filter field set in f (--term aside)? */
static bool
fields_in_sql(const struct offer_filter *f)
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
	return true;
}

bool
db_filter_in_sql(const struct offer_filter *f)
{
	/* --term is tested on the committed prices attached after the
	 * read, or by db_term_in_sql()'s join. */
	return fields_in_sql(f) && f->term == TERM_NONE;
}

/* Bind f's values to the placeholders of filter_sql(), from number *k. */
void
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
	derived_bind(st, f, rq, k);
	rentable_bind(st, rq, k);
}


/* Does f test a value stored at write time (derived_sql())? */
static bool
uses_derived(const struct offer_filter *f)
{
	return f->region[0] != '\0' || f->form != GPU_FORM_ANY ||
	    f->vertex || f->min_vcpus_per_gpu > 0 ||
	    f->min_ram_gb_per_gpu > 0 || f->text[0] != '\0' ||
	    (f->fabrics != 0 && (f->fabrics & FABRIC_ANY) == 0) ||
	    f->min_node_gbps > 0;
}

/*
 * Before a full read tests the stored values: bring them up to date
 * (db_sort_keys_update()), or, on a cache this process may not write,
 * leave those filters to C (rq->stale_derived) if they are not.
 */
static int
derived_ready(struct db *db, const struct offer_filter *f,
    struct rentable_sql *rq, struct err *err)
{
	bool ready;

	if (!uses_derived(f))
		return 0;
	if (db_sort_keys_ready(db, &ready, err) < 0)
		return -1;
	rq->stale_derived = !ready;
	return 0;
}

/*
 * Append the offers of a prepared OFFER_COLUMNS query that match f,
 * then reset it; *rows (if not NULL) counts the rows SQL returned.
 */
static int
read_rows(struct db *db, sqlite3_stmt *st, const struct offer_filter *f,
    struct offer_list *out, size_t *rows, struct err *err)
{
	struct offer o;
	int rc;

	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		offer_init(&o);
		db_row_to_offer(st, &o);
		if (rows != NULL)
			(*rows)++;
		if (offer_matches(f, &o, NULL))
			offer_list_add_copy(out, &o);
	}
	sqlite3_reset(st);
	if (rc != SQLITE_DONE) {
		db_file_error(db, err);
		return -1;
	}
	return 0;
}

/* Append the offers of a prepared OFFER_COLUMNS query that match f. */
static int
read_offers(struct db *db, sqlite3_stmt *st, const struct offer_filter *f,
    struct offer_list *out, struct err *err)
{
	size_t from = out->n;
	int rc = read_rows(db, st, f, out, NULL, err);

	sqlite3_finalize(st);
	if (rc < 0)
		return -1;
	return db_committed_attach(db, out, from, err);
}

int
db_query(struct db *db, const struct offer_filter *f, struct offer_list *out,
    struct err *err)
{
	char sql[8192] = "SELECT " OFFER_COLUMNS " FROM offers WHERE 1";
	struct rentable_sql rq;
	sqlite3_stmt *st;
	int k = 1;

	if (rentable_prepare(db, f, &rq, err) < 0 ||
	    derived_ready(db, f, &rq, err) < 0)
		return -1;
	filter_sql(f, &rq, sql, sizeof sql);
	if ((st = db_prepare(db, sql, err)) == NULL)
		return -1;
	filter_bind(st, f, &rq, &k);
	return read_offers(db, st, f, out, err);
}

int
db_query_every(struct db *db, const struct offer_filter *f,
    struct offer_list *out, size_t *matched, struct err *err)
{
	size_t from = out->n;

	if (db_query(db, f, out, err) < 0)
		return -1;
	if (matched != NULL)
		*matched = out->n - from;
	return 0;
}

/*
 * db_query() for a caller that reads (nearly) every offer: the TUI's
 * load. The planner takes an index for "nodes = 1" and then seeks the
 * table once per row; stepping through the table itself in key order
 * is a third cheaper at 100k offers and more at 1M (a profile:
 * sqlite3BtreeIndexMoveto was a quarter of the TUI's load). Same
 * conditions, same rows; only their order may differ.
 */
int
db_query_scan(struct db *db, const struct offer_filter *f,
    struct offer_list *out, struct err *err)
{
	static const char nodes[] = " AND nodes = 1";
	char sql[2048] = "SELECT " OFFER_COLUMNS " FROM offers WHERE 1";
	struct rentable_sql rq;
	sqlite3_stmt *st;
	char *at;
	int k = 1;

	if (rentable_prepare(db, f, &rq, err) < 0)
		return -1;
	filter_sql(f, &rq, sql, sizeof sql);
	/*
	 * SQLite 3.40 still walks an index on "nodes = ?" under NOT
	 * INDEXED (a WITHOUT ROWID table); a unary + makes the term
	 * unusable for an index, so the table is scanned.
	 */
	if ((at = strstr(sql, nodes)) != NULL && strlen(sql) + 2 < sizeof sql) {
		memmove(at + 6, at + 5, strlen(at + 5) + 1);
		at[5] = '+';
	}
	/*
	 * Even so, with the statistics of ANALYZE's sample the planner of
	 * 3.40 "scans" a smaller index (offers_provider_price) and seeks
	 * the table for every row: sqlite3BtreeIndexMoveto was 55 % of the
	 * TUI's load at 100k (perf, issue 29). The table's own order, its
	 * primary key, is a plain walk of the table with no sort.
	 */
	strncat(sql, " ORDER BY provider, key", sizeof sql - strlen(sql) - 1);
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
 * a known value (NULL: always known); unknown is NOT coalesce(known, 0)
 * written as a range of the key's index, so the unknowns are a seek,
 * not a walk of the price index that looks every row up (NULL: that
 * expression is used). last marks the stored sort keys whose unknowns
 * already sort after every known value ascending, which lets an
 * ascending walk of their index take both at once. walk marks the keys
 * whose values repeat (top_walk(), which needs unknown when known is
 * set): an index (key, nodes, sk_gpu_price)
 * serves both directions
 * value by value, where one ORDER BY in the reverse direction would sort
 * every offer of the first value.
 */
struct sort_sql {
	const char *known;
	const char *unknown;
	const char *expr;
	bool	desc;
	bool	last;
	bool	walk;
};

static const struct sort_sql sort_sql[SORT_KEY_COUNT] = {
	[SORT_GPU_PRICE] = { "sk_gpu_price < " SK_UNKNOWN_MONEY_SQL,
	    "sk_gpu_price >= " SK_UNKNOWN_MONEY_SQL, "sk_gpu_price", false,
	    true, false },
	/* offers_price (migration 17, as the others) */
	[SORT_PRICE] = { "price IS NOT NULL", "price IS NULL", "price", false,
	    false, false },
	/* offers_spot */
	[SORT_SPOT] = { "spot_price IS NOT NULL", "spot_price IS NULL",
	    "spot_price", false, false, false },
	[SORT_SPOT_GPU] = { "sk_spot_gpu < " SK_UNKNOWN_MONEY_SQL,
	    "sk_spot_gpu >= " SK_UNKNOWN_MONEY_SQL, "sk_spot_gpu", false, true,
	    false },
	/* cost_spot_savings_pct(), the same double operations. */
	[SORT_SAVINGS] = { "price > 0 AND spot_price IS NOT NULL", NULL,
	    "100.0 * (1.0 - CAST(spot_price AS REAL) / CAST(price AS REAL))",
	    true, false, false },
	/* offers_vram (migration 17) */
	[SORT_VRAM] = { "vram_gb > 0", "vram_gb <= 0", "vram_gb", true, false,
	    true },
	[SORT_PFLOP] = { "sk_pflop < " SK_UNKNOWN_REAL_SQL,
	    "sk_pflop >= " SK_UNKNOWN_REAL_SQL, "sk_pflop", false, true,
	    false },
	/* offers_provider_price */
	[SORT_PROVIDER] = { "provider <> ''", "provider = ''", "provider",
	    false, false, true },
	/* offers_instance */
	[SORT_INSTANCE] = { "instance_type <> ''", "instance_type = ''",
	    "instance_type", false, false, false },
	/* offers_region */
	[SORT_REGION] = { "region <> ''", "region = ''", "region", false,
	    false, true },
	/*
	 * Unknown GPUs among themselves by raw name. No walk: an index
	 * (gpu, nodes, sk_gpu_price) turned the planner off offers_vertex
	 * for --vertex --gpu; offers_gpu has gpu_count between.
	 */
	[SORT_GPU] = { "gpu <> ''", "gpu = ''", "gpu", false, false, false },
	/* offers_count */
	[SORT_COUNT] = { NULL, NULL, "gpu_count", true, false, true },
	/* The stored names sort as plan_sort() ranks them (offers_link,
	 * offers_availability). */
	[SORT_INTERCONNECT] = { "interconnect <> 'unknown'",
	    "interconnect = 'unknown'", "interconnect", false, false, true },
	[SORT_AVAILABILITY] = { "availability <> 'unknown'",
	    "availability = 'unknown'", "availability", false, false, true },
	/* Value by value along each provider's index: top_age(). */
	[SORT_AGE] = { NULL, NULL, "fetched_at", true, false, false },
};

/*
 * --term's price, from offer_terms (joined to offers in a top query with
 * --term): every row there has a committed price of the term, its
 * per-GPU price INT64_MAX (last) when unknown.
 */
static const struct sort_sql term_sort_sql = {
	.known = "t_gpu_price < " SK_UNKNOWN_MONEY_SQL,
	.unknown = "t_gpu_price >= " SK_UNKNOWN_MONEY_SQL,
	.expr = "t_gpu_price", .desc = false, .last = true
};
/* With --term, the per-GPU price as offer_terms keeps it (its index). */
static const struct sort_sql term_gpu_price_sql = {
	.known = "t_sk_gpu_price < " SK_UNKNOWN_MONEY_SQL,
	.unknown = "t_sk_gpu_price >= " SK_UNKNOWN_MONEY_SQL,
	.expr = "t_sk_gpu_price", .desc = false, .last = true
};

bool
db_sort_in_sql(enum sort_key key)
{
	return (unsigned)key < SORT_KEY_COUNT && sort_sql[key].expr != NULL;
}

bool
db_term_in_sql(const struct offer_filter *f, enum sort_key key)
{
	return f->term != TERM_NONE && fields_in_sql(f) &&
	    (key == SORT_TERM_GPU || db_sort_in_sql(key));
}

/*
 * What a top query reads: the offers; with --term, the offers that
 * have a committed price of the term (offer_terms' rows of it, the
 * first condition of top_where()), each with its best per GPU-hour.
 */
static const char *
top_from(const struct offer_filter *f)
{
	return f->term == TERM_NONE ? "offers" : "offer_terms JOIN offers "
	    "ON provider = t_provider AND key = t_key";
}

/*
 * plan_sort()'s ties after the key: lower price per GPU-hour, provider,
 * key; with --term, offer_terms' copies of them (the same values: the
 * join's), which its indexes hold after the term's price.
 */
static const char *
tiebreak(const struct offer_filter *f, enum sort_key key)
{
	if (f->term != TERM_NONE && (key == SORT_GPU_PRICE ||
	    key == SORT_TERM_GPU))
		return key == SORT_GPU_PRICE ? "t_provider, t_key" :
		    "t_sk_gpu_price, t_provider, t_key";
	return key == SORT_GPU_PRICE ? "provider, key" :
	    "sk_gpu_price, provider, key";
}

/* The condition of an unknown value of s (not known). */
static const char *
unknown_sql(const struct sort_sql *s, char *buf, size_t size)
{
	if (s->unknown != NULL)
		return s->unknown;
	/* known may be NULL (a NULL price): that row is unknown. */
	snprintf(buf, size, "NOT coalesce(%s, 0)", s->known);
	return buf;
}

/* Unknown GPUs among themselves by raw name, before tiebreak(). */
static const char *
gpu_raw_order(enum sort_key key, bool reverse)
{
	return key != SORT_GPU ? "" : reverse ?
	    "gpu_raw = '', gpu_raw DESC, gpu_count DESC, " :
	    "gpu_raw = '', gpu_raw, gpu_count, ";
}

/*
 * After --sort gpu's names, the count as a number (1x, 2x ... 10x, as
 * plan_sort() ranks it; issue 45), in the names' direction.
 */
static const char *
gpu_count_order(enum sort_key key, bool desc)
{
	return key != SORT_GPU ? "" : desc ? ", gpu_count DESC" :
	    ", gpu_count";
}

/*
 * The WHERE conditions of a top query: the term (top_from()),
 * filter_sql() and the maximum price, which on one instance is a test
 * of the stored per-GPU key plan_matches_price() compares: spot, else
 * the term's, else on-demand.
 */
static void
top_where(const struct offer_filter *f, const struct rentable_sql *rq,
    char *where, size_t size)
{
	if (f->term != TERM_NONE)
		strncat(where, " AND t_months = ?", size - strlen(where) - 1);
	/* The offer's own GPU, kept beside its term price: an index seek. */
	if (f->term != TERM_NONE && f->ngpus > 0)
		sql_in(where, size, "t_gpu", f->ngpus);
	filter_sql(f, rq, where, size);
	if (money_known(f->max_price_gpu_hour))
		strncat(where, f->spot ? " AND sk_spot_gpu <= ?" :
		    f->term != TERM_NONE ? " AND t_gpu_price <= ?" :
		    " AND sk_gpu_price <= ?", size - strlen(where) - 1);
}

static void
top_bind(sqlite3_stmt *st, const struct offer_filter *f,
    const struct rentable_sql *rq, int *k)
{
	size_t i;

	if (f->term != TERM_NONE)
		sqlite3_bind_int(st, (*k)++, f->term);
	for (i = 0; f->term != TERM_NONE && i < f->ngpus; i++)
		sqlite3_bind_text(st, (*k)++, f->gpus[i]->id, -1,
		    SQLITE_STATIC);
	filter_bind(st, f, rq, k);
	if (money_known(f->max_price_gpu_hour))
		sqlite3_bind_int64(st, (*k)++, f->max_price_gpu_hour);
}

/*
 * A region name or glob with --gpu, in $/GPU-h order: each matching
 * region's offers of the GPUs, cheapest first (offers_region_gpu), all
 * of them sorted. The planner took the walk of the price index, which
 * passes every cheaper offer of another region: at 1M offers,
 * --region 'us-*' --gpu H100 read most of the 210,000 H100s (92x the
 * floor) for 20 among 1,600. The seek reads at most every offer of
 * those GPUs in those regions.
 */
static bool
region_gpu_seek(const struct offer_filter *f, const struct rentable_sql *rq,
    enum sort_key key)
{
	struct region_query q;

	return f->region[0] != '\0' && f->ngpus > 0 && !rq->stale_derived &&
	    f->term == TERM_NONE && key == SORT_GPU_PRICE &&
	    region_query_parse(f->region, &q) == 0 &&
	    (q.kind == RQ_NAME || q.kind == RQ_GLOB);
}

/*
 * The queries db_query_top() runs, part by part: the keys of the first
 * `limit` offers with a known value, in order (one walk of the right
 * index), then those rows whole; and (part 1) the same of the first
 * `limit` with an unknown one. Returns how many parts key has (each
 * takes the filter and the limit). Two statements, not one IN of a
 * UNION ALL: the planner cannot size a compound list, and scanned the
 * table to test each row against it. With cols, the walk itself,
 * selecting cols (db_query_top_taking()).
 */
static int
top_sql(const struct offer_filter *f, const struct rentable_sql *rq,
    enum sort_key key, bool reverse, int part, const char *cols, char *sql,
    size_t size)
{
	const struct sort_sql *s = f->term == TERM_NONE ? &sort_sql[key] :
	    key == SORT_TERM_GPU ? &term_sort_sql :
	    key == SORT_GPU_PRICE ? &term_gpu_price_sql : &sort_sql[key];
	const char *from = top_from(f);
	char where[6144] = "", unknown[256];
	bool desc = s->desc != reverse;
	/*
	 * --vertex in $/GPU-h order walks the Vertex AI offers' partial
	 * index (a few hundred in a big cache), in that order: the
	 * planner took the covering walk of every offer, which reads the
	 * whole index when few Vertex offers pass the rest of the filter
	 * (--gpu H100: 11x the floor at 100k offers). With --gpu, the
	 * GPU's own (offers_vertex_gpu): one seek a GPU, sorted when
	 * there are several.
	 */
	bool vertex = f->vertex && !rq->stale_derived &&
	    f->term == TERM_NONE && key == SORT_GPU_PRICE;
	const char *index = vertex ? (f->ngpus > 0 ?
	    " INDEXED BY offers_vertex_gpu" : " INDEXED BY offers_vertex") :
	    region_gpu_seek(f, rq, key) ? " INDEXED BY offers_region_gpu" : "";

	/* The rows whole: the walk's keys, then those rows. */
	const char *open = cols != NULL ? "" : "SELECT " OFFER_COLUMNS
	    " FROM offers WHERE (provider, key) IN (";
	const char *close = cols != NULL ? "" : ")";
	int parts = s->known == NULL || (s->last && !desc) ? 1 : 2;

	top_where(f, rq, where, sizeof where);
	if (parts == 1)
		snprintf(sql, size, "%sSELECT %s FROM %s%s WHERE 1%s "
		    "ORDER BY %s%s%s, %s LIMIT ?%s", open, cols != NULL ? cols :
		    "provider, key", from, index, where, s->expr,
		    desc ? " DESC" : "", gpu_count_order(key, desc),
		    tiebreak(f, key), close);
	else if (part == 0)
		snprintf(sql, size, "%sSELECT %s FROM %s%s WHERE 1%s AND %s "
		    "ORDER BY %s%s%s, %s LIMIT ?%s", open, cols != NULL ? cols :
		    "provider, key", from, index, where, s->known, s->expr,
		    desc ? " DESC" : "", gpu_count_order(key, desc),
		    tiebreak(f, key), close);
	else
		snprintf(sql, size, "%sSELECT %s FROM %s%s WHERE 1%s AND %s "
		    "ORDER BY %s%s LIMIT ?%s", open, cols != NULL ? cols :
		    "provider, key", from, index, where,
		    unknown_sql(s, unknown, sizeof unknown),
		    gpu_raw_order(key, reverse), tiebreak(f, key), close);
	return parts;
}

/*
 * Recompute the stored sort keys and filter values of every provider
 * whose status row names another version of them (a cache from before
 * migration 6 or 12, or a catalogue or region table changed since its
 * last refresh). Once, in one transaction; afterwards a check of the
 * small status table.
 */
/* Does a provider with offers have sort keys of another version? */
static int
sort_keys_stale(struct db *db, bool *stale, struct err *err)
{
	return db_row_exists(db, "SELECT 1 FROM provider_status WHERE "
	    "sort_keys IS NOT ? AND offer_count > 0 LIMIT 1",
	    db_sort_keys_version(), stale, err);
}

int
db_sort_keys_update(struct db *db, struct err *err)
{
	sqlite3_stmt *st = NULL, *up = NULL;
	const char *version = db_sort_keys_version();
	struct sort_keys k;
	struct offer o;
	bool stale;
	int rc, i;

	for (i = 0; i < 2; i++) {
		/* Again under the lock: another process may have done it. */
		if (i == 1 && db_exec(db, "BEGIN IMMEDIATE", err) < 0)
			return -1;
		if (sort_keys_stale(db, &stale, err) < 0)
			goto fail;
		if (!stale) {
			if (i == 1 && db_exec(db, "COMMIT", err) < 0)
				goto fail;
			return 0;
		}
		/* The callers of a read-only cache asked db_sort_keys_ready(). */
		if (db->read_only) {
			err_set(err, "cache %s: its stored sort keys are another "
			    "version's and it is read-only (its owner's next "
			    "refresh updates them)", db->path);
			return -1;
		}
	}
	if ((st = db_prepare(db, "SELECT " OFFER_COLUMNS " FROM offers "
	    "WHERE provider IN (SELECT provider FROM provider_status "
	    "WHERE sort_keys IS NOT ?1)", err)) == NULL ||
	    (up = db_prepare(db, "UPDATE offers SET sk_gpu_price = ?, "
	    "sk_spot_gpu = ?, sk_pflop = ?, continent = ?, country = ?, "
	    "form = ?, vertex = ?, search = ?, fabric = ?, node_gbps = ?, "
	    "fabric_nodes = ? WHERE provider = ? AND key = ?",
	    err)) == NULL)
		goto fail;
	sqlite3_bind_text(st, 1, version, -1, SQLITE_STATIC);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		offer_init(&o);
		/* The row as a query reads it (host bounds and all). */
		db_row_to_offer(st, &o);
		offer_sort_keys(o.provider, &o, &k);
		sqlite3_bind_int64(up, 1, k.gpu_price);
		sqlite3_bind_int64(up, 2, k.spot_gpu);
		sqlite3_bind_double(up, 3, k.pflop);
		sqlite3_bind_text(up, 4, k.continent, -1, SQLITE_STATIC);
		sqlite3_bind_text(up, 5, k.country, -1, SQLITE_STATIC);
		sqlite3_bind_int(up, 6, k.form);
		sqlite3_bind_int(up, 7, k.vertex);
		sqlite3_bind_blob(up, 8, k.search, (int)k.search_len,
		    SQLITE_STATIC);
		sqlite3_bind_int(up, 9, k.fabric);
		sqlite3_bind_int(up, 10, k.node_gbps);
		sqlite3_bind_int(up, 11, k.fabric_nodes);
		sqlite3_bind_value(up, 12, sqlite3_column_value(st, 0));
		sqlite3_bind_value(up, 13, sqlite3_column_value(st, 1));
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
	/* Their --term prices rank by the sort keys just written. */
	if ((st = db_prepare(db, "SELECT provider FROM provider_status "
	    "WHERE sort_keys IS NOT ?1", err)) == NULL)
		goto fail;
	sqlite3_bind_text(st, 1, version, -1, SQLITE_STATIC);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		char provider[OFFER_PROVIDER_MAX];

		db_column_text(st, 0, provider, sizeof provider);
		if (db_terms_update(db, provider, err) < 0)
			goto fail;
	}
	sqlite3_finalize(st);
	st = NULL;
	if (rc != SQLITE_DONE) {
		db_file_error(db, err);
		goto fail;
	}
	if ((st = db_prepare(db, "UPDATE provider_status SET sort_keys = ?1 "
	    "WHERE sort_keys IS NOT ?1", err)) == NULL)
		goto fail;
	sqlite3_bind_text(st, 1, version, -1, SQLITE_STATIC);
	rc = db_step_done(db, st, err);
	st = NULL;
	/* The kept --group-by answers, from the keys as they are now. */
	if (rc < 0 || db_groups_store(db, err) < 0 ||
	    db_exec(db, DB_ANALYZE "; COMMIT", err) < 0)
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
db_sort_keys_current(struct db *db, bool *current, struct err *err)
{
	bool stale;

	if (sort_keys_stale(db, &stale, err) < 0)
		return -1;
	*current = !stale;
	return 0;
}

int
db_sort_keys_ready(struct db *db, bool *ready, struct err *err)
{
	*ready = true;
	if (!db->read_only)
		return db_sort_keys_update(db, err);
	return db_sort_keys_current(db, ready, err);
}

/*
 * top_walk()'s steps through the values of key that pass cond (no
 * filter: a seek each in the key's index), in the direction desc, and
 * for each the first *n offers that pass the filter in tiebreak()
 * order (a seek and a walk of the same index). each: every value gets
 * *n (the unknowns, whose order is the tiebreak's alone across their
 * values; the caller's sort merges them); else *n counts down and the
 * walk stops at 0. seek: cond is a range of the index (the unknowns);
 * else it is tested on each value the steps find (known values are
 * "<> 'unknown'", no range: a walk from the end to the first known
 * value passed over every unknown offer).
 */
static int
walk_values(struct db *db, const struct offer_filter *f,
    const struct rentable_sql *rq, enum sort_key key, const char *cond,
    bool seek, bool desc, bool each, int64_t *n, struct offer_list *out,
    struct err *err)
{
	const struct sort_sql *s = &sort_sql[key];
	const char *dir = desc ? " DESC" : "";
	char where[6144] = "", sql[16384];
	sqlite3_stmt *first = NULL, *next = NULL, *rows = NULL, *step;
	sqlite3_value *v = NULL;
	size_t got;
	int k, rc = -1;

	top_where(f, rq, where, sizeof where);
	/* Any nodes: the index leads with the key (a value without an
	 * offer of one node only costs a read of none). */
	snprintf(sql, sizeof sql, "SELECT %s, coalesce(%s, 0) FROM offers "
	    "WHERE %s ORDER BY %s%s LIMIT 1", s->expr, cond, seek ? cond : "1",
	    s->expr, dir);
	if ((first = db_prepare(db, sql, err)) == NULL)
		goto done;
	snprintf(sql, sizeof sql, "SELECT %s, coalesce(%s, 0) FROM offers "
	    "WHERE %s AND %s %s ? ORDER BY %s%s LIMIT 1", s->expr, cond,
	    seek ? cond : "1", s->expr, desc ? "<" : ">", s->expr, dir);
	if ((next = db_prepare(db, sql, err)) == NULL)
		goto done;
	snprintf(sql, sizeof sql, "SELECT " OFFER_COLUMNS " FROM offers WHERE "
	    "1%s AND %s = ? ORDER BY %s LIMIT ?", where, s->expr,
	    tiebreak(f, key));
	if ((rows = db_prepare(db, sql, err)) == NULL)
		goto done;
	for (step = first; *n > 0; step = next) {
		if (v != NULL)
			sqlite3_bind_value(next, 1, v);
		if ((k = sqlite3_step(step)) != SQLITE_ROW) {
			if (k != SQLITE_DONE) {
				db_file_error(db, err);
				goto done;
			}
			break;
		}
		sqlite3_value_free(v);
		if ((v = sqlite3_value_dup(sqlite3_column_value(step, 0))) ==
		    NULL) {
			err_set(err, "cache %s: out of memory", db->path);
			goto done;
		}
		k = sqlite3_column_int(step, 1);
		sqlite3_reset(step);
		if (k == 0)
			continue;	/* not cond's (cond is the key's alone) */
		k = 1;
		top_bind(rows, f, rq, &k);
		sqlite3_bind_value(rows, k++, v);
		sqlite3_bind_int64(rows, k, *n);
		got = 0;
		if (read_rows(db, rows, f, out, &got, err) < 0)
			goto done;
		if (!each)
			*n -= (int64_t)got;
	}
	rc = 0;
done:
	sqlite3_value_free(v);
	sqlite3_finalize(first);
	sqlite3_finalize(next);
	sqlite3_finalize(rows);
	return rc;
}

/*
 * db_query_top() of a key whose values repeat (sort_sql[].walk), with
 * "nodes = 1": its known values in the asked direction, the first
 * `remaining` offers of each, until n are read; then the first
 * `remaining` of each unknown value. Exactly the first n in order,
 * whichever the direction, from one index per key: one ORDER BY in the
 * reverse direction would sort every offer of the first value, and the
 * unknowns' range (vram_gb <= 0) was planned as a walk of the price
 * index testing each offer.
 */
static int
top_walk(struct db *db, const struct offer_filter *f,
    const struct rentable_sql *rq, enum sort_key key, bool reverse,
    int64_t n, struct offer_list *out, struct err *err)
{
	const struct sort_sql *s = &sort_sql[key];
	size_t from = out->n;

	if (walk_values(db, f, rq, key, s->known != NULL ? s->known : "1",
	    false, s->desc != reverse, false, &n, out, err) < 0)
		return -1;
	if (n > 0 && s->unknown != NULL && walk_values(db, f, rq, key,
	    s->unknown, true, false, true, &n, out, err) < 0)
		return -1;
	return db_committed_attach(db, out, from, err);
}

/* An offer top_age() may show: its time, its $/GPU-h key, its key. */
struct age_cand {
	int64_t	 at, sk;
	char	*provider, *key;
};

static int
age_cmp(const struct age_cand *a, const struct age_cand *b, bool reverse)
{
	int c;

	if (a->at != b->at)
		return (a->at < b->at) == reverse ? -1 : 1;
	if (a->sk != b->sk)
		return a->sk < b->sk ? -1 : 1;
	if ((c = strcmp(a->provider, b->provider)) != 0)
		return c;
	return strcmp(a->key, b->key);
}

static int
age_cmp_newest(const void *a, const void *b)
{
	return age_cmp(a, b, false);
}

static int
age_cmp_oldest(const void *a, const void *b)
{
	return age_cmp(a, b, true);
}

/* Sort v in age order and keep its first n. */
static void
age_keep(struct age_cand *v, size_t *nv, size_t n, bool reverse)
{
	size_t i;

	qsort(v, *nv, sizeof *v, reverse ? age_cmp_oldest : age_cmp_newest);
	for (i = n; i < *nv; i++) {
		free(v[i].provider);
		free(v[i].key);
	}
	if (*nv > n)
		*nv = n;
}

/*
 * db_query_top() by age (fetched_at, newest first or, reversed, oldest),
 * with no index on fetched_at: every refresh changes every row's, so an
 * index holding it would move every entry each time (merge_offers()).
 * A refresh stamps a provider's offers with one time, and the provider's
 * status row keeps the oldest and newest (every write of offers sets
 * them): a provider whose two are equal has its offers in age order in
 * its price index (offers_provider_price), the first n a seek and a
 * walk; another (or one without a status row) has its offers sorted.
 * Providers come best time first; once n offers are found, a provider
 * whose best time is worse than the nth's has none of the first n, nor
 * has any after it. The walks read keys and sort keys only; the first n
 * of them are read whole at the end, all in one read transaction:
 * providers refreshed in the same second each give up to n (ties go by
 * price), and reading each whole was a tenth of the query.
 */
static int
top_age(struct db *db, const struct offer_filter *f,
    const struct rentable_sql *rq, bool reverse, int64_t n,
    struct offer_list *out, struct err *err)
{
	const char *dir = reverse ? "" : " DESC";
	char where[6144] = "", sql[16384];
	sqlite3_stmt *provs = NULL, *same = NULL, *mixed = NULL, *st;
	struct age_cand *v = NULL;
	const char **pv = NULL, **kv = NULL;
	size_t nv = 0, cap = 0, i, want = (size_t)n;
	int64_t best, at;
	bool bounds, began;
	int k, rc = -1, step;

	top_where(f, rq, where, sizeof where);
	began = db_read_begin(db);
	/* Every provider with an offer (a seek each), its status if any. */
	snprintf(sql, sizeof sql, "WITH RECURSIVE p(name) AS (SELECT "
	    "(SELECT provider FROM offers ORDER BY provider LIMIT 1) UNION ALL "
	    "SELECT (SELECT provider FROM offers WHERE provider > p.name "
	    "ORDER BY provider LIMIT 1) FROM p WHERE p.name IS NOT NULL) "
	    "SELECT p.name, s.oldest, s.newest FROM p LEFT JOIN "
	    "provider_status s ON s.provider = p.name WHERE p.name IS NOT NULL "
	    "ORDER BY s.newest IS NULL OR s.oldest IS NULL DESC, %s%s",
	    reverse ? "s.oldest" : "s.newest", dir);
	if ((provs = db_prepare(db, sql, err)) == NULL)
		goto done;
	snprintf(sql, sizeof sql, "SELECT provider, key, sk_gpu_price, 0 "
	    "FROM offers WHERE 1%s AND provider = ? ORDER BY %s LIMIT ?",
	    where, tiebreak(f, SORT_AGE));
	if ((same = db_prepare(db, sql, err)) == NULL)
		goto done;
	snprintf(sql, sizeof sql, "SELECT provider, key, sk_gpu_price, "
	    "fetched_at FROM offers WHERE 1%s AND provider = ? ORDER BY "
	    "fetched_at%s, %s LIMIT ?", where, dir, tiebreak(f, SORT_AGE));
	if ((mixed = db_prepare(db, sql, err)) == NULL)
		goto done;
	while ((step = sqlite3_step(provs)) == SQLITE_ROW) {
		bounds = sqlite3_column_type(provs, 1) != SQLITE_NULL &&
		    sqlite3_column_type(provs, 2) != SQLITE_NULL;
		best = sqlite3_column_int64(provs, reverse ? 1 : 2);
		if (bounds && nv >= want) {
			age_keep(v, &nv, want, reverse);
			if (reverse ? best > v[nv - 1].at : best < v[nv - 1].at)
				break;
		}
		/* One time for all its offers: the status row's. */
		st = bounds && sqlite3_column_int64(provs, 1) ==
		    sqlite3_column_int64(provs, 2) ? same : mixed;
		at = sqlite3_column_int64(provs, 1);
		k = 1;
		top_bind(st, f, rq, &k);
		sqlite3_bind_value(st, k++, sqlite3_column_value(provs, 0));
		sqlite3_bind_int64(st, k, n);
		while ((step = sqlite3_step(st)) == SQLITE_ROW) {
			const unsigned char *pn = sqlite3_column_text(st, 0);
			const unsigned char *kn = sqlite3_column_text(st, 1);

			if (pn == NULL || kn == NULL)
				continue;	/* NOT NULL columns: never */
			if (nv == cap) {
				cap = cap == 0 ? 64 : cap * 2;
				v = xreallocarray(v, cap, sizeof *v);
			}
			v[nv].provider = xstrdup((const char *)pn);
			v[nv].key = xstrdup((const char *)kn);
			v[nv].sk = sqlite3_column_int64(st, 2);
			v[nv++].at = st == same ? at :
			    sqlite3_column_int64(st, 3);
		}
		sqlite3_reset(st);
		if (step != SQLITE_DONE) {
			db_file_error(db, err);
			goto done;
		}
	}
	if (step != SQLITE_DONE && step != SQLITE_ROW) {
		db_file_error(db, err);
		goto done;
	}
	age_keep(v, &nv, want, reverse);
	pv = xcalloc(nv > 0 ? nv : 1, sizeof *pv);
	kv = xcalloc(nv > 0 ? nv : 1, sizeof *kv);
	for (i = 0; i < nv; i++) {
		pv[i] = v[i].provider;
		kv[i] = v[i].key;
	}
	/* The rows whole (committed prices attached), as the walks saw them. */
	rc = db_offers_get(db, pv, kv, nv, out, err);
done:
	sqlite3_finalize(provs);
	sqlite3_finalize(same);
	sqlite3_finalize(mixed);
	db_read_end(db, began);
	for (i = 0; i < nv; i++) {
		free(v[i].provider);
		free(v[i].key);
	}
	free(v);
	free(pv);
	free(kv);
	return rc;
}

/*
 * What every top query does first: the key checked, the rentable rules
 * prepared into rq and *matched counted (unless matched is NULL).
 * *ready says whether the stored sort keys are this program's.
 */
static int
top_prepare(struct db *db, const struct offer_filter *f, enum sort_key key,
    struct rentable_sql *rq, size_t *matched, bool *ready, struct err *err)
{
	char where[6144] = "", sql[8192];
	sqlite3_stmt *st;
	int k = 1, rc;

	if (matched != NULL)
		*matched = 0;
	if ((unsigned)key >= SORT_KEY_COUNT) {
		err_set(err, "cache %s: no such sort key", db->path);
		return -1;
	}
	if (db_sort_keys_ready(db, ready, err) < 0)
		return -1;
	if (!*ready)
		return 0;
	if (rentable_prepare(db, f, rq, err) < 0)
		return -1;
	if (matched == NULL)
		return 0;
	top_where(f, rq, where, sizeof where);
	snprintf(sql, sizeof sql, "SELECT count(*) FROM %s WHERE 1%s",
	    top_from(f), where);
	if ((st = db_prepare(db, sql, err)) == NULL)
		return -1;
	top_bind(st, f, rq, &k);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		*matched = (size_t)sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	if (rc != SQLITE_ROW) {
		db_file_error(db, err);
		return -1;
	}
	return 0;
}

int
db_query_top(struct db *db, const struct offer_filter *f, enum sort_key key,
    bool reverse, size_t limit, struct offer_list *out, size_t *matched,
    struct err *err)
{
	char sql[16384];
	int64_t n = limit < INT64_MAX ? (int64_t)limit : INT64_MAX;
	struct rentable_sql rq;
	sqlite3_stmt *st;
	size_t from;
	int k, rc, parts = 1, part;
	bool ready;

	if (top_prepare(db, f, key, &rq, matched, &ready, err) < 0)
		return -1;
	if (!ready)
		return db_query_every(db, f, out, matched, err);
	/* Cluster products (nodes > 1), and --term (its join of
	 * offer_terms), stay with top_sql(). */
	if (!f->multi_node && f->nodes <= 1 && f->term == TERM_NONE &&
	    key == SORT_AGE)
		return top_age(db, f, &rq, reverse, n, out, err);
	if (!f->multi_node && f->nodes <= 1 && f->term == TERM_NONE &&
	    sort_sql[key].walk)
		return top_walk(db, f, &rq, key, reverse, n, out, err);
	from = out->n;
	for (part = 0; part < parts; part++) {
		parts = top_sql(f, &rq, key, reverse, part, NULL, sql,
		    sizeof sql);
		if ((st = db_prepare(db, sql, err)) == NULL)
			return -1;
		k = 1;
		top_bind(st, f, &rq, &k);
		sqlite3_bind_int64(st, k, n);
		rc = read_rows(db, st, f, out, NULL, err);
		sqlite3_finalize(st);
		if (rc < 0)
			return -1;
	}
	return db_committed_attach(db, out, from, err);
}

/* What db_query_top_taking()'s walk shows its test (db_walk_row). */
#define TAKE_COLUMNS	"provider, key, availability, sk_gpu_price, sk_spot_gpu"

/*
 * One part of db_query_top_taking(): the walk, each row shown to take,
 * the keys of up to n taken kept in (pv, kv, *nv).
 */
static int
take_walk(struct db *db, sqlite3_stmt *st, int64_t n, db_walk_take_fn take,
    void *ctx, char ***pv, char ***kv, size_t *nv, size_t *cap,
    struct err *err)
{
	struct db_walk_row r;
	const char *av;
	int rc = SQLITE_DONE;

	while (n > 0 && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		r.provider = (const char *)sqlite3_column_text(st, 0);
		r.key = (const char *)sqlite3_column_text(st, 1);
		if (r.provider == NULL || r.key == NULL)
			continue;	/* NOT NULL columns: never */
		av = (const char *)sqlite3_column_text(st, 2);
		if (av == NULL || availability_parse(av, &r.availability) < 0)
			r.availability = AV_UNKNOWN;
		r.price_gpu_hour = db_stmt_sk_money(st, 3);
		r.spot_gpu_hour = db_stmt_sk_money(st, 4);
		if (!take(ctx, &r))
			continue;
		if (*nv == *cap) {
			*cap = *cap > 0 ? *cap * 2 : 32;
			*pv = xreallocarray(*pv, *cap, sizeof **pv);
			*kv = xreallocarray(*kv, *cap, sizeof **kv);
		}
		(*pv)[*nv] = xstrdup(r.provider);
		(*kv)[(*nv)++] = xstrdup(r.key);
		n--;
	}
	if (n > 0 && rc != SQLITE_DONE) {
		db_file_error(db, err);
		return -1;
	}
	return 0;
}

int
db_query_top_taking(struct db *db, const struct offer_filter *f,
    enum sort_key key, bool reverse, size_t limit, db_walk_take_fn take,
    void *ctx, struct offer_list *out, size_t *matched, struct err *err)
{
	char sql[16384];
	int64_t n = limit < INT64_MAX ? (int64_t)limit : INT64_MAX;
	struct rentable_sql rq;
	sqlite3_stmt *st;
	char **pv = NULL, **kv = NULL;
	size_t nv = 0, cap = 0, i;
	int k, rc = -1, parts = 1, part;
	bool ready, began, failed;

	/* One instance a plan, on top_sql()'s walk: the others say 0. */
	if (f->multi_node || f->nodes > 1 ||
	    ((unsigned)key < SORT_KEY_COUNT && f->term == TERM_NONE &&
	    (key == SORT_AGE || sort_sql[key].walk)))
		return 0;
	began = db_read_begin(db);
	if (top_prepare(db, f, key, &rq, matched, &ready, err) < 0)
		goto done;
	if (!ready) {
		rc = 0;
		goto done;
	}
	for (part = 0; part < parts; part++) {
		parts = top_sql(f, &rq, key, reverse, part, TAKE_COLUMNS, sql,
		    sizeof sql);
		if ((st = db_prepare(db, sql, err)) == NULL)
			goto done;
		k = 1;
		top_bind(st, f, &rq, &k);
		sqlite3_bind_int64(st, k, -1);	/* take() decides */
		failed = take_walk(db, st, n, take, ctx, &pv, &kv, &nv, &cap,
		    err) < 0;
		sqlite3_finalize(st);
		if (failed)
			goto done;
	}
	if (db_offers_get(db, (const char *const *)pv,
	    (const char *const *)kv, nv, out, err) < 0)
		goto done;
	rc = 1;
done:
	for (i = 0; i < nv; i++) {
		free(pv[i]);
		free(kv[i]);
	}
	free(pv);
	free(kv);
	db_read_end(db, began);
	return rc;
}

/* EXPLAIN QUERY PLAN of each part of top_sql() (cols as it takes). */
static int
top_plan(struct db *db, const struct offer_filter *f, enum sort_key key,
    bool reverse, const char *cols, char *out, size_t size, struct err *err)
{
	char sql[16384] = "EXPLAIN QUERY PLAN ";
	struct rentable_sql rq;
	sqlite3_stmt *st;
	size_t len = 0, plen;
	int k, parts = 1, part;

	if (size > 0)
		out[0] = '\0';
	if (rentable_prepare(db, f, &rq, err) < 0)
		return -1;
	plen = strlen(sql);
	for (part = 0; part < parts; part++) {
		parts = top_sql(f, &rq, key, reverse, part, cols, sql + plen,
		    sizeof sql - plen);
		if ((st = db_prepare(db, sql, err)) == NULL)
			return -1;
		k = 1;
		top_bind(st, f, &rq, &k);
		sqlite3_bind_int64(st, k, 20);
		if (db_plan_lines(db, st, out, size, &len, err) < 0)
			return -1;
	}
	return 0;
}

int
db_query_top_plan(struct db *db, const struct offer_filter *f,
    enum sort_key key, bool reverse, char *out, size_t size,
    struct err *err)
{
	return top_plan(db, f, key, reverse, NULL, out, size, err);
}

int
db_query_top_taking_plan(struct db *db, const struct offer_filter *f,
    enum sort_key key, bool reverse, char *out, size_t size,
    struct err *err)
{
	return top_plan(db, f, key, reverse, TAKE_COLUMNS, out, size, err);
}
