/* tui/scroll.c: selection and scroll position arithmetic. */
#include "config.h"
#include "tui/scroll.h"

/* Rows a window really shows. */
static size_t
scroll_rows(const struct scroll *s)
{
	return s->height > 0 ? s->height : 1;
}

/* Restore the invariants after sel, top, n or height changed. */
static void
scroll_fix(struct scroll *s)
{
	size_t h = scroll_rows(s);

	if (s->n == 0) {
		s->sel = s->top = 0;
		return;
	}
	if (s->sel >= s->n)
		s->sel = s->n - 1;
	if (s->top > s->sel)
		s->top = s->sel;
	if (s->sel >= s->top + h)
		s->top = s->sel - h + 1;
	/* No blank rows after the end when the list could fill them. */
	if (s->n >= h && s->top > s->n - h)
		s->top = s->n - h;
	if (s->n < h)
		s->top = 0;
}

/* Set the list length and the window height. */
void
scroll_set(struct scroll *s, size_t n, size_t height)
{
	s->n = n;
	s->height = height;
	scroll_fix(s);
}

/* Move the selection by delta lines. */
void
scroll_move(struct scroll *s, long delta)
{
	if (s->n == 0)
		return;
	if (delta < 0)
		s->sel = (size_t)-delta > s->sel ? 0 : s->sel - (size_t)-delta;
	else if ((size_t)delta >= s->n - s->sel)
		s->sel = s->n - 1;
	else
		s->sel += (size_t)delta;
	scroll_fix(s);
}

/* Move the selection and the window by one window height. */
void
scroll_page(struct scroll *s, int dir)
{
	size_t h = scroll_rows(s), max_top;

	if (s->n == 0)
		return;
	max_top = s->n > h ? s->n - h : 0;
	if (dir < 0) {
		s->top = s->top > h ? s->top - h : 0;
		s->sel = s->sel > h ? s->sel - h : 0;
	} else {
		s->top = h > max_top - (s->top < max_top ? s->top : max_top) ?
		    max_top : s->top + h;
		s->sel = h >= s->n - s->sel ? s->n - 1 : s->sel + h;
	}
	scroll_fix(s);
}

/* Select the first line. */
void
scroll_home(struct scroll *s)
{
	s->sel = s->top = 0;
	scroll_fix(s);
}

/* Select the last line. */
void
scroll_end(struct scroll *s)
{
	s->sel = s->n > 0 ? s->n - 1 : 0;
	scroll_fix(s);
}

/* Select one line. */
void
scroll_select(struct scroll *s, size_t sel)
{
	s->sel = sel;
	scroll_fix(s);
}

/* Select the line under a click. */
bool
scroll_click(struct scroll *s, size_t row)
{
	if (row >= scroll_rows(s) || s->top + row >= s->n)
		return false;
	s->sel = s->top + row;
	scroll_fix(s);
	return true;
}

/* Scroll the window, dragging the selection along only at the edges. */
void
scroll_wheel(struct scroll *s, long delta)
{
	size_t h = scroll_rows(s), max_top;

	if (s->n == 0)
		return;
	max_top = s->n > h ? s->n - h : 0;
	if (delta < 0)
		s->top = (size_t)-delta > s->top ? 0 : s->top - (size_t)-delta;
	else
		s->top = (size_t)delta > max_top - s->top ? max_top :
		    s->top + (size_t)delta;
	if (s->sel < s->top)
		s->sel = s->top;
	if (s->sel >= s->top + h)
		s->sel = s->top + h - 1;
	scroll_fix(s);
}
