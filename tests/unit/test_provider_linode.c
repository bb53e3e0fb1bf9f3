/* test_provider_linode.c: the Akamai/Linode adapter on fixture files. */
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

extern const struct provider provider_linode;

#define NOW	1767225600	/* 2026-01-01 */

static const struct harness_route good_routes[] = {
	{ "/v4/linode/types?page=1&", NULL, "types.json", 0 },
	{ "/v4/regions?page=1&", NULL, "regions.json", 0 },
	{ "/v4/regions/availability?page=1&", NULL, "availability-1.json", 0 },
	{ "/v4/regions/availability?page=2&", NULL, "availability-2.json", 0 },
};
#define NGOOD	(sizeof good_routes / sizeof good_routes[0])

static int
run_routes(struct provider_run *run, const struct harness_route *routes,
    size_t nroutes, const char *dir, const char *base_url,
    struct harness_log *log, struct err *err)
{
	provider_run_init(run, &provider_linode);
	run->base_url = base_url;
	run->now = NOW;
	err_clear(err);
	return harness_run(&provider_linode, run, routes, nroutes, dir, 0, log,
	    err);
}

static void
check_offer(const struct offer *o, const char *type, const char *region,
    const char *gpu, int count, int vram, int64_t price, int vcpus,
    double ram, enum availability av)
{
	assert_string_equal(o->provider, "linode");
	assert_string_equal(o->instance_type, type);
	assert_string_equal(o->region, region);
	assert_string_equal(o->gpu, gpu);
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

/* Every GPU plan in every region selling GPUs, and nothing else. */
static void
test_parse(void **state)
{
	static const char *const plans[] = {
		"g1-gpu-rtx6000-1", "g1-gpu-rtx6000-2", "g2-gpu-rtx4000a1-s",
		"g2-gpu-rtx4000a4-m", "g3-gpu-rtxpro6000-blackwell-1",
	};
	static const char *const regions[] = { "de-fra-2", "in-maa", "us-ord" };
	struct provider_run run;
	struct err err;
	char key[OFFER_KEY_MAX];
	size_t i, j;

	(void)state;
	assert_int_equal(run_routes(&run, good_routes, NGOOD, NULL, NULL, NULL,
	    &err), 0);
	assert_int_equal(run.offers.n, 15);
	for (i = 0; i < 5; i++)
		for (j = 0; j < 3; j++) {
			snprintf(key, sizeof key, "%s/%s", plans[i], regions[j]);
			(void)harness_offer(&run, key);
		}
	/* CPU plans, the VPU plan; regions without GPUs give nothing. */
	assert_null(harness_offer_find(&run, "g6-nanode-1/us-ord"));
	assert_null(harness_offer_find(&run, "g2-gpu-rtx4000a1-s/au-mel"));
	assert_null(harness_offer_find(&run, "g2-gpu-rtx4000a1-s/br-gru"));
	assert_int_equal(run.skipped, 3);
	assert_int_equal(run.unknown_gpu, 0);
	assert_string_equal(run.note, "3 plans without GPUs skipped");

	/* The Quadro RTX 6000 (24 GB), never the RTX 6000 Ada. */
	check_offer(harness_offer(&run, "g1-gpu-rtx6000-1/us-ord"),
	    "g1-gpu-rtx6000-1", "us-ord", "QRTX6000", 1, 24, 1500000, 8, 32,
	    AV_UNAVAILABLE);
	check_offer(harness_offer(&run, "g1-gpu-rtx6000-2/de-fra-2"),
	    "g1-gpu-rtx6000-2", "de-fra-2", "QRTX6000", 2, 24, 3000000, 16,
	    64, AV_UNKNOWN);
	/* region_prices: in-maa's own price; elsewhere the base. */
	check_offer(harness_offer(&run, "g2-gpu-rtx4000a1-s/in-maa"),
	    "g2-gpu-rtx4000a1-s", "in-maa", "RTX4000-Ada", 1, 20, 620000, 4,
	    16, AV_UNAVAILABLE);
	check_offer(harness_offer(&run, "g2-gpu-rtx4000a1-s/de-fra-2"),
	    "g2-gpu-rtx4000a1-s", "de-fra-2", "RTX4000-Ada", 1, 20, 520000, 4,
	    16, AV_AVAILABLE);
	check_offer(harness_offer(&run, "g2-gpu-rtx4000a1-s/us-ord"),
	    "g2-gpu-rtx4000a1-s", "us-ord", "RTX4000-Ada", 1, 20, 520000, 4,
	    16, AV_AVAILABLE);
	/* The count is gpus, not the id's digits; page 2 of the stock. */
	check_offer(harness_offer(&run, "g2-gpu-rtx4000a4-m/de-fra-2"),
	    "g2-gpu-rtx4000a4-m", "de-fra-2", "RTX4000-Ada", 4, 20, 2960000,
	    48, 192, AV_UNAVAILABLE);
	check_offer(harness_offer(&run, "g3-gpu-rtxpro6000-blackwell-1/us-ord"),
	    "g3-gpu-rtxpro6000-blackwell-1", "us-ord", "RTXPRO6000", 1, 96,
	    2500000, 16, 128, AV_AVAILABLE);
	/* A stock row with a plan id no type has changes nothing. */
	check_offer(harness_offer(&run, "g3-gpu-rtxpro6000-blackwell-1/in-maa"),
	    "g3-gpu-rtxpro6000-blackwell-1", "in-maa", "RTXPRO6000", 1, 96,
	    2500000, 16, 128, AV_UNKNOWN);
	assert_int_equal(harness_offer(&run,
	    "g1-gpu-rtx6000-2/us-ord")->interconnect, IC_UNKNOWN);
	assert_int_equal(harness_offer(&run,
	    "g2-gpu-rtx4000a4-m/us-ord")->interconnect, IC_PCIE);
	provider_run_done(&run);
}

/* Three lists, every page of the stock, page 1 of each conditional. */
static void
test_requests(void **state)
{
	struct provider_run run;
	struct harness_log log = { 0 };
	struct err err;
	size_t i;

	(void)state;
	assert_int_equal(run_routes(&run, good_routes, NGOOD, NULL,
	    "http://127.0.0.1:8125/", &log, &err), 0);
	assert_int_equal(log.n, 4);
	assert_string_equal(log.url[0],
	    "http://127.0.0.1:8125/v4/linode/types?page=1&page_size=500");
	assert_string_equal(log.url[1],
	    "http://127.0.0.1:8125/v4/regions?page=1&page_size=500");
	assert_string_equal(log.url[2], "http://127.0.0.1:8125/v4/regions/"
	    "availability?page=1&page_size=500");
	assert_string_equal(log.url[3], "http://127.0.0.1:8125/v4/regions/"
	    "availability?page=2&page_size=500");
	for (i = 0; i < log.n; i++) {
		assert_string_equal(log.method[i], "GET");
		assert_string_equal(log.headers[i],
		    "Accept: application/json\n");
		assert_int_equal(log.conditional[i], i < 3 ? 'r' : 0);
	}
	harness_log_free(&log);
	provider_run_done(&run);
}

/* Every request answered with the list page body (other lists empty). */
static void
expect_error(const char *which, const char *body, const char *want)
{
	struct harness_route routes[] = {
		{ NULL, NULL, "body.json", 0 },
		{ "/v4/", NULL, "empty.json", 0 },
	};
	struct provider_run run;
	struct err err;
	char *dir = harness_tmp_dir("body.json", body);

	harness_tmp_file(dir, "empty.json",
	    "{\"data\": [], \"page\": 1, \"pages\": 1, \"results\": 0}");
	routes[0].url_has = which;
	assert_int_equal(run_routes(&run, routes, 2, dir, NULL, NULL, &err),
	    -1);
	if (strstr(err.msg, want) == NULL)
		fail_msg("%s: \"%s\" does not contain \"%s\"", body, err.msg,
		    want);
	assert_true(str_is_clean(err.msg));
	provider_run_done(&run);
	harness_tmp_dir_free(dir);
}

#define TYPES	"/v4/linode/types?"
#define GPU_PLAN(fields)						\
	"{\"data\": [{\"id\": \"g1-gpu-rtx6000-1\", \"class\": \"gpu\", "	\
	"\"gpus\": 1, \"vcpus\": 8, \"memory\": 32768, " fields "}], "	\
	"\"page\": 1, \"pages\": 1}"

static void
test_bad_bodies(void **state)
{
	(void)state;
	expect_error(TYPES, "", "empty");
	expect_error(TYPES, "<html><body>502 Bad Gateway</body></html>",
	    "HTML");
	expect_error(TYPES, "{\"data\": [{\"id\": \"g1", "");
	expect_error(TYPES, "{\"data\": {}}", "data: expected an array");
	expect_error(TYPES, "{\"errors\": [{\"reason\": \"Not found\"}]}",
	    "data");
	expect_error(TYPES, GPU_PLAN("\"price\": {\"hourly\": -1.5}"),
	    "hourly");
	expect_error(TYPES, GPU_PLAN("\"price\": {\"hourly\": \"NaN\"}"),
	    "hourly");
	expect_error(TYPES, GPU_PLAN("\"price\": {\"hourly\": 1e300}"),
	    "hourly");
	expect_error(TYPES, GPU_PLAN("\"price\": {\"hourly\": 9000}"),
	    "out of range");
	expect_error(TYPES, GPU_PLAN("\"price\": {\"hourly\": 1.5}, "
	    "\"region_prices\": [{\"id\": \"in-maa\", \"hourly\": -2}]"),
	    "region_prices[0].hourly");
	expect_error(TYPES, GPU_PLAN("\"price\": 1.5"), "price");
	expect_error(TYPES, "{\"data\": [{\"id\": \"x\", \"class\": \"gpu\", "
	    "\"gpus\": 1000000}]}", "gpus");
	expect_error(TYPES, "{\"data\": [{\"id\": \"\", \"class\": \"gpu\", "
	    "\"gpus\": 1}]}", "id");
	expect_error(TYPES, "{\"data\": [5]}", "expected an object");
	expect_error("/v4/regions?", "{\"data\": [{\"id\": \"us-ord\", "
	    "\"capabilities\": \"GPU Linodes\"}]}", "capabilities");
	expect_error("/v4/regions/availability?", "{\"data\": [{\"region\": "
	    "\"us-ord\", \"plan\": \"g1\", \"available\": \"yes\"}]}",
	    "available");
	/* A server that answers page 1 to every page is a loop. */
	expect_error("/v4/regions/availability?", "{\"data\": [], "
	    "\"page\": 1, \"pages\": 3}", "answered page 1");
}

/* A list that says it never ends is a loop, not a thousand requests. */
static void
test_paging_loop(void **state)
{
	struct harness_route routes[24];
	char url[24][48], file[24][24], body[96];
	struct provider_run run;
	struct err err;
	char *dir;
	int page;

	(void)state;
	dir = harness_tmp_dir("empty.json", "{\"data\": [], \"page\": 1, "
	    "\"pages\": 1}");
	/* Each page N is page N of 1000. */
	for (page = 1; page <= 21; page++) {
		snprintf(url[page], sizeof url[page], "/v4/linode/types?page=%d&",
		    page);
		snprintf(file[page], sizeof file[page], "types-%d.json", page);
		snprintf(body, sizeof body, "{\"data\": [], \"page\": %d, "
		    "\"pages\": 1000}", page);
		harness_tmp_file(dir, file[page], body);
		routes[page - 1] = (struct harness_route){ url[page], NULL,
		    file[page], 0 };
	}
	routes[21] = (struct harness_route){ "/v4/regions", NULL, "empty.json",
	    0 };
	assert_int_equal(run_routes(&run, routes, 22, dir, NULL, NULL, &err),
	    -1);
	assert_non_null(strstr(err.msg, "types page 20: more than 20 pages"));
	provider_run_done(&run);
	harness_tmp_dir_free(dir);
}

/* Escapes in plan ids, labels and region ids never reach an offer. */
static void
test_hostile_strings(void **state)
{
	static const struct harness_route routes[] = {
		{ "/v4/linode/types?", NULL, "types.json", 0 },
		{ "/v4/regions?", NULL, "regions.json", 0 },
		{ "/v4/regions/availability?", NULL, "empty.json", 0 },
	};
	struct provider_run run;
	struct err err;
	char *dir;

	(void)state;
	dir = harness_tmp_dir("types.json", "{\"data\": [{\"id\": "
	    "\"g9-gpu-x\\u001b]0;pwn\\u0007-1\", \"label\": \"X900\\u001b[2J "
	    "GPU x1\", \"class\": \"gpu\", \"gpus\": 1, \"vcpus\": 8, "
	    "\"memory\": 32768, \"price\": {\"hourly\": 1.5}}], \"page\": 1, "
	    "\"pages\": 1}");
	harness_tmp_file(dir, "regions.json", "{\"data\": [{\"id\": "
	    "\"us-\\u009b2Jord\", \"capabilities\": [\"GPU Linodes\"]}], "
	    "\"page\": 1, \"pages\": 1}");
	harness_tmp_file(dir, "empty.json", "{\"data\": [], \"page\": 1, "
	    "\"pages\": 1}");
	assert_int_equal(run_routes(&run, routes, 3, dir, NULL, NULL, &err),
	    0);
	assert_int_equal(run.offers.n, 1);
	assert_int_equal(run.unknown_gpu, 1);
	assert_true(str_is_clean(run.offers.v[0].key));
	assert_true(str_is_clean(run.offers.v[0].instance_type));
	assert_true(str_is_clean(run.offers.v[0].region));
	assert_true(str_is_clean(run.offers.v[0].gpu_raw));
	assert_string_equal(run.offers.v[0].gpu, "");
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
		cmocka_unit_test(test_paging_loop),
		cmocka_unit_test(test_hostile_strings),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
