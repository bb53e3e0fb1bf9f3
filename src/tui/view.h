/*
 * tui/view.h: the views of the TUI and what they may ask of it.
 *
 * A view is one screen's worth of behaviour (tig's view_ops, htop's
 * Panel): the offers table, one offer in detail, the filter panel, a
 * pick list, the help. Views sit on a stack; the top one gets the
 * user's actions. The event loop in tui.c owns the terminal: it reads
 * keys, turns them into actions through the key table (keys.h), handles
 * resizing and the mouse in one place, and redraws when something
 * changed. Each redraw goes bottom-up from the topmost view that is
 * not an overlay, so a panel can sit on top of the table it filters.
 *
 *	loop:	refresh/poll -> keys -> actions -> view_action()
 *		   (the view's ops->action, else the base: move, Back)
 *		-> if dirty: view_place(), view_draw() for the visible
 *		   views, status line, function bar -> doupdate
 *
 * The base (view.c) does what every view does the same way, as tig's
 * view.c does for its views: the movement keys, the wheel, clicks on a
 * list's lines, Back, a new size and a pager's bounds. A view is a
 * pager (text that scrolls: help, detail, summary) or a list (lines
 * with one selected: offers, filter panel, pick lists), and its ops
 * supply only what differs: how to draw, its own actions and clicks.
 *
 * Views draw into their `area` of stdscr; the loop keeps the last two
 * screen lines for the status line and the function bar.
 */
#ifndef GPUCOST_TUI_VIEW_H
#define GPUCOST_TUI_VIEW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tui/colors.h"
#include "tui/keys.h"
#include "tui/scroll.h"

struct tui;
struct view;
struct model;

/* Screen rectangle: first row and column, rows and columns. */
struct rect {
	int	y, x, h, w;
};

/*
 * How the base (view.c) moves a view. Every view gets the movement
 * keys, the wheel, Back and a new size from the base; the view's ops
 * only say what is its own.
 */
enum view_kind {
	VIEW_PAGER,	/* text that scrolls: v->top, v->rows (help, detail) */
	VIEW_LIST	/* lines with one selected: v->sc, v->list (offers) */
};

struct view_ops {
	const char *name;		/* "offers", "detail" ... */
	unsigned scope;			/* SC_* bit for the key table */
	bool	 overlay;		/* drawn on top of the view below */
	enum view_kind kind;
	int	 head;			/* VIEW_PAGER: rows above the text */
	enum action pick;		/* VIEW_LIST: a click on the selected
					   line; ACT_NONE: nothing more */
	/*
	 * Draw into v->area. Mandatory. A pager sets v->rows (its text's
	 * height) and draws text row r at view_row_y(); a list sets
	 * v->list (where its lines are) and the length and height of v->sc.
	 */
	void	(*draw)(struct view *v);
	/* Its own actions, before the base's; true if handled. NULL: none. */
	bool	(*action)(struct view *v, enum action a);
	/* A click at (y, x) before the base's; true if taken. NULL: none. */
	bool	(*click)(struct view *v, int y, int x);
	/* VIEW_LIST: the base moved the selection; NULL: nothing to do. */
	void	(*moved)(struct view *v);
	/* v->area changed; NULL: nothing to do. */
	void	(*resize)(struct view *v);
	/* The model was reloaded or re-filtered; NULL: nothing to do. */
	void	(*changed)(struct view *v);
	/* Free v->priv; NULL: free(v->priv). */
	void	(*free)(struct view *v);
};

struct view {
	const struct view_ops *ops;
	struct tui	*tui;		/* borrowed: the owner */
	struct rect	 area;		/* set by the loop before draw/resize */
	/* The base's position; the view's draw reads it and sets its size. */
	int		 top;		/* VIEW_PAGER: first text row shown */
	int		 rows;		/* VIEW_PAGER: text rows, last draw */
	struct scroll	 sc;		/* VIEW_LIST: the selected line */
	struct rect	 list;		/* VIEW_LIST: its lines on screen */
	void		*priv;		/* the view's own state */
	struct view	*below;		/* next view on the stack */
};

/* Allocate a view (priv zeroed, priv_size bytes) for ops. */
struct view *view_new(struct tui *tui, const struct view_ops *ops,
	    size_t priv_size);
/* Free a view and its private state (NULL is fine). */
void	view_free(struct view *v);

/*
 * The base, for the loop (tui.c): every view is driven through these.
 *
 * view_place() gives v its area (calling ops->resize when it changed);
 * view_draw() keeps a pager's top inside its text, before and after
 * ops->draw (the text's height may change with the width);
 * view_action() offers the action to ops->action, then moves the view
 * (up, down, page, home, end) or pops it (Back); true if handled;
 * view_click() offers a click to ops->click, then selects the list
 * line under it (a second click on it runs ops->pick);
 * view_wheel() scrolls a pager, or a list's window (a list that fits
 * has no window to scroll: the wheel moves its selection).
 */
void	view_place(struct view *v, const struct rect *area);
void	view_draw(struct view *v);
bool	view_action(struct view *v, enum action a);
void	view_click(struct view *v, int y, int x);
void	view_wheel(struct view *v, int delta);

/* For a pager's draw: screen row of text row `row`, or -1 off screen. */
int	view_row_y(const struct view *v, int row);
/* The title line at the top of v->area. */
void	view_title(const struct view *v, const char *title);

/* The views. Each returns a new view to push with tui_push(). */
struct view *view_offers_new(struct tui *tui);
struct view *view_detail_new(struct tui *tui, size_t plan_index);
struct view *view_filter_new(struct tui *tui);
struct view *view_help_new(struct tui *tui);
struct view *view_summary_new(struct tui *tui);	/* --group-by's summary */

enum picker_kind {
	PICK_GPU,		/* GPU models present, multi-select */
	PICK_PROVIDER,		/* providers, multi-select */
	PICK_SORT		/* sort column, single */
};
struct view *view_picker_new(struct tui *tui, enum picker_kind kind);

/* Services of the loop (tui.c) for views. */

/* The shared data. */
struct model *tui_model(struct tui *tui);
/* Push a view on top (the tui owns it from now on). */
void	tui_push(struct tui *tui, struct view *v);
/* Pop and free the top view (never the last one). */
void	tui_pop(struct tui *tui);
/* Ask for a redraw. */
void	tui_dirty(struct tui *tui);
/* Ask the loop to end. */
void	tui_quit(struct tui *tui);
/* The model was re-filtered or re-sorted: tell every view, redraw. */
void	tui_model_changed(struct tui *tui);
/* Start a background refresh (the R key). */
void	tui_refresh_start(struct tui *tui);
/* Current time (UTC epoch seconds), fixed for one redraw. */
int64_t	tui_now(const struct tui *tui);
/* Default hours for job costs (--hours), or < 0. */
double	tui_hours(const struct tui *tui);

/*
 * Copy text (a launch command) for the user: to the terminal's
 * clipboard with OSC 52 where its terminfo entry says it takes it (Ms)
 * and no multiplexer stands between (tmux, screen); always kept and
 * printed on stdout when the interactive mode ends. Returns true only
 * when it was written to a terminal that takes it.
 */
bool	tui_copy(struct tui *tui, const char *text);
/*
 * Copy plan p's launch command: the one the list ranks by (spot when
 * sorted by spot or filtered to spot, else on-demand), or the other one
 * (Y); says on the status line what was copied and where it went.
 */
struct plan;
void	tui_copy_launch(struct tui *tui, const struct plan *p, bool other);

/* A one-line message on the status line until the next key. */
void	tui_message(struct tui *tui, enum ui_color role, const char *fmt, ...)
	    __attribute__((format(printf, 3, 4)));

/*
 * Text entry on the status line. The loop owns the text; `changed` runs
 * after every edit (NULL: only at the end), `done` once with accepted
 * true (Enter) or false (Escape). A `done` returning false keeps the
 * prompt open (the text did not parse; it set a message).
 */
struct prompt_ops {
	void	(*changed)(struct view *v, const char *text);
	bool	(*done)(struct view *v, const char *text, bool accepted);
};
void	tui_prompt(struct tui *tui, struct view *v, const struct prompt_ops *ops,
	    const char *label, const char *initial);

/* Drawing helpers shared by the views. */

/* Fill row y of r with spaces in attr. */
void	draw_fill(const struct rect *r, int y, attr_t attr);
/*
 * Put UTF-8 text at (y, x) within at most w columns, cut with '~' when
 * longer, right-aligned in w when right. Returns columns used.
 */
int	draw_text(int y, int x, int w, const char *text, attr_t attr,
	    bool right);
/*
 * Break text after spaces into lines of at most w columns (a word wider
 * than w is cut there): each line's start and byte length into
 * start[]/len[], at most max of them. Returns how many lines. Help and
 * notes wrap instead of being cut with '~' (issue 45).
 */
size_t	text_lines(const char *text, size_t w, const char **start,
	    size_t *len, size_t max);
/*
 * Text wrapped to w columns at (x, view row `row` of pager v) and the
 * rows below it: only the rows on screen are drawn. Returns how many
 * rows it takes.
 */
int	draw_wrapped(const struct view *v, int row, int x, int w, const char *text,
	    attr_t attr);
/* A box border around r with a title. */
void	draw_box(const struct rect *r, const char *title);

#endif
