/* test_provider_vast.c: the Vast.ai adapter on fixture files. */
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
#include "gpu.h"
#include "money.h"
#include "offer.h"
#include "provider.h"
#include "str.h"

extern const struct provider provider_vast;

#define NOW 1767225600	/* 2026-01-01 */

/* Run the adapter with the bundles search answered by file. */
static int
run_vast(struct provider_run *run, const char *file, const char *key,
    const char *base_url, struct harness_log *log, struct err *err)
{
	struct harness_route route = { "/api/v0/bundles/", NULL, file, 0 };

	provider_run_init(run, &provider_vast);
	run->api_key = key;
	run->base_url = base_url;
	run->now = NOW;
	err_clear(err);
	return harness_run(&provider_vast, run, &route, 1, NULL, 0, log, err);
}

/* Check the fields every test cares about. */
static void
check_offer(const struct offer *o, const char *gpu, const char *gpu_raw,
    int count, int vram, enum interconnect ic, int64_t price, int64_t spot,
    const char *region, int vcpus, double ram, enum availability av)
{
	assert_string_equal(o->provider, "vast");
	assert_string_equal(o->instance_type, o->key);
	assert_string_equal(o->gpu, gpu);
	assert_string_equal(o->gpu_raw, gpu_raw);
	assert_int_equal(o->gpu_count, count);
	assert_int_equal(o->vram_gb, vram);
	assert_int_equal(o->interconnect, ic);
	assert_int_equal(o->price, price);
	assert_int_equal(o->spot_price, spot);
	assert_string_equal(o->region, region);
	assert_int_equal(o->vcpus, vcpus);
	assert_true(fabs(o->ram_gb - ram) < 1e-9);
	assert_int_equal(o->availability, av);
	assert_int_equal(o->fetched_at, NOW);
	assert_int_equal(o->source, SRC_LIVE);
	assert_int_equal(o->spot_interruption, -1);
}

/* Every offer of the good fixture, field by field. */
static void
test_parse(void **state)
{
	struct provider_run run;
	struct harness_log log = { 0 };
	struct err err;
	const struct offer *o;

	(void)state;
	assert_int_equal(run_vast(&run, "offers.json", NULL, NULL, &log, &err),
	    0);
	assert_int_equal(run.offers.n, 9);
	assert_int_equal(run.skipped, 1);
	assert_int_equal(run.unknown_gpu, 1);
	assert_string_equal(run.note, "1 zero-priced offer skipped");

	o = harness_offer(&run, "4100001");
	check_offer(o, "H100", "H100 SXM", 8, 80, IC_NVLINK, 17234500, 9600000,
	    "Texas, US", 224, 2064.0, AV_AVAILABLE);
	assert_true(fabs(o->reliability - 0.9981) < 1e-9);

	/* 40960 MB picks the 40 GB A100; min_bid 0 is unknown, not free. */
	o = harness_offer(&run, "4100002");
	check_offer(o, "A100-40", "A100 PCIE", 1, 40, IC_PCIE, 610000,
	    MONEY_NONE, "unknown", 8, 32.13, AV_AVAILABLE);

	/* 81559 MB is an 80 GB card; SXM in the name is nvlink. */
	o = harness_offer(&run, "4100003");
	check_offer(o, "A100-80", "A100 SXM4", 4, 80, IC_NVLINK, 4100000,
	    2350000, "Quebec, CA", 64, 515.5, AV_AVAILABLE);

	o = harness_offer(&run, "4100004");
	/* A GeForce card is only made for PCIe (the catalogue's form). */
	check_offer(o, "RTX4090", "RTX 4090", 2, 24, IC_PCIE, 740000, 310000,
	    "Sweden, SE", 16, 32.0, AV_AVAILABLE);

	/* No reliability2: reliability is used. */
	o = harness_offer(&run, "4100005");
	check_offer(o, "V100-16", "Tesla V100", 1, 16, IC_UNKNOWN, 180000,
	    90000, "Ontario, CA", 8, 16.13, AV_AVAILABLE);
	assert_true(fabs(o->reliability - 0.912) < 1e-9);

	/* bw_nvlink > 0: an NVLink bridge. */
	o = harness_offer(&run, "4100006");
	check_offer(o, "A6000", "RTX A6000", 2, 48, IC_NVLINK, 980000, 500000,
	    "Oregon, US", 24, 96.0, AV_AVAILABLE);

	/* Unknown GPU: kept with its raw name, VRAM from gpu_ram. */
	o = harness_offer(&run, "4100007");
	check_offer(o, "", "RTX 9999 Ti", 1, 30, IC_UNKNOWN, 550000, MONEY_NONE,
	    "Taiwan, TW", 12, 48.0, AV_AVAILABLE);

	o = harness_offer(&run, "4100009");
	check_offer(o, "H100", "H100 PCIE", 1, 80, IC_PCIE, 1650000, 1200000,
	    "Utah, US", 16, 64.0, AV_UNAVAILABLE);

	/* One POST, no key: no Authorization header. */
	assert_int_equal(log.n, 1);
	assert_string_equal(log.url[0],
	    "https://console.vast.ai/api/v0/bundles/");
	assert_string_equal(log.method[0], "POST");
	assert_non_null(strstr(log.headers[0],
	    "Content-Type: application/json\n"));
	assert_null(strstr(log.headers[0], "Authorization"));
	assert_non_null(strstr(log.body[0], "\"rentable\":{\"eq\":true}"));
	assert_non_null(strstr(log.body[0], "\"verified\":{\"eq\":true}"));
	assert_non_null(strstr(log.body[0], "\"rented\":{\"eq\":false}"));
	assert_non_null(strstr(log.body[0], "\"external\":{\"eq\":false}"));
	assert_non_null(strstr(log.body[0], "\"type\":\"on-demand\""));
	assert_non_null(strstr(log.body[0], "\"limit\":10000"));
	harness_log_free(&log);
	provider_run_done(&run);
}

/* Escape sequences in gpu_name and geolocation come out clean. */
static void
test_hostile_strings(void **state)
{
	struct provider_run run;
	struct err err;
	const struct offer *o;
	size_t i;

	(void)state;
	assert_int_equal(run_vast(&run, "offers.json", NULL, NULL, NULL, &err),
	    0);
	o = harness_offer(&run, "4100008");
	check_offer(o, "RTX4090", "RTX 4090", 1, 24, IC_PCIE, 350000, 250000,
	    "Oslo, NO", 4, 16.0, AV_AVAILABLE);
	for (i = 0; i < run.offers.n; i++) {
		o = &run.offers.v[i];
		assert_true(str_is_clean(o->key));
		assert_true(str_is_clean(o->instance_type));
		assert_true(str_is_clean(o->region));
		assert_true(str_is_clean(o->gpu_raw));
		assert_null(strchr(o->region, '\033'));
		assert_null(strchr(o->gpu_raw, '\033'));
	}
	provider_run_done(&run);
}

/* A key goes in the Authorization header only; the override keeps paths. */
static void
test_key_header(void **state)
{
	static const char key[] = "vk-test-0123456789abcdef";
	struct provider_run run;
	struct harness_log log = { 0 };
	struct err err;

	(void)state;
	assert_int_equal(run_vast(&run, "offers.json", key,
	    "http://127.0.0.1:8123/", &log, &err), 0);
	assert_int_equal(log.n, 1);
	assert_string_equal(log.url[0],
	    "http://127.0.0.1:8123/api/v0/bundles/");
	assert_non_null(strstr(log.headers[0],
	    "Authorization: Bearer vk-test-0123456789abcdef\n"));
	assert_null(strstr(log.url[0], key));
	assert_null(strstr(log.body[0], key));
	assert_int_equal(run.offers.n, 9);
	harness_log_free(&log);
	provider_run_done(&run);
}

/* Each bad file fails the provider with this text in the message. */
static void
expect_error(const char *file, const char *want)
{
	struct provider_run run;
	struct err err;

	assert_int_equal(run_vast(&run, file, "vk-secret", NULL, NULL, &err),
	    -1);
	if (strstr(err.msg, want) == NULL)
		fail_msg("%s: \"%s\" does not contain \"%s\"", file, err.msg,
		    want);
	assert_null(strstr(err.msg, "vk-secret"));
	assert_true(str_is_clean(err.msg));
	provider_run_done(&run);
}

static void
test_bad_bodies(void **state)
{
	(void)state;
	expect_error("bad-truncated.json", "malformed JSON at byte");
	expect_error("bad-html.json", "expected JSON, got HTML");
	expect_error("bad-no-offers.json",
	    "response.offers: expected an array, got nothing");
	expect_error("bad-offers-object.json",
	    "response.offers: expected an array, got object");
	expect_error("bad-error.json", "Vast says \"Invalid search query: "
	    "unknown field 'bogus'\": response.offers: expected an array");
}

static void
test_absurd_values(void **state)
{
	(void)state;
	expect_error("bad-dph-negative.json",
	    "offer 5000002: dph_total -0.5 is out of range 0..5000 USD/h");
	expect_error("bad-dph-huge.json",
	    "offer 5000003: dph_total 99999 is out of range 0..5000 USD/h");
	expect_error("bad-dph-nan.json",
	    "offer 5000006: offers[1].dph_total: not a finite number");
	expect_error("bad-gpus-zero.json",
	    "offer 5000004: num_gpus 0 is out of range 1..64");
	expect_error("bad-gpus-million.json",
	    "offer 5000005: num_gpus 1e+06 is out of range 1..64");
	expect_error("bad-gpu-name-null.json",
	    "offer 5000007: offers[1].gpu_name: missing");
	expect_error("bad-bid-negative.json",
	    "offer 5000008: min_bid -1 is out of range 0..5000 USD/h");
	expect_error("bad-duplicate.json", "offer 4100001 is listed twice");
	/* json.c quotes the bad text; the adapter strips its escapes. */
	expect_error("bad-dph-escape.json",
	    "offer 5000009: offers[1].dph_total: expected a number, got \"1\"");
}

/* Vast's gpu_name spellings resolve with the VRAM hint the adapter gives. */
static void
test_vast_spellings(void **state)
{
	static const struct {
		const char *name;
		int hint;
		const char *id;
	} cases[] = {
		{ "H100 SXM", 80, "H100" },
		{ "H100 PCIE", 80, "H100" },
		{ "H100 NVL", 94, "H100-NVL" },
		{ "A100 SXM4", 80, "A100-80" },
		{ "A100 SXM4", 40, "A100-40" },
		{ "A100 PCIE", 40, "A100-40" },
		{ "A100 PCIE", 80, "A100-80" },
		{ "RTX 4090", 24, "RTX4090" },
		{ "RTX A6000", 48, "A6000" },
		{ "Tesla V100", 16, "V100-16" },
		{ "Tesla V100", 32, "V100-32" },
		{ "RTX 6000Ada", 48, "RTX6000-Ada" },
		{ "Q RTX 8000", 48, "RTX8000" },
		{ "H200", 141, "H200" },
		{ "L40S", 48, "L40S" },
		/* Issue 44: in the catalogue since. */
		{ "RTX 5060 Ti", 16, "RTX5060Ti-16" },
		{ "RTX 5060 Ti", 8, "RTX5060Ti-8" },
		{ "RTX 5060", 8, "RTX5060" },
		{ "RTX 4070S", 12, "RTX4070SUPER" },
		{ "RTX 4070S Ti", 16, "RTX4070TiSUPER" },
	};
	const struct gpu_model *m;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		m = gpu_resolve(cases[i].name, cases[i].hint);
		if (m == NULL || strcmp(m->id, cases[i].id) != 0)
			fail_msg("%s + %d GB: got %s, want %s", cases[i].name,
			    cases[i].hint, m != NULL ? m->id : "nothing",
			    cases[i].id);
	}
	/* Ambiguous without a hint: never guessed. */
	assert_null(gpu_resolve("A100 SXM4", 0));
	assert_null(gpu_resolve("RTX 9999 Ti", 30));
}

/*
 * Live host resources are the share rented with the GPUs (issue 11):
 * cpu_ram scaled by gpu_frac, even when the host grants fewer cores
 * than that share or leaves cpu_cores out; vCPUs from
 * cpu_cores_effective, else cpu_cores times gpu_frac.
 */
static void
test_host_share(void **state)
{
	struct provider_run run;
	struct err err;
	const struct offer *o;

	(void)state;
	assert_int_equal(run_vast(&run, "host-share.json", NULL, NULL, NULL,
	    &err), 0);
	assert_int_equal(run.offers.n, 3);
	/* 1 of 4 GPUs, 16 of 128 threads: a quarter of 257 GB. */
	o = harness_offer(&run, "21000001");
	assert_int_equal(o->vcpus, 16);
	assert_true(fabs(o->ram_gb - 64.25) < 1e-9);
	/* cpu_cores null: still a quarter, not the whole 1,031 GB. */
	o = harness_offer(&run, "21000002");
	assert_int_equal(o->vcpus, 28);
	assert_true(fabs(o->ram_gb - 257.75) < 1e-9);
	/* No cpu_cores_effective: half of 64 cores, half of 515 GB. */
	o = harness_offer(&run, "21000003");
	assert_int_equal(o->vcpus, 32);
	assert_true(fabs(o->ram_gb - 257.5) < 1e-9);
	provider_run_done(&run);
}

/* The offers of offers.json, as "key price vcpus ram;" text. */
static void
offers_text(const struct provider_run *run, char *buf, size_t size)
{
	size_t i, len = 0;

	buf[0] = '\0';
	for (i = 0; i < run->offers.n && len < size; i++)
		len += (size_t)snprintf(buf + len, size - len, "%s %lld %d "
		    "%.2f %s;", run->offers.v[i].key,
		    (long long)run->offers.v[i].price, run->offers.v[i].vcpus,
		    run->offers.v[i].ram_gb, run->offers.v[i].region);
}

/*
 * The streamed body gives the same offers however the network cuts it,
 * down to a byte at a time; a body cut short anywhere fails with a
 * message naming a byte, never with a partial answer.
 */
static void
test_stream_pieces(void **state)
{
	static const size_t pieces[] = { 1, 2, 3, 7, 64, 1000, 4096, 1 << 20 };
	struct harness_route route = { "/api/v0/bundles/", NULL, "offers.json",
	    0 };
	static char want[8192], got[8192];
	struct provider_run run;
	struct err err;
	size_t i;

	(void)state;
	assert_int_equal(run_vast(&run, "offers.json", NULL, NULL, NULL, &err),
	    0);
	offers_text(&run, want, sizeof want);
	provider_run_done(&run);
	for (i = 0; i < sizeof pieces / sizeof pieces[0]; i++) {
		provider_run_init(&run, &provider_vast);
		run.now = NOW;
		err_clear(&err);
		if (harness_run(&provider_vast, &run, &route, 1, NULL,
		    pieces[i], NULL, &err) != 0)
			fail_msg("pieces of %zu: %s", pieces[i], err.msg);
		offers_text(&run, got, sizeof got);
		assert_string_equal(got, want);
		provider_run_done(&run);
	}
}

/* A truncated body at every length fails, naming a byte. */
static void
test_stream_truncated(void **state)
{
	char *body, path[256], *dir, *fixture;
	size_t len, cut;
	struct provider_run run;
	struct err err;
	FILE *f;

	(void)state;
	fixture = harness_fixture_path("vast/offers.json");
	body = harness_read_file(fixture, &len);
	free(fixture);
	dir = getenv("TMPDIR");
	snprintf(path, sizeof path, "%s/vast-cut-%ld.json",
	    dir != NULL ? dir : "/tmp", (long)getpid());
	for (cut = 0; cut < len; cut += 1 + cut / 40) {
		struct harness_route route = { "/api/v0/bundles/", NULL,
		    path, 0 };

		/* Whitespace after the closing brace is not a cut. */
		if (strspn(body + cut, " \t\r\n") == len - cut)
			break;
		f = fopen(path, "wb");
		assert_non_null(f);
		assert_int_equal(fwrite(body, 1, cut, f), cut);
		fclose(f);
		provider_run_init(&run, &provider_vast);
		run.now = NOW;
		err_clear(&err);
		if (harness_run(&provider_vast, &run, &route, 1, "/", 97, NULL,
		    &err) == 0)
			fail_msg("cut at %zu of %zu: accepted", cut, len);
		if (strstr(err.msg, "byte") == NULL &&
		    strstr(err.msg, "empty response body") == NULL)
			fail_msg("cut at %zu: \"%s\" names no byte", cut,
			    err.msg);
		provider_run_done(&run);
	}
	unlink(path);
	free(body);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_hostile_strings),
		cmocka_unit_test(test_key_header),
		cmocka_unit_test(test_bad_bodies),
		cmocka_unit_test(test_absurd_values),
		cmocka_unit_test(test_vast_spellings),
		cmocka_unit_test(test_host_share),
		cmocka_unit_test(test_stream_pieces),
		cmocka_unit_test(test_stream_truncated),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
