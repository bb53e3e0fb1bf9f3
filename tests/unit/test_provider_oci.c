/* test_provider_oci.c: the Oracle OCI adapter on fixture files. */
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

extern const struct provider provider_oci;

#define NOW 1767225600	/* 2026-01-01 */

#define PRICES	"/pls/apex/cetools/api/v1/products/?currencyCode=USD"
#define SHAPES	"/a/ocom/docs/cloudestimator2/data/shapes.json"

static const struct harness_route good_routes[] = {
	{ PRICES, NULL, "products.json", 0 },
	{ SHAPES, NULL, "shapes.json", 0 },
};

static int
run_oci(struct provider_run *run, const struct harness_route *routes,
    const char *dir, const char *base_url, struct harness_log *log,
    struct err *err)
{
	provider_run_init(run, &provider_oci);
	run->base_url = base_url;
	run->now = NOW;
	err_clear(err);
	return harness_run(&provider_oci, run, routes, 2, dir, 0, log, err);
}

static void
check_offer(const struct offer *o, const char *gpu, const char *gpu_raw,
    int count, int vram, enum interconnect ic, int64_t price, int64_t spot,
    int vcpus, double ram)
{
	assert_string_equal(o->provider, "oci");
	assert_string_equal(o->instance_type, o->key);
	assert_string_equal(o->region, "all");
	assert_string_equal(o->gpu, gpu);
	assert_string_equal(o->gpu_raw, gpu_raw);
	assert_int_equal(o->gpu_count, count);
	assert_int_equal(o->vram_gb, vram);
	assert_int_equal(o->interconnect, ic);
	assert_int_equal(o->price, price);
	assert_int_equal(o->spot_price, spot);
	assert_int_equal(o->vcpus, vcpus);
	assert_true(fabs(o->ram_gb - ram) < 1e-9);
	assert_int_equal(o->availability, AV_UNKNOWN);
	assert_int_equal(o->fetched_at, NOW);
	assert_int_equal(o->source, SRC_LIVE);
}

static int
compare_strings(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/*
 * Exactly the priced, active GPU shapes: no licence row, no per-node or
 * per-day row, no CPU, hidden, inactive or unpriced shape.
 */
static void
test_parse(void **state)
{
	static const char *const want[] = {
		"BM.GPU.A100-v2.8", "BM.GPU.B300.8", "BM.GPU.GB200.4",
		"BM.GPU.H100.8", "BM.GPU.H200.8", "BM.GPU.L40S.4",
		"BM.GPU.MI300X.8", "BM.GPU.MI355X.8", "BM.GPU.RTXPRO.8",
		"BM.GPU4.8", "VM.GPU.A10.1", "VM.GPU3.1",
	};
	const char *keys[24];
	struct provider_run run;
	struct err err;
	size_t i;

	(void)state;
	assert_int_equal(run_oci(&run, good_routes, NULL, NULL, NULL, &err),
	    0);
	assert_int_equal(run.offers.n, sizeof want / sizeof want[0]);
	for (i = 0; i < run.offers.n; i++)
		keys[i] = run.offers.v[i].key;
	qsort(keys, run.offers.n, sizeof keys[0], compare_strings);
	for (i = 0; i < run.offers.n; i++)
		assert_string_equal(keys[i], want[i]);
	assert_int_equal(run.skipped, 5);
	assert_string_equal(run.note, "skipped shapes: 2 inactive or hidden; "
	    "2 non-GPU; 1 unpriced");

	/* B98415 is 10 USD per GPU-hour: 80 for 8; the H100 licence row
	 * (2.50, same category and metric) is not joined. */
	check_offer(harness_offer(&run, "BM.GPU.H100.8"), "H100", "H100 SXM", 8, 80,
	    IC_NVLINK, 80000000, MONEY_NONE, 224, 2048);
	/* "Compute - GPU - E3" names no GPU: the shape does (A100 40 GB). */
	check_offer(harness_offer(&run, "BM.GPU4.8"), "A100-40", "A100", 8, 40,
	    IC_NVLINK, 24400000, MONEY_NONE, 128, 2048);
	check_offer(harness_offer(&run, "BM.GPU.A100-v2.8"), "A100-80", "A100", 8, 80,
	    IC_NVLINK, 32000000, MONEY_NONE, 256, 2048);
	/* gpuMemoryQty 288 is per GPU here: VRAM comes from the catalogue. */
	check_offer(harness_offer(&run, "BM.GPU.MI355X.8"), "MI355X", "MI355X", 8, 288,
	    IC_UNKNOWN, 68800000, MONEY_NONE, 256, 3072);
	/* "(NVL72)" cut; Grace OCPUs are one vCPU each. */
	check_offer(harness_offer(&run, "BM.GPU.GB200.4"), "GB200", "GB200", 4, 186,
	    IC_NVLINK, 64000000, MONEY_NONE, 128, 960);
	/* Null OCPU and memory quantities: unknown, not zero-priced. */
	check_offer(harness_offer(&run, "BM.GPU.B300.8"), "B300", "B300", 8, 288,
	    IC_NVLINK, 120000000, MONEY_NONE, 0, 0);
	check_offer(harness_offer(&run, "BM.GPU.L40S.4"), "L40S", "L40S", 4, 48,
	    IC_PCIE, 14000000, MONEY_NONE, 224, 1024);
	/* Preemptible at half price; the part's EUR price is passed over. */
	check_offer(harness_offer(&run, "VM.GPU.A10.1"), "A10", "A10", 1, 24, IC_PCIE,
	    2000000, 1000000, 30, 240);
	check_offer(harness_offer(&run, "VM.GPU3.1"), "V100-16", "V100", 1, 16,
	    IC_UNKNOWN, 2950000, 1475000, 12, 90);
	provider_run_done(&run);
}

/* Both hosts follow GPUCOST_OCI_URL; without it, Oracle's two hosts. */
static void
test_hosts(void **state)
{
	struct harness_log log;
	struct provider_run run;
	struct err err;
	size_t i;
	bool prices = false, shapes = false;

	(void)state;
	memset(&log, 0, sizeof log);
	assert_int_equal(run_oci(&run, good_routes, NULL, NULL, &log, &err),
	    0);
	assert_int_equal(log.n, 2);
	for (i = 0; i < log.n; i++) {
		prices |= strcmp(log.url[i], "https://apexapps.oracle.com"
		    PRICES) == 0;
		shapes |= strcmp(log.url[i], "https://www.oracle.com"
		    SHAPES) == 0;
	}
	assert_true(prices && shapes);
	harness_log_free(&log);
	provider_run_done(&run);

	memset(&log, 0, sizeof log);
	prices = shapes = false;
	assert_int_equal(run_oci(&run, good_routes, NULL,
	    "http://127.0.0.1:8080", &log, &err), 0);
	for (i = 0; i < log.n; i++) {
		prices |= strcmp(log.url[i], "http://127.0.0.1:8080"
		    PRICES) == 0;
		shapes |= strcmp(log.url[i], "http://127.0.0.1:8080"
		    SHAPES) == 0;
	}
	assert_true(prices && shapes);
	harness_log_free(&log);
	provider_run_done(&run);
}

static char scratch[64];

static void
write_doc(const char *name, const char *body)
{
	char path[128];
	FILE *f;

	snprintf(path, sizeof path, "%s/%s", scratch, name);
	assert_non_null(f = fopen(path, "w"));
	fputs(body, f);
	assert_int_equal(fclose(f), 0);
}

/* One price-list item and one GPU shape billed under it. */
#define PART(metric, value)						\
	"{\"items\": [{\"partNumber\": \"B1\", \"metricName\": \""	\
	metric "\", \"currencyCodeLocalizations\": [{\"currencyCode\": "\
	"\"USD\", \"prices\": [{\"model\": \"PAY_AS_YOU_GO\", "		\
	"\"value\": " value "}]}]}]}"
#define SHAPE(name, gpus, qty)						\
	"{\"items\": [{\"name\": \"" name "\", \"status\": \"ACTIVE\", "\
	"\"hidden\": false, \"gpuQty\": " gpus ", \"subType\": "	\
	"{\"value\": \"gpu\"}, \"products\": [{\"partNumber\": \"B1\", "\
	"\"qty\": " qty ", \"type\": {\"value\": \"ocpu\"}}]}]}"

/* Run on a price list and a shapes document of our own. */
static int
run_docs(struct provider_run *run, const char *prices, const char *shapes,
    struct err *err)
{
	static const struct harness_route routes[] = {
		{ PRICES, NULL, "p.json", 0 },
		{ SHAPES, NULL, "s.json", 0 },
	};

	write_doc("p.json", prices);
	write_doc("s.json", shapes);
	return run_oci(run, routes, scratch, NULL, NULL, err);
}

static void
expect_error(const char *prices, const char *shapes, const char *want)
{
	struct provider_run run;
	struct err err;

	assert_int_equal(run_docs(&run, prices, shapes, &err), -1);
	if (strstr(err.msg, want) == NULL)
		fail_msg("\"%s\" does not contain \"%s\"", err.msg, want);
	assert_true(str_is_clean(err.msg));
	provider_run_done(&run);
}

static void
test_bad_documents(void **state)
{
	const char *good_shape = SHAPE("BM.GPU.H100.8", "8", "112");
	const char *good_part = PART("GPU Per Hour", "10");

	(void)state;
	expect_error("<html><body>maintenance</body></html>", good_shape,
	    "prices: expected JSON, got HTML");
	expect_error(good_part, "{\"items\": [{\"name\": \"BM.GPU",
	    "shapes: malformed JSON");
	expect_error("{\"products\": []}", good_shape,
	    "prices.items: expected an array, got nothing");
	expect_error(good_part, "{\"items\": [7]}",
	    "shapes.items[0]: expected an object, got number");
	expect_error(good_part, SHAPE("BM.GPU.H100.8", "100000", "112"),
	    "shapes.items[0].gpuQty");
	expect_error(PART("GPU Per Hour", "-10"), good_shape,
	    "PAY_AS_YOU_GO value is not a price");
	expect_error(PART("GPU Per Hour", "\"10\""), good_shape,
	    "PAY_AS_YOU_GO value is not a price");
	expect_error(PART("GPU Per Hour", "1e300"), good_shape,
	    "PAY_AS_YOU_GO value is not a price");
	/* 800 USD per GPU-hour x 8 is beyond any GPU server. */
	expect_error(PART("GPU Per Hour", "800"), good_shape,
	    "shape BM.GPU.H100.8: shapes.items[0]: 6400.00 USD per hour is "
	    "out of range");
	expect_error(good_part, SHAPE("BM.GPU.H100.8", "8", "-4"),
	    "shape BM.GPU.H100.8: qty -4 is out of range");
}

/*
 * Per-node and per-day metrics are not shape prices; an OCPU-billed GPU
 * shape adds its memory part; a model word the table does not know is
 * kept as written and reported, never folded into a known GPU.
 */
static void
test_metrics_and_names(void **state)
{
	struct provider_run run;
	struct err err;

	(void)state;
	assert_int_equal(run_docs(&run, PART("Node Per Hour", "16"),
	    SHAPE("BM.GPU.A10.4", "4", "64"), &err), 0);
	assert_int_equal(run.offers.n, 0);
	assert_string_equal(run.note, "skipped shapes: 1 not hourly");
	provider_run_done(&run);

	/* The same shape with and without a display suffix: one offer. */
	assert_int_equal(run_docs(&run, PART("GPU Per Hour", "16"),
	    "{\"items\": [{\"name\": \"BM.GPU.GB200.4 (NVL72)\", \"status\": "
	    "\"ACTIVE\", \"gpuQty\": 4, \"subType\": {\"value\": \"gpu\"}, "
	    "\"products\": [{\"partNumber\": \"B1\", \"type\": {\"value\": "
	    "\"ocpu\"}}]}, {\"name\": \"BM.GPU.GB200.4\", \"status\": "
	    "\"ACTIVE\", \"gpuQty\": 4, \"subType\": {\"value\": \"gpu\"}, "
	    "\"products\": [{\"partNumber\": \"B1\", \"type\": {\"value\": "
	    "\"ocpu\"}}]}]}", &err), 0);
	assert_int_equal(run.offers.n, 1);
	assert_string_equal(run.note, "skipped shapes: 1 repeated");
	provider_run_done(&run);

	assert_int_equal(run_docs(&run, PART("GPU Per Hour", "10.75"),
	    SHAPE("BM.GPU.H100T.8", "8", "112"), &err), 0);
	assert_int_equal(run.offers.n, 1);
	assert_string_equal(run.offers.v[0].gpu, "");
	assert_string_equal(run.offers.v[0].gpu_raw, "H100T");
	assert_int_equal(run.offers.v[0].price, 86000000);
	assert_int_equal(run.unknown_gpu, 1);
	provider_run_done(&run);

	assert_int_equal(run_docs(&run, "{\"items\": ["
	    "{\"partNumber\": \"B1\", \"metricName\": \"OCPU Per Hour\", "
	    "\"currencyCodeLocalizations\": [{\"currencyCode\": \"USD\", "
	    "\"prices\": [{\"model\": \"PAY_AS_YOU_GO\", \"value\": 0.5}]}]},"
	    "{\"partNumber\": \"B2\", \"metricName\": \"Gigabyte Per Hour\", "
	    "\"currencyCodeLocalizations\": [{\"currencyCode\": \"USD\", "
	    "\"prices\": [{\"model\": \"PAY_AS_YOU_GO\", \"value\": 0.01}]}]}"
	    "]}",
	    "{\"items\": [{\"name\": \"VM.GPU2.1\", \"status\": \"ACTIVE\", "
	    "\"gpuQty\": 1, \"bundleMemoryQty\": 72, \"subType\": {\"value\": "
	    "\"gpu\"}, \"products\": [{\"partNumber\": \"B1\", \"qty\": 12, "
	    "\"type\": {\"value\": \"ocpu\"}}, {\"partNumber\": \"B2\", "
	    "\"qty\": 72, \"type\": {\"value\": \"memory\"}}]}]}", &err), 0);
	assert_int_equal(run.offers.n, 1);
	/* 12 x 0.50 + 72 x 0.01 */
	check_offer(&run.offers.v[0], "P100", "P100", 1, 16, IC_UNKNOWN, 6720000,
	    MONEY_NONE, 24, 72);
	provider_run_done(&run);
}

static int
setup(void **state)
{
	(void)state;
	snprintf(scratch, sizeof scratch, "/tmp/test_oci.XXXXXX");
	return mkdtemp(scratch) == NULL ? -1 : 0;
}

static int
teardown(void **state)
{
	char cmd[96];

	(void)state;
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", scratch);
	return system(cmd) == 0 ? 0 : -1;
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_hosts),
		cmocka_unit_test(test_bad_documents),
		cmocka_unit_test(test_metrics_and_names),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
