/* test_layout.c: unit tests for layout.c (fitting columns into a width). */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "layout.h"

/* A column wanting want, cut to min when flexible, of priority prio. */
static struct layout_column
col(size_t want, size_t min, int prio, bool flexible)
{
	struct layout_column c;

	memset(&c, 0, sizeof c);
	c.want = want;
	c.min = min;
	c.priority = prio;
	c.flexible = flexible;
	/* Garbage in the outputs, which layout_fit must overwrite. */
	c.shown = false;
	c.width = 12345;
	return c;
}

/* Sum of shown widths plus the gaps between shown columns. */
static size_t
used(const struct layout_column *cols, size_t n)
{
	size_t i, total = 0, shown = 0;

	for (i = 0; i < n; i++)
		if (cols[i].shown) {
			total += cols[i].width;
			shown++;
		}
	return total + (shown > 1 ? (shown - 1) * LAYOUT_GAP : 0);
}

static void
test_unlimited_width(void **state)
{
	struct layout_column c[3];

	(void)state;
	c[0] = col(5, 3, 1, true);
	c[1] = col(10, 4, 9, true);
	c[2] = col(3, 3, 5, false);
	assert_int_equal(layout_fit(c, 3, 0), 5 + 10 + 3 + 2 * LAYOUT_GAP);
	assert_true(c[0].shown && c[1].shown && c[2].shown);
	assert_int_equal(c[0].width, 5);
	assert_int_equal(c[1].width, 10);
	assert_int_equal(c[2].width, 3);
}

static void
test_everything_fits(void **state)
{
	struct layout_column c[3];
	size_t total = 5 + 10 + 3 + 2 * LAYOUT_GAP;

	(void)state;
	c[0] = col(5, 3, 1, true);
	c[1] = col(10, 4, 9, true);
	c[2] = col(3, 3, 5, false);
	/* Exactly the width needed, and more: nothing is cut or dropped. */
	assert_int_equal(layout_fit(c, 3, total), total);
	assert_true(c[0].shown && c[1].shown && c[2].shown);
	assert_int_equal(c[0].width, 5);
	assert_int_equal(c[1].width, 10);
	assert_int_equal(c[2].width, 3);
	assert_int_equal(layout_fit(c, 3, 200), total);
	assert_true(c[0].shown && c[1].shown && c[2].shown);
	assert_int_equal(c[1].width, 10);
}

static void
test_single_column_fits(void **state)
{
	struct layout_column c[1];

	(void)state;
	c[0] = col(7, 7, 1, false);
	assert_int_equal(layout_fit(c, 1, 80), 7);
	assert_true(c[0].shown);
	assert_int_equal(c[0].width, 7);
}

static void
test_no_columns(void **state)
{
	struct layout_column c[1];

	(void)state;
	c[0] = col(7, 7, 1, false);
	assert_int_equal(layout_fit(c, 0, 80), 0);
	assert_int_equal(layout_fit(c, 0, 0), 0);
}

static void
test_flexible_shrink_evenly(void **state)
{
	struct layout_column c[3];

	(void)state;
	c[0] = col(10, 4, 1, true);
	c[1] = col(10, 4, 1, true);
	c[2] = col(5, 5, 1, false);
	/* Wants 29; 6 too many: each flexible column gives 3. */
	assert_int_equal(layout_fit(c, 3, 23), 23);
	assert_true(c[0].shown && c[1].shown && c[2].shown);
	assert_int_equal(c[0].width, 7);
	assert_int_equal(c[1].width, 7);
	assert_int_equal(c[2].width, 5);
	/* Odd excess: split within one column of each other. */
	assert_int_equal(layout_fit(c, 3, 24), 24);
	assert_true(c[0].shown && c[1].shown && c[2].shown);
	assert_int_equal(c[0].width + c[1].width, 15);
	assert_true(c[0].width == 7 || c[0].width == 8);
	assert_int_equal(c[2].width, 5);
}

static void
test_flexible_shrink_to_minimum(void **state)
{
	struct layout_column c[3];

	(void)state;
	c[0] = col(10, 4, 1, true);
	c[1] = col(10, 4, 1, true);
	c[2] = col(5, 5, 1, false);
	/* Exactly the minimum widths. */
	assert_int_equal(layout_fit(c, 3, 4 + 4 + 5 + 2 * LAYOUT_GAP), 17);
	assert_true(c[0].shown && c[1].shown && c[2].shown);
	assert_int_equal(c[0].width, 4);
	assert_int_equal(c[1].width, 4);
	assert_int_equal(c[2].width, 5);
}

static void
test_flexible_uneven_slack(void **state)
{
	struct layout_column c[2];

	(void)state;
	/* A can give only 2; B gives the rest. */
	c[0] = col(10, 8, 1, true);
	c[1] = col(20, 4, 1, true);
	assert_int_equal(layout_fit(c, 2, 22), 22);
	assert_true(c[0].shown && c[1].shown);
	assert_int_equal(c[0].width, 8);
	assert_int_equal(c[1].width, 12);
}

static void
test_fixed_columns_never_cut(void **state)
{
	struct layout_column c[3];

	(void)state;
	c[0] = col(10, 2, 1, false);
	c[1] = col(20, 4, 1, true);
	c[2] = col(6, 1, 1, false);
	assert_int_equal(layout_fit(c, 3, 30), 30);
	assert_true(c[0].shown && c[1].shown && c[2].shown);
	assert_int_equal(c[0].width, 10);
	assert_int_equal(c[1].width, 10);
	assert_int_equal(c[2].width, 6);
}

static void
test_min_above_want(void **state)
{
	struct layout_column c[2];

	(void)state;
	/* A flexible column whose min exceeds its want never grows. */
	c[0] = col(3, 8, 1, true);
	c[1] = col(20, 5, 1, true);
	assert_int_equal(layout_fit(c, 2, 15), 15);
	assert_true(c[0].shown && c[1].shown);
	assert_int_equal(c[0].width, 3);
	assert_int_equal(c[1].width, 10);
}

static void
test_drop_least_important(void **state)
{
	struct layout_column c[3];

	(void)state;
	c[0] = col(10, 10, 1, false);
	c[1] = col(10, 10, 3, false);
	c[2] = col(10, 10, 2, false);
	/* Needs 34; without the priority-3 column 22. */
	assert_int_equal(layout_fit(c, 3, 25), 22);
	assert_true(c[0].shown);
	assert_false(c[1].shown);
	assert_true(c[2].shown);
	assert_int_equal(c[0].width, 10);
	assert_int_equal(c[2].width, 10);
	assert_int_equal(used(c, 3), 22);
	/* Narrower still: the priority-2 column goes next. */
	assert_int_equal(layout_fit(c, 3, 21), 10);
	assert_true(c[0].shown);
	assert_false(c[1].shown);
	assert_false(c[2].shown);
	assert_int_equal(c[0].width, 10);
}

static void
test_drop_ties_later_first(void **state)
{
	struct layout_column c[3];

	(void)state;
	c[0] = col(10, 10, 2, false);
	c[1] = col(10, 10, 2, false);
	c[2] = col(10, 10, 1, false);
	assert_int_equal(layout_fit(c, 3, 25), 22);
	assert_true(c[0].shown);
	assert_false(c[1].shown);
	assert_true(c[2].shown);
	/* Three equal columns: the last goes first, then the middle. */
	c[0] = col(4, 4, 5, false);
	c[1] = col(4, 4, 5, false);
	c[2] = col(4, 4, 5, false);
	assert_int_equal(layout_fit(c, 3, 13), 10);
	assert_true(c[0].shown && c[1].shown);
	assert_false(c[2].shown);
	assert_int_equal(layout_fit(c, 3, 9), 4);
	assert_true(c[0].shown);
	assert_false(c[1].shown || c[2].shown);
}

static void
test_shrink_before_drop(void **state)
{
	struct layout_column c[3];

	(void)state;
	c[0] = col(30, 10, 1, true);
	c[1] = col(10, 10, 0, false);
	c[2] = col(10, 10, 3, false);
	/*
	 * Minimums (34) fit in 40, wants (54) do not: the less important
	 * number goes rather than the name being cut (issue 12).
	 */
	assert_int_equal(layout_fit(c, 3, 42), 42);
	assert_true(c[0].shown && c[1].shown);
	assert_false(c[2].shown);
	assert_int_equal(c[0].width, 30);
	/* A kept column stays: then the name is cut. */
	assert_int_equal(layout_fit(c, 3, 30), 30);
	assert_true(c[0].shown && c[1].shown);
	assert_false(c[2].shown);
	assert_int_equal(c[0].width, 18);
	assert_int_equal(c[1].width, 10);
}

static void
test_drop_uses_minimum_widths(void **state)
{
	struct layout_column c[2];

	(void)state;
	/* Both fit at their minimums: no column is dropped. */
	c[0] = col(40, 5, 1, true);
	c[1] = col(40, 5, 9, true);
	assert_int_equal(layout_fit(c, 2, 12), 12);
	assert_true(c[0].shown && c[1].shown);
	assert_int_equal(c[0].width, 5);
	assert_int_equal(c[1].width, 5);
}

static void
test_single_column_cut(void **state)
{
	struct layout_column c[1];

	(void)state;
	c[0] = col(20, 20, 1, false);
	assert_int_equal(layout_fit(c, 1, 8), 8);
	assert_true(c[0].shown);
	assert_int_equal(c[0].width, 8);
	c[0] = col(20, 10, 1, true);
	assert_int_equal(layout_fit(c, 1, 8), 8);
	assert_true(c[0].shown);
	assert_int_equal(c[0].width, 8);
	/* Flexible and fits between min and want: cut to the width. */
	c[0] = col(20, 5, 1, true);
	assert_int_equal(layout_fit(c, 1, 12), 12);
	assert_true(c[0].shown);
	assert_int_equal(c[0].width, 12);
}

static void
test_width_smaller_than_any_column(void **state)
{
	struct layout_column c[3];

	(void)state;
	c[0] = col(10, 10, 2, false);
	c[1] = col(12, 8, 1, true);
	c[2] = col(9, 9, 3, false);
	/* Only the most important column stays, cut to the width. */
	assert_int_equal(layout_fit(c, 3, 5), 5);
	assert_false(c[0].shown);
	assert_true(c[1].shown);
	assert_false(c[2].shown);
	assert_int_equal(c[1].width, 5);
	assert_int_equal(used(c, 3), 5);
}

static void
test_result_never_exceeds_width(void **state)
{
	struct layout_column c[5];
	size_t w, r;

	(void)state;
	for (w = 1; w <= 80; w++) {
		c[0] = col(8, 6, 1, false);
		c[1] = col(25, 8, 4, true);
		c[2] = col(14, 6, 3, true);
		c[3] = col(7, 7, 1, false);
		c[4] = col(9, 9, 9, false);
		r = layout_fit(c, 5, w);
		assert_true(r <= w);
		assert_int_equal(r, used(c, 5));
		/* The priority-1 column that is listed first is always kept. */
		assert_true(c[0].shown);
	}
}

/* Priority 0 is dropped only when nothing else is left. */
static void
test_kept_columns(void **state)
{
	struct layout_column c[3];

	(void)state;
	c[0] = col(10, 10, 0, false);
	c[1] = col(10, 10, 1, false);
	c[2] = col(10, 10, 0, false);
	layout_fit(c, 3, 22);
	assert_true(c[0].shown);
	assert_false(c[1].shown);
	assert_true(c[2].shown);
	/* Narrower than the kept ones: the last of them goes. */
	layout_fit(c, 3, 12);
	assert_true(c[0].shown);
	assert_false(c[2].shown);
}

/* A name keeps its width; a less important number goes instead. */
static void
test_names_not_cut_for_numbers(void **state)
{
	struct layout_column c[3];

	(void)state;
	c[0] = col(20, 8, 0, true);	/* instance */
	c[1] = col(10, 10, 0, false);	/* $/GPU-H */
	c[2] = col(10, 10, 3, false);	/* $/H */
	/* All at floors fit (8 + 10 + 10 + 4 = 32), at wants 44 do not. */
	layout_fit(c, 3, 34);
	assert_true(c[0].shown && c[1].shown);
	assert_false(c[2].shown);
	assert_int_equal(c[0].width, 20);
	/* Two names share the cut. */
	c[2] = col(20, 6, 1, true);	/* region */
	layout_fit(c, 3, 40);
	assert_true(c[0].shown && c[1].shown && c[2].shown);
	assert_true(c[0].width + c[1].width + c[2].width + 4 <= 40);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_unlimited_width),
		cmocka_unit_test(test_everything_fits),
		cmocka_unit_test(test_single_column_fits),
		cmocka_unit_test(test_no_columns),
		cmocka_unit_test(test_flexible_shrink_evenly),
		cmocka_unit_test(test_flexible_shrink_to_minimum),
		cmocka_unit_test(test_flexible_uneven_slack),
		cmocka_unit_test(test_fixed_columns_never_cut),
		cmocka_unit_test(test_min_above_want),
		cmocka_unit_test(test_drop_least_important),
		cmocka_unit_test(test_drop_ties_later_first),
		cmocka_unit_test(test_shrink_before_drop),
		cmocka_unit_test(test_drop_uses_minimum_widths),
		cmocka_unit_test(test_single_column_cut),
		cmocka_unit_test(test_width_smaller_than_any_column),
		cmocka_unit_test(test_result_never_exceeds_width),
		cmocka_unit_test(test_kept_columns),
		cmocka_unit_test(test_names_not_cut_for_numbers),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
