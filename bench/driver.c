/*
 * driver.c: in-process timings for the figures a shell cannot take from
 * outside (bench/cache_write.sh, bench/tui.sh). Linked with libgpucost.a
 * and src/tui/model.c; prints one "name seconds [detail]" line per
 * measurement and leaves the statistics to bench/lib.sh.
 *
 *	driver cache-write DB N RUNS
 *		db_replace_offers() of N offers of one provider after a
 *		first load of them; each run changes the price of 1 % (so
 *		N/100 history rows). Baseline, same run: the same N rows
 *		inserted by one prepared statement in one transaction into
 *		an empty table shaped like offers (SQLite's floor).
 *	driver load DB RUNS
 *		The TUI's work before its first screen, with its own code:
 *		model_open() (open the cache) and model_load_first() (the
 *		first screen's plans by $/GPU-h, from the cache's indexes);
 *		then ("rest") the model_finish() that reads every offer and
 *		sorts them after the first draw.
 *		Baseline: SQLite stepping through every offer row, decoding
 *		nothing.
 *	driver filter DB RUNS TEXT
 *		The TUI's work between a keystroke in its text filter and
 *		the redraw: model_query() with the filter text set to each
 *		prefix of TEXT in turn, as typing it does, then cleared.
 *		Baseline: one pass over every offer looking for TEXT's
 *		first word in one field.
 *	driver make-cache DB N
 *		Write N offers shaped like Vast's to the cache DB (already
 *		seeded by gpucost) with db_replace_offers(), as a refresh
 *		does: what bench/shapes.sh queries at 100k and 1M offers.
 *	driver history DB N ROUNDS
 *		ROUNDS more refreshes of those N offers, each moving a
 *		tenth of the prices up or down (about N/10 history rows a
 *		round), half an hour apart: the cache after weeks of
 *		refreshes that bench/shapes.sh queries again.
 */
#include "config.h"

#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "db.h"
#include "db_internal.h"
#include "err.h"
#include "gpu.h"
#include "money.h"
#include "notes.h"
#include "offer.h"
#include "str.h"
#include "tui/model.h"

/* Seconds on the monotonic clock. */
static double
now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* CPU seconds of the process: steadier than wall time on a busy host. */
static double
cpu_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void
die(const char *what, const struct err *err)
{
	fprintf(stderr, "driver: %s: %s\n", what, err != NULL ? err->msg : "");
	exit(1);
}

/*
 * When make-cache's offers were fetched: 16 hours ago, so that they are
 * fresh offers (a marketplace listing older than a day is a market
 * reference, left out without --include-stale) and the 30 refreshes of
 * `driver history`, half an hour apart, end before now and inside
 * `history`'s default 30 days.
 */
static int64_t
base_time(void)
{
	return ((int64_t)time(NULL) / 3600) * 3600 - 16 * 3600;
}

/*
 * n offers shaped like Vast's: ids, a mix of GPUs and their forms in
 * the name (SXM, PCIe), "City, CC" locations on five continents, 1-8
 * GPUs, hosts of 2-32 vCPUs and 8-128 GB per GPU, spot prices on most,
 * a price outlier in 50, one in 5 not available now: every filter of
 * bench/shapes.sh selects some of them and leaves others out. Freed
 * with made_free().
 */
/* make_offers()'s list: its text lives as long as the offers. */
static struct offer_list made;

static struct offer *
make_offers(size_t n, int64_t at)
{
	static const char *const gpus[][2] = {
		{ "RTX4090", "RTX 4090" }, { "RTX3090", "RTX 3090" },
		{ "A100-80", "A100 SXM4" }, { "H100", "H100 SXM" },
		{ "L40S", "L40S" }, { "A6000", "RTX A6000" },
		{ "", "GTX 1080 Ti" }, { "RTX5090", "RTX 5090" },
		{ "H100", "H100 PCIE" }, { "A100-80", "A100 PCIE" },
	};
	static const char *const regions[] = {
		"Texas, US", "Quebec, CA", "Norway, NO", "Germany, DE",
		"Japan, JP", "Sichuan, CN", "California, US", "Poland, PL",
		"Bavaria, DE", "North Holland, NL", "Singapore, SG",
		"New South Wales, AU", "Sao Paulo, BR", "England, GB",
		"Virginia, US", "Ontario, CA",
	};
	static const int counts[] = { 1, 1, 1, 2, 2, 4, 8, 8 };
	static const int vcpus[] = { 2, 4, 8, 12, 16, 32 };
	static const int ram[] = { 8, 16, 32, 64, 96, 128 };
	const size_t ngpus = sizeof gpus / sizeof gpus[0];
	const size_t nregions = sizeof regions / sizeof regions[0];
	size_t i, g;

	offer_list_done(&made);
	offer_list_reserve(&made, n);
	for (i = 0; i < n; i++) {
		struct offer *o = offer_list_add(&made);

		g = (i * 7 + i / 13) % ngpus;
		o->provider = "vast";
		offer_set_keyf(&made, o, "%zu", 11000000 + i * 7);
		o->instance_type = o->key;
		o->region = regions[(i / 3) % nregions];
		o->gpu = gpus[g][0];
		o->gpu_raw = gpus[g][1];
		o->gpu_count = counts[(i / 5) % 8];
		o->vram_gb = gpu_find(o->gpu) != NULL ?
		    gpu_find(o->gpu)->vram_gb : 11;
		o->interconnect = g == 3 || g == 2 ? IC_NVLINK : IC_PCIE;
		if (g == 6)
			o->interconnect = IC_UNKNOWN;
		o->vcpus = vcpus[(i / 11) % 6] * o->gpu_count;
		o->ram_gb = (double)ram[(i / 17) % 6] * o->gpu_count;
		o->price = (int64_t)(200000 + (i * 7919) % 3000000) *
		    o->gpu_count;
		o->spot_price = i % 4 == 3 ? MONEY_NONE : o->price / 2;
		o->availability = i % 5 == 4 ? AV_UNAVAILABLE : AV_AVAILABLE;
		o->reliability = 0.95;
		o->notes = NOTE_BIT(NOTE_SINGLE_LISTING);
		if (i % 50 == 7)
			o->notes |= NOTE_BIT(NOTE_PRICE_OUTLIER);
		o->fetched_at = at;
		o->source = SRC_LIVE;
	}
	return made.v;
}

static void
made_free(void)
{
	offer_list_done(&made);
}

/*
 * The cloud providers' share of a big cache: each of the snapshot's
 * offers of provider (real instance types, regions, fabric, GCP rows
 * that Vertex AI trains on) cloned under new keys until there are
 * about n, with committed prices (1 and 3 years) on every other one, so
 * that --region 'us-*', --vertex, --multi-node, --fabric and --term
 * meet cloud rows at scale, not only the snapshot's few hundred.
 */
static size_t
clone_cloud(struct db *db, const char *provider, size_t n, int64_t at)
{
	struct db_replace_stats stats;
	struct offer_filter f;
	struct offer_list l, c;
	struct err err;
	size_t i, k, copies;

	offer_filter_init(&f);
	f.include_stale = true;
	snprintf(f.providers[0], sizeof f.providers[0], "%s", provider);
	f.nproviders = 1;
	offer_list_init(&l);
	if (db_query(db, &f, &l, &err) < 0)
		die("read the snapshot", &err);
	if (l.n == 0) {
		offer_list_done(&l);
		return 0;
	}
	copies = (n + l.n - 1) / l.n;
	offer_list_init(&c);
	offer_list_reserve(&c, l.n * copies);
	for (k = 0; k < copies; k++) {
		for (i = 0; i < l.n; i++) {
			struct offer *o = offer_list_add_copy(&c, &l.v[i]);

			if (k > 0)
				offer_set_keyf(&c, o, "%.100s#%zu", l.v[i].key,
				    k);
			o->fetched_at = at;
			o->source = SRC_LIVE;
			if (money_known(o->price) && o->ncommitted == 0 &&
			    (i + k) % 2 == 0) {
				offer_add_committed(&c, o, CK_COMMITMENT, 12,
				    CU_NONE, o->price * 63 / 100, 0);
				offer_add_committed(&c, o, CK_COMMITMENT, 36,
				    CU_NONE, o->price * 45 / 100, 0);
			}
		}
	}
	if (db_replace_offers(db, provider, c.v, c.n, SRC_LIVE, at, &stats,
	    &err) < 0)
		die("write the cloud offers", &err);
	k = c.n;
	offer_list_done(&c);
	offer_list_done(&l);
	return k;
}

/* The floor: n rows in one transaction into an empty offers-like table. */
static double
floor_insert(sqlite3 *sql, const struct offer *v, size_t n)
{
	sqlite3_stmt *st;
	double t0, t;
	size_t i;

	sqlite3_exec(sql, "DROP TABLE IF EXISTS floor; CREATE TABLE floor "
	    "(provider TEXT NOT NULL, key TEXT NOT NULL, instance_type TEXT, "
	    "region TEXT, gpu TEXT, gpu_raw TEXT, gpu_count INTEGER, "
	    "vram_gb INTEGER, interconnect TEXT, vcpus INTEGER, ram_gb REAL, "
	    "price INTEGER, spot_price INTEGER, availability TEXT, "
	    "spot_interruption INTEGER, reliability REAL, fetched_at INTEGER, "
	    "source TEXT, PRIMARY KEY (provider, key)) WITHOUT ROWID",
	    NULL, NULL, NULL);
	t0 = now_s();
	sqlite3_exec(sql, "BEGIN", NULL, NULL, NULL);
	if (sqlite3_prepare_v2(sql, "INSERT INTO floor VALUES (?,?,?,?,?,?,?,"
	    "?,?,?,?,?,?,?,?,?,?,?)", -1, &st, NULL) != SQLITE_OK) {
		fprintf(stderr, "driver: %s\n", sqlite3_errmsg(sql));
		exit(1);
	}
	for (i = 0; i < n; i++) {
		const struct offer *o = &v[i];

		sqlite3_bind_text(st, 1, o->provider, -1, SQLITE_STATIC);
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
		sqlite3_bind_int64(st, 12, o->price);
		sqlite3_bind_int64(st, 13, o->spot_price);
		sqlite3_bind_text(st, 14, availability_name(o->availability),
		    -1, SQLITE_STATIC);
		sqlite3_bind_null(st, 15);
		sqlite3_bind_double(st, 16, o->reliability);
		sqlite3_bind_int64(st, 17, o->fetched_at);
		sqlite3_bind_text(st, 18, "live", -1, SQLITE_STATIC);
		sqlite3_step(st);
		sqlite3_reset(st);
	}
	sqlite3_finalize(st);
	sqlite3_exec(sql, "COMMIT", NULL, NULL, NULL);
	t = now_s() - t0;
	sqlite3_exec(sql, "DROP TABLE floor", NULL, NULL, NULL);
	return t;
}

/*
 * BENCH_TRACE=1: each statement of the write that takes a millisecond
 * or more, with its time, on stderr (the profile by statement).
 */
static int
trace_cb(unsigned type, void *ctx, void *p, void *x)
{
	sqlite3_int64 ns = *(sqlite3_int64 *)x;
	char *sql;

	(void)type;
	(void)ctx;
	if (ns < 1000000)
		return 0;
	sql = sqlite3_expanded_sql(p);
	fprintf(stderr, "trace %8.3f ms %.100s\n", (double)ns / 1e6,
	    sql != NULL ? sql : "?");
	sqlite3_free(sql);
	return 0;
}

static void
trace_maybe(struct db *db)
{
	const char *v = getenv("BENCH_TRACE");

	if (v != NULL && strcmp(v, "1") == 0)
		sqlite3_trace_v2(db->sql, SQLITE_TRACE_PROFILE, trace_cb, NULL);
}

static int
cache_write(const char *path, size_t n, int runs)
{
	struct db_replace_stats stats;
	struct offer *v = make_offers(n, 1790000000);
	struct err err;
	struct db *db;
	sqlite3 *sql;
	double t0, c0, t;
	size_t i;
	int r, refetch;

	unlink(path);
	refetch = getenv("BENCH_WRITE_REFETCH") != NULL &&
	    strcmp(getenv("BENCH_WRITE_REFETCH"), "1") == 0;
	if (db_open(path, &db, &err) < 0)
		die("open", &err);
	t0 = now_s();
	if (db_replace_offers(db, "vast", v, n, SRC_LIVE, 1790000000,
	    &stats, &err) < 0)
		die("first write", &err);
	trace_maybe(db);
	printf("load %.6f %zu offers\n", now_s() - t0, stats.offers);
	if (sqlite3_open(path, &sql) != SQLITE_OK)
		die("sqlite3_open", NULL);
	sqlite3_busy_timeout(sql, 10000);
	for (r = 0; r < runs; r++) {
		/* 1 % of the prices change: a different 1 % each run. */
		for (i = (size_t)r % 100; i < n; i += 100)
			v[i].price += 10000;
		/* BENCH_WRITE_REFETCH=1: as a real refresh, every offer
		 * fetched again (a new fetched_at on every row). */
		if (refetch)
			for (i = 0; i < n; i++)
				v[i].fetched_at = 1790000000 + r + 1;
		t0 = now_s();
		c0 = cpu_s();
		if (db_replace_offers(db, "vast", v, n, SRC_LIVE,
		    1790000000 + r + 1, &stats, &err) < 0)
			die("write", &err);
		t = now_s() - t0;
		printf("write %.6f cpu %.6f, %zu history rows\n", t,
		    cpu_s() - c0, stats.history_rows);
		printf("floor %.6f\n", floor_insert(sql, v, n));
		fflush(stdout);
	}
	sqlite3_close(sql);
	db_close(db);
	made_free();
	return 0;
}

/*
 * The SQLite floor of a load: step through every offer row, in the
 * table's own order (without ORDER BY, SQLite 3.40 walks a smaller
 * index and seeks the table for each row: 5x slower at 100k, so the
 * floor was far too high).
 */
static double
floor_scan(const char *path, size_t *rows)
{
	sqlite3_stmt *st;
	sqlite3 *sql;
	double t0;

	*rows = 0;
	t0 = now_s();
	if (sqlite3_open_v2(path, &sql, SQLITE_OPEN_READONLY, NULL) !=
	    SQLITE_OK || sqlite3_prepare_v2(sql, "SELECT * FROM offers ORDER BY provider, key", -1,
	    &st, NULL) != SQLITE_OK)
		die("floor", NULL);
	while (sqlite3_step(st) == SQLITE_ROW)
		(*rows)++;
	sqlite3_finalize(st);
	sqlite3_close(sql);
	return now_s() - t0;
}

static int
load(const char *path, int runs)
{
	struct model m;
	struct err err;
	size_t rows;
	double t0;
	int r;

	for (r = 0; r < runs; r++) {
		model_init(&m);
		t0 = now_s();
		if (model_open(&m, path, &err) < 0 ||
		    model_load_first(&m, MODEL_FIRST_ROWS, &err) < 0)
			die("load", &err);
		printf("load %.6f %zu plans\n", now_s() - t0, m.nplans);
		/* The rest, after the first screen is drawn. */
		t0 = now_s();
		if (model_finish(&m, &err) < 0)
			die("load", &err);
		printf("rest %.6f %zu plans\n", now_s() - t0, m.nplans);
		model_done(&m);
		t0 = floor_scan(path, &rows);
		printf("floor %.6f %zu rows\n", t0, rows);
		fflush(stdout);
	}
	return 0;
}

static int
filter(const char *path, int runs, const char *text)
{
	char word[OFFER_NAME_MAX];
	size_t i, len = strlen(text), hits, n;
	struct model m;
	struct err err;
	double t0;
	int r;

	model_init(&m);
	if (model_open(&m, path, &err) < 0 || model_load(&m, &err) < 0)
		die("load", &err);
	n = strcspn(text, " ");
	if (n >= sizeof word)
		n = sizeof word - 1;
	memcpy(word, text, n);
	word[n] = '\0';
	for (r = 0; r < runs; r++) {
		for (i = 1; i <= len && i < sizeof m.filter.text; i++) {
			memcpy(m.filter.text, text, i);
			m.filter.text[i] = '\0';
			t0 = now_s();
			model_query(&m);
			printf("key %.6f \"%s\" %zu plans\n", now_s() - t0,
			    m.filter.text, m.nplans);
		}
		m.filter.text[0] = '\0';
		t0 = now_s();
		model_query(&m);
		printf("key %.6f \"\" %zu plans\n", now_s() - t0, m.nplans);
		t0 = now_s();
		hits = 0;
		for (i = 0; i < m.offers.n; i++)
			if (str_find_nocase(m.offers.v[i].gpu_raw, word) != NULL)
				hits++;
		printf("floor %.6f %zu\n", now_s() - t0, hits);
		fflush(stdout);
	}
	printf("offers %zu\n", m.offers.n);
	model_done(&m);
	return 0;
}

/*
 * The big cache of bench/shapes.sh: N Vast-like offers and a tenth of N
 * cloud offers (GCP, AWS, Azure, RunPod clusters ...) cloned from the
 * snapshot, each provider written as a refresh writes it.
 */
static int
make_cache(const char *path, size_t n)
{
	static const char *const clouds[] = {
		"gcp", "aws", "azure", "runpod", "runpod-clusters", "lambda",
		"oci", "vultr",
	};
	const size_t nclouds = sizeof clouds / sizeof clouds[0];
	struct db_replace_stats stats;
	int64_t at = base_time();
	struct offer *v = make_offers(n, at);
	struct err err;
	struct db *db;
	size_t i, cloud = 0;
	double t0;

	if (db_open(path, &db, &err) < 0)
		die("open", &err);
	t0 = now_s();
	if (db_replace_offers(db, "vast", v, n, SRC_LIVE, at, &stats,
	    &err) < 0)
		die("write", &err);
	printf("make-cache %.6f %zu offers", now_s() - t0, stats.offers);
	for (i = 0; i < nclouds; i++)
		cloud += clone_cloud(db, clouds[i], n / 10 / nclouds, at);
	printf(", %zu cloud offers\n", cloud);
	db_close(db);
	made_free();
	return 0;
}

/* ROUNDS refreshes of the N offers with a tenth of the prices moving. */
static int
history(const char *path, size_t n, int rounds)
{
	struct db_replace_stats stats;
	int64_t at = base_time();
	struct offer *v = make_offers(n, at);
	size_t i, rows = 0;
	struct err err;
	struct db *db;
	double t0;
	int r;

	if (db_open(path, &db, &err) < 0)
		die("open", &err);
	t0 = now_s();
	for (r = 1; r <= rounds; r++) {
		for (i = (size_t)r % 10; i < n; i += 10) {
			int64_t step = (int64_t)(5000 + (i * 31 + (size_t)r *
			    977) % 40000);

			/* Up or down, never below a cent an hour. */
			if ((i / 10 + (size_t)r) % 2 == 0 ||
			    v[i].price - step < 10000)
				v[i].price += step;
			else
				v[i].price -= step;
			v[i].spot_price = v[i].price / 2;
		}
		for (i = 0; i < n; i++)
			v[i].fetched_at = at + (int64_t)r * 1800;
		if (db_replace_offers(db, "vast", v, n, SRC_LIVE,
		    at + (int64_t)r * 1800, &stats, &err) < 0)
			die("write", &err);
		rows += stats.history_rows;
	}
	printf("history %.6f %d refreshes, %zu history rows\n", now_s() - t0,
	    rounds, rows);
	db_close(db);
	made_free();
	return 0;
}

int
main(int argc, char **argv)
{
	if (argc == 4 && strcmp(argv[1], "make-cache") == 0)
		return make_cache(argv[2], strtoul(argv[3], NULL, 10));
	if (argc == 5 && strcmp(argv[1], "history") == 0)
		return history(argv[2], strtoul(argv[3], NULL, 10),
		    atoi(argv[4]));
	if (argc == 5 && strcmp(argv[1], "cache-write") == 0)
		return cache_write(argv[2], strtoul(argv[3], NULL, 10),
		    atoi(argv[4]));
	if (argc == 4 && strcmp(argv[1], "load") == 0)
		return load(argv[2], atoi(argv[3]));
	if (argc == 5 && strcmp(argv[1], "filter") == 0)
		return filter(argv[2], atoi(argv[3]), argv[4]);
	fprintf(stderr, "usage: driver cache-write DB N RUNS | load DB RUNS | "
	    "filter DB RUNS TEXT | make-cache DB N | history DB N ROUNDS\n");
	return 2;
}
