/*
 * test_tui_keys.c: the TUI's action table. One key means one thing in
 * each view, every view can get help and quit, every action has help
 * text, and key names read as the help and the man page print them.
 */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui/keys.h"

static const unsigned scopes[] = { SC_OFFERS, SC_DETAIL, SC_FILTER,
    SC_PICKER, SC_HELP, SC_PROMPT };

/* No key is bound to two actions that can meet in one scope. */
static void
test_no_conflicts(void **state)
{
	size_t s;
	int a, b, i, j;

	(void)state;
	for (s = 0; s < sizeof scopes / sizeof scopes[0]; s++)
		for (a = 1; a < ACTION_COUNT; a++) {
			if ((action_info[a].scope & scopes[s]) == 0)
				continue;
			for (b = a + 1; b < ACTION_COUNT; b++) {
				if ((action_info[b].scope & scopes[s]) == 0)
					continue;
				for (i = 0; action_info[a].keys[i] != 0; i++)
					for (j = 0; action_info[b].keys[j] != 0;
					    j++)
						if (action_info[a].keys[i] ==
						    action_info[b].keys[j])
							fail_msg("key %d: %s and %s "
							    "in scope %#x",
							    action_info[a].keys[i],
							    action_info[a].name,
							    action_info[b].name,
							    scopes[s]);
			}
		}
}

/* Every action is documented, has a key and a scope. */
static void
test_every_action_documented(void **state)
{
	int a;

	(void)state;
	for (a = 1; a < ACTION_COUNT; a++) {
		assert_non_null(action_info[a].help);
		assert_true(strlen(action_info[a].help) > 5);
		assert_true(action_info[a].keys[0] != 0);
		assert_true(action_info[a].scope != 0);
		assert_int_equal(strncmp(action_info[a].name, "ACT_", 4), 0);
	}
}

/* The lookup finds what the table says, per scope. */
static void
test_lookup(void **state)
{
	(void)state;
	assert_int_equal(keys_action(SC_OFFERS, 'q'), ACT_QUIT);
	assert_int_equal(keys_action(SC_HELP, 'q'), ACT_QUIT);
	assert_int_equal(keys_action(SC_OFFERS, KEY_DOWN), ACT_DOWN);
	assert_int_equal(keys_action(SC_OFFERS, 'j'), ACT_DOWN);
	assert_int_equal(keys_action(SC_OFFERS, '\n'), ACT_DETAIL);
	assert_int_equal(keys_action(SC_FILTER, '\n'), ACT_EDIT);
	assert_int_equal(keys_action(SC_PICKER, KEY_ENTER), ACT_SELECT);
	assert_int_equal(keys_action(SC_PROMPT, '\r'), ACT_PROMPT_ACCEPT);
	assert_int_equal(keys_action(SC_OFFERS, TUI_ESC), ACT_CLEAR_SEARCH);
	assert_int_equal(keys_action(SC_DETAIL, TUI_ESC), ACT_BACK);
	assert_int_equal(keys_action(SC_DETAIL, 'h'), ACT_HOURS);
	assert_int_equal(keys_action(SC_FILTER, 'h'), ACT_PREV_VALUE);
	assert_int_equal(keys_action(SC_OFFERS, 'R'), ACT_REFRESH);
	assert_int_equal(keys_action(SC_OFFERS, KEY_F(10)), ACT_QUIT);
	/* Letters are typed in the prompt, never actions there. */
	assert_int_equal(keys_action(SC_PROMPT, 'q'), ACT_NONE);
	assert_int_equal(keys_action(SC_PROMPT, 'j'), ACT_NONE);
	assert_int_equal(keys_action(SC_OFFERS, 'Z'), ACT_NONE);
	assert_int_equal(keys_action(SC_OFFERS, 0), ACT_NONE);
}

/* Every view's function bar offers help and a way out. */
static void
test_bars(void **state)
{
	size_t s;
	int a, help, out;

	(void)state;
	for (s = 0; s + 1 < sizeof scopes / sizeof scopes[0]; s++) {
		help = out = 0;
		for (a = 1; a < ACTION_COUNT; a++) {
			if ((action_info[a].scope & scopes[s]) == 0 ||
			    action_info[a].bar == NULL)
				continue;
			if (a == ACT_HELP)
				help = 1;
			if (a == ACT_QUIT || a == ACT_BACK)
				out = 1;
			assert_true(strlen(action_info[a].bar) <= 8);
		}
		assert_true(help);
		assert_true(out);
	}
}

static void
label_is(int key, const char *want)
{
	char buf[16];

	assert_string_equal(keys_label(key, buf, sizeof buf), want);
}

static void
test_labels(void **state)
{
	char buf[64];

	(void)state;
	label_is('q', "q");
	label_is('/', "/");
	label_is('\n', "Enter");
	label_is(KEY_ENTER, "Enter");
	label_is(TUI_ESC, "Esc");
	label_is(' ', "Space");
	label_is(KEY_F(1), "F1");
	label_is(KEY_F(10), "F10");
	label_is(KEY_NPAGE, "PgDn");
	label_is(TUI_CTRL('l'), "^L");
	label_is(127, "Backspace");
	assert_string_equal(keys_list(ACT_DETAIL, buf, sizeof buf), "Enter");
	assert_string_equal(keys_list(ACT_PROMPT_ERASE, buf, sizeof buf),
	    "Backspace");
	assert_string_equal(keys_list(ACT_DOWN, buf, sizeof buf), "Down j");
	assert_string_equal(keys_list(ACT_HELP, buf, sizeof buf), "? F1");
	keys_list(ACT_CLEAR_FIELD, buf, 6);	/* truncates safely */
	assert_true(strlen(buf) < 6);
}

/* Every action is listed by at least one help section. */
static void
test_sections_cover_everything(void **state)
{
	unsigned all = 0;
	size_t s;
	int a;

	(void)state;
	for (s = 0; s < keys_section_count; s++)
		all |= keys_sections[s].scope;
	for (a = 1; a < ACTION_COUNT; a++)
		assert_true((action_info[a].scope & all) != 0);
}

/*
 * gpucost(1)'s INTERACTIVE MODE lists every action with the same keys and
 * text as the help screen. Skipped until the page has the section or
 * when TOP_SRCDIR does not say where the page is.
 */
static void
test_man_page_lists_every_key(void **state)
{
	const char *top = getenv("TOP_SRCDIR");
	char path[4096], keys[64], want[96], *page;
	const char *section;
	size_t len;
	FILE *f;
	long size;
	int a;

	(void)state;
	if (top == NULL)
		skip();
	snprintf(path, sizeof path, "%s/man/gpucost.1", top);
	if ((f = fopen(path, "r")) == NULL)
		skip();
	fseek(f, 0, SEEK_END);
	size = ftell(f);
	rewind(f);
	page = calloc(1, (size_t)size + 1);
	assert_non_null(page);
	len = fread(page, 1, (size_t)size, f);
	fclose(f);
	page[len] = '\0';
	if ((section = strstr(page, ".Sh INTERACTIVE MODE")) == NULL) {
		free(page);
		skip();
	}
	for (a = 1; a < ACTION_COUNT; a++) {
		snprintf(want, sizeof want, ".It Cm \"%s\"\n",
		    keys_list((enum action)a, keys, sizeof keys));
		if (strstr(section, want) == NULL)
			fail_msg("gpucost.1 lacks %s", want);
		/* The help text, after its first (capitalised) letter. */
		if (strstr(section, action_info[a].help + 1) == NULL)
			fail_msg("gpucost.1 lacks \"%s\"", action_info[a].help);
	}
	free(page);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_no_conflicts),
		cmocka_unit_test(test_every_action_documented),
		cmocka_unit_test(test_lookup),
		cmocka_unit_test(test_bars),
		cmocka_unit_test(test_labels),
		cmocka_unit_test(test_sections_cover_everything),
		cmocka_unit_test(test_man_page_lists_every_key),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
