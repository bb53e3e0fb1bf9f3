/*
 * output.h: write query results as a table, CSV, TSV or JSON.
 *
 * The machine formats share one list of fields (output_fields[]), in
 * the order documented in gpucost(1) under OUTPUT CONTRACT: exact
 * prices in USD, unknown values as null (JSON) or empty (CSV/TSV).
 */
#ifndef GPUCOST_OUTPUT_H
#define GPUCOST_OUTPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "db.h"
#include "offer.h"

enum output_format {
	OUTPUT_TABLE = 0,
	OUTPUT_CSV,
	OUTPUT_TSV,
	OUTPUT_JSON
};

int	output_format_parse(const char *s, enum output_format *out);
/* "table", "csv" ...; NULL past the last format (a list ends there). */
const char *output_format_name(enum output_format f);

enum field_kind {
	FIELD_NULL,
	FIELD_NUMBER,
	FIELD_STRING,
	FIELD_LIST,	/* strings, OUTPUT_LIST_SEP between them; "" none */
	FIELD_BOOL,	/* "true" or "false" */
	FIELD_JSON	/* JSON text, written as it is (CSV: one field) */
};

/* Between the items of a FIELD_LIST value (never in sanitised text). */
#define OUTPUT_LIST_SEP	'\x1f'

/* Room for any launch field's text: commands are the longest. */
#define OUTPUT_VALUE_MAX	4096

/*
 * Why `watch` shows a row. With output_opts.changes (parallel to the
 * plans) every format says it: JSON "change" and "previous" per offer,
 * CSV/TSV the fields change, previous_price_gpu_hour and difference_pct
 * after the others, the table a CHANGE column first.
 */
struct output_change {
	const char	*change;	/* "new", "cheaper", "spot-cheaper",
					   "available-again", "priced" */
	bool		 spot;		/* the prices compared are spot */
	int64_t		 price;		/* compared, per GPU-hour, now */
	int64_t		 previous;	/* last reported; MONEY_NONE: none */
	enum availability previous_availability;
	int64_t		 previous_at;	/* when reported; 0: a new offer */
};

/*
 * "cheaper $10.00 -> $8.50, -15%", "new", "available-again (was
 * unavailable)": the change for people.
 */
size_t	output_change_text(const struct output_change *c, char *buf,
	    size_t size);
/* The CSV/TSV fields of a change (NULL-terminated) and field i's value. */
extern const char *const output_change_fields[];
enum field_kind output_change_field(const struct output_change *c, size_t i,
	    char *buf, size_t size);

struct output_opts {
	enum output_format format;
	size_t	width;		/* table width in columns; 0 no limit */
	double	hours;		/* --hours; < 0 when not given */
	int64_t	now;		/* UTC epoch seconds */
	const struct provider_status *status;	/* for JSON data-age metadata */
	size_t	nstatus;
	size_t	matched;	/* plans matched before --limit */
	enum sort_key sort;	/* the order shown: the table keeps its column */
	int	term;		/* --term: TERM_NONE, months or TERM_ANY */
	bool	fabric_filter;	/* --fabric or --min-node-gbps: show FABRIC */
	const struct output_change *changes;	/* watch: why each row; or NULL */
};

/* Names of the machine-format fields, in output order; NULL-terminated. */
extern const char *const output_fields[];

/*
 * Value of field i for plan p as text in buf; returns its kind (NULL:
 * unknown). Strings are sanitised provider text, numbers are exact.
 */
enum field_kind output_field_value(size_t i, const struct plan *p,
	    const struct output_opts *opts, char *buf, size_t size);

/* Bytes a value of any field of plan p needs (node_keys grows). */
size_t	output_value_size(const struct plan *p);
/* True if field i is printed for these options (totals need --hours). */
bool	output_field_shown(size_t i, const struct output_opts *opts);

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
 * Money in micro-USD as a cell: exact ("2.945820") for the machine
 * formats, or rounded for people (human, the table's decimals); NULL
 * when unknown.
 */
enum field_kind output_money(int64_t micro, bool human, char *buf,
	    size_t size);

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

/* "2026-05-20T00:00:00Z" */
size_t	output_iso8601(int64_t t, char *buf, size_t size);

/* Write s as a JSON string literal (with quotes). */
void	output_json_string(FILE *out, const char *s);

#endif
