/*
 * test_tui_view.c: the view base (tui/view.c), what every view gets
 * without writing it: moving a pager or a list, the wheel, clicks on a
 * list's lines (a second click picks), the view's own action first, a
 * pager kept inside its text when its height changes, and resize calls
 * only on a new area. The views here are made up: an op table that
 * counts what the base asks of it. Curses draws to /dev/null.
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

#include "tui/curses.h"
#include "tui/view.h"

/* What the made-up view saw. */
struct probe {
	int	draws;
	int	text_rows;	/* the height its draw reports (pager) */
	int	moved;
	int	resized;
	enum action last;	/* the last action offered to it */
	bool	takes_down;	/* its own action handles ACT_DOWN */
	bool	takes_clicks;	/* its own click takes every click */
};

static struct probe probe;

static void
probe_draw(struct view *v)
{
	probe.draws++;
	if (v->ops->kind == VIEW_PAGER)
		v->rows = probe.text_rows;
}

static bool
probe_action(struct view *v, enum action a)
{
	(void)v;
	probe.last = a;
	return a == ACT_SELECT || (a == ACT_DOWN && probe.takes_down);
}

static bool
probe_click(struct view *v, int y, int x)
{
	(void)v;
	(void)y;
	(void)x;
	return probe.takes_clicks;
}

static void
probe_moved(struct view *v)
{
	(void)v;
	probe.moved++;
}

static void
probe_resize(struct view *v)
{
	(void)v;
	probe.resized++;
}

static const struct view_ops pager_ops = {
	.name = "pager",
	.scope = SC_HELP,
	.kind = VIEW_PAGER,
	.head = 1,
	.draw = probe_draw,
	.action = probe_action,
	.resize = probe_resize,
};

static const struct view_ops list_ops = {
	.name = "list",
	.scope = SC_PICKER,
	.kind = VIEW_LIST,
	.pick = ACT_SELECT,
	.draw = probe_draw,
	.action = probe_action,
	.click = probe_click,
	.moved = probe_moved,
};

static SCREEN *screen;
static FILE *out, *in;

/* Curses on /dev/null, so the base may draw: loaded as the TUI loads it. */
static int
setup(void **state)
{
	struct err err;

	(void)state;
	if (tui_curses_load(&err) < 0) {
		fprintf(stderr, "%s\n", err.msg);
		return -1;
	}
	out = fopen("/dev/null", "w");
	in = fopen("/dev/null", "r");
	if (out == NULL || in == NULL ||
	    (screen = newterm("vt100", out, in)) == NULL)
		return -1;
	set_term(screen);
	resize_term(24, 80);
	return 0;
}

static int
teardown(void **state)
{
	(void)state;
	endwin();
	delscreen(screen);
	fclose(out);
	fclose(in);
	return 0;
}

/* A view of ops on an 11-row area (a pager: 10 text rows shown). */
static struct view *
probe_view(const struct view_ops *ops)
{
	struct rect area = { 0, 0, 11, 60 };
	struct view *v;

	memset(&probe, 0, sizeof probe);
	v = view_new(NULL, ops, 0);
	view_place(v, &area);
	return v;
}

/* A pager moves by lines and pages and never past its text. */
static void
test_pager_moves_within_its_text(void **state)
{
	struct view *v = probe_view(&pager_ops);

	(void)state;
	probe.text_rows = 30;
	view_draw(v);
	assert_int_equal(v->rows, 30);
	assert_true(view_action(v, ACT_DOWN));
	assert_int_equal(v->top, 1);
	assert_true(view_action(v, ACT_END));
	assert_int_equal(v->top, 20);		/* the last row at the bottom */
	assert_true(view_action(v, ACT_DOWN));
	assert_int_equal(v->top, 20);
	assert_true(view_action(v, ACT_PAGE_UP));
	assert_int_equal(v->top, 11);		/* a page keeps one line */
	assert_true(view_action(v, ACT_HOME));
	assert_int_equal(v->top, 0);
	assert_true(view_action(v, ACT_UP));
	assert_int_equal(v->top, 0);
	view_wheel(v, 3);
	assert_int_equal(v->top, 3);
	view_wheel(v, -10);
	assert_int_equal(v->top, 0);
	view_wheel(v, 100);
	assert_int_equal(v->top, 20);
	/* Not a movement, not Back: the view's, and it does not take it. */
	assert_false(view_action(v, ACT_SEARCH));
	assert_int_equal(probe.last, ACT_SEARCH);
	view_free(v);
}

/* The view's own action comes before the base's. */
static void
test_own_action_first(void **state)
{
	struct view *v = probe_view(&pager_ops);

	(void)state;
	probe.text_rows = 30;
	view_draw(v);
	probe.takes_down = true;
	assert_true(view_action(v, ACT_DOWN));
	assert_int_equal(probe.last, ACT_DOWN);
	assert_int_equal(v->top, 0);
	view_free(v);
}

/*
 * The text got shorter while scrolled to its end (a wider window puts
 * the detail in two columns): the base draws again from a top that
 * fills the window; otherwise it draws once.
 */
static void
test_pager_redraws_when_its_text_shrinks(void **state)
{
	struct view *v = probe_view(&pager_ops);

	(void)state;
	probe.text_rows = 30;
	view_draw(v);
	view_action(v, ACT_END);
	probe.draws = 0;
	view_draw(v);
	assert_int_equal(probe.draws, 1);
	assert_int_equal(v->top, 20);
	probe.text_rows = 15;
	view_draw(v);
	assert_int_equal(probe.draws, 3);
	assert_int_equal(v->top, 5);
	probe.text_rows = 4;			/* fits: nothing to scroll */
	view_draw(v);
	assert_int_equal(v->top, 0);
	view_free(v);
}

/* A list moves its selection and tells the view. */
static void
test_list_moves_its_selection(void **state)
{
	struct view *v = probe_view(&list_ops);

	(void)state;
	scroll_set(&v->sc, 50, 10);
	assert_true(view_action(v, ACT_DOWN));
	assert_int_equal(v->sc.sel, 1);
	assert_true(view_action(v, ACT_PAGE_DOWN));
	assert_int_equal(v->sc.sel, 11);
	assert_true(view_action(v, ACT_END));
	assert_int_equal(v->sc.sel, 49);
	assert_int_equal(v->sc.top, 40);
	assert_true(view_action(v, ACT_HOME));
	assert_int_equal(v->sc.sel, 0);
	assert_int_equal(probe.moved, 4);
	view_free(v);
}

/* A click selects the line under it; a second click picks it. */
static void
test_list_click_selects_then_picks(void **state)
{
	struct view *v = probe_view(&list_ops);

	(void)state;
	scroll_set(&v->sc, 50, 10);
	v->list = (struct rect){ 5, 2, 10, 20 };
	view_click(v, 8, 3);
	assert_int_equal(v->sc.sel, 3);
	assert_int_equal(probe.moved, 1);
	assert_int_equal(probe.last, ACT_NONE);
	view_click(v, 8, 21);			/* the same line again */
	assert_int_equal(probe.last, ACT_SELECT);
	assert_int_equal(probe.moved, 1);
	/* Outside the lines: above, left, right, below. */
	view_click(v, 4, 3);
	view_click(v, 9, 1);
	view_click(v, 9, 22);
	view_click(v, 15, 3);
	assert_int_equal(v->sc.sel, 3);
	assert_int_equal(probe.moved, 1);
	/* A click the view takes is not the base's. */
	probe.takes_clicks = true;
	view_click(v, 9, 3);
	assert_int_equal(v->sc.sel, 3);
	view_free(v);
}

/*
 * The wheel scrolls a long list's window (the selection follows at the
 * edge); a list that fits has no window to scroll: it moves the
 * selection.
 */
static void
test_list_wheel(void **state)
{
	struct view *v = probe_view(&list_ops);

	(void)state;
	scroll_set(&v->sc, 50, 10);
	view_wheel(v, 3);
	assert_int_equal(v->sc.top, 3);
	assert_int_equal(v->sc.sel, 3);
	scroll_set(&v->sc, 5, 10);
	scroll_home(&v->sc);
	view_wheel(v, 3);
	assert_int_equal(v->sc.top, 0);
	assert_int_equal(v->sc.sel, 3);
	view_wheel(v, 3);
	assert_int_equal(v->sc.sel, 4);
	assert_int_equal(probe.moved, 3);
	view_free(v);
}

/* A new size reaches the view once; the same area again does not. */
static void
test_place_resizes_on_change_only(void **state)
{
	struct view *v = probe_view(&pager_ops);
	struct rect same = v->area, wider = { 0, 0, 11, 100 };

	(void)state;
	assert_int_equal(probe.resized, 1);
	view_place(v, &same);
	assert_int_equal(probe.resized, 1);
	view_place(v, &wider);
	assert_int_equal(probe.resized, 2);
	assert_int_equal(v->area.w, 100);
	view_free(v);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pager_moves_within_its_text),
		cmocka_unit_test(test_own_action_first),
		cmocka_unit_test(test_pager_redraws_when_its_text_shrinks),
		cmocka_unit_test(test_list_moves_its_selection),
		cmocka_unit_test(test_list_click_selects_then_picks),
		cmocka_unit_test(test_list_wheel),
		cmocka_unit_test(test_place_resizes_on_change_only),
	};

	return cmocka_run_group_tests_name("tui view base", tests, setup,
	    teardown);
}
