/*
 * cli.h: the command line: commands, options and their validation.
 *
 * cli_parse() turns argv into a struct cli_options or one usage error
 * naming the option and the bad value; it does no I/O. Options come from
 * one table in cli.c (the query's filter options from filter.h's), from
 * which getopt's tables, each option's commands, --help and the error
 * lists are made. Each command is a struct cmd_entry in its own file,
 * src/cmd_<name>.c; its exec() prints results and returns an exit
 * status from the EXIT_INFO table; main() only finds the entry and
 * returns that status.
 */
#ifndef GPUCOST_CLI_H
#define GPUCOST_CLI_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "offer.h"
#include "output.h"
#include "summary.h"

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
	CMD_VERSION,
	CMD_HISTORY,
	CMD_WATCH,
	CMD_PUBLISH,
	CMD_LAUNCH,
	CMD_COMPLETION,		/* completion SHELL: the shell's script */
	CMD_COMPLETE,		/* __complete KIND: values for the scripts */
	CMD_MCP			/* mcp: the MCP server on stdin/stdout */
};

/* Which commands take an option: a bit per group of commands. */
#define CMD_SCOPE_QUERY		0x01u	/* the query and the TUI */
#define CMD_SCOPE_GPUS		0x02u
#define CMD_SCOPE_PROVIDERS	0x04u
#define CMD_SCOPE_REFRESH	0x08u
#define CMD_SCOPE_HISTORY	0x10u
#define CMD_SCOPE_WATCH		0x20u
#define CMD_SCOPE_PUBLISH	0x40u
#define CMD_SCOPE_LAUNCH	0x80u
#define CMD_SCOPE_OTHER		0x100u	/* only the common options (mcp) */
#define CMD_SCOPE_ALL		0xffffu

struct cli_options {
	enum cli_command command;
	bool	command_given;		/* a command word was on the line */
	bool	query_given;		/* any query option was given */
	bool	format_given;		/* --format: a script wants output */
	const char *db;			/* --db, NULL for the default */
	struct offer_filter filter;
	enum sort_key sort;
	bool	sort_given;
	bool	reverse;
	long	limit;			/* 0: no limit */
	double	hours;			/* < 0: not given */
	enum output_format format;
	bool	quiet;
	long	timeout;		/* refresh --timeout; 0: default */
	long	lock_wait;		/* refresh --wait, seconds */
	bool	all_regions;		/* --all-regions: no folding */
	long	deadline;		/* refresh --deadline; 0: default */
	struct group_by group_by;	/* --group-by; nkeys 0: offers */
	int64_t	since;			/* history --since, seconds; 0 default */
	int64_t	max_age;		/* --max-age, seconds; 0 none given */
	bool	offline;		/* never refresh, whatever --max-age
					   or the config's max_age say (mcp) */
	const char *exec;		/* watch --exec CMD, or NULL */
	bool	watch_list;		/* watch --list */
	bool	watch_forget;		/* watch --forget */
	int64_t	exec_timeout;		/* watch --exec-timeout, s; 0: default */
	const char *operand;		/* publish DIR, launch KEY */
	/* help WORD, WORD --help: that command's help (NULL: all of it) */
	const struct cmd_entry *help_for;
	const char *from;		/* refresh --from URL|DIR, or NULL */
	bool	 live;			/* refresh --live: not the config's from */
	const char *from_key;		/* refresh --from-key KEY|FILE, or NULL */
	const char *sign;		/* publish --sign KEYFILE, or NULL */
	bool	 keygen;		/* publish --keygen: operand is a key */
};

/*
 * Parse argv. Returns 0, or -1 with a one-line usage error in err
 * ("--count: expected a positive integer, got \"abc\"").
 */
struct err;
int	cli_parse(int argc, char **argv, struct cli_options *opts,
	    struct err *err);

/*
 * The option table, for what is generated from it besides getopt's
 * tables and --help: the shell completion scripts (cmd_completion.c)
 * and the MCP tools' input schemas (cmd_mcp.c).
 */
struct cli_option {
	const char	*name;		/* without "--" */
	int		 short_opt;	/* 0 when none */
	const char	*arg;		/* value name; NULL: takes no value */
	unsigned	 scope;		/* CMD_SCOPE_*: commands that take it */
	bool		 asks;		/* makes the command line a query */
	int		 filter;	/* enum filter_field, or -1 */
	int		 id;		/* OPT_*, or the filter's index */
	const char	*help;
};

/* What an option's value is, so completion can offer the candidates. */
enum cli_values {
	CLI_VALUES_NONE = 0,	/* a flag: no value */
	CLI_VALUES_TEXT,	/* free text: nothing to offer */
	CLI_VALUES_INT,		/* a whole number */
	CLI_VALUES_NUMBER,	/* a decimal number (USD, hours) */
	CLI_VALUES_GPUS,	/* comma list of GPU ids and aliases */
	CLI_VALUES_PROVIDERS,	/* comma list of provider ids */
	CLI_VALUES_REGIONS,	/* continents, countries, region names */
	CLI_VALUES_SORT,	/* a sort key */
	CLI_VALUES_FORMATS,	/* an output format */
	CLI_VALUES_LINKS,	/* an interconnect */
	CLI_VALUES_GROUPS,	/* comma list of --group-by keys */
	CLI_VALUES_FILE,	/* a file path */
	CLI_VALUES_DIR,		/* a directory or a URL */
	CLI_VALUES_KEYS		/* launch's operand: the cache's instance types */
};

/* The whole option table (filters first), and its size in *n. */
const struct cli_option *cli_option_table(size_t *n);
/* What option opt's value is. */
enum cli_values cli_option_values(const struct cli_option *opt);
/* The option that sets --help / --version (cmd_mcp.c leaves them out). */
bool	cli_option_is_meta(const struct cli_option *opt);
/* The option that makes a query refresh first (--max-age: mcp never). */
bool	cli_option_refreshes(const struct cli_option *opt);

/* The usage text (for --help), made from the command and option tables. */
void	cli_usage(FILE *out);

/* A command: `gpucost WORD [options]`, or the query with no word. */
struct cmd_entry {
	enum cli_command id;
	const char	*name;		/* the word; "" for the query */
	const char	*usage;		/* its line in --help after the word */
	const char	*summary;	/* what it does, for --help */
	unsigned	 scope;		/* CMD_SCOPE_*: the options it takes */
	bool		 needs_http;	/* load libcurl before exec() */
	int		(*exec)(const struct cli_options *opts);
};

/* Every command, in --help order, NULL-terminated (cli.c). */
extern const struct cmd_entry *const cmd_table[];

/* The entry of a command id. */
const struct cmd_entry *cli_command_entry(enum cli_command id);

extern const struct cmd_entry cmd_query_entry;
extern const struct cmd_entry cmd_gpus_entry;
extern const struct cmd_entry cmd_providers_entry;
extern const struct cmd_entry cmd_refresh_entry;
extern const struct cmd_entry cmd_launch_entry;
extern const struct cmd_entry cmd_tui_entry;
extern const struct cmd_entry cmd_history_entry;
extern const struct cmd_entry cmd_watch_entry;
extern const struct cmd_entry cmd_publish_entry;
extern const struct cmd_entry cmd_help_entry;
extern const struct cmd_entry cmd_version_entry;
extern const struct cmd_entry cmd_completion_entry;
extern const struct cmd_entry cmd_complete_entry;
extern const struct cmd_entry cmd_mcp_entry;

/* Helpers the commands share (cli_common.c). */
struct db;
/* Open the cache of opts->db, printing any error; NULL on failure. */
struct db *cli_open_cache(const struct cli_options *opts);
/*
 * Is the filter's --region a place gpucost knows, the cache's region
 * names included (filter_region_check())? false after printing why
 * (the nearest names): the command exits EXIT_USAGE.
 */
bool	cli_region_known(struct db *db, const struct offer_filter *f);

/*
 * The question (answer.h) the options ask, asked now: the filter, the
 * sort and its direction; every row, unfolded, until the face sets more.
 * The query and `launch` ask it, so launch's row is the query's.
 */
struct question;
void	cli_question(const struct cli_options *opts, struct question *q);

/*
 * An answer's footer (footer.h) on stderr, wrapped to the terminal's
 * width when stderr is one (cli_footer_width(); else one line an
 * entry, as scripts read it).
 */
struct footer;
void	cli_footer_print(const struct footer *f);
size_t	cli_footer_width(void);
/* Table width for out: the tty's, else $COLUMNS, else 0 (unlimited). */
size_t	cli_output_width(FILE *out);
/* A byte count for people: "812 B", "37 kB", "1.2 MB" (SI units). */
void	cli_human_bytes(uint64_t bytes, char *buf, size_t size);
/*
 * One command's help: its usage, what it does, the options it takes
 * (`gpucost help launch`, `gpucost launch --help`).
 */
void	cli_command_usage(FILE *out, const struct cmd_entry *e);
/* "gpucost: " and a message on stderr. */
void	cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/*
 * Does the filter name a retired provider (data/retired.tsv)? Then one
 * line on stderr says since when and why, and the caller exits with
 * EXIT_USAGE: it is never refreshed and its offers never shown.
 */
bool	cli_retired(const struct offer_filter *f);
/*
 * Did --train's memory rule alone leave filter f no plan (no offer holds
 * the run)? Then the query refuses it (EXIT_USAGE).
 */
bool	cli_train_refused(struct db *db, const struct offer_filter *f);
/*
 * Why the query of o (filter f) had no row, on stderr: the providers
 * asked have no data yet (a->status), the market references it left
 * out, or the first option that leaves no offer (query_explain_empty()).
 * Returns whether it said the providers have no data.
 */
struct answer;
bool	cli_explain_empty(struct db *db, const struct cli_options *o,
	    const struct offer_filter *f, const struct answer *a);

#endif
