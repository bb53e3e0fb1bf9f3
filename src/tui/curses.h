/*
 * tui/curses.h: the one place gpucost includes curses (htop's
 * ProvideCurses.h). Only files under src/tui/ include this header;
 * tests/check_layering.sh keeps it that way.
 *
 * ncursesw is required (configure checks for it); its pkg-config flags
 * carry -D_XOPEN_SOURCE=600, which together with NCURSES_WIDECHAR
 * declares the wide-character calls (get_wch) the views use.
 */
#ifndef GPUCOST_TUI_CURSES_H
#define GPUCOST_TUI_CURSES_H

#ifndef NCURSES_WIDECHAR
#define NCURSES_WIDECHAR 1
#endif
#include <curses.h>

/* Control-key code for a letter: CTRL('l') is 12. */
#define TUI_CTRL(c)	((c) & 0x1f)
/* The Escape key as get_wch reports it. */
#define TUI_ESC		27

#endif
