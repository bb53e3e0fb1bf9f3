#!/bin/sh
# gpucost mcp on hostile input: every bad line gets its JSON-RPC error
# (-32700 parse error, -32600 invalid request, -32601 unknown method,
# -32602 invalid params) and the server goes on answering the next
# line; a line of many MB, deep nesting, huge ids, NUL bytes and a
# client that goes away never crash it. Arguments a tool refuses are a
# tool error (isError), which the agent reads and retries. Answers are
# short (issue 48), and no tool reaches the network or writes the cache
# (issue 43). The SDK client test is tests/cli/mcp_client.sh.
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
printf '{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"find_offers","arguments":[1]}}\n' |
    bad_line "arguments that are an array" -32602

# Arguments the tool refuses: a tool result with isError (revision
# 2025-11-25), its words the CLI's, then the next request is answered.
# tool_error ARGS WANT: find_offers called with ARGS says WANT.
tool_error() {
	printf '{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"%s","arguments":%s}}\n%s\n' \
	    "${3:-find_offers}" "$1" "$PING" > "$T/in"
	session "$T/in"
	check "$1: a result, not a JSON-RPC error" is 1 '.error == null and .result.isError' true
	check "$1: says $2" is 1 '.result.structuredContent.error' "$2"
	check "$1: the text says it too" is 1 '.result.content[0].text' "$2"
	check "$1: then the next request" is 2 .id after
}
tool_error '{"gpus":"H100"}' 'unknown argument "gpus"; did you mean gpu?'
tool_error '{"count":"eight"}' 'count: expected an integer'
tool_error '{"count":1e300}' 'count: expected an integer'
tool_error '{"gpu":{"a":1}}' 'gpu: expected a string or an array of strings'
tool_error '{"gpu":"Z999"}' '--gpu: unknown GPU "Z999" ('"'"'gpucost gpus'"'"' lists them all)'
tool_error '{"max-age":"1s"}' 'unknown argument "max-age": these tools never refresh the cache (read-only; run '"'"'gpucost refresh'"'"' outside)'
tool_error '{"gpu":"H100"}' 'group-by is required' market_summary
tool_error '{"provider":"aws"}' 'instance_type: expected a string (as find_offers shows it)' launch_command

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
	case $opt in all-regions|group-by|quiet|max-age) continue ;; esac  # output, not the question; max-age refreshes
	check "find_offers takes --$opt (generated from the option table)" \
	    is 2 ".result.tools[] | select(.name == \"find_offers\") | .inputSchema.properties | has(\"$opt\")" true
done
check "garbage in the session: -32700" is 3 .error.code -32700
check "find_offers after it" is 4 '.result.isError' false
check "find_offers: one offer" is 4 '.result.structuredContent.offers | length' 1
check "find_offers: the data age, once and short" is 4 '.result.structuredContent.data_age | test("^[a-z-]+ [0-9]+[a-z]+[ ,]") and length < 200' true
check "find_offers: its gpu" is 4 '.result.structuredContent.offers[0].gpu' A100-80
check "a control character in a value: a tool error" is 5 '.result.isError' true
check "no offer matched: not an error" is 6 '.result.isError' false
check "no offer matched: the message says why" is 6 '.result.structuredContent.messages[0] | test("^282 offers match --gpu H100; none matches --max-price 0.01; the cheapest is 2.89")' true
check "no offer matched: the text says why" is 6 '.result.content[0].text | contains("none matches --max-price 0.01")' true
check "an unknown revision: ours" is 7 .result.protocolVersion 2025-11-25
for t in find_offers market_summary price_history; do
	check "$t takes no max-age (it would refresh)" \
	    is 2 ".result.tools[] | select(.name == \"$t\") | .inputSchema.properties | has(\"max-age\")" false
done
check "initialize: says read-only and never refreshed" \
    is 1 '.result.instructions | contains("read-only; never refreshed")' true

# The CLI's answers to the same questions.
run --db "$DB" --gpu H100 --count 8 --format json
cp "$T/out" "$T/cli.json"
run --db "$DB" --gpu H100 --count 8
rows=$(($(grep -c . "$T/out") - 1))	# less the header
run --db "$DB" --gpu H100 --group-by provider --format json
cp "$T/out" "$T/groups.json"

# Issue 48: an agent pays for every byte. The default find_offers answer
# is under 16 KB; its text is a summary, not the structured content
# again; no answer carries every provider's status; an instance type's
# regions are folded into one row as the table folds them.
{
	printf '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"find_offers","arguments":{"gpu":"H100","count":8}}}\n'
	printf '{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"find_offers","arguments":{}}}\n'
	printf '{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"market_summary","arguments":{"gpu":"H100","group-by":"provider"}}}\n'
	printf '{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"find_offers","arguments":{"gpu":"H100","count":8,"all-fields":true,"limit":1}}}\n'
	printf '{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"launch_command","arguments":{"provider":"aws","instance_type":"p5.48xlarge","region":"us-east-1"}}}\n'
} > "$T/in"
session "$T/in"
for n in 1 2; do
	bytes=$(sed -n "${n}p" "$T/out" | wc -c)
	check "find_offers answer $n: under 16 KB ($bytes bytes)" [ "$bytes" -lt 16384 ]
done
for n in 1 2 3 4 5; do
	check "answer $n: no status of every provider" \
	    is "$n" '[.. | objects | select(has("last_error"))] | length' 0
	check "answer $n: the text is no JSON" \
	    is "$n" '.result.content[0].text | (try fromjson catch "no") | type' string
done
mcp_rows=$(answer 1 '.result.structuredContent.offers | length')
check "find_offers H100 x8: the table's $rows rows ($mcp_rows)" [ "$mcp_rows" -eq "$rows" ]
check "find_offers: rows and matched of the whole answer" \
    is 1 '.result.structuredContent | [.rows, .matched] | map(tostring) | join(" ")' "$rows $(jq .matched "$T/cli.json")"
check "find_offers: every offer of the JSON in a row or folded" \
    is 1 '[.result.structuredContent.offers[] | 1 + (.other_regions // 0)] | add' "$(jq .matched "$T/cli.json")"
check "find_offers: aws p5.48xlarge, us-east-1 and 11 more regions" \
    is 1 '.result.structuredContent.offers[] | select(.instance_type == "p5.48xlarge") | [.region, .other_regions, (.other_region_list | length), (.other_region_list | index("us-west-2") != null)] | map(tostring) | join(" ")' "us-east-1 11 11 true"
check "find_offers: the fold's price range" \
    is 1 '.result.structuredContent.offers[] | select(.instance_type == "p5.48xlarge") | .price_gpu_hour_range | length' 2
check "find_offers: the first offer is the CLI's first" \
    is 1 '.result.structuredContent.offers[0] | [.provider, .key, .price_hour, .price_gpu_hour, .launch] | tostring' \
    "$(jq -c '.offers[0] | [.provider, .key, .price_hour, .price_gpu_hour, .launch]' "$T/cli.json")"
check "find_offers: the short shape" \
    is 1 '[.result.structuredContent.offers[] | has("vcpus") or has("source") or has("country") or has("committed") or has("launch_spot")] | any' false
check "find_offers: a line of text per row" \
    [ "$(answer 1 '.result.content[0].text' | grep -c '\$[0-9.]*/GPU-h')" -eq "$rows" ]
check "all-fields: the fold and the age too" \
    is 4 '.result.structuredContent.offers[0] | has("age") and has("other_regions")' true
check "all-fields: the CLI's first offer, field for field" \
    is 4 '.result.structuredContent.offers[0] | del(.age, .other_regions, .other_region_list, .price_gpu_hour_range, .spot_gpu_hour_range) | tojson' \
    "$(jq -c '.offers[0]' "$T/cli.json")"
check "market_summary: the CLI's --group-by groups" \
    is 3 '.result.structuredContent.groups | tojson' "$(jq -c .groups "$T/groups.json")"
check "launch_command: its command" \
    is 5 '.result.content[0].text | contains("launch: aws ec2 run-instances --region '"'"'us-east-1'"'"'")' true

# Issue 43: no tool reaches the network or writes the cache, whatever
# the config says (max_age), however stale the data.
fx=$TOP_SRCDIR/tests/fixtures
for p in vast oci; do
	serve "$p" "$fx/$p"
	export "$(url_var "$p")=$url"
done
mkdir -p "$HOME/.config/gpucost"
printf 'max_age = 1s\n' > "$HOME/.config/gpucost/config"
# The cache's bytes: the file and its write-ahead log.
cache_sum() { cat "$DB" "$DB-wal" 2>/dev/null | cksum; }
before=$(cache_sum)
{
	printf '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"find_offers","arguments":{"provider":"vast,oci"}}}\n'
	printf '{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"market_summary","arguments":{"group-by":"provider"}}}\n'
	printf '{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"launch_command","arguments":{"provider":"oci","instance_type":"BM.GPU.H100.8","region":"all"}}}\n'
	printf '{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"price_history","arguments":{"provider":"oci"}}}\n'
	printf '{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"providers","arguments":{}}}\n'
	printf '{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"gpu_catalogue","arguments":{}}}\n'
} > "$T/in"
session "$T/in"
check "max_age in the config: six answers" [ "$(jq -s '[.[] | select(.result.isError == false)] | length' "$T/out")" -eq 6 ]
check "max_age in the config: no request to vast" [ "$(grep -c '^REQ ' "$T/vast.log" 2>/dev/null)" = 0 ]
check "max_age in the config: no request to oci" [ "$(grep -c '^REQ ' "$T/oci.log" 2>/dev/null)" = 0 ]
check "max_age in the config: the cache unchanged" [ "$(cache_sum)" = "$before" ]
check "max_age in the config: no refresh message" [ "$(grep -c 'max-age' "$T/out")" -eq 0 ]
rm -f "$HOME/.config/gpucost/config"

# find_offers takes train (issue 46): the job's fields and assumptions;
# a run no plan holds is the tool's error, naming memory.
{
	printf '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"find_offers","arguments":{"train":"7B:2T","gpu":"A100-80","count":8,"limit":1}}}\n'
	printf '{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"find_offers","arguments":{"train":"70B:1T","gpu":"RTX4090","count":2}}}\n'
} > "$T/in"
session "$T/in"
check "find_offers train: not an error" is 1 '.result.isError' false
check "find_offers train: the run's assumptions" is 1 '.result.structuredContent.train.run' 7B:2T
check "find_offers train: about 186,966 GPU-hours" is 1 '.result.structuredContent.offers[0].gpu_hours | floor' 186965
check "find_offers train: the job's cost" is 1 '.result.structuredContent.offers[0].job_cost > 0' true
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
