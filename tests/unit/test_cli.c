/*
 * test_cli.c: unit tests for cli_parse() (options, commands and their
 * usage errors). cli_parse() does no I/O, so every case is a pure call.
 */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "err.h"
#include "filter.h"
#include "gpu.h"
#include "money.h"
#include "offer.h"
#include "output.h"

#define ARGS_MAX 32

/*
 * The argv of the current parse. getopt_long() permutes argv and the
 * options keep pointers into it, so it lives until the next parse (or
 * the test's teardown).
 */
static char *args[ARGS_MAX + 1];
static int nargs;

static void
args_free(void)
{
	int i;

	for (i = 0; i < nargs; i++)
		free(args[i]);
	nargs = 0;
	args[0] = NULL;
}

static int
teardown(void **state)
{
	(void)state;
	args_free();
	return 0;
}

/*
 * Parse "gpucost" followed by the NULL-terminated words. Returns
 * cli_parse()'s result.
 */
static int
parse_v(struct cli_options *o, struct err *err, const char *first, va_list ap)
{
	const char *w;

	args_free();
	args[nargs++] = strdup("gpucost");
	for (w = first; w != NULL; w = va_arg(ap, const char *)) {
		assert_true(nargs < ARGS_MAX);
		args[nargs++] = strdup(w);
	}
	args[nargs] = NULL;
	err_clear(err);
	return cli_parse(nargs, args, o, err);
}

/* Parse must succeed. */
static void
ok(struct cli_options *o, const char *first, ...)
{
	struct err err;
	va_list ap;
	int rc;

	va_start(ap, first);
	rc = parse_v(o, &err, first, ap);
	va_end(ap);
	if (rc != 0)
		fail_msg("cli_parse failed: %s", err.msg);
}

/* Parse must fail with exactly msg. */
static void
bad(const char *msg, const char *first, ...)
{
	struct cli_options o;
	struct err err;
	va_list ap;
	int rc;

	va_start(ap, first);
	rc = parse_v(&o, &err, first, ap);
	va_end(ap);
	if (rc != -1)
		fail_msg("cli_parse accepted, want \"%s\"", msg);
	if (strcmp(err.msg, msg) != 0)
		fail_msg("message \"%s\"\n        want \"%s\"", err.msg, msg);
}

/* Parse must fail; the message is returned for partial checks. */
static void
bad_msg(char *buf, size_t size, const char *first, ...)
{
	struct cli_options o;
	struct err err;
	va_list ap;
	int rc;

	va_start(ap, first);
	rc = parse_v(&o, &err, first, ap);
	va_end(ap);
	if (rc != -1)
		fail_msg("cli_parse accepted %s", first);
	snprintf(buf, size, "%s", err.msg);
}

#define PROVIDERS "aws,gcp,runpod,runpod-clusters,vast,lambda,vultr,azure,oci,scaleway," \
	"linode,ovh,cloudrift,verda,akash,coreweave,salad"

/* ------------------------------------------------------------------ */
/* Defaults and commands                                              */
/* ------------------------------------------------------------------ */

static void
test_defaults(void **state)
{
	struct cli_options o;

	(void)state;
	memset(&o, 0x5a, sizeof o);
	ok(&o, NULL);
	assert_int_equal(o.command, CMD_QUERY);
	assert_false(o.command_given);
	assert_false(o.query_given);
	assert_null(o.db);
	assert_int_equal(o.filter.ngpus, 0);
	assert_int_equal(o.filter.count, 0);
	assert_false(o.filter.multi_node);
	assert_int_equal(o.filter.min_vram_gb, 0);
	assert_int_equal(o.filter.interconnect, IC_UNKNOWN);
	assert_int_equal(o.filter.nproviders, 0);
	assert_string_equal(o.filter.region, "");
	assert_int_equal(o.filter.max_price_gpu_hour, MONEY_NONE);
	assert_false(o.filter.spot);
	assert_false(o.filter.available);
	assert_string_equal(o.filter.text, "");
	assert_int_equal(o.sort, SORT_GPU_PRICE);
	assert_false(o.sort_given);
	assert_false(o.reverse);
	assert_int_equal(o.limit, 0);
	assert_true(o.hours < 0);
	assert_int_equal(o.format, OUTPUT_TABLE);
	assert_false(o.quiet);
}

static void
test_commands(void **state)
{
	struct cli_options o;

	(void)state;
	ok(&o, "gpus", NULL);
	assert_int_equal(o.command, CMD_GPUS);
	assert_true(o.command_given);
	assert_false(o.query_given);
	ok(&o, "providers", NULL);
	assert_int_equal(o.command, CMD_PROVIDERS);
	assert_true(o.command_given);
	assert_false(o.query_given);
	/* tui takes the query options as its starting state. */
	ok(&o, "tui", "--gpu", "H100", "--count", "8", "--sort", "vram", NULL);
	assert_int_equal(o.command, CMD_TUI);
	assert_true(o.command_given);
	assert_int_equal(o.filter.count, 8);
	assert_int_equal(o.sort, SORT_VRAM);
	bad("--timeout: not valid with the 'tui' command", "tui", "--timeout",
	    "5", NULL);
	/* --format means a script wants output, not the browser. */
	ok(&o, "--format", "csv", NULL);
	assert_true(o.format_given);
	assert_false(o.query_given);
	assert_false(o.command_given);
	ok(&o, "help", NULL);
	assert_int_equal(o.command, CMD_HELP);
	assert_true(o.command_given);
	ok(&o, "version", NULL);
	assert_int_equal(o.command, CMD_VERSION);
	assert_true(o.command_given);
	ok(&o, "--help", NULL);
	assert_int_equal(o.command, CMD_HELP);
	ok(&o, "-h", NULL);
	assert_int_equal(o.command, CMD_HELP);
	ok(&o, "--version", NULL);
	assert_int_equal(o.command, CMD_VERSION);
	ok(&o, "-V", NULL);
	assert_int_equal(o.command, CMD_VERSION);
	/* --help wins over a command word. */
	ok(&o, "providers", "--help", NULL);
	assert_int_equal(o.command, CMD_HELP);
	/* `gpus` takes --gpu. */
	ok(&o, "gpus", "--gpu", "A100", NULL);
	assert_int_equal(o.command, CMD_GPUS);
	assert_int_equal(o.filter.ngpus, 2);
	/* Command words are exact. */
	bad("unknown command \"GPUS\" (commands: gpus, providers, refresh, "
	    "tui, history, watch, publish, launch, completion, mcp, help or "
	    "version)",
	    "GPUS", NULL);
}

/* --db before and after the command word. */
static void
test_db_anywhere(void **state)
{
	struct cli_options o;

	(void)state;
	ok(&o, "--db", "X", "providers", NULL);
	assert_int_equal(o.command, CMD_PROVIDERS);
	assert_non_null(o.db);
	assert_string_equal(o.db, "X");
	ok(&o, "providers", "--db", "X", NULL);
	assert_int_equal(o.command, CMD_PROVIDERS);
	assert_string_equal(o.db, "X");
	ok(&o, "--db=/tmp/a b.db", "gpus", NULL);
	assert_int_equal(o.command, CMD_GPUS);
	assert_string_equal(o.db, "/tmp/a b.db");
	ok(&o, "--db", "Y", NULL);
	assert_int_equal(o.command, CMD_QUERY);
	assert_string_equal(o.db, "Y");
	assert_false(o.query_given);
	/* --format is common too. */
	ok(&o, "providers", "--format", "json", NULL);
	assert_int_equal(o.format, OUTPUT_JSON);
	assert_false(o.query_given);
	bad("--db: expected a file path", "--db", "", NULL);
}

/* ------------------------------------------------------------------ */
/* Valid values                                                       */
/* ------------------------------------------------------------------ */

static void
test_gpu_option(void **state)
{
	struct cli_options o;

	(void)state;
	ok(&o, "--gpu", "A100", NULL);
	assert_int_equal(o.filter.ngpus, 2);
	assert_true((strcmp(o.filter.gpus[0]->id, "A100-40") == 0 &&
	    strcmp(o.filter.gpus[1]->id, "A100-80") == 0) ||
	    (strcmp(o.filter.gpus[0]->id, "A100-80") == 0 &&
	    strcmp(o.filter.gpus[1]->id, "A100-40") == 0));
	assert_true(o.query_given);
	ok(&o, "-g", "A100-80", NULL);
	assert_int_equal(o.filter.ngpus, 1);
	assert_string_equal(o.filter.gpus[0]->id, "A100-80");
	ok(&o, "--gpu=RTX 4090", NULL);
	assert_int_equal(o.filter.ngpus, 1);
	assert_string_equal(o.filter.gpus[0]->id, "RTX4090");
	ok(&o, "-gH100", NULL);
	assert_int_equal(o.filter.ngpus, 1);
	assert_string_equal(o.filter.gpus[0]->id, "H100");
	/* Repeats add up, and so do comma lists (issue 12: they agree). */
	ok(&o, "--gpu", "A100", "--gpu", "V100-32", NULL);
	assert_int_equal(o.filter.ngpus, 3);
	assert_string_equal(o.filter.gpus[2]->id, "V100-32");
	ok(&o, "--gpu", "A100-80,H100", NULL);
	assert_int_equal(o.filter.ngpus, 2);
	assert_string_equal(o.filter.gpus[0]->id, "A100-80");
	assert_string_equal(o.filter.gpus[1]->id, "H100");
}

static void
test_numeric_options(void **state)
{
	struct cli_options o;

	(void)state;
	ok(&o, "--count", "4", NULL);
	assert_int_equal(o.filter.count, 4);
	assert_true(o.query_given);
	ok(&o, "-n", "1", NULL);
	assert_int_equal(o.filter.count, 1);
	ok(&o, "--count=1024", NULL);
	assert_int_equal(o.filter.count, 1024);
	ok(&o, "--min-vram", "80", NULL);
	assert_int_equal(o.filter.min_vram_gb, 80);
	assert_true(o.query_given);
	ok(&o, "--min-vram", "1024", NULL);
	assert_int_equal(o.filter.min_vram_gb, 1024);
	ok(&o, "--min-vram", "1", NULL);
	assert_int_equal(o.filter.min_vram_gb, 1);
	ok(&o, "--max-price", "2.5", NULL);
	assert_int_equal(o.filter.max_price_gpu_hour, 2500000);
	assert_true(o.query_given);
	ok(&o, "--max-price", "0.000001", NULL);
	assert_int_equal(o.filter.max_price_gpu_hour, 1);
	ok(&o, "--max-price", "3", NULL);
	assert_int_equal(o.filter.max_price_gpu_hour, 3000000);
	ok(&o, "--limit", "10", NULL);
	assert_int_equal(o.limit, 10);
	assert_true(o.query_given);
	ok(&o, "-l", "1", NULL);
	assert_int_equal(o.limit, 1);
	ok(&o, "--hours", "24", NULL);
	assert_true(o.hours > 23.999999 && o.hours < 24.000001);
	assert_true(o.query_given);
	ok(&o, "--hours", "0.5", NULL);
	assert_true(o.hours > 0.499999 && o.hours < 0.500001);
	ok(&o, "--hours", "1000000", NULL);
	assert_true(o.hours > 999999.9 && o.hours < 1000000.1);
}

static void
test_choice_options(void **state)
{
	struct cli_options o;
	enum sort_key k;

	(void)state;
	ok(&o, "--interconnect", "nvlink", NULL);
	assert_int_equal(o.filter.interconnect, IC_NVLINK);
	assert_true(o.query_given);
	ok(&o, "--interconnect", "pcie", NULL);
	assert_int_equal(o.filter.interconnect, IC_PCIE);
	ok(&o, "--interconnect", "NVLink", NULL);
	assert_int_equal(o.filter.interconnect, IC_NVLINK);

	ok(&o, "--format", "csv", NULL);
	assert_int_equal(o.format, OUTPUT_CSV);
	ok(&o, "-f", "tsv", NULL);
	assert_int_equal(o.format, OUTPUT_TSV);
	ok(&o, "--format=json", NULL);
	assert_int_equal(o.format, OUTPUT_JSON);
	ok(&o, "--format", "table", NULL);
	assert_int_equal(o.format, OUTPUT_TABLE);
	assert_false(o.query_given);

	for (k = 0; k < SORT_KEY_COUNT; k++) {
		ok(&o, "--sort", sort_key_name(k), NULL);
		assert_int_equal(o.sort, k);
		assert_true(o.sort_given);
		assert_true(o.query_given);
	}
	ok(&o, "-s", "price", NULL);
	assert_int_equal(o.sort, SORT_PRICE);

	ok(&o, "--region", "us-east", NULL);
	assert_string_equal(o.filter.region, "us-east");
	assert_true(o.query_given);
	ok(&o, "-r", "europe-*", NULL);
	assert_string_equal(o.filter.region, "europe-*");
}

static void
test_provider_option(void **state)
{
	struct cli_options o;

	(void)state;
	ok(&o, "--provider", "aws,gcp", NULL);
	assert_int_equal(o.filter.nproviders, 2);
	assert_string_equal(o.filter.providers[0], "aws");
	assert_string_equal(o.filter.providers[1], "gcp");
	assert_true(o.query_given);
	ok(&o, "-p", "vast", NULL);
	assert_int_equal(o.filter.nproviders, 1);
	assert_string_equal(o.filter.providers[0], "vast");
	/* Canonical ids, duplicates once. */
	ok(&o, "-p", "AWS,aws,Lambda", NULL);
	assert_int_equal(o.filter.nproviders, 2);
	assert_string_equal(o.filter.providers[0], "aws");
	assert_string_equal(o.filter.providers[1], "lambda");
	ok(&o, "-p", PROVIDERS, NULL);
	assert_int_equal(o.filter.nproviders, 17);
	assert_string_equal(o.filter.providers[3], "runpod-clusters");
	assert_string_equal(o.filter.providers[6], "vultr");
	assert_string_equal(o.filter.providers[10], "linode");
	assert_string_equal(o.filter.providers[13], "verda");
	assert_string_equal(o.filter.providers[16], "salad");
	/* Repeats add up (issue 12), blanks after commas are fine. */
	ok(&o, "-p", "aws,gcp", "-p", "runpod", NULL);
	assert_int_equal(o.filter.nproviders, 3);
	assert_string_equal(o.filter.providers[2], "runpod");
	ok(&o, "--provider", "aws", "--provider", "gcp", NULL);
	assert_int_equal(o.filter.nproviders, 2);
	assert_string_equal(o.filter.providers[1], "gcp");
	ok(&o, "--provider", "aws, gcp", NULL);
	assert_int_equal(o.filter.nproviders, 2);
	assert_string_equal(o.filter.providers[1], "gcp");
}

static void
test_flags(void **state)
{
	struct cli_options o;

	(void)state;
	ok(&o, "--available", NULL);
	assert_true(o.filter.available);
	assert_true(o.query_given);
	ok(&o, "--multi-node", NULL);
	assert_true(o.filter.multi_node);
	assert_true(o.query_given);
	ok(&o, "--vertex", NULL);
	assert_true(o.filter.vertex);
	assert_true(o.query_given);
	ok(&o, "--reverse", NULL);
	assert_true(o.reverse);
	assert_true(o.query_given);
	ok(&o, "-q", NULL);
	assert_true(o.quiet);
	ok(&o, "--quiet", NULL);
	assert_true(o.quiet);
	ok(&o, "--spot", NULL);
	assert_true(o.filter.spot);
	assert_true(o.query_given);
}

/* --spot ranks by spot price per GPU-hour unless --sort is given. */
static void
test_spot_default_sort(void **state)
{
	struct cli_options o;

	(void)state;
	ok(&o, "--spot", NULL);
	assert_int_equal(o.sort, SORT_SPOT_GPU);
	assert_false(o.sort_given);
	ok(&o, "--spot", "--sort", "price", NULL);
	assert_int_equal(o.sort, SORT_PRICE);
	assert_true(o.sort_given);
	ok(&o, "--sort", "gpu-price", "--spot", NULL);
	assert_int_equal(o.sort, SORT_GPU_PRICE);
	assert_true(o.sort_given);
	ok(&o, "--spot", "--reverse", NULL);
	assert_int_equal(o.sort, SORT_SPOT_GPU);
	assert_true(o.reverse);
	ok(&o, "--gpu", "A100", NULL);
	assert_int_equal(o.sort, SORT_GPU_PRICE);
}

/* The refresh command and its options. */
static void
test_refresh(void **state)
{
	struct cli_options o;

	(void)state;
	ok(&o, "refresh", NULL);
	assert_int_equal(o.command, CMD_REFRESH);
	assert_true(o.command_given);
	assert_false(o.query_given);
	assert_int_equal(o.timeout, 0);
	assert_int_equal(o.lock_wait, 60);
	ok(&o, "refresh", "--timeout", "30", "--wait", "0", NULL);
	assert_int_equal(o.timeout, 30);
	assert_int_equal(o.lock_wait, 0);
	ok(&o, "--timeout=86400", "--wait=86400", "refresh", NULL);
	assert_int_equal(o.timeout, 86400);
	assert_int_equal(o.lock_wait, 86400);
	ok(&o, "refresh", "-p", "aws,vast", "-q", "--db", "c.db", NULL);
	assert_int_equal(o.command, CMD_REFRESH);
	assert_int_equal(o.filter.nproviders, 2);
	assert_string_equal(o.filter.providers[0], "aws");
	assert_string_equal(o.filter.providers[1], "vast");
	assert_true(o.quiet);
	assert_string_equal(o.db, "c.db");
	bad("--timeout: expected a number of seconds from 1 to 86400, got "
	    "\"0\"", "refresh", "--timeout", "0", NULL);
	bad("--timeout: expected a number of seconds from 1 to 86400, got "
	    "\"86401\"", "refresh", "--timeout", "86401", NULL);
	bad("--timeout: expected a number of seconds from 1 to 86400, got "
	    "\"5s\"", "refresh", "--timeout", "5s", NULL);
	bad("--wait: expected a number of seconds from 0 to 86400, got "
	    "\"-1\"", "refresh", "--wait", "-1", NULL);
	bad("--count: not valid with the 'refresh' command",
	    "refresh", "--count", "2", NULL);
	bad("--gpu: not valid with the 'refresh' command",
	    "refresh", "--gpu", "A100", NULL);
	bad("--timeout: not valid with the 'providers' command",
	    "providers", "--timeout", "5", NULL);
	bad("refresh: unexpected argument \"aws\"", "refresh", "aws", NULL);
}

/*
 * A refresh-only option without a command word is refused with a
 * message that names the option and the command it belongs to (there
 * is no command word to quote: argv[optind] is NULL there).
 */
static void
test_refresh_option_without_command(void **state)
{
	char msg[512];

	(void)state;
	bad_msg(msg, sizeof msg, "--timeout", "5", NULL);
	if (strncmp(msg, "--timeout: ", 11) != 0)
		fail_msg("message \"%s\"", msg);
	if (strstr(msg, "(null)") != NULL)
		fail_msg("message \"%s\" prints a NULL command word", msg);
	if (strstr(msg, "refresh") == NULL)
		fail_msg("message \"%s\" does not say 'refresh'", msg);
	bad_msg(msg, sizeof msg, "--wait", "3", "-n", "2", NULL);
	if (strstr(msg, "(null)") != NULL)
		fail_msg("message \"%s\" prints a NULL command word", msg);
}

/* query_given: set by query options, not by common ones. */
static void
test_query_given(void **state)
{
	struct cli_options o;

	(void)state;
	ok(&o, NULL);
	assert_false(o.query_given);
	ok(&o, "--db", "x.db", NULL);
	assert_false(o.query_given);
	ok(&o, "--format", "csv", NULL);
	assert_false(o.query_given);
	ok(&o, "--db", "x.db", "--format", "json", NULL);
	assert_false(o.query_given);
	ok(&o, "--help", NULL);
	assert_false(o.query_given);
	ok(&o, "providers", NULL);
	assert_false(o.query_given);
	/* --quiet also applies to refresh; alone it asks for nothing. */
	ok(&o, "-q", NULL);
	assert_false(o.query_given);
	ok(&o, "--count", "2", NULL);
	assert_true(o.query_given);
	ok(&o, "--db", "x.db", "-g", "L4", NULL);
	assert_true(o.query_given);
	ok(&o, "--max-price", "1", "--db", "x.db", NULL);
	assert_true(o.query_given);
}

/* Several options together, in any order. */
static void
test_combined(void **state)
{
	struct cli_options o;

	(void)state;
	ok(&o, "--gpu", "H100", "-n", "8", "--multi-node", "--interconnect",
	    "nvlink", "-p", "aws,gcp", "--region", "us-*", "--max-price", "4",
	    "--available", "--sort", "pflop", "--reverse", "--limit", "5",
	    "--hours", "100", "--format", "json", "--db", "c.db", "-q", NULL);
	assert_int_equal(o.command, CMD_QUERY);
	assert_int_equal(o.filter.ngpus, 1);
	assert_string_equal(o.filter.gpus[0]->id, "H100");
	assert_int_equal(o.filter.count, 8);
	assert_true(o.filter.multi_node);
	assert_int_equal(o.filter.interconnect, IC_NVLINK);
	assert_int_equal(o.filter.nproviders, 2);
	assert_string_equal(o.filter.region, "us-*");
	assert_int_equal(o.filter.max_price_gpu_hour, 4000000);
	assert_true(o.filter.available);
	assert_false(o.filter.spot);
	assert_int_equal(o.sort, SORT_PFLOP);
	assert_true(o.reverse);
	assert_int_equal(o.limit, 5);
	assert_true(o.hours > 99.999 && o.hours < 100.001);
	assert_int_equal(o.format, OUTPUT_JSON);
	assert_string_equal(o.db, "c.db");
	assert_true(o.quiet);
	assert_true(o.query_given);
}

/* ------------------------------------------------------------------ */
/* Usage errors                                                       */
/* ------------------------------------------------------------------ */

static void
test_bad_count(void **state)
{
	(void)state;
	bad("--count: expected a positive integer, got \"abc\"",
	    "--count", "abc", NULL);
	bad("--count: expected a positive integer, got \"0\"",
	    "--count", "0", NULL);
	bad("--count: expected a positive integer, got \"-1\"",
	    "--count", "-1", NULL);
	bad("--count: expected a positive integer, got \"1025\"",
	    "--count", "1025", NULL);
	bad("--count: expected a positive integer, got \"\"",
	    "--count", "", NULL);
	bad("--count: expected a positive integer, got \"4x\"",
	    "-n", "4x", NULL);
	bad("--count: expected a positive integer, got \"+4\"",
	    "-n", "+4", NULL);
	bad("--count: expected a positive integer, got \"2.5\"",
	    "-n", "2.5", NULL);
	bad("--count: expected a positive integer, got "
	    "\"99999999999999999999999\"", "-n", "99999999999999999999999",
	    NULL);
}

static void
test_bad_min_vram(void **state)
{
	(void)state;
	bad("--min-vram: expected a whole number of GB from 1 to 1024, got "
	    "\"-5\"", "--min-vram", "-5", NULL);
	bad("--min-vram: expected a whole number of GB from 1 to 1024, got "
	    "\"0\"", "--min-vram", "0", NULL);
	bad("--min-vram: expected a whole number of GB from 1 to 1024, got "
	    "\"abc\"", "--min-vram", "abc", NULL);
	bad("--min-vram: expected a whole number of GB from 1 to 1024, got "
	    "\"1025\"", "--min-vram", "1025", NULL);
	bad("--min-vram: expected a whole number of GB from 1 to 1024, got "
	    "\"80GB\"", "--min-vram", "80GB", NULL);
}

static void
test_bad_format(void **state)
{
	(void)state;
	bad("--format: expected table, csv, tsv or json, got \"xml\"",
	    "--format", "xml", NULL);
	bad("--format: expected table, csv, tsv or json, got \"\"",
	    "-f", "", NULL);
}

static void
test_bad_hours(void **state)
{
	static const char *const values[] = {
		"nan", "inf", "0", "-1", "abc", "", "1000001", "1e400",
		"-inf", "24h"
	};
	char want[256];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof values / sizeof values[0]; i++) {
		snprintf(want, sizeof want, "--hours: expected a number of "
		    "hours greater than 0 and at most 1000000, got \"%s\"",
		    values[i]);
		bad(want, "--hours", values[i], NULL);
	}
}

static void
test_bad_max_price(void **state)
{
	static const char *const values[] = {
		"-1", "0", "abc", "", "0.0", "nan", "1 USD", "0.0000001"
	};
	char want[256];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof values / sizeof values[0]; i++) {
		snprintf(want, sizeof want, "--max-price: expected a price in "
		    "USD per GPU-hour greater than 0, got \"%s\"", values[i]);
		bad(want, "--max-price", values[i], NULL);
	}
}

static void
test_bad_interconnect(void **state)
{
	(void)state;
	bad("--interconnect: expected nvlink or pcie, got \"foo\"",
	    "--interconnect", "foo", NULL);
	/* "unknown" is not something to ask for. */
	bad("--interconnect: expected nvlink or pcie, got \"unknown\"",
	    "--interconnect", "unknown", NULL);
	bad("--interconnect: expected nvlink or pcie, got \"\"",
	    "--interconnect", "", NULL);
}

static void
test_bad_provider(void **state)
{
	(void)state;
	bad("--provider: unknown provider \"bogus\" (known: " PROVIDERS ")",
	    "--provider", "bogus", NULL);
	bad("--provider: unknown provider \"ibmcloud\" (known: " PROVIDERS ")",
	    "-p", "aws,ibmcloud", NULL);
	bad("--provider: expected a comma list of " PROVIDERS ", got "
	    "\"aws,,gcp\"", "--provider", "aws,,gcp", NULL);
	bad("--provider: expected a comma list of " PROVIDERS ", got \"\"",
	    "--provider", "", NULL);
	bad("--provider: expected a comma list of " PROVIDERS ", got "
	    "\"aws,\"", "--provider", "aws,", NULL);
	bad("--provider: expected a comma list of " PROVIDERS ", got "
	    "\",aws\"", "--provider", ",aws", NULL);
}

static void
test_bad_sort_limit(void **state)
{
	(void)state;
	bad("--sort: expected gpu-price, price, spot, spot-gpu-price, savings, "
	    "vram, pflop, provider, instance, region, gpu, count, "
	    "interconnect, availability, age, vcpus-per-gpu, ram-per-gpu, "
	    "term-gpu-price or job, got \"bogus\"",
	    "--sort", "bogus", NULL);
	bad("--limit: expected a positive integer, got \"0\"",
	    "--limit", "0", NULL);
	bad("--limit: expected a positive integer, got \"-3\"",
	    "-l", "-3", NULL);
	bad("--limit: expected a positive integer, got \"ten\"",
	    "--limit", "ten", NULL);
}

/* --term: a term in years or months, or any; it ranks by the term. */
static void
test_term(void **state)
{
	struct cli_options o;
	char words[256];

	(void)state;
	ok(&o, "--term", "1y", NULL);
	assert_int_equal(o.filter.term, 12);
	assert_int_equal(o.sort, SORT_TERM_GPU);
	assert_true(o.query_given);
	/* Part of the query's words (watch keys, the TUI's title). */
	filter_describe(&o.filter, words, sizeof words);
	assert_string_equal(words, "--term 1y");
	ok(&o, "--gpu", "H100", "--term", "any", NULL);
	filter_describe(&o.filter, words, sizeof words);
	assert_string_equal(words, "--gpu H100 --term any");
	ok(&o, "--term", "3y", "--sort", "price", NULL);
	assert_int_equal(o.filter.term, 36);
	assert_int_equal(o.sort, SORT_PRICE);
	ok(&o, "--term", "6m", NULL);
	assert_int_equal(o.filter.term, 6);
	ok(&o, "--term", "any", NULL);
	assert_int_equal(o.filter.term, TERM_ANY);
	ok(&o, "--gpu", "H100", NULL);
	assert_int_equal(o.filter.term, TERM_NONE);
	bad("--term: terms are 1y and 3y, a number of months where a "
	    "provider sells them (6m, up to 60m), or any; got \"2w\"", "--term", "2w", NULL);
	bad("--term: terms are 1y and 3y, a number of months where a "
	    "provider sells them (6m, up to 60m), or any; got \"6y\"", "--term", "6y", NULL);
	bad("--term: terms are 1y and 3y, a number of months where a "
	    "provider sells them (6m, up to 60m), or any; got \"0m\"", "--term", "0m", NULL);
}

static void
test_bad_region(void **state)
{
	char big[80];

	(void)state;
	bad("--region: expected a region pattern of 1 to 63 characters",
	    "--region", "", NULL);
	memset(big, 'r', 64);
	big[64] = '\0';
	bad("--region: expected a region pattern of 1 to 63 characters",
	    "--region", big, NULL);
}

static void
test_unknown_and_missing(void **state)
{
	(void)state;
	bad("unknown option \"--bogus\"", "--bogus", NULL);
	bad("unknown option \"--bogus=1\"", "--bogus=1", NULL);
	bad("unknown option '-x'", "-x", NULL);
	/* A control byte is shown escaped, never sent to the terminal. */
	bad("unknown option '-\\x1b'", "-\033", NULL);
	bad("unknown option '-\\x06'", "-\006\001b", NULL);
	bad("--count: expected a value", "--count", NULL);
	bad("-n: expected a value", "-n", NULL);
	bad("--gpu: expected a value", "--gpu", NULL);
	bad("--db: expected a value", "providers", "--db", NULL);
}

/* Is every byte of s printable (no control characters)? */
static int
printable(const char *s)
{
	for (; *s != '\0'; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			return 0;
	return 1;
}

/*
 * A flag given a value ("--spot=yes") is refused with a message naming
 * the option as typed, never a garbled "-<control char>" or another
 * option's letter.
 */
static void
test_flag_with_value(void **state)
{
	char msg[512];

	(void)state;
	bad_msg(msg, sizeof msg, "--spot=yes", NULL);
	if (!printable(msg))
		fail_msg("control character in \"%s\"", msg);
	if (strstr(msg, "--spot") == NULL)
		fail_msg("\"%s\" does not name --spot", msg);
	bad_msg(msg, sizeof msg, "--reverse=1", NULL);
	if (!printable(msg) || strstr(msg, "--reverse") == NULL)
		fail_msg("\"%s\" does not name --reverse", msg);
	bad_msg(msg, sizeof msg, "--help=x", NULL);
	if (strstr(msg, "--help") == NULL)
		fail_msg("\"%s\" does not name --help", msg);
}

static void
test_bad_command(void **state)
{
	(void)state;
	bad("unknown command \"frobnicate\" (commands: gpus, providers, "
	    "refresh, tui, history, watch, publish, launch, completion, mcp, "
	    "help or version)",
	    "frobnicate", NULL);
	bad("unknown command \"A100\" (commands: gpus, providers, refresh, "
	    "tui, history, watch, publish, launch, completion, mcp, help or "
	    "version)",
	    "--count", "2", "A100", NULL);
	/* A typo of a command word or option gets the nearest one. */
	bad("unknown command \"histroy\"; did you mean history?", "histroy",
	    NULL);
	bad("unknown command \"lanuch\"; did you mean launch?", "lanuch",
	    "k", NULL);
	bad("unknown option \"--gpus\"; did you mean --gpu?", "--gpus",
	    "H100", NULL);
	bad("providers: unexpected argument \"extra\"", "providers", "extra",
	    NULL);
	/* The hidden completion helper is never offered as a command. */
	bad("unknown command \"__completes\" (commands: gpus, providers, "
	    "refresh, tui, history, watch, publish, launch, completion, mcp, "
	    "help or version)", "__completes", NULL);
	bad("completion: expected SHELL", "completion", NULL);
	bad("mcp: unexpected argument \"x\"", "mcp", "x", NULL);
	bad("--gpu: not valid with the 'mcp' command", "mcp", "--gpu", "H100",
	    NULL);
	bad("gpus: unexpected argument \"providers\"", "gpus", "providers",
	    NULL);
	bad("providers: unexpected argument \"x\"", "--db", "d", "providers",
	    "x", NULL);
}

/* publish DIR: one operand; refresh --from: http(s) or a directory. */
static void
test_publish_and_from(void **state)
{
	struct cli_options o;

	(void)state;
	ok(&o, "publish", "/srv/gpucost", NULL);
	assert_int_equal(o.command, CMD_PUBLISH);
	assert_string_equal(o.operand, "/srv/gpucost");
	ok(&o, "--db", "x.db", "publish", "out", "-q", NULL);
	assert_string_equal(o.operand, "out");
	assert_true(o.quiet);
	bad("publish: expected DIR", "publish", NULL);
	bad("publish: expected DIR", "publish", "", NULL);
	bad("publish: unexpected argument \"b\"", "publish", "a", "b", NULL);
	bad("--gpu: not valid with the 'publish' command", "publish", "d",
	    "--gpu", "H100", NULL);
	bad("--from: not valid with the 'publish' command", "publish", "d",
	    "--from", "x", NULL);

	ok(&o, "refresh", "--from", "https://team.example/gpucost/", NULL);
	assert_int_equal(o.command, CMD_REFRESH);
	assert_string_equal(o.from, "https://team.example/gpucost/");
	ok(&o, "refresh", "--from", "/mnt/share/gpucost", "--quiet", NULL);
	assert_string_equal(o.from, "/mnt/share/gpucost");
	ok(&o, "refresh", NULL);
	assert_null(o.from);
	bad("--from: only http:// and https:// URLs (or a directory), got "
	    "\"ftp://x/y\"", "refresh", "--from", "ftp://x/y", NULL);
	bad("--from: expected an http(s) URL or a directory, got \"\"",
	    "refresh", "--from", "", NULL);
	bad("--from: only valid with the 'refresh' command", "--from", "d",
	    NULL);
}

/* Query options are refused with commands that do not take them. */
static void
test_not_valid_with(void **state)
{
	(void)state;
	bad("--count: not valid with the 'providers' command",
	    "providers", "--count", "2", NULL);
	bad("--count: not valid with the 'providers' command",
	    "--count", "2", "providers", NULL);
	bad("--gpu: not valid with the 'providers' command",
	    "providers", "--gpu", "A100", NULL);
	bad("--spot: not valid with the 'providers' command",
	    "providers", "--spot", NULL);
	bad("--sort: not valid with the 'gpus' command",
	    "gpus", "--sort", "price", NULL);
	bad("--min-vram: not valid with the 'gpus' command",
	    "gpus", "--min-vram", "80", NULL);
	bad("--hours: not valid with the 'providers' command",
	    "providers", "--hours", "3", NULL);
}

static void
test_bad_gpu(void **state)
{
	char msg[512];

	(void)state;
	bad_msg(msg, sizeof msg, "--gpu", "A1000", NULL);
	if (strncmp(msg, "--gpu: unknown GPU \"A1000\"; did you mean ", 41)
	    != 0)
		fail_msg("message \"%s\"", msg);
	assert_non_null(strstr(msg, "A100-80"));
	assert_non_null(strstr(msg, "A100-40"));
	assert_non_null(strstr(msg, "? ('gpucost gpus' lists them all)"));
	/* The whole message, as gpu_suggest orders it. */
	assert_string_equal(msg, "--gpu: unknown GPU \"A1000\"; did you mean "
	    "A100-80, A100-40, A6000, A5000? ('gpucost gpus' lists them all)");
	bad("--gpu: unknown GPU \"zzzzzz\" ('gpucost gpus' lists them all)",
	    "--gpu", "zzzzzz", NULL);
	/* Control characters in the value do not reach the terminal. */
	bad_msg(msg, sizeof msg, "--gpu", "zz\033[31mzz", NULL);
	assert_null(strchr(msg, '\033'));
	bad_msg(msg, sizeof msg, "--count", "\033]0;x\007", NULL);
	assert_null(strchr(msg, '\033'));
	assert_null(strchr(msg, '\007'));
}

/* An empty --gpu names nothing; nothing is "close" to no name at all. */
static void
test_bad_gpu_empty(void **state)
{
	char msg[512];

	(void)state;
	bad_msg(msg, sizeof msg, "--gpu", "", NULL);
	if (strcmp(msg, "--gpu: expected a GPU name ('gpucost gpus' lists "
	    "them)") != 0)
		fail_msg("message \"%s\"", msg);
	bad_msg(msg, sizeof msg, "--gpu=--", NULL);
	if (strcmp(msg, "--gpu: expected a GPU name ('gpucost gpus' lists "
	    "them)") != 0)
		fail_msg("message \"%s\"", msg);
}

/* The parser restarts cleanly: a failure leaves no state behind. */
static void
test_reparse(void **state)
{
	struct cli_options o;

	(void)state;
	bad("--count: expected a positive integer, got \"abc\"",
	    "--count", "abc", NULL);
	ok(&o, "--count", "3", NULL);
	assert_int_equal(o.filter.count, 3);
	ok(&o, "--spot", "-n", "2", NULL);
	ok(&o, NULL);
	assert_int_equal(o.filter.count, 0);
	assert_false(o.filter.spot);
	assert_int_equal(o.sort, SORT_GPU_PRICE);
}

/*
 * The CLI and the TUI's filter panel take the same strings: each input
 * goes through `gpucost --option input` and through the panel's edit of
 * that field; both accept it into the same filter, or both refuse it.
 * (Before filter.c the panel took "H100,H200", "aws, gcp", "$2" and
 * "any", and the CLI refused all four.)
 */
static void
test_cli_and_panel_agree(void **state)
{
	static const struct {
		enum filter_field field;
		const char *input;
		bool valid;
	} inputs[] = {
		{ FF_GPU, "H100,H200", true },
		{ FF_GPU, "A100-80, H100", true },
		{ FF_GPU, "RTX 4090", true },
		{ FF_GPU, "any", true },
		{ FF_GPU, "H100 SXM", true },
		{ FF_GPU, "A100 80GB SXM4, H100-SXM", true },
		{ FF_GPU, "H100 SXM,A100 PCIe", false },
		{ FF_GPU, "H100,", false },
		{ FF_GPU, "H1OO", false },
		{ FF_GPU, "", false },
		{ FF_PROVIDERS, "aws, gcp", true },
		{ FF_PROVIDERS, "aws,gcp,aws", true },
		{ FF_PROVIDERS, "any", true },
		{ FF_PROVIDERS, "aws,,gcp", false },
		{ FF_PROVIDERS, "bogus", false },
		{ FF_MAX_PRICE, "$2", true },
		{ FF_MAX_PRICE, "2", true },
		{ FF_MAX_PRICE, "2.5", true },
		{ FF_MAX_PRICE, "any", true },
		{ FF_MAX_PRICE, "0", false },
		{ FF_MAX_PRICE, "cheap", false },
		{ FF_COUNT, "8", true },
		{ FF_COUNT, "any", true },
		{ FF_COUNT, "0", false },
		{ FF_COUNT, "4x", false },
		{ FF_VRAM, "80", true },
		{ FF_VRAM, "2000", false },
		{ FF_LINK, "NVLink", true },
		{ FF_LINK, "pcie", true },
		{ FF_LINK, "any", true },
		{ FF_LINK, "token-ring", false },
		{ FF_REGION, "us-*", true },
		{ FF_REGION, "europe", true },
		{ FF_REGION, "[", false },
		{ FF_REGION, "us-[ew", false },
		{ FF_REGION, "us-[ew]*", true },
		{ FF_TEXT, "lambda us-east", true },
		{ FF_VCPUS_GPU, "4", true },
		{ FF_VCPUS_GPU, "0", false },
		{ FF_RAM_GPU, "16", true },
		{ FF_RAM_GPU, "lots", false },
		{ FF_FABRIC, "rdma", true },
		{ FF_FABRIC, "efa, infiniband,roce", true },
		{ FF_FABRIC, "any", true },
		{ FF_FABRIC, "tcpxo,tcpx", true },
		{ FF_FABRIC, "nvlink", false },
		{ FF_FABRIC, "efa,", false },
		{ FF_NODE_GBPS, "1600", true },
		{ FF_NODE_GBPS, "0", false },
		{ FF_NODE_GBPS, "fast", false },
		{ FF_NODES, "2", true },
		{ FF_NODES, "0", false },
		{ FF_NODES, "2.5", false },
		{ FF_LINK, "infiniband", false },
		{ FF_LINK, "efa", false },
	};
	char opt[64], q[128];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof inputs / sizeof inputs[0]; i++) {
		const struct filter_field_info *fi = &filter_fields[inputs[i].field];
		struct offer_filter panel;
		struct cli_options o;
		struct err err;
		char prog[] = "gpucost", value[64], *argv[4];
		int cli_rc, panel_rc;

		snprintf(opt, sizeof opt, "--%s", fi->option);
		snprintf(value, sizeof value, "%s", inputs[i].input);
		argv[0] = prog;
		argv[1] = opt;
		argv[2] = value;
		argv[3] = NULL;
		cli_rc = cli_parse(3, argv, &o, &err);
		offer_filter_init(&panel);
		panel_rc = filter_set(&panel, inputs[i].field, inputs[i].input,
		    false, &err);
		snprintf(q, sizeof q, "%s \"%s\"", opt, inputs[i].input);
		if (cli_rc != panel_rc)
			fail_msg("%s: CLI %d, panel %d", q, cli_rc, panel_rc);
		if ((cli_rc == 0) != inputs[i].valid)
			fail_msg("%s: expected %s", q, inputs[i].valid ?
			    "accepted" : "refused");
		if (cli_rc == 0 && memcmp(&o.filter, &panel, sizeof panel) != 0)
			fail_msg("%s: the two filters differ", q);
	}
}

/* --help lists every option of the table and every sort key. */
static void
test_help_from_tables(void **state)
{
	char *text = NULL, word[64];
	size_t size = 0;
	FILE *out;
	int ff, k;

	(void)state;
	out = open_memstream(&text, &size);
	assert_non_null(out);
	cli_usage(out);
	fclose(out);
	for (ff = 0; ff < FILTER_FIELD_COUNT; ff++) {
		snprintf(word, sizeof word, "--%s", filter_fields[ff].option);
		if (strstr(text, word) == NULL)
			fail_msg("--help lacks %s", word);
	}
	for (k = 0; k < SORT_KEY_COUNT; k++)
		if (strstr(text, sort_key_name((enum sort_key)k)) == NULL)
			fail_msg("--help lacks sort key %s",
			    sort_key_name((enum sort_key)k));
	assert_non_null(strstr(text, "version"));
	free(text);
}

/* Byte counts in the refresh and publish lines: SI units, whole below 1 MB. */
static void
test_human_bytes(void **state)
{
	char buf[32];

	(void)state;
	cli_human_bytes(0, buf, sizeof buf);
	assert_string_equal(buf, "0 B");
	cli_human_bytes(999, buf, sizeof buf);
	assert_string_equal(buf, "999 B");
	cli_human_bytes(1000, buf, sizeof buf);
	assert_string_equal(buf, "1 kB");
	cli_human_bytes(301045, buf, sizeof buf);
	assert_string_equal(buf, "301 kB");
	cli_human_bytes(1552384, buf, sizeof buf);
	assert_string_equal(buf, "1.6 MB");
	/* Past 4 GB: a 64-bit count, never a wrapped one. */
	cli_human_bytes(5000000000ULL, buf, sizeof buf);
	assert_string_equal(buf, "5000.0 MB");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_defaults, teardown),
		cmocka_unit_test_teardown(test_commands, teardown),
		cmocka_unit_test_teardown(test_db_anywhere, teardown),
		cmocka_unit_test_teardown(test_gpu_option, teardown),
		cmocka_unit_test_teardown(test_numeric_options, teardown),
		cmocka_unit_test_teardown(test_choice_options, teardown),
		cmocka_unit_test_teardown(test_provider_option, teardown),
		cmocka_unit_test_teardown(test_flags, teardown),
		cmocka_unit_test_teardown(test_spot_default_sort, teardown),
		cmocka_unit_test_teardown(test_refresh, teardown),
		cmocka_unit_test_teardown(test_refresh_option_without_command,
		    teardown),
		cmocka_unit_test_teardown(test_query_given, teardown),
		cmocka_unit_test_teardown(test_combined, teardown),
		cmocka_unit_test_teardown(test_bad_count, teardown),
		cmocka_unit_test_teardown(test_bad_min_vram, teardown),
		cmocka_unit_test_teardown(test_bad_format, teardown),
		cmocka_unit_test_teardown(test_bad_hours, teardown),
		cmocka_unit_test_teardown(test_bad_max_price, teardown),
		cmocka_unit_test_teardown(test_bad_interconnect, teardown),
		cmocka_unit_test_teardown(test_bad_provider, teardown),
		cmocka_unit_test_teardown(test_bad_sort_limit, teardown),
		cmocka_unit_test_teardown(test_term, teardown),
		cmocka_unit_test_teardown(test_bad_region, teardown),
		cmocka_unit_test_teardown(test_unknown_and_missing, teardown),
		cmocka_unit_test_teardown(test_flag_with_value, teardown),
		cmocka_unit_test_teardown(test_bad_command, teardown),
		cmocka_unit_test_teardown(test_publish_and_from, teardown),
		cmocka_unit_test(test_cli_and_panel_agree),
		cmocka_unit_test(test_help_from_tables),
		cmocka_unit_test_teardown(test_not_valid_with, teardown),
		cmocka_unit_test_teardown(test_bad_gpu, teardown),
		cmocka_unit_test_teardown(test_bad_gpu_empty, teardown),
		cmocka_unit_test_teardown(test_reparse, teardown),
		cmocka_unit_test(test_human_bytes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
