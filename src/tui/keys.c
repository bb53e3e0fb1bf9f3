/* tui/keys.c: the action table, key lookup and key names. */
#include "config.h"
#include "tui/keys.h"

#include <stdio.h>
#include <string.h>

#include "str.h"

const struct action_info action_info[ACTION_COUNT] = {
	[ACT_NONE] = { .name = "none", .help = "" },
#define X(id, sc, label, text, ...)					\
	[id] = { .name = #id, .scope = sc, .bar = label, .help = text,	\
	    .keys = { __VA_ARGS__, 0 } },
	ACTION_INFO(X)
#undef X
};

const struct keys_section keys_sections[] = {
	{ SC_VIEWS,	"Everywhere" },
	{ SC_OFFERS,	"Offers table" },
	{ SC_DETAIL,	"Offer detail" },
	{ SC_FILTER,	"Filter panel" },
	{ SC_PICKER,	"Lists (GPU model, providers, sort column)" },
	{ SC_PROMPT,	"Typing text (search, hours, filter values)" },
};
const size_t keys_section_count = sizeof keys_sections /
    sizeof keys_sections[0];

/* Look the key up among the actions of scope, in table order. */
enum action
keys_action(unsigned scope, int key)
{
	int a, k;

	if (key == 0)
		return ACT_NONE;
	for (a = 1; a < ACTION_COUNT; a++) {
		if ((action_info[a].scope & scope) == 0)
			continue;
		for (k = 0; k < ACTION_KEYS_MAX && action_info[a].keys[k] != 0;
		    k++)
			if (action_info[a].keys[k] == key)
				return (enum action)a;
	}
	return ACT_NONE;
}

/* Name a key for the help and the function bar. */
const char *
keys_label(int key, char *buf, size_t size)
{
	static const struct {
		int		 key;
		const char	*name;
	} names[] = {
		{ '\n', "Enter" }, { '\r', "Enter" }, { KEY_ENTER, "Enter" },
		{ TUI_ESC, "Esc" }, { ' ', "Space" }, { 127, "Backspace" },
		{ 8, "Backspace" }, { KEY_BACKSPACE, "Backspace" },
		{ KEY_DC, "Delete" }, { KEY_UP, "Up" }, { KEY_DOWN, "Down" },
		{ KEY_LEFT, "Left" }, { KEY_RIGHT, "Right" },
		{ KEY_PPAGE, "PgUp" }, { KEY_NPAGE, "PgDn" },
		{ KEY_HOME, "Home" }, { KEY_END, "End" },
	};
	size_t i;

	for (i = 0; i < sizeof names / sizeof names[0]; i++)
		if (names[i].key == key) {
			str_copy(buf, size, names[i].name);
			return buf;
		}
	if (key >= KEY_F(1) && key <= KEY_F(24))
		snprintf(buf, size, "F%d", key - KEY_F0);
	else if (key > 0 && key < 32)
		snprintf(buf, size, "^%c", key + '@');
	else if (key > 32 && key < 127)
		snprintf(buf, size, "%c", key);
	else
		snprintf(buf, size, "#%d", key);
	return buf;
}

/* Every key of action a, named, each name once. */
const char *
keys_list(enum action a, char *buf, size_t size)
{
	char name[16], seen[ACTION_KEYS_MAX][16];
	size_t nseen = 0, i, len = 0;
	int k;

	if (size > 0)
		buf[0] = '\0';
	if ((unsigned)a >= ACTION_COUNT)
		return buf;
	for (k = 0; k < ACTION_KEYS_MAX && action_info[a].keys[k] != 0; k++) {
		keys_label(action_info[a].keys[k], name, sizeof name);
		for (i = 0; i < nseen; i++)
			if (strcmp(seen[i], name) == 0)
				break;
		if (i < nseen)
			continue;
		str_copy(seen[nseen++], sizeof seen[0], name);
		if (len < size)
			len += (size_t)snprintf(buf + len, size - len, "%s%s",
			    len > 0 ? " " : "", name);
	}
	return buf;
}
