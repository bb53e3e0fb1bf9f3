/* test_provider_salad.c: the SaladCloud adapter (keyed) on fixture files. */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "adapter_harness.h"
#include "err.h"
#include "money.h"
#include "note_info.h"
#include "offer.h"
#include "provider.h"
#include "str.h"

extern const struct provider provider_salad;

#define NOW	1767225600	/* 2026-01-01 */
#define CLASSES	"/api/public/organizations/gpucost-org/gpu-classes"
#define KEY	"salad-SECRET-key-0001"

static const struct harness_route good_routes[] = {
	{ CLASSES, NULL, "gpu-classes.json", 0 },
};

static int
run_routes(struct provider_run *run, const struct harness_route *routes,
    const char *dir, const char *org, struct harness_log *log,
    struct err *err)
{
	provider_run_init(run, &provider_salad);
	run->api_key = KEY;
	run->account = org;
	run->now = NOW;
	err_clear(err);
	return harness_run(&provider_salad, run, routes, 1, dir, 0, log, err);
}

static void
check_offer(const struct provider_run *run, const char *key,
    const char *gpu, const char *gpu_raw, int vram, int64_t price,
    int64_t spot, unsigned notes)
{
	const struct offer *o = harness_offer(run, key);

	assert_string_equal(o->provider, "salad");
	assert_string_equal(o->instance_type, key);
	assert_string_equal(o->region, "global");
	assert_string_equal(o->gpu, gpu);
	assert_string_equal(o->gpu_raw, gpu_raw);
	assert_int_equal(o->gpu_count, 1);
	assert_int_equal(o->vram_gb, vram);
	assert_int_equal(o->price, price);
	assert_int_equal(o->spot_price, spot);
	assert_int_equal(o->price_from, MONEY_NONE);
	assert_int_equal(o->notes, notes);
	assert_int_equal(o->vcpus, 0);
	assert_int_equal(o->availability, AV_UNKNOWN);
	assert_int_equal(o->source, SRC_LIVE);
}

/* One offer per priced class: high on demand, batch as spot. */
static void
test_parse(void **state)
{
	const unsigned intr = NOTE_BIT(NOTE_INTERRUPTIBLE);
	struct provider_run run;
	struct err err;

	(void)state;
	assert_int_equal(run_routes(&run, good_routes, NULL, "gpucost-org",
	    NULL, &err), 0);
	assert_int_equal(run.offers.n, 4);
	assert_int_equal(run.skipped, 2);
	assert_int_equal(run.unknown_gpu, 1);
	assert_string_equal(run.note, "2 GPU classes without a price skipped");
	check_offer(&run, "RTX 5090 (32 GB)", "RTX5090", "RTX 5090", 32,
	    500000, 250000, intr);
	check_offer(&run, "RTX 4090 (24 GB)", "RTX4090", "RTX 4090", 24,
	    330000, 160000, intr);
	check_offer(&run, "RTX 3060 (12 GB)", "RTX3060", "RTX 3060", 12,
	    MONEY_NONE, 40000, intr | NOTE_BIT(NOTE_NOT_ON_DEMAND));
	check_offer(&run, "RTX 2000E Ada (16 GB)", "", "RTX 2000E Ada", 16,
	    120000, 70000, intr);
	assert_null(harness_offer_find(&run, "RTX 3090 (24 GB)"));
	assert_null(harness_offer_find(&run, "RTX 4070 (12 GB)"));
	provider_run_done(&run);
}

/* The key only in its header; the organisation in the path, escaped. */
static void
test_requests(void **state)
{
	static const struct harness_route odd[] = {
		{ "/organizations/a%2Fb%20c/gpu-classes", NULL,
		    "gpu-classes.json", 0 },
	};
	struct provider_run run;
	struct harness_log log = { 0 };
	struct err err;

	(void)state;
	assert_int_equal(run_routes(&run, good_routes, NULL, "gpucost-org",
	    &log, &err), 0);
	assert_int_equal(log.n, 1);
	assert_string_equal(log.url[0], "https://api.salad.com" CLASSES);
	assert_string_equal(log.method[0], "GET");
	assert_string_equal(log.headers[0], "Accept: application/json\n"
	    "Salad-Api-Key: " KEY "\n");
	assert_int_equal(log.conditional[0], 'c');
	harness_log_free(&log);
	provider_run_done(&run);

	assert_int_equal(run_routes(&run, odd, NULL, "a/b c", &log, &err), 0);
	assert_null(strstr(log.url[0], KEY));
	harness_log_free(&log);
	provider_run_done(&run);
}

/* A key without the organisation is a configuration to mend: said. */
static void
test_no_organisation(void **state)
{
	struct provider_run run;
	struct err err;

	(void)state;
	assert_int_equal(run_routes(&run, good_routes, NULL, NULL, NULL,
	    &err), -1);
	assert_non_null(strstr(err.msg, "salad_organization"));
	assert_null(strstr(err.msg, KEY));
	provider_run_done(&run);
}

static void
expect_error(const char *body, const char *want)
{
	static const struct harness_route all[] = {
		{ CLASSES, NULL, "body.json", 0 },
	};
	struct provider_run run;
	struct err err;
	char *dir = harness_tmp_dir("body.json", body);

	assert_int_equal(run_routes(&run, all, dir, "gpucost-org", NULL,
	    &err), -1);
	if (strstr(err.msg, want) == NULL)
		fail_msg("%s: \"%s\" does not contain \"%s\"", body, err.msg,
		    want);
	assert_true(str_is_clean(err.msg));
	provider_run_done(&run);
	harness_tmp_dir_free(dir);
}

#define CLASS(prices)							\
	"{\"items\": [{\"id\": \"x\", \"name\": \"RTX 4090 (24 GB)\", "	\
	"\"prices\": [" prices "]}]}"

static void
test_bad_bodies(void **state)
{
	(void)state;
	expect_error("", "empty");
	expect_error("<html><body>401</body></html>", "HTML");
	expect_error("{\"type\": \"about:blank\", \"status\": 403}", "items");
	expect_error("{\"items\": [3]}", "items[0]: expected an object");
	expect_error("{\"items\": [{\"name\": \"\", \"prices\": []}]}", "name");
	expect_error("{\"items\": [{\"name\": \"RTX 4090\"}]}", "prices");
	expect_error(CLASS("7"), "expected an object");
	expect_error(CLASS("{\"priority\": \"high\", \"price\": \"-1\"}"),
	    "price");
	expect_error(CLASS("{\"priority\": \"high\", \"price\": \"abc\"}"),
	    "price");
	expect_error(CLASS("{\"priority\": \"batch\", \"price\": 500}"),
	    "absurd");
}

/* Escapes in a class name never reach an offer. */
static void
test_hostile_strings(void **state)
{
	static const struct harness_route all[] = {
		{ CLASSES, NULL, "body.json", 0 },
	};
	struct provider_run run;
	struct err err;
	char *dir;

	(void)state;
	dir = harness_tmp_dir("body.json", "{\"items\": [{\"name\": "
	    "\"RTX\\u001b[2J 4090\\u001b]0;pwn\\u0007 (24 GB)\", \"prices\": "
	    "[{\"priority\": \"high\", \"price\": \"0.3\"}]}]}");
	assert_int_equal(run_routes(&run, all, dir, "gpucost-org", NULL,
	    &err), 0);
	assert_int_equal(run.offers.n, 1);
	assert_true(str_is_clean(run.offers.v[0].key));
	assert_true(str_is_clean(run.offers.v[0].gpu_raw));
	provider_run_done(&run);
	harness_tmp_dir_free(dir);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_requests),
		cmocka_unit_test(test_no_organisation),
		cmocka_unit_test(test_bad_bodies),
		cmocka_unit_test(test_hostile_strings),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
