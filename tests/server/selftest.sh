#!/bin/sh
# selftest.sh: check every feature of the fixture server with curl(1).
#
# Usage: FIXTURE_SERVER=path/to/fixture_server [TOP_SRCDIR=dir] sh selftest.sh
# It builds nothing and writes its own fixtures into a mktemp -d folder.
# Exit status: 0 all passed, 1 something failed, 77 skipped (no curl).

if ! command -v curl >/dev/null 2>&1; then
	echo "selftest: curl not found, skipping"
	exit 77
fi

here=$(cd "$(dirname "$0")" && pwd)
TOP_SRCDIR=${TOP_SRCDIR:-$here/../..}
FIXTURE_SERVER=${FIXTURE_SERVER:-tests/server/fixture_server}
if [ ! -x "$FIXTURE_SERVER" ]; then
	echo "selftest: FIXTURE_SERVER='$FIXTURE_SERVER' is not executable" >&2
	exit 1
fi
case $FIXTURE_SERVER in
/*) ;;
*) FIXTURE_SERVER=$(pwd)/$FIXTURE_SERVER ;;
esac

tmp=$(mktemp -d "${TMPDIR:-/tmp}/fixture-selftest.XXXXXX") || exit 1
pids=
cleanup() {
	for p in $pids; do
		kill "$p" 2>/dev/null
	done
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' HUP INT TERM

failures=0
tests=0

# Report one check: pass "description" and a command that must succeed.
check() {
	desc=$1
	shift
	tests=$((tests + 1))
	if "$@"; then
		echo "ok $tests - $desc"
	else
		echo "not ok $tests - $desc"
		failures=$((failures + 1))
	fi
}

# Succeed if the command fails.
fails() {
	! "$@"
}

# Succeed if file $1 holds a port number and a newline, nothing else.
port_file_ok() {
	p=$(cat "$1") || return 1
	case $p in
	'' | *[!0-9]*) return 1 ;;
	esac
	printf '%s\n' "$p" | cmp -s - "$1"
}

# Milliseconds since the epoch (seconds * 1000 if date lacks %N).
now_ms() {
	t=$(date +%s%N)
	case $t in
	*N) echo $(( ${t%N} * 1000 )) ;;
	*) echo $(( t / 1000000 )) ;;
	esac
}

# Sleep a tenth of a second where sleep(1) allows it.
nap() {
	sleep 0.1 2>/dev/null || sleep 1
}

# Start a server (extra options in "$@"); sets $spid and $port.
start_server() {
	portfile=$1
	shift
	"$FIXTURE_SERVER" --port-file "$portfile" "$@" 2>>"$tmp/server.err" &
	spid=$!
	pids="$pids $spid"
	i=0
	while [ ! -s "$portfile" ] && [ $i -lt 300 ]; do
		nap
		i=$((i + 1))
	done
	port=$(cat "$portfile" 2>/dev/null)
}

# get NAME PATH [curl options]: body in NAME.out, headers in NAME.hdr,
# status code in $code, curl's exit status in $rc.
get() {
	name=$1
	path=$2
	shift 2
	code=$(curl -sS --noproxy '*' --max-time 10 -o "$tmp/$name.out" \
	    -D "$tmp/$name.hdr" -w '%{http_code}' "$@" "$base$path" \
	    2>"$tmp/$name.err")
	rc=$?
}

# hdr NAME HEADER: value of a response header saved by get().
hdr() {
	tr -d '\r' <"$tmp/$1.hdr" | awk -v h="$2" '
	    BEGIN { h = tolower(h) }
	    { i = index($0, ":") }
	    i > 0 && tolower(substr($0, 1, i - 1)) == h {
		v = substr($0, i + 1); sub(/^[ \t]+/, "", v); print v; exit
	    }'
}

# timed NAME PATH: fetch in the foreground, record start/end in NAME.t.
timed() {
	t0=$(now_ms)
	curl -s --noproxy '*' --max-time 60 -o "$tmp/$1.out" "$base$2"
	t1=$(now_ms)
	echo "$t0 $t1" >"$tmp/$1.t"
}

# ---------------------------------------------------------------------
# Fixtures
# ---------------------------------------------------------------------
fx=$tmp/fx
mkdir "$fx" || exit 1
printf '{"hello":"world","price":0.79,"name":"H100 80GB \342\200\224 SXM"}' \
    >"$fx/hello.json"
printf '{"page":1,"next":2}\n' >"$fx/page1.json"
printf '{"page":2,"next":null}\n' >"$fx/page2.json"
printf '{"data":{"gpuTypes":[{"id":"NVIDIA A100"}]}}\n' >"$fx/gpus.json"
printf '{"data":{"myself":{"pods":[]}}}\n' >"$fx/pods.json"
printf '{"error":"internal"}\n' >"$fx/err.json"
printf '{"error":"slow down"}\n' >"$fx/limited.json"
printf '{"ok":true}\n' >"$fx/ok.json"
printf '{"slow":true}\n' >"$fx/slow.json"
printf '{"etag":"v1"}\n' >"$fx/etag.json"
printf '%s\n' 0123456789012345678901234567890123456789012345678 \
    >"$fx/drip.txt"					# 50 bytes
awk 'BEGIN { for (i = 0; i < 10; i++) printf "%09d\n", i }' \
    >"$fx/big.json"					# 100 bytes
awk 'BEGIN { print "sku,instance,usd_per_hour";
    for (i = 0; i < 12000; i++) printf "SKU%06d,p4d.24xlarge,%d.%02d\n",
    i, i % 40, i % 100 }' >"$fx/large.csv"		# ~350 KB
# gzip -n -9 of {"gz":true,"rows":[1,2,3]} and a newline
printf '{"gz":true,"rows":[1,2,3]}\n' >"$tmp/gz.plain"
{
	printf '\037\213\010\000\000\000\000\000\002\003\253\126\112\257'
	printf '\122\262\052\051\052\115\325\121\052\312\057\057\126\262'
	printf '\212\066\324\061\322\061\216\255\345\002\000\340\176\011'
	printf '\221\033\000\000\000'
} >"$fx/data.json.gz"

cat >"$fx/routes" <<'EOF'
# selftest routes: the first match in file order wins
GET  /hello          hello.json
GET  /offers?page=2  page2.json
GET  /offers         page1.json   # no page=2
POST /graphql        gpus.json    body~=gpuTypes
POST /graphql        pods.json    body~=myself%20{%20pods
POST /graphql        -            status=400
PUT  /put            ok.json      status=201
GET  /err            err.json     status=500
GET  /limited        limited.json status=429 header=Retry-After:%202 times=1
GET  /limited        ok.json
GET  /slow           slow.json    delay=8000
GET  /fast           ok.json
GET  /trunc          big.json     truncate=10
GET  /close          big.json     close
GET  /drip           drip.txt     drip=10/100 type=text/plain
GET  /etag           etag.json    etag="v1"
GET  /lm             etag.json    last-modified=Tue,%2003%20Mar%202026%2010:00:00%20GMT
GET  /both           etag.json    etag="v2" last-modified=Tue,%2003%20Mar%202026%2010:00:00%20GMT
GET  /gz             data.json.gz gzip
GET  /chunked        large.csv    chunked
GET  /headers  ok.json  header=X-Custom:%20yes%20it%20is header=Cache-Control:no-store
*    /any/*          ok.json
EOF

# ---------------------------------------------------------------------
# An idle server that nobody talks to: it must exit by itself in ~2 s.
# It runs while the other checks do and is checked at the end.
# ---------------------------------------------------------------------
# A subshell waits for it and notes when it ended: the test's own pace
# (slow on a busy machine) does not count.
idle_t0=$(now_ms)
(
	"$FIXTURE_SERVER" --port-file "$tmp/idle.port" --dir "$fx" \
	    --idle-timeout 2 2>>"$tmp/server.err" &
	echo $! >"$tmp/idle.pid"
	wait $!
	echo "$? $(now_ms)" >"$tmp/idle.end.tmp"
	mv "$tmp/idle.end.tmp" "$tmp/idle.end"
) &
idle_watcher=$!
i=0
while [ ! -s "$tmp/idle.port" ] && [ $i -lt 300 ]; do
	nap
	i=$((i + 1))
done
pids="$pids $(cat "$tmp/idle.pid" 2>/dev/null)"
check "idle server wrote its port file" test -s "$tmp/idle.port"

# ---------------------------------------------------------------------
# The main server
# ---------------------------------------------------------------------
start_server "$tmp/port" --dir "$fx" --log "$tmp/req.log" --idle-timeout 300
main_pid=$spid
base=http://127.0.0.1:$port

check "port file holds a port number and a newline" port_file_ok "$tmp/port"
check "no temporary port file left behind" \
    fails ls "$tmp/port".tmp.* >/dev/null 2>&1

get hello /hello -H 'X-Selftest: abc 123'
check "GET /hello is 200" test "$code" = 200
check "GET /hello body is byte-exact" cmp -s "$tmp/hello.out" "$fx/hello.json"
check "GET /hello is application/json" \
    test "$(hdr hello Content-Type)" = application/json
check "GET /hello has Content-Length" \
    test "$(hdr hello Content-Length)" = "$(wc -c <"$fx/hello.json" |
    tr -d ' ')"

# With -I curl writes the head to -o as well: no body means they match.
get head /hello -I
check "HEAD /hello is 200 with the file's length and no body" \
    test "$code" = 200 -a "$(hdr head Content-Length)" = \
    "$(wc -c <"$fx/hello.json" | tr -d ' ')"
check "HEAD /hello sends no body" cmp -s "$tmp/head.out" "$tmp/head.hdr"

get q2 '/offers?limit=5&page=2'
check "query page=2 (other params, any order) picks page2" \
    cmp -s "$tmp/q2.out" "$fx/page2.json"
get q1 '/offers?limit=5&page=1'
check "query without page=2 falls through to page1" \
    cmp -s "$tmp/q1.out" "$fx/page1.json"
get q0 /offers
check "no query string picks page1" cmp -s "$tmp/q0.out" "$fx/page1.json"

printf '{"query":"query {\\n  gpuTypes { id }\\n}"}' >"$tmp/gql1"
printf '{"query":"query { myself { pods { id } } }"}' >"$tmp/gql2"
get gql1 /graphql --data-binary @"$tmp/gql1" \
    -H 'Content-Type: application/json'
check "POST body~=gpuTypes routes to gpus.json" \
    cmp -s "$tmp/gql1.out" "$fx/gpus.json"
get gql2 /graphql --data-binary @"$tmp/gql2"
check "POST body~=myself%20{%20pods routes to pods.json" \
    cmp -s "$tmp/gql2.out" "$fx/pods.json"
get gql3 /graphql -d '{"query":"other"}'
check "POST with another body falls through to status=400" \
    test "$code" = 400 -a ! -s "$tmp/gql3.out"
t0=$(now_ms)
# curl sends the body after 30 s without an answer: well under that
# means the server answered "100 Continue" (margins for a busy machine).
get gql4 /graphql --data-binary @"$tmp/gql1" -H 'Expect: 100-continue' \
    --expect100-timeout 30 --max-time 60
t1=$(now_ms)
check "Expect: 100-continue is answered at once ($((t1 - t0)) ms)" \
    test "$code" = 200 -a $((t1 - t0)) -lt 20000

get put /put -X PUT -d 'x=1'
check "PUT with status=201" test "$code" = 201

get err /err
check "status=500 with its body" \
    test "$code" = 500 -a "$(cat "$tmp/err.out")" = '{"error":"internal"}'

get lim1 /limited
check "times=1: first request is 429 with Retry-After: 2" \
    test "$code" = 429 -a "$(hdr lim1 Retry-After)" = 2
get lim2 /limited
check "times=1: second request falls through to 200" \
    test "$code" = 200 -a "$(cat "$tmp/lim2.out")" = '{"ok":true}'

get hdrs /headers
check "header= options are sent, URL-decoded" \
    test "$(hdr hdrs X-Custom)" = "yes it is" -a \
    "$(hdr hdrs Cache-Control)" = no-store

# delay: /fast must be served while /slow is stalled.
timed slow /slow &
p1=$!
nap
timed fast /fast &
p2=$!
wait $p1
wait $p2
read -r s0 s1 <"$tmp/slow.t"
read -r f0 f1 <"$tmp/fast.t"
check "delay=8000 stalls its response (>= 7900 ms)" \
    test $((s1 - s0)) -ge 7900 -a "$(cat "$tmp/slow.out")" = '{"slow":true}'
# Served during the stall: done before the slow one (margins for a busy
# machine, where starting curl alone can take a second or more).
check "a second client is served while the first is stalled ($((f1 - f0)) ms)" \
    test $((f1 - f0)) -lt 6000 -a "$f1" -lt "$s1"

get trunc /trunc
check "truncate=10: curl reports a partial transfer (exit 18)" \
    test "$rc" = 18
check "truncate=10: exactly 10 bytes arrive" \
    test "$(wc -c <"$tmp/trunc.out" | tr -d ' ')" = 10
check "truncate=10: Content-Length still declares the whole file" \
    test "$(hdr trunc Content-Length)" = 100

get close /close
check "close: curl reports an empty reply (exit 52)" test "$rc" = 52

t0=$(now_ms)
get drip /drip
t1=$(now_ms)
check "drip=10/100: body arrives intact" cmp -s "$tmp/drip.out" "$fx/drip.txt"
check "drip=10/100: 50 bytes take >= 400 ms" test $((t1 - t0)) -ge 400
check "type= sets Content-Type" test "$(hdr drip Content-Type)" = text/plain

get etag1 /etag
check "etag= sends ETag" test "$code" = 200 -a "$(hdr etag1 ETag)" = '"v1"'
get etag2 /etag -H 'If-None-Match: "v1"'
check "If-None-Match with the ETag gives 304 and no body" \
    test "$code" = 304 -a ! -s "$tmp/etag2.out"
get etag3 /etag -H 'If-None-Match: "v0"'
check "If-None-Match with another tag gives 200" test "$code" = 200

lm='Tue, 03 Mar 2026 10:00:00 GMT'
get lm1 /lm
check "last-modified= sends Last-Modified" \
    test "$code" = 200 -a "$(hdr lm1 Last-Modified)" = "$lm"
get lm2 /lm -H "If-Modified-Since: $lm"
check "If-Modified-Since at the date gives 304 and no body" \
    test "$code" = 304 -a ! -s "$tmp/lm2.out"
get lm3 /lm -H 'If-Modified-Since: Wed, 04 Mar 2026 00:00:00 GMT'
check "If-Modified-Since after the date gives 304" test "$code" = 304
get lm4 /lm -H 'If-Modified-Since: Mon, 02 Mar 2026 10:00:00 GMT'
check "If-Modified-Since before the date gives 200 and the body" \
    test "$code" = 200 -a -s "$tmp/lm4.out"
get lm5 /lm -H 'If-Modified-Since: yesterday'
check "an unreadable If-Modified-Since gives 200" test "$code" = 200
get both1 /both -H 'If-None-Match: "v1"' -H "If-Modified-Since: $lm"
check "If-None-Match that does not match wins over If-Modified-Since" \
    test "$code" = 200
get both2 /both -H 'If-None-Match: "v2"'
check "etag= and last-modified= together: the ETag matches: 304" \
    test "$code" = 304 -a "$(hdr both2 ETag)" = '"v2"' -a \
    "$(hdr both2 Last-Modified)" = "$lm"

if curl -V | grep -q libz; then
	get gz1 /gz --compressed
	check "gzip: curl --compressed decodes to the original" \
	    cmp -s "$tmp/gz1.out" "$tmp/gz.plain"
	check "gzip: Content-Encoding: gzip is sent" \
	    test "$(hdr gz1 Content-Encoding)" = gzip
else
	echo "# curl lacks zlib: --compressed check skipped"
fi
get gz2 /gz -H 'Accept-Encoding: gzip'
check "gzip: the file is served as-is" cmp -s "$tmp/gz2.out" "$fx/data.json.gz"
get gz3 /gz
check "gzip: no Accept-Encoding gives 406" test "$code" = 406

get chunk /chunked
check "chunked: Transfer-Encoding: chunked, no Content-Length" \
    test "$(hdr chunk Transfer-Encoding)" = chunked -a \
    -z "$(hdr chunk Content-Length)"
check "chunked: a large file arrives intact" \
    cmp -s "$tmp/chunk.out" "$fx/large.csv"
check "a .csv file is text/csv" test "$(hdr chunk Content-Type)" = text/csv

get any /any/x/y -X DELETE
check "METHOD * and a PATH* prefix route" test "$code" = 200

get nf /nope
check "no route gives 404" test "$code" = 404
get nf2 /hello -X POST -d 'x'
check "a route for another method does not match (404)" test "$code" = 404

get dd1 /../routes --path-as-is
check "a '..' path is refused with 403" test "$code" = 403
get dd2 /a/%2e%2e/routes
check "an encoded '..' path is refused with 403" test "$code" = 403

get bad1 /hello -X 'GET X'
check "a malformed request line gives 400" test "$code" = 400
get bad2 / --request-target 'hello'
check "a target without a leading '/' gives 400" test "$code" = 400
get bad3 /hello -H 'Bad Header: x'
check "a malformed header name gives 400" test "$code" = 400

# Many clients at once.
i=0
par=
while [ $i -lt 20 ]; do
	curl -s --noproxy '*' --max-time 10 -o "$tmp/par$i.out" "$base/hello" &
	par="$par $!"
	i=$((i + 1))
done
for p in $par; do
	wait "$p"
done
i=0
parok=0
while [ $i -lt 20 ]; do
	cmp -s "$tmp/par$i.out" "$fx/hello.json" && parok=$((parok + 1))
	i=$((i + 1))
done
check "20 concurrent requests all succeed" test $parok = 20

# The request log.
log=$tmp/req.log
check "log has REQ for GET /hello" grep -qx 'REQ GET /hello' "$log"
check "log has the header curl sent" grep -qx 'HDR X-Selftest: abc 123' "$log"
check "log has the full request target with the query" \
    grep -qxF 'REQ GET /offers?limit=5&page=2' "$log"
check "log has the POST body with newlines escaped" \
    grep -qxF 'BODY {"query":"query {\n  gpuTypes { id }\n}"}' "$log"
check "every REQ record ends with END" \
    test "$(grep -c '^REQ ' "$log")" = "$(grep -c '^END$' "$log")"
check "the log has RES with the status and body bytes of a 200" \
    grep -qxF "RES 200 $(wc -c <"$fx/hello.json" | tr -d ' ') GET /hello" "$log"
check "RES counts the body bytes sent, not the declared length" \
    grep -qxF 'RES 200 10 GET /trunc' "$log"
check "RES of a 304 says 0 body bytes" grep -qxF 'RES 304 0 GET /lm' "$log"
check "RES of a closed connection says status 0" \
    grep -qxF 'RES 0 0 GET /close' "$log"
check "RES of an unknown path is the 404" grep -q "^RES 404 [1-9][0-9]* GET /nope$" "$log"
check "GET records carry no BODY line" \
    awk '/^REQ GET \/hello$/ { g = 1 } g && /^BODY / { exit 1 }
    /^END$/ { g = 0 }' "$log"

# The routes file is re-read when it is replaced.
printf 'GET /reloaded ok.json status=202\n' >"$fx/routes.new"
mv "$fx/routes.new" "$fx/routes"
get rl /reloaded
check "a replaced routes file is picked up" test "$code" = 202

# SIGTERM.
kill -TERM "$main_pid"
i=0
while kill -0 "$main_pid" 2>/dev/null && [ $i -lt 30 ]; do
	nap
	i=$((i + 1))
done
check "SIGTERM makes the server exit" fails kill -0 "$main_pid" 2>/dev/null
wait "$main_pid"
check "exit status after SIGTERM is 0" test $? = 0

# The idle server, started with --idle-timeout 2.
wait "$idle_watcher"
read -r idle_rc idle_t1 <"$tmp/idle.end"
check "--idle-timeout 2 exits by itself after 2 s ($((idle_t1 - idle_t0)) ms)" \
    test $((idle_t1 - idle_t0)) -ge 1900 -a $((idle_t1 - idle_t0)) -lt 60000
check "exit status after the idle timeout is 0" test "$idle_rc" = 0

# The README documents every route option.
readme=$TOP_SRCDIR/tests/server/README.md
if [ -f "$readme" ]; then
	for opt in 'body~=' status= header= type= delay= drip= truncate= \
	    close gzip times= etag= last-modified= chunked; do
		check "README documents $opt" grep -qF "| \`$opt" "$readme"
	done
fi

check "no sanitizer reports on the server's stderr" \
    fails grep -Eq "Sanitizer|runtime error" "$tmp/server.err"
if [ -s "$tmp/server.err" ]; then
	sed 's/^/# server: /' "$tmp/server.err"
fi

echo "# $tests checks, $failures failed"
[ $failures -eq 0 ]
