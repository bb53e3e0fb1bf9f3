/*
 * tui/view_offers.c: the offers table, the bottom of the view stack.
 *
 * Per change it does model_query() and measures a sample of rows for
 * the column widths; per redraw it formats only the visible rows. The
 * cell buffer grows with the window, never per row or per keystroke.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "columns.h"
#include "layout.h"
#include "money.h"
#include "str.h"
#include "tui/curses.h"
#include "tui/fields.h"
#include "tui/model.h"
#include "tui/scroll.h"
#include "tui/view.h"
#include "xalloc.h"

#define CELL_MAX	80	/* bytes of one formatted cell */
#define WANT_SAMPLE	MODEL_FIRST_ROWS
#define TABLE_TOP	2	/* title line and column headers */

struct offers {
	enum column	 cols[COLUMN_COUNT];	/* the table's columns */
	size_t		 ncols;
	size_t		 want[COLUMN_COUNT];	/* widest cell seen, this result */
	bool		 empty[COLUMN_COUNT];	/* no value in any row seen */
	bool		 same[COLUMN_COUNT];	/* every row seen as the first */
	struct layout_column lay[COLUMN_COUNT];
	int		 colx[COLUMN_COUNT];	/* x of a shown column, or -1 */
	char		(*cells)[CELL_MAX];	/* visible rows x ncols */
	size_t		 cell_rows;
	/* The selected offer, to find it again after a change. */
	char		 sel_provider[OFFER_PROVIDER_MAX];
	char		 sel_key[OFFER_KEY_MAX];
	int		 sel_nodes;
	bool		 to_top;	/* the next change selects the first row */
	/* The order on screen: a new one starts at the top. */
	enum sort_key	 shown_sort;
	bool		 shown_reverse;
	/* The filter on screen: a new one starts at the top. */
	char		 shown_filter[512];
	int		 cols_term;	/* the term cols[] was chosen for */
	/* What the widths were measured for: a new sort keeps them. */
	char		 measured_filter[512];
	unsigned	 measured_generation;
};

static void	choose_columns(struct view *);

/* Rows the table has on screen. */
static size_t
table_rows(const struct view *v)
{
	return v->area.h > TABLE_TOP ? (size_t)(v->area.h - TABLE_TOP) : 1;
}

/* Remember which offer is selected. */
static void
remember_selection(struct view *v)
{
	struct offers *o = v->priv;
	struct model *m = tui_model(v->tui);

	if (v->sc.sel >= m->nplans) {
		o->sel_key[0] = '\0';
		return;
	}
	str_copy(o->sel_provider, sizeof o->sel_provider,
	    m->plans[v->sc.sel].offer->provider);
	str_copy(o->sel_key, sizeof o->sel_key, m->plans[v->sc.sel].offer->key);
	o->sel_nodes = m->plans[v->sc.sel].nodes;
}

/*
 * Measure the header and a sample of rows for each column's width. The
 * widths only grow while the filter stays the same, so sorting and
 * scrolling do not make the columns jump.
 */
static void
measure(struct view *v)
{
	struct offers *o = v->priv;
	struct model *m = tui_model(v->tui);
	struct column_ctx ctx = { .now = tui_now(v->tui),
	    .hours = tui_hours(v->tui) };
	char cell[CELL_MAX], first[CELL_MAX];
	char filter[sizeof o->measured_filter];
	size_t i, j, w, n = m->nplans < WANT_SAMPLE ? m->nplans : WANT_SAMPLE;

	if (ctx.now == 0)
		ctx.now = (int64_t)time(NULL);
	filter_describe(&m->filter, filter, sizeof filter);
	if (strcmp(filter, o->measured_filter) != 0 ||
	    m->generation != o->measured_generation || o->want[0] == 0) {
		for (j = 0; j < o->ncols; j++) {
			o->want[j] = str_width(column_info[o->cols[j]].header);
			o->empty[j] = true;
			o->same[j] = true;
		}
		str_copy(o->measured_filter, sizeof o->measured_filter, filter);
		o->measured_generation = m->generation;
	}
	for (j = 0; j < o->ncols && n > 0; j++) {
		column_cell(o->cols[j], &m->plans[0], &ctx, first,
		    sizeof first);
		for (i = 0; i < n; i++) {
			column_cell(o->cols[j], &m->plans[i], &ctx, cell,
			    sizeof cell);
			if ((w = str_width(cell)) > o->want[j])
				o->want[j] = w;
			if (!column_cell_empty(cell))
				o->empty[j] = false;
			if (strcmp(cell, first) != 0)
				o->same[j] = false;
		}
	}
}

/*
 * Tests (tests/cli/one_answer.sh): GPUCOST_DEBUG_ROWS=FILE appends the
 * rows the table holds after each change (column_dump()): "tui-first"
 * while the first screen from the indexes waits for the count, then
 * "tui" (the first MODEL_FIRST_ROWS of a whole answer before the rest
 * of the load sorts the others: model_first()).
 */
static void
debug_rows(struct view *v)
{
	struct model *m = tui_model(v->tui);
	const char *path = getenv("GPUCOST_DEBUG_ROWS");
	struct column_ctx ctx = { .now = tui_now(v->tui),
	    .hours = tui_hours(v->tui) };
	FILE *f;

	if (path == NULL || path[0] == '\0' || (f = fopen(path, "a")) == NULL)
		return;
	if (ctx.now == 0)
		ctx.now = (int64_t)time(NULL);
	column_dump(f, m->counted ? "tui" : "tui-first", m->plans,
	    m->partial ? m->nready : m->nplans, &ctx);
	fclose(f);
}

/* The model changed: find the selection again, re-measure. */
static void
offers_changed(struct view *v)
{
	struct offers *o = v->priv;
	struct model *m = tui_model(v->tui);
	char filter[sizeof o->shown_filter];
	size_t i;

	if (m->filter.term != o->cols_term)
		choose_columns(v);
	scroll_set(&v->sc, m->nplans, table_rows(v));
	if (m->sort != o->shown_sort || m->reverse != o->shown_reverse)
		o->to_top = true;
	/* A new filter (from any view) shows its best offers first. */
	filter_describe(&m->filter, filter, sizeof filter);
	if (strcmp(filter, o->shown_filter) != 0)
		o->to_top = true;
	str_copy(o->shown_filter, sizeof o->shown_filter, filter);
	o->shown_sort = m->sort;
	o->shown_reverse = m->reverse;
	if (o->to_top) {
		scroll_home(&v->sc);
		o->to_top = false;
	} else if (o->sel_key[0] != '\0' &&
	    (i = model_find(m, o->sel_provider, o->sel_key, o->sel_nodes)) !=
	    (size_t)-1)
		scroll_select(&v->sc, i);
	measure(v);
	remember_selection(v);
	debug_rows(v);
}

/* Re-filter after the view changed the model's filter or sort. */
static void
requery(struct view *v, bool to_top)
{
	struct offers *o = v->priv;

	o->to_top = to_top;
	model_query(tui_model(v->tui));
	tui_model_changed(v->tui);
}

/* Sort by key; the same key again reverses. */
static void
sort_by(struct view *v, enum sort_key key)
{
	struct model *m = tui_model(v->tui);

	if (m->sort == key)
		m->reverse = !m->reverse;
	else {
		m->sort = key;
		m->reverse = false;
	}
	requery(v, true);
}

/* Sort by the next or previous shown column. */
static void
sort_cycle(struct view *v, int dir)
{
	struct offers *o = v->priv;
	struct model *m = tui_model(v->tui);
	size_t j, cur = o->ncols, k;

	for (j = 0; j < o->ncols; j++)
		if (o->lay[j].shown && column_info[o->cols[j]].sort == m->sort)
			cur = j;
	for (k = 1; k <= o->ncols; k++) {
		if (cur == o->ncols)
			j = dir > 0 ? k - 1 : o->ncols - k;
		else
			j = (cur + (dir > 0 ? k : o->ncols * 2 - k)) % o->ncols;
		if (o->lay[j].shown &&
		    column_info[o->cols[j]].sort != m->sort) {
			m->sort = column_info[o->cols[j]].sort;
			m->reverse = false;
			requery(v, true);
			return;
		}
	}
}

/* The search prompt changed: filter as the user types. */
static void
search_changed(struct view *v, const char *text)
{
	struct model *m = tui_model(v->tui);

	str_copy(m->filter.text, sizeof m->filter.text, text);
	requery(v, true);
}

/* Enter keeps the text filter, Escape clears it. */
static bool
search_done(struct view *v, const char *text, bool accepted)
{
	struct model *m = tui_model(v->tui);

	str_copy(m->filter.text, sizeof m->filter.text, accepted ? text : "");
	requery(v, !accepted);
	return true;
}

static const struct prompt_ops search_prompt = {
	.changed = search_changed,
	.done = search_done,
};

/*
 * 't': on-demand, then the 1-year and 3-year committed prices (only
 * offers with one, ranked by it: --term 1y / 3y), then on-demand again.
 */
static void
term_cycle(struct view *v)
{
	struct model *m = tui_model(v->tui);

	m->filter.term = m->filter.term == TERM_NONE ? 12 :
	    m->filter.term == 12 ? 36 : TERM_NONE;
	if (m->filter.term != TERM_NONE)
		m->sort = SORT_TERM_GPU;
	else if (m->sort == SORT_TERM_GPU)
		m->sort = SORT_GPU_PRICE;
	requery(v, false);
	tui_message(v->tui, UI_NOTICE, m->filter.term == TERM_NONE ?
	    "On-demand prices (t: committed)" : m->filter.term == 12 ?
	    "1-year committed prices, best first (t: 3 years)" :
	    "3-year committed prices, best first (t: on-demand)");
}

/* The table's own actions; the base moves the selection. */
static bool
offers_action(struct view *v, enum action a)
{
	struct model *m = tui_model(v->tui);

	switch (a) {
	case ACT_SEARCH:
		tui_prompt(v->tui, v, &search_prompt, "Search: ",
		    m->filter.text);
		break;
	case ACT_CLEAR_SEARCH:
		if (m->filter.text[0] != '\0') {
			m->filter.text[0] = '\0';
			requery(v, false);
		}
		break;
	case ACT_FILTER:
		tui_push(v->tui, view_filter_new(v->tui));
		break;
	case ACT_SORT:
		tui_push(v->tui, view_picker_new(v->tui, PICK_SORT));
		break;
	case ACT_SORT_NEXT:
		sort_cycle(v, 1);
		break;
	case ACT_SORT_PREV:
		sort_cycle(v, -1);
		break;
	case ACT_REVERSE:
		m->reverse = !m->reverse;
		requery(v, true);
		break;
	case ACT_DETAIL:
		if (m->nplans > 0)
			tui_push(v->tui, view_detail_new(v->tui, v->sc.sel));
		break;
	case ACT_REFRESH:
		tui_refresh_start(v->tui);
		break;
	case ACT_SUMMARY:
		tui_push(v->tui, view_summary_new(v->tui));
		break;
	case ACT_CLEAR_ALL:
		/* A new filter: its best offers first. */
		filter_clear_all(&m->filter);
		requery(v, true);
		break;
	case ACT_TERM:
		term_cycle(v);
		break;
	case ACT_COPY:
	case ACT_COPY_OTHER:
		if (v->sc.sel < m->nplans)
			tui_copy_launch(v->tui, &m->plans[v->sc.sel],
			    a == ACT_COPY_OTHER);
		break;
	case ACT_ALL_REGIONS:
		m->all_regions = !m->all_regions;
		requery(v, false);
		tui_message(v->tui, UI_NOTICE, m->all_regions ?
		    "A row per region (a folds them again)" :
		    "Offers that differ only in region in one row, +N (a "
		    "lists them)");
		break;
	default:
		return false;
	}
	remember_selection(v);
	return true;
}

/* A click on a header sorts by it; the base selects rows. */
static bool
offers_click(struct view *v, int y, int x)
{
	struct offers *o = v->priv;
	size_t j;

	if (y != v->area.y + 1)
		return false;
	for (j = 0; j < o->ncols; j++)
		if (o->colx[j] >= 0 && x >= o->colx[j] &&
		    x < o->colx[j] + (int)o->lay[j].width + LAYOUT_GAP) {
			sort_by(v, column_info[o->cols[j]].sort);
			break;
		}
	return true;
}

/* The window changed size. */
static void
offers_resize(struct view *v)
{
	struct offers *o = v->priv;
	size_t rows = table_rows(v);

	scroll_set(&v->sc, tui_model(v->tui)->nplans, rows);
	v->list = (struct rect){ v->area.y + TABLE_TOP, v->area.x,
	    (int)rows, v->area.w };
	if (rows > o->cell_rows) {
		free(o->cells);
		o->cells = xreallocarray(NULL, rows * o->ncols, CELL_MAX);
		o->cell_rows = rows;
	}
}

/* The title line: matches, filter, sort, data age. */
static void
draw_title(struct view *v)
{
	struct model *m = tui_model(v->tui);
	char filter[512], age[16], line[1024];
	size_t len;

	/* A first screen from the indexes: the counts are coming. */
	if (!m->counted)
		len = (size_t)snprintf(line, sizeof line, " gpucost: "
		    "counting the offers");
	else if (m->offers.n == m->noffers_shown)
		len = (size_t)snprintf(line, sizeof line, " gpucost: %zu "
		    "offers", m->noffers_shown);
	else
		len = (size_t)snprintf(line, sizeof line, " gpucost: %zu of %zu "
		    "offers", m->noffers_shown, m->offers.n);
	/*
	 * How old the data is comes first, so 80 columns keep it; then the
	 * order, the filter and the position.
	 */
	if (m->oldest > 0) {
		column_age(tui_now(v->tui) - m->oldest, age, sizeof age);
		len += (size_t)snprintf(line + len, sizeof line - len,
		    " | data: %s old%s", age, m->any_snapshot ?
		    " (snapshot)" : "");
	}
	len += (size_t)snprintf(line + len, sizeof line - len, " | sort: %s%s",
	    sort_key_name(m->sort), m->reverse ? " reversed" : "");
	if (filter_describe(&m->filter, filter, sizeof filter) > 0)
		len += (size_t)snprintf(line + len, sizeof line - len,
		    " | filter: %s", filter);
	if (m->nplans > 0 && m->counted)
		snprintf(line + len, sizeof line - len, " | row %zu of %zu",
		    v->sc.sel + 1, m->nplans);
	view_title(v, line);
}

/* The role of one cell. */
static attr_t
cell_attr(const struct model *m, const struct plan *p, enum column c,
    const char *text, int64_t now)
{
	switch (c) {
	case COL_GPU_PRICE:
		if (money_known(p->price_gpu_hour) &&
		    p->price_gpu_hour == m->best_gpu_price)
			return ui_attr(UI_PRICE_BEST);
		break;
	case COL_SPOT_GPU:
		if (money_known(p->spot_gpu_hour) &&
		    p->spot_gpu_hour == m->best_spot_gpu_price)
			return ui_attr(UI_PRICE_BEST);
		return ui_attr(UI_SPOT);
	case COL_SPOT:
	case COL_SAVINGS:
	case COL_SPOT_TOTAL:
		if (strcmp(text, "-") != 0)
			return ui_attr(UI_SPOT);
		break;
	case COL_AGE:
		if (now - p->offer->fetched_at > 7 * 86400)
			return ui_attr(UI_STALE);
		break;
	case COL_AVAIL:
		if (p->offer->availability == AV_UNAVAILABLE)
			return ui_attr(UI_ERROR);
		break;
	default:
		break;
	}
	if (strcmp(text, "-") == 0)
		return ui_attr(UI_DIM);
	return ui_attr(UI_NORMAL);
}

/* Draw the table. */
static void
offers_draw(struct view *v)
{
	struct offers *o = v->priv;
	struct model *m = tui_model(v->tui);
	struct column_ctx ctx = { .now = tui_now(v->tui),
	    .hours = tui_hours(v->tui) };
	size_t rows = table_rows(v), nrows, r, j, w;
	int y, x;

	offers_resize(v);	/* cheap; keeps the scroll height right */
	nrows = m->nplans - v->sc.top < rows ? m->nplans - v->sc.top : rows;
	for (r = 0; r < nrows; r++)
		for (j = 0; j < o->ncols; j++) {
			char *cell = o->cells[r * o->ncols + j];

			column_cell(o->cols[j], &m->plans[v->sc.top + r], &ctx,
			    cell, CELL_MAX);
			if (!column_cell_empty(cell))
				o->empty[j] = false;
			if (r > 0 && strcmp(cell, o->cells[j]) != 0)
				o->same[j] = false;
		}
	for (j = 0; j < o->ncols; j++) {
		for (r = 0; r < nrows; r++)
			if ((w = str_width(o->cells[r * o->ncols + j])) >
			    o->want[j])
				o->want[j] = w;
	}
	columns_fit(o->cols, o->ncols, o->want, o->empty, o->same, m->sort,
	    o->lay, (size_t)v->area.w - 1);

	draw_title(v);
	y = v->area.y + 1;
	draw_fill(&v->area, y, ui_attr(UI_HEADER));
	x = v->area.x + 1;
	for (j = 0; j < o->ncols; j++) {
		const struct column_info *ci = &column_info[o->cols[j]];

		o->colx[j] = -1;
		if (!o->lay[j].shown)
			continue;
		o->colx[j] = x;
		draw_text(y, x, (int)o->lay[j].width, ci->header,
		    ui_attr(ci->sort == m->sort ? UI_HEADER_SORT : UI_HEADER),
		    ci->right);
		x += (int)o->lay[j].width + LAYOUT_GAP;
	}
	if (m->nplans == 0) {
		draw_text(v->area.y + TABLE_TOP + 1, v->area.x + 2,
		    v->area.w - 4, m->offers.n == 0 ?
		    "The cache has no offers: press R to fetch them." :
		    "No offer matches the filter: c clears it, f changes it.",
		    ui_attr(UI_NOTICE), false);
		return;
	}
	for (r = 0; r < nrows; r++) {
		const struct plan *p = &m->plans[v->sc.top + r];
		bool sel = v->sc.top + r == v->sc.sel;

		y = v->area.y + TABLE_TOP + (int)r;
		if (sel)
			draw_fill(&v->area, y, ui_attr(UI_SELECTION));
		for (j = 0; j < o->ncols; j++) {
			const char *cell = o->cells[r * o->ncols + j];
			attr_t attr = cell_attr(m, p, o->cols[j], cell, ctx.now);

			if (o->colx[j] < 0)
				continue;
			if (sel)
				attr = ui_attr(UI_SELECTION) |
				    (attr == ui_attr(UI_PRICE_BEST) ? A_BOLD :
				    A_NORMAL);
			draw_text(y, o->colx[j], (int)o->lay[j].width, cell,
			    attr, column_info[o->cols[j]].right);
		}
	}
}

/* Free the cell buffer. */
static void
offers_free(struct view *v)
{
	struct offers *o = v->priv;

	free(o->cells);
	free(o);
}

static const struct view_ops offers_ops = {
	.name = "offers",
	.scope = SC_OFFERS,
	.kind = VIEW_LIST,
	.draw = offers_draw,
	.action = offers_action,
	.click = offers_click,
	.moved = remember_selection,
	.resize = offers_resize,
	.changed = offers_changed,
	.free = offers_free,
};

/*
 * The table's columns: the totals only with hours to cost, the term's
 * only with a term asked (as the CLI's table), the fabric and --train's
 * job in the detail view. Chosen again when the term changes; the widths are
 * then measured again.
 */
static void
choose_columns(struct view *v)
{
	struct offers *o = v->priv;
	struct model *m = tui_model(v->tui);
	int c;

	o->ncols = 0;
	for (c = 0; c < COLUMN_COUNT; c++) {
		if ((c == COL_TOTAL || c == COL_SPOT_TOTAL ||
		    c == COL_TERM_TOTAL) && tui_hours(v->tui) < 0)
			continue;
		if (column_is_term((enum column)c) &&
		    m->filter.term == TERM_NONE)
			continue;
		/* The fabric is in the detail view (issue 26), and so is
		 * --train's job (issue 46). */
		if (c == COL_FABRIC || c == COL_NODE_GBPS ||
		    column_is_train((enum column)c))
			continue;
		o->cols[o->ncols++] = (enum column)c;
	}
	o->cols_term = m->filter.term;
	o->want[0] = 0;		/* measure() starts again */
}

/* The offers table over the whole model. */
struct view *
view_offers_new(struct tui *tui)
{
	struct view *v = view_new(tui, &offers_ops, sizeof(struct offers));

	choose_columns(v);
	offers_changed(v);
	return v;
}
