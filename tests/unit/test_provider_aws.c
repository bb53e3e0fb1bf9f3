/* test_provider_aws.c: the AWS adapter on fixture price lists and feeds. */
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
#include "notes.h"
#include "offer.h"
#include "provider.h"
#include "xalloc.h"

extern const struct provider provider_aws;

#define NOW		1757720000
#define THREE_REGIONS	"us-east-1,us-west-2,eu-west-1"
#define ARRAY_LEN(a)	(sizeof (a) / sizeof (a)[0])

/* The fixture routes: the first match wins. */
static const struct harness_route routes[] = {
	{ "/current/us-east-1/index.csv", NULL, "us-east-1.csv", 0 },
	{ "/current/us-west-2/index.csv", NULL, "us-west-2.csv", 0 },
	{ "/current/eu-west-1/index.csv", NULL, "eu-west-1.csv", 0 },
	{ "/current/region_index.json", NULL, "region_index.json", 0 },
	{ "/spot.json", NULL, "spot.json", 0 },
	{ "/spot-advisor-data.json", NULL, "spot-advisor-data.json", 0 },
};

/* What one offer must look like. */
struct expect {
	const char	*key;
	const char	*gpu;
	const char	*gpu_raw;
	int		 count;
	int		 vram;
	enum interconnect ic;
	int		 vcpus;
	double		 ram;
	int64_t		 price;
	int64_t		 spot;
	int		 bucket;
};

#define NONE MONEY_NONE
#define PCIE IC_PCIE
#define NVL IC_NVLINK

/* us-east-1 and us-west-2 of the fixtures; eu-west-1 is unchanged. */
static const struct expect full[] = {
	{ "g5.xlarge/us-east-1", "A10G", "NVIDIA A10G", 1, 24, PCIE, 4, 16,
	    1006000, 442900, 1 },
	{ "g5.48xlarge/us-east-1", "A10G", "NVIDIA A10G", 8, 24, PCIE, 192,
	    768, 16288000, 5939100, -1 },
	{ "p4d.24xlarge/us-east-1", "A100-40", "NVIDIA A100", 8, 40, NVL, 96,
	    1152, 21957600, 8923100, 2 },
	{ "p4de.24xlarge/us-east-1", "A100-80", "NVIDIA A100", 8, 80, NVL, 96,
	    1152, 27447050, NONE, -1 },
	{ "p5.48xlarge/us-east-1", "H100", "NVIDIA H100", 8, 80, NVL, 192,
	    2048, 55040000, NONE, 4 },
	{ "p5.4xlarge/us-east-1", "H100", "NVIDIA H100", 1, 80, NVL, 16, 256,
	    6880000, NONE, -1 },
	{ "p3.2xlarge/us-east-1", "V100-16", "NVIDIA V100", 1, 16, NVL, 8, 61,
	    3060000, 918000, -1 },
	{ "p3dn.24xlarge/us-east-1", "V100-32", "NVIDIA V100", 8, 32, NVL, 96,
	    768, 31212000, NONE, -1 },
	{ "g4dn.xlarge/us-east-1", "T4", "NVIDIA T4", 1, 16, PCIE, 4, 16,
	    526000, 157800, 0 },
	{ "g6.xlarge/us-east-1", "L4", "NVIDIA L4", 1, 24, PCIE, 4, 16,
	    804800, NONE, -1 },
	{ "g6e.xlarge/us-east-1", "L40S", "NVIDIA L40S", 1, 48, PCIE, 4, 32,
	    1861000, NONE, -1 },
	{ "g4ad.xlarge/us-east-1", "V520", "AMD Radeon Pro V520", 1, 8, PCIE,
	    4, 16, 378530, NONE, -1 },
	{ "g5g.xlarge/us-east-1", "T4G", "NVIDIA T4g", 1, 16, PCIE, 4, 8,
	    420000, 151100, -1 },
	{ "p5en.48xlarge/us-east-1", "H200", "NVIDIA H200", 8, 141, NVL, 192,
	    2048, 63296000, NONE, -1 },
	{ "p6-b200.48xlarge/us-east-1", "B200", "NVIDIA B200", 8, 180, NVL,
	    192, 2048, 113932800, NONE, -1 },
	{ "g5.xlarge/us-west-2", "A10G", "NVIDIA A10G", 1, 24, PCIE, 4, 16,
	    1006000, 390000, 0 },
	{ "p5.48xlarge/us-west-2", "H100", "NVIDIA H100", 8, 80, NVL, 192,
	    2048, 55040000, 21134200, 3 },
	{ "g7e.2xlarge/us-west-2", "RTXPRO6000", "NVIDIA RTX PRO Server 6000",
	    1, 96, PCIE, 8, 64, 2995000, 1300000, -1 },
	{ "gr6.4xlarge/us-west-2", "L4", "NVIDIA L4", 1, 24, PCIE, 16, 128,
	    1539200, NONE, -1 },
	{ "p6-b300.48xlarge/us-west-2", "B300", "NVIDIA B300", 8, 288, NVL,
	    192, 4096, 142420000, NONE, -1 },
	{ "g4dn.12xlarge/us-west-2", "T4", "NVIDIA T4", 4, 16, PCIE, 48, 192,
	    3912000, NONE, -1 },
	{ "p3.16xlarge/us-west-2", "V100-16", "NVIDIA V100", 8, 16, NVL, 64,
	    488, 24480000, NONE, -1 },
};

/* The eu-west-1 price list alone. */
static const struct expect eu[] = {
	{ "g5.xlarge/eu-west-1", "A10G", "NVIDIA A10G", 1, 24, PCIE, 4, 16,
	    1123000, 450000, -1 },
	{ "p4d.24xlarge/eu-west-1", "A100-40", "NVIDIA A100", 8, 40, NVL, 96,
	    1152, 24153400, NONE, -1 },
};

/* The old meta of a run where eu-west-1 has not changed. */
static const struct provider_meta eu_unchanged[] = {
	{ "version:eu-west-1", "20250912225308" },
	{ "version:us-east-1", "20250101000000" },
};

/* Prepare run for the AWS adapter. */
static void
run_init(struct provider_run *run, const char *regions)
{
	provider_run_init(run, &provider_aws);
	run->now = NOW;
	run->regions = regions;
}

/* Assert run->offers holds exactly the expected offers. */
static void
check_offers(const struct provider_run *run, const struct expect *want,
    size_t n)
{
	const struct offer *o;
	size_t i;

	assert_int_equal(run->offers.n, n);
	for (i = 0; i < n; i++) {
		o = harness_offer_find(run, want[i].key);
		if (o == NULL)
			fail_msg("no offer %s", want[i].key);
		assert_string_equal(o->provider, "aws");
		assert_string_equal(o->gpu, want[i].gpu);
		assert_string_equal(o->gpu_raw, want[i].gpu_raw);
		assert_int_equal(o->gpu_count, want[i].count);
		assert_int_equal(o->vram_gb, want[i].vram);
		assert_int_equal(o->interconnect, want[i].ic);
		assert_int_equal(o->vcpus, want[i].vcpus);
		assert_true(fabs(o->ram_gb - want[i].ram) < 1e-9);
		if (o->price != want[i].price || o->spot_price != want[i].spot)
			fail_msg("%s: price %lld spot %lld", want[i].key,
			    (long long)o->price, (long long)o->spot_price);
		assert_int_equal(o->spot_interruption, want[i].bucket);
		assert_int_equal(o->availability, AV_UNKNOWN);
		assert_int_equal(o->fetched_at, NOW);
		assert_int_equal(o->source, SRC_LIVE);
		assert_non_null(strchr(o->key, '/'));
		assert_int_equal(strncmp(o->key, o->instance_type,
		    strlen(o->instance_type)), 0);
		assert_string_equal(o->key + strlen(o->instance_type) + 1,
		    o->region);
	}
}

/* The value of meta name in run->new_meta, or NULL. */
static const char *
new_meta(const struct provider_run *run, const char *name)
{
	size_t i;

	for (i = 0; i < run->nnew_meta; i++)
		if (strcmp(run->new_meta[i].name, name) == 0)
			return run->new_meta[i].value;
	return NULL;
}

/* How many logged requests have this URL substring. */
static size_t
requests_with(const struct harness_log *log, const char *has)
{
	size_t i, n = 0;

	for (i = 0; i < log->n; i++)
		if (strstr(log->url[i], has) != NULL)
			n++;
	return n;
}

/* Full run: three regions, eu-west-1 unchanged, chunks of 4096 bytes. */
static void
test_full_run(void **state)
{
	struct provider_run run;
	struct harness_log log = { 0 };
	struct err err = { "" };
	int rc;

	(void)state;
	run_init(&run, THREE_REGIONS);
	run.old_meta = eu_unchanged;
	run.nold_meta = ARRAY_LEN(eu_unchanged);
	rc = harness_run(&provider_aws, &run, routes, ARRAY_LEN(routes), NULL,
	    4096, &log, &err);
	if (rc != 0)
		fail_msg("%s", err.msg);
	check_offers(&run, full, ARRAY_LEN(full));
	/* p5e zero price, g6f and gr6f slices, a Boston Local Zone row. */
	assert_int_equal(run.skipped, 4);
	assert_int_equal(run.unknown_gpu, 0);
	assert_string_equal(run.note, "1 region unchanged (cached offers "
	    "kept); 2 fractional-GPU rows skipped; 1 zero-price row skipped; "
	    "1 Local Zone row skipped; 10 reserved terms read, 8 reservation "
	    "prices kept (1 incomplete or implausible)");

	assert_int_equal(log.n, 5);
	assert_string_equal(log.url[0], "https://pricing.us-east-1.amazonaws"
	    ".com/offers/v1.0/aws/AmazonEC2/current/region_index.json");
	assert_string_equal(log.url[1],
	    "https://website.spot.ec2.aws.a2z.com/spot.json");
	assert_string_equal(log.url[2], "https://spot-bid-advisor.s3."
	    "amazonaws.com/spot-advisor-data.json");
	assert_string_equal(log.url[3], "https://pricing.us-east-1.amazonaws"
	    ".com/offers/v1.0/aws/AmazonEC2/current/us-east-1/index.csv");
	assert_string_equal(log.url[4], "https://pricing.us-east-1.amazonaws"
	    ".com/offers/v1.0/aws/AmazonEC2/current/us-west-2/index.csv");
	assert_int_equal(requests_with(&log, "eu-west-1"), 0);
	assert_string_equal(log.method[0], "GET");
	assert_string_equal(log.headers[0], "");
	/*
	 * The three documents are whole: conditional. No success has
	 * settled the index yet, so it is asked in full this time; the
	 * price lists are never conditional.
	 */
	assert_int_equal(log.conditional[0], 'r');
	assert_int_equal(log.conditional[1], 'c');
	assert_int_equal(log.conditional[2], 'c');
	assert_int_equal(log.conditional[3], 0);
	assert_int_equal(log.conditional[4], 0);

	/* eu-west-1 kept; the CSV preamble's version wins for us-west-2. */
	assert_int_equal(run.nkeep_regions, 1);
	assert_string_equal(run.keep_regions[0], "eu-west-1");
	assert_int_equal(run.nnew_meta, 4);
	/* us-west-2 stores another version than the index's: unsettled. */
	assert_string_equal(new_meta(&run, "index-settled"), "");
	assert_string_equal(new_meta(&run, "version:eu-west-1"),
	    "20250912225308");
	assert_string_equal(new_meta(&run, "version:us-east-1"),
	    "20250912225308");
	assert_string_equal(new_meta(&run, "version:us-west-2"),
	    "20250911093000");
	harness_log_free(&log);
	provider_run_done(&run);
}

/* Chunks of 1, 7, 4096 and 1 MiB bytes give the same offers. */
static void
test_chunk_sizes(void **state)
{
	static const size_t sizes[] = { 1, 7, 4096, 1 << 20 };
	struct provider_run run;
	struct err err = { "" };
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_LEN(sizes); i++) {
		run_init(&run, THREE_REGIONS);
		run.old_meta = eu_unchanged;
		run.nold_meta = ARRAY_LEN(eu_unchanged);
		if (harness_run(&provider_aws, &run, routes, ARRAY_LEN(routes),
		    NULL, sizes[i], NULL, &err) != 0)
			fail_msg("chunk %zu: %s", sizes[i], err.msg);
		check_offers(&run, full, ARRAY_LEN(full));
		assert_int_equal(run.skipped, 4);
		assert_string_equal(new_meta(&run, "version:us-west-2"),
		    "20250911093000");
		provider_run_done(&run);
	}
}

/* The JSONP form spot.js gives the same spot prices. */
static void
test_spot_js(void **state)
{
	struct harness_route r[ARRAY_LEN(routes)];
	struct provider_run run;
	struct err err = { "" };
	size_t i;

	(void)state;
	memcpy(r, routes, sizeof r);
	for (i = 0; i < ARRAY_LEN(r); i++)
		if (strcmp(r[i].file, "spot.json") == 0)
			r[i].file = "spot.js";
	run_init(&run, THREE_REGIONS);
	run.old_meta = eu_unchanged;
	run.nold_meta = ARRAY_LEN(eu_unchanged);
	if (harness_run(&provider_aws, &run, r, ARRAY_LEN(r), NULL, 0, NULL,
	    &err) != 0)
		fail_msg("%s", err.msg);
	check_offers(&run, full, ARRAY_LEN(full));
	provider_run_done(&run);
}

/* Every region unchanged: no CSV is requested, all are kept. */
static void
test_version_all_unchanged(void **state)
{
	static const struct provider_meta old[] = {
		{ "version:us-east-1", "20250912225308" },
		{ "version:us-west-2", "20250910183045" },
		{ "version:eu-west-1", "20250912225308" },
	};
	struct provider_meta meta[ARRAY_LEN(old) + 1];
	struct provider_run run;
	struct harness_log log = { 0 };
	struct err err = { "" };
	const char *settled;
	char settled_copy[PROVIDER_META_VALUE_MAX];

	(void)state;
	run_init(&run, THREE_REGIONS);
	run.old_meta = old;
	run.nold_meta = ARRAY_LEN(old);
	if (harness_run(&provider_aws, &run, routes, ARRAY_LEN(routes), NULL,
	    0, &log, &err) != 0)
		fail_msg("%s", err.msg);
	assert_int_equal(log.n, 3);
	assert_int_equal(requests_with(&log, "index.csv"), 0);
	assert_int_equal(run.offers.n, 0);
	assert_int_equal(run.nkeep_regions, 3);
	assert_string_equal(run.keep_regions[0], "us-east-1");
	assert_string_equal(run.keep_regions[1], "us-west-2");
	assert_string_equal(run.keep_regions[2], "eu-west-1");
	assert_string_equal(new_meta(&run, "version:us-west-2"),
	    "20250910183045");
	assert_string_equal(run.note, "3 regions unchanged (cached offers "
	    "kept)");
	/* Every region stores the index's version: settled. */
	settled = new_meta(&run, "index-settled");
	assert_int_equal(strlen(settled), 16);
	snprintf(settled_copy, sizeof settled_copy, "%s", settled);
	assert_int_equal(log.conditional[0], 'r');
	harness_log_free(&log);
	provider_run_done(&run);

	/* Next time, for the same regions, the index is conditional. */
	memcpy(meta, old, sizeof old);
	snprintf(meta[3].name, sizeof meta[3].name, "index-settled");
	snprintf(meta[3].value, sizeof meta[3].value, "%s", settled_copy);
	run_init(&run, THREE_REGIONS);
	run.old_meta = meta;
	run.nold_meta = ARRAY_LEN(meta);
	if (harness_run(&provider_aws, &run, routes, ARRAY_LEN(routes), NULL,
	    0, &log, &err) != 0)
		fail_msg("%s", err.msg);
	assert_int_equal(log.conditional[0], 'c');
	harness_log_free(&log);
	provider_run_done(&run);

	/* Not for another list of regions (one was added). */
	run_init(&run, "us-east-1,us-west-2");
	run.old_meta = meta;
	run.nold_meta = ARRAY_LEN(meta);
	if (harness_run(&provider_aws, &run, routes, ARRAY_LEN(routes), NULL,
	    0, &log, &err) != 0)
		fail_msg("%s", err.msg);
	assert_int_equal(log.conditional[0], 'r');
	harness_log_free(&log);
	provider_run_done(&run);
}

/* GPUCOST_AWS_URL moves all three hosts and keeps the paths. */
static void
test_base_url(void **state)
{
	struct provider_run run;
	struct harness_log log = { 0 };
	struct err err = { "" };

	(void)state;
	run_init(&run, "eu-west-1");
	run.base_url = "http://127.0.0.1:8080/";
	if (harness_run(&provider_aws, &run, routes, ARRAY_LEN(routes), NULL,
	    0, &log, &err) != 0)
		fail_msg("%s", err.msg);
	assert_int_equal(log.n, 4);
	assert_string_equal(log.url[0], "http://127.0.0.1:8080/offers/v1.0/"
	    "aws/AmazonEC2/current/region_index.json");
	assert_string_equal(log.url[1], "http://127.0.0.1:8080/spot.json");
	assert_string_equal(log.url[2],
	    "http://127.0.0.1:8080/spot-advisor-data.json");
	assert_string_equal(log.url[3], "http://127.0.0.1:8080/offers/v1.0/"
	    "aws/AmazonEC2/current/eu-west-1/index.csv");
	check_offers(&run, eu, ARRAY_LEN(eu));
	assert_int_equal(run.nkeep_regions, 0);
	assert_string_equal(run.note, "");
	harness_log_free(&log);
	provider_run_done(&run);
}

/* The region list: blanks, repeats and empty items are tolerated. */
static void
test_region_override(void **state)
{
	struct provider_run run;
	struct harness_log log = { 0 };
	struct err err = { "" };

	(void)state;
	run_init(&run, " us-west-2 ,,us-west-2\t,");
	if (harness_run(&provider_aws, &run, routes, ARRAY_LEN(routes), NULL,
	    0, &log, &err) != 0)
		fail_msg("%s", err.msg);
	assert_int_equal(requests_with(&log, "index.csv"), 1);
	assert_int_equal(requests_with(&log, "/us-west-2/index.csv"), 1);
	assert_int_equal(run.offers.n, 7);
	assert_non_null(harness_offer_find(&run, "p5.48xlarge/us-west-2"));
	assert_null(harness_offer_find(&run, "p5.48xlarge/us-east-1"));
	/* Spot prices of the other regions are not taken. */
	assert_int_equal(harness_offer_find(&run, "g5.xlarge/us-west-2")->spot_price,
	    390000);
	assert_int_equal(run.skipped, 1);
	harness_log_free(&log);
	provider_run_done(&run);
}

/* A bad region list fails before any request, with a clear message. */
static void
test_region_invalid(void **state)
{
	static const struct {
		const char	*list;
		const char	*msg;
	} cases[] = {
		{ "us-east-1,US_EAST", "bad region \"US_EAST\" in the AWS "
		    "region list (GPUCOST_AWS_REGIONS or the config file): "
		    "expected lowercase letters, digits and '-', such as "
		    "us-east-1" },
		{ "us-east-1;ls", "bad region \"us-east-1;ls\"" },
		{ "us-east-1/../x", "bad region \"us-east-1/../x\"" },
		{ "us east 1", "bad region \"us east 1\"" },
		{ "eu-west-1,\x1b[31mred", "bad region \"red\"" },
		{ "abcdefghijklmnopqrstuvwxyz-0123456789", "bad region" },
		{ " , ,", "the AWS region list (GPUCOST_AWS_REGIONS or the "
		    "config file) names no region" },
	};
	struct provider_run run;
	struct harness_log log = { 0 };
	struct err err = { "" };
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_LEN(cases); i++) {
		run_init(&run, cases[i].list);
		assert_int_equal(harness_run(&provider_aws, &run, routes,
		    ARRAY_LEN(routes), NULL, 0, &log, &err), -1);
		if (strstr(err.msg, cases[i].msg) == NULL)
			fail_msg("%s: got \"%s\"", cases[i].list, err.msg);
		assert_int_equal(log.n, 0);
		provider_run_done(&run);
	}
}

/* The default list asks for regions the 3-region index lacks. */
static void
test_region_not_in_index(void **state)
{
	struct provider_run run;
	struct err err = { "" };

	(void)state;
	run_init(&run, NULL);
	assert_int_equal(harness_run(&provider_aws, &run, routes,
	    ARRAY_LEN(routes), NULL, 0, NULL, &err), -1);
	assert_string_equal(err.msg, "region_index.json: no region "
	    "\"us-east-2\" in the AWS price list (check GPUCOST_AWS_REGIONS)");
	provider_run_done(&run);
}

/* Run with us-east-1's CSV replaced by file; returns err.msg's copy. */
static int
run_east_with(const char *file, const char *spot, const char *advisor,
    struct err *err)
{
	struct harness_route r[ARRAY_LEN(routes)];
	struct provider_run run;
	size_t i;
	int rc;

	memcpy(r, routes, sizeof r);
	for (i = 0; i < ARRAY_LEN(r); i++) {
		if (file != NULL && strcmp(r[i].file, "us-east-1.csv") == 0)
			r[i].file = file;
		if (spot != NULL && strcmp(r[i].file, "spot.json") == 0)
			r[i].file = spot;
		if (advisor != NULL &&
		    strcmp(r[i].file, "spot-advisor-data.json") == 0)
			r[i].file = advisor;
	}
	run_init(&run, "us-east-1");
	rc = harness_run(&provider_aws, &run, r, ARRAY_LEN(r), NULL, 0, NULL,
	    err);
	provider_run_done(&run);
	return rc;
}

/* A CSV cut in the middle of its last line fails, naming the region. */
static void
test_truncated(void **state)
{
	struct err err = { "" };
	size_t chunk;
	struct provider_run run;
	struct harness_route r[ARRAY_LEN(routes)];

	(void)state;
	assert_int_equal(run_east_with("us-east-1-truncated.csv", NULL, NULL,
	    &err), -1);
	assert_string_equal(err.msg, "price list us-east-1: line 36: body "
	    "truncated in the middle of a record");
	/* The same whatever the chunk size. */
	memcpy(r, routes, sizeof r);
	r[0].file = "us-east-1-truncated.csv";
	for (chunk = 1; chunk < 20; chunk += 6) {
		run_init(&run, "us-east-1");
		assert_int_equal(harness_run(&provider_aws, &run, r,
		    ARRAY_LEN(r), NULL, chunk, NULL, &err), -1);
		assert_string_equal(err.msg, "price list us-east-1: line 36: "
		    "body truncated in the middle of a record");
		provider_run_done(&run);
	}
}

/* A header without a needed column fails, naming region and column. */
static void
test_missing_column(void **state)
{
	struct err err = { "" };

	(void)state;
	assert_int_equal(run_east_with("us-east-1-missing-column.csv", NULL,
	    NULL, &err), -1);
	assert_string_equal(err.msg, "price list us-east-1: line 6: the "
	    "header has no \"CapacityStatus\" column");
}

/* A price that is not a number fails, naming line, type and field. */
static void
test_bad_price(void **state)
{
	struct err err = { "" };

	(void)state;
	assert_int_equal(run_east_with("us-east-1-bad-price.csv", NULL, NULL,
	    &err), -1);
	assert_string_equal(err.msg, "price list us-east-1: line 9 "
	    "(g5.xlarge): PricePerUnit: expected a price in USD, got "
	    "\"1.0O60000000\"");
}

/*
 * p4d.24xlarge in us-east-1 with its Reserved terms (us-east-1.csv):
 * effective hourly = hourly fee + upfront fee / (years x 8,760), for
 * 1 and 3 years with No, Partial and All Upfront; the dearer
 * convertible 1-year No Upfront term does not replace the standard
 * one. g5.xlarge: an All Upfront term without its fee is no price.
 */
static void
test_reserved(void **state)
{
	static const struct {
		int	 months;
		enum committed_upfront upfront;
		int64_t	 price;		/* effective, micro-USD per hour */
		int64_t	 upfront_usd;
	} want[] = {
		{ 12, CU_NONE, 13740600, 0 },
		/* 6.5984 + 57,800 / 8,760 */
		{ 12, CU_PARTIAL, 13196574, (int64_t)57800 * MONEY_UNIT },
		/* 113,300 / 8,760 */
		{ 12, CU_ALL, 12933790, (int64_t)113300 * MONEY_UNIT },
		{ 36, CU_NONE, 8799600, 0 },
		/* 3.9082 + 102,700 / 26,280 */
		{ 36, CU_PARTIAL, 7816115, (int64_t)102700 * MONEY_UNIT },
		/* 201,300 / 26,280 */
		{ 36, CU_ALL, 7659817, (int64_t)201300 * MONEY_UNIT },
	};
	const struct offer *o;
	struct provider_run run;
	struct err err = { "" };
	size_t i;

	(void)state;
	run_init(&run, THREE_REGIONS);
	run.old_meta = eu_unchanged;
	run.nold_meta = ARRAY_LEN(eu_unchanged);
	if (harness_run(&provider_aws, &run, routes, ARRAY_LEN(routes), NULL,
	    4096, NULL, &err) != 0)
		fail_msg("%s", err.msg);
	o = harness_offer(&run, "p4d.24xlarge/us-east-1");
	assert_int_equal(o->price, 21957600);
	assert_int_equal(o->ncommitted, ARRAY_LEN(want));
	for (i = 0; i < ARRAY_LEN(want); i++) {
		assert_int_equal(o->committed[i].kind, CK_RESERVATION);
		assert_int_equal(o->committed[i].months, want[i].months);
		assert_int_equal(o->committed[i].upfront_kind, want[i].upfront);
		assert_int_equal(o->committed[i].price_hour, want[i].price);
		assert_int_equal(o->committed[i].upfront, want[i].upfront_usd);
	}
	/* 5,554 all upfront for a year is 0.634018 an hour. */
	o = harness_offer(&run, "g5.xlarge/us-east-1");
	assert_int_equal(o->ncommitted, 2);
	assert_int_equal(o->committed[0].price_hour, 634000);
	assert_int_equal(o->committed[1].upfront_kind, CU_ALL);
	assert_int_equal(o->committed[1].price_hour, 634018);
	/* No Reserved row is an on-demand price or an offer. */
	assert_int_equal(run.offers.n, ARRAY_LEN(full));
	provider_run_done(&run);
}

/* A spot feed or advisor that cannot be read fails the provider. */
static void
test_spot_feed_errors(void **state)
{
	struct harness_route r[ARRAY_LEN(routes)];
	struct provider_run run;
	struct err err = { "" };
	size_t i;

	(void)state;
	assert_int_equal(run_east_with(NULL, "spot-malformed.json", NULL,
	    &err), -1);
	if (strncmp(err.msg, "spot.json: malformed JSON at byte ", 34) != 0)
		fail_msg("got \"%s\"", err.msg);
	assert_int_equal(run_east_with(NULL, "us-east-1.csv", NULL, &err), -1);
	/* A CSV starts with a JSON string; what follows it is not JSON. */
	assert_string_equal(err.msg, "spot.json: malformed JSON: unexpected "
	    "data after the value at byte 15 of 29948");
	assert_int_equal(run_east_with(NULL, NULL,
	    "spot-advisor-bad-bucket.json", &err), -1);
	assert_string_equal(err.msg, "spot-advisor-data.json.spot_advisor."
	    "us-east-1.Linux.p5.48xlarge.r: 7 is not a whole number in 0..4");
	assert_int_equal(run_east_with(NULL, NULL, "region_index.json", &err),
	    -1);
	assert_string_equal(err.msg, "spot-advisor-data.json.spot_advisor: "
	    "expected an object, got nothing");
	/* No answer at all: the refresh fails before any hook (all or none). */
	memcpy(r, routes, sizeof r);
	for (i = 0; i < ARRAY_LEN(r); i++)
		if (strcmp(r[i].file, "spot.json") == 0)
			r[i].status = 503;
	run_init(&run, "us-east-1");
	assert_int_equal(harness_run(&provider_aws, &run, r, ARRAY_LEN(r),
	    NULL, 0, NULL, &err), -1);
	assert_string_equal(err.msg, "HTTP 503");
	provider_run_done(&run);
}

/* ---- Single-row price lists written to a temporary directory. ---- */

/* A small header in its own order: columns are found by name. */
static const char *const mini_cols[] = {
	"Region Code", "Instance Type", "TermType", "Tenancy",
	"Operating System", "Pre Installed S/W", "CapacityStatus", "Unit",
	"Currency", "MarketOption", "PricePerUnit", "vCPU", "Memory", "GPU",
	"GPU Memory", "SKU", "PriceDescription",
};

/*
 * The values of an on-demand Linux g5.xlarge row, one per column. The
 * description holds every pre-filter word, so a distractor made by
 * changing one column is rejected by the full field checks, not only by
 * the pre-filter.
 */
static const char *const mini_good[] = {
	"us-east-1", "g5.xlarge", "OnDemand", "Shared", "Linux", "NA", "Used",
	"Hrs", "USD", "OnDemand", "1.0060000000", "4", "16 GiB", "1", "24 GB",
	"Q5SKU7EXAMPLE2AB",
	"Linux; Shared; Used; OnDemand: every word of the pre-filter",
};

/* Append a CSV line of n fields to f, quoted unless bare. */
static void
write_line(FILE *f, const char *const *v, size_t n, bool bare,
    const char *eol)
{
	const char *p;
	size_t i;

	for (i = 0; i < n; i++) {
		if (i > 0)
			fputc(',', f);
		if (v[i][0] == '\0')
			continue;
		if (bare) {
			fputs(v[i], f);
			continue;
		}
		fputc('"', f);
		for (p = v[i]; *p != '\0'; p++) {
			if (*p == '"')
				fputc('"', f);
			fputc(*p, f);
		}
		fputc('"', f);
	}
	fputs(eol, f);
}

/* Copy a fixture file into dir. */
static void
copy_fixture(const char *dir, const char *name)
{
	char *src = harness_fixture_path("aws"), *path, *body;
	size_t len;
	FILE *f;

	path = xasprintf("%s/%s", src, name);
	body = harness_read_file(path, &len);
	free(path);
	path = xasprintf("%s/%s", dir, name);
	f = fopen(path, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(body, 1, len, f), len);
	fclose(f);
	free(path);
	free(body);
	free(src);
}

/* A temporary fixture dir holding copies of the JSON fixtures. */
static char *
tmp_dir_new(void)
{
	const char *base = getenv("TMPDIR");
	char *dir = xasprintf("%s/gpucost-aws.XXXXXX",
	    base != NULL ? base : "/tmp");

	assert_non_null(mkdtemp(dir));
	copy_fixture(dir, "region_index.json");
	copy_fixture(dir, "spot.json");
	copy_fixture(dir, "spot-advisor-data.json");
	return dir;
}

/* Remove the temporary dir and its files. */
static void
tmp_dir_free(char *dir)
{
	static const char *const files[] = { "region_index.json", "spot.json",
	    "spot-advisor-data.json", "us-east-1.csv" };
	char *path;
	size_t i;

	for (i = 0; i < ARRAY_LEN(files); i++) {
		path = xasprintf("%s/%s", dir, files[i]);
		unlink(path);
		free(path);
	}
	rmdir(dir);
	free(dir);
}

/* Open dir/us-east-1.csv and write the preamble and mini header. */
static FILE *
mini_csv_open(const char *dir, const char *eol)
{
	char *path = xasprintf("%s/us-east-1.csv", dir);
	FILE *f = fopen(path, "wb");

	free(path);
	assert_non_null(f);
	fprintf(f, "\"FormatVersion\",\"v1.0\"%s\"Disclaimer\",\"For tests.\"%s"
	    "\"Publication Date\",\"2025-09-12T22:53:08Z\"%s"
	    "\"Version\",\"20250912225308\"%s\"OfferCode\",\"AmazonEC2\"%s",
	    eol, eol, eol, eol, eol);
	write_line(f, mini_cols, ARRAY_LEN(mini_cols), false, eol);
	return f;
}

/* Run us-east-1 alone over the files in dir, chunk 5. */
static int
run_dir(const char *dir, struct provider_run *run, struct err *err)
{
	run_init(run, "us-east-1");
	return harness_run(&provider_aws, run, routes, ARRAY_LEN(routes), dir,
	    5, NULL, err);
}

/* One row of the filter table: a good row with one column changed. */
struct row_case {
	const char	*what;
	const char	*column;	/* NULL: the good row as it is */
	const char	*value;
	size_t		 offers;
	size_t		 skipped;
	const char	*error;		/* substring, or NULL for success */
};

static const struct row_case row_cases[] = {
	{ "good row", NULL, NULL, 1, 0, NULL },
	{ "Windows", "Operating System", "Windows", 0, 0, NULL },
	{ "RHEL", "Operating System", "RHEL", 0, 0, NULL },
	{ "SUSE", "Operating System", "SUSE", 0, 0, NULL },
	{ "Dedicated tenancy", "Tenancy", "Dedicated", 0, 0, NULL },
	{ "Host tenancy", "Tenancy", "Host", 0, 0, NULL },
	{ "reserved", "TermType", "Reserved", 0, 0, NULL },
	{ "RI upfront fee", "Unit", "Quantity", 0, 0, NULL },
	{ "unused reservation", "CapacityStatus",
	    "UnusedCapacityReservation", 0, 0, NULL },
	{ "allocated reservation", "CapacityStatus",
	    "AllocatedCapacityReservation", 0, 0, NULL },
	{ "SQL pre-installed", "Pre Installed S/W", "SQL Std", 0, 0, NULL },
	{ "no pre-installed text", "Pre Installed S/W", "", 1, 0, NULL },
	{ "other currency", "Currency", "CNY", 0, 0, NULL },
	{ "capacity block", "MarketOption", "CapacityBlock", 0, 0, NULL },
	{ "non-GPU m5", "Instance Type", "m5.large", 0, 0, NULL },
	{ "inferentia", "Instance Type", "inf2.xlarge", 0, 0, NULL },
	{ "g6f slice", "Instance Type", "g6f.large", 0, 1, NULL },
	{ "fractional 0.5", "GPU", "0.5", 0, 1, NULL },
	{ "fractional <1", "GPU", "<1", 0, 1, NULL },
	{ "fractional 1/8", "GPU", "1/8", 0, 1, NULL },
	{ "zero price", "PricePerUnit", "0.0000000000", 0, 1, NULL },
	{ "Local Zone", "Region Code", "us-east-1-bos-1", 0, 1, NULL },
	{ "exponent price", "PricePerUnit", "1.006E0", 1, 0, NULL },
	{ "comma, quote", "SKU", "A\"B,C\"\"", 1, 0, NULL },
	{ "thousands in Memory", "Memory", "1,152 GiB", 1, 0, NULL },
	{ "unknown GPU Memory", "GPU Memory", "NA", 1, 0, NULL },
	{ "unknown vCPU", "vCPU", "", 1, 0, NULL },
	{ "bad price", "PricePerUnit", "abc", 0, 0,
	    "price list us-east-1: line 7 (g5.xlarge): PricePerUnit: "
	    "expected a price in USD, got \"abc\"" },
	{ "negative price", "PricePerUnit", "-1.006", 0, 0,
	    "PricePerUnit: expected a price in USD, got \"-1.006\"" },
	{ "absurd price", "PricePerUnit", "99999999999", 0, 0,
	    "PricePerUnit: expected a price in USD" },
	{ "no GPUs", "GPU", "0", 0, 0,
	    "line 7 (g5.xlarge): GPU: expected a GPU count, got \"0\"" },
	{ "empty GPU", "GPU", "", 0, 0, "GPU: expected a GPU count, got \"\"" },
	{ "GPU count 1.0", "GPU", "1.0", 1, 0, NULL },
	{ "one and a half GPUs", "GPU", "1.5", 0, 0,
	    "GPU: expected a GPU count, got \"1.5\"" },
	{ "a million GPUs", "GPU", "1000000", 0, 0,
	    "GPU: expected a GPU count, got \"1000000\"" },
	{ "65 GPUs", "GPU", "65", 0, 0,
	    "price list us-east-1: line 7: g5.xlarge/us-east-1: gpu_count 65 "
	    "is out of range" },
	{ "wrong GPU Memory", "GPU Memory", "80 GB", 0, 0,
	    "line 7 (g5.xlarge): GPU Memory \"80 GB\" does not match 1 x "
	    "NVIDIA A10G 24 GB (the adapter's family table needs an update)" },
	{ "bad GPU Memory", "GPU Memory", "lots", 0, 0,
	    "GPU Memory: expected \"<n> GB\", got \"lots\"" },
	{ "bad vCPU", "vCPU", "four", 0, 0,
	    "vCPU: expected a count, got \"four\"" },
	{ "bad Memory", "Memory", "16 TB", 0, 0,
	    "Memory: expected \"<n> GiB\", got \"16 TB\"" },
	{ "no Region Code", "Region Code", "", 0, 0,
	    "line 7 (g5.xlarge): Region Code: empty" },
};

/* Each filter and row check, on a one-row price list. */
static void
test_row_filters(void **state)
{
	const char *v[ARRAY_LEN(mini_cols)];
	struct provider_run run;
	struct err err;
	size_t i, k;
	char *dir;
	FILE *f;
	int rc;

	(void)state;
	dir = tmp_dir_new();
	for (i = 0; i < ARRAY_LEN(row_cases); i++) {
		memcpy(v, mini_good, sizeof v);
		for (k = 0; row_cases[i].column != NULL &&
		    k < ARRAY_LEN(mini_cols); k++)
			if (strcmp(mini_cols[k], row_cases[i].column) == 0)
				v[k] = row_cases[i].value;
		f = mini_csv_open(dir, "\n");
		write_line(f, v, ARRAY_LEN(v), false, "\n");
		fclose(f);
		err_clear(&err);
		rc = run_dir(dir, &run, &err);
		if (row_cases[i].error != NULL) {
			if (rc != -1 || strstr(err.msg,
			    row_cases[i].error) == NULL)
				fail_msg("%s: rc %d, \"%s\"", row_cases[i].what,
				    rc, err.msg);
		} else if (rc != 0 || run.offers.n != row_cases[i].offers ||
		    run.skipped != row_cases[i].skipped)
			fail_msg("%s: rc %d offers %zu skipped %zu \"%s\"",
			    row_cases[i].what, rc, run.offers.n, run.skipped,
			    err.msg);
		if (rc == 0 && run.offers.n == 1 &&
		    strcmp(row_cases[i].what, "thousands in Memory") == 0)
			assert_true(fabs(run.offers.v[0].ram_gb - 1152) < 1e-9);
		if (rc == 0 && run.offers.n == 1)
			assert_int_equal(run.offers.v[0].price, 1006000);
		provider_run_done(&run);
	}
	tmp_dir_free(dir);
}

/*
 * g7 (issue 44): RTX PRO 4500 Blackwell Server Edition, 32 GB each, on
 * PCIe (ec2instances.info #910's sizes); the price list's GPU Memory is
 * the instance's total. Unknown to the family table before: skipped.
 */
static void
test_g7(void **state)
{
	static const struct {
		const char *type, *vcpu, *mem, *gpus, *gpu_mem, *price;
		int count;
	} rows[] = {
		{ "g7.2xlarge", "8", "32 GiB", "1", "32 GB", "2.5200000000", 1 },
		{ "g7.12xlarge", "48", "192 GiB", "2", "64 GB", "7.6100000000",
		    2 },
	};
	const char *v[ARRAY_LEN(mini_cols)];
	const struct offer *o;
	struct provider_run run;
	struct err err;
	size_t i, k;
	char *dir, key[64];
	FILE *f;

	(void)state;
	dir = tmp_dir_new();
	f = mini_csv_open(dir, "\n");
	for (i = 0; i < ARRAY_LEN(rows); i++) {
		memcpy(v, mini_good, sizeof v);
		for (k = 0; k < ARRAY_LEN(mini_cols); k++) {
			if (strcmp(mini_cols[k], "Instance Type") == 0)
				v[k] = rows[i].type;
			else if (strcmp(mini_cols[k], "vCPU") == 0)
				v[k] = rows[i].vcpu;
			else if (strcmp(mini_cols[k], "Memory") == 0)
				v[k] = rows[i].mem;
			else if (strcmp(mini_cols[k], "GPU") == 0)
				v[k] = rows[i].gpus;
			else if (strcmp(mini_cols[k], "GPU Memory") == 0)
				v[k] = rows[i].gpu_mem;
			else if (strcmp(mini_cols[k], "PricePerUnit") == 0)
				v[k] = rows[i].price;
		}
		write_line(f, v, ARRAY_LEN(v), false, "\n");
	}
	fclose(f);
	if (run_dir(dir, &run, &err) != 0)
		fail_msg("%s", err.msg);
	assert_int_equal(run.offers.n, ARRAY_LEN(rows));
	assert_int_equal(run.skipped, 0);
	for (i = 0; i < ARRAY_LEN(rows); i++) {
		snprintf(key, sizeof key, "%s/us-east-1", rows[i].type);
		o = harness_offer(&run, key);
		assert_string_equal(o->gpu, "RTXPRO4500");
		assert_int_equal(o->gpu_count, rows[i].count);
		assert_int_equal(o->vram_gb, 32);
		assert_int_equal(o->interconnect, IC_PCIE);
	}
	provider_run_done(&run);
	tmp_dir_free(dir);
}

/* CRLF lines, bare (unquoted) fields, a duplicate row, no final newline. */
static void
test_line_forms(void **state)
{
	const char *v[ARRAY_LEN(mini_cols)];
	struct provider_run run;
	struct err err = { "" };
	char *dir;
	FILE *f;

	(void)state;
	dir = tmp_dir_new();
	memcpy(v, mini_good, sizeof v);
	f = mini_csv_open(dir, "\r\n");
	write_line(f, v, ARRAY_LEN(v), true, "\r\n");
	v[10] = "0.9000000000";		/* PricePerUnit: a cheaper twin */
	write_line(f, v, ARRAY_LEN(v), false, "");
	fclose(f);
	if (run_dir(dir, &run, &err) != 0)
		fail_msg("%s", err.msg);
	assert_int_equal(run.offers.n, 1);
	assert_int_equal(run.offers.v[0].price, 900000);
	assert_int_equal(run.offers.v[0].spot_price, 442900);
	assert_int_equal(run.skipped, 1);
	assert_string_equal(run.note, "1 duplicate row skipped");
	provider_run_done(&run);
	tmp_dir_free(dir);
}

/* A line longer than 64 KiB fails; memory stays bounded. */
static void
test_long_line(void **state)
{
	const char *v[ARRAY_LEN(mini_cols)];
	struct provider_run run;
	struct err err = { "" };
	char *dir, *big;
	FILE *f;

	(void)state;
	dir = tmp_dir_new();
	big = xmalloc(70000);
	memset(big, 'x', 69999);
	big[69999] = '\0';
	memcpy(v, mini_good, sizeof v);
	v[16] = big;
	f = mini_csv_open(dir, "\n");
	write_line(f, v, ARRAY_LEN(v), false, "\n");
	fclose(f);
	assert_int_equal(run_dir(dir, &run, &err), -1);
	assert_string_equal(err.msg, "price list us-east-1: line 7 is longer "
	    "than 65536 bytes");
	provider_run_done(&run);
	/* The same line whole in one chunk. */
	run_init(&run, "us-east-1");
	assert_int_equal(harness_run(&provider_aws, &run, routes,
	    ARRAY_LEN(routes), dir, 1 << 20, NULL, &err), -1);
	assert_string_equal(err.msg, "price list us-east-1: line 7 is longer "
	    "than 65536 bytes");
	provider_run_done(&run);
	free(big);
	tmp_dir_free(dir);
}

/* Write body as dir/us-east-1.csv. */
static void
write_csv(const char *dir, const char *body)
{
	char *path = xasprintf("%s/us-east-1.csv", dir);
	FILE *f = fopen(path, "wb");

	assert_non_null(f);
	fputs(body, f);
	fclose(f);
	free(path);
}

/* Bodies that are not a price list, or stop before the data. */
static void
test_not_a_price_list(void **state)
{
	static const struct {
		const char	*body;
		const char	*msg;
	} cases[] = {
		{ "<html><body>Access Denied</body></html>\n",
		    "price list us-east-1: line 1: not an AWS price list CSV "
		    "(expected \"FormatVersion\", got \"<html><body>Access "
		    "Denied</body></html>\")" },
		{ "", "price list us-east-1: no header row (body empty or "
		    "truncated)" },
		{ "\"FormatVersion\",\"v1.0\"\n\"Version\",\"2025\"\n",
		    "price list us-east-1: no header row (body empty or "
		    "truncated)" },
		{ "\"FormatVersion\",\"v1.0\"\n\"Version\",\"2025\"\n"
		    "\"SKU\",\"Te",
		    "price list us-east-1: no header row (body truncated?)" },
		{ "\"FormatVersion\",\"v1.0\"\n\"SKU\",\"TermType\",\"Unit\"\n",
		    "price list us-east-1: line 2: the header has no "
		    "\"PricePerUnit\" column" },
		{ "\"FormatVersion\",\"v1.0\"\n\"Version\"x,\"1\"\n",
		    "price list us-east-1: line 2: field 1: text after the "
		    "closing quote" },
	};
	struct provider_run run;
	struct err err;
	char *dir;
	size_t i;

	(void)state;
	dir = tmp_dir_new();
	for (i = 0; i < ARRAY_LEN(cases); i++) {
		write_csv(dir, cases[i].body);
		err_clear(&err);
		assert_int_equal(run_dir(dir, &run, &err), -1);
		if (strcmp(err.msg, cases[i].msg) != 0)
			fail_msg("case %zu: got \"%s\"", i, err.msg);
		provider_run_done(&run);
	}
	tmp_dir_free(dir);
}

/* A data row with the wrong field count or a broken quote fails. */
static void
test_bad_rows(void **state)
{
	const char *v[ARRAY_LEN(mini_cols)];
	struct provider_run run;
	struct err err = { "" };
	char *dir;
	FILE *f;

	(void)state;
	dir = tmp_dir_new();
	memcpy(v, mini_good, sizeof v);
	f = mini_csv_open(dir, "\n");
	write_line(f, v, ARRAY_LEN(v) - 1, false, "\n");
	fclose(f);
	assert_int_equal(run_dir(dir, &run, &err), -1);
	assert_string_equal(err.msg, "price list us-east-1: line 7: 16 "
	    "fields, the header has 17");
	provider_run_done(&run);

	f = mini_csv_open(dir, "\n");
	write_line(f, v, ARRAY_LEN(v), false, "");
	fputs(",\"open\n", f);
	fclose(f);
	assert_int_equal(run_dir(dir, &run, &err), -1);
	assert_string_equal(err.msg, "price list us-east-1: line 7: field 18: "
	    "quote not closed");
	provider_run_done(&run);
	tmp_dir_free(dir);
}

/* region_index.json without a version in currentVersionUrl fails. */
static void
test_index_errors(void **state)
{
	static const struct {
		const char	*body;
		const char	*msg;
	} cases[] = {
		{ "{\"regions\" : {\"us-east-1\" : {\"regionCode\" : "
		    "\"us-east-1\", \"currentVersionUrl\" : "
		    "\"/offers/v1.0/aws/AmazonEC2/current/index.json\"}}}",
		    "region_index.json.regions.us-east-1.currentVersionUrl: no "
		    "version in \"/offers/v1.0/aws/AmazonEC2/current/index.json"
		    "\"" },
		{ "{\"regions\" : {\"us-east-1\" : {\"currentVersionUrl\" : "
		    "\"/offers/v1.0/aws/AmazonEC2/current/us-east-1/index.json"
		    "\"}}}", "currentVersionUrl: no version in" },
		{ "{\"regions\" : {\"us-east-1\" : {\"currentVersionUrl\" : "
		    "\"/offers/v1.0/aws/AmazonEC2/20250912225308/us-west-2/"
		    "index.json\"}}}", "currentVersionUrl: no version in" },
		{ "{\"regions\" : {\"us-east-1\" : {\"regionCode\" : "
		    "\"us-east-1\"}}}",
		    "region_index.json.regions.us-east-1.currentVersionUrl: "
		    "missing" },
		{ "{\"offers\" : {}}",
		    "region_index.json.regions: expected an object, got "
		    "nothing" },
		{ "<?xml version=\"1.0\"?><Error>AccessDenied</Error>",
		    "region_index.json: expected JSON, got HTML or XML" },
	};
	struct provider_run run;
	struct err err;
	char *dir, *path;
	FILE *f;
	size_t i;

	(void)state;
	dir = tmp_dir_new();
	write_csv(dir, "");
	for (i = 0; i < ARRAY_LEN(cases); i++) {
		path = xasprintf("%s/region_index.json", dir);
		f = fopen(path, "wb");
		assert_non_null(f);
		fputs(cases[i].body, f);
		fclose(f);
		free(path);
		err_clear(&err);
		assert_int_equal(run_dir(dir, &run, &err), -1);
		if (strstr(err.msg, cases[i].msg) == NULL)
			fail_msg("case %zu: got \"%s\"", i, err.msg);
		provider_run_done(&run);
	}
	tmp_dir_free(dir);
}

/*
 * Issue 27 item 4 / issue 22: p5e.48xlarge is sold only as Capacity
 * Blocks (and spot). Where the spot feed prices it, it is an offer with
 * no on-demand price, noted not-on-demand, as the snapshot has it; not
 * dropped for want of an on-demand row.
 */
static void
test_capacity_only(void **state)
{
	struct harness_route r[ARRAY_LEN(routes)];
	struct provider_run run;
	const struct offer *o;
	struct err err;
	size_t i;

	(void)state;
	memcpy(r, routes, sizeof r);
	for (i = 0; i < ARRAY_LEN(r); i++)
		if (strcmp(r[i].file, "spot.json") == 0)
			r[i].file = "spot-p5e.json";
	run_init(&run, "us-east-1");
	assert_int_equal(harness_run(&provider_aws, &run, r, ARRAY_LEN(r),
	    NULL, 0, NULL, &err), 0);
	o = harness_offer(&run, "p5e.48xlarge/us-east-1");
	assert_string_equal(o->gpu, "H200");
	assert_int_equal(o->gpu_count, 8);
	assert_int_equal(o->vcpus, 192);
	assert_int_equal(o->interconnect, IC_NVLINK);
	assert_false(money_known(o->price));
	assert_int_equal(o->spot_price, 17242400);
	assert_true(o->notes & NOTE_BIT(NOTE_NOT_ON_DEMAND));
	/* Other offers say nothing of the kind. */
	o = harness_offer(&run, "g5.xlarge/us-east-1");
	assert_false(o->notes & NOTE_BIT(NOTE_NOT_ON_DEMAND));
	provider_run_done(&run);

	/* Without a spot price there is no evidence it exists there. */
	run_init(&run, "us-east-1");
	assert_int_equal(harness_run(&provider_aws, &run, routes,
	    ARRAY_LEN(routes), NULL, 0, NULL, &err), 0);
	assert_null(harness_offer_find(&run, "p5e.48xlarge/us-east-1"));
	provider_run_done(&run);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_capacity_only),
		cmocka_unit_test(test_full_run),
		cmocka_unit_test(test_reserved),
		cmocka_unit_test(test_chunk_sizes),
		cmocka_unit_test(test_spot_js),
		cmocka_unit_test(test_version_all_unchanged),
		cmocka_unit_test(test_base_url),
		cmocka_unit_test(test_region_override),
		cmocka_unit_test(test_region_invalid),
		cmocka_unit_test(test_region_not_in_index),
		cmocka_unit_test(test_truncated),
		cmocka_unit_test(test_missing_column),
		cmocka_unit_test(test_bad_price),
		cmocka_unit_test(test_spot_feed_errors),
		cmocka_unit_test(test_row_filters),
		cmocka_unit_test(test_g7),
		cmocka_unit_test(test_line_forms),
		cmocka_unit_test(test_long_line),
		cmocka_unit_test(test_not_a_price_list),
		cmocka_unit_test(test_bad_rows),
		cmocka_unit_test(test_index_errors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
