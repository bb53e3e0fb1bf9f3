/*
 * output_delim.h: CSV (RFC 4180) and TSV, over the fields of
 * output_fields.h.
 */
#ifndef GPUCOST_OUTPUT_DELIM_H
#define GPUCOST_OUTPUT_DELIM_H

#include <stdio.h>

#include "output_fields.h"

/* Plans as CSV (sep ',') or TSV ('\t'). Returns 0, or -1 on a write error. */
int	output_delimited(FILE *out, const struct output_opts *opts,
	    const struct plan *plans, size_t n, char sep);

/* One CSV field (RFC 4180: quoted when it must be) / one TSV field. */
void	output_csv_field(FILE *out, const char *s);
void	output_tsv_field(FILE *out, const char *s);

#endif
