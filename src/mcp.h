/*
 * mcp.h: the pieces of `gpucost mcp` (cmd_mcp.c) that tests and the
 * fuzzer reach without starting the server.
 */
#ifndef GPUCOST_MCP_H
#define GPUCOST_MCP_H

#include <stdbool.h>
#include <stddef.h>

#include <cJSON.h>

struct err;

/* The most a tool's command may print (a whole cache as JSON is MBs). */
#define MCP_OUTPUT_MAX	((size_t)64 << 20)

/* A growing byte buffer, always NUL-terminated ({ 0 } is empty). */
struct mcp_buf {
	char	*p;
	size_t	 len, cap;
	bool	 over;	/* more than MCP_OUTPUT_MAX was offered */
};
/* Append data[0..n) to b (mcp_text.c); past MCP_OUTPUT_MAX, set over. */
void	mcp_buf_add(struct mcp_buf *b, const char *data, size_t n);

/* The tools/list result: every tool with its generated input schema. */
cJSON	*mcp_tools_list(void);

/* The name of tool i, NULL past the last. */
const char *mcp_tool_name(size_t i);

/*
 * The gpucost command line a tools/call of tool name with these
 * arguments runs ("gpucost", ..., "--format=json" and --db=DB when db
 * is not NULL). Returns 0 with a NULL-terminated argv the caller frees
 * with mcp_args_free(); -1 with err for a request of the wrong shape
 * (an unknown tool, arguments that are no object: a JSON-RPC -32602);
 * 1 with err for arguments the tool refuses (an unknown argument, with
 * the nearest name; a value of the wrong JSON type; a required one
 * missing): a tool error (isError), which the agent reads and retries.
 * The values themselves are checked by cli_parse().
 */
int	mcp_tool_argv(const char *name, const cJSON *arguments, const char *db,
	    char ***argv, int *argc, struct err *err);
void	mcp_args_free(char **argv);

struct cli_options;

/*
 * find_offers in the child that runs a tool (mcp_offers.c): the rows of
 * o's query as its table shows them (answer_get(), one row per instance
 * type, its other regions named), printed on stdout as the structured
 * answer (one line of JSON; all_fields: every field of gpucost's JSON
 * per offer, else the short set), its messages on stderr. Returns an exit
 * status (EXIT_OK, EXIT_NO_MATCH, EXIT_USAGE, EXIT_DATA).
 */
int	mcp_offers_exec(const struct cli_options *o, bool all_fields);

/*
 * The text content of tool's result (mcp_text.c): a short summary of
 * its structured answer (a line per offer, group, provider ...; the
 * error; the data age and messages), malloc'd.
 */
char	*mcp_text(const char *tool, const cJSON *answer);

/*
 * Answer one request line: the response line (malloc'd, no newline),
 * or NULL when none is due (a notification, a response). tools/call
 * runs the command in a child process.
 */
char	*mcp_handle_line(const char *line, size_t len, const char *db);

#endif
