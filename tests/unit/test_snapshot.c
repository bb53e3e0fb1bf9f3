/*
 * test_snapshot.c: unit tests for snapshot.c (the embedded price
 * snapshot and its parser).
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

#include "err.h"
#include "gpu.h"
#include "money.h"
#include "committed.h"
#include "notes.h"
#include "offer.h"
#include "rentable.h"
#include "snapshot.h"

#define HEADER	"provider\tkey\tinstance_type\tregion\tgpu\tgpu_raw\t" \
		"gpu_count\tvram_gb\tinterconnect\tvcpus\tram_gb\tprice\t" \
		"spot_price\tavailability\tas_of\tnotes\tspot_zone\n"

/* A good row: p4de.24xlarge in us-east-1. */
#define ROW_AWS	"aws\tp4de.24xlarge/us-east-1\tp4de.24xlarge\tus-east-1\t" \
		"A100-80\tA100-80GB\t8\t80\tnvlink\t96\t1152\t27.44705\t" \
		"11.5\tunknown\t2026-01-01\tspot-cheapest-zone\tuse1-az4\n"
#define ROW_VAST "vast\t1x-RTX_4090-32-65536/US, NA\t1x-RTX_4090-32-65536\t" \
		"US, NA\tRTX4090\tRTX 4090\t1\t24\tpcie\t32\t64\t0.35\t\t" \
		"available\t2026-04-29\tsingle-listing\t\n"

/* Every provider with rows in the snapshot (Scaleway has no dated source). */
static const char *const providers_all[] = {
	"aws", "azure", "coreweave", "gcp", "lambda", "oci", "runpod", "salad",
	"vast", "vultr"
};
#define NSNAP	(sizeof providers_all / sizeof providers_all[0])

/* ------------------------------------------------------------------ */
/* Helpers                                                            */
/* ------------------------------------------------------------------ */

/* Parse text named "t.tsv"; returns snapshot_parse's result. */
static int
parse(const char *text, const char *provider, struct offer_list *out,
    struct err *err)
{
	err_clear(err);
	return snapshot_parse(text, strlen(text), "t.tsv", provider, out, err);
}

/* HEADER + row must fail with exactly msg, and add no offer. */
static void
row_fails(const char *row, const char *msg)
{
	struct offer_list l;
	struct err err;
	char text[2048];

	snprintf(text, sizeof text, "%s%s%s", HEADER, ROW_AWS, row);
	size_t n;
	int rc, good;

	offer_list_init(&l);
	rc = parse(text, NULL, &l, &err);
	/* The good row before it stays parsed. */
	n = l.n;
	good = n >= 1 && strcmp(l.v[0].key, "p4de.24xlarge/us-east-1") == 0;
	offer_list_done(&l);	/* before any failure: no leak reports */
	if (rc != -1)
		fail_msg("accepted (%zu offers): %s", n, row);
	if (strcmp(err.msg, msg) != 0)
		fail_msg("message \"%s\", want \"%s\"", err.msg, msg);
	assert_int_equal(n, 1);
	assert_true(good);
}

/* ROW_AWS with field i (0-based) replaced by value. */
static void
aws_row_with(size_t i, const char *value, char *out, size_t size)
{
	char row[] = ROW_AWS;
	char *fl[18], *p = row, *tab;
	size_t n = 0, len = 0, k;

	row[strlen(row) - 1] = '\0';	/* newline */
	for (;;) {
		fl[n++] = p;
		if ((tab = strchr(p, '\t')) == NULL)
			break;
		*tab = '\0';
		p = tab + 1;
	}
	assert_int_equal(n, 17);
	out[0] = '\0';
	for (k = 0; k < n; k++)
		len += (size_t)snprintf(out + len, size - len, "%s%s",
		    k == 0 ? "" : "\t", k == i ? value : fl[k]);
	snprintf(out + len, size - len, "\n");
}

/* Field i of ROW_AWS set to value must fail with msg. */
static void
field_fails(size_t i, const char *value, const char *msg)
{
	char row[1024];

	aws_row_with(i, value, row, sizeof row);
	row_fails(row, msg);
}

/* Read $TOP_SRCDIR/rel whole; fails the test when absent. */
static char *
read_data_file(const char *rel, size_t *len)
{
	const char *top = getenv("TOP_SRCDIR");
	char path[4096];
	char *buf;
	FILE *f;
	long size;

	snprintf(path, sizeof path, "%s/%s", top != NULL && top[0] != '\0' ?
	    top : ".", rel);
	if ((f = fopen(path, "rb")) == NULL)
		fail_msg("cannot open %s (set TOP_SRCDIR)", path);
	assert_int_equal(fseek(f, 0, SEEK_END), 0);
	size = ftell(f);
	assert_true(size > 0);
	rewind(f);
	buf = malloc((size_t)size + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)size, f), (size_t)size);
	buf[size] = '\0';
	fclose(f);
	*len = (size_t)size;
	return buf;
}

static int
cmp_offer_key(const void *a, const void *b)
{
	const struct offer *x = a, *y = b;
	int c = strcmp(x->provider, y->provider);

	return c != 0 ? c : strcmp(x->key, y->key);
}

/* ------------------------------------------------------------------ */
/* The embedded snapshot                                              */
/* ------------------------------------------------------------------ */

/* The compiled-in text is data/snapshot.tsv, byte for byte. */
static void
test_embedded_equals_file(void **state)
{
	size_t len;
	char *text = read_data_file("data/snapshot.tsv", &len);

	(void)state;
	assert_int_equal(snapshot_tsv_len, len);
	assert_memory_equal(snapshot_tsv, text, len);
	free(text);
}

static void
test_load_all(void **state)
{
	struct offer_list l;
	struct err err;
	size_t i, k, count[NSNAP] = { 0 }, rows = 0, len;
	char *text, *line, *save = NULL;
	int header = 0;

	(void)state;
	offer_list_init(&l);
	err_clear(&err);
	if (snapshot_load(NULL, &l, &err) != 0)
		fail_msg("snapshot_load: %s", err.msg);
	assert_true(l.n >= 500);

	/* One offer per data row of the file. */
	text = read_data_file("data/snapshot.tsv", &len);
	for (line = strtok_r(text, "\n", &save); line != NULL;
	    line = strtok_r(NULL, "\n", &save)) {
		if (line[0] == '#' || line[0] == '\0')
			continue;
		if (!header) {
			header = 1;
			continue;
		}
		rows++;
	}
	free(text);
	assert_int_equal(l.n, rows);

	for (i = 0; i < l.n; i++) {
		const struct offer *o = &l.v[i];

		for (k = 0; k < NSNAP; k++)
			if (strcmp(o->provider, providers_all[k]) == 0)
				break;
		if (k == NSNAP)
			fail_msg("offer %s has provider \"%s\"", o->key,
			    o->provider);
		count[k]++;
		if (offer_check(o, &err) != 0)
			fail_msg("offer_check(%s %s): %s", o->provider, o->key,
			    err.msg);
		/* Every snapshot GPU is in the catalogue. */
		if (gpu_find(o->gpu) == NULL)
			fail_msg("%s %s: gpu \"%s\" unknown", o->provider,
			    o->key, o->gpu);
		assert_true(o->gpu_raw[0] != '\0');
		assert_int_equal(o->source, SRC_SNAPSHOT);
		/* as_of is a date: midnight UTC, 2024..2027. */
		assert_int_equal(o->fetched_at % 86400, 0);
		assert_true(o->fetched_at >= 1704067200);	/* 2024-01-01 */
		assert_true(o->fetched_at < 1830297600);	/* 2028-01-01 */
		assert_int_equal(o->spot_interruption, -1);
		assert_true(o->reliability < 0);
	}
	for (k = 0; k < NSNAP; k++)
		if (count[k] == 0)
			fail_msg("no offer of %s", providers_all[k]);

	/* No duplicate (provider, key). */
	qsort(l.v, l.n, sizeof l.v[0], cmp_offer_key);
	for (i = 1; i < l.n; i++)
		if (cmp_offer_key(&l.v[i - 1], &l.v[i]) == 0)
			fail_msg("duplicate %s %s", l.v[i].provider,
			    l.v[i].key);
	offer_list_done(&l);
}

/* A known row, field by field. */
static void
test_load_known_row(void **state)
{
	struct offer_list l;
	struct err err;
	const struct offer *o = NULL;
	size_t i;

	(void)state;
	offer_list_init(&l);
	assert_int_equal(snapshot_load("vultr", &l, &err), 0);
	for (i = 0; i < l.n; i++)
		if (strcmp(l.v[i].instance_type, "vbm-112c-2048gb-8-h100-gpu")
		    == 0)
			o = &l.v[i];
	assert_non_null(o);
	/*
	 * data/README.md: 8 x H100, sea, $23.92, 2025-01-08; no spot price
	 * (hourly_cost_preemptible: no command rents at it, issue 48).
	 */
	assert_string_equal(o->provider, "vultr");
	assert_string_equal(o->gpu, "H100");
	assert_int_equal(o->gpu_count, 8);
	assert_int_equal(o->vram_gb, 80);
	assert_int_equal(o->interconnect, IC_NVLINK);
	assert_int_equal(o->price, 23920000);
	assert_int_equal(o->spot_price, MONEY_NONE);
	assert_int_equal(o->availability, AV_UNKNOWN);
	assert_int_equal(o->fetched_at, 1736294400);	/* 2025-01-08 */
	offer_list_done(&l);
}

/* The provider argument keeps only that provider's rows. */
static void
test_provider_filter(void **state)
{
	struct offer_list all, one;
	struct err err;
	size_t k, i, total = 0, want;

	(void)state;
	offer_list_init(&all);
	assert_int_equal(snapshot_load(NULL, &all, &err), 0);
	for (k = 0; k < NSNAP; k++) {
		offer_list_init(&one);
		if (snapshot_load(providers_all[k], &one, &err) != 0)
			fail_msg("snapshot_load(%s): %s", providers_all[k],
			    err.msg);
		want = 0;
		for (i = 0; i < all.n; i++)
			want += strcmp(all.v[i].provider,
			    providers_all[k]) == 0;
		assert_true(one.n > 0);
		assert_int_equal(one.n, want);
		for (i = 0; i < one.n; i++)
			assert_string_equal(one.v[i].provider,
			    providers_all[k]);
		total += one.n;
		offer_list_done(&one);
	}
	assert_int_equal(total, all.n);

	/* Unknown providers and prefixes of real ones match nothing. */
	offer_list_init(&one);
	assert_int_equal(snapshot_load("nosuch", &one, &err), 0);
	assert_int_equal(one.n, 0);
	assert_int_equal(snapshot_load("aw", &one, &err), 0);
	assert_int_equal(one.n, 0);
	assert_int_equal(snapshot_load("awsx", &one, &err), 0);
	assert_int_equal(one.n, 0);
	offer_list_done(&one);

	/* Appends: a second load adds to what is there. */
	offer_list_init(&one);
	assert_int_equal(snapshot_load("vultr", &one, &err), 0);
	i = one.n;
	assert_int_equal(snapshot_load("vast", &one, &err), 0);
	assert_true(one.n > i);
	assert_string_equal(one.v[0].provider, "vultr");
	assert_string_equal(one.v[one.n - 1].provider, "vast");
	offer_list_done(&one);
	offer_list_done(&all);
}

/* ------------------------------------------------------------------ */
/* snapshot_parse                                                     */
/* ------------------------------------------------------------------ */

/*
 * The committed column (issue 44): "kind:term:upfront:price_hour[:
 * upfront_usd]" entries joined with ';'; a header without the column
 * (the 17 fields of before) still reads; a bad entry names the column.
 */
static void
test_parse_committed(void **state)
{
#define HEADER_C "provider\tkey\tinstance_type\tregion\tgpu\tgpu_raw\t" \
		"gpu_count\tvram_gb\tinterconnect\tvcpus\tram_gb\tprice\t" \
		"spot_price\tavailability\tas_of\tnotes\tspot_zone\tcommitted\n"
#define ROW_C(c) "azure\tStandard_NC48ads_A100_v4/eastus2\t" \
		"Standard_NC48ads_A100_v4\teastus2\tA100-80\tA100 PCIe\t2\t80\t" \
		"pcie\t48\t440\t7.346\t1.724841\tunknown\t2026-05-20\t\t\t" c "\n"
	static const char *const bad[] = {
		"reservation:2x:all:4.8", "lease:1y:all:4.8",
		"reservation:1y:most:4.8", "reservation:1y:all",
		"reservation:1y:all:abc", "reservation:any:all:4.8",
		"reservation:1y:all:4.8:1:2", "reservation:1y:all:4.8;",
		";", "reservation:1y:all:-4.8",
	};
	struct offer_list l;
	struct err err;
	const struct offer *o;
	char text[1024];
	size_t i;

	(void)state;
	offer_list_init(&l);
	assert_int_equal(parse(HEADER_C ROW_C("reservation:3y:all:2.726104:"
	    "71642;reservation:1y:all:4.802055:42066"), NULL, &l, &err), 0);
	assert_int_equal(l.n, 1);
	o = &l.v[0];
	assert_int_equal(o->ncommitted, 2);
	/* Sorted by term: 1y first. */
	assert_int_equal(o->committed[0].kind, CK_RESERVATION);
	assert_int_equal(o->committed[0].months, 12);
	assert_int_equal(o->committed[0].upfront_kind, CU_ALL);
	assert_int_equal(o->committed[0].price_hour, 4802055);
	assert_int_equal(o->committed[0].upfront, 42066000000);
	assert_int_equal(o->committed[1].months, 36);
	assert_int_equal(o->committed[1].price_hour, 2726104);
	offer_list_done(&l);
	/* An empty column: none. */
	offer_list_init(&l);
	assert_int_equal(parse(HEADER_C ROW_C(""), NULL, &l, &err), 0);
	assert_int_equal(l.v[0].ncommitted, 0);
	offer_list_done(&l);
	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		offer_list_init(&l);
		snprintf(text, sizeof text, HEADER_C ROW_C("%s"), bad[i]);
		if (parse(text, NULL, &l, &err) != -1 ||
		    strstr(err.msg, "committed: bad value") == NULL)
			fail_msg("%s: accepted or \"%s\"", bad[i], err.msg);
		assert_int_equal(l.n, 0);
		offer_list_done(&l);
	}
	/* 17 fields under the new header, 18 under the old: refused. */
	offer_list_init(&l);
	assert_int_equal(parse(HEADER_C ROW_AWS, NULL, &l, &err), -1);
	assert_non_null(strstr(err.msg, "expected 18 tab-separated fields"));
	offer_list_done(&l);
	offer_list_init(&l);
	assert_int_equal(parse(HEADER ROW_C(""), NULL, &l, &err), -1);
	assert_non_null(strstr(err.msg, "expected 17 tab-separated fields"));
	offer_list_done(&l);
#undef ROW_C
#undef HEADER_C
}

static void
test_parse_row_fields(void **state)
{
	struct offer_list l;
	struct err err;
	const struct offer *o;

	(void)state;
	offer_list_init(&l);
	assert_int_equal(parse(HEADER ROW_AWS ROW_VAST, NULL, &l, &err), 0);
	assert_int_equal(l.n, 2);
	o = &l.v[0];
	assert_string_equal(o->provider, "aws");
	assert_string_equal(o->key, "p4de.24xlarge/us-east-1");
	assert_string_equal(o->instance_type, "p4de.24xlarge");
	assert_string_equal(o->region, "us-east-1");
	assert_string_equal(o->gpu, "A100-80");
	assert_string_equal(o->gpu_raw, "A100-80GB");
	assert_int_equal(o->gpu_count, 8);
	assert_int_equal(o->vram_gb, 80);
	assert_int_equal(o->interconnect, IC_NVLINK);
	assert_int_equal(o->vcpus, 96);
	assert_true(o->ram_gb > 1151.999 && o->ram_gb < 1152.001);
	/* Exact: 27.44705 USD is 27,447,050 micro-USD. */
	assert_int_equal(o->price, 27447050);
	assert_int_equal(o->spot_price, 11500000);
	assert_int_equal(o->availability, AV_UNKNOWN);
	assert_int_equal(o->fetched_at, 1767225600);	/* 2026-01-01 */
	assert_int_equal(o->source, SRC_SNAPSHOT);
	assert_int_equal(o->spot_interruption, -1);
	assert_true(o->reliability < 0);
	assert_int_equal(o->notes, NOTE_BIT(NOTE_SPOT_CHEAPEST_ZONE));
	assert_string_equal(o->spot_zone, "use1-az4");

	o = &l.v[1];
	assert_string_equal(o->provider, "vast");
	assert_string_equal(o->key, "1x-RTX_4090-32-65536/US, NA");
	assert_string_equal(o->region, "US, NA");
	assert_string_equal(o->gpu, "RTX4090");
	assert_int_equal(o->interconnect, IC_PCIE);
	assert_int_equal(o->price, 350000);
	/* Empty spot: not published, never 0. */
	assert_int_equal(o->spot_price, MONEY_NONE);
	assert_int_equal(o->availability, AV_AVAILABLE);
	assert_int_equal(o->fetched_at, 1777420800);	/* 2026-04-29 */
	assert_int_equal(o->notes, NOTE_BIT(NOTE_SINGLE_LISTING));
	assert_string_equal(o->spot_zone, "");
	offer_list_done(&l);
}

/* A row with only a spot price (AWS capacity blocks) is an offer. */
static void
test_parse_spot_only(void **state)
{
	struct offer_list l;
	struct err err;

	(void)state;
	offer_list_init(&l);
	assert_int_equal(parse(HEADER
	    "aws\tp5e.48xlarge/us-east-2\tp5e.48xlarge\tus-east-2\tH200\t"
	    "H200\t8\t141\tnvlink\t192\t2048\t\t18.4515\tunknown\t2026-01-01"
	    "\t\t\n",
	    NULL, &l, &err), 0);
	assert_int_equal(l.n, 1);
	assert_int_equal(l.v[0].price, MONEY_NONE);
	assert_int_equal(l.v[0].spot_price, 18451500);
	offer_list_done(&l);

	/* ... but one with neither is not. */
	row_fails("aws\tx/r\tx\tr\tH200\tH200\t8\t141\tnvlink\t192\t2048\t\t\t"
	    "unknown\t2026-01-01\t\t\n",
	    "t.tsv:3: x/r: neither an on-demand nor a spot price");
}

/* Comments and blank lines are skipped anywhere, but counted. */
static void
test_parse_comments_blank(void **state)
{
	struct offer_list l;
	struct err err;

	(void)state;
	offer_list_init(&l);
	assert_int_equal(parse("# title\n\n# more\n" HEADER "\n# note\n"
	    ROW_AWS "\n\n#x\ttab\tin\tcomment\n" ROW_VAST "# end\n", NULL, &l,
	    &err), 0);
	assert_int_equal(l.n, 2);
	assert_string_equal(l.v[0].provider, "aws");
	assert_string_equal(l.v[1].provider, "vast");
	offer_list_done(&l);

	/* Line numbers count the skipped lines. */
	offer_list_init(&l);
	assert_int_equal(parse("# a\n\n# b\nbad header\n", NULL, &l, &err), -1);
	assert_string_equal(err.msg, "t.tsv:4: not a gpucost snapshot header");
	assert_int_equal(parse("# a\n" HEADER "\n# b\naws\tonly\n", NULL, &l,
	    &err), -1);
	assert_string_equal(err.msg,
	    "t.tsv:5: expected 17 tab-separated fields");
	assert_int_equal(l.n, 0);
	offer_list_done(&l);
}

/* The last line needs no newline. */
static void
test_parse_no_final_newline(void **state)
{
	struct offer_list l;
	struct err err;
	char text[1024];

	(void)state;
	snprintf(text, sizeof text, "%s%s", HEADER, ROW_VAST);
	text[strlen(text) - 1] = '\0';
	offer_list_init(&l);
	assert_int_equal(parse(text, NULL, &l, &err), 0);
	assert_int_equal(l.n, 1);
	/* The last field, cut by the end of the text, is whole. */
	assert_int_equal(l.v[0].fetched_at, 1777420800);
	assert_int_equal(l.v[0].availability, AV_AVAILABLE);
	offer_list_done(&l);
}

/* Only len bytes are read: a row beyond len is not seen. */
static void
test_parse_len(void **state)
{
	struct offer_list l;
	struct err err;
	const char *text = HEADER ROW_AWS ROW_VAST;

	(void)state;
	offer_list_init(&l);
	assert_int_equal(snapshot_parse(text, strlen(HEADER ROW_AWS), "t.tsv",
	    NULL, &l, &err), 0);
	assert_int_equal(l.n, 1);
	offer_list_done(&l);
	/*
	 * With a provider filter too: a last line cut at "aws" is not read
	 * on past len for its tab (fuzz_snapshot: heap overflow).
	 */
	offer_list_init(&l);
	text = HEADER ROW_AWS "aws\tjunk";
	assert_int_equal(snapshot_parse(text, strlen(HEADER ROW_AWS "aws"),
	    "t.tsv", "aws", &l, &err), 0);
	assert_int_equal(l.n, 1);
	offer_list_done(&l);
}

static void
test_parse_header(void **state)
{
	struct offer_list l;
	struct err err;

	(void)state;
	offer_list_init(&l);
	/* Not a header. */
	assert_int_equal(parse(ROW_AWS, NULL, &l, &err), -1);
	assert_string_equal(err.msg, "t.tsv:1: not a gpucost snapshot header");
	/* A header with a column missing, renamed or added. */
	assert_int_equal(parse("provider\tkey\n" ROW_AWS, NULL, &l, &err), -1);
	assert_string_equal(err.msg, "t.tsv:1: not a gpucost snapshot header");
	assert_int_equal(parse("provider\tkey\tinstance_type\tregion\tgpu\t"
	    "gpu_raw\tgpu_count\tvram_gb\tinterconnect\tvcpus\tram_gb\tprice\t"
	    "spot\tavailability\tas_of\n", NULL, &l, &err), -1);
	assert_string_equal(err.msg, "t.tsv:1: not a gpucost snapshot header");
	assert_int_equal(parse("provider\tkey\tinstance_type\tregion\tgpu\t"
	    "gpu_raw\tgpu_count\tvram_gb\tinterconnect\tvcpus\tram_gb\tprice\t"
	    "spot_price\tavailability\tas_of\tnotes\tspot_zone\textra\n", NULL,
	    &l, &err), -1);
	assert_string_equal(err.msg, "t.tsv:1: not a gpucost snapshot header");
	/* The header before notes and spot_zone. */
	assert_int_equal(parse("provider\tkey\tinstance_type\tregion\tgpu\t"
	    "gpu_raw\tgpu_count\tvram_gb\tinterconnect\tvcpus\tram_gb\tprice\t"
	    "spot_price\tavailability\tas_of\n", NULL, &l, &err), -1);
	assert_string_equal(err.msg, "t.tsv:1: not a gpucost snapshot header");
	/* Nothing at all. */
	assert_int_equal(parse("", NULL, &l, &err), -1);
	assert_string_equal(err.msg, "t.tsv: empty snapshot");
	assert_int_equal(parse("# only\n\n# comments\n", NULL, &l, &err), -1);
	assert_string_equal(err.msg, "t.tsv: empty snapshot");
	assert_int_equal(l.n, 0);
	/* A header alone is an empty, valid snapshot. */
	assert_int_equal(parse(HEADER, NULL, &l, &err), 0);
	assert_int_equal(l.n, 0);
	offer_list_done(&l);
}

static void
test_parse_field_count(void **state)
{
	char row[1024];

	(void)state;
	/* 16 fields: spot_zone missing. */
	snprintf(row, sizeof row, "%s", ROW_AWS);
	*strrchr(row, '\t') = '\n';
	*(strrchr(row, '\n') + 1) = '\0';
	row_fails(row, "t.tsv:3: expected 17 tab-separated fields");
	/* 18 fields. */
	snprintf(row, sizeof row, "%.*s\textra\n", (int)strlen(ROW_AWS) - 1,
	    ROW_AWS);
	row_fails(row, "t.tsv:3: expected 17 tab-separated fields");
	/* 18 with an empty last one (a trailing tab). */
	snprintf(row, sizeof row, "%.*s\t\n", (int)strlen(ROW_AWS) - 1,
	    ROW_AWS);
	row_fails(row, "t.tsv:3: expected 17 tab-separated fields");
	/* One field. */
	row_fails("aws\n", "t.tsv:3: expected 17 tab-separated fields");
}

/* Bad values name the line and the field. */
static void
test_parse_bad_values(void **state)
{
	(void)state;
	field_fails(11, "abc", "t.tsv:3: price: bad value \"abc\"");
	field_fails(11, "-1.5", "t.tsv:3: price: bad value \"-1.5\"");
	field_fails(11, "1,5", "t.tsv:3: price: bad value \"1,5\"");
	field_fails(12, "abc", "t.tsv:3: spot_price: bad value \"abc\"");
	field_fails(12, "-2", "t.tsv:3: spot_price: bad value \"-2\"");
	field_fails(8, "infiniband",
	    "t.tsv:3: interconnect: bad value \"infiniband\"");
	field_fails(8, "", "t.tsv:3: interconnect: bad value \"\"");
	field_fails(13, "maybe", "t.tsv:3: availability: bad value \"maybe\"");
	field_fails(14, "2026-13-01",
	    "t.tsv:3: as_of: bad value \"2026-13-01\"");
	field_fails(14, "2026/01/01",
	    "t.tsv:3: as_of: bad value \"2026/01/01\"");
	field_fails(14, "20260101",
	    "t.tsv:3: as_of: bad value \"20260101\"");
	field_fails(14, "",
	    "t.tsv:3: as_of: bad value \"\"");
	field_fails(14, "2026-01-01x",
	    "t.tsv:3: as_of: bad value \"2026-01-01x\"");
	field_fails(15, "cheap", "t.tsv:3: notes: bad value \"cheap\"");
	field_fails(15, "stale,single-listing",
	    "t.tsv:3: notes: bad value \"stale,single-listing\"");
	field_fails(6, "eight", "t.tsv:3: gpu_count: bad value \"eight\"");
	field_fails(6, "-8", "t.tsv:3: gpu_count: bad value \"-8\"");
	field_fails(7, "80GB", "t.tsv:3: vram_gb: bad value \"80GB\"");
	field_fails(9, "9.5", "t.tsv:3: vcpus: bad value \"9.5\"");
	field_fails(10, "lots", "t.tsv:3: ram_gb: bad value \"lots\"");
	field_fails(10, "-1", "t.tsv:3: ram_gb: bad value \"-1\"");
	/* The value is quoted sanitised: no escape reaches a terminal. */
	field_fails(12, "1.1\033[2J\001", "t.tsv:3: spot_price: bad value "
	    "\"1.1\"");
	field_fails(4, "Z9000",
	    "t.tsv:3: gpu: \"Z9000\" is not in the GPU catalogue");
	field_fails(4, "A100",
	    "t.tsv:3: gpu: \"A100\" is not in the GPU catalogue");
	/* Sanity limits from offer_check(), also with line and field. */
	field_fails(6, "0", "t.tsv:3: p4de.24xlarge/us-east-1: gpu_count 0 is "
	    "out of range 1..64");
	field_fails(6, "65", "t.tsv:3: p4de.24xlarge/us-east-1: gpu_count 65 "
	    "is out of range 1..64");
	field_fails(11, "0", "t.tsv:3: p4de.24xlarge/us-east-1: price: 0.00 "
	    "USD/h is out of range (0, 5000]");
	field_fails(1, "", "t.tsv:3: offer without a key (instance "
	    "p4de.24xlarge)");
	field_fails(3, "", "t.tsv:3: p4de.24xlarge/us-east-1: empty region");
}

/* A date that does not exist is not a date. */
static void
test_parse_impossible_date(void **state)
{
	(void)state;
	field_fails(14, "2026-02-30",
	    "t.tsv:3: as_of: bad value \"2026-02-30\"");
	field_fails(14, "2026-04-31",
	    "t.tsv:3: as_of: bad value \"2026-04-31\"");
}

/* The provider filter skips other rows before looking at them. */
static void
test_parse_provider_skips(void **state)
{
	struct offer_list l;
	struct err err;

	(void)state;
	offer_list_init(&l);
	/* A broken aws row does not matter when only vast is asked for. */
	assert_int_equal(parse(HEADER "aws\tbroken\n" ROW_VAST, "vast", &l,
	    &err), 0);
	assert_int_equal(l.n, 1);
	assert_string_equal(l.v[0].provider, "vast");
	assert_int_equal(parse(HEADER "aws\tbroken\n" ROW_VAST, NULL, &l,
	    &err), -1);
	assert_string_equal(err.msg,
	    "t.tsv:2: expected 17 tab-separated fields");
	offer_list_done(&l);
}

/* Prices are parsed exactly, never through a double. */
static void
test_parse_prices_exact(void **state)
{
	static const struct {
		const char *text;
		int64_t micro;
	} cases[] = {
		{ "27.44705", 27447050 },
		{ "0.35", 350000 },
		{ "3.67339", 3673390 },
		{ "98.32", 98320000 },
		{ "0.000001", 1 },
		{ "12", 12000000 },
		{ "5000", 5000000000 },
	};
	struct offer_list l;
	struct err err;
	char row[1024], text[2048];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		aws_row_with(11, cases[i].text, row, sizeof row);
		snprintf(text, sizeof text, "%s%s", HEADER, row);
		offer_list_init(&l);
		if (parse(text, NULL, &l, &err) != 0)
			fail_msg("%s: %s", cases[i].text, err.msg);
		assert_int_equal(l.n, 1);
		if (l.v[0].price != cases[i].micro)
			fail_msg("price \"%s\" = %lld, want %lld",
			    cases[i].text, (long long)l.v[0].price,
			    (long long)cases[i].micro);
		offer_list_done(&l);
	}
	/* Above the sanity limit of 5000 USD/h. */
	field_fails(11, "5000.01", "t.tsv:3: p4de.24xlarge/us-east-1: price: "
	    "5000.01 USD/h is out of range (0, 5000]");
}

/* ------------------------------------------------------------------ */
/* Issue 22: only what can be rented, in the built-in data.            */

static int
starts(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* GCP machine types sold only as Spot or through DWS/reservations. */
static int
gcp_spot_only(const char *it)
{
	return starts(it, "a3-highgpu-1g") || starts(it, "a3-highgpu-2g") ||
	    starts(it, "a3-highgpu-4g") || starts(it, "a3-ultragpu-") ||
	    starts(it, "a4-highgpu-") || starts(it, "a4x-highgpu-");
}

/*
 * No on-demand price for what is not sold on demand; every such row is
 * there (not dropped) and says how it is sold; a doubtful GCP on-demand
 * price is never shown.
 */
static void
test_rentable_not_on_demand(void **state)
{
	struct offer_list l;
	struct err err;
	size_t i, spot_only = 0, p5e = 0, doubtful = 0;

	(void)state;
	offer_list_init(&l);
	assert_int_equal(snapshot_load(NULL, &l, &err), 0);
	for (i = 0; i < l.n; i++) {
		const struct offer *o = &l.v[i];
		unsigned nod = o->notes & NOTE_BIT(NOTE_NOT_ON_DEMAND);

		if (strcmp(o->provider, "gcp") == 0 &&
		    gcp_spot_only(o->instance_type)) {
			spot_only++;
			if (money_known(o->price) || nod == 0)
				fail_msg("gcp %s: on-demand %lld, notes %#x",
				    o->key, (long long)o->price, o->notes);
		}
		if (strcmp(o->instance_type, "p5e.48xlarge") == 0) {
			p5e++;
			assert_false(money_known(o->price));
			assert_true(nod != 0);
		}
		if ((o->notes & NOTE_BIT(NOTE_DOUBTFUL_PRICE)) != 0) {
			doubtful++;
			assert_string_equal(o->provider, "gcp");
			assert_false(money_known(o->price));
			/* Only machines Google's whole-machine list lacks. */
			assert_true(starts(o->instance_type, "a3-edgegpu-"));
		}
		/* Sold only as spot: no commitment to buy either. */
		if (nod != 0)
			assert_int_equal(o->ncommitted, 0);
		/* Not noted: then sold on demand somewhere in its provider. */
		if (nod != 0)
			assert_true(strcmp(o->provider, "gcp") == 0 ||
			    strcmp(o->provider, "aws") == 0);
	}
	/* a3-highgpu-1/2/4g, a3-ultragpu-8g[-nolssd], a4-highgpu-8g. */
	assert_true(spot_only >= 60);
	/* Every region of the catalog, eu-west-2's with no price at all. */
	assert_int_equal(p5e, 6);
	assert_true(doubtful > 0);
	offer_list_done(&l);
}

/*
 * GCP's a2, a3, g2 and g4 rows are Google's whole-machine list of
 * 2026-07-30 (issue 44): the pay-as-you-go price (a3-highgpu-8g in
 * us-central1, $88.49, was a refused committed rate before), spot, and
 * 1- and 3-year commitments of month_1y / 730 and month_3y / 730; G4
 * machines with whole GPUs, its vGPU slices none.
 */
static void
test_gcp_whole_machine_list(void **state)
{
	static const struct {
		const char *key;
		int64_t price, spot, y1, y3;
		int gpus;
	} want[] = {
		/* 44810.08066464 / 730, 28370.99821392 / 730 */
		{ "a3-highgpu-8g/us-central1", 88490000, 50609541, 61383672,
		    38864381, 8 },
		{ "g4-standard-48/us-central1", 4499930, 1799820, 3105000,
		    1979450, 1 },
		{ "g4-standard-384/us-central1", 35999440, 14398560, 24840000,
		    15835600, 8 },
	};
	struct offer_list l;
	struct err err;
	const struct offer *o;
	const struct committed *c;
	size_t i, j, g4 = 0, list = 0;

	(void)state;
	offer_list_init(&l);
	assert_int_equal(snapshot_load("gcp", &l, &err), 0);
	for (i = 0; i < sizeof want / sizeof want[0]; i++) {
		for (o = NULL, j = 0; j < l.n && o == NULL; j++)
			if (strcmp(l.v[j].key, want[i].key) == 0)
				o = &l.v[j];
		if (o == NULL)
			fail_msg("no %s", want[i].key);
		assert_int_equal(o->price, want[i].price);
		assert_int_equal(o->spot_price, want[i].spot);
		assert_int_equal(o->gpu_count, want[i].gpus);
		assert_int_equal(o->notes & NOTE_BIT(NOTE_DOUBTFUL_PRICE), 0);
		c = committed_best(o->committed, o->ncommitted, 12);
		assert_non_null(c);
		assert_int_equal(c->kind, CK_COMMITMENT);
		assert_int_equal(c->upfront_kind, CU_NONE);
		assert_int_equal(c->price_hour, want[i].y1);
		c = committed_best(o->committed, o->ncommitted, 36);
		assert_non_null(c);
		assert_int_equal(c->price_hour, want[i].y3);
	}
	for (i = 0; i < l.n; i++) {
		o = &l.v[i];
		if (starts(o->instance_type, "g4-standard-")) {
			g4++;
			assert_string_equal(o->gpu, "RTXPRO6000");
			assert_true(o->gpu_count >= 1);
			/* Not the 1/8, 1/4, 1/2 slices. */
			assert_string_not_equal(o->instance_type, "g4-standard-6");
			assert_string_not_equal(o->instance_type,
			    "g4-standard-12");
			assert_string_not_equal(o->instance_type,
			    "g4-standard-24");
		}
		if (o->fetched_at == 1785369600)	/* 2026-07-30 */
			list++;
	}
	assert_true(g4 > 0);
	assert_true(list > 400);
	offer_list_done(&l);
}

/* Google's real price is never the outlier of its own GPU. */
static void
test_rentable_real_prices_not_outliers(void **state)
{
	static const char *const types[] = { "a3-highgpu-8g", "a3-megagpu-8g",
	    "a2-ultragpu-1g", "a2-ultragpu-4g", "a2-highgpu-1g",
	    "a2-highgpu-8g" };
	struct offer_list l;
	struct err err;
	size_t i, k, priced = 0;

	(void)state;
	offer_list_init(&l);
	assert_int_equal(snapshot_load("gcp", &l, &err), 0);
	for (i = 0; i < l.n; i++)
		for (k = 0; k < sizeof types / sizeof types[0]; k++) {
			if (strcmp(l.v[i].instance_type, types[k]) != 0 ||
			    !money_known(l.v[i].price))
				continue;
			priced++;
			if ((l.v[i].notes & NOTE_BIT(NOTE_PRICE_OUTLIER)) != 0)
				fail_msg("%s is noted price-outlier",
				    l.v[i].key);
		}
	assert_true(priced >= 30);
	offer_list_done(&l);
}

/* Retired sizes and providers, host bounds, the links fixed. */
static void
test_rentable_sizes_hosts_links(void **state)
{
	struct offer_list l;
	struct err err;
	size_t i, n1v100 = 0, nca100 = 0, bridge = 0, any = 0;

	(void)state;
	offer_list_init(&l);
	assert_int_equal(snapshot_load(NULL, &l, &err), 0);
	for (i = 0; i < l.n; i++) {
		const struct offer *o = &l.v[i];

		if (offer_retired(o) || strcmp(o->provider, "cudo") == 0 ||
		    starts(o->instance_type, "Standard_NC6s_v3") ||
		    starts(o->instance_type, "Standard_NC12s_v3") ||
		    starts(o->instance_type, "Standard_NC24s_v3") ||
		    starts(o->instance_type, "Standard_NC24rs_v3") ||
		    (strcmp(o->provider, "aws") == 0 &&
		    (starts(o->instance_type, "p3.") ||
		    starts(o->instance_type, "p3dn."))))
			fail_msg("retired %s %s", o->provider, o->key);
		if (o->vcpus > RENTABLE_VCPUS_PER_GPU_MAX * o->gpu_count ||
		    o->ram_gb > RENTABLE_RAM_GB_PER_GPU_MAX * o->gpu_count)
			fail_msg("%s %s: host %d vCPUs, %g GB", o->provider,
			    o->key, o->vcpus, o->ram_gb);
		/* RunPod ended spot pods on 2026-09-11 (issue 44). */
		if (strcmp(o->provider, "runpod") == 0 &&
		    money_known(o->spot_price))
			fail_msg("runpod %s: a spot price", o->key);
		/* RunPod's host table is per GPU: never growing with n^2. */
		if (strcmp(o->provider, "runpod") == 0 && o->ram_gb > 0 &&
		    o->gpu_count > 1 && o->ram_gb / o->gpu_count > 300)
			fail_msg("runpod %s: %g GB RAM", o->key, o->ram_gb);
		if (strcmp(o->provider, "gcp") == 0 &&
		    strstr(o->instance_type, "xV100") != NULL) {
			n1v100++;
			assert_int_equal(o->interconnect, IC_NVLINK);
		}
		if (strstr(o->instance_type, "ads_A100_v4") != NULL) {
			nca100++;
			assert_int_equal(o->interconnect, IC_PCIE);
		}
		if (strcmp(o->provider, "runpod") == 0 && o->gpu_count > 1 &&
		    (strcmp(o->gpu, "A6000") == 0 || strcmp(o->gpu, "A5000") == 0 ||
		    strcmp(o->gpu, "A40") == 0 || strcmp(o->gpu, "RTX3090") == 0)) {
			bridge++;
			/* As a refresh says (provider_interconnect()). */
			assert_int_equal(o->interconnect, IC_UNKNOWN);
		}
		if (strcmp(o->provider, "oci") == 0 ||
		    strcmp(o->provider, "lambda") == 0) {
			any++;
			assert_string_equal(o->region, "all");
		}
	}
	assert_true(n1v100 > 0 && nca100 > 0 && bridge > 0);
	/* 21 OCI shapes, 22 Lambda types: one offer each. */
	assert_int_equal(any, 43);
	offer_list_done(&l);
}

/*
 * The loader applies the rules to whatever it reads: a retired size is
 * dropped, impossible host figures become unknown, a capacity-only row
 * with no price is kept.
 */
static void
test_rentable_loader(void **state)
{
	const char *text = HEADER
	    "azure\tStandard_NC24s_v3/eastus\tStandard_NC24s_v3\teastus\t"
	    "V100-16\tV100\t4\t16\tunknown\t24\t448\t12.24\t\tunknown\t"
	    "2026-05-20\t\t\n"
	    "runpod\t8x_X/US-1\t8x_X\tUS-1\tRTXPRO4500\tRTX PRO 4500\t8\t32\t"
	    "pcie\t2100\t9000\t5.1\t\tunknown\t2026-02-12\thost-estimated\t\n"
	    "aws\tp5e.48xlarge/eu-west-2\tp5e.48xlarge\teu-west-2\tH200\t"
	    "H200\t8\t141\tnvlink\t192\t2048\t\t\tunknown\t2026-06-03\t"
	    "not-on-demand\t\n";
	struct offer_list l;
	struct err err;

	(void)state;
	offer_list_init(&l);
	assert_int_equal(snapshot_parse(text, strlen(text), "t.tsv", NULL, &l,
	    &err), 0);
	l.n = offers_vet(l.v, l.n);
	assert_int_equal(l.n, 2);
	assert_string_equal(l.v[0].provider, "runpod");
	assert_int_equal(l.v[0].vcpus, 0);	/* 262 per GPU */
	assert_false(l.v[0].ram_gb > 0);	/* 1125 GB per GPU */
	assert_string_equal(l.v[1].key, "p5e.48xlarge/eu-west-2");
	assert_false(money_known(l.v[1].price));
	assert_false(money_known(l.v[1].spot_price));
	offer_list_done(&l);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_embedded_equals_file),
		cmocka_unit_test(test_load_all),
		cmocka_unit_test(test_load_known_row),
		cmocka_unit_test(test_provider_filter),
		cmocka_unit_test(test_parse_row_fields),
		cmocka_unit_test(test_parse_committed),
		cmocka_unit_test(test_parse_spot_only),
		cmocka_unit_test(test_parse_comments_blank),
		cmocka_unit_test(test_parse_no_final_newline),
		cmocka_unit_test(test_parse_len),
		cmocka_unit_test(test_parse_header),
		cmocka_unit_test(test_parse_field_count),
		cmocka_unit_test(test_parse_bad_values),
		cmocka_unit_test(test_parse_impossible_date),
		cmocka_unit_test(test_parse_provider_skips),
		cmocka_unit_test(test_parse_prices_exact),
		cmocka_unit_test(test_rentable_not_on_demand),
		cmocka_unit_test(test_gcp_whole_machine_list),
		cmocka_unit_test(test_rentable_real_prices_not_outliers),
		cmocka_unit_test(test_rentable_sizes_hosts_links),
		cmocka_unit_test(test_rentable_loader),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
