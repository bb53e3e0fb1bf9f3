/*
 * output_table.h: the aligned table for people (columns.c's cells,
 * layout.c's fitting) and the --hours --term comparison line.
 */
#ifndef GPUCOST_OUTPUT_TABLE_H
#define GPUCOST_OUTPUT_TABLE_H

#include <stdbool.h>
#include <stdio.h>

#include "output_fields.h"

/* Plans as a table. Returns 0, or -1 on a write error. */
int	output_table(FILE *out, const struct output_opts *opts,
	    const struct plan *plans, size_t n);

/*
 * A table cell: text in width terminal columns, padded (on the left when
 * right), cut with '~' when too long; no padding after the last column.
 */
void	output_cell(FILE *out, const char *text, size_t width, bool right,
	    bool last);

/*
 * --hours with --term, for people: what a job of hours costs each way
 * on plan p, one line: "p4d.24xlarge (aws us-east-1), 2,000 h:
 * on-demand $43,915.20, spot $9,000.00 (interruptible), 1y reservation
 * $113,300.00 for the year (all upfront)". A term is paid whole: 8,760
 * hours a year however few the job takes. Returns 0, or -1 on a write
 * error.
 */
int	output_term_comparison(FILE *out, const struct plan *p, double hours);

#endif
