/*
 * output_table.h: the aligned table for people (columns.c's cells,
 * layout.c's fitting), the --hours --term comparison line and --train's
 * lines for people.
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

/*
 * --train's assumptions, once per answer, for people: "--train 7B:2T:
 * 8.4e22 FLOPs (6 x params x tokens) at MFU 0.40 ...", one line
 * without a newline. Returns its length.
 */
size_t	output_train_assumptions(const struct train *t, char *buf,
	    size_t size);

/*
 * --train, for people, after a table: the first row's job on the term
 * it is cheapest on, with what that term commits to ("p4d.24xlarge
 * (aws us-east-1), 23,371 h: on demand $513,165.06; on a 3y
 * reservation (all upfront) $201,299.99 for 1 term, committing
 * $201,299.99 a term whatever the job uses"). Nothing when it has none.
 * Returns 0, or -1 on a write error.
 */
int	output_train_term(FILE *out, const struct plan *p);

#endif
