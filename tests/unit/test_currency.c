/* test_currency.c: the EUR to USD rate and conversion. */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "currency.h"
#include "err.h"
#include "money.h"

static void
bad_rate(const char *text, const char *want)
{
	struct err err;
	int64_t rate = 42;

	err_clear(&err);
	assert_int_equal(currency_rate_parse(text, "GPUCOST_USD_PER_EUR",
	    &rate, &err), -1);
	assert_int_equal(rate, 42);
	if (strstr(err.msg, want) == NULL ||
	    strncmp(err.msg, "GPUCOST_USD_PER_EUR: ", 21) != 0)
		fail_msg("%s: \"%s\" lacks \"%s\" or the source", text,
		    err.msg, want);
	/* The message quotes the text: never its control characters. */
	if (strchr(err.msg, '\033') != NULL)
		fail_msg("%s: the message holds an escape", text);
}

static void
test_parse(void **state)
{
	struct err err;
	int64_t rate;

	(void)state;
	assert_int_equal(currency_rate_parse("1.0389", "x", &rate, &err), 0);
	assert_int_equal(rate, 1038900);
	assert_int_equal(currency_rate_parse(" 1.1 ", "x", &rate, &err), 0);
	assert_int_equal(rate, 1100000);
	bad_rate("0", "out of range");
	bad_rate("0.0", "out of range");
	bad_rate("-1.08", "not a USD per EUR rate");
	bad_rate("NaN", "not a USD per EUR rate");
	bad_rate("inf", "not a USD per EUR rate");
	bad_rate("abc", "not a USD per EUR rate");
	bad_rate("1.08 EUR", "not a USD per EUR rate");
	bad_rate("", "not a USD per EUR rate");
	bad_rate("100", "out of range");
	bad_rate("\033[2J1.1", "not a USD per EUR rate");
}

/* The environment wins over the file; the file over the default. */
static void
test_choose(void **state)
{
	struct currency_rate r;
	struct err err;

	(void)state;
	assert_int_equal(currency_usd_per_eur("1.2", "1.3", "/c", &r, &err),
	    0);
	assert_int_equal(r.usd_per_eur, 1200000);
	assert_string_equal(r.from, "GPUCOST_USD_PER_EUR");
	assert_int_equal(currency_usd_per_eur("", "1.3", "/c", &r, &err), 0);
	assert_int_equal(r.usd_per_eur, 1300000);
	assert_string_equal(r.from, "usd_per_eur in /c");
	assert_int_equal(currency_usd_per_eur(NULL, NULL, "/c", &r, &err), 0);
	assert_int_equal(r.usd_per_eur, 1038900);
	assert_string_equal(r.from, "default: ECB euro foreign exchange "
	    "reference rate of 2024-12-31");
	/* A bad value is an error naming its place, never the default. */
	assert_int_equal(currency_usd_per_eur(NULL, "-1", "/c", &r, &err), -1);
	assert_non_null(strstr(err.msg, "usd_per_eur in /c: \"-1\""));
	assert_int_equal(currency_usd_per_eur("x", "1.1", "/c", &r, &err), -1);
	assert_non_null(strstr(err.msg, "GPUCOST_USD_PER_EUR: \"x\""));
}

static void
test_convert(void **state)
{
	(void)state;
	assert_int_equal(currency_to_usd(2866500, 1038900), 2978007);
	assert_int_equal(currency_to_usd(1000000, 1080000), 1080000);
	assert_int_equal(currency_to_usd(1, 1500000), 2);	/* 1.5 up */
	assert_int_equal(currency_to_usd(MONEY_NONE, 1080000), MONEY_NONE);
	assert_int_equal(currency_to_usd(INT64_MAX / 2, 1080000), MONEY_NONE);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_choose),
		cmocka_unit_test(test_convert),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
