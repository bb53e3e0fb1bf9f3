/* output_table.c: the aligned table for people. */
#include "config.h"
#include "output_table.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "columns.h"
#include "committed.h"
#include "cost.h"
#include "money.h"
#include "layout.h"
#include "str.h"
#include "xalloc.h"

#define CELL_MAX 80

/*
 * Columns a table shows, in order; the totals only with --hours, the
 * job's only with --train (its egress with --egress), the fabric only
 * for plans of several nodes or a fabric filter.
 */
static size_t
table_columns(const struct output_opts *opts, const struct plan *plans,
    size_t nplans, enum column *cols)
{
	bool fabric = column_fabric_shown(plans, nplans, opts->fabric_filter);
	bool folded = column_range_shown(plans, nplans);
	size_t n = 0;
	int c;

	for (c = 0; c < COLUMN_COUNT; c++) {
		if ((c == COL_TOTAL || c == COL_SPOT_TOTAL ||
		    c == COL_TERM_TOTAL) && opts->hours < 0)
			continue;
		if (column_is_term((enum column)c) && opts->term == TERM_NONE)
			continue;
		if (column_is_train((enum column)c) && (opts->train == NULL ||
		    (c == COL_EGRESS && !(opts->train->egress_gb > 0))))
			continue;
		if ((c == COL_FABRIC || c == COL_NODE_GBPS) && !fabric)
			continue;
		if (c == COL_RANGE && !folded)
			continue;
		cols[n++] = (enum column)c;
	}
	return n;
}

void
output_cell(FILE *out, const char *text, size_t width, bool right, bool last)
{
	size_t w = str_width(text), len;

	if (w > width) {
		len = str_prefix_for_width(text, width > 0 ? width - 1 : 0);
		fwrite(text, 1, len, out);
		if (width > 0)
			fputc('~', out);
		w = width;
	} else if (right) {
		fprintf(out, "%*s%s", (int)(width - w), "", text);
		w = width;
	} else
		fputs(text, out);
	if (!last)
		fprintf(out, "%*s", (int)(width - w), "");
}

int
output_table(FILE *out, const struct output_opts *opts,
    const struct plan *plans, size_t n)
{
	struct column_ctx ctx = { .now = opts->now, .hours = opts->hours };
	struct layout_column lay[COLUMN_COUNT];
	enum column cols[COLUMN_COUNT];
	size_t want[COLUMN_COUNT];
	bool empty[COLUMN_COUNT], same[COLUMN_COUNT];
	char (*cells)[CELL_MAX], (*why)[CELL_MAX] = NULL;
	size_t ncols, i, j, w, last, whyw = 0, width = opts->width;

	/*
	 * watch: a CHANGE column first, kept whole (it is why the row is
	 * there); the other columns fit in what is left.
	 */
	if (opts->changes != NULL) {
		why = xreallocarray(NULL, n + 1, CELL_MAX);
		str_copy(why[0], CELL_MAX, "CHANGE");
		for (i = 0; i < n; i++)
			output_change_text(&opts->changes[i], why[i + 1],
			    CELL_MAX);
		for (i = 0; i <= n; i++)
			if ((w = str_width(why[i])) > whyw)
				whyw = w;
		if (width > 0)
			width = width > whyw + 2 + 20 ? width - whyw - 2 : 20;
	}
	ncols = table_columns(opts, plans, n, cols);
	cells = xreallocarray(NULL, (n + 1) * ncols, CELL_MAX);
	for (j = 0; j < ncols; j++) {
		str_copy(cells[j], CELL_MAX, column_info[cols[j]].header);
		want[j] = str_width(cells[j]);
		empty[j] = true;
		same[j] = true;
	}
	for (i = 0; i < n; i++)
		for (j = 0; j < ncols; j++) {
			char *cell = cells[(i + 1) * ncols + j];

			column_cell(cols[j], &plans[i], &ctx, cell, CELL_MAX);
			if (!column_cell_empty(cell))
				empty[j] = false;
			if (i > 0 && strcmp(cell, cells[ncols + j]) != 0)
				same[j] = false;
			if ((w = str_width(cell)) > want[j])
				want[j] = w;
		}
	columns_fit(cols, ncols, want, empty, same, opts->sort, lay, width);
	last = 0;
	for (j = 0; j < ncols; j++)
		if (lay[j].shown)
			last = j;
	for (i = 0; i <= n; i++) {
		bool first = true;

		if (why != NULL) {
			output_cell(out, why[i], whyw, false, false);
			fputs("  ", out);
		}
		for (j = 0; j < ncols; j++) {
			if (!lay[j].shown)
				continue;
			if (!first)
				fputs("  ", out);
			first = false;
			output_cell(out, cells[i * ncols + j], lay[j].width,
			    column_info[cols[j]].right, j == last);
		}
		fputc('\n', out);
	}
	free(cells);
	free(why);
	return ferror(out) ? -1 : 0;
}

/* "the year", "3 years", "6 months", "a month": how long a term runs. */
static void
term_span(char *buf, size_t size, int months, int64_t terms)
{
	months *= (int)terms;
	if (months == 12)
		snprintf(buf, size, "the year");
	else if (months % 12 == 0)
		snprintf(buf, size, "%d years", months / 12);
	else if (months == 1)
		snprintf(buf, size, "the month");
	else
		snprintf(buf, size, "%d months", months);
}

/* ", 1y reservation $612,000.00 for the year (all upfront)" */
static void
term_part(FILE *out, const struct plan *p, const struct committed *c,
    double hours)
{
	static const char *const upfront[CU_COUNT] = {
		"no upfront", "partial upfront", "all upfront"
	};
	char term[48], name[16], span[32];
	int64_t term_hours, terms;

	term_hours = committed_term_hours(c->months);
	terms = (int64_t)((hours + (double)term_hours - 1) /
	    (double)term_hours);
	if (terms < 1)
		terms = 1;
	committed_term_name(name, sizeof name, c->months);
	column_total(cost_term_total(money_mul(c->price_hour, p->nodes),
	    c->months, hours), term, sizeof term);
	term_span(span, sizeof span, c->months, terms);
	fprintf(out, ", %s %s $%s for %s (%s)", name,
	    c->kind == CK_SAVINGS_PLAN ? "savings plan" :
	    committed_kind_name(c->kind), term, span,
	    upfront[c->upfront_kind < CU_COUNT ? c->upfront_kind : 0]);
}

int
output_term_comparison(FILE *out, const struct plan *p, double hours)
{
	const struct offer *o = p->offer;
	const struct committed *c = p->term;
	const struct committed *best;
	char demand[48], spot[48], h[48];
	size_t i;
	int k;

	column_total(cost_total(p->price_hour, hours), demand, sizeof demand);
	column_total(cost_total(p->spot_hour, hours), spot, sizeof spot);
	column_total((int64_t)(hours * MONEY_UNIT + 0.5), h, sizeof h);
	/* Whole hours print without cents. */
	if (strlen(h) > 3 && strcmp(h + strlen(h) - 3, ".00") == 0)
		h[strlen(h) - 3] = '\0';
	fprintf(out, "%s (%s %s", o->instance_type, o->provider, o->region);
	if (p->nodes > 1)
		fprintf(out, ", %d nodes", p->nodes);
	fprintf(out, "), %s h: on-demand %s%s, spot %s%s", h,
	    column_cell_empty(demand) ? "" : "$",
	    column_cell_empty(demand) ? "not sold" : demand,
	    column_cell_empty(spot) ? "" : "$",
	    column_cell_empty(spot) ? "none" : spot);
	if (!column_cell_empty(spot))
		fputs(" (interruptible)", out);
	if (c != NULL) {
		/* The ranked price first, then each other kind's best. */
		term_part(out, p, c, hours);
		for (k = 0; k < CK_COUNT; k++) {
			if (k == c->kind)
				continue;
			best = NULL;
			for (i = 0; i < o->ncommitted; i++)
				if (o->committed[i].kind == k &&
				    o->committed[i].months == c->months &&
				    (best == NULL || o->committed[i].price_hour <
				    best->price_hour))
					best = &o->committed[i];
			if (best != NULL)
				term_part(out, p, best, hours);
		}
	}
	fputc('\n', out);
	return ferror(out) ? -1 : 0;
}

int
output_train_term(FILE *out, const struct plan *p)
{
	static const char *const upfront[CU_COUNT] = {
		"no upfront", "partial upfront", "all upfront"
	};
	const struct plan_job *job = p->job;
	const struct committed *c;
	char hours[48], demand[48], term[48], commit[48], name[16];
	int64_t terms;

	if (job == NULL || (c = job->term) == NULL)
		return 0;
	column_total(llround(job->hours) * (int64_t)MONEY_UNIT, hours,
	    sizeof hours);
	hours[strcspn(hours, ".")] = '\0';
	column_total(job->cost, demand, sizeof demand);
	column_total(job->term_cost, term, sizeof term);
	column_total(job->term_commitment, commit, sizeof commit);
	committed_term_name(name, sizeof name, c->months);
	terms = money_known(job->term_commitment) && job->term_commitment > 0 ?
	    (job->term_cost + job->term_commitment / 2) / job->term_commitment :
	    1;
	fprintf(out, "%s (%s %s", p->offer->instance_type, p->offer->provider,
	    p->offer->region);
	if (p->nodes > 1)
		fprintf(out, ", %d nodes", p->nodes);
	fprintf(out, "), %s h: on demand %s%s; on a %s %s (%s) $%s for %lld "
	    "term%s, committing $%s a term whatever the job uses\n", hours,
	    column_cell_empty(demand) ? "" : "$",
	    column_cell_empty(demand) ? "not sold" : demand, name,
	    c->kind == CK_SAVINGS_PLAN ? "savings plan" :
	    committed_kind_name(c->kind),
	    upfront[c->upfront_kind < CU_COUNT ? c->upfront_kind : 0], term,
	    (long long)terms, terms == 1 ? "" : "s", commit);
	return ferror(out) ? -1 : 0;
}

/* "30m", "2h", "1d": a duration of whole minutes, hours or days. */
static void
duration_text(int seconds, char *buf, size_t size)
{
	if (seconds % 86400 == 0)
		snprintf(buf, size, "%dd", seconds / 86400);
	else if (seconds % 3600 == 0)
		snprintf(buf, size, "%dh", seconds / 3600);
	else
		snprintf(buf, size, "%dm", seconds / 60);
}

size_t
output_train_assumptions(const struct train *t, char *buf, size_t size)
{
	char run[64], every[16], restart[16], gb[32];
	const char *why;
	size_t len, i;
	double eff;

	train_text(t, run, sizeof run);
	duration_text(t->checkpoint_s, every, sizeof every);
	duration_text((int)(COST_RESTART_HOURS * 3600), restart,
	    sizeof restart);
	len = (size_t)snprintf(buf, size, "--train %s: %.3g FLOPs (6 x "
	    "params x tokens) at MFU %.2f of each GPU's dense BF16 peak; "
	    "%.0f GB of training state (%d bytes a parameter + %.0f %%), "
	    "sharded over the plan's GPUs; past one node, a scaling of",
	    run, train_flops(t), t->mfu, train_memory_gb(t),
	    TRAIN_BYTES_PER_PARAM, (TRAIN_HEADROOM - 1) * 100);
	for (i = 1; len < size && (eff = cost_scaling_class(i, &why)) >= 0;
	    i++)
		len += (size_t)snprintf(buf + len, size - len, "%s %.2f (%s)",
		    i > 1 ? "," : "", eff, why);
	if (len < size)
		len += (size_t)snprintf(buf + len, size - len, "; spot: AWS "
		    "Spot Advisor's interruption rate, else %.0f %% of nodes "
		    "a month, a checkpoint every %s and %s to restart",
		    COST_SPOT_DEFAULT_MONTHLY * 100, every, restart);
	if (len < size && t->egress_gb > 0) {
		column_total((int64_t)(t->egress_gb * MONEY_UNIT), gb,
		    sizeof gb);
		/* Whole GB print without decimals. */
		if (strlen(gb) > 3 && strcmp(gb + strlen(gb) - 3, ".00") == 0)
			gb[strlen(gb) - 3] = '\0';
		len += (size_t)snprintf(buf + len, size - len, "; egress %s "
		    "GB at each provider's published internet price, one "
		    "month's tiers (unknown where none)", gb);
	}
	return len < size ? len : (size > 0 ? size - 1 : 0);
}
