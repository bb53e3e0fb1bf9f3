/* cost.c: the cost model. */
#include "config.h"
#include "cost.h"

#include <math.h>
#include <string.h>

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
