/* output_json.h: the JSON document of a query, over output_fields.h. */
#ifndef GPUCOST_OUTPUT_JSON_H
#define GPUCOST_OUTPUT_JSON_H

#include <stdio.h>

#include "output_fields.h"

/* Plans as one JSON document. Returns 0, or -1 on a write error. */
int	output_json(FILE *out, const struct output_opts *opts,
	    const struct plan *plans, size_t n);

/* Write s as a JSON string literal (with quotes). */
void	output_json_string(FILE *out, const char *s);

#endif
