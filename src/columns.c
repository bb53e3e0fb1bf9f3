/* columns.c: offers-table columns and their human-readable cells. */
#include "config.h"
#include "columns.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cost.h"
#include "money.h"
#include "notes.h"
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
	/* Round to 1/100 cent for display; exact values are in CSV/JSON. */
	return money_format(buf, size, money_div_round(micro, 100) * 100, 2);
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
		return str_copy(buf, size, o->region);
	case COL_GPU:
		if (p->nodes > 1)
			return (size_t)snprintf(buf, size, "%dx%d %s%s",
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
	case COL_TOTAL:
		return column_money(cost_total(p->price_hour, ctx->hours), buf,
		    size);
	case COL_SPOT_TOTAL:
		return column_money(cost_total(p->spot_hour, ctx->hours), buf,
		    size);
	case COLUMN_COUNT:
		break;
	}
	if (size > 0)
		buf[0] = '\0';
	return 0;
}
