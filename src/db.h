/*
 * db.h: the SQLite cache of offers, price history and provider status.
 *
 * One file in WAL mode, so readers (CLI queries, the TUI) never wait for
 * a refresh that is writing. db_open() refuses, without writing a byte,
 * a file that is not SQLite, is not a gpucost cache, or carries a newer
 * schema than this program knows; otherwise it brings the schema up to
 * date through the numbered migrations (PRAGMA user_version).
 *
 * Writes happen per provider, each in one transaction: db_replace_offers()
 * swaps a provider's offers for a new set and appends changed prices to
 * the history; db_confirm_offers() keeps them and only moves their
 * check time (a source that answered "not modified");
 * db_record_failure() only touches the status row, so a failed refresh
 * keeps the last good offers. All SQL uses bound
 * parameters; nothing else in gpucost writes SQL.
 *
 * The implementation is split by concern behind this one API: db.c
 * (open, schema, migrations, statement helpers), the offers' writes
 * (db_offers.c), reads (db_query.c, db_summary.c), filter SQL
 * (db_filter.c), computed values (db_sort_keys.c) and row reader
 * (db_rows.c), db_history.c (history and watches), db_settings.c
 * (provider status and settings) and db_share.c (the published copy and
 * its merge); db_internal.h is what they share.
 */
#ifndef GPUCOST_DB_H
#define GPUCOST_DB_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "health.h"
#include "offer.h"
#include "summary.h"

#define DB_SCHEMA_VERSION	27
#define DB_ERROR_MAX		256

struct db;
struct err;
struct provider_meta;	/* provider.h: one name = value setting */

/* What the cache knows about one provider. */
struct provider_status {
	char	provider[OFFER_PROVIDER_MAX];
	enum offer_source source;	/* where its current offers came from */
	int64_t	last_attempt;		/* last refresh attempt; 0 never */
	int64_t	last_success;		/* last successful refresh; 0 never */
	int64_t	oldest;			/* oldest fetched_at of its offers; 0 none */
	int64_t	newest;			/* newest fetched_at of its offers */
	long	offer_count;
	char	last_error[DB_ERROR_MAX];	/* "" when the last attempt worked */
};

/* A point of an offer's price history. */
struct price_point {
	int64_t	at;			/* UTC epoch seconds */
	int64_t	price;			/* micro-USD per instance-hour or NONE */
	int64_t	spot_price;
	enum availability availability;
};

/* What a replace changed. */
struct db_replace_stats {
	size_t	offers;			/* offers now stored */
	size_t	history_rows;		/* price changes appended */
	size_t	removed;		/* offers that disappeared */
	size_t	written;		/* rows written: new or changed */
	bool	indexes_rebuilt;	/* many new rows: indexes made anew */
};

/*
 * Tell SQLite, before its first use, that this process uses it from one
 * thread and does not ask for its memory statistics: no mutex around
 * every call and allocation (Debian's library is built serialized and
 * without lookaside, 6 % of a query's instructions). main() calls it;
 * a program that shares a connection between threads must not.
 */
void	db_global_init(void);

/*
 * Open (creating if absent) the cache at path for writing. Returns 0 and
 * *out, or -1 with a message naming the file and the problem (not a
 * regular file, not SQLite, corrupt, not ours, newer, cannot write it);
 * the file is then left exactly as it was.
 */
int	db_open(const char *path, struct db **out, struct err *err);

/*
 * db_open() for a reader: when the cache may not be written (its mode,
 * a read-only file system, a directory where the -shm cannot be made),
 * open it read-only instead: through the -wal and -shm a writer left,
 * or, with no -wal holding data, the file alone. A read-only cache is
 * neither migrated nor seeded.
 */
int	db_open_reader(const char *path, struct db **out, struct err *err);

/* Whether db was opened read-only. */
bool	db_read_only(const struct db *db);
/*
 * Many small reads in a row (offers by key, each offer's history): one
 * read transaction around them takes the cache's lock and its WAL
 * snapshot once, where each statement alone takes and drops both (a
 * third of the time of reading 1,500 offers by key), and they all see
 * one state of the cache. db_read_begin() begins one unless a
 * transaction is open, and says whether it did; db_read_end() ends the
 * one it began. A failure to begin leaves each read its own.
 */
bool	db_read_begin(struct db *db);
void	db_read_end(struct db *db, bool began);

/*
 * Ask SQLite whether the whole file is sound (PRAGMA quick_check) before
 * writing to it: -1 with "database is corrupt" if not.
 */
int	db_check_sound(struct db *db, struct err *err);
void	db_close(struct db *db);		/* NULL is fine */

/*
 * The provider_meta setting that names the snapshot a provider's
 * snapshot offers came from (its text's version, snapshot.h).
 */
#define DB_META_SNAPSHOT	"snapshot"

/*
 * True in *due if provider's offers are to come from the snapshot of
 * version snapshot_version: the cache has never seen provider, or it
 * holds offers from a snapshot whose DB_META_SNAPSHOT is another (or
 * none: a cache seeded before it was kept). Offers from anywhere else
 * (a refresh, a published copy) are never due.
 */
int	db_provider_seed_due(struct db *db, const char *provider,
	    const char *snapshot_version, bool *due, struct err *err);

/*
 * Replace every offer of provider by offers[0..n) in one transaction,
 * appending a history row for each offer that is new or whose price,
 * spot price or availability changed, and marking the provider's status
 * successful (source). now is the attempt time.
 * On failure nothing changes.
 */
int	db_replace_offers(struct db *db, const char *provider,
	    const struct offer *offers, size_t n, enum offer_source source,
	    int64_t now, struct db_replace_stats *stats, struct err *err);

/*
 * db_replace_offers() that also stores meta[0..nmeta) for provider in the
 * same transaction, so the settings always describe the stored offers.
 */
int	db_replace_offers_meta(struct db *db, const char *provider,
	    const struct offer *offers, size_t n, enum offer_source source,
	    const struct provider_meta *meta, size_t nmeta, int64_t now,
	    struct db_replace_stats *stats, struct err *err);

/*
 * A provider whose answer is too large to hold (a marketplace's
 * streamed search) hands its offers over in batches as they are parsed:
 * db_stage_offers() adds offers[0..n) to the connection's staging table
 * (a private temporary file, outside the cache: no lock is taken and
 * readers see nothing); a key staged twice fails with "offer KEY is
 * listed twice". db_replace_staged() then swaps provider's offers for
 * everything staged plus offers[0..n) in the one transaction of
 * db_replace_offers_meta() (source live); on any failure nothing
 * changes in the cache and the staged offers are dropped.
 * db_stage_drop() forgets what was staged (a failed refresh).
 */
int	db_stage_offers(struct db *db, const char *provider,
	    const struct offer *offers, size_t n, struct err *err);
int	db_replace_staged(struct db *db, const char *provider,
	    const struct offer *offers, size_t n,
	    const struct provider_meta *meta, size_t nmeta, int64_t now,
	    struct db_replace_stats *stats, struct err *err);
void	db_stage_drop(struct db *db, const char *provider);

/*
 * The cached offers of provider were confirmed current at now (every
 * source answered "not modified"): in one transaction stamp them
 * fetched at now, record a successful attempt at now (last error
 * cleared), log the observation for history and store meta[0..nmeta).
 * No offer is added, changed or removed and no history row is written.
 * *offers is the number of offers confirmed. -1 (nothing changed) when
 * provider has no offers to confirm.
 */
int	db_confirm_offers(struct db *db, const char *provider,
	    const struct provider_meta *meta, size_t nmeta, int64_t now,
	    size_t *offers, struct err *err);

/*
 * Record a failed refresh attempt; the offers stay as they were. An
 * error longer than its column holds (db_column_limits[]) is cut to fit,
 * never inside a UTF-8 character, and ends in "...".
 */
int	db_record_failure(struct db *db, const char *provider, int64_t now,
	    const char *error, struct err *err);

/*
 * What gpucost writes into each column of the tables a published copy
 * carries beside its offers (an offer's limits are offer.h's, checked by
 * offer_check()): one table (db_limits.c), read by the writers
 * (db_record_failure() cuts an error to its column) and by the checks
 * on a copy (db_share.c makes their SQL from it), so the copy of an
 * honest publisher always passes its readers' checks. A column added to
 * one of these tables needs its row, or test_share's walk of the schema
 * fails.
 */
enum db_column_kind {
	DB_COL_TEXT,		/* text shorter than size bytes */
	DB_COL_WORD,		/* one of the words */
	DB_COL_INTEGER,		/* an integer from min to max */
	DB_COL_TIME,		/* epoch seconds from 0 to now + DB_COPY_SKEW */
	DB_COL_NEVER		/* never written: NULL */
};

struct db_column_limit {
	const char	*table;
	const char	*column;
	enum db_column_kind kind;
	bool		 null_ok;	/* NULL is a value gpucost writes */
	bool		 cut;		/* TEXT: cut to fit when written */
	size_t		 size;		/* TEXT: a value fits size - 1 bytes */
	const char	*words;		/* WORD: the values, one space apart */
	int64_t		 min, max;	/* INTEGER */
};

extern const struct db_column_limit db_column_limits[];
extern const size_t db_column_limit_count;

/* The row of table.column, or NULL. */
const struct db_column_limit *db_column_limit(const char *table,
	    const char *column);

/*
 * Append to out every offer that matches filter (offer_matches()); the
 * cheap conditions run in SQL on the indexed columns.
 */
int	db_query(struct db *db, const struct offer_filter *filter,
	    struct offer_list *out, struct err *err);
/*
 * db_query() as a scan of the whole table, for a caller that reads
 * nearly every offer (the TUI): the same offers, in key order.
 */
int	db_query_scan(struct db *db, const struct offer_filter *filter,
	    struct offer_list *out, struct err *err);

/*
 * The first `limit` offers matching filter in plan_sort()'s order for
 * key (any key, reverse or not, one instance each), appended to out in
 * no particular order (up to 2 * limit of them: the first `limit` with
 * a known key and the first with an unknown one); *matched, unless
 * matched is NULL, is the number of all matching offers. Only for
 * filters SQL tests whole (db_filter_in_sql(), or with --term
 * db_term_in_sql(); the maximum price is a test of the stored per-GPU
 * price then); query_plans() on
 * the result gives the first `limit` plans of the full answer. Reads
 * one index and the picked rows: the sort keys are stored at write
 * time (and recomputed here once if the GPU catalogue changed).
 */
/*
 * Does SQL test every field set in f (so db_query_top() may stop at the
 * first `limit` offers)? A filter tested only in C -- region geography,
 * text, multi-node, a --gpu form word, host per GPU, Vertex AI, and any
 * new field until it is added to db_filter.c's list -- says no.
 */
bool	db_filter_in_sql(const struct offer_filter *f);

/*
 * Can SQL order offers by key as plan_sort() orders their plans (a
 * stored column or an expression of them)? Host per GPU and --term's
 * price cannot: db_query_top() is not for them.
 */
bool	db_sort_in_sql(enum sort_key key);

/*
 * With --term: may db_query_top() answer f sorted by key? When SQL
 * tests every other field and orders by key: --term's own price
 * (term-gpu-price, its default) from the best committed price per
 * GPU-hour of each offer and term kept at write time (offer_terms), or
 * any key db_sort_in_sql() takes; only offers that have a committed
 * price of the term are read, and --max-price tests the term's price
 * (the spot price with --spot), as plan_matches_price() does.
 */
bool	db_term_in_sql(const struct offer_filter *f, enum sort_key key);

int	db_query_top(struct db *db, const struct offer_filter *filter,
	    enum sort_key key, bool reverse, size_t limit,
	    struct offer_list *out, size_t *matched, struct err *err);

/*
 * The offers of an offer's instance type that f matches (the same provider,
 * instance type, GPU, GPU text and count; with `listing`, also the same
 * in every other value but the region, as query.c folds a marketplace
 * listing), whatever the region: how many, and the range of their known
 * prices per instance-hour (MONEY_NONE when none is known). What a
 * folded row's +N and price range are, for the first rows of a folded
 * answer (answer.c) without reading its every offer. Only for filters
 * SQL tests whole (db_filter_in_sql()) and plans of one node.
 */
struct db_fold_class {
	size_t	 offers;
	int64_t	 price_low, price_high;
	int64_t	 spot_low, spot_high;
};
/*
 * For the classes of o[0..n) (listing[i]: a marketplace listing) into
 * out[0..n). Returns 0; 1, nothing done, where the cache's stored filter
 * values are another version's (the full path answers); -1 with err.
 */
int	db_fold_classes(struct db *db, const struct offer_filter *f,
	    const struct offer *const *o, const bool *listing, size_t n,
	    struct db_fold_class *out, struct err *err);

/*
 * A row of db_query_top_taking()'s walk as its test sees it: the
 * offer's key, its availability and its stored prices per GPU-hour
 * (what cost_plan() gives a plan of it; MONEY_NONE unknown). The text
 * is the row's: valid during the call only.
 */
struct db_walk_row {
	const char	*provider, *key;
	enum availability availability;
	int64_t		 price_gpu_hour, spot_gpu_hour;
};
/* Does the row count toward the limit (and so is read whole)? */
typedef bool (*db_walk_take_fn)(void *ctx, const struct db_walk_row *row);

/*
 * db_query_top() of the offers take() says yes to: the walk in key
 * order shows take() each matching row, light (its key, availability
 * and prices), until `limit` are taken; only those are read whole into
 * out. A watch reads its news this way without reading every offer it
 * knows (issue 29). *matched as db_query_top()'s. Returns 1; 0 when it
 * cannot answer (plans of several nodes, a sort db_query_top() walks
 * per value, or sort keys of another version on a cache it may not
 * write): db_query_top() does then.
 */
int	db_query_top_taking(struct db *db, const struct offer_filter *filter,
	    enum sort_key key, bool reverse, size_t limit,
	    db_walk_take_fn take, void *ctx, struct offer_list *out,
	    size_t *matched, struct err *err);

/*
 * Are the sort keys and filter values stored in the cache this
 * program's (db_sort_keys_version())? Where the cache may be written,
 * brings them up to date and says yes; on a read-only one (a team's
 * shared cache, read by a newer or older gpucost than its owner's
 * cron) says whether they are. Where they are not, db_query_top() and
 * db_query_nodes() read every matching offer (db_query(), the filters
 * tested in C), db_summary_scan() returns 1 and db_groups_stored() 0:
 * an answer from the full path, not from stale keys.
 */
int	db_sort_keys_ready(struct db *db, bool *ready, struct err *err);
/*
 * Are they this program's now? Only a read, never an update: for a
 * caller that has another way (the TUI's first screen reads every
 * offer instead) and must not wait on a writer's lock.
 */
int	db_sort_keys_current(struct db *db, bool *current, struct err *err);

/*
 * --group-by's read (db_summary.c): fn is called once for every offer
 * matching f -- only for filters SQL tests whole (db_filter_in_sql()),
 * the maximum price tested on the stored per-GPU key -- with what a
 * summary groups and ranks by, from one covering index; *rows is how
 * many (what tests check). The strings are valid during the call only.
 * Returns 0; 1, nothing walked, where the stored keys cannot serve it
 * (db_sort_keys_ready(): the caller reads every offer); -1 on an error.
 * db_summary_plan() is SQLite's plan for that walk (EXPLAIN QUERY PLAN).
 */
struct db_summary_row {
	const char	*provider, *key, *gpu, *region;
	int64_t		 price_gpu_hour;	/* plan of one node; NONE */
	int64_t		 spot_gpu_hour;
};
typedef void db_summary_fn(const struct db_summary_row *row, void *ctx);
int	db_summary_scan(struct db *db, const struct offer_filter *f,
	    db_summary_fn *fn, void *ctx, size_t *rows, struct err *err);
/*
 * SQLite's plan for the kept summaries' walk of the on-demand (kind 0)
 * or spot (1) price per GPU-hour in ascending order (db_groups_store()).
 */
int	db_groups_walk_plan(struct db *db, int kind, char *out, size_t size,
	    struct err *err);
int	db_summary_plan(struct db *db, const struct offer_filter *f,
	    char *out, size_t size, struct err *err);

/*
 * --group-by from the groups kept at write time (db_summary.c, migration
 * 14): when they answer g and f exactly (no filter but one --gpu, or
 * --gpu with a grouping by GPU; market references included, as every
 * grouping), out gets every group with its count and statistics
 * (summary_group, cheapest first: summary_sort(); no cheapest yet), the
 * offers of them all, and the offers that may be the cheapest of the
 * first `limit` groups (0: all): providers[i], keys[i] of group
 * group_of[i], read whole into cands (a key gone is left out;
 * summary_stored_finish() picks among their plans), all from one
 * snapshot of the cache.
 * Returns 1; 0 when nothing kept answers (out empty: walk the index);
 * -1 on an error. A grouping kept by another version of the program is
 * made again first where the cache may be written. db_groups_done()
 * frees out.
 */
struct db_groups {
	struct summary_group *v;
	size_t	 n;
	size_t	 offers;		/* in all groups */
	char	**providers, **keys;
	size_t	*group_of;
	size_t	 ncands;
	struct offer_list cands;	/* the candidates whole */
};
int	db_groups_stored(struct db *db, const struct group_by *g,
	    const struct offer_filter *f, size_t limit, struct db_groups *out,
	    struct err *err);
void	db_groups_done(struct db_groups *out);

/*
 * The offers (provider, key) of providers[i], keys[i] for i < n, whole
 * (committed prices attached), appended to out; a key not cached is left
 * out.
 */
int	db_offers_get(struct db *db, const char *const *providers,
	    const char *const *keys, size_t n, struct offer_list *out,
	    struct err *err);

/*
 * How many offers this process has read whole from a cache (every row
 * through db_row_to_offer()): what GPUCOST_DEBUG_READS prints, so tests
 * see that a shape reads only what it shows.
 */
size_t	db_offers_read(void);

/*
 * Plans of several nodes (--nodes N > 1, or --multi-node with --count),
 * sorted by price per GPU-hour, at most `limit` (db_query.c): appended
 * to out, a superset of the offers of the first `limit` plans of the full
 * answer (query_plans() on them gives those plans), each matching f;
 * *matched, unless NULL, the number of all matching offers (then every
 * candidate is read, else each walk stops at the limit). Not for --term,
 * nor for --fabric any (any offer not a single listing can be taken
 * several times: the walks would read them all).
 */
int	db_query_nodes(struct db *db, const struct offer_filter *f,
	    size_t limit, struct offer_list *out, size_t *matched,
	    struct err *err);
/* SQLite's plan for db_query_nodes()'s walk of assembled plans (tests). */
int	db_query_nodes_plan(struct db *db, const struct offer_filter *f,
	    char *out, size_t size, struct err *err);

/*
 * SQLite's plan (EXPLAIN QUERY PLAN, one step a line) for the query
 * db_query_top() runs: what tests check to see each query shape use
 * its index.
 */
int	db_query_top_plan(struct db *db, const struct offer_filter *filter,
	    enum sort_key key, bool reverse, char *out, size_t size,
	    struct err *err);
/* The same of db_query_top_taking()'s walk. */
int	db_query_top_taking_plan(struct db *db,
	    const struct offer_filter *filter, enum sort_key key, bool reverse,
	    char *out, size_t size, struct err *err);

/*
 * Record the outcome of one refresh attempt of provider at `at`: ok,
 * the offers a success stored, the endpoint asked (health_endpoint()).
 * Outcomes older than HEALTH_KEEP_DAYS go, except the provider's last
 * HEALTH_MEDIAN_OF + 1 successes.
 */
#define HEALTH_KEEP_DAYS	30
int	db_log_outcome(struct db *db, const char *provider, int64_t at,
	    bool ok, long offers, const char *endpoint, struct err *err);

/* provider's recorded outcomes, newest first; *out freed with free(). */
int	db_outcomes(struct db *db, const char *provider,
	    struct refresh_outcome **out, size_t *n, struct err *err);

/* Status of every provider the cache knows; *out is freed with free(). */
int	db_status(struct db *db, struct provider_status **out, size_t *n,
	    struct err *err);

/* Price history of one offer, oldest first; *out freed with free(). */
int	db_history(struct db *db, const char *provider, const char *key,
	    struct price_point **out, size_t *n, struct err *err);

/*
 * History of one committed price of an offer (its kind, term and
 * upfront option as in c), oldest first, as points whose price is the
 * effective price per instance-hour (no spot, availability unknown);
 * *out freed with free().
 */
struct committed;
int	db_committed_history(struct db *db, const char *provider,
	    const char *key, const struct committed *c,
	    struct price_point **out, size_t *n, struct err *err);

/* Every setting of provider; *out freed with free(). */
int	db_meta_list(struct db *db, const char *provider,
	    struct provider_meta **out, size_t *n, struct err *err);

/* Small per-provider settings (e.g. AWS region versions). */
int	db_meta_get(struct db *db, const char *provider, const char *name,
	    char *value, size_t size, bool *found, struct err *err);
int	db_meta_set(struct db *db, const char *provider, const char *name,
	    const char *value, struct err *err);

/*
 * When provider's offers were observed (each successful refresh or
 * seeding), at or after since, oldest first; *out freed with free().
 */
int	db_refresh_times(struct db *db, const char *provider, int64_t since,
	    int64_t **out, size_t *n, struct err *err);

/*
 * Drop price history and refresh times older than before, keeping each
 * offer's last change point before it (the price a period starts at).
 */
int	db_prune_history(struct db *db, int64_t before, struct err *err);

/*
 * What a watch last knew of one offer. The record owns no text: its
 * names point into the struct db_watch_known it was loaded into, or
 * into the offers a run read (the news it reports). A watch holds two
 * arrays of them a run, 40 bytes each, not 168 with 128-byte keys.
 */
struct db_watch_offer {
	const char *provider;	/* at most OFFER_PROVIDER_MAX - 1 bytes */
	const char *key;	/* at most OFFER_KEY_MAX - 1 bytes */
	int64_t	price;		/* the ranked price per GPU-hour last reported */
	int64_t	reported_at;
	enum availability availability;	/* at the last run */
};

/* What a watch knows, loaded: v[0..n), whose names are in names. */
struct db_watch_known {
	struct db_watch_offer *v;
	size_t	 n;
	char	*names;		/* the stored text, unescaped in place */
};

/* Free what db_watch_load() filled in; k is left empty. */
void	db_watch_known_free(struct db_watch_known *k);

/* A stored watch. */
struct db_watch {
	char	query[512];	/* normalised: the filter's CLI words */
	int64_t	created_at, last_run;
	size_t	offers;		/* offers it tracks */
};

/*
 * Watch offers by provider, then key, as strcmp() orders them: the
 * order db_watch_load() gives and db_watch_store() keeps (a qsort(3)
 * comparison of two struct db_watch_offer).
 */
int	db_watch_offer_cmp(const void *a, const void *b);
/*
 * v[0..n) into that order, of a repeated offer only the last given
 * standing; returns how many are left. In order without repeats (as a
 * watch's run builds them), nothing is sorted or moved.
 */
size_t	db_watch_offers_unique(struct db_watch_offer *v, size_t n);
/*
 * The offers watch query knows, in key order (provider, then key, as
 * strcmp() orders them), into *out (empty on error; freed with
 * db_watch_known_free()); *last_run is when it last ran, 0 when the
 * watch does not exist.
 */
int	db_watch_load(struct db *db, const char *query,
	    struct db_watch_known *out, int64_t *last_run, struct err *err);
/*
 * Replace what watch query knows by v[0..n) (the last of a repeated
 * offer standing; in key order without repeats, nothing is sorted), its
 * last run now: one statement, whatever another run stored meanwhile.
 */
int	db_watch_store(struct db *db, const char *query,
	    const struct db_watch_offer *v, size_t n, int64_t now,
	    struct err *err);
/* Every watch; *out freed with free(). */
int	db_watch_list(struct db *db, struct db_watch **out, size_t *n,
	    struct err *err);
/* Forget watch query; *found says whether it existed. */
int	db_watch_forget(struct db *db, const char *query, bool *found,
	    struct err *err);

/*
 * A user's watch state for a cache they may not write (the shared,
 * read-only cache): a small SQLite file of their own at path (created
 * mode 0600, never through a symbolic link) holding only the watch
 * tables, which the db_watch_*() functions above then read and write.
 * Refuses a file that is not one. Closed with db_close().
 */
int	db_open_watch_state(const char *path, struct db **out,
	    struct err *err);

/*
 * Sharing one cache (`gpucost publish`, `gpucost refresh --from`).
 *
 * db_publish_copy(): a consistent copy of the cache at path (which must
 * not exist or be empty), made with VACUUM INTO inside one read
 * transaction, so a refresh writing meanwhile goes on; the copy loses
 * the watches (a user's own) and the cache's own bookkeeping, uses a
 * plain rollback journal and passes PRAGMA integrity_check. Texts an
 * older gpucost stored longer than db_column_limits[] allows are cut;
 * then the copy must pass every check db_merge_from() makes of it at
 * now, or it is refused ("... would be refused by every reader: ...").
 */
int	db_publish_copy(struct db *db, const char *path, int64_t now,
	    struct err *err);

/*
 * A copy is data, never code. Whatever opens one (db_open_snapshot(),
 * db_merge_from()) refuses it unless its schema is exactly the one this
 * program makes (no view, no trigger, no table or index of its own:
 * sqlite_master compared object by object with a cache made in
 * memory), opens it with trusted_schema off and views and triggers
 * disabled, and bounds the work: a statement on it stops when the
 * limits' time is up or their stop flag is set (a signal).
 */
/* How far ahead of this clock a copy may be dated (seconds). */
#define DB_COPY_SKEW		600
/* The most the checks and the merge of a copy take unless told. */
#define DB_COPY_WORK_MAX	300

struct db_copy_limits {
	int64_t	now;			/* UTC epoch seconds */
	double	seconds;		/* the budget; 0: DB_COPY_WORK_MAX */
	volatile sig_atomic_t *stop;	/* nonzero: stop now; or NULL */
};

/*
 * Open a copy (a temporary file of ours) for reading: refuses, with a
 * message naming no path, what is not SQLite, not a gpucost cache, from
 * a newer schema ("made by a newer gpucost"), has anything in its
 * schema gpucost does not make, fails PRAGMA integrity_check, or holds
 * text with control characters; an older schema is migrated in the copy
 * (after its schema was checked).
 */
int	db_open_snapshot(const char *path, struct db **out, struct err *err);

/* What db_merge_from() did to one provider. */
struct db_merge_result {
	char	provider[OFFER_PROVIDER_MAX];	/* in: the provider */
	enum {
		DB_MERGE_ABSENT = 0,	/* the copy has no such provider */
		DB_MERGE_KEPT,		/* the local data is as new or newer */
		DB_MERGE_REPLACED	/* offers, status, settings replaced */
	} outcome;
	long	offers;			/* REPLACED: offers now stored */
	size_t	history_added;		/* price changes the cache lacked */
	int64_t	published_time;		/* the copy's newest offer or success */
	int64_t	local_time;		/* the same of the cache before */
};

/*
 * Merge the copy at path (a temporary file of ours) into the cache. Its
 * schema is checked (and an older one migrated) in the file alone; then
 * one connection, with the copy attached read-only, runs every check
 * and the merge: the schema again, integrity, control characters,
 * nothing dated after lim->now + DB_COPY_SKEW, every row typed and in
 * range as gpucost writes it, each offer through offer_check() (the
 * adapters' limits), its sort keys computed here. A copy failing any
 * check is refused whole: nothing is merged from it. All of it under
 * lim's budget. Then, in one transaction,
 * for each provider res[0..n).provider: if
 * the copy's data is newer (its newest offer or last success, against
 * the cache's), its offers, status row and settings replace the cache's;
 * either way the price history and refresh times the cache lacks are
 * added (by provider, offer and time: never twice). meta[0..nmeta) is
 * stored for owner in the same transaction. On failure nothing changes.
 */
int	db_merge_from(struct db *db, const char *path,
	    const struct db_copy_limits *lim, struct db_merge_result *res, size_t n, const char *owner,
	    const struct provider_meta *meta, size_t nmeta, struct err *err);

/* The path the cache was opened with (borrowed, valid until close). */
const char *db_path(const struct db *db);

/*
 * Is some spot price of the cache history for f (rentable.h
 * RENTABLE_SPOT_SECONDS at f->now, no --include-stale), judged per
 * provider from its status row? What was kept computed from every spot
 * price (the --group-by summaries) cannot answer then.
 */
int	db_spot_history(struct db *db, const struct offer_filter *f,
	    bool *history, struct err *err);

/*
 * Shell completion (db_complete.c): call emit with each distinct region
 * name of the cache at path, in order. The file is opened read-only,
 * never created, migrated or checked (a TAB must be quick and change
 * nothing): a missing file or one without offers gives no names and
 * returns 0; -1 with err for a file that cannot be read.
 */
/*
 * The same names from an open cache (a filter's --region checked against
 * them: filter_region_check()): each distinct region name, a seek each.
 */
int	db_region_names_open(struct db *db,
	    void (*emit)(const char *, void *), void *ctx, struct err *err);
int	db_region_names(const char *path, void (*emit)(const char *, void *),
	    void *ctx, struct err *err);
/*
 * The same for `gpucost launch`'s operand: each distinct instance type of
 * the cache (what the table's INSTANCE column shows and launch takes),
 * from the offers_instance index.
 */
int	db_instance_types(const char *path, void (*emit)(const char *, void *),
	    void *ctx, struct err *err);

#endif
