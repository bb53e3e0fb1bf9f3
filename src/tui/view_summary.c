/*
 * tui/view_summary.c: the market summary of the offers the table shows:
 * one row per GPU, provider or region (the key cycles the grouping) with
 * the offers, min / median / max per GPU-hour, the spot minimum and the
 * cheapest offer. The same query_plans() and summary_build() as
 * `gpucost --group-by`, over every offer (not the table's folded rows),
 * so both give the same counts and medians for the same filter.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "columns.h"
#include "money.h"
#include "query.h"
#include "summary.h"
#include "tui/curses.h"
#include "tui/model.h"
#include "tui/view.h"

struct summary_view {
	enum group_key key;	/* what the rows are */
	/*
	 * The offers summarised: query_plans() of the model's filter, as
	 * `gpucost --group-by` has them -- every offer, not the table's rows
	 * folded by region. Kept until the filter or the data change.
	 */
	struct plan	*plans;		/* owned */
	size_t		 nplans;
	struct offer_filter filter;	/* what plans[] answers */
	unsigned	 generation;	/* the model's load it was made from */
	bool		 valid;
};

/* The summary's plans for the model's current filter. */
static void
summary_plans(struct summary_view *s, const struct model *m)
{
	if (s->valid && s->generation == m->generation &&
	    memcmp(&s->filter, &m->filter, sizeof s->filter) == 0)
		return;
	free(s->plans);
	query_plans(m->offers.v, m->offers.n, &m->filter, SORT_GPU_PRICE,
	    false, &s->plans, &s->nplans);
	s->filter = m->filter;
	s->generation = m->generation;
	s->valid = true;
}

/* Money for a cell: "-" when unknown. */
static void
money_cell(int64_t v, char *buf, size_t size)
{
	if (money_known(v))
		column_money(v, buf, size);
	else
		snprintf(buf, size, "-");
}

/* Draw the summary: a row per group, from the base's top. */
static void
summary_draw(struct view *v)
{
	static const char *const titles[GROUP_KEY_COUNT] = {
		[GROUP_GPU] = "GPU", [GROUP_PROVIDER] = "provider",
		[GROUP_REGION] = "region", [GROUP_CONTINENT] = "continent",
	};
	struct summary_view *s = v->priv;
	struct model *m = tui_model(v->tui);
	struct group_by by = { .keys = { s->key }, .nkeys = 1 };
	struct summary_group *g;
	char line[512], title[128], lo[32], med[32], hi[32], spot[32];
	size_t n, i;
	int y;

	summary_plans(s, m);
	summary_build(s->plans, s->nplans, &by, m->filter.spot, &g, &n);
	v->rows = (int)n;
	snprintf(title, sizeof title, " Market summary by %s of %zu offers "
	    "(m: next grouping, Esc: back)", titles[s->key], s->nplans);
	view_title(v, title);
	snprintf(line, sizeof line, "%-16s %6s %11s %9s %9s %9s  %s",
	    s->key == GROUP_GPU ? "GPU" : s->key == GROUP_PROVIDER ?
	    "PROVIDER" : s->key == GROUP_REGION ? "REGION" : "CONTINENT", "OFFERS", "MIN $/GPU-H", "MEDIAN", "MAX",
	    "SPOT MIN", "CHEAPEST");
	draw_fill(&v->area, v->area.y + 1, ui_attr(UI_HEADER));
	draw_text(v->area.y + 1, v->area.x, v->area.w, line,
	    ui_attr(UI_HEADER), false);
	for (i = (size_t)v->top; i < n && (y = view_row_y(v, (int)i)) >= 0;
	    i++) {
		const struct offer *c = g[i].cheapest->offer;

		money_cell(g[i].price.min, lo, sizeof lo);
		money_cell(g[i].price.median, med, sizeof med);
		money_cell(g[i].price.max, hi, sizeof hi);
		money_cell(g[i].spot.min, spot, sizeof spot);
		snprintf(line, sizeof line, "%-16.16s %6zu %11s %9s %9s %9s  "
		    "%s %s %s", s->key == GROUP_REGION ||
		    s->key == GROUP_CONTINENT ? column_region(g[i].values[0]) :
		    g[i].values[0], g[i].offers, lo, med, hi, spot,
		    c->provider, c->instance_type, column_region(c->region));
		draw_text(y, v->area.x, v->area.w, line, ui_attr(UI_NORMAL),
		    false);
	}
	if (n == 0)
		draw_text(v->area.y + 2, v->area.x + 1, v->area.w - 2,
		    "No offer matches the filter.", ui_attr(UI_DIM), false);
	free(g);
}

/* m cycles the grouping; the base scrolls and goes back. */
static bool
summary_action(struct view *v, enum action a)
{
	struct summary_view *s = v->priv;

	if (a != ACT_SUMMARY)
		return false;
	s->key = (enum group_key)((s->key + 1) % GROUP_KEY_COUNT);
	v->top = 0;
	return true;
}

static void
summary_free(struct view *v)
{
	struct summary_view *s = v->priv;

	free(s->plans);
	free(s);
}

static const struct view_ops summary_ops = {
	.name = "summary",
	.scope = SC_HELP,
	.kind = VIEW_PAGER,
	.head = 2,
	.draw = summary_draw,
	.action = summary_action,
	.free = summary_free,
};

/* The market summary of what the table shows. */
struct view *
view_summary_new(struct tui *tui)
{
	return view_new(tui, &summary_ops, sizeof(struct summary_view));
}
