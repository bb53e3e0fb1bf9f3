/* test_provider_akash.c: the Akash Network adapter on fixture files. */
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
#include "offer.h"
#include "provider.h"
#include "str.h"

extern const struct provider provider_akash;

#define NOW	1767225600	/* 2026-01-01 */
#define PRICES	"/v1/gpu-prices"

static const struct harness_route good_routes[] = {
	{ PRICES, NULL, "gpu-prices.json", 0 },
};

static int
run_routes(struct provider_run *run, const struct harness_route *routes,
    size_t nroutes, const char *dir, const char *base_url,
    struct harness_log *log, struct err *err)
{
	provider_run_init(run, &provider_akash);
	run->base_url = base_url;
	run->now = NOW;
	err_clear(err);
	return harness_run(&provider_akash, run, routes, nroutes, dir, 0, log,
	    err);
}

/* One offer: 1 GPU in region global at weightedAverage, from min. */
static void
check_offer(const struct provider_run *run, const char *key,
    const char *type, const char *gpu, const char *gpu_raw, int vram,
    enum interconnect ic, int64_t price, int64_t from, enum availability av)
{
	const struct offer *o = harness_offer(run, key);

	assert_string_equal(o->provider, "akash");
	assert_string_equal(o->instance_type, type);
	assert_string_equal(o->region, "global");
	assert_string_equal(o->gpu, gpu);
	assert_string_equal(o->gpu_raw, gpu_raw);
	assert_int_equal(o->gpu_count, 1);
	assert_int_equal(o->nodes, 1);
	assert_int_equal(o->vram_gb, vram);
	assert_int_equal(o->interconnect, ic);
	assert_int_equal(o->price, price);
	assert_int_equal(o->price_original, price);
	assert_string_equal(o->currency, "USD");
	assert_int_equal(o->price_from, from);
	assert_int_equal(o->spot_price, MONEY_NONE);
	assert_int_equal(o->vcpus, 0);
	assert_true(o->ram_gb <= 0);
	assert_int_equal(o->availability, av);
	assert_int_equal(o->notes, 0);
	assert_int_equal(o->fetched_at, NOW);
	assert_int_equal(o->source, SRC_LIVE);
}

/* One offer per model row, exactly these; nothing else. */
static void
test_parse(void **state)
{
	static const char *const keys[] = {
		"nvidia/a100/80Gi/SXM4",
		"nvidia/gt1030/2Gi/PCIe",
		"nvidia/h100/80Gi/SXM5",
		"nvidia/h200/141Gi/SXM5",
		"nvidia/pro6000se/96Gi/PCIe",
		"nvidia/pro6000we/96Gi/PCIe",
		"nvidia/rtx2000eada/16Gi/PCIe",
		"nvidia/rtx4000sada/20Gi/PCIe",
		"nvidia/rtx4090/24Gi/PCIe",
		"nvidia/v100/16Gi/SXM2",
		"nvidia/v100/32Gi/PCIe",
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
	assert_int_equal(run.skipped, 2);
	/* rtx2000eada: no catalogue name for it; kept raw, counted. */
	assert_int_equal(run.unknown_gpu, 1);
	assert_string_equal(run.note, "2 models without a price skipped");
	/* Every price 0 (no bid) and a null price: no offer. */
	assert_null(harness_offer_find(&run, "nvidia/gtx1070ti/8Gi/PCIe"));
	assert_null(harness_offer_find(&run, "nvidia/rtx3090/24Gi/PCIe"));

	check_offer(&run, "nvidia/a100/80Gi/SXM4", "a100 80Gi SXM4",
	    "A100-80", "a100", 80, IC_NVLINK, 1080000, 1080000, AV_AVAILABLE);
	check_offer(&run, "nvidia/gt1030/2Gi/PCIe", "gt1030 2Gi PCIe",
	    "GT1030", "gt1030", 2, IC_PCIE, 120000, 120000, AV_AVAILABLE);
	/* weightedAverage, not avg or med; min kept as "from". */
	check_offer(&run, "nvidia/h100/80Gi/SXM5", "h100 80Gi SXM5", "H100",
	    "h100", 80, IC_NVLINK, 1290000, 1180000, AV_AVAILABLE);
	check_offer(&run, "nvidia/h200/141Gi/SXM5", "h200 141Gi SXM5", "H200",
	    "h200", 141, IC_NVLINK, 3020000, 2900000, AV_AVAILABLE);
	/* The mapping table: Akash's shorthands. */
	check_offer(&run, "nvidia/pro6000se/96Gi/PCIe", "pro6000se 96Gi PCIe",
	    "RTXPRO6000", "pro6000se", 96, IC_PCIE, 1630000, 1630000,
	    AV_AVAILABLE);
	/* 0 of 1 available. */
	check_offer(&run, "nvidia/pro6000we/96Gi/PCIe", "pro6000we 96Gi PCIe",
	    "RTXPRO6000", "pro6000we", 96, IC_PCIE, 1510000, 1510000,
	    AV_UNAVAILABLE);
	check_offer(&run, "nvidia/rtx2000eada/16Gi/PCIe",
	    "rtx2000eada 16Gi PCIe", "", "rtx2000eada", 16, IC_PCIE, 150000,
	    150000, AV_AVAILABLE);
	check_offer(&run, "nvidia/rtx4000sada/20Gi/PCIe",
	    "rtx4000sada 20Gi PCIe", "RTX4000-Ada", "rtx4000sada", 20,
	    IC_PCIE, 360000, 360000, AV_AVAILABLE);
	check_offer(&run, "nvidia/rtx4090/24Gi/PCIe", "rtx4090 24Gi PCIe",
	    "RTX4090", "rtx4090", 24, IC_PCIE, 400000, 170000, AV_AVAILABLE);
	/* v100 twice: memory and interface tell them apart. */
	check_offer(&run, "nvidia/v100/16Gi/SXM2", "v100 16Gi SXM2", "V100-16",
	    "v100", 16, IC_NVLINK, 210000, 210000, AV_AVAILABLE);
	check_offer(&run, "nvidia/v100/32Gi/PCIe", "v100 32Gi PCIe", "V100-32",
	    "v100", 32, IC_PCIE, 290000, 290000, AV_AVAILABLE);
	provider_run_done(&run);
}

/* One GET, conditional (a whole document), at the override's origin. */
static void
test_requests(void **state)
{
	struct provider_run run;
	struct harness_log log = { 0 };
	struct err err;

	(void)state;
	assert_int_equal(run_routes(&run, good_routes, 1, NULL,
	    "http://127.0.0.1:8125/", &log, &err), 0);
	assert_int_equal(log.n, 1);
	assert_string_equal(log.url[0], "http://127.0.0.1:8125" PRICES);
	assert_string_equal(log.method[0], "GET");
	assert_string_equal(log.headers[0], "Accept: application/json\n");
	assert_int_equal(log.conditional[0], 'c');
	harness_log_free(&log);
	provider_run_done(&run);

	assert_int_equal(run_routes(&run, good_routes, 1, NULL, NULL, &log,
	    &err), 0);
	assert_string_equal(log.url[0],
	    "https://console-api.akash.network/v1/gpu-prices");
	harness_log_free(&log);
	provider_run_done(&run);
}

/* Run body alone; the offers it gives (n), or -1 with err. */
static int
run_body(const char *body, struct provider_run *run, struct err *err)
{
	static const struct harness_route all[] = {
		{ PRICES, NULL, "body.json", 0 },
	};
	char *dir = harness_tmp_dir("body.json", body);
	int rc;

	rc = run_routes(run, all, 1, dir, NULL, NULL, err);
	harness_tmp_dir_free(dir);
	return rc;
}

static void
expect_error(const char *body, const char *want)
{
	struct provider_run run;
	struct err err;

	assert_int_equal(run_body(body, &run, &err), -1);
	if (strstr(err.msg, want) == NULL)
		fail_msg("%s: \"%s\" does not contain \"%s\"", body, err.msg,
		    want);
	assert_true(str_is_clean(err.msg));
	provider_run_done(&run);
}

#define MODEL(fields)							\
	"{\"models\": [{\"vendor\": \"nvidia\", \"model\": \"h100\", "	\
	"\"ram\": \"80Gi\", \"interface\": \"SXM5\", " fields "}]}"
#define AVAIL	"\"availability\": {\"total\": 8, \"available\": 8}"

static void
test_bad_bodies(void **state)
{
	(void)state;
	expect_error("", "empty");
	expect_error("<html><body>502 Bad Gateway</body></html>", "HTML");
	expect_error("{\"models\": [{\"vendor\"", "");
	expect_error("[]", "expected a JSON object");
	expect_error("{\"availability\": {\"total\": 0}}", "models");
	expect_error("{\"models\": {}}", "models");
	expect_error("{\"models\": [7]}", "models[0]: expected an object");
	expect_error("{\"models\": [{\"model\": \"h100\", \"ram\": \"80Gi\", "
	    "\"interface\": \"SXM5\"}]}", "vendor");
	expect_error("{\"models\": [{\"vendor\": \"nvidia\", \"model\": "
	    "\"\\u001b\", \"ram\": \"80Gi\", \"interface\": \"SXM5\"}]}",
	    "model: empty");
	expect_error(MODEL("\"price\": 1.25"), "price: expected an object");
	expect_error(MODEL("\"price\": {\"weightedAverage\": -1}"),
	    "weightedAverage");
	expect_error(MODEL("\"price\": {\"weightedAverage\": \"x\"}"),
	    "weightedAverage");
	expect_error(MODEL("\"price\": {\"weightedAverage\": 250}"),
	    "absurd");
	expect_error(MODEL("\"price\": {\"min\": -2, \"weightedAverage\": 1}"),
	    "min");
	expect_error(MODEL("\"price\": {\"weightedAverage\": 1}, "
	    "\"availability\": {\"available\": -3}"), "available");
	expect_error(MODEL("\"price\": {\"weightedAverage\": 1}, "
	    "\"availability\": 4"), "availability");
}

/* What is not an offer with a price is skipped, never stored. */
static void
test_not_offers(void **state)
{
	struct provider_run run;
	struct err err;
	const struct offer *o;

	(void)state;
	/* No weightedAverage, or another currency: not a USD price. */
	assert_int_equal(run_body("{\"models\": ["
	    "{\"vendor\": \"nvidia\", \"model\": \"h100\", \"ram\": \"80Gi\", "
	    "\"interface\": \"SXM5\", \"price\": {\"min\": 1}}, "
	    "{\"vendor\": \"nvidia\", \"model\": \"a100\", \"ram\": \"80Gi\", "
	    "\"interface\": \"PCIe\", \"price\": {\"currency\": \"EUR\", "
	    "\"weightedAverage\": 1}}, "
	    "{\"vendor\": \"nvidia\", \"model\": \"t4\", \"ram\": \"16Gi\", "
	    "\"interface\": \"PCIe\", \"price\": {\"min\": 2, "
	    "\"weightedAverage\": 0.5}}]}", &run, &err), 0);
	assert_int_equal(run.offers.n, 1);
	assert_int_equal(run.skipped, 2);
	assert_string_equal(run.note, "1 model without a price skipped; "
	    "1 model priced in another currency skipped");
	/* A min above the price is no "from"; no availability: unknown. */
	o = harness_offer(&run, "nvidia/t4/16Gi/PCIe");
	assert_string_equal(o->gpu, "T4");
	assert_int_equal(o->price, 500000);
	assert_int_equal(o->price_from, MONEY_NONE);
	assert_int_equal(o->availability, AV_UNKNOWN);
	provider_run_done(&run);
}

/* Escapes in every name never reach an offer. */
static void
test_hostile_strings(void **state)
{
	struct provider_run run;
	struct err err;
	const struct offer *o;

	(void)state;
	assert_int_equal(run_body("{\"models\": [{\"vendor\": "
	    "\"nvi\\u001b[2Jdia\", \"model\": \"h1\\u001b]0;pwn\\u000700\", "
	    "\"ram\": \"80Gi\\u009b\", \"interface\": \"SX\\u0007M5\", "
	    "\"price\": {\"weightedAverage\": 1.5}}]}", &run, &err), 0);
	assert_int_equal(run.offers.n, 1);
	o = &run.offers.v[0];
	assert_true(str_is_clean(o->key));
	assert_true(str_is_clean(o->instance_type));
	assert_true(str_is_clean(o->gpu_raw));
	assert_true(str_is_clean(o->region));
	provider_run_done(&run);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_requests),
		cmocka_unit_test(test_bad_bodies),
		cmocka_unit_test(test_not_offers),
		cmocka_unit_test(test_hostile_strings),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
