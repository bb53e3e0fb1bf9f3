/*
 * mcp.h: the pieces of `gpucost mcp` (cmd_mcp.c) that tests and the
 * fuzzer reach without starting the server.
 */
#ifndef GPUCOST_MCP_H
#define GPUCOST_MCP_H

#include <stddef.h>

#include <cJSON.h>

struct err;

/* The tools/list result: every tool with its generated input schema. */
cJSON	*mcp_tools_list(void);

/* The name of tool i, NULL past the last. */
const char *mcp_tool_name(size_t i);

/*
 * The gpucost command line a tools/call of tool name with these
 * arguments runs ("gpucost", ..., "--format=json" and --db=DB when db
 * is not NULL). Returns 0 with a NULL-terminated argv the caller frees
 * with mcp_args_free(), or -1 with err for an unknown tool, an unknown
 * argument or a value of the wrong JSON type (a JSON-RPC -32602). The
 * values themselves are checked by cli_parse().
 */
int	mcp_tool_argv(const char *name, const cJSON *arguments, const char *db,
	    char ***argv, int *argc, struct err *err);
void	mcp_args_free(char **argv);

/*
 * Answer one request line: the response line (malloc'd, no newline),
 * or NULL when none is due (a notification, a response). tools/call
 * runs the command in a child process.
 */
char	*mcp_handle_line(const char *line, size_t len, const char *db);

#endif
