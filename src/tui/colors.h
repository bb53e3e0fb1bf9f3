/*
 * tui/colors.h: colours by role (ncdu's UI_COLORS, htop's ColorElements).
 *
 * Views never name a colour: they ask for a role (the selected row, the
 * cheapest price, an error) and get the curses attribute of the current
 * theme. There are two themes: colour, and monochrome for terminals
 * without colours or when NO_COLOR is set and not empty
 * (https://no-color.org). Call colors_init() once after initscr().
 */
#ifndef GPUCOST_TUI_COLORS_H
#define GPUCOST_TUI_COLORS_H

#include <stdbool.h>

#include "tui/curses.h"

/*
 * role, foreground, background (-1: the terminal's default), extra
 * attributes in colour, attributes in monochrome
 */
#define UI_COLORS(X)							\
	X(UI_NORMAL,	-1,		-1,		A_NORMAL,	A_NORMAL) \
	X(UI_TITLE,	COLOR_BLACK,	COLOR_CYAN,	A_NORMAL,	A_REVERSE) \
	X(UI_HEADER,	COLOR_BLACK,	COLOR_GREEN,	A_NORMAL,	A_REVERSE) \
	X(UI_HEADER_SORT, COLOR_BLACK,	COLOR_CYAN,	A_BOLD,		A_BOLD | A_UNDERLINE) \
	X(UI_SELECTION,	COLOR_BLACK,	COLOR_CYAN,	A_NORMAL,	A_REVERSE) \
	X(UI_PRICE_BEST, COLOR_GREEN,	-1,		A_BOLD,		A_BOLD | A_UNDERLINE) \
	X(UI_SPOT,	COLOR_CYAN,	-1,		A_NORMAL,	A_NORMAL) \
	X(UI_STALE,	COLOR_YELLOW,	-1,		A_NORMAL,	A_DIM)	\
	X(UI_DIM,	COLOR_BLUE,	-1,		A_BOLD,		A_DIM)	\
	X(UI_ERROR,	COLOR_RED,	-1,		A_BOLD,		A_BOLD)	\
	X(UI_OK,	COLOR_GREEN,	-1,		A_NORMAL,	A_NORMAL) \
	X(UI_LABEL,	COLOR_CYAN,	-1,		A_BOLD,		A_BOLD)	\
	X(UI_SECTION,	COLOR_YELLOW,	-1,		A_BOLD,		A_BOLD | A_UNDERLINE) \
	X(UI_PANEL,	-1,		-1,		A_NORMAL,	A_NORMAL) \
	X(UI_PANEL_BORDER, COLOR_CYAN,	-1,		A_BOLD,		A_BOLD)	\
	X(UI_INPUT,	COLOR_YELLOW,	-1,		A_BOLD,		A_BOLD)	\
	X(UI_STATUS,	-1,		-1,		A_NORMAL,	A_NORMAL) \
	X(UI_BAR_KEY,	-1,		-1,		A_BOLD,		A_BOLD)	\
	X(UI_BAR_LABEL,	COLOR_BLACK,	COLOR_CYAN,	A_NORMAL,	A_REVERSE) \
	X(UI_CHART,	COLOR_GREEN,	-1,		A_BOLD,		A_BOLD)	\
	X(UI_CHART_SPOT, COLOR_CYAN,	-1,		A_NORMAL,	A_NORMAL) \
	X(UI_NOTICE,	COLOR_YELLOW,	-1,		A_BOLD,		A_BOLD)

enum ui_color {
#define X(id, fg, bg, attr, mono) id,
	UI_COLORS(X)
#undef X
	UI_COLOR_COUNT
};

/*
 * Pick the theme: monochrome when mono is true (NO_COLOR) or the
 * terminal has no colours; otherwise start colours and make the pairs.
 */
void	colors_init(bool mono);

/* True when the monochrome theme is in use. */
bool	colors_mono(void);

/* The curses attribute for role. */
attr_t	ui_attr(enum ui_color role);

/* True if NO_COLOR is set and not empty. */
bool	colors_no_color_env(void);

#endif
