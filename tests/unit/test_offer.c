/* test_offer.c: unit tests for offer.c (records, lists, filters, sorting)
 * and query.c (filter + sort into plans). */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cost.h"
#include "err.h"
#include "gpu.h"
#include "money.h"
#include "notes.h"
#include "offer.h"
#include "query.h"
#include "rentable.h"
#include "str.h"
#include "offer_text.h"

/* ------------------------------------------------------------------ */
/* Helpers                                                              */
/* ------------------------------------------------------------------ */

/* Fill o with a valid offer: provider, key and GPU given, the rest plain. */
static void
make_offer(struct offer *o, const char *provider, const char *key,
    const char *gpu, int count, int64_t price, int64_t spot)
{
	offer_init(o);
	o->provider = tstr(provider);
	o->key = tstr(key);
	o->instance_type = tstr("inst-1");
	o->region = tstr("us-east-1");
	o->gpu = tstr(gpu);
	o->gpu_raw = tstr(gpu[0] != '\0' ? gpu : "Mystery X");
	o->gpu_count = count;
	o->vram_gb = 80;
	o->interconnect = IC_NVLINK;
	o->price = price;
	o->spot_price = spot;
	o->availability = AV_AVAILABLE;
	o->fetched_at = 1700000000;
	o->source = SRC_LIVE;
}

static void
set_names(struct offer *o, const char *instance, const char *region,
    const char *gpu_raw)
{
	o->instance_type = tstr(instance);
	o->region = tstr(region);
	o->gpu_raw = tstr(gpu_raw);
}

static const struct gpu_model *
model(const char *id)
{
	const struct gpu_model *m = gpu_find(id);

	assert_non_null(m);
	return m;
}

/* offer_check rejects o with a message mentioning what. */
static void
check_fails(const struct offer *o, const char *what)
{
	struct err err;

	err_clear(&err);
	assert_int_equal(offer_check(o, &err), -1);
	if (str_find_nocase(err.msg, what) == NULL)
		fail_msg("offer_check message \"%s\" does not mention \"%s\"",
		    err.msg, what);
}

static void
check_passes(const struct offer *o)
{
	struct err err;

	err_clear(&err);
	if (offer_check(o, &err) != 0)
		fail_msg("offer_check rejected a valid offer: %s", err.msg);
}

/* offer_matches(f, o) with *nodes, which must be set to want on a match. */
static void
matches(const struct offer_filter *f, const struct offer *o, int want_nodes)
{
	int nodes = -7;

	assert_true(offer_matches(f, o, &nodes));
	assert_int_equal(nodes, want_nodes);
}

static void
no_match(const struct offer_filter *f, const struct offer *o)
{
	int nodes = -7;

	assert_false(offer_matches(f, o, &nodes));
}

/* ------------------------------------------------------------------ */
/* The sort fixture: five offers that differ in every sort key.         */
/* ------------------------------------------------------------------ */

#define NFIX 5

static void
fixture(struct offer o[NFIX])
{
	/* o0: 8x H100 SXM at AWS, dear, big spot saving. */
	make_offer(&o[0], "aws", "aws-p5", "H100", 8, 98320000, 40000000);
	set_names(&o[0], "p5.48xlarge", "us-east-1", "NVIDIA H100 80GB HBM3");
	o[0].availability = AV_AVAILABLE;
	o[0].fetched_at = 1000;
	/* o1: 1x H100 PCIe at Lambda, on-demand only. */
	make_offer(&o[1], "lambda", "lam-h100", "H100", 1, 1500000,
	    MONEY_NONE);
	set_names(&o[1], "gpu_1x_h100_pcie", "us-west-1", "H100 PCIe");
	o[1].interconnect = IC_PCIE;
	o[1].availability = AV_LIMITED;
	o[1].fetched_at = 3000;
	/* o2: 2x A100-80 PCIe at Vast, cheapest per GPU. */
	make_offer(&o[2], "vast", "vast-a100", "A100-80", 2, 2000000, 1000000);
	set_names(&o[2], "vast-1", "eu-west", "A100 80GB PCIe");
	o[2].interconnect = IC_PCIE;
	o[2].availability = AV_UNKNOWN;
	o[2].fetched_at = 2000;
	/* o3: 1x A100-40 at GCP, spot only, unavailable. */
	make_offer(&o[3], "gcp", "gcp-a2", "A100-40", 1, MONEY_NONE, 1100000);
	set_names(&o[3], "a2-highgpu-1g", "europe-west4", "nvidia-tesla-a100");
	o[3].vram_gb = 40;
	o[3].availability = AV_UNAVAILABLE;
	o[3].fetched_at = 500;
	/* o4: 4x unknown GPU at RunPod, spot dearer than on-demand. */
	make_offer(&o[4], "runpod", "rp-x", "", 4, 4000000, 4400000);
	set_names(&o[4], "pod-4x", "", "Mystery X");
	o[4].vram_gb = 0;
	o[4].interconnect = IC_UNKNOWN;
	o[4].availability = AV_AVAILABLE;
	o[4].fetched_at = 2000;
}

static void
fixture_plans(const struct offer o[NFIX], struct plan p[NFIX])
{
	size_t i;

	for (i = 0; i < NFIX; i++)
		cost_plan(&p[i], &o[i], 1);
}

/* Sort the fixture by key and compare with the expected offer order. */
static void
sort_is(const struct offer o[NFIX], enum sort_key key, bool reverse,
    const int want[NFIX])
{
	struct plan p[NFIX];
	size_t i;

	fixture_plans(o, p);
	plan_sort(p, NFIX, key, reverse);
	for (i = 0; i < NFIX; i++)
		if (p[i].offer != &o[want[i]])
			fail_msg("sort %s%s: position %zu is o%d, want o%d",
			    sort_key_name(key), reverse ? " (reverse)" : "", i,
			    (int)(p[i].offer - o), want[i]);
}

/* ------------------------------------------------------------------ */
/* Records and lists                                                    */
/* ------------------------------------------------------------------ */

static void
test_offer_init_defaults(void **state)
{
	struct offer o;

	(void)state;
	memset(&o, 0x5a, sizeof o);
	offer_init(&o);
	assert_string_equal(o.provider, "");
	assert_string_equal(o.key, "");
	assert_string_equal(o.instance_type, "");
	assert_string_equal(o.region, "");
	assert_string_equal(o.gpu, "");
	assert_string_equal(o.gpu_raw, "");
	assert_int_equal(o.gpu_count, 0);
	assert_int_equal(o.vram_gb, 0);
	assert_int_equal(o.interconnect, IC_UNKNOWN);
	assert_int_equal(o.vcpus, 0);
	assert_true(fabs(o.ram_gb) < 1e-12);
	assert_int_equal(o.price, MONEY_NONE);
	assert_int_equal(o.spot_price, MONEY_NONE);
	assert_false(money_known(o.price));
	assert_int_equal(o.availability, AV_UNKNOWN);
	assert_int_equal(o.spot_interruption, -1);
	assert_true(o.reliability < 0);
	assert_int_equal(o.fetched_at, 0);
	assert_int_equal(o.source, SRC_SNAPSHOT);
}

static void
test_offer_list_add_pop(void **state)
{
	struct offer_list l;
	struct offer *o;

	(void)state;
	offer_list_init(&l);
	assert_null(l.v);
	assert_int_equal(l.n, 0);
	assert_int_equal(l.cap, 0);
	o = offer_list_add(&l);
	assert_non_null(o);
	assert_ptr_equal(o, &l.v[0]);
	assert_int_equal(l.n, 1);
	/* Added offers come initialised. */
	assert_int_equal(o->price, MONEY_NONE);
	assert_int_equal(o->spot_interruption, -1);
	o->key = tstr("first");
	o = offer_list_add(&l);
	assert_ptr_equal(o, &l.v[1]);
	o->key = tstr("second");
	assert_int_equal(l.n, 2);
	offer_list_pop(&l);
	assert_int_equal(l.n, 1);
	assert_string_equal(l.v[0].key, "first");
	/* The slot popped is initialised afresh on the next add. */
	o = offer_list_add(&l);
	assert_string_equal(o->key, "");
	assert_int_equal(l.n, 2);
	offer_list_pop(&l);
	offer_list_pop(&l);
	assert_int_equal(l.n, 0);
	/* Popping an empty list is harmless. */
	offer_list_pop(&l);
	assert_int_equal(l.n, 0);
	offer_list_done(&l);
	assert_null(l.v);
	assert_int_equal(l.n, 0);
	assert_int_equal(l.cap, 0);
	/* Done on an empty list is fine too. */
	offer_list_done(&l);
	assert_null(l.v);
}

static void
test_offer_list_growth(void **state)
{
	struct offer_list l;
	struct offer *o;
	size_t i;

	(void)state;
	offer_list_init(&l);
	for (i = 0; i < 300; i++) {
		o = offer_list_add(&l);
		assert_int_equal(l.n, i + 1);
		assert_true(l.cap >= l.n);
		o->gpu_count = (int)i + 1;
		o->price = (int64_t)i * 1000;
	}
	assert_int_equal(l.n, 300);
	for (i = 0; i < 300; i++) {
		assert_int_equal(l.v[i].gpu_count, (int)i + 1);
		assert_int_equal(l.v[i].price, (int64_t)i * 1000);
		assert_int_equal(l.v[i].spot_price, MONEY_NONE);
	}
	offer_list_done(&l);
	assert_int_equal(l.n, 0);
}

/*
 * An offer's text (issue 29, the compact offer): each field is cut at
 * its documented OFFER_*_MAX by the setters (never inside a UTF-8
 * character), and offer_check() refuses longer text set any other way.
 */
static void
test_offer_text_limits(void **state)
{
	static const struct {
		offer_setter	*set;
		size_t		 max;
		const char	*what;
	} f[] = {
		{ offer_set_provider, OFFER_PROVIDER_MAX, "provider" },
		{ offer_set_key, OFFER_KEY_MAX, "key" },
		{ offer_set_instance_type, OFFER_NAME_MAX, "instance_type" },
		{ offer_set_region, OFFER_NAME_MAX, "region" },
		{ offer_set_gpu, OFFER_GPU_MAX, "gpu" },
		{ offer_set_gpu_raw, OFFER_NAME_MAX, "gpu_raw" },
		{ offer_set_spot_zone, OFFER_NAME_MAX, "spot_zone" },
	};
	static char huge[100000];
	const char **field[7];
	struct offer_list l;
	struct offer *o, bad;
	char e[300];
	size_t i, len;

	(void)state;
	memset(huge, 'x', sizeof huge - 1);
	offer_list_init(&l);
	for (i = 0; i < sizeof f / sizeof f[0]; i++) {
		o = offer_list_add(&l);
		field[0] = &o->provider;
		field[1] = &o->key;
		field[2] = &o->instance_type;
		field[3] = &o->region;
		field[4] = &o->gpu;
		field[5] = &o->gpu_raw;
		field[6] = &o->spot_zone;
		assert_int_equal(offer_setter_max(f[i].set), f[i].max);
		/* A hostile 100 kB string costs max bytes, no more. */
		f[i].set(&l, o, huge);
		assert_int_equal(strlen(*field[i]), f[i].max - 1);
		/* Cut before a 2-byte character that would straddle it. */
		memset(e, 'a', sizeof e);
		e[f[i].max - 2] = '\xc3';
		e[f[i].max - 1] = '\xa9';
		e[f[i].max + 2] = '\0';
		f[i].set(&l, o, e);
		assert_int_equal(strlen(*field[i]), f[i].max - 2);
		/* At the limit: kept whole. */
		e[f[i].max - 1] = '\0';
		e[f[i].max - 2] = 'z';
		f[i].set(&l, o, e);
		assert_string_equal(*field[i], e);
		/* One more byte set directly: refused, naming the field. */
		make_offer(&bad, "aws", "k", "H100", 8, 98320000, MONEY_NONE);
		check_passes(&bad);
		len = f[i].max;
		memset(e, 'b', len);
		e[len] = '\0';
		switch (i) {
		case 0: bad.provider = e; break;
		case 1: bad.key = e; break;
		case 2: bad.instance_type = e; break;
		case 3: bad.region = e; break;
		case 4: bad.gpu = e; break;
		case 5: bad.gpu_raw = e; break;
		default: bad.spot_zone = e; break;
		}
		check_fails(&bad, f[i].what);
		check_fails(&bad, "longer than");
	}
	offer_list_done(&l);
}

/*
 * The list owns its offers' text: a copy into another list outlives
 * the first (ASan sees any use after free), repeated values are stored
 * once, a popped offer's text is given back, and clear frees it.
 */
static void
test_offer_text_ownership(void **state)
{
	static const struct committed c[2] = {
		{ 69863014, 0, 12, CK_RESERVATION, CU_NONE },
		{ 38160000, 0, 36, CK_SAVINGS_PLAN, CU_NONE },
	};
	struct offer_list a, b;
	struct offer *o, *p;
	const char *key;
	size_t i;

	(void)state;
	offer_list_init(&a);
	offer_list_init(&b);
	assert_int_equal(sizeof(struct offer) <= 176, 1);
	for (i = 0; i < 1000; i++) {
		o = offer_list_add(&a);
		offer_set_keyf(&a, o, "key-%zu", i);
		offer_set_region(&a, o, i % 2 ? "us-east-1" : "eu-west-1");
		offer_set_committed(&a, o, c, i % 3);
	}
	/* A repeated region is one string. */
	assert_ptr_equal(a.v[1].region, a.v[3].region);
	assert_ptr_not_equal(a.v[0].region, a.v[1].region);
	assert_null(a.v[0].committed);
	assert_int_equal(a.v[0].ncommitted, 0);
	for (i = 0; i < 1000; i++)
		offer_list_add_copy(&b, &a.v[i]);
	/* Into itself: the source moves as the array grows. */
	for (i = 0; i < 70; i++)
		offer_list_add_copy(&b, &b.v[0]);
	offer_list_done(&a);
	for (i = 0; i < 1000; i++) {
		char want[32];

		snprintf(want, sizeof want, "key-%zu", i);
		assert_string_equal(b.v[i].key, want);
		assert_string_equal(b.v[i].region, i % 2 ? "us-east-1" :
		    "eu-west-1");
		assert_int_equal(b.v[i].ncommitted, i % 3);
		if (i % 3 == 2)
			assert_int_equal(b.v[i].committed[1].price_hour,
			    38160000);
	}
	assert_string_equal(b.v[1069].key, "key-0");
	/* A popped offer's text is given back: the next reuses it. */
	o = offer_list_add(&b);
	offer_set_key(&b, o, "rejected");
	key = o->key;
	offer_list_pop(&b);
	o = offer_list_add(&b);
	offer_set_key(&b, o, "kept");
	assert_ptr_equal(o->key, key);
	/* ... unless an earlier offer's text was written since. */
	o = offer_list_add(&b);
	offer_set_key(&b, o, "second");
	p = &b.v[b.n - 2];
	offer_set_region(&b, p, "moved-after");
	offer_list_pop(&b);
	assert_string_equal(b.v[b.n - 1].key, "kept");
	assert_string_equal(b.v[b.n - 1].region, "moved-after");
	o = offer_list_add(&b);
	offer_set_region(&b, o, "moved-after");	/* the same string */
	assert_ptr_equal(o->region, b.v[b.n - 2].region);
	offer_list_clear(&b);
	assert_int_equal(b.n, 0);
	assert_null(b.text);
	o = offer_list_add(&b);
	offer_set_key(&b, o, "again");
	assert_string_equal(b.v[0].key, "again");
	offer_list_done(&b);
}

static void
test_interconnect_names(void **state)
{
	static const enum interconnect all[] = { IC_UNKNOWN, IC_PCIE, IC_NVLINK };
	enum interconnect ic;
	size_t i;

	(void)state;
	assert_string_equal(interconnect_name(IC_NVLINK), "nvlink");
	assert_string_equal(interconnect_name(IC_PCIE), "pcie");
	assert_string_equal(interconnect_name(IC_UNKNOWN), "unknown");
	for (i = 0; i < sizeof all / sizeof all[0]; i++) {
		ic = (enum interconnect)99;
		assert_int_equal(interconnect_parse(interconnect_name(all[i]),
		    &ic), 0);
		assert_int_equal(ic, all[i]);
	}
	assert_int_equal(interconnect_parse("NVLink", &ic), 0);
	assert_int_equal(ic, IC_NVLINK);
	assert_int_equal(interconnect_parse("PCIE", &ic), 0);
	assert_int_equal(ic, IC_PCIE);
	ic = IC_PCIE;
	assert_int_equal(interconnect_parse("sxm", &ic), -1);
	assert_int_equal(interconnect_parse("", &ic), -1);
	assert_int_equal(interconnect_parse("nvlinkx", &ic), -1);
	assert_int_equal(interconnect_parse("pci", &ic), -1);
	assert_int_equal(ic, IC_PCIE);
}

static void
test_availability_names(void **state)
{
	static const enum availability all[] = {
		AV_UNKNOWN, AV_AVAILABLE, AV_LIMITED, AV_UNAVAILABLE
	};
	enum availability av;
	size_t i;

	(void)state;
	assert_string_equal(availability_name(AV_AVAILABLE), "available");
	assert_string_equal(availability_name(AV_LIMITED), "limited");
	assert_string_equal(availability_name(AV_UNAVAILABLE), "unavailable");
	assert_string_equal(availability_name(AV_UNKNOWN), "unknown");
	for (i = 0; i < sizeof all / sizeof all[0]; i++) {
		av = (enum availability)99;
		assert_int_equal(availability_parse(availability_name(all[i]),
		    &av), 0);
		assert_int_equal(av, all[i]);
	}
	assert_int_equal(availability_parse("Available", &av), 0);
	assert_int_equal(av, AV_AVAILABLE);
	av = AV_LIMITED;
	assert_int_equal(availability_parse("yes", &av), -1);
	assert_int_equal(availability_parse("", &av), -1);
	assert_int_equal(availability_parse("avail", &av), -1);
	assert_int_equal(av, AV_LIMITED);
}

static void
test_source_and_interruption_names(void **state)
{
	(void)state;
	assert_string_equal(source_name(SRC_SNAPSHOT), "snapshot");
	assert_string_equal(source_name(SRC_LIVE), "live");
	assert_string_equal(spot_interruption_name(0), "<5%");
	assert_string_equal(spot_interruption_name(1), "5-10%");
	assert_string_equal(spot_interruption_name(2), "10-15%");
	assert_string_equal(spot_interruption_name(3), "15-20%");
	assert_string_equal(spot_interruption_name(4), ">20%");
	assert_null(spot_interruption_name(-1));
	assert_null(spot_interruption_name(5));
	assert_null(spot_interruption_name(1000));
}

/* ------------------------------------------------------------------ */
/* offer_check                                                          */
/* ------------------------------------------------------------------ */

static void
test_check_accepts(void **state)
{
	struct offer o;

	(void)state;
	make_offer(&o, "aws", "p5/us-east-1", "H100", 8, 98320000, 40000000);
	check_passes(&o);
	/* Spot only. */
	o.price = MONEY_NONE;
	check_passes(&o);
	/* On-demand only. */
	o.price = 98320000;
	o.spot_price = MONEY_NONE;
	check_passes(&o);
	/* Unknown GPU keeps its raw name and is accepted. */
	o.gpu = "";
	check_passes(&o);
	/* Limits themselves. */
	o.gpu_count = 1;
	check_passes(&o);
	o.gpu_count = 64;
	check_passes(&o);
	o.vram_gb = 0;
	check_passes(&o);
	o.vram_gb = 1024;
	check_passes(&o);
	o.price = 1;
	check_passes(&o);
	o.price = 400 * (int64_t)MONEY_UNIT;
	check_passes(&o);
	/* A canonical GPU without raw text is fine as well. */
	make_offer(&o, "aws", "k", "H100", 8, 98320000, MONEY_NONE);
	o.gpu_raw = "";
	check_passes(&o);
	/* err may be NULL. */
	assert_int_equal(offer_check(&o, NULL), 0);
}

static void
test_check_rejects_names(void **state)
{
	struct offer o;

	(void)state;
	make_offer(&o, "aws", "p5/us-east-1", "H100", 8, 98320000, MONEY_NONE);
	o.key = "";
	check_fails(&o, "key");
	make_offer(&o, "aws", "p5/us-east-1", "H100", 8, 98320000, MONEY_NONE);
	o.instance_type = "";
	check_fails(&o, "instance");
	make_offer(&o, "aws", "p5/us-east-1", "H100", 8, 98320000, MONEY_NONE);
	o.region = "";
	check_fails(&o, "region");
	make_offer(&o, "aws", "p5/us-east-1", "H100", 8, 98320000, MONEY_NONE);
	o.gpu = "";
	o.gpu_raw = "";
	check_fails(&o, "gpu");
	/* The message names the record. */
	check_fails(&o, "p5/us-east-1");
	assert_int_equal(offer_check(&o, NULL), -1);
}

static void
test_check_rejects_gpu_count(void **state)
{
	static const int bad[] = { 0, -1, 65, 1000000, -2147483647 - 1 };
	struct offer o;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		make_offer(&o, "vast", "v1", "RTX4090", 1, 500000, MONEY_NONE);
		o.gpu_count = bad[i];
		check_fails(&o, "gpu_count");
	}
}

static void
test_check_rejects_vram(void **state)
{
	static const int bad[] = { -1, 1025, 100000 };
	struct offer o;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		make_offer(&o, "vast", "v1", "H100", 1, 2000000, MONEY_NONE);
		o.vram_gb = bad[i];
		check_fails(&o, "vram");
	}
}

static void
test_check_rejects_prices(void **state)
{
	static const int64_t bad[] = {
		-1, -1000000, 0, MONEY_MAX + 1, INT64_MAX, INT64_MIN + 1
	};
	struct offer o;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		make_offer(&o, "aws", "k", "H100", 8, bad[i], MONEY_NONE);
		check_fails(&o, "price");
		make_offer(&o, "aws", "k", "H100", 8, 98320000, bad[i]);
		check_fails(&o, "spot");
		/* A bad spot price is not saved by a good on-demand one. */
		make_offer(&o, "aws", "k", "H100", 8, MONEY_NONE, bad[i]);
		check_fails(&o, "spot");
	}
}

static void
test_check_rejects_no_price(void **state)
{
	struct offer o;

	(void)state;
	make_offer(&o, "aws", "k", "H100", 8, MONEY_NONE, MONEY_NONE);
	check_fails(&o, "price");
}

/* ------------------------------------------------------------------ */
/* offer_matches                                                        */
/* ------------------------------------------------------------------ */

static void
test_match_empty_filter(void **state)
{
	struct offer_filter f;
	struct offer o[NFIX];
	size_t i;

	(void)state;
	offer_filter_init(&f);
	assert_int_equal(f.ngpus, 0);
	assert_int_equal(f.count, 0);
	assert_false(f.multi_node);
	assert_int_equal(f.interconnect, IC_UNKNOWN);
	assert_int_equal(f.nproviders, 0);
	assert_string_equal(f.region, "");
	assert_string_equal(f.text, "");
	assert_int_equal(f.max_price_gpu_hour, MONEY_NONE);
	assert_false(f.spot);
	assert_false(f.available);
	fixture(o);
	for (i = 0; i < NFIX; i++)
		matches(&f, &o[i], 1);
	/* nodes may be NULL. */
	assert_true(offer_matches(&f, &o[0], NULL));
}

static void
test_match_gpus(void **state)
{
	struct offer_filter f;
	struct offer o[NFIX];

	(void)state;
	fixture(o);
	offer_filter_init(&f);
	f.gpus[f.ngpus++] = model("H100");
	matches(&f, &o[0], 1);
	matches(&f, &o[1], 1);
	no_match(&f, &o[2]);
	no_match(&f, &o[3]);
	no_match(&f, &o[4]);	/* unknown GPU never matches a GPU filter */
	/* A set: any of them. */
	offer_filter_init(&f);
	f.gpus[f.ngpus++] = model("A100-40");
	f.gpus[f.ngpus++] = model("A100-80");
	no_match(&f, &o[0]);
	no_match(&f, &o[1]);
	matches(&f, &o[2], 1);
	matches(&f, &o[3], 1);
	no_match(&f, &o[4]);
}

static void
test_match_count_exact(void **state)
{
	struct offer_filter f;
	struct offer o[NFIX];

	(void)state;
	fixture(o);
	offer_filter_init(&f);
	f.count = 8;
	matches(&f, &o[0], 1);
	no_match(&f, &o[1]);
	no_match(&f, &o[2]);
	no_match(&f, &o[4]);
	f.count = 1;
	matches(&f, &o[1], 1);
	matches(&f, &o[3], 1);
	no_match(&f, &o[0]);
	/* Without multi-node, a divisible count still needs one instance. */
	f.count = 16;
	no_match(&f, &o[0]);
	no_match(&f, &o[1]);
}

static void
test_match_multi_node(void **state)
{
	struct offer_filter f;
	struct offer o;

	(void)state;
	offer_filter_init(&f);
	f.multi_node = true;
	f.count = 16;
	/* The arithmetic of splitting, whatever the fabric (any). */
	f.fabrics = FABRIC_ANY;
	make_offer(&o, "aws", "k", "H100", 8, 98320000, MONEY_NONE);
	matches(&f, &o, 2);
	o.gpu_count = 4;
	matches(&f, &o, 4);
	o.gpu_count = 1;
	matches(&f, &o, 16);
	o.gpu_count = 16;
	matches(&f, &o, 1);
	o.gpu_count = 3;		/* 16 % 3 != 0 */
	no_match(&f, &o);
	o.gpu_count = 32;		/* more than asked for */
	no_match(&f, &o);
	o.gpu_count = 6;
	no_match(&f, &o);
	f.count = 12;
	matches(&f, &o, 2);
	o.gpu_count = 8;		/* 12 % 8 != 0 */
	no_match(&f, &o);
	o.gpu_count = 0;		/* invalid record */
	no_match(&f, &o);
	/* count 0 (any): one node whatever multi_node says. */
	f.count = 0;
	o.gpu_count = 8;
	matches(&f, &o, 1);
}

/*
 * A marketplace listing is one machine: never two nodes of a plan. Nodes
 * of one GPU have no NVLink between them, whatever the board.
 */
static void
test_match_multi_node_trust(void **state)
{
	struct offer_filter f;
	struct offer o;
	struct plan p;

	(void)state;
	offer_filter_init(&f);
	f.multi_node = true;
	f.count = 16;
	f.fabrics = FABRIC_ANY;	/* the fabric rules: test_match_fabric */
	make_offer(&o, "vast", "29123456", "H100", 8, 20000000, MONEY_NONE);
	o.notes = NOTE_BIT(NOTE_SINGLE_LISTING);
	no_match(&f, &o);
	f.count = 8;
	matches(&f, &o, 1);
	o.notes = 0;
	f.count = 16;
	matches(&f, &o, 2);
	/* p5.4xlarge: one H100 SXM; 16 of them talk over the network. */
	make_offer(&o, "aws", "p5.4xlarge/us-east-1", "H100", 1, 6880000,
	    MONEY_NONE);
	o.interconnect = IC_NVLINK;
	matches(&f, &o, 16);
	cost_plan(&p, &o, 16);
	assert_int_equal(plan_link(&p), IC_UNKNOWN);
	cost_plan(&p, &o, 1);
	assert_int_equal(plan_link(&p), IC_NVLINK);
	f.interconnect = IC_NVLINK;
	no_match(&f, &o);
	f.count = 1;
	matches(&f, &o, 1);
}

/* An offer of provider's instance type with its fabric looked up. */
static void
typed_offer(struct offer *o, const char *provider, const char *type,
    const char *gpu, int count)
{
	make_offer(o, provider, type, gpu, count, 10000000 * (int64_t)count,
	    MONEY_NONE);
	o->instance_type = tstr(type);
	offer_set_fabric(o);
}

/*
 * Issue 26: a plan of several nodes needs a fabric a trainer would
 * accept (RDMA or TCPX/TCPXO) and at most 4 nodes per 8 GPUs asked,
 * unless --fabric any or --nodes says otherwise.
 */
static void
test_match_fabric_rules(void **state)
{
	struct offer_filter f;
	struct offer o;

	(void)state;
	offer_filter_init(&f);
	f.count = 16;
	f.multi_node = true;
	typed_offer(&o, "aws", "p5.48xlarge", "H100", 8);
	matches(&f, &o, 2);
	/* 16 one-GPU VMs: EFA, but a swarm nobody asked for. */
	typed_offer(&o, "aws", "p5.4xlarge", "H100", 1);
	no_match(&f, &o);
	f.nodes = 16;			/* asked for */
	matches(&f, &o, 16);
	f.nodes = 0;
	f.fabrics = FABRIC_ANY;		/* or anything goes */
	matches(&f, &o, 16);
	f.fabrics = 0;
	/* 8 x 2: the most nodes 16 GPUs may take, on a TCPX type... */
	typed_offer(&o, "gcp", "a3-highgpu-8g", "H100", 2);
	matches(&f, &o, 8);
	/* ...but the 2-GPU A3 High has no GPU NIC: Ethernet only. */
	typed_offer(&o, "gcp", "a3-highgpu-2g", "H100", 2);
	no_match(&f, &o);
	f.fabrics = FABRIC_BIT(FABRIC_ETHERNET);
	matches(&f, &o, 8);
	f.fabrics = 0;
	/* TCPXO counts by default; not under --fabric rdma. */
	typed_offer(&o, "gcp", "a3-megagpu-8g", "H100", 8);
	matches(&f, &o, 2);
	f.fabrics = FABRIC_RDMA;
	no_match(&f, &o);
	typed_offer(&o, "gcp", "a3-ultragpu-8g", "H200", 8);
	matches(&f, &o, 2);
	typed_offer(&o, "azure", "Standard_ND96isr_H100_v5", "H100", 8);
	matches(&f, &o, 2);
	f.fabrics = 0;
	/* Unknown fabric: no multi-node plan unless any. */
	typed_offer(&o, "lambda", "gpu_8x_h100_sxm5", "H100", 8);
	no_match(&f, &o);
	f.fabrics = FABRIC_ANY;
	matches(&f, &o, 2);
	/* No placement construct: never placed together, even asked. */
	typed_offer(&o, "azure", "Standard_NC80adis_H100_v5", "H100", 2);
	f.fabrics = FABRIC_BIT(FABRIC_ETHERNET);
	no_match(&f, &o);
	f.fabrics = FABRIC_ANY;
	matches(&f, &o, 8);
	/* No more nodes than the largest published group (100 VMs). */
	typed_offer(&o, "azure", "Standard_ND96isr_H100_v5", "H100", 8);
	f.fabrics = 0;
	f.count = 808;
	no_match(&f, &o);
	f.count = 800;
	matches(&f, &o, 100);
	/* One node never needs a fabric. */
	f.multi_node = false;
	f.count = 8;
	typed_offer(&o, "lambda", "gpu_8x_h100_sxm5", "H100", 8);
	matches(&f, &o, 1);
}

/*
 * Issue 46: --train leaves out a plan whose GPUs cannot hold the run's
 * training state; without --count, an offer's plan is the fewest of its
 * nodes that can.
 */
static void
test_match_train_memory(void **state)
{
	struct offer_filter f;
	struct offer o;

	(void)state;
	offer_filter_init(&f);
	assert_int_equal(train_parse("70B:1T", &f.train, NULL), 0);
	/* 1,344 GB: two RTX 4090 hold 48. */
	f.gpus[0] = model("RTX4090");
	f.ngpus = 1;
	f.count = 2;
	typed_offer(&o, "runpod", "RTX4090x2", "RTX4090", 2);
	o.vram_gb = 24;
	no_match(&f, &o);
	train_init(&f.train);
	matches(&f, &o, 1);
	/* 7B (134.4 GB) on 8 x A100-80: one node. */
	offer_filter_init(&f);
	assert_int_equal(train_parse("7B:2T", &f.train, NULL), 0);
	f.count = 8;
	typed_offer(&o, "aws", "p4de.24xlarge", "A100-80", 8);
	matches(&f, &o, 1);
	f.count = 1;
	typed_offer(&o, "aws", "p5.4xlarge", "H100", 1);
	no_match(&f, &o);
	/* The catalogue's VRAM where the offer has none. */
	f.count = 2;
	f.multi_node = true;
	o.vram_gb = 0;
	f.fabrics = FABRIC_ANY;
	matches(&f, &o, 2);
	/* Without --count: the fewest nodes that hold it... */
	offer_filter_init(&f);
	assert_int_equal(train_parse("70B:1T", &f.train, NULL), 0);
	typed_offer(&o, "aws", "p4de.24xlarge", "A100-80", 8);
	matches(&f, &o, 3);			/* 3 x 640 GB */
	typed_offer(&o, "aws", "p5.48xlarge", "H100", 8);
	matches(&f, &o, 3);
	assert_int_equal(train_parse("7B:2T", &f.train, NULL), 0);
	matches(&f, &o, 1);
	/* ...where nodes may be assembled: not one-GPU nodes by default,
	 * nor an unknown fabric, nor one marketplace machine. */
	typed_offer(&o, "aws", "p5.4xlarge", "H100", 1);
	no_match(&f, &o);
	f.fabrics = FABRIC_ANY;
	matches(&f, &o, 2);
	f.fabrics = 0;
	typed_offer(&o, "lambda", "gpu_1x_h100_sxm5", "H100", 1);
	no_match(&f, &o);
	typed_offer(&o, "vast", "H100_SXM", "H100", 1);
	o.notes = NOTE_BIT(NOTE_SINGLE_LISTING);
	f.fabrics = FABRIC_ANY;
	no_match(&f, &o);
	/* Unknown memory never holds it. */
	typed_offer(&o, "aws", "p5.48xlarge", "", 8);
	o.vram_gb = 0;
	no_match(&f, &o);
}

/* --fabric and --min-node-gbps test every offer, single nodes too. */
static void
test_match_fabric_filters(void **state)
{
	struct offer_filter f;
	struct offer o;

	(void)state;
	offer_filter_init(&f);
	f.fabrics = FABRIC_BIT(FABRIC_EFA);
	typed_offer(&o, "aws", "p5.48xlarge", "H100", 8);
	matches(&f, &o, 1);
	typed_offer(&o, "azure", "Standard_ND96isr_H100_v5", "H100", 8);
	no_match(&f, &o);
	f.fabrics = FABRIC_RDMA;
	matches(&f, &o, 1);
	typed_offer(&o, "aws", "g4dn.12xlarge", "T4", 4);	/* unknown */
	no_match(&f, &o);
	f.fabrics = FABRIC_ANY;
	matches(&f, &o, 1);
	f.fabrics = 0;
	f.min_node_gbps = 1600;
	no_match(&f, &o);		/* unknown is not 1600 */
	typed_offer(&o, "aws", "p4d.24xlarge", "A100-40", 8);
	no_match(&f, &o);		/* 400 */
	typed_offer(&o, "aws", "p5.48xlarge", "H100", 8);
	matches(&f, &o, 1);		/* 3200 */
	f.min_node_gbps = 3201;
	no_match(&f, &o);
}

/* --nodes N: exactly N nodes, with or without --count. */
static void
test_match_nodes(void **state)
{
	struct offer_filter f;
	struct offer o;

	(void)state;
	offer_filter_init(&f);
	f.nodes = 2;
	f.count = 16;
	typed_offer(&o, "aws", "p5.48xlarge", "H100", 8);
	matches(&f, &o, 2);
	typed_offer(&o, "aws", "p4d.24xlarge", "A100-40", 8);
	matches(&f, &o, 2);
	f.min_node_gbps = 1600;
	no_match(&f, &o);
	f.min_node_gbps = 0;
	/* 2 nodes of 4 are 8 GPUs, not 16. */
	typed_offer(&o, "gcp", "a3-highgpu-4g", "H100", 4);
	no_match(&f, &o);
	f.count = 0;
	typed_offer(&o, "aws", "p5.48xlarge", "H100", 8);
	matches(&f, &o, 2);
	f.nodes = 1;
	matches(&f, &o, 1);
	f.count = 16;
	no_match(&f, &o);
}

/* A cluster product's nodes are its own; it shows when nodes are asked. */
static void
test_match_cluster_product(void **state)
{
	struct offer_filter f;
	struct offer o;
	struct plan p;

	(void)state;
	offer_filter_init(&f);
	typed_offer(&o, "runpod-clusters", "Instant Cluster 8x H100 SXM",
	    "H100", 8);
	o.nodes = 2;
	assert_non_null(o.fabric);
	f.count = 16;
	no_match(&f, &o);		/* not without --multi-node */
	f.multi_node = true;
	matches(&f, &o, 2);
	cost_plan(&p, &o, 2);
	assert_string_equal(plan_type_name(&p), "cluster-product");
	assert_int_equal(p.price_hour, 2 * o.price);
	f.count = 24;
	no_match(&f, &o);		/* 2 x 8 is not 24 */
	f.count = 0;
	f.multi_node = false;
	f.nodes = 2;
	matches(&f, &o, 2);
	f.nodes = 3;
	no_match(&f, &o);
	f.nodes = 0;
	no_match(&f, &o);		/* a plain listing: one machines */
	/* RunPod does not name its fabric: not rdma; 3200 Gb/s stated. */
	f.multi_node = true;
	f.fabrics = FABRIC_RDMA;
	no_match(&f, &o);
	f.fabrics = FABRIC_ANY;
	f.min_node_gbps = 3200;
	matches(&f, &o, 2);
	/* Assembled and single plans say which they are. */
	typed_offer(&o, "aws", "p5.48xlarge", "H100", 8);
	cost_plan(&p, &o, 2);
	assert_string_equal(plan_type_name(&p), "multi-node");
	cost_plan(&p, &o, 1);
	assert_string_equal(plan_type_name(&p), "single-node");
}

/* --no-outliers skips offers noted price-outlier, and only those. */
static void
test_match_no_outliers(void **state)
{
	struct offer_filter f;
	struct offer o;

	(void)state;
	offer_filter_init(&f);
	make_offer(&o, "gcp", "a3-highgpu-8g/us-central1", "H100", 8,
	    43066152, MONEY_NONE);
	o.notes = NOTE_BIT(NOTE_PRICE_OUTLIER);
	matches(&f, &o, 1);
	f.no_outliers = true;
	no_match(&f, &o);
	o.notes = NOTE_BIT(NOTE_LOW_CONFIDENCE) | NOTE_BIT(NOTE_STALE);
	matches(&f, &o, 1);
}

static void
test_match_min_vram(void **state)
{
	struct offer_filter f;
	struct offer o[NFIX];

	(void)state;
	fixture(o);
	offer_filter_init(&f);
	f.min_vram_gb = 80;
	matches(&f, &o[0], 1);
	matches(&f, &o[2], 1);
	no_match(&f, &o[3]);	/* 40 GB */
	f.min_vram_gb = 40;
	matches(&f, &o[3], 1);
	f.min_vram_gb = 41;
	no_match(&f, &o[3]);
	f.min_vram_gb = 81;
	no_match(&f, &o[0]);
}

static void
test_match_interconnect(void **state)
{
	struct offer_filter f;
	struct offer o[NFIX];

	(void)state;
	fixture(o);
	offer_filter_init(&f);
	f.interconnect = IC_NVLINK;
	matches(&f, &o[0], 1);
	no_match(&f, &o[1]);
	no_match(&f, &o[4]);	/* unknown is not nvlink */
	f.interconnect = IC_PCIE;
	no_match(&f, &o[0]);
	matches(&f, &o[1], 1);
	matches(&f, &o[2], 1);
	no_match(&f, &o[4]);
}

static void
test_match_providers(void **state)
{
	struct offer_filter f;
	struct offer o[NFIX];

	(void)state;
	fixture(o);
	offer_filter_init(&f);
	str_copy(f.providers[f.nproviders++], OFFER_PROVIDER_MAX, "aws");
	matches(&f, &o[0], 1);
	no_match(&f, &o[3]);
	str_copy(f.providers[f.nproviders++], OFFER_PROVIDER_MAX, "gcp");
	matches(&f, &o[0], 1);
	matches(&f, &o[3], 1);
	no_match(&f, &o[1]);
	no_match(&f, &o[2]);
	no_match(&f, &o[4]);
}

static void
test_match_region(void **state)
{
	struct offer_filter f;
	struct offer o;

	(void)state;
	offer_filter_init(&f);
	make_offer(&o, "aws", "k", "H100", 8, 98320000, MONEY_NONE);
	/* Substring, case-insensitive. */
	str_copy(f.region, sizeof f.region, "east");
	matches(&f, &o, 1);
	str_copy(f.region, sizeof f.region, "US-EAST");
	matches(&f, &o, 1);
	str_copy(f.region, sizeof f.region, "west");
	no_match(&f, &o);
	/* Glob: whole name, case-insensitive. */
	str_copy(f.region, sizeof f.region, "us-*");
	matches(&f, &o, 1);
	str_copy(f.region, sizeof f.region, "US-*");
	matches(&f, &o, 1);
	str_copy(f.region, sizeof f.region, "eu-*");
	no_match(&f, &o);
	str_copy(f.region, sizeof f.region, "east*");	/* anchored */
	no_match(&f, &o);
	str_copy(f.region, sizeof f.region, "*east*");
	matches(&f, &o, 1);
	str_copy(f.region, sizeof f.region, "us-east-?");
	matches(&f, &o, 1);
	str_copy(f.region, sizeof f.region, "us-east-[23]");
	no_match(&f, &o);
	str_copy(f.region, sizeof f.region, "us-east-[12]");
	matches(&f, &o, 1);
	o.region = tstr("eu-west-1");
	str_copy(f.region, sizeof f.region, "us-*");
	no_match(&f, &o);
}


static void
test_match_region_geography(void **state)
{
	struct offer_filter f;
	struct offer o;

	(void)state;
	offer_filter_init(&f);
	make_offer(&o, "vast", "k", "H100", 8, 98320000, MONEY_NONE);
	o.region = tstr("Sweden, SE, EU");
	str_copy(f.region, sizeof f.region, "europe");
	matches(&f, &o, 1);
	str_copy(f.region, sizeof f.region, "se");
	matches(&f, &o, 1);
	str_copy(f.region, sizeof f.region, "us");
	no_match(&f, &o);
	make_offer(&o, "gcp", "k", "H100", 8, 98320000, MONEY_NONE);
	o.region = tstr("australia-southeast1");
	str_copy(f.region, sizeof f.region, "us");	/* not a substring */
	no_match(&f, &o);
	str_copy(f.region, sizeof f.region, "oceania");
	matches(&f, &o, 1);
	str_copy(f.region, sizeof f.region, "au");
	matches(&f, &o, 1);
}

static void
test_offer_form(void **state)
{
	struct offer_filter f;
	struct offer o;

	(void)state;
	make_offer(&o, "aws", "k", "H100", 8, 98320000, MONEY_NONE);
	set_names(&o, "p5.48xlarge", "us-east-1", "H100");
	assert_int_equal(offer_form(&o), GPU_FORM_SXM);	/* by NVLink */
	o.interconnect = IC_PCIE;
	assert_int_equal(offer_form(&o), GPU_FORM_PCIE);
	o.interconnect = IC_UNKNOWN;
	assert_int_equal(offer_form(&o), GPU_FORM_ANY);
	/* The provider's words win. */
	set_names(&o, "gpu_1x_h100_pcie", "us-east-1", "H100");
	o.interconnect = IC_NVLINK;
	assert_int_equal(offer_form(&o), GPU_FORM_PCIE);
	set_names(&o, "x", "us-east-1", "A100-SXM4-80GB");
	o.gpu = tstr("A100-80");
	o.interconnect = IC_UNKNOWN;
	assert_int_equal(offer_form(&o), GPU_FORM_SXM);
	/* Models made in one form only. */
	set_names(&o, "x", "us-east-1", "H200");
	o.gpu = tstr("H200");
	assert_int_equal(offer_form(&o), GPU_FORM_SXM);
	set_names(&o, "x", "us-east-1", "H100 NVL");
	o.gpu = tstr("H100-NVL");
	o.interconnect = IC_NVLINK;	/* a bridge: still a PCIe card */
	assert_int_equal(offer_form(&o), GPU_FORM_PCIE);
	set_names(&o, "x", "us-east-1", "L4");
	o.gpu = tstr("L4");
	assert_int_equal(offer_form(&o), GPU_FORM_PCIE);
	/* The filter. */
	offer_filter_init(&f);
	f.form = GPU_FORM_SXM;
	no_match(&f, &o);
	f.form = GPU_FORM_PCIE;
	matches(&f, &o, 1);
	o.gpu = tstr("GH200");
	set_names(&o, "x", "us-east-1", "GH200");
	o.interconnect = IC_UNKNOWN;
	no_match(&f, &o);		/* unknown form: never a match */
}

static void
test_host_per_gpu(void **state)
{
	struct offer_filter f;
	struct offer o;

	(void)state;
	make_offer(&o, "aws", "k", "H100", 8, 98320000, MONEY_NONE);
	assert_true(fabs(offer_vcpus_per_gpu(&o)) < 1e-9);
	assert_true(fabs(offer_ram_gb_per_gpu(&o)) < 1e-9);
	assert_false(offer_host_light(&o));	/* unknown is not light */
	o.vcpus = 192;
	o.ram_gb = 2048;
	assert_true(fabs(offer_vcpus_per_gpu(&o) - 24) < 1e-9);
	assert_true(fabs(offer_ram_gb_per_gpu(&o) - 256) < 1e-9);
	assert_false(offer_host_light(&o));
	o.vcpus = 12;		/* 1.5 per GPU */
	assert_true(offer_host_light(&o));
	o.vcpus = 16;		/* 2 per GPU: enough */
	assert_false(offer_host_light(&o));
	o.ram_gb = 60;		/* 7.5 GB per GPU */
	assert_true(offer_host_light(&o));
	o.ram_gb = 64;
	offer_filter_init(&f);
	f.min_vcpus_per_gpu = 2;
	matches(&f, &o, 1);
	f.min_vcpus_per_gpu = 3;
	no_match(&f, &o);
	f.min_vcpus_per_gpu = 0;
	f.min_ram_gb_per_gpu = 8;
	matches(&f, &o, 1);
	f.min_ram_gb_per_gpu = 9;
	no_match(&f, &o);
	o.ram_gb = 0;		/* unknown: not known to have it */
	no_match(&f, &o);
}

/*
 * Before a write (offers_vet()), a spot price with no spot command goes
 * (issue 48): Vultr's keeps its on-demand price only; a RunPod offer sold
 * only at such a price is no offer; AWS and a GCP spot-only type keep
 * theirs.
 */
static void
test_vet_spot(void **state)
{
	struct offer v[4];
	size_t n;

	(void)state;
	make_offer(&v[0], "vultr", "vbm/sea", "H100", 8, 23920000, 18400000);
	v[0].spot_zone = "sea-a";
	v[0].notes = NOTE_BIT(NOTE_SPOT_CHEAPEST_ZONE) |
	    NOTE_BIT(NOTE_LOW_CONFIDENCE);
	make_offer(&v[1], "runpod", "1x_H100_SECURE", "H100", 1, MONEY_NONE,
	    1990000);
	make_offer(&v[2], "aws", "p5/us-east-1", "H100", 8, 98320000,
	    40000000);
	make_offer(&v[3], "gcp", "a3-highgpu-2g/us-central1", "H100", 2,
	    MONEY_NONE, 8968400);
	v[3].notes = NOTE_BIT(NOTE_NOT_ON_DEMAND);
	n = offers_vet(v, 4);
	assert_int_equal(n, 3);
	assert_string_equal(v[0].provider, "vultr");
	assert_int_equal(v[0].price, 23920000);
	assert_false(money_known(v[0].spot_price));
	assert_string_equal(v[0].spot_zone, "");
	assert_int_equal(v[0].notes, NOTE_BIT(NOTE_LOW_CONFIDENCE));
	assert_string_equal(v[1].provider, "aws");
	assert_int_equal(v[1].spot_price, 40000000);
	assert_string_equal(v[2].provider, "gcp");
	assert_int_equal(v[2].spot_price, 8968400);
}

static void
test_fold_regions(void **state)
{
	struct offer o[6];
	struct plan p[6];
	size_t i, n;

	(void)state;
	for (i = 0; i < 6; i++)
		make_offer(&o[i], "lambda", "k", "H100", 8, 23920000,
		    MONEY_NONE);
	o[0].region = tstr("us-east-1");
	o[1].region = tstr("us-west-1");
	o[2].price = 25000000;				/* another price */
	o[3].region = tstr("europe-central-1");
	o[4].instance_type = tstr("other");
	make_offer(&o[5], "aws", "k", "H100", 8, 23920000, MONEY_NONE);
	for (i = 0; i < 6; i++)
		cost_plan(&p[i], &o[i], 1);
	n = query_fold_regions(p, 6);
	/* One row per instance type (issue 45), whatever its price. */
	assert_int_equal(n, 3);
	assert_ptr_equal(p[0].offer, &o[0]);
	assert_int_equal(p[0].other_regions, 3);	/* o[1], o[2], o[3] */
	assert_int_equal(p[0].fold_low, 23920000 / 8);
	assert_int_equal(p[0].fold_high, 25000000 / 8);
	assert_int_equal(p[0].fold_spot_low, MONEY_NONE);
	assert_ptr_equal(p[1].offer, &o[4]);
	assert_int_equal(p[1].other_regions, 0);
	assert_int_equal(p[1].fold_low, 23920000 / 8);
	assert_int_equal(p[1].fold_high, 23920000 / 8);
	assert_ptr_equal(p[2].offer, &o[5]);
	assert_int_equal(p[2].other_regions, 0);

	/* The first in the given order is the one kept. */
	for (i = 0; i < 6; i++)
		cost_plan(&p[i], &o[5 - i], 1);
	n = query_fold_regions(p, 6);
	assert_int_equal(n, 3);
	assert_ptr_equal(p[2].offer, &o[3]);
	assert_int_equal(p[2].other_regions, 3);
	assert_int_equal(query_fold_regions(p, 0), 0);

	/*
	 * Marketplace listings are machines: two of one type fold only
	 * when they are the same but for the region.
	 */
	for (i = 0; i < 3; i++) {
		make_offer(&o[i], "vast", "8x-H100", "H100", 8, 16000000,
		    MONEY_NONE);
		o[i].notes = NOTE_BIT(NOTE_SINGLE_LISTING);
	}
	o[0].region = tstr("US");
	o[1].region = tstr("DE");
	o[2].price = 17000000;
	for (i = 0; i < 3; i++)
		cost_plan(&p[i], &o[i], 1);
	n = query_fold_regions(p, 3);
	assert_int_equal(n, 2);
	assert_int_equal(p[0].other_regions, 1);	/* o[1] */
	assert_ptr_equal(p[1].offer, &o[2]);
	assert_int_equal(p[1].other_regions, 0);
}

static void
test_explain_empty(void **state)
{
	struct offer o[4];
	struct offer_filter f;
	char buf[512];
	size_t i;

	(void)state;
	for (i = 0; i < 4; i++) {
		make_offer(&o[i], "gcp", "k", "H100", 8, 23920000, 8000000);
		o[i].availability = AV_UNKNOWN;
		o[i].source = SRC_SNAPSHOT;
	}
	o[3].gpu_count = 1;
	o[3].price = 2000000;
	offer_filter_init(&f);
	f.gpus[0] = model("H100");
	f.ngpus = 1;
	f.count = 8;
	f.available = true;
	assert_true(query_explain_empty(o, 4, &f, buf, sizeof buf) > 0);
	assert_string_equal(buf, "3 offers match --gpu H100 --count 8; none "
	    "is known to be available: the snapshot has no availability, "
	    "run 'gpucost refresh'");
	/* Availability known somewhere: just none available now. */
	o[0].availability = AV_UNAVAILABLE;
	query_explain_empty(o, 4, &f, buf, sizeof buf);
	assert_non_null(strstr(buf, "none is available now"));
	f.available = false;
	f.count = 3;
	query_explain_empty(o, 4, &f, buf, sizeof buf);
	assert_string_equal(buf, "4 offers match --gpu H100; none has 3 GPUs "
	    "in one instance; counts offered: 1, 8 (--multi-node combines "
	    "instances)");
	f.count = 0;
	f.max_price_gpu_hour = 100000;
	query_explain_empty(o, 4, &f, buf, sizeof buf);
	assert_string_equal(buf, "4 offers match --gpu H100; none matches "
	    "--max-price 0.1; the cheapest is 2.0000 USD per GPU-hour: raise it");
	f.max_price_gpu_hour = MONEY_NONE;
	str_copy(f.region, sizeof f.region, "europe");
	query_explain_empty(o, 4, &f, buf, sizeof buf);
	assert_non_null(strstr(buf, "none matches --region 'europe'"));
	str_copy(f.region, sizeof f.region, "");
	/* Issue 26: these made-up types have no fabric. */
	f.count = 16;
	f.multi_node = true;
	query_explain_empty(o, 4, &f, buf, sizeof buf);
	assert_non_null(strstr(buf, "none gives 16 GPUs on nodes that can be "
	    "placed together on RDMA or TCPX/TCPXO"));
	assert_non_null(strstr(buf, "--fabric any lifts both"));
	f.count = 8;
	f.multi_node = false;
	f.fabrics = FABRIC_RDMA;
	query_explain_empty(o, 4, &f, buf, sizeof buf);
	assert_string_equal(buf, "3 offers match --gpu H100 --count 8; none is "
	    "known to have --fabric rdma: the fabric table (data/fabric.tsv) "
	    "does not name it for these types");
	f.fabrics = 0;
	f.count = 0;
	/* The first test already leaves nothing. */
	offer_filter_init(&f);
	f.gpus[0] = model("B200");
	f.ngpus = 1;
	query_explain_empty(o, 4, &f, buf, sizeof buf);
	assert_non_null(strstr(buf, "none of the 4 cached offers matches "
	    "--gpu B200"));
	/* --term: no offer has a committed price of that term. */
	offer_filter_init(&f);
	f.gpus[0] = model("H100");
	f.ngpus = 1;
	f.term = 12;
	query_explain_empty(o, 4, &f, buf, sizeof buf);
	/* Which providers can answer and which need a refresh (issue 44). */
	assert_string_equal(buf, "4 offers match --gpu H100; none has a "
	    "committed price of --term 1y; the cache has no committed price "
	    "of that term; aws, azure and gcp publish them: 'gpucost refresh "
	    "--provider aws,azure,gcp' fetches them");
	/* --term any: never "try another term". */
	f.term = TERM_ANY;
	query_explain_empty(o, 4, &f, buf, sizeof buf);
	assert_null(strstr(buf, "another term"));
	/* One has a 3-year price: the 3-year query matches it. */
	assert_int_equal(tcommitted_add(&o[0], CK_RESERVATION, 36, CU_NONE, 12000000, 0), 0);
	f.term = 36;
	assert_int_equal(query_explain_empty(o, 4, &f, buf, sizeof buf), 0);
	f.term = TERM_ANY;
	assert_int_equal(query_explain_empty(o, 4, &f, buf, sizeof buf), 0);
	/* Something matches: nothing to explain. */
	offer_filter_init(&f);
	assert_int_equal(query_explain_empty(o, 4, &f, buf, sizeof buf), 0);
	assert_true(query_explain_empty(o, 0, &f, buf, sizeof buf) > 0);
	assert_non_null(strstr(buf, "no offers"));
}

static void
test_match_available(void **state)
{
	struct offer_filter f;
	struct offer o;

	(void)state;
	offer_filter_init(&f);
	f.available = true;
	make_offer(&o, "aws", "k", "H100", 8, 98320000, MONEY_NONE);
	o.availability = AV_AVAILABLE;
	matches(&f, &o, 1);
	o.availability = AV_LIMITED;
	no_match(&f, &o);
	o.availability = AV_UNKNOWN;
	no_match(&f, &o);
	o.availability = AV_UNAVAILABLE;
	no_match(&f, &o);
	f.available = false;
	matches(&f, &o, 1);
}

static void
test_match_spot(void **state)
{
	struct offer_filter f;
	struct offer o[NFIX];

	(void)state;
	fixture(o);
	offer_filter_init(&f);
	f.spot = true;
	matches(&f, &o[0], 1);
	no_match(&f, &o[1]);	/* no spot price */
	matches(&f, &o[2], 1);
	matches(&f, &o[3], 1);	/* spot only */
	matches(&f, &o[4], 1);
}

static void
test_match_text(void **state)
{
	struct offer_filter f;
	struct offer o[NFIX];

	(void)state;
	fixture(o);
	offer_filter_init(&f);
	/* One word in one field. */
	str_copy(f.text, sizeof f.text, "h100");
	matches(&f, &o[0], 1);
	matches(&f, &o[1], 1);
	no_match(&f, &o[2]);
	/* Several words across fields: gpu + provider. */
	str_copy(f.text, sizeof f.text, "h100 aws");
	matches(&f, &o[0], 1);
	no_match(&f, &o[1]);
	/* Region + instance type. */
	str_copy(f.text, sizeof f.text, "EAST p5");
	matches(&f, &o[0], 1);
	no_match(&f, &o[1]);
	/* Raw GPU text counts. */
	str_copy(f.text, sizeof f.text, "hbm3");
	matches(&f, &o[0], 1);
	no_match(&f, &o[1]);
	str_copy(f.text, sizeof f.text, "mystery");
	matches(&f, &o[4], 1);
	/* Every word must match somewhere. */
	str_copy(f.text, sizeof f.text, "h100 gcp");
	no_match(&f, &o[0]);
	no_match(&f, &o[3]);
	/* Extra spaces are ignored; only spaces is no filter. */
	str_copy(f.text, sizeof f.text, "  vast   a100 ");
	matches(&f, &o[2], 1);
	no_match(&f, &o[3]);
	str_copy(f.text, sizeof f.text, "   ");
	matches(&f, &o[3], 1);
	/* ASCII case either way, at a field's start and end. */
	str_copy(f.text, sizeof f.text, "US-EAST-1 nVidIa P5.48XLARGE");
	matches(&f, &o[0], 1);
	/* A word running past a field's end, or longer than any field. */
	str_copy(f.text, sizeof f.text, "east-12");
	no_match(&f, &o[0]);
	str_copy(f.text, sizeof f.text, "p5.48xlarge-us-east-1-nvidia-h100");
	no_match(&f, &o[0]);
	/* Other bytes (UTF-8) compare as they are. */
	o[4].region = tstr("Zürich, CH");
	str_copy(f.text, sizeof f.text, "zürich");
	matches(&f, &o[4], 1);
	str_copy(f.text, sizeof f.text, "ZÜRICH");
	no_match(&f, &o[4]);
}

static void
test_match_all_fields_together(void **state)
{
	struct offer_filter f;
	struct offer o;

	(void)state;
	offer_filter_init(&f);
	f.gpus[f.ngpus++] = model("H100");
	f.count = 16;
	f.multi_node = true;
	f.min_vram_gb = 80;
	f.interconnect = IC_NVLINK;
	str_copy(f.providers[f.nproviders++], OFFER_PROVIDER_MAX, "aws");
	str_copy(f.region, sizeof f.region, "us-*");
	f.spot = true;
	f.available = true;
	str_copy(f.text, sizeof f.text, "p5");
	make_offer(&o, "aws", "k", "H100", 8, 98320000, 40000000);
	set_names(&o, "p5.48xlarge", "us-east-1", "H100");
	offer_set_fabric(&o);
	matches(&f, &o, 2);
	/* Each field on its own spoils the match. */
	o.vram_gb = 40;
	no_match(&f, &o);
	o.vram_gb = 80;
	o.interconnect = IC_PCIE;
	no_match(&f, &o);
	o.interconnect = IC_NVLINK;
	o.spot_price = MONEY_NONE;
	no_match(&f, &o);
	o.spot_price = 40000000;
	o.availability = AV_LIMITED;
	no_match(&f, &o);
	o.availability = AV_AVAILABLE;
	o.region = tstr("eu-west-1");
	no_match(&f, &o);
	o.region = tstr("us-east-1");
	o.instance_type = tstr("p4d.24xlarge");
	no_match(&f, &o);
	o.instance_type = tstr("p5.48xlarge");
	o.provider = tstr("gcp");
	no_match(&f, &o);
	o.provider = tstr("aws");
	o.gpu_count = 3;
	no_match(&f, &o);
	o.gpu_count = 8;
	o.gpu = tstr("A100-80");
	no_match(&f, &o);
	o.gpu = tstr("H100");
	matches(&f, &o, 2);
}

/* ------------------------------------------------------------------ */
/* plan_matches_price                                                   */
/* ------------------------------------------------------------------ */

static void
test_plan_matches_price(void **state)
{
	struct offer_filter f;
	struct offer o;
	struct plan p;

	(void)state;
	offer_filter_init(&f);
	make_offer(&o, "aws", "k", "H100", 8, 16000000, 8000000);
	cost_plan(&p, &o, 1);	/* $2.00 / GPU-h, spot $1.00 */
	/* No maximum: everything, even unknown prices. */
	assert_true(plan_matches_price(&f, &p));
	f.max_price_gpu_hour = 2000000;
	assert_true(plan_matches_price(&f, &p));
	f.max_price_gpu_hour = 1999999;
	assert_false(plan_matches_price(&f, &p));
	/* Per GPU-hour: more nodes do not change it. */
	cost_plan(&p, &o, 4);
	f.max_price_gpu_hour = 2000000;
	assert_true(plan_matches_price(&f, &p));
	/* Spot compares the spot price. */
	f.spot = true;
	f.max_price_gpu_hour = 1000000;
	assert_true(plan_matches_price(&f, &p));
	f.max_price_gpu_hour = 999999;
	assert_false(plan_matches_price(&f, &p));
	f.spot = false;
	f.max_price_gpu_hour = 1500000;
	assert_false(plan_matches_price(&f, &p));
}

static void
test_plan_matches_price_unknown(void **state)
{
	struct offer_filter f;
	struct offer o;
	struct plan p;

	(void)state;
	offer_filter_init(&f);
	/* Spot only: unknown on-demand price is excluded by a maximum. */
	make_offer(&o, "aws", "k", "H100", 8, MONEY_NONE, 8000000);
	cost_plan(&p, &o, 1);
	assert_true(plan_matches_price(&f, &p));
	f.max_price_gpu_hour = 100000000;
	assert_false(plan_matches_price(&f, &p));
	f.spot = true;
	assert_true(plan_matches_price(&f, &p));
	/* On-demand only, asked for spot. */
	make_offer(&o, "aws", "k", "H100", 8, 8000000, MONEY_NONE);
	cost_plan(&p, &o, 1);
	assert_false(plan_matches_price(&f, &p));
	f.spot = false;
	assert_true(plan_matches_price(&f, &p));
}

/* ------------------------------------------------------------------ */
/* Sorting                                                              */
/* ------------------------------------------------------------------ */

static void
test_sort_gpu_price(void **state)
{
	static const int fwd[NFIX] = { 4, 2, 1, 0, 3 };
	static const int rev[NFIX] = { 0, 1, 4, 2, 3 };
	struct offer o[NFIX];

	(void)state;
	fixture(o);
	/* o4 and o2 tie at $1.00 per GPU-h: provider decides. */
	sort_is(o, SORT_GPU_PRICE, false, fwd);
	sort_is(o, SORT_GPU_PRICE, true, rev);
}

static void
test_sort_price(void **state)
{
	static const int fwd[NFIX] = { 1, 2, 4, 0, 3 };
	static const int rev[NFIX] = { 0, 4, 2, 1, 3 };
	struct offer o[NFIX];

	(void)state;
	fixture(o);
	sort_is(o, SORT_PRICE, false, fwd);
	sort_is(o, SORT_PRICE, true, rev);
}

static void
test_sort_spot(void **state)
{
	static const int fwd[NFIX] = { 2, 3, 4, 0, 1 };
	static const int rev[NFIX] = { 0, 4, 3, 2, 1 };
	struct offer o[NFIX];

	(void)state;
	fixture(o);
	sort_is(o, SORT_SPOT, false, fwd);
	sort_is(o, SORT_SPOT, true, rev);
}

static void
test_sort_spot_gpu(void **state)
{
	/* o4 and o3 tie at $1.10: o4 has a known per-GPU price, o3 not. */
	static const int fwd[NFIX] = { 2, 4, 3, 0, 1 };
	static const int rev[NFIX] = { 0, 4, 3, 2, 1 };
	struct offer o[NFIX];

	(void)state;
	fixture(o);
	sort_is(o, SORT_SPOT_GPU, false, fwd);
	sort_is(o, SORT_SPOT_GPU, true, rev);
}

static void
test_sort_savings(void **state)
{
	/* Largest saving first; the negative one after; unknowns last. */
	static const int fwd[NFIX] = { 0, 2, 4, 1, 3 };
	static const int rev[NFIX] = { 4, 2, 0, 1, 3 };
	struct offer o[NFIX];

	(void)state;
	fixture(o);
	sort_is(o, SORT_SAVINGS, false, fwd);
	sort_is(o, SORT_SAVINGS, true, rev);
}

static void
test_sort_vram(void **state)
{
	static const int fwd[NFIX] = { 2, 1, 0, 3, 4 };
	struct offer o[NFIX];

	(void)state;
	fixture(o);
	/* Largest first; the three 80 GB offers by price per GPU-h. */
	sort_is(o, SORT_VRAM, false, fwd);
}

static void
test_sort_vram_unknown_last_reversed(void **state)
{
	/* o4's VRAM is unknown (0): last in both directions. */
	static const int rev[NFIX] = { 3, 2, 1, 0, 4 };
	struct offer o[NFIX];

	(void)state;
	fixture(o);
	sort_is(o, SORT_VRAM, true, rev);
}

static void
test_sort_pflop(void **state)
{
	static const int fwd[NFIX] = { 1, 2, 0, 4, 3 };
	static const int rev[NFIX] = { 0, 2, 1, 4, 3 };
	struct offer o[NFIX];
	struct plan p[NFIX];

	(void)state;
	fixture(o);
	fixture_plans(o, p);
	/* The fixture's order holds for any plausible catalogue figures. */
	assert_true(p[1].usd_per_pflop_hour < p[2].usd_per_pflop_hour);
	assert_true(p[2].usd_per_pflop_hour < p[0].usd_per_pflop_hour);
	assert_true(isnan(p[3].usd_per_pflop_hour));
	assert_true(isnan(p[4].usd_per_pflop_hour));
	sort_is(o, SORT_PFLOP, false, fwd);
	sort_is(o, SORT_PFLOP, true, rev);
}

static void
test_sort_names(void **state)
{
	static const int prov_fwd[NFIX] = { 0, 3, 1, 4, 2 };
	static const int prov_rev[NFIX] = { 2, 4, 1, 3, 0 };
	static const int inst_fwd[NFIX] = { 3, 1, 0, 4, 2 };
	static const int inst_rev[NFIX] = { 2, 4, 0, 1, 3 };
	/* o4 has no region: last both ways. */
	static const int reg_fwd[NFIX] = { 2, 3, 0, 1, 4 };
	static const int reg_rev[NFIX] = { 1, 0, 3, 2, 4 };
	struct offer o[NFIX];

	(void)state;
	fixture(o);
	sort_is(o, SORT_PROVIDER, false, prov_fwd);
	sort_is(o, SORT_PROVIDER, true, prov_rev);
	sort_is(o, SORT_INSTANCE, false, inst_fwd);
	sort_is(o, SORT_INSTANCE, true, inst_rev);
	sort_is(o, SORT_REGION, false, reg_fwd);
	sort_is(o, SORT_REGION, true, reg_rev);
}

static void
test_sort_gpu(void **state)
{
	/*
	 * Canonical ids A-Z, the unknown GPU by its raw name; the two H100
	 * by their counts as numbers, 1x before 8x (issue 45).
	 */
	static const int fwd[NFIX] = { 3, 2, 1, 0, 4 };
	struct offer o[NFIX];
	struct plan p[NFIX];
	size_t i, pos[NFIX];

	(void)state;
	fixture(o);
	sort_is(o, SORT_GPU, false, fwd);
	/* Reversed: the known ids Z-A, the H100 counts 8x before 1x. */
	fixture_plans(o, p);
	plan_sort(p, NFIX, SORT_GPU, true);
	for (i = 0; i < NFIX; i++)
		pos[p[i].offer - o] = i;
	assert_true(pos[0] < pos[1]);
	assert_true(pos[1] < pos[2]);
	assert_true(pos[2] < pos[3]);
}

static void
test_sort_count(void **state)
{
	static const int fwd[NFIX] = { 0, 4, 2, 1, 3 };
	static const int rev[NFIX] = { 1, 3, 2, 4, 0 };
	struct offer o[NFIX];

	(void)state;
	fixture(o);
	sort_is(o, SORT_COUNT, false, fwd);
	sort_is(o, SORT_COUNT, true, rev);
}

static void
test_sort_count_uses_total_gpus(void **state)
{
	struct offer o[3];
	struct plan p[3];

	(void)state;
	make_offer(&o[0], "aws", "a", "H100", 8, 98320000, MONEY_NONE);
	make_offer(&o[1], "lambda", "l", "H100", 1, 2490000, MONEY_NONE);
	make_offer(&o[2], "vast", "v", "H100", 2, 4000000, MONEY_NONE);
	cost_plan(&p[0], &o[0], 1);	/* 8 GPUs */
	cost_plan(&p[1], &o[1], 16);	/* 16 GPUs */
	cost_plan(&p[2], &o[2], 1);	/* 2 GPUs */
	plan_sort(p, 3, SORT_COUNT, false);
	assert_ptr_equal(p[0].offer, &o[1]);
	assert_ptr_equal(p[1].offer, &o[0]);
	assert_ptr_equal(p[2].offer, &o[2]);
	/* 8 x 1 GPU ties with 1 x 8 GPUs: cheaper per GPU-h first. */
	cost_plan(&p[0], &o[0], 1);
	cost_plan(&p[1], &o[1], 8);
	cost_plan(&p[2], &o[2], 1);
	plan_sort(p, 3, SORT_COUNT, false);
	assert_ptr_equal(p[0].offer, &o[1]);
	assert_ptr_equal(p[1].offer, &o[0]);
	assert_ptr_equal(p[2].offer, &o[2]);
}

static void
test_sort_interconnect(void **state)
{
	/* nvlink, pcie, unknown; ties by price per GPU-h. */
	static const int fwd[NFIX] = { 0, 3, 2, 1, 4 };
	struct offer o[NFIX];

	(void)state;
	fixture(o);
	sort_is(o, SORT_INTERCONNECT, false, fwd);
}

static void
test_sort_interconnect_unknown_last_reversed(void **state)
{
	/* pcie, nvlink, then the unknown interconnect still last. */
	static const int rev[NFIX] = { 2, 1, 0, 3, 4 };
	struct offer o[NFIX];

	(void)state;
	fixture(o);
	sort_is(o, SORT_INTERCONNECT, true, rev);
}

static void
test_sort_availability(void **state)
{
	/* available, limited, unavailable; ties by price per GPU-h. */
	static const int fwd[NFIX] = { 4, 0, 2, 1, 3 };
	static const int rev[NFIX] = { 3, 2, 1, 4, 0 };
	struct offer o[NFIX];

	(void)state;
	fixture(o);
	o[2].availability = AV_LIMITED;
	sort_is(o, SORT_AVAILABILITY, false, fwd);
	sort_is(o, SORT_AVAILABILITY, true, rev);
}

static void
test_sort_age(void **state)
{
	/* Newest first; o4 and o2 share a time and a per-GPU price. */
	static const int fwd[NFIX] = { 1, 4, 2, 0, 3 };
	static const int rev[NFIX] = { 3, 0, 4, 2, 1 };
	struct offer o[NFIX];

	(void)state;
	fixture(o);
	sort_is(o, SORT_AGE, false, fwd);
	sort_is(o, SORT_AGE, true, rev);
}

static void
test_sort_tie_break(void **state)
{
	struct offer o[4];
	struct plan p[4];
	size_t i;
	int rev;

	(void)state;
	/* Same instance price: per-GPU price, then provider, then key. */
	make_offer(&o[0], "vast", "b", "H100", 1, 8000000, MONEY_NONE);
	make_offer(&o[1], "vast", "a", "H100", 1, 8000000, MONEY_NONE);
	make_offer(&o[2], "aws", "z", "H100", 1, 8000000, MONEY_NONE);
	make_offer(&o[3], "runpod", "y", "H100", 8, 8000000, MONEY_NONE);
	for (rev = 0; rev <= 1; rev++) {
		for (i = 0; i < 4; i++)
			cost_plan(&p[i], &o[i], 1);
		plan_sort(p, 4, SORT_PRICE, rev != 0);
		assert_ptr_equal(p[0].offer, &o[3]);	/* $1/GPU-h */
		assert_ptr_equal(p[1].offer, &o[2]);	/* aws */
		assert_ptr_equal(p[2].offer, &o[1]);	/* vast, key a */
		assert_ptr_equal(p[3].offer, &o[0]);	/* vast, key b */
	}
}

/* Every permutation of the fixture sorts to the same order, for every key. */
static void
test_sort_deterministic(void **state)
{
	static const int perms[][NFIX] = {
		{ 0, 1, 2, 3, 4 }, { 4, 3, 2, 1, 0 }, { 2, 0, 4, 1, 3 },
		{ 3, 4, 0, 2, 1 }, { 1, 3, 0, 4, 2 }, { 4, 2, 3, 0, 1 },
	};
	struct offer o[NFIX];
	struct plan ref[NFIX], p[NFIX], all[NFIX];
	size_t i, j;
	int key, rev;

	(void)state;
	fixture(o);
	fixture_plans(o, all);
	for (key = 0; key < SORT_KEY_COUNT; key++)
		for (rev = 0; rev <= 1; rev++) {
			memcpy(ref, all, sizeof ref);
			plan_sort(ref, NFIX, (enum sort_key)key, rev != 0);
			for (j = 1; j < sizeof perms / sizeof perms[0]; j++) {
				for (i = 0; i < NFIX; i++)
					p[i] = all[perms[j][i]];
				plan_sort(p, NFIX, (enum sort_key)key, rev != 0);
				for (i = 0; i < NFIX; i++)
					if (p[i].offer != ref[i].offer)
						fail_msg("sort %s rev %d perm %zu "
						    "differs at %zu",
						    sort_key_name((enum sort_key)key),
						    rev, j, i);
			}
		}
}

static void
test_sort_small(void **state)
{
	struct offer o;
	struct plan p;

	(void)state;
	plan_sort(NULL, 0, SORT_PRICE, false);
	make_offer(&o, "aws", "k", "H100", 8, 98320000, MONEY_NONE);
	cost_plan(&p, &o, 1);
	plan_sort(&p, 1, SORT_PRICE, true);
	assert_ptr_equal(p.offer, &o);
	assert_int_equal(p.price_hour, 98320000);
}

static void
test_sort_many_unknown_last(void **state)
{
	struct offer o[40];
	struct plan p[40];
	size_t i;
	int rev;

	(void)state;
	/* Every third price unknown; sorted known ascending, unknowns after. */
	for (rev = 0; rev <= 1; rev++) {
		for (i = 0; i < 40; i++) {
			char key[16];

			key[0] = (char)('A' + i / 26);
			key[1] = (char)('a' + i % 26);
			key[2] = '\0';
			make_offer(&o[i], "aws", key, "H100", 1,
			    i % 3 == 0 ? MONEY_NONE :
			    (int64_t)((i * 7919) % 101 + 1) * 10000, MONEY_NONE);
			cost_plan(&p[i], &o[i], 1);
		}
		plan_sort(p, 40, SORT_GPU_PRICE, rev != 0);
		for (i = 0; i < 26; i++)
			assert_true(money_known(p[i].price_gpu_hour));
		for (i = 26; i < 40; i++)
			assert_false(money_known(p[i].price_gpu_hour));
		for (i = 1; i < 26; i++)
			if (rev)
				assert_true(p[i - 1].price_gpu_hour >=
				    p[i].price_gpu_hour);
			else
				assert_true(p[i - 1].price_gpu_hour <=
				    p[i].price_gpu_hour);
		/* Unknowns among themselves by key. */
		for (i = 27; i < 40; i++)
			assert_true(strcmp(p[i - 1].offer->key,
			    p[i].offer->key) < 0);
	}
}

static void
test_sort_key_names(void **state)
{
	enum sort_key k;
	int i;

	(void)state;
	assert_string_equal(sort_key_name(SORT_GPU_PRICE), "gpu-price");
	assert_string_equal(sort_key_name(SORT_PRICE), "price");
	assert_string_equal(sort_key_name(SORT_SPOT), "spot");
	assert_string_equal(sort_key_name(SORT_SPOT_GPU), "spot-gpu-price");
	assert_string_equal(sort_key_name(SORT_SAVINGS), "savings");
	assert_string_equal(sort_key_name(SORT_VRAM), "vram");
	assert_string_equal(sort_key_name(SORT_PFLOP), "pflop");
	assert_string_equal(sort_key_name(SORT_PROVIDER), "provider");
	assert_string_equal(sort_key_name(SORT_INSTANCE), "instance");
	assert_string_equal(sort_key_name(SORT_REGION), "region");
	assert_string_equal(sort_key_name(SORT_GPU), "gpu");
	assert_string_equal(sort_key_name(SORT_COUNT), "count");
	assert_string_equal(sort_key_name(SORT_INTERCONNECT), "interconnect");
	assert_string_equal(sort_key_name(SORT_AVAILABILITY), "availability");
	assert_string_equal(sort_key_name(SORT_AGE), "age");
	for (i = 0; i < SORT_KEY_COUNT; i++) {
		k = SORT_KEY_COUNT;
		assert_int_equal(sort_key_parse(sort_key_name((enum sort_key)i),
		    &k), 0);
		assert_int_equal(k, i);
	}
	assert_int_equal(sort_key_parse("GPU-Price", &k), 0);
	assert_int_equal(k, SORT_GPU_PRICE);
	k = SORT_AGE;
	assert_int_equal(sort_key_parse("cheapest", &k), -1);
	assert_int_equal(sort_key_parse("", &k), -1);
	assert_int_equal(sort_key_parse("gpu-", &k), -1);
	assert_int_equal(sort_key_parse("prices", &k), -1);
	assert_int_equal(k, SORT_AGE);
}

/* ------------------------------------------------------------------ */
/* query_plans                                                          */
/* ------------------------------------------------------------------ */

#define NQ 7

static void
query_offers(struct offer q[NQ])
{
	make_offer(&q[0], "aws", "q0", "H100", 8, 98320000, 40000000);
	make_offer(&q[1], "lambda", "q1", "H100", 1, 2490000, MONEY_NONE);
	q[1].interconnect = IC_PCIE;
	make_offer(&q[2], "vast", "q2", "A100-80", 2, 2000000, 1000000);
	make_offer(&q[3], "runpod", "q3", "H100", 3, 7500000, MONEY_NONE);
	make_offer(&q[4], "gcp", "q4", "H100", 16, 200000000, MONEY_NONE);
	make_offer(&q[5], "gcp", "q5", "A100-40", 8, 30000000, MONEY_NONE);
	q[5].vram_gb = 40;
	make_offer(&q[6], "vultr", "q6", "H100", 8, MONEY_NONE, 20000000);
}

static void
query_filter(struct offer_filter *f)
{
	offer_filter_init(f);
	f->gpus[f->ngpus++] = model("H100");
	f->gpus[f->ngpus++] = model("A100-80");
	f->count = 8;
	f->multi_node = true;
	/* These made-up types have no fabric: split them anyway. */
	f->fabrics = FABRIC_ANY;
}

static void
test_query_multi_node(void **state)
{
	struct offer q[NQ];
	struct offer_filter f;
	struct plan *p = NULL;
	size_t n = 99;

	(void)state;
	query_offers(q);
	query_filter(&f);
	query_plans(q, NQ, &f, SORT_GPU_PRICE, false, &p, &n);
	assert_non_null(p);
	assert_int_equal(n, 4);
	/* q2: 4 x 2 A100-80. */
	assert_ptr_equal(p[0].offer, &q[2]);
	assert_int_equal(p[0].nodes, 4);
	assert_int_equal(p[0].total_gpus, 8);
	assert_int_equal(p[0].price_hour, 8000000);
	assert_int_equal(p[0].price_gpu_hour, 1000000);
	assert_int_equal(p[0].spot_hour, 4000000);
	/* q1: 8 x 1 H100. */
	assert_ptr_equal(p[1].offer, &q[1]);
	assert_int_equal(p[1].nodes, 8);
	assert_int_equal(p[1].total_gpus, 8);
	assert_int_equal(p[1].price_hour, 19920000);
	assert_int_equal(p[1].price_gpu_hour, 2490000);
	/* q0: one 8 x H100 instance. */
	assert_ptr_equal(p[2].offer, &q[0]);
	assert_int_equal(p[2].nodes, 1);
	assert_int_equal(p[2].price_hour, 98320000);
	/* q6: spot only, unknown on-demand price last. */
	assert_ptr_equal(p[3].offer, &q[6]);
	assert_int_equal(p[3].nodes, 1);
	assert_int_equal(p[3].price_hour, MONEY_NONE);
	free(p);
	/* Reversed: known prices dearest first, unknown still last. */
	query_plans(q, NQ, &f, SORT_GPU_PRICE, true, &p, &n);
	assert_int_equal(n, 4);
	assert_ptr_equal(p[0].offer, &q[0]);
	assert_ptr_equal(p[1].offer, &q[1]);
	assert_ptr_equal(p[2].offer, &q[2]);
	assert_ptr_equal(p[3].offer, &q[6]);
	free(p);
}

/*
 * Issue 46: --train ranks across GPU types by the job's cost, each plan
 * with its job in the plans' block; a plan that cannot hold the run is
 * left out, and an answer emptied by that says it was memory.
 */
static void
test_query_train(void **state)
{
	struct offer q[3];
	struct offer_filter f;
	struct plan *p = NULL;
	size_t n = 99, i;
	char why[1024];

	(void)state;
	/* 8 x A100-80 at 16 USD an hour, 8 x H100 at 40: the H100 does
	 * the job in a third of the hours, so it costs less. */
	typed_offer(&q[0], "aws", "p4de.24xlarge", "A100-80", 8);
	q[0].price = 16000000;
	typed_offer(&q[1], "aws", "p5.48xlarge", "H100", 8);
	q[1].price = 40000000;
	q[1].key = tstr("p5.48xlarge/us-east-1");
	/* 8 x 24 GB: cannot hold 7B's 134 GB. */
	typed_offer(&q[2], "runpod", "8xRTX4090", "RTX4090", 8);
	q[2].vram_gb = 16;
	q[2].price = 3000000;
	offer_filter_init(&f);
	f.count = 8;
	assert_int_equal(train_parse("7B:2T", &f.train, NULL), 0);
	query_plans(q, 3, &f, SORT_JOB, false, &p, &n);
	assert_int_equal(n, 2);
	assert_ptr_equal(p[0].offer, &q[1]);
	assert_ptr_equal(p[1].offer, &q[0]);
	for (i = 0; i < n; i++) {
		assert_non_null(p[i].job);
		assert_int_equal(p[i].job->cost, cost_total(p[i].price_hour,
		    p[i].job->hours));
		assert_true(p[i].job->total <= p[n - 1].job->total);
	}
	/* By the hour the A100 ranks first. */
	free(p);
	query_plans(q, 3, &f, SORT_GPU_PRICE, false, &p, &n);
	assert_ptr_equal(p[0].offer, &q[0]);
	free(p);
	/* Only the RTX 4090: emptied by memory. */
	f.gpus[f.ngpus++] = model("RTX4090");
	query_plans(q, 3, &f, SORT_JOB, false, &p, &n);
	assert_int_equal(n, 0);
	free(p);
	assert_true(query_train_short(q, 3, &f));
	assert_true(query_explain_empty(q, 3, &f, why, sizeof why) > 0);
	assert_non_null(strstr(why, "--train 7B:2T"));
	assert_non_null(strstr(why, "134 GB"));
	assert_non_null(strstr(why, "holds 128 GB"));
	/* Emptied by something else: not a memory refusal. */
	f.gpus[0] = model("B200");
	assert_false(query_train_short(q, 3, &f));
	/* Without --train, no jobs. */
	offer_filter_init(&f);
	query_plans(q, 3, &f, SORT_GPU_PRICE, false, &p, &n);
	assert_int_equal(n, 3);
	assert_null(p[0].job);
	free(p);
}

static void
test_query_single_node(void **state)
{
	struct offer q[NQ];
	struct offer_filter f;
	struct plan *p = NULL;
	size_t n = 99;

	(void)state;
	query_offers(q);
	query_filter(&f);
	f.multi_node = false;
	query_plans(q, NQ, &f, SORT_PRICE, false, &p, &n);
	assert_int_equal(n, 2);
	assert_ptr_equal(p[0].offer, &q[0]);
	assert_int_equal(p[0].nodes, 1);
	assert_ptr_equal(p[1].offer, &q[6]);
	free(p);
	/* No filter at all: every offer, one node each, by instance price. */
	offer_filter_init(&f);
	query_plans(q, NQ, &f, SORT_PRICE, false, &p, &n);
	assert_int_equal(n, NQ);
	assert_ptr_equal(p[0].offer, &q[2]);
	assert_ptr_equal(p[1].offer, &q[1]);
	assert_ptr_equal(p[2].offer, &q[3]);
	assert_ptr_equal(p[3].offer, &q[5]);
	assert_ptr_equal(p[4].offer, &q[0]);
	assert_ptr_equal(p[5].offer, &q[4]);
	assert_ptr_equal(p[6].offer, &q[6]);
	free(p);
}

static void
test_query_max_price(void **state)
{
	struct offer q[NQ];
	struct offer_filter f;
	struct plan *p = NULL;
	size_t n = 99;

	(void)state;
	query_offers(q);
	query_filter(&f);
	f.max_price_gpu_hour = 2490000;
	query_plans(q, NQ, &f, SORT_PRICE, false, &p, &n);
	/* q0 ($12.29) too dear, q6 (unknown) excluded. */
	assert_int_equal(n, 2);
	assert_ptr_equal(p[0].offer, &q[2]);
	assert_ptr_equal(p[1].offer, &q[1]);
	free(p);
	f.max_price_gpu_hour = 2489999;
	query_plans(q, NQ, &f, SORT_PRICE, false, &p, &n);
	assert_int_equal(n, 1);
	assert_ptr_equal(p[0].offer, &q[2]);
	free(p);
}

static void
test_query_spot(void **state)
{
	struct offer q[NQ];
	struct offer_filter f;
	struct plan *p = NULL;
	size_t n = 99;

	(void)state;
	query_offers(q);
	query_filter(&f);
	f.spot = true;
	query_plans(q, NQ, &f, SORT_SPOT_GPU, false, &p, &n);
	/* q1 has no spot price. */
	assert_int_equal(n, 3);
	assert_ptr_equal(p[0].offer, &q[2]);	/* $0.50 */
	assert_int_equal(p[0].nodes, 4);
	assert_int_equal(p[0].spot_hour, 4000000);
	assert_ptr_equal(p[1].offer, &q[6]);	/* $2.50 */
	assert_ptr_equal(p[2].offer, &q[0]);	/* $5.00 */
	free(p);
	/* With a maximum, the spot price is the one compared. */
	f.max_price_gpu_hour = 2500000;
	query_plans(q, NQ, &f, SORT_SPOT_GPU, false, &p, &n);
	assert_int_equal(n, 2);
	assert_ptr_equal(p[0].offer, &q[2]);
	assert_ptr_equal(p[1].offer, &q[6]);
	free(p);
}

static void
test_query_nothing(void **state)
{
	struct offer q[NQ];
	struct offer_filter f;
	struct plan *p = NULL;
	size_t n = 99;

	(void)state;
	query_offers(q);
	offer_filter_init(&f);
	query_plans(q, 0, &f, SORT_PRICE, false, &p, &n);
	assert_int_equal(n, 0);
	free(p);
	p = NULL;
	n = 99;
	str_copy(f.providers[f.nproviders++], OFFER_PROVIDER_MAX, "azure");
	query_plans(q, NQ, &f, SORT_PRICE, false, &p, &n);
	assert_int_equal(n, 0);
	free(p);
}

/*
 * Issue 22, the rentable.h rules as filters: a marketplace listing a day
 * old is a market reference (only with include_stale; only it with
 * only_stale), a provider's own list price of any age stays an offer,
 * retired sizes never match, region "all" matches a --region where its
 * provider has a region (data/any_region.tsv), host
 * figures beyond any real machine become unknown.
 */
static void
test_rentable(void **state)
{
	struct offer_filter f;
	struct offer listing, old_list, ncv3, cudo, oci, big;
	const int64_t now = 1700000000 + 5 * 86400;
	int nodes;

	(void)state;
	make_offer(&listing, "vast", "123", "RTX4090", 1, 400000, MONEY_NONE);
	listing.notes = NOTE_BIT(NOTE_SINGLE_LISTING);
	listing.fetched_at = now - 86400 - 1;	/* just over a day */
	make_offer(&old_list, "aws", "p5.48xlarge/us-east-1", "H100", 8,
	    55040000, MONEY_NONE);
	old_list.fetched_at = now - 400 * 86400;	/* a year old */
	make_offer(&ncv3, "azure", "Standard_NC24s_v3/eastus", "V100-16", 4,
	    12240000, MONEY_NONE);
	set_names(&ncv3, "standard_nc24s_v3", "eastus", "V100");
	make_offer(&cudo, "cudo", "x/se-1/1", "A5000", 1, 500000, MONEY_NONE);
	make_offer(&oci, "oci", "BM.GPU.H100.8", "H100", 8, 80000000,
	    MONEY_NONE);
	set_names(&oci, "BM.GPU.H100.8", "all", "H100 SXM");

	offer_filter_init(&f);
	/* No time given: no age rule (a pure caller, the old behaviour). */
	assert_true(offer_matches(&f, &listing, &nodes));
	f.now = now;
	assert_false(offer_matches(&f, &listing, &nodes));
	assert_true(offer_matches(&f, &old_list, &nodes));
	listing.fetched_at = now - 3600;	/* an hour old: an offer */
	assert_true(offer_matches(&f, &listing, &nodes));
	listing.fetched_at = now - 2 * 86400;
	f.include_stale = true;
	assert_true(offer_matches(&f, &listing, &nodes));
	f.include_stale = false;
	f.only_stale = true;
	assert_true(offer_matches(&f, &listing, &nodes));
	assert_false(offer_matches(&f, &old_list, &nodes));
	f.only_stale = false;

	/* Retired: whatever else is asked. */
	assert_false(offer_matches(&f, &ncv3, &nodes));
	assert_false(offer_matches(&f, &cudo, &nodes));
	f.include_stale = true;
	assert_false(offer_matches(&f, &ncv3, &nodes));
	f.include_stale = false;

	/* Region all: where OCI has a region (Frankfurt, Tokyo). */
	str_copy(f.region, sizeof f.region, "europe");
	assert_true(offer_matches(&f, &oci, &nodes));
	str_copy(f.region, sizeof f.region, "jp");
	assert_true(offer_matches(&f, &oci, &nodes));
	assert_false(offer_matches(&f, &old_list, &nodes));
	/* ... and nowhere else: OCI has no region in Poland. */
	str_copy(f.region, sizeof f.region, "pl");
	assert_false(offer_matches(&f, &oci, &nodes));

	/* Host bounds: RunPod's 8 x RTX PRO 4500 at 6,016 GB. */
	make_offer(&big, "runpod", "8x_RTXPRO4500-SE_SECURE/US-1",
	    "RTXPRO4500", 8, 5000000, MONEY_NONE);
	big.vcpus = 128;
	big.ram_gb = 6016;
	assert_int_equal(offer_host_bounds(&big), 0);	/* 752 GB: real */
	big.ram_gb = 8 * 1024 + 1;
	big.vcpus = 8 * 256 + 1;
	assert_int_equal(offer_host_bounds(&big), 3);
	assert_int_equal(big.vcpus, 0);
	assert_false(big.ram_gb > 0);
	big.vcpus = 8 * 256;
	big.ram_gb = 8 * 1024;
	assert_int_equal(offer_host_bounds(&big), 0);

	/* A capacity-only offer with no price is valid when it says so. */
	old_list.price = MONEY_NONE;
	assert_int_equal(offer_check(&old_list, &(struct err){ 0 }), -1);
	old_list.notes |= NOTE_BIT(NOTE_NOT_ON_DEMAND);
	assert_int_equal(offer_check(&old_list, &(struct err){ 0 }), 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_offer_init_defaults),
		cmocka_unit_test(test_offer_list_add_pop),
		cmocka_unit_test(test_offer_list_growth),
		cmocka_unit_test(test_offer_text_limits),
		cmocka_unit_test(test_offer_text_ownership),
		cmocka_unit_test(test_interconnect_names),
		cmocka_unit_test(test_availability_names),
		cmocka_unit_test(test_source_and_interruption_names),
		cmocka_unit_test(test_check_accepts),
		cmocka_unit_test(test_check_rejects_names),
		cmocka_unit_test(test_check_rejects_gpu_count),
		cmocka_unit_test(test_check_rejects_vram),
		cmocka_unit_test(test_check_rejects_prices),
		cmocka_unit_test(test_check_rejects_no_price),
		cmocka_unit_test(test_match_empty_filter),
		cmocka_unit_test(test_match_gpus),
		cmocka_unit_test(test_match_count_exact),
		cmocka_unit_test(test_match_multi_node),
		cmocka_unit_test(test_match_multi_node_trust),
		cmocka_unit_test(test_match_fabric_rules),
		cmocka_unit_test(test_match_train_memory),
		cmocka_unit_test(test_match_fabric_filters),
		cmocka_unit_test(test_match_nodes),
		cmocka_unit_test(test_match_cluster_product),
		cmocka_unit_test(test_match_no_outliers),
		cmocka_unit_test(test_match_min_vram),
		cmocka_unit_test(test_match_interconnect),
		cmocka_unit_test(test_match_providers),
		cmocka_unit_test(test_match_region),
		cmocka_unit_test(test_match_available),
		cmocka_unit_test(test_match_spot),
		cmocka_unit_test(test_match_text),
		cmocka_unit_test(test_match_all_fields_together),
		cmocka_unit_test(test_plan_matches_price),
		cmocka_unit_test(test_plan_matches_price_unknown),
		cmocka_unit_test(test_sort_gpu_price),
		cmocka_unit_test(test_sort_price),
		cmocka_unit_test(test_sort_spot),
		cmocka_unit_test(test_sort_spot_gpu),
		cmocka_unit_test(test_sort_savings),
		cmocka_unit_test(test_sort_vram),
		cmocka_unit_test(test_sort_vram_unknown_last_reversed),
		cmocka_unit_test(test_sort_pflop),
		cmocka_unit_test(test_sort_names),
		cmocka_unit_test(test_sort_gpu),
		cmocka_unit_test(test_sort_count),
		cmocka_unit_test(test_sort_count_uses_total_gpus),
		cmocka_unit_test(test_sort_interconnect),
		cmocka_unit_test(test_sort_interconnect_unknown_last_reversed),
		cmocka_unit_test(test_sort_availability),
		cmocka_unit_test(test_sort_age),
		cmocka_unit_test(test_sort_tie_break),
		cmocka_unit_test(test_sort_deterministic),
		cmocka_unit_test(test_sort_small),
		cmocka_unit_test(test_sort_many_unknown_last),
		cmocka_unit_test(test_sort_key_names),
		cmocka_unit_test(test_query_multi_node),
		cmocka_unit_test(test_query_train),
		cmocka_unit_test(test_query_single_node),
		cmocka_unit_test(test_query_max_price),
		cmocka_unit_test(test_query_spot),
		cmocka_unit_test(test_query_nothing),
		cmocka_unit_test(test_match_region_geography),
		cmocka_unit_test(test_offer_form),
		cmocka_unit_test(test_host_per_gpu),
		cmocka_unit_test(test_vet_spot),
		cmocka_unit_test(test_fold_regions),
		cmocka_unit_test(test_explain_empty),
		cmocka_unit_test(test_rentable),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
