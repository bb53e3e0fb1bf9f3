/*
 * fuzz_jsonrpc.c: the MCP server's reading side on fuzzed input: the
 * bytes are stdin, read line by line with jsonrpc_read_line() (a small
 * line limit so long lines are exercised), each line parsed with
 * jsonrpc_parse() and answered with mcp_handle_line(), except
 * tools/call, whose arguments are turned into a command line with
 * mcp_tool_argv() and parsed with cli_parse() but not run (running
 * forks a query). Properties: every answer is one line of JSON with
 * "jsonrpc": "2.0" and either a result or an error whose code is a
 * JSON-RPC code; a line too long or not JSON is -32700; a parse failure
 * has a message without terminal control characters.
 */
#include "config.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "err.h"
#include "fuzz_run.h"
#include "jsonrpc.h"
#include "mcp.h"

int	LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define LINE_MAX_FUZZ	4096

/* An answer must be one JSON-RPC 2.0 response line. */
static void
check_answer(const char *reply)
{
	cJSON *doc, *v, *code;

	if (strchr(reply, '\n') != NULL)
		fuzz_fail("answer spans lines: %s", reply);
	if ((doc = cJSON_Parse(reply)) == NULL)
		fuzz_fail("answer is not JSON: %s", reply);
	v = cJSON_GetObjectItemCaseSensitive(doc, "jsonrpc");
	if (!cJSON_IsString(v) || strcmp(v->valuestring, "2.0") != 0)
		fuzz_fail("answer without jsonrpc 2.0: %s", reply);
	if (cJSON_GetObjectItemCaseSensitive(doc, "id") == NULL)
		fuzz_fail("answer without an id: %s", reply);
	v = cJSON_GetObjectItemCaseSensitive(doc, "error");
	if (v != NULL) {
		code = cJSON_GetObjectItemCaseSensitive(v, "code");
		if (!cJSON_IsNumber(code) || code->valueint > -32600 ||
		    code->valueint < -32700)
			fuzz_fail("answer with a bad error code: %s", reply);
	} else if (cJSON_GetObjectItemCaseSensitive(doc, "result") == NULL)
		fuzz_fail("answer with neither result nor error: %s", reply);
	cJSON_Delete(doc);
}

/* tools/call: the command line it would run, parsed, not run. */
static void
call_without_running(const struct jsonrpc_msg *m)
{
	const cJSON *name = cJSON_GetObjectItemCaseSensitive(m->params, "name");
	struct cli_options opts;
	struct err err;
	char **argv;
	int argc;

	if (!cJSON_IsString(name))
		return;
	if (mcp_tool_argv(name->valuestring,
	    cJSON_GetObjectItemCaseSensitive(m->params, "arguments"), NULL,
	    &argv, &argc, &err) != 0) {
		if (err.msg[0] == '\0')
			fuzz_fail("mcp_tool_argv failed without a message");
		return;
	}
	if (argv[argc] != NULL || strcmp(argv[argc - 1], "--format=json") != 0)
		fuzz_fail("the command line does not end in --format=json");
	if (cli_parse(argc, argv, &opts, &err) < 0 &&
	    !fuzz_text_is_safe(err.msg))
		fuzz_fail("cli_parse: unsafe message: %s", err.msg);
	mcp_args_free(argv);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct jsonrpc_line line;
	struct jsonrpc_msg m;
	struct err err;
	cJSON *id;
	char *reply;
	FILE *in;
	int r, code;

	if (size == 0)
		return 0;
	jsonrpc_init();
	if ((in = fmemopen((void *)(uintptr_t)data, size, "r")) == NULL)
		return 0;
	jsonrpc_line_init(&line, LINE_MAX_FUZZ);
	while ((r = jsonrpc_read_line(in, &line)) != 0) {
		if (r < 0)
			continue;	/* the server answers -32700 */
		if (line.len > LINE_MAX_FUZZ || strlen(line.buf) > line.len)
			fuzz_fail("line of %zu bytes over the limit", line.len);
		code = jsonrpc_parse(line.buf, line.len, &m, &id, &err);
		if (code != 0 && (err.msg[0] == '\0' ||
		    !fuzz_text_is_safe(err.msg)))
			fuzz_fail("parse error without a safe message");
		if (code == 0 && m.method != NULL &&
		    strcmp(m.method, "tools/call") == 0 && m.params != NULL) {
			call_without_running(&m);
		} else if ((reply = mcp_handle_line(line.buf, line.len,
		    NULL)) != NULL) {
			check_answer(reply);
			free(reply);
		}
		cJSON_Delete(id);
		jsonrpc_msg_done(&m);
	}
	jsonrpc_line_done(&line);
	fclose(in);
	return 0;
}
