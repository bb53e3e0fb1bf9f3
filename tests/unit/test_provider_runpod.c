/*
 * test_provider_runpod.c: the RunPod adapter on fixture files, and the
 * GraphQL envelope it shares with runpod-clusters (runpod_graphql.c).
 */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include <cJSON.h>

#include "adapter_harness.h"
#include "err.h"
#include "money.h"
#include "offer.h"
#include "provider.h"
#include "str.h"
#include "provider/runpod_graphql.h"

extern const struct provider provider_runpod;

#define TEST_KEY	"rp-test-key-0123"
#define TEST_NOW	1767225600
#define RUNPOD_URL	"https://api.runpod.io/graphql"

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
	int64_t		 price;		/* micro-USD per instance-hour */
	enum availability av;		/* no spot price: RunPod has none */
};

/* Every offer of gpu-types.json: per-GPU price x 1, 2, 4, 8 GPUs. */
static const struct want good[] = {
	/* NVIDIA H100 80GB HBM3: H100 SXM */
	{ "1x_NVIDIA H100 80GB HBM3_SECURE",
	    "1x H100 SXM", "secure", "H100", "H100 SXM", 1, 80,
	    IC_NVLINK, 2990000, AV_AVAILABLE },
	{ "2x_NVIDIA H100 80GB HBM3_SECURE",
	    "2x H100 SXM", "secure", "H100", "H100 SXM", 2, 80,
	    IC_NVLINK, 5980000, AV_AVAILABLE },
	{ "4x_NVIDIA H100 80GB HBM3_SECURE",
	    "4x H100 SXM", "secure", "H100", "H100 SXM", 4, 80,
	    IC_NVLINK, 11960000, AV_AVAILABLE },
	{ "8x_NVIDIA H100 80GB HBM3_SECURE",
	    "8x H100 SXM", "secure", "H100", "H100 SXM", 8, 80,
	    IC_NVLINK, 23920000, AV_AVAILABLE },
	{ "1x_NVIDIA H100 80GB HBM3_COMMUNITY",
	    "1x H100 SXM", "community", "H100", "H100 SXM", 1, 80,
	    IC_NVLINK, 2690000, AV_AVAILABLE },
	{ "2x_NVIDIA H100 80GB HBM3_COMMUNITY",
	    "2x H100 SXM", "community", "H100", "H100 SXM", 2, 80,
	    IC_NVLINK, 5380000, AV_AVAILABLE },
	{ "4x_NVIDIA H100 80GB HBM3_COMMUNITY",
	    "4x H100 SXM", "community", "H100", "H100 SXM", 4, 80,
	    IC_NVLINK, 10760000, AV_AVAILABLE },
	{ "8x_NVIDIA H100 80GB HBM3_COMMUNITY",
	    "8x H100 SXM", "community", "H100", "H100 SXM", 8, 80,
	    IC_NVLINK, 21520000, AV_AVAILABLE },
	/* NVIDIA H100 PCIe: H100 PCIe */
	{ "1x_NVIDIA H100 PCIe_COMMUNITY",
	    "1x H100 PCIe", "community", "H100", "H100 PCIe", 1, 80,
	    IC_PCIE, 1990000, AV_AVAILABLE },
	{ "2x_NVIDIA H100 PCIe_COMMUNITY",
	    "2x H100 PCIe", "community", "H100", "H100 PCIe", 2, 80,
	    IC_PCIE, 3980000, AV_AVAILABLE },
	{ "4x_NVIDIA H100 PCIe_COMMUNITY",
	    "4x H100 PCIe", "community", "H100", "H100 PCIe", 4, 80,
	    IC_PCIE, 7960000, AV_AVAILABLE },
	{ "8x_NVIDIA H100 PCIe_COMMUNITY",
	    "8x H100 PCIe", "community", "H100", "H100 PCIe", 8, 80,
	    IC_PCIE, 15920000, AV_AVAILABLE },
	/* NVIDIA H100 NVL: H100 NVL */
	{ "1x_NVIDIA H100 NVL_SECURE",
	    "1x H100 NVL", "secure", "H100-NVL", "H100 NVL", 1, 94,
	    IC_PCIE, 2590000, AV_AVAILABLE },
	{ "2x_NVIDIA H100 NVL_SECURE",
	    "2x H100 NVL", "secure", "H100-NVL", "H100 NVL", 2, 94,
	    IC_PCIE, 5180000, AV_AVAILABLE },
	/* NVIDIA A100 80GB PCIe: A100 PCIe */
	{ "1x_NVIDIA A100 80GB PCIe_SECURE",
	    "1x A100 PCIe", "secure", "A100-80", "A100 PCIe", 1, 80,
	    IC_PCIE, 1640000, AV_UNAVAILABLE },
	{ "2x_NVIDIA A100 80GB PCIe_SECURE",
	    "2x A100 PCIe", "secure", "A100-80", "A100 PCIe", 2, 80,
	    IC_PCIE, 3280000, AV_UNAVAILABLE },
	{ "4x_NVIDIA A100 80GB PCIe_SECURE",
	    "4x A100 PCIe", "secure", "A100-80", "A100 PCIe", 4, 80,
	    IC_PCIE, 6560000, AV_UNAVAILABLE },
	{ "8x_NVIDIA A100 80GB PCIe_SECURE",
	    "8x A100 PCIe", "secure", "A100-80", "A100 PCIe", 8, 80,
	    IC_PCIE, 13120000, AV_UNAVAILABLE },
	{ "1x_NVIDIA A100 80GB PCIe_COMMUNITY",
	    "1x A100 PCIe", "community", "A100-80", "A100 PCIe", 1, 80,
	    IC_PCIE, 1190000, AV_UNAVAILABLE },
	{ "2x_NVIDIA A100 80GB PCIe_COMMUNITY",
	    "2x A100 PCIe", "community", "A100-80", "A100 PCIe", 2, 80,
	    IC_PCIE, 2380000, AV_UNAVAILABLE },
	{ "4x_NVIDIA A100 80GB PCIe_COMMUNITY",
	    "4x A100 PCIe", "community", "A100-80", "A100 PCIe", 4, 80,
	    IC_PCIE, 4760000, AV_UNAVAILABLE },
	{ "8x_NVIDIA A100 80GB PCIe_COMMUNITY",
	    "8x A100 PCIe", "community", "A100-80", "A100 PCIe", 8, 80,
	    IC_PCIE, 9520000, AV_UNAVAILABLE },
	/* NVIDIA GeForce RTX 4090: RTX 4090 */
	{ "1x_NVIDIA GeForce RTX 4090_SECURE",
	    "1x RTX 4090", "secure", "RTX4090", "RTX 4090", 1, 24,
	    IC_PCIE, 690000, AV_LIMITED },
	{ "2x_NVIDIA GeForce RTX 4090_SECURE",
	    "2x RTX 4090", "secure", "RTX4090", "RTX 4090", 2, 24,
	    IC_PCIE, 1380000, AV_LIMITED },
	{ "4x_NVIDIA GeForce RTX 4090_SECURE",
	    "4x RTX 4090", "secure", "RTX4090", "RTX 4090", 4, 24,
	    IC_PCIE, 2760000, AV_LIMITED },
	{ "1x_NVIDIA GeForce RTX 4090_COMMUNITY",
	    "1x RTX 4090", "community", "RTX4090", "RTX 4090", 1, 24,
	    IC_PCIE, 340000, AV_LIMITED },
	{ "2x_NVIDIA GeForce RTX 4090_COMMUNITY",
	    "2x RTX 4090", "community", "RTX4090", "RTX 4090", 2, 24,
	    IC_PCIE, 680000, AV_LIMITED },
	{ "4x_NVIDIA GeForce RTX 4090_COMMUNITY",
	    "4x RTX 4090", "community", "RTX4090", "RTX 4090", 4, 24,
	    IC_PCIE, 1360000, AV_LIMITED },
	/* NVIDIA Q9000 Tensor Core: Q9000 */
	{ "1x_NVIDIA Q9000 Tensor Core_SECURE",
	    "1x Q9000", "secure", "", "Q9000", 1, 120,
	    IC_UNKNOWN, 4250000, AV_AVAILABLE },
	/* NVIDIA A100-SXM4-80GB: A100 SXM */
	{ "1x_NVIDIA A100-SXM4-80GB_SECURE",
	    "1x A100 SXM", "secure", "A100-80", "A100 SXM", 1, 80,
	    IC_NVLINK, 1890000, AV_UNAVAILABLE },
	{ "2x_NVIDIA A100-SXM4-80GB_SECURE",
	    "2x A100 SXM", "secure", "A100-80", "A100 SXM", 2, 80,
	    IC_NVLINK, 3780000, AV_UNAVAILABLE },
	{ "4x_NVIDIA A100-SXM4-80GB_SECURE",
	    "4x A100 SXM", "secure", "A100-80", "A100 SXM", 4, 80,
	    IC_NVLINK, 7560000, AV_UNAVAILABLE },
	{ "8x_NVIDIA A100-SXM4-80GB_SECURE",
	    "8x A100 SXM", "secure", "A100-80", "A100 SXM", 8, 80,
	    IC_NVLINK, 15120000, AV_UNAVAILABLE },
	/* AMD Instinct MI300X OAM: MI300X */
	{ "1x_AMD Instinct MI300X OAM_SECURE",
	    "1x MI300X", "secure", "MI300X", "MI300X", 1, 192,
	    IC_UNKNOWN, 2490000, AV_AVAILABLE },
	{ "2x_AMD Instinct MI300X OAM_SECURE",
	    "2x MI300X", "secure", "MI300X", "MI300X", 2, 192,
	    IC_UNKNOWN, 4980000, AV_AVAILABLE },
	{ "4x_AMD Instinct MI300X OAM_SECURE",
	    "4x MI300X", "secure", "MI300X", "MI300X", 4, 192,
	    IC_UNKNOWN, 9960000, AV_AVAILABLE },
	{ "8x_AMD Instinct MI300X OAM_SECURE",
	    "8x MI300X", "secure", "MI300X", "MI300X", 8, 192,
	    IC_UNKNOWN, 19920000, AV_AVAILABLE },
	/* NVIDIA B200: B200 */
	{ "1x_NVIDIA B200_SECURE",
	    "1x B200", "secure", "B200", "B200", 1, 180,
	    IC_NVLINK, 5990000, AV_LIMITED },
	{ "2x_NVIDIA B200_SECURE",
	    "2x B200", "secure", "B200", "B200", 2, 180,
	    IC_NVLINK, 11980000, AV_LIMITED },
	{ "4x_NVIDIA B200_SECURE",
	    "4x B200", "secure", "B200", "B200", 4, 180,
	    IC_NVLINK, 23960000, AV_LIMITED },
	{ "8x_NVIDIA B200_SECURE",
	    "8x B200", "secure", "B200", "B200", 8, 180,
	    IC_NVLINK, 47920000, AV_LIMITED },
};

/* Run the adapter on one fixture file with key (may be NULL). */
static int
run_file(struct provider_run *run, const char *file, const char *key,
    const char *base_url, struct harness_log *log, struct err *err)
{
	struct harness_route route = { "/graphql", "gpuTypes", file, 0 };

	provider_run_init(run, &provider_runpod);
	run->api_key = key;
	run->base_url = base_url;
	run->now = TEST_NOW;
	err_clear(err);
	return harness_run(&provider_runpod, run, &route, 1, NULL, 0, log,
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
		assert_string_equal(o->provider, "runpod");
		assert_string_equal(o->instance_type, want[i].instance_type);
		assert_string_equal(o->region, want[i].region);
		assert_string_equal(o->gpu, want[i].gpu);
		assert_string_equal(o->gpu_raw, want[i].gpu_raw);
		assert_int_equal(o->gpu_count, want[i].gpu_count);
		assert_int_equal(o->vram_gb, want[i].vram_gb);
		assert_int_equal(o->interconnect, want[i].ic);
		assert_int_equal(o->vcpus, 0);
		assert_true(o->ram_gb < 1e-9);
		assert_int_equal(o->price, want[i].price);
		assert_int_equal(o->spot_price, MONEY_NONE);
		assert_int_equal(o->availability, want[i].av);
		assert_int_equal(o->fetched_at, TEST_NOW);
		assert_int_equal(o->source, SRC_LIVE);
	}
}

/* The GraphQL body: the query with every field, gpuCount 1. */
static void
assert_query_body(const char *body)
{
	static const char *const fields[] = {
		"gpuTypes", "id", "displayName", "memoryInGb", "maxGpuCount",
		"maxGpuCountSecureCloud", "maxGpuCountCommunityCloud",
		"secureCloud", "communityCloud", "securePrice", "communityPrice",
		"lowestPrice(input: $lowestPriceInput)", "stockStatus", NULL
	};
	const cJSON *query, *vars, *input, *count;
	cJSON *root;
	size_t i;

	root = cJSON_Parse(body);
	assert_non_null(root);
	query = cJSON_GetObjectItemCaseSensitive(root, "query");
	assert_true(cJSON_IsString(query));
	for (i = 0; fields[i] != NULL; i++)
		if (strstr(query->valuestring, fields[i]) == NULL)
			fail_msg("query lacks %s", fields[i]);
	/* RunPod ended spot pods (2026-09-11): not asked any more. */
	assert_null(strstr(query->valuestring, "Spot"));
	vars = cJSON_GetObjectItemCaseSensitive(root, "variables");
	input = cJSON_GetObjectItemCaseSensitive(vars, "lowestPriceInput");
	count = cJSON_GetObjectItemCaseSensitive(input, "gpuCount");
	assert_true(cJSON_IsNumber(count));
	assert_int_equal(count->valueint, 1);
	cJSON_Delete(root);
}

/* Without a key: one POST, JSON body, no Authorization header. */
static void
test_request_no_key(void **state)
{
	struct provider_run run;
	struct harness_log log = { 0 };
	struct err err;

	(void)state;
	assert_int_equal(run_file(&run, "gpu-types.json", NULL, NULL, &log,
	    &err), 0);
	assert_int_equal(log.n, 1);
	assert_string_equal(log.url[0], RUNPOD_URL);
	assert_string_equal(log.method[0], "POST");
	assert_non_null(strstr(log.headers[0],
	    "Content-Type: application/json\n"));
	assert_null(strstr(log.headers[0], "Authorization"));
	assert_query_body(log.body[0]);
	harness_log_free(&log);
	provider_run_done(&run);
	assert_false(provider_runpod.key_required);
	assert_string_equal(provider_runpod.key_env, "RUNPOD_API_KEY");
}

/* With a key: in the Authorization header, never in the URL or body. */
static void
test_request_key(void **state)
{
	struct provider_run run;
	struct harness_log log = { 0 };
	struct err err;

	(void)state;
	assert_int_equal(run_file(&run, "gpu-types.json", TEST_KEY, NULL, &log,
	    &err), 0);
	assert_int_equal(log.n, 1);
	assert_string_equal(log.url[0], RUNPOD_URL);
	assert_non_null(strstr(log.headers[0],
	    "Authorization: Bearer " TEST_KEY "\n"));
	assert_null(strstr(log.url[0], TEST_KEY));
	assert_null(strstr(log.body[0], TEST_KEY));
	assert_query_body(log.body[0]);
	assert_int_equal(run.offers.n, sizeof good / sizeof good[0]);
	harness_log_free(&log);
	provider_run_done(&run);
}

/* GPUCOST_RUNPOD_URL replaces the origin and keeps the path. */
static void
test_base_url(void **state)
{
	struct provider_run run;
	struct harness_log log = { 0 };
	struct err err;

	(void)state;
	assert_int_equal(run_file(&run, "gpu-types.json", NULL,
	    "http://127.0.0.1:8081", &log, &err), 0);
	assert_int_equal(log.n, 1);
	assert_string_equal(log.url[0], "http://127.0.0.1:8081/graphql");
	harness_log_free(&log);
	provider_run_done(&run);
}

/* The good document: every offer exact; MIG and unpriced skipped. */
static void
test_parse(void **state)
{
	struct provider_run run;
	struct err err;

	(void)state;
	assert_int_equal(run_file(&run, "gpu-types.json", NULL, NULL, NULL,
	    &err), 0);
	assert_offers(&run, good, sizeof good / sizeof good[0]);
	/* Community only / secure only: no offer in the other cloud. */
	assert_null(harness_offer_find(&run, "1x_NVIDIA H100 PCIe_SECURE"));
	assert_null(harness_offer_find(&run, "1x_NVIDIA H100 NVL_COMMUNITY"));
	/* maxGpuCount 6 stops at 4, maxGpuCount 2 at 2. */
	assert_null(harness_offer_find(&run, "8x_NVIDIA GeForce RTX 4090_SECURE"));
	assert_null(harness_offer_find(&run, "4x_NVIDIA H100 NVL_SECURE"));
	assert_int_equal(run.skipped, 2);
	assert_int_equal(run.unknown_gpu, 1);
	assert_string_equal(run.note,
	    "skipped 1 type with no price; skipped 1 MIG slice");
	provider_run_done(&run);
}

/* A price as a string; a stock word RunPod has not used: unknown. */
static void
test_stock_other(void **state)
{
	struct provider_run run;
	struct err err;
	const struct offer *o;

	(void)state;
	assert_int_equal(run_file(&run, "stock-other.json", NULL, NULL, NULL,
	    &err), 0);
	assert_int_equal(run.offers.n, 4);
	o = harness_offer_find(&run, "8x_NVIDIA H100 PCIe_COMMUNITY");
	assert_non_null(o);
	assert_int_equal(o->price, 15920000);
	assert_true(o->spot_price == MONEY_NONE);
	assert_int_equal(o->availability, AV_UNKNOWN);
	assert_string_equal(o->region, "community");
	provider_run_done(&run);
}

/*
 * A display name that fills the field: "1x <name>" is cut to fit, never
 * leaving a blank at the end (found by fuzz_provider_runpod).
 */
static void
test_name_long(void **state)
{
	char want[OFFER_NAME_MAX];
	struct provider_run run;
	struct err err;
	const struct offer *o;

	(void)state;
	assert_int_equal(run_file(&run, "fuzz-name-long.json", NULL, NULL,
	    NULL, &err), 0);
	assert_int_equal(run.offers.n, 1);
	o = &run.offers.v[0];
	snprintf(want, sizeof want, "1x %059d", 0);
	memset(want + 3, 'A', 59);
	assert_string_equal(o->instance_type, want);
	assert_true(str_is_clean(o->instance_type));
	provider_run_done(&run);
}

/* A broken document and the whole message it must fail with. */
struct bad {
	const char	*file;
	const char	*msg;
};

static const struct bad bad_files[] = {
	{ "graphql-error.json", "GraphQL error: Cannot query field "
	    "\"secureSpotPrise\" on type \"GpuType\". Did you mean "
	    "\"secureSpotPrice\"? (and 1 more)" },
	{ "price-bool.json", "data.gpuTypes[\"NVIDIA H100 PCIe\"]."
	    "securePrice: expected a price in USD, got boolean" },
	{ "price-absurd.json", "data.gpuTypes[\"NVIDIA H100 PCIe\"]."
	    "communityPrice: 250000.00 USD per GPU-hour is absurd" },
	{ "price-negative.json", "data.gpuTypes[\"NVIDIA H100 PCIe\"]."
	    "communityPrice: price -1.99 is negative, not finite or absurd" },
	{ "maxgpu-absurd.json", "data.gpuTypes[\"NVIDIA H100 PCIe\"]."
	    "maxGpuCount: 1e+06 is not a whole number in 0..64" },
	{ "vram-absurd.json", "data.gpuTypes[\"NVIDIA H100 PCIe\"]."
	    "memoryInGb: 2048 is not a whole number in 0..1024" },
	{ "stock-wrong.json", "data.gpuTypes[\"NVIDIA H100 PCIe\"]."
	    "lowestPrice: expected an object, got string" },
	{ "stock-number.json", "data.gpuTypes[\"NVIDIA H100 PCIe\"]."
	    "lowestPrice.stockStatus: expected a string, got number" },
	{ "cloud-flag-wrong.json", "data.gpuTypes[\"NVIDIA B200\"]."
	    "communityCloud: expected a boolean, got string" },
	{ "id-missing.json", "data.gpuTypes[0].id: missing" },
	/* An id that is only an escape sequence is empty once sanitised. */
	{ "id-empty.json", "data.gpuTypes[0].id: empty" },
	{ "duplicate.json", "data.gpuTypes[\"NVIDIA L40S\"].id: duplicate "
	    "GPU type (offer 1x_NVIDIA L40S_SECURE)" },
	{ "unpriced.json", "data.gpuTypes: no priced GPU among 2 types" },
	{ "empty.json", "data.gpuTypes: empty" },
	{ "no-data.json", "response.data: expected an object, got null" },
	{ "html.json", "expected JSON, got HTML or XML "
	    "(\"<html> <head><title>...\")" },
};

/*
 * secureCloud/communityCloud false: the cloud's price is a placeholder
 * (B200 at 0.5 in community), never an offer; the per-cloud maximum GPU
 * counts bound each cloud's offers.
 */
static const struct want clouds_want[] = {
	{ "1x_NVIDIA B200_SECURE", "1x B200", "secure", "B200", "B200", 1,
	    180, IC_NVLINK, 5990000, AV_LIMITED },
	{ "2x_NVIDIA B200_SECURE", "2x B200", "secure", "B200", "B200", 2,
	    180, IC_NVLINK, 11980000, AV_LIMITED },
	{ "4x_NVIDIA B200_SECURE", "4x B200", "secure", "B200", "B200", 4,
	    180, IC_NVLINK, 23960000, AV_LIMITED },
	{ "8x_NVIDIA B200_SECURE", "8x B200", "secure", "B200", "B200", 8,
	    180, IC_NVLINK, 47920000, AV_LIMITED },
	{ "1x_NVIDIA GeForce RTX 4090_SECURE", "1x RTX 4090", "secure",
	    "RTX4090", "RTX 4090", 1, 24, IC_PCIE, 690000,
	    AV_AVAILABLE },
	{ "2x_NVIDIA GeForce RTX 4090_SECURE", "2x RTX 4090", "secure",
	    "RTX4090", "RTX 4090", 2, 24, IC_PCIE, 1380000,
	    AV_AVAILABLE },
	{ "1x_NVIDIA GeForce RTX 4090_COMMUNITY", "1x RTX 4090", "community",
	    "RTX4090", "RTX 4090", 1, 24, IC_PCIE, 340000,
	    AV_AVAILABLE },
	{ "2x_NVIDIA GeForce RTX 4090_COMMUNITY", "2x RTX 4090", "community",
	    "RTX4090", "RTX 4090", 2, 24, IC_PCIE, 680000,
	    AV_AVAILABLE },
	{ "4x_NVIDIA GeForce RTX 4090_COMMUNITY", "4x RTX 4090", "community",
	    "RTX4090", "RTX 4090", 4, 24, IC_PCIE, 1360000,
	    AV_AVAILABLE },
	{ "8x_NVIDIA GeForce RTX 4090_COMMUNITY", "8x RTX 4090", "community",
	    "RTX4090", "RTX 4090", 8, 24, IC_PCIE, 2720000,
	    AV_AVAILABLE },
	{ "1x_NVIDIA A100 80GB PCIe_COMMUNITY", "1x A100 PCIe", "community",
	    "A100-80", "A100 PCIe", 1, 80, IC_PCIE, 1190000,
	    AV_AVAILABLE },
};

static void
test_clouds(void **state)
{
	struct provider_run run;
	struct err err;

	(void)state;
	assert_int_equal(run_file(&run, "clouds.json", NULL, NULL, NULL,
	    &err), 0);
	assert_offers(&run, clouds_want,
	    sizeof clouds_want / sizeof clouds_want[0]);
	assert_null(harness_offer_find(&run, "1x_NVIDIA B200_COMMUNITY"));
	assert_null(harness_offer_find(&run, "1x_NVIDIA A100 80GB PCIe_SECURE"));
	assert_string_equal(run.note, "ignored 2 placeholder prices of a "
	    "cloud that does not sell the type");
	provider_run_done(&run);
}

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
		provider_run_done(&run);
	}
}

/* A GraphQL message that echoes the key has it masked. */
static void
test_error_redacts_key(void **state)
{
	struct provider_run run;
	struct err err;

	(void)state;
	assert_int_equal(run_file(&run, "graphql-error-key.json", TEST_KEY,
	    NULL, NULL, &err), -1);
	assert_string_equal(err.msg,
	    "GraphQL error: Unauthorized: api key *** is not valid");
	provider_run_done(&run);
	/* Without a key configured there is nothing to mask. */
	assert_int_equal(run_file(&run, "graphql-error-key.json", NULL,
	    NULL, NULL, &err), -1);
	assert_string_equal(err.msg, "GraphQL error: Unauthorized: api key "
	    TEST_KEY " is not valid");
	provider_run_done(&run);
}

/* A body cut short between two records fails as malformed JSON. */
static void
test_truncated(void **state)
{
	static const char want[] = "malformed JSON at byte ";
	struct provider_run run;
	struct err err;

	(void)state;
	assert_int_equal(run_file(&run, "truncated.json", NULL, NULL, NULL,
	    &err), -1);
	/* The byte offset is cJSON's to pick (it points at the last byte). */
	if (strncmp(err.msg, want, sizeof want - 1) != 0 ||
	    strstr(err.msg, " of 372") == NULL)
		fail_msg("got \"%s\"", err.msg);
	provider_run_done(&run);
}

/* Counts the elements runpod_graphql_each() hands over; fails at stop. */
struct walk {
	int	seen;
	int	stop;		/* index to fail at, -1 never */
};

static int
walk_item(struct provider_run *run, const cJSON *item, int index, void *arg,
    struct err *err)
{
	struct walk *w = arg;

	(void)run;
	(void)item;
	if (index != w->seen)
		fail_msg("index %d after %d elements", index, w->seen);
	if (index == w->stop) {
		err_set(err, "stop at %d", index);
		return -1;
	}
	w->seen++;
	return 0;
}

/*
 * RunPod removed a field the query asks (issue 44): GraphQL refuses the
 * whole query, naming each field; the adapter asks once more without
 * them and prices what the answer gives. The first answer is the real
 * shape of a GraphQL validation error (graphql-error-field.json).
 */
static void
test_field_removed(void **state)
{
	static const struct harness_route routes[] = {
		{ "/graphql", " communityCloud ", "graphql-error-field.json", 0 },
		{ "/graphql", "gpuTypes", "gpu-types.json", 0 },
	};
	struct provider_run run;
	struct harness_log log = { 0 };
	struct err err;

	(void)state;
	provider_run_init(&run, &provider_runpod);
	run.now = TEST_NOW;
	err_clear(&err);
	if (harness_run(&provider_runpod, &run, routes, 2, NULL, 0, &log,
	    &err) != 0)
		fail_msg("%s", err.msg);
	assert_int_equal(log.n, 2);
	assert_non_null(strstr(log.body[0], " communityCloud "));
	assert_non_null(strstr(log.body[0], "maxGpuCountCommunityCloud"));
	/* Asked again without the two fields, the rest as before. */
	assert_null(strstr(log.body[1], "communityCloud"));
	assert_null(strstr(log.body[1], "CommunityCloud"));
	assert_non_null(strstr(log.body[1], "secureCloud"));
	assert_non_null(strstr(log.body[1], "lowestPrice(input: "
	    "$lowestPriceInput)"));
	assert_true(run.offers.n > 0);
	assert_non_null(strstr(run.note, "RunPod's schema has no "
	    "maxGpuCountCommunityCloud, communityCloud: asked again without "
	    "it"));
	harness_log_free(&log);
	provider_run_done(&run);
}

/*
 * One retry only, and only for fields asked other than id: an error of
 * another kind, about id, about a field not asked, or a second refusal
 * fails the refresh with RunPod's message. Without lowestPrice the
 * variable goes too and availability is unknown, not unavailable.
 */
static void
test_field_removed_limits(void **state)
{
#define FIELD_ERR(f) "{\"errors\": [{\"message\": \"Cannot query field " \
	"\\\"" f "\\\" on type \\\"GpuType\\\".\", \"extensions\": " \
	"{\"code\": \"GRAPHQL_VALIDATION_FAILED\"}}]}"
	static const struct {
		const char *first, *then, *want;
	} cases[] = {
		{ FIELD_ERR("id"), NULL, "GraphQL error: Cannot query field "
		    "\"id\" on type \"GpuType\"." },
		{ FIELD_ERR("secureSpotPrice"), NULL, "GraphQL error: Cannot "
		    "query field \"secureSpotPrice\" on type \"GpuType\"." },
		{ FIELD_ERR("displayName"), FIELD_ERR("memoryInGb"),
		    "GraphQL error: Cannot query field \"memoryInGb\" on type "
		    "\"GpuType\"." },
	};
	static const struct harness_route routes[] = {
		{ "/graphql", " displayName ", "first.json", 0 },
		{ "/graphql", "gpuTypes", "then.json", 0 },
	};
	struct harness_route routes_lp[2];
	struct provider_run run;
	struct harness_log log = { 0 };
	struct err err;
	char *dir;
	size_t i;

	(void)state;
	memcpy(routes_lp, routes, sizeof routes_lp);
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		dir = harness_tmp_dir("first.json", cases[i].first);
		harness_tmp_file(dir, "then.json", cases[i].then != NULL ?
		    cases[i].then : "{}");
		provider_run_init(&run, &provider_runpod);
		err_clear(&err);
		assert_int_equal(harness_run(&provider_runpod, &run, routes, 2,
		    dir, 0, NULL, &err), -1);
		if (strcmp(err.msg, cases[i].want) != 0)
			fail_msg("case %zu: \"%s\"", i, err.msg);
		assert_int_equal(run.offers.n, 0);
		provider_run_done(&run);
		harness_tmp_dir_free(dir);
	}
	/* lowestPrice refused: no variable, availability unknown. */
	routes_lp[0].body_has = "lowestPrice(";
	dir = harness_tmp_dir("first.json", FIELD_ERR("lowestPrice"));
	harness_tmp_file(dir, "then.json", "{\"data\": {\"gpuTypes\": [{\"id\": "
	    "\"NVIDIA H100 PCIe\", \"displayName\": \"H100 PCIe\", "
	    "\"memoryInGb\": 80, \"securePrice\": 2.39}]}}");
	provider_run_init(&run, &provider_runpod);
	err_clear(&err);
	if (harness_run(&provider_runpod, &run, routes_lp, 2, dir, 0, &log,
	    &err) != 0)
		fail_msg("%s", err.msg);
	assert_int_equal(log.n, 2);
	assert_null(strstr(log.body[1], "lowestPrice"));
	assert_null(strstr(log.body[1], "variables"));
	assert_int_equal(run.offers.n, 1);
	assert_int_equal(run.offers.v[0].availability, AV_UNKNOWN);
	assert_int_equal(run.offers.v[0].price, 2390000);
	harness_log_free(&log);
	provider_run_done(&run);
	harness_tmp_dir_free(dir);
#undef FIELD_ERR
}

/* An answer that still holds spot fields gives no spot price. */
static void
test_no_spot(void **state)
{
	struct provider_run run;
	struct err err;
	size_t i;

	(void)state;
	/* spot-absurd.json: a communitySpotPrice of 999.50, once refused. */
	assert_int_equal(run_file(&run, "spot-absurd.json", NULL, NULL, NULL,
	    &err), 0);
	assert_true(run.offers.n > 0);
	for (i = 0; i < run.offers.n; i++)
		assert_int_equal(run.offers.v[i].spot_price, MONEY_NONE);
	provider_run_done(&run);
}

/*
 * The shared GraphQL envelope (runpod_graphql.c) on shapes no fixture
 * holds: no errors as null or [], an "errors" that is no array, errors
 * without a message, every message by index, and an element that fails.
 */
static void
test_graphql_envelope(void **state)
{
	static const struct {
		const char	*body;
		int		 errors;	/* runpod_graphql_errors() */
		const char	*msg[3];	/* messages 0..2 */
		int		 each;		/* runpod_graphql_each() */
		int		 stop;
		const char	*err;		/* its message when -1 */
	} cases[] = {
		{ "{\"errors\": null, \"data\": {\"gpuTypes\": [1, 2]}}", 0,
		    { "", "", "" }, 2, -1, NULL },
		{ "{\"errors\": [], \"data\": {\"gpuTypes\": [{}]}}", 0,
		    { "", "", "" }, 1, -1, NULL },
		{ "{\"errors\": \"boom\", \"data\": {\"gpuTypes\": [1]}}",
		    1, { "", "", "" }, -1, -1, "GraphQL error: (no message)" },
		{ "{\"errors\": [\"x\"]}", 1, { "", "", "" }, -1, -1,
		    "GraphQL error: (no message)" },
		{ "{\"errors\": [{\"message\": 5}, {\"message\": \"second\"},"
		    " {}]}", 3, { "", "second", "" }, -1, -1,
		    "GraphQL error: (no message) (and 2 more)" },
		{ "{\"errors\": [{\"message\": \"first\"}, {\"message\": "
		    "\"second\"}], \"data\": {\"gpuTypes\": [1]}}", 2,
		    { "first", "second", "" }, -1, -1,
		    "GraphQL error: first (and 1 more)" },
		{ "{\"data\": {\"gpuTypes\": [1, 2, 3]}}", 0, { "", "", "" },
		    -1, 1, "stop at 1" },
		{ "{\"data\": {\"gpuTypes\": {}}}", 0, { "", "", "" }, -1, -1,
		    "data.gpuTypes: expected an array, got object" },
	};
	struct provider_run run;
	struct walk w;
	struct err err;
	char msg[RUNPOD_GRAPHQL_MESSAGE_MAX];
	cJSON *root;
	size_t i;
	int k, n;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		root = cJSON_Parse(cases[i].body);
		assert_non_null(root);
		assert_int_equal(runpod_graphql_errors(root), cases[i].errors);
		for (k = 0; k < 3; k++) {
			runpod_graphql_message(root, k, msg, sizeof msg);
			if (strcmp(msg, cases[i].msg[k]) != 0)
				fail_msg("case %zu: message %d \"%s\"", i, k,
				    msg);
		}
		provider_run_init(&run, &provider_runpod);
		w.seen = 0;
		w.stop = cases[i].stop;
		err.msg[0] = '\0';
		n = runpod_graphql_each(&run, root, "gpuTypes", walk_item, &w,
		    &err);
		if (n != cases[i].each)
			fail_msg("case %zu: each %d (%s)", i, n, err.msg);
		if (n >= 0)
			assert_int_equal(w.seen, n);
		else if (strcmp(err.msg, cases[i].err) != 0)
			fail_msg("case %zu: got \"%s\"", i, err.msg);
		provider_run_done(&run);
		cJSON_Delete(root);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_request_no_key),
		cmocka_unit_test(test_request_key),
		cmocka_unit_test(test_base_url),
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_stock_other),
		cmocka_unit_test(test_name_long),
		cmocka_unit_test(test_clouds),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_error_redacts_key),
		cmocka_unit_test(test_truncated),
		cmocka_unit_test(test_graphql_envelope),
		cmocka_unit_test(test_field_removed),
		cmocka_unit_test(test_field_removed_limits),
		cmocka_unit_test(test_no_spot),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
