/*
 * cli.h: the command line: commands, options and their validation.
 *
 * cli_parse() turns argv into a struct cli_options or one usage error
 * naming the option and the bad value; it does no I/O. The commands'
 * work is in cli.c's cli_run_*() functions, which print results and
 * return an exit status from the EXIT_INFO table; main() only picks
 * the command and returns that status.
 */
#ifndef GPUCOST_CLI_H
#define GPUCOST_CLI_H

#include <stdbool.h>
#include <stdio.h>

#include "offer.h"
#include "output.h"

/* Exit statuses: code, value, what it means (also in gpucost(1)). */
#define EXIT_INFO(X)							\
	X(EXIT_OK,		0, "success: offers found, or the command succeeded") \
	X(EXIT_NO_MATCH,	1, "no offer matched the query")	\
	X(EXIT_USAGE,		2, "usage error: bad option, value or command") \
	X(EXIT_DATA,		3, "cache or data error: the cache cannot be opened, read or written") \
	X(EXIT_REFRESH,		4, "refresh failed for at least one provider")

enum exit_status {
#define X(id, val, text) id = val,
	EXIT_INFO(X)
#undef X
};

enum cli_command {
	CMD_QUERY = 0,		/* no command word: query (or the TUI) */
	CMD_GPUS,
	CMD_PROVIDERS,
	CMD_REFRESH,
	CMD_TUI,
	CMD_HELP,
	CMD_VERSION
};

struct cli_options {
	enum cli_command command;
	bool	command_given;		/* a command word was on the line */
	bool	query_given;		/* any query option was given */
	bool	format_given;		/* --format: a script wants output */
	const char *db;			/* --db, NULL for the default */
	struct offer_filter filter;
	const char *gpu_query;		/* --gpu as typed */
	enum sort_key sort;
	bool	sort_given;
	bool	reverse;
	long	limit;			/* 0: no limit */
	double	hours;			/* < 0: not given */
	enum output_format format;
	bool	quiet;
	long	timeout;		/* refresh --timeout; 0: default */
	long	lock_wait;		/* refresh --wait, seconds */
};

/*
 * Parse argv. Returns 0, or -1 with a one-line usage error in err
 * ("--count: expected a positive integer, got \"abc\"").
 */
struct err;
int	cli_parse(int argc, char **argv, struct cli_options *opts,
	    struct err *err);

/* The usage text (for --help). */
void	cli_usage(FILE *out);

/* Run a command; each returns an enum exit_status. */
int	cli_run_query(const struct cli_options *opts);
int	cli_run_gpus(const struct cli_options *opts);
int	cli_run_providers(const struct cli_options *opts);
int	cli_run_refresh(const struct cli_options *opts);

#endif
