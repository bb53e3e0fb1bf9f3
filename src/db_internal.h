/*
 * db_internal.h: what the cache's own files share and nothing else
 * includes: struct db, the statement helpers (db.c) and the offers'
 * column lists. Only db.c and the db_*.c files include it; db.h is
 * the API the rest of gpucost sees.
 */
#ifndef GPUCOST_DB_INTERNAL_H
#define GPUCOST_DB_INTERNAL_H

#include <sqlite3.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "offer.h"

struct db;
struct err;

/* 'gpuc': marks a file as a gpucost cache. */
#define DB_APPLICATION_ID	0x67707563
/* How long a connection waits for another one's lock. */
#define DB_BUSY_TIMEOUT_MS	10000

/*
 * Statements run once per row of an answer (the history of each offer
 * shown): prepared once per connection (db_prepare_cached()), kept by
 * struct db and finalized by db_close(). Parsing one costs as much as
 * running it: 20 rows of `history` spent a fifth of the command on it.
 */
enum db_stmt_slot {
	DB_STMT_HISTORY,
	DB_STMT_COMMITTED_HISTORY,
	DB_STMT_PROVIDER_SEED,		/* once per provider, every command */
	DB_STMT_COUNT
};

struct db {
	sqlite3	*sql;
	char	*path;
	bool	 read_only;	/* opened read-only: we may not write it */
	bool	 had_wal;	/* a -wal was there before we opened it */
	bool	 private_cache;	/* opened to write, only its owner reads it */
	sqlite3_stmt *cached[DB_STMT_COUNT];	/* db_prepare_cached() */
};

/*
 * Each watch's offers, a row each in watch_offer, into watch.known as
 * db_history.c writes it (migration 24 -> 25 and the watch state file's
 * 2 -> 3): the count --list shows too. SQL has no order inside
 * group_concat() before SQLite 3.44; db_watch_load()'s reader sorts
 * what is not in key order. Both are shipped migrations: never edit
 * this; a new format is a new migration.
 */
#define DB_WATCH_KNOWN_SQL						\
	"ALTER TABLE watch ADD COLUMN known TEXT NOT NULL DEFAULT '';"	\
	"UPDATE watch SET known = coalesce((SELECT group_concat(line, '')" \
	"  FROM (SELECT " DB_WATCH_ESCAPE("o.provider") " || char(9) || " \
	DB_WATCH_ESCAPE("o.key") " || char(9) || coalesce(o.price, '') ||" \
	"  char(9) || o.availability || char(9) || o.reported_at ||"	\
	"  char(10) AS line FROM watch_offer o WHERE o.query ="		\
	"  watch.query ORDER BY o.provider, o.key)), ''),"		\
	"  offers = (SELECT count(*) FROM watch_offer o WHERE o.query ="	\
	"  watch.query);"						\
	"DROP TABLE watch_offer;"
#define DB_WATCH_ESCAPE(col)						\
	"replace(replace(replace(" col ", '\\', '\\\\'), char(9), '\\t')," \
	" char(10), '\\n')"

/*
 * Statistics for the query planner from a sample of each index of the
 * offers: milliseconds even at a million offers, and enough for it to
 * pick the index each query shape was given.
 */
#define DB_ANALYZE	"PRAGMA analysis_limit = 1000; ANALYZE offers"

/*
 * Every distinct region name of the offers as names(n), the last row
 * NULL: a hop from each name to the next with one seek along
 * offers_region (a loose index scan), as many steps as there are names
 * (hundreds), not a read of every offer (DISTINCT walks the whole
 * index). Shell completion lists them; --region tests a name or glob
 * on each once (db_filter.c).
 */
#define DB_REGION_NAMES_CTE						\
	"WITH RECURSIVE names(n) AS (SELECT min(region) FROM offers "	\
	"UNION ALL SELECT (SELECT min(region) FROM offers WHERE region > n) " \
	"FROM names WHERE n IS NOT NULL)"

#define OFFER_COLUMNS							\
	"provider, key, instance_type, region, gpu, gpu_raw, gpu_count, " \
	"vram_gb, interconnect, vcpus, ram_gb, price, spot_price, "	\
	"availability, spot_interruption, reliability, fetched_at, source, " \
	"notes, spot_zone, currency, price_original, nodes, price_from"

/*
 * OFFER_COLUMNS and what is computed at write time: the sort keys and
 * the values the filters test (migrations 13 and 16), and row_hash
 * (migration 15).
 */
#define WRITE_COLUMNS	OFFER_COLUMNS ", sk_gpu_price, sk_spot_gpu, sk_pflop, " \
	"continent, country, form, vertex, search, fabric, node_gbps, " \
	"fabric_nodes, row_hash"
#define WRITE_PLACEHOLDERS						\
	"?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?"

/* Put "cache PATH: what: sqlite message" into err. */
void		 db_err(struct db *, struct err *, const char *);
/* Run statements that return no rows we need. */
int		 db_exec(struct db *, const char *, struct err *);
/* Read one integer PRAGMA (or any one-value query). */
int		 db_int(struct db *, const char *, long long *, struct err *);
/* The message for a statement that failed on the cache file. */
void		 db_file_error(struct db *, struct err *);
/* Bring the schema from user_version from to DB_SCHEMA_VERSION. */
int		 db_migrate(struct db *, long long, struct err *);
/* Step a write statement once and finalize it. */
int		 db_step_done(struct db *, sqlite3_stmt *, struct err *);
/* Prepare sql, or fill err and return NULL. */
sqlite3_stmt	*db_prepare(struct db *, const char *, struct err *);
/* Does sql, with ?1 = text, return a row? */
int		 db_row_exists(struct db *, const char *, const char *, bool *,
		    struct err *);
/*
 * Step st, an EXPLAIN QUERY PLAN, appending each step's text as a line
 * to out (*len: its length so far; what does not fit is cut), and
 * finalize it: what tests read to see a query use its index.
 */
int		 db_plan_lines(struct db *, sqlite3_stmt *, char *, size_t,
		    size_t *, struct err *);
/* Run sql with ?1 = provider; *changes (if not NULL) gets the rows it changed. */
int		 db_exec_provider(struct db *, const char *, const char *,
		    size_t *, struct err *);
/*
 * The statement of slot (sql, prepared on first use), reset and its
 * parameters cleared; owned by db: never finalized by the caller, read
 * with db_rows_cached(). NULL with err on failure.
 */
sqlite3_stmt	*db_prepare_cached(struct db *, enum db_stmt_slot,
		    const char *, struct err *);
/* A money parameter and column: NULL for an unknown amount. */
void		 db_bind_money(sqlite3_stmt *, int, int64_t);
int64_t		 db_stmt_money(sqlite3_stmt *, int);
/*
 * A stored sort key of money (sk_gpu_price, sk_spot_gpu): an unknown
 * amount is stored as SK_UNKNOWN_MONEY, larger than any known one, so
 * an ascending walk meets the unknowns last (plan_sort()'s rule).
 */
#define SK_UNKNOWN_MONEY	INT64_MAX
#define SK_UNKNOWN_MONEY_SQL	"9223372036854775807"
/*
 * Stored sort keys of an unknown value: larger than any known one, so an
 * ascending walk of an index meets the unknowns last (plan_sort()'s
 * rule) without a separate pass (money's: SK_UNKNOWN_MONEY).
 */
#define SK_UNKNOWN_REAL		1e308
#define SK_UNKNOWN_REAL_SQL	"1e308"
/* Such a column as an amount: MONEY_NONE for SK_UNKNOWN_MONEY. */
int64_t		 db_stmt_sk_money(sqlite3_stmt *, int);
/* Copy a text column into a fixed buffer ("" for NULL). */
void		 db_column_text(sqlite3_stmt *, int, char *, size_t);

/* The sharing side (db_share.c) uses these of db.c. */
char		*db_uri(const char *, const char *);
int		 db_schema_build(struct db *, long long, struct err *);

/*
 * What is computed from an offer when its row is written
 * (db_sort_keys.c): the writes (db_offers.c, db_share.c) bind a row with
 * db_bind_offer(); db_sort_keys_update() recomputes the keys of rows
 * stored under another db_sort_keys_version().
 */
struct offer;
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
void		 offer_sort_keys(const char *, const struct offer *,
		    struct sort_keys *);
/* Bind k to the eleven placeholders from first on, in struct order
 * (sk_gpu_price ... fabric_nodes, as WRITE_COLUMNS lists them). */
void		 db_bind_sort_keys(sqlite3_stmt *, int,
		    const struct sort_keys *);
const char	*db_sort_keys_version(void);
void		 db_bind_offer(sqlite3_stmt *, const char *,
		    const struct offer *);
int64_t		 db_offer_row_hash(const char *, const struct offer *);

/* The row reader below every reader of the offers (db_rows.c). */
/* Column i's text, "" for NULL: valid until st steps again. */
const char	*row_text(sqlite3_stmt *, int);
void		 db_row_to_offer(sqlite3_stmt *, struct offer *);

/* Fill one array element from the current row of a statement. */
typedef void db_row_fn(sqlite3_stmt *st, void *elem);

/* Step st to its end into an array, one element per row; finalizes st. */
int		 db_rows(struct db *, sqlite3_stmt *, size_t, db_row_fn *,
		    void **, size_t *, struct err *);
/* The same for a statement of db_prepare_cached(): reset, not finalized. */
int		 db_rows_cached(struct db *, sqlite3_stmt *, size_t,
		    db_row_fn *, void **, size_t *, struct err *);

/*
 * Committed prices (db_committed.c): replace provider's by those of
 * offers[0..n) inside db_replace_offers_meta()'s transaction (before
 * its incoming offers are cleared), with history rows; put the stored
 * ones on out->v[from..n).
 */
struct offer;
struct offer_list;
int		 db_committed_replace(struct db *, const char *,
		    const struct offer *, size_t, struct err *);
int		 db_committed_attach(struct db *, struct offer_list *, size_t,
		    struct err *);
/*
 * Rewrite provider's offer_terms rows (migration 18) from its committed
 * rows and offers as they are stored: after every write of either, in
 * the same transaction (replace_offers(), db_merge_one(),
 * db_sort_keys_update()).
 */
int		 db_terms_update(struct db *, const char *, struct err *);

/*
 * The offers' filter in SQL (db_filter.c), for the readers of the
 * offers table (db_query.c, db_summary.c). rentable_prepare() judges
 * the market references of f from the status rows into *rq;
 * filter_sql() appends " AND ..." conditions of f that SQL tests (never
 * more than offer_matches() keeps: the caller tests the rows again or
 * relies on db_filter_in_sql()); filter_bind() binds them from
 * parameter *k on.
 */
#define RENTABLE_SQL_MAX	8
struct rentable_sql {
	const char	*all_old[RENTABLE_SQL_MAX];	/* marketplaces, all stale */
	size_t		 nall_old;
	const char	*mixed[RENTABLE_SQL_MAX];	/* some stale */
	size_t		 nmixed;
	int64_t		 cutoff;	/* older than this: a reference */
	bool		 only;		/* only_stale: per row */
	/*
	 * The stored filter values (migration 13) are not current and the
	 * cache may not be written: db_query() leaves those filters to C.
	 */
	bool		 stale_derived;
	/*
	 * Spot prices that are history (rentable.h RENTABLE_SPOT_SECONDS),
	 * judged per provider from its status row as market references
	 * are: every offer older than spot_cut (spot_old), some (spot_mixed:
	 * row by row, fetched_at >= spot_cut is current). spot_rule: the
	 * rule applies (a time, no --include-stale); spot: --spot, whose
	 * filter leaves the history out in SQL.
	 */
	char		 spot_old[FILTER_PROVIDERS_MAX][OFFER_PROVIDER_MAX];
	size_t		 nspot_old;
	char		 spot_mixed[FILTER_PROVIDERS_MAX][OFFER_PROVIDER_MAX];
	size_t		 nspot_mixed;
	int64_t		 spot_cut;
	bool		 spot_rule;
	bool		 spot;
};
/*
 * Is some spot price of the cache history under rq (spot_old or
 * spot_mixed)? A walk in spot order (sk_spot_gpu) or a spot statistic
 * then needs the rule row by row: those readers take the full path.
 */
bool		 rentable_spot_history(const struct rentable_sql *);
/* Is every spot price of provider history under rq (spot_old)? */
bool		 rentable_spot_old(const struct rentable_sql *, const char *);
/*
 * Does key order offers by their spot price (spot, spot-gpu-price,
 * savings)? Its walk cannot leave history out row by row.
 */
bool		 sort_by_spot(enum sort_key);
struct offer_filter;
int		 rentable_prepare(struct db *, const struct offer_filter *,
		    struct rentable_sql *, struct err *);
void		 filter_sql(const struct offer_filter *,
		    const struct rentable_sql *, char *, size_t);
void		 filter_bind(sqlite3_stmt *, const struct offer_filter *,
		    const struct rentable_sql *, int *);
/* Append " AND col IN (?,?,...)" for n values. */
void		 sql_in(char *, size_t, const char *, size_t);
/* Does SQL test every filter field set in f (--term aside)? */
bool		 fields_in_sql(const struct offer_filter *);
/*
 * Recompute stale stored sort keys before a read relies on them
 * (db_summary.c, beside db_groups_store(), which it ends with).
 */
int		 db_sort_keys_update(struct db *, struct err *);
/*
 * Store --group-by's kept groupings again from the offers as they are
 * at time now (db_summary.c; market references left out, so they hold
 * until a listing turns one), inside the caller's write transaction:
 * the end of every write of the offers table calls it (replace_offers(),
 * db_confirm_offers(), db_sort_keys_update(), db_merge_from()). A write
 * that changes offers (or their fetched_at) and does not call it leaves
 * summaries that answer wrong.
 */
int		 db_groups_store(struct db *, int64_t, struct err *);

#endif
