/* test_money.c: unit tests for money.c (micro-USD parsing and printing). */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "money.h"

/* Parse a whole NUL-terminated string; the value is checked by the caller. */
static int
parse(const char *s, int64_t *micro)
{
	return money_parse(s, strlen(s), micro);
}

/* Assert that s parses to exactly want micro-USD. */
static void
parse_ok(const char *s, int64_t want)
{
	int64_t got = -42;

	if (parse(s, &got) != 0)
		fail_msg("money_parse(\"%s\") failed, want %lld", s,
		    (long long)want);
	if (got != want)
		fail_msg("money_parse(\"%s\") = %lld, want %lld", s,
		    (long long)got, (long long)want);
}

/* Assert that s is rejected. */
static void
parse_bad(const char *s)
{
	int64_t got = -42;

	if (parse(s, &got) != -1)
		fail_msg("money_parse(\"%s\") accepted (%lld), want -1", s,
		    (long long)got);
}

/* Assert that formatting micro with min_decimals gives want. */
static void
format_is(int64_t micro, int min_decimals, const char *want)
{
	char buf[64];
	size_t n;

	memset(buf, 'X', sizeof buf);
	n = money_format(buf, sizeof buf, micro, min_decimals);
	assert_string_equal(buf, want);
	assert_int_equal(n, strlen(want));
}

static void
test_parse_integers(void **state)
{
	(void)state;
	parse_ok("0", 0);
	parse_ok("1", 1000000);
	parse_ok("12", 12000000);
	parse_ok("007", 7000000);
	parse_ok("5000", 5000000000LL);
	parse_ok("9999999", 9999999000000LL);
}

static void
test_parse_decimals(void **state)
{
	(void)state;
	parse_ok("32.7726", 32772600);
	parse_ok("0.5", 500000);
	parse_ok("2.00", 2000000);
	parse_ok("0.000001", 1);
	parse_ok("98.32", 98320000);
	parse_ok("1.123456", 1123456);
	parse_ok("0.000000", 0);
	/* Leading zeros never use up significant digits. */
	parse_ok("0000000000000000000000012.5", 12500000);
	parse_ok("0.00000000000000000000000", 0);
}

static void
test_parse_rounds_half_up_at_seventh_decimal(void **state)
{
	(void)state;
	parse_ok("0.0000005", 1);
	parse_ok("0.0000004", 0);
	parse_ok("0.00000049999", 0);
	parse_ok("0.00000050001", 1);
	parse_ok("1.2345675", 1234568);
	parse_ok("1.2345674", 1234567);
	parse_ok("1.2345665", 1234567);
	parse_ok("0.0000015", 2);
	parse_ok("2.9999995", 3000000);
	parse_ok("2.99999949", 2999999);
	/* More digits than an int64 holds: the later ones only round. */
	parse_ok("0.12345678901234567890123", 123457);
	parse_ok("1234567.1234567890123456789", 1234567123457LL);
}

static void
test_parse_exponents(void **state)
{
	(void)state;
	parse_ok("9.0E-4", 900);
	parse_ok("9.0e-4", 900);
	parse_ok("1e3", 1000000000LL);
	parse_ok("1E+2", 100000000);
	parse_ok("1e0", 1000000);
	parse_ok("2.5e-1", 250000);
	parse_ok("12345e-4", 1234500);
	parse_ok("5e-7", 1);
	parse_ok("4.5e-7", 0);
	parse_ok("1e-7", 0);
	parse_ok("1e-300", 0);
	parse_ok("1e6", 1000000000000LL);
	parse_ok("1e7", MONEY_MAX);
	parse_ok("0e300", 0);
}

static void
test_parse_leading_plus(void **state)
{
	(void)state;
	parse_ok("+1.5", 1500000);
	parse_ok("+0", 0);
	parse_bad("+");
	parse_bad("++1");
	parse_bad("+-1");
}

static void
test_parse_respects_len(void **state)
{
	int64_t v = -1;

	(void)state;
	assert_int_equal(money_parse("12.5xyz", 4, &v), 0);
	assert_int_equal(v, 12500000);
	assert_int_equal(money_parse("3.25", 1, &v), 0);
	assert_int_equal(v, 3000000);
	/* Not NUL-terminated within len: only len bytes are read. */
	{
		const char digits[3] = { '4', '2', '7' };

		assert_int_equal(money_parse(digits, 2, &v), 0);
		assert_int_equal(v, 42000000);
	}
	assert_int_equal(money_parse("1", 0, &v), -1);
}

static void
test_parse_rejects(void **state)
{
	(void)state;
	parse_bad("");
	parse_bad("-1");
	parse_bad("-0");
	parse_bad("-0.5");
	parse_bad("abc");
	parse_bad("1.2.3");
	parse_bad("nan");
	parse_bad("NaN");
	parse_bad("inf");
	parse_bad("Infinity");
	parse_bad("1e300");
	parse_bad("1e19");
	parse_bad(".");
	parse_bad("e5");
	parse_bad("1e");
	parse_bad("1e+");
	parse_bad("1e-");
	parse_bad("1e5.5");
	parse_bad("0x10");
	parse_bad("1,5");
	parse_bad("$1");
	parse_bad("1 2");
}

static void
test_parse_rejects_trailing_garbage(void **state)
{
	(void)state;
	parse_bad("1x");
	parse_bad("12.5USD");
	parse_bad("1.5.");
	parse_bad("1e3x");
	parse_bad("7\"");
	parse_bad("3;");
}

static void
test_parse_limit(void **state)
{
	(void)state;
	parse_ok("10000000", MONEY_MAX);
	parse_ok("10000000.000000", MONEY_MAX);
	parse_ok("10000000.0000004", MONEY_MAX);
	parse_bad("10000000.000001");
	parse_bad("10000000.0000005");	/* rounds to MONEY_MAX + 1 */
	parse_bad("10000001");
	parse_bad("99999999999999999999");
	parse_bad("123456789012345678901234");
	parse_bad("9223372036854.775807");
	parse_bad("1.0000001e7");
}

static void
test_from_double(void **state)
{
	int64_t v = -42;

	(void)state;
	assert_int_equal(money_from_double(2.5, &v), 0);
	assert_int_equal(v, 2500000);
	assert_int_equal(money_from_double(0.0, &v), 0);
	assert_int_equal(v, 0);
	assert_int_equal(money_from_double(0.1, &v), 0);
	assert_int_equal(v, 100000);
	assert_int_equal(money_from_double(32.7726, &v), 0);
	assert_int_equal(v, 32772600);
	assert_int_equal(money_from_double(0.00090, &v), 0);
	assert_int_equal(v, 900);
	assert_int_equal(money_from_double(1.0000004, &v), 0);
	assert_int_equal(v, 1000000);
	assert_int_equal(money_from_double(1.0000006, &v), 0);
	assert_int_equal(v, 1000001);
	assert_int_equal(money_from_double(10000000.0, &v), 0);
	assert_int_equal(v, MONEY_MAX);
}

static void
test_from_double_rejects(void **state)
{
	int64_t v = -42;

	(void)state;
	assert_int_equal(money_from_double(-1.0, &v), -1);
	assert_int_equal(money_from_double(-0.000001, &v), -1);
	assert_int_equal(money_from_double(NAN, &v), -1);
	assert_int_equal(money_from_double(INFINITY, &v), -1);
	assert_int_equal(money_from_double(-INFINITY, &v), -1);
	assert_int_equal(money_from_double(1e300, &v), -1);
	assert_int_equal(money_from_double(1e19, &v), -1);
	assert_int_equal(money_from_double(10000000.5, &v), -1);
	assert_int_equal(money_from_double(10000001.0, &v), -1);
	assert_int_equal(v, -42);
}

static void
test_format_trims(void **state)
{
	(void)state;
	format_is(32772600, 0, "32.7726");
	format_is(2000000, 0, "2");
	format_is(2500000, 0, "2.5");
	format_is(1, 0, "0.000001");
	format_is(0, 0, "0");
	format_is(100000, 0, "0.1");
	format_is(1000000000000LL, 0, "1000000");
	format_is(MONEY_MAX, 0, "10000000");
	format_is(INT64_MAX, 0, "9223372036854.775807");
}

static void
test_format_min_decimals(void **state)
{
	(void)state;
	format_is(2000000, 2, "2.00");
	format_is(2500000, 2, "2.50");
	format_is(32772600, 2, "32.7726");
	format_is(0, 2, "0.00");
	format_is(1, 2, "0.000001");
	format_is(2000000, 6, "2.000000");
	format_is(32772600, 6, "32.772600");
	format_is(0, 6, "0.000000");
	format_is(123456789, 6, "123.456789");
	format_is(123456789, 0, "123.456789");
	format_is(1230000, 1, "1.23");
	format_is(1000000, 1, "1.0");
}

static void
test_format_negative(void **state)
{
	(void)state;
	format_is(-1500000, 2, "-1.50");
	format_is(-2000000, 0, "-2");
	format_is(-500000, 0, "-0.5");
	format_is(-1, 0, "-0.000001");
	format_is(-32772600, 6, "-32.772600");
	format_is(INT64_MIN + 1, 0, "-9223372036854.775807");
}

static void
test_format_none(void **state)
{
	char buf[16];

	(void)state;
	memset(buf, 'X', sizeof buf);
	assert_int_equal(money_format(buf, sizeof buf, MONEY_NONE, 2), 0);
	assert_string_equal(buf, "");
	memset(buf, 'X', sizeof buf);
	assert_int_equal(money_format(buf, sizeof buf, MONEY_NONE, 0), 0);
	assert_string_equal(buf, "");
}

static void
test_format_small_buffer(void **state)
{
	char buf[8];

	(void)state;
	/* Truncated like snprintf, always NUL-terminated. */
	memset(buf, 'X', sizeof buf);
	money_format(buf, 4, 32772600, 2);
	assert_string_equal(buf, "32.");
	assert_int_equal(buf[4], 'X');
	/* size 0 writes nothing. */
	memset(buf, 'X', sizeof buf);
	assert_int_equal(money_format(buf, 0, 32772600, 2), 0);
	assert_int_equal(buf[0], 'X');
	memset(buf, 'X', sizeof buf);
	money_format(buf, 1, 32772600, 2);
	assert_string_equal(buf, "");
}

static void
test_format_parse_round_trip(void **state)
{
	static const int64_t values[] = {
		0, 1, 9, 10, 999999, 1000000, 1000001, 32772600, 98320000,
		123456789, 5000000000LL, MONEY_MAX - 1, MONEY_MAX
	};
	char buf[64];
	int64_t back;
	size_t i;
	int d;

	(void)state;
	for (i = 0; i < sizeof values / sizeof values[0]; i++)
		for (d = 0; d <= 6; d++) {
			money_format(buf, sizeof buf, values[i], d);
			back = -42;
			assert_int_equal(parse(buf, &back), 0);
			assert_int_equal(back, values[i]);
		}
}

static void
test_div_round(void **state)
{
	(void)state;
	assert_int_equal(money_div_round(4, 2), 2);
	assert_int_equal(money_div_round(5, 2), 3);
	assert_int_equal(money_div_round(7, 3), 2);
	assert_int_equal(money_div_round(8, 3), 3);
	assert_int_equal(money_div_round(0, 7), 0);
	assert_int_equal(money_div_round(1, 3), 0);
	assert_int_equal(money_div_round(15, 10), 2);
	assert_int_equal(money_div_round(14, 10), 1);
	assert_int_equal(money_div_round(10000000, 3), 3333333);
	assert_int_equal(money_div_round(20000000, 3), 6666667);
	assert_int_equal(money_div_round(98320000, 8), 12290000);
	assert_int_equal(money_div_round(123, 1), 123);
	/* Negative: half away from zero, symmetric with the positive side. */
	assert_int_equal(money_div_round(-5, 2), -3);
	assert_int_equal(money_div_round(-4, 2), -2);
	assert_int_equal(money_div_round(-7, 3), -2);
	assert_int_equal(money_div_round(-8, 3), -3);
	assert_int_equal(money_div_round(-15, 10), -2);
	assert_int_equal(money_div_round(-14, 10), -1);
	assert_int_equal(money_div_round(-1, 3), 0);
}

static void
test_div_round_extremes(void **state)
{
	(void)state;
	assert_int_equal(money_div_round(INT64_MAX, 1), INT64_MAX);
	assert_int_equal(money_div_round(-INT64_MAX, 1), -INT64_MAX);
	/* INT64_MAX / 2 = 4611686018427387903.5: rounds away from zero. */
	assert_int_equal(money_div_round(INT64_MAX, 2),
	    INT64_C(4611686018427387904));
	assert_int_equal(money_div_round(-INT64_MAX, 2),
	    -INT64_C(4611686018427387904));
	assert_int_equal(money_div_round(INT64_MAX - 1, 100),
	    INT64_C(92233720368547758));
}

static void
test_mul(void **state)
{
	(void)state;
	assert_int_equal(money_mul(1500000, 3), 4500000);
	assert_int_equal(money_mul(98320000, 2), 196640000);
	assert_int_equal(money_mul(1500000, 1), 1500000);
	assert_int_equal(money_mul(1500000, 0), 0);
	assert_int_equal(money_mul(0, 1000), 0);
	assert_int_equal(money_mul(-5, 3), -15);
	assert_int_equal(money_mul(MONEY_MAX, 64), 640000000000000LL);
	assert_int_equal(money_mul(INT64_MAX / 2, 2), INT64_MAX - 1);
	assert_int_equal(money_mul(INT64_MAX, 1), INT64_MAX);
}

static void
test_mul_negative_factor(void **state)
{
	(void)state;
	assert_int_equal(money_mul(2000000, -3), -6000000);
	assert_int_equal(money_mul(-2000000, -3), 6000000);
}

static void
test_mul_overflow_and_none(void **state)
{
	(void)state;
	assert_int_equal(money_mul(MONEY_NONE, 3), MONEY_NONE);
	assert_int_equal(money_mul(MONEY_NONE, 1), MONEY_NONE);
	assert_int_equal(money_mul(MONEY_NONE, 0), MONEY_NONE);
	assert_int_equal(money_mul(INT64_MAX / 2 + 1, 2), MONEY_NONE);
	assert_int_equal(money_mul(INT64_MAX, 2), MONEY_NONE);
	assert_int_equal(money_mul(MONEY_MAX, 1000000000), MONEY_NONE);
	/* A product of exactly INT64_MIN must not pass for MONEY_NONE ... */
	assert_int_equal(money_mul(-(INT64_C(1) << 62), 2), MONEY_NONE);
	/* ... and the lowest real product still works. */
	assert_int_equal(money_mul(-(INT64_MAX / 2), 2), -(INT64_MAX - 1));
	assert_int_equal(money_mul(-(INT64_MAX / 2) - 1, 3), MONEY_NONE);
}

static void
test_for_hours(void **state)
{
	(void)state;
	assert_int_equal(money_for_hours(2000000, 1.5), 3000000);
	assert_int_equal(money_for_hours(2000000, 0), 0);
	assert_int_equal(money_for_hours(0, 100), 0);
	assert_int_equal(money_for_hours(1500000, 730), 1095000000);
	assert_int_equal(money_for_hours(98320000, 24), 2359680000LL);
	assert_int_equal(money_for_hours(1, 0.5), 1);
	assert_int_equal(money_for_hours(1, 0.4), 0);
	assert_int_equal(money_for_hours(1, 2.6), 3);
	assert_int_equal(money_for_hours(3, 1.0 / 3.0), 1);
	assert_int_equal(money_for_hours(1000000, 0.25), 250000);
	assert_int_equal(money_for_hours(MONEY_MAX, 1000), 10000000000000000LL);
}

static void
test_for_hours_unknown(void **state)
{
	(void)state;
	assert_int_equal(money_for_hours(MONEY_NONE, 1), MONEY_NONE);
	assert_int_equal(money_for_hours(MONEY_NONE, 0), MONEY_NONE);
	assert_int_equal(money_for_hours(1000000, -1), MONEY_NONE);
	assert_int_equal(money_for_hours(1000000, -0.001), MONEY_NONE);
	assert_int_equal(money_for_hours(1000000, NAN), MONEY_NONE);
	assert_int_equal(money_for_hours(1000000, INFINITY), MONEY_NONE);
	/* Too large to hold: not a wrapped number. */
	assert_int_equal(money_for_hours(MONEY_MAX, 1e10), MONEY_NONE);
	assert_int_equal(money_for_hours(INT64_MAX, 2), MONEY_NONE);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_integers),
		cmocka_unit_test(test_parse_decimals),
		cmocka_unit_test(test_parse_rounds_half_up_at_seventh_decimal),
		cmocka_unit_test(test_parse_exponents),
		cmocka_unit_test(test_parse_leading_plus),
		cmocka_unit_test(test_parse_respects_len),
		cmocka_unit_test(test_parse_rejects),
		cmocka_unit_test(test_parse_rejects_trailing_garbage),
		cmocka_unit_test(test_parse_limit),
		cmocka_unit_test(test_from_double),
		cmocka_unit_test(test_from_double_rejects),
		cmocka_unit_test(test_format_trims),
		cmocka_unit_test(test_format_min_decimals),
		cmocka_unit_test(test_format_negative),
		cmocka_unit_test(test_format_none),
		cmocka_unit_test(test_format_small_buffer),
		cmocka_unit_test(test_format_parse_round_trip),
		cmocka_unit_test(test_div_round),
		cmocka_unit_test(test_div_round_extremes),
		cmocka_unit_test(test_mul),
		cmocka_unit_test(test_mul_negative_factor),
		cmocka_unit_test(test_mul_overflow_and_none),
		cmocka_unit_test(test_for_hours),
		cmocka_unit_test(test_for_hours_unknown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
