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

#include <stdio.h>

#include "offer.h"

/*
 * id, header, min width, priority, right-aligned, flexible, sort key.
 *
 * Priority decides what a narrow table keeps (columns_fit()): 0 is
 * never dropped (provider, instance, GPUs with their count, $/GPU-h and
 * the interconnect), nor is the column being sorted on, nor the job
 * total with --hours (the spot total when ranking by spot); then the
 * region (1), the spot price per GPU-hour (2), the instance price and
 * the other total (3), savings (4), VRAM (5), availability and host per
 * GPU (6), age (7), the spot price per instance-hour (8) and $/PFLOP-h
 * (9); with --term, its price per GPU-hour (2, 0 when ranking by it, as
 * by default), its saving (4) and its job total (3); the fabric between
 * nodes and its Gb/s per node (1), shown only when an answer has plans of
 * several nodes or filters on the fabric (column_fabric_shown()); with
 * --train (column_is_train()), the job's wall-clock hours (1), its cost
 * (0: what it ranks by), its expected spot cost (1), its cost per
 * billion tokens (3), the egress (0: asked for, shown only with
 * --egress) and the job on its best term (4). Before
 * any of these, columns with no value in any shown row go;
 * and no column is cut short to make room for a less important one
 * (layout_fit()).
 */
#define COLUMN_INFO(X)							\
	X(COL_PROVIDER,	"PROVIDER",	6, 0, false, false, SORT_PROVIDER) \
	X(COL_INSTANCE,	"INSTANCE",	8, 0, false, true,  SORT_INSTANCE) \
	X(COL_REGION,	"REGION",	6, 1, false, true,  SORT_REGION) \
	X(COL_GPU,	"GPUS",		6, 0, false, false, SORT_GPU)	\
	X(COL_VRAM,	"VRAM",		4, 5, true,  false, SORT_VRAM)	\
	X(COL_LINK,	"LINK",		4, 0, false, false, SORT_INTERCONNECT) \
	X(COL_PRICE,	"$/H",		3, 3, true,  false, SORT_PRICE)	\
	X(COL_GPU_PRICE, "$/GPU-H",	7, 0, true,  false, SORT_GPU_PRICE) \
	X(COL_NOTES,	"NOTE",		4, 5, false, false, SORT_GPU_PRICE) \
	X(COL_SPOT,	"SPOT $/H",	8, 8, true,  false, SORT_SPOT)	\
	X(COL_SPOT_GPU,	"SPOT/GPU-H",	10, 2, true, false, SORT_SPOT_GPU) \
	X(COL_SAVINGS,	"SAVE",		4, 4, true,  false, SORT_SAVINGS) \
	X(COL_PFLOP,	"$/PFLOP-H",	9, 9, true,  false, SORT_PFLOP)	\
	X(COL_VCPUS_GPU, "CPU/GPU",	7, 6, true,  false, SORT_VCPUS_GPU) \
	X(COL_RAM_GPU,	"RAM/GPU",	7, 6, true,  false, SORT_RAM_GPU) \
	X(COL_AVAIL,	"AVAIL",	5, 6, false, false, SORT_AVAILABILITY) \
	X(COL_AGE,	"AGE",		3, 7, true,  false, SORT_AGE)	\
	X(COL_TOTAL,	"TOTAL $",	7, 3, true,  false, SORT_PRICE)	\
	X(COL_SPOT_TOTAL, "SPOT TOTAL $", 12, 3, true, false, SORT_SPOT)	\
	X(COL_FABRIC,	"FABRIC",	6, 1, false, false, SORT_GPU_PRICE) \
	X(COL_NODE_GBPS, "NODE GB/S",	9, 1, true,  false, SORT_GPU_PRICE) \
	X(COL_TERM_GPU,	"TERM $/GPU-H",	12, 2, true, false, SORT_TERM_GPU) \
	X(COL_TERM_SAVE, "TERM SAVE",	9, 4, true,  false, SORT_TERM_GPU) \
	X(COL_TERM_TOTAL, "TERM TOTAL $", 12, 3, true, false, SORT_TERM_GPU) \
	X(COL_JOB_HOURS, "HOURS",	5, 1, true,  false, SORT_JOB)	\
	X(COL_JOB,	"JOB $",	5, 0, true,  false, SORT_JOB)	\
	X(COL_SPOT_JOB,	"SPOT JOB $",	10, 1, true, false, SORT_JOB)	\
	X(COL_PER_BTOK,	"$/1B TOKENS",	11, 3, true, false, SORT_JOB)	\
	X(COL_EGRESS,	"EGRESS $",	8, 0, true,  false, SORT_JOB)	\
	X(COL_TERM_JOB,	"TERM JOB $",	10, 4, true, false, SORT_JOB)

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

/* Is c a column of --term (shown only when one is asked)? */
bool	column_is_term(enum column c);
/* Is c a column of --train's job (shown only with it; EGRESS $ only
 * with --egress)? */
bool	column_is_train(enum column c);

/* Human-readable cell text of column c for plan p. Returns its length. */
size_t	column_cell(enum column c, const struct plan *p,
	    const struct column_ctx *ctx, char *buf, size_t size);

/*
 * Tests (GPUCOST_DEBUG_ROWS, tests/cli/one_answer.sh): write the rows a
 * face renders, one line each, TAB-separated: the offer's provider and
 * key, the plan's nodes and +N, then every column's cell (column_cell(),
 * before column_fix_decimals()), after a line "# LABEL N" (N rows) and
 * a line of the column names ("#provider ...").
 * The table and the TUI write the same lines for the same answer.
 */
struct column_ctx;
int	column_dump(FILE *out, const char *label, const struct plan *plans,
	    size_t n, const struct column_ctx *ctx);

/*
 * Does a table of plans[0..n) show FABRIC and NODE GB/S? When one of
 * them has several nodes, or filter_fabric (--fabric, --min-node-gbps).
 */
bool	column_fabric_shown(const struct plan *plans, size_t n,
	    bool filter_fabric);

/* "5m", "3h", "12d": a short age of seconds. */
size_t	column_age(int64_t seconds, char *buf, size_t size);

/* Money for people: at least 2 and at most 4 decimals. */
size_t	column_money(int64_t micro, char *buf, size_t size);

/* A job total for people: cents, thousands separated ("7,209.29"). */
size_t	column_total(int64_t micro, char *buf, size_t size);

/* Does a cell show no value ("-", "?" or nothing)? */
bool	column_cell_empty(const char *cell);

/*
 * Give every number of one column as many decimals as its longest
 * ("1.39" and "2.9458" become "1.3900" and "2.9458"), so the points
 * line up: cells[i * stride] for i < n, each cell_size bytes. Cells
 * that are not plain numbers are left alone.
 */
void	column_fix_decimals(char *cells, size_t cell_size, size_t stride,
	    size_t n);

/*
 * Lay out a table of columns cols[0..n) in width (0: no limit): want[j]
 * is the widest cell of column j (header included) and empty[j] whether
 * no shown row has a value in it; sort is the order shown. Fills lay[]
 * by the priorities above and layout_fit(); returns the width used.
 */
struct layout_column;
size_t	columns_fit(const enum column *cols, size_t n, const size_t *want,
	    const bool *empty, enum sort_key sort, struct layout_column *lay,
	    size_t width);

#endif
