/*
 * test_tui_logic.c: the TUI's logic that is not curses: scrolling, the
 * history chart, the filter panel's fields and pick counts, and the
 * model's promise to give exactly query_plans()'s answer.
 */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sqlite3.h>

#include "db.h"
#include "committed.h"
#include "err.h"
#include "gpu.h"
#include "money.h"
#include "query.h"
#include "str.h"
#include "tui/chart.h"
#include "tui/fields.h"
#include "tui/model.h"
#include "tui/scroll.h"
#include "offer_text.h"

/* ------------------------------------------------------------------ */
/* scroll                                                              */
/* ------------------------------------------------------------------ */

/* The invariants every scroll function promises. */
static void
assert_scroll_ok(const struct scroll *s)
{
	size_t h = s->height > 0 ? s->height : 1;

	if (s->n == 0) {
		assert_int_equal(s->sel, 0);
		assert_int_equal(s->top, 0);
		return;
	}
	assert_true(s->sel < s->n);
	assert_true(s->top <= s->sel);
	assert_true(s->sel < s->top + h);
	if (s->n >= h)
		assert_true(s->top + h <= s->n);
	else
		assert_int_equal(s->top, 0);
}

static void
test_scroll_empty(void **state)
{
	struct scroll s = { 0 };

	(void)state;
	scroll_set(&s, 0, 10);
	scroll_move(&s, 5);
	scroll_page(&s, 1);
	scroll_end(&s);
	scroll_wheel(&s, 3);
	assert_false(scroll_click(&s, 0));
	assert_scroll_ok(&s);
}

static void
test_scroll_move_and_clamp(void **state)
{
	struct scroll s = { 0 };

	(void)state;
	scroll_set(&s, 100, 10);
	scroll_move(&s, 1);
	assert_int_equal(s.sel, 1);
	assert_int_equal(s.top, 0);
	scroll_move(&s, 12);
	assert_int_equal(s.sel, 13);
	assert_int_equal(s.top, 4);	/* just enough to show it */
	scroll_move(&s, -1000);
	assert_int_equal(s.sel, 0);
	assert_int_equal(s.top, 0);
	scroll_move(&s, 1000);
	assert_int_equal(s.sel, 99);
	assert_int_equal(s.top, 90);
	assert_scroll_ok(&s);
}

static void
test_scroll_page_home_end(void **state)
{
	struct scroll s = { 0 };

	(void)state;
	scroll_set(&s, 25, 10);
	scroll_page(&s, 1);
	assert_int_equal(s.sel, 10);
	assert_int_equal(s.top, 10);
	scroll_page(&s, 1);
	assert_int_equal(s.sel, 20);
	assert_int_equal(s.top, 15);	/* no blank rows after the end */
	scroll_page(&s, 1);
	assert_int_equal(s.sel, 24);
	scroll_page(&s, -1);
	assert_int_equal(s.sel, 14);
	assert_int_equal(s.top, 5);
	assert_scroll_ok(&s);
	scroll_home(&s);
	assert_int_equal(s.sel, 0);
	assert_int_equal(s.top, 0);
	scroll_end(&s);
	assert_int_equal(s.sel, 24);
	assert_int_equal(s.top, 15);
}

static void
test_scroll_shrink_and_resize(void **state)
{
	struct scroll s = { 0 };

	(void)state;
	scroll_set(&s, 100, 10);
	scroll_end(&s);
	scroll_set(&s, 5, 10);		/* the filter left 5 rows */
	assert_int_equal(s.sel, 4);
	assert_int_equal(s.top, 0);
	scroll_set(&s, 100, 10);
	scroll_select(&s, 50);
	scroll_set(&s, 100, 3);		/* the window got smaller */
	assert_scroll_ok(&s);
	assert_int_equal(s.sel, 50);
	scroll_set(&s, 100, 0);		/* no room at all: one row */
	assert_scroll_ok(&s);
	assert_int_equal(s.top, 50);
}

static void
test_scroll_click_and_wheel(void **state)
{
	struct scroll s = { 0 };

	(void)state;
	scroll_set(&s, 30, 10);
	assert_true(scroll_click(&s, 3));
	assert_int_equal(s.sel, 3);
	assert_false(scroll_click(&s, 10));	/* below the window */
	scroll_wheel(&s, 3);
	assert_int_equal(s.top, 3);
	assert_int_equal(s.sel, 3);		/* still on screen: stays */
	scroll_wheel(&s, 3);
	assert_int_equal(s.top, 6);
	assert_int_equal(s.sel, 6);		/* dragged along at the edge */
	scroll_wheel(&s, 100);
	assert_int_equal(s.top, 20);
	assert_int_equal(s.sel, 20);
	scroll_wheel(&s, -100);
	assert_int_equal(s.top, 0);
	assert_int_equal(s.sel, 9);
	assert_scroll_ok(&s);
	scroll_set(&s, 4, 10);
	assert_false(scroll_click(&s, 5));	/* below the last line */
	assert_true(scroll_click(&s, 3));
}

/* Random operations keep the invariants. */
static void
test_scroll_fuzz(void **state)
{
	struct scroll s = { 0 };
	unsigned seed = 12345;
	int i;

	(void)state;
	for (i = 0; i < 20000; i++) {
		seed = seed * 1103515245u + 12345u;
		switch ((seed >> 16) % 8) {
		case 0:
			scroll_set(&s, (seed >> 8) % 50, (seed >> 4) % 12);
			break;
		case 1:
			scroll_move(&s, (long)((seed >> 8) % 21) - 10);
			break;
		case 2:
			scroll_page(&s, (seed & 1) ? 1 : -1);
			break;
		case 3:
			scroll_home(&s);
			break;
		case 4:
			scroll_end(&s);
			break;
		case 5:
			scroll_click(&s, (seed >> 8) % 15);
			break;
		case 6:
			scroll_wheel(&s, (long)((seed >> 8) % 11) - 5);
			break;
		default:
			scroll_select(&s, (seed >> 8) % 60);
			break;
		}
		assert_scroll_ok(&s);
	}
}

/* ------------------------------------------------------------------ */
/* chart                                                               */
/* ------------------------------------------------------------------ */

#define USD(x)	((int64_t)((x) * MONEY_UNIT + 0.5))

/* Cell (x, row) of a plotted chart. */
static char
cell(const struct chart *c, int x, int row)
{
	return c->cells[row * c->width + x];
}

static void
test_chart_empty(void **state)
{
	char cells[10 * 4];
	struct chart c = { .width = 10, .height = 4, .cells = cells };
	struct price_point p = { .at = 100, .price = MONEY_NONE,
	    .spot_price = MONEY_NONE };
	int i;

	(void)state;
	assert_int_equal(chart_plot(&c, NULL, 0, 1000), -1);
	assert_int_equal(chart_plot(&c, &p, 1, 1000), -1);
	for (i = 0; i < 40; i++)
		assert_int_equal(cells[i], CHART_EMPTY);
}

static void
test_chart_flat(void **state)
{
	char cells[10 * 5];
	struct chart c = { .width = 10, .height = 5, .cells = cells };
	struct price_point p = { .at = 100, .price = USD(2.5),
	    .spot_price = MONEY_NONE };
	int x;

	(void)state;
	assert_int_equal(chart_plot(&c, &p, 1, 1000), 0);
	assert_int_equal(c.vmin, USD(2.5));
	assert_int_equal(c.vmax, USD(2.5));
	assert_int_equal(c.t0, 100);
	assert_int_equal(c.t1, 1000);
	assert_int_equal(c.changes, 1);
	/* A single price is a flat line in the middle row. */
	for (x = 0; x < 10; x++)
		assert_int_equal(cell(&c, x, 2), CHART_PRICE);
	assert_int_equal(chart_row(&c, USD(2.5)), 2);
}

static void
test_chart_step_and_scale(void **state)
{
	char cells[11 * 5];
	struct chart c = { .width = 11, .height = 5, .cells = cells };
	struct price_point p[] = {
		{ .at = 0, .price = USD(1), .spot_price = USD(0.5) },
		{ .at = 50, .price = USD(3), .spot_price = MONEY_NONE },
		{ .at = 80, .price = USD(2), .spot_price = USD(0.5) },
	};
	int x;

	(void)state;
	assert_int_equal(chart_plot(&c, p, 3, 100), 0);
	assert_int_equal(c.vmin, USD(0.5));
	assert_int_equal(c.vmax, USD(3));
	assert_int_equal(c.changes, 3);
	/* Rows: 3.0 top (0), 0.5 bottom (4); 1.0 -> row 3, 2.0 -> row 2. */
	assert_int_equal(chart_row(&c, USD(3)), 0);
	assert_int_equal(chart_row(&c, USD(0.5)), 4);
	assert_int_equal(chart_row(&c, USD(1)), 3);
	assert_int_equal(chart_row(&c, USD(2)), 2);
	/* Column x is time 10x: 1.0 until 50, 3.0 until 80, then 2.0. */
	for (x = 0; x < 5; x++)
		assert_int_equal(cell(&c, x, 3), CHART_PRICE);
	for (x = 5; x < 8; x++)
		assert_int_equal(cell(&c, x, 0), CHART_PRICE);
	for (x = 8; x < 11; x++)
		assert_int_equal(cell(&c, x, 2), CHART_PRICE);
	/* The jump up at x = 5 is joined from row 3 to row 0. */
	assert_int_equal(cell(&c, 5, 1), CHART_RISE);
	assert_int_equal(cell(&c, 5, 2), CHART_RISE);
	/* Spot: known, unknown from 50 (a gap), known again from 80. */
	assert_int_equal(cell(&c, 0, 4), CHART_SPOT);
	assert_int_equal(cell(&c, 6, 4), CHART_EMPTY);
	assert_int_equal(cell(&c, 9, 4), CHART_SPOT);
	assert_int_equal(chart_time(&c, 0), 0);
	assert_int_equal(chart_time(&c, 10), 100);
}

static void
test_chart_overlap_prefers_on_demand(void **state)
{
	char cells[4 * 3];
	struct chart c = { .width = 4, .height = 3, .cells = cells };
	struct price_point p = { .at = 0, .price = USD(1), .spot_price = USD(1) };
	int x;

	(void)state;
	assert_int_equal(chart_plot(&c, &p, 1, 0), 0);
	for (x = 0; x < 4; x++)
		assert_int_equal(cell(&c, x, 1), CHART_PRICE);
}

/* ------------------------------------------------------------------ */
/* fields                                                              */
/* ------------------------------------------------------------------ */

static void
value_is(const struct offer_filter *f, enum filter_field ff, const char *want)
{
	char buf[128];

	filter_value(f, ff, buf, sizeof buf);
	assert_string_equal(buf, want);
}

static void
test_fields_parse_like_the_cli(void **state)
{
	struct offer_filter f;
	struct err err;
	char buf[256];

	(void)state;
	offer_filter_init(&f);
	value_is(&f, FF_COUNT, "any");
	value_is(&f, FF_SPOT, "no");
	assert_int_equal(filter_set(&f, FF_COUNT, "8", false, &err), 0);
	assert_int_equal(f.count, 8);
	assert_int_equal(filter_set(&f, FF_COUNT, "0", false, &err), -1);
	assert_int_equal(filter_set(&f, FF_COUNT, "-2", false, &err), -1);
	assert_int_equal(filter_set(&f, FF_COUNT, "4x", false, &err), -1);
	assert_non_null(strstr(err.msg, "4x"));
	assert_int_equal(f.count, 8);		/* a bad value changes nothing */
	assert_int_equal(filter_set(&f, FF_VRAM, "80", false, &err), 0);
	value_is(&f, FF_VRAM, "80 GB");
	assert_int_equal(filter_set(&f, FF_VRAM, "2000", false, &err), -1);
	assert_int_equal(filter_set(&f, FF_LINK, "NVLink", false, &err), 0);
	assert_int_equal(f.interconnect, IC_NVLINK);
	assert_int_equal(filter_set(&f, FF_LINK, "token-ring", false, &err), -1);
	assert_int_equal(filter_set(&f, FF_MAX_PRICE, "$2.5", false, &err), 0);
	assert_int_equal(f.max_price_gpu_hour, USD(2.5));
	value_is(&f, FF_MAX_PRICE, "$2.50");
	assert_int_equal(filter_set(&f, FF_MAX_PRICE, "0", false, &err), -1);
	assert_int_equal(filter_set(&f, FF_MAX_PRICE, "cheap", false, &err), -1);
	assert_int_equal(filter_set(&f, FF_PROVIDERS, "gcp, aws,gcp", false, &err),
	    0);
	assert_int_equal(f.nproviders, 2);
	value_is(&f, FF_PROVIDERS, "gcp,aws");
	assert_int_equal(filter_set(&f, FF_PROVIDERS, "aws,ibmcloud", false, &err), -1);
	assert_non_null(strstr(err.msg, "ibmcloud"));
	assert_int_equal(f.nproviders, 2);
	assert_int_equal(filter_set(&f, FF_GPU, "A100", false, &err), 0);
	assert_int_equal(f.ngpus, 2);		/* the family: A100-40, A100-80 */
	assert_int_equal(filter_set(&f, FF_GPU, "A100-80", false, &err), 0);
	assert_int_equal(f.ngpus, 1);
	assert_int_equal(filter_set(&f, FF_GPU, "H100, A100", false, &err), 0);
	assert_int_equal(f.ngpus, 3);		/* a list; families expand */
	assert_int_equal(filter_set(&f, FF_GPU, "H100,", false, &err), -1);
	assert_int_equal(filter_set(&f, FF_GPU, "A100-80", false, &err), 0);
	assert_int_equal(filter_set(&f, FF_GPU, "H1OO", false, &err), -1);
	assert_non_null(strstr(err.msg, "did you mean"));
	assert_int_equal(filter_set(&f, FF_SPOT, "yes", false, &err), 0);
	assert_true(f.spot);
	assert_int_equal(filter_set(&f, FF_SPOT, "maybe", false, &err), -1);
	assert_int_equal(filter_set(&f, FF_REGION, "us-*", false, &err), 0);
	assert_int_equal(filter_set(&f, FF_TEXT, "any", false, &err), 0);
	assert_string_equal(f.text, "any");	/* text is taken literally */
	filter_describe(&f, buf, sizeof buf);
	/* The summary is CLI words a shell takes back as they are. */
	assert_string_equal(buf, "--gpu A100-80 --count 8 --min-vram 80 "
	    "--interconnect nvlink --provider gcp,aws --region 'us-*' "
	    "--max-price 2.5 --spot --match any");
	/* "any" and filter_clear mean any; "" is no value (as in the CLI). */
	assert_int_equal(filter_set(&f, FF_COUNT, "", false, &err), -1);
	assert_int_equal(filter_set(&f, FF_COUNT, "any", false, &err), 0);
	assert_int_equal(f.count, 0);
	assert_int_equal(filter_set(&f, FF_GPU, "any", false, &err), 0);
	assert_int_equal(f.ngpus, 0);
	filter_clear(&f, FF_TEXT);
	assert_false(filter_is_set(&f, FF_TEXT));
	offer_filter_init(&f);
	assert_int_equal(filter_describe(&f, buf, sizeof buf), 0);
	assert_string_equal(buf, "");
}

static void
test_fields_sanitise_typed_text(void **state)
{
	struct offer_filter f;
	struct err err;

	(void)state;
	offer_filter_init(&f);
	assert_int_equal(filter_set(&f, FF_REGION, "us-east", false, &err), 0);
	/* Refused, not cleaned into another pattern; the filter stays. */
	assert_int_equal(filter_set(&f, FF_REGION, "us\x1b[31m-west", false,
	    &err), -1);
	assert_null(strchr(err.msg, '\x1b'));
	assert_string_equal(f.region, "us-east");
}

static void
test_fields_edit_text_round_trips(void **state)
{
	struct offer_filter f, g;
	struct err err;
	char buf[128];
	int ff;

	(void)state;
	offer_filter_init(&f);
	assert_int_equal(filter_set(&f, FF_GPU, "A100", false, &err), 0);
	assert_int_equal(filter_set(&f, FF_COUNT, "4", false, &err), 0);
	assert_int_equal(filter_set(&f, FF_VRAM, "40", false, &err), 0);
	assert_int_equal(filter_set(&f, FF_LINK, "pcie", false, &err), 0);
	assert_int_equal(filter_set(&f, FF_PROVIDERS, "vast,aws", false, &err), 0);
	assert_int_equal(filter_set(&f, FF_MAX_PRICE, "1.25", false, &err), 0);
	assert_int_equal(filter_set(&f, FF_AVAILABLE, "on", false, &err), 0);
	offer_filter_init(&g);
	for (ff = 0; ff < FILTER_FIELD_COUNT; ff++) {
		if (filter_text(&f, (enum filter_field)ff, buf, sizeof buf) == 0)
			continue;	/* unset: nothing to type */
		assert_int_equal(filter_set(&g, (enum filter_field)ff, buf, false,
		    &err), 0);
	}
	assert_int_equal(g.ngpus, f.ngpus);
	assert_int_equal(g.count, 4);
	assert_int_equal(g.min_vram_gb, 40);
	assert_int_equal(g.interconnect, IC_PCIE);
	assert_int_equal(g.nproviders, 2);
	assert_string_equal(g.providers[0], "vast");
	assert_int_equal(g.max_price_gpu_hour, USD(1.25));
	assert_true(g.available);
}

static void
test_fields_step(void **state)
{
	struct offer_filter f;

	(void)state;
	offer_filter_init(&f);
	assert_true(field_step(&f, FF_COUNT, 1));
	assert_int_equal(f.count, 1);
	field_step(&f, FF_COUNT, 1);
	field_step(&f, FF_COUNT, 1);
	assert_int_equal(f.count, 4);
	field_step(&f, FF_COUNT, -1);
	field_step(&f, FF_COUNT, -1);
	field_step(&f, FF_COUNT, -1);
	assert_int_equal(f.count, 0);		/* back to any */
	field_step(&f, FF_COUNT, -1);
	assert_int_equal(f.count, 0);
	f.count = 3;				/* typed: between steps */
	field_step(&f, FF_COUNT, 1);
	assert_int_equal(f.count, 4);
	f.count = 100;
	field_step(&f, FF_COUNT, 1);
	assert_int_equal(f.count, 16);		/* the largest step */
	field_step(&f, FF_LINK, 1);
	assert_int_equal(f.interconnect, IC_NVLINK);
	field_step(&f, FF_LINK, 1);
	assert_int_equal(f.interconnect, IC_PCIE);
	field_step(&f, FF_LINK, 1);
	assert_int_equal(f.interconnect, IC_UNKNOWN);
	field_step(&f, FF_LINK, -1);
	assert_int_equal(f.interconnect, IC_PCIE);
	field_step(&f, FF_MAX_PRICE, 1);
	assert_int_equal(f.max_price_gpu_hour, USD(0.1));
	field_step(&f, FF_MAX_PRICE, -1);
	assert_false(money_known(f.max_price_gpu_hour));
	field_step(&f, FF_VRAM, 1);
	assert_int_equal(f.min_vram_gb, 8);
	assert_true(field_step(&f, FF_SPOT, 1));
	assert_true(f.spot);
	assert_true(field_step(&f, FF_SPOT, -1));
	assert_false(f.spot);
	assert_false(field_step(&f, FF_GPU, 1));
	assert_false(field_step(&f, FF_REGION, 1));
	assert_false(field_step(&f, FF_TEXT, 1));
}

/* Three offers for the facet tests. */
static void
facet_offers(struct offer_list *l)
{
	static const struct {
		const char *provider, *gpu;
		int count;
		double price;
	} rows[] = {
		{ "aws", "A100-80", 8, 30.0 },
		{ "aws", "H100", 8, 90.0 },
		{ "vast", "A100-80", 1, 1.2 },
		{ "vast", "", 1, 0.2 },		/* unknown GPU */
	};
	size_t i;

	offer_list_init(l);
	for (i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		struct offer *o = offer_list_add(l);

		o->provider = tstr(rows[i].provider);
		o->key = tstrf("k%zu", i);
		o->instance_type = tstr("i");
		o->region = tstr("r");
		o->gpu = tstr(rows[i].gpu);
		o->gpu_raw = tstr(rows[i].gpu[0] != '\0' ?
		    rows[i].gpu : "Mystery X");
		o->gpu_count = rows[i].count;
		o->price = USD(rows[i].price);
	}
}

static void
test_facets(void **state)
{
	struct offer_list l;
	struct offer_filter f;
	struct facet v[16];
	struct err err;
	size_t n, i;

	(void)state;
	facet_offers(&l);
	offer_filter_init(&f);
	n = facet_gpus(l.v, l.n, &f, v, 16);
	assert_int_equal(n, 2);			/* the unknown GPU is not listed */
	assert_string_equal(v[0].name, "A100-80");
	assert_int_equal(v[0].count, 2);
	assert_string_equal(v[1].name, "H100");
	assert_int_equal(v[1].count, 1);
	/* Counts follow the rest of the filter, not the GPU field. */
	assert_int_equal(filter_set(&f, FF_GPU, "H100", false, &err), 0);
	assert_int_equal(filter_set(&f, FF_PROVIDERS, "vast", false, &err), 0);
	n = facet_gpus(l.v, l.n, &f, v, 16);
	assert_int_equal(n, 2);
	assert_string_equal(v[0].name, "A100-80");
	assert_int_equal(v[0].count, 1);
	assert_false(v[0].selected);
	assert_string_equal(v[1].name, "H100");	/* selected: listed at 0 */
	assert_int_equal(v[1].count, 0);
	assert_true(v[1].selected);
	/* Price ceilings count too (they need the plan). */
	filter_clear(&f, FF_PROVIDERS);
	assert_int_equal(filter_set(&f, FF_MAX_PRICE, "2", false, &err), 0);
	n = facet_gpus(l.v, l.n, &f, v, 16);
	assert_int_equal(v[0].count, 1);	/* aws A100 is $3.75/GPU-h */
	/* Providers: all of them, in registry order, with counts. */
	filter_clear(&f, FF_MAX_PRICE);
	n = facet_providers(l.v, l.n, &f, v, 16);
	assert_true(n >= 6);
	for (i = 0; i < n; i++) {
		if (strcmp(v[i].name, "aws") == 0)
			assert_int_equal(v[i].count, 1);	/* the H100 */
		else
			assert_int_equal(v[i].count, 0);
	}
	/* Applying ticks. */
	v[0].selected = true;
	v[1].selected = true;
	v[2].selected = false;
	facet_apply_providers(&f, v, n);
	assert_int_equal(f.nproviders, 2);
	assert_string_equal(f.providers[0], v[0].name);
	n = facet_gpus(l.v, l.n, &f, v, 16);
	for (i = 0; i < n; i++)
		v[i].selected = true;
	facet_apply_gpus(&f, v, n);
	assert_int_equal(f.ngpus, 2);
	/* A full output array stops cleanly. */
	assert_int_equal(facet_gpus(l.v, l.n, &f, v, 1), 1);
	offer_list_done(&l);
}

/* ------------------------------------------------------------------ */
/* model: the same answer as query_plans()                             */
/* ------------------------------------------------------------------ */

static char test_dir[] = "/tmp/gpucost-test-tui-XXXXXX";

/* A fresh cache in a temporary directory, seeded from the snapshot. */
static int
model_setup(void **state)
{
	struct model *m = calloc(1, sizeof *m);
	char path[sizeof test_dir + 16];
	struct err err;

	if (m == NULL || mkdtemp(test_dir) == NULL)
		return -1;
	snprintf(path, sizeof path, "%s/cache.db", test_dir);
	model_init(m);
	if (model_open(m, path, &err) < 0 || model_load(m, &err) < 0) {
		fprintf(stderr, "%s\n", err.msg);
		return -1;
	}
	*state = m;
	return 0;
}

/* Close the cache and remove the directory. */
static int
model_teardown(void **state)
{
	char cmd[sizeof test_dir + 16];

	model_done(*state);
	free(*state);
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", test_dir);
	return system(cmd) == 0 ? 0 : -1;
}

/* The model's plans are query_plans()'s, element by element. */
static void
assert_same_as_query(struct model *m)
{
	struct plan *q;
	size_t nq, i;

	model_query(m);
	query_plans(m->offers.v, m->offers.n, &m->filter, m->sort, m->reverse,
	    &q, &nq);
	assert_int_equal(m->noffers_shown, nq);
	/* Folded by region unless all_regions, like the CLI's table. */
	if (!m->all_regions)
		nq = query_fold_regions(q, nq);
	assert_int_equal(m->nplans, nq);
	for (i = 0; i < nq; i++) {
		if (m->plans[i].offer != q[i].offer ||
		    m->plans[i].nodes != q[i].nodes)
			fail_msg("sort %s%s: plan %zu differs (%s/%s vs %s/%s)",
			    sort_key_name(m->sort), m->reverse ? " reversed" :
			    "", i, m->plans[i].offer->provider,
			    m->plans[i].offer->key, q[i].offer->provider,
			    q[i].offer->key);
		assert_memory_equal(&m->plans[i], &q[i], sizeof q[i]);
	}
	free(q);
}

static void
test_model_matches_query_plans(void **state)
{
	static const char *const texts[] = { "", "h", "h100", "aws", "aws us",
	    "A100 sxm", "zzz" };
	struct model *m = *state;
	struct err err;
	size_t t;
	int k, rev, variant;

	assert_true(m->offers.n > 1000);
	for (variant = 0; variant < 10; variant++) {
		offer_filter_init(&m->filter);
		switch (variant) {
		case 1:
			assert_int_equal(filter_set(&m->filter, FF_COUNT, "8", false,
			    &err), 0);
			break;
		case 2:
			assert_int_equal(filter_set(&m->filter, FF_GPU, "A100", false,
			    &err), 0);
			assert_int_equal(filter_set(&m->filter, FF_LINK,
			    "nvlink", false, &err), 0);
			break;
		case 3:
			m->filter.spot = true;
			assert_int_equal(filter_set(&m->filter, FF_MAX_PRICE,
			    "1.5", false, &err), 0);
			break;
		case 4:
			assert_int_equal(filter_set(&m->filter, FF_PROVIDERS,
			    "aws,vast", false, &err), 0);
			assert_int_equal(filter_set(&m->filter, FF_REGION,
			    "us-*", false, &err), 0);
			m->filter.available = true;
			break;
		case 5:		/* multi-node: query_plans itself */
			m->filter.multi_node = true;
			assert_int_equal(filter_set(&m->filter, FF_COUNT, "16", false,
			    &err), 0);
			break;
		case 6:		/* multi-node without a count: nodes = 1 */
			m->filter.multi_node = true;
			assert_int_equal(filter_set(&m->filter, FF_VRAM, "40", false,
			    &err), 0);
			break;
		case 7:
			assert_int_equal(filter_set(&m->filter, FF_MAX_PRICE,
			    "2", false, &err), 0);
			break;
		case 8:		/* every region its own row */
			m->all_regions = true;
			break;
		case 9:
			m->all_regions = false;
			assert_int_equal(filter_set(&m->filter, FF_REGION,
			    "europe", false, &err), 0);
			break;
		}
		for (k = 0; k < SORT_KEY_COUNT; k++)
			for (rev = 0; rev < 2; rev++)
				for (t = 0; t < sizeof texts / sizeof texts[0];
				    t++) {
					m->sort = (enum sort_key)k;
					m->reverse = rev;
					str_copy(m->filter.text,
					    sizeof m->filter.text, texts[t]);
					assert_same_as_query(m);
				}
	}
}

/* The spot filter ranks by spot $/GPU-h, as the CLI's --spot does. */
static void
test_model_spot_ranks_by_spot(void **state)
{
	struct model *m = *state;
	size_t i;

	offer_filter_init(&m->filter);
	m->sort = SORT_GPU_PRICE;
	m->reverse = false;
	model_query(m);
	m->filter.spot = true;
	model_query(m);
	assert_int_equal(m->sort, SORT_SPOT_GPU);
	assert_true(m->nplans > 1);
	for (i = 1; i < m->nplans; i++)
		assert_true(m->plans[i - 1].spot_gpu_hour <=
		    m->plans[i].spot_gpu_hour);
	/* Off again: back to $/GPU-h. */
	m->filter.spot = false;
	model_query(m);
	assert_int_equal(m->sort, SORT_GPU_PRICE);
	/* A sort the user chose stays. */
	m->sort = SORT_PROVIDER;
	m->filter.spot = true;
	model_query(m);
	assert_int_equal(m->sort, SORT_PROVIDER);
	m->filter.spot = false;
	model_query(m);
}

static void
test_model_stats_and_find(void **state)
{
	struct model *m = *state;
	size_t i, at;
	int64_t best = MONEY_NONE;

	offer_filter_init(&m->filter);
	m->sort = SORT_PROVIDER;
	m->reverse = false;
	/* Folded: fewer rows than offers, every offer counted. */
	m->all_regions = false;
	model_query(m);
	assert_true(m->nplans < m->offers.n);
	assert_int_equal(m->noffers_shown, m->offers.n);
	m->all_regions = true;
	model_query(m);
	assert_int_equal(m->nplans, m->offers.n);
	for (i = 0; i < m->nplans; i++)
		if (money_known(m->plans[i].price_gpu_hour) &&
		    (!money_known(best) || m->plans[i].price_gpu_hour < best))
			best = m->plans[i].price_gpu_hour;
	assert_int_equal(m->best_gpu_price, best);
	assert_true(m->any_snapshot);
	assert_true(m->oldest > 0);
	at = m->nplans / 2;
	assert_int_equal(model_find(m, m->plans[at].offer->provider,
	    m->plans[at].offer->key, 1), at);
	assert_int_equal(model_find(m, "aws", "no such key", 1), (size_t)-1);
	/* A reload keeps the filter and bumps the generation. */
	{
		unsigned gen = m->generation;
		struct err err;

		str_copy(m->filter.text, sizeof m->filter.text, "lambda");
		assert_int_equal(model_load(m, &err), 0);
		assert_int_equal(m->generation, gen + 1);
		for (i = 0; i < m->nplans; i++)
			assert_string_equal(m->plans[i].offer->provider,
			    "lambda");
	}
}

/*
 * The first screen (model_load_first()) is the full load's: the same
 * first plans, each with its +N, the same lowest prices and (when it
 * read every offer) the same counts and statistics, for every sort both
 * ways, filters, text, term, folding or not, and first screens shorter
 * and longer than the answer. Then model_finish() gives the whole
 * answer. The snapshot has many ties in $/GPU-h, unknown prices and
 * values, and instance types sold in many regions (+N): a first screen
 * of 1 or 7 rows from the indexes must walk on past a region class cut
 * at the end of its first walk. Returns 1 when the first screen came
 * from the indexes (counts still to come).
 */
static int
assert_first_is_full(struct model *m, size_t first)
{
	struct model full;
	const struct offer *own;
	const struct committed *own_term;
	struct err err;
	size_t i, want;
	int from_sql = 0;

	model_init(&full);
	full.db = m->db;
	full.filter = m->filter;
	full.sort = m->sort;
	full.reverse = m->reverse;
	full.all_regions = m->all_regions;
	assert_int_equal(model_load(&full, &err), 0);
	assert_int_equal(model_load_first(m, first, &err), 0);
	assert_int_equal(m->sort, full.sort);
	/* From the indexes: the counts wait, the lowest prices do not. */
	if (m->counted) {
		assert_int_equal(m->offers.n, full.offers.n);
		assert_int_equal(m->nplans, full.nplans);
		assert_int_equal(m->noffers_shown, full.noffers_shown);
		assert_int_equal(m->oldest, full.oldest);
		assert_int_equal(m->any_snapshot, full.any_snapshot);
	} else {
		assert_true(m->partial);
		assert_int_equal(m->offers.n, 0);
		assert_int_equal(m->nplans, m->nready);
		from_sql++;
	}
	assert_int_equal(m->best_gpu_price, full.best_gpu_price);
	assert_int_equal(m->best_spot_gpu_price, full.best_spot_gpu_price);
	want = m->partial ? m->nready : m->nplans;
	if (m->partial)
		assert_int_equal(m->nready, first < full.nplans ? first :
		    full.nplans);
	for (i = 0; i < want; i++) {
		/* Different lists: compare the offer's identity, then all. */
		assert_string_equal(m->plans[i].offer->provider,
		    full.plans[i].offer->provider);
		assert_string_equal(m->plans[i].offer->key,
		    full.plans[i].offer->key);
		assert_int_equal(m->plans[i].other_regions,
		    full.plans[i].other_regions);
		/* The term's entry lives in each list's own offer (the
		 * snapshot's GCP and Azure offers have committed prices):
		 * the same values, not the same address. */
		assert_true((m->plans[i].term == NULL) ==
		    (full.plans[i].term == NULL));
		if (m->plans[i].term != NULL)
			assert_memory_equal(m->plans[i].term,
			    full.plans[i].term, sizeof *full.plans[i].term);
		own = m->plans[i].offer;
		own_term = m->plans[i].term;
		m->plans[i].offer = full.plans[i].offer;
		m->plans[i].term = full.plans[i].term;
		assert_memory_equal(&m->plans[i], &full.plans[i],
		    sizeof full.plans[i]);
		m->plans[i].offer = own;
		m->plans[i].term = own_term;
	}
	/* The rest of the load: the whole answer. */
	assert_int_equal(model_finish(m, &err), 0);
	assert_false(m->partial);
	assert_true(m->counted);
	assert_int_equal(m->offers.n, full.offers.n);
	assert_int_equal(m->nplans, full.nplans);
	assert_int_equal(m->noffers_shown, full.noffers_shown);
	assert_int_equal(m->oldest, full.oldest);
	assert_int_equal(m->any_snapshot, full.any_snapshot);
	assert_int_equal(m->first_offers.n, 0);
	full.db = NULL;		/* m's connection */
	model_done(&full);
	assert_same_as_query(m);
	return from_sql;
}

static void
test_model_first_screen_is_full(void **state)
{
	static const char *const texts[] = { "", "h100", "aws us",
	    "A100 sxm" };
	static const size_t firsts[] = { 1, 7, 500, 100000 };
	enum { NTEXTS = sizeof texts / sizeof texts[0] };
	struct model *m = *state;
	struct err err;
	size_t t, f;
	int k, rev, variant, sql, nsql = 0, nruns = 0;
	/*
	 * The soak (make check-soak) tries every text with every variant,
	 * sort key and direction. make check tries one text of the four
	 * with each, in turn, so that every pair of variant, key,
	 * direction, text and first-screen size still meets: a quarter of
	 * the runs.
	 */
	bool soak = getenv("GPUCOST_TEST_SOAK") != NULL;

	for (variant = 0; variant < 10; variant++) {
		offer_filter_init(&m->filter);
		m->all_regions = false;
		switch (variant) {
		case 8:		/* --nodes 2 alone: plans of 2 nodes (issue 48) */
			assert_int_equal(filter_set(&m->filter, FF_GPU, "H100",
			    false, &err), 0);
			assert_int_equal(filter_set(&m->filter, FF_COUNT, "16",
			    false, &err), 0);
			m->filter.nodes = 2;
			break;
		case 9:		/* --multi-node with no count: cluster products */
			m->filter.multi_node = true;
			break;
		case 1:
			m->all_regions = true;
			break;
		case 2:
			m->filter.spot = true;
			assert_int_equal(filter_set(&m->filter, FF_MAX_PRICE,
			    "1.5", false, &err), 0);
			break;
		case 3:
			assert_int_equal(filter_set(&m->filter, FF_PROVIDERS,
			    "aws,gcp,vast", false, &err), 0);
			assert_int_equal(filter_set(&m->filter, FF_REGION,
			    "us-*", false, &err), 0);
			break;
		case 4:
			m->filter.term = 12;
			break;
		case 5:		/* multi-node: the full load itself */
			m->filter.multi_node = true;
			assert_int_equal(filter_set(&m->filter, FF_COUNT, "16",
			    false, &err), 0);
			break;
		case 6:
			assert_int_equal(filter_set(&m->filter, FF_COUNT, "8",
			    false, &err), 0);
			break;
		case 7:		/* no match: the full load says why */
			assert_int_equal(filter_set(&m->filter, FF_MAX_PRICE,
			    "0.000001", false, &err), 0);
			break;
		}
		for (k = 0; k < SORT_KEY_COUNT; k++)
			for (rev = 0; rev < 2; rev++)
				for (t = 0; t < NTEXTS; t++) {
					if (!soak && t != (size_t)(variant +
					    2 * k + rev) % NTEXTS)
						continue;
					f = (size_t)(k + rev + t) %
					    (sizeof firsts / sizeof firsts[0]);
					nruns++;
					m->sort = (enum sort_key)k;
					m->reverse = rev;
					/* As the TUI starts: not ranked yet. */
					m->spot_ranked = false;
					str_copy(m->filter.text,
					    sizeof m->filter.text, texts[t]);
					sql = assert_first_is_full(m,
					    firsts[f]);
					/* The indexes, wherever SQL can
					   walk the answer whole. */
					assert_int_equal(sql, variant != 5 &&
					    variant != 7 && variant < 8 &&
					    ((db_filter_in_sql(&m->filter) &&
					    db_sort_in_sql(m->sort)) ||
					    (m->all_regions &&
					    db_term_in_sql(&m->filter,
					    m->sort))));
					nsql += sql;
					if (variant == 0 && t == 0 &&
					    k == SORT_GPU_PRICE)
						assert_int_equal(sql, 1);
				}
	}
	/* Most first screens came from the indexes. */
	print_message("first screens: %d of %d from the indexes\n", nsql,
	    nruns);
	assert_true(nsql >= 7 * 2 * 10 * (soak ? NTEXTS : 1) / NTEXTS);
	m->filter.multi_node = false;
	m->filter.count = 0;
	m->filter.nodes = 0;
	m->filter.ngpus = 0;
	m->filter.term = TERM_NONE;
}

/*
 * Stored sort keys of another version (a newer gpucost on an older
 * cache): the first screen is the full load's, and starting the TUI
 * writes nothing (bringing the keys up to date would take the write
 * lock and wait for a refresh that holds it). Then the keys are brought
 * up to date, as a query would, and the indexes answer again.
 */
static void
test_model_first_screen_stale_keys(void **state)
{
	struct model *m = *state;
	char path[sizeof test_dir + 16];
	struct err err;
	sqlite3 *raw;
	sqlite3_stmt *st;
	bool ready;
	int old = -1;

	snprintf(path, sizeof path, "%s/cache.db", test_dir);
	assert_int_equal(sqlite3_open(path, &raw), SQLITE_OK);
	assert_int_equal(sqlite3_exec(raw, "UPDATE provider_status SET "
	    "sort_keys = '1-old'", NULL, NULL, NULL), SQLITE_OK);
	offer_filter_init(&m->filter);
	m->all_regions = false;
	m->sort = SORT_GPU_PRICE;
	m->reverse = false;
	assert_int_equal(assert_first_is_full(m, 7), 0);
	assert_int_equal(sqlite3_prepare_v2(raw, "SELECT count(*) FROM "
	    "provider_status WHERE sort_keys = '1-old' AND offer_count > 0",
	    -1, &st, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_step(st), SQLITE_ROW);
	old = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	sqlite3_close(raw);
	assert_true(old > 0);
	/* Up to date again: the first screen from the indexes. */
	assert_int_equal(db_sort_keys_ready(m->db, &ready, &err), 0);
	assert_true(ready);
	assert_int_equal(assert_first_is_full(m, 7), 1);
}

/*
 * Typing, one character at a time, then erasing: after each key the
 * model (which narrows the last matches while the text grows, and folds
 * by precomputed classes) gives what a fresh query_plans() and
 * query_fold_regions() give. "sx" then "sxm" and "pci" then "pcie": a
 * board-form word matches offers whose names do not hold it, so those
 * keys must not narrow.
 */
static void
type_and_erase(struct model *m, const char *text)
{
	size_t i, len = strlen(text);

	for (i = 0; i <= len; i++) {
		memcpy(m->filter.text, text, i);
		m->filter.text[i] = '\0';
		assert_same_as_query(m);
	}
	while (len-- > 0) {
		m->filter.text[len] = '\0';
		assert_same_as_query(m);
	}
}

static void
test_model_typing_matches_fresh(void **state)
{
	static const char *const texts[] = { "h100 sxm", "a100 us-east",
	    "rtx 4090 texas", "pcie", "l4 pcie", "aws p5", "  v100  x ",
	    "GCP A3", "lambda h100 sxm5" };
	struct model *m = *state;
	struct err err;
	size_t t;
	int variant;

	for (variant = 0; variant < 8; variant++) {
		offer_filter_init(&m->filter);
		m->sort = SORT_GPU_PRICE;
		m->reverse = false;
		m->all_regions = false;
		switch (variant) {
		case 1:
			m->all_regions = true;
			break;
		case 2:
			m->sort = SORT_REGION;
			break;
		case 3:
			m->sort = SORT_PROVIDER;
			m->reverse = true;
			m->all_regions = true;
			break;
		case 4:
			m->filter.term = 12;
			m->sort = SORT_TERM_GPU;
			break;
		case 5:
			assert_int_equal(filter_set(&m->filter, FF_COUNT, "8",
			    false, &err), 0);
			break;
		case 6:
			m->filter.spot = true;
			break;
		case 7:
			assert_int_equal(filter_set(&m->filter, FF_REGION,
			    "europe", false, &err), 0);
			m->sort = SORT_AGE;
			break;
		}
		for (t = 0; t < sizeof texts / sizeof texts[0]; t++)
			type_and_erase(m, texts[t]);
	}
}

/* Changes between keys: sort, order, folding, term, filter, reload. */
static void
test_model_changes_while_typing(void **state)
{
	struct model *m = *state;
	struct err err;

	offer_filter_init(&m->filter);
	m->sort = SORT_GPU_PRICE;
	m->reverse = false;
	m->all_regions = false;
	str_copy(m->filter.text, sizeof m->filter.text, "h1");
	assert_same_as_query(m);
	str_copy(m->filter.text, sizeof m->filter.text, "h10");
	assert_same_as_query(m);
	m->sort = SORT_VRAM;
	assert_same_as_query(m);
	str_copy(m->filter.text, sizeof m->filter.text, "h100");
	assert_same_as_query(m);
	m->reverse = true;
	assert_same_as_query(m);
	m->all_regions = true;
	assert_same_as_query(m);
	str_copy(m->filter.text, sizeof m->filter.text, "h100 e");
	assert_same_as_query(m);
	m->all_regions = false;
	assert_same_as_query(m);
	m->filter.term = 36;
	m->sort = SORT_TERM_GPU;
	assert_same_as_query(m);
	str_copy(m->filter.text, sizeof m->filter.text, "h100 eu");
	assert_same_as_query(m);
	m->filter.term = TERM_NONE;
	m->sort = SORT_GPU_PRICE;
	assert_same_as_query(m);
	assert_int_equal(filter_set(&m->filter, FF_PROVIDERS, "aws", false,
	    &err), 0);
	assert_same_as_query(m);
	str_copy(m->filter.text, sizeof m->filter.text, "h100 eu w");
	assert_same_as_query(m);
	/* A multi-node filter goes to query_plans() and comes back. */
	m->filter.multi_node = true;
	assert_int_equal(filter_set(&m->filter, FF_COUNT, "16", false,
	    &err), 0);
	assert_same_as_query(m);
	m->filter.multi_node = false;
	m->filter.count = 0;
	assert_same_as_query(m);
	/* A reload in the middle of a search. */
	assert_int_equal(model_load(m, &err), 0);
	assert_same_as_query(m);
	str_copy(m->filter.text, sizeof m->filter.text, "h100 eu we");
	assert_same_as_query(m);
	m->filter.text[0] = '\0';
	assert_same_as_query(m);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_scroll_empty),
		cmocka_unit_test(test_scroll_move_and_clamp),
		cmocka_unit_test(test_scroll_page_home_end),
		cmocka_unit_test(test_scroll_shrink_and_resize),
		cmocka_unit_test(test_scroll_click_and_wheel),
		cmocka_unit_test(test_scroll_fuzz),
		cmocka_unit_test(test_chart_empty),
		cmocka_unit_test(test_chart_flat),
		cmocka_unit_test(test_chart_step_and_scale),
		cmocka_unit_test(test_chart_overlap_prefers_on_demand),
		cmocka_unit_test(test_fields_parse_like_the_cli),
		cmocka_unit_test(test_fields_sanitise_typed_text),
		cmocka_unit_test(test_fields_edit_text_round_trips),
		cmocka_unit_test(test_fields_step),
		cmocka_unit_test(test_facets),
	};
	const struct CMUnitTest model_tests[] = {
		cmocka_unit_test(test_model_matches_query_plans),
		cmocka_unit_test(test_model_stats_and_find),
		cmocka_unit_test(test_model_spot_ranks_by_spot),
		cmocka_unit_test(test_model_typing_matches_fresh),
		cmocka_unit_test(test_model_first_screen_is_full),
		cmocka_unit_test(test_model_first_screen_stale_keys),
		cmocka_unit_test(test_model_changes_while_typing),
	};
	int failed;

	failed = cmocka_run_group_tests_name("tui logic", tests, NULL, NULL);
	failed += cmocka_run_group_tests_name("tui model", model_tests,
	    model_setup, model_teardown);
	return failed;
}
