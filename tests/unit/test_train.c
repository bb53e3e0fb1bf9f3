/*
 * test_train.c: unit tests for train.c (--train: parsing, compute,
 * memory), the published training runs the model must come near, and
 * egress.c (--egress's prices, data/egress.tsv).
 */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "egress.h"
#include "err.h"
#include "gpu.h"
#include "money.h"
#include "train.h"

/* |got - want| <= tol, with a readable failure. */
static void
assert_near(double got, double want, double tol)
{
	if (!(fabs(got - want) <= tol))
		fail_msg("got %.6f, want %.6f (tolerance %g)", got, want, tol);
}

/* got within pct % of want. */
static void
assert_within_pct(double got, double want, double pct)
{
	if (!(fabs(got - want) <= want * pct / 100))
		fail_msg("got %.0f, want %.0f within %g %% (off by %.1f %%)",
		    got, want, pct, 100 * (got - want) / want);
}

static void
test_parse_counts(void **state)
{
	static const struct {
		const char	*text;
		double		 want;
	} ok[] = {
		{ "7B", 7e9 }, { "7b", 7e9 }, { "1.4T", 1.4e12 },
		{ "405M", 405e6 }, { "10k", 1e4 }, { "2T", 2e12 },
		{ "7000000000", 7e9 }, { ".5B", 5e8 }, { "1e9", 1e9 },
	};
	static const char *const bad[] = {
		"", "B", "-7B", "+7B", " 7B", "7B ", "7 B", "7BB", "7G", "0B",
		"0", "nanB", "infT", "0x10B", "7B:", "1.4.2T",
	};
	double v;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof ok / sizeof ok[0]; i++) {
		v = -1;
		if (train_parse_count(ok[i].text, &v) != 0)
			fail_msg("\"%s\" refused", ok[i].text);
		assert_near(v, ok[i].want, ok[i].want * 1e-12);
	}
	for (i = 0; i < sizeof bad / sizeof bad[0]; i++)
		if (train_parse_count(bad[i], &v) == 0)
			fail_msg("\"%s\" taken as %g", bad[i], v);
	/* A bare number is a count. */
	assert_int_equal(train_parse_count("7", &v), 0);
	assert_near(v, 7, 0);
}

static void
test_parse_train(void **state)
{
	static const char *const bad[] = {
		"7B", "7B:", ":2T", "7B:2T:1", "7B;2T", "seven:2T", "7B:2Q",
		"7B :2T", "", ":",
	};
	struct train t;
	struct err err;
	size_t i;

	(void)state;
	train_init(&t);
	assert_false(train_given(&t));
	assert_near(t.mfu, 0.40, 0);
	assert_int_equal(t.checkpoint_s, 1800);
	assert_int_equal(train_parse("7B:2T", &t, &err), 0);
	assert_true(train_given(&t));
	assert_near(t.params, 7e9, 0);
	assert_near(t.tokens, 2e12, 0);
	assert_int_equal(train_parse("70B:1.4T", &t, &err), 0);
	assert_near(t.tokens, 1.4e12, 1);
	assert_int_equal(train_parse("405M:10B", &t, &err), 0);
	assert_near(t.params, 405e6, 0);
	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		t.params = 1;
		err.msg[0] = '\0';
		if (train_parse(bad[i], &t, &err) == 0)
			fail_msg("\"%s\" taken", bad[i]);
		/* One line naming the option; t as it was. */
		assert_non_null(strstr(err.msg, "--train: expected "
		    "PARAMS:TOKENS"));
		assert_null(strchr(err.msg, '\n'));
		assert_near(t.params, 1, 0);
	}
	/* Out of range: named as such. */
	assert_int_equal(train_parse("1000T:2T", &t, &err), -1);
	assert_non_null(strstr(err.msg, "--train: parameters from 1K"));
	assert_int_equal(train_parse("7B:0.5K", &t, &err), -1);
	/* Control bytes never reach the message. */
	assert_int_equal(train_parse("7B:\x1b[2J", &t, &err), -1);
	assert_null(strchr(err.msg, '\x1b'));
}

static void
test_parse_mfu_and_size(void **state)
{
	struct err err;
	double v;

	(void)state;
	assert_int_equal(train_parse_mfu("0.55", &v, &err), 0);
	assert_near(v, 0.55, 0);
	assert_int_equal(train_parse_mfu("1", &v, &err), 0);
	assert_int_equal(train_parse_mfu("0", &v, &err), -1);
	assert_non_null(strstr(err.msg, "--mfu: expected a fraction"));
	assert_int_equal(train_parse_mfu("1.5", &v, &err), -1);
	assert_int_equal(train_parse_mfu("40%", &v, &err), -1);
	assert_int_equal(train_parse_mfu("-0.4", &v, &err), -1);

	assert_int_equal(train_parse_size("10TB", &v, &err), 0);
	assert_near(v, 10000, 0);
	assert_int_equal(train_parse_size("500gb", &v, &err), 0);
	assert_near(v, 500, 0);
	assert_int_equal(train_parse_size("2TiB", &v, &err), 0);
	assert_near(v, 2199.023255552, 1e-9);
	assert_int_equal(train_parse_size("1PB", &v, &err), 0);
	assert_near(v, 1e6, 0);
	assert_int_equal(train_parse_size("0", &v, &err), 0);
	assert_near(v, 0, 0);
	assert_int_equal(train_parse_size("250", &v, &err), 0);
	assert_near(v, 250, 0);
	assert_int_equal(train_parse_size("10XB", &v, &err), -1);
	assert_non_null(strstr(err.msg, "--egress: expected a size"));
	assert_int_equal(train_parse_size("-1TB", &v, &err), -1);
	assert_int_equal(train_parse_size("TB", &v, &err), -1);
	assert_int_equal(train_parse_size("2000PB", &v, &err), -1);
}

static void
test_count_text(void **state)
{
	struct train t;
	char buf[32];

	(void)state;
	train_count_text(7e9, buf, sizeof buf);
	assert_string_equal(buf, "7B");
	train_count_text(1.4e12, buf, sizeof buf);
	assert_string_equal(buf, "1.4T");
	train_count_text(405e6, buf, sizeof buf);
	assert_string_equal(buf, "405M");
	train_count_text(999, buf, sizeof buf);
	assert_string_equal(buf, "999");
	train_init(&t);
	assert_int_equal(train_parse("70b:1.4t", &t, NULL), 0);
	train_text(&t, buf, sizeof buf);
	assert_string_equal(buf, "70B:1.4T");
}

/* GPU-hours of params:tokens on the catalogue's gpu at MFU 0.40. */
static double
gpu_hours(const char *run, const char *gpu, int pcie)
{
	struct train t;

	train_init(&t);
	assert_int_equal(train_parse(run, &t, NULL), 0);
	return train_gpu_hours(&t, gpu_bf16_tflops(gpu_find(gpu), pcie));
}

static void
test_compute(void **state)
{
	struct train t;

	(void)state;
	train_init(&t);
	assert_int_equal(train_parse("7B:2T", &t, NULL), 0);
	/* 6 x 7e9 x 2e12 */
	assert_near(train_flops(&t), 8.4e22, 1e9);
	/* 8.4e22 / (312 TFLOPS x 0.40) / 3600: the 186,966. */
	assert_near(train_gpu_hours(&t, 312), 186965.8, 0.1);
	assert_near(gpu_hours("7B:2T", "A100-80", 0), 186965.8, 0.1);
	/* Half the MFU, twice the hours. */
	t.mfu = 0.20;
	assert_near(train_gpu_hours(&t, 312), 2 * 186965.8, 0.2);
	/* No BF16 peak: unknown, never 0 or infinite. */
	assert_true(isnan(train_gpu_hours(&t, 0)));
	/* H100 PCIe runs at its own, lower peak. */
	assert_true(gpu_hours("7B:2T", "H100", 1) >
	    gpu_hours("7B:2T", "H100", 0) * 1.3);
}

/*
 * Published runs. The model is 6PT at MFU 0.40 and nothing else, so it
 * misses what each run did besides (restarts, evaluation, long-context
 * stages); the tolerance says how far, per run.
 */
static void
test_known_runs(void **state)
{
	(void)state;
	/* Touvron et al. 2023, "Llama 2", table 2: A100-80GB GPU-hours. */
	assert_within_pct(gpu_hours("7B:2T", "A100-80", 0), 184320, 5);
	assert_within_pct(gpu_hours("13B:2T", "A100-80", 0), 368640, 10);
	assert_within_pct(gpu_hours("70B:2T", "A100-80", 0), 1720320, 10);
	/*
	 * Llama 3.1 405B: 30.84M H100-80GB GPU-hours (the model card) for
	 * 15.6T tokens (Dubey et al. 2024, "The Llama 3 Herd of Models",
	 * 3.8e25 FLOPs); the hours include the long-context and annealing
	 * stages and the failures the paper counts.
	 */
	assert_within_pct(gpu_hours("405B:15.6T", "H100", 0), 30.84e6, 15);
}

static void
test_memory(void **state)
{
	struct train t;

	(void)state;
	train_init(&t);
	assert_int_equal(train_parse("7B:2T", &t, NULL), 0);
	/* 16 bytes a parameter, 20 % headroom. */
	assert_near(train_memory_gb(&t), 134.4, 1e-9);
	assert_false(train_fits(&t, 80));
	assert_true(train_fits(&t, 160));
	assert_true(train_fits(&t, 134.4));
	/* Unknown memory never fits. */
	assert_false(train_fits(&t, 0));
	assert_int_equal(train_parse("70B:1T", &t, NULL), 0);
	assert_near(train_memory_gb(&t), 1344, 1e-9);
	assert_false(train_fits(&t, 2 * 24));
	assert_false(train_fits(&t, 8 * 80));
	assert_true(train_fits(&t, 2 * 8 * 80 + 64));
}

/* micro-USD of gb out of provider's region. */
static int64_t
egress(const char *provider, const char *region, double gb)
{
	return egress_cost(provider, region, gb);
}

static void
test_egress(void **state)
{
	const struct egress_tier *t;
	size_t n;

	(void)state;
	/* AWS: 100 GB free, then 0.09 to 10 TB, 0.085 to 50 TB ... */
	assert_int_equal(egress("aws", "us-east-1", 50), 0);
	assert_int_equal(egress("aws", "us-east-1", 100), 0);
	assert_int_equal(egress("aws", "us-east-1", 1100), 90 * MONEY_UNIT);
	assert_int_equal(egress("aws", "eu-west-1", 10000), 891 * MONEY_UNIT);
	assert_int_equal(egress("aws", "us-east-1", 20000),
	    (891 + 850) * MONEY_UNIT);
	assert_int_equal(egress("aws", "us-east-1", 200000),
	    (int64_t)(891 + 3400 + 7000 + 2500) * MONEY_UNIT);
	/* Nothing moved costs nothing, anywhere, even where unknown. */
	assert_int_equal(egress("aws", "us-east-1", 0), 0);
	assert_int_equal(egress("vast", "US", 0), 0);
	/* No egress fees. */
	assert_int_equal(egress("lambda", "us-east-1", 10000), 0);
	assert_int_equal(egress("runpod", "EU-RO-1", 10000), 0);
	assert_int_equal(egress("runpod-clusters", "US-TX-3", 10000), 0);
	/* Per host at Vast; no line: unknown, never free. */
	assert_int_equal(egress("vast", "US", 10000), MONEY_NONE);
	assert_int_equal(egress("linode", "us-east", 10000), MONEY_NONE);
	assert_int_equal(egress("nosuch", "x", 1), MONEY_NONE);
	/* GCP by region, in GiB: 10,000 GB = 9,313.2 GiB. */
	assert_int_equal(egress("gcp", "us-central1", 10000),
	    llround((1024 * 0.12 + (10000 / 1.073741824 - 1024) * 0.11) *
	    MONEY_UNIT));
	assert_true(egress("gcp", "australia-southeast1", 10000) >
	    egress("gcp", "europe-west4", 10000));
	assert_true(egress("gcp", "europe-west4", 10000) >
	    egress("gcp", "us-east1", 10000) - 1);
	/* Azure past 500 TB is not published. */
	assert_true(money_known(egress("azure", "eastus", 400000)));
	assert_int_equal(egress("azure", "eastus", 600000), MONEY_NONE);
	/* OCI: the first 10 TB free. */
	assert_int_equal(egress("oci", "all", 10000), 0);
	assert_int_equal(egress("oci", "all", 20000), 85 * MONEY_UNIT);
	assert_int_equal(egress("vultr", "ewr", 3000), 10 * MONEY_UNIT);
	/* Every group ends in a line without a bound, every line a source. */
	t = egress_find("aws", "us-east-1", &n);
	assert_non_null(t);
	assert_int_equal(n, 5);
	assert_true(t[n - 1].upto <= 0);
	for (n = 0; n < egress_tier_count; n++)
		assert_true(egress_tiers[n].source[0] != '\0');
	assert_null(egress_find("gcp", "mars-north1", &n));
	assert_int_equal(n, 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_counts),
		cmocka_unit_test(test_parse_train),
		cmocka_unit_test(test_parse_mfu_and_size),
		cmocka_unit_test(test_count_text),
		cmocka_unit_test(test_compute),
		cmocka_unit_test(test_known_runs),
		cmocka_unit_test(test_memory),
		cmocka_unit_test(test_egress),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
