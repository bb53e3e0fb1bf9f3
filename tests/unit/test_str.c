/* test_str.c: unit tests for str.c (copying, sanitising, width). */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "str.h"

/* Sanitise a NUL-terminated string into a 128-byte buffer and compare. */
static void
sanitize_is(const char *src, const char *want)
{
	char buf[128];
	size_t n;

	memset(buf, 'X', sizeof buf);
	n = str_sanitize(buf, sizeof buf, src, strlen(src));
	assert_string_equal(buf, want);
	assert_int_equal(n, strlen(want));
}

/* Sanitise into a buffer of exactly size bytes (guarded) and compare. */
static void
sanitize_small_is(const char *src, size_t size, const char *want)
{
	char buf[64];
	size_t n;

	assert_true(size < sizeof buf);
	memset(buf, 'X', sizeof buf);
	n = str_sanitize(buf, size, src, strlen(src));
	assert_string_equal(buf, want);
	assert_int_equal(n, strlen(want));
	/* Nothing written past size. */
	assert_int_equal(buf[size], 'X');
}

static void
test_copy_fits(void **state)
{
	char buf[16];

	(void)state;
	memset(buf, 'X', sizeof buf);
	assert_int_equal(str_copy(buf, sizeof buf, "hello"), 5);
	assert_string_equal(buf, "hello");
	assert_int_equal(str_copy(buf, sizeof buf, ""), 0);
	assert_string_equal(buf, "");
	/* Exactly size - 1 bytes fit. */
	assert_int_equal(str_copy(buf, 6, "hello"), 5);
	assert_string_equal(buf, "hello");
	assert_int_equal(str_copy(buf, 16, "caf\xc3\xa9"), 5);
	assert_string_equal(buf, "caf\xc3\xa9");
}

static void
test_copy_truncates(void **state)
{
	char buf[16];

	(void)state;
	memset(buf, 'X', sizeof buf);
	assert_int_equal(str_copy(buf, 3, "hello"), 5);
	assert_string_equal(buf, "he");
	assert_int_equal(buf[3], 'X');
	assert_int_equal(str_copy(buf, 1, "hello"), 5);
	assert_string_equal(buf, "");
	/* size 0: nothing written, length still returned. */
	memset(buf, 'X', sizeof buf);
	assert_int_equal(str_copy(buf, 0, "hello"), 5);
	assert_int_equal(buf[0], 'X');
}

static void
test_copy_never_splits_utf8(void **state)
{
	char buf[16];

	(void)state;
	/* "a" + U+00E9 (2 bytes): room for 2 bytes keeps only "a". */
	memset(buf, 'X', sizeof buf);
	assert_int_equal(str_copy(buf, 3, "a\xc3\xa9"), 3);
	assert_string_equal(buf, "a");
	/* U+20AC (3 bytes) in a 3-byte buffer: nothing fits. */
	assert_int_equal(str_copy(buf, 3, "\xe2\x82\xac"), 3);
	assert_string_equal(buf, "");
	/* "ab" + U+20AC: cut before the euro sign at every short size. */
	assert_int_equal(str_copy(buf, 5, "ab\xe2\x82\xac"), 5);
	assert_string_equal(buf, "ab");
	assert_int_equal(str_copy(buf, 4, "ab\xe2\x82\xac"), 5);
	assert_string_equal(buf, "ab");
	assert_int_equal(str_copy(buf, 6, "ab\xe2\x82\xac"), 5);
	assert_string_equal(buf, "ab\xe2\x82\xac");
	/* U+1F600 (4 bytes). */
	assert_int_equal(str_copy(buf, 5, "x\xf0\x9f\x98\x80"), 5);
	assert_string_equal(buf, "x");
	assert_int_equal(str_copy(buf, 6, "x\xf0\x9f\x98\x80y"), 6);
	assert_string_equal(buf, "x\xf0\x9f\x98\x80");
	/* Two 2-byte characters, room for three bytes: the first only. */
	assert_int_equal(str_copy(buf, 4, "\xc3\xa9\xc3\xa8"), 4);
	assert_string_equal(buf, "\xc3\xa9");
}

/* str_cut(): what fits is str_copy()'s; a cut ends in "...", whole. */
static void
test_cut_marks(void **state)
{
	char buf[16];
	size_t size;

	(void)state;
	assert_int_equal(str_cut(buf, 8, "abcdefg"), 7);
	assert_string_equal(buf, "abcdefg");
	assert_int_equal(str_cut(buf, 8, "abcdefgh"), 7);
	assert_string_equal(buf, "abcd...");
	/* "ab" + U+20AC + "cd": no cut inside the euro sign. */
	assert_int_equal(str_cut(buf, 8, "ab\xe2\x82\xac" "cdef"), 5);
	assert_string_equal(buf, "ab...");
	assert_int_equal(str_cut(buf, 9, "ab\xe2\x82\xac" "cdef"), 8);
	assert_string_equal(buf, "ab\xe2\x82\xac...");
	/* Every size: the result fits, is clean UTF-8, and marks the cut. */
	for (size = 4; size <= sizeof buf; size++) {
		str_cut(buf, size, "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9"
		    "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9x");
		assert_true(strlen(buf) < size);
		assert_true(str_is_clean(buf));
		assert_string_equal(buf + strlen(buf) - 3, "...");
	}
	/* Too small for the mark: str_copy()'s cut. */
	assert_int_equal(str_cut(buf, 3, "abcdef"), 2);
	assert_string_equal(buf, "ab");
}

static void
test_utf8_valid_and_repair(void **state)
{
	char s[32];

	(void)state;
	assert_true(str_utf8_valid("a\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80", 10));
	assert_false(str_utf8_valid("\xff\xfe", 2));
	assert_false(str_utf8_valid("\xc0\xaf", 2));		/* overlong */
	assert_false(str_utf8_valid("\xed\xa0\x80", 3));	/* surrogate */
	assert_false(str_utf8_valid("a\xc3", 2));		/* cut short */
	/* Only len bytes are read: a character cut at len is invalid. */
	assert_false(str_utf8_valid("\xc3\xa9", 1));
	strcpy(s, "{\"id\":\"\xff\xfe\xc3\xa9\xe2\x82\"}");
	str_utf8_repair(s);
	assert_string_equal(s, "{\"id\":\"??\xc3\xa9??\"}");
}

static void
test_sanitize_plain(void **state)
{
	(void)state;
	sanitize_is("plain text", "plain text");
	sanitize_is("", "");
	sanitize_is("NVIDIA H100 80GB HBM3", "NVIDIA H100 80GB HBM3");
	sanitize_is("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80",
	    "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80");
	/* U+00A0 (C2 A0) is not a C1 control. */
	sanitize_is("a\xc2\xa0" "b", "a\xc2\xa0" "b");
	/* Runs of blanks collapse to one space (str.h). */
	sanitize_is("a  b", "a b");
	sanitize_is("a \t\n b", "a b");
}

static void
test_sanitize_csi(void **state)
{
	(void)state;
	sanitize_is("\x1b[31mred\x1b[0m", "red");
	sanitize_is("a\x1b[1;31mb", "ab");
	sanitize_is("\x1b[?25lhidden cursor", "hidden cursor");
	sanitize_is("x\x1b[2J\x1b[Hy", "xy");
	/* Unterminated CSI at the end swallows the rest. */
	sanitize_is("abc\x1b[", "abc");
	sanitize_is("abc\x1b[31", "abc");
}

static void
test_sanitize_osc(void **state)
{
	(void)state;
	sanitize_is("\x1b]0;title\x07" "after", "after");
	sanitize_is("before\x1b]0;title\x07", "before");
	sanitize_is("\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\", "link");
	sanitize_is("a\x1b]2;evil\x1b\\" "b", "ab");
	/* Unterminated OSC: nothing of it survives. */
	sanitize_is("ok\x1b]0;title never ends", "ok");
	/* DCS, also up to ST. */
	sanitize_is("a\x1bPq#0;2\x1b\\" "b", "ab");
}

static void
test_sanitize_two_byte_escape(void **state)
{
	(void)state;
	sanitize_is("a\x1b" "cb", "ab");		/* RIS */
	sanitize_is("a\x1b" "7b\x1b" "8", "ab");	/* save/restore */
	sanitize_is("abc\x1b", "abc");			/* lone ESC at end */
	sanitize_is("a\x1b(Bb", "ab");			/* charset: ESC ( B */
	sanitize_is("a\x1b#8b", "ab");			/* DECALN */
	sanitize_is("abc\x1b(", "abc");			/* cut after an intermediate */
}

static void
test_sanitize_controls(void **state)
{
	(void)state;
	sanitize_is("a\x07" "b", "ab");			/* BEL */
	sanitize_is("a\x01\x02\x03" "b", "ab");		/* C0 */
	sanitize_is("a\x08" "b", "ab");			/* backspace */
	sanitize_is("a\x7f" "b", "ab");			/* DEL */
	sanitize_is("a\x1f\x0e\x0f" "b", "ab");
	/* C1 controls as UTF-8: CSI (U+009B), NEL (U+0085), U+0080. */
	sanitize_is("a\xc2\x9b" "b", "ab");
	sanitize_is("a\xc2\x9b" "31mb", "a31mb");
	sanitize_is("a\xc2\x85" "b", "ab");
	sanitize_is("\xc2\x80" "x\xc2\x9f", "x");
}

static void
test_sanitize_invalid_utf8(void **state)
{
	(void)state;
	sanitize_is("a\xff" "b", "a?b");
	sanitize_is("\xfe", "?");
	sanitize_is("a\x9b" "b", "a?b");		/* lone C1 byte */
	sanitize_is("a\xc3", "a?");			/* truncated */
	sanitize_is("\xc3(", "?(");			/* bad continuation */
	sanitize_is("\xe2\x82(", "?" "?(");
	sanitize_is("\xc0\xaf", "??");			/* overlong '/' */
	sanitize_is("\xe0\x80\xaf", "???");		/* overlong */
	sanitize_is("\xed\xa0\x80", "???");		/* surrogate */
	sanitize_is("\xf4\x90\x80\x80", "????");	/* > U+10FFFF */
	sanitize_is("\xf5\x80\x80\x80", "????");
	sanitize_is("\x80", "?");			/* stray continuation */
}

static void
test_sanitize_whitespace(void **state)
{
	(void)state;
	sanitize_is("a\tb", "a b");
	sanitize_is("a\nb", "a b");
	sanitize_is("a\r\nb", "a b");
	sanitize_is("a\t\n\tb", "a b");
	sanitize_is("line one\nline two", "line one line two");
	sanitize_is("a \tb", "a b");
}

static void
test_sanitize_trims(void **state)
{
	(void)state;
	sanitize_is("  hi  ", "hi");
	sanitize_is("\thi\n", "hi");
	sanitize_is("\n\n  hi there \t\n", "hi there");
	sanitize_is("\x1b[1m  x  \x1b[0m", "x");
	sanitize_is("   ", "");
	sanitize_is("\t\n", "");
	sanitize_is("\x1b[0m", "");
	sanitize_is(" \x07 ", "");
}

static void
test_sanitize_len_and_nul(void **state)
{
	char buf[32];

	(void)state;
	assert_int_equal(str_sanitize(buf, sizeof buf, "abcdef", 3), 3);
	assert_string_equal(buf, "abc");
	assert_int_equal(str_sanitize(buf, sizeof buf, "abcdef", 0), 0);
	assert_string_equal(buf, "");
	/* An escape cut by len does not read past it. */
	assert_int_equal(str_sanitize(buf, sizeof buf, "ab\x1b[31mcd", 4), 2);
	assert_string_equal(buf, "ab");
	/* A NUL inside len ends the text. */
	assert_int_equal(str_sanitize(buf, sizeof buf, "ab\0cd", 5), 2);
	assert_string_equal(buf, "ab");
	/* A multi-byte character cut by len is invalid. */
	assert_int_equal(str_sanitize(buf, sizeof buf, "a\xc3\xa9", 2), 2);
	assert_string_equal(buf, "a?");
}

static void
test_sanitize_small_buffer(void **state)
{
	char buf[8];

	(void)state;
	sanitize_small_is("abcdef", 4, "abc");
	sanitize_small_is("abc", 4, "abc");
	sanitize_small_is("abcdef", 1, "");
	/* Never a partial UTF-8 character. */
	sanitize_small_is("ab\xe2\x82\xac", 5, "ab");
	sanitize_small_is("ab\xe2\x82\xac", 6, "ab\xe2\x82\xac");
	sanitize_small_is("\xc3\xa9\xc3\xa9", 4, "\xc3\xa9");
	/* Dropped controls take no room. */
	sanitize_small_is("\x1b[31ma\x1b[0mbc", 4, "abc");
	sanitize_small_is("a\xff" "bcd", 4, "a?b");
	/* A space that would be trailing after the cut is trimmed. */
	sanitize_small_is("ab cd", 4, "ab");
	/* size 0 writes nothing. */
	memset(buf, 'X', sizeof buf);
	assert_int_equal(str_sanitize(buf, 0, "abc", 3), 0);
	assert_int_equal(buf[0], 'X');
}

static void
test_sanitize_small_buffer_leading_space(void **state)
{
	(void)state;
	/*
	 * Leading spaces are trimmed, so they must not use up the room:
	 * "  abc" sanitises to "abc", which fits in 4 bytes.
	 */
	sanitize_small_is("  abc", 4, "abc");
	sanitize_small_is("   abc", 3, "ab");
}

static void
test_sanitize_output_is_clean(void **state)
{
	static const char *const inputs[] = {
		"\x1b[31mred\x1b[0m", "a\x1b]0;t\x07" "b", "a\xc2\x9b" "b",
		"a\xff" "b", "\ta\nb\r", "x\x7f\x01y", "\tpad\n",
		"\xed\xa0\x80z"
	};
	char buf[64];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof inputs / sizeof inputs[0]; i++) {
		str_sanitize(buf, sizeof buf, inputs[i], strlen(inputs[i]));
		assert_true(str_is_clean(buf));
		assert_false(str_is_clean(inputs[i]));
	}
}

static void
test_is_clean(void **state)
{
	(void)state;
	assert_true(str_is_clean(""));
	assert_true(str_is_clean("abc"));
	assert_true(str_is_clean("p4de.24xlarge us-east-1"));
	assert_true(str_is_clean("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80"));
	assert_true(str_is_clean("a\xc2\xa0" "b"));
	assert_false(str_is_clean("a\tb"));
	assert_false(str_is_clean("a\nb"));
	assert_false(str_is_clean("\x1b[0m"));
	assert_false(str_is_clean("a\x07"));
	assert_false(str_is_clean("a\x7f"));
	assert_false(str_is_clean("\xc2\x9b"));
	assert_false(str_is_clean("\xc2\x85"));
	assert_false(str_is_clean("\xff"));
	assert_false(str_is_clean("a\xc3"));
	assert_false(str_is_clean("\xc0\xaf"));
	assert_false(str_is_clean("\xed\xa0\x80"));
}

static void
test_is_clean_edge_spaces(void **state)
{
	(void)state;
	/* str_sanitize trims these, so they are not clean. */
	assert_false(str_is_clean(" a"));
	assert_false(str_is_clean("a "));
	assert_false(str_is_clean(" "));
	/* Inner spaces are kept by str_sanitize. */
	assert_true(str_is_clean("a b"));
}

static void
test_eq_nocase(void **state)
{
	(void)state;
	assert_true(str_eq_nocase("ABC", "abc"));
	assert_true(str_eq_nocase("NvLink", "nvlink"));
	assert_true(str_eq_nocase("", ""));
	assert_true(str_eq_nocase("a-1", "A-1"));
	assert_false(str_eq_nocase("abc", "abcd"));
	assert_false(str_eq_nocase("abcd", "abc"));
	assert_false(str_eq_nocase("a", ""));
	assert_false(str_eq_nocase("", "a"));
	assert_false(str_eq_nocase("abc", "abd"));
	/* ASCII only: no folding of non-ASCII letters. */
	assert_false(str_eq_nocase("\xc3\x89", "\xc3\xa9"));
	assert_true(str_eq_nocase("\xc3\xa9", "\xc3\xa9"));
}

static void
test_find_nocase(void **state)
{
	const char *h = "US-East-1";

	(void)state;
	assert_ptr_equal(str_find_nocase(h, "east"), h + 3);
	assert_ptr_equal(str_find_nocase(h, "US"), h);
	assert_ptr_equal(str_find_nocase(h, "-1"), h + 7);
	assert_ptr_equal(str_find_nocase(h, "us-east-1"), h);
	assert_ptr_equal(str_find_nocase(h, ""), h);
	assert_null(str_find_nocase(h, "west"));
	assert_null(str_find_nocase(h, "us-east-12"));
	assert_null(str_find_nocase("", "a"));
	{
		const char *e = "";

		assert_ptr_equal(str_find_nocase(e, ""), e);
	}
	{
		const char *x = "xxabab", *a = "aaab";

		/* The first occurrence. */
		assert_ptr_equal(str_find_nocase(x, "AB"), x + 2);
		/* A partial match does not hide the one after it. */
		assert_ptr_equal(str_find_nocase(a, "AAB"), a + 1);
	}
}

static void
test_width(void **state)
{
	(void)state;
	assert_int_equal(str_width(""), 0);
	assert_int_equal(str_width("abc"), 3);
	assert_int_equal(str_width("caf\xc3\xa9"), 4);
	assert_int_equal(str_width("\xe2\x82\xac" "uro"), 4);
	assert_int_equal(str_width("\xf0\x9f\x98\x80"), 1);
	/* One column per code point, as documented. */
	assert_int_equal(str_width("\xe6\x97\xa5\xe6\x9c\xac"), 2);
}

static void
test_prefix_for_width(void **state)
{
	(void)state;
	assert_int_equal(str_prefix_for_width("abcdef", 3), 3);
	assert_int_equal(str_prefix_for_width("abc", 10), 3);
	assert_int_equal(str_prefix_for_width("abc", 3), 3);
	assert_int_equal(str_prefix_for_width("", 5), 0);
	assert_int_equal(str_prefix_for_width("abc", 0), 0);
	assert_int_equal(str_prefix_for_width("", 0), 0);
	/* U+00E9 (2 bytes), U+20AC (3 bytes). */
	assert_int_equal(str_prefix_for_width("\xc3\xa9\xe2\x82\xacx", 1), 2);
	assert_int_equal(str_prefix_for_width("\xc3\xa9\xe2\x82\xacx", 2), 5);
	assert_int_equal(str_prefix_for_width("\xc3\xa9\xe2\x82\xacx", 3), 6);
	assert_int_equal(str_prefix_for_width("\xf0\x9f\x98\x80" "a", 1), 4);
	assert_int_equal(str_prefix_for_width("a\xf0\x9f\x98\x80", 1), 1);
	assert_int_equal(str_prefix_for_width("a\xf0\x9f\x98\x80", 2), 5);
}

/* A long error loses its middle, never its cause. */
static void
test_shorten_keeps_cause(void **state)
{
	static const char msg[] = "Refresh done in 0.3s: 0 updated, 6 failed, "
	    "0 skipped (aws: /offers/v1.0/aws/AmazonEC2/current/"
	    "region_index.json: Failed to connect to 127.0.0.1 port 9 after "
	    "0 ms: Couldn't connect to server (http://127.0.0.1:9/offers/v1.0/"
	    "aws/AmazonEC2/current/region_index.json))";
	char out[256];
	size_t n;

	(void)state;
	n = str_shorten(out, sizeof out, msg, 80);
	assert_int_equal(n, strlen(out));
	assert_true(str_width(out) <= 80);
	assert_int_equal(strncmp(out, "Refresh done in 0.3s", 20), 0);
	assert_non_null(strstr(out, "..."));
	if (strstr(out, "Couldn't connect to server)") == NULL)
		fail_msg("cause lost: \"%s\"", out);
	/* Short enough: unchanged. */
	str_shorten(out, sizeof out, "plain", 80);
	assert_string_equal(out, "plain");
	/* No ": ": the end is kept. */
	str_shorten(out, sizeof out, "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaz", 20);
	assert_true(str_width(out) <= 20);
	assert_int_equal(out[strlen(out) - 1], 'z');
	/* Tiny widths cut. */
	str_shorten(out, sizeof out, "abcdefghijkl", 5);
	assert_string_equal(out, "abcde");
	str_shorten(out, 4, msg, 80);
	assert_true(strlen(out) <= 3);
}

/* Typos find their word; a far word finds nothing (cli.c's suggestions). */
static void
test_nearest(void **state)
{
	static const char *const opts[] = { "gpu", "count", "region",
	    "provider", "max-price", NULL };
	static const char *const cmds[] = { "gpus", "history", "watch" };

	(void)state;
	assert_int_equal(str_distance("kitten", "sitting"), 3);
	assert_int_equal(str_distance("", "abc"), 3);
	assert_int_equal(str_distance("same", "same"), 0);
	assert_string_equal(str_nearest("gpus", opts, 6), "gpu");
	assert_string_equal(str_nearest("regoin", opts, 6), "region");
	assert_string_equal(str_nearest("histroy", cmds, 3), "history");
	assert_null(str_nearest("xyzzy", opts, 6));
	assert_null(str_nearest("zzz", cmds, 3));
	assert_null(str_nearest("gpu", cmds, 0));
}

/* A table of rows whose second field keeps equal values together. */
struct run_row {
	int		 id;
	const char	*name;
};

static void
run_is(struct str_run *memo, const struct run_row *rows, size_t n,
    const char *s, size_t want_from, size_t want_to)
{
	size_t from = 99, to = 99;

	str_run_find(memo, rows, n, sizeof rows[0],
	    offsetof(struct run_row, name), s, &from, &to);
	if (want_from == want_to) {
		assert_int_equal(from, to);	/* none: any empty range */
		return;
	}
	assert_int_equal(from, want_from);
	assert_int_equal(to, want_to);
}

/*
 * str_run_find(): each value's rows, whatever was asked before (the
 * kept value is the one asked, not the last found), none for a value
 * the table lacks, and a value too long to keep found all the same.
 */
/*
 * str_fnv1a() is FNV-1a 64: the published vectors, and bytes folded in
 * pieces hash as the whole (the stored validator names, sort-keys
 * versions and the watch's index rely on both).
 */
static void
test_fnv1a(void **state)
{
	uint64_t h;

	(void)state;
	assert_true(str_fnv1a(STR_FNV1A_BASIS, "", 0) ==
	    UINT64_C(0xcbf29ce484222325));
	assert_true(str_fnv1a(STR_FNV1A_BASIS, "a", 1) ==
	    UINT64_C(0xaf63dc4c8601ec8c));
	assert_true(str_fnv1a(STR_FNV1A_BASIS, "foobar", 6) ==
	    UINT64_C(0x85944171f73967e8));
	h = str_fnv1a(STR_FNV1A_BASIS, "foo", 3);
	assert_true(str_fnv1a(h, "bar", 3) == UINT64_C(0x85944171f73967e8));
	/* A byte above 0x7f is folded unsigned (a signed char gives
	 * another hash). */
	assert_true(str_fnv1a(STR_FNV1A_BASIS, "\xff", 1) ==
	    UINT64_C(0xaf64724c8602eb6e));
}

static void
test_run_find(void **state)
{
	static const struct run_row rows[] = {
		{ 0, "aws" }, { 1, "aws" }, { 2, "gcp" }, { 3, "a-name-longer-"
		"than-the-thirty-one-bytes-kept" }, { 4, "lambda" },
		{ 5, "lambda" }, { 6, "lambda" },
	};
	const size_t n = sizeof rows / sizeof rows[0];
	struct str_run memo;
	int round;

	(void)state;
	memset(&memo, 0, sizeof memo);
	for (round = 0; round < 2; round++) {
		run_is(&memo, rows, n, "aws", 0, 2);
		run_is(&memo, rows, n, "aws", 0, 2);
		run_is(&memo, rows, n, "vast", 0, 0);
		run_is(&memo, rows, n, "vast", 0, 0);
		run_is(&memo, rows, n, "lambda", 4, 7);
		run_is(&memo, rows, n, "gcp", 2, 3);
		run_is(&memo, rows, n,
		    "a-name-longer-than-the-thirty-one-bytes-kept", 3, 4);
		run_is(&memo, rows, n,
		    "a-name-longer-than-the-thirty-one-bytes-kept", 3, 4);
		run_is(&memo, rows, n, "lambda", 4, 7);
		run_is(&memo, rows, n, "", 0, 0);
		run_is(&memo, rows, n, "aws", 0, 2);
	}
	/* An empty table. */
	memset(&memo, 0, sizeof memo);
	run_is(&memo, rows, 0, "aws", 0, 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_copy_fits),
		cmocka_unit_test(test_copy_truncates),
		cmocka_unit_test(test_copy_never_splits_utf8),
		cmocka_unit_test(test_cut_marks),
		cmocka_unit_test(test_utf8_valid_and_repair),
		cmocka_unit_test(test_sanitize_plain),
		cmocka_unit_test(test_sanitize_csi),
		cmocka_unit_test(test_sanitize_osc),
		cmocka_unit_test(test_sanitize_two_byte_escape),
		cmocka_unit_test(test_sanitize_controls),
		cmocka_unit_test(test_sanitize_invalid_utf8),
		cmocka_unit_test(test_sanitize_whitespace),
		cmocka_unit_test(test_sanitize_trims),
		cmocka_unit_test(test_sanitize_len_and_nul),
		cmocka_unit_test(test_sanitize_small_buffer),
		cmocka_unit_test(test_sanitize_small_buffer_leading_space),
		cmocka_unit_test(test_sanitize_output_is_clean),
		cmocka_unit_test(test_is_clean),
		cmocka_unit_test(test_is_clean_edge_spaces),
		cmocka_unit_test(test_eq_nocase),
		cmocka_unit_test(test_find_nocase),
		cmocka_unit_test(test_width),
		cmocka_unit_test(test_prefix_for_width),
		cmocka_unit_test(test_shorten_keeps_cause),
		cmocka_unit_test(test_nearest),
		cmocka_unit_test(test_run_find),
		cmocka_unit_test(test_fnv1a),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
