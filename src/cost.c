/* cost.c: the cost model. */
#include "config.h"
#include "cost.h"

#include <math.h>
#include <string.h>

#include "egress.h"
#include "money.h"

int64_t
cost_per_gpu_hour(int64_t price_hour, int gpu_count)
{
	if (!money_known(price_hour) || gpu_count <= 0)
		return MONEY_NONE;
	return money_div_round(price_hour, gpu_count);
}

double
cost_spot_savings_pct(int64_t price_hour, int64_t spot_hour)
{
	if (!money_known(price_hour) || !money_known(spot_hour) ||
	    price_hour <= 0)
		return NAN;
	return 100.0 * (1.0 - (double)spot_hour / (double)price_hour);
}

double
cost_usd_per_pflop_hour(int64_t price_gpu_hour, double bf16_tflops)
{
	if (!money_known(price_gpu_hour) || !(bf16_tflops > 0))
		return NAN;
	return ((double)price_gpu_hour / MONEY_UNIT) / (bf16_tflops / 1000.0);
}

int64_t
cost_total(int64_t price_hour, double hours)
{
	return money_for_hours(price_hour, hours);
}

void
cost_plan(struct plan *p, const struct offer *o, int nodes)
{
	if (nodes < 1)
		nodes = 1;
	memset(p, 0, sizeof *p);	/* padding too: plans compare whole */
	p->offer = o;
	p->model = o->gpu[0] != '\0' ? gpu_find(o->gpu) : NULL;
	p->nodes = nodes;
	p->total_gpus = o->gpu_count * nodes;
	p->price_hour = money_mul(o->price, nodes);
	p->spot_hour = money_mul(o->spot_price, nodes);
	p->price_gpu_hour = cost_per_gpu_hour(o->price, o->gpu_count);
	p->spot_gpu_hour = cost_per_gpu_hour(o->spot_price, o->gpu_count);
	p->spot_savings_pct = cost_spot_savings_pct(o->price, o->spot_price);
	p->term = NULL;
	p->term_hour = p->term_gpu_hour = MONEY_NONE;
	p->term_savings_pct = NAN;
	p->usd_per_pflop_hour = cost_usd_per_pflop_hour(p->price_gpu_hour,
	    gpu_bf16_tflops(p->model, o->interconnect == IC_PCIE));
}

const char *
cost_inter_node(const struct plan *p)
{
	const char *name;

	if (p->nodes < 2)
		return NULL;
	/* data/fabric.tsv; the ordinary network when it says nothing. */
	name = fabric_kind_name(offer_fabric_kind(p->offer));
	return name != NULL ? name : "network";
}

void
cost_plan_term(struct plan *p, int term)
{
	const struct offer *o = p->offer;

	p->term = committed_best(o->committed, o->ncommitted, term);
	p->term_hour = p->term_gpu_hour = MONEY_NONE;
	p->term_savings_pct = NAN;
	if (p->term == NULL)
		return;
	p->term_hour = money_mul(p->term->price_hour, p->nodes);
	p->term_gpu_hour = cost_per_gpu_hour(p->term->price_hour,
	    o->gpu_count);
	p->term_savings_pct = cost_spot_savings_pct(o->price,
	    p->term->price_hour);
}

int64_t
cost_term_total(int64_t term_hour, int months, double hours)
{
	int64_t term_hours = committed_term_hours(months);
	double terms;

	if (!money_known(term_hour) || months <= 0 || !(hours >= 0))
		return MONEY_NONE;
	terms = ceil(hours / (double)term_hours);
	if (terms < 1)
		terms = 1;
	return money_for_hours(term_hour, terms * (double)term_hours);
}

/* The classes of cost_scaling(), best first. */
static const struct {
	double		 efficiency;
	const char	*why;
} scaling_class[] = {
	{ 1.00, "one node" },
	{ 1.00, "RDMA, 200 Gb/s a GPU or more" },
	{ 0.90, "RDMA, 50-200 Gb/s a GPU" },
	{ 0.80, "RDMA, under 50 Gb/s a GPU or unknown" },
	{ 0.85, "GPUDirect-TCPXO" },
	{ 0.75, "GPUDirect-TCPX" },
	{ 0.60, "TCP over Ethernet or an unknown fabric" }
};

double
cost_scaling(const struct plan *p, const char **why)
{
	const struct fabric *fab = p->offer->fabric;
	enum fabric_kind kind = offer_fabric_kind(p->offer);
	double per_gpu;
	size_t c;

	if (p->nodes < 2)
		c = 0;
	else if (kind == FABRIC_EFA || kind == FABRIC_INFINIBAND ||
	    kind == FABRIC_ROCE || (fab != NULL &&
	    fab->placement == PLACE_CLUSTER_PRODUCT)) {
		/* A cluster product's network is InfiniBand or RoCE. */
		per_gpu = p->offer->gpu_count > 0 ?
		    (double)offer_node_gbps(p->offer) / p->offer->gpu_count : 0;
		c = per_gpu >= 200 ? 1 : per_gpu >= 50 ? 2 : 3;
	} else if (kind == FABRIC_TCPXO)
		c = 4;
	else if (kind == FABRIC_TCPX)
		c = 5;
	else
		c = 6;
	if (why != NULL)
		*why = scaling_class[c].why;
	return scaling_class[c].efficiency;
}

double
cost_scaling_class(size_t i, const char **why)
{
	if (i >= sizeof scaling_class / sizeof scaling_class[0])
		return -1;
	*why = scaling_class[i].why;
	return scaling_class[i].efficiency;
}

double
cost_spot_rate(const struct offer *o, bool *known)
{
	/* The middle of each Spot Advisor bucket; >20 % taken as 25 %. */
	static const double monthly[] = { 0.025, 0.075, 0.125, 0.175, 0.25 };
	double share = COST_SPOT_DEFAULT_MONTHLY;

	*known = o->spot_interruption >= 0 && o->spot_interruption <= 4;
	if (*known)
		share = monthly[o->spot_interruption];
	/* The share of a month as a constant rate: 1 - e^(-730 r) = share. */
	return -log1p(-share) / COMMITTED_HOURS_PER_MONTH;
}

double
cost_spot_hours(double hours, double rate, double checkpoint_hours)
{
	double lost = checkpoint_hours / 2 + COST_RESTART_HOURS;

	if (!(hours >= 0) || !(rate >= 0) || !(rate * lost < 1))
		return NAN;
	return hours / (1 - rate * lost);
}

/* a + b (both >= 0); either unknown, or past money_for_hours()'s
 * range: MONEY_NONE. */
static int64_t
money_add(int64_t a, int64_t b)
{
	if (!money_known(a) || !money_known(b) || a > INT64_MAX / 2 - b)
		return MONEY_NONE;
	return a + b;
}

/* The job on p's best term for it (or --term's), where one is cheaper. */
static void
job_term(const struct plan *p, struct plan_job *job)
{
	const struct offer *o = p->offer;
	const struct committed *c;
	int64_t total, hour;
	size_t i;

	job->term = NULL;
	job->term_cost = job->term_commitment = MONEY_NONE;
	if (isnan(job->hours))
		return;
	for (i = 0; i < o->ncommitted; i++) {
		c = &o->committed[i];
		if (p->term != NULL && c != p->term)
			continue;
		hour = money_mul(c->price_hour, p->nodes);
		total = cost_term_total(hour, c->months, job->hours);
		if (!money_known(total) || (money_known(job->term_cost) &&
		    total >= job->term_cost))
			continue;
		job->term = c;
		job->term_cost = total;
		job->term_commitment = cost_term_total(hour, c->months, 0);
	}
	/* Beside on demand only when the run is long enough to gain. */
	if (p->term == NULL && job->term != NULL && money_known(job->cost) &&
	    job->term_cost >= job->cost) {
		job->term = NULL;
		job->term_cost = job->term_commitment = MONEY_NONE;
	}
}

void
cost_plan_train(struct plan *p, const struct train *t, bool spot,
    struct plan_job *job)
{
	const struct offer *o = p->offer;
	double rate;

	memset(job, 0, sizeof *job);
	p->job = job;
	job->gpu_hours = train_gpu_hours(t, gpu_bf16_tflops(p->model,
	    o->interconnect == IC_PCIE));
	job->scaling = cost_scaling(p, NULL);
	job->hours = p->total_gpus > 0 ? job->gpu_hours / p->total_gpus /
	    job->scaling : NAN;
	job->rate = cost_spot_rate(o, &job->rate_known);
	rate = job->rate * p->nodes;
	job->spot_hours = isnan(job->hours) ? NAN :
	    cost_spot_hours(job->hours, rate, t->checkpoint_s / 3600.0);
	job->interruptions = rate * job->spot_hours;
	job->cost = isnan(job->hours) ? MONEY_NONE :
	    cost_total(p->price_hour, job->hours);
	job->spot_cost = isnan(job->spot_hours) ? MONEY_NONE :
	    cost_total(p->spot_hour, job->spot_hours);
	job->per_btok = MONEY_NONE;
	if (money_known(job->cost) && t->tokens > 0)
		money_from_double((double)job->cost / MONEY_UNIT * 1e9 /
		    t->tokens, &job->per_btok);
	job->egress = t->egress_gb > 0 ?
	    egress_cost(o->provider, o->region, t->egress_gb) : 0;
	job_term(p, job);
	job->total = money_add(spot ? job->spot_cost : job->cost, job->egress);
}
