/* test_notes.c: offer notes: the token table, parsing, printing, marking. */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "money.h"
#include "notes.h"
#include "offer.h"
#include "str.h"
#include "offer_text.h"

/* The tokens are a contract (JSON, CSV, the man page): exactly these. */
static void
test_tokens(void **state)
{
	static const char *const want[] = {
		"price-outlier", "spot-not-cheaper", "spot-cheapest-zone",
		"host-estimated", "low-confidence", "single-listing", "stale"
	};
	size_t i;

	(void)state;
	assert_true(NOTE_COUNT >= 7);
	for (i = 0; i < sizeof want / sizeof want[0]; i++) {
		assert_string_equal(note_token((enum note)i), want[i]);
		assert_int_equal(note_parse(want[i], strlen(want[i])), (int)i);
		assert_true(note_text((enum note)i)[0] != '\0');
		assert_int_equal(strlen(note_marker((enum note)i)), 1);
	}
	assert_int_equal(note_parse("stal", 4), -1);
	assert_int_equal(note_parse("stale!", 6), -1);
}

static void
test_parse_format(void **state)
{
	const char *list = "stale;price-outlier;;single-listing", *bad;
	char buf[128];
	unsigned mask;
	size_t n;

	(void)state;
	assert_int_equal(notes_parse(list, strlen(list), ';', &mask, &bad, &n),
	    0);
	assert_int_equal(mask, NOTE_BIT(NOTE_STALE) |
	    NOTE_BIT(NOTE_PRICE_OUTLIER) | NOTE_BIT(NOTE_SINGLE_LISTING));
	/* Table order, whatever order they were given in. */
	notes_format(mask, ';', buf, sizeof buf);
	assert_string_equal(buf, "price-outlier;single-listing;stale");
	notes_markers(mask, buf, sizeof buf);
	assert_string_equal(buf, "!1o");
	notes_format(0, ';', buf, sizeof buf);
	assert_string_equal(buf, "");
	assert_int_equal(notes_parse("", 0, ';', &mask, &bad, &n), 0);
	assert_int_equal(mask, 0);
	list = "stale;cheap";
	assert_int_equal(notes_parse(list, strlen(list), ';', &mask, &bad, &n),
	    -1);
	assert_int_equal(n, 5);
	assert_memory_equal(bad, "cheap", 5);
	/* A small buffer holds whole tokens only. */
	mask = NOTE_BIT(NOTE_PRICE_OUTLIER) | NOTE_BIT(NOTE_STALE);
	notes_format(mask, ';', buf, 16);
	assert_string_equal(buf, "price-outlier");
}

/* stale is added at query time, 30 days after the data's date. */
static void
test_stale(void **state)
{
	struct offer o;
	int64_t t = 1767225600;

	(void)state;
	offer_init(&o);
	o.fetched_at = t;
	o.notes = NOTE_BIT(NOTE_HOST_ESTIMATED);
	assert_int_equal(notes_at(&o, t + 30 * 86400),
	    NOTE_BIT(NOTE_HOST_ESTIMATED));
	assert_int_equal(notes_at(&o, t + 30 * 86400 + 1),
	    NOTE_BIT(NOTE_HOST_ESTIMATED) | NOTE_BIT(NOTE_STALE));
	assert_int_equal(o.notes, NOTE_BIT(NOTE_HOST_ESTIMATED));
}

static void
gcp_offer(struct offer *o, const char *type, const char *region,
    int64_t price, int64_t spot)
{
	offer_init(o);
	o->provider = tstr("gcp");
	o->instance_type = tstr(type);
	o->region = tstr(region);
	o->key = tstrf("%s/%s", type, region);
	o->price = price;
	o->spot_price = spot;
}

/*
 * GCP's a3-highgpu-8g: us-central1 at $5.38/GPU-h against a $12.09
 * median is an outlier, kept and noted; a type in two regions is never
 * judged; spot at or above on-demand is noted; other notes stay.
 */
static void
test_mark(void **state)
{
	struct offer v[9];

	(void)state;
	gcp_offer(&v[0], "a3-highgpu-8g", "us-central1", 43066152, 20000000);
	gcp_offer(&v[1], "a3-highgpu-8g", "us-east4", 96720000, 30000000);
	gcp_offer(&v[2], "a3-highgpu-8g", "europe-west4", 96720000, 30000000);
	gcp_offer(&v[3], "a3-highgpu-8g", "asia-southeast1", 101000000,
	    MONEY_NONE);
	gcp_offer(&v[4], "a3-highgpu-8g", "me-west1", 170000000, MONEY_NONE);
	/* Two regions only: never an outlier, however far apart. */
	gcp_offer(&v[5], "a2-megagpu-16g", "us-central1", 10000000,
	    MONEY_NONE);
	gcp_offer(&v[6], "a2-megagpu-16g", "us-east1", 60000000, MONEY_NONE);
	/* Spot above on-demand; an unpriced offer is not judged. */
	gcp_offer(&v[7], "g2-standard-4", "us-east1", 700000, 900000);
	gcp_offer(&v[8], "a3-highgpu-8g", "us-west1", MONEY_NONE, 1000);
	v[1].notes = NOTE_BIT(NOTE_PRICE_OUTLIER) |
	    NOTE_BIT(NOTE_LOW_CONFIDENCE);
	notes_mark(v, 9);
	assert_int_equal(v[0].notes, NOTE_BIT(NOTE_PRICE_OUTLIER));
	/* A stale outlier mark goes; the adapter's own note stays. */
	assert_int_equal(v[1].notes, NOTE_BIT(NOTE_LOW_CONFIDENCE));
	assert_int_equal(v[2].notes, 0);
	assert_int_equal(v[3].notes, 0);
	/* 170 / 96.72 = 1.76 > 1.67. */
	assert_int_equal(v[4].notes, NOTE_BIT(NOTE_PRICE_OUTLIER));
	assert_int_equal(v[5].notes, 0);
	assert_int_equal(v[6].notes, 0);
	assert_int_equal(v[7].notes, NOTE_BIT(NOTE_SPOT_NOT_CHEAPER));
	assert_int_equal(v[8].notes, 0);
	notes_mark(v, 0);
}

/* Other providers' offers of the same type name are another group. */
static void
test_mark_per_provider(void **state)
{
	struct offer v[4];
	int i;

	(void)state;
	gcp_offer(&v[0], "x", "r1", 1000000, MONEY_NONE);
	gcp_offer(&v[1], "x", "r2", 1000000, MONEY_NONE);
	gcp_offer(&v[2], "x", "r3", 1000000, MONEY_NONE);
	gcp_offer(&v[3], "x", "r4", 3000000, MONEY_NONE);
	v[3].provider = tstr("aws");
	notes_mark(v, 4);
	for (i = 0; i < 4; i++)
		assert_int_equal(v[i].notes, 0);
}

/*
 * Issue 22: seven regions at a committed-use rate (0.45x) and five at
 * Google's price. A median over all twelve is the committed rate, and
 * every real price would be the "outlier". Rows noted doubtful-price
 * are no evidence: the median is the real rows', none is an outlier,
 * and a doubtful row is never judged.
 */
static void
test_mark_doubtful(void **state)
{
	static const char *const cheap[] = { "us-central1", "us-west1",
	    "us-west4", "asia-northeast1", "asia-southeast1",
	    "australia-southeast1", "northamerica-northeast2" };
	static const char *const real[] = { "us-east4", "us-east5",
	    "europe-west1", "europe-west4", "asia-south1" };
	struct offer v[12];
	size_t i;

	(void)state;
	for (i = 0; i < 7; i++) {
		gcp_offer(&v[i], "a3-highgpu-8g", cheap[i], 43066152, MONEY_NONE);
		v[i].notes = NOTE_BIT(NOTE_DOUBTFUL_PRICE);
	}
	for (i = 0; i < 5; i++)
		gcp_offer(&v[7 + i], "a3-highgpu-8g", real[i],
		    87832470 + (int64_t)i * 5000000, MONEY_NONE);
	notes_mark(v, 12);
	for (i = 0; i < 12; i++)
		if ((v[i].notes & NOTE_BIT(NOTE_PRICE_OUTLIER)) != 0)
			fail_msg("%s is noted price-outlier", v[i].key);
	/* The doubtful note stays. */
	for (i = 0; i < 7; i++)
		assert_int_equal(v[i].notes, NOTE_BIT(NOTE_DOUBTFUL_PRICE));
}

/* The legend names the markers of the mask, in table order. */
static void
test_legend(void **state)
{
	char buf[256];

	(void)state;
	assert_int_equal(notes_legend(0, buf, sizeof buf), 0);
	assert_string_equal(buf, "");
	notes_legend(NOTE_BIT(NOTE_STALE) | NOTE_BIT(NOTE_PRICE_OUTLIER), buf,
	    sizeof buf);
	assert_string_equal(buf, "notes: ! price-outlier, o stale");
	notes_legend(NOTE_BIT(NOTE_HOST_LIGHT), buf, sizeof buf);
	assert_string_equal(buf, "notes: c host-light");
	/* A short buffer keeps whole words. */
	notes_legend(NOTE_BIT(NOTE_STALE) | NOTE_BIT(NOTE_PRICE_OUTLIER), buf,
	    20);
	assert_true(strlen(buf) < 20);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tokens),
		cmocka_unit_test(test_parse_format),
		cmocka_unit_test(test_stale),
		cmocka_unit_test(test_mark),
		cmocka_unit_test(test_mark_per_provider),
		cmocka_unit_test(test_mark_doubtful),
		cmocka_unit_test(test_legend),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
