/*
 * cli.c: the command line: one option table, the command table, parsing
 * and --help; helpers the commands share. The commands themselves are
 * in cmd_<name>.c.
 */
#include "config.h"
#include "cli.h"
#include "notes.h"

#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "filter.h"
#include "history.h"
#include "provider.h"
#include "str.h"

/* The options that are not filters (those come from filter.h). */
enum {
	OPT_SORT = 256,
	OPT_REVERSE,
	OPT_LIMIT,
	OPT_HOURS,
	OPT_FORMAT,
	OPT_DB,
	OPT_QUIET,
	OPT_TIMEOUT,
	OPT_WAIT,
	OPT_DEADLINE,
	OPT_HELP,
	OPT_VERSION,
	OPT_ALL_REGIONS,
	OPT_GROUP_BY,
	OPT_SINCE,
	OPT_MAX_AGE,
	OPT_EXEC,
	OPT_LIST,
	OPT_FORGET,
	OPT_FROM,
	OPT_LIVE,
	OPT_TERM,
	OPT_FROM_KEY,
	OPT_SIGN,
	OPT_KEYGEN,
	OPT_EXEC_TIMEOUT,
	OPT_TRAIN,
	OPT_MFU,
	OPT_CHECKPOINT,
	OPT_EGRESS
};

/* One option (struct cli_option, cli.h): a filter field or one of the above. */

/* The options that are not filters, in --help order within a group. */
static const struct cli_option other_options[] = {
	{ "sort", 's', "KEY", CMD_SCOPE_QUERY | CMD_SCOPE_LAUNCH, true, -1,
	    OPT_SORT,
	    "sort key (default gpu-price; keys below)" },
	{ "reverse", 0, NULL, CMD_SCOPE_QUERY | CMD_SCOPE_LAUNCH, true, -1,
	    OPT_REVERSE,
	    "reverse the sort order" },
	{ "limit", 'l', "N", CMD_SCOPE_QUERY, true, -1, OPT_LIMIT,
	    "print at most N offers" },
	{ "hours", 0, "H", CMD_SCOPE_QUERY, true, -1, OPT_HOURS,
	    "add the total cost of an H-hour job" },
	{ "all-regions", 0, NULL, CMD_SCOPE_QUERY, true, -1, OPT_ALL_REGIONS,
	    "a table row per region (default: one row, +N regions)" },
	{ "group-by", 0, "KEYS", CMD_SCOPE_QUERY, true, -1, OPT_GROUP_BY,
	    "a row per gpu, provider, region, continent: min/median/max" },
	{ "term", 0, "TERM", CMD_SCOPE_QUERY | CMD_SCOPE_LAUNCH, true, -1,
	    OPT_TERM,
	    "committed prices: 1y, 3y, 6m ... or any (rank by the best)" },
	{ "train", 0, "PARAMS:TOKENS", CMD_SCOPE_QUERY, true, -1, OPT_TRAIN,
	    "rank by what a training run costs (7B:2T): hours, job $" },
	{ "mfu", 0, "F", CMD_SCOPE_QUERY, true, -1, OPT_MFU,
	    "--train: share of the BF16 peak reached (default 0.40)" },
	{ "checkpoint", 0, "DURATION", CMD_SCOPE_QUERY, true, -1,
	    OPT_CHECKPOINT, "--train: time between checkpoints (default 30m)" },
	{ "egress", 0, "SIZE", CMD_SCOPE_QUERY, true, -1, OPT_EGRESS,
	    "--train: data moved out to the internet (10TB)" },
	{ "max-age", 0, "DURATION", CMD_SCOPE_QUERY, true, -1, OPT_MAX_AGE,
	    "first refresh the keyless providers whose data is older (1d, 12h)" },
	{ "since", 0, "DURATION", CMD_SCOPE_HISTORY, false, -1, OPT_SINCE,
	    "history: the period (30d, 12h, 2w; default 30d)" },
	{ "exec", 0, "CMD", CMD_SCOPE_WATCH, false, -1, OPT_EXEC,
	    "watch: run CMD with the news as JSON on its stdin" },
	{ "list", 0, NULL, CMD_SCOPE_WATCH, false, -1, OPT_LIST,
	    "watch: list the stored watches" },
	{ "forget", 0, NULL, CMD_SCOPE_WATCH, false, -1, OPT_FORGET,
	    "watch: forget the watch of this query" },
	{ "exec-timeout", 0, "DURATION", CMD_SCOPE_WATCH, false, -1,
	    OPT_EXEC_TIMEOUT, "watch: kill --exec's command after it "
	    "(default 60s)" },
	{ "quiet", 'q', NULL, CMD_SCOPE_QUERY | CMD_SCOPE_REFRESH |
	    CMD_SCOPE_PUBLISH, false, -1, OPT_QUIET,
	    "no data-age line (refresh, publish: only errors)" },
	{ "from", 0, "URL|DIR", CMD_SCOPE_REFRESH, false, -1, OPT_FROM,
	    "pull a published cache (http(s) URL or directory)" },
	{ "live", 0, NULL, CMD_SCOPE_REFRESH, false, -1, OPT_LIVE,
	    "ask the providers, even with from = in the config" },
	{ "from-key", 0, "KEY|FILE", CMD_SCOPE_REFRESH, false, -1,
	    OPT_FROM_KEY, "pull only copies signed by this public key" },
	{ "sign", 0, "KEYFILE", CMD_SCOPE_PUBLISH, false, -1, OPT_SIGN,
	    "publish: sign the manifest with this secret key" },
	{ "keygen", 0, NULL, CMD_SCOPE_PUBLISH, false, -1, OPT_KEYGEN,
	    "publish --keygen FILE: make FILE and FILE.pub, a key pair" },
	{ "timeout", 0, "SECONDS", CMD_SCOPE_REFRESH, false, -1, OPT_TIMEOUT,
	    "per transfer (default 600)" },
	{ "wait", 0, "SECONDS", CMD_SCOPE_REFRESH, false, -1, OPT_WAIT,
	    "wait for another refresh to finish (default 60)" },
	{ "deadline", 0, "SECONDS", CMD_SCOPE_REFRESH, false, -1, OPT_DEADLINE,
	    "most one provider may take, retries included (default 900)" },
	{ "format", 'f', "FORMAT", CMD_SCOPE_ALL, false, -1, OPT_FORMAT,
	    "table (default), csv, tsv or json" },
	{ "db", 0, "PATH", CMD_SCOPE_ALL, false, -1, OPT_DB,
	    "cache file (default $XDG_DATA_HOME/gpucost/gpucost.db)" },
	{ "help", 'h', NULL, CMD_SCOPE_ALL, false, -1, OPT_HELP,
	    "this help" },
	{ "version", 'V', NULL, CMD_SCOPE_ALL, false, -1, OPT_VERSION,
	    "print the version" },
};
#define NOTHER	(sizeof other_options / sizeof other_options[0])

/*
 * Commands a filter option is taken by besides the query and `launch`
 * (which asks the query's question: its row is the plan the table shows).
 */
static const struct {
	enum filter_field field;
	unsigned	 scope;
} filter_scope[] = {
	{ FF_GPU,	CMD_SCOPE_GPUS },	/* gpucost gpus --gpu A100 */
	{ FF_PROVIDERS,	CMD_SCOPE_REFRESH },	/* refresh --provider aws */
};

/* Commands that take one operand after their word, and its name. */
static const struct {
	enum cli_command command;
	const char	*name;
} command_operands[] = {
	{ CMD_PUBLISH,	"DIR" },	/* gpucost publish DIR */
	{ CMD_LAUNCH,	"KEY" },	/* gpucost launch KEY */
	{ CMD_COMPLETION, "SHELL" },	/* gpucost completion bash */
	{ CMD_COMPLETE,	"KIND" },	/* gpucost __complete gpus */
};

#define NOPTIONS	(FILTER_FIELD_COUNT + NOTHER)

/* The whole option table (filters first), and getopt's view of it. */
static struct cli_option options[NOPTIONS];
static struct option long_options[NOPTIONS + 1];
static char short_options[2 * NOPTIONS + 2];

const struct cmd_entry *const cmd_table[] = {
	&cmd_query_entry,
	&cmd_gpus_entry,
	&cmd_providers_entry,
	&cmd_refresh_entry,
	&cmd_tui_entry,
	&cmd_history_entry,
	&cmd_watch_entry,
	&cmd_publish_entry,
	&cmd_launch_entry,
	&cmd_completion_entry,
	&cmd_mcp_entry,
	&cmd_complete_entry,
	&cmd_help_entry,
	&cmd_version_entry,
	NULL
};

const struct cmd_entry *
cli_command_entry(enum cli_command id)
{
	size_t i;

	for (i = 0; cmd_table[i] != NULL; i++)
		if (cmd_table[i]->id == id)
			return cmd_table[i];
	return &cmd_query_entry;
}

/* Fill the option table and getopt's tables from it, once. */
static void
build_options(void)
{
	static bool built;
	size_t i, j, n = 0, s = 0;

	if (built)
		return;
	for (i = 0; i < FILTER_FIELD_COUNT; i++) {
		const struct filter_field_info *fi = &filter_fields[i];
		struct cli_option *o = &options[n++];

		o->name = fi->option;
		o->short_opt = fi->short_opt;
		o->arg = fi->kind == FILTER_FLAG ? NULL : fi->arg;
		o->scope = CMD_SCOPE_QUERY | CMD_SCOPE_LAUNCH;
		for (j = 0; j < sizeof filter_scope / sizeof filter_scope[0];
		    j++)
			if (filter_scope[j].field == (enum filter_field)i)
				o->scope |= filter_scope[j].scope;
		o->asks = true;
		o->filter = (int)i;
		o->id = (int)i;
		o->help = fi->help;
	}
	for (i = 0; i < NOTHER; i++)
		options[n++] = other_options[i];
	short_options[s++] = ':';	/* report a missing value as ':' */
	for (i = 0; i < NOPTIONS; i++) {
		long_options[i].name = options[i].name;
		long_options[i].has_arg = options[i].arg != NULL ?
		    required_argument : no_argument;
		long_options[i].flag = NULL;
		/* getopt returns the short letter, else 1000 + index */
		long_options[i].val = options[i].short_opt != 0 ?
		    options[i].short_opt : 1000 + (int)i;
		if (options[i].short_opt != 0) {
			short_options[s++] = (char)options[i].short_opt;
			if (options[i].arg != NULL)
				short_options[s++] = ':';
		}
	}
	memset(&long_options[NOPTIONS], 0, sizeof long_options[NOPTIONS]);
	short_options[s] = '\0';
	built = true;
}

/* The index in options[] of getopt's answer c, or -1. */
static int
option_index(int c)
{
	size_t i;

	if (c >= 1000 && c < 1000 + (int)NOPTIONS)
		return c - 1000;
	for (i = 0; i < NOPTIONS; i++)
		if (options[i].short_opt == c)
			return (int)i;
	return -1;
}

/* "word1, word2 or word3" of a list of n names from name(i). */
static void
join_words(char *buf, size_t size, size_t n, const char *(*name)(size_t))
{
	size_t i, len = 0;

	buf[0] = '\0';
	for (i = 0; i < n && len < size; i++)
		len += (size_t)snprintf(buf + len, size - len, "%s%s",
		    i == 0 ? "" : i + 1 == n ? " or " : ", ", name(i));
}

static const char *
sort_name_at(size_t i)
{
	return sort_key_name((enum sort_key)i);
}

/* A command --help and the error lists leave out (__complete). */
static bool
command_hidden(const struct cmd_entry *e)
{
	return strncmp(e->name, "__", 2) == 0;
}

static const char *
command_name_at(size_t i)
{
	size_t k, n = 0;

	for (k = 1; cmd_table[k] != NULL; k++)	/* the query has no word */
		if (!command_hidden(cmd_table[k]) && n++ == i)
			return cmd_table[k]->name;
	return "?";
}

/* The commands named in messages: all but the query and hidden ones. */
static size_t
command_count(void)
{
	size_t n = 0, k;

	for (k = 1; cmd_table[k] != NULL; k++)
		if (!command_hidden(cmd_table[k]))
			n++;
	return n;
}

static int
parse_long(const char *opt, const char *value, long min, long max,
    const char *what, long *out, struct err *err)
{
	char *end, q[80];
	long v;

	errno = 0;
	v = strtol(value, &end, 10);
	if (value[0] < '0' || value[0] > '9' || *end != '\0' || errno != 0 ||
	    v < min || v > max) {
		err_set(err, "%s: expected %s, got %s", opt, what,
		    str_quoted(value, q, sizeof q));
		return -1;
	}
	*out = v;
	return 0;
}

static int
parse_hours(const char *value, double *out, struct err *err)
{
	char *end, q[80];
	double v;

	errno = 0;
	v = strtod(value, &end);
	if (value[0] == '\0' || *end != '\0' || errno != 0 || !isfinite(v) ||
	    v <= 0 || v > 1e6) {
		err_set(err, "--hours: expected a number of hours greater than "
		    "0 and at most 1000000, got %s", str_quoted(value, q,
		    sizeof q));
		return -1;
	}
	*out = v;
	return 0;
}

/* --checkpoint: a duration from a minute to 30 days, in seconds. */
static int
parse_checkpoint(const char *value, int *out, struct err *err)
{
	int64_t secs;
	char q[80];

	if (history_parse_duration(value, &secs, NULL) < 0 || secs < 60 ||
	    secs > 30 * 86400) {
		err_set(err, "--checkpoint: expected a duration from 1m to 30d "
		    "such as 30m, 2h or 1d, got %s", str_quoted(value, q,
		    sizeof q));
		return -1;
	}
	*out = (int)secs;
	return 0;
}

/*
 * refresh --from: an http(s) URL or a directory path (any other scheme
 * is a mistake worth a usage error, not a "no such directory").
 */
static int
parse_from(const char *arg, const char **out, struct err *err)
{
	char q[80], *shown = str_url_redact(arg, NULL, NULL);

	if (arg[0] == '\0' || !str_is_clean(arg)) {
		err_set(err, "--from: expected an http(s) URL or a directory, "
		    "got %s", str_quoted(shown, q, sizeof q));
		free(shown);
		return -1;
	}
	if (strstr(arg, "://") != NULL && strncmp(arg, "http://", 7) != 0 &&
	    strncmp(arg, "https://", 8) != 0) {
		err_set(err, "--from: only http:// and https:// URLs (or a "
		    "directory), got %s", str_quoted(shown, q, sizeof q));
		free(shown);
		return -1;
	}
	free(shown);
	*out = arg;
	return 0;
}

/* Apply one option's value. */
static int
set_option(const struct cli_option *opt, const char *arg,
    struct cli_options *o, struct err *err)
{
	char q[80], keys[256];

	if (opt->filter >= 0)
		return filter_set(&o->filter, (enum filter_field)opt->filter,
		    arg != NULL ? arg : "yes", true, err);
	switch (opt->id) {
	case OPT_SORT:
		if (sort_key_parse(arg, &o->sort) < 0) {
			join_words(keys, sizeof keys, SORT_KEY_COUNT,
			    sort_name_at);
			err_set(err, "--sort: expected %s, got %s", keys,
			    str_quoted(arg, q, sizeof q));
			return -1;
		}
		o->sort_given = true;
		return 0;
	case OPT_REVERSE:
		o->reverse = true;
		return 0;
	case OPT_LIMIT:
		return parse_long("--limit", arg, 1, LONG_MAX,
		    "a positive integer", &o->limit, err);
	case OPT_HOURS:
		return parse_hours(arg, &o->hours, err);
	case OPT_TRAIN:
		return train_parse(arg, &o->filter.train, err);
	case OPT_MFU:
		return train_parse_mfu(arg, &o->filter.train.mfu, err);
	case OPT_CHECKPOINT:
		return parse_checkpoint(arg, &o->filter.train.checkpoint_s,
		    err);
	case OPT_EGRESS:
		return train_parse_size(arg, &o->filter.train.egress_gb, err);
	case OPT_TERM:
		if (committed_term_parse(arg, &o->filter.term) < 0) {
			err_set(err, "--term: terms are 1y and 3y, a number "
			    "of months where a provider sells them (6m, up to "
			    "60m), or any; got %s", str_quoted(arg, q,
			    sizeof q));
			return -1;
		}
		return 0;
	case OPT_FORMAT:
		o->format_given = true;
		if (output_format_parse(arg, &o->format) < 0) {
			err_set(err, "--format: expected table, csv, tsv or "
			    "json, got %s", str_quoted(arg, q, sizeof q));
			return -1;
		}
		return 0;
	case OPT_DB:
		if (arg[0] == '\0') {
			err_set(err, "--db: expected a file path");
			return -1;
		}
		o->db = arg;
		return 0;
	case OPT_QUIET:
		o->quiet = true;
		return 0;
	case OPT_TIMEOUT:
		return parse_long("--timeout", arg, 1, 86400,
		    "a number of seconds from 1 to 86400", &o->timeout, err);
	case OPT_WAIT:
		return parse_long("--wait", arg, 0, 86400,
		    "a number of seconds from 0 to 86400", &o->lock_wait, err);
	case OPT_DEADLINE:
		return parse_long("--deadline", arg, 1, 86400,
		    "a number of seconds from 1 to 86400", &o->deadline, err);
	case OPT_GROUP_BY:
		return group_by_parse(arg, &o->group_by, err);
	case OPT_SINCE:
		return history_parse_duration(arg, &o->since, err);
	case OPT_MAX_AGE:
		if (history_parse_duration(arg, &o->max_age, err) < 0) {
			err_set(err, "--max-age: expected a duration such as 1d, "
			    "12h or 90m, got %s", str_quoted(arg, q, sizeof q));
			return -1;
		}
		return 0;
	case OPT_EXEC:
		if (arg[0] == '\0') {
			err_set(err, "--exec: expected a command");
			return -1;
		}
		o->exec = arg;
		return 0;
	case OPT_EXEC_TIMEOUT:
		if (history_parse_duration(arg, &o->exec_timeout, err) < 0 ||
		    o->exec_timeout > 86400) {
			err_set(err, "--exec-timeout: expected a duration from "
			    "1s to 1d such as 60s, 5m or 1h, got %s",
			    str_quoted(arg, q, sizeof q));
			return -1;
		}
		return 0;
	case OPT_LIST:
		o->watch_list = true;
		return 0;
	case OPT_FORGET:
		o->watch_forget = true;
		return 0;
	case OPT_FROM:
		return parse_from(arg, &o->from, err);
	case OPT_LIVE:
		o->live = true;
		return 0;
	case OPT_FROM_KEY:
		if (arg[0] == '\0' || !str_is_clean(arg)) {
			err_set(err, "--from-key: expected a public key or its "
			    "file");
			return -1;
		}
		o->from_key = arg;
		return 0;
	case OPT_SIGN:
		if (arg[0] == '\0' || !str_is_clean(arg)) {
			err_set(err, "--sign: expected a secret key file");
			return -1;
		}
		o->sign = arg;
		return 0;
	case OPT_KEYGEN:
		o->keygen = true;
		return 0;
	case OPT_HELP:
		o->command = CMD_HELP;
		return 0;
	case OPT_VERSION:
		o->command = CMD_VERSION;
		return 0;
	case OPT_ALL_REGIONS:
		o->all_regions = true;
		return 0;
	}
	return 0;
}

/* The first command word that takes options of this scope. */
static const char *
scope_command(unsigned scope)
{
	size_t i;

	for (i = 1; cmd_table[i] != NULL; i++)
		if ((cmd_table[i]->scope & scope) != 0)
			return cmd_table[i]->name;
	return "?";
}

/* The message for an option getopt did not know (c == '?'). */
static void
unknown_option(const char *arg, struct err *err)
{
	char q[80];

	/* glibc sets optopt to a long flag's code if given a value. */
	if (strncmp(arg, "--", 2) == 0 && strchr(arg, '=') != NULL &&
	    optopt != 0)
		err_set(err, "%.*s: takes no value",
		    (int)(strchr(arg, '=') - arg), arg);
	else if (strncmp(arg, "--", 2) == 0 || optopt == 0 || optopt > 127) {
		const char *names[NOPTIONS], *near;
		char word[64];
		size_t i;

		for (i = 0; i < NOPTIONS; i++)
			names[i] = options[i].name;
		str_copy(word, sizeof word, arg + strspn(arg, "-"));
		word[strcspn(word, "=")] = '\0';
		near = str_nearest(word, names, NOPTIONS);
		if (near != NULL)
			err_set(err, "unknown option %s; did you mean --%s?",
			    str_quoted(arg, q, sizeof q), near);
		else
			err_set(err, "unknown option %s",
			    str_quoted(arg, q, sizeof q));
	}
	else if (!isgraph(optopt))	/* no control byte out */
		err_set(err, "unknown option '-\\x%02x'", optopt);
	else
		err_set(err, "unknown option '-%c'", optopt);
}

/* The entry of command word w, or NULL (the query has no word). */
static const struct cmd_entry *
command_named(const char *w)
{
	size_t i;

	for (i = 1; cmd_table[i] != NULL; i++)
		if (strcmp(w, cmd_table[i]->name) == 0 &&
		    !command_hidden(cmd_table[i]))
			return cmd_table[i];
	return NULL;
}

/*
 * --help with a command word (`gpucost launch --help`), or the word
 * after `help`: that command's help. Whatever else is on the line is
 * not checked: help is asked.
 */
static void
help_topic(int argc, char **argv, int at, struct cli_options *o)
{
	const struct cmd_entry *e;

	if (at < argc && (e = command_named(argv[at])) != NULL &&
	    e->id != CMD_HELP && e->id != CMD_VERSION)
		o->help_for = e;
}

/* The command word at argv[optind], if any. */
static int
parse_command(int argc, char **argv, struct cli_options *o,
    const struct cmd_entry **entry, struct err *err)
{
	char q[80], words[256];
	size_t i, j;

	if (optind >= argc)
		return 0;
	for (i = 1; cmd_table[i] != NULL; i++)
		if (strcmp(argv[optind], cmd_table[i]->name) == 0)
			break;
	if (cmd_table[i] == NULL) {
		const char *names[32], *near;
		size_t n = 0;

		for (j = 1; cmd_table[j] != NULL && n < 32; j++)
			if (!command_hidden(cmd_table[j]))
				names[n++] = cmd_table[j]->name;
		if ((near = str_nearest(argv[optind], names, n)) != NULL) {
			err_set(err, "unknown command %s; did you mean %s?",
			    str_quoted(argv[optind], q, sizeof q), near);
			return -1;
		}
		join_words(words, sizeof words, command_count(),
		    command_name_at);
		err_set(err, "unknown command %s (commands: %s)",
		    str_quoted(argv[optind], q, sizeof q), words);
		return -1;
	}
	*entry = cmd_table[i];
	o->command = cmd_table[i]->id;
	o->command_given = true;
	/* help WORD: that command's help. */
	if (o->command == CMD_HELP && optind + 1 < argc) {
		help_topic(argc, argv, optind + 1, o);
		if (o->help_for == NULL) {
			err_set(err, "help: unknown command %s",
			    str_quoted(argv[optind + 1], q, sizeof q));
			return -1;
		}
		optind++;
	}
	for (j = 0; j < sizeof command_operands / sizeof command_operands[0];
	    j++) {
		if (command_operands[j].command != o->command)
			continue;
		if (optind + 1 >= argc || argv[optind + 1][0] == '\0') {
			err_set(err, "%s: expected %s", cmd_table[i]->name,
			    command_operands[j].name);
			return -1;
		}
		o->operand = argv[++optind];
	}
	if (optind + 1 < argc) {
		err_set(err, "%s: unexpected argument %s", cmd_table[i]->name,
		    str_quoted(argv[optind + 1], q, sizeof q));
		return -1;
	}
	return 0;
}

int
cli_parse(int argc, char **argv, struct cli_options *o, struct err *err)
{
	const struct cmd_entry *entry = &cmd_query_entry;
	unsigned char seen[NOPTIONS] = { 0 };
	size_t i;
	int c, idx;

	build_options();
	memset(o, 0, sizeof *o);
	offer_filter_init(&o->filter);
	o->command = CMD_QUERY;
	o->sort = SORT_GPU_PRICE;
	o->hours = -1;
	o->format = OUTPUT_TABLE;
	o->lock_wait = 60;

	optind = 0;	/* GNU: start a fresh scan (tests parse many times) */
	opterr = 0;
	while ((c = getopt_long(argc, argv, short_options, long_options,
	    NULL)) != -1) {
		if (c == '?') {
			unknown_option(argv[optind - 1], err);
			return -1;
		}
		if (c == ':') {
			err_set(err, "%s: expected a value", argv[optind - 1]);
			return -1;
		}
		if ((idx = option_index(c)) < 0)
			continue;
		seen[idx] = 1;
		if (set_option(&options[idx], optarg, o, err) < 0)
			return -1;
	}
	if (o->command == CMD_HELP) {
		help_topic(argc, argv, optind, o);
		return 0;
	}
	if (o->command == CMD_VERSION)
		return 0;
	if (parse_command(argc, argv, o, &entry, err) < 0)
		return -1;
	for (i = 0; i < NOPTIONS; i++) {
		if (!seen[i])
			continue;
		if ((options[i].scope & entry->scope) == 0) {
			if (o->command_given)
				err_set(err, "--%s: not valid with the '%s' "
				    "command", options[i].name, entry->name);
			else
				err_set(err, "--%s: only valid with the '%s' "
				    "command", options[i].name,
				    scope_command(options[i].scope));
			return -1;
		}
		if (options[i].asks)
			o->query_given = true;
	}
	/* --mfu, --checkpoint and --egress describe a --train run. */
	for (i = 0; i < NOPTIONS; i++)
		if (seen[i] && (options[i].id == OPT_MFU ||
		    options[i].id == OPT_CHECKPOINT ||
		    options[i].id == OPT_EGRESS) && options[i].filter < 0 &&
		    !train_given(&o->filter.train)) {
			err_set(err, "--%s: only with --train", options[i].name);
			return -1;
		}
	/* launch asks the query's question: its row is the query's. */
	if ((o->command == CMD_QUERY || o->command == CMD_LAUNCH) &&
	    o->filter.spot && !o->sort_given)
		o->sort = SORT_SPOT_GPU;
	/* --term ranks by the term's price unless told otherwise. */
	if (o->filter.term != TERM_NONE && !o->sort_given)
		o->sort = SORT_TERM_GPU;
	/* --train ranks by the job's cost (its spot cost with --spot),
	 * --term's beside it. */
	if ((o->command == CMD_QUERY || o->command == CMD_LAUNCH) &&
	    train_given(&o->filter.train) && !o->sort_given)
		o->sort = SORT_JOB;
	return 0;
}

const struct cli_option *
cli_option_table(size_t *n)
{
	build_options();
	*n = NOPTIONS;
	return options;
}

/*
 * What an option's value is: a filter's from its type in filter.h, the
 * others' from their id (a new option offers nothing until it is named
 * here, which is never wrong, only less helpful).
 */
enum cli_values
cli_option_values(const struct cli_option *opt)
{
	if (opt->arg == NULL)
		return CLI_VALUES_NONE;
	if (opt->filter >= 0) {
		switch (filter_fields[opt->filter].type) {
		case FT_GPUS:
			return CLI_VALUES_GPUS;
		case FT_PROVIDERS:
			return CLI_VALUES_PROVIDERS;
		case FT_INT:
			return CLI_VALUES_INT;
		case FT_MONEY:
			return CLI_VALUES_NUMBER;
		case FT_LINK:
			return CLI_VALUES_LINKS;
		case FT_PATTERN:
			return opt->filter == FF_REGION ? CLI_VALUES_REGIONS :
			    CLI_VALUES_TEXT;
		case FT_STRING:
		case FT_BOOL:
		case FT_FABRIC:		/* a comma list of fabric words */
			return CLI_VALUES_TEXT;
		}
		return CLI_VALUES_TEXT;
	}
	switch (opt->id) {
	case OPT_SORT:
		return CLI_VALUES_SORT;
	case OPT_FORMAT:
		return CLI_VALUES_FORMATS;
	case OPT_GROUP_BY:
		return CLI_VALUES_GROUPS;
	case OPT_LIMIT:
	case OPT_TIMEOUT:
	case OPT_WAIT:
	case OPT_DEADLINE:
		return CLI_VALUES_INT;
	case OPT_HOURS:
	case OPT_MFU:
		return CLI_VALUES_NUMBER;
	case OPT_DB:
		return CLI_VALUES_FILE;
	case OPT_FROM:
		return CLI_VALUES_DIR;
	}
	return CLI_VALUES_TEXT;
}

bool
cli_option_is_meta(const struct cli_option *opt)
{
	return opt->filter < 0 && (opt->id == OPT_HELP ||
	    opt->id == OPT_VERSION);
}

bool
cli_option_refreshes(const struct cli_option *opt)
{
	return opt->filter < 0 && opt->id == OPT_MAX_AGE;
}

/*
 * Print text from column col onwards, folded at spaces so no line passes
 * HELP_WIDTH; a word longer than the room is printed whole. at is the
 * column the cursor is on (what the caller printed before): past col - 2,
 * the text starts on a line of its own.
 */
#define HELP_WIDTH	80

static void
usage_wrap(FILE *out, size_t at, size_t col, const char *text)
{
	const char *p = text, *sp;
	size_t room, len;

	/* Two spaces at least between what is there and the text. */
	if (at > 0 && at + 2 > col) {
		fputc('\n', out);
		at = 0;
	}
	fprintf(out, "%*s", (int)(col - at), "");
	room = HELP_WIDTH - col;
	while (*p != '\0') {
		len = strlen(p);
		if (len > room) {
			/* The last space that keeps the line within room. */
			for (sp = p + room; sp > p && *sp != ' '; sp--)
				;
			if (sp == p && (sp = strchr(p, ' ')) == NULL)
				sp = p + len;
			len = (size_t)(sp - p);
		}
		fwrite(p, 1, len, out);
		p += len;
		while (*p == ' ')
			p++;
		if (*p != '\0')
			fprintf(out, "\n%*s", (int)col, "");
	}
	fputc('\n', out);
}

/*
 * One --help group: the options of scope's commands (scope ALL: those
 * every command takes).
 */
static void
usage_options(FILE *out, const char *title, unsigned scope)
{
	char left[64];
	size_t i;

	fprintf(out, "\n%s:\n", title);
	for (i = 0; i < NOPTIONS; i++) {
		const struct cli_option *opt = &options[i];

		if (scope == CMD_SCOPE_ALL ? opt->scope != CMD_SCOPE_ALL :
		    opt->scope == CMD_SCOPE_ALL || (opt->scope & scope) == 0)
			continue;
		snprintf(left, sizeof left, "  %c%c%c --%s%s%s",
		    opt->short_opt ? '-' : ' ',
		    opt->short_opt ? opt->short_opt : ' ',
		    opt->short_opt ? ',' : ' ', opt->name,
		    opt->arg ? " " : "", opt->arg ? opt->arg : "");
		fputs(left, out);
		usage_wrap(out, strlen(left), 28, opt->help);
	}
}

void
cli_command_usage(FILE *out, const struct cmd_entry *e)
{
	char left[256];

	build_options();
	snprintf(left, sizeof left, "usage: gpucost %s%s%s", e->name,
	    e->usage[0] ? " " : "", e->usage);
	usage_wrap(out, 0, 0, left);
	fputc('\n', out);
	usage_wrap(out, 0, 0, e->summary);
	/* Its own options (a command of every scope: the query's). */
	if (e->scope != CMD_SCOPE_ALL && e->scope != CMD_SCOPE_OTHER)
		usage_options(out, "options", e->scope);
	usage_options(out, "common options", CMD_SCOPE_ALL);
	fputs("\n'gpucost --help' lists every command; see gpucost(1).\n", out);
}

void
cli_usage(FILE *out)
{
	char words[256], line[512];
	size_t i;

	build_options();
	for (i = 0; cmd_table[i] != NULL; i++) {
		const struct cmd_entry *e = cmd_table[i];
		char left[256];

		if (e->id == CMD_HELP || e->id == CMD_VERSION ||
		    command_hidden(e))
			continue;
		snprintf(left, sizeof left, "%s gpucost%s%s%s%s",
		    i == 0 ? "usage:" : "      ", e->name[0] ? " " : "",
		    e->name, e->usage[0] ? " " : "", e->usage);
		/* A long usage: its summary on the next line. */
		fputs(left, out);
		usage_wrap(out, strlen(left), 36, e->summary);
	}
	usage_options(out, "query options (also for tui; filters, sort and "
	    "term for launch)", CMD_SCOPE_QUERY);
	usage_options(out, "history and watch options", CMD_SCOPE_HISTORY |
	    CMD_SCOPE_WATCH);
	usage_options(out, "refresh and publish options", CMD_SCOPE_REFRESH |
	    CMD_SCOPE_PUBLISH);
	usage_options(out, "common options", CMD_SCOPE_ALL);
	fputs("\nnotes (NOTE column letter, csv/json token):\n", out);
	for (i = 0; i < NOTE_COUNT; i++) {
		snprintf(line, sizeof line, "  %-2s %s",
		    note_marker((enum note)i), note_token((enum note)i));
		fputs(line, out);
		usage_wrap(out, strlen(line), 26, note_text((enum note)i));
	}
	join_words(words, sizeof words, SORT_KEY_COUNT, sort_name_at);
	fputc('\n', out);
	snprintf(line, sizeof line, "sort keys: %s.", words);
	usage_wrap(out, 0, 0, line);
	/* ", " between ids, so the list folds at 80 columns. */
	str_copy(line, sizeof line, "providers:");
	for (i = 0; providers[i] != NULL; i++) {
		strncat(line, i == 0 ? " " : ", ", sizeof line - strlen(line) - 1);
		strncat(line, providers[i]->id, sizeof line - strlen(line) - 1);
	}
	strncat(line, ".", sizeof line - strlen(line) - 1);
	usage_wrap(out, 0, 0, line);
	fputs("\nEUR prices (Scaleway, OVHcloud) become USD at GPUCOST_USD_PER_EUR, "
	    "else\nusd_per_eur in the config file, else a dated default; "
	    "`gpucost providers`\nshows it. csv/json carry each offer's "
	    "currency and price_original.\n", out);
	fprintf(out, "\nexit status: 0 offers found, 1 no offer matched, 2 usage "
	    "error, 3 cache or\ndata error, 4 refresh failed. See gpucost(1).\n");
}
