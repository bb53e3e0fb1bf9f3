/*
 * output_fields.h: the fields of the machine formats and the values the
 * writers print, below every writer (output_delim.c, output_json.c,
 * output_table.c) and format dispatch (output.c): it includes neither.
 *
 * The machine formats share one list of fields (output_fields[]), in
 * the order documented in gpucost(1) under OUTPUT CONTRACT: exact
 * prices in USD, unknown values as null (JSON) or empty (CSV/TSV).
 */
#ifndef GPUCOST_OUTPUT_FIELDS_H
#define GPUCOST_OUTPUT_FIELDS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "offer.h"

struct provider_status;

enum output_format {
	OUTPUT_TABLE = 0,
	OUTPUT_CSV,
	OUTPUT_TSV,
	OUTPUT_JSON
};

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
	/* --train: the run (each plan's job is p->job); NULL without. */
	const struct train *train;
	const char *region;	/* --region (regions: the places it asked) */
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
 * Money in micro-USD as a cell: exact ("2.945820") for the machine
 * formats, or rounded for people (human, the table's decimals); NULL
 * when unknown.
 */
enum field_kind output_money(int64_t micro, bool human, char *buf,
	    size_t size);

/* "2026-05-20T00:00:00Z" */
size_t	output_iso8601(int64_t t, char *buf, size_t size);

#endif
