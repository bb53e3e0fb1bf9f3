#!/bin/sh
# gpucost mcp on hostile input: every bad line gets its JSON-RPC error
# (-32700 parse error, -32600 invalid request, -32601 unknown method,
# -32602 invalid params) and the server goes on answering the next
# line; a line of many MB, deep nesting, huge ids, NUL bytes and a
# client that goes away never crash it. The SDK client test is
# tests/cli/mcp_client.sh.
. "$(dirname "$0")/../lib.sh"

command -v jq >/dev/null 2>&1 || { echo "jq absent: skipped"; exit 77; }

PING='{"jsonrpc":"2.0","id":"after","method":"ping"}'

# session FILE: feed FILE's lines to one server; answers in $T/out.
session() {
	"$GPUCOST" mcp --db "$DB" <"$1" >"$T/out" 2>"$T/err"
	status=$?
}
# answer N FILTER: jq FILTER on the Nth answer line.
answer() {
	sed -n "$1p" "$T/out" | jq -r "$2"
}
is() { [ "$(answer "$1" "$2")" = "$3" ]; }

# One line at a time, each followed by a ping that must be answered.
bad_line() {
	desc=$1 code=$2
	cat > "$T/in"
	printf '%s\n' "$PING" >> "$T/in"
	session "$T/in"
	check "$desc: the server exits 0 at the end of input" status_is 0
	check "$desc: error $code" is 1 .error.code "$code"
	check "$desc: then the next request is answered" is 2 .id after
	check "$desc: two answers" [ "$(wc -l < "$T/out")" -eq 2 ]
}

printf 'garbage{\n' | bad_line "not JSON" -32700
printf '{"jsonrpc":"2.0","id":1,"method":"ping"} {}\n' | bad_line "two values on a line" -32700
printf '{"jsonrpc":"2.0","id":1,"method":"pi\0ng"}\n' | bad_line "a NUL byte" -32700
awk 'BEGIN { for (i = 0; i < 100000; i++) printf "["; print "" }' | bad_line "100000 nested arrays" -32700
awk 'BEGIN { printf "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"params\":{\"x\":\""; for (i = 0; i < 6 * 1024 * 1024 / 64; i++) printf "0123456789012345678901234567890123456789012345678901234567890123"; print "\"}}" }' |
    bad_line "a line of 6 MB" -32700
check "a line of 6 MB: says the limit" grep -q 'longer than 1048576 bytes' "$T/out"
printf '[{"jsonrpc":"2.0","id":1,"method":"ping"}]\n' | bad_line "a batch" -32600
printf '42\n' | bad_line "a number" -32600
printf '{"id":1,"method":"ping"}\n' | bad_line "no jsonrpc member" -32600
check "no jsonrpc member: answered with its id" is 1 .id 1
printf '{"jsonrpc":"2.0","id":1e400,"method":"ping"}\n' | bad_line "an id of 1e400" -32600
check "an id of 1e400: answered with a null id" is 1 .id null
printf '{"jsonrpc":"2.0","id":1.5,"method":"ping"}\n' | bad_line "a fractional id" -32600
printf '{"jsonrpc":"2.0","id":null,"method":"ping"}\n' | bad_line "a null id" -32600
awk 'BEGIN { printf "{\"jsonrpc\":\"2.0\",\"id\":\""; for (i = 0; i < 100000; i++) printf "x"; print "\",\"method\":\"ping\"}" }' |
    bad_line "an id of 100 kB" -32600
printf '{"jsonrpc":"2.0","id":1,"method":7}\n' | bad_line "a method that is a number" -32600
printf '{"jsonrpc":"2.0","id":2,"method":"resources/list"}\n' | bad_line "an unknown method" -32601
check "an unknown method: answered with its id" is 1 .id 2
printf '{"jsonrpc":"2.0","id":3,"method":"tools/call","params":[1]}\n' | bad_line "params that are an array" -32602
printf '{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{}}\n' | bad_line "tools/call without a name" -32602
printf '{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"refresh"}}\n' | bad_line "an unknown tool" -32602
printf '{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"find_offers","arguments":{"count":1e300}}}\n' |
    bad_line "a count of 1e300" -32602
printf '{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"find_offers","arguments":{"gpu":{"a":1}}}}\n' |
    bad_line "a gpu that is an object" -32602
printf '{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"find_offers","arguments":[1]}}\n' |
    bad_line "arguments that are an array" -32602

# Notifications and responses get no answer; blank lines are skipped.
{
	printf '{"jsonrpc":"2.0","method":"notifications/initialized"}\n'
	printf '{"jsonrpc":"2.0","method":"notifications/unknown","params":{}}\n'
	printf '{"jsonrpc":"2.0","method":"notifications/x","params":[1]}\n'
	printf '{"jsonrpc":"2.0","id":9,"result":{}}\n'
	printf '\n   \n'
	printf '%s\n' "$PING"
} > "$T/in"
session "$T/in"
check "notifications, responses, blank lines: no answer" [ "$(wc -l < "$T/out")" -eq 1 ]
check "then the ping" is 1 .id after

# The handshake and a whole session on one server.
{
	printf '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"sh","version":"1"}}}\n'
	printf '{"jsonrpc":"2.0","method":"notifications/initialized"}\n'
	printf '{"jsonrpc":"2.0","id":2,"method":"tools/list"}\n'
	printf 'garbage\n'
	printf '{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"find_offers","arguments":{"gpu":"A100-80","count":4,"limit":1}}}\n'
	printf '{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"find_offers","arguments":{"gpu":"H100\\u0007"}}}\n'
	printf '{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"find_offers","arguments":{"gpu":"H100","max-price":0.01}}}\n'
	printf '{"jsonrpc":"2.0","id":6,"method":"initialize","params":{"protocolVersion":"1999-01-01"}}\n'
} > "$T/in"
session "$T/in"
check "session: exits 0" status_is 0
check "initialize: the revision asked for" is 1 .result.protocolVersion 2025-06-18
check "initialize: serverInfo" is 1 .result.serverInfo.name gpucost
check "tools/list: six tools" is 2 '.result.tools | length' 6
check "tools/list: find_offers' schema has every query filter" \
    [ "$(answer 2 '.result.tools[] | select(.name == "find_offers") | .inputSchema.properties | keys | length')" -ge 15 ]
for opt in $("$GPUCOST" --help | sed -n '/^query options/,/^$/p' | grep -o -e '--[a-z][a-z-]*' | sed 's/^--//'); do
	case $opt in all-regions|group-by|quiet) continue ;; esac  # output, not the question
	check "find_offers takes --$opt (generated from the option table)" \
	    is 2 ".result.tools[] | select(.name == \"find_offers\") | .inputSchema.properties | has(\"$opt\")" true
done
check "garbage in the session: -32700" is 3 .error.code -32700
check "find_offers after it" is 4 '.result.isError' false
check "find_offers: one offer" is 4 '.result.structuredContent.result.offers | length' 1
check "find_offers: the data age" is 4 '.result.structuredContent.data_age | length > 0' true
check "find_offers: its gpu" is 4 '.result.structuredContent.result.offers[0].gpu' A100-80
check "a control character in a value: a tool error" is 5 '.result.isError' true
check "no offer matched: not an error" is 6 '.result.isError' false
check "no offer matched: the note says why" is 6 '.result.structuredContent.notes | length > 0' true
check "an unknown revision: ours" is 7 .result.protocolVersion 2025-11-25

# find_offers takes train (issue 46): the job's fields and assumptions;
# a run no plan holds is the tool's error, naming memory.
{
	printf '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"find_offers","arguments":{"train":"7B:2T","gpu":"A100-80","count":8,"limit":1}}}\n'
	printf '{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"find_offers","arguments":{"train":"70B:1T","gpu":"RTX4090","count":2}}}\n'
} > "$T/in"
session "$T/in"
check "find_offers train: not an error" is 1 '.result.isError' false
check "find_offers train: the run's assumptions" is 1 '.result.structuredContent.result.train.run' 7B:2T
check "find_offers train: about 186,966 GPU-hours" is 1 '.result.structuredContent.result.offers[0].gpu_hours | floor' 186965
check "find_offers train: the job's cost" is 1 '.result.structuredContent.result.offers[0].job_cost > 0' true
check "find_offers train 70B:1T on 2 x RTX4090: a tool error" is 2 '.result.isError' true
check "find_offers train 70B:1T on 2 x RTX4090: naming memory" \
    [ "$(answer 2 '.result.content[0].text' | grep -c 'GPU memory')" -ge 1 ]

# A client that stops reading: a write error, never SIGPIPE.
awk -v p="$PING" 'BEGIN { for (i = 0; i < 20000; i++) print p }' > "$T/in"
{ "$GPUCOST" mcp --db "$DB" <"$T/in" 2>"$T/err"; echo $? > "$T/status"; } | head -c 1 >/dev/null
check "a closed pipe: exit status 3, no signal" [ "$(cat "$T/status")" -eq 3 ]
check "a closed pipe: says so" err_has 'mcp: writing the answer'

# Issue 43, item 7: bytes that are not UTF-8 are never echoed: an id of
# them gets -32600 with a null id, a method -32600 with its id, a tool's
# name or arguments holding them a tool error; every answer line is UTF-8
# (iconv refuses a line that is not) and JSON.
{
	printf '{"jsonrpc":"2.0","id":"\377\376","method":"ping"}\n'
	printf '{"jsonrpc":"2.0","id":"a\355\240\200","method":"ping"}\n'
	printf '{"jsonrpc":"2.0","id":11,"method":"pi\377ng"}\n'
	printf '{"jsonrpc":"2.0","id":12,"method":"tools/call","params":{"name":"find_offers","arguments":{"region":"us-\377"}}}\n'
	printf '{"jsonrpc":"2.0","id":13,"method":"tools/call","params":{"name":"find_offers","arguments":{"reg\376ion":"us"}}}\n'
	printf '{"jsonrpc":"2.0","id":14,"method":"tools/call","params":{"name":"find_\377offers"}}\n'
	printf '%s\n' "$PING"
} > "$T/in"
session "$T/in"
check "not UTF-8: seven answers" [ "$(wc -l < "$T/out")" -eq 7 ]
if command -v iconv >/dev/null 2>&1; then
	check "not UTF-8: every answer line is UTF-8" iconv -f UTF-8 -t UTF-8 "$T/out" -o /dev/null
fi
check "not UTF-8: no byte of the requests echoed" [ "$(od -An -tx1 "$T/out" | grep -c ' ff\| fe')" -eq 0 ]
check "an id of \\xff\\xfe: -32600" is 1 .error.code -32600
check "an id of \\xff\\xfe: answered with a null id" is 1 .id null
check "an id holding a surrogate: -32600, null id" is 2 '"\(.error.code) \(.id)"' "-32600 null"
check "a method not UTF-8: -32600, with its id" is 3 '"\(.error.code) \(.id)"' "-32600 11"
check "an argument's value not UTF-8: a tool error" is 4 '"\(.id) \(.result.isError)"' "12 true"
check "an argument's name not UTF-8: a tool error" is 5 '"\(.id) \(.result.isError)"' "13 true"
check "a tool's name not UTF-8: a tool error" is 6 '"\(.id) \(.result.isError)"' "14 true"
check "not UTF-8: the server goes on" is 7 .id after

finish
