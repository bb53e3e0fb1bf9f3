/* tui/view.c: view allocation and drawing helpers. */
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

bool
view_scroll_target(enum action a, int top, int rows, int page, int *to)
{
	switch (a) {
	case ACT_UP:
		*to = top - 1;
		return true;
	case ACT_DOWN:
		*to = top + 1;
		return true;
	case ACT_PAGE_UP:
		*to = top - page;
		return true;
	case ACT_PAGE_DOWN:
		*to = top + page;
		return true;
	case ACT_HOME:
		*to = 0;
		return true;
	case ACT_END:
		*to = rows;
		return true;
	default:
		return false;
	}
}
