/*
 * tui/view_detail.c: one offer in full: every field, the cost breakdown
 * (per hour, per GPU-hour, spot saving, price-performance, job totals
 * for fixed and typed hours), how to launch it (the provider's
 * commands, zones, quotas, Vertex AI training) and the price history as
 * a small chart.
 *
 * The view copies the offer, so a reload (after a refresh) cannot pull
 * it away; the history is read once when the view opens.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "columns.h"
#include "cost.h"
#include "db.h"
#include "err.h"
#include "gpu.h"
#include "launch.h"
#include "money.h"
#include "notes.h"
#include "region.h"
#include "str.h"
#include "tui/chart.h"
#include "tui/curses.h"
#include "tui/model.h"
#include "tui/view.h"

#define CHART_W_MAX	120
#define CHART_H		8
#define LABEL_W		22	/* label column of the fields */
#define COST_W		52	/* the cost breakdown's width */
#define TWO_COLUMNS_W	130	/* from this width, cost beside the fields */
#define VALUE_W		12	/* each cost column */

struct detail {
	struct offer	 offer;		/* a copy: reloads cannot move it */
	struct plan	 plan;		/* plan.offer points at offer above */
	struct price_point *history;	/* oldest first; owned */
	size_t		 nhistory;
	char		 history_error[ERR_MSG_MAX];
	double		 hours;		/* typed job length; < 0 none */
	/* --train's run on this plan (plan.job points at job); none:
	 * train.params 0. */
	struct train	 train;
	struct plan_job	 job;
	char		 cells[CHART_W_MAX * CHART_H];
};

/* Where the next content row goes. */
struct pen {
	const struct view *v;
	int		 row;		/* content row */
	int		 x, w;		/* columns of the area it writes in */
};

/* Screen row of the pen's row, or -1 when it is scrolled away. */
static int
pen_y(const struct pen *p)
{
	return view_row_y(p->v, p->row);
}

static void	pen_text(struct pen *p, int indent, enum ui_color role,
		    const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static void	pen_field(struct pen *p, const char *label, const char *fmt,
		    ...) __attribute__((format(printf, 3, 4)));

/* A line of text in role at indent. */
static void
pen_text(struct pen *p, int indent, enum ui_color role, const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	int y = pen_y(p);

	if (y >= 0) {
		va_start(ap, fmt);
		vsnprintf(buf, sizeof buf, fmt, ap);
		va_end(ap);
		draw_text(y, p->v->area.x + p->x + indent, p->w - indent, buf,
		    ui_attr(role), false);
	}
	p->row++;
}

/* "label   value" */
static void
pen_field(struct pen *p, const char *label, const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	int y = pen_y(p), x = p->v->area.x + p->x + 2;

	if (y >= 0) {
		va_start(ap, fmt);
		vsnprintf(buf, sizeof buf, fmt, ap);
		va_end(ap);
		draw_text(y, x, LABEL_W - 1, label, ui_attr(UI_LABEL), false);
		draw_text(y, x + LABEL_W, p->w - LABEL_W - 3, buf,
		    ui_attr(UI_NORMAL), false);
	}
	p->row++;
}

/* A cost row: label, on-demand and spot values. */
static void
pen_cost(struct pen *p, const char *label, const char *ondemand,
    const char *spot)
{
	int y = pen_y(p), x = p->v->area.x + p->x + 2;

	if (y >= 0) {
		draw_text(y, x, LABEL_W - 1, label, ui_attr(UI_LABEL), false);
		draw_text(y, x + LABEL_W, VALUE_W, ondemand,
		    ui_attr(UI_NORMAL), true);
		draw_text(y, x + LABEL_W + VALUE_W + 2, VALUE_W, spot,
		    ui_attr(strcmp(spot, "-") == 0 ? UI_DIM : UI_SPOT), true);
	}
	p->row++;
}

/* "2026-01-01" for t. */
static void
date_text(int64_t t, char *buf, size_t size)
{
	time_t tt = (time_t)t;
	struct tm tm;

	if (gmtime_r(&tt, &tm) == NULL || strftime(buf, size, "%Y-%m-%d",
	    &tm) == 0)
		snprintf(buf, size, "?");
}

/* A money cell, "$" in front of known values. */
static void
money_text(int64_t micro, char *buf, size_t size)
{
	char m[24];

	column_money(micro, m, sizeof m);
	if (money_known(micro))
		snprintf(buf, size, "$%s", m);
	else
		snprintf(buf, size, "-");
}

/* A job total as the CLI's TOTAL $ column prints it: "$1,574.53". */
static void
total_text(int64_t micro, char *buf, size_t size)
{
	char m[48];

	column_total(micro, m, sizeof m);
	if (money_known(micro))
		snprintf(buf, size, "$%s", m);
	else
		snprintf(buf, size, "-");
}

/* Job total for hours at both prices. */
static void
pen_total(struct pen *p, const struct detail *d, const char *label,
    double hours)
{
	char a[56], b[56];

	total_text(cost_total(d->plan.price_hour, hours), a, sizeof a);
	total_text(cost_total(d->plan.spot_hour, hours), b, sizeof b);
	pen_cost(p, label, a, b);
}

/* "label   value", the value wrapped under itself, never cut. */
static void
pen_field_wrap(struct pen *p, const char *label, const char *value)
{
	int y = pen_y(p), x = p->v->area.x + p->x + 2;

	if (y >= 0)
		draw_text(y, x, LABEL_W - 1, label, ui_attr(UI_LABEL), false);
	p->row += draw_wrapped(p->v, p->row, x + LABEL_W, p->w - LABEL_W - 3,
	    value, ui_attr(UI_NORMAL));
}

/* Each note of the offer, explained; the spot zone where known. */
static void
draw_notes(struct pen *p, const struct offer *o, int64_t now)
{
	unsigned mask = notes_at(o, now);
	char text[512];
	int i;

	for (i = 0; i < NOTE_COUNT; i++) {
		if ((mask & NOTE_BIT(i)) == 0)
			continue;
		if (i == NOTE_SPOT_CHEAPEST_ZONE && o->spot_zone[0] != '\0')
			snprintf(text, sizeof text, "%s %s: %s (%s)",
			    note_marker((enum note)i), note_token((enum note)i),
			    note_text((enum note)i), o->spot_zone);
		else
			snprintf(text, sizeof text, "%s %s: %s",
			    note_marker((enum note)i), note_token((enum note)i),
			    note_text((enum note)i));
		pen_field_wrap(p, "Note", text);
	}
}

/*
 * Where one price in every region ("all") can be started: its provider's
 * regions (data/any_region.tsv), as many a line as the width holds.
 */
static void
draw_any_regions(struct pen *p, const struct offer *o)
{
	const struct region_any *r;
	char line[512];
	size_t n, i, len = 0, k;
	int w = p->w - LABEL_W - 3;
	bool first = true;

	n = region_any_list(o->provider, &r);
	if (n == 0) {
		pen_field(p, "Can start in", "no region list: ask %s",
		    o->provider);
		return;
	}
	for (i = 0; i < n; i++) {
		k = strlen(r[i].region);
		if (len > 0 && (int)(len + 2 + k) > w) {
			pen_field(p, first ? "Can start in" : "", "%s", line);
			first = false;
			len = 0;
		}
		len += (size_t)snprintf(line + len, sizeof line - len, "%s%s",
		    len > 0 ? ", " : "", r[i].region);
		if (len >= sizeof line)
			len = sizeof line - 1;
	}
	pen_field(p, first ? "Can start in" : "", "%s", line);
}

/* The offer's fields. */
static void
draw_offer(struct pen *p, const struct detail *d, int64_t now)
{
	const struct offer *o = &d->offer;
	const struct gpu_model *model = d->plan.model;
	const char *intr = spot_interruption_name(o->spot_interruption);
	char date[16], age[16], gbps[16];

	snprintf(gbps, sizeof gbps, "%d", offer_node_gbps(o));
	pen_text(p, 1, UI_SECTION, "Offer");
	pen_field(p, "Provider", "%s", o->provider);
	pen_field(p, "Offer key", "%s", o->key);
	pen_field(p, "Instance type", "%s", o->instance_type);
	pen_field(p, "Region", "%s", column_region(o->region));
	if (region_is_any(o->region))
		draw_any_regions(p, o);
	if (o->gpu[0] != '\0')
		pen_field(p, "GPUs", "%d x %s%s%s%s", o->gpu_count, o->gpu,
		    strcmp(o->gpu, o->gpu_raw) != 0 ? " (listed as \"" : "",
		    strcmp(o->gpu, o->gpu_raw) != 0 ? o->gpu_raw : "",
		    strcmp(o->gpu, o->gpu_raw) != 0 ? "\")" : "");
	else
		pen_field(p, "GPUs", "%d x %s (not in the GPU catalogue)",
		    o->gpu_count, o->gpu_raw);
	if (model != NULL)
		pen_field(p, "GPU model", "%s %s, %d GB, %.0f BF16 TFLOPS "
		    "dense (%s form)", strcmp(model->vendor, "nvidia") == 0 ?
		    "NVIDIA" : strcmp(model->vendor, "amd") == 0 ? "AMD" :
		    model->vendor, model->arch,
		    model->vram_gb, gpu_bf16_tflops(model,
		    o->interconnect == IC_PCIE), o->interconnect == IC_PCIE ?
		    "PCIe" : "SXM");
	if (o->vram_gb > 0)
		pen_field(p, "VRAM", "%d GB per GPU, %d GB per instance",
		    o->vram_gb, o->vram_gb * o->gpu_count);
	else
		pen_field(p, "VRAM", "unknown");
	pen_field(p, "Interconnect", "%s%s",
	    interconnect_name(plan_link(&d->plan)),
	    plan_link(&d->plan) != o->interconnect ? " (one GPU per node)" :
	    "");
	if (o->vcpus > 0)
		pen_field(p, "vCPUs", "%d", o->vcpus);
	else
		pen_field(p, "vCPUs", "unknown");
	if (o->ram_gb > 0)
		pen_field(p, "RAM", "%.0f GB", o->ram_gb);
	else
		pen_field(p, "RAM", "unknown");
	pen_field(p, "Availability", "%s", availability_name(o->availability));
	pen_field(p, "Spot interruption", "%s", intr != NULL ? intr :
	    money_known(o->spot_price) ? "unknown" : "no spot market");
	if (o->reliability >= 0)
		pen_field(p, "Host reliability", "%.1f%%",
		    o->reliability * 100.0);
	date_text(o->fetched_at, date, sizeof date);
	column_age(now - o->fetched_at, age, sizeof age);
	pen_field(p, "Data", "%s, fetched %s (%s ago)",
	    o->source == SRC_SNAPSHOT ? "built-in snapshot" : "live API",
	    date, age);
	if (d->plan.nodes > 1)
		pen_field(p, "Plan", "%d nodes x %d GPUs%s (no NVLink between "
		    "nodes; between them: %s, %s Gb/s a node)",
		    d->plan.nodes, o->gpu_count, o->nodes > 1 ?
		    ", sold as one cluster" : "", cost_inter_node(&d->plan),
		    offer_node_gbps(o) > 0 ? gbps : "unknown");
	/* data/fabric.tsv: what joins this type's nodes. */
	if (o->fabric != NULL)
		pen_field(p, "Fabric", "%s, %s Gb/s a node, GPUDirect RDMA %s, "
		    "placement %s", fabric_kind_name(o->fabric->kind) ?
		    fabric_kind_name(o->fabric->kind) : "kind not stated",
		    offer_node_gbps(o) > 0 ? gbps : "unknown",
		    fabric_gdr_name(o->fabric->gdr),
		    fabric_placement_name(o->fabric->placement) ?
		    fabric_placement_name(o->fabric->placement) : "unknown");
	draw_notes(p, o, now);
}

/* The cost breakdown. */
static void
draw_cost(struct pen *p, const struct detail *d, double hours)
{
	const struct plan *pl = &d->plan;
	char a[32], b[32], label[48];
	double tflops = gpu_bf16_tflops(pl->model,
	    d->offer.interconnect == IC_PCIE);
	double pflop_spot = cost_usd_per_pflop_hour(pl->spot_gpu_hour, tflops);

	pen_text(p, 1, UI_SECTION, "Cost");
	pen_cost(p, "", "on-demand", "spot");
	money_text(pl->price_hour, a, sizeof a);
	money_text(pl->spot_hour, b, sizeof b);
	pen_cost(p, pl->nodes > 1 ? "per hour (all instances)" : "per hour",
	    a, b);
	money_text(pl->price_gpu_hour, a, sizeof a);
	money_text(pl->spot_gpu_hour, b, sizeof b);
	pen_cost(p, "per GPU-hour", a, b);
	/* A market's average price (Akash): the lowest seller's below it. */
	if (money_known(d->offer.price_from)) {
		money_text(d->offer.price_from, a, sizeof a);
		pen_cost(p, "from (lowest seller)", a, "");
	}
	if (isnan(pl->spot_savings_pct))
		snprintf(b, sizeof b, "-");
	else
		snprintf(b, sizeof b, "%.0f%%", pl->spot_savings_pct);
	pen_cost(p, "spot saving", "", b);
	if (isnan(pl->usd_per_pflop_hour))
		snprintf(a, sizeof a, "-");
	else
		snprintf(a, sizeof a, "$%.2f", pl->usd_per_pflop_hour);
	if (isnan(pflop_spot))
		snprintf(b, sizeof b, "-");
	else
		snprintf(b, sizeof b, "$%.2f", pflop_spot);
	pen_cost(p, "per BF16 PFLOP-hour", a, b);
	pen_total(p, d, "1 hour", 1);
	pen_total(p, d, "24 hours", 24);
	pen_total(p, d, "1 week (168 h)", 168);
	pen_total(p, d, "30 days (720 h)", 720);
	if (hours > 0) {
		snprintf(label, sizeof label, "%g hours (h: change)", hours);
		pen_total(p, d, label, hours);
	} else
		pen_cost(p, "custom: press h", "", "");
}

/* --train: the run on this plan, step by step (issue 46). */
static void
draw_job(struct pen *p, const struct detail *d)
{
	const struct plan_job *job = d->plan.job;
	const char *why;
	char run[64], a[56], b[56];

	if (job == NULL)
		return;
	train_text(&d->train, run, sizeof run);
	pen_text(p, 1, UI_SECTION, "Training run --train %s", run);
	pen_field(p, "Compute", "%.3g FLOPs (6 x params x tokens)",
	    train_flops(&d->train));
	if (isnan(job->gpu_hours)) {
		pen_field(p, "GPU-hours", "unknown: no BF16 peak for this GPU");
		return;
	}
	pen_field(p, "GPU-hours", "%.0f at MFU %.2f of %.0f BF16 TFLOPS",
	    job->gpu_hours, d->train.mfu, gpu_bf16_tflops(d->plan.model,
	    d->offer.interconnect == IC_PCIE));
	cost_scaling(&d->plan, &why);
	pen_field(p, "Memory", "%.0f GB needed, %.0f GB in the plan's GPUs",
	    train_memory_gb(&d->train), plan_vram_gb(&d->offer,
	    d->plan.nodes));
	pen_field(p, "Wall clock", "%.0f h on %d GPUs, scaling %.2f (%s)",
	    job->hours, d->plan.total_gpus, job->scaling, why);
	pen_cost(p, "", "on-demand", "spot");
	total_text(job->cost, a, sizeof a);
	total_text(job->spot_cost, b, sizeof b);
	pen_cost(p, "the job", a, b);
	snprintf(a, sizeof a, "%.0f h", job->hours);
	if (isnan(job->spot_hours))
		snprintf(b, sizeof b, "-");
	else
		snprintf(b, sizeof b, "%.0f h", job->spot_hours);
	pen_cost(p, "hours", a, b);
	pen_field(p, "Spot restarts", "%.1f expected (%s%.2f %% of a node's "
	    "hours), each losing half of a %d-minute checkpoint interval "
	    "and %.0f minutes to restart", job->interruptions,
	    job->rate_known ? "Spot Advisor: " : "default: ",
	    job->rate * 100, d->train.checkpoint_s / 60,
	    COST_RESTART_HOURS * 60);
	total_text(job->per_btok, a, sizeof a);
	pen_field(p, "Per 1B tokens", "%s", a);
	if (d->train.egress_gb > 0) {
		total_text(job->egress, a, sizeof a);
		pen_field(p, "Egress", "%s for %.0f GB out%s", a,
		    d->train.egress_gb, money_known(job->egress) ? "" :
		    " (no published price)");
	}
	if (job->term != NULL) {
		total_text(job->term_cost, a, sizeof a);
		total_text(job->term_commitment, b, sizeof b);
		pen_field(p, "On a term", "%s on %s %d-month terms (each "
		    "commits %s)", a, committed_kind_name(job->term->kind),
		    job->term->months, b);
	}
}

/* Text over as many lines as it needs, broken after a space if it can. */
static void
pen_wrap(struct pen *p, int indent, enum ui_color role, const char *text)
{
	char line[LAUNCH_CMD_MAX];
	size_t n, cut;
	int w = p->w - indent - 3;

	if (w < 10)
		w = 10;
	while (*text != '\0') {
		n = str_prefix_for_width(text, (size_t)w);
		cut = n;
		if (text[n] != '\0') {
			while (cut > 0 && text[cut - 1] != ' ')
				cut--;
			if (cut == 0)
				cut = n;
		}
		if (cut == 0)
			break;
		memcpy(line, text, cut);
		line[cut] = '\0';
		pen_text(p, indent, role, "%s", line);
		text += cut;
		indent = indent < 6 ? 6 : indent;	/* continuation */
	}
}

/* How to rent it: commands, zones, quotas, Vertex AI training. */
static void
draw_launch(struct pen *p, const struct detail *d)
{
	const struct offer *o = &d->offer;
	char cmd[LAUNCH_CMD_MAX], list[LAUNCH_LIST_MAX];
	enum gcp_vertex vertex = launch_vertex_training(o);

	pen_text(p, 1, UI_SECTION, "Launch (y: copy the on-demand command; "
	    "IMAGE, KEY, PROJECT ... are yours to fill in)");
	if (launch_command(&d->plan, cmd, sizeof cmd) > 0) {
		pen_text(p, 2, UI_LABEL, "On demand%s", d->plan.nodes > 1 &&
		    strstr(cmd, "gpucost-2") == NULL && strstr(cmd, "--count")
		    == NULL && strstr(cmd, "quantity") == NULL ?
		    " (run once per instance)" : "");
		pen_wrap(p, 4, UI_NORMAL, cmd);
	} else
		pen_text(p, 2, UI_DIM, "No launch command known for %s.",
		    o->provider);
	if (launch_spot_command(&d->plan, cmd, sizeof cmd) > 0) {
		pen_text(p, 2, UI_LABEL, "Spot");
		pen_wrap(p, 4, UI_SPOT, cmd);
	}
	if (launch_zones(o, list, sizeof list) > 0)
		pen_field(p, "Zones", "%s", list);
	if (launch_quota(o, list, sizeof list) > 0) {
		pen_text(p, 2, UI_LABEL, "Quotas to check first");
		pen_wrap(p, 4, UI_NORMAL, list);
	}
	/* Issue 26: placing the nodes together, the fabric's settings. */
	if (launch_cluster_setup(&d->plan, cmd, sizeof cmd) > 0) {
		pen_text(p, 2, UI_LABEL, "Cluster setup");
		pen_wrap(p, 4, UI_NORMAL, cmd);
	}
	if (vertex == VERTEX_UNKNOWN)
		return;
	pen_field(p, "Vertex AI training", "%s", vertex == VERTEX_YES ?
	    "offered in this region" : "not offered in this region");
	if (launch_vertex_command(&d->plan, cmd, sizeof cmd) > 0) {
		pen_wrap(p, 4, UI_NORMAL, cmd);
		pen_text(p, 4, UI_DIM, "Prices shown are Compute Engine's: "
		    "Vertex AI bills training separately (no verified "
		    "table).");
	}
}

/* The price history chart. */
static void
draw_history(struct pen *p, struct detail *d, int64_t now)
{
	struct chart c;
	char lo[32], hi[32], d0[16], d1[16];
	int w = p->w - 16, r, y, x;

	pen_text(p, 1, UI_SECTION, "Price history (per instance-hour: "
	    "* on-demand, o spot)");
	if (d->history_error[0] != '\0') {
		pen_text(p, 2, UI_ERROR, "%s", d->history_error);
		return;
	}
	if (w > CHART_W_MAX)
		w = CHART_W_MAX;
	if (w < 10)
		w = 10;
	c.width = w;
	c.height = CHART_H;
	c.cells = d->cells;
	if (chart_plot(&c, d->history, d->nhistory, now) < 0) {
		pen_text(p, 2, UI_DIM, "No price recorded for this offer yet.");
		return;
	}
	column_money(c.vmax, hi, sizeof hi);
	column_money(c.vmin, lo, sizeof lo);
	for (r = 0; r < c.height; r++) {
		if ((y = pen_y(p)) >= 0) {
			x = p->v->area.x + p->x + 2;
			if (c.vmin == c.vmax ? r == chart_row(&c, c.vmin) :
			    r == 0 || r == c.height - 1)
				draw_text(y, x, 10, r == 0 ? hi : lo,
				    ui_attr(UI_LABEL), true);
			draw_text(y, x + 11, 1, "|", ui_attr(UI_DIM), false);
			for (int k = 0; k < c.width; k++) {
				char ch = c.cells[r * c.width + k];

				if (ch == CHART_EMPTY)
					continue;
				attrset(ui_attr(ch == CHART_SPOT ||
				    ch == CHART_SPOT_RISE ? UI_CHART_SPOT :
				    UI_CHART));
				mvaddch(y, x + 12 + k, (chtype)ch);
			}
			attrset(A_NORMAL);
		}
		p->row++;
	}
	date_text(c.t0, d0, sizeof d0);
	date_text(c.t1, d1, sizeof d1);
	if ((y = pen_y(p)) >= 0) {
		x = p->v->area.x + p->x + 2 + 12;
		draw_text(y, x, c.width, d0, ui_attr(UI_DIM), false);
		if (c.width > 24)
			draw_text(y, x, c.width, d1, ui_attr(UI_DIM), true);
	}
	p->row++;
	pen_text(p, 2, UI_DIM, "%zu recorded price%s since %s", c.changes,
	    c.changes == 1 ? "" : "s", d0);
}

/* Draw everything, scrolled. */
static void
detail_draw(struct view *v)
{
	struct detail *d = v->priv;
	struct pen p = { .v = v, .row = 0, .x = 0, .w = v->area.w };
	struct pen q;
	const struct offer *o = &d->offer;
	char title[256];
	int64_t now = tui_now(v->tui);

	snprintf(title, sizeof title, " %s at %s, %s", o->instance_type,
	    o->provider, column_region(o->region));
	view_title(v, title);
	if (v->area.w >= TWO_COLUMNS_W) {
		/* The fields on the left, the cost beside them. */
		q = p;
		p.w = v->area.w - COST_W;
		q.x = p.w;
		q.w = COST_W;
		draw_offer(&p, d, now);
		draw_cost(&q, d, d->hours);
		if (q.row > p.row)
			p.row = q.row;
		p.w = v->area.w;
	} else {
		draw_offer(&p, d, now);
		p.row++;
		draw_cost(&p, d, d->hours);
	}
	if (d->plan.job != NULL) {
		p.row++;
		draw_job(&p, d);
	}
	p.row++;
	draw_launch(&p, d);
	p.row++;
	draw_history(&p, d, now);
	v->rows = p.row;	/* the base keeps top inside it */
}

/* Parse typed hours like --hours. */
static bool
hours_done(struct view *v, const char *text, bool accepted)
{
	struct detail *d = v->priv;
	char *end;
	double h;

	if (!accepted)
		return true;
	if (text[0] == '\0') {
		d->hours = -1;
		return true;
	}
	errno = 0;
	h = strtod(text, &end);
	if (*end != '\0' || errno != 0 || !isfinite(h) || h <= 0 || h > 1e6) {
		tui_message(v->tui, UI_ERROR, "Hours: expected a number greater "
		    "than 0 and at most 1000000");
		return false;
	}
	d->hours = h;
	return true;
}

static const struct prompt_ops hours_prompt = {
	.changed = NULL,
	.done = hours_done,
};

/* Hours and copying; the base scrolls and goes back. */
static bool
detail_action(struct view *v, enum action a)
{
	struct detail *d = v->priv;
	char text[32] = "";

	switch (a) {
	case ACT_HOURS:
		if (d->hours > 0)
			snprintf(text, sizeof text, "%g", d->hours);
		tui_prompt(v->tui, v, &hours_prompt, "Hours: ", text);
		return true;
	case ACT_COPY:
	case ACT_COPY_OTHER:
		tui_copy_launch(v->tui, &d->plan, a == ACT_COPY_OTHER);
		return true;
	default:
		return false;
	}
}

/* Free the history. */
static void
detail_free(struct view *v)
{
	struct detail *d = v->priv;

	free(d->history);
	free(d);
}

static const struct view_ops detail_ops = {
	.name = "detail",
	.scope = SC_DETAIL,
	.kind = VIEW_PAGER,
	.head = 1,
	.draw = detail_draw,
	.action = detail_action,
	.free = detail_free,
};

/* The detail of plan i of the model. */
struct view *
view_detail_new(struct tui *tui, size_t i)
{
	struct view *v = view_new(tui, &detail_ops, sizeof(struct detail));
	struct detail *d = v->priv;
	struct model *m = tui_model(tui);
	struct err err;

	d->offer = *m->plans[i].offer;
	d->plan = m->plans[i];
	d->plan.offer = &d->offer;
	d->plan.job = NULL;
	d->hours = tui_hours(tui);
	d->train = m->filter.train;
	if (train_given(&d->train))
		cost_plan_train(&d->plan, &d->train, m->filter.spot, &d->job);
	if (db_history(m->db, d->offer.provider, d->offer.key, &d->history,
	    &d->nhistory, &err) < 0) {
		d->history = NULL;
		d->nhistory = 0;
		str_copy(d->history_error, sizeof d->history_error, err.msg);
	}
	return v;
}
