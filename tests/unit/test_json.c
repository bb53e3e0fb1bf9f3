/* test_json.c: unit tests for json.c (parsing and the typed getters). */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "json.h"
#include "json_stream.h"
#include "money.h"

/* Parse a NUL-terminated document that must be valid. */
static cJSON *
parse_ok(const char *text)
{
	struct err err;
	cJSON *root;

	if (json_parse(text, strlen(text), &root, &err) < 0)
		fail_msg("json_parse(%s): %s", text, err.msg);
	return root;
}

/* Whole numbers within the bounds, others refused with a message. */
static void
test_int_bounds(void **state)
{
	struct err err;
	long long v;
	cJSON *root;

	(void)state;
	root = parse_ok("{\"a\": 42, \"b\": 4.5, \"c\": -1, "
	    "\"d\": 9007199254740991, \"e\": -9223372036854775808}");
	assert_int_equal(json_get_int(root, "a", "doc", 0, 100, &v, NULL,
	    &err), 0);
	assert_int_equal(v, 42);
	assert_int_equal(json_get_int(root, "b", "doc", 0, 100, &v, NULL,
	    &err), -1);
	assert_string_equal(err.msg, "doc.b: 4.5 is not a whole number in "
	    "0..100");
	assert_int_equal(json_get_int(root, "c", "doc", 0, 100, &v, NULL,
	    &err), -1);
	assert_int_equal(json_get_int(root, "d", "doc", 0,
	    9007199254740991LL, &v, NULL, &err), 0);
	assert_true(v == 9007199254740991LL);
	assert_int_equal(json_get_int(root, "e", "doc", LLONG_MIN, LLONG_MAX,
	    &v, NULL, &err), 0);
	assert_true(v == LLONG_MIN);
	cJSON_Delete(root);
}

/*
 * 2^63 is within (double)LLONG_MAX, which rounds up to it, but no long
 * long holds it: refused, not cast (fuzz_json, UBSan float-cast-overflow).
 */
static void
test_int_beyond_long_long(void **state)
{
	struct err err;
	long long v = 7;
	cJSON *root;

	(void)state;
	root = parse_ok("{\"n\": 9223372036854775807, \"m\": 1e300}");
	assert_int_equal(json_get_int(root, "n", "doc", LLONG_MIN, LLONG_MAX,
	    &v, NULL, &err), -1);
	assert_string_equal(err.msg, "doc.n: 9.22337e+18 is not a whole "
	    "number in -9223372036854775808..9223372036854775807");
	assert_int_equal(json_get_int(root, "m", "doc", LLONG_MIN, LLONG_MAX,
	    &v, NULL, &err), -1);
	assert_true(v == 7);
	cJSON_Delete(root);
}

/* Strings come back sanitised; a missing member is not an error with found. */
static void
test_string(void **state)
{
	struct err err;
	char buf[16];
	bool found = true;
	cJSON *root;

	(void)state;
	root = parse_ok("{\"s\": \"\\u001b[31mred\\u0007 \\t x\", \"n\": 1}");
	assert_int_equal(json_get_string(root, "s", "doc", buf, sizeof buf,
	    NULL, &err), 0);
	assert_string_equal(buf, "red x");
	assert_int_equal(json_get_string(root, "n", "doc", buf, sizeof buf,
	    NULL, &err), -1);
	assert_string_equal(err.msg, "doc.n: expected a string, got number");
	assert_int_equal(json_get_string(root, "none", "doc", buf, sizeof buf,
	    &found, &err), 0);
	assert_false(found);
	cJSON_Delete(root);
}

/* Prices as numbers or decimal strings, never negative or absurd. */
static void
test_money(void **state)
{
	struct err err;
	int64_t m;
	cJSON *root;

	(void)state;
	root = parse_ok("{\"a\": 1.25, \"b\": \"0.0001\", \"c\": -1, "
	    "\"d\": \"1e9\"}");
	assert_int_equal(json_get_money(root, "a", "doc", &m, NULL, &err), 0);
	assert_int_equal(m, 1250000);
	assert_int_equal(json_get_money(root, "b", "doc", &m, NULL, &err), 0);
	assert_int_equal(m, 100);
	assert_int_equal(json_get_money(root, "c", "doc", &m, NULL, &err), -1);
	assert_int_equal(json_get_money(root, "d", "doc", &m, NULL, &err), -1);
	cJSON_Delete(root);
}

/* Empty bodies, HTML and trailing data get their own messages. */
static void
test_parse_errors(void **state)
{
	struct err err;
	cJSON *root;

	(void)state;
	assert_int_equal(json_parse(" \n", 2, &root, &err), -1);
	assert_string_equal(err.msg, "empty response body");
	assert_null(root);
	assert_int_equal(json_parse("<html>", 6, &root, &err), -1);
	assert_string_equal(err.msg, "expected JSON, got HTML or XML "
	    "(\"<html>...\")");
	assert_int_equal(json_parse("{} x", 4, &root, &err), -1);
	assert_string_equal(err.msg, "malformed JSON: unexpected data after "
	    "the value at byte 3 of 4");
	assert_null(root);
}

/* What a scan saw: each element printed, and where it started. */
struct seen {
	char	text[1024];
	size_t	n;
};

static int
collect(void *arg, const cJSON *item, size_t index, size_t offset,
    struct err *err)
{
	struct seen *s = arg;
	char *p = cJSON_PrintUnformatted(item);
	size_t len = strlen(s->text);

	(void)err;
	assert_int_equal(index, s->n);
	snprintf(s->text + len, sizeof s->text - len, "%zu@%zu:%s;", index,
	    offset, p);
	free(p);
	s->n++;
	return 0;
}

/*
 * Scan body in pieces of `piece` bytes; 0 and the elements and skeleton
 * seen, or -1 and the message.
 */
static int
scan(const char *body, size_t piece, struct seen *s, char *skeleton,
    size_t size, struct err *err)
{
	struct json_stream *js;
	size_t len = strlen(body), off, n;
	cJSON *root = NULL;
	char *p;
	int rc = 0;

	memset(s, 0, sizeof *s);
	skeleton[0] = '\0';
	err_clear(err);
	js = json_stream_new("offers", 1 << 20, 256, collect, s);
	for (off = 0; off < len && rc == 0; off += n) {
		n = len - off < piece ? len - off : piece;
		rc = json_stream_feed(js, body + off, n, err);
	}
	if (rc == 0)
		rc = json_stream_finish(js, &root, err);
	if (rc == 0) {
		p = cJSON_PrintUnformatted(root);
		snprintf(skeleton, size, "%s", p);
		free(p);
	}
	cJSON_Delete(root);
	json_stream_free(js);
	return rc;
}

/* The same answer in every piece size. */
static void
expect_scan(const char *body, const char *elements, const char *skeleton)
{
	static const size_t pieces[] = { 1, 2, 5, 4096 };
	char got[1024];
	struct seen s;
	struct err err;
	size_t i;

	for (i = 0; i < sizeof pieces / sizeof pieces[0]; i++) {
		if (scan(body, pieces[i], &s, got, sizeof got, &err) != 0)
			fail_msg("%s (pieces of %zu): %s", body, pieces[i],
			    err.msg);
		assert_string_equal(s.text, elements);
		assert_string_equal(got, skeleton);
	}
}

static void
expect_scan_error(const char *body, const char *want)
{
	static const size_t pieces[] = { 1, 3, 4096 };
	char got[1024];
	struct seen s;
	struct err err;
	size_t i;

	for (i = 0; i < sizeof pieces / sizeof pieces[0]; i++) {
		if (scan(body, pieces[i], &s, got, sizeof got, &err) == 0)
			fail_msg("%s: accepted", body);
		if (strstr(err.msg, want) == NULL)
			fail_msg("%s (pieces of %zu): \"%s\" lacks \"%s\"",
			    body, pieces[i], err.msg, want);
	}
}

static void
test_stream(void **state)
{
	(void)state;
	expect_scan("{\"offers\":[{\"id\":1},{\"id\":2}]}",
	    "0@11:{\"id\":1};1@20:{\"id\":2};", "{\"offers\":[]}");
	/* Brackets, braces, quotes and escapes inside strings. */
	expect_scan(" {\"a\":\"x]\\\"}\",\"offers\": [ {\"s\":\"[{\\\\\"} ,"
	    "\"str]\" , 12 , [1,[2]] ,null],\"b\":{\"offers\":[3]}} \n",
	    "0@26:{\"s\":\"[{\\\\\"};1@40:\"str]\";2@49:12;3@54:[1,[2]];"
	    "4@63:null;",
	    "{\"a\":\"x]\\\"}\",\"offers\":[],\"b\":{\"offers\":[3]}}");
	expect_scan("{\"offers\":[]}", "", "{\"offers\":[]}");
	/* Only the root's array streams; a root that is no object is kept. */
	expect_scan("{\"x\":[{\"offers\":[1]}]}", "",
	    "{\"x\":[{\"offers\":[1]}]}");
	expect_scan("[1,2]", "", "[1,2]");
	expect_scan("{\"msg\":\"no\"}", "", "{\"msg\":\"no\"}");

	expect_scan_error("", "empty response body");
	expect_scan_error("<html>", "expected JSON, got HTML");
	expect_scan_error("{\"offers\":[{\"id\":1},]}",
	    "malformed JSON at byte 20: expected an element");
	expect_scan_error("{\"offers\":[{\"id\":1} {\"id\":2}]}",
	    "malformed JSON at byte 20: expected ',' or ']'");
	expect_scan_error("{\"offers\":[{\"id\":1,}]}",
	    "malformed JSON at byte 19 (offers[0])");
	expect_scan_error("{\"offers\":[{\"id\":1},{\"id\"",
	    "malformed JSON at byte 25 of 25 (the body ends early");
	expect_scan_error("{\"offers\":[1,2", "at byte 14 of 14");
	expect_scan_error("{\"offers\":[1,2]", "at byte 14 of 15 (the body ends early");
	/* After the array, offsets still count the bytes cut out. */
	expect_scan_error("{\"offers\":[1,2],\"x\":tru}",
	    "malformed JSON at byte 20 of 24");
	expect_scan_error("{\"offers\":[1,2]} x", "unexpected data after the "
	    "value at byte 17 of 18");
	expect_scan_error("{\"offers\":[\"0123456789012345678901234567890123"
	    "456789012345678901234567890123456789012345678901234567890123456789"
	    "012345678901234567890123456789012345678901234567890123456789012345"
	    "678901234567890123456789012345678901234567890123456789012345678901"
	    "23456789012345678901234567890123456789\"]}",
	    "offers[0] at byte 11 is larger than 256 bytes");
}

/* n opening brackets, then n closing ones: malloc'd. */
static char *
nested(const char *before, size_t n, const char *after)
{
	size_t lb = strlen(before), la = strlen(after);
	char *s = malloc(lb + 2 * n + la + 1);

	assert_non_null(s);
	memcpy(s, before, lb);
	memset(s + lb, '[', n);
	memset(s + lb + n, ']', n);
	memcpy(s + lb + 2 * n, after, la + 1);
	return s;
}

/* json_parse() of nested(before, n, after). */
static int
parse_nested(const char *before, size_t n, const char *after,
    struct err *err)
{
	char *body = nested(before, n, after);
	cJSON *root = NULL;
	int rc;

	rc = json_parse(body, strlen(body), &root, err);
	cJSON_Delete(root);
	free(body);
	return rc;
}

/*
 * Issue 43: past cJSON's nesting limit (1000) a body is "nested too
 * deep", not "malformed JSON at byte 1000"; brackets in strings do not
 * count, and a body at the limit parses.
 */
static void
test_nesting(void **state)
{
	struct json_stream *js;
	struct seen seen;
	struct err err;
	cJSON *root;
	char *body;

	(void)state;
	assert_int_equal(parse_nested("", 1000, "", &err), 0);
	assert_int_equal(parse_nested("", 1001, "", &err), -1);
	assert_string_equal(err.msg, "JSON nested too deep: more than 1000 "
	    "levels at byte 1000 of 2002");
	assert_int_equal(parse_nested("[\"", 5000, "\"]", &err), 0);
	assert_int_equal(parse_nested("[\"[\\\"[[[\", ", 3, "x]", &err), -1);
	assert_non_null(strstr(err.msg, "malformed JSON at byte"));
	assert_int_equal(json_depth_at("{\"a\":[\"]]\\\"[\",{", 16), 3);

	/*
	 * Streamed: outside the array (the root object is a level: the
	 * 1000th bracket is one too many), and inside one of its elements.
	 */
	body = nested("{\"offers\":[1],\"x\":", 1001, "}");
	js = json_stream_new("offers", 1 << 20, 1 << 16, collect, &seen);
	memset(&seen, 0, sizeof seen);
	assert_int_equal(json_stream_feed(js, body, strlen(body), &err), 0);
	assert_int_equal(json_stream_finish(js, &root, &err), -1);
	assert_string_equal(err.msg, "JSON nested too deep: more than 1000 "
	    "levels at byte 1017 of 2021");
	json_stream_free(js);
	free(body);
	body = nested("{\"offers\":[1,", 1001, "]}");
	js = json_stream_new("offers", 1 << 20, 1 << 16, collect, &seen);
	memset(&seen, 0, sizeof seen);
	assert_int_equal(json_stream_feed(js, body, strlen(body), &err), -1);
	assert_string_equal(err.msg, "JSON nested too deep: more than 1000 "
	    "levels at byte 1013 (offers[1])");
	json_stream_free(js);
	free(body);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_int_bounds),
		cmocka_unit_test(test_nesting),
		cmocka_unit_test(test_int_beyond_long_long),
		cmocka_unit_test(test_string),
		cmocka_unit_test(test_money),
		cmocka_unit_test(test_parse_errors),
		cmocka_unit_test(test_stream),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
