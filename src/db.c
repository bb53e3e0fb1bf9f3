/*
 * db.c: the cache file itself. Its one job: open, check and close the
 * SQLite file, create and migrate its schema, and the statement helpers
 * the other db_*.c files share (db_internal.h). What is stored lives by
 * concern: the offers' writes in db_offers.c and their reads in
 * db_query.c and db_summary.c (over db_filter.c, db_sort_keys.c and
 * db_rows.c), history and watches in db_history.c, provider status and
 * settings in db_settings.c, the published copy and its merge in
 * db_share.c. Only these files talk to SQLite. What goes
 * in on first use (the snapshot) is cache.c's call.
 */
#include "config.h"
#include "db.h"

#include <errno.h>
#include <sqlite3.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "db_internal.h"
#include "err.h"
#include "money.h"
#include "paths.h"
#include "str.h"
#include "xalloc.h"


/*
 * Migrations: entry i brings a cache from user_version i to i + 1. Never
 * edit a shipped entry; append a new one and bump DB_SCHEMA_VERSION.
 */
static const char *const migrations[DB_SCHEMA_VERSION] = {
	/* 0 -> 1: offers, their price history, provider status. */
	"CREATE TABLE offers ("
	"  provider TEXT NOT NULL,"
	"  key TEXT NOT NULL,"
	"  instance_type TEXT NOT NULL,"
	"  region TEXT NOT NULL,"
	"  gpu TEXT NOT NULL,"		/* canonical id, '' unknown */
	"  gpu_raw TEXT NOT NULL,"
	"  gpu_count INTEGER NOT NULL,"
	"  vram_gb INTEGER NOT NULL,"	/* per GPU */
	"  interconnect TEXT NOT NULL,"
	"  vcpus INTEGER NOT NULL,"
	"  ram_gb REAL NOT NULL,"
	"  price INTEGER,"		/* micro-USD per instance-hour */
	"  spot_price INTEGER,"		/* micro-USD per instance-hour */
	"  availability TEXT NOT NULL,"
	"  spot_interruption INTEGER,"	/* Spot Advisor bucket 0..4 */
	"  reliability REAL,"
	"  fetched_at INTEGER NOT NULL,"	/* UTC epoch seconds */
	"  source TEXT NOT NULL,"
	"  PRIMARY KEY (provider, key)"
	") WITHOUT ROWID;"
	"CREATE INDEX offers_gpu ON offers (gpu, gpu_count);"
	"CREATE TABLE price_history ("
	"  provider TEXT NOT NULL,"
	"  key TEXT NOT NULL,"
	"  observed_at INTEGER NOT NULL,"
	"  price INTEGER,"
	"  spot_price INTEGER,"
	"  availability TEXT NOT NULL"
	");"
	"CREATE INDEX price_history_offer ON price_history (provider, key,"
	"  observed_at);"
	"CREATE TABLE provider_status ("
	"  provider TEXT PRIMARY KEY,"
	"  source TEXT NOT NULL,"
	"  last_attempt INTEGER,"
	"  last_success INTEGER,"
	"  offer_count INTEGER NOT NULL DEFAULT 0,"
	"  last_error TEXT,"
	/* Never written (issue 10); a shipped migration never changes. */
	"  data_version TEXT"
	");",
	/* 1 -> 2: per-provider settings (published versions per region). */
	"CREATE TABLE provider_meta ("
	"  provider TEXT NOT NULL,"
	"  name TEXT NOT NULL,"
	"  value TEXT NOT NULL,"
	"  PRIMARY KEY (provider, name)"
	") WITHOUT ROWID;",
	/*
	 * 2 -> 3: the GPU index holds the price too, so the cheapest N
	 * offers of a GPU come from the index alone (db_query_top()).
	 */
	"DROP INDEX offers_gpu;"
	"CREATE INDEX offers_gpu ON offers (gpu, gpu_count, price);",
	/*
	 * 3 -> 4: an offer's stored notes (a mask of NOTE_BIT()s, notes.h)
	 * and the zone its spot price is from.
	 */
	"ALTER TABLE offers ADD COLUMN notes INTEGER NOT NULL DEFAULT 0;"
	"ALTER TABLE offers ADD COLUMN spot_zone TEXT NOT NULL DEFAULT '';",
	/*
	 * 4 -> 5: the source's currency and its own price (Scaleway bills
	 * in EUR); rows cached before were all USD.
	 */
	"ALTER TABLE offers ADD COLUMN currency TEXT NOT NULL DEFAULT 'USD';"
	"ALTER TABLE offers ADD COLUMN price_original INTEGER;",
	/*
	 * 5 -> 6: sort keys computed at write time (per-GPU price, per-GPU
	 * spot price, $/PFLOP-h; SK_UNKNOWN_* when unknown, so they sort
	 * last), an index per query shape, and each provider's offer count
	 * and age range kept in its status row, so a query reads no
	 * offers it does not show. The sort keys of existing rows are
	 * filled in by db_sort_keys_update() (they need the GPU catalogue).
	 */
	"ALTER TABLE offers ADD COLUMN sk_gpu_price INTEGER NOT NULL "
	"  DEFAULT 9223372036854775807;"
	"ALTER TABLE offers ADD COLUMN sk_spot_gpu INTEGER NOT NULL "
	"  DEFAULT 9223372036854775807;"
	"ALTER TABLE offers ADD COLUMN sk_pflop REAL NOT NULL "
	"  DEFAULT 1e308;"
	"ALTER TABLE provider_status ADD COLUMN oldest INTEGER;"
	"ALTER TABLE provider_status ADD COLUMN newest INTEGER;"
	"ALTER TABLE provider_status ADD COLUMN sort_keys TEXT;"
	"UPDATE provider_status SET"
	"  offer_count = (SELECT count(*) FROM offers o"
	"    WHERE o.provider = provider_status.provider),"
	"  oldest = (SELECT min(fetched_at) FROM offers o"
	"    WHERE o.provider = provider_status.provider),"
	"  newest = (SELECT max(fetched_at) FROM offers o"
	"    WHERE o.provider = provider_status.provider);"
	"DROP INDEX offers_gpu;"
	"CREATE INDEX offers_gpu ON offers (gpu, gpu_count, sk_gpu_price);"
	"CREATE INDEX offers_count ON offers (gpu_count, sk_gpu_price,"
	"  provider, key, vram_gb, interconnect);"
	"CREATE INDEX offers_gpu_price ON offers (sk_gpu_price);"
	"CREATE INDEX offers_provider_price ON offers (provider,"
	"  sk_gpu_price);"
	"CREATE INDEX offers_provider_pflop ON offers (provider, sk_pflop,"
	"  sk_gpu_price);"
	"CREATE INDEX offers_spot_gpu ON offers (sk_spot_gpu,"
	"  sk_gpu_price);",
	/*
	 * 6 -> 7: when each provider's offers were observed (the refreshes
	 * history counts availability over), and what each watch last
	 * reported, per normalised query and offer.
	 */
	"CREATE TABLE refresh_log ("
	"  provider TEXT NOT NULL,"
	"  at INTEGER NOT NULL"
	");"
	"CREATE INDEX refresh_log_at ON refresh_log (provider, at);"
	"CREATE TABLE watch ("
	"  query TEXT PRIMARY KEY,"
	"  created_at INTEGER NOT NULL,"
	"  last_run INTEGER NOT NULL"
	");"
	"CREATE TABLE watch_offer ("
	"  query TEXT NOT NULL,"
	"  provider TEXT NOT NULL,"
	"  key TEXT NOT NULL,"
	"  price INTEGER,"		/* last reported, ranked per GPU-hour */
	"  availability TEXT NOT NULL,"	/* at the last run */
	"  reported_at INTEGER NOT NULL,"
	"  PRIMARY KEY (query, provider, key)"
	") WITHOUT ROWID;",
	/*
	 * 7 -> 8 (issue 26): the nodes of a cluster product (RunPod Instant
	 * Clusters: one offer of N nodes sold together); every row cached
	 * before is one machine. A query that asks for no plan of several
	 * nodes keeps them out in SQL ("nodes = 1"): each index takes nodes
	 * after its equality columns, so that stays an index search in the
	 * order of the sort key, and the indexes stay covering.
	 */
	"ALTER TABLE offers ADD COLUMN nodes INTEGER NOT NULL DEFAULT 1;"
	"DROP INDEX offers_gpu;"
	"CREATE INDEX offers_gpu ON offers (gpu, gpu_count, nodes,"
	"  sk_gpu_price);"
	"DROP INDEX offers_count;"
	"CREATE INDEX offers_count ON offers (gpu_count, nodes, sk_gpu_price,"
	"  provider, key, vram_gb, interconnect);"
	"DROP INDEX offers_gpu_price;"
	"CREATE INDEX offers_gpu_price ON offers (nodes, sk_gpu_price);"
	"DROP INDEX offers_provider_price;"
	"CREATE INDEX offers_provider_price ON offers (provider, nodes,"
	"  sk_gpu_price);"
	"DROP INDEX offers_provider_pflop;"
	"CREATE INDEX offers_provider_pflop ON offers (provider, nodes,"
	"  sk_pflop, sk_gpu_price);"
	"DROP INDEX offers_spot_gpu;"
	"CREATE INDEX offers_spot_gpu ON offers (nodes, sk_spot_gpu,"
	"  sk_gpu_price);",
	/*
	 * 8 -> 9: committed prices (committed.h) of each offer -- its
	 * reservations, savings plans and commitments, one row per kind,
	 * term (months) and upfront option -- and their history, written
	 * like price_history: a row when one is new or its price changed.
	 */
	"CREATE TABLE committed ("
	"  provider TEXT NOT NULL,"
	"  key TEXT NOT NULL,"
	"  kind TEXT NOT NULL,"		/* reservation, savings-plan ... */
	"  months INTEGER NOT NULL,"	/* the term */
	"  upfront TEXT NOT NULL,"	/* none, partial, all */
	"  price_hour INTEGER NOT NULL,"	/* effective micro-USD */
	"  upfront_usd INTEGER NOT NULL,"	/* micro-USD at the start */
	"  PRIMARY KEY (provider, key, kind, months, upfront)"
	") WITHOUT ROWID;"
	"CREATE TABLE committed_history ("
	"  provider TEXT NOT NULL,"
	"  key TEXT NOT NULL,"
	"  kind TEXT NOT NULL,"
	"  months INTEGER NOT NULL,"
	"  upfront TEXT NOT NULL,"
	"  observed_at INTEGER NOT NULL,"
	"  price_hour INTEGER NOT NULL,"
	"  upfront_usd INTEGER NOT NULL"
	");"
	"CREATE INDEX committed_history_offer ON committed_history (provider,"
	"  key, observed_at);",
	/*
	 * 9 -> 10: the outcome of every refresh attempt of each provider,
	 * success or failure, with the offers a success stored and the
	 * endpoint asked: what `providers` and the answers judge a
	 * provider's health by (health.h). This cache's own: not shared.
	 */
	"CREATE TABLE refresh_outcome ("
	"  provider TEXT NOT NULL,"
	"  at INTEGER NOT NULL,"
	"  ok INTEGER NOT NULL,"
	"  offers INTEGER NOT NULL,"
	"  endpoint TEXT NOT NULL"
	");"
	"CREATE INDEX refresh_outcome_at ON refresh_outcome (provider, at);",
	/*
	 * 10 -> 11: the region names, so shell completion's `__complete
	 * regions` lists them with one index seek per distinct name
	 * (milliseconds at 100k offers) instead of reading every offer.
	 */
	"CREATE INDEX offers_region ON offers (region);",
	/*
	 * 11 -> 12 (issue 29): what a --group-by summary reads of every
	 * offer it counts (db_summary.c): its GPU, region and per-GPU
	 * prices, with the count and the spot price its filters test and
	 * the primary key every index holds; one narrow walk of this index
	 * instead of every row whole. nodes and gpu lead, so --gpu seeks.
	 */
	"CREATE INDEX offers_summary ON offers (nodes, gpu, gpu_count,"
	"  sk_gpu_price, sk_spot_gpu, region, spot_price);",
	/*
	 * 12 -> 13 (issue 29): what a filter asks of an offer that is no
	 * SQL expression on its columns, derived when it is written
	 * (db_bind_offer(), from the C functions offer_matches() uses) so
	 * that --limit keeps its index walk: the continent and country of
	 * its region (region_locate()), its board form (offer_form(), a
	 * gpu_form), whether Vertex AI trains on it (1), and its names
	 * folded for --match (offer_search_text()). A cache's rows from
	 * before are filled in by db_sort_keys_update(), as the sort keys
	 * (their version names these too). Vertex AI offers are few: their
	 * partial index is a walk of them in price order. The walk in
	 * price order without --gpu, --count or --provider holds what
	 * these filters (and --gpu, --min-vram, --interconnect) test, after
	 * the price and the key it orders by: a filter that few offers pass
	 * (a glob, a large host, a rare word) then reads the index alone
	 * instead of looking up every offer it passes over (SQLite looks a
	 * row up before it tests the index's own columns). And the walk in $/PFLOP-h
	 * order without --provider, which had none: --sort pflop read
	 * every offer and sorted them.
	 */
	"ALTER TABLE offers ADD COLUMN continent TEXT NOT NULL DEFAULT '';"
	"ALTER TABLE offers ADD COLUMN country TEXT NOT NULL DEFAULT '';"
	"ALTER TABLE offers ADD COLUMN form INTEGER NOT NULL DEFAULT 0;"
	"ALTER TABLE offers ADD COLUMN vertex INTEGER NOT NULL DEFAULT 0;"
	"ALTER TABLE offers ADD COLUMN search BLOB NOT NULL DEFAULT x'';"
	"CREATE INDEX offers_vertex ON offers (nodes, sk_gpu_price) "
	"  WHERE vertex = 1;"
	"CREATE INDEX offers_pflop ON offers (nodes, sk_pflop, sk_gpu_price);"
	"DROP INDEX offers_gpu_price;"
	"CREATE INDEX offers_gpu_price ON offers (nodes, sk_gpu_price, provider,"
	"  key, gpu, gpu_count, vram_gb, interconnect, region, continent,"
	"  country, form, vertex, vcpus, ram_gb, search);",
	/*
	 * 13 -> 14 (issue 29): the number of offers each watch tracks,
	 * written with them (db_watch_store()), so `watch --list` reads
	 * one row per watch instead of counting every tracked offer; NULL
	 * (a watch last run before) is counted when listed.
	 */
	"ALTER TABLE watch ADD COLUMN offers INTEGER;",
	/*
	 * 14 -> 15 (issue 29): a hash of what each offer's row was written
	 * from (db_offer_row_hash()), so a refresh finds the offers that
	 * did not change without comparing every column, and writes only
	 * the others. NULL (written before, or by a path that does not
	 * hash) always counts as changed.
	 */
	"ALTER TABLE offers ADD COLUMN row_hash INTEGER;",
	/*
	 * 15 -> 16 (issue 29): the fabric between an offer's nodes as the
	 * node rules test it (offer_matches(), assembled_ok()), derived
	 * when it is written from data/fabric.tsv by provider and instance
	 * type (fabric_find(); db_sort_keys_update() refills them when the
	 * table changes): its kind (an enum fabric_kind, 0 unknown), Gb/s
	 * per node (0 unknown), and the most nodes one plan may take of it
	 * (fabric_nodes: 0 no stated limit, 1 no placement construct, else
	 * the largest published group), so --fabric and --min-node-gbps
	 * are SQL and keep the --limit walk. The offers that can be taken
	 * several times (not a marketplace's single listing: its note bit
	 * 5, 32) are few; their partial index is the walk in $/GPU-h order
	 * of plans assembled from them (db_query_nodes()), holding what
	 * the node rules and the usual filters test, so a walk past
	 * thousands of offers without the asked fabric reads no row.
	 */
	"ALTER TABLE offers ADD COLUMN fabric INTEGER NOT NULL DEFAULT 0;"
	"ALTER TABLE offers ADD COLUMN node_gbps INTEGER NOT NULL DEFAULT 0;"
	"ALTER TABLE offers ADD COLUMN fabric_nodes INTEGER NOT NULL "
	"  DEFAULT 0;"
	"CREATE INDEX offers_assembled ON offers (nodes, sk_gpu_price,"
	"  provider, key, gpu, gpu_count, fabric, node_gbps, fabric_nodes,"
	"  notes, vram_gb, interconnect, region, continent, country, form,"
	"  vcpus, ram_gb, spot_price, sk_spot_gpu, availability, fetched_at)"
	"  WHERE (notes & 32) = 0;",
	/*
	 * 16 -> 17 (issue 29): every --sort that SQL orders, in either
	 * direction with --limit, a seek and a walk of the first offers
	 * (db_query_top()), not every offer read and sorted: an index of
	 * the key, then the price per GPU-hour ties take (and provider,
	 * key: every index holds them). A near-unique key (price, spot
	 * price, instance type) after nodes: one ORDER BY walks it either
	 * way (the reverse sorts only the ties of one value). A key whose
	 * values repeat leads, then nodes: top_walk() steps through its
	 * values in either direction and takes each value's first offers
	 * in price order (as it does along offers_count and
	 * offers_provider_price for --sort count and provider); the region
	 * names' index becomes that walk's (completion's seeks by name
	 * stay). None holds fetched_at, which every refresh changes
	 * (merge_offers() moves an entry only where an indexed column
	 * changed). --sort age is top_age()'s; savings is an expression, gpu
	 * stays a sort (db_query.c, sort_sql[]).
	 */
	"CREATE INDEX offers_price ON offers (nodes, price, sk_gpu_price);"
	"CREATE INDEX offers_spot ON offers (nodes, spot_price, sk_gpu_price);"
	"CREATE INDEX offers_instance ON offers (nodes, instance_type,"
	"  sk_gpu_price);"
	"CREATE INDEX offers_vram ON offers (vram_gb, nodes, sk_gpu_price);"
	"CREATE INDEX offers_link ON offers (interconnect, nodes,"
	"  sk_gpu_price);"
	"CREATE INDEX offers_availability ON offers (availability, nodes,"
	"  sk_gpu_price);"
	"DROP INDEX offers_region;"
	"CREATE INDEX offers_region ON offers (region, nodes, sk_gpu_price);",
	/*
	 * 17 -> 18 (issue 29): the best committed price per
	 * GPU-hour of each offer for each term it has, and for any term
	 * (t_months -1, TERM_ANY), as committed_best() and cost.c rank it
	 * under --term; written with the committed rows
	 * (db_terms_update()), so --term --limit N walks the offers of that
	 * term in the order the answer ranks them and stops after N. Only
	 * the clouds' offers have committed prices: a small table. Its
	 * columns are named apart from the offers' so the filter's SQL,
	 * written on the offers' names, reads unambiguously in the join. A
	 * cache's providers with committed prices are marked stale, so
	 * db_sort_keys_update() fills it in. The offer's GPU and stored
	 * per-GPU price are kept too (rewritten with it): --gpu seeks its
	 * offers in the term's order instead of walking past every cheaper
	 * GPU's (top_where() tests it on both tables), the ties of the
	 * term's price are in the index's order, and --sort gpu-price walks
	 * the offers of the term in its order.
	 */
	"CREATE TABLE offer_terms ("
	"  t_provider TEXT NOT NULL,"
	"  t_key TEXT NOT NULL,"
	"  t_months INTEGER NOT NULL,"	/* the term; -1 any */
	"  t_gpu_price INTEGER NOT NULL,"	/* micro-USD per GPU-hour */
	"  t_gpu TEXT NOT NULL,"		/* offers.gpu */
	"  t_sk_gpu_price INTEGER NOT NULL,"	/* offers.sk_gpu_price */
	"  PRIMARY KEY (t_provider, t_key, t_months)"
	") WITHOUT ROWID;"
	"CREATE INDEX offer_terms_rank ON offer_terms (t_months, t_gpu_price,"
	"  t_sk_gpu_price);"
	"CREATE INDEX offer_terms_gpu ON offer_terms (t_months, t_gpu,"
	"  t_gpu_price, t_sk_gpu_price);"
	"CREATE INDEX offer_terms_price ON offer_terms (t_months,"
	"  t_sk_gpu_price);"
	"UPDATE provider_status SET sort_keys = NULL WHERE provider IN"
	"  (SELECT DISTINCT provider FROM committed);",
	/*
	 * 18 -> 19 (issue 29): --group-by's answers kept at write time
	 * (db_summary.c's db_groups_store(), in the transaction of every
	 * write of the offers), so a grouped query reads its groups
	 * instead of walking every offer. A grouping includes market references, so what no
	 * write changes stays true; what a new program changes (the
	 * catalogues, the retired table, the summary's own code) is in the
	 * version each grouping's row of group_state names, and a grouping
	 * whose version is not this program's is not read (and is made
	 * again when the cache may be written). group_summary: one row per
	 * group of a grouping (keyset: the GROUP_KEY bits), its values by
	 * key ('' where it does not group by it), the GPU id of its offers
	 * when it groups by GPU, the count and the statistics in micro-USD
	 * per GPU-hour (NULL unknown); group_cheapest: the offers tied at a
	 * group's lowest price (every offer of a group with none known),
	 * one of which is its cheapest.
	 */
	"CREATE TABLE group_summary ("
	"  keyset INTEGER NOT NULL,"
	"  gpu TEXT NOT NULL,"
	"  grp INTEGER NOT NULL,"
	"  gpu_value TEXT NOT NULL,"
	"  provider TEXT NOT NULL,"
	"  region TEXT NOT NULL,"
	"  continent TEXT NOT NULL,"
	"  offers INTEGER NOT NULL,"
	"  price_n INTEGER NOT NULL,"
	"  price_min INTEGER,"
	"  price_median INTEGER,"
	"  price_max INTEGER,"
	"  spot_n INTEGER NOT NULL,"
	"  spot_min INTEGER,"
	"  spot_median INTEGER,"
	"  spot_max INTEGER,"
	"  PRIMARY KEY (keyset, gpu, grp)"
	") WITHOUT ROWID;"
	"CREATE TABLE group_cheapest ("
	"  keyset INTEGER NOT NULL,"
	"  grp INTEGER NOT NULL,"
	"  provider TEXT NOT NULL,"
	"  key TEXT NOT NULL,"
	"  PRIMARY KEY (keyset, grp, provider, key)"
	") WITHOUT ROWID;"
	"CREATE TABLE group_state ("
	"  keyset INTEGER PRIMARY KEY,"
	"  version TEXT NOT NULL"
	");",
	/*
	 * 19 -> 20 (issue 29): a region name or glob (--region 'us-*')
	 * with --gpu seeks each matching region's offers of the GPU,
	 * cheapest first, instead of walking the price index past every
	 * offer of other regions (the cheap H100s are marketplace listings
	 * no 'us-*' matches: 92x the floor at 1M offers). The regions
	 * matching come from a skip through offers_region (derived_sql()).
	 */
	"CREATE INDEX offers_region_gpu ON offers (region, nodes, gpu,"
	"  sk_gpu_price);",
	/*
	 * 20 -> 21 (issue 29): offers_assembled's walk, of the offers with
	 * a trainer's fabric only (fabric 1-5, FABRIC_TRAINING: what
	 * multi-node plans take unless --fabric says otherwise). Those are
	 * an eighth of the offers that can be taken several times, and
	 * the dearer part: the walk of every such offer in $/GPU-h order
	 * passed some 30,000 entries of other fabrics at 1M offers before
	 * the first 20 plans of --multi-node --count 16 (10x the floor).
	 */
	"CREATE INDEX offers_trainable ON offers (nodes, sk_gpu_price,"
	"  provider, key, gpu, gpu_count, fabric, node_gbps, fabric_nodes,"
	"  notes, vram_gb, interconnect, region, continent, country, form,"
	"  vcpus, ram_gb, spot_price, sk_spot_gpu, availability, fetched_at)"
	"  WHERE (notes & 32) = 0 AND fabric BETWEEN 1 AND 5;",
	/*
	 * 21 -> 22 (issue 29): --vertex with --gpu seeks the GPU's Vertex
	 * AI offers cheapest first. offers_vertex holds no GPU, so its
	 * walk read the row of every cheaper Vertex offer to test it: the
	 * 4,240 L4, T4, V100 and A100 ones before the H100s at 1M offers
	 * (5.9x the floor).
	 */
	"CREATE INDEX offers_vertex_gpu ON offers (nodes, gpu, sk_gpu_price)"
	"  WHERE vertex = 1;",
	/*
	 * 22 -> 23 (issue 29): a watch's walk (db_query_top_taking())
	 * judges each offer it passes on its availability and spot price
	 * too, so the price walk carries them; and with --gpu it walks the
	 * GPU's own offers in that order. Without them each of the offers
	 * a watch knows cost a seek of the table: `watch --gpu H100` with
	 * 1,860 known offers read 9,000 entries of the price walk and
	 * sought 1,860 rows (90 million instructions; now 28 million).
	 */
	"DROP INDEX offers_gpu_price;"
	"CREATE INDEX offers_gpu_price ON offers (nodes, sk_gpu_price, provider,"
	"  key, gpu, gpu_count, vram_gb, interconnect, region, continent,"
	"  country, form, vertex, vcpus, ram_gb, search, availability,"
	"  sk_spot_gpu);"
	"CREATE INDEX offers_gpu_walk ON offers (gpu, nodes, sk_gpu_price,"
	"  provider, key, availability, sk_spot_gpu);",
	/*
	 * 23 -> 24 (issue 29): the kept --group-by summaries take their
	 * medians from walks of each price in ascending order instead of
	 * holding every offer's values (db_groups_store()); the price
	 * walk is offers_gpu_price's, and the spot walk carries what an
	 * offer's group is made of (gpu and region) so that it reads no
	 * table row; after the key, so that --spot's ties stay in
	 * (provider, key) order without a sort.
	 */
	"DROP INDEX offers_spot_gpu;"
	"CREATE INDEX offers_spot_gpu ON offers (nodes, sk_spot_gpu,"
	"  sk_gpu_price, provider, key, gpu, region);",
	/*
	 * 24 -> 25 (issue 29): a watch's known offers are one text in its
	 * row (watch.known, db_history.c) instead of a row each in
	 * watch_offer: a cron'd `watch --gpu H100` that knows 1,000 offers
	 * spent 2.4 million instructions loading them, more than its
	 * answer, and storing 20 news rewrote 13 pages of the table.
	 */
	DB_WATCH_KNOWN_SQL,
	/*
	 * 25 -> 26 (issue 47): the price an aggregate offer starts from
	 * (Akash: the cheapest provider's bid, price.min, beside the
	 * weighted average that is its price), micro-USD per
	 * instance-hour; NULL where the source gives none.
	 */
	"ALTER TABLE offers ADD COLUMN price_from INTEGER;",
	/*
	 * 26 -> 27 (issue 48): a kept grouping leaves out the market
	 * references, as the same query's rows do, so it holds from when
	 * it was made (made_at) until the first listing it counts turns a
	 * day old (valid_until); outside that, the summary index answers.
	 * The groups of an older version are not read (groups_version()).
	 */
	"ALTER TABLE group_state ADD COLUMN made_at INTEGER NOT NULL "
	"  DEFAULT 0;"
	"ALTER TABLE group_state ADD COLUMN valid_until INTEGER NOT NULL "
	"  DEFAULT 0;",
};

bool
db_read_begin(struct db *db)
{
	return sqlite3_get_autocommit(db->sql) &&
	    sqlite3_exec(db->sql, "BEGIN", NULL, NULL, NULL) == SQLITE_OK;
}

void
db_read_end(struct db *db, bool began)
{
	/* A read transaction: ending it only lets go of the snapshot. */
	if (began && sqlite3_exec(db->sql, "COMMIT", NULL, NULL, NULL) !=
	    SQLITE_OK)
		sqlite3_exec(db->sql, "ROLLBACK", NULL, NULL, NULL);
}

/* Put "cache PATH: sqlite message" into err. */
void
db_err(struct db *db, struct err *err, const char *what)
{
	err_set(err, "cache %s: %s: %s", db->path, what,
	    sqlite3_errmsg(db->sql));
}

/* Run one statement that returns no rows we need. */
int
db_exec(struct db *db, const char *sql, struct err *err)
{
	char *msg = NULL;

	if (sqlite3_exec(db->sql, sql, NULL, NULL, &msg) != SQLITE_OK) {
		err_set(err, "cache %s: %s", db->path,
		    msg != NULL ? msg : sqlite3_errmsg(db->sql));
		sqlite3_free(msg);
		return -1;
	}
	return 0;
}

/* Read one integer PRAGMA (or any one-value query). */
int
db_int(struct db *db, const char *sql, long long *out, struct err *err)
{
	sqlite3_stmt *st;
	int rc;

	if (sqlite3_prepare_v2(db->sql, sql, -1, &st, NULL) != SQLITE_OK) {
		db_err(db, err, "cannot read");
		return -1;
	}
	rc = sqlite3_step(st);
	if (rc != SQLITE_ROW) {
		db_err(db, err, "cannot read");
		sqlite3_finalize(st);
		return -1;
	}
	*out = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return 0;
}

/*
 * The message for a statement that failed on the cache (opening,
 * reading or preparing): names the file and explains the common ways
 * it is not a usable cache.
 */
void
db_file_error(struct db *db, struct err *err)
{
	int code = sqlite3_errcode(db->sql);
	int sys = sqlite3_system_errno(db->sql);

	if (code == SQLITE_NOTADB)
		err_set(err, "cache %s: not an SQLite database; move it away "
		    "or choose another file with --db", db->path);
	else if (code == SQLITE_CORRUPT)
		err_set(err, "cache %s: database is corrupt; move it away "
		    "(gpucost rebuilds a new one) or choose another with --db",
		    db->path);
	else if (code == SQLITE_NOMEM)
		err_set(err, "cache %s: out of memory", db->path);
	else if ((code == SQLITE_IOERR || code == SQLITE_CANTOPEN ||
	    code == SQLITE_FULL) && sys != 0)
		/* "disk I/O error" alone hides ENOSPC, EFBIG, EIO, EACCES. */
		err_set(err, "cache %s: %s (%s)", db->path,
		    sqlite3_errmsg(db->sql), strerror(sys));
	else
		err_set(err, "cache %s: %s", db->path,
		    sqlite3_errmsg(db->sql));
}

/*
 * The schema of a cache of this version, made in db (empty, in memory):
 * what a published copy's schema is compared with (db_share.c).
 */
int
db_schema_build(struct db *db, long long version, struct err *err)
{
	long long i;

	for (i = 0; i < version && i < DB_SCHEMA_VERSION; i++)
		if (db_exec(db, migrations[i], err) < 0)
			return -1;
	return 0;
}

/* Bring the schema from version `from` to DB_SCHEMA_VERSION. */
int
db_migrate(struct db *db, long long from, struct err *err)
{
	char pragma[64];
	long long v;

	if (db_exec(db, "BEGIN IMMEDIATE", err) < 0)
		return -1;
	/* Another process may have migrated while we waited for the lock. */
	if (db_int(db, "PRAGMA user_version", &v, err) < 0)
		goto fail;
	for (from = v; from < DB_SCHEMA_VERSION; from++) {
		if (db_exec(db, migrations[from], err) < 0)
			goto fail;
	}
	snprintf(pragma, sizeof pragma, "PRAGMA user_version = %d",
	    DB_SCHEMA_VERSION);
	if (db_exec(db, pragma, err) < 0)
		goto fail;
	snprintf(pragma, sizeof pragma, "PRAGMA application_id = %d",
	    DB_APPLICATION_ID);
	if (db_exec(db, pragma, err) < 0 || db_exec(db, "COMMIT", err) < 0)
		goto fail;
	return 0;
fail:
	err_prefix(err, "schema migration from version %lld", from);
	sqlite3_exec(db->sql, "ROLLBACK", NULL, NULL, NULL);
	return -1;
}

/*
 * Close a database we refused or failed on, writing nothing to it. A
 * -wal that was there before we came (a crashed writer's, or someone
 * else's) must not be checkpointed into a file we refuse; one we made
 * is empty and goes away with a normal close.
 */
static void
db_abandon(struct db *db)
{
	if (db->sql != NULL && db->had_wal)
		sqlite3_db_config(db->sql, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1,
		    (int *)NULL);
	db_close(db);
}

/*
 * Refuse what is not a usable gpucost cache: not SQLite, corrupt, someone
 * else's database, or a newer schema. Reads only. *version gets the
 * schema version on success.
 */
static int
db_check_identity(struct db *db, long long *version, struct err *err)
{
	long long app_id, tables;

	if (db_int(db, "PRAGMA user_version", version, err) < 0 ||
	    db_int(db, "PRAGMA application_id", &app_id, err) < 0 ||
	    db_int(db, "SELECT count(*) FROM sqlite_master", &tables, err) < 0) {
		db_file_error(db, err);
		return -1;
	}
	if (*version > DB_SCHEMA_VERSION) {
		err_set(err, "cache %s: schema version %lld is newer than this "
		    "gpucost supports (%d); upgrade gpucost or use another --db",
		    db->path, *version, DB_SCHEMA_VERSION);
		return -1;
	}
	if ((app_id != 0 && app_id != DB_APPLICATION_ID) ||
	    (*version == 0 && tables > 0)) {
		err_set(err, "cache %s: an SQLite database, but not a gpucost "
		    "cache; choose another file with --db", db->path);
		return -1;
	}
	return 0;
}

/* A file: URI for path with the given query ("immutable=1"). */
char *
db_uri(const char *path, const char *query)
{
	static const char hex[] = "0123456789ABCDEF";
	char *uri, *o;
	const unsigned char *p;

	uri = xmalloc(strlen(path) * 3 + strlen(query) + 8);
	o = uri;
	memcpy(o, "file:", 5);
	o += 5;
	for (p = (const unsigned char *)path; *p != '\0'; p++) {
		if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		    (*p >= '0' && *p <= '9') || strchr("/-._~", *p) != NULL)
			*o++ = (char)*p;
		else {
			*o++ = '%';
			*o++ = hex[*p >> 4];
			*o++ = hex[*p & 15];
		}
	}
	*o++ = '?';
	strcpy(o, query);
	return uri;
}

/* Does path-SUFFIX exist with any bytes in it? */
static bool
db_side_file(const char *path, const char *suffix, bool *nonempty)
{
	struct stat sb;
	char *side = xasprintf("%s%s", path, suffix);
	bool exists = stat(side, &sb) == 0;

	free(side);
	if (nonempty != NULL)
		*nonempty = exists && sb.st_size > 0;
	return exists;
}

/*
 * Errors that mean "this connection may not write, or may not create the
 * -wal/-shm files next to the cache": the cases a reader retries
 * read-only.
 */
static bool
db_cannot_write(int code)
{
	return code == SQLITE_READONLY || code == SQLITE_CANTOPEN ||
	    code == SQLITE_PERM || code == SQLITE_AUTH;
}

/* Open db->sql with flags (and a file: URI query, or NULL). */
static int
db_connect(struct db *db, int flags, const char *query, struct err *err)
{
	char *uri = NULL;
	int rc;

	sqlite3_close(db->sql);
	db->sql = NULL;
	if (query != NULL) {
		uri = db_uri(db->path, query);
		flags |= SQLITE_OPEN_URI;
	}
	rc = sqlite3_open_v2(uri != NULL ? uri : db->path, &db->sql,
	    flags | SQLITE_OPEN_NOMUTEX, NULL);
	free(uri);
	if (rc != SQLITE_OK) {
		if (db->sql == NULL)
			err_set(err, "cache %s: out of memory", db->path);
		else
			db_file_error(db, err);
		return -1;
	}
	sqlite3_extended_result_codes(db->sql, 0);
	sqlite3_busy_timeout(db->sql, DB_BUSY_TIMEOUT_MS);
	db->read_only = sqlite3_db_readonly(db->sql, "main") == 1;
	return 0;
}

/* Why we may not write path: "Permission denied", "Read-only file system". */
static const char *
db_write_denied(const char *path)
{
	if (access(path, W_OK) == 0)
		return "cannot create or write the -wal and -shm files next "
		    "to it (is its directory writable?)";
	return strerror(errno);
}

/*
 * The read-only ways in, for a reader that may not write the cache: a
 * plain read-only connection, which uses WAL with the -shm and -wal the
 * writer left (or creates them if the directory allows); failing that,
 * with no -wal holding data, the file alone as an immutable database
 * (on a read-only file system nothing can change it; elsewhere a writer
 * starting now would write the -wal first, which this reader ignores).
 */
static int
db_connect_read_only(struct db *db, long long *version, struct err *err)
{
	bool wal_data;

	if (db_connect(db, SQLITE_OPEN_READONLY, NULL, err) == 0 &&
	    db_check_identity(db, version, err) == 0)
		return 0;
	if (db->sql == NULL || !db_cannot_write(sqlite3_errcode(db->sql)))
		return -1;
	db_side_file(db->path, "-wal", &wal_data);
	if (wal_data) {
		err_set(err, "cache %s: cannot read it without write access "
		    "to its directory (SQLite needs %s-shm next to its -wal); "
		    "let its owner run 'gpucost refresh' once, which leaves "
		    "the -shm for readers", db->path, db->path);
		return -1;
	}
	if (db_connect(db, SQLITE_OPEN_READONLY, "immutable=1", err) < 0)
		return -1;
	return db_check_identity(db, version, err);
}

/*
 * A cache others read through a shared directory (the file and its
 * directory open to group or others) keeps its -wal (emptied) and -shm
 * after the last writer closes: a reader who may not create files there
 * needs them to read the WAL database safely.
 */
static void
db_keep_wal_for_readers(struct db *db)
{
	char *dir, *slash;
	struct stat fsb, dsb;
	int on = 1, shared;

	dir = xstrdup(db->path);
	slash = strrchr(dir, '/');
	if (slash == NULL)
		strcpy(dir, ".");
	else if (slash == dir)
		slash[1] = '\0';
	else
		*slash = '\0';
	shared = stat(db->path, &fsb) == 0 && stat(dir, &dsb) == 0 &&
	    (fsb.st_mode & 0044) != 0 && (dsb.st_mode & 0011) != 0;
	free(dir);
	db->private_cache = !shared;
	if (!shared)
		return;
	sqlite3_file_control(db->sql, "main", SQLITE_FCNTL_PERSIST_WAL, &on);
	sqlite3_exec(db->sql, "PRAGMA journal_size_limit = 0", NULL, NULL,
	    NULL);
}

/*
 * Open the cache. may_read_only: a reader that cannot write gets a
 * read-only connection instead of an error. No pre-check of the file:
 * only the real open, with its -wal, can tell a sound cache from a
 * corrupt one, and until we write nothing the file stays as it was.
 */
static int
db_open_mode(const char *path, bool may_read_only, struct db **out,
    struct err *err)
{
	struct db *db;
	struct err ferr;
	long long version;
	int exists, fd, journal_wal = 0;

	*out = NULL;
	switch (paths_open_regular(path, &fd, &ferr)) {
	case 0:
		close(fd);
		exists = 1;
		break;
	case 1:
		exists = 0;
		break;
	default:
		err_set(err, "cache %s", ferr.msg);
		return -1;
	}
	db = xcalloc(1, sizeof *db);
	db->path = xstrdup(path);
	db->had_wal = exists && db_side_file(path, "-wal", NULL);
	if (db_connect(db, SQLITE_OPEN_READWRITE |
	    (exists ? 0 : SQLITE_OPEN_CREATE), NULL, err) < 0) {
		if (!(exists && may_read_only && db->sql != NULL &&
		    db_cannot_write(sqlite3_errcode(db->sql))))
			goto fail;
		if (db_connect_read_only(db, &version, err) < 0)
			goto fail;
	} else if (db_check_identity(db, &version, err) < 0) {
		if (!(may_read_only && db_cannot_write(sqlite3_errcode(db->sql))))
			goto fail;
		if (db_connect_read_only(db, &version, err) < 0)
			goto fail;
	}
	if (db->read_only) {
		if (!may_read_only) {
			err_set(err, "cache %s: cannot write it: %s", path,
			    db_write_denied(path));
			goto fail;
		}
		if (version < DB_SCHEMA_VERSION) {
			err_set(err, "cache %s: schema version %lld is older "
			    "than this gpucost's (%d) and the cache is "
			    "read-only here; let its owner run 'gpucost "
			    "refresh' once", path, version, DB_SCHEMA_VERSION);
			goto fail;
		}
		*out = db;
		return 0;
	}
	{
		sqlite3_stmt *st;

		if (sqlite3_prepare_v2(db->sql, "PRAGMA journal_mode", -1, &st,
		    NULL) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW) {
			const unsigned char *mode = sqlite3_column_text(st, 0);

			journal_wal = mode != NULL &&
			    strcmp((const char *)mode, "wal") == 0;
		}
		sqlite3_finalize(st);
	}
	if (!journal_wal &&
	    db_exec(db, "PRAGMA journal_mode = WAL", err) < 0)
		goto fail;
	/*
	 * Debian builds SQLite with SQLITE_SECURE_DELETE: every freed page
	 * zeroed and written. The cache holds public prices and no secret
	 * (keys never reach it), and a watch's state replaced whole freed
	 * 11 pages a run, each a frame more in the -wal.
	 */
	if (db_exec(db, "PRAGMA synchronous = NORMAL;"
	    "PRAGMA secure_delete = OFF;"
	    "PRAGMA temp_store = FILE;", err) < 0)
		goto fail;
	if (version < DB_SCHEMA_VERSION && db_migrate(db, version, err) < 0)
		goto fail;
	db_keep_wal_for_readers(db);
	*out = db;
	return 0;
fail:
	db_abandon(db);
	return -1;
}

void
db_global_init(void)
{
	sqlite3_config(SQLITE_CONFIG_SINGLETHREAD);
	sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}

int
db_open(const char *path, struct db **out, struct err *err)
{
	return db_open_mode(path, false, out, err);
}

int
db_open_reader(const char *path, struct db **out, struct err *err)
{
	return db_open_mode(path, true, out, err);
}

bool
db_read_only(const struct db *db)
{
	return db->read_only;
}

int
db_check_sound(struct db *db, struct err *err)
{
	sqlite3_stmt *st;
	const unsigned char *verdict;
	const char *code = NULL;
	int rc, errcode;

	if (sqlite3_prepare_v2(db->sql, "PRAGMA quick_check(1)", -1, &st,
	    NULL) != SQLITE_OK) {
		db_file_error(db, err);
		return -1;
	}
	rc = sqlite3_step(st);
	verdict = rc == SQLITE_ROW ? sqlite3_column_text(st, 0) : NULL;
	if (rc != SQLITE_ROW) {
		db_file_error(db, err);
		rc = -1;
	} else if (verdict == NULL ||
	    (code = strstr((const char *)verdict, "error code=")) != NULL) {
		/*
		 * Not a verdict on the file: the check itself could not read
		 * a page ("unable to get the page. error code=7" is SQLite
		 * out of memory). Calling that corrupt would advise moving a
		 * sound cache away.
		 */
		errcode = code != NULL ? atoi(code + strlen("error code=")) :
		    sqlite3_errcode(db->sql);
		if ((errcode & 0xff) == SQLITE_NOMEM || verdict == NULL)
			err_set(err, "cache %s: out of memory while checking it",
			    db->path);
		else
			err_set(err, "cache %s: cannot read it to check it (%s)",
			    db->path, sqlite3_errstr(errcode));
		rc = -1;
	} else if (strcmp((const char *)verdict, "ok") != 0) {
		err_set(err, "cache %s: database is corrupt (%.80s); move it "
		    "away (gpucost rebuilds a new one) or choose another with "
		    "--db", db->path, verdict != NULL ?
		    (const char *)verdict : "?");
		rc = -1;
	} else
		rc = 0;
	sqlite3_finalize(st);
	return rc;
}

/*
 * Leave a private cache's small -wal to the next checkpoint instead of
 * checkpointing it as the last connection closes. That checkpoint costs
 * four syncs (the -wal, the file, the -wal's removal and, at the next
 * write, its header): a cron'd watch that stores twenty offers spent
 * more on them than on its answer (1.2 ms of 5.6). Nothing is less
 * safe than synchronous = NORMAL already is: a commit is durable once
 * a checkpoint syncs it, whoever runs it. The -wal stays bounded: past
 * DB_WAL_DEFER_BYTES (SQLite's own auto-checkpoint size) the closing
 * connection checkpoints as before, and so does every refresh of more
 * than that. A shared cache is always checkpointed: its readers who may
 * not write refuse a -wal with data (db_connect_read_only()). An empty
 * -wal is removed as before.
 */
#define DB_WAL_DEFER_BYTES	((off_t)1000 * (4096 + 24) + 32)

static void
db_defer_checkpoint(struct db *db)
{
	struct stat sb;
	char *wal;
	bool small;

	if (db->sql == NULL || db->read_only || !db->private_cache)
		return;
	wal = xasprintf("%s-wal", db->path);
	small = stat(wal, &sb) == 0 && sb.st_size > 0 &&
	    sb.st_size < DB_WAL_DEFER_BYTES;
	free(wal);
	if (small)
		sqlite3_db_config(db->sql, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1,
		    (int *)NULL);
}

void
db_close(struct db *db)
{
	size_t i;

	if (db == NULL)
		return;
	for (i = 0; i < DB_STMT_COUNT; i++)
		sqlite3_finalize(db->cached[i]);
	db_defer_checkpoint(db);
	sqlite3_close(db->sql);
	free(db->path);
	free(db);
}

const char *
db_path(const struct db *db)
{
	return db->path;
}

/* Step a write statement once and finalize it: 0, or -1 with err. */
int
db_step_done(struct db *db, sqlite3_stmt *st, struct err *err)
{
	int rc = sqlite3_step(st);

	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		db_err(db, err, "write failed");
		return -1;
	}
	return 0;
}

/* Prepare sql, or fill err and return NULL. */
sqlite3_stmt *
db_prepare(struct db *db, const char *sql, struct err *err)
{
	sqlite3_stmt *st;

	if (sqlite3_prepare_v2(db->sql, sql, -1, &st, NULL) != SQLITE_OK) {
		db_file_error(db, err);
		return NULL;
	}
	return st;
}

/* Run sql with ?1 = provider; *changes gets the rows it changed. */
int
db_exec_provider(struct db *db, const char *sql, const char *provider,
    size_t *changes, struct err *err)
{
	sqlite3_stmt *st;

	if ((st = db_prepare(db, sql, err)) == NULL)
		return -1;
	sqlite3_bind_text(st, 1, provider, -1, SQLITE_STATIC);
	if (db_step_done(db, st, err) < 0)
		return -1;
	if (changes != NULL)
		*changes = (size_t)sqlite3_changes(db->sql);
	return 0;
}

int
db_row_exists(struct db *db, const char *sql, const char *text, bool *found,
    struct err *err)
{
	sqlite3_stmt *st;
	int rc;

	if ((st = db_prepare(db, sql, err)) == NULL)
		return -1;
	sqlite3_bind_text(st, 1, text, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
		db_file_error(db, err);
		return -1;
	}
	*found = rc == SQLITE_ROW;
	return 0;
}

int
db_plan_lines(struct db *db, sqlite3_stmt *st, char *out, size_t size,
    size_t *len, struct err *err)
{
	int rc;

	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const unsigned char *d = sqlite3_column_text(st, 3);

		if (d != NULL && *len < size)
			*len += (size_t)snprintf(out + *len, size - *len,
			    "%s\n", (const char *)d);
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		db_file_error(db, err);
		return -1;
	}
	return 0;
}

sqlite3_stmt *
db_prepare_cached(struct db *db, enum db_stmt_slot slot, const char *sql,
    struct err *err)
{
	sqlite3_stmt **st = &db->cached[slot];

	if (*st != NULL) {
		sqlite3_reset(*st);
		sqlite3_clear_bindings(*st);
		return *st;
	}
	if (sqlite3_prepare_v3(db->sql, sql, -1, SQLITE_PREPARE_PERSISTENT, st,
	    NULL) != SQLITE_OK) {
		*st = NULL;
		db_file_error(db, err);
	}
	return *st;
}

void
db_bind_money(sqlite3_stmt *st, int i, int64_t v)
{
	if (money_known(v))
		sqlite3_bind_int64(st, i, v);
	else
		sqlite3_bind_null(st, i);
}

/* A money result column: MONEY_NONE for NULL (db_bind_money()'s inverse). */
int64_t
db_stmt_money(sqlite3_stmt *st, int i)
{
	if (sqlite3_column_type(st, i) == SQLITE_NULL)
		return MONEY_NONE;
	return sqlite3_column_int64(st, i);
}

int64_t
db_stmt_sk_money(sqlite3_stmt *st, int i)
{
	int64_t v = sqlite3_column_int64(st, i);

	return v == SK_UNKNOWN_MONEY ? MONEY_NONE : v;
}

/* Copy a text column into a fixed buffer ("" for NULL). */
void
db_column_text(sqlite3_stmt *st, int i, char *dst, size_t size)
{
	const unsigned char *t = sqlite3_column_text(st, i);

	str_copy(dst, size, t != NULL ? (const char *)t : "");
}

/*
 * Step st to its end, one zeroed element of size bytes per row filled
 * by row(), and finalize it. Returns 0 with *out (freed with free(),
 * NULL when no row) and *n, or -1 with err and nothing allocated.
 */
static int
rows_read(struct db *db, sqlite3_stmt *st, size_t size, db_row_fn *row,
    void **out, size_t *n, bool keep, struct err *err)
{
	char *v = NULL;
	size_t cap = 0;
	int rc;

	*out = NULL;
	*n = 0;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (*n == cap) {
			cap = cap == 0 ? 16 : cap * 2;
			v = xreallocarray(v, cap, size);
		}
		memset(v + *n * size, 0, size);
		row(st, v + *n * size);
		(*n)++;
	}
	if (keep) {
		sqlite3_reset(st);
		sqlite3_clear_bindings(st);
	} else
		sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		db_file_error(db, err);
		free(v);
		*n = 0;
		return -1;
	}
	*out = v;
	return 0;
}

int
db_rows(struct db *db, sqlite3_stmt *st, size_t size, db_row_fn *row,
    void **out, size_t *n, struct err *err)
{
	return rows_read(db, st, size, row, out, n, false, err);
}

int
db_rows_cached(struct db *db, sqlite3_stmt *st, size_t size,
    db_row_fn *row, void **out, size_t *n, struct err *err)
{
	return rows_read(db, st, size, row, out, n, true, err);
}
