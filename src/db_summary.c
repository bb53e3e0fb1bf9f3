/*
 * db_summary.c: what the cache keeps computed from its offers, and the
 * reads of the answers that need not read every offer whole (issue 29):
 * a --group-by summary walks one narrow covering index (offers_summary:
 * GPU, region, the per-GPU prices, the primary key) and reads whole only
 * the rows that may be a group's cheapest; the groupings a query reads
 * whole are kept at write time (db_groups_store()); the stored sort keys
 * are brought up to date before a read relies on them
 * (db_sort_keys_ready()), which keeps the groupings again. Those are one
 * file because each calls the other: every reader (db_query.c too)
 * calls db_sort_keys_ready(), which ends in db_groups_store().
 */
#include "config.h"
#include "db.h"

#include <sqlite3.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "db_internal.h"
#include "err.h"
#include "filter.h"
#include "money.h"
#include "note_info.h"
#include "rentable.h"
#include "str.h"
#include "summary.h"
#include "xalloc.h"

/* A row of summary_prepare()'s walk into r (its text is the row's until
 * the next step); false for a NULL where the columns allow none. */
static bool
summary_row(sqlite3_stmt *st, struct db_summary_row *r)
{
	r->provider = (const char *)sqlite3_column_text(st, 0);
	r->key = (const char *)sqlite3_column_text(st, 1);
	r->gpu = (const char *)sqlite3_column_text(st, 2);
	r->region = (const char *)sqlite3_column_text(st, 3);
	if (r->provider == NULL || r->key == NULL || r->gpu == NULL ||
	    r->region == NULL)
		return false;
	r->price_gpu_hour = db_stmt_sk_money(st, 4);
	r->spot_gpu_hour = db_stmt_sk_money(st, 5);
	return true;
}

/*
 * The summary's walk: f's conditions (filter_sql(), whole: the caller
 * checked db_filter_in_sql()) and its maximum price on the stored
 * per-GPU key, as db_query_top() tests it, on the offers_summary index.
 */
/*
 * The kept summaries' walks of the same offers in the ascending order
 * of a price per GPU-hour (summary_acc_rank()): on demand on the price
 * walk, spot on the spot walk, each covering what an atom is made of
 * (migration 24), so neither reads the table or sorts.
 */
enum summary_walk {
	WALK_ROWS = -1,		/* the summary's own: every match once */
	WALK_PRICE,		/* 0, 1: summary_acc_rank()'s kinds */
	WALK_SPOT
};

static void
summary_sql(const struct offer_filter *f, const struct rentable_sql *rq,
    bool plan, enum summary_walk walk, char *sql, size_t size)
{
	static const char *const cols[] = {
		"provider, key, gpu, region, sk_gpu_price, sk_spot_gpu "
		"FROM offers INDEXED BY offers_summary",
		"provider, gpu, region, sk_gpu_price FROM offers INDEXED BY "
		"offers_gpu_price",
		"provider, gpu, region, sk_spot_gpu FROM offers INDEXED BY "
		"offers_spot_gpu"
	};

	snprintf(sql, size, "%sSELECT %s WHERE 1", plan ?
	    "EXPLAIN QUERY PLAN " : "", cols[walk + 1]);
	filter_sql(f, rq, sql, size);
	if (money_known(f->max_price_gpu_hour))
		strncat(sql, f->spot ? " AND sk_spot_gpu <= ?" :
		    " AND sk_gpu_price <= ?", size - strlen(sql) - 1);
	if (walk != WALK_ROWS)
		strncat(sql, walk == WALK_PRICE ? " ORDER BY sk_gpu_price" :
		    " ORDER BY sk_spot_gpu", size - strlen(sql) - 1);
}

/* The caller made sure the stored keys are this program's. */
static sqlite3_stmt *
summary_prepare(struct db *db, const struct offer_filter *f, bool plan,
    enum summary_walk walk, struct rentable_sql *rq, struct err *err)
{
	char sql[2560];
	sqlite3_stmt *st;
	int k = 1;

	if (rentable_prepare(db, f, rq, err) < 0)
		return NULL;
	summary_sql(f, rq, plan, walk, sql, sizeof sql);
	if ((st = db_prepare(db, sql, err)) == NULL)
		return NULL;
	filter_bind(st, f, rq, &k);
	if (money_known(f->max_price_gpu_hour))
		sqlite3_bind_int64(st, k++, f->max_price_gpu_hour);
	return st;
}

int
db_summary_scan(struct db *db, const struct offer_filter *f,
    db_summary_fn *fn, void *ctx, size_t *rows, struct err *err)
{
	struct rentable_sql rq;
	struct db_summary_row r;
	sqlite3_stmt *st;
	bool ready;
	int rc;

	*rows = 0;
	if (db_sort_keys_ready(db, &ready, err) < 0)
		return -1;
	if (!ready)
		return 1;
	if ((st = summary_prepare(db, f, false, WALK_ROWS, &rq, err)) == NULL)
		return -1;
	/* Spot history row by row (rentable.h): C judges it. */
	if (!f->spot && rq.spot_rule && rq.nspot_mixed > 0) {
		sqlite3_finalize(st);
		return 1;
	}
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (!summary_row(st, &r))
			continue;	/* NOT NULL columns: never */
		/* History is no spot price (plan_spot_rule()). */
		if (rentable_spot_old(&rq, r.provider))
			r.spot_gpu_hour = MONEY_NONE;
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
	struct rentable_sql rq;
	sqlite3_stmt *st;
	size_t len = 0;

	if (size > 0)
		out[0] = '\0';
	if (db_sort_keys_update(db, err) < 0 ||
	    (st = summary_prepare(db, f, true, WALK_ROWS, &rq, err)) == NULL)
		return -1;
	return db_plan_lines(db, st, out, size, &len, err);
}

int
db_groups_walk_plan(struct db *db, int kind, char *out, size_t size,
    struct err *err)
{
	struct rentable_sql rq;
	struct offer_filter f;
	sqlite3_stmt *st;
	size_t len = 0;

	if (size > 0)
		out[0] = '\0';
	offer_filter_init(&f);
	f.include_stale = true;
	if ((st = summary_prepare(db, &f, true, kind == 0 ? WALK_PRICE :
	    WALK_SPOT, &rq, err)) == NULL)
		return -1;
	return db_plan_lines(db, st, out, size, &len, err);
}

/*
 * --group-by's answers kept at write time (migration 14): the groupings
 * a query reads whole. Each key alone, and the GPU with each other key:
 * a key with one --gpu is the GPU's groups of that pair (the same
 * offers, grouped the same), and --group-by gpu with --gpu its rows of
 * the GPU. Any other grouping or filter walks offers_summary as before.
 */
#define KEY_BIT(k)	(1u << (k))
static const unsigned stored_keysets[] = {
	KEY_BIT(GROUP_GPU), KEY_BIT(GROUP_PROVIDER), KEY_BIT(GROUP_REGION),
	KEY_BIT(GROUP_CONTINENT),
	KEY_BIT(GROUP_GPU) | KEY_BIT(GROUP_PROVIDER),
	KEY_BIT(GROUP_GPU) | KEY_BIT(GROUP_REGION),
	KEY_BIT(GROUP_GPU) | KEY_BIT(GROUP_CONTINENT),
};
#define NSTORED	(sizeof stored_keysets / sizeof stored_keysets[0])

/*
 * What the kept groups were computed from besides the offers: the
 * stored sort keys, continents and catalogues (db_sort_keys_version()),
 * the retired table (which offers can be rented at all), and the
 * summary's own code (the leading number: bump it when what is stored
 * or how it is computed changes; 2: market references left out, issue
 * 48).
 */
static const char *
groups_version(void)
{
	static char version[64];
	uint64_t h = 1469598103934665603ULL;	/* FNV-1a */
	const char *p;
	size_t i, j;

	if (version[0] != '\0')
		return version;
	for (i = 0; i < retired_count; i++)
		for (j = 0; j < 2; j++) {
			p = j == 0 ? retired_table[i].provider :
			    retired_table[i].instance_type;
			h = str_fnv1a(h, p, strlen(p));
			h = str_fnv1a(h, ";", 1);
		}
	snprintf(version, sizeof version, "2-%s-%016llx",
	    db_sort_keys_version(), (unsigned long long)h);
	return version;
}

/* The group_by of a keyset: its keys in GROUP_KEY order. */
static void
keyset_group_by(unsigned keyset, struct group_by *g)
{
	size_t k;

	g->nkeys = 0;
	for (k = 0; k < GROUP_KEY_COUNT; k++)
		if (keyset & KEY_BIT(k))
			g->keys[g->nkeys++] = (enum group_key)k;
}

struct store_ctx {
	struct db	*db;
	sqlite3_stmt	*group, *cand;
	const struct group_by *g;
	unsigned	 keyset;
	int64_t		 grp;
	struct err	*err;
};

static void
bind_stats(sqlite3_stmt *st, int k, const struct price_stats *ps)
{
	sqlite3_bind_int64(st, k, (sqlite3_int64)ps->n);
	db_bind_money(st, k + 1, ps->min);
	db_bind_money(st, k + 2, ps->median);
	db_bind_money(st, k + 3, ps->max);
}

static int
store_group(const struct summary_group *group, const char *gpu,
    const struct summary_cand *cands, size_t ncands, void *ctx)
{
	struct store_ctx *c = ctx;
	const char *v[GROUP_KEY_COUNT] = { "", "", "", "" };
	size_t k, best;
	int cmp;

	for (k = 0; k < c->g->nkeys; k++)
		v[c->g->keys[k]] = group->values[k];
	sqlite3_bind_int(c->group, 1, (int)c->keyset);
	sqlite3_bind_text(c->group, 2, c->keyset & KEY_BIT(GROUP_GPU) ? gpu :
	    "", -1, SQLITE_STATIC);
	sqlite3_bind_int64(c->group, 3, c->grp);
	for (k = 0; k < GROUP_KEY_COUNT; k++)
		sqlite3_bind_text(c->group, 4 + (int)k, v[k], -1,
		    SQLITE_STATIC);
	sqlite3_bind_int64(c->group, 8, (sqlite3_int64)group->offers);
	bind_stats(c->group, 9, &group->price);
	bind_stats(c->group, 13, &group->spot);
	if (sqlite3_step(c->group) != SQLITE_DONE) {
		db_err(c->db, c->err, "write failed");
		return -1;
	}
	sqlite3_reset(c->group);
	/*
	 * Of the offers tied at the group's lowest price (or of all, none
	 * known), the first in (provider, key) order: the first of them in
	 * the order of price per GPU-hour (plan_cmp()'s ties), so the
	 * cheapest of a query in that order (db_groups_stored()).
	 */
	for (k = 1, best = 0; k < ncands; k++)
		if ((cmp = strcmp(cands[k].provider, cands[best].provider)) < 0 ||
		    (cmp == 0 && strcmp(cands[k].key, cands[best].key) < 0))
			best = k;
	if (ncands > 0) {
		sqlite3_bind_int(c->cand, 1, (int)c->keyset);
		sqlite3_bind_int64(c->cand, 2, c->grp);
		sqlite3_bind_text(c->cand, 3, cands[best].provider, -1,
		    SQLITE_STATIC);
		sqlite3_bind_text(c->cand, 4, cands[best].key, -1,
		    SQLITE_STATIC);
		if (sqlite3_step(c->cand) != SQLITE_DONE) {
			db_err(c->db, c->err, "write failed");
			return -1;
		}
		sqlite3_reset(c->cand);
	}
	c->grp++;
	return 0;
}

static void
store_row(const struct db_summary_row *r, void *ctx)
{
	summary_acc_add(ctx, r->gpu, r->provider, r->region, r->key,
	    r->price_gpu_hour, r->spot_gpu_hour);
}

/*
 * Give the ranked accumulators atoms and by[0..n) every known value of
 * kind in ascending order, from f's walk of that price.
 */
static int
groups_rank(struct db *db, const struct offer_filter *f,
    enum summary_walk kind, struct summary_acc *atoms, struct summary_acc **by,
    size_t n, struct err *err)
{
	struct rentable_sql rq;
	sqlite3_stmt *st;
	const char *provider, *gpu, *region;
	int64_t v;
	size_t g, i;
	int rc;

	if ((st = summary_prepare(db, f, false, kind, &rq, err)) == NULL)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		provider = (const char *)sqlite3_column_text(st, 0);
		gpu = (const char *)sqlite3_column_text(st, 1);
		region = (const char *)sqlite3_column_text(st, 2);
		v = db_stmt_sk_money(st, 3);
		if (!money_known(v))
			break;		/* the unknown sort last */
		/* A spot price that is history is none (as store_row()). */
		if (kind == WALK_SPOT && provider != NULL &&
		    rentable_spot_old(&rq, provider))
			continue;
		if (provider == NULL || gpu == NULL || region == NULL ||
		    (g = summary_acc_rank(atoms, kind, gpu, provider,
		    region, v)) == SIZE_MAX)
			continue;	/* not a row of the count: checked */
		for (i = 0; i < n; i++)
			summary_acc_rank_group(by[i], kind, g, v);
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE && rc != SQLITE_ROW) {
		db_file_error(db, err);
		return -1;
	}
	return 0;
}

/*
 * Until when do groups made at `now` stay true without a write? A
 * grouping leaves out the market references (rentable.h), and a
 * marketplace listing becomes one when it is a day old: the groups hold
 * until the first listing that was not one turns a day old. Per
 * marketplace provider from its status row (its offers' oldest and
 * newest fetched_at), as rentable_prepare() judges them: all older than
 * the cut, nothing turns; all newer, its oldest is the first to (or a
 * later one, if it is no listing: earlier is only cautious); a mix, its
 * listings are read. And until the first current spot price turns a
 * week old (history). INT64_MAX: none will.
 */
static int
groups_valid_until(struct db *db, int64_t now, int64_t *until,
    struct err *err)
{
	sqlite3_stmt *st = NULL, *mixed = NULL;
	int64_t cut = now - RENTABLE_MARKET_SECONDS, oldest, newest, first;
	const char *m;
	size_t i;
	int rc = -1;

	*until = INT64_MAX;
	if ((st = db_prepare(db, "SELECT oldest, newest FROM main."
	    "provider_status WHERE provider = ? AND offer_count > 0",
	    err)) == NULL ||
	    (mixed = db_prepare(db, "SELECT min(fetched_at) FROM main.offers "
	    "WHERE provider = ?1 AND (notes & ?2) != 0 AND fetched_at >= ?3",
	    err)) == NULL)
		goto done;
	for (i = 0; (m = marketplace_providers[i]) != NULL; i++) {
		sqlite3_bind_text(st, 1, m, -1, SQLITE_STATIC);
		if ((rc = sqlite3_step(st)) != SQLITE_ROW) {
			sqlite3_reset(st);
			if (rc != SQLITE_DONE)
				goto fail;
			continue;
		}
		oldest = sqlite3_column_int64(st, 0);
		newest = sqlite3_column_int64(st, 1);
		sqlite3_reset(st);
		if (newest < cut)
			continue;
		first = oldest;
		if (oldest < cut) {
			sqlite3_bind_text(mixed, 1, m, -1, SQLITE_STATIC);
			sqlite3_bind_int64(mixed, 2,
			    (sqlite3_int64)NOTE_BIT(NOTE_SINGLE_LISTING));
			sqlite3_bind_int64(mixed, 3, cut);
			if ((rc = sqlite3_step(mixed)) != SQLITE_ROW)
				goto fail;
			first = sqlite3_column_type(mixed, 0) == SQLITE_NULL ?
			    INT64_MAX : sqlite3_column_int64(mixed, 0);
			sqlite3_reset(mixed);
			if (first == INT64_MAX)
				continue;
		}
		if (first + RENTABLE_MARKET_SECONDS < *until)
			*until = first + RENTABLE_MARKET_SECONDS;
	}
	/*
	 * And a spot price becomes history a week after its fetch (rentable.h
	 * RENTABLE_SPOT_SECONDS): the groups hold until the first current
	 * one does, by each provider's oldest offer (cautious: it may have
	 * no spot price). A provider already all history stays so.
	 */
	sqlite3_finalize(st);
	if ((st = db_prepare(db, "SELECT min(oldest) FROM main.provider_status "
	    "WHERE offer_count > 0 AND oldest >= ?", err)) == NULL) {
		rc = -1;
		goto done;
	}
	sqlite3_bind_int64(st, 1, now - RENTABLE_SPOT_SECONDS);
	if ((rc = sqlite3_step(st)) != SQLITE_ROW)
		goto fail;
	if (sqlite3_column_type(st, 0) != SQLITE_NULL &&
	    sqlite3_column_int64(st, 0) + RENTABLE_SPOT_SECONDS < *until)
		*until = sqlite3_column_int64(st, 0) + RENTABLE_SPOT_SECONDS;
	rc = 0;
	goto done;
fail:
	db_file_error(db, err);
	rc = -1;
done:
	sqlite3_finalize(st);
	sqlite3_finalize(mixed);
	return rc;
}

/*
 * Keep the --group-by answers of every stored keyset: one walk of the
 * offers counts each atom (gpu, provider, region) and finds its
 * candidates; each keyset is a regrouping of the atoms; the medians
 * come from two more walks, of each price in ascending order, that
 * keep of each group only its middle values. Memory is the groups',
 * not the offers': keeping every value for a selection was 16 bytes an
 * offer (32 at the peak of a regrouping), half the memory of a refresh
 * at a million offers.
 */
int
db_groups_store(struct db *db, int64_t now, struct err *err)
{
	struct rentable_sql rq;
	static const struct group_by atoms_by = { { GROUP_GPU,
	    GROUP_PROVIDER, GROUP_REGION }, 3 };
	struct summary_acc *atoms = NULL, *by[NSTORED] = { NULL };
	struct store_ctx c;
	struct offer_filter f;
	struct db_summary_row r;
	struct group_by g;
	sqlite3_stmt *st = NULL, *state = NULL;
	int64_t until;
	size_t i;
	int rc = -1;

	memset(&c, 0, sizeof c);
	if (db_exec(db, "DELETE FROM main.group_summary; "
	    "DELETE FROM main.group_cheapest; DELETE FROM main.group_state",
	    err) < 0)
		return -1;
	/*
	 * Some provider's stored sort keys are of another version (a cache
	 * written before, or a catalogue changed): nothing is kept until
	 * db_sort_keys_update() brings them up to date, which stores the
	 * groups again in its own transaction.
	 */
	if ((st = db_prepare(db, "SELECT 1 FROM main.provider_status WHERE "
	    "sort_keys IS NOT ?1 AND offer_count > 0 LIMIT 1", err)) == NULL)
		return -1;
	sqlite3_bind_text(st, 1, db_sort_keys_version(), -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	st = NULL;
	if (rc == SQLITE_ROW)
		return 0;
	rc = -1;
	/*
	 * What a grouped query with no filter walks at `now`: the offers,
	 * not the market references (issue 48: a summary is of the rows
	 * the same query shows). Its rows hold until `until`.
	 */
	offer_filter_init(&f);
	f.now = now;
	if (groups_valid_until(db, now, &until, err) < 0)
		return -1;
	atoms = summary_acc_new(&atoms_by, false);
	summary_acc_least(atoms);	/* all ties: memory at 1M offers */
	summary_acc_ranked(atoms);
	if ((st = summary_prepare(db, &f, false, WALK_ROWS, &rq, err)) == NULL)
		goto done;
	/*
	 * A provider whose spot prices are only partly history (rentable.h)
	 * is judged row by row, which the walks cannot: the groups are kept
	 * but never read (the summary index answers, in C).
	 */
	if (rq.spot_rule && rq.nspot_mixed > 0)
		until = 0;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (!summary_row(st, &r))
			continue;	/* NOT NULL columns: never */
		/* History is no spot price (plan_spot_rule()). */
		if (rentable_spot_old(&rq, r.provider))
			r.spot_gpu_hour = MONEY_NONE;
		store_row(&r, atoms);
	}
	sqlite3_finalize(st);
	st = NULL;
	if (rc != SQLITE_DONE) {
		db_file_error(db, err);
		rc = -1;
		goto done;
	}
	rc = -1;
	for (i = 0; i < NSTORED; i++) {
		keyset_group_by(stored_keysets[i], &g);
		by[i] = summary_acc_regroup(atoms, &g);
	}
	if (groups_rank(db, &f, WALK_PRICE, atoms, by, NSTORED, err) < 0 ||
	    groups_rank(db, &f, WALK_SPOT, atoms, by, NSTORED, err) < 0)
		goto done;
	for (i = 0; i < NSTORED; i++)
		if (summary_acc_ranked_check(by[i]) < 0)
			break;
	if (summary_acc_ranked_check(atoms) < 0 || i < NSTORED) {
		err_set(err, "cache %s: the walks of the offers' prices "
		    "disagree with their count", db->path);
		goto done;
	}
	c.db = db;
	c.err = err;
	c.g = &g;
	if ((c.group = db_prepare(db, "INSERT INTO main.group_summary "
	    "(keyset, gpu, grp, gpu_value, provider, region, continent, "
	    "offers, price_n, price_min, price_median, price_max, spot_n, "
	    "spot_min, spot_median, spot_max) VALUES (?,?,?,?,?,?,?,?,?,?,?,"
	    "?,?,?,?,?)", err)) == NULL ||
	    (c.cand = db_prepare(db, "INSERT INTO main.group_cheapest "
	    "(keyset, grp, provider, key) VALUES (?,?,?,?)", err)) == NULL ||
	    (state = db_prepare(db, "INSERT INTO main.group_state (keyset, "
	    "version, made_at, valid_until) VALUES (?,?,?,?)", err)) == NULL)
		goto done;
	for (i = 0; i < NSTORED; i++) {
		keyset_group_by(stored_keysets[i], &g);
		c.keyset = stored_keysets[i];
		c.grp = 0;
		if (summary_acc_each(by[i], store_group, &c) < 0)
			goto done;
		sqlite3_bind_int(state, 1, (int)stored_keysets[i]);
		sqlite3_bind_text(state, 2, groups_version(), -1,
		    SQLITE_STATIC);
		sqlite3_bind_int64(state, 3, now);
		sqlite3_bind_int64(state, 4, until);
		if (sqlite3_step(state) != SQLITE_DONE) {
			db_err(db, err, "write failed");
			goto done;
		}
		sqlite3_reset(state);
	}
	rc = 0;
done:
	sqlite3_finalize(st);
	sqlite3_finalize(c.group);
	sqlite3_finalize(c.cand);
	sqlite3_finalize(state);
	for (i = 0; i < NSTORED; i++)
		summary_acc_free(by[i]);
	summary_acc_free(atoms);
	if (rc < 0)
		err_prefix(err, "keeping the --group-by summaries");
	return rc;
}

/*
 * Is grouping keyset kept with this program's version (*current), and
 * true at time now (*valid: made no later, and no listing has turned a
 * market reference since)?
 */
static int
groups_current(struct db *db, unsigned keyset, int64_t now, bool *current,
    bool *valid, struct err *err)
{
	sqlite3_stmt *st;
	const unsigned char *v;
	int rc;

	*current = *valid = false;
	if ((st = db_prepare(db, "SELECT version, made_at, valid_until FROM "
	    "main.group_state WHERE keyset = ?", err)) == NULL)
		return -1;
	sqlite3_bind_int(st, 1, (int)keyset);
	if ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		v = sqlite3_column_text(st, 0);
		*current = v != NULL &&
		    strcmp((const char *)v, groups_version()) == 0;
		*valid = *current && now >= sqlite3_column_int64(st, 1) &&
		    now <= sqlite3_column_int64(st, 2);
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
		db_file_error(db, err);
		return -1;
	}
	return 0;
}

/*
 * Does a kept grouping answer f exactly? Only with no filter but --gpu
 * (no form), asked at a time (the market references left out, as the
 * groups were made).
 */
static bool
groups_filter_kept(const struct offer_filter *f)
{
	int ff;

	for (ff = 0; ff < FILTER_FIELD_COUNT; ff++)
		if (ff != FF_GPU && filter_is_set(f, (enum filter_field)ff))
			return false;
	return f->now != 0 && !f->include_stale && !f->only_stale &&
	    f->term == TERM_NONE && f->form == GPU_FORM_ANY;
}

static void
read_stats(sqlite3_stmt *st, int k, struct price_stats *ps)
{
	ps->n = (size_t)sqlite3_column_int64(st, k);
	ps->min = db_stmt_money(st, k + 1);
	ps->median = db_stmt_money(st, k + 2);
	ps->max = db_stmt_money(st, k + 3);
}

void
db_groups_done(struct db_groups *out)
{
	size_t i;

	for (i = 0; i < out->ncands; i++) {
		free(out->providers[i]);
		free(out->keys[i]);
	}
	free(out->providers);
	free(out->keys);
	free(out->group_of);
	free(out->v);
	offer_list_done(&out->cands);
	memset(out, 0, sizeof *out);
}

int
db_groups_stored(struct db *db, const struct group_by *g,
    const struct offer_filter *f, size_t limit, struct db_groups *out,
    struct err *err)
{
	char sql[1024];
	sqlite3_stmt *st = NULL;
	struct summary_group *grp;
	const unsigned char *t;
	unsigned keyset = 0, read_set;
	size_t i, k, cap = 0, capc = 0, shown;
	bool current, valid, ready;
	int rc;

	memset(out, 0, sizeof *out);
	offer_list_init(&out->cands);
	for (k = 0; k < g->nkeys; k++)
		keyset |= KEY_BIT(g->keys[k]);
	if (!groups_filter_kept(f) || keyset == 0)
		return 0;
	read_set = keyset;
	if (f->ngpus > 0 && !(keyset & KEY_BIT(GROUP_GPU))) {
		if (f->ngpus != 1)
			return 0;
		read_set |= KEY_BIT(GROUP_GPU);
	}
	for (i = 0; i < NSTORED && stored_keysets[i] != read_set; i++)
		;
	if (i == NSTORED)
		return 0;
	if (db_sort_keys_ready(db, &ready, err) < 0)
		return -1;
	if (!ready)
		return 0;
	if (groups_current(db, read_set, f->now, &current, &valid, err) < 0)
		return -1;
	if (!current) {
		/* Kept before this program (or never): make them now. */
		if (db_read_only(db))
			return 0;
		if (db_exec(db, "BEGIN IMMEDIATE", err) < 0)
			return -1;
		if (db_groups_store(db, f->now, err) < 0 ||
		    db_exec(db, "COMMIT", err) < 0) {
			sqlite3_exec(db->sql, "ROLLBACK", NULL, NULL, NULL);
			return -1;
		}
		if (groups_current(db, read_set, f->now, &current, &valid,
		    err) < 0)
			return -1;
	}
	/*
	 * A listing turned a market reference since they were made: the
	 * summary index answers (the next write keeps them again), not a
	 * write from a query that a refresh's lock could hold up.
	 */
	if (!current || !valid)
		return 0;
	/*
	 * One read transaction: the groups, their kept offers and those
	 * offers from the same snapshot of the cache, whatever a refresh
	 * commits meanwhile (a group's number means another group after a
	 * write).
	 */
	if (db_exec(db, "BEGIN", err) < 0)
		return -1;
	snprintf(sql, sizeof sql, "SELECT grp, gpu_value, provider, region, "
	    "continent, offers, price_n, price_min, price_median, price_max, "
	    "spot_n, spot_min, spot_median, spot_max FROM main.group_summary "
	    "WHERE keyset = ?");
	if (f->ngpus > 0) {
		strncat(sql, " AND gpu IN (", sizeof sql - strlen(sql) - 1);
		for (i = 0; i < f->ngpus; i++)
			strncat(sql, i == 0 ? "?" : ",?",
			    sizeof sql - strlen(sql) - 1);
		strncat(sql, ")", sizeof sql - strlen(sql) - 1);
	}
	if ((st = db_prepare(db, sql, err)) == NULL)
		goto fail;
	sqlite3_bind_int(st, 1, (int)read_set);
	for (i = 0; i < f->ngpus; i++)
		sqlite3_bind_text(st, 2 + (int)i, f->gpus[i]->id, -1,
		    SQLITE_STATIC);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (out->n == cap) {
			cap = cap == 0 ? 64 : cap * 2;
			out->v = xreallocarray(out->v, cap, sizeof *out->v);
		}
		grp = &out->v[out->n++];
		memset(grp, 0, sizeof *grp);
		grp->stored = sqlite3_column_int64(st, 0);
		for (k = 0; k < g->nkeys; k++)
			db_column_text(st, 1 + (int)g->keys[k],
			    grp->values[k], sizeof grp->values[k]);
		grp->offers = (size_t)sqlite3_column_int64(st, 5);
		read_stats(st, 6, &grp->price);
		read_stats(st, 10, &grp->spot);
		price_stats_of(NULL, 0, &grp->term);
		grp->rank_min = grp->price.min;
		out->offers += grp->offers;
	}
	sqlite3_finalize(st);
	st = NULL;
	if (rc != SQLITE_DONE)
		goto sqlfail;
	summary_sort(out->v, out->n);
	/* The offers that may be the cheapest of the groups shown. */
	shown = limit > 0 && limit < out->n ? limit : out->n;
	if ((st = db_prepare(db, "SELECT provider, key FROM main.group_cheapest "
	    "WHERE keyset = ? AND grp = ?", err)) == NULL)
		goto fail;
	for (i = 0; i < shown; i++) {
		sqlite3_bind_int(st, 1, (int)read_set);
		sqlite3_bind_int64(st, 2, out->v[i].stored);
		while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
			if (out->ncands == capc) {
				capc = capc == 0 ? 64 : capc * 2;
				out->providers = xreallocarray(out->providers,
				    capc, sizeof *out->providers);
				out->keys = xreallocarray(out->keys, capc,
				    sizeof *out->keys);
				out->group_of = xreallocarray(out->group_of,
				    capc, sizeof *out->group_of);
			}
			t = sqlite3_column_text(st, 0);
			out->providers[out->ncands] = xstrdup(t != NULL ?
			    (const char *)t : "");
			t = sqlite3_column_text(st, 1);
			out->keys[out->ncands] = xstrdup(t != NULL ?
			    (const char *)t : "");
			out->group_of[out->ncands++] = i;
		}
		if (rc != SQLITE_DONE)
			goto sqlfail;
		sqlite3_reset(st);
	}
	sqlite3_finalize(st);
	st = NULL;
	if (db_offers_get(db, (const char *const *)out->providers,
	    (const char *const *)out->keys, out->ncands, &out->cands,
	    err) < 0 || db_exec(db, "COMMIT", err) < 0)
		goto fail;
	return 1;
sqlfail:
	db_file_error(db, err);
fail:
	sqlite3_finalize(st);
	sqlite3_exec(db->sql, "ROLLBACK", NULL, NULL, NULL);
	db_groups_done(out);
	return -1;
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
	    "fabric_nodes = ?, spot_price = ?, spot_zone = ?, "
	    "spot_interruption = ?, notes = ? WHERE provider = ? AND key = ?",
	    err)) == NULL)
		goto fail;
	sqlite3_bind_text(st, 1, version, -1, SQLITE_STATIC);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		offer_init(&o);
		/* The row as a query reads it (host bounds and all). */
		db_row_to_offer(st, &o);
		offer_sort_keys(o.provider, &o, &k);
		db_bind_sort_keys(up, 1, &k);
		/* What db_row_to_offer() no longer keeps (a spot price with
		 * no command) goes from the row too, so SQL agrees. */
		db_bind_money(up, 12, o.spot_price);
		sqlite3_bind_text(up, 13, o.spot_zone, -1, SQLITE_STATIC);
		if (o.spot_interruption >= 0)
			sqlite3_bind_int(up, 14, o.spot_interruption);
		else
			sqlite3_bind_null(up, 14);
		sqlite3_bind_int64(up, 15, (sqlite3_int64)o.notes);
		sqlite3_bind_value(up, 16, sqlite3_column_value(st, 0));
		sqlite3_bind_value(up, 17, sqlite3_column_value(st, 1));
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
	if (rc < 0 || db_groups_store(db, (int64_t)time(NULL), err) < 0 ||
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
