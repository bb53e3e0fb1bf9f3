/* tui/fields.c: stepping filter fields, and the pick lists' counts. */
#include "config.h"
#include "tui/fields.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cost.h"
#include "err.h"
#include "gpu.h"
#include "money.h"
#include "provider.h"
#include "str.h"

/* Values the arrow keys step through ("any" is below the first). */
static const long count_steps[] = { 1, 2, 4, 8, 16 };
static const long vram_steps[] = { 8, 12, 16, 24, 32, 40, 48, 80, 96, 141,
    192 };
static const long price_steps[] = {	/* micro-USD per GPU-hour */
	100000, 250000, 500000, 750000, 1000000, 1500000, 2000000, 2500000,
	3000000, 4000000, 5000000, 6000000, 8000000, 10000000, 15000000,
	20000000
};

/*
 * Step v through steps[0..n) by dir; 0 stands for "any", below the
 * first step. Values between steps go to the neighbouring step.
 */
static long
step_value(long v, const long *steps, size_t n, int dir)
{
	size_t i;

	if (dir > 0) {
		for (i = 0; i < n; i++)
			if (steps[i] > v)
				return steps[i];
		return v == 0 ? steps[0] : steps[n - 1];
	}
	if (v == 0)
		return 0;
	for (i = n; i > 0; i--)
		if (steps[i - 1] < v)
			return steps[i - 1];
	return 0;
}

/*
 * Arrow-key change of one field: flags toggle through filter_set() (so
 * the panel changes nothing the CLI could not), numbers step.
 */
bool
field_step(struct offer_filter *f, enum filter_field ff, int dir)
{
	struct err err;
	long v;

	if ((unsigned)ff >= FILTER_FIELD_COUNT)
		return false;
	if (filter_fields[ff].type == FT_BOOL)
		return filter_set(f, ff, filter_is_set(f, ff) ? "no" : "yes",
		    false, &err) == 0;
	switch (ff) {
	case FF_LINK:
		/* any -> nvlink -> pcie -> any */
		if (dir > 0)
			f->interconnect = f->interconnect == IC_UNKNOWN ?
			    IC_NVLINK : f->interconnect == IC_NVLINK ? IC_PCIE :
			    IC_UNKNOWN;
		else
			f->interconnect = f->interconnect == IC_UNKNOWN ?
			    IC_PCIE : f->interconnect == IC_PCIE ? IC_NVLINK :
			    IC_UNKNOWN;
		return true;
	case FF_COUNT:
		f->count = (int)step_value(f->count, count_steps,
		    sizeof count_steps / sizeof count_steps[0], dir);
		return true;
	case FF_VRAM:
		f->min_vram_gb = (int)step_value(f->min_vram_gb, vram_steps,
		    sizeof vram_steps / sizeof vram_steps[0], dir);
		return true;
	case FF_MAX_PRICE:
		v = money_known(f->max_price_gpu_hour) ?
		    (long)f->max_price_gpu_hour : 0;
		v = step_value(v, price_steps,
		    sizeof price_steps / sizeof price_steps[0], dir);
		f->max_price_gpu_hour = v == 0 ? MONEY_NONE : v;
		return true;
	default:
		return false;	/* typed or picked, not stepped */
	}
}

/* Does offer o pass filter g, prices included (query_plans' test)? */
static bool
facet_match(const struct offer_filter *g, const struct offer *o)
{
	struct plan p;
	int nodes;

	if (!offer_matches(g, o, &nodes))
		return false;
	if (!money_known(g->max_price_gpu_hour))
		return true;
	cost_plan(&p, o, nodes);
	plan_spot_rule(&p, g);
	return plan_matches_price(g, &p);
}

/* Order facets by name. */
static int
facet_cmp(const void *a, const void *b)
{
	return strcmp(((const struct facet *)a)->name,
	    ((const struct facet *)b)->name);
}

/* Count offers per GPU model, ignoring the filter's GPU field. */
size_t
facet_gpus(const struct offer *offers, size_t n, const struct offer_filter *f,
    struct facet *out, size_t max)
{
	struct offer_filter g = *f;
	const struct gpu_model *model = NULL;
	const char *last = NULL;
	size_t nout = 0, i, k = 0;

	g.ngpus = 0;
	for (i = 0; i < n; i++) {
		const struct offer *o = &offers[i];

		if (o->gpu[0] == '\0' || !facet_match(&g, o))
			continue;
		/* Offers come grouped: look the model up when it changes. */
		if (last == NULL || strcmp(last, o->gpu) != 0) {
			last = o->gpu;
			if ((model = gpu_find(o->gpu)) == NULL)
				continue;
			for (k = 0; k < nout; k++)
				if (out[k].name == model->id)
					break;
		}
		if (model == NULL)
			continue;
		if (k == nout) {
			if (nout == max)
				continue;
			out[nout].name = model->id;
			out[nout].count = 0;
			out[nout].selected = false;
			nout++;
		}
		out[k].count++;
	}
	for (i = 0; i < f->ngpus; i++) {
		for (k = 0; k < nout; k++)
			if (out[k].name == f->gpus[i]->id)
				break;
		if (k == nout) {
			if (nout == max)
				continue;
			out[nout].name = f->gpus[i]->id;
			out[nout].count = 0;
			nout++;
		}
		out[k].selected = true;
	}
	qsort(out, nout, sizeof *out, facet_cmp);
	return nout;
}

/* Count offers per provider, ignoring the filter's provider field. */
size_t
facet_providers(const struct offer *offers, size_t n,
    const struct offer_filter *f, struct facet *out, size_t max)
{
	struct offer_filter g = *f;
	size_t nout = 0, i, k;

	for (i = 0; providers[i] != NULL && nout < max; i++) {
		out[nout].name = providers[i]->id;
		out[nout].count = 0;
		out[nout].selected = false;
		for (k = 0; k < f->nproviders; k++)
			if (strcmp(f->providers[k], providers[i]->id) == 0)
				out[nout].selected = true;
		nout++;
	}
	g.nproviders = 0;
	for (i = 0; i < n; i++) {
		if (!facet_match(&g, &offers[i]))
			continue;
		for (k = 0; k < nout; k++)
			if (strcmp(out[k].name, offers[i].provider) == 0) {
				out[k].count++;
				break;
			}
	}
	return nout;
}

/* The selected GPU models become the filter's. */
void
facet_apply_gpus(struct offer_filter *f, const struct facet *v, size_t n)
{
	const struct gpu_model *m;
	size_t i;

	f->ngpus = 0;
	for (i = 0; i < n && f->ngpus < GPU_MATCH_MAX; i++)
		if (v[i].selected && (m = gpu_find(v[i].name)) != NULL)
			f->gpus[f->ngpus++] = m;
}

/* The selected providers become the filter's. */
void
facet_apply_providers(struct offer_filter *f, const struct facet *v,
    size_t n)
{
	size_t i;

	f->nproviders = 0;
	for (i = 0; i < n && f->nproviders < FILTER_PROVIDERS_MAX; i++)
		if (v[i].selected)
			str_copy(f->providers[f->nproviders++],
			    OFFER_PROVIDER_MAX, v[i].name);
}
