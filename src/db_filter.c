/*
 * db_filter.c: an offer filter in SQL, for every reader of the offers
 * table (db_query.c, db_summary.c): filter_sql() appends the conditions
 * SQL tests (the rentable.h rules among them, rentable_prepare()),
 * filter_bind() binds their values, db_filter_in_sql() says whether SQL
 * tests the whole filter, and gpucost_region() is the SQL function of
 * --region's tests.
 */
#include "config.h"
#include "db.h"

#include <sqlite3.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "db_internal.h"
#include "fabric.h"
#include "filter.h"
#include "gpu.h"
#include "note_info.h"
#include "notes.h"
#include "region.h"
#include "rentable.h"
#include "str.h"
#include "train.h"

/* Append " AND col IN (?,?,...)" for n values. */
void
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

/*
 * The spot rule (rentable.h RENTABLE_SPOT_SECONDS) per provider: every
 * provider with offers (a hop along the key), its status row's oldest
 * and newest against the cut; no status row (an older cache): row by
 * row.
 */
static int
spot_prepare(struct db *db, const struct offer_filter *f,
    struct rentable_sql *rq, struct err *err)
{
	sqlite3_stmt *st;
	const unsigned char *name;
	int rc;

	rq->spot = f->spot;
	if (f->now == 0 || f->include_stale)
		return 0;
	rq->spot_rule = true;
	rq->spot_cut = f->now - RENTABLE_SPOT_SECONDS;
	if ((st = db_prepare(db, "WITH RECURSIVE p(name) AS (SELECT "
	    "(SELECT provider FROM offers ORDER BY provider LIMIT 1) UNION ALL "
	    "SELECT (SELECT provider FROM offers WHERE provider > p.name "
	    "ORDER BY provider LIMIT 1) FROM p WHERE p.name IS NOT NULL) "
	    "SELECT p.name, s.oldest, s.newest FROM p LEFT JOIN "
	    "provider_status s ON s.provider = p.name WHERE p.name IS NOT NULL",
	    err)) == NULL)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if ((name = sqlite3_column_text(st, 0)) == NULL ||
		    strlen((const char *)name) >= OFFER_PROVIDER_MAX)
			continue;	/* offer_check() refuses longer ids */
		if (sqlite3_column_type(st, 2) != SQLITE_NULL &&
		    sqlite3_column_int64(st, 2) < rq->spot_cut) {
			if (rq->nspot_old < FILTER_PROVIDERS_MAX)
				str_copy(rq->spot_old[rq->nspot_old++],
				    OFFER_PROVIDER_MAX, (const char *)name);
		} else if (sqlite3_column_type(st, 1) == SQLITE_NULL ||
		    sqlite3_column_int64(st, 1) < rq->spot_cut) {
			if (rq->nspot_mixed < FILTER_PROVIDERS_MAX)
				str_copy(rq->spot_mixed[rq->nspot_mixed++],
				    OFFER_PROVIDER_MAX, (const char *)name);
		}
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		db_file_error(db, err);
		return -1;
	}
	/*
	 * More providers than gpucost has (a copy's): those past the
	 * lists are left to C, which tests every row read again.
	 */
	return 0;
}

bool
rentable_spot_history(const struct rentable_sql *rq)
{
	return rq->spot_rule && rq->nspot_old + rq->nspot_mixed > 0;
}

int
db_spot_history(struct db *db, const struct offer_filter *f, bool *history,
    struct err *err)
{
	struct rentable_sql rq;

	*history = false;
	if (rentable_prepare(db, f, &rq, err) < 0)
		return -1;
	*history = rentable_spot_history(&rq);
	return 0;
}

bool
rentable_spot_old(const struct rentable_sql *rq, const char *provider)
{
	size_t i;

	for (i = 0; rq->spot_rule && i < rq->nspot_old; i++)
		if (strcmp(rq->spot_old[i], provider) == 0)
			return true;
	return false;
}

bool
sort_by_spot(enum sort_key key)
{
	return key == SORT_SPOT || key == SORT_SPOT_GPU ||
	    key == SORT_SAVINGS;
}

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
	if (spot_prepare(db, f, rq, err) < 0)
		return -1;
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
	/* --spot: a spot price that is history is none (spot_prepare()). */
	for (i = 0; rq->spot && rq->spot_rule && i < rq->nspot_old; i++)
		strncat(sql, " AND provider IS NOT ?", size - strlen(sql) - 1);
	for (i = 0; rq->spot && rq->spot_rule && i < rq->nspot_mixed; i++)
		strncat(sql, " AND (provider IS NOT ? OR fetched_at >= ?)",
		    size - strlen(sql) - 1);
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
	for (i = 0; rq->spot && rq->spot_rule && i < rq->nspot_old; i++)
		sqlite3_bind_text(st, (*k)++, rq->spot_old[i], -1,
		    SQLITE_STATIC);
	for (i = 0; rq->spot && rq->spot_rule && i < rq->nspot_mixed; i++) {
		sqlite3_bind_text(st, (*k)++, rq->spot_mixed[i], -1,
		    SQLITE_STATIC);
		sqlite3_bind_int64(st, (*k)++, rq->spot_cut);
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
 * text) matches, each name tested once (DB_REGION_NAMES_CTE), and with
 * any "all" too (where a provider's "all" offer may match: the caller
 * then names the providers). As a list, "region IN" seeks each name's
 * offers in an index (offers_region_gpu with --gpu) where a test of
 * every row could not.
 */
#define REGIONS_MATCHING_SQL(any)					\
	"(" DB_REGION_NAMES_CTE " SELECT n FROM names WHERE "		\
	"n IS NOT NULL AND (" any "gpucost_region(?, ?, n)))"

/*
 * The providers whose "all" offer a region query matches
 * (region_any_matches(): one of their regions of data/any_region.tsv
 * does), into v (at most max); how many. derived_sql() and
 * derived_bind() both ask, so their placeholders agree.
 */
#define ANY_PROVIDERS_MAX	8

static size_t
any_providers(const struct region_query *q, const char **v, size_t max)
{
	const char *p = NULL;
	size_t i, n = 0;

	for (i = 0; i < region_any_count && n < max; i++) {
		if (p != NULL && strcmp(p, region_any_places[i].provider) == 0)
			continue;
		p = region_any_places[i].provider;
		if (region_any_matches(q, p))
			v[n++] = p;
	}
	return n;
}

/* Append --region's conditions (see derived_sql()). */
static void
region_sql(const struct offer_filter *f, char *sql, size_t size)
{
	const char *prov[ANY_PROVIDERS_MAX];
	struct region_query q;
	size_t n;

	if (region_query_parse(f->region, &q) < 0) {
		strncat(sql, " AND 0", size - strlen(sql) - 1);
		return;
	}
	n = any_providers(&q, prov, ANY_PROVIDERS_MAX);
	switch (q.kind) {
	case RQ_ANY:
		return;
	case RQ_CONTINENT:
	case RQ_COUNTRY:
		strncat(sql, q.kind == RQ_CONTINENT ? " AND (continent = ?" :
		    " AND (country = ?", size - strlen(sql) - 1);
		if (n > 0) {
			strncat(sql, " OR (" ANY_REGION_SQL " AND 1",
			    size - strlen(sql) - 1);
			sql_in(sql, size, "provider", n);
			strncat(sql, ")", size - strlen(sql) - 1);
		}
		strncat(sql, ")", size - strlen(sql) - 1);
		return;
	case RQ_NAME:
	case RQ_GLOB:
		/* Its own name: every "all" is in gpucost_region()'s list. */
		if (region_text_match(q.kind, q.text, "all") || n == 0) {
			strncat(sql, " AND region IN " REGIONS_MATCHING_SQL(""),
			    size - strlen(sql) - 1);
			return;
		}
		strncat(sql, " AND region IN " REGIONS_MATCHING_SQL(
		    "n = 'all' COLLATE NOCASE OR ") " AND (NOT " ANY_REGION_SQL
		    " OR (1", size - strlen(sql) - 1);
		sql_in(sql, size, "provider", n);
		strncat(sql, "))", size - strlen(sql) - 1);
		return;
	}
}

static void
region_bind(sqlite3_stmt *st, const struct offer_filter *f, int *k)
{
	const char *prov[ANY_PROVIDERS_MAX];
	struct region_query q;
	size_t n, i;

	if (region_query_parse(f->region, &q) < 0 || q.kind == RQ_ANY)
		return;
	n = any_providers(&q, prov, ANY_PROVIDERS_MAX);
	if (q.kind == RQ_CONTINENT || q.kind == RQ_COUNTRY)
		sqlite3_bind_text(st, (*k)++, q.code, -1, SQLITE_TRANSIENT);
	else {
		sqlite3_bind_int(st, (*k)++, (int)q.kind);
		sqlite3_bind_text(st, (*k)++, f->region, -1, SQLITE_STATIC);
		if (region_text_match(q.kind, q.text, "all"))
			return;
	}
	for (i = 0; i < n; i++)
		sqlite3_bind_text(st, (*k)++, prov[i], -1, SQLITE_STATIC);
}

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
	char word[OFFER_NAME_MAX];
	const char *p;
	size_t n;

	if (rq->stale_derived)
		return;
	if (f->region[0] != '\0')
		region_sql(f, sql, size);
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
	char word[OFFER_NAME_MAX];
	const char *p;
	enum gpu_form form;
	size_t n;
	int kind;

	if (rq->stale_derived)
		return;
	if (f->region[0] != '\0')
		region_bind(st, f, k);
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
bool
fields_in_sql(const struct offer_filter *f)
{
	size_t i;
	int ff;

	/* --train's memory rule, which picks a plan's nodes, is C's
	 * (offer_matches()). */
	if (train_given(&f->train))
		return false;
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
