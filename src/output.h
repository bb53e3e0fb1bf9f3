/*
 * output.h: write query results as a table, CSV, TSV or JSON.
 *
 * The fields of the machine formats and the values they print are in
 * output_fields.h, which this header includes.
 */
#ifndef GPUCOST_OUTPUT_H
#define GPUCOST_OUTPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "db.h"
#include "offer.h"
#include "output_fields.h"

int	output_format_parse(const char *s, enum output_format *out);
/* "table", "csv" ...; NULL past the last format (a list ends there). */
const char *output_format_name(enum output_format f);

/*
 * --hours with --term, for people: what a job of hours costs each way
 * on plan p, one line: "p4d.24xlarge (aws us-east-1), 2,000 h:
 * on-demand $43,915.20, spot $9,000.00 (interruptible), 1y reservation
 * $113,300.00 for the year (all upfront)". A term is paid whole: 8,760
 * hours a year however few the job takes. Returns 0, or -1 on a write
 * error.
 */
int	output_term_comparison(FILE *out, const struct plan *p, double hours);

/* Write plans in opts->format. Returns 0, or -1 on a write error. */
int	output_plans(FILE *out, const struct output_opts *opts,
	    const struct plan *plans, size_t n);

int	output_table(FILE *out, const struct output_opts *opts,
	    const struct plan *plans, size_t n);
int	output_delimited(FILE *out, const struct output_opts *opts,
	    const struct plan *plans, size_t n, char sep);
int	output_json(FILE *out, const struct output_opts *opts,
	    const struct plan *plans, size_t n);

/*
 * A table cell: text in width terminal columns, padded (on the left when
 * right), cut with '~' when too long; no padding after the last column.
 */
void	output_cell(FILE *out, const char *text, size_t width, bool right,
	    bool last);

/* One CSV field (RFC 4180: quoted when it must be) / one TSV field. */
void	output_csv_field(FILE *out, const char *s);
void	output_tsv_field(FILE *out, const char *s);

/*
 * Listings other than offers (gpus, providers): a schema of columns and
 * a function giving a cell. The machine formats print every column with
 * its name; the table shows the headers and fits the width (columns with
 * a higher priority number drop first, flexible ones are cut).
 */
struct output_column {
	const char	*name;		/* CSV header / JSON key */
	const char	*header;	/* table header */
	int		 priority;	/* 1 keep longest */
	bool		 right;		/* right-aligned in the table */
	bool		 flexible;	/* may be cut in the table */
};

struct output_schema {
	const char	*json_key;	/* {"gpus": [...]} */
	const struct output_column *columns;
	size_t		 ncolumns;
	/*
	 * Cell (row, col) in buf; human: the table's text ("3h") rather
	 * than the exact value. Returns its kind.
	 */
	enum field_kind (*value)(const void *ctx, size_t row, size_t col,
		    bool human, char *buf, size_t size);
	const void	*ctx;
};

/* Write nrows records of schema; 0, or -1 on a write error. */
int	output_records(FILE *out, enum output_format format, size_t width,
	    const struct output_schema *schema, size_t nrows);

/*
 * Market summaries (--group-by): one record per group; with term (a
 * --term query) the term's minimum and median price per GPU-hour too.
 */
struct group_by;
struct summary_group;
int	output_groups(FILE *out, enum output_format format, size_t width,
	    const struct group_by *by, bool term,
	    const struct summary_group *groups, size_t n);

/* Write s as a JSON string literal (with quotes). */
void	output_json_string(FILE *out, const char *s);

#endif
