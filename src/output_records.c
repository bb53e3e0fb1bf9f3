/*
 * output_records.c: listings other than offers (the GPU catalogue, the
 * providers) in every format, from a field schema: the same CSV quoting,
 * TSV cleaning and JSON escaping as the offers, and an aligned table.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "layout.h"
#include "output.h"
#include "str.h"
#include "xalloc.h"

#define RECORD_CELL_MAX	256

static int
records_table(FILE *out, const struct output_schema *s, size_t width,
    size_t nrows)
{
	struct layout_column *lay;
	char (*cells)[RECORD_CELL_MAX];
	size_t i, j, last = 0;

	lay = xcalloc(s->ncolumns, sizeof *lay);
	cells = xcalloc((nrows + 1) * s->ncolumns, sizeof *cells);
	for (j = 0; j < s->ncolumns; j++) {
		str_copy(cells[j], RECORD_CELL_MAX, s->columns[j].header);
		lay[j].want = str_width(cells[j]);
		lay[j].min = s->columns[j].flexible ? 8 : lay[j].want;
		lay[j].priority = s->columns[j].priority;
		lay[j].flexible = s->columns[j].flexible;
	}
	for (i = 0; i < nrows; i++)
		for (j = 0; j < s->ncolumns; j++) {
			char *cell = cells[(i + 1) * s->ncolumns + j];
			size_t w;

			if (s->value(s->ctx, i, j, true, cell, RECORD_CELL_MAX)
			    == FIELD_NULL || cell[0] == '\0')
				str_copy(cell, RECORD_CELL_MAX, "-");
			if ((w = str_width(cell)) > lay[j].want)
				lay[j].want = w;
		}
	layout_fit(lay, s->ncolumns, width);
	for (j = 0; j < s->ncolumns; j++)
		if (lay[j].shown)
			last = j;
	for (i = 0; i <= nrows; i++) {
		bool first = true;

		for (j = 0; j < s->ncolumns; j++) {
			if (!lay[j].shown)
				continue;
			if (!first)
				fprintf(out, "%*s", LAYOUT_GAP, "");
			first = false;
			output_cell(out, cells[i * s->ncolumns + j], lay[j].width,
			    s->columns[j].right && i > 0, j == last);
		}
		fputc('\n', out);
	}
	free(cells);
	free(lay);
	return ferror(out) ? -1 : 0;
}

static int
records_delimited(FILE *out, const struct output_schema *s, size_t nrows,
    char sep)
{
	const char *eol = sep == ',' ? "\r\n" : "\n";
	char buf[RECORD_CELL_MAX];
	size_t i, j;

	for (j = 0; j < s->ncolumns; j++) {
		if (j > 0)
			fputc(sep, out);
		fputs(s->columns[j].name, out);
	}
	fputs(eol, out);
	for (i = 0; i < nrows; i++) {
		for (j = 0; j < s->ncolumns; j++) {
			if (j > 0)
				fputc(sep, out);
			if (s->value(s->ctx, i, j, false, buf, sizeof buf) ==
			    FIELD_NULL)
				continue;
			if (sep == ',')
				output_csv_field(out, buf);
			else
				output_tsv_field(out, buf);
		}
		fputs(eol, out);
	}
	return ferror(out) ? -1 : 0;
}

static int
records_json(FILE *out, const struct output_schema *s, size_t nrows)
{
	char buf[RECORD_CELL_MAX];
	size_t i, j;

	fprintf(out, "{\n  \"%s\": [", s->json_key);
	for (i = 0; i < nrows; i++) {
		fputs(i == 0 ? "\n    {" : ",\n    {", out);
		for (j = 0; j < s->ncolumns; j++) {
			enum field_kind kind;

			kind = s->value(s->ctx, i, j, false, buf, sizeof buf);
			fprintf(out, "%s\"%s\": ", j == 0 ? "" : ", ",
			    s->columns[j].name);
			if (kind == FIELD_NULL)
				fputs("null", out);
			else if (kind == FIELD_NUMBER)
				fputs(buf, out);
			else
				output_json_string(out, buf);
		}
		fputc('}', out);
	}
	fputs(nrows > 0 ? "\n  ]\n}\n" : "]\n}\n", out);
	return ferror(out) ? -1 : 0;
}

int
output_records(FILE *out, enum output_format format, size_t width,
    const struct output_schema *schema, size_t nrows)
{
	switch (format) {
	case OUTPUT_TABLE:
		return records_table(out, schema, width, nrows);
	case OUTPUT_CSV:
		return records_delimited(out, schema, nrows, ',');
	case OUTPUT_TSV:
		return records_delimited(out, schema, nrows, '\t');
	case OUTPUT_JSON:
		return records_json(out, schema, nrows);
	}
	return -1;
}
