/* test_json.c: unit tests for json.c (parsing and the typed getters). */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <limits.h>
#include <string.h>

#include "err.h"
#include "json.h"
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

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_int_bounds),
		cmocka_unit_test(test_int_beyond_long_long),
		cmocka_unit_test(test_string),
		cmocka_unit_test(test_money),
		cmocka_unit_test(test_parse_errors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
