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

#include "money.h"
#include "offer.h"

/*
 * id, header, min width, priority, right-aligned, flexible, sort key.
 *
 * Priority decides what a narrow table keeps (columns_fit()), in the
 * order a buyer decides: first the price and what it buys, then how
 * fresh and where, then the rest. Never dropped (0): the provider, the
 * instance, the GPUs with their count, $/GPU-h, the column being sorted
 * on, NOTE while a shown row has a note, and with --hours both job
 * totals (on demand and spot: "which is cheaper for my job?"), with
 * --term ranked also the term's total. Then the region (1), the age of
 * the price (2: freshness), the spot price per GPU-hour and the term's
 * price (3), the interconnect (4), the instance price and the term's
 * total (5), the savings (6), VRAM (7), availability (8), CPU and RAM
 * per GPU (9), the price range of a folded row's regions (10), the spot
 * price per instance-hour (11) and $/PFLOP-h (12); the fabric between
 * nodes and its Gb/s per node (1), shown only when an answer has plans
 * of several nodes or filters on the fabric (column_fabric_shown()); with
 * --train (column_is_train()), its two totals as --hours' (the job on
 * demand, ranked by, and on spot: 0), the egress asked for (0), the
 * job's wall-clock hours (2), its cost per billion tokens (5) and the job
 * on its best term (6).
 * Before any of these, columns with no value in any shown row go; the
 * GPUs column weighs as the savings when every row says the same (the
 * question said it), and as the region, dropped before it, with --hours
 * (so both totals fit at 80 columns).
 *
 * No column is flexible: a name a buyer copies (instance, region) is
 * shown whole or not at all (issue 45), so a narrow table drops a
 * lesser column rather than cut one.
 */
#define COLUMN_INFO(X)							\
	X(COL_PROVIDER,	"PROVIDER",	6, 0, false, false, SORT_PROVIDER) \
	X(COL_INSTANCE,	"INSTANCE",	8, 0, false, false, SORT_INSTANCE) \
	X(COL_REGION,	"REGION",	6, 1, false, false, SORT_REGION) \
	X(COL_GPU,	"GPUS",		6, 0, false, false, SORT_GPU)	\
	X(COL_VRAM,	"VRAM",		4, 7, true,  false, SORT_VRAM)	\
	X(COL_LINK,	"LINK",		4, 4, false, false, SORT_INTERCONNECT) \
	X(COL_PRICE,	"$/H",		3, 5, true,  false, SORT_PRICE)	\
	X(COL_GPU_PRICE, "$/GPU-H",	7, 0, true,  false, SORT_GPU_PRICE) \
	X(COL_NOTES,	"NOTE",		4, 7, false, false, SORT_GPU_PRICE) \
	X(COL_RANGE,	"RANGE/GPU-H",	11, 10, true, false, SORT_GPU_PRICE) \
	X(COL_SPOT,	"SPOT $/H",	8, 11, true, false, SORT_SPOT)	\
	X(COL_SPOT_GPU,	"SPOT/GPU-H",	10, 3, true, false, SORT_SPOT_GPU) \
	X(COL_SAVINGS,	"SAVE",		4, 6, true,  false, SORT_SAVINGS) \
	X(COL_PFLOP,	"$/PFLOP-H",	9, 12, true, false, SORT_PFLOP)	\
	X(COL_VCPUS_GPU, "CPU/GPU",	7, 9, true,  false, SORT_VCPUS_GPU) \
	X(COL_RAM_GPU,	"RAM/GPU",	7, 9, true,  false, SORT_RAM_GPU) \
	X(COL_AVAIL,	"AVAIL",	5, 8, false, false, SORT_AVAILABILITY) \
	X(COL_AGE,	"AGE",		3, 2, true,  false, SORT_AGE)	\
	X(COL_TOTAL,	"TOTAL $",	7, 5, true,  false, SORT_PRICE)	\
	X(COL_SPOT_TOTAL, "SPOT TOTAL $", 12, 5, true, false, SORT_SPOT)	\
	X(COL_FABRIC,	"FABRIC",	6, 1, false, false, SORT_GPU_PRICE) \
	X(COL_NODE_GBPS, "NODE GB/S",	9, 1, true,  false, SORT_GPU_PRICE) \
	X(COL_TERM_GPU,	"TERM $/GPU-H",	12, 3, true, false, SORT_TERM_GPU) \
	X(COL_TERM_SAVE, "TERM SAVE",	9, 6, true,  false, SORT_TERM_GPU) \
	X(COL_TERM_TOTAL, "TERM TOTAL $", 12, 5, true, false, SORT_TERM_GPU) \
	X(COL_JOB_HOURS, "HOURS",	5, 2, true,  false, SORT_JOB)	\
	X(COL_JOB,	"JOB $",	5, 0, true,  false, SORT_JOB)	\
	X(COL_SPOT_JOB,	"SPOT JOB $",	10, 0, true, false, SORT_JOB)	\
	X(COL_PER_BTOK,	"$/1B TOKENS",	11, 5, true, false, SORT_JOB)	\
	X(COL_EGRESS,	"EGRESS $",	8, 0, true,  false, SORT_JOB)	\
	X(COL_TERM_JOB,	"TERM JOB $",	10, 6, true, false, SORT_JOB)

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
 * key, the plan's nodes and +N, then every column's cell (column_cell()),
 * after a line "# LABEL N" (N rows) and
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

/* Does a table of plans[0..n) show RANGE/GPU-H? When a row is folded. */
bool	column_range_shown(const struct plan *plans, size_t n);

/* "5m", "3h", "12d": a short age of seconds. */
size_t	column_age(int64_t seconds, char *buf, size_t size);

/*
 * Numbers print the same way in every answer and every face (issue 48):
 * a price per hour with COLUMN_HOUR_DECIMALS decimals, whatever the
 * other rows hold, and a job's total in cents.
 */
#define COLUMN_HOUR_DECIMALS	MONEY_HOUR_DECIMALS
#define COLUMN_TOTAL_DECIMALS	2

/* A price per hour for people: "2.8900", "98.3200"; "-" unknown. */
size_t	column_money(int64_t micro, char *buf, size_t size);

/* A job total for people: cents, thousands separated ("7,209.29"). */
size_t	column_total(int64_t micro, char *buf, size_t size);

/*
 * A price range for people: "6.8800-9.4944", or one price when both
 * ends print the same ("2.8900").
 */
size_t	column_range(int64_t low, int64_t high, char *buf, size_t size);

/*
 * A region's name for people: a price that holds in every region
 * (stored as "all") reads COLUMN_ANY_REGION in every table, the TUI,
 * --group-by and history alike; the machine formats keep "all".
 */
#define COLUMN_ANY_REGION	"any region"
const char *column_region(const char *region);

/* Does a cell show no value ("-", "?" or nothing)? */
bool	column_cell_empty(const char *cell);

/*
 * Lay out a table of columns cols[0..n) in width (0: no limit): want[j]
 * is the widest cell of column j (header included), empty[j] whether
 * no shown row has a value in it and same[j] whether every shown row
 * has the same cell; sort is the order shown. Fills lay[] by the
 * priorities above and layout_fit(); returns the width used.
 */
struct layout_column;
size_t	columns_fit(const enum column *cols, size_t n, const size_t *want,
	    const bool *empty, const bool *same, enum sort_key sort,
	    struct layout_column *lay, size_t width);

#endif
