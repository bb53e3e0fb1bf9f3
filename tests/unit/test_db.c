/*
 * test_db.c: unit tests for db.c (the SQLite cache) and cache.c (seeding
 * it from the snapshot), on real files in a temporary directory.
 */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <sqlite3.h>

#include "answer.h"
#include "cache.h"
#include "cost.h"
#include "db.h"
#include "err.h"
#include "filter.h"
#include "gpu.h"
#include "money.h"
#include "notes.h"
#include "offer.h"
#include "provider.h"
#include "query.h"
#include "snapshot.h"
#include "str.h"
#include "offer_text.h"

/* 'gpuc', the application_id of a gpucost cache. */
#define APP_ID		0x67707563

/* The version-1 schema, exactly as migrations[0] of src/db.c. */
static const char v1_schema[] =
	"CREATE TABLE offers ("
	"  provider TEXT NOT NULL,"
	"  key TEXT NOT NULL,"
	"  instance_type TEXT NOT NULL,"
	"  region TEXT NOT NULL,"
	"  gpu TEXT NOT NULL,"
	"  gpu_raw TEXT NOT NULL,"
	"  gpu_count INTEGER NOT NULL,"
	"  vram_gb INTEGER NOT NULL,"
	"  interconnect TEXT NOT NULL,"
	"  vcpus INTEGER NOT NULL,"
	"  ram_gb REAL NOT NULL,"
	"  price INTEGER,"
	"  spot_price INTEGER,"
	"  availability TEXT NOT NULL,"
	"  spot_interruption INTEGER,"
	"  reliability REAL,"
	"  fetched_at INTEGER NOT NULL,"
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
	"  data_version TEXT"
	");";

/* ------------------------------------------------------------------ */
/* Temporary directory                                                */
/* ------------------------------------------------------------------ */

static char tmpdir[1024];

static int
setup(void **state)
{
	const char *base = getenv("TMPDIR");

	(void)state;
	snprintf(tmpdir, sizeof tmpdir, "%s/gpucost-test-db-XXXXXX",
	    base != NULL && base[0] != '\0' ? base : "/tmp");
	if (mkdtemp(tmpdir) == NULL) {
		fprintf(stderr, "mkdtemp %s: %s\n", tmpdir, strerror(errno));
		return -1;
	}
	return 0;
}

/* Remove everything in dir (one level of subdirectories), then dir. */
static void
remove_tree(const char *dir)
{
	char path[8192];
	struct dirent *e;
	struct stat sb;
	DIR *d;

	if ((d = opendir(dir)) == NULL)
		return;
	while ((e = readdir(d)) != NULL) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
		if (lstat(path, &sb) == 0 && S_ISDIR(sb.st_mode))
			remove_tree(path);
		else
			unlink(path);
	}
	closedir(d);
	rmdir(dir);
}

static int
teardown(void **state)
{
	(void)state;
	remove_tree(tmpdir);
	return 0;
}

/* A path in the temporary directory (static buffer per slot). */
static const char *
tmp_path(const char *name)
{
	static char buf[4][4096];
	static int slot;
	char *p = buf[slot++ % 4];

	snprintf(p, sizeof buf[0], "%s/%s", tmpdir, name);
	return p;
}

/* ------------------------------------------------------------------ */
/* Files                                                              */
/* ------------------------------------------------------------------ */

static void
write_file(const char *path, const void *data, size_t len)
{
	FILE *f = fopen(path, "wb");

	assert_non_null(f);
	if (len > 0)
		assert_int_equal(fwrite(data, 1, len, f), len);
	assert_int_equal(fclose(f), 0);
}

static unsigned char *
read_file(const char *path, size_t *len)
{
	unsigned char *buf;
	struct stat sb;
	FILE *f;

	assert_int_equal(stat(path, &sb), 0);
	buf = malloc((size_t)sb.st_size + 1);
	assert_non_null(buf);
	f = fopen(path, "rb");
	assert_non_null(f);
	assert_int_equal(fread(buf, 1, (size_t)sb.st_size, f),
	    (size_t)sb.st_size);
	fclose(f);
	*len = (size_t)sb.st_size;
	return buf;
}

static int
file_exists(const char *path)
{
	struct stat sb;

	return stat(path, &sb) == 0;
}

/* Names in the temporary directory, sorted, joined by '|'. */
static void
dir_listing(char *out, size_t size)
{
	char names[64][256];
	struct dirent *e;
	size_t n = 0, i, j, len = 0;
	DIR *d = opendir(tmpdir);

	assert_non_null(d);
	while ((e = readdir(d)) != NULL && n < 64) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(names[n++], sizeof names[0], "%s", e->d_name);
	}
	closedir(d);
	for (i = 1; i < n; i++)
		for (j = i; j > 0 && strcmp(names[j - 1], names[j]) > 0; j--) {
			char t[256];

			memcpy(t, names[j], sizeof t);
			memcpy(names[j], names[j - 1], sizeof t);
			memcpy(names[j - 1], t, sizeof t);
		}
	out[0] = '\0';
	for (i = 0; i < n; i++)
		len += (size_t)snprintf(out + len, size - len, "%s%s",
		    i == 0 ? "" : "|", names[i]);
}

/* ------------------------------------------------------------------ */
/* Direct SQLite access, to check what db.c wrote                     */
/* ------------------------------------------------------------------ */

static sqlite3 *
raw_open(const char *path)
{
	sqlite3 *s = NULL;

	if (sqlite3_open_v2(path, &s, SQLITE_OPEN_READWRITE |
	    SQLITE_OPEN_CREATE, NULL) != SQLITE_OK)
		fail_msg("sqlite3_open %s: %s", path, sqlite3_errmsg(s));
	return s;
}

static void
raw_exec(sqlite3 *s, const char *sql)
{
	char *msg = NULL;

	if (sqlite3_exec(s, sql, NULL, NULL, &msg) != SQLITE_OK) {
		char copy[512];

		snprintf(copy, sizeof copy, "%s", msg != NULL ? msg : "?");
		sqlite3_free(msg);
		fail_msg("%s: %s", sql, copy);
	}
}

static long long
raw_int(const char *path, const char *sql)
{
	sqlite3 *s = raw_open(path);
	sqlite3_stmt *st;
	long long v;

	if (sqlite3_prepare_v2(s, sql, -1, &st, NULL) != SQLITE_OK)
		fail_msg("%s: %s", sql, sqlite3_errmsg(s));
	assert_int_equal(sqlite3_step(st), SQLITE_ROW);
	v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	sqlite3_close(s);
	return v;
}

static void
raw_text(const char *path, const char *sql, char *out, size_t size)
{
	sqlite3 *s = raw_open(path);
	sqlite3_stmt *st;
	const unsigned char *t;

	if (sqlite3_prepare_v2(s, sql, -1, &st, NULL) != SQLITE_OK)
		fail_msg("%s: %s", sql, sqlite3_errmsg(s));
	assert_int_equal(sqlite3_step(st), SQLITE_ROW);
	t = sqlite3_column_text(st, 0);
	snprintf(out, size, "%s", t != NULL ? (const char *)t : "(null)");
	sqlite3_finalize(st);
	sqlite3_close(s);
}

/* The file is a current gpucost cache: version, WAL, id, tables. */
static void
assert_current_schema(const char *path)
{
	char mode[32];

	assert_int_equal(raw_int(path, "PRAGMA user_version"),
	    DB_SCHEMA_VERSION);
	assert_true(DB_SCHEMA_VERSION >= 8);
	assert_int_equal(raw_int(path, "PRAGMA application_id"), APP_ID);
	raw_text(path, "PRAGMA journal_mode", mode, sizeof mode);
	assert_string_equal(mode, "wal");
	assert_int_equal(raw_int(path, "SELECT count(*) FROM sqlite_master "
	    "WHERE type = 'table' AND name IN ('offers', 'price_history', "
	    "'provider_status', 'provider_meta', 'refresh_log', 'watch', "
	    "'committed', 'committed_history', 'refresh_outcome')"), 9);
	/* Migration 25 moved each watch's offers into watch.known. */
	assert_int_equal(raw_int(path, "SELECT count(*) FROM sqlite_master "
	    "WHERE name = 'watch_offer'"), 0);
	/* Shell completion's region list reads this index (db_complete.c). */
	assert_int_equal(raw_int(path, "SELECT count(*) FROM sqlite_master "
	    "WHERE type = 'index' AND name = 'offers_region'"), 1);
}

/* ------------------------------------------------------------------ */
/* Offers                                                             */
/* ------------------------------------------------------------------ */

static struct offer
mk(const char *provider, const char *key, const char *gpu, int count,
    int vram, enum interconnect ic, int64_t price, int64_t spot,
    enum availability av, int64_t at)
{
	struct offer o;

	offer_init(&o);
	o.provider = tstrf("%s", provider);
	o.key = tstrf("%s", key);
	o.instance_type = tstrf("%s-type", key);
	o.region = tstrf("region-%s", key);
	o.gpu = tstrf("%s", gpu);
	o.gpu_raw = tstrf("raw %s", gpu);
	o.gpu_count = count;
	o.vram_gb = vram;
	o.interconnect = ic;
	o.vcpus = 8 * count;
	o.ram_gb = 64.5 * count;
	o.price = price;
	o.spot_price = spot;
	o.availability = av;
	o.fetched_at = at;
	o.source = SRC_LIVE;
	return o;
}

static int
cmp_offer_key(const void *a, const void *b)
{
	const struct offer *x = a, *y = b;
	int c = strcmp(x->provider, y->provider);

	return c != 0 ? c : strcmp(x->key, y->key);
}

/* Every field equal. */
static void
assert_offer_equal(const struct offer *got, const struct offer *want)
{
	assert_string_equal(got->provider, want->provider);
	assert_string_equal(got->key, want->key);
	assert_string_equal(got->instance_type, want->instance_type);
	assert_string_equal(got->region, want->region);
	assert_string_equal(got->gpu, want->gpu);
	assert_string_equal(got->gpu_raw, want->gpu_raw);
	assert_int_equal(got->gpu_count, want->gpu_count);
	assert_int_equal(got->vram_gb, want->vram_gb);
	assert_int_equal(got->interconnect, want->interconnect);
	assert_int_equal(got->vcpus, want->vcpus);
	assert_true(got->ram_gb - want->ram_gb < 1e-9 &&
	    want->ram_gb - got->ram_gb < 1e-9);
	assert_int_equal(got->price, want->price);
	assert_int_equal(got->spot_price, want->spot_price);
	assert_int_equal(got->availability, want->availability);
	assert_int_equal(got->spot_interruption, want->spot_interruption);
	if (want->reliability < 0)
		assert_true(got->reliability < 0);
	else
		assert_true(got->reliability - want->reliability < 1e-9 &&
		    want->reliability - got->reliability < 1e-9);
	assert_int_equal(got->fetched_at, want->fetched_at);
	assert_int_equal(got->source, want->source);
	assert_int_equal(got->notes, want->notes);
	assert_string_equal(got->spot_zone, want->spot_zone);
}

/* Open path or fail with the message. */
static struct db *
open_ok(const char *path)
{
	struct db *db = NULL;
	struct err err;

	err_clear(&err);
	if (db_open(path, &db, &err) != 0)
		fail_msg("db_open(%s): %s", path, err.msg);
	assert_non_null(db);
	return db;
}

static void
replace_ok(struct db *db, const char *provider, const struct offer *v,
    size_t n, enum offer_source src, int64_t now,
    struct db_replace_stats *stats)
{
	struct err err;

	err_clear(&err);
	if (db_replace_offers(db, provider, v, n, src, now, stats, &err) != 0)
		fail_msg("db_replace_offers(%s): %s", provider, err.msg);
}

/*
 * db_query_scan() (the TUI's load) gives the offers db_query() gave in
 * want, sorted by (provider, key): the same rows, field for field.
 */
static void
scan_same(struct db *db, const struct offer_filter *f,
    const struct offer_list *want)
{
	struct offer_list got;
	struct err err;
	size_t i;

	offer_list_init(&got);
	err_clear(&err);
	if (db_query_scan(db, f, &got, &err) != 0)
		fail_msg("db_query_scan: %s", err.msg);
	if (got.n > 1)
		qsort(got.v, got.n, sizeof got.v[0], cmp_offer_key);
	assert_int_equal(got.n, want->n);
	/* Field by field: strings may be pointers into each list's own store. */
	for (i = 0; i < got.n; i++) {
		const struct offer *a = &got.v[i], *b = &want->v[i];

		assert_string_equal(a->provider, b->provider);
		assert_string_equal(a->key, b->key);
		assert_string_equal(a->instance_type, b->instance_type);
		assert_string_equal(a->region, b->region);
		assert_string_equal(a->gpu, b->gpu);
		assert_string_equal(a->gpu_raw, b->gpu_raw);
		assert_int_equal(a->gpu_count, b->gpu_count);
		assert_int_equal(a->price, b->price);
		assert_int_equal(a->spot_price, b->spot_price);
		assert_int_equal(a->fetched_at, b->fetched_at);
		assert_int_equal(a->notes, b->notes);
		assert_int_equal(a->nodes, b->nodes);
		assert_int_equal(a->ncommitted, b->ncommitted);
		assert_true(a->fabric == b->fabric);
	}
	offer_list_done(&got);
}

/* db_query with filter f, sorted by (provider, key). */
static void
query_ok(struct db *db, const struct offer_filter *f, struct offer_list *out)
{
	struct err err;

	offer_list_init(out);
	err_clear(&err);
	if (db_query(db, f, out, &err) != 0)
		fail_msg("db_query: %s", err.msg);
	if (out->n > 1)
		qsort(out->v, out->n, sizeof out->v[0], cmp_offer_key);
	scan_same(db, f, out);
}

static struct offer *
find_offer(struct offer_list *l, const char *provider, const char *key)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		if (strcmp(l->v[i].provider, provider) == 0 &&
		    strcmp(l->v[i].key, key) == 0)
			return &l->v[i];
	return NULL;
}

/* The offer, which must be there: the test fails (and stops) if not. */
static struct offer *
get_offer(struct offer_list *l, const char *provider, const char *key)
{
	struct offer *o = find_offer(l, provider, key);

	if (o == NULL) {
		fail_msg("no offer %s/%s", provider, key);
		abort();
	}
	return o;
}

/* The source's currency and own price are stored, updated and read. */
static void
test_currency_roundtrip(void **state)
{
	const char *path = tmp_path("currency.db");
	struct offer v[2];
	struct offer_filter f;
	struct offer_list l;
	struct offer *o;
	struct db *db;

	(void)state;
	db = open_ok(path);
	v[0] = mk("scaleway", "H100-1-80G/fr-par-2", "H100", 1, 80, IC_PCIE,
	    2978007, MONEY_NONE, AV_AVAILABLE, 1700000000);
	memcpy(v[0].currency, "EUR", 4);
	v[0].price_original = 2866500;
	v[1] = mk("scaleway", "L4-1-24G/fr-par-2", "L4", 1, 24, IC_PCIE,
	    818134, MONEY_NONE, AV_AVAILABLE, 1700000000);
	memcpy(v[1].currency, "EUR", 4);
	v[1].price_original = 787500;
	replace_ok(db, "scaleway", v, 2, SRC_LIVE, 1700000000, NULL);
	offer_filter_init(&f);
	query_ok(db, &f, &l);
	o = get_offer(&l, "scaleway", "H100-1-80G/fr-par-2");
	assert_string_equal(o->currency, "EUR");
	assert_int_equal(o->price_original, 2866500);
	offer_list_done(&l);
	/* Same USD price, another EUR figure (a new rate): updated too. */
	v[0].price_original = 2800000;
	replace_ok(db, "scaleway", v, 2, SRC_LIVE, 1700000100, NULL);
	query_ok(db, &f, &l);
	o = get_offer(&l, "scaleway", "H100-1-80G/fr-par-2");
	assert_int_equal(o->price_original, 2800000);
	offer_list_done(&l);
	db_close(db);
}

/*
 * Committed prices go in and come back with their offer, survive a
 * --limit'd top-N read, leave with it, and a changed one adds a
 * history row (a new one too; an unchanged one does not).
 */
static void
test_committed_roundtrip(void **state)
{
	const char *path = tmp_path("committed.db");
	struct offer v[2];
	struct offer_filter f;
	struct offer_list l;
	struct offer *o;
	struct db *db;

	(void)state;
	db = open_ok(path);
	v[0] = mk("azure", "Standard_ND96isr_H200_v5/eastus2", "H200", 8, 141,
	    IC_NVLINK, 84800000, MONEY_NONE, AV_UNKNOWN, 1700000000);
	assert_int_equal(tcommitted_add(&v[0], CK_RESERVATION, 12, CU_ALL, 69863014,
	    (int64_t)612000 * MONEY_UNIT), 0);
	assert_int_equal(tcommitted_add(&v[0], CK_SAVINGS_PLAN, 36, CU_NONE, 38160000, 0), 0);
	v[1] = mk("azure", "Standard_NC40ads_H100_v5/eastus", "H100", 1, 94,
	    IC_PCIE, 6980000, MONEY_NONE, AV_UNKNOWN, 1700000000);
	replace_ok(db, "azure", v, 2, SRC_LIVE, 1700000000, NULL);
	assert_int_equal(raw_int(path, "SELECT count(*) FROM committed"), 2);
	assert_int_equal(raw_int(path, "SELECT count(*) FROM "
	    "committed_history WHERE observed_at = 1700000000"), 2);
	offer_filter_init(&f);
	query_ok(db, &f, &l);
	o = get_offer(&l, "azure", "Standard_ND96isr_H200_v5/eastus2");
	assert_int_equal(o->ncommitted, 2);
	assert_int_equal(o->committed[0].kind, CK_RESERVATION);
	assert_int_equal(o->committed[0].months, 12);
	assert_int_equal(o->committed[0].upfront_kind, CU_ALL);
	assert_int_equal(o->committed[0].price_hour, 69863014);
	assert_int_equal(o->committed[0].upfront,
	    (int64_t)612000 * MONEY_UNIT);
	assert_int_equal(o->committed[1].kind, CK_SAVINGS_PLAN);
	assert_int_equal(o->committed[1].price_hour, 38160000);
	o = get_offer(&l, "azure", "Standard_NC40ads_H100_v5/eastus");
	assert_int_equal(o->ncommitted, 0);
	offer_list_done(&l);

	/* The top-N read attaches them too. */
	offer_list_init(&l);
	assert_int_equal(db_query_top(db, &f, SORT_GPU_PRICE, false, 5, &l,
	    NULL, NULL), 0);
	o = get_offer(&l, "azure", "Standard_ND96isr_H200_v5/eastus2");
	assert_int_equal(o->ncommitted, 2);
	offer_list_done(&l);
	/* --term is tested in C: SQL may not stop at the first N. */
	f.term = 12;
	assert_false(db_filter_in_sql(&f));
	f.term = TERM_NONE;

	/* One price changes: one history row; the other is kept. */
	{
		struct committed c[2];

		memcpy(c, v[0].committed, sizeof c);
		c[1].price_hour = 37000000;
		offer_set_committed(&test_text, &v[0], c, 2);
	}
	replace_ok(db, "azure", v, 2, SRC_LIVE, 1700000100, NULL);
	assert_int_equal(raw_int(path, "SELECT count(*) FROM "
	    "committed_history"), 3);
	assert_int_equal(raw_int(path, "SELECT price_hour FROM committed "
	    "WHERE kind = 'savings-plan'"), 37000000);
	/* The offer goes: its committed prices go with it. */
	replace_ok(db, "azure", &v[1], 1, SRC_LIVE, 1700000200, NULL);
	assert_int_equal(raw_int(path, "SELECT count(*) FROM committed"), 0);
	db_close(db);
}

/* The status row of provider (fails if absent). */
static struct provider_status
status_of(struct db *db, const char *provider)
{
	struct provider_status *v, s;
	struct err err;
	size_t n, i;

	assert_int_equal(db_status(db, &v, &n, &err), 0);
	for (i = 0; i < n; i++)
		if (strcmp(v[i].provider, provider) == 0)
			break;
	if (i == n) {
		free(v);
		fail_msg("no status row for %s", provider);
	}
	s = v[i];
	free(v);
	return s;
}

/* ------------------------------------------------------------------ */
/* Opening and migrations                                             */
/* ------------------------------------------------------------------ */

static void
test_open_new(void **state)
{
	const char *path = tmp_path("new.db");
	struct db *db;
	bool due;
	struct err err;

	(void)state;
	assert_false(file_exists(path));
	db = open_ok(path);
	assert_string_equal(db_path(db), path);
	assert_int_equal(db_provider_seed_due(db, "aws", "v1", &due, &err), 0);
	assert_true(due);
	db_close(db);
	assert_true(file_exists(path));
	assert_current_schema(path);
	/* WAL files are gone after the last close. */
	assert_false(file_exists(tmp_path("new.db-wal")));

	/* Opening again is a no-op on the schema. */
	db = open_ok(path);
	db_close(db);
	assert_current_schema(path);
	db_close(NULL);
}

static void
test_open_missing_dir(void **state)
{
	const char *path = tmp_path("no/such/dir/c.db");
	struct db *db = (struct db *)&db;
	struct err err;

	(void)state;
	err_clear(&err);
	assert_int_equal(db_open(path, &db, &err), -1);
	assert_null(db);
	assert_non_null(strstr(err.msg, path));
}

/* Version 0: an empty file (e.g. made by touch). */
static void
test_migrate_from_empty_file(void **state)
{
	const char *path = tmp_path("empty.db");
	struct db *db;
	struct offer o = mk("aws", "k1", "H100", 8, 80, IC_NVLINK, 98320000,
	    MONEY_NONE, AV_UNKNOWN, 1000);
	struct offer_list l;
	struct offer_filter f;

	(void)state;
	write_file(path, "", 0);
	db = open_ok(path);
	replace_ok(db, "aws", &o, 1, SRC_LIVE, 1000, NULL);
	offer_filter_init(&f);
	query_ok(db, &f, &l);
	assert_int_equal(l.n, 1);
	offer_list_done(&l);
	db_close(db);
	assert_current_schema(path);
}

/* Version 1, written as gpucost 1 would have: migrated, rows kept. */
static void
test_migrate_from_v1(void **state)
{
	const char *path = tmp_path("v1.db");
	sqlite3 *s;
	sqlite3_stmt *st;
	struct offer_list l;
	struct offer_filter f;
	struct price_point *pts;
	struct provider_status ps;
	struct db *db;
	struct err err;
	char value[64];
	bool found;
	size_t n;
	int i;

	(void)state;
	s = raw_open(path);
	raw_exec(s, v1_schema);
	raw_exec(s, "PRAGMA user_version=1");
	assert_int_equal(sqlite3_prepare_v2(s, "INSERT INTO offers VALUES "
	    "(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)", -1, &st, NULL), SQLITE_OK);
	for (i = 0; i < 3; i++) {
		char key[32];

		snprintf(key, sizeof key, "p4d.24xlarge/r%d", i);
		sqlite3_bind_text(st, 1, "aws", -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 2, key, -1, SQLITE_TRANSIENT);
		sqlite3_bind_text(st, 3, "p4d.24xlarge", -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 4, key + 13, -1, SQLITE_TRANSIENT);
		sqlite3_bind_text(st, 5, "A100-40", -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 6, "A100", -1, SQLITE_STATIC);
		sqlite3_bind_int(st, 7, 8);
		sqlite3_bind_int(st, 8, 40);
		sqlite3_bind_text(st, 9, "nvlink", -1, SQLITE_STATIC);
		sqlite3_bind_int(st, 10, 96);
		sqlite3_bind_double(st, 11, 1152);
		sqlite3_bind_int64(st, 12, 21957800 + i);
		if (i == 1)
			sqlite3_bind_null(st, 13);
		else
			sqlite3_bind_int64(st, 13, 9000000 + i);
		sqlite3_bind_text(st, 14, i == 2 ? "available" : "unknown", -1,
		    SQLITE_STATIC);
		sqlite3_bind_int(st, 15, i);
		if (i == 0)
			sqlite3_bind_double(st, 16, 0.5);
		else
			sqlite3_bind_null(st, 16);
		sqlite3_bind_int64(st, 17, 1700000000 + i);
		sqlite3_bind_text(st, 18, "live", -1, SQLITE_STATIC);
		assert_int_equal(sqlite3_step(st), SQLITE_DONE);
		sqlite3_reset(st);
	}
	sqlite3_finalize(st);
	raw_exec(s, "INSERT INTO price_history VALUES ('aws', "
	    "'p4d.24xlarge/r0', 1700000000, 21957800, 9000000, 'unknown');"
	    "INSERT INTO provider_status VALUES ('aws', 'live', 1700000100, "
	    "1700000100, 3, NULL, 'etag-1');");
	sqlite3_close(s);
	assert_int_equal(raw_int(path, "PRAGMA user_version"), 1);

	db = open_ok(path);
	offer_filter_init(&f);
	query_ok(db, &f, &l);
	assert_int_equal(l.n, 3);
	for (i = 0; i < 3; i++) {
		const struct offer *o = &l.v[i];
		char key[32];

		snprintf(key, sizeof key, "p4d.24xlarge/r%d", i);
		assert_string_equal(o->provider, "aws");
		assert_string_equal(o->key, key);
		assert_string_equal(o->region, key + 13);
		assert_string_equal(o->gpu, "A100-40");
		assert_string_equal(o->gpu_raw, "A100");
		assert_int_equal(o->gpu_count, 8);
		assert_int_equal(o->vram_gb, 40);
		assert_int_equal(o->interconnect, IC_NVLINK);
		assert_int_equal(o->vcpus, 96);
		assert_int_equal(o->price, 21957800 + i);
		assert_int_equal(o->spot_price, i == 1 ? MONEY_NONE :
		    9000000 + i);
		assert_int_equal(o->availability, i == 2 ? AV_AVAILABLE :
		    AV_UNKNOWN);
		assert_int_equal(o->spot_interruption, i);
		if (i == 0)
			assert_true(o->reliability > 0.4999 &&
			    o->reliability < 0.5001);
		else
			assert_true(o->reliability < 0);
		assert_int_equal(o->fetched_at, 1700000000 + i);
		assert_int_equal(o->source, SRC_LIVE);
		/* Migration 4: offers cached before notes have none. */
		assert_int_equal(o->notes, 0);
		assert_string_equal(o->spot_zone, "");
		/* Migration 5: rows cached before were USD, no own price. */
		assert_string_equal(o->currency, "USD");
		assert_int_equal(o->price_original, MONEY_NONE);
	}
	offer_list_done(&l);
	assert_int_equal(db_history(db, "aws", "p4d.24xlarge/r0", &pts, &n,
	    &err), 0);
	assert_int_equal(n, 1);
	assert_int_equal(pts[0].at, 1700000000);
	assert_int_equal(pts[0].price, 21957800);
	free(pts);
	ps = status_of(db, "aws");
	assert_int_equal(ps.source, SRC_LIVE);
	assert_int_equal(ps.last_success, 1700000100);
	assert_int_equal(ps.offer_count, 3);
	/* Migration 4 filled in the count and ages of the status row. */
	assert_int_equal(ps.oldest, 1700000000);
	assert_int_equal(ps.newest, 1700000002);
	/* The first top query computes the sort keys (checked below). */
	offer_filter_init(&f);
	assert_int_equal(db_query_top(db, &f, SORT_PFLOP, false, 1, &l, NULL,
	    &err), 0);
	assert_int_equal(l.n, 1);
	assert_string_equal(l.v[0].key, "p4d.24xlarge/r0");
	offer_list_done(&l);
	/* The new table works. */
	assert_int_equal(db_meta_set(db, "aws", "us-east-1", "v20260101",
	    &err), 0);
	assert_int_equal(db_meta_get(db, "aws", "us-east-1", value,
	    sizeof value, &found, &err), 0);
	assert_true(found);
	assert_string_equal(value, "v20260101");
	db_close(db);
	assert_current_schema(path);
	assert_int_equal(raw_int(path, "SELECT count(*) FROM offers"), 3);
	assert_int_equal(raw_int(path, "SELECT count(*) FROM price_history"),
	    1);
	assert_int_equal(raw_int(path, "SELECT sk_gpu_price FROM offers "
	    "WHERE key = 'p4d.24xlarge/r1'"), (21957801 + 4) / 8);
	assert_int_equal(raw_int(path, "SELECT sk_spot_gpu FROM offers "
	    "WHERE key = 'p4d.24xlarge/r1'"), INT64_MAX);
	assert_int_equal(raw_int(path, "SELECT count(*) FROM offers "
	    "WHERE sk_pflop < 1e300"), 3);
}

/*
 * db_open(path) must fail naming the file, with want in the message,
 * and leave the file and the directory exactly as they were.
 */
static void
refused(const char *path, const char *want)
{
	unsigned char *before, *after;
	size_t blen, alen;
	char lbefore[2048], lafter[2048];
	struct db *db = (struct db *)&db;
	struct err err;
	struct stat sb;
	int rc, isdir;

	isdir = stat(path, &sb) == 0 && S_ISDIR(sb.st_mode);
	before = isdir ? NULL : read_file(path, &blen);
	dir_listing(lbefore, sizeof lbefore);
	err_clear(&err);
	rc = db_open(path, &db, &err);
	if (rc == 0)
		db_close(db);
	dir_listing(lafter, sizeof lafter);
	after = isdir ? NULL : read_file(path, &alen);
	if (rc != -1) {
		free(before);
		free(after);
		fail_msg("db_open(%s) accepted it, want \"%s\"", path, want);
	}
	assert_null(db);
	if (strstr(err.msg, want) == NULL || strstr(err.msg, path) == NULL)
		fail_msg("message \"%s\" lacks \"%s\" or the path", err.msg,
		    want);
	assert_string_equal(lafter, lbefore);
	if (!isdir) {
		assert_int_equal(alen, blen);
		assert_memory_equal(after, before, blen);
	}
	free(before);
	free(after);
}

static void
test_refuse_text_file(void **state)
{
	const char *path = tmp_path("notes.txt");
	char text[4096];
	size_t i, len = 0;

	(void)state;
	for (i = 0; i < 60; i++)
		len += (size_t)snprintf(text + len, sizeof text - len,
		    "line %zu: this is not a database, it is a text file\n", i);
	write_file(path, text, len);
	refused(path, "not an SQLite database");
	/* Short text too (shorter than an SQLite header). */
	write_file(path, "hello\n", 6);
	refused(path, "not an SQLite database");
}

static void
test_refuse_foreign_db(void **state)
{
	const char *path = tmp_path("foreign.db");
	const char *path2 = tmp_path("foreign2.db");
	sqlite3 *s;

	(void)state;
	s = raw_open(path);
	raw_exec(s, "CREATE TABLE people (name TEXT, age INTEGER);"
	    "INSERT INTO people VALUES ('ada', 36), ('alan', 41);");
	sqlite3_close(s);
	assert_int_equal(raw_int(path, "PRAGMA user_version"), 0);
	refused(path, "not a gpucost cache");
	assert_int_equal(raw_int(path, "SELECT count(*) FROM people"), 2);

	/* Another program's application_id, at our version. */
	s = raw_open(path2);
	raw_exec(s, "CREATE TABLE t (x); PRAGMA application_id = 305419896;"
	    "PRAGMA user_version = 2;");
	sqlite3_close(s);
	refused(path2, "not a gpucost cache");
}

static void
test_refuse_newer(void **state)
{
	const char *path = tmp_path("newer.db");
	struct db *db;
	sqlite3 *s;

	(void)state;
	db = open_ok(path);
	db_close(db);
	s = raw_open(path);
	raw_exec(s, "PRAGMA user_version = 99");
	sqlite3_close(s);
	assert_false(file_exists(tmp_path("newer.db-wal")));
	refused(path, "newer");
	assert_int_equal(raw_int(path, "PRAGMA user_version"), 99);
}

static void
test_refuse_directory(void **state)
{
	const char *path = tmp_path("adir");

	(void)state;
	assert_int_equal(mkdir(path, 0700), 0);
	refused(path, "is a directory");
}

/*
 * A foreign database in WAL mode whose last writer did not checkpoint
 * (it crashed, or it is a copy): refusing it must not checkpoint that
 * WAL into the file on close, which would rewrite the other program's
 * database.
 */
static void
test_refuse_foreign_hot_wal(void **state)
{
	const char *src = tmp_path("app.db");
	const char *path = tmp_path("copy.db");
	const char *wal = tmp_path("copy.db-wal");
	unsigned char *db_before, *wal_before, *db_after, *wal_after;
	size_t dlen, wlen, dlen2, wlen2;
	int db_same, wal_same;
	struct db *db = NULL;
	struct err err;
	sqlite3 *s;

	(void)state;
	s = raw_open(src);
	raw_exec(s, "PRAGMA journal_mode = WAL; PRAGMA wal_autocheckpoint = 0;"
	    "CREATE TABLE people (name TEXT);"
	    "INSERT INTO people VALUES ('ada'), ('alan');");
	/* Copy the file and its WAL while the writer still has them open. */
	db_before = read_file(src, &dlen);
	wal_before = read_file(tmp_path("app.db-wal"), &wlen);
	assert_true(wlen > 0);
	write_file(path, db_before, dlen);
	write_file(wal, wal_before, wlen);
	sqlite3_close(s);

	err_clear(&err);
	assert_int_equal(db_open(path, &db, &err), -1);
	assert_null(db);
	assert_non_null(strstr(err.msg, "not a gpucost cache"));
	db_after = read_file(path, &dlen2);
	db_same = dlen2 == dlen && memcmp(db_after, db_before, dlen) == 0;
	wal_same = file_exists(wal);
	if (wal_same) {
		wal_after = read_file(wal, &wlen2);
		wal_same = wlen2 == wlen &&
		    memcmp(wal_after, wal_before, wlen) == 0;
		free(wal_after);
	}
	free(db_before);
	free(wal_before);
	free(db_after);
	if (!db_same)
		fail_msg("refusing %s rewrote it (%zu -> %zu bytes)", path,
		    dlen, dlen2);
	if (!wal_same)
		fail_msg("refusing %s changed or removed its WAL", path);
}

/* A small LCG, so the garbage is the same on every run. */
static unsigned char
garbage(uint32_t *seed)
{
	*seed = *seed * 1103515245u + 12345u;
	return (unsigned char)(*seed >> 16);
}

static int
mentions_corruption(const char *msg)
{
	return strstr(msg, "corrupt") != NULL ||
	    strstr(msg, "malformed") != NULL;
}

/* A damaged cache is reported as such and left untouched. */
/*
 * SQLite running out of memory while it checks a sound cache is not
 * corruption: quick_check then reports "unable to get the page. error
 * code=7", and calling that corrupt advised moving a good cache away.
 */
static void
test_check_out_of_memory(void **state)
{
	const char *path = tmp_path("oom.db");
	struct offer *v;
	struct db *db;
	struct err err;
	size_t i, n = 3000;
	sqlite3_int64 old_limit;
	int rc = 0, limit;
	bool saw_oom = false;

	(void)state;
	v = calloc(n, sizeof *v);
	assert_non_null(v);
	for (i = 0; i < n; i++) {
		char key[64];

		snprintf(key, sizeof key, "g5.%zuxlarge/region-%zu", i % 7, i);
		v[i] = mk("aws", key, "A10G", 1 + (int)(i % 8), 24, IC_PCIE,
		    1000000 + (int64_t)i, MONEY_NONE, AV_UNKNOWN, 1000);
	}
	db = open_ok(path);
	replace_ok(db, "aws", v, n, SRC_LIVE, 1000, NULL);
	free(v);
	db_close(db);

	/* Shrinking heap limits: every failure must say memory, none corrupt. */
	for (limit = 2 << 20; limit >= 16 << 10; limit = limit * 3 / 4) {
		db = open_ok(path);
		old_limit = sqlite3_hard_heap_limit64(limit);
		err_clear(&err);
		rc = db_check_sound(db, &err);
		sqlite3_hard_heap_limit64(old_limit);
		db_close(db);
		if (rc == 0)
			continue;
		assert_null(strstr(err.msg, "corrupt"));
		assert_non_null(strstr(err.msg, "out of memory"));
		saw_oom = true;
	}
	/* Some limit made the check itself fail, else nothing was tested. */
	assert_true(saw_oom);
	db = open_ok(path);
	assert_int_equal(db_check_sound(db, &err), 0);
	db_close(db);
}

static void
test_corrupt_cache(void **state)
{
	const char *path = tmp_path("corrupt.db");
	struct offer *v;
	struct offer_list l;
	struct offer_filter f;
	struct db *db;
	struct err err;
	unsigned char *bytes, *after;
	size_t len, alen, i, n = 3000;
	uint32_t seed = 42;
	int rc, open_rc;

	(void)state;
	v = calloc(n, sizeof *v);
	assert_non_null(v);
	for (i = 0; i < n; i++) {
		char key[64];

		snprintf(key, sizeof key, "g5.%zuxlarge/region-%zu", i % 7, i);
		v[i] = mk("aws", key, i % 2 ? "A10G" : "H100", 1 + (int)(i % 8),
		    24, IC_PCIE, 1000000 + (int64_t)i, MONEY_NONE,
		    AV_UNKNOWN, 1000);
	}
	db = open_ok(path);
	replace_ok(db, "aws", v, n, SRC_LIVE, 1000, NULL);
	replace_ok(db, "gcp", v, 500, SRC_LIVE, 1000, NULL);
	db_close(db);
	free(v);
	assert_false(file_exists(tmp_path("corrupt.db-wal")));

	/* Garbage over the middle half of the file. */
	bytes = read_file(path, &len);
	assert_true(len > 100000);
	for (i = len / 4; i < 3 * len / 4; i++)
		bytes[i] = garbage(&seed);
	write_file(path, bytes, len);

	err_clear(&err);
	db = NULL;
	open_rc = db_open(path, &db, &err);
	if (open_rc == 0) {
		/* Opening reads only the header; reading the offers fails. */
		offer_filter_init(&f);
		offer_list_init(&l);
		err_clear(&err);
		rc = db_query(db, &f, &l, &err);
		offer_list_done(&l);
		db_close(db);
		if (rc != -1)
			fail_msg("db_query on a corrupt cache succeeded");
	} else {
		assert_int_equal(open_rc, -1);
		assert_null(db);
	}
	if (getenv("TEST_DB_VERBOSE") != NULL)
		fprintf(stderr, "corrupt (db_open %d): %s\n", open_rc, err.msg);
	if (!mentions_corruption(err.msg))
		fail_msg("message \"%s\" does not say corrupt/malformed",
		    err.msg);
	assert_non_null(strstr(err.msg, path));

	after = read_file(path, &alen);
	assert_int_equal(alen, len);
	assert_memory_equal(after, bytes, len);
	free(after);
	free(bytes);
}

/* ------------------------------------------------------------------ */
/* Replacing offers                                                   */
/* ------------------------------------------------------------------ */

static void
test_replace_roundtrip(void **state)
{
	const char *path = tmp_path("rt.db");
	struct offer in[3];
	struct offer_list l;
	struct offer_filter f;
	struct db_replace_stats stats;
	struct db *db;
	size_t i;

	(void)state;
	in[0] = mk("vast", "1x-H100_NVL-32-65536/Quebec, CA", "H100-NVL", 1,
	    94, IC_PCIE, 2670000, 1200000, AV_AVAILABLE, 1777420800);
	in[0].reliability = 0.9871;
	in[0].region = tstrf("Qu\xc3\xa9" "bec, CA");
	in[1] = mk("vast", "2x-RTX_4090/\"quoted\" 'key'", "RTX4090", 2, 24,
	    IC_UNKNOWN, MONEY_NONE, 700000, AV_LIMITED, 1777420801);
	in[1].spot_interruption = 4;
	in[1].source = SRC_SNAPSHOT;
	/* A key holds any text; a region only a region's (offer.h). */
	in[1].region = tstrf("Texas, US");
	/* Stored notes and the spot zone come back as written. */
	in[0].notes = NOTE_BIT(NOTE_SINGLE_LISTING) |
	    NOTE_BIT(NOTE_PRICE_OUTLIER);
	in[1].notes = NOTE_BIT(NOTE_SPOT_CHEAPEST_ZONE);
	in[1].spot_zone = tstrf("use1-az4");
	in[2] = mk("vast", "unknown-gpu", "", 4, 0, IC_NVLINK, 1, MONEY_NONE,
	    AV_UNAVAILABLE, 1777420802);
	in[2].gpu_raw = tstrf("Mystery 9000");
	in[2].vcpus = 0;
	in[2].ram_gb = 0;
	in[2].spot_interruption = 0;

	db = open_ok(path);
	replace_ok(db, "vast", in, 3, SRC_LIVE, 5000, &stats);
	assert_int_equal(stats.offers, 3);
	assert_int_equal(stats.history_rows, 3);
	assert_int_equal(stats.removed, 0);
	offer_filter_init(&f);
	query_ok(db, &f, &l);
	assert_int_equal(l.n, 3);
	qsort(in, 3, sizeof in[0], cmp_offer_key);
	for (i = 0; i < 3; i++)
		assert_offer_equal(&l.v[i], &in[i]);
	offer_list_done(&l);
	/* --no-outliers: SQL leaves the price-outlier out. */
	f.no_outliers = true;
	query_ok(db, &f, &l);
	assert_int_equal(l.n, 2);
	for (i = 0; i < l.n; i++)
		assert_true((l.v[i].notes & NOTE_BIT(NOTE_PRICE_OUTLIER)) == 0);
	offer_list_done(&l);
	db_close(db);
}

static void
test_replace_status(void **state)
{
	const char *path = tmp_path("st.db");
	struct offer in[2];
	struct provider_status s;
	struct db *db;
	struct err err;

	(void)state;
	in[0] = mk("lambda", "a", "H100", 1, 80, IC_PCIE, 2490000, MONEY_NONE,
	    AV_AVAILABLE, 100);
	in[1] = mk("lambda", "b", "H100", 8, 80, IC_NVLINK, 23920000,
	    MONEY_NONE, AV_LIMITED, 300);
	db = open_ok(path);
	replace_ok(db, "lambda", in, 2, SRC_LIVE, 1000, NULL);
	s = status_of(db, "lambda");
	assert_string_equal(s.provider, "lambda");
	assert_int_equal(s.source, SRC_LIVE);
	assert_int_equal(s.last_attempt, 1000);
	assert_int_equal(s.last_success, 1000);
	assert_int_equal(s.offer_count, 2);
	assert_int_equal(s.oldest, 100);
	assert_int_equal(s.newest, 300);
	assert_string_equal(s.last_error, "");

	/* A failure, then a success: the error is cleared. */
	assert_int_equal(db_record_failure(db, "lambda", 1500, "HTTP 500",
	    &err), 0);
	assert_string_equal(status_of(db, "lambda").last_error, "HTTP 500");
	replace_ok(db, "lambda", in, 1, SRC_LIVE, 2000, NULL);
	s = status_of(db, "lambda");
	assert_int_equal(s.last_attempt, 2000);
	assert_int_equal(s.last_success, 2000);
	assert_int_equal(s.offer_count, 1);
	assert_string_equal(s.last_error, "");
	assert_int_equal(s.oldest, 100);
	assert_int_equal(s.newest, 100);
	db_close(db);
}

/* The second replace: history only for changed price/spot/availability. */
static void
test_replace_history_changes(void **state)
{
	const char *path = tmp_path("hist.db");
	struct offer first[6], second[6];
	struct db_replace_stats stats;
	struct price_point *pts;
	struct offer_list l;
	struct offer_filter f;
	struct db *db;
	struct err err;
	size_t n;

	(void)state;
	first[0] = mk("aws", "same", "L4", 1, 24, IC_PCIE, 800000, 300000,
	    AV_UNKNOWN, 100);
	first[1] = mk("aws", "price", "L4", 1, 24, IC_PCIE, 800000, 300000,
	    AV_UNKNOWN, 100);
	first[2] = mk("aws", "spot", "L4", 1, 24, IC_PCIE, 800000, 300000,
	    AV_UNKNOWN, 100);
	first[3] = mk("aws", "avail", "L4", 1, 24, IC_PCIE, 800000, 300000,
	    AV_UNKNOWN, 100);
	first[4] = mk("aws", "gone", "L4", 1, 24, IC_PCIE, 800000, 300000,
	    AV_UNKNOWN, 100);
	first[5] = mk("aws", "spot-gone", "L4", 1, 24, IC_PCIE, 800000, 300000,
	    AV_UNKNOWN, 100);
	db = open_ok(path);
	replace_ok(db, "aws", first, 6, SRC_LIVE, 100, &stats);
	assert_int_equal(stats.offers, 6);
	assert_int_equal(stats.history_rows, 6);
	assert_int_equal(stats.removed, 0);

	memcpy(second, first, sizeof second);
	second[0].fetched_at = 200;			/* unchanged prices */
	second[0].region = tstrf("moved");
	second[0].vcpus = 99;				/* not history */
	second[1].price = 810000;
	second[1].fetched_at = 200;
	second[2].spot_price = 290000;
	second[2].fetched_at = 200;
	second[3].availability = AV_AVAILABLE;
	second[3].fetched_at = 200;
	second[4] = mk("aws", "new", "L4", 1, 24, IC_PCIE, 700000, MONEY_NONE,
	    AV_UNKNOWN, 200);
	second[5].spot_price = MONEY_NONE;		/* known -> unknown */
	second[5].fetched_at = 200;
	replace_ok(db, "aws", second, 6, SRC_LIVE, 200, &stats);
	assert_int_equal(stats.offers, 6);
	/* price, spot, avail, new, spot-gone */
	assert_int_equal(stats.history_rows, 5);
	assert_int_equal(stats.removed, 1);

	offer_filter_init(&f);
	query_ok(db, &f, &l);
	assert_int_equal(l.n, 6);
	assert_null(find_offer(&l, "aws", "gone"));
	assert_non_null(find_offer(&l, "aws", "new"));
	assert_string_equal(get_offer(&l, "aws", "same")->region, "moved");
	assert_int_equal(get_offer(&l, "aws", "same")->vcpus, 99);
	assert_int_equal(get_offer(&l, "aws", "price")->price, 810000);
	offer_list_done(&l);

	assert_int_equal(db_history(db, "aws", "same", &pts, &n, &err), 0);
	assert_int_equal(n, 1);
	free(pts);
	assert_int_equal(db_history(db, "aws", "price", &pts, &n, &err), 0);
	assert_int_equal(n, 2);
	assert_int_equal(pts[0].at, 100);
	assert_int_equal(pts[0].price, 800000);
	assert_int_equal(pts[1].at, 200);
	assert_int_equal(pts[1].price, 810000);
	assert_int_equal(pts[1].spot_price, 300000);
	free(pts);
	assert_int_equal(db_history(db, "aws", "spot-gone", &pts, &n, &err), 0);
	assert_int_equal(n, 2);
	assert_int_equal(pts[1].spot_price, MONEY_NONE);
	assert_int_equal(pts[1].price, 800000);
	free(pts);
	assert_int_equal(db_history(db, "aws", "avail", &pts, &n, &err), 0);
	assert_int_equal(n, 2);
	assert_int_equal(pts[0].availability, AV_UNKNOWN);
	assert_int_equal(pts[1].availability, AV_AVAILABLE);
	free(pts);
	/* The removed offer keeps its history. */
	assert_int_equal(db_history(db, "aws", "gone", &pts, &n, &err), 0);
	assert_int_equal(n, 1);
	free(pts);

	/* The same set again changes nothing. */
	replace_ok(db, "aws", second, 6, SRC_LIVE, 300, &stats);
	assert_int_equal(stats.offers, 6);
	assert_int_equal(stats.history_rows, 0);
	assert_int_equal(stats.removed, 0);
	db_close(db);
	assert_int_equal(raw_int(path, "SELECT count(*) FROM price_history"),
	    11);
}

static void
test_replace_duplicates(void **state)
{
	const char *path = tmp_path("dup.db");
	struct offer in[4];
	struct db_replace_stats stats;
	struct offer_list l;
	struct offer_filter f;
	struct provider_status s;
	struct db *db;

	(void)state;
	in[0] = mk("runpod", "a", "A40", 1, 48, IC_PCIE, 400000, MONEY_NONE,
	    AV_UNKNOWN, 100);
	in[1] = mk("runpod", "b", "A40", 2, 48, IC_PCIE, 800000, MONEY_NONE,
	    AV_UNKNOWN, 100);
	in[2] = in[0];
	in[2].price = 450000;
	in[3] = in[0];
	in[3].price = 470000;
	db = open_ok(path);
	replace_ok(db, "runpod", in, 4, SRC_LIVE, 100, &stats);
	assert_int_equal(stats.offers, 2);
	assert_int_equal(stats.history_rows, 2);
	assert_int_equal(stats.removed, 0);
	offer_filter_init(&f);
	query_ok(db, &f, &l);
	assert_int_equal(l.n, 2);
	/* The last one wins. */
	assert_int_equal(get_offer(&l, "runpod", "a")->price, 470000);
	offer_list_done(&l);
	s = status_of(db, "runpod");
	assert_int_equal(s.offer_count, 2);
	db_close(db);
}

/* An offer whose GPU or count changes is found under the new ones only. */
static void
test_replace_reindexes(void **state)
{
	const char *path = tmp_path("reindex.db");
	struct db_replace_stats stats;
	struct offer in[3];
	struct offer_list l;
	struct offer_filter f;
	struct db *db;
	struct err err;
	size_t matched;

	(void)state;
	in[0] = mk("vast", "a", "RTX4090", 1, 24, IC_PCIE, 400000, MONEY_NONE,
	    AV_UNKNOWN, 100);
	in[1] = mk("vast", "b", "RTX4090", 2, 24, IC_PCIE, 800000, MONEY_NONE,
	    AV_UNKNOWN, 100);
	in[2] = mk("vast", "c", "RTX4090", 1, 24, IC_PCIE, 410000, MONEY_NONE,
	    AV_UNKNOWN, 100);
	db = open_ok(path);
	replace_ok(db, "vast", in, 3, SRC_LIVE, 100, &stats);
	in[0] = mk("vast", "a", "RTX3090", 1, 24, IC_PCIE, 300000, MONEY_NONE,
	    AV_UNKNOWN, 200);
	in[1].gpu_count = 4;
	in[1].fetched_at = 200;
	in[2].fetched_at = 200;
	in[2].price = 190000;
	replace_ok(db, "vast", in, 3, SRC_LIVE, 200, &stats);
	assert_int_equal(stats.offers, 3);
	assert_int_equal(stats.history_rows, 2);	/* a's and c's price */
	assert_int_equal(stats.removed, 0);

	/* The index has c's new price: the cheapest per GPU-hour now. */
	offer_filter_init(&f);
	f.gpus[0] = gpu_find("RTX4090");
	f.ngpus = 1;
	offer_list_init(&l);
	assert_int_equal(db_query_top(db, &f, SORT_GPU_PRICE, false, 1, &l,
	    &matched, &err), 0);
	assert_int_equal(matched, 2);
	assert_int_equal(l.n, 1);
	assert_string_equal(l.v[0].key, "c");
	assert_int_equal(l.v[0].price, 190000);
	offer_list_done(&l);

	offer_filter_init(&f);
	f.gpus[0] = gpu_find("RTX4090");
	f.ngpus = 1;
	query_ok(db, &f, &l);
	assert_int_equal(l.n, 2);
	assert_int_equal(get_offer(&l, "vast", "b")->gpu_count, 4);
	assert_int_equal(get_offer(&l, "vast", "c")->fetched_at, 200);
	offer_list_done(&l);
	f.gpus[0] = gpu_find("RTX3090");
	f.count = 1;
	query_ok(db, &f, &l);
	assert_int_equal(l.n, 1);
	assert_int_equal(l.v[0].price, 300000);
	assert_string_equal(l.v[0].gpu_raw, "raw RTX3090");
	offer_list_done(&l);
	f.gpus[0] = gpu_find("RTX4090");
	f.count = 2;
	query_ok(db, &f, &l);
	assert_int_equal(l.n, 0);
	offer_list_done(&l);
	db_close(db);
	assert_int_equal(raw_int(path, "SELECT count(*) FROM offers"), 3);
	assert_int_equal(raw_int(path, "SELECT count(*) FROM offers "
	    "INDEXED BY offers_gpu WHERE gpu = 'RTX4090'"), 2);
	assert_int_equal(raw_int(path, "SELECT count(*) FROM "
	    "pragma_integrity_check WHERE integrity_check <> 'ok'"), 0);
}

/*
 * A cache refreshed many times, each row changing in a different way
 * (an indexed column, a plain column, fetched_at alone, nothing, new,
 * gone), holds exactly the rows and index entries of one write of the
 * last set into an empty cache: replace_offers() updates a row in place
 * only where it changed and moves an index entry only where an indexed
 * column changed.
 */
static void
test_replace_merge_differential(void **state)
{
	const char *path = tmp_path("merge.db"), *fresh = tmp_path("fresh.db");
	static const char *const gpus[] = { "RTX4090", "H100", "A100-80" };
	struct offer in[40];
	struct db *db, *db2;
	sqlite3 *s;
	sqlite3_stmt *st;
	size_t i, n = 30;
	int round;

	(void)state;
	for (i = 0; i < 40; i++) {
		char key[16];

		snprintf(key, sizeof key, "k%02zu", i);
		in[i] = mk("vast", key, gpus[i % 3], 1 + (int)(i % 4), 24,
		    IC_PCIE, 100000 + (int64_t)i * 1000, 50000, AV_AVAILABLE,
		    100);
	}
	db = open_ok(path);
	replace_ok(db, "vast", in, n, SRC_LIVE, 100, NULL);
	for (round = 1; round <= 6; round++) {
		for (i = 0; i < n; i++) {
			struct offer *o = &in[i];

			o->fetched_at = 100 + round;
			switch ((i + (size_t)round) % 8) {
			case 0:		/* the GPU: an indexed column */
				o->gpu = gpus[(i + (size_t)round) % 3];
				break;
			case 1:		/* the region: indexed too */
				o->region = tstrf("r%d", round);
				break;
			case 2:		/* the price: a sort key moves */
				o->price += 7000;
				break;
			case 3:		/* only columns no index holds */
				o->gpu_raw = tstrf("raw %d", round);
				o->notes ^= NOTE_BIT(NOTE_PRICE_OUTLIER);
				o->spot_price = MONEY_NONE;
				break;
			case 4:
				o->gpu_count = 1 + (o->gpu_count % 8);
				break;
			default:	/* fetched_at alone */
				break;
			}
		}
		/* Ten offers come and go: a window sliding over in[]. */
		replace_ok(db, "vast", in + round, n, SRC_LIVE, 100 + round,
		    NULL);
		(void)unlink(fresh);
		db2 = open_ok(fresh);
		replace_ok(db2, "vast", in + round, n, SRC_LIVE, 100 + round,
		    NULL);
		db_close(db2);
		s = raw_open(path);
		assert_int_equal(sqlite3_prepare_v2(s, "ATTACH ?1 AS f", -1,
		    &st, NULL), SQLITE_OK);
		sqlite3_bind_text(st, 1, fresh, -1, SQLITE_STATIC);
		assert_int_equal(sqlite3_step(st), SQLITE_DONE);
		sqlite3_finalize(st);
		assert_int_equal(sqlite3_prepare_v2(s, "SELECT (SELECT count(*) "
		    "FROM (SELECT * FROM main.offers EXCEPT SELECT * FROM "
		    "f.offers)), (SELECT count(*) FROM (SELECT * FROM f.offers "
		    "EXCEPT SELECT * FROM main.offers)), (SELECT count(*) FROM "
		    "main.offers), (SELECT count(*) FROM main.offers INDEXED BY "
		    "offers_region WHERE region > '')", -1, &st, NULL),
		    SQLITE_OK);
		assert_int_equal(sqlite3_step(st), SQLITE_ROW);
		assert_int_equal(sqlite3_column_int(st, 0), 0);
		assert_int_equal(sqlite3_column_int(st, 1), 0);
		assert_int_equal(sqlite3_column_int(st, 2), (int)n);
		assert_int_equal(sqlite3_column_int(st, 3), (int)n);
		sqlite3_finalize(st);
		sqlite3_close(s);
		assert_int_equal(raw_int(path, "SELECT count(*) FROM "
		    "pragma_integrity_check WHERE integrity_check <> 'ok'"), 0);
	}
	db_close(db);
}

/* The (provider, key) of each plan, one string, for comparisons. */
static void
plan_keys(const struct plan *p, size_t n, char *buf, size_t size)
{
	size_t i, len = 0;

	buf[0] = '\0';
	for (i = 0; i < n && len < size; i++)
		len += (size_t)snprintf(buf + len, size - len, "%s/%s ",
		    p[i].offer->provider, p[i].offer->key);
}

/*
 * --term --limit N (db_term_in_sql(): db_query_top() joined to the
 * offer_terms kept at write time) gives the first N plans of the full
 * answer (every offer, query_plans() on the committed prices attached),
 * for each term and any, each sort and direction, with filters and
 * --max-price on the term's price (the spot price with --spot), on
 * offers whose committed prices tie per GPU-hour across GPU counts and
 * whose on-demand price is tied or unknown; again after a refresh that
 * changes them, and on a cache whose offer_terms are from before
 * (emptied, its providers' sort keys stale).
 */
static void
test_query_top_term(void **state)
{
	static const char *const provs[] = { "aws", "azure", "gcp", "vast" };
	static const char *const gpus[] = { "H100", "A100-80", "RTX4090" };
	static const int counts[] = { 1, 2, 8 };
	static const int terms[] = { 12, 36, 6, TERM_ANY, 24 };
	static const struct {
		enum filter_field ff;
		const char *value;
	} shapes[][2] = {
		{ { FF_GPU, NULL } }, { { FF_GPU, "H100" } },
		{ { FF_GPU, "H100,RTX4090" } }, { { FF_COUNT, "8" } }, { { FF_MAX_PRICE, "1.5" } },
		{ { FF_MAX_PRICE, "1" }, { FF_GPU, "A100-80" } },
		{ { FF_SPOT, "yes" } }, { { FF_SPOT, "yes" },
		    { FF_MAX_PRICE, "0.5" } },
		{ { FF_PROVIDERS, "azure" } }, { { FF_PROVIDERS, "vast" } },
		{ { FF_AVAILABLE, "yes" } }, { { FF_REGION, "europe" } },
	};
	static const enum sort_key keys[] = { SORT_TERM_GPU, SORT_GPU_PRICE,
	    SORT_PRICE, SORT_COUNT, SORT_SPOT_GPU };
	static const size_t limits[] = { 1, 4, 1000 };
	const char *path = tmp_path("term.db");
	static char want[65536], got[65536];
	struct offer v[50];
	struct offer_list all, top;
	struct offer_filter f, none;
	struct plan *pa, *pt;
	size_t na, nt, matched, i, p, si, j, ki, li, ti, shown;
	unsigned seed = 29;
	struct db *db;
	struct err err;
	sqlite3 *raw;
	int rev, round;

	(void)state;
	db = open_ok(path);
	for (round = 0; round < 3; round++) {
		if (round < 2)
		for (p = 0; p < 4; p++) {
			for (i = 0; i < 50; i++) {
				int c, g, k;

				seed = seed * 1103515245 + 12345;
				g = (int)((seed >> 8) % 3);
				c = counts[(seed >> 11) % 3];
				v[i] = mk(provs[p], tstrf("k%02zu", i), gpus[g],
				    c, 80, IC_NVLINK, (seed >> 13) % 5 == 0 ?
				    MONEY_NONE : 2000000 + (int64_t)((seed >> 15)
				    % 3) * 500000 * c, (seed >> 17) % 2 ?
				    MONEY_NONE : 700000 * c, (seed >> 18) % 2 ?
				    AV_AVAILABLE : AV_UNKNOWN, 100);
				v[i].region = tstrf("%s", (seed >> 19) % 2 ?
				    "eu-west-1" : "us-east-1");
				if (p == 3 || (seed >> 20) % 6 == 0)
					continue;	/* no committed price */
				/* Per GPU-hour 0.8 .. 1.6 in steps: ties. */
				for (k = 0; k < (int)((seed >> 23) % 4) + 1;
				    k++) {
					seed = seed * 1103515245 + 12345;
					assert_int_equal(tcommitted_add(&v[i],
					    (enum committed_kind)((seed >> 8) %
					    CK_COUNT), (seed >> 10) % 3 == 0 ? 12 :
					    (seed >> 10) % 3 == 1 ? 36 : 6,
					    (enum committed_upfront)((seed >> 12) %
					    CU_COUNT), (800000 + (int64_t)((seed >>
					    14) % 5) * 200000) * c, (seed >> 17) %
					    2 ? 0 : 1000000000), 0);
				}
			}
			replace_ok(db, provs[p], v, 50, SRC_LIVE, 100, NULL);
		}
		if (round == 2) {
			/* A cache from before: no offer_terms, stale keys. */
			raw = raw_open(path);
			raw_exec(raw, "DELETE FROM offer_terms; UPDATE "
			    "provider_status SET sort_keys = NULL");
			sqlite3_close(raw);
		}
		offer_list_init(&all);
		offer_filter_init(&none);
		query_ok(db, &none, &all);
		for (si = 0; si < sizeof shapes / sizeof shapes[0]; si++)
		for (ti = 0; ti < sizeof terms / sizeof terms[0]; ti++) {
			offer_filter_init(&f);
			for (j = 0; j < 2 && shapes[si][j].value != NULL; j++)
				assert_int_equal(filter_set(&f, shapes[si][j].ff,
				    shapes[si][j].value, false, &err), 0);
			f.term = terms[ti];
			assert_false(db_filter_in_sql(&f));
			for (ki = 0; ki < sizeof keys / sizeof keys[0]; ki++)
			for (rev = 0; rev < 2; rev++)
			for (li = 0; li < 3; li++) {
				if (!db_term_in_sql(&f, keys[ki]))
					fail_msg("shape %zu term %d sort %d: not "
					    "in SQL", si, terms[ti],
					    (int)keys[ki]);
				query_plans(all.v, all.n, &f, keys[ki], rev,
				    &pa, &na);
				shown = limits[li] < na ? limits[li] : na;
				plan_keys(pa, shown, want, sizeof want);
				offer_list_init(&top);
				assert_int_equal(db_query_top(db, &f, keys[ki],
				    rev, limits[li], &top, &matched, &err), 0);
				query_plans(top.v, top.n, &f, keys[ki], rev,
				    &pt, &nt);
				plan_keys(pt, nt < shown ? nt : shown, got,
				    sizeof got);
				if (matched != na || nt < shown ||
				    strcmp(want, got) != 0)
					fail_msg("round %d shape %zu (%s) term %d "
					    "sort %d reverse %d limit %zu: "
					    "matched %zu of %zu\nwant %.400s\n"
					    "got  %.400s", round, si,
					    shapes[si][0].value != NULL ?
					    shapes[si][0].value : "-",
					    terms[ti], (int)keys[ki], rev,
					    limits[li], matched, na, want, got);
				/* The answers are not all empty. */
				if (si == 0 && ti < 4 && na < 40)
					fail_msg("term %d: %zu plans", terms[ti],
					    na);
				free(pa);
				free(pt);
				offer_list_done(&top);
			}
		}
		offer_list_done(&all);
	}
	/* Host per GPU is no order SQL keeps: the full path answers. */
	offer_filter_init(&f);
	f.term = 12;
	assert_false(db_term_in_sql(&f, SORT_VCPUS_GPU));
	assert_int_equal(filter_set(&f, FF_MULTI_NODE, "yes", false, &err), 0);
	assert_false(db_term_in_sql(&f, SORT_TERM_GPU));
	db_close(db);
}

/*
 * db_query_top() then query_plans() gives the first N plans of the full
 * answer (db_query() then query_plans()), whatever the filter, sort,
 * direction and N, with ties, unknown prices and GPU counts that round.
 */
static void
test_query_top(void **state)
{
	static const char *const gpus[] = { "RTX4090", "A100-80", "H100", "" };
	static const char *const raws[] = { "Mystery X", "", "Enigma" };
	static const enum availability avs[] = { AV_AVAILABLE, AV_UNKNOWN,
	    AV_LIMITED, AV_UNAVAILABLE };
	static const enum interconnect ics[] = { IC_NVLINK, IC_PCIE,
	    IC_UNKNOWN };
	static const char *const provs[] = { "vast", "runpod", "aws" };
	static const int counts[] = { 1, 2, 3, 8 };
	static const size_t limits[] = { 1, 3, 20, 1000 };
	const char *path = tmp_path("top.db");
	static char want[65536], got[65536];
	struct offer v[3][120];
	struct offer_list all, top;
	struct offer_filter f;
	struct plan *pa, *pt;
	size_t na, nt, matched, i, p, fi, li, shown;
	unsigned seed = 1, seed2 = 7;
	struct db *db;
	struct err err;
	int sort, rev;

	(void)state;
	db = open_ok(path);
	for (p = 0; p < 3; p++) {
		for (i = 0; i < 120; i++) {
			char key[16];
			int64_t price;

			seed = seed * 1103515245 + 12345;
			snprintf(key, sizeof key, "k%03u", (seed >> 8) % 1000);
			/*
			 * Few distinct prices, a few micro-USD apart: ties,
			 * and per-GPU prices that only rounding orders.
			 */
			price = 1000000 + (int64_t)((seed >> 12) % 3) * 333333 +
			    (int64_t)((seed >> 26) % 9);
			seed2 = seed2 * 1103515245 + 12345;
			v[p][i] = mk(provs[p], key, gpus[(seed >> 4) % 4],
			    counts[(seed >> 16) % 4], (seed2 >> 8) % 5 ? 80 :
			    (seed2 >> 11) % 2 ? 0 : 24, ics[(seed2 >> 13) % 3],
			    (seed >> 22) % 9 == 0 ? MONEY_NONE : price,
			    (seed2 >> 16) % 4 == 0 && (seed >> 22) % 9 != 0 ?
			    MONEY_NONE : 400000 + (int64_t)((seed2 >> 18) % 3) *
			    100000, avs[(seed >> 24) % 4], 100 +
			    (int64_t)((seed2 >> 21) % 3));
			/* Unknown GPUs, among themselves by raw name. */
			if (v[p][i].gpu[0] == '\0')
				v[p][i].gpu_raw = tstrf("%s",
				    raws[(seed2 >> 23) % 3]);
			if ((seed2 >> 25) % 7 == 0)
				v[p][i].region = "";
		}
		replace_ok(db, provs[p], v[p], 120, SRC_LIVE, 100, NULL);
	}
	for (fi = 0; fi < 8; fi++) {
		offer_filter_init(&f);
		/* --max-price, on the price or (with --spot) the spot price. */
		if (fi == 6)
			f.max_price_gpu_hour = 500000;
		if (fi == 7) {
			f.spot = true;
			f.max_price_gpu_hour = 200000;
		}
		if (fi == 1 || fi == 2) {
			f.gpus[0] = gpu_find("RTX4090");
			f.ngpus = 1;
		}
		if (fi == 2 || fi == 3)
			f.count = 2;
		if (fi == 4) {
			f.gpus[0] = gpu_find("A100-80");
			f.gpus[1] = gpu_find("H100");
			f.ngpus = 2;
			snprintf(f.providers[0], sizeof f.providers[0], "aws");
			snprintf(f.providers[1], sizeof f.providers[1], "vast");
			f.nproviders = 2;
		}
		if (fi == 5) {
			f.available = true;
			f.interconnect = IC_NVLINK;
		}
		offer_list_init(&all);
		query_ok(db, &f, &all);
		for (sort = 0; sort < SORT_KEY_COUNT; sort++)
		for (rev = 0; rev < 2; rev++)
		for (li = 0; li < 4; li++) {
			enum sort_key key = (enum sort_key)sort;

			query_plans(all.v, all.n, &f, key, rev, &pa, &na);
			shown = limits[li] < na ? limits[li] : na;
			plan_keys(pa, shown, want, sizeof want);
			offer_list_init(&top);
			assert_int_equal(db_query_top(db, &f, key, rev,
			    limits[li], &top, &matched, &err), 0);
			assert_int_equal(matched, na);
			/* Without the count: the same offers. */
			offer_list_done(&top);
			offer_list_init(&top);
			assert_int_equal(db_query_top(db, &f, key, rev,
			    limits[li], &top, NULL, &err), 0);
			query_plans(top.v, top.n, &f, key, rev, &pt, &nt);
			/*
			 * Up to limit known and limit unknown ones; by age,
			 * up to limit of each provider (top_age()).
			 */
			if (nt < shown || nt > (key == SORT_AGE ? 3 : 2) *
			    limits[li])
				fail_msg("filter %zu sort %d reverse %d limit "
				    "%zu: %zu plans, want %zu", fi, sort, rev,
				    limits[li], nt, shown);
			plan_keys(pt, shown, got, sizeof got);
			if (strcmp(want, got) != 0)
				fail_msg("filter %zu sort %d reverse %d limit "
				    "%zu:\nwant %.300s\ngot  %.300s", fi, sort,
				    rev, limits[li], want, got);
			free(pa);
			free(pt);
			offer_list_done(&top);
		}
		offer_list_done(&all);
	}
	db_close(db);
}

/* What take_some() is given: the full answer, rows it saw. */
struct take_ctx {
	struct offer_list *all;
	size_t	 seen;
};

/* Offers db_query_top_taking() skips: a third of them, by key. */
static bool
take_skips(const char *provider, const char *key)
{
	return (strlen(provider) + (size_t)key[strlen(key) - 1]) % 3 == 0;
}

/*
 * A db_walk_take_fn: each row the walk shows carries its offer's
 * availability and per-GPU prices as the plan of it has them.
 */
static bool
take_some(void *ctx, const struct db_walk_row *r)
{
	struct take_ctx *t = ctx;
	struct offer *o = find_offer(t->all, r->provider, r->key);
	struct plan p;

	if (o == NULL)
		fail_msg("walk row %s/%s: not a match", r->provider, r->key);
	cost_plan(&p, o, 1);
	assert_int_equal(r->availability, o->availability);
	assert_int_equal(r->price_gpu_hour, p.price_gpu_hour);
	assert_int_equal(r->spot_gpu_hour, p.spot_gpu_hour);
	t->seen++;
	return !take_skips(r->provider, r->key);
}

/*
 * db_query_top_taking() of f sorted by key: the first `limit` plans of
 * the full answer (all) without the offers take_some() skips, none of
 * those read; or 0 where it does not answer (a sort walked per value,
 * --sort age).
 */
static void
assert_taking(struct db *db, const struct offer_filter *f,
    enum sort_key key, bool rev, size_t limit, struct offer_list *all)
{
	static char want[65536], got[65536];
	struct take_ctx t = { all, 0 };
	struct offer_list kept, top;
	struct plan *pa, *pt;
	size_t na, nt, shown, i, matched;
	struct err err;
	int rc;

	offer_list_init(&top);
	rc = db_query_top_taking(db, f, key, rev, limit, take_some, &t, &top,
	    &matched, &err);
	if (rc == 0) {
		/* The keys a watch sorts by most are answered. */
		assert_true(key != SORT_GPU_PRICE && key != SORT_SPOT_GPU &&
		    key != SORT_PRICE && key != SORT_SPOT);
		offer_list_done(&top);
		return;
	}
	assert_int_equal(rc, 1);
	query_plans(all->v, all->n, f, key, rev, &pa, &na);
	free(pa);
	assert_int_equal(matched, na);
	assert_true(na == 0 || t.seen > 0);
	for (i = 0; i < top.n; i++)
		if (take_skips(top.v[i].provider, top.v[i].key))
			fail_msg("%s/%s read whole, skipped", top.v[i].provider,
			    top.v[i].key);
	offer_list_init(&kept);
	for (i = 0; i < all->n; i++)
		if (!take_skips(all->v[i].provider, all->v[i].key))
			offer_list_add_copy(&kept, &all->v[i]);
	query_plans(kept.v, kept.n, f, key, rev, &pa, &na);
	shown = limit < na ? limit : na;
	plan_keys(pa, shown, want, sizeof want);
	query_plans(top.v, top.n, f, key, rev, &pt, &nt);
	plan_keys(pt, shown, got, sizeof got);
	if (nt < shown || strcmp(want, got) != 0)
		fail_msg("taking: sort %s reverse %d limit %zu:\nwant %.400s\n"
		    "got  %.400s", sort_key_name(key), rev, limit, want, got);
	free(pa);
	free(pt);
	offer_list_done(&kept);
	offer_list_done(&top);
}

/*
 * Issue 29: every sort key SQL orders, both directions, as the full
 * path orders it, on what the walks of db_query_top() could get wrong:
 * values that repeat (a walk steps through them: VRAM, count, region,
 * interconnect, availability, provider), ties of the per-GPU price
 * inside a value, unknowns (no price, no spot price, VRAM 0, no region
 * or instance type, unknown link and availability), limits smaller
 * than a group of ties, filters, and fetched_at: providers stamped
 * with one time each (the newest two share it: their order is then the
 * price's, and the walk must not stop after the first of them),
 * whose offers top_age() takes from their price index, and one with
 * several times, sorted.
 */
static void
test_query_top_walks(void **state)
{
	static const struct {
		const char *name;
		int64_t at[3];		/* its offers' times, in turn */
	} provs[] = {
		{ "aws", { 700, 700, 700 } }, { "gcp", { 700, 700, 700 } },
		{ "lambda", { 100, 100, 100 } }, { "runpod", { 500, 500, 500 } },
		{ "vast", { 400, 200, 600 } },
	};
	static const char *const gpus[] = { "RTX4090", "A100-80", "H100" };
	static const int vrams[] = { 24, 80, 80, 0, 48 };
	static const char *const regions[] = { "us-east-1", "eu-west-1", "",
	    "us-east-1", "ap-south-1" };
	static const char *const types[] = { "x.large", "", "x.large",
	    "y.small", "z.huge", "y.small" };
	static const enum availability avs[] = { AV_AVAILABLE, AV_UNKNOWN,
	    AV_LIMITED, AV_AVAILABLE, AV_UNAVAILABLE };
	static const enum interconnect ics[] = { IC_PCIE, IC_NVLINK,
	    IC_UNKNOWN, IC_PCIE };
	static const int counts[] = { 1, 2, 8, 1 };
	static const size_t limits[] = { 1, 2, 5, 13, 1000 };
	const char *path = tmp_path("walks.db");
	static char want[65536], got[65536];
	struct offer v[40];
	struct offer_list all, top;
	struct offer_filter f;
	struct plan *pa, *pt;
	size_t na, nt, matched, i, p, fi, li, shown;
	unsigned seed = 5;
	struct db *db;
	struct err err;
	int sort, rev;

	(void)state;
	db = open_ok(path);
	for (p = 0; p < sizeof provs / sizeof provs[0]; p++) {
		for (i = 0; i < 40; i++) {
			int c;

			seed = seed * 1103515245 + 12345;
			c = counts[(seed >> 8) % 4];
			/* Three prices per GPU: ties inside every value. */
			v[i] = mk(provs[p].name, tstrf("k%02zu", i),
			    gpus[(seed >> 10) % 3], c, vrams[(seed >> 12) % 5],
			    ics[(seed >> 15) % 4], (seed >> 17) % 8 == 0 ?
			    MONEY_NONE : (int64_t)c * (500000 +
			    (int64_t)((seed >> 20) % 3) * 250000),
			    (seed >> 22) % 3 == 0 ? MONEY_NONE : 200000 * c,
			    avs[(seed >> 24) % 5], provs[p].at[i % 3]);
			v[i].region = regions[(seed >> 26) % 5];
			v[i].instance_type = types[(seed >> 28) % 6];
		}
		replace_ok(db, provs[p].name, v, 40, SRC_LIVE, 700, NULL);
	}
	for (fi = 0; fi < 6; fi++) {
		offer_filter_init(&f);
		if (fi == 1) {
			f.gpus[0] = gpu_find("H100");
			f.ngpus = 1;
		}
		if (fi == 2)
			f.count = 1;
		if (fi == 3)
			f.available = true;
		if (fi == 4)
			f.max_price_gpu_hour = 600000;
		if (fi == 5) {
			snprintf(f.providers[0], sizeof f.providers[0], "vast");
			snprintf(f.providers[1], sizeof f.providers[1], "gcp");
			f.nproviders = 2;
		}
		offer_list_init(&all);
		query_ok(db, &f, &all);
		for (sort = 0; sort < SORT_KEY_COUNT; sort++)
		for (rev = 0; rev < 2; rev++)
		for (li = 0; li < sizeof limits / sizeof limits[0]; li++) {
			enum sort_key key = (enum sort_key)sort;

			if (!db_sort_in_sql(key))
				continue;
			query_plans(all.v, all.n, &f, key, rev, &pa, &na);
			shown = limits[li] < na ? limits[li] : na;
			plan_keys(pa, shown, want, sizeof want);
			offer_list_init(&top);
			assert_int_equal(db_query_top(db, &f, key, rev,
			    limits[li], &top, &matched, &err), 0);
			assert_int_equal(matched, na);
			query_plans(top.v, top.n, &f, key, rev, &pt, &nt);
			plan_keys(pt, shown, got, sizeof got);
			if (nt < shown || strcmp(want, got) != 0)
				fail_msg("filter %zu sort %s reverse %d limit "
				    "%zu:\nwant %.400s\ngot  %.400s", fi,
				    sort_key_name(key), rev, limits[li], want,
				    got);
			free(pa);
			free(pt);
			offer_list_done(&top);
			assert_taking(db, &f, key, rev, limits[li], &all);
		}
		offer_list_done(&all);
	}
	db_close(db);
}

/* db_query_top() gives the full answer's plans for f, matched by C alone. */
static void
assert_top_as_c(struct db *db, const struct offer_filter *f, const char *what)
{
	static char want[65536], got[65536];
	struct offer_filter none;
	struct offer_list all, top;
	struct plan *pa, *pt;
	size_t na, nt;
	struct err err;

	offer_list_init(&all);
	offer_filter_init(&none);
	query_ok(db, &none, &all);
	query_plans(all.v, all.n, f, SORT_GPU_PRICE, false, &pa, &na);
	plan_keys(pa, na, want, sizeof want);
	offer_list_init(&top);
	assert_int_equal(db_query_top(db, f, SORT_GPU_PRICE, false, 1000,
	    &top, NULL, &err), 0);
	query_plans(top.v, top.n, f, SORT_GPU_PRICE, false, &pt, &nt);
	plan_keys(pt, nt, got, sizeof got);
	if (na == 0 || strcmp(want, got) != 0)
		fail_msg("%s: %zu plans\nwant %.300s\ngot  %.300s", what, na,
		    want, got);
	free(pa);
	free(pt);
	offer_list_done(&top);
	offer_list_done(&all);
}

/*
 * Issue 29: the filters tested on values stored at write time (region's
 * continent and country, its name and glob, "all", host per GPU, the
 * form, --vertex, --match) give through db_query_top() exactly the
 * first N plans of the full read (db_query() then query_plans(), where
 * offer_matches() decides), alone and with --count, --gpu, --spot,
 * --no-outliers, each sort and direction, on offers made to differ in
 * every value those filters read.
 */
static void
test_query_top_derived(void **state)
{
	static const char *const provs[] = { "aws", "gcp", "oci", "vast",
	    "lambda" };
	static const char *const regions[][6] = {
		{ "eu-west-1", "us-east-1", "ap-northeast-1", "eu-central-1",
		    "us-west-2", "sa-east-1" },
		{ "europe-west4", "us-central1", "us-west1",
		    "asia-southeast1", "us-east4", "europe-west1" },
		{ "all", "all", "eu-frankfurt-1", "us-ashburn-1", "ALL",
		    "uk-london-1" },
		{ "Paris, FR", "Berlin, DE", "Texas, US", "Quebec, CA",
		    "Florida, US, NA", "Germany" },
		{ "us-east-1", "all", "europe-central-1", "asia-south-1",
		    "us-west-1", "me-west-1" },
	};
	static const struct {
		const char *gpu, *raw;
	} gpus[] = {
		{ "H100", "H100 SXM5" }, { "H100", "H100 PCIe" },
		{ "H100", "NVIDIA H100 80GB" }, { "A100-80", "A100-SXM4-80GB" },
		{ "RTX4090", "RTX 4090" }, { "", "Mystery 9000" },
		{ "A100-80", "A100 80GB PCIe" },
	};
	static const char *const types[] = { "a3-highgpu-8g",
	    "a2-ultragpu-1g", "n1-standard-8", "p5.48xlarge",
	    "gpu_1x_h100_sxm5", "BM.GPU.H100.8", "g2-standard-4" };
	static const int counts[] = { 1, 2, 8 };
	static const struct {
		enum filter_field ff;
		const char *value;
	} shapes[][3] = {
		{ { FF_REGION, "europe" } }, { { FF_REGION, "eu" } },
		{ { FF_REGION, "de" } }, { { FF_REGION, "fr" } },
		{ { FF_REGION, "germany" } }, { { FF_REGION, "us" } },
		{ { FF_REGION, "north america" } }, { { FF_REGION, "asia" } },
		{ { FF_REGION, "us-*" } }, { { FF_REGION, "*WEST*" } },
		{ { FF_REGION, "[!u]*" } }, { { FF_REGION, "west" } },
		{ { FF_REGION, "eu-" } }, { { FF_REGION, "al" } },
		{ { FF_VCPUS_GPU, "4" } }, { { FF_VCPUS_GPU, "8" } },
		{ { FF_RAM_GPU, "32" } }, { { FF_RAM_GPU, "65" } },
		{ { FF_VCPUS_GPU, "8" }, { FF_RAM_GPU, "64" } },
		{ { FF_GPU, "H100 SXM" } }, { { FF_GPU, "H100 PCIe" } },
		{ { FF_GPU, "A100-80 SXM" }, { FF_COUNT, "8" } },
		{ { FF_GPU, "H100 SXM" }, { FF_COUNT, "8" } },
		{ { FF_VERTEX, "yes" } },
		{ { FF_VERTEX, "yes" }, { FF_GPU, "H100" } },
		{ { FF_VERTEX, "yes" }, { FF_GPU, "H100, A100-80" },
		    { FF_COUNT, "8" } },
		{ { FF_TEXT, "rtx 4090" } }, { { FF_TEXT, "h100 sxm" } },
		{ { FF_TEXT, "pcie" } }, { { FF_TEXT, "gcp europe" } },
		{ { FF_TEXT, "PARIS" } }, { { FF_TEXT, "sxm4 a100" } },
		{ { FF_TEXT, "zzz" } }, { { FF_TEXT, "a3- 8" } },
		{ { FF_REGION, "de" }, { FF_COUNT, "2" } },
		{ { FF_REGION, "us-*" }, { FF_GPU, "H100" } },
		{ { FF_REGION, "east" }, { FF_GPU, "H100, A100-80" } },
		{ { FF_REGION, "[!u]*" }, { FF_GPU, "H100" },
		    { FF_COUNT, "8" } },
		{ { FF_REGION, "nowhere*" }, { FF_GPU, "H100" } },
		{ { FF_REGION, "europe" }, { FF_SPOT, "yes" },
		    { FF_NO_OUTLIERS, "yes" } },
		{ { FF_SPOT, "yes" }, { FF_GPU, "A100-80" } },
		{ { FF_NO_OUTLIERS, "yes" } },
		{ { FF_TEXT, "h100" }, { FF_REGION, "us" },
		    { FF_VCPUS_GPU, "2" } },
	};
	static const enum sort_key keys[] = { SORT_GPU_PRICE, SORT_PFLOP,
	    SORT_SPOT_GPU, SORT_PRICE, SORT_REGION, SORT_COUNT };
	static const size_t limits[] = { 1, 5, 1000 };
	const char *path = tmp_path("derived.db");
	static char want[65536], got[65536];
	struct offer v[60];
	struct offer_list all, top;
	struct offer_filter f, none;
	struct plan *pa, *pt;
	size_t na, nt, matched, i, p, si, j, ki, li, shown;
	unsigned seed = 11;
	struct db *db;
	struct err err;
	int rev;

	(void)state;
	db = open_ok(path);
	for (p = 0; p < 5; p++) {
		for (i = 0; i < 60; i++) {
			char key[16];
			int g, c;

			seed = seed * 1103515245 + 12345;
			g = (int)((seed >> 8) % 7);
			c = counts[(seed >> 12) % 3];
			snprintf(key, sizeof key, "k%02zu", i);
			v[i] = mk(provs[p], key, gpus[g].gpu, c, 80,
			    (seed >> 14) % 3 == 0 ? IC_NVLINK :
			    (seed >> 14) % 3 == 1 ? IC_PCIE : IC_UNKNOWN,
			    1000000 + (int64_t)((seed >> 16) % 7) * 250000 * c,
			    (seed >> 19) % 3 == 0 ? MONEY_NONE :
			    400000 * c, AV_AVAILABLE, 100);
			v[i].gpu_raw = tstrf("%s", gpus[g].raw);
			v[i].region = tstrf("%s", regions[p][(seed >> 21) % 6]);
			v[i].instance_type = tstrf("%s", types[(seed >> 24) % 7]);
			/* Unknown, light, usual and beyond the host bounds. */
			switch ((seed >> 27) % 4) {
			case 0:
				v[i].vcpus = 0;
				v[i].ram_gb = 0;
				break;
			case 1:
				v[i].vcpus = 2 * c;
				v[i].ram_gb = 16.0 * c;
				break;
			case 2:
				break;		/* 8 and 64.5 per GPU */
			default:
				v[i].vcpus = 300 * c;
				v[i].ram_gb = 2000.0 * c;
				break;
			}
			if ((seed >> 29) % 4 == 0)
				v[i].notes = NOTE_BIT(NOTE_PRICE_OUTLIER);
		}
		replace_ok(db, provs[p], v, 60, SRC_LIVE, 100, NULL);
	}
	for (si = 0; si < sizeof shapes / sizeof shapes[0]; si++) {
		offer_filter_init(&f);
		for (j = 0; j < 3 && shapes[si][j].value != NULL; j++)
			assert_int_equal(filter_set(&f, shapes[si][j].ff,
			    shapes[si][j].value, false, &err), 0);
		if (!db_filter_in_sql(&f))
			fail_msg("shape %zu: not in SQL", si);
		/*
		 * The full answer from every offer, matched by C alone
		 * (query_plans() asks offer_matches()): db_query() with f
		 * would test the same SQL as db_query_top().
		 */
		offer_list_init(&all);
		offer_filter_init(&none);
		query_ok(db, &none, &all);
		for (ki = 0; ki < sizeof keys / sizeof keys[0]; ki++)
		for (rev = 0; rev < 2; rev++)
		for (li = 0; li < 3; li++) {
			query_plans(all.v, all.n, &f, keys[ki], rev, &pa, &na);
			shown = limits[li] < na ? limits[li] : na;
			plan_keys(pa, shown, want, sizeof want);
			offer_list_init(&top);
			assert_int_equal(db_query_top(db, &f, keys[ki], rev,
			    limits[li], &top, &matched, &err), 0);
			if (matched != na)
				fail_msg("shape %zu (%s): %zu matched in SQL, "
				    "%zu in C", si, shapes[si][0].value,
				    matched, na);
			query_plans(top.v, top.n, &f, keys[ki], rev, &pt, &nt);
			plan_keys(pt, shown, got, sizeof got);
			if (nt < shown || strcmp(want, got) != 0)
				fail_msg("shape %zu (%s) sort %d reverse %d "
				    "limit %zu:\nwant %.300s\ngot  %.300s", si,
				    shapes[si][0].value, (int)keys[ki], rev,
				    limits[li], want, got);
			free(pa);
			free(pt);
			offer_list_done(&top);
		}
		/* The region shapes find some offers, not all. */
		query_plans(all.v, all.n, &f, SORT_GPU_PRICE, false, &pa, &na);
		plan_keys(pa, na, want, sizeof want);
		free(pa);
		if (si < 14 && (na == 0 || na == 300))
			fail_msg("shape %zu (%s): %zu of 300 offers", si,
			    shapes[si][0].value, na);
		/* db_query() with f (SQL, then C): the same offers. */
		offer_list_done(&all);
		offer_list_init(&all);
		query_ok(db, &f, &all);
		query_plans(all.v, all.n, &f, SORT_GPU_PRICE, false, &pt, &nt);
		plan_keys(pt, nt, got, sizeof got);
		free(pt);
		if (strcmp(want, got) != 0)
			fail_msg("shape %zu (%s): db_query() differs:\nwant "
			    "%.300s\ngot  %.300s", si, shapes[si][0].value,
			    want, got);
		offer_list_done(&all);
	}
	/*
	 * A refresh that moves offers to other regions, hosts and names:
	 * those rows go and come back whole (replace_offers()), so the
	 * stored values and the walk's index follow.
	 */
	for (i = 0; i < 60; i++) {
		v[i] = mk("aws", "k00", "H100", 8, 80, IC_NVLINK, 8000000,
		    MONEY_NONE, AV_AVAILABLE, 100);
		v[i].key = tstrf("k%02zu", i);
		v[i].region = tstrf("%s", i % 2 ? "eu-north-1" : "us-east-2");
		v[i].gpu_raw = tstrf("%s", i % 3 ? "H100 SXM5" : "H100 PCIe");
		v[i].vcpus = i % 2 ? 96 : 8;
		v[i].ram_gb = i % 2 ? 1000.0 : 64.0;
	}
	replace_ok(db, "aws", v, 60, SRC_LIVE, 200, NULL);
	offer_filter_init(&f);
	assert_int_equal(filter_set(&f, FF_REGION, "se", false, &err), 0);
	assert_int_equal(filter_set(&f, FF_VCPUS_GPU, "12", false, &err), 0);
	assert_int_equal(filter_set(&f, FF_TEXT, "aws sxm5", false, &err), 0);
	assert_top_as_c(db, &f, "moved offers");
	offer_filter_init(&f);
	assert_int_equal(filter_set(&f, FF_GPU, "H100 PCIe", false, &err), 0);
	assert_int_equal(filter_set(&f, FF_REGION, "us-east-2", false, &err),
	    0);
	assert_top_as_c(db, &f, "moved offers, PCIe");

	/*
	 * A cache whose rows predate the stored values (migration 12
	 * fills them with defaults): the first query recomputes them.
	 */
	db_close(db);
	{
		sqlite3 *raw;

		assert_int_equal(sqlite3_open(path, &raw), SQLITE_OK);
		assert_int_equal(sqlite3_exec(raw, "UPDATE offers SET "
		    "continent = '', country = '', form = 0, vertex = 0, "
		    "search = x''; UPDATE provider_status SET sort_keys = "
		    "'1-old'", NULL, NULL, NULL), SQLITE_OK);
		sqlite3_close(raw);
	}
	db = open_ok(path);
	offer_filter_init(&f);
	assert_int_equal(filter_set(&f, FF_REGION, "europe", false, &err), 0);
	assert_int_equal(filter_set(&f, FF_TEXT, "h100", false, &err), 0);
	assert_top_as_c(db, &f, "recomputed");
	db_close(db);
	assert_int_equal(raw_int(path, "SELECT count(*) FROM provider_status "
	    "WHERE sort_keys = '1-old'"), 0);
}

/*
 * Issue 29: plans of several nodes through db_query_nodes() (the walks
 * on the fabric stored from data/fabric.tsv, migration 16) and
 * --fabric/--min-node-gbps through db_query_top() give exactly the
 * first N plans of the full answer (every offer, offer_matches()), on
 * instance types of every fabric kind, placement and group size, types
 * with none, single listings and not, cluster products, tied prices and
 * unknown ones; again after the stored fabric is made stale. Before,
 * --fabric any was no walk at all (the walk would miss the offers of
 * unknown fabric and nodes of one GPU).
 */
static void
test_query_nodes_fabric(void **state)
{
	static const struct {
		const char *provider, *type, *gpu;
		int count;
	} types[] = {
		{ "aws", "p4d.24xlarge", "A100-40", 8 },
		{ "aws", "p5.48xlarge", "H100", 8 },
		{ "aws", "g5.48xlarge", "A10G", 8 },
		{ "aws", "p5.4xlarge", "H100", 1 },
		{ "aws", "g4dn.12xlarge", "T4", 4 },
		{ "azure", "Standard_ND96asr_v4", "A100-40", 8 },
		{ "azure", "Standard_NC24ads_A100_v4", "A100-80", 1 },
		{ "gcp", "a3-highgpu-8g", "H100", 8 },
		{ "gcp", "a2-highgpu-4g", "A100-40", 4 },
		{ "gcp", "a2-highgpu-2g", "A100-40", 2 },
		{ "gcp", "g2-standard-4", "L4", 1 },
		{ "oci", "BM.GPU.H100.8", "H100", 8 },
		{ "vast", "v", "H100", 8 },
		{ "vast", "w", "RTX4090", 2 },
		{ "lambda", "gpu_2x_h100_sxm5", "H100", 2 },
		{ "runpod-clusters", "c", "H100", 8 },
	};
	static const char *const shapes[][4] = {
		{ "fabric", "any", "multi-node", "16" },
		{ "fabric", "any", "multi-node", "2" },
		{ "fabric", "any", "nodes", "2" },
		{ "fabric", "any", "nodes", "3" },
		{ "multi-node", "16" }, { "multi-node", "2" },
		{ "multi-node", "8" }, { "multi-node", "32" },
		{ "nodes", "2" }, { "nodes", "80" }, { "nodes", "4" },
		/* p4d's largest group (64), and one past it. */
		{ "nodes", "64" }, { "nodes", "65" },
		{ "fabric", "efa", "multi-node", "16" },
		{ "fabric", "infiniband,roce", "multi-node", "64" },
		{ "fabric", "ethernet", "nodes", "2" },
		{ "fabric", "tcpx", "multi-node", "16" },
		{ "node-gbps", "800", "multi-node", "16" },
		{ "node-gbps", "400", "nodes", "2" },
		{ "vram", "40", "multi-node", "16" },
		{ "fabric", "any", "vram", "24" },
		/* No plan of several nodes: db_query_top() on the stored fabric. */
		{ "fabric", "efa" }, { "fabric", "any" }, { "node-gbps", "400" },
		{ "fabric", "ethernet" }, { "fabric", "rdma", "vram", "40" },
		{ "fabric", "tcpx,roce", "node-gbps", "1600" },
	};
	static const size_t limits[] = { 1, 3, 1000 };
	const char *path = tmp_path("nodes-fabric.db");
	static char want[65536], got[65536];
	static struct offer v[16][12];
	struct offer_list all, walk;
	struct offer_filter f, none;
	struct plan *pa, *pt;
	size_t na, nt, matched, i, j, si, li, shown, n;
	struct db *db;
	struct err err;
	int pass, e;

	(void)state;
	db = open_ok(path);
	for (i = 0; i < sizeof types / sizeof types[0]; i++) {
		for (j = 0; j < 12; j++) {
			char key[32];
			int c = types[i].count;

			snprintf(key, sizeof key, "%s-%zu", types[i].type, j);
			/* Prices that tie across providers, one unknown. */
			v[i][j] = mk(types[i].provider, key, types[i].gpu, c,
			    j % 3 == 0 ? 24 : 80, j % 2 ? IC_NVLINK : IC_PCIE,
			    j == 11 ? MONEY_NONE :
			    (int64_t)c * (1000000 + (int64_t)(j % 5) * 100000),
			    MONEY_NONE, AV_AVAILABLE, 100);
			v[i][j].instance_type = tstrf("%s", types[i].type);
			v[i][j].region = tstrf("r%zu", j % 4);
			/* Vast: single listings, but one that is not. */
			if (strcmp(types[i].provider, "vast") == 0 && j != 4)
				v[i][j].notes = NOTE_BIT(NOTE_SINGLE_LISTING);
			if (strcmp(types[i].provider, "runpod-clusters") == 0)
				v[i][j].nodes = 2 + (int)(j % 3);
		}
	}
	for (i = 0; i < sizeof types / sizeof types[0]; i = j) {
		/* One replace per provider, its types together. */
		struct offer all_of[12 * 8];

		for (j = i, n = 0; j < sizeof types / sizeof types[0] &&
		    strcmp(types[j].provider, types[i].provider) == 0; j++) {
			memcpy(all_of + n, v[j], sizeof v[j]);
			n += 12;
		}
		replace_ok(db, types[i].provider, all_of, n, SRC_LIVE, 100,
		    NULL);
	}
	for (pass = 0; pass < 2; pass++) {
		if (pass == 1) {
			/* A cache written before (or another fabric table). */
			sqlite3 *raw;

			db_close(db);
			assert_int_equal(sqlite3_open(path, &raw), SQLITE_OK);
			assert_int_equal(sqlite3_exec(raw, "UPDATE offers SET "
			    "fabric = 0, node_gbps = 0, fabric_nodes = 0; "
			    "UPDATE provider_status SET sort_keys = '2-old'",
			    NULL, NULL, NULL), SQLITE_OK);
			sqlite3_close(raw);
			db = open_ok(path);
		}
		offer_list_init(&all);
		offer_filter_init(&none);
		none.multi_node = true;		/* cluster products too */
		query_ok(db, &none, &all);
		for (si = 0; si < sizeof shapes / sizeof shapes[0]; si++) {
			offer_filter_init(&f);
			for (e = 0; e < 4 && shapes[si][e] != NULL; e += 2) {
				const char *w = shapes[si][e], *val =
				    shapes[si][e + 1];
				enum filter_field ff =
				    strcmp(w, "fabric") == 0 ? FF_FABRIC :
				    strcmp(w, "nodes") == 0 ? FF_NODES :
				    strcmp(w, "node-gbps") == 0 ? FF_NODE_GBPS :
				    strcmp(w, "vram") == 0 ? FF_VRAM : FF_COUNT;

				if (strcmp(w, "multi-node") == 0)
					f.multi_node = true;
				assert_int_equal(filter_set(&f, ff, val, false,
				    &err), 0);
			}
			if (f.nodes == 0 && !f.multi_node) {
				/* A single-node shape: db_query_top(). */
				assert_true(db_filter_in_sql(&f));
				assert_top_as_c(db, &f, shapes[si][1]);
				continue;
			}
			assert_true(query_nodes_walk(&f, SORT_GPU_PRICE, false));
			for (li = 0; li < 3; li++) {
				query_plans(all.v, all.n, &f, SORT_GPU_PRICE,
				    false, &pa, &na);
				shown = limits[li] < na ? limits[li] : na;
				plan_keys(pa, shown, want, sizeof want);
				offer_list_init(&walk);
				assert_int_equal(db_query_nodes(db, &f,
				    limits[li], &walk, &matched, &err), 0);
				query_plans(walk.v, walk.n, &f, SORT_GPU_PRICE,
				    false, &pt, &nt);
				plan_keys(pt, shown, got, sizeof got);
				if (matched != na || nt < shown ||
				    strcmp(want, got) != 0)
					fail_msg("pass %d shape %zu (%s %s %s %s) "
					    "limit %zu: %zu matched, %zu in C\n"
					    "want %.400s\ngot  %.400s", pass, si,
					    shapes[si][0], shapes[si][1],
					    shapes[si][2], shapes[si][3],
					    limits[li], matched, na, want, got);
				if (li == 2 && si < 12 && na == 0)
					fail_msg("shape %zu: no plan", si);
				free(pa);
				free(pt);
				offer_list_done(&walk);
			}
		}
		offer_list_done(&all);
	}
	db_close(db);
	assert_int_equal(raw_int(path, "SELECT count(*) FROM provider_status "
	    "WHERE sort_keys = '2-old'"), 0);
}

/*
 * The plan of db_query_top() for f and key holds every step of want;
 * sorted: it may sort what its seeks read (only a region name or glob
 * with --gpu: region_gpu_seek()).
 */
static void
assert_plan_sorted(struct db *db, const struct offer_filter *f,
    enum sort_key key, const char *what, const char *const *want, bool sorted)
{
	char plan[4096];
	struct err err;
	size_t i;

	assert_int_equal(db_query_top_plan(db, f, key, false, plan,
	    sizeof plan, &err), 0);
	for (i = 0; want[i] != NULL; i++)
		if (strstr(plan, want[i]) == NULL)
			fail_msg("%s: plan lacks \"%s\":\n%s", what, want[i],
			    plan);
	/*
	 * Never a walk of the whole table, nor a sort of what a walk
	 * found: each shape reads its index in order (want names it) and
	 * stops at the limit.
	 */
	if (strstr(plan, "SCAN offers\n") != NULL ||
	    (!sorted && strstr(plan, "TEMP B-TREE") != NULL))
		fail_msg("%s: a scan or a sort:\n%s", what, plan);
	if (strstr(plan, "USING PRIMARY KEY (provider=? AND key=?)") == NULL)
		fail_msg("%s: the rows are not read by key:\n%s", what, plan);
}

static void
assert_plan(struct db *db, const struct offer_filter *f, enum sort_key key,
    const char *what, const char *const *want)
{
	assert_plan_sorted(db, f, key, what, want, false);
}

/*
 * Each query shape of a big marketplace cache uses the index made for
 * it, in order, after a refresh wrote the planner's statistics: without
 * --gpu, SQLite would otherwise walk the (gpu, ...) index and fetch
 * each row.
 */
static void
test_query_plans(void **state)
{
	static const char *const gpus[] = { "RTX4090", "RTX3090", "A100-80",
	    "H100", "A6000", "L40S", "RTX5090", "V100-16" };
	static const int counts[] = { 1, 1, 1, 2, 2, 4, 8 };
	static const char *const small[] = { "aws", "lambda", "runpod" };
	const char *path = tmp_path("plans.db");
	enum { N = 20000, NSMALL = 200 };
	struct offer *v;
	struct offer_filter f;
	struct db *db;
	unsigned seed = 3;
	size_t i, p;

	(void)state;
	db = open_ok(path);
	v = calloc(N, sizeof *v);
	assert_non_null(v);
	for (p = 0; p < 4; p++) {
		size_t n = p == 0 ? N : NSMALL;

		for (i = 0; i < n; i++) {
			const char *gpu;
			char key[16];
			int count;

			seed = seed * 1103515245 + 12345;
			gpu = gpus[(seed >> 8) % 8];
			count = counts[(seed >> 12) % 7];
			snprintf(key, sizeof key, "%zu", 11000000 + i * 7);
			v[i] = mk(p == 0 ? "vast" : small[p - 1], key, gpu,
			    count, gpu_find(gpu)->vram_gb,
			    strncmp(gpu, "RTX", 3) == 0 ? IC_PCIE :
			    (seed >> 16) % 2 ? IC_NVLINK : IC_UNKNOWN,
			    (int64_t)count * (100000 + (seed >> 18) % 2000000),
			    (seed >> 20) % 3 ? MONEY_NONE : 90000 * count,
			    AV_AVAILABLE, 100);
		}
		replace_ok(db, p == 0 ? "vast" : small[p - 1], v, n, SRC_LIVE,
		    100, NULL);
	}
	free(v);

	offer_filter_init(&f);
	f.gpus[0] = gpu_find("RTX4090");
	f.ngpus = 1;
	f.count = 2;
	assert_plan(db, &f, SORT_GPU_PRICE, "--gpu RTX4090 --count 2",
	    (const char *const[]){ "COVERING INDEX offers_gpu (gpu=? AND "
	    "gpu_count=? AND nodes=?)", NULL });

	offer_filter_init(&f);
	f.count = 4;
	f.min_vram_gb = 40;
	assert_plan(db, &f, SORT_GPU_PRICE, "--count 4 --min-vram 40",
	    (const char *const[]){ "COVERING INDEX offers_count (gpu_count=? "
	    "AND nodes=?)", NULL });

	offer_filter_init(&f);
	f.count = 8;
	f.interconnect = IC_NVLINK;
	assert_plan(db, &f, SORT_GPU_PRICE, "--interconnect nvlink --count 8",
	    (const char *const[]){ "COVERING INDEX offers_count (gpu_count=? "
	    "AND nodes=?)", NULL });

	offer_filter_init(&f);
	snprintf(f.providers[0], sizeof f.providers[0], "vast");
	f.nproviders = 1;
	assert_plan(db, &f, SORT_PFLOP, "--provider vast --sort pflop",
	    (const char *const[]){ "COVERING INDEX offers_provider_pflop "
	    "(provider=? AND nodes=?)", NULL });
	assert_plan(db, &f, SORT_GPU_PRICE, "--provider vast",
	    (const char *const[]){ "COVERING INDEX offers_provider_price "
	    "(provider=? AND nodes=?)", NULL });

	offer_filter_init(&f);
	f.max_price_gpu_hour = 400000;
	assert_plan(db, &f, SORT_GPU_PRICE, "--max-price 0.4",
	    (const char *const[]){ "COVERING INDEX offers_gpu_price "
	    "(nodes=? AND sk_gpu_price<?)", NULL });

	offer_filter_init(&f);
	assert_plan(db, &f, SORT_GPU_PRICE, "no filter",
	    (const char *const[]){ "COVERING INDEX offers_gpu_price", NULL });

	offer_filter_init(&f);
	f.spot = true;
	assert_plan(db, &f, SORT_SPOT_GPU, "--spot",
	    (const char *const[]){ "INDEX offers_spot_gpu", NULL });

	/*
	 * Issue 29: --sort price, spot and instance walk their index
	 * (migration 17), the unknowns a seek of it; the keys whose values
	 * repeat are top_walk()'s, outside this plan.
	 */
	offer_filter_init(&f);
	assert_plan(db, &f, SORT_PRICE, "--sort price",
	    (const char *const[]){ "COVERING INDEX offers_price (nodes=? AND "
	    "price>?)", "COVERING INDEX offers_price (nodes=? AND price=?)",
	    NULL });
	assert_plan(db, &f, SORT_SPOT, "--sort spot",
	    (const char *const[]){ "COVERING INDEX offers_spot (nodes=? AND "
	    "spot_price>?)", "COVERING INDEX offers_spot (nodes=? AND "
	    "spot_price=?)", NULL });
	assert_plan(db, &f, SORT_INSTANCE, "--sort instance",
	    (const char *const[]){ "COVERING INDEX offers_instance", NULL });

	/*
	 * Issue 29: the filters on stored values keep the walk (with
	 * the old code each read every offer: db_filter_in_sql() said no,
	 * and --sort pflop had no index without --provider).
	 */
	{
		static const struct {
			enum filter_field ff[2];
			const char *value[2];
			enum sort_key key;
			const char *index;
		} shapes[] = {
			{ { FF_REGION }, { "europe" }, SORT_GPU_PRICE,
			    "COVERING INDEX offers_gpu_price" },
			{ { FF_REGION, FF_COUNT }, { "de", "2" },
			    SORT_GPU_PRICE, "INDEX offers_" },
			{ { FF_REGION, FF_GPU }, { "us-*", "H100" },
			    SORT_GPU_PRICE, "COVERING INDEX offers_region_gpu "
			    "(region=? AND nodes=? AND gpu=?)" },
			{ { FF_REGION, FF_GPU }, { "east", "A100-80" },
			    SORT_GPU_PRICE, "COVERING INDEX offers_region_gpu "
			    "(region=? AND nodes=? AND gpu=?)" },
			{ { FF_VCPUS_GPU, FF_RAM_GPU }, { "8", "64" },
			    SORT_GPU_PRICE, "COVERING INDEX offers_gpu_price" },
			{ { FF_GPU, FF_COUNT }, { "H100 SXM", "8" },
			    SORT_GPU_PRICE, "offers_gpu" },
			{ { FF_VERTEX, FF_GPU }, { "yes", "H100" },
			    SORT_GPU_PRICE, "INDEX offers_vertex_gpu (nodes=? "
			    "AND gpu=?)" },
			{ { FF_VERTEX }, { "yes" }, SORT_GPU_PRICE,
			    "INDEX offers_vertex (nodes=?)" },
			{ { FF_TEXT }, { "rtx 4090" }, SORT_GPU_PRICE,
			    "offers_gpu_price" },
			{ { FF_NO_OUTLIERS }, { "yes" }, SORT_PFLOP,
			    "offers_pflop" },
			{ { FF_SPOT, FF_GPU }, { "yes", "A100-80" },
			    SORT_SPOT_GPU, "INDEX offers_" },
		};
		struct err err;
		size_t si, j;

		for (si = 0; si < sizeof shapes / sizeof shapes[0]; si++) {
			offer_filter_init(&f);
			for (j = 0; j < 2 && shapes[si].value[j] != NULL; j++)
				assert_int_equal(filter_set(&f,
				    shapes[si].ff[j], shapes[si].value[j],
				    false, &err), 0);
			assert_true(db_filter_in_sql(&f));
			assert_plan_sorted(db, &f, shapes[si].key,
			    shapes[si].value[0], (const char *const[]){
			    shapes[si].index, NULL },
			    strstr(shapes[si].index, "region_gpu") != NULL);
		}
	}

	/*
	 * Plans of several nodes by default, or of a trainer's --fabric,
	 * walk only the offers of such a fabric (offers_trainable); any
	 * other --fabric walks every offer that can be taken twice.
	 */
	{
		static const struct {
			const char *fabric;	/* NULL: not given */
			const char *index;
		} walks[] = {
			{ NULL, "COVERING INDEX offers_trainable (nodes=?)" },
			{ "infiniband", "COVERING INDEX offers_trainable" },
			{ "rdma", "COVERING INDEX offers_trainable" },
			{ "efa,tcpx", "COVERING INDEX offers_trainable" },
			{ "ethernet", "COVERING INDEX offers_assembled" },
			{ "infiniband,ethernet",
			    "COVERING INDEX offers_assembled" },
			{ "any", "COVERING INDEX offers_assembled" },
		};
		char plan[4096];
		struct err err;
		size_t wi;

		for (wi = 0; wi < sizeof walks / sizeof walks[0]; wi++) {
			offer_filter_init(&f);
			f.multi_node = true;
			assert_int_equal(filter_set(&f, FF_COUNT, "16", false,
			    &err), 0);
			if (walks[wi].fabric != NULL)
				assert_int_equal(filter_set(&f, FF_FABRIC,
				    walks[wi].fabric, false, &err), 0);
			assert_int_equal(db_query_nodes_plan(db, &f, plan,
			    sizeof plan, &err), 0);
			if (strstr(plan, walks[wi].index) == NULL ||
			    strstr(plan, "TEMP B-TREE") != NULL)
				fail_msg("--fabric %s: plan lacks \"%s\" or "
				    "sorts:\n%s", walks[wi].fabric != NULL ?
				    walks[wi].fabric : "(none)",
				    walks[wi].index, plan);
		}
	}
	/*
	 * A watch's walk (db_query_top_taking()) reads the availability
	 * and spot price it judges from the index it walks (migration 23):
	 * a seek of the table for each offer it passes cost more than the
	 * rest of the run.
	 */
	{
		static const struct {
			const char *gpu;
			int count;
			const char *index;
		} watches[] = {
			{ "H100", 0, "COVERING INDEX offers_gpu_walk (gpu=? AND "
			    "nodes=?)" },
			{ NULL, 0, "COVERING INDEX offers_gpu_price (nodes=?)" },
		};
		char plan[4096];
		struct err err;
		size_t wi;

		for (wi = 0; wi < sizeof watches / sizeof watches[0]; wi++) {
			offer_filter_init(&f);
			if (watches[wi].gpu != NULL) {
				f.gpus[0] = gpu_find(watches[wi].gpu);
				f.ngpus = 1;
			}
			assert_int_equal(db_query_top_taking_plan(db, &f,
			    SORT_GPU_PRICE, false, plan, sizeof plan, &err), 0);
			if (strstr(plan, watches[wi].index) == NULL ||
			    strstr(plan, "TEMP B-TREE") != NULL)
				fail_msg("watch --gpu %s: plan lacks \"%s\" or "
				    "sorts:\n%s", watches[wi].gpu != NULL ?
				    watches[wi].gpu : "(any)",
				    watches[wi].index, plan);
		}
	}
	/*
	 * The kept summaries' walks of each price in ascending order
	 * (migration 24): each its index's, reading no table row and
	 * sorting nothing. Before, the spot walk was not covering.
	 */
	{
		static const char *const walks[] = {
			"COVERING INDEX offers_gpu_price (nodes=?)",
			"COVERING INDEX offers_spot_gpu (nodes=?)",
		};
		char plan[4096];
		struct err err;
		int kind;

		for (kind = 0; kind < 2; kind++) {
			assert_int_equal(db_groups_walk_plan(db, kind, plan,
			    sizeof plan, &err), 0);
			if (strstr(plan, walks[kind]) == NULL ||
			    strstr(plan, "TEMP B-TREE") != NULL)
				fail_msg("kept summaries' walk %d: plan lacks "
				    "\"%s\" or sorts:\n%s", kind, walks[kind],
				    plan);
		}
	}
	db_close(db);
}

static void
test_replace_other_providers(void **state)
{
	const char *path = tmp_path("multi.db");
	struct offer a[2], g[3];
	struct db_replace_stats stats;
	struct offer_list l;
	struct offer_filter f;
	struct db *db;

	(void)state;
	a[0] = mk("aws", "shared-key", "T4", 1, 16, IC_PCIE, 526000, MONEY_NONE,
	    AV_UNKNOWN, 100);
	a[1] = mk("aws", "a2", "T4", 4, 16, IC_PCIE, 3912000, MONEY_NONE,
	    AV_UNKNOWN, 100);
	g[0] = mk("gcp", "shared-key", "L4", 1, 24, IC_PCIE, 700000, 280000,
	    AV_UNKNOWN, 100);
	g[1] = mk("gcp", "g2", "L4", 2, 24, IC_PCIE, 1400000, 560000,
	    AV_UNKNOWN, 100);
	g[2] = mk("gcp", "g3", "L4", 4, 24, IC_PCIE, 2800000, 1120000,
	    AV_UNKNOWN, 100);
	db = open_ok(path);
	replace_ok(db, "aws", a, 2, SRC_LIVE, 100, NULL);
	replace_ok(db, "gcp", g, 3, SRC_LIVE, 100, &stats);
	assert_int_equal(stats.history_rows, 3);
	/* Emptying aws leaves gcp alone, even its offer with the same key. */
	replace_ok(db, "aws", NULL, 0, SRC_LIVE, 200, &stats);
	assert_int_equal(stats.offers, 0);
	assert_int_equal(stats.history_rows, 0);
	assert_int_equal(stats.removed, 2);
	offer_filter_init(&f);
	query_ok(db, &f, &l);
	assert_int_equal(l.n, 3);
	assert_non_null(find_offer(&l, "gcp", "shared-key"));
	assert_int_equal(get_offer(&l, "gcp", "shared-key")->price, 700000);
	offer_list_done(&l);
	assert_int_equal(status_of(db, "aws").offer_count, 0);
	assert_int_equal(status_of(db, "gcp").offer_count, 3);
	/* The offers' provider field does not matter: the argument does. */
	replace_ok(db, "aws", g, 1, SRC_LIVE, 300, &stats);
	query_ok(db, &f, &l);
	assert_int_equal(l.n, 4);
	assert_int_equal(get_offer(&l, "aws", "shared-key")->price, 700000);
	assert_int_equal(get_offer(&l, "gcp", "shared-key")->price, 700000);
	offer_list_done(&l);
	db_close(db);
}

/* Settings committed with the offers; a failed replace keeps the old ones. */
static void
test_replace_meta_atomic(void **state)
{
	const char *path = tmp_path("meta-atomic.db");
	static const struct provider_meta v1[] = {
		{ "version:us-east-1", "20260101000000" },
		{ "version:eu-west-1", "20260102000000" },
	};
	static const struct provider_meta v2[] = {
		{ "version:us-east-1", "20261101000000" },
	};
	struct offer good[1], bad[1];
	char value[128];
	struct db *db;
	struct err err;
	sqlite3 *raw;
	bool found;

	(void)state;
	good[0] = mk("aws", "a", "T4", 1, 16, IC_PCIE, 526000, MONEY_NONE,
	    AV_UNKNOWN, 100);
	db = open_ok(path);
	err_clear(&err);
	assert_int_equal(db_replace_offers_meta(db, "aws", good, 1, SRC_LIVE,
	    v1, 2, 100, NULL, &err), 0);
	assert_int_equal(db_meta_get(db, "aws", "version:eu-west-1", value,
	    sizeof value, &found, &err), 0);
	assert_true(found);
	assert_string_equal(value, "20260102000000");

	raw = raw_open(path);
	raw_exec(raw, "CREATE TRIGGER boom BEFORE INSERT ON offers "
	    "WHEN NEW.key = 'bad' BEGIN SELECT RAISE(ABORT, 'boom'); END;");
	sqlite3_close(raw);
	bad[0] = mk("aws", "bad", "T4", 1, 16, IC_PCIE, 1, MONEY_NONE,
	    AV_UNKNOWN, 200);
	assert_int_equal(db_replace_offers_meta(db, "aws", bad, 1, SRC_LIVE,
	    v2, 1, 200, NULL, &err), -1);
	assert_int_equal(db_meta_get(db, "aws", "version:us-east-1", value,
	    sizeof value, &found, &err), 0);
	assert_true(found);
	assert_string_equal(value, "20260101000000");
	db_close(db);
}

/*
 * Confirming a provider's offers (its sources answered "not modified")
 * moves their check time and the status's success to now, logs the
 * observation, stores the meta given and keeps the meta not given; the
 * offers, their history and other providers stay as they were.
 */
static void
test_confirm_offers(void **state)
{
	const char *path = tmp_path("confirm.db");
	static const struct provider_meta v1[] = {
		{ "version:us-east-1", "20260101000000" },
		{ "etag:00000000000000aa", "100/0 \"a\"" },
	};
	static const struct provider_meta v2[] = {
		{ "etag:00000000000000aa", "300/0 \"a\"" },
	};
	struct offer v[2], w[1];
	struct provider_status s;
	struct offer_filter f;
	struct offer_list l;
	struct err err;
	struct db *db;
	char value[128];
	size_t n;
	bool found;
	long long history;

	(void)state;
	v[0] = mk("aws", "a", "T4", 1, 16, IC_PCIE, 526000, MONEY_NONE,
	    AV_AVAILABLE, 100);
	v[1] = mk("aws", "b", "A10G", 1, 24, IC_PCIE, 1006000, 400000,
	    AV_UNKNOWN, 100);
	w[0] = mk("gcp", "g", "L4", 1, 24, IC_PCIE, 700000, MONEY_NONE,
	    AV_UNKNOWN, 100);
	db = open_ok(path);
	err_clear(&err);
	assert_int_equal(db_replace_offers_meta(db, "aws", v, 2, SRC_LIVE,
	    v1, 2, 100, NULL, &err), 0);
	replace_ok(db, "gcp", w, 1, SRC_LIVE, 100, NULL);
	assert_int_equal(db_record_failure(db, "aws", 200, "HTTP 500", &err),
	    0);
	history = raw_int(path, "SELECT count(*) FROM price_history");

	assert_int_equal(db_confirm_offers(db, "aws", v2, 1, 300, &n, &err),
	    0);
	assert_int_equal(n, 2);
	s = status_of(db, "aws");
	assert_int_equal(s.last_attempt, 300);
	assert_int_equal(s.last_success, 300);
	assert_string_equal(s.last_error, "");
	assert_int_equal(s.source, SRC_LIVE);
	assert_int_equal(s.offer_count, 2);
	assert_int_equal(s.oldest, 300);
	assert_int_equal(s.newest, 300);
	assert_int_equal(status_of(db, "gcp").last_success, 100);

	offer_filter_init(&f);
	query_ok(db, &f, &l);
	assert_int_equal(l.n, 3);
	v[0].fetched_at = v[1].fetched_at = 300;
	assert_offer_equal(get_offer(&l, "aws", "a"), &v[0]);
	assert_offer_equal(get_offer(&l, "aws", "b"), &v[1]);
	assert_offer_equal(get_offer(&l, "gcp", "g"), &w[0]);
	offer_list_done(&l);
	assert_int_equal(raw_int(path, "SELECT count(*) FROM price_history"),
	    history);
	assert_int_equal(raw_int(path, "SELECT count(*) FROM refresh_log "
	    "WHERE provider = 'aws' AND at = 300"), 1);

	assert_int_equal(db_meta_get(db, "aws", "etag:00000000000000aa",
	    value, sizeof value, &found, &err), 0);
	assert_true(found);
	assert_string_equal(value, "300/0 \"a\"");
	assert_int_equal(db_meta_get(db, "aws", "version:us-east-1", value,
	    sizeof value, &found, &err), 0);
	assert_true(found);
	assert_string_equal(value, "20260101000000");

	/* Nothing to confirm: an error, and nothing written. */
	assert_int_equal(db_confirm_offers(db, "vast", v2, 1, 400, &n, &err),
	    -1);
	assert_non_null(strstr(err.msg, "no cached offers"));
	assert_int_equal(raw_int(path, "SELECT count(*) FROM provider_meta "
	    "WHERE provider = 'vast'"), 0);
	assert_int_equal(raw_int(path, "SELECT count(*) FROM refresh_log "
	    "WHERE at = 400"), 0);
	db_close(db);
}

/* A replace that fails half-way changes nothing at all. */
static void
test_replace_failure_rolls_back(void **state)
{
	const char *path = tmp_path("rollback.db");
	struct offer first[2], second[3];
	struct db_replace_stats stats;
	struct provider_status s;
	struct offer_list l;
	struct offer_filter f;
	struct db *db;
	struct err err;
	sqlite3 *raw;

	(void)state;
	first[0] = mk("aws", "a", "T4", 1, 16, IC_PCIE, 526000, MONEY_NONE,
	    AV_UNKNOWN, 100);
	first[1] = mk("aws", "b", "T4", 4, 16, IC_PCIE, 3912000, MONEY_NONE,
	    AV_UNKNOWN, 100);
	db = open_ok(path);
	replace_ok(db, "aws", first, 2, SRC_LIVE, 100, NULL);
	/* Make the final insert fail for one key. */
	raw = raw_open(path);
	raw_exec(raw, "CREATE TRIGGER boom BEFORE INSERT ON offers "
	    "WHEN NEW.key = 'bad' BEGIN SELECT RAISE(ABORT, 'boom'); END;");
	sqlite3_close(raw);

	second[0] = first[0];
	second[0].price = 999000;			/* a history row */
	second[1] = mk("aws", "bad", "T4", 1, 16, IC_PCIE, 1, MONEY_NONE,
	    AV_UNKNOWN, 200);
	second[2] = mk("aws", "c", "T4", 1, 16, IC_PCIE, 1, MONEY_NONE,
	    AV_UNKNOWN, 200);
	memset(&stats, 0xff, sizeof stats);
	err_clear(&err);
	assert_int_equal(db_replace_offers(db, "aws", second, 3, SRC_LIVE,
	    200, &stats, &err), -1);
	assert_int_equal(strncmp(err.msg, "aws: ", 5), 0);
	assert_non_null(strstr(err.msg, "boom"));

	/* Offers, history and status as before. */
	offer_filter_init(&f);
	query_ok(db, &f, &l);
	assert_int_equal(l.n, 2);
	assert_int_equal(get_offer(&l, "aws", "a")->price, 526000);
	assert_non_null(find_offer(&l, "aws", "b"));
	offer_list_done(&l);
	s = status_of(db, "aws");
	assert_int_equal(s.last_success, 100);
	assert_int_equal(s.last_attempt, 100);
	assert_int_equal(s.offer_count, 2);
	assert_int_equal(raw_int(path, "SELECT count(*) FROM price_history"),
	    2);

	/* And the next replace works normally. */
	second[1] = second[2];
	replace_ok(db, "aws", second, 2, SRC_LIVE, 300, &stats);
	assert_int_equal(stats.offers, 2);
	assert_int_equal(stats.history_rows, 2);	/* a's price, new c */
	assert_int_equal(stats.removed, 1);		/* b */
	db_close(db);
}

/* The size of path's -wal now: what the writes since it was empty put. */
static long long
wal_bytes(const char *path)
{
	char wal[1100];
	struct stat sb;

	snprintf(wal, sizeof wal, "%s-wal", path);
	return stat(wal, &sb) == 0 ? (long long)sb.st_size : 0;
}

/* Vast's n offers of a marketplace, varied in what the indexes hold. */
#define MANY_NEW	6000
static void
many_offers(struct offer *v, size_t n, int64_t at)
{
	static const char *const gpus[] = { "H100", "A100-80", "RTX4090",
	    "L40S", "A10" };
	static const int counts[] = { 1, 2, 4, 8 };
	char key[16];
	size_t i;

	for (i = 0; i < n; i++) {
		snprintf(key, sizeof key, "m%05zu", (i * 7919) % n);
		v[i] = mk("vast", key, gpus[i % 5], counts[(i / 5) % 4],
		    24 + (int)(i % 4) * 16, i % 3 == 0 ? IC_NVLINK : IC_PCIE,
		    100000 + (int64_t)((i * 7907) % 900) * 1000,
		    i % 2 == 0 ? 50000 + (int64_t)(i % 400) * 1000 : MONEY_NONE,
		    i % 7 == 0 ? AV_UNAVAILABLE : AV_AVAILABLE, at);
		v[i].region = tstrf("region-%zu", i % 20);
	}
}

/* Stage v[0..n) in batches of 2,000 and swap them in at now. */
static void
stage_all(struct db *db, const struct offer *v, size_t n, int64_t now,
    struct db_replace_stats *stats)
{
	struct err err;
	size_t i, m;

	err_clear(&err);
	for (i = 0; i + 2000 < n; i += 2000)
		if (db_stage_offers(db, "vast", v + i, 2000, &err) != 0)
			fail_msg("db_stage_offers: %s", err.msg);
	m = n - i;
	if (db_replace_staged(db, "vast", v + i, m, NULL, 0, now, stats,
	    &err) != 0)
		fail_msg("db_replace_staged: %s", err.msg);
}

/* Rows of query in main that b lacks, plus rows of b that main lacks. */
static long long
attached_diff(const char *a, const char *b, const char *cols,
    const char *table)
{
	char sql[1024], pb[1100];
	sqlite3 *s = raw_open(a);
	sqlite3_stmt *st;
	long long n;

	snprintf(pb, sizeof pb, "ATTACH '%s' AS b", b);
	raw_exec(s, pb);
	snprintf(sql, sizeof sql, "SELECT (SELECT count(*) FROM (SELECT %s "
	    "FROM main.%s EXCEPT SELECT %s FROM b.%s)) + (SELECT count(*) FROM "
	    "(SELECT %s FROM b.%s EXCEPT SELECT %s FROM main.%s))", cols,
	    table, cols, table, cols, table, cols, table);
	if (sqlite3_prepare_v2(s, sql, -1, &st, NULL) != SQLITE_OK)
		fail_msg("%s: %s", sql, sqlite3_errmsg(s));
	assert_int_equal(sqlite3_step(st), SQLITE_ROW);
	n = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	sqlite3_close(s);
	return n;
}

/*
 * A spot price with no command that rents at it is never stored, and an
 * older cache's is dropped when its sort keys are brought up to date
 * (issue 48: Vultr's unconfirmed preemptible price showed a spot price
 * that `launch --spot` had no command for). AWS keeps its spot price.
 */
static void
test_spot_needs_command(void **state)
{
	char path[1100];
	struct offer v[2];
	struct offer_filter f;
	struct offer_list got;
	struct db *db;
	struct err err;
	sqlite3 *raw;
	bool ready;

	(void)state;
	snprintf(path, sizeof path, "%s/spot.db", tmpdir);
	db = open_ok(path);
	v[0] = mk("vultr", "vbm/sea", "H100", 8, 80, IC_NVLINK, 23920000,
	    18400000, AV_UNKNOWN, 100);
	v[1] = mk("aws", "p5/us-east-1", "H100", 8, 80, IC_NVLINK, 98320000,
	    40000000, AV_UNKNOWN, 100);
	replace_ok(db, "vultr", &v[0], 1, SRC_LIVE, 100, NULL);
	replace_ok(db, "aws", &v[1], 1, SRC_LIVE, 100, NULL);
	assert_int_equal(raw_int(path, "SELECT count(*) FROM offers WHERE "
	    "provider = 'vultr' AND spot_price IS NULL"), 1);
	assert_int_equal(raw_int(path, "SELECT spot_price FROM offers WHERE "
	    "provider = 'aws'"), 40000000);

	/* An older gpucost wrote Vultr's spot price. */
	raw = raw_open(path);
	raw_exec(raw, "UPDATE offers SET spot_price = 18400000, "
	    "sk_spot_gpu = 2300000 WHERE provider = 'vultr'; "
	    "UPDATE provider_status SET sort_keys = NULL");
	sqlite3_close(raw);
	/* Read as it is: no spot price either. */
	offer_filter_init(&f);
	f.nproviders = 1;
	str_copy(f.providers[0], sizeof f.providers[0], "vultr");
	query_ok(db, &f, &got);
	assert_int_equal(got.n, 1);
	assert_false(money_known(got.v[0].spot_price));
	offer_list_done(&got);
	/* Brought up to date: gone from the row, so SQL agrees. */
	err_clear(&err);
	assert_int_equal(db_sort_keys_ready(db, &ready, &err), 0);
	assert_true(ready);
	assert_int_equal(raw_int(path, "SELECT count(*) FROM offers WHERE "
	    "spot_price IS NOT NULL"), 1);
	offer_filter_init(&f);
	f.spot = true;
	query_ok(db, &f, &got);
	assert_int_equal(got.n, 1);
	assert_string_equal(got.v[0].provider, "aws");
	offer_list_done(&got);
	db_close(db);
}

/*
 * A write of many new offers (a marketplace's first refresh into the
 * snapshot's cache) inserts them without the offers' indexes and makes
 * the indexes again: the cache it leaves is the one writing the same
 * offers a few thousand at a time leaves (the same indexes, rows and
 * answers; integrity_check ok). A refresh that changes only fetched_at
 * moves no entry of the indexes that do not hold it: it wrote every
 * index again, 95 % of what the first write wrote.
 */
static void
test_replace_many_new(void **state)
{
	const char *path = tmp_path("many.db"), *slow = tmp_path("few.db");
	static struct offer v[MANY_NEW], again[MANY_NEW];
	struct offer other[50];
	struct db_replace_stats stats;
	struct offer_filter f;
	struct offer_list a, b;
	struct db *db;
	long long first, touched;
	char key[8];
	size_t i;

	(void)state;
	many_offers(v, MANY_NEW, 100);
	for (i = 0; i < 50; i++) {
		snprintf(key, sizeof key, "x%zu", i);
		other[i] = mk("aws", key, i % 2 ? "T4" : "A10", 1, 24, IC_PCIE,
		    526000 + (int64_t)i, MONEY_NONE, AV_UNKNOWN, 100);
	}
	/* The few already there, then the many: made again. */
	db = open_ok(path);
	replace_ok(db, "aws", other, 50, SRC_LIVE, 100, NULL);
	db_close(db);
	db = open_ok(path);
	stage_all(db, v, MANY_NEW, 100, &stats);
	first = wal_bytes(path);
	assert_true(stats.indexes_rebuilt);
	assert_int_equal(stats.offers, MANY_NEW);
	assert_int_equal(stats.history_rows, MANY_NEW);
	db_close(db);
	assert_true(first > 0);
	/* The same offers in two writes of 3,000 new ones: one by one. */
	db = open_ok(slow);
	replace_ok(db, "aws", other, 50, SRC_LIVE, 100, NULL);
	stage_all(db, v, MANY_NEW / 2, 100, &stats);
	assert_false(stats.indexes_rebuilt);
	stage_all(db, v, MANY_NEW, 100, &stats);
	assert_false(stats.indexes_rebuilt);
	db_close(db);
	assert_int_equal(attached_diff(path, slow, "type, name, tbl_name, sql",
	    "sqlite_master"), 0);
	assert_int_equal(attached_diff(path, slow, "*", "offers"), 0);
	assert_int_equal(raw_int(path, "SELECT count(*) FROM offers"),
	    MANY_NEW + 50);
	assert_int_equal(raw_int(path, "SELECT count(*) FROM "
	    "pragma_integrity_check WHERE integrity_check <> 'ok'"), 0);
	assert_int_equal(raw_int(slow, "SELECT count(*) FROM "
	    "pragma_integrity_check WHERE integrity_check <> 'ok'"), 0);
	/* The same answers, walked on the indexes made again. */
	offer_filter_init(&f);
	f.gpus[0] = gpu_find("H100");
	f.ngpus = 1;
	f.count = 4;
	db = open_ok(path);
	query_ok(db, &f, &a);
	db_close(db);
	db = open_ok(slow);
	query_ok(db, &f, &b);
	db_close(db);
	assert_true(a.n > 0);
	assert_int_equal(a.n, b.n);
	for (i = 0; i < a.n; i++)
		assert_offer_equal(&a.v[i], &b.v[i]);
	offer_list_done(&a);
	offer_list_done(&b);

	/* Again, only fetched_at moved: not an index rebuilt or rewritten. */
	many_offers(again, MANY_NEW, 200);
	db = open_ok(path);
	stage_all(db, again, MANY_NEW, 200, &stats);
	touched = wal_bytes(path);
	assert_false(stats.indexes_rebuilt);
	assert_int_equal(stats.history_rows, 0);
	db_close(db);
	assert_true(touched > 0);
	assert_true(touched * 2 < first);
	assert_int_equal(raw_int(path, "SELECT count(*) FROM offers WHERE "
	    "provider = 'vast' AND fetched_at = 200"), MANY_NEW);
	assert_int_equal(raw_int(path, "SELECT count(*) FROM "
	    "pragma_integrity_check WHERE integrity_check <> 'ok'"), 0);
}

/*
 * Staged offers (a .batches provider): batches staged, then swapped in
 * with the last ones in one transaction; another provider written in
 * between keeps neither's staged rows; a key staged twice fails; a
 * failed swap or a drop leaves the cached offers and stages nothing
 * for the next write.
 */
static void
test_stage_offers(void **state)
{
	const char *path = tmp_path("stage.db");
	struct offer a[3], b[2], other[1], dup[1];
	struct db_replace_stats stats;
	struct offer_list l;
	struct offer_filter f;
	struct db *db;
	struct err err;
	char key[8];
	size_t i;

	(void)state;
	for (i = 0; i < 3; i++) {
		snprintf(key, sizeof key, "a%zu", i);
		a[i] = mk("vast", key, "RTX4090", 1, 24, IC_PCIE, 300000,
		    MONEY_NONE, AV_AVAILABLE, 100);
	}
	for (i = 0; i < 2; i++) {
		snprintf(key, sizeof key, "b%zu", i);
		b[i] = mk("vast", key, "RTX4090", 2, 24, IC_PCIE, 700000,
		    MONEY_NONE, AV_AVAILABLE, 100);
	}
	other[0] = mk("aws", "x", "T4", 1, 16, IC_PCIE, 526000, MONEY_NONE,
	    AV_UNKNOWN, 100);
	db = open_ok(path);
	replace_ok(db, "vast", b, 1, SRC_LIVE, 50, NULL);
	err_clear(&err);
	assert_int_equal(db_stage_offers(db, "vast", a, 3, &err), 0);
	/* Nothing staged is visible, and another provider's write keeps it. */
	offer_filter_init(&f);
	query_ok(db, &f, &l);
	assert_int_equal(l.n, 1);
	offer_list_done(&l);
	replace_ok(db, "aws", other, 1, SRC_LIVE, 100, NULL);
	assert_int_equal(db_replace_staged(db, "vast", b, 2, NULL, 0, 100,
	    &stats, &err), 0);
	assert_int_equal(stats.offers, 5);
	assert_int_equal(stats.history_rows, 4);	/* a0..a2, b1 */
	query_ok(db, &f, &l);
	assert_int_equal(l.n, 6);
	assert_non_null(find_offer(&l, "vast", "a2"));
	assert_non_null(find_offer(&l, "aws", "x"));
	offer_list_done(&l);
	assert_int_equal(status_of(db, "vast").offer_count, 5);

	/* A key staged twice is named; nothing changes. */
	assert_int_equal(db_stage_offers(db, "vast", a, 2, &err), 0);
	dup[0] = a[1];
	assert_int_equal(db_stage_offers(db, "vast", dup, 1, &err), -1);
	assert_non_null(strstr(err.msg, "offer a1 is listed twice"));
	/* A swap that fails (the same key again) drops everything staged. */
	err_clear(&err);
	assert_int_equal(db_replace_staged(db, "vast", dup, 1, NULL, 0, 200,
	    NULL, &err), -1);
	assert_non_null(strstr(err.msg, "listed twice"));
	query_ok(db, &f, &l);
	assert_int_equal(l.n, 6);
	offer_list_done(&l);
	assert_int_equal(db_replace_staged(db, "vast", b, 1, NULL, 0, 300,
	    &stats, &err), 0);
	assert_int_equal(stats.offers, 1);		/* only b0: none left over */
	/* A drop forgets what was staged. */
	assert_int_equal(db_stage_offers(db, "vast", a, 3, &err), 0);
	db_stage_drop(db, "vast");
	assert_int_equal(db_replace_staged(db, "vast", b, 2, NULL, 0, 400,
	    &stats, &err), 0);
	assert_int_equal(stats.offers, 2);
	db_close(db);
}

/*
 * The watch state file of a user of a read-only cache: created 0600
 * with the watch tables only, reopened as is, and a database of
 * another kind (or any other file) refused, never written.
 */
static void
test_watch_state(void **state)
{
	const char *path = tmp_path("watch.db"), *other = tmp_path("o.db");
	const char *text = tmp_path("t.txt");
	struct db_watch_known out;
	struct db_watch_offer w;
	struct stat sb;
	struct db *db;
	struct err err;
	int64_t last;
	sqlite3 *raw;
	FILE *fp;

	(void)state;
	err_clear(&err);
	assert_int_equal(db_open_watch_state(path, &db, &err), 0);
	assert_int_equal(stat(path, &sb), 0);
	assert_int_equal(sb.st_mode & 0777, 0600);
	memset(&w, 0, sizeof w);
	w.provider = "vast";
	w.key = "42";
	w.price = 310000;
	w.availability = AV_AVAILABLE;
	w.reported_at = 1000;
	assert_int_equal(db_watch_store(db, "--gpu H100", &w, 1, 1000, &err), 0);
	db_close(db);
	assert_int_equal(db_open_watch_state(path, &db, &err), 0);
	assert_int_equal(db_watch_load(db, "--gpu H100", &out, &last, &err),
	    0);
	assert_int_equal(out.n, 1);
	assert_int_equal(last, 1000);
	assert_int_equal(out.v[0].price, 310000);
	db_watch_known_free(&out);
	assert_int_equal(db_watch_load(db, "--gpu A100", &out, &last, &err),
	    0);
	assert_int_equal(last, 0);
	assert_int_equal(out.n, 0);
	db_watch_known_free(&out);
	db_close(db);
	assert_int_equal(raw_int(path, "SELECT count(*) FROM sqlite_master "
	    "WHERE type = 'table'"), 1);

	raw = raw_open(other);
	raw_exec(raw, "CREATE TABLE mine (x)");
	sqlite3_close(raw);
	assert_int_equal(db_open_watch_state(other, &db, &err), -1);
	assert_non_null(strstr(err.msg, "not a gpucost watch state file"));
	assert_int_equal(raw_int(other, "SELECT count(*) FROM sqlite_master"),
	    1);
	fp = fopen(text, "w");
	assert_non_null(fp);
	fputs("notes\n", fp);
	fclose(fp);
	assert_int_equal(db_open_watch_state(text, &db, &err), -1);
	/* A cache is not a state file either. */
	db = open_ok(tmp_path("cache.db"));
	db_close(db);
	assert_int_equal(db_open_watch_state(tmp_path("cache.db"), &db, &err),
	    -1);
}

/*
 * `watch --list` shows the offers a watch tracks from the count its
 * last run stored (issue 29: no count of every tracked offer per list):
 * the distinct offers of the last store, replaced by the next; a watch
 * stored before the column existed (NULL) is counted when listed; a
 * version-1 watch state file is upgraded in place, its watches kept.
 */
/* Vast offers keys[0..n) known available at 1000, priced 1.000000 up. */
static void
watch_rows(struct db_watch_offer *w, const char *const *keys, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		w[i].provider = "vast";
		w[i].key = keys[i];
		w[i].price = 1000000 + (int64_t)i;
		w[i].availability = AV_AVAILABLE;
		w[i].reported_at = 1000;
	}
}

/*
 * db_watch_offers_unique(), which the store and a watch's run share:
 * by provider then key, of a repeated offer the last given standing;
 * in order without repeats, the array as it was.
 */
static void
test_watch_offers_unique(void **state)
{
	static const char *const keys[] = { "c", "a", "c", "b", "a" };
	static const char *const sorted[] = { "a", "b", "c" };
	struct db_watch_offer w[5], same[3], before[3];

	(void)state;
	/* A record points at its names (issue 29): 40 bytes, not 168. */
	assert_true(sizeof(struct db_watch_offer) <= 40);
	memset(w, 0, sizeof w);
	watch_rows(w, keys, 5);
	w[3].provider = "aws";
	assert_int_equal(db_watch_offers_unique(w, 5), 3);
	/* aws before vast; of "a" the fifth (price ...4), of "c" the third. */
	assert_string_equal(w[0].provider, "aws");
	assert_string_equal(w[0].key, "b");
	assert_string_equal(w[1].key, "a");
	assert_int_equal(w[1].price, 1000004);
	assert_string_equal(w[2].key, "c");
	assert_int_equal(w[2].price, 1000002);
	memset(same, 0, sizeof same);
	watch_rows(same, sorted, 3);
	memcpy(before, same, sizeof same);
	assert_int_equal(db_watch_offers_unique(same, 3), 3);
	assert_memory_equal(same, before, sizeof same);
	assert_int_equal(db_watch_offers_unique(same, 0), 0);
}

/* The known text of watch query in the file at path. */
static void
known_text(const char *path, const char *query, char *out, size_t size)
{
	char sql[256];

	snprintf(sql, sizeof sql, "SELECT known FROM watch WHERE query = '%s'",
	    query);
	raw_text(path, sql, out, size);
}

/*
 * db_watch_store() leaves the watch knowing exactly what it was given,
 * in key order, a repeated offer's last standing, as one text
 * (watch.known, db_history.c's format); the other watch is kept.
 */
static void
test_watch_store_changes(void **state)
{
	const char *path = tmp_path("ws.db");
	static const char *const keys[] = { "e", "b", "c", "d", "a" };
	struct db_watch_offer w[6];
	struct db_watch_known got;
	char text[512];
	int64_t last;
	struct db *db;
	struct err err;

	(void)state;
	memset(w, 0, sizeof w);
	watch_rows(w, keys, 5);
	w[4].price = MONEY_NONE;
	db = open_ok(path);
	assert_int_equal(db_watch_store(db, "--gpu H100", w, 5, 1000, &err),
	    0);
	assert_int_equal(db_watch_store(db, "--gpu A100", w, 2, 1000, &err),
	    0);
	db_close(db);
	known_text(path, "--gpu H100", text, sizeof text);
	assert_string_equal(text,
	    "vast\ta\t\tavailable\t1000\n"
	    "vast\tb\t1000001\tavailable\t1000\n"
	    "vast\tc\t1000002\tavailable\t1000\n"
	    "vast\td\t1000003\tavailable\t1000\n"
	    "vast\te\t1000000\tavailable\t1000\n");
	/*
	 * The next run: b cheaper (given twice: the second stands), c
	 * now unavailable, a, d and e gone, f new.
	 */
	w[1].price = 900000;
	w[2].availability = AV_UNAVAILABLE;
	w[3] = w[1];
	w[3].price = 800000;
	w[4].key = "f";
	w[4].reported_at = 2000;
	db = open_ok(path);
	assert_int_equal(db_watch_store(db, "--gpu H100", w + 1, 4, 2000,
	    &err), 0);
	assert_int_equal(db_watch_load(db, "--gpu H100", &got, &last, &err),
	    0);
	assert_int_equal(got.n, 3);
	assert_int_equal(last, 2000);
	assert_string_equal(got.v[0].key, "b");
	assert_int_equal(got.v[0].price, 800000);
	assert_string_equal(got.v[1].key, "c");
	assert_int_equal(got.v[1].availability, AV_UNAVAILABLE);
	assert_string_equal(got.v[2].key, "f");
	assert_false(money_known(got.v[2].price));
	assert_int_equal(got.v[2].reported_at, 2000);
	db_watch_known_free(&got);
	db_close(db);
	assert_int_equal(raw_int(path, "SELECT offers FROM watch WHERE "
	    "query = '--gpu H100'"), 3);
	known_text(path, "--gpu A100", text, sizeof text);
	assert_string_equal(text,
	    "vast\tb\t1000001\tavailable\t1000\n"
	    "vast\te\t1000000\tavailable\t1000\n");
}

/*
 * Names with the text's separators in them (a tab, a newline, a
 * backslash) come back as they were; a name longer than the record
 * keeps is cut as str_copy() cuts it; a damaged text is an error that
 * names the watch and the line, never a crash or a partial answer.
 */
static void
test_watch_known_text(void **state)
{
	const char *path = tmp_path("wt.db");
	static const char *const names[] = { "a\tb", "c\nd", "e\\f", "\\t" };
	static const char *const damaged[] = {
		"vast\tk\t1\tavailable\n",		/* four fields */
		"vast\tk\t1\tavailable\t10\tx\n",	/* six */
		"vast\tk\tx\tavailable\t10\n",		/* a price */
		"vast\tk\t1\tsoon\t10\n",		/* an availability */
		"vast\tk\\\t1\tavailable\t10\n",	/* a lone backslash */
		"vast\tk\\q\t1\tavailable\t10\n",	/* an unknown escape */
		"vast\t\t1\tavailable\t10\n",		/* no key */
		"vast\tk\t1\tavailable\t99999999999999999999\n",
		"vast\tk\t1\tavailable\t10",		/* no newline */
	};
	struct db_watch_offer w[5];
	struct db_watch_known got;
	char longkey[300], sql[512];
	int64_t last;
	struct db *db;
	struct err err;
	size_t i;
	sqlite3 *raw;

	(void)state;
	memset(w, 0, sizeof w);
	watch_rows(w, names, 4);
	w[1].price = -5;
	w[2].reported_at = INT64_MAX;
	memset(longkey, 'k', sizeof longkey - 1);
	longkey[sizeof longkey - 1] = '\0';
	watch_rows(&w[4], (const char *const[]){ "z" }, 1);
	db = open_ok(path);
	assert_int_equal(db_watch_store(db, "--gpu H100", w, 5, 1000, &err),
	    0);
	assert_int_equal(db_watch_load(db, "--gpu H100", &got, &last, &err),
	    0);
	assert_int_equal(got.n, 5);
	/* Key order: "\\t" < "a\tb" < "c\nd" < "e\\f" < "z". */
	assert_string_equal(got.v[0].key, "\\t");
	assert_string_equal(got.v[1].key, "a\tb");
	assert_string_equal(got.v[2].key, "c\nd");
	assert_int_equal(got.v[2].price, -5);
	assert_string_equal(got.v[3].key, "e\\f");
	assert_int_equal(got.v[3].reported_at, INT64_MAX);
	db_watch_known_free(&got);
	db_close(db);
	/* Longer than the record keeps: cut on load. */
	raw = raw_open(path);
	snprintf(sql, sizeof sql, "UPDATE watch SET known = 'vast' || char(9) "
	    "|| '%.100s' || '%.100s' || char(9) || '1' || char(9) || "
	    "'available' || char(9) || '10' || char(10)", longkey, longkey);
	raw_exec(raw, sql);
	sqlite3_close(raw);
	db = open_ok(path);
	assert_int_equal(db_watch_load(db, "--gpu H100", &got, &last, &err),
	    0);
	assert_int_equal(got.n, 1);
	assert_int_equal(strlen(got.v[0].key), OFFER_KEY_MAX - 1);
	db_watch_known_free(&got);
	db_close(db);
	for (i = 0; i < sizeof damaged / sizeof damaged[0]; i++) {
		sqlite3_stmt *st;

		raw = raw_open(path);
		assert_int_equal(sqlite3_prepare_v2(raw, "UPDATE watch SET "
		    "known = 'vast' || char(9) || 'ok' || char(9) || '1' || "
		    "char(9) || 'available' || char(9) || '10' || char(10) "
		    "|| ?", -1, &st, NULL), SQLITE_OK);
		sqlite3_bind_text(st, 1, damaged[i], -1, SQLITE_STATIC);
		assert_int_equal(sqlite3_step(st), SQLITE_DONE);
		sqlite3_finalize(st);
		sqlite3_close(raw);
		db = open_ok(path);
		err_clear(&err);
		memset(&got, 0xff, sizeof got);
		assert_int_equal(db_watch_load(db, "--gpu H100", &got, &last,
		    &err), -1);
		assert_null(got.v);
		assert_null(got.names);
		assert_int_equal(got.n, 0);
		assert_non_null(strstr(err.msg, "watch \"--gpu H100\""));
		assert_non_null(strstr(err.msg, "line 2"));
		assert_non_null(strstr(err.msg, "--forget"));
		db_close(db);
	}
}

/*
 * Migration 24 -> 25: each watch's rows in watch_offer become its
 * known text (names escaped, an unknown price empty) and its count;
 * a watch without rows knows nothing; watch_offer is gone.
 */
static void
test_migrate_watch_known(void **state)
{
	const char *path = tmp_path("w24.db");
	struct db_watch_known got;
	struct db_watch *list;
	int64_t last;
	struct db *db;
	struct err err;
	size_t n;
	sqlite3 *raw;

	(void)state;
	db = open_ok(path);
	db_close(db);
	/* Back to schema 24 as it was. */
	raw = raw_open(path);
	raw_exec(raw, "ALTER TABLE group_state DROP COLUMN made_at;"
	    "ALTER TABLE group_state DROP COLUMN valid_until;"
	    "ALTER TABLE offers DROP COLUMN price_from;"
	    "ALTER TABLE watch DROP COLUMN known;"
	    "CREATE TABLE watch_offer (query TEXT NOT NULL, provider TEXT "
	    "NOT NULL, key TEXT NOT NULL, price INTEGER, availability TEXT "
	    "NOT NULL, reported_at INTEGER NOT NULL, PRIMARY KEY (query, "
	    "provider, key)) WITHOUT ROWID;"
	    "INSERT INTO watch VALUES ('--gpu L4', 10, 20, NULL);"
	    "INSERT INTO watch VALUES ('--gpu H100', 10, 30, 2);"
	    "INSERT INTO watch VALUES ('--gpu T4', 10, 40, 0);"
	    "INSERT INTO watch_offer VALUES ('--gpu L4', 'gcp', 'g2', 1, "
	    "'available', 20);"
	    "INSERT INTO watch_offer VALUES ('--gpu H100', 'vast', 'b', NULL, "
	    "'unavailable', 30);"
	    "INSERT INTO watch_offer VALUES ('--gpu H100', 'aws', "
	    "'p5' || char(9) || 'x\\y' || char(10), 2, 'unknown', 25);"
	    "PRAGMA user_version = 24;");
	sqlite3_close(raw);
	db = open_ok(path);
	assert_int_equal(raw_int(path, "PRAGMA user_version"),
	    DB_SCHEMA_VERSION);
	assert_int_equal(raw_int(path, "SELECT count(*) FROM sqlite_master "
	    "WHERE name = 'watch_offer'"), 0);
	assert_int_equal(db_watch_load(db, "--gpu H100", &got, &last, &err),
	    0);
	assert_int_equal(got.n, 2);
	assert_int_equal(last, 30);
	assert_string_equal(got.v[0].provider, "aws");
	assert_string_equal(got.v[0].key, "p5\tx\\y\n");
	assert_int_equal(got.v[0].price, 2);
	assert_int_equal(got.v[0].availability, AV_UNKNOWN);
	assert_int_equal(got.v[0].reported_at, 25);
	assert_string_equal(got.v[1].key, "b");
	assert_false(money_known(got.v[1].price));
	assert_int_equal(got.v[1].availability, AV_UNAVAILABLE);
	db_watch_known_free(&got);
	assert_int_equal(db_watch_load(db, "--gpu T4", &got, &last, &err),
	    0);
	assert_int_equal(got.n, 0);
	assert_int_equal(last, 40);
	db_watch_known_free(&got);
	assert_int_equal(db_watch_list(db, &list, &n, &err), 0);
	assert_int_equal(n, 3);
	assert_string_equal(list[0].query, "--gpu H100");
	assert_int_equal(list[0].offers, 2);
	assert_string_equal(list[1].query, "--gpu L4");
	assert_int_equal(list[1].offers, 1);
	assert_int_equal(list[2].offers, 0);
	free(list);
	db_close(db);
}

/*
 * A run that another changed between its load and its store (another
 * user's `watch --forget`, a second cron job) still leaves exactly what
 * it gives: the store writes the whole text.
 */
static void
test_watch_store_loaded(void **state)
{
	static const char *const keys[] = { "c", "a", "b" };
	const char *path = tmp_path("wsl.db");
	struct db_watch_offer w[3];
	struct db_watch_known got;
	char text[512];
	int64_t last;
	struct db *db;
	struct err err;
	size_t i;
	sqlite3 *raw;

	(void)state;
	memset(w, 0, sizeof w);
	watch_rows(w, keys, 3);
	db = open_ok(path);
	assert_int_equal(db_watch_store(db, "--gpu H100", w, 3, 1000, &err),
	    0);
	/* Loaded in key order, whatever order they were given in. */
	assert_int_equal(db_watch_load(db, "--gpu H100", &got, &last, &err),
	    0);
	assert_int_equal(got.n, 3);
	for (i = 0; i < got.n; i++)
		assert_string_equal(got.v[i].key, i == 0 ? "a" : i == 1 ? "b" :
		    "c");
	raw = raw_open(path);
	raw_exec(raw, "UPDATE watch SET known = 'vast' || char(9) || 'z' || "
	    "char(9) || '1' || char(9) || 'available' || char(9) || '1500' || "
	    "char(10);");
	sqlite3_close(raw);
	assert_int_equal(db_watch_store(db, "--gpu H100", got.v, got.n, 3000,
	    &err),
	    0);
	db_watch_known_free(&got);
	known_text(path, "--gpu H100", text, sizeof text);
	assert_string_equal(text,
	    "vast\ta\t1000001\tavailable\t1000\n"
	    "vast\tb\t1000002\tavailable\t1000\n"
	    "vast\tc\t1000000\tavailable\t1000\n");
	db_close(db);
}

static void
test_watch_list_count(void **state)
{
	const char *path = tmp_path("wl.db"), *old = tmp_path("wl1.db");
	struct db_watch_offer w[3];
	struct db_watch_known got;
	int64_t last;
	struct db_watch *list;
	struct db *db;
	struct err err;
	size_t n, i;
	sqlite3 *raw;

	(void)state;
	err_clear(&err);
	memset(w, 0, sizeof w);
	for (i = 0; i < 3; i++) {
		w[i].provider = "vast";
		/* The third repeats the first: two offers. */
		w[i].key = i == 1 ? "2" : "1";
		w[i].availability = AV_AVAILABLE;
		w[i].reported_at = 1000;
	}
	db = open_ok(path);
	assert_int_equal(db_watch_store(db, "--gpu H100", w, 3, 1000, &err),
	    0);
	assert_int_equal(db_watch_store(db, "--gpu A100", w, 1, 1000, &err),
	    0);
	assert_int_equal(db_watch_list(db, &list, &n, &err), 0);
	assert_int_equal(n, 2);
	assert_string_equal(list[0].query, "--gpu A100");
	assert_int_equal(list[0].offers, 1);
	assert_string_equal(list[1].query, "--gpu H100");
	assert_int_equal(list[1].offers, 2);
	free(list);
	/* The next run tracks fewer: the count follows. */
	assert_int_equal(db_watch_store(db, "--gpu H100", w, 1, 2000, &err),
	    0);
	db_close(db);
	assert_int_equal(raw_int(path, "SELECT offers FROM watch WHERE "
	    "query = '--gpu H100'"), 1);

	/* A watch state file of version 1 (no watch.offers). */
	raw = raw_open(old);
	raw_exec(raw, "CREATE TABLE watch (query TEXT PRIMARY KEY, "
	    "created_at INTEGER NOT NULL, last_run INTEGER NOT NULL);"
	    "CREATE TABLE watch_offer (query TEXT NOT NULL, provider TEXT "
	    "NOT NULL, key TEXT NOT NULL, price INTEGER, availability TEXT "
	    "NOT NULL, reported_at INTEGER NOT NULL, PRIMARY KEY (query, "
	    "provider, key)) WITHOUT ROWID;"
	    "INSERT INTO watch VALUES ('--gpu L4', 10, 20);"
	    "INSERT INTO watch_offer VALUES ('--gpu L4', 'gcp', 'g2', 1, "
	    "'available', 20);"
	    "PRAGMA user_version = 1; PRAGMA application_id = 1735423351;");
	sqlite3_close(raw);
	assert_int_equal(db_open_watch_state(old, &db, &err), 0);
	assert_int_equal(db_watch_list(db, &list, &n, &err), 0);
	assert_int_equal(n, 1);
	assert_int_equal(list[0].offers, 1);
	free(list);
	assert_int_equal(db_watch_load(db, "--gpu L4", &got, &last, &err),
	    0);
	assert_int_equal(got.n, 1);
	assert_string_equal(got.v[0].key, "g2");
	assert_int_equal(got.v[0].price, 1);
	db_watch_known_free(&got);
	assert_int_equal(db_watch_store(db, "--gpu L4", w, 3, 3000, &err), 0);
	db_close(db);
	assert_int_equal(raw_int(old, "PRAGMA user_version"), 3);
	assert_int_equal(raw_int(old, "SELECT offers FROM watch"), 2);
	assert_int_equal(raw_int(old, "SELECT count(*) FROM sqlite_master "
	    "WHERE name = 'watch_offer'"), 0);
	/* Reopened as version 3. */
	assert_int_equal(db_open_watch_state(old, &db, &err), 0);
	db_close(db);
}

/* Every stored column of every offer but row_hash, as text, in key order. */
static char *
offers_dump(const char *path)
{
	sqlite3 *s = raw_open(path);
	sqlite3_stmt *st;
	char *out = NULL;
	size_t len = 0, cap = 0, add;
	const char *v;
	int i;

	if (sqlite3_prepare_v2(s, "SELECT * FROM offers ORDER BY provider, "
	    "key", -1, &st, NULL) != SQLITE_OK)
		fail_msg("dump: %s", sqlite3_errmsg(s));
	while (sqlite3_step(st) == SQLITE_ROW) {
		for (i = 0; i < sqlite3_column_count(st); i++) {
			if (strcmp(sqlite3_column_name(st, i), "row_hash") == 0)
				continue;
			v = sqlite3_column_type(st, i) == SQLITE_NULL ? "NULL" :
			    (const char *)sqlite3_column_text(st, i);
			add = strlen(v) + strlen(sqlite3_column_name(st, i)) + 4;
			if (len + add + 2 > cap) {
				cap = (len + add + 2) * 2;
				out = realloc(out, cap);
				assert_non_null(out);
			}
			len += (size_t)snprintf(out + len, cap - len, "%s=%s%s",
			    sqlite3_column_name(st, i), v,
			    i + 1 < sqlite3_column_count(st) ? "|" : "\n");
		}
	}
	sqlite3_finalize(st);
	sqlite3_close(s);
	return out != NULL ? out : strdup("");
}

/*
 * Write v to path, and the same offers to a fresh cache: the stored rows
 * must be the same (the write of only what changed, stage_changed(),
 * leaves what writing everything leaves). Returns the stats.
 */
static struct db_replace_stats
replace_same(struct db *db, const char *path, const struct offer *v, size_t n,
    int64_t now)
{
	char fresh[4096];
	struct db_replace_stats stats, fs;
	struct db *f;
	char *a, *b;

	snprintf(fresh, sizeof fresh, "%s", tmp_path("fresh.db"));
	replace_ok(db, "vast", v, n, SRC_LIVE, now, &stats);
	unlink(fresh);
	f = open_ok(fresh);
	replace_ok(f, "vast", v, n, SRC_LIVE, now, &fs);
	db_close(f);
	a = offers_dump(path);
	b = offers_dump(fresh);
	assert_string_equal(a, b);
	free(a);
	free(b);
	assert_int_equal(stats.offers, fs.offers);
	assert_int_equal(raw_int(path, "SELECT offer_count FROM "
	    "provider_status WHERE provider = 'vast'"), fs.offers);
	assert_int_equal(raw_int(path, "SELECT oldest FROM provider_status "
	    "WHERE provider = 'vast'"), raw_int(fresh, "SELECT oldest FROM "
	    "provider_status WHERE provider = 'vast'"));
	assert_int_equal(raw_int(path, "SELECT newest FROM provider_status "
	    "WHERE provider = 'vast'"), raw_int(fresh, "SELECT newest FROM "
	    "provider_status WHERE provider = 'vast'"));
	return stats;
}

/*
 * A refresh writes only the offers that are new or changed (issue 29:
 * a 100k refresh with 1 % new prices rewrote every row): unchanged rows
 * stay, moved fetched_at included; a changed field, a repeated key (its
 * last offer), a gone key, a new one, a row with no hash (written
 * before) or another version's hash are written; the rows stored are
 * those a write of everything into an empty cache stores.
 */
static void
test_replace_writes_changes(void **state)
{
	char path[4096];
	struct offer a[5], b[6];
	struct db_replace_stats st;
	struct db *db;
	sqlite3 *raw;
	size_t i;
	char key[8];

	(void)state;
	/* Our own copy: tmp_path() reuses its buffers. */
	snprintf(path, sizeof path, "%s", tmp_path("changes.db"));
	unlink(path);
	db = open_ok(path);
	for (i = 0; i < 5; i++) {
		snprintf(key, sizeof key, "k%zu", i + 1);
		a[i] = mk("vast", key, "H100", 1, 80, IC_NVLINK, 2000000 +
		    (int64_t)i, MONEY_NONE, AV_AVAILABLE, 1000);
	}
	st = replace_same(db, path, a, 5, 1000);
	assert_int_equal(st.written, 5);
	assert_int_equal(raw_int(path, "SELECT count(*) FROM price_history"),
	    5);

	/* k1, k5 the same; k2 a new price; k3 gone; k4 twice, the last
	 * in another region; k6 new. */
	b[0] = a[0];
	b[1] = a[1];
	b[1].price += 10000;
	b[2] = a[3];
	b[3] = a[3];
	b[3].region = "elsewhere";
	b[4] = a[4];
	b[5] = mk("vast", "k6", "A100-80", 2, 80, IC_NVLINK, 3000000,
	    1500000, AV_AVAILABLE, 1000);
	st = replace_same(db, path, b, 6, 1000);
	assert_int_equal(st.offers, 5);
	assert_int_equal(st.written, 3);
	assert_int_equal(st.removed, 1);
	assert_int_equal(raw_int(path, "SELECT count(*) FROM price_history"),
	    7);

	/* Fetched again, all at one time: nothing written but the time. */
	for (i = 0; i < 6; i++)
		b[i].fetched_at = 2000;
	st = replace_same(db, path, b, 6, 2000);
	assert_int_equal(st.written, 0);
	assert_int_equal(st.removed, 0);

	/* Times apart: only the offer whose time moved is written. */
	b[0].fetched_at = 2100;
	st = replace_same(db, path, b, 6, 2100);
	assert_int_equal(st.written, 1);
	/* Every time moves, not to one value: each offer written. */
	for (i = 0; i < 6; i++)
		b[i].fetched_at = 2200 + (int64_t)i;
	st = replace_same(db, path, b, 6, 2300);
	assert_int_equal(st.written, 5);

	/* A row without a hash, or with another one, is written again. */
	db_close(db);
	raw = raw_open(path);
	raw_exec(raw, "UPDATE offers SET row_hash = NULL WHERE key = 'k5'; "
	    "UPDATE offers SET row_hash = row_hash + 1 WHERE key = 'k6'");
	sqlite3_close(raw);
	db = open_ok(path);
	st = replace_same(db, path, b, 6, 2300);
	assert_int_equal(st.written, 2);
	assert_int_equal(raw_int(path, "SELECT count(*) FROM price_history"),
	    7);

	/* Nothing offered: every row goes. */
	st = replace_same(db, path, b, 0, 2400);
	assert_int_equal(st.offers, 0);
	assert_int_equal(st.removed, 5);
	db_close(db);
}

/*
 * Issue 47: price_from (what an aggregate price starts from) is stored,
 * read back, and a change of it alone is a change written.
 */
static void
test_price_from(void **state)
{
	char path[4096];
	struct offer o[2];
	struct db_replace_stats st;
	struct offer_list l;
	struct offer_filter f;
	struct db *db;
	size_t i;

	(void)state;
	snprintf(path, sizeof path, "%s", tmp_path("from.db"));
	unlink(path);
	db = open_ok(path);
	o[0] = mk("akash", "nvidia/h100/80Gi/SXM5", "H100", 1, 80, IC_NVLINK,
	    1290000, MONEY_NONE, AV_AVAILABLE, 1000);
	o[0].price_from = 1180000;
	o[1] = mk("akash", "nvidia/t4/16Gi/PCIe", "T4", 1, 16, IC_PCIE,
	    120000, MONEY_NONE, AV_AVAILABLE, 1000);
	st = replace_same(db, path, o, 2, 1000);
	assert_int_equal(st.written, 2);
	offer_filter_init(&f);
	query_ok(db, &f, &l);
	assert_int_equal(l.n, 2);
	for (i = 0; i < l.n; i++)
		assert_int_equal(l.v[i].price_from,
		    strcmp(l.v[i].key, "nvidia/t4/16Gi/PCIe") == 0 ?
		    MONEY_NONE : 1180000);
	offer_list_done(&l);
	assert_int_equal(raw_int(path, "SELECT count(*) FROM offers WHERE "
	    "price_from IS NULL"), 1);
	/* Only the lowest bid moved: that row is written again. */
	o[0].price_from = 1200000;
	st = replace_same(db, path, o, 2, 1000);
	assert_int_equal(st.written, 1);
	assert_int_equal(raw_int(path, "SELECT price_from FROM offers WHERE "
	    "price_from IS NOT NULL"), 1200000);
	db_close(db);
}

/* Readers never wait for a writer (WAL): a query during a write. */
static void
test_reader_not_blocked(void **state)
{
	const char *path = tmp_path("wal.db");
	struct offer o = mk("aws", "k", "T4", 1, 16, IC_PCIE, 526000,
	    MONEY_NONE, AV_UNKNOWN, 100);
	struct offer_list l;
	struct offer_filter f;
	struct db *db;
	sqlite3 *w;
	time_t t0;

	(void)state;
	db = open_ok(path);
	replace_ok(db, "aws", &o, 1, SRC_LIVE, 100, NULL);
	w = raw_open(path);
	raw_exec(w, "BEGIN IMMEDIATE; DELETE FROM offers;");
	t0 = time(NULL);
	offer_filter_init(&f);
	query_ok(db, &f, &l);		/* sees the last committed state */
	assert_int_equal(l.n, 1);
	offer_list_done(&l);
	assert_true(time(NULL) - t0 <= 1);
	raw_exec(w, "ROLLBACK");
	sqlite3_close(w);
	db_close(db);
}

/* Over-long text in the file is cut to the record's buffers. */
static void
test_long_text_truncated(void **state)
{
	const char *path = tmp_path("long.db");
	struct offer_list l;
	struct offer_filter f;
	struct db *db;
	sqlite3 *raw;
	char sql[1024], longname[201];

	(void)state;
	db = open_ok(path);
	memset(longname, 'r', 200);
	longname[200] = '\0';
	raw = raw_open(path);
	snprintf(sql, sizeof sql, "INSERT INTO offers (provider, key, "
	    "instance_type, region, gpu, gpu_raw, gpu_count, vram_gb, "
	    "interconnect, vcpus, ram_gb, price, spot_price, availability, "
	    "spot_interruption, reliability, fetched_at, source, notes, "
	    "spot_zone, currency, price_original) VALUES "
	    "('aws', 'k', "
	    "'%s', '%s', 'T4', '%s', 1, 16, 'pcie', 4, 16.0, 526000, NULL, "
	    "'unknown', NULL, NULL, 100, 'live', 0, '', 'USD', NULL)", longname, longname,
	    longname);
	raw_exec(raw, sql);
	sqlite3_close(raw);
	offer_filter_init(&f);
	query_ok(db, &f, &l);
	assert_int_equal(l.n, 1);
	assert_int_equal(strlen(l.v[0].instance_type), OFFER_NAME_MAX - 1);
	assert_int_equal(strlen(l.v[0].region), OFFER_NAME_MAX - 1);
	assert_int_equal(strlen(l.v[0].gpu_raw), OFFER_NAME_MAX - 1);
	assert_int_equal(l.v[0].price, 526000);
	offer_list_done(&l);
	db_close(db);
}

/* A failed refresh keeps the offers and records the error. */
static void
test_record_failure(void **state)
{
	const char *path = tmp_path("fail.db");
	struct offer in[2];
	struct provider_status s;
	struct offer_list l;
	struct offer_filter f;
	struct db *db;
	struct err err;
	bool due;

	(void)state;
	in[0] = mk("vultr", "a", "H100", 8, 80, IC_NVLINK, 23920000, 18400000,
	    AV_UNKNOWN, 100);
	in[1] = mk("vultr", "b", "L40S", 1, 48, IC_PCIE, 2090000, MONEY_NONE,
	    AV_UNKNOWN, 100);
	db = open_ok(path);
	replace_ok(db, "vultr", in, 2, SRC_LIVE, 1000, NULL);
	assert_int_equal(db_record_failure(db, "vultr", 2000,
	    "vultr: plans[3].monthly_cost: expected a number", &err), 0);
	s = status_of(db, "vultr");
	assert_int_equal(s.last_attempt, 2000);
	assert_int_equal(s.last_success, 1000);
	assert_int_equal(s.offer_count, 2);
	assert_int_equal(s.source, SRC_LIVE);
	assert_string_equal(s.last_error,
	    "vultr: plans[3].monthly_cost: expected a number");
	offer_filter_init(&f);
	query_ok(db, &f, &l);
	assert_int_equal(l.n, 2);
	assert_int_equal(get_offer(&l, "vultr", "a")->price, 23920000);
	offer_list_done(&l);

	/*
	 * A provider never seen before gets a status row, and no offers:
	 * the snapshot is still due (nothing of any snapshot is stored).
	 */
	assert_int_equal(db_provider_seed_due(db, "vast", "v1", &due, &err),
	    0);
	assert_true(due);
	assert_int_equal(db_record_failure(db, "vast", 3000, "timeout", &err),
	    0);
	assert_int_equal(db_provider_seed_due(db, "vast", "v1", &due, &err),
	    0);
	assert_true(due);
	s = status_of(db, "vast");
	assert_int_equal(s.last_attempt, 3000);
	assert_int_equal(s.last_success, 0);
	assert_int_equal(s.offer_count, 0);
	assert_int_equal(s.oldest, 0);
	assert_string_equal(s.last_error, "timeout");
	db_close(db);
}

/* ------------------------------------------------------------------ */
/* Queries                                                            */
/* ------------------------------------------------------------------ */

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* "provider\tkey" of each offer, sorted. */
static char **
keys_of(const struct offer *v, size_t n)
{
	char **k = calloc(n + 1, sizeof *k);
	size_t i;

	assert_non_null(k);
	for (i = 0; i < n; i++) {
		k[i] = malloc(OFFER_PROVIDER_MAX + OFFER_KEY_MAX + 2);
		assert_non_null(k[i]);
		snprintf(k[i], OFFER_PROVIDER_MAX + OFFER_KEY_MAX + 2, "%s\t%s",
		    v[i].provider, v[i].key);
	}
	qsort(k, n, sizeof *k, cmp_str);
	return k;
}

static void
keys_free(char **k, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(k[i]);
	free(k);
}

/*
 * db_query(f) returns exactly the offers of all[] that offer_matches()
 * accepts; returns how many, which must be > 0 and, unless every, < n.
 */
static size_t
query_matches_c(struct db *db, const struct offer_list *all,
    const struct offer_filter *f, const char *what, bool every)
{
	struct offer_list got, want;
	char **gk, **wk;
	size_t i, n;

	offer_list_init(&want);
	for (i = 0; i < all->n; i++) {
		struct offer o = all->v[i];

		/* As the cache gives them: with their fabric looked up. */
		offer_set_fabric(&o);
		if (offer_matches(f, &o, NULL))
			*offer_list_add(&want) = o;
	}
	query_ok(db, f, &got);
	if (got.n != want.n)
		fail_msg("%s: db_query gave %zu offers, offer_matches %zu",
		    what, got.n, want.n);
	gk = keys_of(got.v, got.n);
	wk = keys_of(want.v, want.n);
	for (i = 0; i < got.n; i++)
		if (strcmp(gk[i], wk[i]) != 0)
			fail_msg("%s: db_query has \"%s\" where C has \"%s\"",
			    what, gk[i], wk[i]);
	/* What SQL returned also matches in C. */
	for (i = 0; i < got.n; i++)
		assert_true(offer_matches(f, &got.v[i], NULL));
	n = got.n;
	keys_free(gk, got.n);
	keys_free(wk, want.n);
	offer_list_done(&got);
	offer_list_done(&want);
	if (n == 0)
		fail_msg("%s: nothing matched; the test would prove nothing",
		    what);
	if (!every && n == all->n)
		fail_msg("%s: everything matched; the filter did nothing",
		    what);
	return n;
}

/* The snapshot, varied, per provider in the cache; all of it in *all. */
static struct db *
query_fixture(const char *path, struct offer_list *all)
{
	struct offer_list per;
	struct err err;
	struct db *db;
	size_t i, k, start, with_rows = 0;

	offer_list_init(all);
	assert_int_equal(snapshot_load(NULL, all, &err), 0);
	for (i = 0; i < all->n; i++) {
		struct offer *o = &all->v[i];

		o->availability = (enum availability)(i % 4);
		if (i % 5 == 0)
			o->spot_price = MONEY_NONE;
		if (!money_known(o->price) && !money_known(o->spot_price))
			o->price = 1000000;
	}
	/* An unknown GPU, kept with its raw name. */
	*offer_list_add(all) = mk("vast", "odd", "", 2, 12, IC_UNKNOWN,
	    500000, MONEY_NONE, AV_AVAILABLE, 100);
	db = open_ok(path);
	for (k = 0; providers[k] != NULL; k++) {
		offer_list_init(&per);
		for (start = 0; start < all->n; start++)
			if (strcmp(all->v[start].provider, providers[k]->id)
			    == 0)
				*offer_list_add(&per) = all->v[start];
		/* Scaleway has no dated snapshot rows. */
		if (per.n > 0)
			with_rows++;
		replace_ok(db, providers[k]->id, per.v, per.n, SRC_LIVE,
		    1000, NULL);
		offer_list_done(&per);
	}
	assert_true(with_rows >= 6);
	return db;
}

static void
test_query_filters(void **state)
{
	const char *path = tmp_path("query.db");
	struct offer_list all, l;
	struct offer_filter f;
	struct db *db;
	size_t n, i;

	(void)state;
	db = query_fixture(path, &all);

	offer_filter_init(&f);
	assert_int_equal(query_matches_c(db, &all, &f, "no filter", true),
	    all.n);

	/* GPU set: a family, and one model. */
	offer_filter_init(&f);
	f.ngpus = gpu_query("A100", f.gpus, GPU_MATCH_MAX);
	assert_int_equal(f.ngpus, 2);
	query_matches_c(db, &all, &f, "gpu A100", false);
	offer_filter_init(&f);
	f.ngpus = gpu_query("A100-80", f.gpus, GPU_MATCH_MAX);
	query_matches_c(db, &all, &f, "gpu A100-80", false);
	offer_filter_init(&f);
	f.gpus[0] = gpu_find("H100");
	f.gpus[1] = gpu_find("H200");
	f.gpus[2] = gpu_find("B200");
	f.ngpus = 3;
	query_matches_c(db, &all, &f, "gpu H100,H200,B200", false);

	/* Count: exact, and with --multi-node (count/k per instance). */
	offer_filter_init(&f);
	f.count = 8;
	n = query_matches_c(db, &all, &f, "count 8", false);
	query_ok(db, &f, &l);
	for (i = 0; i < l.n; i++)
		assert_int_equal(l.v[i].gpu_count, 8);
	assert_int_equal(l.n, n);
	offer_list_done(&l);
	f.multi_node = true;
	assert_true(query_matches_c(db, &all, &f, "count 8 multi", false) > n);
	f.count = 16;
	query_matches_c(db, &all, &f, "count 16 multi", false);
	f.count = 3;
	query_matches_c(db, &all, &f, "count 3 multi", false);
	f.multi_node = false;
	f.count = 16;
	query_matches_c(db, &all, &f, "count 16", false);

	offer_filter_init(&f);
	f.min_vram_gb = 80;
	query_matches_c(db, &all, &f, "min vram 80", false);
	f.min_vram_gb = 141;
	query_matches_c(db, &all, &f, "min vram 141", false);

	offer_filter_init(&f);
	f.interconnect = IC_NVLINK;
	query_matches_c(db, &all, &f, "nvlink", false);
	f.interconnect = IC_PCIE;
	query_matches_c(db, &all, &f, "pcie", false);

	offer_filter_init(&f);
	strcpy(f.providers[0], "aws");
	strcpy(f.providers[1], "vast");
	f.nproviders = 2;
	query_matches_c(db, &all, &f, "providers aws,vast", false);
	f.nproviders = 1;
	strcpy(f.providers[0], "vultr");
	query_matches_c(db, &all, &f, "provider vultr", false);

	offer_filter_init(&f);
	f.available = true;
	query_matches_c(db, &all, &f, "available", false);
	offer_filter_init(&f);
	f.spot = true;
	query_matches_c(db, &all, &f, "spot", false);

	/* Conditions checked in C only. */
	offer_filter_init(&f);
	str_copy(f.region, sizeof f.region, "us-east");
	query_matches_c(db, &all, &f, "region us-east", false);
	str_copy(f.region, sizeof f.region, "europe-*");
	query_matches_c(db, &all, &f, "region europe-*", false);
	offer_filter_init(&f);
	strcpy(f.text, "h100 aws");
	query_matches_c(db, &all, &f, "text", false);

	/* Everything at once. */
	offer_filter_init(&f);
	f.ngpus = gpu_query("A100", f.gpus, GPU_MATCH_MAX);
	f.count = 8;
	f.multi_node = true;
	f.min_vram_gb = 40;
	f.interconnect = IC_NVLINK;
	strcpy(f.providers[0], "aws");
	strcpy(f.providers[1], "gcp");
	strcpy(f.providers[2], "lambda");
	f.nproviders = 3;
	query_matches_c(db, &all, &f, "combined", false);
	f.spot = true;
	query_matches_c(db, &all, &f, "combined spot", false);

	/* The widest filter the CLI can build still prepares. */
	offer_filter_init(&f);
	for (i = 0; i < GPU_MATCH_MAX; i++)
		f.gpus[i] = &gpu_models[i];
	f.ngpus = GPU_MATCH_MAX;
	for (i = 0; i < FILTER_PROVIDERS_MAX; i++)
		strcpy(f.providers[i], i < 6 ? providers[i]->id : "aws");
	f.nproviders = FILTER_PROVIDERS_MAX;
	f.count = 8;
	f.multi_node = true;
	f.min_vram_gb = 1;
	f.interconnect = IC_NVLINK;
	f.spot = true;
	query_matches_c(db, &all, &f, "widest", false);

	/* No match is an empty result, not an error. */
	offer_filter_init(&f);
	f.min_vram_gb = 1000;
	query_ok(db, &f, &l);
	assert_int_equal(l.n, 0);
	offer_list_done(&l);

	offer_list_done(&all);
	db_close(db);
}

/* db_query appends to what the list holds. */
static void
test_query_appends(void **state)
{
	const char *path = tmp_path("append.db");
	struct offer o = mk("aws", "k", "T4", 1, 16, IC_PCIE, 526000,
	    MONEY_NONE, AV_UNKNOWN, 100);
	struct offer_list l;
	struct offer_filter f;
	struct db *db;
	struct err err;

	(void)state;
	db = open_ok(path);
	replace_ok(db, "aws", &o, 1, SRC_LIVE, 100, NULL);
	offer_list_init(&l);
	offer_list_add(&l)->key = "already";
	offer_filter_init(&f);
	assert_int_equal(db_query(db, &f, &l, &err), 0);
	assert_int_equal(l.n, 2);
	assert_string_equal(l.v[0].key, "already");
	assert_string_equal(l.v[1].key, "k");
	offer_list_done(&l);
	db_close(db);
}

/* ------------------------------------------------------------------ */
/* Status, history, settings                                          */
/* ------------------------------------------------------------------ */

static void
test_status(void **state)
{
	const char *path = tmp_path("status.db");
	struct offer v[3];
	struct provider_status *st;
	struct db *db;
	struct err err;
	size_t n;

	(void)state;
	db = open_ok(path);
	assert_int_equal(db_status(db, &st, &n, &err), 0);
	assert_int_equal(n, 0);
	free(st);
	v[0] = mk("x", "a", "T4", 1, 16, IC_PCIE, 1, MONEY_NONE, AV_UNKNOWN,
	    500);
	v[1] = mk("x", "b", "T4", 1, 16, IC_PCIE, 1, MONEY_NONE, AV_UNKNOWN,
	    200);
	v[2] = mk("x", "c", "T4", 1, 16, IC_PCIE, 1, MONEY_NONE, AV_UNKNOWN,
	    900);
	replace_ok(db, "vast", v, 3, SRC_LIVE, 1000, NULL);
	replace_ok(db, "aws", v, 1, SRC_SNAPSHOT, 1000, NULL);
	assert_int_equal(db_record_failure(db, "gcp", 1100, "down", &err), 0);
	assert_int_equal(db_status(db, &st, &n, &err), 0);
	/* Sorted by provider. */
	assert_int_equal(n, 3);
	assert_string_equal(st[0].provider, "aws");
	assert_string_equal(st[1].provider, "gcp");
	assert_string_equal(st[2].provider, "vast");
	assert_int_equal(st[0].offer_count, 1);
	assert_int_equal(st[0].source, SRC_SNAPSHOT);
	assert_int_equal(st[0].oldest, 500);
	assert_int_equal(st[0].newest, 500);
	assert_int_equal(st[1].offer_count, 0);
	assert_int_equal(st[1].oldest, 0);
	assert_int_equal(st[1].newest, 0);
	assert_string_equal(st[1].last_error, "down");
	assert_int_equal(st[2].offer_count, 3);
	assert_int_equal(st[2].oldest, 200);
	assert_int_equal(st[2].newest, 900);
	assert_int_equal(st[2].source, SRC_LIVE);
	assert_int_equal(st[2].last_success, 1000);
	free(st);
	db_close(db);
}

static void
test_history(void **state)
{
	const char *path = tmp_path("history.db");
	struct offer o = mk("gcp", "a2-ultragpu-8g/us-central1", "A100-80", 8,
	    80, IC_NVLINK, 40550000, 16500000, AV_UNKNOWN, 100);
	struct price_point *pts;
	struct db *db;
	struct err err;
	size_t n;

	(void)state;
	db = open_ok(path);
	assert_int_equal(db_history(db, "gcp", o.key, &pts, &n, &err), 0);
	assert_int_equal(n, 0);
	free(pts);
	replace_ok(db, "gcp", &o, 1, SRC_LIVE, 100, NULL);
	o.fetched_at = 300;
	o.price = 39000000;
	replace_ok(db, "gcp", &o, 1, SRC_LIVE, 300, NULL);
	o.fetched_at = 200;		/* older observation, added last */
	o.price = MONEY_NONE;
	o.availability = AV_UNAVAILABLE;
	replace_ok(db, "gcp", &o, 1, SRC_LIVE, 400, NULL);
	o.fetched_at = 400;
	o.price = 41000000;
	replace_ok(db, "gcp", &o, 1, SRC_LIVE, 500, NULL);

	assert_int_equal(db_history(db, "gcp", o.key, &pts, &n, &err), 0);
	assert_int_equal(n, 4);
	/* Oldest first by time observed. */
	assert_int_equal(pts[0].at, 100);
	assert_int_equal(pts[0].price, 40550000);
	assert_int_equal(pts[0].spot_price, 16500000);
	assert_int_equal(pts[0].availability, AV_UNKNOWN);
	assert_int_equal(pts[1].at, 200);
	assert_int_equal(pts[1].price, MONEY_NONE);
	assert_int_equal(pts[1].availability, AV_UNAVAILABLE);
	assert_int_equal(pts[2].at, 300);
	assert_int_equal(pts[2].price, 39000000);
	assert_int_equal(pts[3].at, 400);
	assert_int_equal(pts[3].price, 41000000);
	assert_int_equal(pts[3].availability, AV_UNAVAILABLE);
	free(pts);
	/* Another provider's offer with the same key has its own history. */
	assert_int_equal(db_history(db, "aws", o.key, &pts, &n, &err), 0);
	assert_int_equal(n, 0);
	free(pts);
	db_close(db);
}

static void
test_meta(void **state)
{
	const char *path = tmp_path("meta.db");
	struct db *db;
	struct err err;
	char value[128], small[4];
	bool found = true;

	(void)state;
	db = open_ok(path);
	memset(value, 'X', sizeof value);
	assert_int_equal(db_meta_get(db, "aws", "us-east-1", value,
	    sizeof value, &found, &err), 0);
	assert_false(found);
	assert_string_equal(value, "");
	assert_int_equal(db_meta_set(db, "aws", "us-east-1", "20260101",
	    &err), 0);
	assert_int_equal(db_meta_set(db, "aws", "eu-west-1", "20251201",
	    &err), 0);
	assert_int_equal(db_meta_set(db, "gcp", "us-east-1", "other", &err),
	    0);
	assert_int_equal(db_meta_get(db, "aws", "us-east-1", value,
	    sizeof value, &found, &err), 0);
	assert_true(found);
	assert_string_equal(value, "20260101");
	assert_int_equal(db_meta_get(db, "gcp", "us-east-1", value,
	    sizeof value, &found, &err), 0);
	assert_string_equal(value, "other");
	/* Overwrite. */
	assert_int_equal(db_meta_set(db, "aws", "us-east-1", "20260201",
	    &err), 0);
	assert_int_equal(db_meta_get(db, "aws", "us-east-1", value,
	    sizeof value, &found, &err), 0);
	assert_string_equal(value, "20260201");
	assert_int_equal(db_meta_get(db, "aws", "eu-west-1", value,
	    sizeof value, &found, &err), 0);
	assert_string_equal(value, "20251201");
	/* Empty value is a value. */
	assert_int_equal(db_meta_set(db, "aws", "empty", "", &err), 0);
	assert_int_equal(db_meta_get(db, "aws", "empty", value, sizeof value,
	    &found, &err), 0);
	assert_true(found);
	assert_string_equal(value, "");
	/* A small buffer gets a terminated prefix. */
	assert_int_equal(db_meta_get(db, "aws", "us-east-1", small,
	    sizeof small, &found, &err), 0);
	assert_true(found);
	assert_string_equal(small, "202");
	db_close(db);
	/* Kept across opens. */
	db = open_ok(path);
	assert_int_equal(db_meta_get(db, "aws", "eu-west-1", value,
	    sizeof value, &found, &err), 0);
	assert_true(found);
	assert_string_equal(value, "20251201");
	db_close(db);
}

static void
test_provider_seed_due(void **state)
{
	const char *path = tmp_path("seeddue.db");
	struct offer o = mk("aws", "k", "T4", 1, 16, IC_PCIE, 526000,
	    MONEY_NONE, AV_UNKNOWN, 100);
	struct provider_meta v1 = { DB_META_SNAPSHOT, "v1" };
	struct db *db;
	struct err err;
	bool due = false;

	(void)state;
	db = open_ok(path);
	/* Never seen: due. */
	assert_int_equal(db_provider_seed_due(db, "aws", "v1", &due, &err), 0);
	assert_true(due);
	/* A snapshot with no version kept (seeded before it was): due. */
	replace_ok(db, "aws", &o, 1, SRC_SNAPSHOT, 100, NULL);
	assert_int_equal(db_provider_seed_due(db, "aws", "v1", &due, &err), 0);
	assert_true(due);
	/* This snapshot: not due; another build's: due. */
	assert_int_equal(db_replace_offers_meta(db, "aws", &o, 1,
	    SRC_SNAPSHOT, &v1, 1, 100, NULL, &err), 0);
	assert_int_equal(db_provider_seed_due(db, "aws", "v1", &due, &err), 0);
	assert_false(due);
	assert_int_equal(db_provider_seed_due(db, "aws", "v2", &due, &err), 0);
	assert_true(due);
	/* A refresh's offers, even none, with an old version kept: never. */
	replace_ok(db, "aws", NULL, 0, SRC_LIVE, 200, NULL);
	assert_int_equal(db_provider_seed_due(db, "aws", "v2", &due, &err), 0);
	assert_false(due);
	replace_ok(db, "gcp", NULL, 0, SRC_LIVE, 100, NULL);
	assert_int_equal(db_provider_seed_due(db, "gcp", "v1", &due, &err), 0);
	assert_false(due);
	assert_int_equal(db_provider_seed_due(db, "lambda", "v1", &due, &err),
	    0);
	assert_true(due);
	/*
	 * Its statement is kept for the next provider, reset: no read
	 * transaction stays open, so another connection's write and a
	 * checkpoint of everything pass, and the next answer sees it.
	 */
	assert_int_equal(db_provider_seed_due(db, "aws", "v1", &due, &err), 0);
	{
		sqlite3 *s = raw_open(path);
		sqlite3_stmt *st;

		raw_exec(s, "INSERT INTO provider_status (provider, source) "
		    "VALUES ('lambda', 'live')");
		assert_int_equal(sqlite3_prepare_v2(s, "PRAGMA "
		    "wal_checkpoint(TRUNCATE)", -1, &st, NULL), SQLITE_OK);
		assert_int_equal(sqlite3_step(st), SQLITE_ROW);
		assert_int_equal(sqlite3_column_int(st, 0), 0);	/* not busy */
		sqlite3_finalize(st);
		sqlite3_close(s);
	}
	assert_int_equal(db_provider_seed_due(db, "lambda", "v1", &due, &err),
	    0);
	assert_false(due);
	db_close(db);
}

/* The size of path's -wal, or -1 when there is none. */
static long long
wal_size(const char *path)
{
	char wal[4200];
	struct stat sb;

	if (snprintf(wal, sizeof wal, "%s-wal", path) >= (int)sizeof wal)
		fail_msg("path too long: %s", path);
	return stat(wal, &sb) == 0 ? (long long)sb.st_size : -1;
}

/* A watch of one offer stored in the cache at path, then closed. */
static void
store_one_watch(const char *path, const char *key)
{
	struct db_watch_offer w;
	struct db *db = open_ok(path);
	struct err err;

	memset(&w, 0, sizeof w);
	w.provider = "vast";
	w.key = key;
	w.price = 310000;
	w.availability = AV_AVAILABLE;
	w.reported_at = 1000;
	assert_int_equal(db_watch_store(db, "--gpu H100", &w, 1, 1000, &err), 0);
	db_close(db);
}

/*
 * Replacing a watch's text writes its own pages and little more: freed
 * pages are not zeroed and written again (Debian's SQLite is built with
 * SQLITE_SECURE_DELETE; the cache turns it off). 1,000 offers make a
 * text of 10 pages; storing it again with one price changed wrote 23
 * frames with secure delete, 13 without.
 */
static void
test_watch_store_frames(void **state)
{
	const char *path = tmp_path("frames.db");
	struct db_watch_offer *w;
	struct db *db;
	struct err err;
	long long before, text, frames;
	char (*keys)[16];
	size_t i;

	(void)state;
	w = calloc(1000, sizeof *w);
	keys = calloc(1000, sizeof *keys);
	assert_non_null(w);
	assert_non_null(keys);
	for (i = 0; i < 1000; i++) {
		w[i].provider = "vast";
		snprintf(keys[i], sizeof keys[i], "%08zu", 11000000 + i * 7);
		w[i].key = keys[i];
		w[i].price = 200000 + (int64_t)i;
		w[i].availability = AV_AVAILABLE;
		w[i].reported_at = 1795777463;
	}
	db = open_ok(path);
	assert_int_equal(db_watch_store(db, "--gpu H100", w, 1000, 1000,
	    &err), 0);
	before = wal_size(path);
	w[500].price = 1;
	assert_int_equal(db_watch_store(db, "--gpu H100", w, 1000, 2000,
	    &err), 0);
	frames = (wal_size(path) - before) / (4096 + 24);
	text = raw_int(path, "SELECT length(known) FROM watch") / 4092 + 1;
	assert_true(text >= 9);
	assert_true(frames <= text + 4);
	db_close(db);
	free(w);
	free(keys);
}

/*
 * A private cache's small write is left in its -wal for the next
 * checkpoint (db_close()): the file stays sound with it, another
 * connection and a reopen see the write, a write past SQLite's own
 * auto-checkpoint size is checkpointed at close as before, and a shared
 * cache's -wal is always emptied for its readers.
 */
static void
test_close_defers_small_wal(void **state)
{
	char dir[4096], shared[4200];
	const char *path = tmp_path("defer.db");
	struct db_watch_known out;
	struct db *db;
	struct err err;
	int64_t last;
	sqlite3 *raw;

	(void)state;
	/* The temporary directory is mkdtemp(3)'s 0700: private. */
	store_one_watch(path, "1");
	assert_true(wal_size(path) > 0);
	assert_int_equal(raw_int(path, "SELECT offers FROM watch"),
	    1);
	db = open_ok(path);
	assert_int_equal(db_watch_load(db, "--gpu H100", &out, &last, &err),
	    0);
	assert_int_equal(out.n, 1);
	assert_string_equal(out.v[0].key, "1");
	db_watch_known_free(&out);
	db_close(db);
	/* A write beyond the bound, under a connection that closes last. */
	db = open_ok(path);
	raw = raw_open(path);
	raw_exec(raw, "CREATE TABLE pad (b BLOB);"
	    "INSERT INTO pad VALUES (zeroblob(5000000))");
	sqlite3_close(raw);
	assert_true(wal_size(path) > 5000000);
	db_close(db);
	assert_int_equal(wal_size(path), -1);
	assert_int_equal(raw_int(path, "SELECT offers FROM watch"),
	    1);
	assert_int_equal(raw_int(path, "SELECT length(b) FROM pad"), 5000000);

	/* Shared: the file and its directory open to others. */
	snprintf(dir, sizeof dir, "%s", tmp_path("team"));
	assert_int_equal(mkdir(dir, 0755), 0);
	assert_int_equal(chmod(dir, 0755), 0);
	snprintf(shared, sizeof shared, "%s/cache.db", dir);
	store_one_watch(shared, "1");
	assert_int_equal(chmod(shared, 0644), 0);
	store_one_watch(shared, "2");
	assert_int_equal(wal_size(shared), 0);
	assert_int_equal(raw_int(shared, "SELECT offers FROM watch"),
	    1);
}

/* ------------------------------------------------------------------ */
/* Seeding from the snapshot                                          */
/* ------------------------------------------------------------------ */

static void
test_cache_open_seeds(void **state)
{
	const char *path = tmp_path("seed.db");
	struct provider_status *st;
	struct offer_list snap, l;
	struct offer_filter f;
	struct db *db = NULL;
	struct err err;
	size_t n, i, k, total = 0, with_rows = 0;
	long long history;

	(void)state;
	err_clear(&err);
	if (cache_open(path, &db, &err) != 0)
		fail_msg("cache_open: %s", err.msg);
	assert_int_equal(db_status(db, &st, &n, &err), 0);
	for (k = 0; providers[k] != NULL; k++) {
		offer_list_init(&snap);
		assert_int_equal(snapshot_load(providers[k]->id, &snap, &err),
		    0);
		/* Scaleway has no dated snapshot: seeded empty. */
		if (snap.n > 0)
			with_rows++;
		for (i = 0; i < n; i++)
			if (strcmp(st[i].provider, providers[k]->id) == 0)
				break;
		if (i == n)
			fail_msg("%s not seeded", providers[k]->id);
		if ((size_t)st[i].offer_count != snap.n)
			fail_msg("%s: %ld offers, snapshot has %zu",
			    providers[k]->id, st[i].offer_count, snap.n);
		assert_int_equal(st[i].source, SRC_SNAPSHOT);
		assert_string_equal(st[i].last_error, "");
		total += snap.n;

		/* The very offers of the snapshot. */
		offer_filter_init(&f);
		strcpy(f.providers[0], providers[k]->id);
		f.nproviders = 1;
		query_ok(db, &f, &l);
		assert_int_equal(l.n, snap.n);
		if (snap.n > 0)	/* Scaleway: none */
			qsort(snap.v, snap.n, sizeof snap.v[0], cmp_offer_key);
		for (i = 0; i < l.n; i++)
			assert_offer_equal(&l.v[i], &snap.v[i]);
		offer_list_done(&l);
		offer_list_done(&snap);
	}
	assert_int_equal(n, k);
	assert_true(with_rows >= 6);
	free(st);
	db_close(db);
	history = raw_int(path, "SELECT count(*) FROM price_history");
	assert_int_equal(history, (long long)total);
	assert_int_equal(raw_int(path, "SELECT count(*) FROM offers"),
	    (long long)total);

	/* Again: nothing is seeded twice. */
	db = NULL;
	if (cache_open(path, &db, &err) != 0)
		fail_msg("cache_open again: %s", err.msg);
	db_close(db);
	assert_int_equal(raw_int(path, "SELECT count(*) FROM price_history"),
	    history);
	assert_int_equal(raw_int(path, "SELECT count(*) FROM offers"),
	    (long long)total);
}

/* A provider refreshed live is not overwritten by the snapshot. */
static void
test_cache_open_keeps_live(void **state)
{
	const char *path = tmp_path("live.db");
	struct offer o = mk("aws", "live-only", "H100", 8, 80, IC_NVLINK,
	    55040000, MONEY_NONE, AV_AVAILABLE, 1800000000);
	struct offer_list l, snap;
	struct offer_filter f;
	struct db *db;
	struct err err;

	(void)state;
	db = open_ok(path);
	replace_ok(db, "aws", &o, 1, SRC_LIVE, 1800000000, NULL);
	db_close(db);
	db = NULL;
	if (cache_open(path, &db, &err) != 0)
		fail_msg("cache_open: %s", err.msg);
	offer_filter_init(&f);
	strcpy(f.providers[0], "aws");
	f.nproviders = 1;
	query_ok(db, &f, &l);
	assert_int_equal(l.n, 1);
	assert_string_equal(l.v[0].key, "live-only");
	offer_list_done(&l);
	/* The others were seeded. */
	strcpy(f.providers[0], "gcp");
	query_ok(db, &f, &l);
	offer_list_init(&snap);
	assert_int_equal(snapshot_load("gcp", &snap, &err), 0);
	assert_int_equal(l.n, snap.n);
	offer_list_done(&snap);
	offer_list_done(&l);
	db_close(db);
}

/* cache_open refuses what db_open refuses. */
static void
test_cache_open_refuses(void **state)
{
	const char *path = tmp_path("text.db");
	struct db *db = (struct db *)&db;
	struct err err;

	(void)state;
	write_file(path, "not a database at all, just some words\n", 39);
	assert_int_equal(cache_open(path, &db, &err), -1);
	assert_non_null(strstr(err.msg, "not an SQLite database"));
}

/*
 * --limit may stop SQL at N offers only when SQL tests every filter set:
 * each field on its own, the ones C tests (and a --gpu form word) say no.
 */
static void
test_filter_in_sql(void **state)
{
	static const struct {
		enum filter_field ff;
		const char *value;
		bool in_sql;
	} cases[] = {
		{ FF_GPU, "H100", true },
		{ FF_GPU, "H100 SXM", true },	/* the stored form */
		{ FF_COUNT, "8", true },
		{ FF_VRAM, "40", true },
		{ FF_LINK, "nvlink", true },
		{ FF_PROVIDERS, "aws,gcp", true },
		{ FF_MAX_PRICE, "2", true },
		{ FF_SPOT, "yes", true },
		{ FF_AVAILABLE, "yes", true },
		{ FF_NO_OUTLIERS, "yes", true },
		{ FF_MULTI_NODE, "yes", false },
		{ FF_REGION, "europe", true },
		{ FF_REGION, "de", true },
		{ FF_REGION, "us-*", true },
		{ FF_REGION, "west", true },
		{ FF_TEXT, "lambda", true },
		{ FF_TEXT, "rtx 4090 sxm", true },
		{ FF_VERTEX, "yes", true },
		{ FF_VCPUS_GPU, "4", true },
		{ FF_RAM_GPU, "16", true },
	};
	struct offer_filter f;
	struct err err;
	size_t i;

	(void)state;
	offer_filter_init(&f);
	assert_true(db_filter_in_sql(&f));
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		offer_filter_init(&f);
		assert_int_equal(filter_set(&f, cases[i].ff, cases[i].value,
		    false, &err), 0);
		if (db_filter_in_sql(&f) != cases[i].in_sql)
			fail_msg("--%s %s: in SQL %d, want %d",
			    filter_fields[cases[i].ff].option, cases[i].value,
			    !cases[i].in_sql, cases[i].in_sql);
		/* One C-only field makes the whole filter C's. */
		assert_int_equal(filter_set(&f, FF_MULTI_NODE, "yes", false,
		    &err), 0);
		assert_false(db_filter_in_sql(&f));
	}
}

#define ONOW	1767225600	/* 2026-01-01 */
#define ODAY	86400

/*
 * Refresh outcomes (issue 28): kept newest first; a month's worth, but
 * always the last HEALTH_MEDIAN_OF + 1 successes however old.
 */
static void
test_refresh_outcomes(void **state)
{
	const char *path = tmp_path("outcomes.db");
	struct refresh_outcome *rows;
	struct db *db = open_ok(path);
	struct err err;
	size_t n;
	int i;

	(void)state;
	/* 15 successes 100 days ago and more, then failures. */
	for (i = 0; i < 15; i++)
		assert_int_equal(db_log_outcome(db, "linode", ONOW - (130 - i) *
		    ODAY, true, 40 + i, "https://api.linode.com", &err), 0);
	for (i = 0; i < 40; i++)
		assert_int_equal(db_log_outcome(db, "linode", ONOW - (40 - i) *
		    ODAY, false, 0, "http://127.0.0.1:1", &err), 0);
	assert_int_equal(db_log_outcome(db, "ovh", ONOW, true, 10, "https://e",
	    &err), 0);
	assert_int_equal(db_outcomes(db, "linode", &rows, &n, &err), 0);
	/*
	 * The failures of the 30 days before the last record (31 days
	 * ago to yesterday) and 11 successes.
	 */
	assert_int_equal(n, 31 + 11);
	assert_false(rows[0].ok);
	assert_int_equal(rows[0].at, ONOW - ODAY);
	assert_string_equal(rows[0].endpoint, "http://127.0.0.1:1");
	assert_false(rows[30].ok);
	assert_true(rows[31].ok);
	assert_int_equal(rows[31].offers, 54);
	assert_string_equal(rows[31].endpoint, "https://api.linode.com");
	assert_int_equal(rows[41].offers, 44);
	free(rows);
	assert_int_equal(db_outcomes(db, "nosuch", &rows, &n, &err), 0);
	assert_int_equal(n, 0);
	free(rows);
	db_close(db);
}

/*
 * question.regions (MCP's find_offers, issue 48): each folded row names
 * the regions of the offers folded into it, each once, never its own,
 * for the rows given; the rows are the fold's, whichever way answers.
 */
static void
test_answer_regions(void **state)
{
	static const char *const regions[] = {
		"us-east-1", "us-west-2", "us-west-2", "eu-west-1", "us-east-1"
	};
	static const int64_t prices[] = {
		55000000, 56000000, 57000000, 58000000, 59000000
	};
	const char *path = tmp_path("regions.db");
	struct offer v[6];
	struct question q;
	struct answer a;
	struct err err;
	struct db *db;
	size_t i;
	int full;

	(void)state;
	/* p5 in five offers (us-east-1 twice, us-west-2 twice), then g6. */
	for (i = 0; i < 5; i++) {
		v[i] = mk("aws", tstrf("p5/%zu", i), "H100", 8, 80, IC_NVLINK,
		    prices[i], MONEY_NONE, AV_UNKNOWN, 1000);
		v[i].instance_type = "p5.48xlarge";
		v[i].region = regions[i];
	}
	v[5] = mk("aws", "g6/eu-north-1", "L4", 1, 24, IC_PCIE, 900000,
	    MONEY_NONE, AV_UNKNOWN, 1000);
	db = open_ok(path);
	replace_ok(db, "aws", v, 6, SRC_LIVE, 1000, NULL);
	for (full = 0; full < 2; full++) {
		setenv("GPUCOST_DEBUG_FULL_PATH", full ? "1" : "0", 1);
		memset(&q, 0, sizeof q);
		offer_filter_init(&q.filter);
		q.sort = SORT_PRICE;
		q.fold = true;
		q.regions = true;
		answer_init(&a);
		err_clear(&err);
		if (answer_get(db, &q, &a, &err) != 0)
			fail_msg("answer_get: %s", err.msg);
		assert_int_equal(a.nplans, 2);
		assert_string_equal(a.plans[0].offer->key, "g6/eu-north-1");
		assert_int_equal(a.plans[0].other_regions, 0);
		assert_int_equal(a.region_at[1] - a.region_at[0], 0);
		assert_string_equal(a.plans[1].offer->key, "p5/0");
		assert_int_equal(a.plans[1].other_regions, 4);
		assert_int_equal(a.region_at[2] - a.region_at[1], 2);
		assert_string_equal(a.region[a.region_at[1]], "us-west-2");
		assert_string_equal(a.region[a.region_at[1] + 1], "eu-west-1");
		answer_done(&a);

		/* A limit: only the rows given are named (a walk would
		 * count, not name: the full path answers). */
		q.limit = 1;
		q.reverse = true;
		answer_init(&a);
		if (answer_get(db, &q, &a, &err) != 0)
			fail_msg("answer_get: %s", err.msg);
		assert_int_equal(a.nplans, 1);
		assert_string_equal(a.plans[0].offer->key, "p5/4");
		assert_int_equal(a.plans[0].other_regions, 4);
		assert_int_equal(a.region_at[1] - a.region_at[0], 2);
		assert_string_equal(a.region[0], "eu-west-1");
		assert_string_equal(a.region[1], "us-west-2");
		answer_done(&a);
	}
	unsetenv("GPUCOST_DEBUG_FULL_PATH");
	db_close(db);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)
		T(test_open_new),
		T(test_answer_regions),
		T(test_refresh_outcomes),
		T(test_spot_needs_command),
		T(test_open_missing_dir),
		T(test_migrate_from_empty_file),
		T(test_migrate_from_v1),
		T(test_currency_roundtrip),
		T(test_committed_roundtrip),
		T(test_refuse_text_file),
		T(test_refuse_foreign_db),
		T(test_refuse_newer),
		T(test_refuse_directory),
		T(test_refuse_foreign_hot_wal),
		T(test_corrupt_cache),
		T(test_check_out_of_memory),
		T(test_replace_roundtrip),
		T(test_replace_status),
		T(test_replace_history_changes),
		T(test_replace_duplicates),
		T(test_replace_reindexes),
		T(test_replace_other_providers),
		T(test_replace_failure_rolls_back),
		T(test_replace_meta_atomic),
		T(test_replace_merge_differential),
		T(test_stage_offers),
		T(test_replace_many_new),
		T(test_watch_state),
		T(test_watch_offers_unique),
		T(test_watch_store_changes),
		T(test_watch_store_loaded),
		T(test_watch_known_text),
		T(test_migrate_watch_known),
		T(test_watch_list_count),
		T(test_replace_writes_changes),
		T(test_price_from),
		T(test_confirm_offers),
		T(test_reader_not_blocked),
		T(test_long_text_truncated),
		T(test_record_failure),
		T(test_query_filters),
		T(test_query_top_derived),
		T(test_query_nodes_fabric),
		T(test_query_top_walks),
		T(test_query_top_term),
		T(test_query_appends),
		T(test_query_top),
		T(test_filter_in_sql),
		T(test_query_plans),
		T(test_status),
		T(test_history),
		T(test_meta),
		T(test_provider_seed_due),
		T(test_close_defers_small_wal),
		T(test_watch_store_frames),
		T(test_cache_open_seeds),
		T(test_cache_open_keeps_live),
		T(test_cache_open_refuses),
#undef T
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
