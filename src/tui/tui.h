/*
 * tui/tui.h: the interactive face of gpucost.
 *
 * `gpucost` with no command and no query option on a terminal, and
 * `gpucost tui [query options]`, open a full-screen ncursesw browser of
 * the cached offers: a sortable table, a text filter, a filter panel,
 * an offer's cost breakdown and price history, a background refresh,
 * help, mouse and resize support. Nothing outside src/tui/ includes
 * curses.
 */
#ifndef GPUCOST_TUI_TUI_H
#define GPUCOST_TUI_TUI_H

#include <stdbool.h>

#include "offer.h"

/*
 * What the TUI starts with: what is asked (the same filter and sort as
 * the query, filter.h's fields), the job length and the cache. The
 * command line fills it (cmd_tui.c); the TUI knows nothing of options.
 */
struct tui_options {
	struct offer_filter filter;	/* the starting filter */
	enum sort_key	 sort;		/* the starting order */
	bool		 reverse;
	bool		 all_regions;	/* a row per region (--all-regions) */
	double		 hours;		/* job length for totals; < 0 none */
	const char	*db_path;	/* the cache; NULL: the default one */
};

/* How tui_run() ended; the command turns it into an exit status. */
enum tui_result {
	TUI_DONE,		/* the user quit */
	TUI_NO_TERMINAL,	/* no terminal, or curses cannot use it */
	TUI_CACHE_ERROR		/* the cache cannot be opened or read */
};

/*
 * True when the TUI can run: stdin and stdout are terminals and TERM is
 * set and not "dumb". main() opens the TUI when this holds and the
 * command line has no command and no query or output option.
 */
bool	tui_available(void);

/*
 * Run the TUI until the user quits. opts->filter, sort, reverse,
 * all_regions and hours set the starting state (`gpucost tui --gpu H100`); opts->db_path
 * names the cache. Returns TUI_DONE, TUI_CACHE_ERROR when the cache
 * cannot be opened or read (the message is on stderr, written before or
 * after curses owns the screen, never during), or TUI_NO_TERMINAL when
 * there is no terminal. On SIGINT, SIGTERM or SIGHUP it restores the
 * terminal, frees everything and re-raises the signal with its default
 * action, so the caller's shell sees the usual status (130, 143, 129).
 */
enum tui_result tui_run(const struct tui_options *opts);

/*
 * Give the terminal back if curses owns it (idempotent, safe from the
 * xalloc fatal hook and atexit). tui_run() installs it as both.
 */
void	tui_emergency_restore(void);

#endif
