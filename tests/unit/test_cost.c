/* test_cost.c: unit tests for cost.c (the cost model). */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "cost.h"
#include "gpu.h"
#include "money.h"
#include "offer.h"
#include "str.h"
#include "offer_text.h"

/* |a - b| <= tol, with a readable failure. */
static void
assert_near(double got, double want, double tol)
{
	if (!(fabs(got - want) <= tol))
		fail_msg("got %.9f, want %.9f (tolerance %g)", got, want, tol);
}

/* An offer of count GPUs of model gpu (catalogue id or "") at prices. */
static void
make_offer(struct offer *o, const char *gpu, int count, enum interconnect ic,
    int64_t price, int64_t spot)
{
	offer_init(o);
	o->provider = tstr("aws");
	o->key = tstr("p5.48xlarge/us-east-1");
	o->instance_type = tstr("p5.48xlarge");
	o->region = tstr("us-east-1");
	o->gpu = tstr(gpu);
	o->gpu_raw = tstr(gpu[0] != '\0' ? gpu : "Mystery X");
	o->gpu_count = count;
	o->vram_gb = 80;
	o->interconnect = ic;
	o->price = price;
	o->spot_price = spot;
}

/* The model for id, which the catalogue must have. */
static const struct gpu_model *
model(const char *id)
{
	const struct gpu_model *m = gpu_find(id);

	assert_non_null(m);
	assert_true(m->bf16_tflops > 0);
	return m;
}

static void
test_per_gpu_hour(void **state)
{
	(void)state;
	assert_int_equal(cost_per_gpu_hour(8000000, 8), 1000000);
	assert_int_equal(cost_per_gpu_hour(98320000, 8), 12290000);
	assert_int_equal(cost_per_gpu_hour(2490000, 1), 2490000);
	assert_int_equal(cost_per_gpu_hour(0, 4), 0);
	/* Rounded half up to the micro-USD. */
	assert_int_equal(cost_per_gpu_hour(10000000, 3), 3333333);
	assert_int_equal(cost_per_gpu_hour(20000000, 3), 6666667);
	assert_int_equal(cost_per_gpu_hour(5, 2), 3);
	assert_int_equal(cost_per_gpu_hour(7, 2), 4);
	assert_int_equal(cost_per_gpu_hour(9, 4), 2);
	assert_int_equal(cost_per_gpu_hour(10, 4), 3);
	assert_int_equal(cost_per_gpu_hour(32772600, 8), 4096575);
	assert_int_equal(cost_per_gpu_hour(40966400, 8), 5120800);
	assert_int_equal(cost_per_gpu_hour(1000000, 64), 15625);
	assert_int_equal(cost_per_gpu_hour(1000001, 64), 15625);
	assert_int_equal(cost_per_gpu_hour(1000032, 64), 15626);
}

static void
test_per_gpu_hour_unknown(void **state)
{
	(void)state;
	assert_int_equal(cost_per_gpu_hour(MONEY_NONE, 8), MONEY_NONE);
	assert_int_equal(cost_per_gpu_hour(MONEY_NONE, 1), MONEY_NONE);
	assert_int_equal(cost_per_gpu_hour(8000000, 0), MONEY_NONE);
	assert_int_equal(cost_per_gpu_hour(8000000, -2), MONEY_NONE);
	assert_int_equal(cost_per_gpu_hour(MONEY_NONE, 0), MONEY_NONE);
}

static void
test_spot_savings(void **state)
{
	(void)state;
	assert_near(cost_spot_savings_pct(10000000, 3000000), 70.0, 1e-9);
	assert_near(cost_spot_savings_pct(4000000, 1000000), 75.0, 1e-9);
	assert_near(cost_spot_savings_pct(2000000, 1000000), 50.0, 1e-9);
	assert_near(cost_spot_savings_pct(3000000, 3000000), 0.0, 1e-9);
	assert_near(cost_spot_savings_pct(3000000, 0), 100.0, 1e-9);
	assert_near(cost_spot_savings_pct(98320000, 39330000),
	    100.0 * (1.0 - 39.33 / 98.32), 1e-9);
	assert_near(cost_spot_savings_pct(3000000, 1000000), 200.0 / 3.0, 1e-9);
}

static void
test_spot_savings_negative(void **state)
{
	(void)state;
	/* Spot dearer than on-demand: reported as it is. */
	assert_near(cost_spot_savings_pct(2000000, 2500000), -25.0, 1e-9);
	assert_near(cost_spot_savings_pct(1000000, 3000000), -200.0, 1e-9);
	assert_near(cost_spot_savings_pct(4000000, 4400000), -10.0, 1e-9);
}

static void
test_spot_savings_nan(void **state)
{
	(void)state;
	assert_true(isnan(cost_spot_savings_pct(MONEY_NONE, 1000000)));
	assert_true(isnan(cost_spot_savings_pct(1000000, MONEY_NONE)));
	assert_true(isnan(cost_spot_savings_pct(MONEY_NONE, MONEY_NONE)));
	assert_true(isnan(cost_spot_savings_pct(0, 1000000)));
	assert_true(isnan(cost_spot_savings_pct(0, 0)));
}

static void
test_usd_per_pflop_hour(void **state)
{
	(void)state;
	/* $2.00 per GPU-hour at 989.4 TFLOPS: 2 / 0.9894 USD. */
	assert_near(cost_usd_per_pflop_hour(2000000, 989.4), 2.0 / 0.9894,
	    1e-9);
	assert_near(cost_usd_per_pflop_hour(2000000, 989.4), 2.021427127,
	    1e-8);
	assert_near(cost_usd_per_pflop_hour(1000000, 1000.0), 1.0, 1e-12);
	assert_near(cost_usd_per_pflop_hour(1000000, 312.0), 1000.0 / 312.0,
	    1e-9);
	assert_near(cost_usd_per_pflop_hour(3120000, 312.0), 10.0, 1e-9);
	assert_near(cost_usd_per_pflop_hour(0, 312.0), 0.0, 1e-12);
}

static void
test_usd_per_pflop_hour_unknown(void **state)
{
	(void)state;
	assert_true(isnan(cost_usd_per_pflop_hour(MONEY_NONE, 989.4)));
	assert_true(isnan(cost_usd_per_pflop_hour(2000000, 0.0)));
	assert_true(isnan(cost_usd_per_pflop_hour(2000000, -1.0)));
	assert_true(isnan(cost_usd_per_pflop_hour(2000000, NAN)));
}

static void
test_total(void **state)
{
	(void)state;
	assert_int_equal(cost_total(2000000, 10), 20000000);
	assert_int_equal(cost_total(1500000, 0.5), 750000);
	assert_int_equal(cost_total(98320000, 24), 2359680000LL);
	assert_int_equal(cost_total(2000000, 0), 0);
	assert_int_equal(cost_total(3, 0.5), 2);
	assert_int_equal(cost_total(1, 0.25), 0);
	assert_int_equal(cost_total(MONEY_NONE, 10), MONEY_NONE);
	assert_int_equal(cost_total(2000000, -1), MONEY_NONE);
	assert_int_equal(cost_total(2000000, NAN), MONEY_NONE);
}

static void
test_plan_one_node(void **state)
{
	const struct gpu_model *m = model("H100");
	struct offer o;
	struct plan p;

	(void)state;
	make_offer(&o, "H100", 8, IC_NVLINK, 98320000, 39330000);
	memset(&p, 0xa5, sizeof p);
	cost_plan(&p, &o, 1);
	assert_ptr_equal(p.offer, &o);
	assert_ptr_equal(p.model, m);
	assert_int_equal(p.nodes, 1);
	assert_int_equal(p.total_gpus, 8);
	assert_int_equal(p.price_hour, 98320000);
	assert_int_equal(p.price_gpu_hour, 12290000);
	assert_int_equal(p.spot_hour, 39330000);
	assert_int_equal(p.spot_gpu_hour, 4916250);
	assert_near(p.spot_savings_pct, 100.0 * (1.0 - 39.33 / 98.32), 1e-9);
	assert_near(p.usd_per_pflop_hour, 12.29 / (m->bf16_tflops / 1000.0),
	    1e-9);
}

static void
test_plan_k_nodes(void **state)
{
	const struct gpu_model *m = model("H100");
	struct offer o;
	struct plan p1, p;
	int k;

	(void)state;
	make_offer(&o, "H100", 8, IC_NVLINK, 98320000, 39330000);
	cost_plan(&p1, &o, 1);
	for (k = 2; k <= 8; k++) {
		cost_plan(&p, &o, k);
		assert_ptr_equal(p.offer, &o);
		assert_ptr_equal(p.model, m);
		assert_int_equal(p.nodes, k);
		assert_int_equal(p.total_gpus, 8 * k);
		assert_int_equal(p.price_hour, (int64_t)k * 98320000);
		assert_int_equal(p.spot_hour, (int64_t)k * 39330000);
		/* Per-GPU figures do not change with the number of nodes. */
		assert_int_equal(p.price_gpu_hour, 12290000);
		assert_int_equal(p.spot_gpu_hour, 4916250);
		assert_near(p.spot_savings_pct, p1.spot_savings_pct, 1e-12);
		assert_near(p.usd_per_pflop_hour, p1.usd_per_pflop_hour, 1e-12);
	}
	/* An odd per-GPU price stays rounded the same way on k nodes. */
	make_offer(&o, "A100-80", 3, IC_PCIE, 10000000, MONEY_NONE);
	cost_plan(&p, &o, 4);
	assert_int_equal(p.total_gpus, 12);
	assert_int_equal(p.price_hour, 40000000);
	assert_int_equal(p.price_gpu_hour, 3333333);
	assert_int_equal(p.spot_hour, MONEY_NONE);
	assert_int_equal(p.spot_gpu_hour, MONEY_NONE);
	assert_true(isnan(p.spot_savings_pct));
}

static void
test_plan_pcie_tflops(void **state)
{
	const struct gpu_model *m = model("H100");
	struct offer o;
	struct plan p;

	(void)state;
	/* The catalogue gives the H100 a separate PCIe figure. */
	assert_true(m->bf16_tflops_pcie > 0);
	assert_true(m->bf16_tflops_pcie < m->bf16_tflops);
	make_offer(&o, "H100", 1, IC_PCIE, 2490000, MONEY_NONE);
	cost_plan(&p, &o, 1);
	assert_ptr_equal(p.model, m);
	assert_int_equal(p.price_gpu_hour, 2490000);
	assert_near(p.usd_per_pflop_hour,
	    2.49 / (m->bf16_tflops_pcie / 1000.0), 1e-9);
	/* NVLink and unknown interconnects use the SXM figure. */
	o.interconnect = IC_NVLINK;
	cost_plan(&p, &o, 1);
	assert_near(p.usd_per_pflop_hour, 2.49 / (m->bf16_tflops / 1000.0),
	    1e-9);
	o.interconnect = IC_UNKNOWN;
	cost_plan(&p, &o, 1);
	assert_near(p.usd_per_pflop_hour, 2.49 / (m->bf16_tflops / 1000.0),
	    1e-9);
}

static void
test_plan_pcie_without_pcie_figure(void **state)
{
	const struct gpu_model *m = model("A100-80");
	struct offer o;
	struct plan p;

	(void)state;
	/*
	 * The A100 has one BF16 figure for both forms (312 dense): a PCIe
	 * offer gets the same figure, whether or not the catalogue repeats
	 * it in the PCIe field.
	 */
	assert_near(gpu_bf16_tflops(m, 1), m->bf16_tflops, 1e-9);
	make_offer(&o, "A100-80", 2, IC_PCIE, 4000000, MONEY_NONE);
	cost_plan(&p, &o, 1);
	assert_ptr_equal(p.model, m);
	assert_int_equal(p.price_gpu_hour, 2000000);
	assert_near(p.usd_per_pflop_hour, 2.0 / (m->bf16_tflops / 1000.0),
	    1e-9);
}

static void
test_plan_unknown_gpu(void **state)
{
	struct offer o;
	struct plan p;

	(void)state;
	make_offer(&o, "", 4, IC_UNKNOWN, 4000000, 1000000);
	cost_plan(&p, &o, 1);
	assert_null(p.model);
	assert_int_equal(p.total_gpus, 4);
	assert_int_equal(p.price_hour, 4000000);
	assert_int_equal(p.price_gpu_hour, 1000000);
	assert_int_equal(p.spot_gpu_hour, 250000);
	assert_near(p.spot_savings_pct, 75.0, 1e-9);
	assert_true(isnan(p.usd_per_pflop_hour));
	/* A canonical id the catalogue does not have: no model either. */
	make_offer(&o, "NOT-A-GPU", 1, IC_NVLINK, 1000000, MONEY_NONE);
	cost_plan(&p, &o, 1);
	assert_null(p.model);
	assert_true(isnan(p.usd_per_pflop_hour));
}

static void
test_plan_unknown_prices(void **state)
{
	struct offer o;
	struct plan p;

	(void)state;
	/* Spot only. */
	make_offer(&o, "H100", 8, IC_NVLINK, MONEY_NONE, 40000000);
	cost_plan(&p, &o, 2);
	assert_int_equal(p.price_hour, MONEY_NONE);
	assert_int_equal(p.price_gpu_hour, MONEY_NONE);
	assert_int_equal(p.spot_hour, 80000000);
	assert_int_equal(p.spot_gpu_hour, 5000000);
	assert_true(isnan(p.spot_savings_pct));
	assert_true(isnan(p.usd_per_pflop_hour));
	/* On-demand only. */
	make_offer(&o, "H100", 8, IC_NVLINK, 98320000, MONEY_NONE);
	cost_plan(&p, &o, 1);
	assert_int_equal(p.spot_hour, MONEY_NONE);
	assert_int_equal(p.spot_gpu_hour, MONEY_NONE);
	assert_true(isnan(p.spot_savings_pct));
	assert_false(isnan(p.usd_per_pflop_hour));
}

static void
test_plan_negative_saving(void **state)
{
	struct offer o;
	struct plan p;

	(void)state;
	make_offer(&o, "A100-80", 1, IC_NVLINK, 2000000, 2500000);
	cost_plan(&p, &o, 3);
	assert_near(p.spot_savings_pct, -25.0, 1e-9);
	assert_int_equal(p.spot_hour, 7500000);
	assert_int_equal(p.price_hour, 6000000);
}

/* What joins the nodes: data/fabric.tsv's kind, else the network. */
static void
test_inter_node(void **state)
{
	struct offer o;
	struct plan p;

	(void)state;
	make_offer(&o, "H100", 8, IC_NVLINK, 98320000, MONEY_NONE);
	o.provider = tstr("aws");
	o.instance_type = tstr("p5.48xlarge");
	offer_set_fabric(&o);
	cost_plan(&p, &o, 1);
	assert_null(cost_inter_node(&p));
	cost_plan(&p, &o, 2);
	assert_string_equal(cost_inter_node(&p), "efa");
	o.instance_type = tstr("g4dn.12xlarge");
	offer_set_fabric(&o);
	assert_string_equal(cost_inter_node(&p), "network");
	o.provider = tstr("azure");
	o.instance_type = tstr("Standard_ND96isr_H100_v5");
	offer_set_fabric(&o);
	assert_string_equal(cost_inter_node(&p), "infiniband");
	o.instance_type = tstr("Standard_NC96ads_A100_v4");
	offer_set_fabric(&o);
	assert_string_equal(cost_inter_node(&p), "ethernet");
	o.provider = tstr("gcp");
	o.instance_type = tstr("a3-megagpu-8g");
	offer_set_fabric(&o);
	assert_string_equal(cost_inter_node(&p), "tcpxo");
	/* The same name at another provider is not that fabric. */
	o.instance_type = tstr("p5.48xlarge");
	offer_set_fabric(&o);
	assert_string_equal(cost_inter_node(&p), "network");
}

/* The term arithmetic: hourly + upfront / (months x 730), terms whole. */
static void
test_committed_arithmetic(void **state)
{
	int months;

	(void)state;
	assert_int_equal(committed_term_hours(12), 8760);
	assert_int_equal(committed_term_hours(36), 26280);
	/* Azure: 612,000 for a year. */
	assert_int_equal(committed_effective(0, (int64_t)612000 * MONEY_UNIT,
	    12), 69863014);
	/* AWS c4.large 1yr Partial: 0.03 + 263 / 8,760 = 0.060023. */
	assert_int_equal(committed_effective(30000, 263 * MONEY_UNIT, 12),
	    60023);
	assert_int_equal(committed_effective(30000, 0, 12), 30000);
	assert_true(!money_known(committed_effective(MONEY_NONE, 0, 12)));
	assert_true(!money_known(committed_effective(30000, 0, 0)));
	/* A term is paid whole: 2,000 h of a year cost the year. */
	assert_int_equal(cost_term_total(1000000, 12, 2000), 8760000000LL);
	assert_int_equal(cost_term_total(1000000, 12, 0), 8760000000LL);
	/* 30,000 h on 3-year terms: two of them. */
	assert_int_equal(cost_term_total(1000000, 36, 30000),
	    2 * 26280000000LL);
	assert_int_equal(cost_term_total(1000000, 12, 8760), 8760000000LL);
	assert_int_equal(cost_term_total(1000000, 12, 8761),
	    2 * 8760000000LL);
	assert_true(!money_known(cost_term_total(MONEY_NONE, 12, 10)));
	/* --term values. */
	assert_int_equal(committed_term_parse("1y", &months), 0);
	assert_int_equal(months, 12);
	assert_int_equal(committed_term_parse("6m", &months), 0);
	assert_int_equal(months, 6);
	assert_int_equal(committed_term_parse("any", &months), 0);
	assert_int_equal(months, TERM_ANY);
	assert_int_equal(committed_term_parse("3y", &months), 0);
	assert_int_equal(months, 36);
	assert_int_equal(committed_term_parse("60m", &months), 0);
	/* Terms are 1y and 3y (issue 44): no 2y, no 5y. */
	assert_int_equal(committed_term_parse("2y", &months), -1);
	assert_int_equal(committed_term_parse("5y", &months), -1);
	assert_int_equal(committed_term_parse("61m", &months), -1);
	assert_int_equal(committed_term_parse("6y", &months), -1);
	assert_int_equal(committed_term_parse("1", &months), -1);
	assert_int_equal(committed_term_parse("y", &months), -1);
	assert_int_equal(committed_term_parse("-1y", &months), -1);
	assert_int_equal(committed_term_parse("1yy", &months), -1);
}

/* Keep the cheaper of a kind, term and upfront; best of a term; prune. */
static void
test_committed_entries(void **state)
{
	struct committed v[OFFER_COMMITTED_MAX];
	uint8_t n = 0;
	int i;

	(void)state;
	assert_int_equal(committed_add(v, &n, CK_RESERVATION, 12, CU_NONE,
	    15900000, 0), 0);
	/* The standard class's lower price replaces the convertible's. */
	assert_int_equal(committed_add(v, &n, CK_RESERVATION, 12, CU_NONE,
	    13740600, 0), 0);
	assert_int_equal(committed_add(v, &n, CK_RESERVATION, 12, CU_NONE,
	    14000000, 0), 0);
	assert_int_equal(n, 1);
	assert_int_equal(v[0].price_hour, 13740600);
	assert_int_equal(committed_add(v, &n, CK_SAVINGS_PLAN, 36, CU_NONE,
	    8000000, 0), 0);
	assert_int_equal(committed_add(v, &n, CK_RESERVATION, 12, CU_ALL,
	    12933790, 113300 * (int64_t)MONEY_UNIT), 0);
	assert_int_equal(n, 3);
	assert_int_equal(committed_best(v, n, 12)->price_hour, 12933790);
	assert_int_equal(committed_best(v, n, 36)->price_hour, 8000000);
	assert_int_equal(committed_best(v, n, TERM_ANY)->price_hour, 8000000);
	assert_null(committed_best(v, n, 6));
	assert_null(committed_best(v, n, TERM_NONE));
	/* Not a price: refused. */
	assert_int_equal(committed_add(v, &n, CK_RESERVATION, 12, CU_NONE, 0,
	    0), -1);
	assert_int_equal(committed_add(v, &n, CK_RESERVATION, 0, CU_NONE, 1,
	    0), -1);
	/* Full. */
	for (i = 0; n < OFFER_COMMITTED_MAX; i++)
		assert_int_equal(committed_add(v, &n, CK_COMMITMENT, i + 1,
		    CU_NONE, 1000000, 0), 0);
	assert_int_equal(committed_add(v, &n, CK_COMMITMENT, 59, CU_NONE,
	    1000000, 0), -1);
	/* Below a tenth of 21.9576 on-demand: the 1.00 commitments go. */
	assert_int_equal(committed_prune(v, &n, 21957600),
	    OFFER_COMMITTED_MAX - 3);
	assert_int_equal(n, 3);
	/* Sorted: reservations (by term, upfront), then the plan. */
	assert_int_equal(v[0].kind, CK_RESERVATION);
	assert_int_equal(v[0].upfront_kind, CU_NONE);
	assert_int_equal(v[1].upfront_kind, CU_ALL);
	assert_int_equal(v[2].kind, CK_SAVINGS_PLAN);
}

/* A plan's term price: all nodes, per GPU-hour, saving against on-demand. */
static void
test_plan_term(void **state)
{
	struct offer o;
	struct plan p;

	(void)state;
	offer_init(&o);
	o.gpu = tstr("A100-40");
	o.gpu_count = 8;
	o.price = 21957600;
	assert_int_equal(tcommitted_add(&o, CK_RESERVATION, 12, CU_ALL, 12933790,
	    113300 * (int64_t)MONEY_UNIT), 0);
	cost_plan(&p, &o, 2);
	assert_null(p.term);
	assert_true(!money_known(p.term_hour));
	cost_plan_term(&p, 12);
	assert_non_null(p.term);
	assert_int_equal(p.term_hour, 2 * 12933790);
	assert_int_equal(p.term_gpu_hour, 1616724);
	assert_true(fabs(p.term_savings_pct - 41.096) < 0.01);
	cost_plan_term(&p, 36);
	assert_null(p.term);
	assert_true(isnan(p.term_savings_pct));
}

/* A typed AWS-style offer with its fabric, for --train. */
static void
train_offer(struct offer *o, const char *provider, const char *type,
    const char *gpu, int count, int64_t price, int64_t spot)
{
	make_offer(o, gpu, count, IC_NVLINK, price, spot);
	o->provider = tstr(provider);
	o->instance_type = tstr(type);
	offer_set_fabric(o);
}

static void
train_of(struct train *t, const char *run)
{
	train_init(t);
	assert_int_equal(train_parse(run, t, NULL), 0);
}

/* Issue 46: the job on a plan, on demand and on spot. */
static void
test_train_job(void **state)
{
	struct plan_job job, job2;
	struct train t;
	struct offer o;
	struct plan p;
	double rate;

	(void)state;
	train_of(&t, "7B:2T");
	train_offer(&o, "aws", "p4de.24xlarge", "A100-80", 8, 40966400,
	    16000000);
	o.spot_interruption = 2;		/* 10-15 % */
	cost_plan(&p, &o, 1);
	assert_null(p.job);
	cost_plan_train(&p, &t, false, &job);
	assert_ptr_equal(p.job, &job);
	assert_near(job.gpu_hours, 186965.8, 0.1);
	assert_near(job.scaling, 1, 0);
	assert_near(job.hours, 186965.8 / 8, 0.02);
	/* The job's cost is its hours at the plan's price. */
	assert_int_equal(job.cost, cost_total(p.price_hour, job.hours));
	assert_int_equal(job.cost, money_for_hours(40966400, job.hours));
	assert_int_equal(job.per_btok, llround((double)job.cost / 2000));
	/* Spot: 12.5 % a month as a rate; half a checkpoint (30 min) and
	 * 15 min to restart lost each time. */
	assert_true(job.rate_known);
	rate = -log(1 - 0.125) / 730;
	assert_near(job.rate, rate, 1e-12);
	assert_near(job.spot_hours, job.hours / (1 - rate * 0.5), 1e-6);
	assert_near(job.interruptions, rate * job.spot_hours, 1e-9);
	assert_int_equal(job.spot_cost, cost_total(p.spot_hour,
	    job.spot_hours));
	assert_true(job.spot_cost > cost_total(p.spot_hour, job.hours));
	/* Nothing to move out: the total is the job. */
	assert_int_equal(job.egress, 0);
	assert_int_equal(job.total, job.cost);
	cost_plan_train(&p, &t, true, &job);
	assert_int_equal(job.total, job.spot_cost);
	/* No Spot Advisor bucket: the default, the worst bucket's. */
	o.spot_interruption = -1;
	cost_plan_train(&p, &t, false, &job2);
	assert_false(job2.rate_known);
	assert_near(job2.rate, -log(1 - COST_SPOT_DEFAULT_MONTHLY) / 730,
	    1e-12);
	assert_true(job2.spot_cost > job.spot_cost);
	/* Rarer checkpoints lose more. */
	t.checkpoint_s = 6 * 3600;
	cost_plan_train(&p, &t, false, &job);
	assert_true(job.spot_cost > job2.spot_cost);
	/* Two nodes: half the hours (RDMA at 50 Gb/s a GPU: 0.90), twice
	 * the interruptions an hour. */
	t.checkpoint_s = 1800;
	cost_plan(&p, &o, 2);
	cost_plan_train(&p, &t, false, &job);
	assert_near(job.scaling, 0.90, 0);
	assert_near(job.hours, 186965.8 / 16 / 0.9, 0.02);
	assert_near(job.spot_hours, job.hours / (1 - 2 * job2.rate * 0.5),
	    1e-6);
	assert_int_equal(job.cost, cost_total(2 * 40966400, job.hours));
	/* A faster GPU, fewer hours: H100 does it in under a third. */
	train_offer(&o, "aws", "p5.48xlarge", "H100", 8, 98320000, MONEY_NONE);
	cost_plan(&p, &o, 1);
	cost_plan_train(&p, &t, false, &job2);
	assert_near(job2.hours, 186965.8 / 8 * 312 / 989.4, 0.02);
	/* No spot price: no spot job. */
	assert_int_equal(job2.spot_cost, MONEY_NONE);
	cost_plan_train(&p, &t, true, &job2);
	assert_int_equal(job2.total, MONEY_NONE);
}

static void
test_train_unknown(void **state)
{
	struct plan_job job;
	struct train t;
	struct offer o;
	struct plan p;

	(void)state;
	train_of(&t, "7B:2T");
	make_offer(&o, "", 8, IC_NVLINK, 10000000, 5000000);
	cost_plan(&p, &o, 1);
	cost_plan_train(&p, &t, false, &job);
	assert_true(isnan(job.gpu_hours));
	assert_true(isnan(job.hours));
	assert_true(isnan(job.spot_hours));
	assert_int_equal(job.cost, MONEY_NONE);
	assert_int_equal(job.spot_cost, MONEY_NONE);
	assert_int_equal(job.per_btok, MONEY_NONE);
	assert_int_equal(job.total, MONEY_NONE);
	/* A known GPU without an on-demand price: hours, no cost. */
	make_offer(&o, "A100-80", 8, IC_NVLINK, MONEY_NONE, 5000000);
	cost_plan(&p, &o, 1);
	cost_plan_train(&p, &t, false, &job);
	assert_false(isnan(job.hours));
	assert_int_equal(job.cost, MONEY_NONE);
	assert_true(money_known(job.spot_cost));
}

static void
test_train_scaling(void **state)
{
	static const struct {
		const char	*provider, *type, *gpu;
		double		 want;
	} cases[] = {
		{ "aws", "p5.48xlarge", "H100", 1.00 },	/* EFA 400 a GPU */
		{ "aws", "p4d.24xlarge", "A100-40", 0.90 },	/* EFA 50 */
		{ "aws", "g6e.48xlarge", "L40S", 0.90 },	/* EFA 50 */
		{ "aws", "g5.48xlarge", "A10G", 0.80 },	/* EFA 12.5 */
		{ "azure", "Standard_ND96isr_H100_v5", "H100", 1.00 },
		{ "azure", "Standard_ND96asr_v4", "A100-40", 1.00 },
		{ "gcp", "a3-megagpu-8g", "H100", 0.85 },
		{ "gcp", "a3-highgpu-8g", "H100", 0.75 },
		{ "gcp", "a2-highgpu-8g", "A100-40", 0.60 },
		{ "lambda", "gpu_8x_h100_sxm5", "H100", 0.60 },
		/* InfiniBand or RoCE, 3,200 Gb/s a node */
		{ "runpod-clusters", "8xH100", "H100", 1.00 },
	};
	const char *why;
	struct offer o;
	struct plan p;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		train_offer(&o, cases[i].provider, cases[i].type, cases[i].gpu,
		    8, 10000000, MONEY_NONE);
		cost_plan(&p, &o, 1);
		assert_near(cost_scaling(&p, &why), 1, 0);
		assert_string_equal(why, "one node");
		cost_plan(&p, &o, 2);
		why = NULL;
		if (fabs(cost_scaling(&p, &why) - cases[i].want) > 1e-12)
			fail_msg("%s %s: %g, want %g", cases[i].provider,
			    cases[i].type, cost_scaling(&p, NULL),
			    cases[i].want);
		assert_non_null(why);
	}
}

static void
test_spot_hours(void **state)
{
	(void)state;
	/* Never below the hours; more with a higher rate. */
	assert_near(cost_spot_hours(100, 0, 0.5), 100, 0);
	assert_near(cost_spot_hours(100, 0.01, 0.5), 100 / (1 - 0.005),
	    1e-9);
	assert_true(cost_spot_hours(100, 0.02, 0.5) >
	    cost_spot_hours(100, 0.01, 0.5));
	/* Interrupted faster than it checkpoints: it never ends. */
	assert_true(isnan(cost_spot_hours(100, 2, 1)));
	assert_true(isnan(cost_spot_hours(NAN, 0.01, 0.5)));
}

static void
test_train_term(void **state)
{
	struct plan_job job;
	struct train t;
	struct offer o;
	struct plan p;

	(void)state;
	train_of(&t, "7B:2T");
	train_offer(&o, "aws", "p4de.24xlarge", "A100-80", 8, 40966400,
	    MONEY_NONE);
	/* 1y all upfront at 24 USD an hour; 3y at 30 (dearer here). */
	assert_int_equal(tcommitted_add(&o, CK_RESERVATION, 12, CU_ALL,
	    24000000, 24 * 8760 * (int64_t)MONEY_UNIT), 0);
	assert_int_equal(tcommitted_add(&o, CK_RESERVATION, 36, CU_NONE,
	    30000000, 0), 0);
	cost_plan(&p, &o, 1);
	cost_plan_train(&p, &t, false, &job);
	/* 23,371 hours: three whole 1y terms beat on demand. */
	assert_non_null(job.term);
	assert_int_equal(job.term->months, 12);
	assert_int_equal(job.term_cost, money_for_hours(24000000, 3 * 8760));
	assert_int_equal(job.term_commitment, money_for_hours(24000000,
	    8760));
	assert_true(job.term_cost < job.cost);
	/* A short run gains nothing from a term: none beside it. */
	train_of(&t, "7B:20B");
	cost_plan_train(&p, &t, false, &job);
	assert_null(job.term);
	assert_int_equal(job.term_cost, MONEY_NONE);
	/* --term's own term is shown whatever it costs. */
	cost_plan_term(&p, 36);
	cost_plan_train(&p, &t, false, &job);
	assert_non_null(job.term);
	assert_int_equal(job.term->months, 36);
	assert_int_equal(job.term_cost, money_for_hours(30000000, 3 * 8760));
}

static void
test_train_egress(void **state)
{
	struct plan_job job;
	struct train t;
	struct offer o;
	struct plan p;

	(void)state;
	train_of(&t, "7B:2T");
	t.egress_gb = 10000;
	train_offer(&o, "aws", "p4de.24xlarge", "A100-80", 8, 40966400,
	    MONEY_NONE);
	cost_plan(&p, &o, 1);
	cost_plan_train(&p, &t, false, &job);
	assert_int_equal(job.egress, 891 * (int64_t)MONEY_UNIT);
	assert_int_equal(job.total, job.cost + job.egress);
	/* Egress is the job's, not the hour's: the cost is unchanged. */
	assert_int_equal(job.cost, cost_total(p.price_hour, job.hours));
	/* Lambda charges none; Vast's is per host: unknown. */
	train_offer(&o, "lambda", "gpu_8x_a100_80gb_sxm4", "A100-80", 8,
	    14320000, MONEY_NONE);
	cost_plan(&p, &o, 1);
	cost_plan_train(&p, &t, false, &job);
	assert_int_equal(job.egress, 0);
	assert_int_equal(job.total, job.cost);
	train_offer(&o, "vast", "A100_SXM4", "A100-80", 8, 9000000,
	    MONEY_NONE);
	cost_plan(&p, &o, 1);
	cost_plan_train(&p, &t, false, &job);
	assert_int_equal(job.egress, MONEY_NONE);
	assert_int_equal(job.total, MONEY_NONE);
	assert_true(money_known(job.cost));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_inter_node),
		cmocka_unit_test(test_committed_arithmetic),
		cmocka_unit_test(test_committed_entries),
		cmocka_unit_test(test_plan_term),
		cmocka_unit_test(test_per_gpu_hour),
		cmocka_unit_test(test_per_gpu_hour_unknown),
		cmocka_unit_test(test_spot_savings),
		cmocka_unit_test(test_spot_savings_negative),
		cmocka_unit_test(test_spot_savings_nan),
		cmocka_unit_test(test_usd_per_pflop_hour),
		cmocka_unit_test(test_usd_per_pflop_hour_unknown),
		cmocka_unit_test(test_total),
		cmocka_unit_test(test_plan_one_node),
		cmocka_unit_test(test_plan_k_nodes),
		cmocka_unit_test(test_plan_pcie_tflops),
		cmocka_unit_test(test_plan_pcie_without_pcie_figure),
		cmocka_unit_test(test_plan_unknown_gpu),
		cmocka_unit_test(test_plan_unknown_prices),
		cmocka_unit_test(test_plan_negative_saving),
		cmocka_unit_test(test_train_job),
		cmocka_unit_test(test_train_unknown),
		cmocka_unit_test(test_train_scaling),
		cmocka_unit_test(test_spot_hours),
		cmocka_unit_test(test_train_term),
		cmocka_unit_test(test_train_egress),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
