/*
 * tui/view_picker.c: a list to choose from, over the view below: the
 * GPU models present (with how many offers each would show), the
 * providers, or the column to sort by.
 *
 * Space toggles an item (GPU models and providers are multi-select)
 * and re-filters at once; Enter chooses the item under the cursor only
 * and closes the list, or, once items were ticked with Space, closes it
 * keeping them; Escape closes it keeping what is ticked.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "columns.h"
#include "tui/curses.h"
#include "tui/fields.h"
#include "tui/model.h"
#include "tui/scroll.h"
#include "tui/view.h"

#define PICKER_MAX	256
#define PICKER_W	44

struct picker {
	enum picker_kind kind;
	struct facet	 items[PICKER_MAX];	/* GPU models or providers */
	size_t		 nitems;	/* v->sc's row 0 is "any" (not sort) */
	bool		 ticked;	/* Space was used: Enter keeps ticks */
};

/* Rows in the list: "any" plus the facets, or the sort keys. */
static size_t
picker_rows(const struct picker *p)
{
	return p->kind == PICK_SORT ? SORT_KEY_COUNT : p->nitems + 1;
}

/* A person's name for a sort key: its column header when it has one. */
static const char *
sort_label(enum sort_key key)
{
	int c;

	if (key == SORT_COUNT)
		return "GPU count";
	for (c = 0; c < COLUMN_COUNT; c++)
		if (column_info[c].sort == key)
			return column_info[c].header;
	return sort_key_name(key);
}

/* Put the ticked items into the filter and re-filter. */
static void
picker_apply(struct view *v)
{
	struct picker *p = v->priv;
	struct model *m = tui_model(v->tui);

	if (p->kind == PICK_GPU)
		facet_apply_gpus(&m->filter, p->items, p->nitems);
	else if (p->kind == PICK_PROVIDER)
		facet_apply_providers(&m->filter, p->items, p->nitems);
	model_query(m);
	tui_model_changed(v->tui);
}

/* Choose row i only (row 0, "any", clears). */
static void
picker_choose(struct view *v, size_t row)
{
	struct picker *p = v->priv;
	struct model *m = tui_model(v->tui);
	size_t i;

	if (p->kind == PICK_SORT) {
		if (m->sort == (enum sort_key)row)
			return;
		m->sort = (enum sort_key)row;
		m->reverse = false;
		model_query(m);
		tui_model_changed(v->tui);
		return;
	}
	for (i = 0; i < p->nitems; i++)
		p->items[i].selected = row > 0 && i == row - 1;
	picker_apply(v);
}

/* Tick or choose; the base moves and goes back. */
static bool
picker_action(struct view *v, enum action a)
{
	struct picker *p = v->priv;

	switch (a) {
	case ACT_TOGGLE:
		if (p->kind == PICK_SORT || v->sc.sel == 0) {
			picker_choose(v, v->sc.sel);
			return true;
		}
		p->items[v->sc.sel - 1].selected =
		    !p->items[v->sc.sel - 1].selected;
		p->ticked = true;
		picker_apply(v);
		return true;
	case ACT_SELECT:
		if (!p->ticked)
			picker_choose(v, v->sc.sel);
		tui_pop(v->tui);
		return true;
	default:
		return false;
	}
}

/* Draw the list in a box. */
static void
picker_draw(struct view *v)
{
	struct picker *p = v->priv;
	struct model *m = tui_model(v->tui);
	size_t n = picker_rows(p), rows, i;
	struct rect box;
	char line[128];
	const char *title;

	box.w = v->area.w - 4 < PICKER_W ? v->area.w - 4 : PICKER_W;
	box.h = (int)n + 2 < v->area.h - 2 ? (int)n + 2 : v->area.h - 2;
	box.x = v->area.x + (v->area.w - box.w) / 2;
	if (box.x > v->area.x + 24)
		box.x = v->area.x + 24;
	box.y = v->area.y + 2;
	rows = box.h > 2 ? (size_t)box.h - 2 : 1;
	scroll_set(&v->sc, n, rows);
	/* The items, for the base's clicks: a second click chooses. */
	v->list = (struct rect){ box.y + 1, box.x, (int)rows, box.w };
	title = p->kind == PICK_GPU ? "GPU model (Space ticks)" :
	    p->kind == PICK_PROVIDER ? "Providers (Space ticks)" : "Sort by";
	draw_box(&box, title);
	for (i = 0; i < rows && v->sc.top + i < n; i++) {
		size_t row = v->sc.top + i;
		bool sel = row == v->sc.sel;
		struct rect r = { box.y + 1 + (int)i, box.x + 1, 1,
		    box.w - 2 };

		if (p->kind == PICK_SORT)
			snprintf(line, sizeof line, "(%c) %-12s %s",
			    m->sort == (enum sort_key)row ? '*' : ' ',
			    sort_label((enum sort_key)row),
			    sort_key_name((enum sort_key)row));
		else if (row == 0) {
			bool any = true;
			size_t k;

			for (k = 0; k < p->nitems; k++)
				if (p->items[k].selected)
					any = false;
			snprintf(line, sizeof line, "(%c) any", any ? '*' : ' ');
		} else
			snprintf(line, sizeof line, "[%c] %-20s %7zu",
			    p->items[row - 1].selected ? 'x' : ' ',
			    p->items[row - 1].name, p->items[row - 1].count);
		if (sel)
			draw_fill(&r, r.y, ui_attr(UI_SELECTION));
		draw_text(r.y, r.x + 1, r.w - 2, line, ui_attr(sel ?
		    UI_SELECTION : UI_PANEL), false);
	}
}

static const struct view_ops picker_ops = {
	.name = "picker",
	.scope = SC_PICKER,
	.overlay = true,
	.kind = VIEW_LIST,
	.pick = ACT_SELECT,
	.draw = picker_draw,
	.action = picker_action,
};

/* A pick list of kind. */
struct view *
view_picker_new(struct tui *tui, enum picker_kind kind)
{
	struct view *v = view_new(tui, &picker_ops, sizeof(struct picker));
	struct picker *p = v->priv;
	struct model *m = tui_model(tui);
	size_t i;

	p->kind = kind;
	if (kind == PICK_GPU)
		p->nitems = facet_gpus(m->offers.v, m->offers.n, &m->filter,
		    p->items, PICKER_MAX);
	else if (kind == PICK_PROVIDER)
		p->nitems = facet_providers(m->offers.v, m->offers.n,
		    &m->filter, p->items, PICKER_MAX);
	scroll_set(&v->sc, picker_rows(p), 1);
	/* Start on the current choice. */
	if (kind == PICK_SORT)
		scroll_select(&v->sc, (size_t)m->sort);
	else
		for (i = 0; i < p->nitems; i++)
			if (p->items[i].selected) {
				scroll_select(&v->sc, i + 1);
				break;
			}
	return v;
}
