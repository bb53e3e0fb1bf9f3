/*
 * tui/scroll.h: the selection and scroll position of a list on screen.
 *
 * A list has n lines, shows `height` of them starting at `top`, and has
 * one selected line `sel`. Every function leaves the state consistent:
 * sel < n (0 when empty), top <= sel < top + height, and no empty space
 * after the last line when the list is longer than the window. Pure.
 */
#ifndef GPUCOST_TUI_SCROLL_H
#define GPUCOST_TUI_SCROLL_H

#include <stdbool.h>
#include <stddef.h>

struct scroll {
	size_t	n;		/* lines in the list */
	size_t	height;		/* lines shown; 0 treated as 1 */
	size_t	sel;		/* selected line */
	size_t	top;		/* first line shown */
};

/* Set the list length and window height, keeping sel and top valid. */
void	scroll_set(struct scroll *s, size_t n, size_t height);

/* Move the selection by delta lines (negative: up), stopping at the ends. */
void	scroll_move(struct scroll *s, long delta);

/* Move by a window's height (dir < 0 up, > 0 down), like less. */
void	scroll_page(struct scroll *s, int dir);

/* Select the first / last line. */
void	scroll_home(struct scroll *s);
void	scroll_end(struct scroll *s);

/* Select line sel, scrolling as little as needed to show it. */
void	scroll_select(struct scroll *s, size_t sel);

/*
 * A click on window row `row` (0 = first shown line): select the line
 * there. Returns false (nothing changes) below the last line.
 */
bool	scroll_click(struct scroll *s, size_t row);

/*
 * The mouse wheel: scroll the window by delta lines and keep the
 * selection on screen (it moves only when it would leave the window).
 */
void	scroll_wheel(struct scroll *s, long delta);

#endif
