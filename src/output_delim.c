/* output_delim.c: CSV (RFC 4180) and TSV. */
#include "config.h"

#include <string.h>

#include "output.h"

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

int
output_delimited(FILE *out, const struct output_opts *opts,
    const struct plan *plans, size_t n, char sep)
{
	const char *eol = sep == ',' ? "\r\n" : "\n";
	char buf[256];
	size_t i, f;
	int first;

	first = 1;
	for (f = 0; output_fields[f] != NULL; f++) {
		if (!output_field_shown(f, opts))
			continue;
		if (!first)
			fputc(sep, out);
		first = 0;
		fputs(output_fields[f], out);
	}
	fputs(eol, out);
	for (i = 0; i < n; i++) {
		first = 1;
		for (f = 0; output_fields[f] != NULL; f++) {
			if (!output_field_shown(f, opts))
				continue;
			if (!first)
				fputc(sep, out);
			first = 0;
			if (output_field_value(f, &plans[i], opts, buf,
			    sizeof buf) == FIELD_NULL)
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
