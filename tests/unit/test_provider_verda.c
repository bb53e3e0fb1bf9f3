/* test_provider_verda.c: the Verda adapter on its pricing page. */
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

extern const struct provider provider_verda;

#define NOW	1767225600	/* 2026-01-01 */

static const struct harness_route good_routes[] = {
	{ "/pricing", NULL, "pricing.html", 0 },
};

static int
run_routes(struct provider_run *run, const struct harness_route *routes,
    size_t nroutes, const char *dir, const char *base_url,
    struct harness_log *log, struct err *err)
{
	provider_run_init(run, &provider_verda);
	run->base_url = base_url;
	run->now = NOW;
	err_clear(err);
	return harness_run(&provider_verda, run, routes, nroutes, dir, 0, log,
	    err);
}

static void
check_offer(const struct offer *o, const char *gpu, const char *gpu_raw,
    int count, int vram, enum interconnect ic, int64_t price, int64_t spot)
{
	assert_string_equal(o->provider, "verda");
	assert_string_equal(o->instance_type, o->key);
	assert_string_equal(o->region, "nordics");
	assert_string_equal(o->gpu, gpu);
	assert_string_equal(o->gpu_raw, gpu_raw);
	assert_int_equal(o->gpu_count, count);
	assert_int_equal(o->vram_gb, vram);
	assert_int_equal(o->interconnect, ic);
	assert_int_equal(o->price, price);
	assert_int_equal(o->price_original, price);
	assert_int_equal(o->spot_price, spot);
	assert_string_equal(o->currency, "USD");
	assert_int_equal(o->vcpus, 0);
	assert_int_equal(o->availability, AV_UNKNOWN);
	assert_int_equal(o->fetched_at, NOW);
	assert_int_equal(o->source, SRC_LIVE);
}

/* The JSON-LD block's instances, never the page's table. */
static void
test_parse(void **state)
{
	struct provider_run run;
	struct err err;

	(void)state;
	assert_int_equal(run_routes(&run, good_routes, 1, NULL, NULL, NULL,
	    &err), 0);
	assert_int_equal(run.offers.n, 7);
	check_offer(harness_offer(&run, "1x H100 SXM5 80GB"), "H100",
	    "H100 SXM5", 1, 80, IC_NVLINK, 3250000, 1625000);
	check_offer(harness_offer(&run, "8x H100 SXM5 80GB"), "H100",
	    "H100 SXM5", 8, 80, IC_NVLINK, 26000000, 13000000);
	check_offer(harness_offer(&run, "1x A100 SXM4 40GB"), "A100-40",
	    "A100 SXM4", 1, 40, IC_NVLINK, 1290000, 645000);
	check_offer(harness_offer(&run, "1x RTX PRO 6000 96GB"), "RTXPRO6000",
	    "RTX PRO 6000", 1, 96, IC_PCIE, 1890000, 945000);
	/* Confidential computing: its own instance, the same GPU. */
	check_offer(harness_offer(&run, "1x RTX PRO 6000 CC 96GB"),
	    "RTXPRO6000", "RTX PRO 6000", 1, 96, IC_PCIE, 1928000, 963900);
	check_offer(harness_offer(&run, "2x L40S 48GB"), "L40S", "L40S", 2, 48,
	    IC_PCIE, 2740000, MONEY_NONE);
	check_offer(harness_offer(&run, "1x B200 SXM6 180GB"), "B200",
	    "B200 SXM6", 1, 180, IC_NVLINK, MONEY_NONE, 3055000);
	/* Two prices for one instance: which is true cannot be told. */
	assert_null(harness_offer_find(&run, "1x Tesla V100 16GB"));
	assert_null(harness_offer_find(&run, "1x A100 SXM4 80GB"));
	assert_int_equal(run.skipped, 7);
	assert_int_equal(run.unknown_gpu, 0);
	assert_string_equal(run.note, "2 CPU instance prices skipped; "
	    "3 prices of other products skipped; 1 price not in USD per hour "
	    "skipped; 1 instance with disagreeing prices skipped");
	provider_run_done(&run);
}

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
	assert_string_equal(log.url[0], "http://127.0.0.1:8125/pricing");
	assert_string_equal(log.method[0], "GET");
	assert_string_equal(log.headers[0], "Accept: text/html\n");
	assert_int_equal(log.conditional[0], 'c');
	harness_log_free(&log);
	provider_run_done(&run);
}

static void
expect_error(const char *body, const char *want)
{
	struct provider_run run;
	struct err err;
	char *dir = harness_tmp_dir("body.html", body);
	static const struct harness_route all[] = {
		{ "/pricing", NULL, "body.html", 0 },
	};

	assert_int_equal(run_routes(&run, all, 1, dir, NULL, NULL, &err), -1);
	if (strstr(err.msg, want) == NULL)
		fail_msg("%s: \"%s\" does not contain \"%s\"", body, err.msg,
		    want);
	assert_true(str_is_clean(err.msg));
	provider_run_done(&run);
	harness_tmp_dir_free(dir);
}

#define LD(x)	"<html><script type=\"application/ld+json\">" x		\
		"</script></html>"
#define OFFER(name, price)						\
	LD("{\"@graph\": [{\"@type\": \"Offer\", \"name\": \"" name "\", " \
	"\"price\": " price ", \"priceCurrency\": \"USD\", "		\
	"\"priceSpecification\": {\"unitText\": \"hour\"}}]}")

static void
test_bad_bodies(void **state)
{
	(void)state;
	expect_error("", "empty");
	/* A page without the block (an error page, a redesign). */
	expect_error("<!DOCTYPE html><html><body><h1>502 Bad Gateway</h1>"
	    "</body></html>", "HTML page without a schema.org JSON-LD block");
	expect_error("<html><table><tr><td>1x H100</td><td>$3.25</td></tr>"
	    "</table></html>", "without a schema.org JSON-LD block");
	expect_error("<html><script type=\"application/ld+json\">{\"@graph\":"
	    " [", "not closed");
	expect_error(LD("{\"@graph\": [{\"@type\": \"Offer\""), "JSON-LD");
	expect_error(LD("{\"@graph\": {}}"), "@graph");
	expect_error(LD(""), "empty");
	expect_error(OFFER("1x H100 SXM5 80GB on-demand", "-3.25"), "price");
	expect_error(OFFER("1x H100 SXM5 80GB on-demand", "\"NaN\""), "price");
	expect_error(OFFER("1x H100 SXM5 80GB on-demand", "1e300"), "price");
	expect_error(OFFER("1x H100 SXM5 80GB on-demand", "9000"),
	    "out of range");
	expect_error(LD("{\"@graph\": [{\"@type\": \"Offer\", \"name\": 7, "
	    "\"price\": 1}]}"), "name");
}

/* Names of another shape are skipped, never guessed at. */
static void
test_shapes(void **state)
{
	static const struct harness_route all[] = {
		{ "/pricing", NULL, "body.html", 0 },
	};
	struct provider_run run;
	struct err err;
	char *dir;

	(void)state;
	dir = harness_tmp_dir("body.html", LD("{\"@graph\": ["
	    "{\"@type\": \"Offer\", \"name\": \"H100 80GB on-demand\", "
	    "\"price\": 3, \"priceCurrency\": \"USD\", \"priceSpecification\":"
	    " {\"unitText\": \"hour\"}},"
	    "{\"@type\": \"Offer\", \"name\": \"1000000x H100 80GB on-demand\","
	    " \"price\": 3, \"priceCurrency\": \"USD\", \"priceSpecification\":"
	    " {\"unitText\": \"hour\"}},"
	    "{\"@type\": \"Offer\", \"name\": \"1x H100 80 GB on-demand\", "
	    "\"price\": 3, \"priceCurrency\": \"USD\", \"priceSpecification\":"
	    " {\"unitText\": \"hour\"}},"
	    "{\"@type\": \"Offer\", \"name\": \"1x H100\\u001b]0;x\\u0007 "
	    "80GB on-demand\", \"price\": 3, \"priceCurrency\": \"USD\", "
	    "\"priceSpecification\": {\"unitText\": \"hour\"}}]}"));
	assert_int_equal(run_routes(&run, all, 1, dir, NULL, NULL, &err), 0);
	assert_int_equal(run.offers.n, 1);
	assert_int_equal(run.skipped, 3);
	assert_true(str_is_clean(run.offers.v[0].key));
	assert_string_equal(run.offers.v[0].key, "1x H100 80GB");
	assert_string_equal(run.offers.v[0].gpu, "H100");
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
		cmocka_unit_test(test_shapes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
