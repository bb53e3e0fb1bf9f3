/* test_columns.c: unit tests for columns.c (human-readable table cells). */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "columns.h"
#include "cost.h"
#include "gpu.h"
#include "layout.h"
#include "money.h"
#include "offer.h"
#include "str.h"
#include "offer_text.h"

#define NOW	INT64_C(1700000000)

/* An 8x H100 SXM offer at AWS fetched five minutes before NOW. */
static void
make_offer(struct offer *o, const char *gpu, int count, int64_t price,
    int64_t spot)
{
	offer_init(o);
	o->provider = tstr("aws");
	o->key = tstr("p5.48xlarge/us-east-1");
	o->instance_type = tstr("p5.48xlarge");
	o->region = tstr("us-east-1");
	o->gpu = tstr(gpu);
	o->gpu_raw = tstr(gpu[0] != '\0' ? "NVIDIA H100 80GB HBM3" : "Mystery X");
	o->gpu_count = count;
	o->vram_gb = 80;
	o->interconnect = IC_NVLINK;
	o->price = price;
	o->spot_price = spot;
	o->availability = AV_AVAILABLE;
	o->fetched_at = NOW - 300;
}

/* Cell c of plan p must read want, and the length returned match. */
static void
cell_is(enum column c, const struct plan *p, const struct column_ctx *ctx,
    const char *want)
{
	char buf[128];
	size_t n;

	memset(buf, 'X', sizeof buf);
	n = column_cell(c, p, ctx, buf, sizeof buf);
	if (strcmp(buf, want) != 0)
		fail_msg("column %s: \"%s\", want \"%s\"", column_info[c].header,
		    buf, want);
	assert_int_equal(n, strlen(want));
}

static void
money_is(int64_t micro, const char *want)
{
	char buf[64];
	size_t n;

	memset(buf, 'X', sizeof buf);
	n = column_money(micro, buf, sizeof buf);
	assert_string_equal(buf, want);
	assert_int_equal(n, strlen(want));
}

static void
age_is(int64_t seconds, const char *want)
{
	char buf[32];
	size_t n;

	memset(buf, 'X', sizeof buf);
	n = column_age(seconds, buf, sizeof buf);
	assert_string_equal(buf, want);
	assert_int_equal(n, strlen(want));
}

/*
 * Issue 48: a price per hour has four decimals in every answer, whatever
 * the other rows hold ("5.5600", never "5.56" in one run and "5.560" in
 * another).
 */
static void
test_money_decimals(void **state)
{
	(void)state;
	money_is(1000000, "1.0000");
	money_is(1100000, "1.1000");
	money_is(1230000, "1.2300");
	money_is(0, "0.0000");
	money_is(98320000, "98.3200");
	money_is(5000000000LL, "5000.0000");
	money_is(5560000, "5.5600");
	money_is(1234000, "1.2340");
	money_is(1234500, "1.2345");
	money_is(32772600, "32.7726");
	money_is(4916250, "4.9163");
	money_is(100, "0.0001");
}

static void
test_money_rounding(void **state)
{
	(void)state;
	/* Rounded half up at the fifth decimal. */
	money_is(1234550, "1.2346");
	money_is(1234549, "1.2345");
	money_is(2456789, "2.4568");
	money_is(1171525, "1.1715");
	money_is(50, "0.0001");
	money_is(49, "0.0000");
	money_is(1, "0.0000");
	money_is(9999950, "10.0000");
	money_is(9999949, "9.9999");
	money_is(3333333, "3.3333");
	money_is(6666667, "6.6667");
	money_is(1999999999LL, "2000.0000");
}

static void
test_money_unknown_and_negative(void **state)
{
	(void)state;
	money_is(MONEY_NONE, "-");
	money_is(-1500000, "-1.5000");
	money_is(-1234550, "-1.2346");
}

static void
test_money_small_buffer(void **state)
{
	char buf[8];

	(void)state;
	memset(buf, 'X', sizeof buf);
	column_money(98320000, buf, 4);
	assert_string_equal(buf, "98.");
	assert_int_equal(buf[4], 'X');
	memset(buf, 'X', sizeof buf);
	column_money(MONEY_NONE, buf, 1);
	assert_string_equal(buf, "");
}

static void
test_age(void **state)
{
	(void)state;
	age_is(0, "0m");
	age_is(59, "0m");
	age_is(60, "1m");
	age_is(300, "5m");
	age_is(3599, "59m");
	age_is(3600, "1h");
	age_is(3 * 3600, "3h");
	age_is(3 * 3600 + 3599, "3h");
	age_is(12 * 86400, "12d");
	age_is(12 * 86400 + 86399, "12d");
	age_is(400 * 86400, "400d");
}

static void
test_cells_names(void **state)
{
	struct column_ctx ctx = { NOW, -1 };
	struct offer o;
	struct plan p;

	(void)state;
	make_offer(&o, "H100", 8, 98320000, 39330000);
	cost_plan(&p, &o, 1);
	cell_is(COL_PROVIDER, &p, &ctx, "aws");
	cell_is(COL_INSTANCE, &p, &ctx, "p5.48xlarge");
	cell_is(COL_REGION, &p, &ctx, "us-east-1");
	cell_is(COL_GPU, &p, &ctx, "8x H100");
	cell_is(COL_VRAM, &p, &ctx, "80G");
	cell_is(COL_LINK, &p, &ctx, "nvlink");
	cell_is(COL_AVAIL, &p, &ctx, "yes");
	cell_is(COL_AGE, &p, &ctx, "5m");
}

static void
test_cells_gpu(void **state)
{
	struct column_ctx ctx = { NOW, -1 };
	struct offer o;
	struct plan p;

	(void)state;
	make_offer(&o, "H100", 8, 98320000, MONEY_NONE);
	cost_plan(&p, &o, 2);
	cell_is(COL_GPU, &p, &ctx, "2 nodes x 8 H100");
	make_offer(&o, "H100", 1, 2490000, MONEY_NONE);
	cost_plan(&p, &o, 1);
	cell_is(COL_GPU, &p, &ctx, "1x H100");
	cost_plan(&p, &o, 8);
	cell_is(COL_GPU, &p, &ctx, "8 nodes x 1 H100");
	/* Unknown GPU: the provider's name, marked with "?". */
	make_offer(&o, "", 4, 4000000, MONEY_NONE);
	cost_plan(&p, &o, 1);
	cell_is(COL_GPU, &p, &ctx, "4x Mystery X?");
	cost_plan(&p, &o, 2);
	cell_is(COL_GPU, &p, &ctx, "2 nodes x 4 Mystery X?");
}

static void
test_cells_vram_link_avail(void **state)
{
	struct column_ctx ctx = { NOW, -1 };
	struct offer o;
	struct plan p;

	(void)state;
	make_offer(&o, "H100", 8, 98320000, MONEY_NONE);
	o.vram_gb = 0;
	o.interconnect = IC_PCIE;
	o.availability = AV_LIMITED;
	cost_plan(&p, &o, 1);
	cell_is(COL_VRAM, &p, &ctx, "-");
	cell_is(COL_LINK, &p, &ctx, "pcie");
	cell_is(COL_AVAIL, &p, &ctx, "low");
	o.vram_gb = 141;
	o.interconnect = IC_UNKNOWN;
	o.availability = AV_UNAVAILABLE;
	cell_is(COL_VRAM, &p, &ctx, "141G");
	cell_is(COL_LINK, &p, &ctx, "-");
	cell_is(COL_AVAIL, &p, &ctx, "no");
	o.availability = AV_UNKNOWN;
	cell_is(COL_AVAIL, &p, &ctx, "?");
}

static void
test_cells_prices(void **state)
{
	struct column_ctx ctx = { NOW, -1 };
	struct offer o;
	struct plan p;

	(void)state;
	make_offer(&o, "H100", 8, 98320000, 39330000);
	cost_plan(&p, &o, 1);
	cell_is(COL_PRICE, &p, &ctx, "98.3200");
	cell_is(COL_GPU_PRICE, &p, &ctx, "12.2900");
	cell_is(COL_SPOT, &p, &ctx, "39.3300");
	cell_is(COL_SPOT_GPU, &p, &ctx, "4.9163");	/* 4.91625 */
	/* Two nodes: instance prices double, per-GPU prices stay. */
	cost_plan(&p, &o, 2);
	cell_is(COL_PRICE, &p, &ctx, "196.6400");
	cell_is(COL_GPU_PRICE, &p, &ctx, "12.2900");
	cell_is(COL_SPOT, &p, &ctx, "78.6600");
	cell_is(COL_SPOT_GPU, &p, &ctx, "4.9163");
	/* Many decimals rounded to four. */
	make_offer(&o, "H100", 1, 2456789, MONEY_NONE);
	cost_plan(&p, &o, 1);
	cell_is(COL_PRICE, &p, &ctx, "2.4568");
	cell_is(COL_GPU_PRICE, &p, &ctx, "2.4568");
	/* Unknown prices. */
	cell_is(COL_SPOT, &p, &ctx, "-");
	cell_is(COL_SPOT_GPU, &p, &ctx, "-");
	make_offer(&o, "H100", 8, MONEY_NONE, 40000000);
	cost_plan(&p, &o, 1);
	cell_is(COL_PRICE, &p, &ctx, "-");
	cell_is(COL_GPU_PRICE, &p, &ctx, "-");
	cell_is(COL_SPOT, &p, &ctx, "40.0000");
	cell_is(COL_SPOT_GPU, &p, &ctx, "5.0000");
}

static void
test_cells_savings(void **state)
{
	struct column_ctx ctx = { NOW, -1 };
	struct offer o;
	struct plan p;

	(void)state;
	make_offer(&o, "H100", 8, 10000000, 3800000);
	cost_plan(&p, &o, 1);
	cell_is(COL_SAVINGS, &p, &ctx, "62%");
	make_offer(&o, "H100", 8, 98320000, 40000000);	/* 59.32 % */
	cost_plan(&p, &o, 1);
	cell_is(COL_SAVINGS, &p, &ctx, "59%");
	make_offer(&o, "H100", 8, 4000000, 4400000);	/* -10 % */
	cost_plan(&p, &o, 1);
	cell_is(COL_SAVINGS, &p, &ctx, "-10%");
	make_offer(&o, "H100", 8, 4000000, 4000000);
	cost_plan(&p, &o, 1);
	cell_is(COL_SAVINGS, &p, &ctx, "0%");
	make_offer(&o, "H100", 8, 4000000, MONEY_NONE);
	cost_plan(&p, &o, 1);
	cell_is(COL_SAVINGS, &p, &ctx, "-");
	make_offer(&o, "H100", 8, MONEY_NONE, 4000000);
	cost_plan(&p, &o, 1);
	cell_is(COL_SAVINGS, &p, &ctx, "-");
}

static void
test_cells_pflop(void **state)
{
	const struct gpu_model *m = gpu_find("H100");
	struct column_ctx ctx = { NOW, -1 };
	struct offer o;
	struct plan p;
	char want[32];

	(void)state;
	assert_non_null(m);
	/* $2.00 per GPU-hour on an H100 SXM: 2 / (TFLOPS / 1000). */
	make_offer(&o, "H100", 8, 16000000, MONEY_NONE);
	cost_plan(&p, &o, 1);
	snprintf(want, sizeof want, "%.2f", 2.0 / (m->bf16_tflops / 1000.0));
	cell_is(COL_PFLOP, &p, &ctx, want);
	/* PCIe form: its own figure. */
	o.interconnect = IC_PCIE;
	cost_plan(&p, &o, 1);
	snprintf(want, sizeof want, "%.2f",
	    2.0 / (gpu_bf16_tflops(m, 1) / 1000.0));
	cell_is(COL_PFLOP, &p, &ctx, want);
	/* Unknown GPU or unknown price. */
	make_offer(&o, "", 8, 16000000, MONEY_NONE);
	cost_plan(&p, &o, 1);
	cell_is(COL_PFLOP, &p, &ctx, "-");
	make_offer(&o, "H100", 8, MONEY_NONE, 16000000);
	cost_plan(&p, &o, 1);
	cell_is(COL_PFLOP, &p, &ctx, "-");
}

static void
test_cells_age(void **state)
{
	struct column_ctx ctx = { NOW, -1 };
	struct offer o;
	struct plan p;

	(void)state;
	make_offer(&o, "H100", 8, 98320000, MONEY_NONE);
	cost_plan(&p, &o, 1);
	o.fetched_at = NOW - 3 * 3600;
	cell_is(COL_AGE, &p, &ctx, "3h");
	o.fetched_at = NOW - 12 * 86400;
	cell_is(COL_AGE, &p, &ctx, "12d");
	o.fetched_at = NOW;
	cell_is(COL_AGE, &p, &ctx, "0m");
}

static void
test_cells_totals(void **state)
{
	struct column_ctx ctx = { NOW, 10 };
	struct offer o;
	struct plan p;

	(void)state;
	make_offer(&o, "H100", 8, 98320000, 39330000);
	cost_plan(&p, &o, 1);
	cell_is(COL_TOTAL, &p, &ctx, "983.20");
	cell_is(COL_SPOT_TOTAL, &p, &ctx, "393.30");
	/* The totals are for all nodes. */
	cost_plan(&p, &o, 2);
	cell_is(COL_TOTAL, &p, &ctx, "1,966.40");
	cell_is(COL_SPOT_TOTAL, &p, &ctx, "786.60");
	/* Fractional hours, rounded to cents for display. */
	ctx.hours = 1.5;
	make_offer(&o, "H100", 1, 2456789, MONEY_NONE);
	cost_plan(&p, &o, 1);
	cell_is(COL_TOTAL, &p, &ctx, "3.69");	/* 3.6851835: cents */
	cell_is(COL_SPOT_TOTAL, &p, &ctx, "-");
	/* No job length: no totals. */
	ctx.hours = -1;
	cell_is(COL_TOTAL, &p, &ctx, "-");
}


static void
test_total_separators(void **state)
{
	char buf[32];

	(void)state;
	column_total(7209290200, buf, sizeof buf);
	assert_string_equal(buf, "7,209.29");
	column_total(1234567890000, buf, sizeof buf);
	assert_string_equal(buf, "1,234,567.89");
	column_total(999994999, buf, sizeof buf);
	assert_string_equal(buf, "999.99");
	column_total(999995000, buf, sizeof buf);
	assert_string_equal(buf, "1,000.00");
	column_total(100000000000, buf, sizeof buf);
	assert_string_equal(buf, "100,000.00");
	column_total(-1234000000, buf, sizeof buf);
	assert_string_equal(buf, "-1,234.00");
	column_total(MONEY_NONE, buf, sizeof buf);
	assert_string_equal(buf, "-");
	column_total(1234567890000, buf, 6);
	assert_string_equal(buf, "1,234");
}

static void
test_cell_empty_and_range(void **state)
{
	char buf[64];

	(void)state;
	assert_true(column_cell_empty("-"));
	assert_true(column_cell_empty("?"));
	assert_true(column_cell_empty(""));
	assert_false(column_cell_empty("0"));
	/* A folded row's prices, at the table's decimals. */
	column_range(6880000, 9494400, buf, sizeof buf);
	assert_string_equal(buf, "6.8800-9.4944");
	column_range(2890000, 2890000, buf, sizeof buf);
	assert_string_equal(buf, "2.8900");
	/* "any region" is one name everywhere (issue 48). */
	assert_string_equal(column_region("all"), "any region");
	assert_string_equal(column_region("us-east-1"), "us-east-1");
}

/* Is column c shown in lay[] of cols[0..n)? */
static bool
fit_shown(const enum column *cols, size_t n, const struct layout_column *lay,
    enum column c)
{
	size_t j;

	for (j = 0; j < n; j++)
		if (cols[j] == c)
			return lay[j].shown;
	fail_msg("column %s not in the table", column_info[c].header);
	return false;
}

/* A table of every column (the totals with hours), headers' widths. */
static size_t
fit_table(enum column *cols, size_t *want, bool *empty, bool *same,
    bool hours)
{
	size_t n = 0;
	int c;

	for (c = 0; c < COLUMN_COUNT; c++) {
		if (!hours && (c == COL_TOTAL || c == COL_SPOT_TOTAL ||
		    c == COL_TERM_TOTAL))
			continue;
		/* As a table shows them without --term and --train. */
		if (column_is_term((enum column)c) || c == COL_FABRIC ||
		    c == COL_NODE_GBPS || column_is_train((enum column)c))
			continue;
		cols[n] = (enum column)c;
		want[n] = str_width(column_info[c].header);
		if (c == COL_INSTANCE)
			want[n] = 23;	/* "4x_A100-80GB-SXM_SECURE" */
		else if (c == COL_REGION)
			want[n] = 15;	/* "asia-southeast1" */
		else if (c == COL_GPU)
			want[n] = 10;	/* "4x A100-80" */
		else if (c == COL_LINK)
			want[n] = 6;	/* "nvlink" */
		else if (c == COL_TOTAL)
			want[n] = 8;	/* "1,664.64" */
		empty[n] = false;
		same[n] = false;
		n++;
	}
	return n;
}

/* The table at 80 columns keeps what a buyer needs. */
static void
test_columns_fit(void **state)
{
	enum column cols[COLUMN_COUNT];
	size_t want[COLUMN_COUNT], n, j, used;
	bool empty[COLUMN_COUNT], same[COLUMN_COUNT];
	struct layout_column lay[COLUMN_COUNT];

	(void)state;
	n = fit_table(cols, want, empty, same, false);
	/* A row with a note keeps NOTE at 80 columns (issue 25). */
	used = columns_fit(cols, n, want, empty, same, SORT_GPU_PRICE, lay, 80);
	assert_true(used <= 80);
	assert_true(fit_shown(cols, n, lay, COL_NOTES));
	/* Without notes: the price, what it buys, where, how fresh. */
	for (j = 0; j < n; j++)
		if (cols[j] == COL_NOTES)
			empty[j] = true;
	used = columns_fit(cols, n, want, empty, same, SORT_GPU_PRICE, lay, 80);
	assert_true(used <= 80);
	assert_true(fit_shown(cols, n, lay, COL_PROVIDER));
	assert_true(fit_shown(cols, n, lay, COL_INSTANCE));
	assert_true(fit_shown(cols, n, lay, COL_REGION));
	assert_true(fit_shown(cols, n, lay, COL_GPU));
	assert_true(fit_shown(cols, n, lay, COL_GPU_PRICE));
	assert_true(fit_shown(cols, n, lay, COL_AGE));
	/* Names whole: no column is cut (issue 45). */
	for (j = 0; j < n; j++)
		if (lay[j].shown)
			assert_int_equal(lay[j].width, want[j]);
	/* The sort column stays, whatever its priority. */
	columns_fit(cols, n, want, empty, same, SORT_PFLOP, lay, 80);
	assert_true(fit_shown(cols, n, lay, COL_PFLOP));
	/* An empty column goes before any other. */
	for (j = 0; j < n; j++)
		empty[j] = cols[j] == COL_SPOT_GPU;
	columns_fit(cols, n, want, empty, same, SORT_GPU_PRICE, lay, 120);
	assert_false(fit_shown(cols, n, lay, COL_SPOT_GPU));
	/* No limit: everything. */
	columns_fit(cols, n, want, empty, same, SORT_GPU_PRICE, lay, 0);
	for (j = 0; j < n; j++)
		assert_true(lay[j].shown);
}

/*
 * Issue 45: rank the columns by what a buyer decides on. At 120 columns
 * the age of the price stays while CPU/GPU goes; with --hours both
 * totals stay at 80 ("spot or on demand?"); a GPUs column that says the
 * same in every row goes before the region.
 */
static void
test_columns_width_policy(void **state)
{
	enum column cols[COLUMN_COUNT];
	size_t want[COLUMN_COUNT], n, j;
	bool empty[COLUMN_COUNT], same[COLUMN_COUNT];
	struct layout_column lay[COLUMN_COUNT];

	(void)state;
	n = fit_table(cols, want, empty, same, false);
	columns_fit(cols, n, want, empty, same, SORT_GPU_PRICE, lay, 120);
	assert_true(fit_shown(cols, n, lay, COL_AGE));
	assert_false(fit_shown(cols, n, lay, COL_VCPUS_GPU));
	assert_false(fit_shown(cols, n, lay, COL_RANGE));
	n = fit_table(cols, want, empty, same, true);
	columns_fit(cols, n, want, empty, same, SORT_GPU_PRICE, lay, 80);
	assert_true(fit_shown(cols, n, lay, COL_TOTAL));
	assert_true(fit_shown(cols, n, lay, COL_SPOT_TOTAL));
	assert_true(fit_shown(cols, n, lay, COL_INSTANCE));
	/* Ranked by spot, the same. */
	columns_fit(cols, n, want, empty, same, SORT_SPOT_GPU, lay, 80);
	assert_true(fit_shown(cols, n, lay, COL_TOTAL));
	assert_true(fit_shown(cols, n, lay, COL_SPOT_TOTAL));
	/* No spot price in any row: its total goes first. */
	for (j = 0; j < n; j++)
		empty[j] = cols[j] == COL_SPOT_TOTAL;
	columns_fit(cols, n, want, empty, same, SORT_GPU_PRICE, lay, 80);
	assert_false(fit_shown(cols, n, lay, COL_SPOT_TOTAL));
	/* Every row "4x A100-80": GPUS goes before REGION. */
	n = fit_table(cols, want, empty, same, false);
	for (j = 0; j < n; j++)
		same[j] = cols[j] == COL_GPU;
	want[1] = 26;
	columns_fit(cols, n, want, empty, same, SORT_GPU_PRICE, lay, 80);
	assert_true(fit_shown(cols, n, lay, COL_REGION));
	assert_false(fit_shown(cols, n, lay, COL_GPU));
	/*
	 * Narrower than what is never dropped: the GPUs go first, the price
	 * and the provider last (never the price for a name).
	 */
	for (j = 0; j < n; j++)
		same[j] = false;
	want[1] = 28;
	want[3] = 14;
	columns_fit(cols, n, want, empty, same, SORT_GPU_PRICE, lay, 59);
	assert_true(fit_shown(cols, n, lay, COL_GPU_PRICE));
	assert_true(fit_shown(cols, n, lay, COL_INSTANCE));
	assert_false(fit_shown(cols, n, lay, COL_GPU));
	columns_fit(cols, n, want, empty, same, SORT_GPU_PRICE, lay, 30);
	assert_true(fit_shown(cols, n, lay, COL_GPU_PRICE));
	assert_true(fit_shown(cols, n, lay, COL_PROVIDER));
	assert_false(fit_shown(cols, n, lay, COL_INSTANCE));
}

static void
test_cells_host_and_regions(void **state)
{
	struct column_ctx ctx = { NOW, -1 };
	struct offer o;
	struct plan p;

	(void)state;
	make_offer(&o, "H100", 8, 98320000, MONEY_NONE);
	cost_plan(&p, &o, 1);
	cell_is(COL_VCPUS_GPU, &p, &ctx, "-");
	cell_is(COL_RAM_GPU, &p, &ctx, "-");
	o.vcpus = 192;
	o.ram_gb = 2048;
	cell_is(COL_VCPUS_GPU, &p, &ctx, "24.0");
	cell_is(COL_RAM_GPU, &p, &ctx, "256G");
	o.vcpus = 12;
	cell_is(COL_VCPUS_GPU, &p, &ctx, "1.5");
	p.other_regions = 16;
	o.region = tstr("us-east-1");
	cell_is(COL_REGION, &p, &ctx, "us-east-1 +16");
}

static void
test_column_info(void **state)
{
	size_t c;

	(void)state;
	for (c = 0; c < COLUMN_COUNT; c++) {
		assert_non_null(column_info[c].header);
		/*
		 * A header is never cut: a flexible column's minimum holds
		 * it (a fixed column is never narrower than its header).
		 */
		if (column_info[c].flexible)
			assert_true(column_info[c].min >=
			    str_width(column_info[c].header));
		assert_true(column_info[c].min >= 1);
		assert_true(column_info[c].priority >= 0);
		assert_true((int)column_info[c].sort >= 0 &&
		    (int)column_info[c].sort < SORT_KEY_COUNT);
	}
	assert_string_equal(column_info[COL_GPU_PRICE].header, "$/GPU-H");
	assert_int_equal(column_info[COL_GPU_PRICE].sort, SORT_GPU_PRICE);
	/* Never dropped: provider, instance, GPUs, $/GPU-h. */
	assert_int_equal(column_info[COL_PROVIDER].priority, 0);
	assert_int_equal(column_info[COL_INSTANCE].priority, 0);
	assert_int_equal(column_info[COL_GPU].priority, 0);
	assert_int_equal(column_info[COL_GPU_PRICE].priority, 0);
	assert_int_equal(column_info[COL_REGION].priority, 1);
	/* Then freshness before the other numbers (issue 45). */
	assert_int_equal(column_info[COL_AGE].priority, 2);
	assert_true(column_info[COL_PRICE].right);
	assert_false(column_info[COL_PROVIDER].right);
	/* Names a buyer copies are shown whole or not at all. */
	assert_false(column_info[COL_INSTANCE].flexible);
	assert_false(column_info[COL_REGION].flexible);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_money_decimals),
		cmocka_unit_test(test_money_rounding),
		cmocka_unit_test(test_money_unknown_and_negative),
		cmocka_unit_test(test_money_small_buffer),
		cmocka_unit_test(test_age),
		cmocka_unit_test(test_cells_names),
		cmocka_unit_test(test_cells_gpu),
		cmocka_unit_test(test_cells_vram_link_avail),
		cmocka_unit_test(test_cells_prices),
		cmocka_unit_test(test_cells_savings),
		cmocka_unit_test(test_cells_pflop),
		cmocka_unit_test(test_cells_age),
		cmocka_unit_test(test_cells_totals),
		cmocka_unit_test(test_column_info),
		cmocka_unit_test(test_total_separators),
		cmocka_unit_test(test_cell_empty_and_range),
		cmocka_unit_test(test_columns_fit),
		cmocka_unit_test(test_columns_width_policy),
		cmocka_unit_test(test_cells_host_and_regions),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
