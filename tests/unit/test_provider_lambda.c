/* test_provider_lambda.c: the Lambda adapter on fixture files. */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "adapter_harness.h"
#include "err.h"
#include "money.h"
#include "offer.h"
#include "provider.h"

extern const struct provider provider_lambda;

#define TEST_KEY	"lm-test-key-7f3a"
#define TEST_NOW	1767225600
#define LAMBDA_URL	"https://cloud.lambdalabs.com/api/v1/instance-types"

/* One offer the adapter must produce. */
struct want {
	const char	*key;
	const char	*instance_type;
	const char	*region;
	const char	*gpu;
	const char	*gpu_raw;
	int		 gpu_count;
	int		 vram_gb;
	enum interconnect ic;
	int		 vcpus;
	double		 ram_gb;
	int64_t		 price;		/* micro-USD per instance-hour */
	enum availability av;
};

/* Every offer of instance-types.json. */
static const struct want good[] = {
	{ "gpu_8x_h100_sxm5/us-east-3", "gpu_8x_h100_sxm5", "us-east-3",
	    "H100", "H100", 8, 80, IC_NVLINK, 208, 1800, 23920000,
	    AV_AVAILABLE },
	{ "gpu_8x_h100_sxm5/us-south-2", "gpu_8x_h100_sxm5", "us-south-2",
	    "H100", "H100", 8, 80, IC_NVLINK, 208, 1800, 23920000,
	    AV_AVAILABLE },
	{ "gpu_1x_h100_pcie/us-west-3", "gpu_1x_h100_pcie", "us-west-3",
	    "H100", "H100", 1, 80, IC_PCIE, 26, 200, 2490000, AV_AVAILABLE },
	{ "gpu_8x_a100_80gb_sxm4/europe-central-1", "gpu_8x_a100_80gb_sxm4",
	    "europe-central-1", "A100-80", "A100", 8, 80, IC_NVLINK, 240, 1800,
	    14320000, AV_AVAILABLE },
	{ "gpu_8x_b200_sxm6/(sold out)", "gpu_8x_b200_sxm6", "(sold out)",
	    "B200", "B200", 8, 180, IC_NVLINK, 208, 2900, 39920000,
	    AV_UNAVAILABLE },
	{ "gpu_1x_gh200/us-east-3", "gpu_1x_gh200", "us-east-3", "GH200",
	    "GH200", 1, 96, IC_UNKNOWN, 64, 432, 1490000, AV_AVAILABLE },
	{ "gpu_8x_v100_n/us-south-1", "gpu_8x_v100_n", "us-south-1",
	    "V100-16", "Tesla V100", 8, 16, IC_NVLINK, 88, 448, 6320000,
	    AV_AVAILABLE },
	{ "gpu_4x_a6000/us-midwest-1", "gpu_4x_a6000", "us-midwest-1",
	    "A6000", "A6000", 4, 48, IC_UNKNOWN, 56, 400, 4360000, AV_AVAILABLE },
	{ "gpu_2x_x900_pcie/asia-northeast-1", "gpu_2x_x900_pcie",
	    "asia-northeast-1", "", "X900", 2, 64, IC_PCIE, 40, 360, 3180000,
	    AV_AVAILABLE },
};

/* Every offer of variants.json: fallbacks, sanitising, a 0 price. */
static const struct want variants[] = {
	/* Description unreadable: GPU, VRAM and form from the name. */
	{ "gpu_8x_a100_80gb_sxm4/us-east-1", "gpu_8x_a100_80gb_sxm4",
	    "us-east-1", "A100-80", "a100", 8, 80, IC_NVLINK, 240, 1800,
	    14320000, AV_AVAILABLE },
	/* A BEL in the region name is dropped. */
	{ "gpu_8x_a100_80gb_sxm4/us-west-2", "gpu_8x_a100_80gb_sxm4",
	    "us-west-2", "A100-80", "a100", 8, 80, IC_NVLINK, 240, 1800,
	    14320000, AV_AVAILABLE },
	/* An escape sequence in the description is dropped; sold out. */
	{ "gpu_1x_a10/(sold out)", "gpu_1x_a10", "(sold out)", "A10", "A10",
	    1, 24, IC_PCIE, 30, 200, 750000, AV_UNAVAILABLE },
	/* Empty description: gpu_description; no form word anywhere. */
	{ "gpu_1x_a100/us-west-1", "gpu_1x_a100", "us-west-1", "A100-40",
	    "A100", 1, 40, IC_UNKNOWN, 30, 200, 1290000, AV_AVAILABLE },
};

/* Run the adapter on one fixture file with key (may be NULL). */
static int
run_file(struct provider_run *run, const char *file, const char *key,
    const char *base_url, struct harness_log *log, struct err *err)
{
	struct harness_route route = { "/api/v1/instance-types", NULL, file,
	    0 };

	provider_run_init(run, &provider_lambda);
	run->api_key = key;
	run->base_url = base_url;
	run->now = TEST_NOW;
	err_clear(err);
	return harness_run(&provider_lambda, run, &route, 1, NULL, 0, log,
	    err);
}

/* Assert that run holds exactly the offers of want[0..n). */
static void
assert_offers(const struct provider_run *run, const struct want *want,
    size_t n)
{
	const struct offer *o;
	size_t i;

	assert_int_equal(run->offers.n, n);
	for (i = 0; i < n; i++) {
		o = harness_offer_find(run, want[i].key);
		if (o == NULL)
			fail_msg("no offer %s", want[i].key);
		assert_string_equal(o->provider, "lambda");
		assert_string_equal(o->instance_type, want[i].instance_type);
		assert_string_equal(o->region, want[i].region);
		assert_string_equal(o->gpu, want[i].gpu);
		assert_string_equal(o->gpu_raw, want[i].gpu_raw);
		assert_int_equal(o->gpu_count, want[i].gpu_count);
		assert_int_equal(o->vram_gb, want[i].vram_gb);
		assert_int_equal(o->interconnect, want[i].ic);
		assert_int_equal(o->vcpus, want[i].vcpus);
		assert_true(o->ram_gb > want[i].ram_gb - 1e-9 &&
		    o->ram_gb < want[i].ram_gb + 1e-9);
		assert_int_equal(o->price, want[i].price);
		assert_true(o->spot_price == MONEY_NONE);
		assert_int_equal(o->availability, want[i].av);
		assert_int_equal(o->fetched_at, TEST_NOW);
		assert_int_equal(o->source, SRC_LIVE);
	}
}

/* One GET to the real URL, key in the Authorization header only. */
static void
test_request(void **state)
{
	struct provider_run run;
	struct harness_log log = { 0 };
	struct err err;

	(void)state;
	assert_int_equal(run_file(&run, "instance-types.json", TEST_KEY, NULL,
	    &log, &err), 0);
	assert_int_equal(log.n, 1);
	assert_string_equal(log.url[0], LAMBDA_URL);
	assert_string_equal(log.method[0], "GET");
	assert_non_null(strstr(log.headers[0],
	    "Authorization: Bearer " TEST_KEY "\n"));
	assert_null(strstr(log.url[0], TEST_KEY));
	assert_null(strstr(log.body[0], TEST_KEY));
	assert_string_equal(log.body[0], "");
	harness_log_free(&log);
	provider_run_done(&run);
}

/* GPUCOST_LAMBDA_URL replaces the origin and keeps the path. */
static void
test_base_url(void **state)
{
	struct provider_run run;
	struct harness_log log = { 0 };
	struct err err;

	(void)state;
	assert_int_equal(run_file(&run, "instance-types.json", TEST_KEY,
	    "http://127.0.0.1:8080/", &log, &err), 0);
	assert_int_equal(log.n, 1);
	assert_string_equal(log.url[0],
	    "http://127.0.0.1:8080/api/v1/instance-types");
	assert_null(strstr(log.url[0], TEST_KEY));
	harness_log_free(&log);
	provider_run_done(&run);
}

/* Without a key nothing is requested (refresh.c skips first anyway). */
static void
test_no_key(void **state)
{
	struct provider_run run;
	struct harness_log log = { 0 };
	struct err err;

	(void)state;
	assert_int_equal(run_file(&run, "instance-types.json", NULL, NULL,
	    &log, &err), -1);
	assert_string_equal(err.msg, "LAMBDA_API_KEY is not set");
	assert_int_equal(log.n, 0);
	assert_int_equal(run.offers.n, 0);
	harness_log_free(&log);
	provider_run_done(&run);
	assert_true(provider_lambda.key_required);
	assert_string_equal(provider_lambda.key_env, "LAMBDA_API_KEY");
}

/* The good document: every offer exact, the CPU type skipped. */
static void
test_parse(void **state)
{
	struct provider_run run;
	struct err err;

	(void)state;
	assert_int_equal(run_file(&run, "instance-types.json", TEST_KEY, NULL,
	    NULL, &err), 0);
	assert_offers(&run, good, sizeof good / sizeof good[0]);
	assert_null(harness_offer_find(&run, "cpu_4x_general/us-east-1"));
	assert_int_equal(run.skipped, 1);
	assert_int_equal(run.unknown_gpu, 1);
	assert_string_equal(run.note,
	    "1 type sold out everywhere; skipped 1 CPU-only type");
	provider_run_done(&run);
}

/* Name and gpu_description fallbacks, sanitising, a 0 price skipped. */
static void
test_variants(void **state)
{
	struct provider_run run;
	struct err err;

	(void)state;
	assert_int_equal(run_file(&run, "variants.json", TEST_KEY, NULL, NULL,
	    &err), 0);
	assert_offers(&run, variants, sizeof variants / sizeof variants[0]);
	assert_int_equal(run.skipped, 1);
	assert_int_equal(run.unknown_gpu, 0);
	assert_string_equal(run.note,
	    "1 type sold out everywhere; skipped 1 type priced at 0");
	provider_run_done(&run);
}

/* A broken document and the message it must fail with. */
struct bad {
	const char	*file;
	const char	*msg;		/* the whole message */
};

static const struct bad bad_files[] = {
	{ "price-bool.json", "data.gpu_1x_h100_pcie.instance_type."
	    "price_cents_per_hour: expected a number, got boolean" },
	{ "price-garbage.json", "data.gpu_1x_h100_pcie.instance_type."
	    "price_cents_per_hour: expected a number, got \"2.49 USD\"" },
	{ "price-negative.json", "data.gpu_1x_h100_pcie.instance_type."
	    "price_cents_per_hour: -249 cents is negative" },
	{ "price-absurd.json", "data.gpu_1x_h100_pcie.instance_type."
	    "price_cents_per_hour: 1500000 cents for 1 GPU is over 100 USD "
	    "per GPU-hour" },
	{ "gpus-absurd.json", "data.gpu_8x_h100_sxm5.instance_type.specs."
	    "gpus: 1e+06 is not a whole number in 0..64" },
	{ "gpus-mismatch.json", "data.gpu_8x_h100_sxm5.instance_type."
	    "description: \"8x H100 (80 GB SXM5)\" disagrees with "
	    "specs.gpus 4" },
	{ "regions-wrong.json", "data.gpu_1x_h100_pcie."
	    "regions_with_capacity_available: expected an array, got string" },
	{ "region-no-name.json", "data.gpu_1x_h100_pcie."
	    "regions_with_capacity_available[1].name: missing" },
	{ "name-empty.json",
	    "data.gpu_1x_h100_pcie.instance_type.name: empty" },
	{ "cpu-only.json",
	    "response.data: no GPU offers among 1 instance type" },
	{ "empty-data.json", "response.data: no instance types" },
	{ "error-envelope.json", "Lambda API error: API key was invalid, "
	    "expired, or deleted." },
	{ "html.json", "expected JSON, got HTML or XML "
	    "(\"<!DOCTYPE html> <htm...\")" },
};

/* Each broken document fails with a message naming record and field. */
static void
test_errors(void **state)
{
	struct provider_run run;
	struct err err;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof bad_files / sizeof bad_files[0]; i++) {
		if (run_file(&run, bad_files[i].file, TEST_KEY, NULL, NULL,
		    &err) != -1)
			fail_msg("%s: parsed", bad_files[i].file);
		if (strcmp(err.msg, bad_files[i].msg) != 0)
			fail_msg("%s: got \"%s\"", bad_files[i].file, err.msg);
		assert_null(strstr(err.msg, TEST_KEY));
		provider_run_done(&run);
	}
}

/* A body cut short between two records fails as malformed JSON. */
static void
test_truncated(void **state)
{
	static const char want[] = "malformed JSON at byte ";
	struct provider_run run;
	struct err err;

	(void)state;
	assert_int_equal(run_file(&run, "truncated.json", TEST_KEY, NULL,
	    NULL, &err), -1);
	/* The byte offset is cJSON's to pick (it points at the last byte). */
	if (strncmp(err.msg, want, sizeof want - 1) != 0 ||
	    strstr(err.msg, " of 630") == NULL)
		fail_msg("got \"%s\"", err.msg);
	provider_run_done(&run);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_request),
		cmocka_unit_test(test_base_url),
		cmocka_unit_test(test_no_key),
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_variants),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_truncated),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
