/*
 * columns.h: the columns of the offers table, shared by the CLI table
 * and the TUI: header, how important a column is when space is short,
 * which sort key it maps to, and how a plan's cell reads to a person.
 * Machine formats (CSV, JSON) print exact values instead (output.c).
 */
#ifndef GPUCOST_COLUMNS_H
#define GPUCOST_COLUMNS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "offer.h"

/* id, header, min width, priority (1 keep longest), right-aligned, flexible, sort key */
#define COLUMN_INFO(X)							\
	X(COL_PROVIDER,	"PROVIDER",	6, 1, false, false, SORT_PROVIDER) \
	X(COL_INSTANCE,	"INSTANCE",	8, 4, false, true,  SORT_INSTANCE) \
	X(COL_REGION,	"REGION",	6, 3, false, true,  SORT_REGION) \
	X(COL_GPU,	"GPUS",		6, 1, false, false, SORT_GPU)	\
	X(COL_VRAM,	"VRAM",		4, 5, true,  false, SORT_VRAM)	\
	X(COL_LINK,	"LINK",		4, 6, false, false, SORT_INTERCONNECT) \
	X(COL_PRICE,	"$/H",		3, 2, true,  false, SORT_PRICE)	\
	X(COL_GPU_PRICE, "$/GPU-H",	7, 1, true,  false, SORT_GPU_PRICE) \
	X(COL_NOTES,	"NOTE",		4, 5, false, false, SORT_GPU_PRICE) \
	X(COL_SPOT,	"SPOT $/H",	8, 7, true,  false, SORT_SPOT)	\
	X(COL_SPOT_GPU,	"SPOT/GPU-H",	10, 2, true, false, SORT_SPOT_GPU) \
	X(COL_SAVINGS,	"SAVE",		4, 3, true,  false, SORT_SAVINGS) \
	X(COL_PFLOP,	"$/PFLOP-H",	9, 9, true,  false, SORT_PFLOP)	\
	X(COL_AVAIL,	"AVAIL",	5, 8, false, false, SORT_AVAILABILITY) \
	X(COL_AGE,	"AGE",		3, 6, true,  false, SORT_AGE)	\
	X(COL_TOTAL,	"TOTAL $",	7, 2, true,  false, SORT_PRICE)	\
	X(COL_SPOT_TOTAL, "SPOT TOTAL $", 12, 3, true, false, SORT_SPOT)

enum column {
#define X(id, hdr, min, prio, right, flex, sort) id,
	COLUMN_INFO(X)
#undef X
	COLUMN_COUNT
};

struct column_info {
	const char	*header;
	size_t		 min;
	int		 priority;
	bool		 right;
	bool		 flexible;
	enum sort_key	 sort;
};

extern const struct column_info column_info[COLUMN_COUNT];

struct column_ctx {
	int64_t	now;		/* for ages: UTC epoch seconds */
	double	hours;		/* job length for the totals; < 0 none */
};

/* Human-readable cell text of column c for plan p. Returns its length. */
size_t	column_cell(enum column c, const struct plan *p,
	    const struct column_ctx *ctx, char *buf, size_t size);

/* "5m", "3h", "12d": a short age of seconds. */
size_t	column_age(int64_t seconds, char *buf, size_t size);

/* Money for people: at least 2 and at most 4 decimals. */
size_t	column_money(int64_t micro, char *buf, size_t size);

#endif
