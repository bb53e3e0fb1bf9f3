/*
 * tui/view_help.c: the help screen, generated from the action table
 * (keys.h) like the function bar, so the two always agree.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "tui/curses.h"
#include "tui/keys.h"
#include "tui/view.h"

#define HELP_KEYS_W	24	/* width of the keys column */

/* Text lines that are not actions. */
static const char *const help_mouse[] = {
	"Click a row to select it, a column header to sort by it (again to",
	"reverse), an item of the bar at the bottom to run it; the wheel",
	"scrolls. Colours follow roles; NO_COLOR=1 gives monochrome.",
};

struct help {
	int	top;		/* first content row shown */
	int	rows;		/* content rows at the last draw */
};

/* Is action a listed in section s? Actions of every view go first only. */
static bool
in_section(const struct action_info *ai, const struct keys_section *s)
{
	if (s->scope == SC_VIEWS)
		return (ai->scope & SC_VIEWS) == SC_VIEWS;
	if ((ai->scope & s->scope) == 0)
		return false;
	return s->scope == SC_PROMPT || (ai->scope & SC_VIEWS) != SC_VIEWS;
}

/* Draw content row `row` if it is on screen. */
static int
help_y(const struct view *v, const struct help *h, int row)
{
	int y = v->area.y + 1 + row - h->top;

	return row >= h->top && y < v->area.y + v->area.h ? y : -1;
}

/* Draw the help. */
static void
help_draw(struct view *v)
{
	struct help *h = v->priv;
	char keys[64];
	size_t s, i;
	int a, row = 0, y, max = h->rows - (v->area.h - 1);

	if (h->top > max)
		h->top = max > 0 ? max : 0;
	draw_fill(&v->area, v->area.y, ui_attr(UI_TITLE));
	draw_text(v->area.y, v->area.x, v->area.w,
	    " gpucost: keys (Esc goes back, q quits)", ui_attr(UI_TITLE),
	    false);
	for (s = 0; s < keys_section_count; s++) {
		if ((y = help_y(v, h, row)) >= 0)
			draw_text(y, v->area.x + 1, v->area.w - 2,
			    keys_sections[s].title, ui_attr(UI_SECTION), false);
		row++;
		for (a = 1; a < ACTION_COUNT; a++) {
			const struct action_info *ai = &action_info[a];

			if (!in_section(ai, &keys_sections[s]))
				continue;
			if ((y = help_y(v, h, row)) >= 0) {
				keys_list((enum action)a, keys, sizeof keys);
				draw_text(y, v->area.x + 3, HELP_KEYS_W - 1,
				    keys, ui_attr(UI_LABEL), false);
				draw_text(y, v->area.x + 3 + HELP_KEYS_W,
				    v->area.w - 4 - HELP_KEYS_W, ai->help,
				    ui_attr(UI_NORMAL), false);
			}
			row++;
		}
		row++;
	}
	if ((y = help_y(v, h, row)) >= 0)
		draw_text(y, v->area.x + 1, v->area.w - 2, "Mouse",
		    ui_attr(UI_SECTION), false);
	row++;
	for (i = 0; i < sizeof help_mouse / sizeof help_mouse[0]; i++) {
		if ((y = help_y(v, h, row)) >= 0)
			draw_text(y, v->area.x + 3, v->area.w - 4,
			    help_mouse[i], ui_attr(UI_NORMAL), false);
		row++;
	}
	h->rows = row;
}

/* Scroll to top, clamped. */
static void
help_scroll(struct view *v, int top)
{
	struct help *h = v->priv;
	int max = h->rows - (v->area.h - 1);

	if (top > max)
		top = max;
	h->top = top < 0 ? 0 : top;
}

/* Scroll or leave. */
static bool
help_action(struct view *v, enum action a)
{
	struct help *h = v->priv;
	int page = v->area.h > 2 ? v->area.h - 2 : 1;
	int to;

	if (view_scroll_target(a, h->top, h->rows, page, &to)) {
		help_scroll(v, to);
		return true;
	}
	switch (a) {
	case ACT_BACK:
		tui_pop(v->tui);
		return true;
	default:
		return false;
	}
}

/* The wheel scrolls. */
static void
help_wheel(struct view *v, int delta)
{
	struct help *h = v->priv;

	help_scroll(v, h->top + delta);
}

static const struct view_ops help_ops = {
	.name = "help",
	.scope = SC_HELP,
	.overlay = false,
	.draw = help_draw,
	.action = help_action,
	.click = NULL,
	.wheel = help_wheel,
	.resize = NULL,
	.changed = NULL,
	.free = NULL,
};

/* The help screen. */
struct view *
view_help_new(struct tui *tui)
{
	return view_new(tui, &help_ops, sizeof(struct help));
}
