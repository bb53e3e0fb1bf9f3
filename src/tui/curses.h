/*
 * tui/curses.h: the one place gpucost includes curses (htop's
 * ProvideCurses.h). Only files under src/tui/ include this header;
 * tests/check_layering.sh keeps it that way.
 *
 * ncursesw is required (configure checks for it); its pkg-config flags
 * carry -D_XOPEN_SOURCE=600, which together with NCURSES_WIDECHAR
 * declares the wide-character calls (get_wch) the views use.
 *
 * libncursesw is loaded with dlopen() when the TUI starts, not linked
 * (as libcurl is, src/http.c): linked, it and libtinfo were mapped and
 * relocated at every start, about 0.15 ms of a 1 ms `gpucost --version`
 * and of every query, while only the TUI draws. Every curses function
 * and variable the TUI uses is listed once below; after this header a
 * call of one (waddnstr(), or attrset() through curses.h's macros)
 * goes through the table tui_curses_load() fills. A name missing here
 * is a link error (gpucost no longer links ncurses), never a silent
 * second copy. curses.c checks each entry's type against curses.h.
 */
#ifndef GPUCOST_TUI_CURSES_H
#define GPUCOST_TUI_CURSES_H

#ifndef NCURSES_WIDECHAR
#define NCURSES_WIDECHAR 1
#endif
#include <curses.h>

#include "err.h"

/* Control-key code for a letter: CTRL('l') is 12. */
#define TUI_CTRL(c)	((c) & 0x1f)
/* The Escape key as get_wch reports it. */
#define TUI_ESC		27

/* Functions: return type, name, arguments (as curses.h declares them). */
#define TUI_CURSES_FUNCTIONS(X)						\
	X(int, cbreak, (void))						\
	X(int, clearok, (WINDOW *, bool))				\
	X(int, curs_set, (int))						\
	X(void, delscreen, (SCREEN *))					\
	X(int, endwin, (void))						\
	X(int, getmouse, (MEVENT *))					\
	X(bool, has_colors, (void))					\
	X(int, init_pair, (NCURSES_PAIRS_T, NCURSES_COLOR_T,		\
	    NCURSES_COLOR_T))						\
	X(int, keypad, (WINDOW *, bool))				\
	X(int, mouseinterval, (int))					\
	X(mmask_t, mousemask, (mmask_t, mmask_t *))			\
	X(SCREEN *, newterm, (const char *, FILE *, FILE *))		\
	X(int, nodelay, (WINDOW *, bool))				\
	X(int, noecho, (void))						\
	X(int, resize_term, (int, int))					\
	X(int, set_escdelay, (int))					\
	X(SCREEN *, set_term, (SCREEN *))				\
	X(int, start_color, (void))					\
	X(char *, tigetstr, (const char *))				\
	X(int, use_default_colors, (void))				\
	X(int, waddch, (WINDOW *, const chtype))			\
	X(int, waddnstr, (WINDOW *, const char *, int))			\
	X(int, wattrset, (WINDOW *, int))				\
	X(int, werase, (WINDOW *))					\
	X(int, wget_wch, (WINDOW *, wint_t *))				\
	X(int, whline, (WINDOW *, chtype, int))				\
	X(int, wmove, (WINDOW *, int, int))				\
	X(int, wrefresh, (WINDOW *))					\
	X(int, wvline, (WINDOW *, chtype, int))

/* Variables: type, name, [] for an array of unknown size. */
#define TUI_CURSES_VARIABLES(X)						\
	X(int, COLOR_PAIRS, )						\
	X(int, COLS, )							\
	X(int, LINES, )							\
	X(chtype, acs_map, [])						\
	X(WINDOW *, curscr, )						\
	X(WINDOW *, stdscr, )

struct tui_curses {
#define X(ret, name, args) ret (*name) args;
	TUI_CURSES_FUNCTIONS(X)
#undef X
#define X(type, name, array) type (*name)array;
	TUI_CURSES_VARIABLES(X)
#undef X
};

extern struct tui_curses tui_curses;	/* filled by tui_curses_load() */

/*
 * Load libncursesw (GPUCOST_NCURSES_SONAME) and fill tui_curses, once
 * per process; -1 with err naming the library and what failed.
 */
int	tui_curses_load(struct err *err);

/* Every name through the table, except in curses.c, which fills it. */
#ifndef TUI_CURSES_LOADER
#define cbreak			(*tui_curses.cbreak)
#define clearok			(*tui_curses.clearok)
#define curs_set		(*tui_curses.curs_set)
#define delscreen		(*tui_curses.delscreen)
#define endwin			(*tui_curses.endwin)
#define getmouse		(*tui_curses.getmouse)
#define has_colors		(*tui_curses.has_colors)
#define init_pair		(*tui_curses.init_pair)
#define keypad			(*tui_curses.keypad)
#define mouseinterval		(*tui_curses.mouseinterval)
#define mousemask		(*tui_curses.mousemask)
#define newterm			(*tui_curses.newterm)
#define nodelay			(*tui_curses.nodelay)
#define noecho			(*tui_curses.noecho)
#define resize_term		(*tui_curses.resize_term)
#define set_escdelay		(*tui_curses.set_escdelay)
#define set_term		(*tui_curses.set_term)
#define start_color		(*tui_curses.start_color)
#define tigetstr		(*tui_curses.tigetstr)
#define use_default_colors	(*tui_curses.use_default_colors)
#define waddch			(*tui_curses.waddch)
#define waddnstr		(*tui_curses.waddnstr)
#define wattrset		(*tui_curses.wattrset)
#define werase			(*tui_curses.werase)
#define wget_wch		(*tui_curses.wget_wch)
#define whline			(*tui_curses.whline)
#define wmove			(*tui_curses.wmove)
#define wrefresh		(*tui_curses.wrefresh)
#define wvline			(*tui_curses.wvline)
#define COLOR_PAIRS		(*tui_curses.COLOR_PAIRS)
#define COLS			(*tui_curses.COLS)
#define LINES			(*tui_curses.LINES)
#define acs_map			(*tui_curses.acs_map)
#define curscr			(*tui_curses.curscr)
#define stdscr			(*tui_curses.stdscr)
#endif

#endif
