/*
 * fuzz_cli.c: cli_parse() on a fuzzed command line: the input split on
 * NUL bytes is argv after "gpucost". Properties: a failure always has a
 * one-line message with no terminal control characters; a success
 * leaves options within their documented ranges.
 */
#include "config.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "err.h"
#include "fuzz_run.h"
#include "money.h"
#include "xalloc.h"

int	LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define ARGS_MAX	64

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *argv[ARGS_MAX + 2], *copy[ARGS_MAX + 2];
	const char *p = (const char *)data, *end = p + size, *nul;
	struct cli_options opts;
	struct err err;
	int argc = 1, i, rc;

	argv[0] = xstrdup("gpucost");
	while (p < end && argc <= ARGS_MAX) {
		nul = memchr(p, '\0', (size_t)(end - p));
		if (nul == NULL)
			nul = end;
		argv[argc++] = xstrndup(p, (size_t)(nul - p));
		p = nul + 1;
	}
	argv[argc] = NULL;
	/* getopt_long permutes argv: free what was allocated. */
	memcpy(copy, argv, sizeof argv[0] * (size_t)(argc + 1));

	err_clear(&err);
	rc = cli_parse(argc, argv, &opts, &err);
	if (rc < 0) {
		if (err.msg[0] == '\0')
			fuzz_fail("cli_parse failed without a message");
		if (!fuzz_text_is_safe(err.msg))
			fuzz_fail("cli_parse: message holds control "
			    "characters: %s", err.msg);
	} else {
		if (opts.filter.count < 0 || opts.filter.count > 1024 ||
		    opts.filter.min_vram_gb < 0 ||
		    opts.filter.min_vram_gb > 1024 || opts.limit < 0 ||
		    opts.filter.ngpus > GPU_MATCH_MAX ||
		    opts.filter.nproviders > FILTER_PROVIDERS_MAX ||
		    (money_known(opts.filter.max_price_gpu_hour) &&
		    opts.filter.max_price_gpu_hour <= 0))
			fuzz_fail("cli_parse: option out of range");
	}
	for (i = 0; i < argc; i++)
		free(copy[i]);
	return 0;
}
