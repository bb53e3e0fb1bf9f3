/*
 * test_jsonrpc.c: the MCP server's reading side: bounded lines (a line
 * at the limit is read, one byte over is dropped whole and the next line
 * read as usual, a last line without a newline still counts), the
 * JSON-RPC envelope and its error codes, and the tools' command lines
 * (mcp_tool_argv()): generated from the option table, typed, bounded.
 */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "err.h"
#include "jsonrpc.h"
#include "mcp.h"

static FILE *
input(const char *text, size_t len)
{
	FILE *f = fmemopen((void *)(uintptr_t)text, len, "r");

	assert_non_null(f);
	return f;
}

static void
test_line_bounds(void **state)
{
	struct jsonrpc_line l;
	char text[64];
	FILE *f;

	(void)state;
	/* max 8: "12345678" fits, "123456789" is dropped, then "ab". */
	snprintf(text, sizeof text, "12345678\n123456789\nab");
	f = input(text, strlen(text));
	jsonrpc_line_init(&l, 8);
	assert_int_equal(jsonrpc_read_line(f, &l), 1);
	assert_string_equal(l.buf, "12345678");
	assert_int_equal(jsonrpc_read_line(f, &l), -1);
	assert_int_equal(jsonrpc_read_line(f, &l), 1);
	assert_string_equal(l.buf, "ab");
	assert_int_equal(jsonrpc_read_line(f, &l), 0);
	assert_true(l.cap <= 9);	/* never grown past the limit */
	jsonrpc_line_done(&l);
	fclose(f);

	/* An empty line is a line; the end is the end. */
	f = input("\n", 1);
	jsonrpc_line_init(&l, 0);
	assert_int_equal(jsonrpc_read_line(f, &l), 1);
	assert_int_equal(l.len, 0);
	assert_int_equal(jsonrpc_read_line(f, &l), 0);
	jsonrpc_line_done(&l);
	fclose(f);
}

/* parse LINE: its code, and the id an error answer would carry. */
static int
parse(const char *line, char *id, size_t size)
{
	struct jsonrpc_msg m;
	struct err err;
	cJSON *rid;
	char *s;
	int code;

	code = jsonrpc_parse(line, strlen(line), &m, &rid, &err);
	if (code != 0)
		assert_true(err.msg[0] != '\0');
	s = rid != NULL ? cJSON_PrintUnformatted(rid) : NULL;
	snprintf(id, size, "%s", s != NULL ? s : "null");
	free(s);
	cJSON_Delete(rid);
	jsonrpc_msg_done(&m);
	return code;
}

static void
test_envelope(void **state)
{
	char id[300];

	(void)state;
	jsonrpc_init();
	assert_int_equal(parse("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":"
	    "\"ping\"}", id, sizeof id), 0);
	assert_int_equal(parse("nope", id, sizeof id), JSONRPC_PARSE_ERROR);
	assert_int_equal(parse("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":"
	    "\"ping\"} x", id, sizeof id), JSONRPC_PARSE_ERROR);
	assert_int_equal(parse("[]", id, sizeof id), JSONRPC_INVALID_REQUEST);
	assert_int_equal(parse("{\"id\":7,\"method\":\"ping\"}", id,
	    sizeof id), JSONRPC_INVALID_REQUEST);
	assert_string_equal(id, "7");
	assert_int_equal(parse("{\"jsonrpc\":\"2.0\",\"id\":1e300,"
	    "\"method\":\"ping\"}", id, sizeof id), JSONRPC_INVALID_REQUEST);
	assert_string_equal(id, "null");
	assert_int_equal(parse("{\"jsonrpc\":\"2.0\",\"id\":\"k\","
	    "\"method\":\"x\",\"params\":1}", id, sizeof id),
	    JSONRPC_INVALID_PARAMS);
	assert_string_equal(id, "\"k\"");
	/* A response to us is no request and no error. */
	assert_int_equal(parse("{\"jsonrpc\":\"2.0\",\"id\":3,\"result\":{}}",
	    id, sizeof id), 0);
}

/*
 * Issue 43, item 7: text that is not UTF-8 is never echoed. An id of
 * such bytes is invalid (answered with null), a method too (with the
 * id), and whatever an answer holds, its line is UTF-8.
 */
static void
test_utf8(void **state)
{
	struct jsonrpc_msg m;
	cJSON *reply_id, *doc;
	struct err err;
	char id[300], *line;
	const char *bad = "{\"jsonrpc\":\"2.0\",\"id\":\"\xff\xfe\","
	    "\"method\":\"ping\"}";

	(void)state;
	jsonrpc_init();
	assert_int_equal(parse(bad, id, sizeof id), JSONRPC_INVALID_REQUEST);
	assert_string_equal(id, "null");
	assert_int_equal(parse("{\"jsonrpc\":\"2.0\",\"id\":\"\xc3\xa9\","
	    "\"method\":\"ping\"}", id, sizeof id), 0);
	/* An overlong "/" and a surrogate are no UTF-8 either. */
	assert_int_equal(parse("{\"jsonrpc\":\"2.0\",\"id\":\"\xc0\xaf\","
	    "\"method\":\"ping\"}", id, sizeof id), JSONRPC_INVALID_REQUEST);
	assert_int_equal(parse("{\"jsonrpc\":\"2.0\",\"id\":\"\xed\xa0\x80\","
	    "\"method\":\"ping\"}", id, sizeof id), JSONRPC_INVALID_REQUEST);
	assert_int_equal(parse("{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":"
	    "\"pi\xffng\"}", id, sizeof id), JSONRPC_INVALID_REQUEST);
	assert_string_equal(id, "4");

	/* Arguments: every member name and string, at any depth. */
	bad = "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"tools/call\","
	    "\"params\":{\"name\":\"x\",\"arguments\":{\"gpu\":[\"H100\","
	    "\"A\xff\"]}}}";
	assert_int_equal(jsonrpc_parse(bad, strlen(bad), &m, &reply_id, &err),
	    0);
	assert_false(jsonrpc_utf8_valid(m.params));
	cJSON_Delete(reply_id);
	jsonrpc_msg_done(&m);
	doc = cJSON_Parse("{\"a\":{\"b\xfe\":1}}");
	assert_non_null(doc);
	assert_false(jsonrpc_utf8_valid(doc));
	cJSON_Delete(doc);
	doc = cJSON_Parse("{\"a\":{\"\xc3\xa9\":[\"\xe2\x82\xac\"]}}");
	assert_true(jsonrpc_utf8_valid(doc));

	/* Whatever the parts, the line is UTF-8, and still JSON. */
	line = jsonrpc_error(NULL, JSONRPC_INTERNAL_ERROR, "x\xff\xfey");
	assert_string_equal(line, "{\"jsonrpc\":\"2.0\",\"id\":null,"
	    "\"error\":{\"code\":-32603,\"message\":\"x??y\"}}");
	free(line);
	line = jsonrpc_result(NULL, doc);
	assert_string_equal(line, "{\"jsonrpc\":\"2.0\",\"id\":null,"
	    "\"result\":{\"a\":{\"\xc3\xa9\":[\"\xe2\x82\xac\"]}}}");
	free(line);
}

/*
 * The argv of a tool call as one string, or the error: "error: " for a
 * JSON-RPC error, "tool error: " for one the agent reads (isError).
 */
static void
argv_is(const char *tool, const char *args, const char *want)
{
	cJSON *a = args != NULL ? cJSON_Parse(args) : NULL;
	char **argv, buf[1024] = "";
	struct err err;
	int argc, i, rc;

	if ((rc = mcp_tool_argv(tool, a, NULL, &argv, &argc, &err)) != 0)
		snprintf(buf, sizeof buf, "%s: %s", rc < 0 ? "error" :
		    "tool error", err.msg);
	else {
		for (i = 0; i < argc; i++)
			snprintf(buf + strlen(buf), sizeof buf - strlen(buf),
			    "%s%s", i ? " " : "", argv[i]);
		assert_null(argv[argc]);
		mcp_args_free(argv);
	}
	cJSON_Delete(a);
	assert_string_equal(buf, want);
}

static void
test_tool_argv(void **state)
{
	(void)state;
	argv_is("find_offers", "{\"gpu\":\"A100-80\",\"count\":4}",
	    "gpucost --gpu=A100-80 --count=4 --limit=20 --format=json");
	argv_is("find_offers", "{\"gpu\":[\"H100\",\"H200\"],\"spot\":true,"
	    "\"available\":false,\"limit\":3}",
	    "gpucost --gpu=H100,H200 --spot --limit=3 --format=json");
	argv_is("find_offers", "{\"max-price\":2.5}",
	    "gpucost --max-price=2.5 --limit=20 --format=json");
	argv_is("market_summary", "{\"group-by\":\"gpu\"}",
	    "gpucost --group-by=gpu --format=json");
	argv_is("gpu_catalogue", NULL, "gpucost gpus --format=json");
	argv_is("price_history", "{\"gpu\":\"H100\",\"since\":\"2w\","
	    "\"sort\":\"provider\"}", "gpucost history --gpu=H100 --since=2w "
	    "--sort=provider --limit=20 --format=json");
	argv_is("price_history", "{\"hours\":10}",
	    "tool error: unknown argument \"hours\"");
	argv_is("providers", "{}", "gpucost providers --format=json");
	argv_is("launch_command", "{\"provider\":\"aws\",\"instance_type\":"
	    "\"p4d.24xlarge\",\"region\":\"us-east-1\"}",
	    "gpucost --provider=aws --match=p4d.24xlarge --format=json");
	/* Arguments the tool refuses: tool errors, the CLI's words. */
	argv_is("find_offers", "{\"count\":\"4\"}",
	    "tool error: count: expected an integer");
	argv_is("find_offers", "{\"count\":\"eight\"}",
	    "tool error: count: expected an integer");
	argv_is("find_offers", "{\"count\":4.5}",
	    "tool error: count: expected an integer");
	argv_is("find_offers", "{\"gpus\":\"H100\"}",
	    "tool error: unknown argument \"gpus\"; did you mean gpu?");
	argv_is("find_offers", "{\"all-field\":true}",
	    "tool error: unknown argument \"all-field\"; did you mean "
	    "all-fields?");
	argv_is("find_offers", "{\"all-fields\":1}",
	    "tool error: all-fields: expected true or false");
	argv_is("find_offers", "{\"all-fields\":true,\"gpu\":\"L4\"}",
	    "gpucost --gpu=L4 --limit=20 --format=json");
	argv_is("find_offers", "{\"format\":\"csv\"}",
	    "tool error: unknown argument \"format\"");
	argv_is("find_offers", "{\"group-by\":\"gpu\"}",
	    "tool error: unknown argument \"group-by\"");
	/* No tool refreshes: --max-age is no argument of any. */
	argv_is("find_offers", "{\"max-age\":\"1d\"}",
	    "tool error: unknown argument \"max-age\": these tools never "
	    "refresh the cache (read-only; run 'gpucost refresh' outside)");
	argv_is("market_summary", "{\"group-by\":\"gpu\",\"max-age\":"
	    "\"1s\"}", "tool error: unknown argument \"max-age\": these "
	    "tools never refresh the cache (read-only; run 'gpucost refresh' "
	    "outside)");
	argv_is("gpu_catalogue", "{\"count\":1}",
	    "tool error: unknown argument \"count\"");
	argv_is("market_summary", "{}",
	    "tool error: group-by is required");
	argv_is("launch_command", "{\"provider\":\"aws\"}",
	    "tool error: instance_type: expected a string (as find_offers "
	    "shows it)");
	/* A request of the wrong shape: JSON-RPC errors. */
	argv_is("find_offers", "[1]",
	    "error: find_offers: arguments must be an object");
	argv_is("refresh", "{}", "error: unknown tool refresh");
}

/* Every query filter is an argument of find_offers (one option table). */
static void
test_schema_from_table(void **state)
{
	const struct cli_option *t;
	cJSON *list, *tool, *props;
	size_t n, i;
	bool found = false;

	(void)state;
	list = mcp_tools_list();
	cJSON_ArrayForEach(tool, cJSON_GetObjectItem(list, "tools")) {
		/* No tool takes an option that refreshes (--max-age). */
		props = cJSON_GetObjectItem(cJSON_GetObjectItem(tool,
		    "inputSchema"), "properties");
		t = cli_option_table(&n);
		for (i = 0; i < n; i++)
			if (cli_option_refreshes(&t[i]) &&
			    cJSON_GetObjectItem(props, t[i].name) != NULL)
				fail_msg("%s takes --%s",
				    cJSON_GetObjectItem(tool, "name")->valuestring,
				    t[i].name);
		if (strcmp(cJSON_GetObjectItem(tool, "name")->valuestring,
		    "find_offers") != 0)
			continue;
		found = true;
		props = cJSON_GetObjectItem(cJSON_GetObjectItem(tool,
		    "inputSchema"), "properties");
		t = cli_option_table(&n);
		for (i = 0; i < n; i++)
			if (t[i].filter >= 0 &&
			    cJSON_GetObjectItem(props, t[i].name) == NULL)
				fail_msg("find_offers lacks --%s", t[i].name);
	}
	assert_true(found);
	assert_string_equal(mcp_tool_name(0), "find_offers");
	assert_null(mcp_tool_name(6));
	cJSON_Delete(list);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_line_bounds),
		cmocka_unit_test(test_envelope),
		cmocka_unit_test(test_utf8),
		cmocka_unit_test(test_tool_argv),
		cmocka_unit_test(test_schema_from_table),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
