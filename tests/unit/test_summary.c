/* test_summary.c: unit tests for summary.c (--group-by) and history.c. */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cost.h"
#include "err.h"
#include "history.h"
#include "money.h"
#include "offer.h"
#include "str.h"
#include "summary.h"
#include "offer_text.h"

#define USD(x)	((int64_t)((x) * 1000000.0 + 0.5))

static void
make_offer(struct offer *o, const char *provider, const char *region,
    const char *gpu, int count, int64_t price, int64_t spot)
{
	offer_init(o);
	o->provider = tstr(provider);
	o->key = tstrf("%s/%s/%d", gpu, region, count);
	o->instance_type = tstr("box");
	o->region = tstr(region);
	o->gpu = tstr(gpu);
	o->gpu_raw = tstr(gpu);
	o->gpu_count = count;
	o->price = price;
	o->spot_price = spot;
}

static void
test_group_by_parse(void **state)
{
	struct group_by g;
	struct err err;

	(void)state;
	assert_int_equal(group_by_parse("gpu", &g, &err), 0);
	assert_int_equal(g.nkeys, 1);
	assert_int_equal(g.keys[0], GROUP_GPU);
	assert_int_equal(group_by_parse("provider, gpu,provider", &g, &err), 0);
	assert_int_equal(g.nkeys, 2);
	assert_int_equal(g.keys[0], GROUP_PROVIDER);
	assert_int_equal(g.keys[1], GROUP_GPU);
	assert_int_equal(group_by_parse("gpu,", &g, &err), -1);
	assert_int_equal(group_by_parse("", &g, &err), -1);
	assert_int_equal(group_by_parse("zone", &g, &err), -1);
	assert_non_null(strstr(err.msg, "--group-by"));
	assert_int_equal(g.nkeys, 2);		/* a bad value changes nothing */
}

static void
test_summary_stats(void **state)
{
	struct offer o[6];
	struct plan p[6];
	struct summary_group *g;
	struct group_by by;
	struct err err;
	size_t n, i;

	(void)state;
	make_offer(&o[0], "aws", "us-east-1", "H100", 8, USD(80), USD(24));
	make_offer(&o[1], "aws", "us-west-2", "H100", 8, USD(96), MONEY_NONE);
	make_offer(&o[2], "gcp", "us-central1", "H100", 8, USD(88), USD(16));
	make_offer(&o[3], "gcp", "us-east4", "H100", 1, USD(12), USD(4));
	make_offer(&o[4], "lambda", "us-east-3", "A100-80", 8, USD(14.32),
	    MONEY_NONE);
	make_offer(&o[5], "lambda", "us-east-3", "H100", 8, MONEY_NONE,
	    MONEY_NONE);
	o[5].spot_price = USD(20);
	for (i = 0; i < 6; i++)
		cost_plan(&p[i], &o[i], 1);
	assert_int_equal(group_by_parse("gpu", &by, &err), 0);
	summary_build(p, 6, &by, false, &g, &n);
	assert_int_equal(n, 2);
	/* A100-80 at $1.79 comes before H100 at $10. */
	assert_string_equal(g[0].values[0], "A100-80");
	assert_int_equal(g[0].offers, 1);
	assert_int_equal(g[0].price.min, USD(1.79));
	assert_string_equal(g[1].values[0], "H100");
	assert_int_equal(g[1].offers, 5);
	/* H100 per GPU-hour: 10, 12, 11, 12 -> median of 4 = (11 + 12) / 2. */
	assert_int_equal(g[1].price.n, 4);
	assert_int_equal(g[1].price.min, USD(10));
	assert_int_equal(g[1].price.median, USD(11.5));
	assert_int_equal(g[1].price.max, USD(12));
	/* Spot: 3, 2, 4, 2.5 -> min 2, median 2.75, max 4. */
	assert_int_equal(g[1].spot.n, 4);
	assert_int_equal(g[1].spot.min, USD(2));
	assert_int_equal(g[1].spot.median, USD(2.75));
	assert_int_equal(g[1].spot.max, USD(4));
	assert_ptr_equal(g[1].cheapest->offer, &o[0]);
	free(g);

	/* Ranked by spot, the cheapest H100 is GCP's 8x at $2. */
	summary_build(p, 6, &by, true, &g, &n);
	assert_string_equal(g[0].values[0], "H100");
	assert_ptr_equal(g[0].cheapest->offer, &o[2]);
	assert_false(money_known(g[1].spot.min));	/* A100-80: no spot */
	free(g);

	/* Two keys: one group per (provider, gpu) pair. */
	assert_int_equal(group_by_parse("provider,gpu", &by, &err), 0);
	summary_build(p, 6, &by, false, &g, &n);
	assert_int_equal(n, 4);
	for (i = 0; i < n; i++)
		if (strcmp(g[i].values[0], "lambda") == 0 &&
		    strcmp(g[i].values[1], "H100") == 0)
			assert_false(money_known(g[i].price.min));
	/* The group without any price comes last. */
	assert_string_equal(g[n - 1].values[0], "lambda");
	assert_string_equal(g[n - 1].values[1], "H100");
	free(g);
	summary_build(p, 0, &by, false, &g, &n);
	assert_int_equal(n, 0);
	free(g);
}

/* A row of a kept summary's walk. */
struct walk_row {
	const char *gpu, *provider, *region, *key;
	int64_t	 price, spot;
};

static struct walk_row *ranked_rows;

static int
cmp_row_kind(const struct walk_row *a, const struct walk_row *b, int kind)
{
	int64_t x = kind == 0 ? a->price : a->spot;
	int64_t y = kind == 0 ? b->price : b->spot;

	/* Unknown last, as the stored sort keys order them. */
	if (money_known(x) != money_known(y))
		return money_known(x) ? -1 : 1;
	return x < y ? -1 : x > y;
}

static int cmp_row_price(const void *a, const void *b)
{
	return cmp_row_kind(a, b, 0);
}

static int cmp_row_spot(const void *a, const void *b)
{
	return cmp_row_kind(a, b, 1);
}

/* The statistics summary_acc_each() gives, one line per group. */
struct each_out {
	char	 text[65536];
	size_t	 len;
};

static int
each_line(const struct summary_group *g, const char *gpu,
    const struct summary_cand *cands, size_t ncands, void *ctx)
{
	struct each_out *o = ctx;
	int n;

	n = snprintf(o->text + o->len, sizeof o->text - o->len,
	    "%s|%s|%s|%s|%s %zu p%zu %lld %lld %lld s%zu %lld %lld %lld c%zu %s\n",
	    g->values[0], g->values[1], g->values[2], g->values[3], gpu,
	    g->offers, g->price.n, (long long)g->price.min,
	    (long long)g->price.median, (long long)g->price.max, g->spot.n,
	    (long long)g->spot.min, (long long)g->spot.median,
	    (long long)g->spot.max, ncands, ncands > 0 ? cands[0].key : "-");
	assert_true(n > 0 && (size_t)n < sizeof o->text - o->len);
	o->len += (size_t)n;
	return 0;
}

/*
 * A ranked accumulator (db_groups_store(): no values kept, the middle
 * ones picked from walks in price order) gives every grouping the
 * groups, counts, minimums, medians (odd and even counts, ties),
 * maximums and candidates the accumulator that keeps every value
 * gives; a walk that misses a value or gives one the count did not
 * see is caught.
 */
static void
test_summary_ranked(void **state)
{
	static const char *const gpus[] = { "H100", "A100-80", "L40S" };
	static const char *const providers[] = { "vast", "aws", "runpod" };
	static const char *const regions[] = { "us-east-1", "eu-west-1",
	    "Germany, DE", "Texas, US", "ap-south-1" };
	static const struct group_by groupings[] = {
		{ { GROUP_GPU }, 1 }, { { GROUP_PROVIDER }, 1 },
		{ { GROUP_REGION }, 1 }, { { GROUP_CONTINENT }, 1 },
		{ { GROUP_GPU, GROUP_PROVIDER }, 2 },
		{ { GROUP_GPU, GROUP_CONTINENT }, 2 },
	};
	static const struct group_by atoms_by = { { GROUP_GPU,
	    GROUP_PROVIDER, GROUP_REGION }, 3 };
	enum { NROWS = 700, NG = sizeof groupings / sizeof groupings[0] };
	struct summary_acc *kept, *atoms, *by[NG], *want;
	static struct each_out got, exp;
	uint32_t seed = 12345;
	size_t i, j, g;
	int kind;

	(void)state;
	ranked_rows = calloc(NROWS, sizeof *ranked_rows);
	assert_non_null(ranked_rows);
	for (i = 0; i < NROWS; i++) {
		struct walk_row *r = &ranked_rows[i];

		seed = seed * 1103515245u + 12345u;
		r->gpu = gpus[(seed >> 8) % 3];
		r->provider = providers[(seed >> 12) % 3];
		/* Some atoms with one offer, one with an even count. */
		r->region = i < 5 ? regions[i] : regions[(seed >> 16) % 4];
		r->key = tstrf("k%04zu", i);
		/* Few distinct prices: ties at the middle. */
		r->price = (seed >> 20) % 9 == 0 ? MONEY_NONE :
		    USD(0.5) + (int64_t)((seed >> 4) % 23) * 10000;
		r->spot = (seed >> 24) % 3 == 0 ? MONEY_NONE :
		    USD(0.2) + (int64_t)((seed >> 6) % 41) * 3000;
	}
	atoms = summary_acc_new(&atoms_by, false);
	summary_acc_least(atoms);
	summary_acc_ranked(atoms);
	kept = summary_acc_new(&atoms_by, false);
	summary_acc_least(kept);
	for (i = 0; i < NROWS; i++) {
		const struct walk_row *r = &ranked_rows[i];

		summary_acc_add(atoms, r->gpu, r->provider, r->region, r->key,
		    r->price, r->spot);
		summary_acc_add(kept, r->gpu, r->provider, r->region, r->key,
		    r->price, r->spot);
	}
	for (g = 0; g < NG; g++)
		by[g] = summary_acc_regroup(atoms, &groupings[g]);
	for (kind = 0; kind < 2; kind++) {
		qsort(ranked_rows, NROWS, sizeof *ranked_rows, kind == 0 ?
		    cmp_row_price : cmp_row_spot);
		for (i = 0; i < NROWS; i++) {
			const struct walk_row *r = &ranked_rows[i];
			int64_t v = kind == 0 ? r->price : r->spot;

			if (!money_known(v))
				break;
			j = summary_acc_rank(atoms, kind, r->gpu, r->provider,
			    r->region, v);
			assert_true(j != SIZE_MAX);
			for (g = 0; g < NG; g++)
				summary_acc_rank_group(by[g], kind, j, v);
		}
	}
	assert_int_equal(summary_acc_ranked_check(atoms), 0);
	/* The atoms themselves, then each grouping. */
	got.len = exp.len = 0;
	assert_int_equal(summary_acc_each(atoms, each_line, &got), 0);
	assert_int_equal(summary_acc_each(kept, each_line, &exp), 0);
	assert_string_equal(got.text, exp.text);
	for (g = 0; g < NG; g++) {
		assert_int_equal(summary_acc_ranked_check(by[g]), 0);
		want = summary_acc_regroup(kept, &groupings[g]);
		got.len = exp.len = 0;
		assert_int_equal(summary_acc_each(by[g], each_line, &got), 0);
		assert_int_equal(summary_acc_each(want, each_line, &exp), 0);
		assert_string_equal(got.text, exp.text);
		summary_acc_free(want);
		summary_acc_free(by[g]);
	}
	/* A value the walk missed; one it gave twice. */
	qsort(ranked_rows, NROWS, sizeof *ranked_rows, cmp_row_price);
	summary_acc_free(atoms);
	atoms = summary_acc_new(&atoms_by, false);
	summary_acc_ranked(atoms);
	for (i = 0; i < NROWS; i++)
		summary_acc_add(atoms, ranked_rows[i].gpu,
		    ranked_rows[i].provider, ranked_rows[i].region,
		    ranked_rows[i].key, ranked_rows[i].price, MONEY_NONE);
	for (i = 1; i < NROWS && money_known(ranked_rows[i].price); i++)
		summary_acc_rank(atoms, 0, ranked_rows[i].gpu,
		    ranked_rows[i].provider, ranked_rows[i].region,
		    ranked_rows[i].price);
	assert_int_equal(summary_acc_ranked_check(atoms), -1);
	summary_acc_rank(atoms, 0, ranked_rows[0].gpu,
	    ranked_rows[0].provider, ranked_rows[0].region,
	    ranked_rows[0].price);
	assert_int_equal(summary_acc_ranked_check(atoms), 0);
	summary_acc_rank(atoms, 0, ranked_rows[0].gpu,
	    ranked_rows[0].provider, ranked_rows[0].region,
	    ranked_rows[0].price);
	assert_int_equal(summary_acc_ranked_check(atoms), -1);
	assert_int_equal(summary_acc_rank(atoms, 0, "T4", "aws", "us-east-1",
	    1), SIZE_MAX);
	summary_acc_free(atoms);
	summary_acc_free(kept);
	free(ranked_rows);
}

static void
test_history_summarise(void **state)
{
	const struct price_point pts[] = {
		{ .at = 100, .price = USD(32), .spot_price = MONEY_NONE,
		    .availability = AV_UNKNOWN },
		{ .at = 1000, .price = USD(24), .spot_price = MONEY_NONE,
		    .availability = AV_AVAILABLE },
		{ .at = 2000, .price = USD(24), .spot_price = MONEY_NONE,
		    .availability = AV_UNAVAILABLE },
		{ .at = 3000, .price = USD(16), .spot_price = MONEY_NONE,
		    .availability = AV_AVAILABLE },
	};
	const int64_t times[] = { 500, 1000, 1500, 2000, 2500, 3000 };
	struct history_stats st;

	(void)state;
	/* From 1500: the point at 1000 is in effect, then 2000 and 3000. */
	history_summarise(pts, 4, 8, 1500, times, 6, &st);
	assert_int_equal(st.first, 1);
	assert_int_equal(st.npoints, 3);
	assert_int_equal(st.min, USD(2));
	assert_int_equal(st.median, USD(3));
	assert_int_equal(st.max, USD(3));
	/* Refreshes 1500 (avail), 2000, 2500 (unavailable), 3000 (avail). */
	assert_int_equal(st.refreshes, 4);
	assert_int_equal(st.available, 2);
	/* From the start: the unknown availability does not count. */
	history_summarise(pts, 4, 8, 0, times, 6, &st);
	assert_int_equal(st.first, 0);
	assert_int_equal(st.npoints, 4);
	assert_int_equal(st.max, USD(4));
	assert_int_equal(st.refreshes, 5);
	/* No points at all. */
	history_summarise(pts, 0, 8, 0, times, 6, &st);
	assert_int_equal(st.npoints, 0);
	assert_false(money_known(st.min));
	assert_int_equal(st.refreshes, 0);
}

static void
test_sparkline_and_duration(void **state)
{
	const struct price_point pts[] = {
		{ .at = 1, .price = USD(1) }, { .at = 2, .price = USD(3) },
		{ .at = 3, .price = USD(2) },
	};
	char buf[64];
	struct err err;
	int64_t d;

	(void)state;
	assert_int_equal(history_sparkline(pts, 3, 16, buf, sizeof buf), 9);
	assert_string_equal(buf, "\xe2\x96\x81\xe2\x96\x88\xe2\x96\x84");
	assert_int_equal(history_sparkline(pts, 3, 2, buf, sizeof buf), 6);
	assert_int_equal(history_sparkline(pts, 0, 16, buf, sizeof buf), 0);
	/* Noise is not magnified: $0.0005 on $2.00 draws a flat line. */
	{
		const struct price_point noise[] = {
			{ .at = 1, .price = 2000000 }, { .at = 2, .price = 2000500 },
			{ .at = 3, .price = 2000000 },
		};
		const struct price_point cut[] = {
			{ .at = 1, .price = USD(10) }, { .at = 2, .price = 8500000 },
		};

		history_sparkline(noise, 3, 16, buf, sizeof buf);
		assert_string_equal(buf,
		    "\xe2\x96\x81\xe2\x96\x81\xe2\x96\x81");
		/* A 15 % cut still reads as one: top to bottom. */
		history_sparkline(cut, 2, 16, buf, sizeof buf);
		assert_string_equal(buf, "\xe2\x96\x88\xe2\x96\x81");
	}
	assert_int_equal(history_parse_duration("30d", &d, &err), 0);
	assert_int_equal(d, 30 * 86400);
	assert_int_equal(history_parse_duration("12h", &d, &err), 0);
	assert_int_equal(d, 12 * 3600);
	assert_int_equal(history_parse_duration("2w", &d, &err), 0);
	assert_int_equal(d, 14 * 86400);
	assert_int_equal(history_parse_duration("90", &d, &err), 0);
	assert_int_equal(d, 90);
	assert_int_equal(history_parse_duration("0d", &d, &err), -1);
	assert_int_equal(history_parse_duration("-1d", &d, &err), -1);
	assert_int_equal(history_parse_duration("5y", &d, &err), -1);
	assert_int_equal(history_parse_duration("", &d, &err), -1);
	assert_int_equal(history_parse_duration("999999999999w", &d, &err), -1);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_group_by_parse),
		cmocka_unit_test(test_summary_stats),
		cmocka_unit_test(test_summary_ranked),
		cmocka_unit_test(test_history_summarise),
		cmocka_unit_test(test_sparkline_and_duration),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
