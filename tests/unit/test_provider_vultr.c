/* test_provider_vultr.c: the Vultr adapter on fixture files. */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "adapter_harness.h"
#include "err.h"
#include "money.h"
#include "notes.h"
#include "offer.h"
#include "provider.h"
#include "str.h"

extern const struct provider provider_vultr;

#define NOW 1767225600	/* 2026-01-01 */

#define PAGE1	"https://api.vultr.com/v2/plans?type=all&per_page=500"
#define PAGE2	PAGE1 "&cursor=bmV4dF9fMg%3D%3D"
#define METAL	"https://api.vultr.com/v2/plans-metal?per_page=500"

/* The good path: two pages of plans, one of bare metal. */
static const struct harness_route good_routes[] = {
	{ "/v2/plans-metal?", NULL, "plans-metal.json", 0 },
	{ "cursor=bmV4dF9fMg%3D%3D", NULL, "plans-2.json", 0 },
	{ "/v2/plans?", NULL, "plans-1.json", 0 },
};

static int
run_routes(struct provider_run *run, const struct harness_route *routes,
    size_t nroutes, const char *key, const char *base_url,
    struct harness_log *log, struct err *err)
{
	provider_run_init(run, &provider_vultr);
	run->api_key = key;
	run->base_url = base_url;
	run->now = NOW;
	err_clear(err);
	return harness_run(&provider_vultr, run, routes, nroutes, NULL, 0, log,
	    err);
}

static void
check_offer(const struct offer *o, const char *type, const char *region,
    const char *gpu, const char *gpu_raw, int count, int vram,
    enum interconnect ic, int64_t price, int64_t spot, int vcpus, double ram,
    enum availability av)
{
	assert_string_equal(o->provider, "vultr");
	assert_string_equal(o->instance_type, type);
	assert_string_equal(o->region, region);
	assert_string_equal(o->gpu, gpu);
	assert_string_equal(o->gpu_raw, gpu_raw);
	assert_int_equal(o->gpu_count, count);
	assert_int_equal(o->vram_gb, vram);
	assert_int_equal(o->interconnect, ic);
	assert_int_equal(o->price, price);
	assert_int_equal(o->spot_price, spot);
	assert_int_equal(o->vcpus, vcpus);
	assert_true(fabs(o->ram_gb - ram) < 1e-9);
	assert_int_equal(o->availability, av);
	assert_int_equal(o->fetched_at, NOW);
	assert_int_equal(o->source, SRC_LIVE);
	assert_true(o->reliability < 0);
}

/* Every offer of the good path, field by field, and what was skipped. */
static void
test_parse(void **state)
{
	struct provider_run run;
	struct err err;
	size_t i;

	(void)state;
	assert_int_equal(run_routes(&run, good_routes, 3, NULL, NULL, NULL,
	    &err), 0);
	assert_int_equal(run.offers.n, 11);
	assert_int_equal(run.skipped, 14);
	assert_int_equal(run.unknown_gpu, 1);
	assert_string_equal(run.note,
	    "4 fractional vGPU plans skipped; 4 CPU plans skipped; "
	    "1 zero-priced plan skipped; 3 GPU plans of unknown shape skipped; "
	    "1 GPU plan without a location skipped; "
	    "1 GPU plan not sold on demand skipped");

	/*
	 * "ewr" listed twice gives one offer; lax has a location_cost. No
	 * spot price, though the plan has hourly_cost_preemptible: no
	 * other source confirms it, and no command rents at it (issue 48).
	 */
	check_offer(harness_offer(&run, "vcg-l40s-16c-180g-48vram/ewr"),
	    "vcg-l40s-16c-180g-48vram", "ewr", "L40S", "NVIDIA_L40S", 1, 48,
	    IC_PCIE, 1871000, MONEY_NONE, 16, 180, AV_UNKNOWN);
	check_offer(harness_offer(&run, "vcg-l40s-16c-180g-48vram/lax"),
	    "vcg-l40s-16c-180g-48vram", "lax", "L40S", "NVIDIA_L40S", 1, 48,
	    IC_PCIE, 1995000, MONEY_NONE, 16, 180, AV_UNKNOWN);

	/* NVIDIA_A100 with 80 GB per GPU is the 80 GB card. */
	check_offer(harness_offer(&run, "vcg-a100-12c-120g-80vram/ewr"),
	    "vcg-a100-12c-120g-80vram", "ewr", "A100-80", "NVIDIA_A100", 1, 80,
	    IC_UNKNOWN, 2604000, MONEY_NONE, 12, 120, AV_UNKNOWN);
	check_offer(harness_offer(&run, "vcg-a100-12c-120g-80vram/fra"),
	    "vcg-a100-12c-120g-80vram", "fra", "A100-80", "NVIDIA_A100", 1, 80,
	    IC_UNKNOWN, 2604000, MONEY_NONE, 12, 120, AV_UNKNOWN);

	/* Page 2: vram_gb is per GPU (160 GB over 2 GPUs); VMs are pcie. */
	check_offer(harness_offer(&run, "vcg-a100-24c-240g-160vram/fra"),
	    "vcg-a100-24c-240g-160vram", "fra", "A100-80", "NVIDIA_A100", 2,
	    80, IC_PCIE, 5208000, MONEY_NONE, 24, 240, AV_UNKNOWN);

	/* No gpu_count: 96 GB of L40S (48 GB) is two cards. */
	check_offer(harness_offer(&run, "vcg-l40s-32c-375g-96vram/sjc"),
	    "vcg-l40s-32c-375g-96vram", "sjc", "L40S", "NVIDIA_L40S", 2, 48,
	    IC_PCIE, 3742000, MONEY_NONE, 32, 375, AV_UNKNOWN);

	/*
	 * A vdm plan with deploy_ondemand false and no spot: its
	 * hourly_cost is not an on-demand price, so it is no offer.
	 */
	for (i = 0; i < run.offers.n; i++)
		assert_string_not_equal(run.offers.v[i].instance_type,
		    "vcg-h100-216c-1914gb-640vram");
	/* With no spot price there is nothing of low confidence. */
	for (i = 0; i < run.offers.n; i++)
		assert_int_equal(run.offers.v[i].notes &
		    NOTE_BIT(NOTE_LOW_CONFIDENCE), 0);

	/* An unknown gpu_type is kept with its raw name and per-GPU VRAM. */
	check_offer(harness_offer(&run, "vcg-x900-8c-64g-64vram/ams"),
	    "vcg-x900-8c-64g-64vram", "ams", "", "NVIDIA_X900", 1, 64,
	    IC_UNKNOWN, 3100000, MONEY_NONE, 8, 64, AV_UNKNOWN);

	/* Bare metal: the table, cpu_threads; no preemptible prices. */
	check_offer(harness_offer(&run, "vbm-112c-2048gb-8-h100-gpu/sea"),
	    "vbm-112c-2048gb-8-h100-gpu", "sea", "H100", "NVIDIA_H100", 8, 80,
	    IC_NVLINK, 21840000, MONEY_NONE, 224, 2048, AV_UNKNOWN);
	check_offer(harness_offer(&run, "vbm-112c-2048gb-8-h100-gpu/ewr"),
	    "vbm-112c-2048gb-8-h100-gpu", "ewr", "H100", "NVIDIA_H100", 8, 80,
	    IC_NVLINK, 21840000, MONEY_NONE, 224, 2048, AV_UNKNOWN);
	check_offer(harness_offer(&run, "vbm-256c-2048gb-8-mi300x-gpu/ord"),
	    "vbm-256c-2048gb-8-mi300x-gpu", "ord", "MI300X", "AMD_MI300X", 8,
	    192, IC_UNKNOWN, 15960000, MONEY_NONE, 256, 2267.5, AV_UNKNOWN);
	provider_run_done(&run);
}

/* Vultr's B200: 1536 GB over 8 GPUs is 192 GB each, printed as such. */
static void
test_b200_vram(void **state)
{
	static const struct harness_route routes[] = {
		{ "/v2/plans-metal?", NULL, "plans-metal.json", 0 },
		{ "/v2/plans?", NULL, "plans-b200.json", 0 },
	};
	struct provider_run run;
	struct err err;

	(void)state;
	assert_int_equal(run_routes(&run, routes, 2, NULL, NULL, NULL, &err),
	    0);
	check_offer(harness_offer(&run, "vcg-b200-248c-2826g-1536vram/atl"),
	    "vcg-b200-248c-2826g-1536vram", "atl", "B200", "NVIDIA_B200", 8,
	    192, IC_NVLINK, 79920000, MONEY_NONE, 248, 2826, AV_UNKNOWN);
	provider_run_done(&run);
}

/*
 * hourly_cost_preemptible is no spot price (issue 48): no source but the
 * plan list confirms it and no command rents at it, so an on-demand plan
 * keeps only its on-demand price, and a plan sold only preemptible is no
 * offer (it was one with a spot price alone).
 */
static void
test_preemptible_ignored(void **state)
{
	static const struct harness_route routes[] = {
		{ "/v2/plans-metal?", NULL, "plans-metal.json", 0 },
		{ "/v2/plans?", NULL, "plans-preemptible.json", 0 },
	};
	struct provider_run run;
	struct err err;
	size_t i;

	(void)state;
	assert_int_equal(run_routes(&run, routes, 2, NULL, NULL, NULL, &err),
	    0);
	check_offer(harness_offer(&run, "vcg-l40s-16c-180g-48vram/ewr"),
	    "vcg-l40s-16c-180g-48vram", "ewr", "L40S", "NVIDIA_L40S", 1, 48,
	    IC_PCIE, 1871000, MONEY_NONE, 16, 180, AV_UNKNOWN);
	for (i = 0; i < run.offers.n; i++) {
		assert_string_not_equal(run.offers.v[i].instance_type,
		    "vcg-a40-24c-120g-48vram");
		assert_false(money_known(run.offers.v[i].spot_price));
	}
	assert_non_null(strstr(run.note, "1 GPU plan not sold on demand "
	    "skipped"));
	provider_run_done(&run);
}

/* Escape sequences in gpu_type and locations come out clean. */
static void
test_hostile_strings(void **state)
{
	struct provider_run run;
	struct err err;
	const struct offer *o;
	size_t i;

	(void)state;
	assert_int_equal(run_routes(&run, good_routes, 3, NULL, NULL, NULL,
	    &err), 0);
	/* "nrt" + ESC[2J BEL is nrt; a location of only escapes is none. */
	check_offer(harness_offer(&run, "vcg-l40s-8c-90g-48vram/nrt"),
	    "vcg-l40s-8c-90g-48vram", "nrt", "L40S", "NVIDIA_L40S", 1, 48,
	    IC_PCIE, 1440000, MONEY_NONE, 8, 90, AV_UNKNOWN);
	for (i = 0; i < run.offers.n; i++) {
		o = &run.offers.v[i];
		assert_true(str_is_clean(o->key));
		assert_true(str_is_clean(o->instance_type));
		assert_true(str_is_clean(o->region));
		assert_true(str_is_clean(o->gpu_raw));
		assert_true(o->region[0] != '\0');
		if (strcmp(o->instance_type, "vcg-l40s-8c-90g-48vram") == 0)
			assert_string_equal(o->region, "nrt");
	}
	provider_run_done(&run);
}

/* Two pages of plans (the cursor in the second URL) and one of metal. */
static void
test_pagination(void **state)
{
	struct provider_run run;
	struct harness_log log = { 0 };
	struct err err;
	size_t i;

	(void)state;
	assert_int_equal(run_routes(&run, good_routes, 3, NULL, NULL, &log,
	    &err), 0);
	assert_int_equal(log.n, 3);
	assert_string_equal(log.url[0], PAGE1);
	assert_string_equal(log.url[1], METAL);
	assert_string_equal(log.url[2], PAGE2);
	for (i = 0; i < log.n; i++) {
		assert_string_equal(log.method[i], "GET");
		assert_string_equal(log.headers[i],
		    "Accept: application/json\n");
		assert_string_equal(log.body[i], "");
	}
	harness_log_free(&log);
	provider_run_done(&run);
}

/* A list without a meta envelope is one page. */
static void
test_no_meta(void **state)
{
	struct harness_route routes[] = {
		{ "/v2/plans-metal?", NULL, "plans-metal.json", 0 },
		{ "/v2/plans?", NULL, "no-meta.json", 0 },
	};
	struct provider_run run;
	struct harness_log log = { 0 };
	struct err err;

	(void)state;
	assert_int_equal(run_routes(&run, routes, 2, NULL, NULL, &log, &err),
	    0);
	assert_int_equal(log.n, 2);
	assert_string_equal(log.url[0], PAGE1);
	assert_string_equal(log.url[1], METAL);
	/* 2 A100 offers + 3 metal; vc2 + vbm-4c CPU, one unknown metal. */
	assert_int_equal(run.offers.n, 5);
	assert_int_equal(run.skipped, 3);
	assert_string_equal(run.note, "2 CPU plans skipped; "
	    "1 GPU plan of unknown shape skipped");
	harness_log_free(&log);
	provider_run_done(&run);
}

/* A key travels in the Authorization header only; the override keeps paths. */
static void
test_key_header(void **state)
{
	static const char key[] = "VULTRKEY0123456789ABCDEF";
	struct provider_run run;
	struct harness_log log = { 0 };
	struct err err;
	size_t i;

	(void)state;
	assert_int_equal(run_routes(&run, good_routes, 3, key,
	    "http://127.0.0.1:8124", &log, &err), 0);
	assert_int_equal(log.n, 3);
	assert_string_equal(log.url[0],
	    "http://127.0.0.1:8124/v2/plans?type=all&per_page=500");
	assert_string_equal(log.url[2], "http://127.0.0.1:8124/v2/plans?"
	    "type=all&per_page=500&cursor=bmV4dF9fMg%3D%3D");
	for (i = 0; i < log.n; i++) {
		assert_non_null(strstr(log.headers[i],
		    "Authorization: Bearer VULTRKEY0123456789ABCDEF\n"));
		assert_null(strstr(log.url[i], key));
		assert_null(strstr(log.body[i], key));
	}
	assert_int_equal(run.offers.n, 11);
	harness_log_free(&log);
	provider_run_done(&run);
}

static void
expect_routes_error(const struct harness_route *routes, size_t nroutes,
    const char *what, const char *want)
{
	struct provider_run run;
	struct err err;

	assert_int_equal(run_routes(&run, routes, nroutes, "vk-secret", NULL,
	    NULL, &err), -1);
	if (strstr(err.msg, want) == NULL)
		fail_msg("%s: \"%s\" does not contain \"%s\"", what, err.msg,
		    want);
	assert_null(strstr(err.msg, "vk-secret"));
	assert_true(str_is_clean(err.msg));
	provider_run_done(&run);
}

/* Plans answered by file fail the provider with this text. */
static void
expect_error(const char *file, const char *want)
{
	struct harness_route routes[] = {
		{ "/v2/plans-metal?", NULL, "plans-metal.json", 0 },
		{ "/v2/plans?", NULL, file, 0 },
	};

	expect_routes_error(routes, 2, file, want);
}

static void
test_bad_bodies(void **state)
{
	struct harness_route metal[] = {
		{ "/v2/plans-metal?", NULL, "bad-metal-missing.json", 0 },
		{ "/v2/plans?", NULL, "plans-2.json", 0 },
	};

	(void)state;
	expect_error("bad-truncated.json", "plans page 1: malformed JSON at "
	    "byte");
	expect_error("bad-html.json", "plans page 1: expected JSON, got HTML");
	expect_error("bad-missing.json",
	    "plans page 1: response.plans: expected an array, got nothing");
	expect_routes_error(metal, 2, "metal", "plans_metal page 1: "
	    "response.plans_metal: expected an array, got nothing");
	expect_error("bad-next-number.json",
	    "plans page 1: meta.links.next: expected a string, got number");
}

static void
test_absurd_values(void **state)
{
	(void)state;
	expect_error("bad-count-zero.json",
	    "plan vcg-z0-8c-60g-48vram: gpu_count 0 is out of range 1..64");
	expect_error("bad-count-million.json",
	    "plan vcg-zm-8c-60g-48vram: gpu_count 1000000 is out of range "
	    "1..64");
	expect_error("bad-count-garbage.json",
	    "plan vcg-zg-8c-60g-48vram: plans[1].gpu_count: expected a whole "
	    "number or a fraction, got \"two\"");
	expect_error("bad-price-huge.json",
	    "plan vcg-zh-8c-60g-48vram: hourly_cost 99999.00 is out of range "
	    "0..5000 USD/h");
	expect_error("bad-price-negative.json",
	    "plan vcg-zn-8c-60g-48vram: plans[1].hourly_cost: price -2.5 is "
	    "negative");
	/* json.c quotes the bad text; the adapter strips its escapes. */
	expect_error("bad-price-escape.json",
	    "plan vcg-ze-8c-60g-48vram: plans[1].hourly_cost: expected a price "
	    "in USD, got \"9.99\"");
	expect_error("bad-location-cost.json",
	    "plan vcg-zl-8c-60g-48vram: location_cost.ewr.hourly_cost: "
	    "expected a price in USD, got \"lots\"");
}

/* A cursor that names itself again, or pages that never end, fail. */
static void
test_cursor_loops(void **state)
{
	struct harness_route self[] = {
		{ "/v2/plans-metal?", NULL, "plans-metal.json", 0 },
		{ "/v2/plans?", NULL, "loop.json", 0 },
	};
	struct harness_route ping_pong[] = {
		{ "/v2/plans-metal?", NULL, "plans-metal.json", 0 },
		{ "cursor=cGluZw", NULL, "pong.json", 0 },
		{ "/v2/plans?", NULL, "ping.json", 0 },
	};
	struct harness_route dup[] = {
		{ "/v2/plans-metal?", NULL, "plans-metal.json", 0 },
		{ "cursor=bmV4dF9fMg", NULL, "dup-2.json", 0 },
		{ "/v2/plans?", NULL, "plans-1.json", 0 },
	};

	(void)state;
	expect_routes_error(self, 2, "self",
	    "plans page 2: meta.links.next repeats the page's own cursor");
	expect_routes_error(ping_pong, 3, "ping-pong",
	    "plans: more than 50 pages (a cursor loop?)");
	expect_routes_error(dup, 3, "dup",
	    "offer vcg-l40s-16c-180g-48vram/ewr is listed twice");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_b200_vram),
		cmocka_unit_test(test_preemptible_ignored),
		cmocka_unit_test(test_hostile_strings),
		cmocka_unit_test(test_pagination),
		cmocka_unit_test(test_no_meta),
		cmocka_unit_test(test_key_header),
		cmocka_unit_test(test_bad_bodies),
		cmocka_unit_test(test_absurd_values),
		cmocka_unit_test(test_cursor_loops),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
