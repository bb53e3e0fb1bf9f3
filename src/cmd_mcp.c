/*
 * cmd_mcp.c: `gpucost mcp`, a Model Context Protocol server on stdin and
 * stdout (newline-delimited JSON-RPC 2.0, jsonrpc.h) for coding agents.
 *
 * Read-only over the cache: no tool refreshes, whatever the config's
 * max_age says (a cron'd `gpucost refresh` or `refresh --from` keeps the
 * cache fresh). Each tool is a command's question: its arguments become
 * the command's options (find_offers' input schema is generated from
 * the option table, so a new filter appears here by itself), cli_parse()
 * checks them, and the command runs in a child process whose stdout is
 * the answer and whose stderr lines (the data-age line, "no offer
 * matched ...") are its messages. A command that fails or runs out of
 * memory cannot take the server with it. find_offers runs
 * mcp_offers_exec() (mcp_offers.c): the table's rows from answer_get();
 * the others the command with --format json. An answer is short: the
 * structured content holds the data, the text content a summary of it
 * (mcp_text.c). Arguments the tool refuses are a tool error the agent
 * reads and retries (isError), never a JSON-RPC error.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cJSON.h>

#include "cli.h"
#include "complete.h"
#include "err.h"
#include "filter.h"
#include "jsonrpc.h"
#include "mcp.h"
#include "provider.h"
#include "str.h"
#include "xalloc.h"

/* The protocol revisions we speak, newest first. */
static const char *const protocol_versions[] = {
	"2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"
};
#define NVERSIONS	(sizeof protocol_versions / sizeof protocol_versions[0])

/*
 * Run exec(o, all_fields) (the command of o, or find_offers') in a child
 * with its stdout and stderr captured. Returns its exit status, or -1
 * with err (it could not be run, or it printed too much).
 */
static int
run_command(const struct cli_options *o,
    int (*exec)(const struct cli_options *, bool), bool all_fields,
    struct mcp_buf *out, struct mcp_buf *errb, struct err *err)
{
	int po[2], pe[2], status, n, live = 2;
	struct pollfd fds[2];
	char chunk[65536];
	ssize_t got;
	pid_t pid;

	if (pipe(po) < 0)
		goto fail;
	if (pipe(pe) < 0) {
		close(po[0]);
		close(po[1]);
		goto fail;
	}
	fflush(NULL);
	if ((pid = fork()) < 0) {
		close(po[0]);
		close(po[1]);
		close(pe[0]);
		close(pe[1]);
		goto fail;
	}
	if (pid == 0) {
		int null = open("/dev/null", O_RDONLY);

		signal(SIGPIPE, SIG_DFL);
		if (null >= 0)
			dup2(null, 0);
		dup2(po[1], 1);
		dup2(pe[1], 2);
		close(po[0]);
		close(po[1]);
		close(pe[0]);
		close(pe[1]);
		status = exec(o, all_fields);
		fflush(stdout);
		fflush(stderr);
		_exit(status);
	}
	close(po[1]);
	close(pe[1]);
	fds[0].fd = po[0];
	fds[1].fd = pe[0];
	fds[0].events = fds[1].events = POLLIN;
	while (live > 0) {
		if ((n = poll(fds, 2, -1)) < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		for (n = 0; n < 2; n++) {
			if (fds[n].fd < 0 || fds[n].revents == 0)
				continue;
			got = read(fds[n].fd, chunk, sizeof chunk);
			if (got < 0 && errno == EINTR)
				continue;
			if (got <= 0) {
				close(fds[n].fd);
				fds[n].fd = -1;
				live--;
				continue;
			}
			mcp_buf_add(n == 0 ? out : errb, chunk, (size_t)got);
			if (out->over || errb->over) {
				kill(pid, SIGKILL);
			}
		}
	}
	for (n = 0; n < 2; n++)
		if (fds[n].fd >= 0)
			close(fds[n].fd);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR) {
			err_set(err, "waiting for the query: %s",
			    strerror(errno));
			return -1;
		}
	if (out->over || errb->over) {
		err_set(err, "the answer is larger than %zu MB: narrow the "
		    "query or set limit", MCP_OUTPUT_MAX >> 20);
		return -1;
	}
	if (WIFSIGNALED(status)) {
		err_set(err, "the query ended with signal %d",
		    WTERMSIG(status));
		return -1;
	}
	return WEXITSTATUS(status);
fail:
	err_set(err, "cannot run the query: %s", strerror(errno));
	return -1;
}

/* ------------------------------------------------------------------ */
/* The tools                                                          */
/* ------------------------------------------------------------------ */

enum tool_id {
	TOOL_FIND_OFFERS,
	TOOL_MARKET_SUMMARY,
	TOOL_PRICE_HISTORY,
	TOOL_PROVIDERS,
	TOOL_LAUNCH_COMMAND,
	TOOL_GPU_CATALOGUE
};

struct tool {
	enum tool_id	 id;
	const char	*name;
	const char	*title;
	enum cli_command command;
	unsigned	 scope;		/* options offered: CMD_SCOPE_*, 0 none */
	const char	*required;	/* an option that must be given */
	const char	*description;
};

/* The default number of offers an agent gets (it may ask for more). */
#define MCP_DEFAULT_LIMIT	20

static const struct tool tools[] = {
	{ TOOL_FIND_OFFERS, "find_offers", "Find GPU offers", CMD_QUERY,
	    CMD_SCOPE_QUERY, NULL,
	    "Rank the cached GPU rental offers of every provider (gpucost's "
	    "table: cheapest per GPU-hour first, one row per instance type). "
	    "Arguments are the gpucost query options; at most 20 rows unless "
	    "limit is given. Each offer: key, provider, instance_type, "
	    "region, gpu, gpu_count, nodes, total_gpus, price_hour and "
	    "price_gpu_hour (USD), spot_hour and spot_gpu_hour, with term "
	    "the term's price, with hours or train the job's cost "
	    "(train: the answer's train says what it assumes), availability, "
	    "notes, age, launch (the command that starts it; launch_command "
	    "gives the spot one), cluster_setup for several nodes; "
	    "other_regions: how many more regions have the same offer, "
	    "other_region_list names them and price_gpu_hour_range spans "
	    "their prices. Unknown values are left out; all-fields gives "
	    "every field of gpucost's JSON. The answer also has rows and "
	    "matched (the whole answer's rows and offers), data_age and "
	    "messages. Prices come from the local cache, never refreshed here." },
	{ TOOL_MARKET_SUMMARY, "market_summary", "GPU price summary",
	    CMD_QUERY, CMD_SCOPE_QUERY, "group-by",
	    "Minimum, median and maximum price per GPU-hour and the number of "
	    "offers, grouped by gpu, provider, region and/or continent "
	    "(group-by, a comma list), over the offers the query options "
	    "select: the groups of `gpucost --group-by`." },
	{ TOOL_PRICE_HISTORY, "price_history", "Price history", CMD_HISTORY,
	    CMD_SCOPE_QUERY | CMD_SCOPE_HISTORY, NULL,
	    "How the prices of the matching offers moved over a period "
	    "(since: 30d, 12h, 2w; default 30d): the price points the cache "
	    "recorded at each refresh, and min/median/max per offer." },
	{ TOOL_PROVIDERS, "providers", "Providers and data age",
	    CMD_PROVIDERS, 0, NULL,
	    "Every provider gpucost knows: where its data came from (the "
	    "built-in snapshot or a live refresh), its offer count, the age of "
	    "its oldest price, the last refresh attempt and error, and the "
	    "snapshot's source." },
	{ TOOL_LAUNCH_COMMAND, "launch_command", "Launch command", CMD_QUERY,
	    0, NULL,
	    "The command that launches one offer (from find_offers: its key, "
	    "or its provider, instance_type and region), with its zones, quota "
	    "notes, the spot variant and Vertex AI training where there is "
	    "one. gpucost never runs it." },
	{ TOOL_GPU_CATALOGUE, "gpu_catalogue", "GPU catalogue", CMD_GPUS,
	    CMD_SCOPE_GPUS, NULL,
	    "The GPU models gpucost knows (ids to use in gpu), with family, "
	    "vendor, architecture, memory per GPU, BF16 TFLOPS and the "
	    "aliases providers use; gpu narrows the list." },
};
#define NTOOLS	(sizeof tools / sizeof tools[0])

/*
 * launch_command's arguments: the offer, as find_offers shows it: its
 * provider, instance_type and region, or its key alone (issue 48: the
 * key `gpucost launch` takes), the last of them.
 */
static const char *const launch_args[] = {
	"provider", "instance_type", "region", "key"
};
#define LAUNCH_ARG_KEY	3

/* find_offers' own argument: every field per offer, not the short set. */
#define ARG_ALL_FIELDS	"all-fields"

/*
 * Is option opt offered by tool t? Its scope, less the options that
 * shape the output rather than the question (--format, --db, --quiet,
 * --help, --version, --all-regions: JSON never folds regions) and
 * --group-by except where it is the point.
 */
static bool
tool_takes(const struct tool *t, const struct cli_option *opt)
{
	enum cli_values v = cli_option_values(opt);

	if (t->scope == 0 || (opt->scope & t->scope) == 0 ||
	    opt->scope == CMD_SCOPE_ALL || cli_option_is_meta(opt) ||
	    cli_option_refreshes(opt))
		return false;	/* --max-age: no tool reaches the network */
	if (opt->filter < 0 && v == CLI_VALUES_NONE &&
	    strcmp(opt->name, "reverse") != 0)
		return false;	/* --all-regions, --list, --forget, --quiet */
	if (v == CLI_VALUES_GROUPS)
		return t->id == TOOL_MARKET_SUMMARY;
	if (t->id == TOOL_PRICE_HISTORY && opt->filter < 0 &&
	    v == CLI_VALUES_NUMBER)
		return false;	/* --hours: history has no job cost */
	if (opt->filter < 0 && (opt->scope & (CMD_SCOPE_WATCH |
	    CMD_SCOPE_REFRESH | CMD_SCOPE_PUBLISH)) != 0 &&
	    (opt->scope & (CMD_SCOPE_QUERY | CMD_SCOPE_HISTORY |
	    CMD_SCOPE_GPUS)) == 0)
		return false;	/* --exec and the refresh options */
	return true;
}

/* complete_values() into a JSON array. */
static void
add_enum(const char *word, void *ctx)
{
	cJSON_AddItemToArray(ctx, cJSON_CreateString(word));
}

/* The JSON schema of one option's value. */
static cJSON *
option_schema(const struct cli_option *opt)
{
	cJSON *s = cJSON_CreateObject(), *e;
	enum cli_values v = cli_option_values(opt);
	char desc[512];

	snprintf(desc, sizeof desc, "%s", opt->help);
	switch (v) {
	case CLI_VALUES_NONE:
		cJSON_AddStringToObject(s, "type", "boolean");
		break;
	case CLI_VALUES_INT:
		cJSON_AddStringToObject(s, "type", "integer");
		cJSON_AddNumberToObject(s, "minimum", opt->filter >= 0 ?
		    filter_fields[opt->filter].min : 1);
		if (opt->filter >= 0)
			cJSON_AddNumberToObject(s, "maximum",
			    filter_fields[opt->filter].max);
		break;
	case CLI_VALUES_NUMBER:
		cJSON_AddStringToObject(s, "type", "number");
		cJSON_AddNumberToObject(s, "exclusiveMinimum", 0);
		break;
	case CLI_VALUES_SORT:
	case CLI_VALUES_FORMATS:
	case CLI_VALUES_LINKS:
		cJSON_AddStringToObject(s, "type", "string");
		e = cJSON_AddArrayToObject(s, "enum");
		complete_values(v, add_enum, e);
		break;
	case CLI_VALUES_PROVIDERS:
		cJSON_AddStringToObject(s, "type", "string");
		snprintf(desc, sizeof desc, "%s: %s", opt->help,
		    provider_id_list());
		break;
	default:
		cJSON_AddStringToObject(s, "type", "string");
		break;
	}
	cJSON_AddStringToObject(s, "description", desc);
	return s;
}

/* A tool's inputSchema: its options, by their long names. */
static cJSON *
tool_schema(const struct tool *t)
{
	cJSON *s = cJSON_CreateObject(), *props, *req;
	const struct cli_option *opts;
	size_t n, i;

	cJSON_AddStringToObject(s, "type", "object");
	props = cJSON_AddObjectToObject(s, "properties");
	req = cJSON_CreateArray();
	if (t->id == TOOL_LAUNCH_COMMAND) {
		for (i = 0; i < sizeof launch_args / sizeof launch_args[0];
		    i++) {
			cJSON *p = cJSON_AddObjectToObject(props,
			    launch_args[i]);

			cJSON_AddStringToObject(p, "type", "string");
			cJSON_AddStringToObject(p, "description", i == 0 ?
			    provider_id_list() : i == LAUNCH_ARG_KEY ?
			    "find_offers' key (instead of instance_type and "
			    "region)" : "exactly as find_offers shows it");
		}
	}
	if (t->id == TOOL_FIND_OFFERS) {
		cJSON *p = cJSON_AddObjectToObject(props, ARG_ALL_FIELDS);

		cJSON_AddStringToObject(p, "type", "boolean");
		cJSON_AddStringToObject(p, "description", "every field of "
		    "gpucost's JSON per offer (gpucost(1), OUTPUT CONTRACT), "
		    "not the short set");
	}
	opts = cli_option_table(&n);
	for (i = 0; i < n; i++) {
		if (!tool_takes(t, &opts[i]))
			continue;
		cJSON_AddItemToObject(props, opts[i].name,
		    option_schema(&opts[i]));
		if (t->required != NULL && strcmp(t->required,
		    opts[i].name) == 0)
			cJSON_AddItemToArray(req,
			    cJSON_CreateString(opts[i].name));
	}
	if (cJSON_GetArraySize(req) > 0)
		cJSON_AddItemToObject(s, "required", req);
	else
		cJSON_Delete(req);
	cJSON_AddFalseToObject(s, "additionalProperties");
	return s;
}

cJSON *
mcp_tools_list(void)
{
	cJSON *r = cJSON_CreateObject(), *list, *t, *ann;
	size_t i;

	list = cJSON_AddArrayToObject(r, "tools");
	for (i = 0; i < NTOOLS; i++) {
		t = cJSON_CreateObject();
		cJSON_AddStringToObject(t, "name", tools[i].name);
		cJSON_AddStringToObject(t, "title", tools[i].title);
		cJSON_AddStringToObject(t, "description",
		    tools[i].description);
		cJSON_AddItemToObject(t, "inputSchema", tool_schema(&tools[i]));
		ann = cJSON_AddObjectToObject(t, "annotations");
		cJSON_AddTrueToObject(ann, "readOnlyHint");
		cJSON_AddFalseToObject(ann, "openWorldHint");
		cJSON_AddItemToArray(list, t);
	}
	return r;
}

/* The option of tool t called name, or NULL. */
static const struct cli_option *
tool_option(const struct tool *t, const char *name)
{
	const struct cli_option *opts;
	size_t n, i;

	opts = cli_option_table(&n);
	for (i = 0; i < n; i++)
		if (strcmp(opts[i].name, name) == 0 &&
		    tool_takes(t, &opts[i]))
			return &opts[i];
	return NULL;
}

/* An argv under construction; every string owned. */
struct args {
	char	**v;
	int	  n;
};

static void
args_add(struct args *a, char *s)
{
	a->v = xreallocarray(a->v, (size_t)a->n + 2, sizeof *a->v);
	a->v[a->n++] = s;
	a->v[a->n] = NULL;
}

void
mcp_args_free(char **argv)
{
	size_t i;

	for (i = 0; argv != NULL && argv[i] != NULL; i++)
		free(argv[i]);
	free(argv);
}

/* Longest argument value accepted (names and lists are short). */
#define MCP_VALUE_MAX	1024

/* One argument as "--name=value" (or "--name" for a flag set true). */
static int
option_arg(const struct cli_option *opt, const cJSON *val, struct args *a,
    struct err *err)
{
	enum cli_values v = cli_option_values(opt);
	char num[64], *list;
	const cJSON *item;
	size_t len;

	switch (v) {
	case CLI_VALUES_NONE:
		if (!cJSON_IsBool(val))
			goto type;
		if (cJSON_IsTrue(val))
			args_add(a, xasprintf("--%s", opt->name));
		return 0;
	case CLI_VALUES_INT:
		/* floor(v) < v: a fraction (no == on doubles here) */
		if (!cJSON_IsNumber(val) || !isfinite(val->valuedouble) ||
		    floor(val->valuedouble) < val->valuedouble ||
		    fabs(val->valuedouble) > 1e15)
			goto type;
		args_add(a, xasprintf("--%s=%.0f", opt->name,
		    val->valuedouble));
		return 0;
	case CLI_VALUES_NUMBER:
		if (!cJSON_IsNumber(val) || !isfinite(val->valuedouble))
			goto type;
		snprintf(num, sizeof num, "%.10g", val->valuedouble);
		args_add(a, xasprintf("--%s=%s", opt->name, num));
		return 0;
	case CLI_VALUES_GPUS:
	case CLI_VALUES_PROVIDERS:
	case CLI_VALUES_GROUPS:
		/* A comma list, or an array of its items. */
		if (cJSON_IsArray(val)) {
			if (cJSON_GetArraySize(val) == 0 ||
			    cJSON_GetArraySize(val) > 64)
				goto type;
			list = xstrdup("");
			cJSON_ArrayForEach(item, val) {
				char *next;

				if (!cJSON_IsString(item) || strlen(list) +
				    strlen(item->valuestring) > MCP_VALUE_MAX) {
					free(list);
					goto type;
				}
				next = xasprintf("%s%s%s", list, list[0] ?
				    "," : "", item->valuestring);
				free(list);
				list = next;
			}
			args_add(a, xasprintf("--%s=%s", opt->name, list));
			free(list);
			return 0;
		}
		/* FALLTHROUGH */
	default:
		if (!cJSON_IsString(val))
			goto type;
		len = strlen(val->valuestring);
		if (len > MCP_VALUE_MAX) {
			err_set(err, "%s: longer than %d bytes", opt->name,
			    MCP_VALUE_MAX);
			return -1;
		}
		args_add(a, xasprintf("--%s=%s", opt->name, val->valuestring));
		return 0;
	}
type:
	err_set(err, "%s: expected %s", opt->name,
	    v == CLI_VALUES_NONE ? "true or false" :
	    v == CLI_VALUES_INT ? "an integer" :
	    v == CLI_VALUES_NUMBER ? "a number" :
	    v == CLI_VALUES_GPUS || v == CLI_VALUES_PROVIDERS ||
	    v == CLI_VALUES_GROUPS ? "a string or an array of strings" :
	    "a string");
	return -1;
}

const char *
mcp_tool_name(size_t i)
{
	return i < NTOOLS ? tools[i].name : NULL;
}

/* Is name an argument of tool t that is no option (launch_args ...)? */
static bool
tool_own_arg(const struct tool *t, const char *name)
{
	size_t i;

	if (t->id == TOOL_FIND_OFFERS)
		return strcmp(name, ARG_ALL_FIELDS) == 0;
	if (t->id != TOOL_LAUNCH_COMMAND)
		return false;
	for (i = 0; i < sizeof launch_args / sizeof launch_args[0]; i++)
		if (strcmp(name, launch_args[i]) == 0)
			return true;
	return false;
}

/* "unknown argument gpus; did you mean gpu?", as the CLI says it. */
static void
unknown_argument(const struct tool *t, const char *name, struct err *err)
{
	const struct cli_option *opts;
	const char **names, *near;
	size_t n, i, k = 0;
	char q[80];

	opts = cli_option_table(&n);
	names = xreallocarray(NULL, n + 4, sizeof *names);
	for (i = 0; i < n; i++)
		if (tool_takes(t, &opts[i]))
			names[k++] = opts[i].name;
	if (t->id == TOOL_FIND_OFFERS)
		names[k++] = ARG_ALL_FIELDS;
	for (i = 0; t->id == TOOL_LAUNCH_COMMAND &&
	    i < sizeof launch_args / sizeof launch_args[0]; i++)
		names[k++] = launch_args[i];
	str_quoted(name, q, sizeof q);
	for (i = 0; i < n; i++)
		if (strcmp(opts[i].name, name) == 0 &&
		    cli_option_refreshes(&opts[i]))
			break;
	if (i < n)
		err_set(err, "unknown argument %s: these tools never refresh "
		    "the cache (read-only; run 'gpucost refresh' outside)", q);
	else if ((near = str_nearest(name, names, k)) != NULL)
		err_set(err, "unknown argument %s; did you mean %s?", q, near);
	else
		err_set(err, "unknown argument %s", q);
	free(names);
}

int
mcp_tool_argv(const char *name, const cJSON *arguments, const char *db,
    char ***argv, int *argc, struct err *err)
{
	const struct tool *t = NULL;
	const struct cli_option *opt;
	const cJSON *val;
	struct args a = { NULL, 0 };
	size_t i;
	bool limit = false;

	for (i = 0; i < NTOOLS; i++)
		if (strcmp(tools[i].name, name) == 0)
			t = &tools[i];
	if (t == NULL) {
		err_set(err, "unknown tool %.64s", name);
		return -1;
	}
	if (arguments != NULL && !cJSON_IsObject(arguments)) {
		err_set(err, "%s: arguments must be an object", name);
		return -1;
	}
	/* From here on the tool refuses: a tool error (isError). */
	args_add(&a, xstrdup("gpucost"));
	if (t->command != CMD_QUERY)
		args_add(&a, xstrdup(cli_command_entry(t->command)->name));
	cJSON_ArrayForEach(val, arguments) {
		if (val->string == NULL)
			continue;
		if (tool_own_arg(t, val->string)) {
			if (t->id == TOOL_FIND_OFFERS && !cJSON_IsBool(val)) {
				err_set(err, "%s: expected true or false",
				    ARG_ALL_FIELDS);
				goto fail;
			}
			continue;
		}
		if ((opt = tool_option(t, val->string)) == NULL) {
			unknown_argument(t, val->string, err);
			goto fail;
		}
		if (opt->filter < 0 && cli_option_values(opt) ==
		    CLI_VALUES_INT && strcmp(opt->name, "limit") == 0)
			limit = true;
		if (option_arg(opt, val, &a, err) < 0)
			goto fail;
	}
	if (t->id == TOOL_LAUNCH_COMMAND) {
		bool by_key = cJSON_GetObjectItemCaseSensitive(arguments,
		    "key") != NULL;

		/* The key alone (provider optional), or all three. */
		for (i = 0; i < sizeof launch_args / sizeof launch_args[0];
		    i++) {
			val = cJSON_GetObjectItemCaseSensitive(arguments,
			    launch_args[i]);
			if (val == NULL && (by_key ? i != LAUNCH_ARG_KEY :
			    i == LAUNCH_ARG_KEY))
				continue;
			if (!cJSON_IsString(val) || val->valuestring[0] ==
			    '\0' || strlen(val->valuestring) > MCP_VALUE_MAX) {
				err_set(err, "%s: expected a string (as "
				    "find_offers shows it)", launch_args[i]);
				goto fail;
			}
		}
		val = cJSON_GetObjectItemCaseSensitive(arguments, "provider");
		if (val != NULL)
			args_add(&a, xasprintf("--provider=%s",
			    val->valuestring));
		val = cJSON_GetObjectItemCaseSensitive(arguments,
		    "instance_type");
		if (!by_key)
			args_add(&a, xasprintf("--match=%s", val->valuestring));
	}
	if (t->required != NULL && cJSON_GetObjectItemCaseSensitive(arguments,
	    t->required) == NULL) {
		err_set(err, "%s is required", t->required);
		goto fail;
	}
	if (t->id == TOOL_FIND_OFFERS && !limit)
		args_add(&a, xasprintf("--limit=%d", MCP_DEFAULT_LIMIT));
	if (t->id == TOOL_PRICE_HISTORY && !limit)
		args_add(&a, xasprintf("--limit=%d", MCP_DEFAULT_LIMIT));
	args_add(&a, xstrdup("--format=json"));
	if (db != NULL)
		args_add(&a, xasprintf("--db=%s", db));
	*argv = a.v;
	*argc = a.n;
	return 0;
fail:
	mcp_args_free(a.v);
	return 1;
}

/* ------------------------------------------------------------------ */
/* Answers                                                            */
/* ------------------------------------------------------------------ */

/* The command's stderr lines, without "gpucost: ": its messages. */
static cJSON *
messages_of(const char *text)
{
	cJSON *arr = cJSON_CreateArray();
	const char *p = text, *nl;
	char *line;
	size_t len;

	while (p != NULL && *p != '\0') {
		nl = strchr(p, '\n');
		len = nl != NULL ? (size_t)(nl - p) : strlen(p);
		if (len > 9 && strncmp(p, "gpucost: ", 9) == 0) {
			p += 9;
			len -= 9;
		}
		if (len > 0) {
			line = xstrndup(p, len);
			cJSON_AddItemToArray(arr, cJSON_CreateString(line));
			free(line);
		}
		p = nl != NULL ? nl + 1 : NULL;
	}
	return arr;
}

/*
 * launch_command: of the offers the query found, the one with exactly
 * this instance type and region, reduced to how to launch it.
 */
static cJSON *
pick_launch(cJSON *answer, const cJSON *arguments, struct err *err)
{
	const cJSON *k = cJSON_GetObjectItemCaseSensitive(arguments, "key");
	const char *inst = k != NULL ? NULL :
	    cJSON_GetObjectItemCaseSensitive(arguments,
	    "instance_type")->valuestring;
	const char *region = k != NULL ? NULL :
	    cJSON_GetObjectItemCaseSensitive(arguments, "region")->valuestring;
	static const char *const keep[] = {
		"provider", "instance_type", "region", "gpu", "gpu_count",
		"price_hour", "spot_hour", "launch", "launch_spot", "zones",
		"quota", "vertex_training", "launch_vertex", "notes",
		"fetched_at", "source"
	};
	const cJSON *offers, *o, *f;
	cJSON *r;
	size_t i;

	offers = cJSON_GetObjectItemCaseSensitive(answer, "offers");
	cJSON_ArrayForEach(o, offers) {
		const cJSON *oi = cJSON_GetObjectItemCaseSensitive(o,
		    "instance_type");
		const cJSON *or = cJSON_GetObjectItemCaseSensitive(o, "region");
		const cJSON *ok = cJSON_GetObjectItemCaseSensitive(o, "key");

		if (k != NULL ? !cJSON_IsString(ok) ||
		    strcmp(ok->valuestring, k->valuestring) != 0 :
		    !cJSON_IsString(oi) || !cJSON_IsString(or) ||
		    strcmp(oi->valuestring, inst) != 0 ||
		    strcmp(or->valuestring, region) != 0)
			continue;
		r = cJSON_CreateObject();
		for (i = 0; i < sizeof keep / sizeof keep[0]; i++)
			if ((f = cJSON_GetObjectItemCaseSensitive(o, keep[i])) !=
			    NULL)
				cJSON_AddItemToObject(r, keep[i],
				    cJSON_Duplicate(f, true));
		return r;
	}
	err_set(err, "no cached offer %s exactly as given (find_offers "
	    "lists them)", k != NULL ? "has that key" :
	    "of that provider has instance type and region");
	return NULL;
}

/*
 * A tools/call result: the structured answer (which it takes), and a
 * short summary of it as text (mcp_text()).
 */
static cJSON *
tool_result(const char *tool, cJSON *structured, bool is_error)
{
	cJSON *r = cJSON_CreateObject(), *content, *text;
	char *s = mcp_text(tool, structured);

	content = cJSON_AddArrayToObject(r, "content");
	text = cJSON_CreateObject();
	cJSON_AddStringToObject(text, "type", "text");
	cJSON_AddStringToObject(text, "text", s);
	cJSON_AddItemToArray(content, text);
	free(s);
	cJSON_AddItemToObject(r, "structuredContent", structured);
	cJSON_AddBoolToObject(r, "isError", is_error);
	return r;
}

/* A tool that could not answer: why, and the command's messages. */
static cJSON *
tool_error(const char *tool, const char *message, cJSON *msgs)
{
	cJSON *s = cJSON_CreateObject();

	cJSON_AddStringToObject(s, "error", message);
	if (msgs != NULL && cJSON_GetArraySize(msgs) > 0)
		cJSON_AddItemToObject(s, "messages", msgs);
	else
		cJSON_Delete(msgs);
	return tool_result(tool, s, true);
}

/* What a child runs: a command, or find_offers' own answer. */
static int
exec_command(const struct cli_options *o, bool all_fields)
{
	(void)all_fields;
	return cli_command_entry(o->command)->exec(o);
}

/*
 * tools/call. Returns the result, or NULL with a JSON-RPC error code in
 * *code and err (a request of the wrong shape: no name, an unknown
 * tool, arguments that are no object). Arguments the tool refuses are
 * a result with isError, so that the agent reads why and retries.
 */
static cJSON *
call_tool(const cJSON *params, const char *db, int *code, struct err *err)
{
	const cJSON *name, *arguments;
	struct cli_options opts;
	struct mcp_buf out = { 0 }, errb = { 0 };
	cJSON *answer = NULL, *msgs, *r;
	const char *tool;
	char **argv = NULL;
	int argc = 0, status;
	bool find, all_fields;
	struct err perr;

	*code = JSONRPC_INVALID_PARAMS;
	name = cJSON_GetObjectItemCaseSensitive(params, "name");
	arguments = cJSON_GetObjectItemCaseSensitive(params, "arguments");
	if (!cJSON_IsString(name)) {
		err_set(err, "tools/call: \"name\" must be a string");
		return NULL;
	}
	tool = name->valuestring;
	if (cJSON_IsNull(arguments))
		arguments = NULL;
	/* Never passed on, nor echoed in a message: refused as a tool's. */
	if (!jsonrpc_utf8_valid(params))
		return tool_error(tool, "tools/call: its name or arguments hold "
		    "text that is not UTF-8", NULL);
	switch (mcp_tool_argv(tool, arguments, db, &argv, &argc, &perr)) {
	case -1:
		*err = perr;
		return NULL;
	case 1:
		return tool_error(tool, perr.msg, NULL);
	}
	/* A value the command refuses: the agent reads why and retries. */
	if (cli_parse(argc, argv, &opts, &perr) < 0) {
		r = tool_error(tool, perr.msg, NULL);
		mcp_args_free(argv);
		return r;
	}
	opts.offline = true;
	find = strcmp(tool, "find_offers") == 0;
	all_fields = find && cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(
	    arguments, ARG_ALL_FIELDS));
	status = run_command(&opts, find ? mcp_offers_exec : exec_command,
	    all_fields, &out, &errb, &perr);
	msgs = messages_of(errb.p);
	if (status < 0 || (status != EXIT_OK && status != EXIT_NO_MATCH)) {
		/* Its first message is why: said once, as the error. */
		char *why = xstrdup(status < 0 ? perr.msg :
		    cJSON_GetArraySize(msgs) > 0 ?
		    cJSON_GetArrayItem(msgs, 0)->valuestring :
		    "the query failed");

		if (status >= 0 && cJSON_GetArraySize(msgs) > 0)
			cJSON_DeleteItemFromArray(msgs, 0);
		r = tool_error(tool, why, msgs);
		free(why);
		goto done;
	}
	if (out.p == NULL || (answer = cJSON_Parse(out.p)) == NULL ||
	    !cJSON_IsObject(answer)) {
		cJSON_Delete(answer);
		r = tool_error(tool, "the query printed no JSON", msgs);
		goto done;
	}
	if (strcmp(tool, "launch_command") == 0) {
		cJSON *one = pick_launch(answer, arguments, &perr);

		cJSON_Delete(answer);
		if (one == NULL) {
			r = tool_error(tool, perr.msg, msgs);
			goto done;
		}
		answer = one;
	}
	if (cJSON_GetArraySize(msgs) > 0)
		cJSON_AddItemToObject(answer, "messages", msgs);
	else
		cJSON_Delete(msgs);
	r = tool_result(tool, answer, false);
done:
	free(out.p);
	free(errb.p);
	mcp_args_free(argv);
	return r;
}

/* initialize: the revision the client asked for if we speak it. */
static cJSON *
initialize(const cJSON *params)
{
	const cJSON *want = cJSON_GetObjectItemCaseSensitive(params,
	    "protocolVersion");
	const char *version = protocol_versions[0];
	cJSON *r = cJSON_CreateObject(), *caps, *info;
	size_t i;

	for (i = 0; cJSON_IsString(want) && i < NVERSIONS; i++)
		if (strcmp(want->valuestring, protocol_versions[i]) == 0)
			version = protocol_versions[i];
	cJSON_AddStringToObject(r, "protocolVersion", version);
	caps = cJSON_AddObjectToObject(r, "capabilities");
	cJSON_AddFalseToObject(cJSON_AddObjectToObject(caps, "tools"),
	    "listChanged");
	info = cJSON_AddObjectToObject(r, "serverInfo");
	cJSON_AddStringToObject(info, "name", "gpucost");
	cJSON_AddStringToObject(info, "title", "gpucost: where to rent GPUs");
	cJSON_AddStringToObject(info, "version", PACKAGE_VERSION);
	cJSON_AddStringToObject(r, "instructions",
	    "GPU rental prices across cloud providers from gpucost's local "
	    "cache (read-only; never refreshed: no tool reaches the network "
	    "or writes; 'gpucost refresh' outside does). Prices are USD per "
	    "hour; check data_age and messages before relying on a price. Use "
	    "gpu_catalogue for GPU ids, find_offers to rank offers, "
	    "launch_command for how to start one.");
	return r;
}

char *
mcp_handle_line(const char *line, size_t len, const char *db)
{
	struct jsonrpc_msg m;
	cJSON *reply_id = NULL, *result = NULL;
	char *reply = NULL;
	struct err err;
	int code;

	if ((code = jsonrpc_parse(line, len, &m, &reply_id, &err)) != 0) {
		/* A notification gets no answer, even a bad one. */
		if (code != JSONRPC_PARSE_ERROR && reply_id == NULL &&
		    m.doc != NULL && cJSON_IsObject(m.doc) &&
		    cJSON_GetObjectItemCaseSensitive(m.doc, "id") == NULL &&
		    cJSON_IsString(cJSON_GetObjectItemCaseSensitive(m.doc,
		    "method")))
			goto done;
		reply = jsonrpc_error(reply_id, code, err.msg);
		goto done;
	}
	if (m.method == NULL || m.id == NULL)
		goto done;	/* a response, or a notification: no answer */
	code = JSONRPC_INVALID_PARAMS;
	if (strcmp(m.method, "initialize") == 0)
		result = initialize(m.params);
	else if (strcmp(m.method, "ping") == 0)
		result = cJSON_CreateObject();
	else if (strcmp(m.method, "tools/list") == 0)
		result = mcp_tools_list();
	else if (strcmp(m.method, "tools/call") == 0) {
		if (m.params == NULL)
			err_set(&err, "tools/call: params are required");
		else
			result = call_tool(m.params, db, &code, &err);
	} else {
		code = JSONRPC_METHOD_NOT_FOUND;
		err_set(&err, "method not found: %.80s", m.method);
	}
	reply = result != NULL ? jsonrpc_result(m.id, result) :
	    jsonrpc_error(m.id, code, err.msg);
done:
	cJSON_Delete(reply_id);
	jsonrpc_msg_done(&m);
	return reply;
}

/* Write one line; false when stdout is gone (the client left). */
static bool
send_line(const char *s)
{
	return fputs(s, stdout) >= 0 && fputc('\n', stdout) != EOF &&
	    fflush(stdout) == 0;
}

static int
cmd_mcp_exec(const struct cli_options *o)
{
	struct jsonrpc_line line;
	char *reply, msg[96];
	int r, rc = EXIT_OK;

	jsonrpc_init();
	/* A client that goes away is a write error, not a signal. */
	signal(SIGPIPE, SIG_IGN);
	jsonrpc_line_init(&line, JSONRPC_LINE_MAX);
	while ((r = jsonrpc_read_line(stdin, &line)) != 0) {
		if (r < 0) {
			snprintf(msg, sizeof msg, "parse error: a line longer "
			    "than %d bytes", JSONRPC_LINE_MAX);
			reply = jsonrpc_error(NULL, JSONRPC_PARSE_ERROR, msg);
		} else if (line.len == 0 || strspn(line.buf, " \t\r") ==
		    line.len)
			continue;
		else
			reply = mcp_handle_line(line.buf, line.len, o->db);
		if (reply == NULL)
			continue;
		if (!send_line(reply)) {
			free(reply);
			cli_error("mcp: writing the answer: %s",
			    strerror(errno));
			rc = EXIT_DATA;
			break;
		}
		free(reply);
	}
	jsonrpc_line_done(&line);
	return rc;
}

const struct cmd_entry cmd_mcp_entry = {
	CMD_MCP, "mcp", "",
	"a Model Context Protocol server on stdin/stdout for agents",
	CMD_SCOPE_OTHER, false, cmd_mcp_exec
};
