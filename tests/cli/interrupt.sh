#!/bin/sh
# Interrupted refreshes leave a trace: SIGTERM, SIGINT and SIGHUP during
# a refresh keep every provider's offers, record "interrupted by SIGx" in
# its status and end gpucost by that signal; kill -9 leaves "did not
# finish"; a signal ignored at start (nohup) stays ignored. A server that
# drips its answer is cut off by the per-provider --deadline.
. "$(dirname "$0")/../lib.sh"

command -v sqlite3 >/dev/null 2>&1 || { echo "sqlite3 is needed" >&2; exit 77; }

FX=$TOP_SRCDIR/tests/fixtures
run --db "$DB" --quiet
check "seeded" status_is 0

# Vast first answers, then stalls (60 s before the status line).
serve vast "$FX/vast"
GPUCOST_VAST_URL=$url run --db "$DB" refresh --provider vast
check "a first refresh works" status_is 0
vast_before=$(offers_sum vast)
mkdir -p "$T/stall"
cp "$FX/vast/offers.json" "$T/stall/"
echo "POST /api/v0/bundles/ offers.json delay=60000" > "$T/stall/routes"
serve stall "$T/stall"
stall=$url

last_error() {
	sqlite3 "$DB" "select last_error from provider_status where provider = '$1'"
}
asked() { [ "$(grep -c '^REQ ' "$T/stall.log")" -ge "$1" ]; }

# A shell's background job starts with SIGINT ignored; env puts the
# default back where it can (coreutils 8.31), so SIGINT reaches gpucost.
if env --default-signal=INT true 2>/dev/null; then
	defaults="env --default-signal=INT,TERM,HUP"
	sigs="TERM INT HUP"
else
	defaults=env
	sigs="TERM HUP"
fi
asks=0
for sig in $sigs; do
	asks=$((asks + 1))
	GPUCOST_VAST_URL=$stall $defaults "$GPUCOST" --db "$DB" refresh \
	    --provider vast --timeout 120 >/dev/null 2>"$T/bg.err" &
	pid=$!
	check "SIG$sig: the refresh asked" wait_for 30 asked "$asks"
	check "SIG$sig: while it runs, the status says it has not finished" \
	    eval 'last_error vast | grep -q "did not finish"'
	kill -"$sig" "$pid"
	wait "$pid"
	rc=$?
	case $sig in TERM) num=15 ;; INT) num=2 ;; HUP) num=1 ;; esac
	check "SIG$sig: gpucost ends by the signal (exit $rc)" [ "$rc" -eq $((128 + num)) ]
	check "SIG$sig: says so" grep -q "^gpucost: vast: interrupted by SIG$sig after" "$T/bg.err"
	check "SIG$sig: the status records it ($(last_error vast))" \
	    eval 'last_error vast | grep -q "^interrupted by SIG$sig after [0-9.]* s; kept the cached offers"'
	check "SIG$sig: the offers are kept" [ "$(offers_sum vast)" = "$vast_before" ]
	run --db "$DB" providers --format csv
	check "SIG$sig: providers shows it" out_has "^vast,.*interrupted by SIG$sig"
done

# Ignored at start (nohup): SIGHUP does not stop it.
asks=$((asks + 1))
GPUCOST_VAST_URL=$stall sh -c 'trap "" HUP; exec "$0" "$@"' "$GPUCOST" \
    --db "$DB" refresh --provider vast --timeout 120 >/dev/null 2>"$T/bg.err" &
pid=$!
check "nohup: the refresh asked" wait_for 30 asked "$asks"
kill -HUP "$pid"
sleep 1
check "nohup: an ignored SIGHUP leaves it running" kill -0 "$pid"
kill -TERM "$pid"
wait "$pid"
check "nohup: SIGTERM still ends it" [ $? -eq 143 ]

# kill -9: nothing can be recorded then, but the mark made at the start
# stays.
asks=$((asks + 1))
GPUCOST_VAST_URL=$stall "$GPUCOST" --db "$DB" refresh --provider vast \
    --timeout 120 >/dev/null 2>"$T/bg.err" &
pid=$!
check "kill -9: the refresh asked" wait_for 30 asked "$asks"
kill -9 "$pid"
wait "$pid" 2>/dev/null
run --db "$DB" providers --format csv
check "kill -9: providers says the last attempt did not finish" out_has "^vast,.*did not finish"
check "kill -9: the offers are kept" [ "$(offers_sum vast)" = "$vast_before" ]

# A dripping server: one byte every 200 ms, which would take hours.
mkdir -p "$T/drip"
cp "$FX/vast/offers.json" "$T/drip/"
echo "POST /api/v0/bundles/ offers.json drip=1/200" > "$T/drip/routes"
serve drip "$T/drip"
start=$(now_s)
GPUCOST_VAST_URL=$url run --db "$DB" refresh --provider vast --deadline 2 --timeout 600
took=$(since "$start")
echo "interrupt.sh: a dripping server, --deadline 2: refresh ended after ${took}s"
check "deadline: exit 4 ($status)" status_is 4
check "deadline: says so" err_has "^gpucost: vast: took longer than its 2 s deadline after"
check "deadline: recorded ($(last_error vast))" eval 'last_error vast | grep -q "took longer than its 2 s deadline"'
check "deadline: the offers are kept" [ "$(offers_sum vast)" = "$vast_before" ]
# Generous: the drip alone would take over an hour.
check "deadline: ended in minutes, not hours (${took}s)" \
    awk -v t="$took" 'BEGIN { exit !(t < 120) }'
run --db "$DB" refresh --deadline 0
check "--deadline 0 is a usage error" status_is 2
finish
