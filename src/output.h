/*
 * output.h: write query results as a table, CSV, TSV or JSON.
 *
 * What the commands include: format dispatch (output.c), listings other
 * than offers (output_records.c) and market summaries (output_summary.c),
 * above the writers (output_table.h, output_delim.h, output_json.h), which
 * sit above the fields of the machine formats and the values they print
 * (output_fields.h). This header includes all four; a writer includes
 * only its own header, so the calls run one way (HACKING.md).
 */
#ifndef GPUCOST_OUTPUT_H
#define GPUCOST_OUTPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "db.h"
#include "offer.h"
#include "output_delim.h"
#include "output_fields.h"
#include "output_json.h"
#include "output_table.h"

int	output_format_parse(const char *s, enum output_format *out);
/* "table", "csv" ...; NULL past the last format (a list ends there). */
const char *output_format_name(enum output_format f);

/* Write plans in opts->format. Returns 0, or -1 on a write error. */
int	output_plans(FILE *out, const struct output_opts *opts,
	    const struct plan *plans, size_t n);

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

#endif
