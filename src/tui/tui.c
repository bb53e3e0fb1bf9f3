/*
 * tui/tui.c: terminal setup and teardown, the event loop, the status
 * line, the function bar, the text prompt and the background refresh.
 */
#include "config.h"
#include "tui/tui.h"

#include <errno.h>
#include <limits.h>
#include <locale.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <wchar.h>

#include "err.h"
#include "launch.h"
#include "refresh.h"
#include "signals.h"
#include "str.h"
#include "tui/colors.h"
#include "tui/curses.h"
#include "tui/keys.h"
#include "tui/model.h"
#include "tui/view.h"
#include "xalloc.h"

#define TUI_MIN_COLS	50	/* below this a notice replaces the views */
#define TUI_MIN_LINES	10
#define TUI_IDLE_MS	1000	/* poll timeout with nothing running */
#define TUI_REFRESH_MS	100	/* poll timeout while a refresh runs */
#define TUI_STACK_MAX	16
#define TUI_BAR_MAX	24
#define TUI_WHEEL_LINES	3

struct tui_prompt {
	bool		 active;
	struct view	*view;		/* the view that asked */
	const struct prompt_ops *ops;
	char		 label[48];
	char		 text[OFFER_NAME_MAX];
};

struct tui {
	struct model	 model;
	struct view	*top;		/* the view stack */
	bool		 quit;
	bool		 dirty;
	int64_t		 now;		/* for this redraw */
	double		 hours;		/* --hours, < 0 none */
	struct tui_prompt prompt;
	char		 message[512];	/* status line until the next key */
	enum ui_color	 message_role;
	struct refresh	*refresh;	/* the background refresh or NULL */
	struct timespec	 refresh_start;
	struct {
		int	 x0, x1;	/* columns [x0, x1) of the bar */
		enum action action;
	} bar[TUI_BAR_MAX];		/* for clicks on the function bar */
	size_t		 nbar;
	bool		 too_small;
	char		 copied[LAUNCH_CMD_MAX];	/* printed on exit */
};

static SCREEN	*tui_screen;			/* non-NULL while curses runs */
static bool	 tui_atexit_set;

/* Restore the terminal if curses has it. */
void
tui_emergency_restore(void)
{
	if (tui_screen != NULL) {
		endwin();
		tui_screen = NULL;	/* delscreen() is for the normal path */
	}
}

/* Is there a terminal to run on? */
bool
tui_available(void)
{
	const char *term = getenv("TERM");

	return isatty(STDIN_FILENO) && isatty(STDOUT_FILENO) &&
	    term != NULL && term[0] != '\0' && strcmp(term, "dumb") != 0;
}

/* The shared model. */
struct model *
tui_model(struct tui *t)
{
	return &t->model;
}

/* The time of this redraw. */
int64_t
tui_now(const struct tui *t)
{
	return t->now;
}

/* --hours, or < 0. */
double
tui_hours(const struct tui *t)
{
	return t->hours;
}

/* Ask for a redraw. */
void
tui_dirty(struct tui *t)
{
	t->dirty = true;
}

/* End the loop. */
void
tui_quit(struct tui *t)
{
	t->quit = true;
}

/* Push a view. */
void
tui_push(struct tui *t, struct view *v)
{
	v->below = t->top;
	t->top = v;
	t->dirty = true;
}

/* Pop and free the top view, keeping the last one. */
void
tui_pop(struct tui *t)
{
	struct view *v = t->top;

	if (v == NULL || v->below == NULL)
		return;
	if (t->prompt.active && t->prompt.view == v)
		t->prompt.active = false;
	t->top = v->below;
	view_free(v);
	t->dirty = true;
}

/* Tell every view the model changed. */
void
tui_model_changed(struct tui *t)
{
	struct view *v;

	for (v = t->top; v != NULL; v = v->below)
		if (v->ops->changed != NULL)
			v->ops->changed(v);
	t->dirty = true;
}

/* Set the status-line message. */
void
tui_message(struct tui *t, enum ui_color role, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(t->message, sizeof t->message, fmt, ap);
	va_end(ap);
	t->message_role = role;
	t->dirty = true;
}

/* Open the prompt on the status line. */
void
tui_prompt(struct tui *t, struct view *v, const struct prompt_ops *ops,
    const char *label, const char *initial)
{
	t->prompt.active = true;
	t->prompt.view = v;
	t->prompt.ops = ops;
	str_copy(t->prompt.label, sizeof t->prompt.label, label);
	str_copy(t->prompt.text, sizeof t->prompt.text,
	    initial != NULL ? initial : "");
	t->message[0] = '\0';
	t->dirty = true;
}

/* Seconds since ts. */
static double
seconds_since(const struct timespec *ts)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)(now.tv_sec - ts->tv_sec) +
	    (double)(now.tv_nsec - ts->tv_nsec) / 1e9;
}

/* Start the background refresh. */
void
tui_refresh_start(struct tui *t)
{
	struct refresh_options ro;
	struct err err;
	int rc;

	if (t->refresh != NULL) {
		tui_message(t, UI_NOTICE, "A refresh is already running.");
		return;
	}
	memset(&ro, 0, sizeof ro);
	ro.db_path = t->model.db_path;
	ro.lock_wait = 0;
	rc = refresh_begin(&ro, &t->refresh, &err);
	if (rc == REFRESH_BUSY) {
		t->refresh = NULL;
		tui_message(t, UI_NOTICE, "Another refresh is running; its "
		    "prices show up here after the next refresh or restart.");
		return;
	}
	if (rc < 0) {
		t->refresh = NULL;
		tui_message(t, UI_ERROR, "Refresh: %s", err.msg);
		return;
	}
	clock_gettime(CLOCK_MONOTONIC, &t->refresh_start);
	t->message[0] = '\0';
	t->dirty = true;
}

/* Bytes for people: "512B", "12K", "3.4M". */
static void
human_bytes(size_t n, char *buf, size_t size)
{
	if (n < 1024)
		snprintf(buf, size, "%zuB", n);
	else if (n < 1024 * 1024)
		snprintf(buf, size, "%zuK", n / 1024);
	else
		snprintf(buf, size, "%.1fM", (double)n / (1024.0 * 1024.0));
}

/* One line of per-provider refresh progress. */
static void
refresh_line(struct tui *t, char *buf, size_t size)
{
	const struct refresh_progress *p;
	size_t n, i, len;
	char bytes[16];

	n = refresh_progress(t->refresh, &p);
	len = (size_t)snprintf(buf, size, "Refreshing %.0fs:",
	    seconds_since(&t->refresh_start));
	for (i = 0; i < n && len < size; i++) {
		switch (p[i].state) {
		case REFRESH_RUNNING:
			human_bytes(p[i].bytes, bytes, sizeof bytes);
			len += (size_t)snprintf(buf + len, size - len,
			    " %s %s...", p[i].provider, bytes);
			break;
		case REFRESH_OK:
			len += (size_t)snprintf(buf + len, size - len,
			    " %s ok %zu", p[i].provider, p[i].offers);
			break;
		case REFRESH_FAILED:
			len += (size_t)snprintf(buf + len, size - len,
			    " %s FAILED", p[i].provider);
			break;
		case REFRESH_SKIPPED:
			len += (size_t)snprintf(buf + len, size - len,
			    " %s skipped", p[i].provider);
			break;
		}
	}
}

/* The refresh ended: summarise, release it, reload the offers. */
static void
refresh_finish(struct tui *t)
{
	const struct refresh_progress *p;
	const char *first_error = NULL, *first_name = "";
	size_t n, i, ok = 0, failed = 0, skipped = 0;
	struct err err;
	double secs = seconds_since(&t->refresh_start);
	char detail[420] = "";

	n = refresh_progress(t->refresh, &p);
	for (i = 0; i < n; i++) {
		if (p[i].state == REFRESH_OK)
			ok++;
		else if (p[i].state == REFRESH_SKIPPED)
			skipped++;
		else if (p[i].state == REFRESH_FAILED) {
			if (failed++ == 0) {
				first_error = p[i].message;
				first_name = p[i].provider;
			}
		}
	}
	if (first_error != NULL)
		snprintf(detail, sizeof detail, " (%s: %s)", first_name,
		    first_error);
	tui_message(t, failed > 0 ? UI_ERROR : UI_OK,
	    "Refresh done in %.1fs: %zu updated, %zu failed, %zu skipped%s",
	    secs, ok, failed, skipped, detail);
	refresh_end(t->refresh);
	t->refresh = NULL;
	if (model_load(&t->model, &err) < 0)
		tui_message(t, UI_ERROR, "Reloading the cache: %s", err.msg);
	else
		tui_model_changed(t);
}

/* Turn an action into its effect: global ones here, the rest to the view. */
static void
tui_action(struct tui *t, enum action a)
{
	struct view *v = t->top;

	switch (a) {
	case ACT_NONE:
		return;
	case ACT_QUIT:
		t->quit = true;
		return;
	case ACT_REDRAW:
		clearok(curscr, TRUE);
		t->dirty = true;
		return;
	case ACT_HELP:
		if (strcmp(v->ops->name, "help") != 0)
			tui_push(t, view_help_new(t));
		return;
	default:
		break;
	}
	view_action(v, a);	/* the view's, or the base's (Back pops) */
	t->dirty = true;
}

/* Close the prompt and tell its view. */
static void
prompt_end(struct tui *t, bool accepted)
{
	struct tui_prompt *p = &t->prompt;

	if (p->ops->done != NULL && !p->ops->done(p->view, p->text, accepted)
	    && accepted)
		return;		/* the view keeps it open */
	p->active = false;
	t->dirty = true;
}

/* Remove the last UTF-8 character of s. */
static void
erase_char(char *s)
{
	size_t n = strlen(s);

	while (n > 0 && ((unsigned char)s[n - 1] & 0xc0) == 0x80)
		n--;
	if (n > 0)
		n--;
	s[n] = '\0';
}

/* Remove the last word (and the spaces after it) of s. */
static void
erase_word(char *s)
{
	size_t n = strlen(s);

	while (n > 0 && s[n - 1] == ' ')
		n--;
	while (n > 0 && s[n - 1] != ' ')
		n--;
	s[n] = '\0';
}

/* A key while the prompt is open. */
static void
prompt_key(struct tui *t, bool is_code, wint_t ch)
{
	struct tui_prompt *p = &t->prompt;
	int key = is_code || ch < 128 ? (int)ch : -1;
	char mb[MB_LEN_MAX + 1];
	mbstate_t st;
	size_t len, n;

	switch (keys_action(SC_PROMPT, key)) {
	case ACT_PROMPT_ACCEPT:
		prompt_end(t, true);
		return;
	case ACT_PROMPT_CANCEL:
		prompt_end(t, false);
		return;
	case ACT_PROMPT_ERASE:
		erase_char(p->text);
		break;
	case ACT_PROMPT_WORD:
		erase_word(p->text);
		break;
	case ACT_PROMPT_KILL:
		p->text[0] = '\0';
		break;
	default:
		if (is_code || ch < 32 || ch == 127)
			return;
		memset(&st, 0, sizeof st);
		if ((n = wcrtomb(mb, (wchar_t)ch, &st)) == (size_t)-1)
			return;
		len = strlen(p->text);
		if (len + n >= sizeof p->text)
			return;
		memcpy(p->text + len, mb, n);
		p->text[len + n] = '\0';
		break;
	}
	if (p->ops->changed != NULL)
		p->ops->changed(p->view, p->text);
	t->dirty = true;
}

/* A mouse event: the function bar, a click in the view, the wheel. */
static void
tui_mouse(struct tui *t)
{
#ifdef NCURSES_MOUSE_VERSION
	MEVENT ev;
	size_t i;

	if (getmouse(&ev) != OK || t->prompt.active || t->too_small)
		return;
	if (ev.bstate & BUTTON4_PRESSED) {
		view_wheel(t->top, -TUI_WHEEL_LINES);
		t->dirty = true;
		return;
	}
#ifdef BUTTON5_PRESSED
	if (ev.bstate & BUTTON5_PRESSED) {
		view_wheel(t->top, TUI_WHEEL_LINES);
		t->dirty = true;
		return;
	}
#endif
	if ((ev.bstate & (BUTTON1_RELEASED | BUTTON1_CLICKED)) == 0)
		return;		/* a press, or a button we do not use */
	t->message[0] = '\0';
	if (ev.y == LINES - 1) {
		for (i = 0; i < t->nbar; i++)
			if (ev.x >= t->bar[i].x0 && ev.x < t->bar[i].x1) {
				tui_action(t, t->bar[i].action);
				break;
			}
		return;
	}
	if (ev.y < LINES - 2) {
		view_click(t->top, ev.y, ev.x);
		t->dirty = true;
	}
#else
	(void)t;
#endif
}

/* One key from get_wch. KEY_RESIZE and KEY_MOUSE are handled only here. */
static void
tui_key(struct tui *t, bool is_code, wint_t ch)
{
	int key;

	if (is_code && ch == KEY_RESIZE) {
		t->dirty = true;	/* tui_draw() uses LINES, COLS */
		return;
	}
	if (is_code && ch == KEY_MOUSE) {
		tui_mouse(t);
		return;
	}
	t->message[0] = '\0';
	t->dirty = true;
	if (t->prompt.active) {
		prompt_key(t, is_code, ch);
		return;
	}
	/* Only ASCII characters are bound; other characters do nothing. */
	key = is_code || ch < 128 ? (int)ch : -1;
	tui_action(t, keys_action(t->top->ops->scope, key));
}

/* The status line: prompt, message, refresh progress or a hint. */
static void
draw_status(struct tui *t, int y)
{
	struct rect line = { y, 0, 1, COLS };
	const char *s;
	char buf[512];
	size_t w;
	int x;

	draw_fill(&line, y, ui_attr(UI_STATUS));
	if (t->prompt.active) {
		x = draw_text(y, 0, COLS, t->prompt.label, ui_attr(UI_LABEL),
		    false);
		/* Show the end of a long text. */
		s = t->prompt.text;
		w = str_width(s);
		while (w + (size_t)x + 1 >= (size_t)COLS && *s != '\0') {
			s += str_prefix_for_width(s, 1);
			w--;
		}
		x += draw_text(y, x, COLS - x, s, ui_attr(UI_INPUT), false);
		/* A complaint about the text goes after it. */
		if (t->message[0] != '\0' && x + 3 < COLS)
			draw_text(y, x + 2, COLS - x - 2, t->message,
			    ui_attr(t->message_role), false);
		move(y, x < COLS ? x : COLS - 1);
		return;
	}
	if (t->message[0] != '\0') {
		/* Long errors lose their middle, never their cause. */
		str_shorten(buf, sizeof buf, t->message, (size_t)COLS);
		draw_text(y, 0, COLS, buf, ui_attr(t->message_role), false);
	}
	else if (t->refresh != NULL) {
		refresh_line(t, buf, sizeof buf);
		draw_text(y, 0, COLS, buf, ui_attr(UI_NOTICE), false);
	} else if (!t->model.counted)
		draw_text(y, 0, COLS, "Reading every cached offer for the "
		    "counts; keys act when it is done.", ui_attr(UI_DIM),
		    false);
	else if (t->model.any_snapshot)
		draw_text(y, 0, COLS, "Prices from the built-in snapshot: "
		    "R fetches live prices.", ui_attr(UI_DIM), false);
}

/* The function bar, generated from the action table for the top view. */
static void
draw_bar(struct tui *t, int y)
{
	unsigned scope = t->prompt.active ? SC_PROMPT : t->top->ops->scope;
	struct rect line = { y, 0, 1, COLS };
	char key[16];
	int a, x = 0, kw, lw, reserve = 0;

	draw_fill(&line, y, ui_attr(UI_BAR_LABEL));
	t->nbar = 0;
	/* On a narrow screen the middle items go; Quit always stays. */
	if (action_info[ACT_QUIT].scope & scope)
		reserve = (int)str_width(keys_label(
		    action_info[ACT_QUIT].keys[0], key, sizeof key)) + 7;
	for (a = 1; a < ACTION_COUNT && t->nbar < TUI_BAR_MAX; a++) {
		const struct action_info *ai = &action_info[a];

		if (ai->bar == NULL || (ai->scope & scope) == 0)
			continue;
		keys_label(ai->keys[0], key, sizeof key);
		kw = (int)str_width(key);
		lw = (int)str_width(ai->bar) + 1;
		if (lw < 7)
			lw = 7;
		if (x + kw + lw > COLS - (a == ACT_QUIT ? 0 : reserve))
			continue;
		draw_text(y, x, kw, key, ui_attr(UI_BAR_KEY), false);
		draw_text(y, x + kw, lw, ai->bar, ui_attr(UI_BAR_LABEL),
		    false);
		t->bar[t->nbar].x0 = x;
		t->bar[t->nbar].x1 = x + kw + lw;
		t->bar[t->nbar].action = (enum action)a;
		t->nbar++;
		x += kw + lw;
	}
}

/* Redraw the whole screen from LINES and COLS (after a resize too). */
static void
tui_draw(struct tui *t)
{
	struct view *stack[TUI_STACK_MAX], *v;
	struct rect body = { 0, 0, LINES - 2, COLS };
	size_t n = 0;
	char note[80];

	t->now = (int64_t)time(NULL);
	erase();
	t->too_small = COLS < TUI_MIN_COLS || LINES < TUI_MIN_LINES;
	if (t->too_small) {
		curs_set(0);
		snprintf(note, sizeof note, "Terminal too small: %dx%d", COLS,
		    LINES);
		draw_text(LINES / 2 - 1, 0, COLS, note, ui_attr(UI_NOTICE),
		    false);
		snprintf(note, sizeof note, "need %dx%d; q quits",
		    TUI_MIN_COLS, TUI_MIN_LINES);
		draw_text(LINES / 2, 0, COLS, note, ui_attr(UI_NORMAL), false);
		refresh();
		return;
	}
	/* Draw from the topmost full view up through its overlays. */
	for (v = t->top; v != NULL && n < TUI_STACK_MAX; v = v->below) {
		stack[n++] = v;
		if (!v->ops->overlay)
			break;
	}
	while (n > 0) {
		v = stack[--n];
		view_place(v, &body);
		view_draw(v);
	}
	draw_bar(t, LINES - 1);
	curs_set(t->prompt.active ? 1 : 0);
	draw_status(t, LINES - 2);	/* last: the cursor stays in it */
	refresh();
}

/* Wait for a key, a signal or refresh progress. */
static void
tui_wait(struct tui *t)
{
	struct pollfd pfd = { .fd = STDIN_FILENO, .events = POLLIN };

	if (t->refresh != NULL) {
		int running = refresh_poll(t->refresh, STDIN_FILENO,
		    TUI_REFRESH_MS);

		if (running == 0)
			refresh_finish(t);
		t->dirty = true;	/* progress moved */
		return;
	}
	if (poll(&pfd, 1, TUI_IDLE_MS) < 0 && errno != EINTR)
		t->quit = true;		/* stdin is gone */
	else if (pfd.revents & (POLLHUP | POLLERR | POLLNVAL))
		t->quit = true;
}

/* Wait for a key (left unread), a signal or the end of stdin. */
static void
tui_hold(struct tui *t)
{
	while (!t->quit && signals_caught == 0) {
		struct pollfd pfd = { .fd = STDIN_FILENO, .events = POLLIN };

		tui_wait(t);
		if (poll(&pfd, 1, 0) > 0)
			return;
	}
}

/* Read every pending key. */
static void
tui_read_keys(struct tui *t)
{
	wint_t ch;
	int rc;

	while (!t->quit && signals_caught == 0 &&
	    (rc = get_wch(&ch)) != ERR)
		tui_key(t, rc == KEY_CODE_YES, ch);
}

/* Take the terminal: curses modes, colours, mouse. */
static int
tui_screen_start(void)
{
	if ((tui_screen = newterm(NULL, stdout, stdin)) == NULL)
		return -1;
	set_term(tui_screen);
	if (!tui_atexit_set) {
		atexit(tui_emergency_restore);
		tui_atexit_set = true;
	}
	xalloc_set_fatal_hook(tui_emergency_restore);
	cbreak();		/* ^C stays a signal: caught and restored */
	noecho();
	keypad(stdscr, TRUE);
	nodelay(stdscr, TRUE);
	/* Escape alone answers fast, unless the user's ESCDELAY says not. */
	if (getenv("ESCDELAY") == NULL)
		set_escdelay(25);
	curs_set(0);
	colors_init(colors_no_color_env());
#ifdef NCURSES_MOUSE_VERSION
	/*
	 * A click acts when the button is released, as in htop, and at once
	 * (no click timing). Presses are asked for too, only to be ignored:
	 * ncurses may merge a press with its release, and with presses
	 * masked out it can hand an X10 release back as the press before
	 * it, so one click on a header would sort and then reverse.
	 */
	mouseinterval(0);
	mousemask(BUTTON1_PRESSED | BUTTON1_RELEASED | BUTTON4_PRESSED
#ifdef BUTTON5_PRESSED
	    | BUTTON5_PRESSED
#endif
	    , NULL);
#endif
	return 0;
}

/* Give the terminal back. */
static void
tui_screen_end(void)
{
	SCREEN *s = tui_screen;

	if (s == NULL)
		return;
#ifdef NCURSES_MOUSE_VERSION
	mousemask(0, NULL);
#endif
	endwin();
	tui_screen = NULL;
	delscreen(s);
	xalloc_set_fatal_hook(NULL);
}

/*
 * Does the terminal take OSC 52 (terminfo's extended Ms capability), and
 * is it the terminal itself? Inside tmux or screen the sequence reaches
 * the clipboard only if the multiplexer is set to pass it on (tmux's
 * set-clipboard on), which a program cannot see: never claim it there.
 */
static bool
tui_has_clipboard(void)
{
	const char *term = getenv("TERM");
	char *ms = tigetstr("Ms");

	if (getenv("TMUX") != NULL || getenv("STY") != NULL ||
	    (term != NULL && (strncmp(term, "screen", 6) == 0 ||
	    strncmp(term, "tmux", 4) == 0)))
		return false;
	return ms != NULL && ms != (char *)-1 && ms[0] != '\0';
}

bool
tui_copy(struct tui *t, const char *text)
{
	static const char b64[] =
	    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	const unsigned char *s = (const unsigned char *)text;
	size_t n = strlen(text), i;
	unsigned long v;

	/* Printed on exit whatever happens: the user asked for it. */
	str_copy(t->copied, sizeof t->copied, text);
	if (!tui_has_clipboard())
		return false;
	/* The text is sanitised provider text: no byte can end the OSC. */
	fputs("\033]52;c;", stdout);
	for (i = 0; i < n; i += 3) {
		v = (unsigned long)s[i] << 16;
		if (i + 1 < n)
			v |= (unsigned long)s[i + 1] << 8;
		if (i + 2 < n)
			v |= s[i + 2];
		putchar(b64[(v >> 18) & 63]);
		putchar(b64[(v >> 12) & 63]);
		putchar(i + 1 < n ? b64[(v >> 6) & 63] : '=');
		putchar(i + 2 < n ? b64[v & 63] : '=');
	}
	fputs("\a", stdout);
	fflush(stdout);
	return true;
}

void
tui_copy_launch(struct tui *t, const struct plan *p, bool other)
{
	char cmd[LAUNCH_CMD_MAX];
	bool by_spot = t->model.sort == SORT_SPOT ||
	    t->model.sort == SORT_SPOT_GPU || t->model.filter.spot;
	bool spot = by_spot != other;
	const char *what = spot ? "spot" : "on-demand";

	if ((spot ? launch_spot_command(p, cmd, sizeof cmd) :
	    launch_command(p, cmd, sizeof cmd)) == 0) {
		tui_message(t, UI_ERROR, "No %s launch command for %s %s%s",
		    what, p->offer->provider, p->offer->instance_type,
		    spot ? " (no spot price)" : "");
		return;
	}
	if (tui_copy(t, cmd))
		tui_message(t, UI_NORMAL, "The %s launch command is on the "
		    "clipboard (OSC 52) and is printed when you quit%s", what,
		    other ? "" : "; Y copies the other");
	else
		tui_message(t, UI_NORMAL, "The %s launch command is printed "
		    "when you quit (no clipboard this terminal is known to "
		    "take)%s", what, other ? "" : "; Y copies the other");
}

/* Entry point: see tui.h. */
enum tui_result
tui_run(const struct tui_options *opts)
{
	struct signals_saved old;	/* the signals that end us */
	struct tui *t;
	struct err err;
	bool load_failed = false;
	int sig;

	if (!tui_available()) {
		fprintf(stderr, "gpucost: the interactive mode needs a "
		    "terminal on stdin and stdout (and TERM set)\n");
		return TUI_NO_TERMINAL;
	}
	t = xcalloc(1, sizeof *t);
	model_init(&t->model);
	t->model.filter = opts->filter;
	/* Market references (rentable.h) as at the start of the session. */
	t->model.filter.now = (int64_t)time(NULL);
	t->model.sort = opts->sort;
	t->model.reverse = opts->reverse;
	t->model.all_regions = opts->all_regions;
	t->hours = opts->hours;
	/*
	 * The first screen's plans only (issue 29): the rest are sorted
	 * after it is drawn, before any key is read.
	 */
	if (model_open(&t->model, opts->db_path, &err) < 0 ||
	    model_load_first(&t->model, MODEL_FIRST_ROWS, &err) < 0) {
		fprintf(stderr, "gpucost: %s\n", err.msg);
		model_done(&t->model);
		free(t);
		return TUI_CACHE_ERROR;
	}
	if (tui_curses_load(&err) < 0) {
		fprintf(stderr, "gpucost: the interactive mode: %s\n",
		    err.msg);
		model_done(&t->model);
		free(t);
		return TUI_NO_TERMINAL;
	}
	/* Wide characters need the locale's encoding; numbers stay "C". */
	setlocale(LC_CTYPE, "");
	signals_catch(&old);
	if (tui_screen_start() < 0) {
		signals_restore(&old);
		fprintf(stderr, "gpucost: cannot use the terminal \"%s\"\n",
		    getenv("TERM"));
		model_done(&t->model);
		free(t);
		return TUI_NO_TERMINAL;
	}
	/* A screen taller than what was loaded: the whole load first. */
	if (t->model.partial && LINES > 0 &&
	    (size_t)LINES >= t->model.nready &&
	    (t->model.nready < t->model.nplans || !t->model.counted) &&
	    model_finish(&t->model, &err) < 0)
		load_failed = true;
	tui_push(t, view_offers_new(t));
	t->dirty = true;
	while (!t->quit && !load_failed && signals_caught == 0) {
		if (t->dirty) {
			t->dirty = false;
			tui_draw(t);
		}
		/*
		 * The rest of the load, before any key acts. It gives the
		 * first screen's plans again (the tmux test compares the
		 * first frame's rows with a ^L redraw's), so only a first
		 * screen from the indexes, whose title was still counting,
		 * is drawn again.
		 */
		if (t->model.partial) {
			bool counted = t->model.counted;

			/* Tests (tests/tui/tui.sh): the first frame stays
			   until a key comes, to be compared with the rest. */
			if (getenv("GPUCOST_DEBUG_TUI_HOLD") != NULL)
				tui_hold(t);
			if (model_finish(&t->model, &err) < 0) {
				load_failed = true;
				break;
			}
			if (!counted)
				tui_model_changed(t);
			continue;
		}
		tui_wait(t);
		tui_read_keys(t);
	}
	refresh_end(t->refresh);
	while (t->top != NULL) {
		struct view *v = t->top;

		t->top = v->below;
		view_free(v);
	}
	tui_screen_end();
	signals_restore(&old);
	/* The last command copied: kept in the scrollback even when the
	   clipboard took it too. */
	if (t->copied[0] != '\0')
		printf("%s\n", t->copied);
	if (load_failed)
		fprintf(stderr, "gpucost: %s\n", err.msg);
	model_done(&t->model);
	free(t);
	if ((sig = signals_caught) != 0) {
		signal(sig, SIG_DFL);
		raise(sig);
	}
	return load_failed ? TUI_CACHE_ERROR : TUI_DONE;
}
