/* output.c: format dispatch: the format names, plans to their writer. */
#include "config.h"
#include "output.h"

#include "str.h"

static const char *const format_names[] = { "table", "csv", "tsv", "json" };

const char *
output_format_name(enum output_format f)
{
	return (unsigned)f < 4 ? format_names[f] : NULL;
}

int
output_format_parse(const char *s, enum output_format *out)
{
	unsigned i;

	for (i = 0; i < 4; i++)
		if (str_eq_nocase(s, format_names[i])) {
			*out = (enum output_format)i;
			return 0;
		}
	return -1;
}

int
output_plans(FILE *out, const struct output_opts *opts,
    const struct plan *plans, size_t n)
{
	switch (opts->format) {
	case OUTPUT_TABLE:
		return output_table(out, opts, plans, n);
	case OUTPUT_CSV:
		return output_delimited(out, opts, plans, n, ',');
	case OUTPUT_TSV:
		return output_delimited(out, opts, plans, n, '\t');
	case OUTPUT_JSON:
		return output_json(out, opts, plans, n);
	}
	return -1;
}
