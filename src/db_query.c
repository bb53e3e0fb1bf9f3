/*
 * db_query.c: the reads of whole offers: every offer matching a filter
 * (db_query(), db_query_scan()), the first N in one sort order from an
 * index walk (db_query_top*(), with the walks of keys whose values
 * repeat and of age), and plans of several nodes (db_query_nodes()).
 */
#include "config.h"
#include "db.h"

#include <sqlite3.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cost.h"
#include "db_internal.h"
#include "err.h"
#include "fabric.h"
#include "filter.h"
#include "gpu.h"
#include "money.h"
#include "note_info.h"
#include "notes.h"
#include "region.h"
#include "xalloc.h"

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

/*
 * The answer of a shortcut (db_query_top(), db_query_nodes()) where the
 * stored keys cannot serve it (db_sort_keys_ready()): every offer
 * matching f, appended to out; *matched (if not NULL) their number.
 */
static int
query_every(struct db *db, const struct offer_filter *f,
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

	if (*nv == 0)
		return;		/* v may be NULL: qsort() must not see it */
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
	/*
	 * A spot order walks the stored spot keys, history among them
	 * (rentable.h): where some is, every match is read and C ranks
	 * it as no spot price. With --spot the filter leaves it out.
	 */
	if (!ready || (sort_by_spot(key) && !f->spot &&
	    rentable_spot_history(&rq)))
		return query_every(db, f, out, matched, err);
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
take_walk(struct db *db, sqlite3_stmt *st, const struct rentable_sql *rq,
    int64_t n, db_walk_take_fn take, void *ctx, char ***pv, char ***kv,
    size_t *nv, size_t *cap, struct err *err)
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
		/* History is no spot price (plan_spot_rule()). */
		if (rentable_spot_old(rq, r.provider))
			r.spot_gpu_hour = MONEY_NONE;
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
	/*
	 * Spot history row by row (a provider with some), or a spot order
	 * with history in it: the take cannot judge; the caller reads.
	 */
	if (!ready || (!f->spot && rentable_spot_history(&rq) &&
	    (rq.nspot_mixed > 0 || sort_by_spot(key)))) {
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
		failed = take_walk(db, st, &rq, n, take, ctx, &pv, &kv, &nv,
		    &cap, err) < 0;
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
 *                   16; offers_trainable, those of a trainer's fabric,
 *                   migration 21, unless --fabric asks for another),
 *                   with the fabric assembled_ok() asks (any
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

/* A trainer's fabrics, as offers_trainable's WHERE has them. */
_Static_assert(FABRIC_TRAINING == (FABRIC_BIT(1) | FABRIC_BIT(2) |
    FABRIC_BIT(3) | FABRIC_BIT(4) | FABRIC_BIT(5)),
    "offers_trainable (migration 21) names the trainer's fabrics 1-5");

/*
 * May NODES_ASSEMBLED walk offers_trainable? When every fabric the plan
 * may have is a trainer's: by default, or a --fabric of those kinds.
 */
static bool
assembled_trainable(const struct offer_filter *f)
{
	return (f->fabrics & FABRIC_ANY) == 0 &&
	    (f->fabrics & ~(unsigned)FABRIC_TRAINING) == 0;
}

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
	if (assembled_trainable(f))
		strncat(sql, " AND fabric BETWEEN 1 AND 5",
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

/*
 * One walk's statement (plan: its EXPLAIN QUERY PLAN), f's values bound.
 * The walk selects the key alone and each row it passes is read by it:
 * the offers are WITHOUT ROWID, so a walk that selects a column its
 * index lacks seeks the table at every entry before it tests the
 * index's own columns (offers_assembled and offers_trainable hold what
 * the node rules and the usual filters test, so their walk reads only
 * the rows that pass them).
 */
static sqlite3_stmt *
nodes_prepare(struct db *db, const struct offer_filter *f,
    const struct rentable_sql *rq, enum nodes_walk walk, bool plan,
    struct err *err)
{
	static const char *const index[] = {
		[NODES_CLUSTER] = "",
		[NODES_WHOLE] = " INDEXED BY offers_count",
		[NODES_ASSEMBLED] = " INDEXED BY offers_assembled",
	};
	const char *use = walk == NODES_ASSEMBLED && assembled_trainable(f) ?
	    " INDEXED BY offers_trainable" : index[walk];
	char sql[3072];
	sqlite3_stmt *st;
	int k = 1;

	snprintf(sql, sizeof sql, "%sSELECT provider, key FROM offers%s "
	    "WHERE 1", plan ? "EXPLAIN QUERY PLAN " : "", use);
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
		return NULL;
	filter_bind(st, f, rq, &k);
	if (money_known(f->max_price_gpu_hour))
		sqlite3_bind_int64(st, k++, f->max_price_gpu_hour);
	if (walk == NODES_ASSEMBLED)
		assembled_bind(st, f, &k);
	if (walk == NODES_WHOLE)
		sqlite3_bind_int(st, k++, f->count);
	return st;
}

static int
nodes_walk(struct db *db, const struct offer_filter *f,
    const struct rentable_sql *rq, enum nodes_walk walk, size_t limit,
    struct offer_list *out, size_t *matched, struct err *err)
{
	sqlite3_stmt *st, *row;
	struct offer o;
	struct plan p;
	size_t from = out->n, kept = 0;
	int rc, nodes;

	if ((st = nodes_prepare(db, f, rq, walk, false, err)) == NULL)
		return -1;
	if ((row = db_prepare(db, "SELECT " OFFER_COLUMNS " FROM offers "
	    "WHERE provider = ? AND key = ?", err)) == NULL) {
		sqlite3_finalize(st);
		return -1;
	}
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
		plan_spot_rule(&p, f);
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
	bool ready;

	if (matched != NULL)
		*matched = 0;
	if (db_sort_keys_ready(db, &ready, err) < 0)
		return -1;
	if (!ready)
		return query_every(db, f, out, matched, err);
	if (rentable_prepare(db, f, &rq, err) < 0)
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

int
db_query_nodes_plan(struct db *db, const struct offer_filter *f, char *out,
    size_t size, struct err *err)
{
	struct rentable_sql rq;
	sqlite3_stmt *st;
	size_t len = 0;

	if (size > 0)
		out[0] = '\0';
	if (db_sort_keys_update(db, err) < 0 ||
	    rentable_prepare(db, f, &rq, err) < 0 ||
	    (st = nodes_prepare(db, f, &rq, NODES_ASSEMBLED, true,
	    err)) == NULL)
		return -1;
	return db_plan_lines(db, st, out, size, &len, err);
}
