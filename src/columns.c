/* columns.c: offers-table columns and their human-readable cells. */
#include "config.h"
#include "columns.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "committed.h"
#include "cost.h"
#include "layout.h"
#include "money.h"
#include "notes.h"
#include "region.h"
#include "str.h"

const struct column_info column_info[COLUMN_COUNT] = {
#define X(id, hdr, mn, prio, rt, flex, srt)				\
	[id] = { .header = hdr, .min = mn, .priority = prio,		\
	    .right = rt, .flexible = flex, .sort = srt },
	COLUMN_INFO(X)
#undef X
};

size_t
column_money(int64_t micro, char *buf, size_t size)
{
	if (!money_known(micro))
		return (size_t)snprintf(buf, size, "-");
	/* Exact values are in CSV/JSON. */
	return money_format_fixed(buf, size, micro, COLUMN_HOUR_DECIMALS);
}

size_t
column_total(int64_t micro, char *buf, size_t size)
{
	char digits[32], out[48];
	size_t len, i, start, n = 0;

	if (!money_known(micro))
		return (size_t)snprintf(buf, size, "-");
	money_format_fixed(digits, sizeof digits, micro,
	    COLUMN_TOTAL_DECIMALS);
	start = digits[0] == '-' ? 1 : 0;
	len = strcspn(digits, ".");
	for (i = 0; digits[i] != '\0'; i++) {
		/* A comma before each group of three whole digits. */
		if (i > start && i < len && (len - i) % 3 == 0)
			out[n++] = ',';
		out[n++] = digits[i];
	}
	out[n] = '\0';
	return str_copy(buf, size, out);
}

size_t
column_range(int64_t low, int64_t high, char *buf, size_t size)
{
	char lo[32], hi[32];

	column_money(low, lo, sizeof lo);
	column_money(high, hi, sizeof hi);
	if (strcmp(lo, hi) == 0)
		return str_copy(buf, size, lo);
	return (size_t)snprintf(buf, size, "%s-%s", lo, hi);
}

const char *
column_region(const char *region)
{
	/* "all" is a price that holds in every region. */
	return region_is_any(region) ? COLUMN_ANY_REGION : region;
}

bool
column_cell_empty(const char *cell)
{
	return cell[0] == '\0' || strcmp(cell, "-") == 0 ||
	    strcmp(cell, "?") == 0;
}

/* The column that shows sort key `sort` when ranking. */
static bool
is_sort_column(enum column c, enum sort_key sort)
{
	/* The totals, notes and fabric share their keys with the prices. */
	if (c == COL_TOTAL || c == COL_SPOT_TOTAL || c == COL_NOTES ||
	    c == COL_FABRIC || c == COL_NODE_GBPS || c == COL_TERM_SAVE ||
	    c == COL_TERM_TOTAL || c == COL_RANGE ||
	    (column_is_train(c) && c != COL_JOB))
		return false;
	return column_info[c].sort == sort;
}

size_t
columns_fit(const enum column *cols, size_t n, const size_t *want,
    const bool *empty, const bool *same, enum sort_key sort,
    struct layout_column *lay, size_t width)
{
	enum column c;
	bool totals = false;
	size_t j;
	int prio;

	for (j = 0; j < n; j++)
		if (cols[j] == COL_TOTAL)
			totals = true;
	for (j = 0; j < n; j++) {
		c = cols[j];
		prio = column_info[c].priority;
		/*
		 * The job's totals are the answer asked for: to keep both,
		 * the GPUs (which the instance name mostly says) may go, as
		 * a region does, and first.
		 */
		if (c == COL_GPU && totals && !is_sort_column(c, sort))
			prio = column_info[COL_REGION].priority;
		/* Ranked by spot, the on-demand total says that price. */
		if (c == COL_GPU_PRICE && totals && (sort == SORT_SPOT ||
		    sort == SORT_SPOT_GPU))
			prio = column_info[COL_REGION].priority;
		if (is_sort_column(c, sort))
			prio = 0;
		/*
		 * With --hours (the totals are shown), both job totals: "spot
		 * or on demand?" is the question a job asks; with --term
		 * ranked, the term's too. A note is a warning about the row's
		 * numbers. Each stays at every width while a row has one.
		 */
		else if (!empty[j] && (c == COL_TOTAL || c == COL_SPOT_TOTAL ||
		    c == COL_NOTES || (sort == SORT_TERM_GPU &&
		    c == COL_TERM_TOTAL)))
			prio = 0;
		else if (empty[j])
			prio += LAYOUT_EMPTY;
		/*
		 * Every row "8x H100": the question already said it, so it
		 * weighs as the savings do.
		 */
		else if (c == COL_GPU && same[j] &&
		    prio < column_info[COL_SAVINGS].priority)
			prio = column_info[COL_SAVINGS].priority;
		lay[j].want = want[j];
		lay[j].min = column_info[c].min;
		lay[j].priority = prio;
		lay[j].flexible = column_info[c].flexible;
		/*
		 * Narrower still than what is never dropped: the GPUs go,
		 * then the note, the totals, the instance (whole or not at
		 * all: the detail and JSON have it); the provider and the
		 * price stay.
		 */
		lay[j].last_resort = c == COL_GPU ? 4 : c == COL_NOTES ? 3 :
		    c == COL_INSTANCE ? 1 : c == COL_PROVIDER ||
		    is_sort_column(c, sort) || c == COL_GPU_PRICE ? 0 : 2;
	}
	return layout_fit(lay, n, width);
}

bool
column_fabric_shown(const struct plan *plans, size_t n, bool filter_fabric)
{
	size_t i;

	if (filter_fabric)
		return true;
	for (i = 0; i < n; i++)
		if (plans[i].nodes > 1)
			return true;
	return false;
}

bool
column_range_shown(const struct plan *plans, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (plans[i].other_regions > 0)
			return true;
	return false;
}

size_t
column_age(int64_t seconds, char *buf, size_t size)
{
	if (seconds < 0)
		seconds = 0;
	if (seconds < 3600)
		return (size_t)snprintf(buf, size, "%lldm",
		    (long long)(seconds / 60));
	if (seconds < 2 * 86400)
		return (size_t)snprintf(buf, size, "%lldh",
		    (long long)(seconds / 3600));
	return (size_t)snprintf(buf, size, "%lldd",
	    (long long)(seconds / 86400));
}

/* "23,371": hours for people, whole past ten, else to a tenth. */
static size_t
hours_text(double h, char *buf, size_t size)
{
	char whole[48];
	size_t len;

	if (isnan(h))
		return (size_t)snprintf(buf, size, "-");
	if (h < 10)
		return (size_t)snprintf(buf, size, "%.1f", h);
	/* column_total()'s thousands, without its cents. */
	column_total(llround(h) * (int64_t)MONEY_UNIT, whole, sizeof whole);
	len = strcspn(whole, ".");
	whole[len] = '\0';
	return str_copy(buf, size, whole);
}

/* --train's cells (column_is_train()). */
static size_t
job_cell(enum column c, const struct plan_job *job, char *buf, size_t size)
{
	char term[16], total[48];

	if (job == NULL)
		return (size_t)snprintf(buf, size, "-");
	switch (c) {
	case COL_JOB_HOURS:
		return hours_text(job->hours, buf, size);
	case COL_JOB:
		return column_total(job->cost, buf, size);
	case COL_SPOT_JOB:
		return column_total(job->spot_cost, buf, size);
	case COL_PER_BTOK:
		return column_total(job->per_btok, buf, size);
	case COL_EGRESS:
		return column_total(job->egress, buf, size);
	case COL_TERM_JOB:
		if (job->term == NULL)
			return (size_t)snprintf(buf, size, "-");
		committed_term_name(term, sizeof term, job->term->months);
		column_total(job->term_cost, total, sizeof total);
		return (size_t)snprintf(buf, size, "%s (%s)", total, term);
	default:
		break;
	}
	return (size_t)snprintf(buf, size, "-");
}

size_t
column_cell(enum column c, const struct plan *p, const struct column_ctx *ctx,
    char *buf, size_t size)
{
	const struct offer *o = p->offer;
	const char *gpu = o->gpu[0] != '\0' ? o->gpu : o->gpu_raw;

	switch (c) {
	case COL_PROVIDER:
		return str_copy(buf, size, o->provider);
	case COL_INSTANCE:
		return str_copy(buf, size, o->instance_type);
	case COL_REGION:
		if (p->other_regions > 0)
			return (size_t)snprintf(buf, size, "%s +%d",
			    column_region(o->region), p->other_regions);
		return str_copy(buf, size, column_region(o->region));
	case COL_RANGE:
		/* The folded regions' prices, its own included. */
		if (p->other_regions == 0 || !money_known(p->fold_low) ||
		    !money_known(p->fold_high))
			return str_copy(buf, size, "-");
		return column_range(p->fold_low, p->fold_high, buf, size);
	case COL_GPU:
		/* "2 nodes x 8 H100": never read as 8 GPUs of one machine. */
		if (p->nodes > 1)
			return (size_t)snprintf(buf, size, "%d nodes x %d %s%s",
			    p->nodes, o->gpu_count, gpu,
			    o->gpu[0] == '\0' ? "?" : "");
		return (size_t)snprintf(buf, size, "%dx %s%s", o->gpu_count,
		    gpu, o->gpu[0] == '\0' ? "?" : "");
	case COL_VRAM:
		if (o->vram_gb <= 0)
			return (size_t)snprintf(buf, size, "-");
		return (size_t)snprintf(buf, size, "%dG", o->vram_gb);
	case COL_LINK:
		if (plan_link(p) == IC_UNKNOWN)
			return (size_t)snprintf(buf, size, "-");
		return str_copy(buf, size, interconnect_name(plan_link(p)));
	case COL_NOTES:
		if (notes_markers(notes_at(o, ctx->now), buf, size) == 0)
			return str_copy(buf, size, "-");
		return strlen(buf);
	case COL_PRICE:
		return column_money(p->price_hour, buf, size);
	case COL_GPU_PRICE:
		return column_money(p->price_gpu_hour, buf, size);
	case COL_SPOT:
		return column_money(p->spot_hour, buf, size);
	case COL_SPOT_GPU:
		return column_money(p->spot_gpu_hour, buf, size);
	case COL_SAVINGS:
		if (isnan(p->spot_savings_pct))
			return (size_t)snprintf(buf, size, "-");
		return (size_t)snprintf(buf, size, "%.0f%%",
		    p->spot_savings_pct);
	case COL_PFLOP:
		if (isnan(p->usd_per_pflop_hour))
			return (size_t)snprintf(buf, size, "-");
		return (size_t)snprintf(buf, size, "%.2f",
		    p->usd_per_pflop_hour);
	case COL_AVAIL:
		switch (o->availability) {
		case AV_AVAILABLE:
			return str_copy(buf, size, "yes");
		case AV_LIMITED:
			return str_copy(buf, size, "low");
		case AV_UNAVAILABLE:
			return str_copy(buf, size, "no");
		case AV_UNKNOWN:
			break;
		}
		return str_copy(buf, size, "?");
	case COL_AGE:
		return column_age(ctx->now - o->fetched_at, buf, size);
	case COL_TERM_GPU:
		return column_money(p->term_gpu_hour, buf, size);
	case COL_TERM_SAVE:
		if (isnan(p->term_savings_pct))
			return (size_t)snprintf(buf, size, "-");
		return (size_t)snprintf(buf, size, "%.0f%%",
		    p->term_savings_pct);
	case COL_TERM_TOTAL:
		if (p->term == NULL)
			return column_total(MONEY_NONE, buf, size);
		return column_total(cost_term_total(p->term_hour,
		    p->term->months, ctx->hours), buf, size);
	case COL_TOTAL:
		return column_total(cost_total(p->price_hour, ctx->hours), buf,
		    size);
	case COL_SPOT_TOTAL:
		return column_total(cost_total(p->spot_hour, ctx->hours), buf,
		    size);
	case COL_VCPUS_GPU:
		if (offer_vcpus_per_gpu(o) <= 0)
			return (size_t)snprintf(buf, size, "-");
		return (size_t)snprintf(buf, size, "%.1f",
		    offer_vcpus_per_gpu(o));
	case COL_RAM_GPU:
		if (offer_ram_gb_per_gpu(o) <= 0)
			return (size_t)snprintf(buf, size, "-");
		return (size_t)snprintf(buf, size, "%.0fG",
		    offer_ram_gb_per_gpu(o));
	case COL_FABRIC:
		if (fabric_kind_name(offer_fabric_kind(o)) == NULL)
			return str_copy(buf, size, "-");
		return str_copy(buf, size, fabric_kind_name(
		    offer_fabric_kind(o)));
	case COL_NODE_GBPS:
		if (offer_node_gbps(o) <= 0)
			return str_copy(buf, size, "-");
		return (size_t)snprintf(buf, size, "%d", offer_node_gbps(o));
	case COL_JOB_HOURS:
	case COL_JOB:
	case COL_SPOT_JOB:
	case COL_PER_BTOK:
	case COL_EGRESS:
	case COL_TERM_JOB:
		return job_cell(c, p->job, buf, size);
	case COLUMN_COUNT:
		break;
	}
	if (size > 0)
		buf[0] = '\0';
	return 0;
}

bool
column_is_term(enum column c)
{
	return c == COL_TERM_GPU || c == COL_TERM_SAVE || c == COL_TERM_TOTAL;
}

int
column_dump(FILE *out, const char *label, const struct plan *plans, size_t n,
    const struct column_ctx *ctx)
{
	char cell[256];
	size_t i;
	int c;

	fprintf(out, "# %s %zu\n#provider\tkey\tnodes\t+N", label, n);
	for (c = 0; c < COLUMN_COUNT; c++)
		fprintf(out, "\t%s", column_info[c].header);
	fputc('\n', out);
	for (i = 0; i < n; i++) {
		fprintf(out, "%s\t%s\t%d\t%d", plans[i].offer->provider,
		    plans[i].offer->key, plans[i].nodes,
		    plans[i].other_regions);
		for (c = 0; c < COLUMN_COUNT; c++) {
			column_cell((enum column)c, &plans[i], ctx, cell,
			    sizeof cell);
			fprintf(out, "\t%s", cell);
		}
		fputc('\n', out);
	}
	return fflush(out) == 0 && !ferror(out) ? 0 : -1;
}

bool
column_is_train(enum column c)
{
	return c == COL_JOB_HOURS || c == COL_JOB || c == COL_SPOT_JOB ||
	    c == COL_PER_BTOK || c == COL_EGRESS || c == COL_TERM_JOB;
}

