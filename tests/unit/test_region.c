/*
 * test_region.c: unit tests for region.c (region geography and --region).
 *
 * One test reads $TOP_SRCDIR/data/snapshot.tsv at run time: every region
 * of every provider in it must have a continent (Vultr's "unknown"
 * excepted), so a new region in the snapshot without a row in
 * data/regions.tsv fails here.
 */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "region.h"

/* Locate (provider, region) and check the codes. */
static void
located(const char *provider, const char *region, const char *country,
    const char *continent)
{
	const char *c, *k;

	if (!region_locate(provider, region, &c, &k))
		fail_msg("%s %s: not located", provider, region);
	if (strcmp(c, country) != 0 || strcmp(k, continent) != 0)
		fail_msg("%s %s: %s/%s, want %s/%s", provider, region, c, k,
		    country, continent);
}

static void
test_locate_every_provider(void **state)
{
	const char *c, *k;

	(void)state;
	located("aws", "eu-central-1", "DE", "EU");
	located("aws", "us-east-1", "US", "NA");
	located("aws", "ap-southeast-2", "AU", "OC");
	located("aws", "sa-east-1", "BR", "SA");
	located("aws", "af-south-1", "ZA", "AF");
	located("gcp", "europe-west4", "NL", "EU");
	located("gcp", "australia-southeast1", "AU", "OC");
	located("gcp", "me-central2", "SA", "AS");
	located("lambda", "us-midwest-1", "US", "NA");
	located("lambda", "europe-south-1", "", "EU");
	located("runpod", "EU-SE-1", "SE", "EU");
	located("runpod", "EUR-IS-2", "IS", "EU");
	located("runpod", "US-KS-3", "US", "NA");
	located("runpod", "OC-AU-1", "AU", "OC");
	located("runpod", "CA-MTL-3", "CA", "NA");
	located("vultr", "ewr", "US", "NA");
	located("vultr", "fra", "DE", "EU");
	/* The four providers being added: their sample region names. */
	located("azure", "eastus", "US", "NA");
	located("azure", "westeurope", "NL", "EU");
	located("azure", "swedencentral", "SE", "EU");
	located("oci", "eu-frankfurt-1", "DE", "EU");
	located("scaleway", "fr-par-2", "FR", "EU");
	located("scaleway", "pl-waw-2", "PL", "EU");
	/* Case is ignored. */
	located("aws", "EU-CENTRAL-1", "DE", "EU");
	/* OCI's single offer for every region has no place. */
	assert_false(region_locate("oci", "all", &c, &k));
	assert_string_equal(c, "");
	assert_string_equal(k, "");
	assert_false(region_locate("vultr", "unknown", &c, &k));
	/* Akash's and SaladCloud's worldwide markets have none either. */
	assert_false(region_locate("akash", "global", &c, &k));
	assert_false(region_locate("salad", "global", &c, &k));
	located("coreweave", "europe", "", "EU");
	located("coreweave", "north-america", "", "NA");
	assert_false(region_locate("aws", "us-nowhere-9", &c, &k));
}

static void
test_locate_free_text(void **state)
{
	(void)state;
	/* Vast's live text, and the snapshot's with a continent appended. */
	located("vast", "Florida, US", "US", "NA");
	located("vast", "Florida, US, NA", "US", "NA");
	located("vast", "US, NA", "US", "NA");
	located("vast", "CA, NA", "CA", "NA");
	located("vast", "Sweden", "SE", "EU");
	located("vast", "The Netherlands, NL, EU", "NL", "EU");
	located("vast", "Guangxi, CN", "CN", "AS");
	located("vast", "Hong Kong, HK, AS", "HK", "AS");
	located("vast", "sweden", "SE", "EU");
	located("vast", "South Korea", "KR", "AS");
}

/*
 * Lookups in any order give what each gives alone: the kept provider
 * range and last answer (region_locate()) follow the provider and the
 * region, not only one of them; a provider with no places and names
 * longer than what is kept are looked up as well.
 */
static void
test_locate_alternating(void **state)
{
	char longname[300];
	const char *c, *k;
	int round;

	(void)state;
	memset(longname, 'x', sizeof longname - 1);
	memcpy(longname + sizeof longname - 12, ", Texas, US", 12);
	for (round = 0; round < 2; round++) {
		located("aws", "ap-southeast-2", "AU", "OC");
		located("aws", "ap-southeast-2", "AU", "OC");
		/* The same text: Vast has no place of that name. */
		assert_false(region_locate("vast", "ap-southeast-2", &c, &k));
		assert_string_equal(c, "");
		located("vast", "Texas, US", "US", "NA");
		located("gcp", "europe-west4", "NL", "EU");
		located("aws", "eu-central-1", "DE", "EU");
		located("vast", "Texas, US", "US", "NA");
		located("vast", "Guangxi, CN", "CN", "AS");
		located("verda", "nordics", "", "EU");
		located("lambda", "europe-south-1", "", "EU");
		located("lambda", "us-midwest-1", "US", "NA");
		assert_false(region_locate("aws", "us-nowhere-9", &c, &k));
		assert_string_equal(k, "");
		located("aws", "us-east-1", "US", "NA");
		located("vast", longname, "US", "NA");
		located("vast", longname, "US", "NA");
		located("a-provider-name-longer-than-thirty-two-bytes",
		    "Sweden", "SE", "EU");
		located("runpod", "EU-SE-1", "SE", "EU");
	}
}

static void
test_query_parse(void **state)
{
	struct region_query q;

	(void)state;
	assert_int_equal(region_query_parse("", &q), 0);
	assert_int_equal(q.kind, RQ_ANY);
	assert_int_equal(region_query_parse("europe", &q), 0);
	assert_int_equal(q.kind, RQ_CONTINENT);
	assert_string_equal(q.code, "EU");
	assert_int_equal(region_query_parse("EU", &q), 0);
	assert_int_equal(q.kind, RQ_CONTINENT);
	assert_int_equal(region_query_parse("North America", &q), 0);
	assert_string_equal(q.code, "NA");
	assert_int_equal(region_query_parse("north_america", &q), 0);
	assert_string_equal(q.code, "NA");
	assert_int_equal(region_query_parse("na", &q), 0);
	assert_string_equal(q.code, "NA");
	assert_int_equal(region_query_parse("south-america", &q), 0);
	assert_string_equal(q.code, "SA");
	assert_int_equal(region_query_parse("us", &q), 0);
	assert_int_equal(q.kind, RQ_COUNTRY);
	assert_string_equal(q.code, "US");
	assert_int_equal(region_query_parse("DE", &q), 0);
	assert_string_equal(q.code, "DE");
	assert_int_equal(region_query_parse("united kingdom", &q), 0);
	assert_string_equal(q.code, "GB");
	assert_int_equal(region_query_parse("uk", &q), 0);
	assert_string_equal(q.code, "GB");
	assert_int_equal(region_query_parse("us-east", &q), 0);
	assert_int_equal(q.kind, RQ_NAME);
	assert_int_equal(region_query_parse("eu-*", &q), 0);
	assert_int_equal(q.kind, RQ_GLOB);
	assert_int_equal(region_query_parse("[ab]*", &q), 0);
	assert_int_equal(region_query_parse("[]]", &q), 0);
	/* fnmatch() cannot read these: usage errors. */
	assert_int_equal(region_query_parse("[", &q), -1);
	assert_int_equal(region_query_parse("us-[east", &q), -1);
	assert_string_equal(region_continent_name("EU"), "europe");
	assert_string_equal(region_continent_name("na"), "north-america");
	assert_null(region_continent_name("XX"));
}

static void
test_matches(void **state)
{
	(void)state;
	assert_true(region_matches("europe", "vast", "Sweden, SE, EU"));
	assert_true(region_matches("europe", "gcp", "europe-west4"));
	assert_true(region_matches("europe", "aws", "eu-west-1"));
	assert_true(region_matches("europe", "runpod", "EUR-IS-1"));
	assert_false(region_matches("europe", "aws", "us-east-1"));
	/* "us" is the country, no longer a substring of "australia". */
	assert_true(region_matches("us", "aws", "us-west-2"));
	assert_true(region_matches("us", "vast", "Florida, US"));
	assert_false(region_matches("us", "gcp", "australia-southeast1"));
	assert_false(region_matches("us", "runpod", "EUR-IS-1"));
	assert_true(region_matches("jp", "runpod", "AP-JP-1"));
	assert_true(region_matches("asia", "gcp", "asia-east1"));
	assert_true(region_matches("oceania", "lambda", "australia-east-1"));
	/* Names and globs on the provider's own region name. */
	assert_true(region_matches("us-east", "aws", "us-east-2"));
	assert_true(region_matches("US-EAST", "aws", "us-east-2"));
	assert_true(region_matches("eu*", "aws", "eu-west-1"));
	assert_false(region_matches("eu*", "aws", "us-east-1"));
	assert_true(region_matches("Florida", "vast", "Florida, US, NA"));
	/* An invalid glob matches nothing. */
	assert_false(region_matches("[", "aws", "["));
	/* A region without a place matches no continent. */
	assert_false(region_matches("north-america", "vultr", "unknown"));
}

/*
 * Issue 44 item 6: "any region" is not "in Europe". An offer in region
 * "all" matches a --region only where its provider has a region there
 * (data/any_region.tsv), or by its own name.
 */
static void
test_any_region(void **state)
{
	const struct region_any *r;

	(void)state;
	/* Lambda: the US, Europe (DE), Japan, Korea, India, Israel ... */
	assert_true(region_matches("europe", "lambda", "all"));
	assert_true(region_matches("de", "lambda", "all"));
	assert_true(region_matches("us", "lambda", "ALL"));
	assert_true(region_matches("kr", "lambda", "all"));
	assert_true(region_matches("us-east", "lambda", "all"));
	assert_true(region_matches("us-*", "lambda", "all"));
	/* ... but nowhere in Africa, Brazil, Sweden. */
	assert_false(region_matches("africa", "lambda", "all"));
	assert_false(region_matches("br", "lambda", "all"));
	assert_false(region_matches("sweden", "lambda", "all"));
	/* OCI: Johannesburg, Sao Paulo, Stockholm; no "us-east" name. */
	assert_true(region_matches("africa", "oci", "all"));
	assert_true(region_matches("br", "oci", "all"));
	assert_true(region_matches("sweden", "oci", "all"));
	assert_true(region_matches("eu-frankfurt-1", "oci", "all"));
	assert_false(region_matches("us-east", "oci", "all"));
	assert_false(region_matches("pl", "oci", "all"));
	/* Its own name. */
	assert_true(region_matches("all", "oci", "all"));
	/* A provider with no list: "all" is nowhere in particular. */
	assert_false(region_matches("europe", "nosuch", "all"));
	assert_int_equal(region_any_list("nosuch", &r), 0);
	assert_int_equal(region_any_list("lambda", &r), 17);
	assert_string_equal(r[0].provider, "lambda");
}

/* Every provider with an "all" offer in the snapshot has its regions. */
static void
test_any_region_listed(void **state)
{
	const char *top = getenv("TOP_SRCDIR");
	const struct region_any *r;
	char path[4096], line[2048], *p, *region;
	FILE *fp;
	size_t n = 0;

	(void)state;
	snprintf(path, sizeof path, "%s/data/snapshot.tsv",
	    top != NULL && top[0] != '\0' ? top : ".");
	if ((fp = fopen(path, "r")) == NULL)
		fail_msg("cannot open %s (set TOP_SRCDIR)", path);
	while (fgets(line, sizeof line, fp) != NULL) {
		if (line[0] == '#' || (p = strchr(line, '\t')) == NULL)
			continue;
		*p++ = '\0';
		/* key, instance type, region */
		if ((p = strchr(p, '\t')) == NULL ||
		    (p = strchr(p + 1, '\t')) == NULL)
			continue;
		region = p + 1;
		region[strcspn(region, "\t")] = '\0';
		if (!region_is_any(region))
			continue;
		if (region_any_list(line, &r) == 0)
			fail_msg("%s has offers in region all but no row in "
			    "data/any_region.tsv", line);
		n++;
	}
	fclose(fp);
	assert_true(n > 20);
}

/*
 * Issue 44 item 5: a --region that names no place gpucost knows is
 * refused (filter_region_check()), with the nearest names.
 */
static void
test_known(void **state)
{
	const char *cache[] = { "Florida, US", "EU-SE-1" };
	struct region_query q;
	char near[256];

	(void)state;
#define KNOWN(text, names, n) \
	(region_query_parse(text, &q) == 0 && \
	    region_query_known(&q, names, n))
	assert_true(KNOWN("", NULL, 0));
	assert_true(KNOWN("europe", NULL, 0));
	assert_true(KNOWN("de", NULL, 0));
	assert_true(KNOWN("germany", NULL, 0));
	assert_true(KNOWN("united", NULL, 0));	/* part of a country */
	assert_true(KNOWN("us-east", NULL, 0));
	assert_true(KNOWN("us-east-1", NULL, 0));
	assert_true(KNOWN("southeast", NULL, 0));	/* australia-southeast1 */
	assert_true(KNOWN("EU-SE", NULL, 0));	/* RunPod's EU-SE-* */
	assert_true(KNOWN("us-*", NULL, 0));	/* a glob */
	assert_true(KNOWN("all", NULL, 0));
	assert_false(KNOWN("mars", NULL, 0));	/* not eu-marseille-1 */
	assert_false(KNOWN("eurpoe", NULL, 0));
	assert_false(KNOWN("us-east-7", NULL, 0));
	assert_false(KNOWN("germ", NULL, 0));
	/* The cache's names: a marketplace's places, a pattern's names. */
	assert_false(KNOWN("florida", NULL, 0));
	assert_true(KNOWN("florida", cache, 2));
	assert_false(KNOWN("EU-SE-1", NULL, 0));
	assert_true(KNOWN("EU-SE-1", cache, 2));
#undef KNOWN
	assert_int_equal(region_suggest("eurpoe", NULL, 0, near, sizeof near),
	    1);
	assert_string_equal(near, "europe");
	assert_true(region_suggest("us-east-7", NULL, 0, near,
	    sizeof near) > 1);
	assert_true(strncmp(near, "us-east-1, us-east-2", 20) == 0);
	assert_int_equal(region_suggest("mars", NULL, 0, near, sizeof near),
	    0);
	assert_int_equal(region_suggest("florda", cache, 2, near,
	    sizeof near), 0);
	assert_int_equal(region_suggest("EU-SE-2", cache, 2, near,
	    sizeof near), 1);
	assert_string_equal(near, "EU-SE-1");
}

/* Every region in the snapshot has a continent. */
static void
test_snapshot_regions_located(void **state)
{
	const char *top = getenv("TOP_SRCDIR"), *c, *k;
	char path[4096], line[2048], *f[4], *p;
	FILE *fp;
	size_t n = 0, i;

	(void)state;
	snprintf(path, sizeof path, "%s/data/snapshot.tsv",
	    top != NULL && top[0] != '\0' ? top : ".");
	if ((fp = fopen(path, "r")) == NULL)
		fail_msg("cannot open %s (set TOP_SRCDIR)", path);
	while (fgets(line, sizeof line, fp) != NULL) {
		if (line[0] == '#' || strncmp(line, "provider\t", 9) == 0)
			continue;
		p = line;
		for (i = 0; i < 4; i++) {
			f[i] = p;
			if ((p = strchr(p, '\t')) == NULL)
				break;
			*p++ = '\0';
		}
		if (i < 4)
			continue;
		/* provider, key, instance_type, region */
		if (strcmp(f[0], "vultr") == 0 && strcmp(f[3], "unknown") == 0)
			continue;
		/* "global": a worldwide market (SaladCloud), no place. */
		if (strcmp(f[3], "global") == 0)
			continue;
		/* "all": one price in every region, no place of its own. */
		if (region_is_any(f[3]))
			continue;
		if (!region_locate(f[0], f[3], &c, &k))
			fail_msg("%s region \"%s\" has no place", f[0], f[3]);
		n++;
	}
	fclose(fp);
	assert_true(n > 1000);
}

/* The generated tables are sorted and consistent. */
static void
test_tables(void **state)
{
	size_t i;

	(void)state;
	assert_true(region_country_count > 50);
	for (i = 1; i < region_country_count; i++)
		assert_true(strcmp(region_countries[i - 1].code,
		    region_countries[i].code) < 0);
	/* Each provider's places together (region_locate() keeps the
	 * last provider's range). */
	for (i = 1; i < region_place_count; i++) {
		size_t j;

		if (strcmp(region_places[i].provider,
		    region_places[i - 1].provider) == 0)
			continue;
		for (j = 0; j < i; j++)
			assert_string_not_equal(region_places[j].provider,
			    region_places[i].provider);
	}
	for (i = 0; i < region_place_count; i++) {
		assert_non_null(region_continent_name(
		    region_places[i].continent));
		assert_true(region_places[i].country[0] == '\0' ||
		    strlen(region_places[i].country) == 2);
	}
}

/*
 * Where an offer priced the same everywhere can start (issue 44): the
 * provider's own names, no pattern, and none of another provider's.
 */
static void
test_region_names(void **state)
{
	char buf[2048], small[8];

	(void)state;
	assert_true(region_names("lambda", buf, sizeof buf) >= 10);
	assert_non_null(strstr(buf, "us-east-1"));
	assert_null(strstr(buf, "all"));
	assert_null(strchr(buf, '*'));
	assert_true(region_listed("lambda", "us-east-1"));
	assert_true(region_listed("lambda", "US-EAST-1"));
	assert_false(region_listed("lambda", "all"));
	assert_false(region_listed("lambda", "us-ashburn-1"));
	assert_true(region_listed("oci", "us-ashburn-1"));
	/* Too small: nothing, never a cut list. */
	assert_int_equal(region_names("lambda", small, sizeof small), 0);
	assert_string_equal(small, "");
	assert_int_equal(region_names("nosuch", buf, sizeof buf), 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_locate_every_provider),
		cmocka_unit_test(test_region_names),
		cmocka_unit_test(test_locate_free_text),
		cmocka_unit_test(test_locate_alternating),
		cmocka_unit_test(test_query_parse),
		cmocka_unit_test(test_matches),
		cmocka_unit_test(test_any_region),
		cmocka_unit_test(test_any_region_listed),
		cmocka_unit_test(test_known),
		cmocka_unit_test(test_snapshot_regions_located),
		cmocka_unit_test(test_tables),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
