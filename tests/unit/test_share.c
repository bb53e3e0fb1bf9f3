/*
 * test_share.c: db.c's side of sharing one cache: the published copy
 * (db_publish_copy), opening a downloaded one (db_open_snapshot) and
 * the merge rules (db_merge_from), on real files in a temporary
 * directory.
 */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sqlite3.h>

#include "db.h"
#include "err.h"
#include "offer.h"
#include "provider.h"
#include "committed.h"
#include "str.h"
#include "offer_text.h"

static char tmpdir[1024];

static int
setup(void **state)
{
	(void)state;
	snprintf(tmpdir, sizeof tmpdir, "%s/gpucost-test-share-XXXXXX",
	    getenv("TMPDIR") != NULL && getenv("TMPDIR")[0] != '\0' ?
	    getenv("TMPDIR") : "/tmp");
	return mkdtemp(tmpdir) == NULL ? -1 : 0;
}

static int
teardown(void **state)
{
	char cmd[1200];

	(void)state;
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
	return system(cmd) == 0 ? 0 : -1;
}

static const char *
path_of(const char *name)
{
	static char buf[8][2048];
	static int slot;
	char *p = buf[slot++ % 8];

	snprintf(p, sizeof buf[0], "%s/%s", tmpdir, name);
	unlink(p);	/* each test starts from no file */
	return p;
}

static struct offer
mk(const char *provider, const char *key, int64_t price, int64_t at)
{
	struct offer o;

	offer_init(&o);
	o.provider = tstrf("%s", provider);
	o.key = tstrf("%s", key);
	o.instance_type = tstrf("%s-type", key);
	o.region = tstrf("us-east-1");
	o.gpu = tstrf("H100");
	o.gpu_raw = tstrf("H100 SXM");
	o.gpu_count = 8;
	o.vram_gb = 80;
	o.interconnect = IC_NVLINK;
	o.vcpus = 192;
	o.ram_gb = 2048;
	o.price = price;
	o.availability = AV_AVAILABLE;
	o.fetched_at = at;
	o.source = SRC_LIVE;
	return o;
}

static struct db *
open_ok(const char *path)
{
	struct db *db = NULL;
	struct err err;

	if (db_open(path, &db, &err) != 0)
		fail_msg("db_open(%s): %s", path, err.msg);
	return db;
}

/* Two offers of provider at time at (prices p, p + 1 USD). */
static void
put(struct db *db, const char *provider, int64_t price, int64_t at)
{
	struct offer v[2];
	struct err err;

	v[0] = mk(provider, "a", price, at);
	v[1] = mk(provider, "b", price + 1000000, at);
	if (db_replace_offers(db, provider, v, 2, SRC_LIVE, at, NULL, &err) != 0)
		fail_msg("replace %s: %s", provider, err.msg);
}

/* A SQL answer of path as one text (rows joined by newlines). */
static char *
dump(const char *path, const char *sql)
{
	sqlite3 *s;
	sqlite3_stmt *st;
	size_t len = 0, cap = 1 << 16;
	char *out = calloc(1, cap);
	int i, n;

	assert_int_equal(sqlite3_open_v2(path, &s, SQLITE_OPEN_READONLY, NULL),
	    SQLITE_OK);
	if (sqlite3_prepare_v2(s, sql, -1, &st, NULL) != SQLITE_OK)
		fail_msg("%s: %s", sql, sqlite3_errmsg(s));
	while (sqlite3_step(st) == SQLITE_ROW) {
		n = sqlite3_column_count(st);
		for (i = 0; i < n; i++) {
			const unsigned char *t = sqlite3_column_text(st, i);

			len += (size_t)snprintf(out + len, cap - len, "%s%s",
			    i ? "|" : "", t != NULL ? (const char *)t : "NULL");
			assert_true(len < cap);
		}
		len += (size_t)snprintf(out + len, cap - len, "\n");
	}
	sqlite3_finalize(st);
	sqlite3_close(s);
	return out;
}

static long long
count(const char *path, const char *sql)
{
	char *s = dump(path, sql);
	long long v = atoll(s);

	free(s);
	return v;
}

static void
raw(const char *path, const char *sql)
{
	sqlite3 *s;
	char *msg = NULL;

	assert_int_equal(sqlite3_open_v2(path, &s, SQLITE_OPEN_READWRITE |
	    SQLITE_OPEN_CREATE, NULL), SQLITE_OK);
	if (sqlite3_exec(s, sql, NULL, NULL, &msg) != SQLITE_OK)
		fail_msg("%s: %s", sql, msg);
	sqlite3_close(s);
}

/* The publisher's cache: aws at 1000 (price 2 then 3), vast at 900. */
static void
publisher(const char *cache, const char *copy)
{
	struct db_watch_offer w;
	struct db *db = open_ok(cache);
	struct err err;

	put(db, "aws", 2000000, 500);
	put(db, "aws", 3000000, 1000);
	put(db, "vast", 400000, 900);
	memset(&w, 0, sizeof w);
	w.provider = "aws";
	w.key = "a";
	assert_int_equal(db_watch_store(db, "--gpu H100", &w, 1, 1000, &err), 0);
	assert_int_equal(db_meta_set(db, "@from", "sha256", "abc", &err), 0);
	assert_int_equal(db_meta_set(db, "aws", "version/us-east-1", "v9",
	    &err), 0);
	if (db_publish_copy(db, copy, 1000000, &err) != 0)
		fail_msg("publish copy: %s", err.msg);
	db_close(db);
}

static void
merge_ok(const char *cache, const char *copy, struct db_merge_result *res,
    size_t n)
{
	struct provider_meta m;
	struct db_copy_limits lim;
	struct db *db = open_ok(cache), *snap = NULL;
	struct err err;

	if (db_open_snapshot(copy, &snap, &err) != 0)
		fail_msg("open snapshot: %s", err.msg);
	db_close(snap);
	memset(&lim, 0, sizeof lim);
	lim.now = 1000000;
	snprintf(m.name, sizeof m.name, "sha256");
	snprintf(m.value, sizeof m.value, "feed");
	if (db_merge_from(db, copy, &lim, res, n, "@from", &m, 1, &err) != 0)
		fail_msg("merge: %s", err.msg);
	db_close(db);
}

/* copy of src at dst. */
static void
copy_file(const char *src, const char *dst)
{
	FILE *in = fopen(src, "rb"), *out = fopen(dst, "wb");
	char buf[8192];
	size_t n;

	assert_non_null(in);
	assert_non_null(out);
	while ((n = fread(buf, 1, sizeof buf, in)) > 0)
		assert_int_equal(fwrite(buf, 1, n, out), n);
	fclose(in);
	fclose(out);
}

/* Change the copy with sql: the merge into cache refuses it, no change. */
static void
bogus_refused(const char *cache, const char *copy, const char *sql)
{
	struct db_merge_result res[3];
	struct db_copy_limits lim;
	char *copy2, *before, *after;
	struct db *db;
	struct err err;

	copy2 = malloc(strlen(copy) + 8);
	assert_non_null(copy2);
	sprintf(copy2, "%s.bogus", copy);
	copy_file(copy, copy2);
	raw(copy2, sql);
	before = dump(cache, "SELECT * FROM committed ORDER BY 1, 2");
	db = open_ok(cache);
	memset(&lim, 0, sizeof lim);
	lim.now = 1000000;
	memset(res, 0, sizeof res);
	snprintf(res[0].provider, sizeof res[0].provider, "aws");
	assert_int_equal(db_merge_from(db, copy2, &lim, res, 1, "@from", NULL,
	    0, &err), -1);
	if (strstr(err.msg, "not one gpucost writes") == NULL)
		fail_msg("got \"%s\"", err.msg);
	db_close(db);
	after = dump(cache, "SELECT * FROM committed ORDER BY 1, 2");
	assert_string_equal(before, after);
	free(before);
	free(after);
	unlink(copy2);
	free(copy2);
}

static void
results(struct db_merge_result *res, size_t n)
{
	static const char *const ids[] = { "aws", "vast", "lambda" };
	size_t i;

	memset(res, 0, n * sizeof *res);
	for (i = 0; i < n; i++)
		snprintf(res[i].provider, sizeof res[i].provider, "%s", ids[i]);
}

#define OFFERS	"SELECT * FROM offers ORDER BY provider, key"
#define HISTORY	"SELECT provider, key, observed_at, price, spot_price, " \
		"availability FROM price_history ORDER BY 1, 2, 3"

static void
test_copy_leaves_personal_data(void **state)
{
	const char *cache = path_of("pub.db"), *copy = path_of("copy.db");
	char *a, *b;

	(void)state;
	publisher(cache, copy);
	a = dump(cache, OFFERS);
	b = dump(copy, OFFERS);
	assert_string_equal(a, b);
	free(a);
	free(b);
	assert_int_equal(count(copy, "SELECT count(*) FROM watch"), 0);
	assert_int_equal(count(copy, "SELECT count(*) FROM watch WHERE "
	    "known != ''"), 0);
	assert_int_equal(count(copy, "SELECT count(*) FROM provider_meta "
	    "WHERE provider = '@from'"), 0);
	assert_int_equal(count(copy, "SELECT count(*) FROM provider_meta "
	    "WHERE provider = 'aws'"), 1);
	a = dump(copy, "PRAGMA journal_mode");
	assert_string_equal(a, "delete\n");
	free(a);
	assert_int_equal(count(copy, "PRAGMA user_version"), DB_SCHEMA_VERSION);
	/* The cache itself still has its watch. */
	assert_int_equal(count(cache, "SELECT count(*) FROM watch"), 1);
}

static void
test_merge_into_empty(void **state)
{
	const char *cache = path_of("pub.db"), *copy = path_of("copy.db");
	const char *mine = path_of("mine.db");
	struct db_merge_result res[3];
	char *a, *b;

	(void)state;
	publisher(cache, copy);
	results(res, 3);
	merge_ok(mine, copy, res, 3);
	assert_int_equal(res[0].outcome, DB_MERGE_REPLACED);
	assert_int_equal(res[0].offers, 2);
	assert_int_equal(res[0].history_added, 4);
	assert_int_equal(res[1].outcome, DB_MERGE_REPLACED);
	assert_int_equal(res[2].outcome, DB_MERGE_ABSENT);
	a = dump(cache, OFFERS);
	b = dump(mine, OFFERS);
	assert_string_equal(a, b);
	free(a);
	free(b);
	a = dump(cache, HISTORY);
	b = dump(mine, HISTORY);
	assert_string_equal(a, b);
	free(a);
	free(b);
	a = dump(cache, "SELECT provider, source, last_success, offer_count, "
	    "oldest, newest FROM provider_status ORDER BY 1");
	b = dump(mine, "SELECT provider, source, last_success, offer_count, "
	    "oldest, newest FROM provider_status ORDER BY 1");
	assert_string_equal(a, b);
	free(a);
	free(b);
	/* The settings describing the offers came along; the state too. */
	a = dump(mine, "SELECT provider, name, value FROM provider_meta "
	    "ORDER BY 1, 2");
	assert_string_equal(a, "@from|sha256|feed\naws|version/us-east-1|v9\n");
	free(a);

	/* Again: nothing added twice. */
	results(res, 3);
	merge_ok(mine, copy, res, 3);
	assert_int_equal(res[0].outcome, DB_MERGE_KEPT);
	assert_int_equal(res[0].history_added, 0);
	assert_int_equal(res[1].outcome, DB_MERGE_KEPT);
	a = dump(cache, HISTORY);
	b = dump(mine, HISTORY);
	assert_string_equal(a, b);
	free(a);
	free(b);
	assert_int_equal(count(mine, "SELECT count(*) FROM refresh_log"),
	    count(cache, "SELECT count(*) FROM refresh_log"));
}

/* A newer local provider survives an older copy; an older one goes. */
/*
 * A pulled copy brings its committed prices and their history with its
 * offers, but for those of an offer the copy does not have; a copy
 * holding rows this program would never write (an unknown kind, a price
 * of 0, a term of 99 months) is refused whole, nothing merged (issue 23:
 * a copy's values pass the checks its writer keeps, or none is taken).
 */
static void
test_merge_committed(void **state)
{
	const char *cache = path_of("cpub.db"), *copy = path_of("ccopy.db");
	const char *mine = path_of("cmine.db");
	struct db_merge_result res[3];
	struct offer v[2];
	struct db *db;
	struct err err;
	char *a;

	(void)state;
	db = open_ok(cache);
	v[0] = mk("aws", "a", 21957600, 1000);
	assert_int_equal(tcommitted_add(&v[0], CK_RESERVATION, 12, CU_ALL, 12933790,
	    (int64_t)113300 * MONEY_UNIT), 0);
	v[1] = mk("aws", "b", 3000000, 1000);
	if (db_replace_offers(db, "aws", v, 2, SRC_LIVE, 1000, NULL, &err) != 0)
		fail_msg("replace: %s", err.msg);
	if (db_publish_copy(db, copy, 1000000, &err) != 0)
		fail_msg("publish copy: %s", err.msg);
	db_close(db);
	raw(copy, "INSERT INTO committed VALUES "
	    "('aws', 'gone', 'reservation', 12, 'none', 1000000, 0)");
	results(res, 3);
	merge_ok(mine, copy, res, 3);
	assert_int_equal(res[0].outcome, DB_MERGE_REPLACED);
	a = dump(mine, "SELECT provider, key, kind, months, upfront, "
	    "price_hour, upfront_usd FROM committed ORDER BY 1, 2");
	assert_string_equal(a, "aws|a|reservation|12|all|12933790|"
	    "113300000000\n");
	free(a);
	assert_int_equal(count(mine, "SELECT count(*) FROM committed_history "
	    "WHERE key = 'a' AND observed_at = 1000"), 1);
	/* Again: no history row twice. */
	results(res, 3);
	merge_ok(mine, copy, res, 3);
	assert_int_equal(count(mine, "SELECT count(*) FROM committed_history"),
	    1);
	/* Rows no writer makes: the copy is refused, the cache unchanged. */
	bogus_refused(mine, copy, "INSERT INTO committed VALUES "
	    "('aws', 'b', 'bogus', 12, 'none', 1000000, 0)");
	bogus_refused(mine, copy, "INSERT INTO committed VALUES "
	    "('aws', 'b', 'reservation', 12, 'none', 0, 0)");
	bogus_refused(mine, copy, "INSERT INTO committed VALUES "
	    "('aws', 'b', 'reservation', 99, 'none', 1000000, 0)");
	bogus_refused(mine, copy, "UPDATE committed_history SET "
	    "price_hour = -1");
}

static void
test_newer_local_survives(void **state)
{
	const char *cache = path_of("pub.db"), *copy = path_of("copy.db");
	const char *mine = path_of("mine.db");
	struct db_merge_result res[2];
	struct db *db;
	char *before, *after;

	(void)state;
	publisher(cache, copy);
	db = open_ok(mine);
	put(db, "aws", 5000000, 2000);		/* newer than the copy's 1000 */
	put(db, "vast", 100000, 100);		/* older than the copy's 900 */
	db_close(db);
	before = dump(mine, "SELECT * FROM offers WHERE provider = 'aws' "
	    "ORDER BY key");
	results(res, 2);
	merge_ok(mine, copy, res, 2);
	assert_int_equal(res[0].outcome, DB_MERGE_KEPT);
	assert_int_equal(res[0].published_time, 1000);
	assert_int_equal(res[0].local_time, 2000);
	assert_int_equal(res[1].outcome, DB_MERGE_REPLACED);
	after = dump(mine, "SELECT * FROM offers WHERE provider = 'aws' "
	    "ORDER BY key");
	assert_string_equal(before, after);
	free(before);
	free(after);
	assert_int_equal(count(mine, "SELECT max(newest) FROM provider_status "
	    "WHERE provider = 'aws'"), 2000);
	assert_int_equal(count(mine, "SELECT count(*) FROM offers WHERE "
	    "provider = 'vast' AND price = 400000"), 1);
	/* aws's history gained the copy's observations, in order. */
	after = dump(mine, "SELECT observed_at, price FROM price_history WHERE "
	    "provider = 'aws' AND key = 'a' ORDER BY observed_at");
	assert_string_equal(after, "500|2000000\n1000|3000000\n2000|5000000\n");
	free(after);
	assert_int_equal(count(mine, "SELECT offer_count FROM provider_status "
	    "WHERE provider = 'vast'"), 2);
}

static void
snapshot_refused(const char *copy, const char *want)
{
	struct db *db = NULL;
	struct err err;

	err.msg[0] = '\0';
	assert_int_equal(db_open_snapshot(copy, &db, &err), -1);
	assert_null(db);
	if (strstr(err.msg, want) == NULL)
		fail_msg("got \"%s\", want \"%s\"", err.msg, want);
}

static void
test_snapshot_refusals(void **state)
{
	const char *cache = path_of("pub.db"), *copy = path_of("copy.db");
	const char *other = path_of("other.db");
	char sql[128];
	FILE *f;

	(void)state;
	publisher(cache, copy);
	snprintf(sql, sizeof sql, "PRAGMA user_version = %d",
	    DB_SCHEMA_VERSION + 1);
	raw(copy, sql);
	snapshot_refused(copy, "made by a newer gpucost");

	publisher(cache, path_of("copy.db"));
	raw(copy, "UPDATE offers SET region = 'x' || char(27) || '[2J' "
	    "WHERE key = 'a'");
	snapshot_refused(copy, "control characters");
	publisher(cache, path_of("copy.db"));
	raw(copy, "UPDATE provider_status SET last_error = 'a' || char(155)");
	snapshot_refused(copy, "control characters");


	raw(other, "CREATE TABLE t (x)");
	snapshot_refused(other, "not a gpucost cache");

	f = fopen(path_of("junk.db"), "w");
	assert_non_null(f);
	fputs("this is not a database at all, just text", f);
	fclose(f);
	snapshot_refused(path_of("junk.db"), "");
}

/* A copy whose pages were damaged fails the integrity check. */
static void
test_snapshot_corrupt(void **state)
{
	const char *cache = path_of("pub.db"), *copy = path_of("copy.db");
	struct db *db;
	struct err err;
	long long root;
	FILE *f;
	int i;

	(void)state;
	db = open_ok(cache);
	for (i = 0; i < 40; i++)
		put(db, "aws", 1000000 + i, 1000 + i);
	assert_int_equal(db_publish_copy(db, copy, 1000000, &err), 0);
	db_close(db);
	/* Overwrite a page in the middle of the offers' index. */
	root = count(copy, "SELECT rootpage FROM sqlite_master WHERE name = "
	    "'offers_gpu_price'");
	f = fopen(copy, "r+b");
	assert_non_null(f);
	assert_int_equal(fseek(f, (long)(root - 1) * 4096 + 8, SEEK_SET), 0);
	for (i = 0; i < 64; i++)
		fputc(0xff, f);
	fclose(f);
	snapshot_refused(copy, "integrity check");
}

/*
 * Merge copy into the cache at walk_cache at 1000000: 0, or -1 with
 * err. Every check comes before the merge, so one cache serves them all.
 */
static char walk_cache[2048];

static int
merge_try(const char *copy, struct err *err)
{
	struct db_merge_result res[1];
	struct db_copy_limits lim;
	struct db *db = open_ok(walk_cache);
	int rc;

	memset(&lim, 0, sizeof lim);
	lim.now = 1000000;
	memset(res, 0, sizeof res);
	snprintf(res[0].provider, sizeof res[0].provider, "aws");
	rc = db_merge_from(db, copy, &lim, res, 1, "@from", NULL, 0, err);
	db_close(db);
	return rc;
}

/*
 * Issue 43, item 2: a copy's region holds only what region names hold
 * (offer_region_char_ok()): one a shell would run or glob in completion
 * is refused, naming it; the cache keeps its offers.
 */
static void
test_region_chars(void **state)
{
	static const char *const bad[] = { "zc;touch /tmp/x", "zf*",
	    "a$(id)", "b`id`", "c|d", "e&f", "g>h", "i''j", "k\"l", "m\\n" };
	char cache[2048], copy[2048], sql[256];
	struct err err;
	size_t i;

	(void)state;
	snprintf(cache, sizeof cache, "%s", path_of("pub.db"));
	snprintf(copy, sizeof copy, "%s", path_of("copy.db"));
	snprintf(walk_cache, sizeof walk_cache, "%s", path_of("walk.db"));
	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		unlink(copy);
		publisher(cache, copy);
		snprintf(sql, sizeof sql, "UPDATE offers SET region = '%s' "
		    "WHERE provider = 'aws' AND key = 'a'", bad[i]);
		raw(copy, sql);
		err.msg[0] = '\0';
		assert_int_equal(merge_try(copy, &err), -1);
		if (strstr(err.msg, "region holds a") == NULL)
			fail_msg("%s: got \"%s\"", bad[i], err.msg);
	}
	/* What region names hold is taken. */
	unlink(copy);
	publisher(cache, copy);
	raw(copy, "UPDATE offers SET region = 'Qu\xc3\xa9" "bec, CA (east-1)/a.b:c_d' "
	    "WHERE provider = 'aws' AND key = 'a'");
	assert_int_equal(merge_try(copy, &err), 0);
}

/* A value for one column of a row the walk inserts. */
struct walk_value {
	int	type;		/* SQLITE_NULL, _INTEGER, _FLOAT, _TEXT, _BLOB */
	int64_t	i;
	char	t[512];
	bool	ok;		/* the checks take it */
	bool	named;		/* refused naming its column */
};

static struct walk_value
wv_text(const char *t, bool ok)
{
	struct walk_value v = { .type = SQLITE_TEXT, .ok = ok, .named = true };

	snprintf(v.t, sizeof v.t, "%s", t);
	return v;
}

static struct walk_value
wv_int(int64_t i, bool ok)
{
	struct walk_value v = { .type = SQLITE_INTEGER, .i = i, .ok = ok,
	    .named = true };

	return v;
}

static struct walk_value
wv_other(int type, bool ok)
{
	struct walk_value v = { .type = type, .ok = ok, .named = true };

	return v;
}

/* 'a' n times. */
static struct walk_value
wv_as(size_t n, bool ok)
{
	struct walk_value v = { .type = SQLITE_TEXT, .ok = ok, .named = true };

	assert_true(n < sizeof v.t);
	memset(v.t, 'a', n);
	v.t[n] = '\0';
	return v;
}

/* A value l allows: the other columns of a row the walk inserts. */
static struct walk_value
wv_good(const struct db_column_limit *l)
{
	char w[64];

	switch (l->kind) {
	case DB_COL_TEXT:
		return wv_text("walk", true);
	case DB_COL_WORD:
		snprintf(w, sizeof w, "%s", l->words);
		w[strcspn(w, " ")] = '\0';
		return wv_text(w, true);
	case DB_COL_INTEGER:
		return wv_int(l->min, true);
	case DB_COL_TIME:
		return wv_int(1000, true);
	default:
		return wv_other(SQLITE_NULL, true);
	}
}

/* The values of l to try: the limits themselves, and just past them. */
static size_t
wv_tries(const struct db_column_limit *l, struct walk_value *v)
{
	char w[256], *p, *save;
	size_t n = 0;

	switch (l->kind) {
	case DB_COL_TEXT:
		v[n++] = wv_as(l->size - 1, true);
		v[n++] = wv_as(l->size, false);
		/* Not a number: a text column's affinity makes one text. */
		v[n++] = wv_other(SQLITE_BLOB, false);
		break;
	case DB_COL_WORD:
		snprintf(w, sizeof w, "%s", l->words);
		for (p = strtok_r(w, " ", &save); p != NULL;
		    p = strtok_r(NULL, " ", &save))
			v[n++] = wv_text(p, true);
		v[n++] = wv_text("walk", false);
		v[n++] = wv_other(SQLITE_BLOB, false);
		break;
	case DB_COL_INTEGER:
		v[n++] = wv_int(l->min, true);
		v[n++] = wv_int(l->max, true);
		if (l->min > INT64_MIN)
			v[n++] = wv_int(l->min - 1, false);
		if (l->max < INT64_MAX)
			v[n++] = wv_int(l->max + 1, false);
		v[n++] = wv_other(SQLITE_FLOAT, false);
		/* Not "1": an integer column's affinity makes that 1. */
		v[n++] = wv_text("one", false);
		break;
	case DB_COL_TIME:
		v[n++] = wv_int(0, true);
		v[n++] = wv_int(1000000 + DB_COPY_SKEW, true);
		v[n++] = wv_int(-1, false);
		/* Some tables' times are refused first as "in the future". */
		v[n] = wv_int(1000000 + DB_COPY_SKEW + 1, false);
		v[n++].named = false;
		v[n++] = wv_text("a thousand", false);
		break;
	default:
		v[n++] = wv_text("walk", false);
		break;
	}
	v[n++] = wv_other(SQLITE_NULL, l->null_ok);
	return n;
}

/*
 * Insert into the copy's table a row whose column at is v, every other
 * column a value its row allows. false: the schema itself refused it
 * (NULL in a NOT NULL column), so no copy holds it.
 */
static bool
walk_insert(const char *copy, size_t at, const struct walk_value *v)
{
	const struct db_column_limit *l = &db_column_limits[at], *c;
	struct walk_value good;
	char cols[1024] = "", marks[256] = "", sql[1400];
	sqlite3_stmt *st;
	sqlite3 *s;
	size_t i;
	int k = 0, rc;

	for (i = 0; i < db_column_limit_count; i++) {
		c = &db_column_limits[i];
		if (strcmp(c->table, l->table) != 0)
			continue;
		snprintf(cols + strlen(cols), sizeof cols - strlen(cols),
		    "%s%s", k > 0 ? ", " : "", c->column);
		snprintf(marks + strlen(marks), sizeof marks - strlen(marks),
		    "%s?", k > 0 ? ", " : "");
		k++;
	}
	snprintf(sql, sizeof sql, "INSERT INTO %s (%s) VALUES (%s)", l->table,
	    cols, marks);
	assert_int_equal(sqlite3_open_v2(copy, &s, SQLITE_OPEN_READWRITE,
	    NULL), SQLITE_OK);
	/* A scratch file: no syncs (the walk inserts some 200 rows). */
	assert_int_equal(sqlite3_exec(s, "PRAGMA synchronous = OFF; "
	    "PRAGMA journal_mode = MEMORY", NULL, NULL, NULL), SQLITE_OK);
	if (sqlite3_prepare_v2(s, sql, -1, &st, NULL) != SQLITE_OK)
		fail_msg("%s: %s", sql, sqlite3_errmsg(s));
	k = 0;
	for (i = 0; i < db_column_limit_count; i++) {
		c = &db_column_limits[i];
		if (strcmp(c->table, l->table) != 0)
			continue;
		good = wv_good(c);
		if (i == at)
			good = *v;
		k++;
		if (good.type == SQLITE_TEXT)
			sqlite3_bind_text(st, k, good.t, -1, SQLITE_TRANSIENT);
		else if (good.type == SQLITE_INTEGER)
			sqlite3_bind_int64(st, k, good.i);
		else if (good.type == SQLITE_FLOAT)
			sqlite3_bind_double(st, k, 1.5);
		else if (good.type == SQLITE_BLOB)
			sqlite3_bind_blob(st, k, "walk", 4, SQLITE_STATIC);
		else
			sqlite3_bind_null(st, k);
	}
	rc = sqlite3_step(st);
	if (rc != SQLITE_DONE && rc != SQLITE_CONSTRAINT)
		fail_msg("%s: %s", sql, sqlite3_errmsg(s));
	sqlite3_finalize(st);
	sqlite3_close(s);
	return rc == SQLITE_DONE;
}

/*
 * Issue 43, item 1: the limits a copy is checked against are the table
 * the writers use. Every column of every table a copy carries has its
 * row (or is not merged); a value at each limit is taken by a reader,
 * one past it refused naming the column; and what a writer stores fits.
 */
static void
test_limits_walk(void **state)
{
	/* Tables a merge never reads: offers have offer.h's checks. */
	static const char *const unmerged[] = { "offers", "watch",
	    "refresh_outcome", "offer_terms", "group_summary",
	    "group_cheapest", "group_state" };
	const struct db_column_limit *l;
	char cache[2048], copy[2048], copy2[2048];
	struct walk_value v[16];
	struct err err;
	sqlite3_stmt *st, *ti;
	sqlite3 *s;
	char sql[128], *got;
	size_t i, j, n, tried = 0;
	bool known;

	(void)state;
	/* Kept: path_of()'s buffers are reused after eight calls. */
	snprintf(cache, sizeof cache, "%s", path_of("pub.db"));
	snprintf(copy, sizeof copy, "%s", path_of("copy.db"));
	snprintf(copy2, sizeof copy2, "%s", path_of("copy2.db"));
	snprintf(walk_cache, sizeof walk_cache, "%s", path_of("walk.db"));
	publisher(cache, copy);
	assert_int_equal(merge_try(copy, &err), 0);

	/* The schema against the table, both ways. */
	assert_int_equal(sqlite3_open_v2(copy, &s, SQLITE_OPEN_READONLY, NULL),
	    SQLITE_OK);
	assert_int_equal(sqlite3_prepare_v2(s, "SELECT name FROM sqlite_master "
	    "WHERE type = 'table' AND name NOT LIKE 'sqlite_%'", -1, &st, NULL),
	    SQLITE_OK);
	while (sqlite3_step(st) == SQLITE_ROW) {
		const char *t = (const char *)sqlite3_column_text(st, 0);

		known = false;
		for (j = 0; j < sizeof unmerged / sizeof unmerged[0]; j++)
			known |= strcmp(t, unmerged[j]) == 0;
		if (known)
			continue;
		snprintf(sql, sizeof sql, "SELECT name FROM pragma_table_info("
		    "'%s')", t);
		assert_int_equal(sqlite3_prepare_v2(s, sql, -1, &ti, NULL),
		    SQLITE_OK);
		n = 0;
		while (sqlite3_step(ti) == SQLITE_ROW) {
			const char *c = (const char *)sqlite3_column_text(ti, 0);

			if (db_column_limit(t, c) == NULL)
				fail_msg("%s.%s: no row in db_column_limits[] "
				    "(db_limits.c)", t, c);
			n++;
		}
		sqlite3_finalize(ti);
		for (i = 0; i < db_column_limit_count; i++)
			n -= strcmp(db_column_limits[i].table, t) == 0;
		if (n != 0)
			fail_msg("%s: db_column_limits[] names a column it "
			    "does not have", t);
	}
	sqlite3_finalize(st);
	sqlite3_close(s);

	/* Each column: its limits taken, just past them refused. */
	for (i = 0; i < db_column_limit_count; i++) {
		l = &db_column_limits[i];
		n = wv_tries(l, v);
		assert_true(n <= sizeof v / sizeof v[0]);
		for (j = 0; j < n; j++) {
			copy_file(copy, copy2);
			if (!walk_insert(copy2, i, &v[j])) {
				if (v[j].ok)
					fail_msg("%s.%s: a value it allows "
					    "does not fit the schema", l->table,
					    l->column);
				continue;
			}
			tried++;
			if (v[j].ok) {
				if (merge_try(copy2, &err) != 0)
					fail_msg("%s.%s, value %zu: refused: %s",
					    l->table, l->column, j, err.msg);
				continue;
			}
			if (merge_try(copy2, &err) == 0)
				fail_msg("%s.%s, value %zu: taken", l->table,
				    l->column, j);
			snprintf(sql, sizeof sql, "(%s: ", l->column);
			if (v[j].named && strstr(err.msg, sql) == NULL)
				fail_msg("%s.%s, value %zu: \"%s\"", l->table,
				    l->column, j, err.msg);
		}
	}
	assert_true(tried > 3 * db_column_limit_count);

	/* The words are those the writers write. */
	l = db_column_limit("price_history", "availability");
	for (i = AV_UNKNOWN; i <= AV_UNAVAILABLE; i++)
		assert_non_null(strstr(l->words, availability_name(i)));
	for (i = 0; i < CK_COUNT; i++)
		assert_non_null(strstr(db_column_limit("committed",
		    "kind")->words, committed_kind_name(i)));
	for (i = 0; i < CU_COUNT; i++)
		assert_non_null(strstr(db_column_limit("committed",
		    "upfront")->words, committed_upfront_name(i)));
	/* What a refresh wrote (the sort keys' version ...) fits. */
	got = dump(cache, "SELECT max(length(CAST(sort_keys AS BLOB))) FROM "
	    "provider_status");
	assert_true(atoll(got) > 0 && (size_t)atoll(got) <
	    db_column_limit("provider_status", "sort_keys")->size);
	free(got);
}

/*
 * Issue 43, item 1: an error longer than a reader accepts (Azure's carry
 * their long filter URL) is cut when written, never inside a UTF-8
 * character; a copy of an older cache holding one is cut too; publish
 * refuses a copy its readers would refuse.
 */
static void
test_long_errors(void **state)
{
	const struct db_column_limit *l;
	char cache[2048], copy[2048], error[400], *got;
	struct err err;
	struct db *db;
	size_t i, len;

	(void)state;
	snprintf(cache, sizeof cache, "%s", path_of("pub.db"));
	snprintf(copy, sizeof copy, "%s", path_of("copy.db"));
	snprintf(walk_cache, sizeof walk_cache, "%s", path_of("walk.db"));
	l = db_column_limit("provider_status", "last_error");
	assert_non_null(l);
	assert_true(l->cut);
	/* "é" (2 bytes) from an odd offset: a cut at size - 1 splits one. */
	len = (size_t)snprintf(error, sizeof error, "/api/retail/prices?$filter=");
	for (i = len; i + 2 < sizeof error - 1; i += 2)
		memcpy(error + i, "\xc3\xa9", 2);
	error[i] = '\0';
	assert_true(strlen(error) >= l->size);
	db = open_ok(cache);
	put(db, "aws", 2000000, 500);
	put(db, "azure", 2000000, 500);
	assert_int_equal(db_record_failure(db, "azure", 900, error, &err), 0);
	db_close(db);
	got = dump(cache, "SELECT last_error FROM provider_status WHERE "
	    "provider = 'azure'");
	got[strcspn(got, "\n")] = '\0';
	assert_true(strlen(got) < l->size);
	assert_true(strlen(got) >= l->size - 5);
	assert_true(str_is_clean(got));
	assert_string_equal(got + strlen(got) - 3, "...");
	assert_memory_equal(got, error, strlen(got) - 3);
	free(got);
	db = open_ok(cache);
	assert_int_equal(db_publish_copy(db, copy, 1000000, &err), 0);
	db_close(db);
	assert_int_equal(merge_try(copy, &err), 0);

	/* An older gpucost's longer error: the copy's is cut. */
	raw(cache, "UPDATE provider_status SET last_error = printf('%.300c', "
	    "'x') || 'é' WHERE provider = 'azure'");
	db = open_ok(cache);
	unlink(copy);
	assert_int_equal(db_publish_copy(db, copy, 1000000, &err), 0);
	db_close(db);
	assert_int_equal(count(cache, "SELECT length(last_error) FROM "
	    "provider_status WHERE provider = 'azure'"), 301);
	assert_int_equal(count(copy, "SELECT length(CAST(last_error AS BLOB)) "
	    "FROM provider_status WHERE provider = 'azure'"), l->size - 1);
	assert_int_equal(merge_try(copy, &err), 0);

	/* A row no reader takes: publish refuses the copy, in one line. */
	raw(cache, "UPDATE provider_status SET source = 'elsewhere' WHERE "
	    "provider = 'aws'");
	db = open_ok(cache);
	unlink(copy);
	assert_int_equal(db_publish_copy(db, copy, 1000000, &err), -1);
	db_close(db);
	if (strstr(err.msg, "would be refused by every reader") == NULL ||
	    strstr(err.msg, "(source: not one of live, snapshot)") == NULL ||
	    strchr(err.msg, '\n') != NULL)
		fail_msg("got \"%s\"", err.msg);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_copy_leaves_personal_data),
		cmocka_unit_test(test_merge_into_empty),
		cmocka_unit_test(test_merge_committed),
		cmocka_unit_test(test_newer_local_survives),
		cmocka_unit_test(test_snapshot_refusals),
		cmocka_unit_test(test_snapshot_corrupt),
		cmocka_unit_test(test_limits_walk),
		cmocka_unit_test(test_region_chars),
		cmocka_unit_test(test_long_errors),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
