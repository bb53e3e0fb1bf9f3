/* test_provider_scaleway.c: the Scaleway adapter on fixture files. */
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
#include <unistd.h>

#include "adapter_harness.h"
#include "err.h"
#include "money.h"
#include "offer.h"
#include "provider.h"
#include "str.h"

extern const struct provider provider_scaleway;

#define NOW	1767225600	/* 2026-01-01 */
#define RATE	1080000		/* 1.08 USD per EUR */

#define ZONE(z)	"/instance/v1/zones/" z "/products/"

/* Both lists of every zone; fr-par-2 has two pages of each. */
static const struct harness_route good_routes[] = {
	{ ZONE("fr-par-2") "servers?per_page=100&page=1", NULL,
	    "servers-fr-par-2-1.json", 0 },
	{ ZONE("fr-par-2") "servers?per_page=100&page=2", NULL,
	    "servers-fr-par-2-2.json", 0 },
	{ ZONE("fr-par-2") "servers/availability?per_page=100&page=1", NULL,
	    "availability-fr-par-2-1.json", 0 },
	{ ZONE("fr-par-2") "servers/availability?per_page=100&page=2", NULL,
	    "availability-fr-par-2-2.json", 0 },
	{ ZONE("fr-par-1") "servers?", NULL, "servers-fr-par-1-1.json", 0 },
	{ ZONE("fr-par-1") "servers/availability?", NULL,
	    "availability-fr-par-1-1.json", 0 },
	{ ZONE("pl-waw-2") "servers?", NULL, "servers-pl-waw-2-1.json", 0 },
	{ ZONE("pl-waw-2") "servers/availability?", NULL,
	    "availability-pl-waw-2-1.json", 0 },
	{ "/products/servers", NULL, "empty.json", 0 },
};
#define NGOOD	(sizeof good_routes / sizeof good_routes[0])

static int
run_routes(struct provider_run *run, const struct harness_route *routes,
    size_t nroutes, const char *dir, const char *base_url, int64_t rate,
    struct harness_log *log, struct err *err)
{
	provider_run_init(run, &provider_scaleway);
	run->base_url = base_url;
	run->usd_per_eur = rate;
	run->now = NOW;
	err_clear(err);
	return harness_run(&provider_scaleway, run, routes, nroutes, dir, 0,
	    log, err);
}

/* price_eur in micro-EUR; the USD price is checked at RATE. */
static void
check_offer(const struct offer *o, const char *type, const char *zone,
    const char *gpu, const char *gpu_raw, int count, int vram,
    enum interconnect ic, int64_t price_eur, int vcpus, double ram,
    enum availability av)
{
	assert_string_equal(o->provider, "scaleway");
	assert_string_equal(o->instance_type, type);
	assert_string_equal(o->region, zone);
	assert_string_equal(o->gpu, gpu);
	assert_string_equal(o->gpu_raw, gpu_raw);
	assert_int_equal(o->gpu_count, count);
	assert_int_equal(o->vram_gb, vram);
	assert_int_equal(o->interconnect, ic);
	assert_string_equal(o->currency, "EUR");
	assert_int_equal(o->price_original, price_eur);
	assert_int_equal(o->price, (price_eur * 108 + 50) / 100);
	assert_int_equal(o->spot_price, MONEY_NONE);
	assert_int_equal(o->vcpus, vcpus);
	assert_true(fabs(o->ram_gb - ram) < 1e-9);
	assert_int_equal(o->availability, av);
	assert_int_equal(o->fetched_at, NOW);
	assert_int_equal(o->source, SRC_LIVE);
}

/* Every offer the fixtures describe, and nothing else. */
static void
test_parse(void **state)
{
	static const char *const keys[] = {
		"B300-SXM-8-288G/fr-par-2", "GPU-3070-S/fr-par-2",
		"H100-1-80G/fr-par-2", "H100-2-80G/fr-par-2",
		"H100-SXM-8-80G/fr-par-2", "L4-1-24G/fr-par-2",
		"L40S-1-48G/fr-par-2", "L40S-8-48G/fr-par-2",
		"RENDER-S/fr-par-2", "L4-1-24G/fr-par-1", "RENDER-S/fr-par-1",
		"H100-1-80G/pl-waw-2", "L4-1-24G/pl-waw-2",
		"L40S-1-48G/pl-waw-2",
	};
	struct provider_run run;
	struct err err;
	size_t i;

	(void)state;
	assert_int_equal(run_routes(&run, good_routes, NGOOD, NULL, NULL, RATE,
	    NULL, &err), 0);
	assert_int_equal(run.offers.n, sizeof keys / sizeof keys[0]);
	for (i = 0; i < sizeof keys / sizeof keys[0]; i++)
		(void)harness_offer(&run, keys[i]);
	/* 91 + 1 CPU types in fr-par-2, 1 in fr-par-1 and pl-waw-2. */
	assert_int_equal(run.skipped, 95);
	assert_int_equal(run.unknown_gpu, 1);
	assert_string_equal(run.note,
	    "94 CPU types skipped; 1 MIG slice skipped");

	check_offer(harness_offer(&run, "B300-SXM-8-288G/fr-par-2"), "B300-SXM-8-288G",
	    "fr-par-2", "B300", "B300-SXM", 8, 288, IC_NVLINK, 60000000, 224,
	    3840, AV_UNAVAILABLE);
	check_offer(harness_offer(&run, "H100-1-80G/fr-par-2"), "H100-1-80G",
	    "fr-par-2", "H100", "H100-PCIe", 1, 80, IC_PCIE, 2866500, 24, 240,
	    AV_AVAILABLE);
	check_offer(harness_offer(&run, "H100-SXM-8-80G/fr-par-2"), "H100-SXM-8-80G",
	    "fr-par-2", "H100", "H100-SXM", 8, 80, IC_NVLINK, 25330800, 128,
	    960, AV_AVAILABLE);
	check_offer(harness_offer(&run, "L40S-8-48G/fr-par-2"), "L40S-8-48G",
	    "fr-par-2", "L40S", "L40S", 8, 48, IC_PCIE, 11759328, 64, 768,
	    AV_UNAVAILABLE);
	/* Page 2 of both lists: the P100 is in stock. */
	check_offer(harness_offer(&run, "RENDER-S/fr-par-2"), "RENDER-S", "fr-par-2",
	    "P100", "P100", 1, 16, IC_UNKNOWN, 1221000, 10, 42, AV_AVAILABLE);
	/* Unknown GPU: kept with its raw name and its memory; scarce. */
	check_offer(harness_offer(&run, "GPU-3070-S/fr-par-2"), "GPU-3070-S",
	    "fr-par-2", "", "RTX-3070X", 1, 8, IC_UNKNOWN, 980000, 8, 16,
	    AV_LIMITED);
	/* Stock is per zone; a type the map omits is unknown. */
	check_offer(harness_offer(&run, "L4-1-24G/fr-par-1"), "L4-1-24G", "fr-par-1",
	    "L4", "L4", 1, 24, IC_PCIE, 787500, 8, 48, AV_UNAVAILABLE);
	check_offer(harness_offer(&run, "RENDER-S/fr-par-1"), "RENDER-S", "fr-par-1",
	    "P100", "P100", 1, 16, IC_UNKNOWN, 1221000, 10, 42, AV_UNKNOWN);
	/* Prices are per zone too. */
	check_offer(harness_offer(&run, "L40S-1-48G/pl-waw-2"), "L40S-1-48G",
	    "pl-waw-2", "L40S", "L40S", 1, 48, IC_PCIE, 1520000, 8, 96,
	    AV_UNAVAILABLE);
	check_offer(harness_offer(&run, "H100-1-80G/pl-waw-2"), "H100-1-80G",
	    "pl-waw-2", "H100", "H100-PCIe", 1, 80, IC_PCIE, 2866500, 24, 240,
	    AV_LIMITED);
	provider_run_done(&run);
}

/* Every zone, both lists; a full first page brings page 2 only there. */
static void
test_requests(void **state)
{
	struct provider_run run;
	struct harness_log log = { 0 };
	struct err err;
	size_t i, page2 = 0;

	(void)state;
	assert_int_equal(run_routes(&run, good_routes, NGOOD, NULL,
	    "http://127.0.0.1:8125", RATE, &log, &err), 0);
	assert_int_equal(log.n, 9 * 2 + 2);
	assert_string_equal(log.url[0], "http://127.0.0.1:8125/instance/v1/"
	    "zones/fr-par-1/products/servers?per_page=100&page=1");
	assert_string_equal(log.url[1], "http://127.0.0.1:8125/instance/v1/"
	    "zones/fr-par-1/products/servers/availability?per_page=100&page=1");
	assert_string_equal(log.url[17], "http://127.0.0.1:8125/instance/v1/"
	    "zones/pl-waw-3/products/servers/availability?per_page=100&page=1");
	for (i = 0; i < log.n; i++) {
		assert_string_equal(log.method[i], "GET");
		assert_string_equal(log.headers[i],
		    "Accept: application/json\n");
		assert_non_null(strstr(log.url[i], "http://127.0.0.1:8125/"));
		if (strstr(log.url[i], "&page=2") != NULL) {
			assert_non_null(strstr(log.url[i], "/fr-par-2/"));
			page2++;
		}
	}
	assert_int_equal(page2, 2);
	harness_log_free(&log);
	provider_run_done(&run);
}

/* The rate is applied, rounded half away from zero; no rate, no run. */
static void
test_rate(void **state)
{
	struct provider_run run;
	struct err err;
	const struct offer *o;

	(void)state;
	assert_int_equal(run_routes(&run, good_routes, NGOOD, NULL, NULL,
	    1038900, NULL, &err), 0);
	o = harness_offer(&run, "H100-1-80G/fr-par-2");
	/* 2.8665 EUR x 1.0389 = 2.97800685 USD. */
	assert_int_equal(o->price, 2978007);
	assert_int_equal(o->price_original, 2866500);
	provider_run_done(&run);

	assert_int_equal(run_routes(&run, good_routes, NGOOD, NULL, NULL, 0,
	    NULL, &err), -1);
	assert_non_null(strstr(err.msg, "no USD per EUR rate"));
	provider_run_done(&run);
}

/* Every request is answered with body; the run fails with want. */
static void
expect_error(const char *body, const char *want)
{
	static const struct harness_route all[] = {
		{ "/products/servers", NULL, "body.json", 0 },
	};
	struct provider_run run;
	struct err err;
	char *dir = harness_tmp_dir("body.json", body);

	assert_int_equal(run_routes(&run, all, 1, dir, NULL, RATE, NULL,
	    &err), -1);
	if (strstr(err.msg, want) == NULL)
		fail_msg("%s: \"%s\" does not contain \"%s\"", body, err.msg,
		    want);
	assert_true(str_is_clean(err.msg));
	provider_run_done(&run);
	harness_tmp_dir_free(dir);
}

#define GPU_TYPE(fields)						\
	"{\"servers\": {\"H100-1-80G\": {\"ncpus\": 24, \"ram\": 1, "	\
	"\"gpu\": 1, \"gpu_info\": {\"gpu_name\": \"H100-PCIe\", "	\
	"\"gpu_memory\": 85899345920}, \"mig_profile\": null, " fields "}}}"

static void
test_bad_bodies(void **state)
{
	(void)state;
	expect_error("", "empty");
	expect_error("<html><body>502 Bad Gateway</body></html>", "HTML");
	expect_error("{\"servers\": {\"H100-1-80G\": {\"gpu\": 1", "");
	expect_error("{\"servers\": []}", "servers: expected an object");
	expect_error("{}", "servers");
	expect_error(GPU_TYPE("\"hourly_price\": -2.8"), "hourly_price");
	expect_error(GPU_TYPE("\"hourly_price\": \"NaN\""), "hourly_price");
	expect_error(GPU_TYPE("\"hourly_price\": 1e300"), "hourly_price");
	expect_error(GPU_TYPE("\"hourly_price\": 9000"), "out of range");
	expect_error(GPU_TYPE("\"hourly_price\": \"2.8\\u001b[2J\""),
	    "hourly_price");
	expect_error("{\"servers\": {\"X\": {\"gpu\": 1000000, "
	    "\"hourly_price\": 1}}}", "gpu");
	expect_error("{\"servers\": {\"X\": {\"gpu\": 2, \"gpu_info\": 7, "
	    "\"hourly_price\": 1}}}", "gpu_info");
	expect_error("{\"servers\": {\"X\": {\"gpu\": 2, \"gpu_info\": "
	    "{\"gpu_name\": \"\"}, \"hourly_price\": 1}}}", "gpu_name");
	expect_error("{\"servers\": {\"H100-1-80G\": 5}}",
	    "expected an object");
	/* Both lists are parsed: a broken availability entry fails too. */
	expect_error("{\"servers\": {\"L4-1-24G\": {\"availability\": 3}}}",
	    "availability");
}

/* A page of 100 types every time is a paging loop, not 20 000 types. */
static void
test_paging_loop(void **state)
{
	char *body, *p;
	size_t i, len = 0, cap = 100 * 64 + 64;
	struct harness_route all[] = {
		{ "/products/servers", NULL, "body.json", 0 },
	};
	struct provider_run run;
	struct err err;
	char *dir;

	(void)state;
	body = p = malloc(cap);
	assert_non_null(body);
	len += (size_t)snprintf(p + len, cap - len, "{\"servers\": {");
	for (i = 0; i < 100; i++)
		len += (size_t)snprintf(p + len, cap - len,
		    "%s\"CPU-%03zu\": {\"gpu\": 0, \"hourly_price\": 0.1}",
		    i ? ", " : "", i);
	snprintf(p + len, cap - len, "}}");
	dir = harness_tmp_dir("body.json", body);
	free(body);
	assert_int_equal(run_routes(&run, all, 1, dir, NULL, RATE, NULL,
	    &err), -1);
	assert_non_null(strstr(err.msg, "more than 20 full pages"));
	provider_run_done(&run);
	harness_tmp_dir_free(dir);
}

/* Escapes in type names and GPU names never reach an offer. */
static void
test_hostile_strings(void **state)
{
	struct provider_run run;
	struct err err;
	char *dir;
	static const struct harness_route all[] = {
		{ "/products/servers/availability", NULL, "empty.json", 0 },
		{ "/products/servers", NULL, "body.json", 0 },
	};

	(void)state;
	dir = harness_tmp_dir("body.json", "{\"servers\": {\"L4\\u001b]0;pwn\\u0007-1\": {"
	    "\"gpu\": 1, \"ncpus\": 8, \"ram\": 0, \"gpu_info\": "
	    "{\"gpu_name\": \"L4\\u001b[2J\", \"gpu_memory\": 0}, "
	    "\"mig_profile\": null, \"hourly_price\": 0.7875}}}");
	harness_tmp_file(dir, "empty.json", "{\"servers\": {}}");
	assert_int_equal(run_routes(&run, all, 2, dir, NULL, RATE, NULL,
	    &err), 0);
	assert_int_equal(run.offers.n, 9);
	assert_true(str_is_clean(run.offers.v[0].key));
	assert_true(str_is_clean(run.offers.v[0].instance_type));
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
		cmocka_unit_test(test_rate),
		cmocka_unit_test(test_bad_bodies),
		cmocka_unit_test(test_paging_loop),
		cmocka_unit_test(test_hostile_strings),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
