/* output_delim.c: CSV (RFC 4180) and TSV. */
#include "config.h"
#include "output_delim.h"

#include <stdlib.h>
#include <string.h>

#include "xalloc.h"

/* One CSV field: quoted when it holds a separator, quote or line break. */
void
output_csv_field(FILE *out, const char *s)
{
	if (strpbrk(s, ",\"\r\n") == NULL) {
		fputs(s, out);
		return;
	}
	fputc('"', out);
	for (; *s != '\0'; s++) {
		if (*s == '"')
			fputc('"', out);
		fputc(*s, out);
	}
	fputc('"', out);
}

/* One TSV field: tabs and line breaks cannot be quoted, so they become spaces. */
void
output_tsv_field(FILE *out, const char *s)
{
	for (; *s != '\0'; s++)
		fputc(*s == '\t' || *s == '\n' || *s == '\r' ? ' ' : *s, out);
}

/*
 * Start field f of a line if it is shown: the separator goes before
 * every shown field but the first. False: f is not shown.
 */
static bool
field_start(FILE *out, const struct output_opts *opts, size_t f, char sep,
    bool *first)
{
	if (!output_field_shown(f, opts))
		return false;
	if (!*first)
		fputc(sep, out);
	*first = false;
	return true;
}

int
output_delimited(FILE *out, const struct output_opts *opts,
    const struct plan *plans, size_t n, char sep)
{
	const char *eol = sep == ',' ? "\r\n" : "\n";
	char *buf, *p;
	size_t i, f, size;
	bool first = true;
	enum field_kind kind;

	for (f = 0; output_fields[f] != NULL; f++)
		if (field_start(out, opts, f, sep, &first))
			fputs(output_fields[f], out);
	/* watch: why each row, after every other field. */
	for (f = 0; opts->changes != NULL && output_change_fields[f] != NULL;
	    f++) {
		fputc(sep, out);
		fputs(output_change_fields[f], out);
	}
	fputs(eol, out);
	for (i = 0; i < n; i++) {
		size = output_value_size(&plans[i]);
		buf = xmalloc(size);
		first = true;
		for (f = 0; output_fields[f] != NULL; f++) {
			if (!field_start(out, opts, f, sep, &first))
				continue;
			kind = output_field_value(f, &plans[i], opts, buf, size);
			if (kind == FIELD_NULL)
				continue;
			/* A list is one field, its items joined by ';'. */
			if (kind == FIELD_LIST)
				for (p = buf; (p = strchr(p, OUTPUT_LIST_SEP)) !=
				    NULL; p++)
					*p = ';';
			if (sep == ',')
				output_csv_field(out, buf);
			else
				output_tsv_field(out, buf);
		}
		for (f = 0; opts->changes != NULL &&
		    output_change_fields[f] != NULL; f++) {
			fputc(sep, out);
			if (output_change_field(&opts->changes[i], f, buf,
			    size) == FIELD_NULL)
				continue;
			if (sep == ',')
				output_csv_field(out, buf);
			else
				output_tsv_field(out, buf);
		}
		free(buf);
		fputs(eol, out);
	}
	return ferror(out) ? -1 : 0;
}
