/*
 * tui/view.c: the view base (tig's view.c): what every view does the
 * same way (moving, the wheel, clicks on a list, Back, a new size, a
 * pager's bounds) and the drawing helpers. A view's ops add only what
 * is its own.
 */
#include "config.h"
#include "tui/view.h"

#include <stdlib.h>
#include <string.h>

#include "str.h"
#include "xalloc.h"

/* Allocate a view with zeroed private state. */
struct view *
view_new(struct tui *tui, const struct view_ops *ops, size_t priv_size)
{
	struct view *v = xcalloc(1, sizeof *v);

	v->ops = ops;
	v->tui = tui;
	v->priv = priv_size > 0 ? xcalloc(1, priv_size) : NULL;
	return v;
}

/* Free a view and what it owns. */
void
view_free(struct view *v)
{
	if (v == NULL)
		return;
	if (v->ops->free != NULL)
		v->ops->free(v);
	else
		free(v->priv);
	free(v);
}

/* Blank one row of a rectangle. */
void
draw_fill(const struct rect *r, int y, attr_t attr)
{
	if (y < r->y || y >= r->y + r->h || r->w <= 0)
		return;
	attrset(attr);
	mvhline(y, r->x, ' ', r->w);
	attrset(A_NORMAL);
}

/* Put text in a field of w columns. */
int
draw_text(int y, int x, int w, const char *text, attr_t attr, bool right)
{
	size_t tw = str_width(text), len;
	int used;

	if (w <= 0)
		return 0;
	attrset(attr);
	if (tw > (size_t)w) {
		len = str_prefix_for_width(text, (size_t)w - 1);
		mvaddnstr(y, x, text, (int)len);
		addch('~');
		used = w;
	} else {
		if (right && tw < (size_t)w)
			x += w - (int)tw;
		mvaddstr(y, x, text);
		used = (int)tw;
	}
	attrset(A_NORMAL);
	return used;
}

size_t
text_lines(const char *text, size_t w, const char **start, size_t *len,
    size_t max)
{
	size_t n = 0, fit, cut;

	if (w < 1)
		w = 1;
	while (*text == ' ')
		text++;
	while (*text != '\0' && n < max) {
		fit = str_prefix_for_width(text, w);
		cut = fit;
		if (text[fit] != '\0' && text[fit] != ' ') {
			while (cut > 0 && text[cut - 1] != ' ')
				cut--;
			if (cut == 0)
				cut = fit;	/* one word wider than w */
		}
		if (cut == 0)
			break;
		start[n] = text;
		len[n] = cut;
		while (len[n] > 0 && text[len[n] - 1] == ' ')
			len[n]--;
		n++;
		text += cut;
		while (*text == ' ')
			text++;
	}
	return n;
}

int
draw_wrapped(const struct view *v, int row, int x, int w, const char *text,
    attr_t attr)
{
	const char *start[64];
	size_t len[64], n, i;
	char line[512];
	int y;

	n = text_lines(text, w > 0 ? (size_t)w : 1, start, len, 64);
	for (i = 0; i < n; i++) {
		if ((y = view_row_y(v, row + (int)i)) < 0)
			continue;
		snprintf(line, sizeof line, "%.*s", (int)len[i], start[i]);
		draw_text(y, x, w, line, attr, false);
	}
	return n > 0 ? (int)n : 1;
}

/* A border with a title in the top edge. */
void
draw_box(const struct rect *r, const char *title)
{
	int y;

	if (r->w < 4 || r->h < 2)
		return;
	attrset(ui_attr(UI_PANEL));
	for (y = r->y + 1; y < r->y + r->h - 1; y++)
		mvhline(y, r->x + 1, ' ', r->w - 2);
	attrset(ui_attr(UI_PANEL_BORDER));
	mvhline(r->y, r->x + 1, ACS_HLINE, r->w - 2);
	mvhline(r->y + r->h - 1, r->x + 1, ACS_HLINE, r->w - 2);
	mvvline(r->y + 1, r->x, ACS_VLINE, r->h - 2);
	mvvline(r->y + 1, r->x + r->w - 1, ACS_VLINE, r->h - 2);
	mvaddch(r->y, r->x, ACS_ULCORNER);
	mvaddch(r->y, r->x + r->w - 1, ACS_URCORNER);
	mvaddch(r->y + r->h - 1, r->x, ACS_LLCORNER);
	mvaddch(r->y + r->h - 1, r->x + r->w - 1, ACS_LRCORNER);
	if (title != NULL && title[0] != '\0') {
		mvaddch(r->y, r->x + 1, ' ');
		draw_text(r->y, r->x + 2, r->w - 5, title,
		    ui_attr(UI_PANEL_BORDER), false);
		attrset(ui_attr(UI_PANEL_BORDER));
		addch(' ');
	}
	attrset(A_NORMAL);
}

/* Rows a pager has for its text. */
static int
pager_height(const struct view *v)
{
	int h = v->area.h - v->ops->head;

	return h > 1 ? h : 1;
}

/* The last top that still fills the window. */
static int
pager_max_top(const struct view *v)
{
	int max = v->rows - pager_height(v);

	return max > 0 ? max : 0;
}

/* Show a pager's text from row top, clamped. */
static void
pager_scroll(struct view *v, int top)
{
	int max = pager_max_top(v);

	if (top > max)
		top = max;
	v->top = top < 0 ? 0 : top;
}

/* Movement in a pager: a page keeps one line of the last one. */
static bool
pager_move(struct view *v, enum action a)
{
	int page = pager_height(v) > 2 ? pager_height(v) - 1 : 1;

	switch (a) {
	case ACT_UP:
		pager_scroll(v, v->top - 1);
		return true;
	case ACT_DOWN:
		pager_scroll(v, v->top + 1);
		return true;
	case ACT_PAGE_UP:
		pager_scroll(v, v->top - page);
		return true;
	case ACT_PAGE_DOWN:
		pager_scroll(v, v->top + page);
		return true;
	case ACT_HOME:
		pager_scroll(v, 0);
		return true;
	case ACT_END:
		pager_scroll(v, v->rows);
		return true;
	default:
		return false;
	}
}

/* The list's selection moved: tell the view. */
static void
list_moved(struct view *v)
{
	if (v->ops->moved != NULL)
		v->ops->moved(v);
}

/* Movement in a list moves its selection. */
static bool
list_move(struct view *v, enum action a)
{
	switch (a) {
	case ACT_UP:
		scroll_move(&v->sc, -1);
		break;
	case ACT_DOWN:
		scroll_move(&v->sc, 1);
		break;
	case ACT_PAGE_UP:
		scroll_page(&v->sc, -1);
		break;
	case ACT_PAGE_DOWN:
		scroll_page(&v->sc, 1);
		break;
	case ACT_HOME:
		scroll_home(&v->sc);
		break;
	case ACT_END:
		scroll_end(&v->sc);
		break;
	default:
		return false;
	}
	list_moved(v);
	return true;
}

/* Give the view its area; a new size is the view's to handle. */
void
view_place(struct view *v, const struct rect *area)
{
	if (v->area.y == area->y && v->area.x == area->x &&
	    v->area.h == area->h && v->area.w == area->w)
		return;
	v->area = *area;
	if (v->ops->resize != NULL)
		v->ops->resize(v);
}

/*
 * Draw the view. A pager's text height is known only once drawn (it
 * may change with the width): scrolled past its new end (the window
 * grew or widened), draw again from a top that fills the window.
 */
void
view_draw(struct view *v)
{
	int y;

	if (v->ops->kind == VIEW_PAGER)
		pager_scroll(v, v->top);
	v->ops->draw(v);
	if (v->ops->kind != VIEW_PAGER || v->top <= pager_max_top(v))
		return;
	v->top = pager_max_top(v);
	for (y = v->area.y + v->ops->head; y < v->area.y + v->area.h; y++)
		draw_fill(&v->area, y, ui_attr(UI_NORMAL));
	v->ops->draw(v);
}

/* The view's own action first, then moving, then Back. */
bool
view_action(struct view *v, enum action a)
{
	if (v->ops->action != NULL && v->ops->action(v, a))
		return true;
	if (v->ops->kind == VIEW_PAGER ? pager_move(v, a) : list_move(v, a))
		return true;
	if (a == ACT_BACK) {
		tui_pop(v->tui);	/* v is gone (unless it is the last) */
		return true;
	}
	return false;
}

/* The view's own click first, then a click on a line of the list. */
void
view_click(struct view *v, int y, int x)
{
	const struct rect *r = &v->list;
	size_t before = v->sc.sel;

	if (v->ops->click != NULL && v->ops->click(v, y, x))
		return;
	if (v->ops->kind != VIEW_LIST || x < r->x || x >= r->x + r->w ||
	    y < r->y || !scroll_click(&v->sc, (size_t)(y - r->y)))
		return;
	if (v->sc.sel != before)
		list_moved(v);
	else if (v->ops->pick != ACT_NONE)
		view_action(v, v->ops->pick);
}

/* The wheel scrolls the text, or the list's window. */
void
view_wheel(struct view *v, int delta)
{
	if (v->ops->kind == VIEW_PAGER) {
		pager_scroll(v, v->top + delta);
		return;
	}
	if (v->sc.n > v->sc.height)
		scroll_wheel(&v->sc, delta);
	else
		scroll_move(&v->sc, delta);
	list_moved(v);
}

/* Screen row of a pager's text row. */
int
view_row_y(const struct view *v, int row)
{
	int y = v->area.y + v->ops->head + row - v->top;

	return row >= v->top && y < v->area.y + v->area.h ? y : -1;
}

/* The title line. */
void
view_title(const struct view *v, const char *title)
{
	draw_fill(&v->area, v->area.y, ui_attr(UI_TITLE));
	draw_text(v->area.y, v->area.x, v->area.w, title, ui_attr(UI_TITLE),
	    false);
}
