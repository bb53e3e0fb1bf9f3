/*
 * tui/view_help.c: the help screen, generated from the action table
 * (keys.h) like the function bar, so the two always agree, and the
 * note letters from the note table (note_info.h), as --help lists them.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "note_info.h"
#include "tui/curses.h"
#include "tui/keys.h"
#include "tui/view.h"

#define HELP_KEYS_W	24	/* width of the keys column */

/* Text that is not actions: one paragraph, wrapped to the width. */
static const char help_mouse[] =
	"Click a row to select it, a column header to sort by it (again to "
	"reverse), an item of the bar at the bottom to run it; the wheel "
	"scrolls. Colours follow roles; NO_COLOR=1 gives monochrome.";

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

/* Draw the help. */
static void
help_draw(struct view *v)
{
	char keys[64];
	size_t s;
	int a, row = 0, y;

	view_title(v, " gpucost: keys (Esc goes back, q quits)");
	for (s = 0; s < keys_section_count; s++) {
		if ((y = view_row_y(v, row)) >= 0)
			draw_text(y, v->area.x + 1, v->area.w - 2,
			    keys_sections[s].title, ui_attr(UI_SECTION), false);
		row++;
		for (a = 1; a < ACTION_COUNT; a++) {
			const struct action_info *ai = &action_info[a];

			if (!in_section(ai, &keys_sections[s]))
				continue;
			if ((y = view_row_y(v, row)) >= 0) {
				keys_list((enum action)a, keys, sizeof keys);
				draw_text(y, v->area.x + 3, HELP_KEYS_W - 1,
				    keys, ui_attr(UI_LABEL), false);
			}
			/* Wrapped, never cut (issue 45). */
			row += draw_wrapped(v, row, v->area.x + 3 + HELP_KEYS_W,
			    v->area.w - 4 - HELP_KEYS_W, ai->help,
			    ui_attr(UI_NORMAL));
		}
		row++;
	}
	if ((y = view_row_y(v, row)) >= 0)
		draw_text(y, v->area.x + 1, v->area.w - 2, "Mouse",
		    ui_attr(UI_SECTION), false);
	row++;
	row += draw_wrapped(v, row, v->area.x + 3, v->area.w - 4, help_mouse,
	    ui_attr(UI_NORMAL));
	/* The NOTE column's letters, from the note table (note_info.h). */
	row++;
	if ((y = view_row_y(v, row)) >= 0)
		draw_text(y, v->area.x + 1, v->area.w - 2,
		    "Notes (the NOTE column)", ui_attr(UI_SECTION), false);
	row++;
	for (a = 0; a < NOTE_COUNT; a++) {
		if ((y = view_row_y(v, row)) >= 0) {
			snprintf(keys, sizeof keys, "%s  %s",
			    note_marker((enum note)a), note_token((enum note)a));
			draw_text(y, v->area.x + 3, HELP_KEYS_W - 1, keys,
			    ui_attr(UI_LABEL), false);
		}
		row += draw_wrapped(v, row, v->area.x + 3 + HELP_KEYS_W,
		    v->area.w - 4 - HELP_KEYS_W, note_text((enum note)a),
		    ui_attr(UI_NORMAL));
	}
	v->rows = row;
}

/* The base scrolls it and goes back. */
static const struct view_ops help_ops = {
	.name = "help",
	.scope = SC_HELP,
	.kind = VIEW_PAGER,
	.head = 1,
	.draw = help_draw,
};

/* The help screen. */
struct view *
view_help_new(struct tui *tui)
{
	return view_new(tui, &help_ops, 0);
}
