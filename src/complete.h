/*
 * complete.h: the values shell completion offers for an option, from
 * the program's own tables (the GPU catalogue, the provider registry,
 * the sort keys, formats, interconnects, group-by keys, continents and
 * countries), so the scripts `gpucost completion SHELL` prints never
 * hold a list of their own. Region names from the cache are added by
 * the `__complete regions` command (cmd_completion.c). Pure: no I/O.
 */
#ifndef GPUCOST_COMPLETE_H
#define GPUCOST_COMPLETE_H

#include "cli.h"

/* Called once per candidate word. */
typedef void complete_emit_fn(const char *word, void *ctx);

/*
 * The word `gpucost __complete WORD` takes for a kind of value
 * ("gpus", "regions" ...), or NULL for a kind with nothing to offer
 * (free text, numbers) or one the shell completes itself (files).
 */
const char *complete_kind_name(enum cli_values v);

/* The kind named word, or -1 (not CLI_VALUES_NONE) if none is. */
int	complete_kind_parse(const char *word, enum cli_values *out);

/*
 * Each candidate of kind v, once (case-insensitively), in the table's
 * order. For CLI_VALUES_REGIONS: the continents and country codes; the
 * caller adds region names.
 */
void	complete_values(enum cli_values v, complete_emit_fn *emit, void *ctx);

#endif
