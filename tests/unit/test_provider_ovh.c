/* test_provider_ovh.c: the OVHcloud Public Cloud adapter on fixture files. */
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

extern const struct provider provider_ovh;

#define NOW	1767225600	/* 2026-01-01 */
#define RATE	1080000		/* 1.08 USD per EUR */
#define CATALOG	"/1.0/order/catalog/public/cloud?ovhSubsidiary=FR"

static const struct harness_route good_routes[] = {
	{ CATALOG, NULL, "catalog-fr.json", 0 },
};

static int
run_routes(struct provider_run *run, const struct harness_route *routes,
    size_t nroutes, const char *dir, const char *base_url, int64_t rate,
    struct harness_log *log, struct err *err)
{
	provider_run_init(run, &provider_ovh);
	run->base_url = base_url;
	run->usd_per_eur = rate;
	run->now = NOW;
	err_clear(err);
	return harness_run(&provider_ovh, run, routes, nroutes, dir, 0, log,
	    err);
}

/* price_eur in micro-EUR; the USD price is checked at RATE. */
static void
check_offer(const struct offer *o, const char *flavor, const char *region,
    const char *gpu, const char *gpu_raw, int count, int vram,
    int64_t price_eur, int vcpus, double ram)
{
	assert_string_equal(o->provider, "ovh");
	assert_string_equal(o->instance_type, flavor);
	assert_string_equal(o->region, region);
	assert_string_equal(o->gpu, gpu);
	assert_string_equal(o->gpu_raw, gpu_raw);
	assert_int_equal(o->gpu_count, count);
	assert_int_equal(o->vram_gb, vram);
	assert_string_equal(o->currency, "EUR");
	assert_int_equal(o->price_original, price_eur);
	assert_int_equal(o->price, (price_eur * 108 + 50) / 100);
	assert_int_equal(o->spot_price, MONEY_NONE);
	assert_int_equal(o->vcpus, vcpus);
	assert_true(fabs(o->ram_gb - ram) < 1e-9);
	assert_int_equal(o->availability, AV_UNKNOWN);
	assert_int_equal(o->fetched_at, NOW);
	assert_int_equal(o->source, SRC_LIVE);
}

/* The hourly GPU flavors in every region they are ordered in; no more. */
static void
test_parse(void **state)
{
	static const char *const keys[] = {
		"h100-380/GRA11", "h100-380/BHS5", "h100-380/WAW1",
		"h100-760/GRA11", "a100-180/GRA11", "l40s-90/GRA11",
		"l40s-90/DE1", "l4-90/GRA11", "t2-45/GRA9", "t2-45/BHS5",
	};
	struct provider_run run;
	struct err err;
	size_t i;

	(void)state;
	assert_int_equal(run_routes(&run, good_routes, 1, NULL, NULL, RATE,
	    NULL, &err), 0);
	assert_int_equal(run.offers.n, sizeof keys / sizeof keys[0]);
	for (i = 0; i < sizeof keys / sizeof keys[0]; i++)
		(void)harness_offer(&run, keys[i]);
	/* Monthly-only H200, Windows, 3-AZ, coming soon, CPU, per minute. */
	assert_null(harness_offer_find(&run, "h200-1920/GRA11"));
	assert_null(harness_offer_find(&run, "win-t2-45/GRA9"));
	assert_null(harness_offer_find(&run, "l4-90/EU-WEST-PAR"));
	assert_null(harness_offer_find(&run, "rtx5000-28/GRA11"));
	assert_null(harness_offer_find(&run, "t1-45/GRA11"));
	assert_null(harness_offer_find(&run, "b3-8/GRA9"));
	assert_int_equal(run.skipped, 9);
	assert_int_equal(run.unknown_gpu, 0);
	assert_string_equal(run.note,
	    "2 entries that are not GPU instances skipped; "
	    "3 monthly prices skipped; "
	    "2 Windows or other region-class prices skipped; "
	    "1 coming-soon flavor skipped; "
	    "1 hourly entry without one hourly price skipped");

	/* 280000000 x 1e-8 EUR = 2.80 EUR per instance-hour. */
	check_offer(harness_offer(&run, "h100-380/GRA11"), "h100-380", "GRA11",
	    "H100", "H100", 1, 80, 2800000, 30, 380);
	/* WAW1 from the monthly variant's list, at the hourly price. */
	check_offer(harness_offer(&run, "h100-380/WAW1"), "h100-380", "WAW1",
	    "H100", "H100", 1, 80, 2800000, 30, 380);
	check_offer(harness_offer(&run, "h100-760/GRA11"), "h100-760", "GRA11",
	    "H100", "H100", 2, 80, 5600000, 60, 760);
	check_offer(harness_offer(&run, "a100-180/GRA11"), "a100-180", "GRA11",
	    "A100-80", "A100", 1, 80, 3100000, 15, 180);
	check_offer(harness_offer(&run, "l40s-90/DE1"), "l40s-90", "DE1",
	    "L40S", "L40S", 1, 48, 1400000, 15, 90);
	check_offer(harness_offer(&run, "l4-90/GRA11"), "l4-90", "GRA11", "L4",
	    "L4", 1, 24, 750000, 22, 90);
	check_offer(harness_offer(&run, "t2-45/BHS5"), "t2-45", "BHS5", "V100S",
	    "Tesla V100S", 1, 32, 880000, 15, 45);
	/* "HBM3" is a memory, not a link: two H100s, link unknown. */
	assert_int_equal(harness_offer(&run, "h100-760/GRA11")->interconnect,
	    IC_UNKNOWN);
	provider_run_done(&run);
}

/* One GET, conditional; no rate, no run. */
static void
test_requests(void **state)
{
	struct provider_run run;
	struct harness_log log = { 0 };
	struct err err;

	(void)state;
	assert_int_equal(run_routes(&run, good_routes, 1, NULL,
	    "http://127.0.0.1:8125", RATE, &log, &err), 0);
	assert_int_equal(log.n, 1);
	assert_string_equal(log.url[0], "http://127.0.0.1:8125" CATALOG);
	assert_string_equal(log.method[0], "GET");
	assert_string_equal(log.headers[0], "Accept: application/json\n");
	assert_int_equal(log.conditional[0], 'c');
	harness_log_free(&log);
	provider_run_done(&run);

	assert_int_equal(run_routes(&run, good_routes, 1, NULL, NULL, 0, NULL,
	    &err), -1);
	assert_non_null(strstr(err.msg, "no USD per EUR rate"));
	provider_run_done(&run);
}

/* Run the adapter on one catalog, body, served for every request. */
static int
run_body(struct provider_run *run, const char *body, struct err *err)
{
	static const struct harness_route all[] = {
		{ CATALOG, NULL, "body.json", 0 },
	};
	char *dir = harness_tmp_dir("body.json", body);
	int rc;

	rc = run_routes(run, all, 1, dir, NULL, RATE, NULL, err);
	harness_tmp_dir_free(dir);
	return rc;
}

static void
expect_error(const char *body, const char *want)
{
	struct provider_run run;
	struct err err;

	assert_int_equal(run_body(&run, body, &err), -1);
	if (strstr(err.msg, want) == NULL)
		fail_msg("%s: \"%s\" does not contain \"%s\"", body, err.msg,
		    want);
	assert_true(str_is_clean(err.msg));
	provider_run_done(&run);
}

#define LOCALE	"\"locale\": {\"currencyCode\": \"EUR\", \"subsidiary\": \"FR\"}"
#define GPU_ADDON(price, gpu)						\
	"{" LOCALE ", \"addons\": [{\"planCode\": \"l4-90.consumption\", "	\
	"\"invoiceName\": \"l4-90\", \"pricings\": [{\"intervalUnit\": "	\
	"\"hour\", \"price\": " price "}], \"configurations\": [{\"name\": "	\
	"\"region\", \"values\": [\"GRA11\"]}], \"blobs\": {\"commercial\": " \
	"{\"brick\": \"gpu\"}, \"technical\": {" gpu "}}}]}"
#define L4	"\"gpu\": {\"model\": \"L4\", \"number\": 1}"

static void
test_bad_bodies(void **state)
{
	(void)state;
	expect_error("", "empty");
	expect_error("<html><body>502 Bad Gateway</body></html>", "HTML");
	expect_error("{\"catalogId\": 1, \"addons\": [{\"planCode\"", "");
	expect_error("{\"addons\": []}", "locale");
	/* Another subsidiary's book is in another currency: refused. */
	expect_error("{\"locale\": {\"currencyCode\": \"USD\", \"subsidiary\": "
	    "\"US\"}, \"addons\": []}", "subsidiary US in USD");
	expect_error("{" LOCALE ", \"addons\": {}}", "addons");
	expect_error(GPU_ADDON("-75000000", L4), "price");
	expect_error(GPU_ADDON("\"75000000\"", L4), "price");
	expect_error(GPU_ADDON("1e300", L4), "price");
	expect_error(GPU_ADDON("750000000000000", L4), "price");
	expect_error(GPU_ADDON("75000000.5", L4), "price");
	expect_error(GPU_ADDON("75000000", "\"gpu\": {\"model\": \"L4\", "
	    "\"number\": 1000000}"), "number");
	expect_error(GPU_ADDON("75000000", "\"gpu\": {\"model\": \"\", "
	    "\"number\": 1}"), "model");
	expect_error(GPU_ADDON("75000000", "\"cpu\": {\"cores\": 8}"),
	    "gpu: missing");
	expect_error(GPU_ADDON("75000000", L4 ", \"memory\": {\"size\": "
	    "-90}"), "size");
	expect_error("{" LOCALE ", \"addons\": [7]}", "expected an object");
}

/* Escapes in flavors, regions and GPU models never reach an offer. */
static void
test_hostile_strings(void **state)
{
	struct provider_run run;
	struct err err;

	(void)state;
	assert_int_equal(run_body(&run, "{" LOCALE ", \"addons\": [{"
	    "\"planCode\": \"l4\\u001b]0;x\\u0007-90.consumption\", "
	    "\"invoiceName\": \"l4\\u001b]0;x\\u0007-90\", \"pricings\": "
	    "[{\"intervalUnit\": \"hour\", \"price\": 75000000}], "
	    "\"configurations\": [{\"name\": \"region\", \"values\": "
	    "[\"GRA\\u009b2J11\"]}], \"blobs\": {\"commercial\": {\"brick\": "
	    "\"gpu\"}, \"technical\": {\"gpu\": {\"model\": \"L4\\u001b[2J\", "
	    "\"number\": 1}}}}]}", &err), 0);
	assert_int_equal(run.offers.n, 1);
	assert_true(str_is_clean(run.offers.v[0].key));
	assert_true(str_is_clean(run.offers.v[0].instance_type));
	assert_true(str_is_clean(run.offers.v[0].region));
	assert_true(str_is_clean(run.offers.v[0].gpu_raw));
	provider_run_done(&run);
}

/*
 * OVH's "Quadro-RTX5000" (16 GB, rtx5000-28, coming soon in the
 * fixture's catalog) is the Turing Quadro RTX 5000 once it is sold, not
 * the RTX 5000 Ada: the bare name is family RTX5000 and the memory picks
 * the card (issue 44).
 */
static void
test_quadro_rtx5000(void **state)
{
	struct provider_run run;
	struct err err;

	(void)state;
	assert_int_equal(run_body(&run, GPU_ADDON("36000000", "\"gpu\": "
	    "{\"model\": \"Quadro-RTX5000\", \"number\": 1, \"memory\": "
	    "{\"size\": 16, \"interface\": \"GDDR6\"}}"), &err), 0);
	assert_int_equal(run.offers.n, 1);
	assert_int_equal(run.unknown_gpu, 0);
	assert_string_equal(run.offers.v[0].gpu, "QRTX5000");
	assert_string_equal(run.offers.v[0].gpu_raw, "Quadro-RTX5000");
	assert_int_equal(run.offers.v[0].vram_gb, 16);
	provider_run_done(&run);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_requests),
		cmocka_unit_test(test_bad_bodies),
		cmocka_unit_test(test_hostile_strings),
		cmocka_unit_test(test_quadro_rtx5000),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
