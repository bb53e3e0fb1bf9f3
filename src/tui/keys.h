/*
 * tui/keys.h: what the user can do, and the keys that do it.
 *
 * ACTION_INFO is the one table of actions (tig's REQ_INFO): each has an
 * id, the views (scopes) it works in, a short label for the function
 * bar (NULL: not on the bar), the help text, and its keys. The key ->
 * action lookup, the help view, the function bar at the bottom of the
 * screen and the INTERACTIVE MODE section of gpucost(1) are all made
 * from it, so they cannot disagree. Views receive actions, never raw
 * keys; only the text prompt reads characters.
 */
#ifndef GPUCOST_TUI_KEYS_H
#define GPUCOST_TUI_KEYS_H

#include <stdbool.h>
#include <stddef.h>

#include "tui/curses.h"

/* Where an action applies: one bit per kind of view, plus the prompt. */
#define SC_OFFERS	0x01	/* the offers table */
#define SC_DETAIL	0x02	/* one offer in detail */
#define SC_FILTER	0x04	/* the filter panel */
#define SC_PICKER	0x08	/* a list to choose from (GPU, provider, sort) */
#define SC_HELP		0x10	/* this help */
#define SC_PROMPT	0x20	/* typing text on the status line */
#define SC_VIEWS	(SC_OFFERS | SC_DETAIL | SC_FILTER | SC_PICKER | SC_HELP)

#define KEY_ENTER_ALL	'\n', '\r', KEY_ENTER
#define KEY_ERASE_ALL	KEY_BACKSPACE, 127, 8

/* id, scopes, function-bar label, help text, keys (the first is shown) */
#define ACTION_INFO(X)							\
	X(ACT_HELP,	SC_VIEWS, "Help", "show this help", '?', KEY_F(1)) \
	X(ACT_SEARCH,	SC_OFFERS, "Search",				\
	    "type a text filter: GPU, provider, instance or region",	\
	    '/', KEY_F(3))						\
	X(ACT_FILTER,	SC_OFFERS, "Filter",				\
	    "open the filter panel", 'f', KEY_F(4))			\
	X(ACT_SORT,	SC_OFFERS, "SortBy",				\
	    "choose the column to sort by", 's', KEY_F(6))		\
	X(ACT_SORT_NEXT, SC_OFFERS, NULL,				\
	    "sort by the next column", '>', '.')			\
	X(ACT_SORT_PREV, SC_OFFERS, NULL,				\
	    "sort by the previous column", '<', ',')			\
	X(ACT_REVERSE,	SC_OFFERS, "Reverse",				\
	    "reverse the sort order", 'r', KEY_F(7))			\
	X(ACT_DETAIL,	SC_OFFERS, "Detail",				\
	    "show the selected offer: cost breakdown and price history", \
	    KEY_ENTER_ALL)						\
	X(ACT_REFRESH,	SC_OFFERS, "Refresh",				\
	    "fetch live prices from the providers in the background",	\
	    'R', KEY_F(5))						\
	X(ACT_ALL_REGIONS, SC_OFFERS, NULL,				\
	    "a row per region, or one row per offer and +N regions", 'a') \
	X(ACT_TERM,	SC_OFFERS, NULL,				\
	    "committed prices: rank by the 1-year, then 3-year term, "	\
	    "then on-demand again", 't')				\
	X(ACT_SUMMARY,	SC_OFFERS | SC_HELP, "Summary",			\
	    "market summary of the shown offers by GPU, provider or region",\
	    'm')							\
	X(ACT_CLEAR_ALL, SC_OFFERS | SC_FILTER, "Clear",		\
	    "clear every filter", 'c')					\
	X(ACT_HOURS,	SC_DETAIL, "Hours",				\
	    "type the number of hours of a job to cost", 'h', 'H')	\
	X(ACT_COPY,	SC_DETAIL, "Copy",				\
	    "copy the launch command: to the clipboard where the "	\
	    "terminal takes OSC 52, else printed when gpucost quits",	\
	    'y', 'C')							\
	X(ACT_EDIT,	SC_FILTER, "Edit",				\
	    "change the selected field: pick, type or toggle it",	\
	    KEY_ENTER_ALL)						\
	X(ACT_SELECT,	SC_PICKER, "Choose",				\
	    "choose the selected item (or keep the ticked ones) and close", \
	    KEY_ENTER_ALL)						\
	X(ACT_TOGGLE,	SC_FILTER | SC_PICKER, "Toggle",		\
	    "toggle the selected field or item", ' ')			\
	X(ACT_NEXT_VALUE, SC_FILTER, NULL,				\
	    "next value of the selected field", KEY_RIGHT, 'l', '+')	\
	X(ACT_PREV_VALUE, SC_FILTER, NULL,				\
	    "previous value of the selected field", KEY_LEFT, 'h', '-') \
	X(ACT_CLEAR_FIELD, SC_FILTER, "Any",				\
	    "set the selected field to any", 'x', KEY_DC, KEY_ERASE_ALL) \
	X(ACT_UP,	SC_VIEWS, NULL, "move up", KEY_UP, 'k')		\
	X(ACT_DOWN,	SC_VIEWS, NULL, "move down", KEY_DOWN, 'j')	\
	X(ACT_PAGE_UP,	SC_VIEWS, NULL, "move up one page",		\
	    KEY_PPAGE, TUI_CTRL('b'))					\
	X(ACT_PAGE_DOWN, SC_VIEWS, NULL, "move down one page",		\
	    KEY_NPAGE, TUI_CTRL('f'))					\
	X(ACT_HOME,	SC_VIEWS, NULL, "go to the first line", KEY_HOME, 'g') \
	X(ACT_END,	SC_VIEWS, NULL, "go to the last line", KEY_END, 'G') \
	X(ACT_BACK,	SC_DETAIL | SC_FILTER | SC_PICKER | SC_HELP, "Back", \
	    "go back to the previous view", TUI_ESC)			\
	X(ACT_CLEAR_SEARCH, SC_OFFERS, NULL,				\
	    "clear the text filter", TUI_ESC)				\
	X(ACT_REDRAW,	SC_VIEWS, NULL, "redraw the screen", TUI_CTRL('l')) \
	X(ACT_QUIT,	SC_VIEWS, "Quit", "quit gpucost", 'q', KEY_F(10)) \
	X(ACT_PROMPT_ACCEPT, SC_PROMPT, "Keep",				\
	    "keep the text and close the prompt", KEY_ENTER_ALL)	\
	X(ACT_PROMPT_CANCEL, SC_PROMPT, "Cancel",			\
	    "close the prompt; the search prompt clears the text filter", \
	    TUI_ESC)							\
	X(ACT_PROMPT_ERASE, SC_PROMPT, NULL,				\
	    "delete the last character", KEY_ERASE_ALL)		\
	X(ACT_PROMPT_WORD, SC_PROMPT, NULL,				\
	    "delete the last word", TUI_CTRL('w'))			\
	X(ACT_PROMPT_KILL, SC_PROMPT, NULL,				\
	    "delete the whole text", TUI_CTRL('u'))

enum action {
	ACT_NONE = 0,
#define X(id, scope, bar, help, ...) id,
	ACTION_INFO(X)
#undef X
	ACTION_COUNT
};

#define ACTION_KEYS_MAX	6	/* most keys one action has, plus the 0 end */

struct action_info {
	const char	*name;		/* the id as text: "ACT_HELP" */
	unsigned	 scope;		/* SC_* bits */
	const char	*bar;		/* function-bar label or NULL */
	const char	*help;
	int		 keys[ACTION_KEYS_MAX];	/* 0-terminated */
};

extern const struct action_info action_info[ACTION_COUNT];

/* The action key has in a view of scope, or ACT_NONE. */
enum action keys_action(unsigned scope, int key);

/*
 * A key's name for people: "q", "Enter", "Esc", "F1", "PgDn", "^L",
 * "Space". Returns buf.
 */
const char *keys_label(int key, char *buf, size_t size);

/*
 * All of an action's keys, named and separated by spaces, without
 * duplicates that look alike (Enter appears once for '\n', '\r' and
 * KEY_ENTER). Returns buf.
 */
const char *keys_list(enum action a, char *buf, size_t size);

/* Scope bits in the order the help lists them, and their titles. */
struct keys_section {
	unsigned	 scope;
	const char	*title;
};
extern const struct keys_section keys_sections[];
extern const size_t keys_section_count;

#endif
