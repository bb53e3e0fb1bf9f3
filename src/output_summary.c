/*
 * output_summary.c: market summaries (--group-by) in every format,
 * through output_records(): the group's key values, then the offers and
 * the price statistics, then the cheapest offer.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "columns.h"
#include "cost.h"
#include "money.h"
#include "output.h"
#include "str.h"
#include "summary.h"

/*
 * The columns in the order of the machine formats: new ones go at the
 * end (scripts read the fields by position). Those of --term, then the
 * cheapest row's $/PFLOP-h (a GPU type's price for its work: what a
 * buyer compares GPU types by), then, with --hours, the job's total at
 * the cheapest row's prices.
 */
enum {
	SC_OFFERS, SC_MIN, SC_MEDIAN, SC_MAX, SC_SPOT_MIN, SC_SPOT_MEDIAN,
	SC_SPOT_MAX, SC_CHEAP_PROVIDER, SC_CHEAP_INSTANCE, SC_CHEAP_REGION,
	SC_TERM_MIN, SC_TERM_MEDIAN,	/* only with --term */
	SC_PFLOP,
	SC_TOTAL, SC_SPOT_TOTAL,	/* only with --hours */
	SC_COUNT
};

static const struct output_column stat_columns[SC_COUNT] = {
	[SC_OFFERS] =		{ "offers", "OFFERS", 1, true, false },
	[SC_MIN] =		{ "min_price_gpu_hour", "MIN $/GPU-H", 1, true,
				    false },
	[SC_MEDIAN] =		{ "median_price_gpu_hour", "MEDIAN", 2, true,
				    false },
	[SC_MAX] =		{ "max_price_gpu_hour", "MAX", 3, true, false },
	[SC_SPOT_MIN] =		{ "min_spot_gpu_hour", "SPOT MIN", 2, true,
				    false },
	[SC_SPOT_MEDIAN] =	{ "median_spot_gpu_hour", "SPOT MEDIAN", 4,
				    true, false },
	[SC_SPOT_MAX] =		{ "max_spot_gpu_hour", "SPOT MAX", 5, true,
				    false },
	[SC_CHEAP_PROVIDER] =	{ "cheapest_provider", "CHEAPEST", 2, false,
				    false },
	/* Names a buyer copies: whole or not at all (issue 45). */
	[SC_CHEAP_INSTANCE] =	{ "cheapest_instance_type", "INSTANCE", 3,
				    false, false },
	[SC_CHEAP_REGION] =	{ "cheapest_region", "REGION", 4, false, false },
	[SC_TERM_MIN] =		{ "min_term_gpu_hour", "TERM MIN", 1, true,
				    false },
	[SC_TERM_MEDIAN] =	{ "median_term_gpu_hour", "TERM MEDIAN", 2,
				    true, false },
	[SC_PFLOP] =		{ "cheapest_usd_per_pflop_hour", "$/PFLOP-H", 3,
				    true, false },
	[SC_TOTAL] =		{ "cheapest_total", "TOTAL $", 1, true,
				    false },
	[SC_SPOT_TOTAL] =	{ "cheapest_spot_total", "SPOT TOTAL $", 2,
				    true, false },
};

static const struct output_column key_columns[GROUP_KEY_COUNT] = {
	[GROUP_GPU] =		{ "gpu", "GPU", 1, false, false },
	[GROUP_PROVIDER] =	{ "provider", "PROVIDER", 1, false, false },
	[GROUP_REGION] =	{ "region", "REGION", 1, false, false },
	[GROUP_CONTINENT] =	{ "continent", "CONTINENT", 1, false, false },
};

struct summary_rows {
	const struct group_by *by;
	const struct summary_group *groups;
	const int *stat;		/* each column after the keys: SC_* */
	double	 hours;
};


/* A job's total: the table's cents ("1,664.64"), else exact. */
static enum field_kind
summary_total(int64_t micro, bool human, char *buf, size_t size)
{
	if (!human || !money_known(micro))
		return output_money(micro, human, buf, size);
	column_total(micro, buf, size);
	return FIELD_NUMBER;
}

static enum field_kind
summary_value(const void *ctx, size_t row, size_t col, bool human,
    char *buf, size_t size)
{
	const struct summary_rows *r = ctx;
	const struct summary_group *g = &r->groups[row];
	const struct offer *cheap = g->cheapest->offer;

	if (col < r->by->nkeys) {
		/* People read "any region" where the data says "all". */
		str_copy(buf, size, human && (r->by->keys[col] == GROUP_REGION ||
		    r->by->keys[col] == GROUP_CONTINENT) ?
		    column_region(g->values[col]) : g->values[col]);
		return FIELD_STRING;
	}
	switch (r->stat[col - r->by->nkeys]) {
	case SC_OFFERS:
		snprintf(buf, size, "%zu", g->offers);
		return FIELD_NUMBER;
	case SC_MIN:
		return output_money(g->price.min, human, buf, size);
	case SC_MEDIAN:
		return output_money(g->price.median, human, buf, size);
	case SC_MAX:
		return output_money(g->price.max, human, buf, size);
	case SC_SPOT_MIN:
		return output_money(g->spot.min, human, buf, size);
	case SC_SPOT_MEDIAN:
		return output_money(g->spot.median, human, buf, size);
	case SC_SPOT_MAX:
		return output_money(g->spot.max, human, buf, size);
	case SC_CHEAP_PROVIDER:
		str_copy(buf, size, cheap->provider);
		return FIELD_STRING;
	case SC_CHEAP_INSTANCE:
		str_copy(buf, size, cheap->instance_type);
		return FIELD_STRING;
	case SC_CHEAP_REGION:
		str_copy(buf, size, human ? column_region(cheap->region) :
		    cheap->region);
		return FIELD_STRING;
	case SC_TERM_MIN:
		return output_money(g->term.min, human, buf, size);
	case SC_TERM_MEDIAN:
		return output_money(g->term.median, human, buf, size);
	case SC_PFLOP:
		if (isnan(g->cheapest->usd_per_pflop_hour))
			break;
		snprintf(buf, size, human ? "%.2f" : "%.4f",
		    g->cheapest->usd_per_pflop_hour);
		return FIELD_NUMBER;
	case SC_TOTAL:
		return summary_total(cost_total(g->cheapest->price_hour,
		    r->hours), human, buf, size);
	case SC_SPOT_TOTAL:
		return summary_total(cost_total(g->cheapest->spot_hour,
		    r->hours), human, buf, size);
	}
	if (size > 0)
		buf[0] = '\0';
	return FIELD_NULL;
}

int
output_groups(FILE *out, enum output_format format, size_t width,
    const struct group_by *by, bool term, double hours,
    const struct summary_group *groups, size_t n)
{
	struct output_column cols[GROUP_KEY_COUNT + SC_COUNT];
	int stat[SC_COUNT];
	struct summary_rows rows = { by, groups, stat, hours };
	struct output_schema schema = {
		"groups", cols, 0, summary_value, &rows
	};
	size_t i, nstats = 0;
	int c;

	for (c = 0; c < SC_COUNT; c++) {
		if (!term && (c == SC_TERM_MIN || c == SC_TERM_MEDIAN))
			continue;
		if (hours < 0 && (c == SC_TOTAL || c == SC_SPOT_TOTAL))
			continue;
		stat[nstats++] = c;
	}
	for (i = 0; i < by->nkeys; i++)
		cols[i] = key_columns[by->keys[i]];
	for (i = 0; i < nstats; i++)
		cols[by->nkeys + i] = stat_columns[stat[i]];
	schema.ncolumns = by->nkeys + nstats;
	return output_records(out, format, width, &schema, n);
}
