/* tui/colors.c: colour roles, the colour and monochrome themes. */
#include "config.h"
#include "tui/colors.h"

#include <stdlib.h>

static const struct {
	short	fg, bg;		/* curses colours; -1 the default */
	attr_t	attr;		/* added in the colour theme */
	attr_t	mono;		/* the whole attribute in monochrome */
} roles[UI_COLOR_COUNT] = {
#define X(id, f, b, a, m) [id] = { .fg = f, .bg = b, .attr = a, .mono = m },
	UI_COLORS(X)
#undef X
};

static attr_t	attrs[UI_COLOR_COUNT];
static bool	mono = true;

/* Is NO_COLOR set and not empty? */
bool
colors_no_color_env(void)
{
	const char *v = getenv("NO_COLOR");

	return v != NULL && v[0] != '\0';
}

/* Choose the theme and set up the colour pairs. */
void
colors_init(bool want_mono)
{
	short def_fg = COLOR_WHITE, def_bg = COLOR_BLACK;
	int i;

	mono = want_mono || !has_colors() || start_color() == ERR;
	if (!mono && use_default_colors() == OK)
		def_fg = def_bg = -1;
	/* Pair 0 is fixed; role i uses pair i + 1. */
	if (!mono && COLOR_PAIRS < UI_COLOR_COUNT + 1)
		mono = true;
	for (i = 0; i < UI_COLOR_COUNT; i++) {
		short fg = roles[i].fg < 0 ? def_fg : roles[i].fg;
		short bg = roles[i].bg < 0 ? def_bg : roles[i].bg;

		if (mono) {
			attrs[i] = roles[i].mono;
			continue;
		}
		init_pair((short)(i + 1), fg, bg);
		attrs[i] = COLOR_PAIR(i + 1) | roles[i].attr;
	}
}

/* Is the monochrome theme in use? */
bool
colors_mono(void)
{
	return mono;
}

/* The attribute of a role in the current theme. */
attr_t
ui_attr(enum ui_color role)
{
	return (unsigned)role < UI_COLOR_COUNT ? attrs[role] : A_NORMAL;
}
