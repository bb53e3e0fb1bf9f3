/* test_provider_cloudrift.c: the CloudRift adapter on fixture files. */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "adapter_harness.h"
#include "err.h"
#include "money.h"
#include "offer.h"
#include "provider.h"
#include "str.h"

extern const struct provider provider_cloudrift;

#define NOW	1767225600	/* 2026-01-01 */
#define LIST	"/api/v1/instance-types/list"

static const struct harness_route good_routes[] = {
	{ LIST, "ByServiceAndLocation", "instance-types.json", 201 },
};

static int
run_routes(struct provider_run *run, const struct harness_route *routes,
    size_t nroutes, const char *dir, const char *base_url,
    struct harness_log *log, struct err *err)
{
	provider_run_init(run, &provider_cloudrift);
	run->base_url = base_url;
	run->now = NOW;
	err_clear(err);
	return harness_run(&provider_cloudrift, run, routes, nroutes, dir, 0,
	    log, err);
}

static void
check_offer(const struct offer *o, const char *variant, const char *dc,
    const char *gpu, const char *gpu_raw, int count, int vram,
    int64_t price, int vcpus, double ram, enum availability av)
{
	assert_string_equal(o->provider, "cloudrift");
	assert_string_equal(o->instance_type, variant);
	assert_string_equal(o->region, dc);
	assert_string_equal(o->gpu, gpu);
	assert_string_equal(o->gpu_raw, gpu_raw);
	assert_int_equal(o->gpu_count, count);
	assert_int_equal(o->vram_gb, vram);
	assert_int_equal(o->price, price);
	assert_int_equal(o->price_original, price);
	assert_string_equal(o->currency, "USD");
	assert_int_equal(o->spot_price, MONEY_NONE);
	assert_int_equal(o->vcpus, vcpus);
	assert_true(fabs(o->ram_gb - ram) < 1e-9);
	assert_int_equal(o->availability, av);
	assert_int_equal(o->fetched_at, NOW);
	assert_int_equal(o->source, SRC_LIVE);
}

/* One offer per variant and datacenter with nodes; nothing else. */
static void
test_parse(void **state)
{
	static const char *const keys[] = {
		"rtx49-8c-nr.1/us-east-nc-nr-1",
		"rtx49-8c-nr.1/eu-central-it-gv-1",
		"rtx49-8c-nr.2/us-east-nc-nr-1",
		"rtx49-8c-nr.4/eu-central-it-gv-1",
		"rtxpro6000-11-50-500-1l.1/ustx1a_a01",
		"rtxpro6000-11-50-500-1l.8/ustx1a_a01",
		"a100-80-nr.1/ap-east-tw-kn-2",
		"mi350x-8.8/us-central-tx-nr-1",
	};
	struct provider_run run;
	struct err err;
	size_t i;

	(void)state;
	assert_int_equal(run_routes(&run, good_routes, 1, NULL, NULL, NULL,
	    &err), 0);
	assert_int_equal(run.offers.n, sizeof keys / sizeof keys[0]);
	for (i = 0; i < sizeof keys / sizeof keys[0]; i++)
		(void)harness_offer(&run, keys[i]);
	assert_null(harness_offer_find(&run, "rtx49-8c-nr.4/us-east-nc-nr-1"));
	assert_null(harness_offer_find(&run,
	    "a100-80-nr.1g.10gb/ap-east-tw-kn-2"));
	assert_int_equal(run.skipped, 4);
	/* CloudRift's "MI350X" is the catalogue's MI350X (issue 44). */
	assert_int_equal(run.unknown_gpu, 0);
	assert_string_equal(run.note, "1 CPU variant skipped; "
	    "1 MIG slice skipped; 1 variant without a price skipped; "
	    "1 variant in no datacenter skipped");

	/* Cents: 39.0 is $0.39; threads as vCPUs; bytes in GiB. */
	check_offer(harness_offer(&run, "rtx49-8c-nr.1/us-east-nc-nr-1"),
	    "rtx49-8c-nr.1", "us-east-nc-nr-1", "RTX4090", "RTX 4090", 1, 24,
	    390000, 16, 64, AV_AVAILABLE);
	check_offer(harness_offer(&run, "rtx49-8c-nr.1/eu-central-it-gv-1"),
	    "rtx49-8c-nr.1", "eu-central-it-gv-1", "RTX4090", "RTX 4090", 1,
	    24, 390000, 16, 64, AV_UNAVAILABLE);
	check_offer(harness_offer(&run, "rtx49-8c-nr.2/us-east-nc-nr-1"),
	    "rtx49-8c-nr.2", "us-east-nc-nr-1", "RTX4090", "RTX 4090", 2, 24,
	    780000, 32, 128, AV_UNKNOWN);
	check_offer(harness_offer(&run,
	    "rtxpro6000-11-50-500-1l.1/ustx1a_a01"),
	    "rtxpro6000-11-50-500-1l.1", "ustx1a_a01", "RTXPRO6000",
	    "RTX PRO 6000", 1, 96, 1393600, 22, 50, AV_UNAVAILABLE);
	check_offer(harness_offer(&run,
	    "rtxpro6000-11-50-500-1l.8/ustx1a_a01"),
	    "rtxpro6000-11-50-500-1l.8", "ustx1a_a01", "RTXPRO6000",
	    "RTX PRO 6000", 8, 96, 11148800, 176, 400, AV_AVAILABLE);
	check_offer(harness_offer(&run, "a100-80-nr.1/ap-east-tw-kn-2"),
	    "a100-80-nr.1", "ap-east-tw-kn-2", "A100-80", "A100", 1, 80,
	    1200000, 32, 128, AV_AVAILABLE);
	check_offer(harness_offer(&run, "mi350x-8.8/us-central-tx-nr-1"),
	    "mi350x-8.8", "us-central-tx-nr-1", "MI350X", "MI350X", 8, 288,
	    16000000, 256, 2048, AV_AVAILABLE);
	provider_run_done(&run);
}

/* One POST with the selector, never conditional. */
static void
test_requests(void **state)
{
	struct provider_run run;
	struct harness_log log = { 0 };
	struct err err;

	(void)state;
	assert_int_equal(run_routes(&run, good_routes, 1, NULL,
	    "http://127.0.0.1:8125", &log, &err), 0);
	assert_int_equal(log.n, 1);
	assert_string_equal(log.url[0], "http://127.0.0.1:8125" LIST);
	assert_string_equal(log.method[0], "POST");
	assert_string_equal(log.headers[0], "Content-Type: application/json\n"
	    "Accept: application/json\n");
	assert_string_equal(log.body[0], "{\"version\": \"2025-03-21\", "
	    "\"data\": {\"selector\": {\"ByServiceAndLocation\": "
	    "{\"services\": [\"vm\"]}}}}");
	assert_int_equal(log.conditional[0], 0);
	harness_log_free(&log);
	provider_run_done(&run);
}

static void
expect_error(const char *body, const char *want)
{
	static const struct harness_route all[] = {
		{ LIST, NULL, "body.json", 0 },
	};
	struct provider_run run;
	struct err err;
	char *dir = harness_tmp_dir("body.json", body);

	assert_int_equal(run_routes(&run, all, 1, dir, NULL, NULL, &err), -1);
	if (strstr(err.msg, want) == NULL)
		fail_msg("%s: \"%s\" does not contain \"%s\"", body, err.msg,
		    want);
	assert_true(str_is_clean(err.msg));
	provider_run_done(&run);
	harness_tmp_dir_free(dir);
}

#define VARIANT(fields)							\
	"{\"data\": {\"instance_types\": [{\"name\": \"rtx49\", "	\
	"\"brand_short\": \"RTX 4090\", \"variants\": [{\"name\": "	\
	"\"rtx49.1\", \"gpu_count\": 1, " fields "}]}]}}"
#define IN_DC	"\"nodes_per_dc\": {\"dc-1\": 1}"

static void
test_bad_bodies(void **state)
{
	(void)state;
	expect_error("", "empty");
	expect_error("<html><body>502 Bad Gateway</body></html>", "HTML");
	expect_error("{\"data\": {\"instance_types\": [{\"name\"", "");
	expect_error("{\"version\": \"2025-01-29\"}", "data");
	expect_error("{\"data\": {\"instance_types\": {}}}", "instance_types");
	expect_error("{\"error\": \"Not authorized\"}", "data");
	expect_error(VARIANT("\"cost_per_hour\": -39, " IN_DC),
	    "cost_per_hour");
	expect_error(VARIANT("\"cost_per_hour\": \"NaN\", " IN_DC),
	    "cost_per_hour");
	expect_error(VARIANT("\"cost_per_hour\": 1e300, " IN_DC),
	    "cost_per_hour");
	expect_error(VARIANT("\"cost_per_hour\": 39, \"dram\": -1, " IN_DC),
	    "dram");
	expect_error(VARIANT("\"cost_per_hour\": 39, \"nodes_per_dc\": 3"),
	    "nodes_per_dc");
	expect_error(VARIANT("\"cost_per_hour\": 39, \"nodes_per_dc\": "
	    "{\"dc-1\": -1}"), "nodes_per_dc");
	expect_error(VARIANT("\"cost_per_hour\": 39, " IN_DC ", "
	    "\"available_nodes_per_dc\": {\"dc-1\": \"x\"}"),
	    "available_nodes_per_dc");
	expect_error("{\"data\": {\"instance_types\": [{\"name\": \"x\", "
	    "\"variants\": [{\"name\": \"x.1\", \"gpu_count\": 1000000}]}]}}",
	    "gpu_count");
	expect_error("{\"data\": {\"instance_types\": [{\"name\": \"x\", "
	    "\"variants\": [{\"name\": \"\", \"gpu_count\": 1}]}]}}", "name");
	expect_error("{\"data\": {\"instance_types\": [7]}}",
	    "expected an object");
}

/* Escapes in names and datacenters never reach an offer. */
static void
test_hostile_strings(void **state)
{
	static const struct harness_route all[] = {
		{ LIST, NULL, "body.json", 0 },
	};
	struct provider_run run;
	struct err err;
	char *dir;

	(void)state;
	dir = harness_tmp_dir("body.json", "{\"data\": {\"instance_types\": "
	    "[{\"name\": \"x\", \"brand_short\": \"RTX\\u001b[2J 4090\", "
	    "\"variants\": [{\"name\": \"x\\u001b]0;pwn\\u0007.1\", "
	    "\"gpu_count\": 1, \"cost_per_hour\": 39, \"nodes_per_dc\": "
	    "{\"dc\\u009b2J-1\": 1}}]}]}}");
	assert_int_equal(run_routes(&run, all, 1, dir, NULL, NULL, &err), 0);
	assert_int_equal(run.offers.n, 1);
	assert_true(str_is_clean(run.offers.v[0].key));
	assert_true(str_is_clean(run.offers.v[0].instance_type));
	assert_true(str_is_clean(run.offers.v[0].region));
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
		cmocka_unit_test(test_bad_bodies),
		cmocka_unit_test(test_hostile_strings),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
