/* test_health.c: a provider's health from its refresh outcomes. */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "health.h"

#define NOW	1767225600	/* 2026-01-01 */
#define DAY	86400

static struct refresh_outcome rows[32];
static size_t nrows;

/* Append an outcome days_ago (rows are newest first). */
static void
add(double days_ago, bool ok, long offers)
{
	struct refresh_outcome *o = &rows[nrows++];

	memset(o, 0, sizeof *o);
	o->at = NOW - (int64_t)(days_ago * DAY);
	o->ok = ok;
	o->offers = offers;
	strcpy(o->endpoint, ok ? "https://api.example.com" : "https://x");
}

static struct provider_health
judge(void)
{
	struct provider_health h;

	health_judge(rows, nrows, NOW, &h);
	nrows = 0;
	return h;
}

static void
test_unknown_and_ok(void **state)
{
	struct provider_health h;
	char buf[160];

	(void)state;
	h = judge();
	assert_int_equal(h.state, HEALTH_UNKNOWN);
	assert_null(health_name(h.state));
	add(0, true, 40);
	h = judge();
	assert_int_equal(h.state, HEALTH_OK);
	assert_string_equal(health_name(h.state), "ok");
	assert_int_equal(h.last_success, NOW);
	assert_string_equal(h.endpoint, "https://api.example.com");
	assert_int_equal(health_describe(&h, NOW, buf, sizeof buf), 0);
	assert_string_equal(buf, "");
}

/* Failing: every refresh since the last success, for 7 days or more. */
static void
test_failing(void **state)
{
	struct provider_health h;
	char buf[160];

	(void)state;
	/* 6.9 days of failures: not yet failing, but failed (issue 45). */
	add(0, false, 0);
	add(3, false, 0);
	add(6.9, false, 0);
	add(8, true, 40);
	h = judge();
	assert_int_equal(h.state, HEALTH_FAILED);
	assert_string_equal(health_name(h.state), "failed");
	assert_int_equal(h.failures, 3);
	health_describe(&h, NOW, buf, sizeof buf);
	assert_string_equal(buf, "its last refresh failed (3 tries since "
	    "its last success)");

	/* A first refresh that failed: never "ok" beside the error. */
	add(0, false, 0);
	h = judge();
	assert_int_equal(h.state, HEALTH_FAILED);
	assert_int_equal(h.last_success, 0);
	health_describe(&h, NOW, buf, sizeof buf);
	assert_string_equal(buf, "no refresh has worked yet (1 try)");

	add(0, false, 0);
	add(3, false, 0);
	add(7, false, 0);
	add(8, true, 40);
	h = judge();
	assert_int_equal(h.state, HEALTH_FAILING);
	assert_int_equal(h.failing_since, NOW - 7 * DAY);
	assert_int_equal(h.last_success, NOW - 8 * DAY);
	/* The endpoint of the last success, not of the failures. */
	assert_string_equal(h.endpoint, "https://api.example.com");
	health_describe(&h, NOW, buf, sizeof buf);
	assert_string_equal(buf, "every refresh has failed for 7 days "
	    "(3 tries)");

	/* A success today ends it, whatever failed before. */
	add(0, true, 40);
	add(3, false, 0);
	add(9, false, 0);
	h = judge();
	assert_int_equal(h.state, HEALTH_OK);

	/* Not one success ever, first failure 10 days ago. */
	add(1, false, 0);
	add(10, false, 0);
	h = judge();
	assert_int_equal(h.state, HEALTH_FAILING);
	assert_int_equal(h.last_success, 0);
	assert_string_equal(h.endpoint, "");
	health_describe(&h, NOW, buf, sizeof buf);
	assert_string_equal(buf, "every refresh has failed for 10 days "
	    "(2 tries) and none ever worked");

	/* Rarely refreshed: one failure today after a success long ago. */
	add(0, false, 0);
	add(30, true, 40);
	h = judge();
	assert_int_equal(h.state, HEALTH_FAILED);
}

/* Shrunk: half the median of the successes before, or less. */
static void
test_shrunk(void **state)
{
	struct provider_health h;
	char buf[200];
	int i;

	(void)state;
	add(0, true, 20);
	for (i = 1; i <= 12; i++)
		add(i, true, i == 3 ? 1000 : 40);
	h = judge();
	assert_int_equal(h.state, HEALTH_SHRUNK);
	assert_int_equal(h.offers, 20);
	assert_int_equal(h.median, 40);
	health_describe(&h, NOW, buf, sizeof buf);
	assert_string_equal(buf, "its last refresh found 20 offers, under "
	    "half the median (40) of the refreshes before");

	/* 21 of 40 is fewer, not 50 % fewer. */
	add(0, true, 21);
	for (i = 1; i <= 10; i++)
		add(i, true, 40);
	assert_int_equal(judge().state, HEALTH_OK);

	/* Failures in between do not count toward the median. */
	add(0, true, 10);
	add(1, false, 0);
	add(2, true, 30);
	add(3, false, 0);
	add(4, true, 30);
	add(5, true, 20);
	h = judge();
	assert_int_equal(h.state, HEALTH_SHRUNK);
	assert_int_equal(h.median, 30);

	/* Two successes before are too few to judge. */
	add(0, true, 1);
	add(1, true, 40);
	add(2, true, 40);
	assert_int_equal(judge().state, HEALTH_OK);

	/* A recent failure after a shrunk success: still shrunk. */
	add(0, false, 0);
	add(1, true, 5);
	add(2, true, 40);
	add(3, true, 40);
	add(4, true, 40);
	assert_int_equal(judge().state, HEALTH_SHRUNK);
}

static void
test_endpoint(void **state)
{
	char buf[HEALTH_ENDPOINT_MAX];

	(void)state;
	health_endpoint("https://api.linode.com/v4/linode/types?page=1", buf,
	    sizeof buf);
	assert_string_equal(buf, "https://api.linode.com");
	health_endpoint("http://127.0.0.1:8125", buf, sizeof buf);
	assert_string_equal(buf, "http://127.0.0.1:8125");
	/* Credentials in a mirror's URL are never recorded. */
	health_endpoint("https://user:p@ss@mirror.example:8443/x?y", buf,
	    sizeof buf);
	assert_string_equal(buf, "https://mirror.example:8443");
	health_endpoint("not a url", buf, sizeof buf);
	assert_string_equal(buf, "");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_unknown_and_ok),
		cmocka_unit_test(test_failing),
		cmocka_unit_test(test_shrunk),
		cmocka_unit_test(test_endpoint),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
