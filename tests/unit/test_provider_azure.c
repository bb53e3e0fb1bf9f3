/* test_provider_azure.c: the Azure adapter on fixture files. */
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

extern const struct provider provider_azure;

#define NOW 1767225600	/* 2026-01-01 */

#define FIRST	"/api/retail/prices?api-version=2023-01-01-preview" \
	"&meterRegion=%27primary%27&$filter=serviceName%20eq%20%27Virtual" \
	"%20Machines%27%20and%20contains(armSkuName,%20%27Standard_N%27)"

static const struct harness_route good_routes[] = {
	{ "$skip=1000", NULL, "prices-2.json", 0 },
	{ "/api/retail/prices?", NULL, "prices-1.json", 0 },
};

static int
run_azure(struct provider_run *run, const struct harness_route *routes,
    size_t nroutes, const char *dir, const char *base_url,
    struct harness_log *log, struct err *err)
{
	provider_run_init(run, &provider_azure);
	run->base_url = base_url;
	run->now = NOW;
	err_clear(err);
	return harness_run(&provider_azure, run, routes, nroutes, dir, 0, log,
	    err);
}

static void
check_offer(const struct offer *o, const char *gpu, const char *gpu_raw,
    int count, int vram, enum interconnect ic, int64_t price, int64_t spot,
    int vcpus, double ram)
{
	assert_string_equal(o->provider, "azure");
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

/* qsort() order of two strings. */
static int
compare_strings(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/*
 * Exactly the offers the fixtures describe: no Windows, Low Priority,
 * Dev/Test, reservation, fractional, secondary-meter or zero row.
 */
static void
test_parse(void **state)
{
	static const char *const want[] = {
		"Standard_NC24ads_A100_v4/swedencentral",
		"Standard_NC40ads_H100_v5/eastus",
		"Standard_NC48ads_A100_v4/eastus",
		"Standard_ND128isr_GB300_v6/eastus",
		"Standard_ND96amsr_A100_v4/westus2",
		"Standard_ND96isr_H100_v5/eastus",
		"Standard_ND96isr_H100_v5/westeurope",
		"Standard_ND96isr_H200_v5/eastus2",
		"Standard_ND96isr_MI300X_v5/westus",
		"Standard_NV12s_v3/eastus",
		"Standard_NV36ads_A10_v5/eastus",
	};
	const char *keys[16];
	struct provider_run run;
	struct err err;
	size_t i;

	(void)state;
	assert_int_equal(run_azure(&run, good_routes, 2, NULL, NULL, NULL,
	    &err), 0);
	assert_int_equal(run.offers.n, sizeof want / sizeof want[0]);
	for (i = 0; i < run.offers.n; i++)
		keys[i] = run.offers.v[i].key;
	qsort(keys, run.offers.n, sizeof keys[0], compare_strings);
	for (i = 0; i < run.offers.n; i++)
		assert_string_equal(keys[i], want[i]);
	/* 3 Windows (a Low Priority row of a Windows product among them),
	 * 1 Low Priority, 1 Dev/Test, 1 reservation (of a CPU size: the
	 * GPU sizes' are committed prices now), 1 fraction, 3 others
	 * (secondary meter, zero price, monthly unit). The dearer repeat
	 * is a price, not a skip. ND128isr_GB300_v6, an unknown size
	 * until issue 44, is an offer with its two savings plans. */
	assert_int_equal(run.skipped, 10);
	assert_string_equal(run.note, "skipped 3 Windows; 1 Low Priority; "
	    "1 Dev/Test; 1 reservation; 1 fractional-GPU; 3 other; "
	    "3 reservation and 20 savings-plan prices; 1 committed price "
	    "below a tenth of on-demand dropped");
	assert_int_equal(run.unknown_gpu, 1);

	/* On-demand and Spot joined; the Windows row's 102.736 is not it. */
	check_offer(harness_offer(&run, "Standard_ND96isr_H100_v5/eastus"), "H100",
	    "H100 SXM", 8, 80, IC_NVLINK, 98320000, 18169536, 96, 1900);
	assert_string_equal(harness_offer(&run, "Standard_ND96isr_H100_v5/eastus")->
	    instance_type, "Standard_ND96isr_H100_v5");
	assert_string_equal(harness_offer(&run, "Standard_ND96isr_H100_v5/eastus")->
	    region, "eastus");
	/* meterName "ND96isr H100 v5" with spaces: the same size. */
	check_offer(harness_offer(&run, "Standard_ND96isr_H100_v5/westeurope"), "H100",
	    "H100 SXM", 8, 80, IC_NVLINK, 127816000, 23620397, 96, 1900);
	/* H100 NVL, not the 80 GB H100; the repeat at 7.10 does not win. */
	check_offer(harness_offer(&run, "Standard_NC40ads_H100_v5/eastus"), "H100-NVL",
	    "H100 NVL", 1, 94, IC_PCIE, 6980000, MONEY_NONE, 40, 320);
	/* The reservation's 42066 (a year) is not the hourly price. */
	check_offer(harness_offer(&run, "Standard_NC48ads_A100_v4/eastus"), "A100-80",
	    "A100 PCIe", 2, 80, IC_PCIE, 7346000, MONEY_NONE, 48, 440);
	/* Spot only: the Windows Spot row is not it. */
	check_offer(harness_offer(&run, "Standard_NC24ads_A100_v4/swedencentral"),
	    "A100-80", "A100 PCIe", 1, 80, IC_PCIE, MONEY_NONE, 2079990, 24,
	    220);
	check_offer(harness_offer(&run, "Standard_ND96isr_MI300X_v5/westus"), "MI300X",
	    "MI300X", 8, 192, IC_UNKNOWN, 62853000, MONEY_NONE, 96, 1850);
	check_offer(harness_offer(&run, "Standard_ND96isr_H200_v5/eastus2"), "H200",
	    "H200", 8, 141, IC_NVLINK, 84800000, MONEY_NONE, 96, 1850);
	check_offer(harness_offer(&run, "Standard_ND96amsr_A100_v4/westus2"), "A100-80",
	    "A100 SXM", 8, 80, IC_NVLINK, 32770000, MONEY_NONE, 96, 1800);
	check_offer(harness_offer(&run, "Standard_NV36ads_A10_v5/eastus"), "A10", "A10",
	    1, 24, IC_PCIE, 3200000, 591360, 36, 440);
	/* M60 is not in the catalogue: kept, reported, not guessed. */
	check_offer(harness_offer(&run, "Standard_NV12s_v3/eastus"), "", "M60", 1, 8,
	    IC_PCIE, 1140000, MONEY_NONE, 12, 112);
	provider_run_done(&run);
}

/* Is entry i of o the committed price kind/months/upfront at price? */
static void
check_committed(const struct offer *o, size_t i, enum committed_kind kind,
    int months, enum committed_upfront upfront, int64_t price,
    int64_t upfront_usd)
{
	assert_true(i < o->ncommitted);
	assert_int_equal(o->committed[i].kind, kind);
	assert_int_equal(o->committed[i].months, months);
	assert_int_equal(o->committed[i].upfront_kind, upfront);
	assert_int_equal(o->committed[i].price_hour, price);
	assert_int_equal(o->committed[i].upfront, upfront_usd);
}

/*
 * Reservation rows are the whole term's price although their unit says
 * "1 Hour": ND96isr H200 v5 in eastus2, 612,000 USD for a year, is
 * 69.863014 USD an hour (612,000 / 8,760), never 612,000; savingsPlan[]
 * rates are hourly as they stand. A 3-year reservation of 40 USD (an
 * hourly price filed as a term's) is below a tenth of on-demand:
 * dropped, not shown as a 99.99 % saving.
 */
static void
test_committed(void **state)
{
	const struct offer *o;
	struct provider_run run;
	struct err err;
	size_t i;

	(void)state;
	assert_int_equal(run_azure(&run, good_routes, 2, NULL, NULL, NULL,
	    &err), 0);
	o = harness_offer(&run, "Standard_ND96isr_H200_v5/eastus2");
	assert_int_equal(o->price, 84800000);
	assert_int_equal(o->ncommitted, 4);
	check_committed(o, 0, CK_RESERVATION, 12, CU_ALL, 69863014,
	    (int64_t)612000 * MONEY_UNIT);
	check_committed(o, 1, CK_RESERVATION, 36, CU_ALL, 47564688,
	    (int64_t)1250000 * MONEY_UNIT);
	check_committed(o, 2, CK_SAVINGS_PLAN, 12, CU_NONE, 55120000, 0);
	check_committed(o, 3, CK_SAVINGS_PLAN, 36, CU_NONE, 38160000, 0);
	assert_int_equal(committed_best(o->committed, o->ncommitted, 12)->
	    price_hour, 55120000);
	assert_int_equal(committed_best(o->committed, o->ncommitted,
	    TERM_ANY)->price_hour, 38160000);

	/* NC48ads A100 v4: 42,066 a year is 4.802055 an hour. */
	o = harness_offer(&run, "Standard_NC48ads_A100_v4/eastus");
	assert_int_equal(o->price, 7346000);
	check_committed(o, 0, CK_RESERVATION, 12, CU_ALL, 4802055,
	    (int64_t)42066 * MONEY_UNIT);

	/* MI300X: only its savings plans; the 40 USD "3 Years" is gone. */
	o = harness_offer(&run, "Standard_ND96isr_MI300X_v5/westus");
	assert_int_equal(o->ncommitted, 2);
	for (i = 0; i < o->ncommitted; i++)
		assert_int_equal(o->committed[i].kind, CK_SAVINGS_PLAN);

	/* Spot-only: no savings plan is read from a Spot row. */
	o = harness_offer(&run, "Standard_NC24ads_A100_v4/swedencentral");
	assert_int_equal(o->ncommitted, 0);
	provider_run_done(&run);
}

/*
 * NextPageLink is absolute on prices.azure.com:443: followed on Azure's
 * origin, or on GPUCOST_AZURE_URL with its path and query kept.
 */
static void
test_next_link(void **state)
{
	struct harness_log log;
	struct provider_run run;
	struct err err;

	(void)state;
	memset(&log, 0, sizeof log);
	assert_int_equal(run_azure(&run, good_routes, 2, NULL, NULL, &log,
	    &err), 0);
	assert_int_equal(log.n, 2);
	assert_string_equal(log.url[0], "https://prices.azure.com" FIRST);
	assert_string_equal(log.url[1], "https://prices.azure.com" FIRST
	    "&$skip=1000");
	harness_log_free(&log);
	provider_run_done(&run);

	memset(&log, 0, sizeof log);
	assert_int_equal(run_azure(&run, good_routes, 2, NULL,
	    "http://127.0.0.1:8080/", &log, &err), 0);
	assert_int_equal(log.n, 2);
	assert_string_equal(log.url[0], "http://127.0.0.1:8080" FIRST);
	assert_string_equal(log.url[1], "http://127.0.0.1:8080" FIRST
	    "&$skip=1000");
	assert_int_equal(run.offers.n, 11);
	harness_log_free(&log);
	provider_run_done(&run);
}

/* A scratch directory of one-off pages. */
static char scratch[64];

static void
write_page(const char *name, const char *body)
{
	char path[128];
	FILE *f;

	snprintf(path, sizeof path, "%s/%s", scratch, name);
	assert_non_null(f = fopen(path, "w"));
	fputs(body, f);
	assert_int_equal(fclose(f), 0);
}

/* One Linux on-demand item of a size, with a price text. */
#define ITEM(sku, price)						\
	"{\"currencyCode\": \"USD\", \"retailPrice\": " price ", "	\
	"\"armRegionName\": \"eastus\", \"meterName\": \"x\", "		\
	"\"productName\": \"Virtual Machines X Series\", "		\
	"\"unitOfMeasure\": \"1 Hour\", \"type\": \"Consumption\", "	\
	"\"armSkuName\": \"" sku "\"}"
#define PAGE(items, next)						\
	"{\"BillingCurrency\": \"USD\", \"Items\": [" items "], "	\
	"\"NextPageLink\": " next "}"

/* The page in file answers every request; the run fails with want. */
static void
expect_error(const char *file, const char *body, const char *want)
{
	struct harness_route routes[] = { { "/api/", NULL, file, 0 } };
	struct provider_run run;
	struct err err;

	write_page(file, body);
	assert_int_equal(run_azure(&run, routes, 1, scratch, NULL, NULL,
	    &err), -1);
	if (strstr(err.msg, want) == NULL)
		fail_msg("%s: \"%s\" does not contain \"%s\"", file, err.msg,
		    want);
	assert_true(str_is_clean(err.msg));
	provider_run_done(&run);
}

static void
test_bad_pages(void **state)
{
	(void)state;
	expect_error("html.json", "<!DOCTYPE html><html>busy</html>",
	    "page 1: expected JSON, got HTML");
	expect_error("cut.json", "{\"Items\": [{\"armSkuName\": \"Stan",
	    "page 1: malformed JSON");
	expect_error("no-items.json", "{\"items\": []}",
	    "page 1: response.Items: expected an array, got nothing");
	expect_error("item-string.json", PAGE("\"x\"", "null"),
	    "page 1: Items[0]: expected an object, got string");
	expect_error("no-type.json", "{\"Items\": [{\"armSkuName\": "
	    "\"Standard_NC6s_v3\", \"retailPrice\": 1}]}",
	    "page 1: Items[0].type: missing");
	expect_error("negative.json", PAGE(ITEM("Standard_NC6s_v3", "-3.06"),
	    "null"), "Items[0].retailPrice: price -3.06 is negative");
	expect_error("huge.json", PAGE(ITEM("Standard_NC6s_v3", "1e300"),
	    "null"), "Items[0].retailPrice: price 1e+300 is negative, not "
	    "finite or absurd");
	expect_error("absurd.json", PAGE(ITEM("Standard_NC6s_v3", "98000"),
	    "null"), "Items[0].retailPrice: 98000.00 USD is out of range "
	    "0..5000");
	expect_error("price-text.json", PAGE(ITEM("Standard_NC6s_v3",
	    "\"cheap\""), "null"), "Items[0].retailPrice: expected a price "
	    "in USD, got \"cheap\"");
	expect_error("eur.json", PAGE("{\"currencyCode\": \"EUR\", "
	    "\"retailPrice\": 2, \"type\": \"Consumption\"}", "null"),
	    "Items[0].currencyCode: expected USD, got \"EUR\"");
	expect_error("next-number.json", PAGE("", "7"),
	    "page 1: NextPageLink: expected a string, got number");
	expect_error("next-relative.json", PAGE("", "\"api/retail\""),
	    "NextPageLink is neither an absolute URL nor a path");
	expect_error("term.json", PAGE("{\"currencyCode\": \"USD\", "
	    "\"retailPrice\": 9000, \"armRegionName\": \"eastus\", "
	    "\"meterName\": \"x\", \"productName\": \"Virtual Machines\", "
	    "\"unitOfMeasure\": \"1 Hour\", \"type\": \"Reservation\", "
	    "\"reservationTerm\": \"2 Weeks\", "
	    "\"armSkuName\": \"Standard_NC6s_v3\"}", "null"),
	    "Items[0].reservationTerm: expected \"1 Year\" or \"3 Years\", "
	    "got \"2 Weeks\"");
	expect_error("plan-term.json", PAGE("{\"currencyCode\": \"USD\", "
	    "\"retailPrice\": 3, \"armRegionName\": \"eastus\", "
	    "\"meterName\": \"x\", \"productName\": \"Virtual Machines\", "
	    "\"unitOfMeasure\": \"1 Hour\", \"type\": \"Consumption\", "
	    "\"savingsPlan\": [{\"retailPrice\": 2, \"term\": \"1 Month\"}], "
	    "\"armSkuName\": \"Standard_NC6s_v3\"}", "null"),
	    "Items[0].savingsPlan[0].term: expected \"1 Year\"");
	/* A page whose link names itself again is a loop. */
	expect_error("loop.json", PAGE(ITEM("Standard_NC6s_v3", "3.06"),
	    "\"https://prices.azure.com:443" FIRST "\""),
	    "page 1: NextPageLink names the same page again (a loop)");
}

/* Links that differ every time still end at AZURE_PAGES_MAX pages. */
static void
test_endless_pages(void **state)
{
	struct harness_route routes[] = {
		{ "skip=2", NULL, "odd.json", 0 },
		{ "/api/", NULL, "even.json", 0 },
	};
	struct provider_run run;
	struct err err;

	(void)state;
	write_page("even.json", PAGE("", "\"https://prices.azure.com/api/"
	    "retail/prices?$skip=2\""));
	write_page("odd.json", PAGE("", "\"https://prices.azure.com/api/"
	    "retail/prices?$skip=1\""));
	assert_int_equal(run_azure(&run, routes, 2, scratch, NULL, NULL,
	    &err), -1);
	assert_non_null(strstr(err.msg, "more than 200 pages"));
	provider_run_done(&run);
}

/*
 * A link to another host never leaves Azure's origin (or the override);
 * bytes a URL may not carry raw are escaped.
 */
static void
test_foreign_link(void **state)
{
	struct harness_route routes[] = {
		{ "evil", NULL, "last.json", 0 },
		{ "/api/", NULL, "first.json", 0 },
	};
	struct harness_log log;
	struct provider_run run;
	struct err err;

	(void)state;
	write_page("first.json", PAGE(ITEM("Standard_NC6s_v3", "3.06"),
	    "\"https://attacker.example:8443/evil?a=b c\\u0001\""));
	write_page("last.json", PAGE("", "\"\""));
	memset(&log, 0, sizeof log);
	assert_int_equal(run_azure(&run, routes, 2, scratch,
	    "http://127.0.0.1:9", &log, &err), 0);
	assert_int_equal(log.n, 2);
	assert_string_equal(log.url[1], "http://127.0.0.1:9/evil?a=b%20c%01");
	assert_int_equal(run.offers.n, 1);
	check_offer(&run.offers.v[0], "V100-16", "V100", 1, 16, IC_PCIE,
	    3060000, MONEY_NONE, 6, 112);
	harness_log_free(&log);
	provider_run_done(&run);
}

/* Only N-series sizes are GPU sizes; a fraction is never a whole GPU. */
static void
test_sizes(void **state)
{
	struct harness_route routes[] = { { "/api/", NULL, "sizes.json", 0 } };
	struct provider_run run;
	struct err err;

	(void)state;
	write_page("sizes.json", PAGE(ITEM("Standard_D8_v4", "0.384") ","
	    ITEM("Standard_NV6ads_A10_v5", "0.454") ","
	    ITEM("Standard_NV4as_v4", "0.17") ","
	    ITEM("Standard_NC999_Z9_v9", "12") ","
	    ITEM("standard_nc6s_v3", "3.06") ","
	    ITEM("", "3.06"), "null"));
	assert_int_equal(run_azure(&run, routes, 1, scratch, NULL, NULL,
	    &err), 0);
	assert_int_equal(run.offers.n, 1);
	assert_string_equal(run.offers.v[0].instance_type, "Standard_NC6s_v3");
	assert_int_equal(run.skipped, 5);
	assert_string_equal(run.note, "skipped 2 fractional-GPU; "
	    "1 unknown-size; 1 non-GPU; 1 other; first unknown size "
	    "Standard_NC999_Z9_v9");
	provider_run_done(&run);
}

/*
 * Sizes of 2025-2026 (issue 44): GB300, RTX PRO 6000 BSE and Radeon PRO
 * V710 by their whole GPUs; the slices of a card are not offers.
 */
static void
test_sizes_2026(void **state)
{
	static const struct {
		const char *size, *price, *gpu, *raw;
		int count, vram;
		enum interconnect ic;
		int vcpus;
		double ram;
	} want[] = {
		{ "Standard_ND128isr_GB300_v6", "130", "GB300", "GB300", 4, 288,
		    IC_NVLINK, 128, 0 },
		{ "Standard_NC128ds_xl_RTXPRO6000BSE_v6", "6.38", "RTXPRO6000",
		    "RTX PRO 6000", 1, 96, IC_PCIE, 128, 512 },
		{ "Standard_NC144lds_xl_RTXPRO6000BSE_v6", "5.5", "RTXPRO6000",
		    "RTX PRO 6000", 1, 96, IC_PCIE, 144, 264 },
		{ "Standard_NC288ds_xl_RTXPRO6000BSE_v6", "11.0", "RTXPRO6000",
		    "RTX PRO 6000", 2, 96, IC_PCIE, 288, 1032 },
		{ "Standard_NV24ads_V710_v5", "1.94", "V710", "Radeon Pro V710",
		    1, 24, IC_PCIE, 24, 128 },
		{ "Standard_NV28adms_V710_v5", "2.36", "V710", "Radeon Pro V710",
		    1, 24, IC_PCIE, 28, 160 },
	};
	/* Slices of one card: 1/4, 1/4, 1/2, 1/6 and 1/2. */
	static const char *const slices[] = {
		"Standard_NC24lds_xl_RTXPRO6000BSE_v6",
		"Standard_NC36lds_xl_RTXPRO6000BSE_v6",
		"Standard_NC72ds_xl_RTXPRO6000BSE_v6",
		"Standard_NV4ads_V710_v5", "Standard_NV12ads_V710_v5",
	};
	struct harness_route routes[] = { { "/api/", NULL, "new.json", 0 } };
	struct provider_run run;
	struct err err;
	char key[96], body[8192];
	int64_t price;
	size_t i, len;

	(void)state;
	/* ITEM() with its two holes: the price comes first, then the size. */
	len = (size_t)snprintf(body, sizeof body, "{\"Items\": [");
	for (i = 0; i < sizeof want / sizeof want[0] + sizeof slices /
	    sizeof slices[0]; i++)
		len += (size_t)snprintf(body + len, sizeof body - len,
		    "%s" ITEM("%s", "%s"), i > 0 ? ", " : "",
		    i < sizeof want / sizeof want[0] ? want[i].price : "1.1",
		    i < sizeof want / sizeof want[0] ? want[i].size :
		    slices[i - sizeof want / sizeof want[0]]);
	snprintf(body + len, sizeof body - len, "], \"NextPageLink\": null}");
	write_page("new.json", body);
	assert_int_equal(run_azure(&run, routes, 1, scratch, NULL, NULL,
	    &err), 0);
	assert_int_equal(run.offers.n, sizeof want / sizeof want[0]);
	assert_int_equal(run.unknown_gpu, 0);
	for (i = 0; i < sizeof want / sizeof want[0]; i++) {
		snprintf(key, sizeof key, "%s/eastus", want[i].size);
		assert_int_equal(money_parse(want[i].price,
		    strlen(want[i].price), &price), 0);
		check_offer(harness_offer(&run, key), want[i].gpu, want[i].raw,
		    want[i].count, want[i].vram, want[i].ic, price,
		    MONEY_NONE, want[i].vcpus, want[i].ram);
	}
	assert_string_equal(run.note, "skipped 5 fractional-GPU");
	provider_run_done(&run);
}

static int
setup(void **state)
{
	(void)state;
	snprintf(scratch, sizeof scratch, "/tmp/test_azure.XXXXXX");
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
		cmocka_unit_test(test_committed),
		cmocka_unit_test(test_next_link),
		cmocka_unit_test(test_bad_pages),
		cmocka_unit_test(test_endless_pages),
		cmocka_unit_test(test_foreign_link),
		cmocka_unit_test(test_sizes),
		cmocka_unit_test(test_sizes_2026),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
