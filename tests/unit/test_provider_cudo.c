/* test_provider_cudo.c: the Cudo Compute adapter on fixture files. */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "adapter_harness.h"
#include "err.h"
#include "money.h"
#include "offer.h"
#include "provider.h"
#include "str.h"

extern const struct provider provider_cudo;

#define NOW	1767225600	/* 2026-01-01 */

static const struct harness_route good_routes[] = {
	{ "/v1/vms/machine-types", NULL, "machine-types.json", 0 },
};

static int
run_routes(struct provider_run *run, const struct harness_route *routes,
    size_t nroutes, const char *dir, const char *base_url,
    struct harness_log *log, struct err *err)
{
	provider_run_init(run, &provider_cudo);
	run->base_url = base_url;
	run->now = NOW;
	err_clear(err);
	return harness_run(&provider_cudo, run, routes, nroutes, dir, 0, log,
	    err);
}

static void
check_offer(const struct offer *o, const char *type, const char *dc,
    const char *gpu, const char *gpu_raw, int count, int vram,
    enum interconnect ic, int64_t price, int vcpus, double ram,
    enum availability av)
{
	assert_string_equal(o->provider, "cudo");
	assert_string_equal(o->instance_type, type);
	assert_string_equal(o->region, dc);
	assert_string_equal(o->gpu, gpu);
	assert_string_equal(o->gpu_raw, gpu_raw);
	assert_int_equal(o->gpu_count, count);
	assert_int_equal(o->vram_gb, vram);
	assert_int_equal(o->interconnect, ic);
	assert_int_equal(o->price, price);
	assert_int_equal(o->spot_price, MONEY_NONE);
	assert_string_equal(o->currency, "USD");
	assert_int_equal(o->vcpus, vcpus);
	assert_true(fabs(o->ram_gb - ram) < 1e-9);
	assert_int_equal(o->availability, av);
	assert_int_equal(o->fetched_at, NOW);
	assert_int_equal(o->source, SRC_LIVE);
}

/* Every offer the fixture describes, and nothing else. */
static void
test_parse(void **state)
{
	static const char *const keys[] = {
		"cascade-lake/br-saopaulo-1/1", "cascade-lake/br-saopaulo-1/2",
		"cascade-lake/br-saopaulo-1/4", "cascade-lake/br-saopaulo-1/8",
		"epyc-rome-rtx-a5000/no-luster-1/1",
		"epyc-rome-rtx-a5000/no-luster-1/2",
		"epyc-rome-rtx-a5000/no-luster-1/4",
		"epyc-rome-rtx-a5000/no-luster-1/8",
		"sapphire-rapids-h100/se-smedjebacken-1/1",
		"sapphire-rapids-h100/se-smedjebacken-1/2",
		"sapphire-rapids-h100/se-smedjebacken-1/4",
		"sapphire-rapids-h100/se-smedjebacken-1/8",
		"epyc-milan-a100-80gb/us-santaclara-1/2",
		"epyc-milan-a100-80gb/us-santaclara-1/4",
		"ice-lake-x9/gb-bournemouth-1/1",
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
	assert_int_equal(run.skipped, 3);
	assert_int_equal(run.unknown_gpu, 1);
	assert_string_equal(run.note, "1 CPU type skipped; "
	    "1 GPU type without a price skipped; "
	    "1 GPU type without a count of 1, 2, 4 or 8 skipped");

	/* 0.05 + 1 vCPU x 0.0025 + 1 GiB x 0.0038; 5 GPUs free on a host. */
	check_offer(harness_offer(&run, "cascade-lake/br-saopaulo-1/1"), "cascade-lake",
	    "br-saopaulo-1", "RTX3080", "RTX 3080", 1, 10, IC_PCIE, 56300,
	    1, 1, AV_AVAILABLE);
	check_offer(harness_offer(&run, "cascade-lake/br-saopaulo-1/8"), "cascade-lake",
	    "br-saopaulo-1", "RTX3080", "RTX 3080", 8, 10, IC_PCIE, 450400,
	    8, 8, AV_UNAVAILABLE);
	/* 7.72 GiB at most 1.036437 vCPU per GiB rounds up to 8 GiB. */
	check_offer(harness_offer(&run, "epyc-rome-rtx-a5000/no-luster-1/8"),
	    "epyc-rome-rtx-a5000", "no-luster-1", "A5000", "RTX A5000", 8, 24,
	    IC_UNKNOWN, 4204000, 8, 8, AV_UNAVAILABLE);
	check_offer(harness_offer(&run, "epyc-rome-rtx-a5000/no-luster-1/4"),
	    "epyc-rome-rtx-a5000", "no-luster-1", "A5000", "RTX A5000", 4, 24,
	    IC_UNKNOWN, 2102000, 4, 4, AV_AVAILABLE);
	/* 12 vCPUs per GPU, 4 GiB per vCPU; "Infinity" and prices[] read. */
	check_offer(harness_offer(&run, "sapphire-rapids-h100/se-smedjebacken-1/8"),
	    "sapphire-rapids-h100", "se-smedjebacken-1", "H100", "H100 SXM", 8,
	    80, IC_NVLINK, 20560000, 96, 384, AV_AVAILABLE);
	check_offer(harness_offer(&run, "sapphire-rapids-h100/se-smedjebacken-1/1"),
	    "sapphire-rapids-h100", "se-smedjebacken-1", "H100", "H100 SXM", 1,
	    80, IC_NVLINK, 2570000, 12, 48, AV_AVAILABLE);
	/* minGpuPerVm 2, maxGpuPerVm 4: no 1- or 8-GPU VM; none free. */
	check_offer(harness_offer(&run, "epyc-milan-a100-80gb/us-santaclara-1/2"),
	    "epyc-milan-a100-80gb", "us-santaclara-1", "A100-80",
	    "A100 80GB PCIe", 2, 80, IC_PCIE, 2756000, 8, 16, AV_UNAVAILABLE);
	check_offer(harness_offer(&run, "epyc-milan-a100-80gb/us-santaclara-1/4"),
	    "epyc-milan-a100-80gb", "us-santaclara-1", "A100-80",
	    "A100 80GB PCIe", 4, 80, IC_PCIE, 5512000, 16, 32, AV_UNAVAILABLE);
	/* An unknown GPU is kept with its raw name, never guessed. */
	check_offer(harness_offer(&run, "ice-lake-x9/gb-bournemouth-1/1"), "ice-lake-x9",
	    "gb-bournemouth-1", "", "Quadro X9 Pro", 1, 20, IC_UNKNOWN, 306300,
	    1, 1, AV_AVAILABLE);
	provider_run_done(&run);
}

/* One GET, on the override's origin with the real path. */
static void
test_request(void **state)
{
	struct provider_run run;
	struct harness_log log = { 0 };
	struct err err;

	(void)state;
	assert_int_equal(run_routes(&run, good_routes, 1, NULL,
	    "http://127.0.0.1:8126", &log, &err), 0);
	assert_int_equal(log.n, 1);
	assert_string_equal(log.url[0],
	    "http://127.0.0.1:8126/v1/vms/machine-types");
	assert_string_equal(log.method[0], "GET");
	assert_string_equal(log.headers[0], "Accept: application/json\n");
	harness_log_free(&log);
	provider_run_done(&run);
}

static void
expect_error(const char *body, const char *want)
{
	static const struct harness_route all[] = {
		{ "/v1/vms/machine-types", NULL, "body.json", 0 },
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

#define REC(fields)							\
	"{\"machineTypes\": [{\"dataCenterId\": \"no-luster-1\", "	\
	"\"machineType\": \"epyc\", \"gpuModel\": \"RTX A5000\", " fields "}]}"
#define PRICES	"\"vcpuPriceHr\": {\"value\": \"0.0021\"}, "		\
	"\"memoryGibPriceHr\": {\"value\": \"0.0034\"}, "

static void
test_bad_bodies(void **state)
{
	(void)state;
	expect_error("", "empty");
	expect_error("<!DOCTYPE html><html>Bad Gateway</html>", "HTML");
	expect_error("{\"machineTypes\": [{\"dataCenterId\": \"x\"", "");
	expect_error("{\"machineTypes\": {}}", "machineTypes");
	expect_error("{\"data\": []}", "machineTypes");
	expect_error("{\"machineTypes\": [7]}", "expected an object");
	expect_error(REC(PRICES "\"gpuPriceHr\": {\"value\": \"-0.52\"}"),
	    "gpuPriceHr");
	expect_error(REC(PRICES "\"gpuPriceHr\": {\"value\": \"NaN\"}"),
	    "gpuPriceHr");
	expect_error(REC(PRICES "\"gpuPriceHr\": {\"value\": \"1e300\"}"),
	    "gpuPriceHr");
	expect_error(REC(PRICES "\"gpuPriceHr\": {\"value\": \"5000\"}"),
	    "out of range");
	expect_error(REC(PRICES "\"gpuPriceHr\": \"0.52\""), "gpuPriceHr");
	expect_error(REC("\"gpuPriceHr\": {\"value\": \"0.52\"}"),
	    "vcpuPriceHr");
	expect_error(REC(PRICES "\"gpuPriceHr\": {\"value\": \"0.52\"}, "
	    "\"maxGpuPerVm\": 1000000"), "maxGpuPerVm");
	expect_error(REC(PRICES "\"gpuPriceHr\": {\"value\": \"0.52\"}, "
	    "\"minVcpuPerGpu\": -1"), "minVcpuPerGpu");
	expect_error(REC(PRICES "\"gpuPriceHr\": {\"value\": \"0.52\"}, "
	    "\"maxVcpuPerMemoryGib\": 0"), "maxVcpuPerMemoryGib");
	expect_error(REC(PRICES "\"gpuPriceHr\": {\"value\": \"0.52\"}, "
	    "\"maxGpuFree\": \"lots\""), "maxGpuFree");
	expect_error("{\"machineTypes\": [{\"dataCenterId\": \"\", "
	    "\"machineType\": \"epyc\"}]}", "dataCenterId");
}

/* Escapes in names never reach an offer. */
static void
test_hostile_strings(void **state)
{
	static const struct harness_route all[] = {
		{ "/v1/vms/machine-types", NULL, "body.json", 0 },
	};
	struct provider_run run;
	struct err err;
	char *dir;
	size_t i;

	(void)state;
	dir = harness_tmp_dir("body.json", "{\"machineTypes\": [{"
	    "\"dataCenterId\": \"no-luster-1\\u001b[2J\", \"machineType\": "
	    "\"epyc\\u001b]0;pwn\\u0007\", \"gpuModel\": \"RTX A5000\\u009b\", "
	    PRICES "\"gpuPriceHr\": {\"value\": \"0.52\"}, "
	    "\"maxGpuPerVm\": 1}]}");
	assert_int_equal(run_routes(&run, all, 1, dir, NULL, NULL, &err), 0);
	assert_int_equal(run.offers.n, 1);
	for (i = 0; i < run.offers.n; i++) {
		assert_true(str_is_clean(run.offers.v[i].key));
		assert_true(str_is_clean(run.offers.v[i].region));
		assert_true(str_is_clean(run.offers.v[i].instance_type));
		assert_true(str_is_clean(run.offers.v[i].gpu_raw));
	}
	provider_run_done(&run);
	harness_tmp_dir_free(dir);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_request),
		cmocka_unit_test(test_bad_bodies),
		cmocka_unit_test(test_hostile_strings),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
