/*
 * tui/view_filter.c: the filter panel, an overlay on the offers table.
 *
 * One row per field of struct offer_filter (fields.h). Every change
 * re-filters at once, so the table behind and the match count follow
 * the panel; Escape closes it and keeps the filter.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "str.h"
#include "xalloc.h"
#include "tui/curses.h"
#include "tui/fields.h"
#include "tui/model.h"
#include "tui/scroll.h"
#include "tui/view.h"

#define PANEL_W		50
#define PANEL_LABEL_W	17

struct filter_panel {
	char		 prompt_label[48];
	enum filter_field editing;	/* the field the prompt edits */
	char		 saved_text[OFFER_NAME_MAX];	/* text before editing */
};

/* The panel's rectangle inside the view area. */
static struct rect
panel_box(const struct view *v)
{
	struct rect r;

	r.x = v->area.x;
	r.y = v->area.y + 1;
	r.w = v->area.w < PANEL_W ? v->area.w : PANEL_W;
	r.h = FILTER_FIELD_COUNT + 3;	/* borders and the match count */
	if (r.h > v->area.h - 1)
		r.h = v->area.h - 1;
	return r;
}

/* Re-filter after a change. */
static void
apply(struct view *v)
{
	model_query(tui_model(v->tui));
	tui_model_changed(v->tui);
}

/* Live text search from the panel. */
static void
text_changed(struct view *v, const char *text)
{
	struct filter_panel *fp = v->priv;
	struct model *m = tui_model(v->tui);

	if (fp->editing != FF_TEXT)
		return;
	str_copy(m->filter.text, sizeof m->filter.text, text);
	apply(v);
}

static int
cmp_name(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/*
 * --region as the CLI checks it (cli_region_known()): the tables know
 * most places; the rest are the loaded offers' region names.
 */
static int
region_check(const struct model *m, struct err *err)
{
	const char **v;
	size_t i, n = 0;
	int rc;

	if (filter_region_check(&m->filter, NULL, 0, err) == 0)
		return 0;
	v = xreallocarray(NULL, m->offers.n > 0 ? m->offers.n : 1, sizeof *v);
	for (i = 0; i < m->offers.n; i++)
		v[i] = m->offers.v[i].region;
	qsort(v, m->offers.n, sizeof *v, cmp_name);
	for (i = 0; i < m->offers.n; i++)
		if (n == 0 || strcmp(v[n - 1], v[i]) != 0)
			v[n++] = v[i];
	rc = filter_region_check(&m->filter, v, n, err);
	free(v);
	return rc;
}

/* A typed value: parse it like the CLI option, or keep the prompt open. */
static bool
edit_done(struct view *v, const char *text, bool accepted)
{
	struct filter_panel *fp = v->priv;
	struct model *m = tui_model(v->tui);
	char region[sizeof m->filter.region];
	struct err err;

	if (!accepted) {
		/* The text search applied as typed: put the old one back. */
		if (fp->editing == FF_TEXT) {
			str_copy(m->filter.text, sizeof m->filter.text,
			    fp->saved_text);
			apply(v);
		}
		return true;
	}
	/* Emptying the prompt undoes the field; else the CLI's parser. */
	str_copy(region, sizeof region, m->filter.region);
	if (text[0] == '\0')
		filter_clear(&m->filter, fp->editing);
	else if (filter_set(&m->filter, fp->editing, text, false, &err) < 0) {
		tui_message(v->tui, UI_ERROR, "%s", err.msg);
		return false;
	} else if (fp->editing == FF_REGION && region_check(m, &err) < 0) {
		/* A place no provider has: refused, as the CLI refuses it. */
		str_copy(m->filter.region, sizeof m->filter.region, region);
		tui_message(v->tui, UI_ERROR, "%s", err.msg);
		return false;
	}
	apply(v);
	return true;
}

static const struct prompt_ops edit_prompt = {
	.changed = text_changed,
	.done = edit_done,
};

/* Change the selected field the way its kind is changed. */
static void
edit_field(struct view *v, bool toggle)
{
	struct filter_panel *fp = v->priv;
	struct model *m = tui_model(v->tui);
	enum filter_field ff = (enum filter_field)v->sc.sel;
	char text[OFFER_NAME_MAX * 2];

	switch (filter_fields[ff].kind) {
	case FILTER_PICK:
		tui_push(v->tui, view_picker_new(v->tui, ff == FF_GPU ?
		    PICK_GPU : PICK_PROVIDER));
		return;
	case FILTER_FLAG:
	case FILTER_CHOICE:
		field_step(&m->filter, ff, 1);
		apply(v);
		return;
	case FILTER_NUMBER:
	case FILTER_TEXT:
		if (toggle && filter_is_set(&m->filter, ff)) {
			filter_clear(&m->filter, ff);
			apply(v);
			return;
		}
		break;
	}
	fp->editing = ff;
	str_copy(fp->saved_text, sizeof fp->saved_text, m->filter.text);
	filter_text(&m->filter, ff, text, sizeof text);
	snprintf(fp->prompt_label, sizeof fp->prompt_label, "%s: ",
	    filter_fields[ff].label);
	tui_prompt(v->tui, v, &edit_prompt, fp->prompt_label, text);
}

/* Edit, step or clear the selected field; the base moves and goes back. */
static bool
filter_action(struct view *v, enum action a)
{
	struct model *m = tui_model(v->tui);
	enum filter_field ff = (enum filter_field)v->sc.sel;

	switch (a) {
	case ACT_EDIT:
		edit_field(v, false);
		return true;
	case ACT_TOGGLE:
		edit_field(v, true);
		return true;
	case ACT_NEXT_VALUE:
	case ACT_PREV_VALUE:
		if (field_step(&m->filter, ff, a == ACT_NEXT_VALUE ? 1 : -1))
			apply(v);
		else if (filter_fields[ff].kind == FILTER_PICK)
			edit_field(v, false);
		return true;
	case ACT_CLEAR_FIELD:
		filter_clear(&m->filter, ff);
		apply(v);
		return true;
	case ACT_CLEAR_ALL:
		filter_clear_all(&m->filter);
		apply(v);
		return true;
	default:
		return false;
	}
}

/* Draw the panel over the table. */
static void
filter_draw(struct view *v)
{
	struct model *m = tui_model(v->tui);
	struct rect box = panel_box(v);
	char value[OFFER_NAME_MAX * 4], head[64];
	size_t i, rows;
	int y;

	rows = box.h > 3 ? (size_t)box.h - 3 : 1;
	scroll_set(&v->sc, FILTER_FIELD_COUNT, rows);
	/* The fields, for the base's clicks: a second click edits. */
	v->list = (struct rect){ box.y + 2, box.x, (int)rows, box.w };
	draw_box(&box, "Filter");
	/* Offers, as the title counts them: a row may fold several. */
	snprintf(head, sizeof head, "%zu of %zu offers match",
	    m->noffers_shown, m->offers.n);
	draw_text(box.y + 1, box.x + 2, box.w - 4, head, ui_attr(UI_NOTICE),
	    false);
	for (i = 0; i < rows && v->sc.top + i < FILTER_FIELD_COUNT; i++) {
		enum filter_field ff = (enum filter_field)(v->sc.top + i);
		bool sel = v->sc.top + i == v->sc.sel;
		struct rect line = { box.y + 2 + (int)i, box.x + 1, 1,
		    box.w - 2 };

		y = line.y;
		if (sel)
			draw_fill(&line, y, ui_attr(UI_SELECTION));
		draw_text(y, line.x + 1, PANEL_LABEL_W, filter_fields[ff].label,
		    sel ? ui_attr(UI_SELECTION) : ui_attr(UI_LABEL), false);
		filter_value(&m->filter, ff, value, sizeof value);
		draw_text(y, line.x + 1 + PANEL_LABEL_W, line.w - 2 -
		    PANEL_LABEL_W, value, sel ? ui_attr(UI_SELECTION) :
		    ui_attr(filter_is_set(&m->filter, ff) ? UI_INPUT : UI_DIM),
		    false);
	}
}

static const struct view_ops filter_ops = {
	.name = "filter",
	.scope = SC_FILTER,
	.overlay = true,
	.kind = VIEW_LIST,
	.pick = ACT_EDIT,
	.draw = filter_draw,
	.action = filter_action,
};

/* The filter panel. */
struct view *
view_filter_new(struct tui *tui)
{
	struct view *v = view_new(tui, &filter_ops,
	    sizeof(struct filter_panel));
	struct filter_panel *fp = v->priv;

	scroll_set(&v->sc, FILTER_FIELD_COUNT, FILTER_FIELD_COUNT);
	fp->editing = FF_TEXT;
	return v;
}
