/* output_table.c: the aligned table for people. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "columns.h"
#include "layout.h"
#include "output.h"
#include "str.h"
#include "xalloc.h"

#define CELL_MAX 80

/*
 * Columns a table shows, in order; the totals only with --hours, the
 * fabric only for plans of several nodes or a fabric filter.
 */
static size_t
table_columns(const struct output_opts *opts, const struct plan *plans,
    size_t nplans, enum column *cols)
{
	bool fabric = column_fabric_shown(plans, nplans, opts->fabric_filter);
	size_t n = 0;
	int c;

	for (c = 0; c < COLUMN_COUNT; c++) {
		if ((c == COL_TOTAL || c == COL_SPOT_TOTAL) && opts->hours < 0)
			continue;
		if ((c == COL_FABRIC || c == COL_NODE_GBPS) && !fabric)
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
	bool empty[COLUMN_COUNT];
	char (*cells)[CELL_MAX];
	size_t ncols, i, j, w, last;

	ncols = table_columns(opts, plans, n, cols);
	cells = xreallocarray(NULL, (n + 1) * ncols, CELL_MAX);
	for (j = 0; j < ncols; j++) {
		str_copy(cells[j], CELL_MAX, column_info[cols[j]].header);
		want[j] = str_width(cells[j]);
		empty[j] = true;
	}
	for (i = 0; i < n; i++)
		for (j = 0; j < ncols; j++) {
			char *cell = cells[(i + 1) * ncols + j];

			column_cell(cols[j], &plans[i], &ctx, cell, CELL_MAX);
			if (!column_cell_empty(cell))
				empty[j] = false;
		}
	for (j = 0; j < ncols; j++) {
		if (column_info[cols[j]].right)
			column_fix_decimals(cells[ncols + j], CELL_MAX, ncols, n);
		for (i = 0; i < n; i++)
			if ((w = str_width(cells[(i + 1) * ncols + j])) > want[j])
				want[j] = w;
	}
	columns_fit(cols, ncols, want, empty, opts->sort, lay, opts->width);
	last = 0;
	for (j = 0; j < ncols; j++)
		if (lay[j].shown)
			last = j;
	for (i = 0; i <= n; i++) {
		bool first = true;

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
	return ferror(out) ? -1 : 0;
}
