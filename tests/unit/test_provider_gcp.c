/* test_provider_gcp.c: the Google Cloud adapter on recorded-shape fixtures. */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "adapter_harness.h"
#include "err.h"
#include "http.h"
#include "money.h"
#include "notes.h"
#include "offer.h"
#include "provider.h"

extern const struct provider provider_gcp;

#define TEST_KEY	"test-key-AIzaFAKE0123"
#define PAGE2_TOKEN	"pageToken=CiAyMDI2LTA5%2Fp2%3D%3D"

/* The good path: two pages, the second asked for with page 1's token. */
static const struct harness_route two_pages[] = {
	{ PAGE2_TOKEN, NULL, "skus-page2.json", 0 },
	{ "/v1/services/6F81-5844-456A/skus?", NULL, "skus-page1.json", 0 },
};

/* Run the adapter over routes with the test key; returns its result. */
static int
run_gcp(struct provider_run *run, const struct harness_route *routes,
    size_t nroutes, struct harness_log *log, struct err *err)
{
	provider_run_init(run, &provider_gcp);
	run->api_key = TEST_KEY;
	run->now = 1789000000;
	err_clear(err);
	return harness_run(&provider_gcp, run, routes, nroutes, NULL, 0, log,
	    err);
}

/* run_gcp() over one page, file, that answers every request. */
static int
run_gcp_file(struct provider_run *run, const char *file, struct err *err)
{
	const struct harness_route routes[] = {
		{ "/v1/services/", NULL, file, 0 },
	};

	return run_gcp(run, routes, 1, NULL, err);
}

/* The offer with this key; fails the test when there is none. */
static const struct offer *
offer_of(const struct provider_run *run, const char *key)
{
	static const struct offer none;
	const struct offer *o = harness_offer_find(run, key);

	if (o == NULL) {
		fail_msg("no offer %s", key);
		return &none;
	}
	return o;
}

/* Run one failing fixture (a single page) and check the message. */
static void
expect_failure(const char *file, const char *want)
{
	const struct harness_route routes[] = {
		{ "/skus?", NULL, file, 0 },
	};
	struct provider_run run;
	struct err err;

	assert_int_equal(run_gcp(&run, routes, 1, NULL, &err), -1);
	if (strstr(err.msg, want) == NULL)
		fail_msg("message \"%s\" lacks \"%s\"", err.msg, want);
	assert_null(strstr(err.msg, TEST_KEY));
	assert_int_equal(run.offers.n, 0);
	provider_run_done(&run);
}

/* start() asks for page 1 with the key in a header, never in the URL. */
static void
test_first_request(void **state)
{
	struct http_request *req;
	struct provider_run run;
	struct err err;

	(void)state;
	provider_run_init(&run, &provider_gcp);
	run.api_key = TEST_KEY;
	assert_int_equal(provider_gcp.start(&run, &err), 0);
	assert_int_equal(run.nqueue, 1);
	req = run.queue[0];
	assert_string_equal(req->method, "GET");
	assert_string_equal(req->url, "https://cloudbilling.googleapis.com"
	    "/v1/services/6F81-5844-456A/skus?pageSize=5000&currencyCode=USD");
	assert_null(strstr(req->url, "key="));
	assert_int_equal(req->nheaders, 2);
	assert_string_equal(req->headers[0], "X-Goog-Api-Key: " TEST_KEY);
	assert_string_equal(req->headers[1], "Accept: application/json");
	assert_non_null(req->redact);
	assert_string_equal(req->redact, TEST_KEY);
	assert_false(req->stream);
	provider_run_done(&run);

	/* GPUCOST_GCP_URL replaces the origin and keeps the path. */
	provider_run_init(&run, &provider_gcp);
	run.api_key = TEST_KEY;
	run.base_url = "http://127.0.0.1:8080/";
	assert_int_equal(provider_gcp.start(&run, &err), 0);
	assert_string_equal(run.queue[0]->url, "http://127.0.0.1:8080"
	    "/v1/services/6F81-5844-456A/skus?pageSize=5000&currencyCode=USD");
	provider_run_done(&run);
}

/* No key, or a key that cannot go in a header: fail before any request. */
static void
test_key_checks(void **state)
{
	struct provider_run run;
	struct err err;

	(void)state;
	provider_run_init(&run, &provider_gcp);
	assert_int_equal(provider_gcp.start(&run, &err), -1);
	assert_string_equal(err.msg, "no API key: set GCP_API_KEY");
	assert_int_equal(run.nqueue, 0);
	provider_run_done(&run);

	provider_run_init(&run, &provider_gcp);
	run.api_key = "abc\r\nX-Evil: 1";
	assert_int_equal(provider_gcp.start(&run, &err), -1);
	assert_string_equal(err.msg,
	    "GCP_API_KEY holds spaces or control characters");
	assert_null(strstr(err.msg, "Evil"));
	assert_int_equal(run.nqueue, 0);
	provider_run_done(&run);
}

/* Both pages are fetched; page 2 with page 1's token, URL-encoded. */
static void
test_pagination(void **state)
{
	struct harness_log log = { 0 };
	struct provider_run run;
	struct err err;
	size_t i;

	(void)state;
	assert_int_equal(run_gcp(&run, two_pages, 2, &log, &err), 0);
	assert_int_equal(log.n, 2);
	assert_string_equal(log.url[0], "https://cloudbilling.googleapis.com"
	    "/v1/services/6F81-5844-456A/skus?pageSize=5000&currencyCode=USD");
	assert_string_equal(log.url[1], "https://cloudbilling.googleapis.com"
	    "/v1/services/6F81-5844-456A/skus?pageSize=5000&currencyCode=USD&"
	    PAGE2_TOKEN);
	for (i = 0; i < log.n; i++) {
		assert_string_equal(log.method[i], "GET");
		assert_null(strstr(log.url[i], TEST_KEY));
		assert_non_null(strstr(log.headers[i],
		    "X-Goog-Api-Key: " TEST_KEY "\n"));
	}
	harness_log_free(&log);
	provider_run_done(&run);
}

/*
 * Commitment SKUs (usageType Commit1Yr / Commit3Yr) are never an
 * on-demand price, even worded exactly as the on-demand SKU ("Nvidia
 * Tesla A100 GPU running in Americas" at 1.848262 against 2.933908):
 * they price the offer's `commitment` entries, GPU + vCPUs x core +
 * GiB x RAM from the commitment SKUs. Where only commitment SKUs price
 * the GPU (H100 in us-east5) there is no offer at all. An OnDemand SKU
 * that says "Commitment" is neither.
 */
static void
test_commitments(void **state)
{
	struct provider_run run;
	const struct offer *o;
	struct err err;
	size_t i;

	(void)state;
	assert_int_equal(run_gcp_file(&run, "skus-commit.json", &err), 0);
	o = offer_of(&run, "a2-highgpu-1g/us-central1");
	/* 2.933908 + 12 x 0.031611 + 85 x 0.004237 */
	assert_int_equal(o->price, 3673385);
	assert_int_equal(o->ncommitted, 2);
	assert_int_equal(o->committed[0].kind, CK_COMMITMENT);
	assert_int_equal(o->committed[0].months, 12);
	assert_int_equal(o->committed[0].upfront_kind, CU_NONE);
	/* 1.848262 + 12 x 0.019915 + 85 x 0.002669 */
	assert_int_equal(o->committed[0].price_hour, 2314107);
	assert_int_equal(o->committed[0].upfront, 0);
	assert_int_equal(o->committed[1].months, 36);
	/* 1.320258 + 12 x 0.014225 + 85 x 0.001907 */
	assert_int_equal(o->committed[1].price_hour, 1653053);
	o = offer_of(&run, "a2-highgpu-8g/us-central1");
	assert_int_equal(o->price, 8 * 2933908 + 96 * 31611 + 680 * 4237);
	assert_int_equal(o->committed[0].price_hour,
	    8 * 1848262 + 96 * 19915 + 680 * 2669);
	for (i = 0; i < run.offers.n; i++) {
		o = &run.offers.v[i];
		/* No commitment rate is anyone's on-demand price. */
		assert_true(o->price != 2314107 && o->price != 1653053);
		assert_null(strstr(o->region, "us-east5"));
		assert_null(strstr(o->instance_type, "g2-"));
	}
	if (strstr(run.note, "; 8 commitment SKUs used, 10 commitment "
	    "prices") == NULL)
		fail_msg("note: %s", run.note);
	provider_run_done(&run);
}

/* The whole catalogue: counts, the note, and every offer well formed. */
static void
test_offer_set(void **state)
{
	struct provider_run run;
	const struct offer *o;
	struct err err;
	size_t i, j;

	(void)state;
	assert_int_equal(run_gcp(&run, two_pages, 2, NULL, &err), 0);
	/*
	 * europe-west4: the five A2 A100-40 shapes; us-central1: 36;
	 * us-east4: 24; asia-northeast1 (no A2 RAM SKU): none.
	 */
	assert_int_equal(run.offers.n, 65);
	assert_int_equal(run.unknown_gpu, 0);
	/* GPU SKUs left out: sole tenancy, 3 DWS, reserved, K80 (no
	 * machine here) and a zero P4 rate; the 2 commitments price parts'
	 * commitments now (test_commitments). RTX 6000 96GB prices G4's GPU
	 * (issue 44), though no G4 host part is here to make an offer. */
	assert_int_equal(run.skipped, 7);
	/* The 3 commitment SKUs price parts, but no A2 RAM commitment is
	 * published here: no machine has a commitment price. */
	assert_string_equal(run.note, "62 SKUs, 49 used; 7 GPU SKUs skipped "
	    "(variants, zero rates, 1 with no machine shape: \"Nvidia Tesla "
	    "K80 GPU running in Americas\"); a3-highgpu-1g/2g/4g, a3-ultragpu, "
	    "a4, a4x: spot only; 3 commitment SKUs used, 0 commitment prices");
	for (i = 0; i < run.offers.n; i++) {
		o = &run.offers.v[i];
		assert_string_equal(o->provider, "gcp");
		assert_int_equal(o->source, SRC_LIVE);
		assert_int_equal(o->fetched_at, 1789000000);
		assert_int_equal(o->availability, AV_UNKNOWN);
		assert_true(money_known(o->price) ||
		    money_known(o->spot_price));
		assert_non_null(strstr(o->key, o->instance_type));
		assert_non_null(strstr(o->key, o->region));
		assert_null(strstr(o->region, "asia-northeast1"));
		assert_null(strstr(o->region, "northamerica"));
		for (j = 0; j < i; j++)
			assert_string_not_equal(o->key, run.offers.v[j].key);
	}
	/* Regions come out sorted, machines in table order. */
	assert_string_equal(run.offers.v[0].key, "a2-highgpu-1g/europe-west4");
	assert_string_equal(run.offers.v[5].key, "a2-highgpu-1g/us-central1");
	assert_string_equal(run.offers.v[64].key,
	    "n1-standard-32+4xP4/us-east4");
	/* A3 parts are only in us-central1, A3Plus only in us-east4. */
	assert_null(harness_offer_find(&run, "a3-highgpu-8g/us-east4"));
	assert_null(harness_offer_find(&run, "a3-megagpu-8g/us-central1"));
	assert_null(harness_offer_find(&run, "n1-standard-8+1xV100/us-east4"));
	provider_run_done(&run);
}

/* The composition: 12 x A2 core + 85 x A2 RAM + 1 x A100. */
static void
test_a2_highgpu_1g(void **state)
{
	struct provider_run run;
	const struct offer *o;
	struct err err;

	(void)state;
	assert_int_equal(run_gcp(&run, two_pages, 2, NULL, &err), 0);
	o = offer_of(&run, "a2-highgpu-1g/us-central1");
	assert_string_equal(o->instance_type, "a2-highgpu-1g");
	assert_string_equal(o->region, "us-central1");
	assert_string_equal(o->gpu, "A100-40");
	assert_string_equal(o->gpu_raw, "nvidia-tesla-a100");
	assert_int_equal(o->gpu_count, 1);
	assert_int_equal(o->vram_gb, 40);
	assert_int_equal(o->interconnect, IC_NVLINK);
	assert_int_equal(o->vcpus, 12);
	assert_true(o->ram_gb > 84.99 && o->ram_gb < 85.01);
	/* 12 x 32,900 + 85 x 4,410 + 2,950,000 micro-USD */
	assert_int_equal(o->price, 12 * 32900 + 85 * 4410 + 2950000);
	assert_int_equal(o->price, 3719650);
	/* spot from the three Preemptible parts: 12 x 11,800 + 85 x 1,580
	 * + 1,050,000 */
	assert_int_equal(o->spot_price, 1325900);

	/* us-east4: the Virginia RAM SKU (one region) beats the Americas
	 * one (two regions) that came later, on page 2. */
	o = offer_of(&run, "a2-highgpu-1g/us-east4");
	assert_int_equal(o->price, 12 * 32900 + 85 * 4520 + 2950000);

	/* europe-west4: on-demand parts only, so no spot price. */
	o = offer_of(&run, "a2-highgpu-1g/europe-west4");
	assert_int_equal(o->price, 12 * 36200 + 85 * 4850 + 3120000);
	assert_true(o->spot_price == MONEY_NONE);

	o = offer_of(&run, "a2-megagpu-16g/us-central1");
	assert_int_equal(o->gpu_count, 16);
	assert_int_equal(o->price, 96 * 32900 + 1360 * 4410 + 16 * 2950000);
	provider_run_done(&run);
}

/* asia-northeast1 has the A2 core and A100 SKUs but no A2 RAM SKU. */
static void
test_missing_ram_no_offer(void **state)
{
	struct provider_run run;
	struct err err;
	size_t i;

	(void)state;
	assert_int_equal(run_gcp(&run, two_pages, 2, NULL, &err), 0);
	assert_null(harness_offer_find(&run, "a2-highgpu-1g/asia-northeast1"));
	for (i = 0; i < run.offers.n; i++)
		assert_string_not_equal(run.offers.v[i].region,
		    "asia-northeast1");
	provider_run_done(&run);
}

/* g2-standard-24 carries two L4s; G2 has no spot parts here. */
static void
test_g2_standard_24(void **state)
{
	struct provider_run run;
	const struct offer *o;
	struct err err;

	(void)state;
	assert_int_equal(run_gcp(&run, two_pages, 2, NULL, &err), 0);
	o = offer_of(&run, "g2-standard-24/us-central1");
	assert_string_equal(o->gpu, "L4");
	assert_string_equal(o->gpu_raw, "nvidia-l4");
	assert_int_equal(o->gpu_count, 2);
	assert_int_equal(o->vram_gb, 24);
	assert_int_equal(o->interconnect, IC_PCIE);
	assert_int_equal(o->vcpus, 24);
	assert_true(o->ram_gb > 95.99 && o->ram_gb < 96.01);
	/* 24 x 23,200 + 96 x 2,720 (its "units" left out) + 2 x 571,200;
	 * the cheaper "(DWS Defined Duration)" L4 SKU is not used. */
	assert_int_equal(o->price, 1960320);
	assert_true(o->spot_price == MONEY_NONE);
	o = offer_of(&run, "g2-standard-48/us-east4");
	assert_int_equal(o->gpu_count, 4);
	assert_int_equal(o->price, 48 * 23200 + 192 * 2720 + 4 * 571200);
	provider_run_done(&run);
}

/* Bundled local SSD: GiB x (USD per GiB-month) / 730 h, rounded once. */
static void
test_local_ssd(void **state)
{
	struct provider_run run;
	const struct offer *o;
	struct err err;

	(void)state;
	assert_int_equal(run_gcp(&run, two_pages, 2, NULL, &err), 0);
	o = offer_of(&run, "a2-ultragpu-1g/us-central1");
	assert_string_equal(o->gpu, "A100-80");
	assert_int_equal(o->vram_gb, 80);
	/* 375 GiB x 48,000 / 730 = 24,657.53 -> 24,658 */
	assert_int_equal(o->price, 12 * 32900 + 170 * 4410 + 4110000 + 24658);
	/* 375 x 21,600 / 730 = 11,095.89 -> 11,096 */
	assert_int_equal(o->spot_price,
	    12 * 11800 + 170 * 1580 + 1570000 + 11096);

	o = offer_of(&run, "a3-highgpu-8g/us-central1");
	assert_string_equal(o->gpu, "H100");
	assert_int_equal(o->gpu_count, 8);
	assert_int_equal(o->vcpus, 208);
	/* 6000 GiB: 288,000,000 / 730 = 394,520.55 -> 394,521 */
	assert_int_equal(o->price, 208 * 31600 + 1872 * 4230 + 8 * 9810000 +
	    394521);
	assert_int_equal(o->price, 93365881);
	assert_int_equal(o->spot_price, 208 * 9900 + 1872 * 1330 +
	    8 * 2250000 + 177534);

	/* a3-megagpu-8g: A3Plus core/RAM, the "H100 Mega 80GB" GPU, SSD. */
	o = offer_of(&run, "a3-megagpu-8g/us-east4");
	assert_string_equal(o->gpu, "H100");
	assert_string_equal(o->gpu_raw, "nvidia-h100-mega-80gb");
	assert_int_equal(o->interconnect, IC_NVLINK);
	assert_int_equal(o->price, 208 * 33400 + 1872 * 4470 + 8 * 10340000 +
	    394521);
	assert_true(o->spot_price == MONEY_NONE);
	provider_run_done(&run);
}

/* Machines that are never sold on-demand get a spot price only. */
static void
test_spot_only_machines(void **state)
{
	struct provider_run run;
	const struct offer *o;
	struct err err;

	(void)state;
	assert_int_equal(run_gcp(&run, two_pages, 2, NULL, &err), 0);
	/* Every on-demand A3 part is published, yet no on-demand price. */
	o = offer_of(&run, "a3-highgpu-1g/us-central1");
	assert_true(o->price == MONEY_NONE);
	assert_int_equal(o->spot_price, 26 * 9900 + 234 * 1330 + 2250000);
	/* ... and says how it is sold, as the snapshot does (issue 22). */
	assert_true(o->notes & NOTE_BIT(NOTE_NOT_ON_DEMAND));
	o = offer_of(&run, "a3-highgpu-2g/us-central1");
	assert_true(o->price == MONEY_NONE);
	assert_true(o->notes & NOTE_BIT(NOTE_NOT_ON_DEMAND));
	o = offer_of(&run, "a3-highgpu-4g/us-central1");
	assert_true(o->price == MONEY_NONE);
	assert_true(o->notes & NOTE_BIT(NOTE_NOT_ON_DEMAND));
	/* Sold on demand: no such note. */
	o = offer_of(&run, "a3-highgpu-8g/us-central1");
	assert_true(money_known(o->price));
	assert_false(o->notes & NOTE_BIT(NOTE_NOT_ON_DEMAND));

	o = offer_of(&run, "a3-ultragpu-8g/us-central1");
	assert_string_equal(o->gpu, "H200");
	assert_string_equal(o->gpu_raw, "nvidia-h200-141gb");
	assert_int_equal(o->vram_gb, 141);
	assert_int_equal(o->vcpus, 224);
	assert_true(o->price == MONEY_NONE);
	assert_true(o->notes & NOTE_BIT(NOTE_NOT_ON_DEMAND));
	assert_int_equal(o->spot_price, 224 * 13100 + 2952 * 1750 +
	    8 * 3720000);

	/* A4: eight B200 slices, host included; the DWS Calendar Mode
	 * slice SKU is ignored. */
	o = offer_of(&run, "a4-highgpu-8g/us-central1");
	assert_string_equal(o->gpu, "B200");
	assert_string_equal(o->gpu_raw, "nvidia-b200");
	assert_int_equal(o->gpu_count, 8);
	assert_int_equal(o->vcpus, 224);
	assert_true(o->ram_gb > 3967.99 && o->ram_gb < 3968.01);
	assert_true(o->price == MONEY_NONE);
	assert_true(o->notes & NOTE_BIT(NOTE_NOT_ON_DEMAND));
	assert_int_equal(o->spot_price, 8 * 4910000);
	provider_run_done(&run);
}

/*
 * G4 and A4X (issue 44): g4-standard-48..384 from "G4 Instance Core/Ram"
 * and "RTX 6000 96GB", which sum to Google's list price ($4.49993 for
 * g4-standard-48 in us-central1); the vGPU slices of g4-standard-6/12/24
 * are no offer; a4x-highgpu-4g is four GB200 slices, spot only.
 */
static void
test_g4_a4x(void **state)
{
	static const struct {
		const char *key;
		int gpus, vcpus, ram;
	} g4[] = {
		{ "g4-standard-48/us-central1", 1, 48, 180 },
		{ "g4-standard-96/us-central1", 2, 96, 360 },
		{ "g4-standard-192/us-central1", 4, 192, 720 },
		{ "g4-standard-384/us-central1", 8, 384, 1440 },
	};
	struct provider_run run;
	const struct offer *o;
	struct err err;
	size_t i;

	(void)state;
	assert_int_equal(run_gcp_file(&run, "skus-g4.json", &err), 0);
	assert_int_equal(run.offers.n, 5);
	assert_int_equal(run.unknown_gpu, 0);
	for (i = 0; i < sizeof g4 / sizeof g4[0]; i++) {
		o = offer_of(&run, g4[i].key);
		assert_string_equal(o->gpu, "RTXPRO6000");
		assert_string_equal(o->gpu_raw, "nvidia-rtx-pro-6000");
		assert_int_equal(o->gpu_count, g4[i].gpus);
		assert_int_equal(o->vram_gb, 96);
		assert_int_equal(o->interconnect, IC_PCIE);
		assert_int_equal(o->vcpus, g4[i].vcpus);
		assert_int_equal((int)o->ram_gb, g4[i].ram);
		/* 48 x 0.04891 + 180 x 0.00587 + 1.09565 per GPU */
		assert_int_equal(o->price, g4[i].gpus * 4499930);
		assert_int_equal(o->spot_price, g4[i].gpus *
		    (48 * 19564 + 180 * 2348 + 438260));
		assert_int_equal(o->ncommitted, 1);
		assert_int_equal(o->committed[0].months, 12);
		assert_int_equal(o->committed[0].price_hour, g4[i].gpus *
		    (48 * 33750 + 180 * 4045 + 755000));
		assert_false(o->notes & NOTE_BIT(NOTE_NOT_ON_DEMAND));
	}
	assert_int_equal(offer_of(&run, "g4-standard-384/us-central1")->price,
	    35999440);
	o = offer_of(&run, "a4x-highgpu-4g/us-central1");
	assert_string_equal(o->gpu, "GB200");
	assert_int_equal(o->gpu_count, 4);
	assert_int_equal(o->vcpus, 140);
	assert_int_equal((int)o->ram_gb, 884);
	assert_int_equal(o->interconnect, IC_NVLINK);
	assert_true(o->price == MONEY_NONE);
	assert_true(o->notes & NOTE_BIT(NOTE_NOT_ON_DEMAND));
	assert_int_equal(o->spot_price, 4 * 5200000);
	if (strstr(run.note, "1 with no machine shape: \"1/8 vGPU no lssd "
	    "running in Iowa\"") == NULL)
		fail_msg("note: %s", run.note);
	provider_run_done(&run);
}

/* N1 with attached GPUs: tiers, a spot rate above on-demand, V100. */
static void
test_n1_attachments(void **state)
{
	struct provider_run run;
	const struct offer *o;
	struct err err;

	(void)state;
	assert_int_equal(run_gcp(&run, two_pages, 2, NULL, &err), 0);
	o = offer_of(&run, "n1-standard-8+1xT4/us-central1");
	assert_string_equal(o->instance_type, "n1-standard-8+1xT4");
	assert_string_equal(o->gpu, "T4");
	assert_int_equal(o->interconnect, IC_PCIE);
	assert_int_equal(o->vcpus, 8);
	assert_true(o->ram_gb > 29.99 && o->ram_gb < 30.01);
	/* RAM from the tier starting at 0 (4,240), not the later one */
	assert_int_equal(o->price, 8 * 31600 + 30 * 4240 + 350000);
	assert_int_equal(o->price, 730000);
	/* published spot above on-demand: kept, no invented saving */
	assert_int_equal(o->spot_price, 8 * 6900 + 30 * 930 + 950000);
	assert_true(o->spot_price > o->price);

	o = offer_of(&run, "n1-highmem-64+8xV100/us-central1");
	assert_string_equal(o->gpu, "V100-16");
	assert_string_equal(o->gpu_raw, "nvidia-tesla-v100");
	assert_int_equal(o->vram_gb, 16);
	assert_int_equal(o->gpu_count, 8);
	/* SXM2 boards on an NVLink ring (Google's GPU table), as the
	 * snapshot says (issue 22). */
	assert_int_equal(o->interconnect, IC_NVLINK);
	assert_int_equal(o->price, 64 * 31600 + 416 * 4240 + 8 * 2480000);
	assert_true(o->spot_price == MONEY_NONE);

	o = offer_of(&run, "n1-highmem-32+4xP100/us-central1");
	assert_string_equal(o->gpu, "P100");
	assert_int_equal(o->price, 32 * 31600 + 208 * 4240 + 4 * 1460000);
	o = offer_of(&run, "n1-standard-16+2xP4/us-east4");
	assert_string_equal(o->gpu, "P4");
	assert_int_equal(o->vram_gb, 8);
	assert_int_equal(o->price, 16 * 31600 + 60 * 4240 + 2 * 600000);
	provider_run_done(&run);
}

/* A SKU whose units is not a number fails the provider, naming it. */
static void
test_bad_units(void **state)
{
	(void)state;
	expect_failure("skus-bad-units.json", "page 1: SKU B0B0-0000-0BAD "
	    "(\"Nvidia Tesla T4 GPU running in Americas\"): skus[1]."
	    "pricingInfo[0].pricingExpression.tieredRates[0].unitPrice.units: "
	    "expected a whole number of USD up to 10000000, got \"abc\"");
}

/*
 * A local SSD rate per GiB-hour so high that the SSD of a3-highgpu-8g
 * (6000 GiB) overflowed int64 in machine_price() (fuzz_provider_gcp,
 * UBSan): an absurd part price fails the provider where it is read.
 */
static void
test_absurd_part_price(void **state)
{
	(void)state;
	expect_failure("fuzz-ssd-absurd.json", "page 1: SKU F0F0-0000-0A04 "
	    "(\"SSD backed Local Storage running in Americas\"): skus[3]."
	    "pricingInfo[0]: more than 10000000 USD per GiBy.mo is absurd");
}

/* Text echoing the key (a proxy, a bad record) is masked in errors. */
static void
test_key_not_in_error(void **state)
{
	(void)state;
	expect_failure("skus-key-echo.json", "page 1: SKU B0B0-0000-0ECH "
	    "(\"Nvidia Tesla T4 GPU running in ***\"): skus[0].");
}

/* Malformed JSON, an HTML error page, Google's error envelope. */
static void
test_bad_bodies(void **state)
{
	(void)state;
	expect_failure("skus-malformed.json", "page 1: malformed JSON at "
	    "byte 699 of 700");
	expect_failure("skus-html.html", "page 1: expected JSON, got HTML or "
	    "XML (\"<!DOCTYPE html> <htm...\")");
	expect_failure("api-error.json", "page 1: API error INVALID_ARGUMENT: "
	    "API key not valid. Please pass a valid API key.");
}

/* A wrong usage unit or currency would misprice: fail, naming the SKU. */
static void
test_bad_unit_and_currency(void **state)
{
	(void)state;
	expect_failure("skus-bad-unit.json", "page 1: SKU B0B0-0000-0B01 "
	    "(\"G2 Instance Ram running in Americas\"): skus[0].pricingInfo[0]."
	    "pricingExpression.usageUnit: expected \"GiBy.h\", got \"h\"");
	expect_failure("skus-eur.json", "page 1: SKU B0B0-0000-0EE1 (\"Nvidia "
	    "L4 GPU running in Americas\"): skus[0].pricingInfo[0]."
	    "pricingExpression.tieredRates[0].unitPrice.currencyCode: expected "
	    "USD, got \"EUR\"");
}

/* Nothing priceable: an error, so the cached offers are kept. */
static void
test_no_machine(void **state)
{
	(void)state;
	expect_failure("skus-no-gpu.json", "no GPU machine could be priced "
	    "from 2 SKUs on 1 page(s)");
}

/* Two SKUs of equal scope price one part differently: the first wins. */
static void
test_rival_rates(void **state)
{
	const struct harness_route routes[] = {
		{ "/skus?", NULL, "skus-rival.json", 0 },
	};
	struct provider_run run;
	const struct offer *o;
	struct err err;

	(void)state;
	assert_int_equal(run_gcp(&run, routes, 1, NULL, &err), 0);
	assert_int_equal(run.offers.n, 8);
	o = offer_of(&run, "g2-standard-4/us-west4");
	assert_int_equal(o->price, 4 * 25000 + 16 * 3000 + 600000);
	assert_string_equal(run.note, "4 SKUs, 4 used; 0 GPU SKUs skipped "
	    "(variants, zero rates, 0 with no machine shape); rival rates for "
	    "one part: first kept; a3-highgpu-1g/2g/4g, a3-ultragpu, a4, a4x: "
	    "spot only");
	provider_run_done(&run);
}

/* A token that repeats, or paging past 100 pages, stops the run. */
static void
test_paging_loops(void **state)
{
	const struct harness_route cycle[] = {
		{ "pageToken=cycle-b", NULL, "skus-cycle-b.json", 0 },
		{ "/skus?", NULL, "skus-cycle-a.json", 0 },
	};
	struct provider_run run;
	struct err err;

	(void)state;
	expect_failure("skus-repeat.json", "page 2: nextPageToken repeats the "
	    "token of this page");
	assert_int_equal(run_gcp(&run, cycle, 2, NULL, &err), -1);
	assert_string_equal(err.msg, "page 100: still more SKUs after 100 "
	    "pages (a paging loop?)");
	provider_run_done(&run);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_first_request),
		cmocka_unit_test(test_key_checks),
		cmocka_unit_test(test_pagination),
		cmocka_unit_test(test_offer_set),
		cmocka_unit_test(test_commitments),
		cmocka_unit_test(test_a2_highgpu_1g),
		cmocka_unit_test(test_missing_ram_no_offer),
		cmocka_unit_test(test_g2_standard_24),
		cmocka_unit_test(test_local_ssd),
		cmocka_unit_test(test_spot_only_machines),
		cmocka_unit_test(test_g4_a4x),
		cmocka_unit_test(test_n1_attachments),
		cmocka_unit_test(test_bad_units),
		cmocka_unit_test(test_absurd_part_price),
		cmocka_unit_test(test_key_not_in_error),
		cmocka_unit_test(test_bad_bodies),
		cmocka_unit_test(test_bad_unit_and_currency),
		cmocka_unit_test(test_no_machine),
		cmocka_unit_test(test_rival_rates),
		cmocka_unit_test(test_paging_loops),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
