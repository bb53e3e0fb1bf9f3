#!/bin/sh
# Concurrency: two refreshes started together, and readers (queries in
# table, CSV, TSV and JSON, and `gpucost providers`) running in loops the
# whole time. No reader may ever fail, print "locked" or "busy", or see
# half of a provider's new offers; the second refresh waits for the first
# and then succeeds; with --wait 0 it exits 4 at once with its own
# message. Each refresh writes heavily: Vast answers 20,000 offers (one
# refresh) or its 10 recorded ones (the other), after a delay.
. "$(dirname "$0")/../lib.sh"

command -v sqlite3 >/dev/null 2>&1 || { echo "sqlite3 is needed" >&2; exit 77; }

FX=$TOP_SRCDIR/tests/fixtures
GCP_API_KEY=gcp-test-key
LAMBDA_API_KEY=lambda-test-key
GPUCOST_AWS_REGIONS=us-east-1,us-west-2,eu-west-1
export GCP_API_KEY LAMBDA_API_KEY GPUCOST_AWS_REGIONS
for p in aws gcp runpod runpod-clusters lambda vultr azure oci scaleway linode ovh cloudrift verda akash; do
	serve "$p" "$FX/$p"
	export "$(url_var "$p")=$url"
done

# Vast: the recorded 10 offers, or 20,000 others; each after DELAY ms.
DELAY=1500
mkdir -p "$T/vast"
cp "$FX/vast/offers.json" "$T/vast/old.json"
awk -v n=20000 'BEGIN {
	split("RTX 4090|RTX 3090|L40S|H100 SXM", names, "|")
	split("Oregon, US|Texas, US|Quebec, CA|Bavaria, DE|Tokyo, JP", places, "|")
	printf "{\"offers\": [\n"
	for (i = 1; i <= n; i++)
		printf "{\"id\": %d, \"dph_total\": %.4f, \"min_bid\": %.4f, " \
		    "\"num_gpus\": %d, \"gpu_name\": \"%s\", " \
		    "\"geolocation\": \"%s\", \"rentable\": true}%s\n",
		    8000000 + i, 0.2 + (i % 700) / 100, 0.1 + (i % 300) / 1000,
		    1 + i % 8, names[1 + i % 4], places[1 + i % 5], i < n ? "," : ""
	printf "]}\n"
}' > "$T/vast/new.json"
for v in old new; do
	echo "POST /api/v0/bundles/ $v.json delay=$DELAY" > "$T/vast/routes-$v"
	serve "vast-$v" "$T/vast" "$T/vast/routes-$v"
	eval "vast_$v=\$url"
done

run --db "$DB" providers
GPUCOST_VAST_URL=$vast_new run --db "$DB" refresh
check "first refresh of every provider works" status_is 0
n_new=$(sqlite3 "$DB" "select count(*) from offers where provider = 'vast'")
GPUCOST_VAST_URL=$vast_old run --db "$DB" refresh --provider vast
check "refresh back to the recorded Vast offers works" status_is 0
n_old=$(sqlite3 "$DB" "select count(*) from offers where provider = 'vast'")
check "Vast: $n_new offers new, $n_old old" eval '[ "$n_new" -eq 20000 ] && [ "$n_old" -lt 100 ]'

# reader NAME ARGS...: run `gpucost --db DB ARGS` until $T/stop exists.
# A run fails when it exits other than 0, prints locked/busy, or (for
# NAME vast-tsv) shows neither all old nor all new Vast offers. Writes
# "runs failures" to $T/NAME.count and failed runs to $T/NAME.fail.
reader() {
	name=$1
	shift
	runs=0
	bad=0
	while [ ! -e "$T/stop" ] && [ -d "$T" ]; do
		"$GPUCOST" --db "$DB" "$@" > "$T/$name.out" 2> "$T/$name.err"
		rc=$?
		runs=$((runs + 1))
		why=
		if [ "$rc" -ne 0 ]; then
			why="exit $rc"
		elif grep -qi 'locked\|busy' "$T/$name.err"; then
			why="locked/busy"
		elif [ ! -s "$T/$name.out" ]; then
			why="no output"
		fi
		case $name in
		vast-tsv)
			lines=$(($(wc -l < "$T/$name.out") - 1))
			[ "$lines" -eq "$n_old" ] || [ "$lines" -eq "$n_new" ] ||
			    why="$why $lines Vast offers (neither $n_old nor $n_new)"
			;;
		json)
			if command -v jq >/dev/null 2>&1 &&
			    ! jq -e '.offers | length > 0' "$T/$name.out" >/dev/null 2>&1; then
				why="$why not JSON with offers"
			fi
			;;
		esac
		if [ -n "$why" ]; then
			bad=$((bad + 1))
			{
				echo "run $runs: $why"
				head -c 300 "$T/$name.err"
			} >> "$T/$name.fail"
		fi
	done
	echo "$runs $bad" > "$T/$name.count"
}

READERS="table csv tsv json providers vast-tsv"
start_readers() {
	rm -f "$T/stop"
	reader_pids=
	reader table --gpu H100 &
	reader_pids="$reader_pids $!"
	reader csv --gpu A100 --format csv &
	reader_pids="$reader_pids $!"
	reader tsv --count 8 --format tsv --sort price &
	reader_pids="$reader_pids $!"
	reader json --provider aws,gcp,lambda --format json --limit 50 &
	reader_pids="$reader_pids $!"
	reader providers providers --format csv &
	reader_pids="$reader_pids $!"
	reader vast-tsv --provider vast --format tsv --quiet &
	reader_pids="$reader_pids $!"
}
stop_readers() {
	touch "$T/stop"
	for pid in $reader_pids; do
		wait "$pid"
	done
	total=0
	for r in $READERS; do
		read -r runs bad < "$T/$r.count"
		total=$((total + runs))
		check "$1: reader $r ran ($runs runs)" [ "$runs" -gt 0 ]
		check "$1: reader $r never failed ($bad of $runs; $(head -3 "$T/$r.fail" 2>/dev/null | tr '\n' ' '))" [ "$bad" -eq 0 ]
		printf ' %s %s' "$r" "$runs"
		rm -f "$T/$r.fail"
	done
	echo
	echo "$1: $total reader runs, none failed"
	reader_total=$((reader_total + total))
}

# A background refresh: exit status in $T/NAME.rc, end time in $T/NAME.end,
# process id in $T/NAME.pid.
refresh_bg() {
	name=$1
	shift
	(
		"$GPUCOST" --db "$DB" refresh "$@" > "$T/$name.out" 2> "$T/$name.err" &
		echo $! > "$T/$name.pid"
		wait $!
		echo $? > "$T/$name.rc"
		now_s > "$T/$name.end"
	) &
}

# Whatever happens, stop readers and refreshes still running at the end.
trap 'touch "$T/stop" 2>/dev/null
for p in $reader_pids; do kill "$p" 2>/dev/null; done
for f in "$T"/r*.pid; do [ -f "$f" ] && kill "$(cat "$f")" 2>/dev/null; done
for p in $server_pids; do kill "$p" 2>/dev/null; done
rm -rf "$T"' EXIT
reader_pids=
rc_of() { cat "$T/$1.rc" 2>/dev/null; }

reader_total=0

# 1. Two refreshes at once: one runs, the other waits, then runs.
start_readers
sleep 0.3
rm -f "$T"/r1.* "$T"/r2.*
GPUCOST_VAST_URL=$vast_new refresh_bg r1 --wait 60
GPUCOST_VAST_URL=$vast_old refresh_bg r2 --wait 60
check "both refreshes end" wait_for 60 eval '[ -s "$T/r1.end" ] && [ -s "$T/r2.end" ]'
sleep 0.3
stop_readers "two refreshes"
check "first refresh exit 0 ($(rc_of r1); $(head -c 200 "$T/r1.err"))" [ "$(rc_of r1)" = 0 ]
check "second refresh exit 0 ($(rc_of r2); $(head -c 200 "$T/r2.err"))" [ "$(rc_of r2)" = 0 ]
check "no refresh printed anything" eval '[ ! -s "$T/r1.err" ] && [ ! -s "$T/r2.err" ]'
gap=$(awk -v a="$(cat "$T/r1.end")" -v b="$(cat "$T/r2.end")" \
    'BEGIN { d = a - b; if (d < 0) d = -d; printf "%.2f", d }')
check "they ran one after the other (ends ${gap}s apart, >= $DELAY ms)" \
    awk -v g="$gap" -v d="$DELAY" 'BEGIN { exit !(g * 1000 >= d) }'
check "each Vast answer was asked for once" [ "$(grep -c '^REQ ' "$T/vast-new.log")" -eq 2 ]
check "each Vast answer was asked for once (old)" [ "$(grep -c '^REQ ' "$T/vast-old.log")" -eq 2 ]
n=$(sqlite3 "$DB" "select count(*) from offers where provider = 'vast'")
check "Vast holds the data of the refresh that ran last ($n)" eval '[ "$n" -eq "$n_old" ] || [ "$n" -eq "$n_new" ]'
ic=$(sqlite3 "$DB" 'PRAGMA integrity_check')
check "cache sound ($ic)" [ "$ic" = ok ]

# 2. --wait 0 while a refresh runs: exit 4 at once, its own message.
start_readers
rm -f "$T"/r3.* "$T"/r4.*
reqs=$(grep -c '^REQ ' "$T/vast-new.log")
GPUCOST_VAST_URL=$vast_new refresh_bg r3 --wait 60
# The lock is taken before any request goes out.
check "the first refresh asks Vast" wait_for 30 eval '[ "$(grep -c "^REQ " "$T/vast-new.log")" -gt "$reqs" ]'
start=$(now_s)
GPUCOST_VAST_URL=$vast_old run --db "$DB" refresh --wait 0
took=$(since "$start")
check "--wait 0: exit 4" status_is 4
check "--wait 0: one line" err_lines_are 1
check "--wait 0: says another refresh is running" err_has '^gpucost: refresh: another refresh is running'
# Exit 4 with that message already shows it did not wait for the first to
# end (it would then have run, exit 0); the bound only catches a wait of
# --wait's default 60 s, with margins for a busy machine.
check "--wait 0: gave up at once (${took}s)" awk -v t="$took" 'BEGIN { exit !(t < 30) }'
# --wait 1 while the first still runs (it waits DELAY ms for Vast).
GPUCOST_VAST_URL=$vast_old run --db "$DB" refresh --provider runpod --wait 1
check "--wait 1 while busy: exit 4 or, had the first ended, 0 ($status)" \
    eval '[ "$status" -eq 4 ] || [ "$status" -eq 0 ]'
[ "$status" -eq 4 ] && check "--wait 1: says it waited" err_has 'waited 1 s'
check "the first refresh ends" wait_for 60 eval '[ -s "$T/r3.end" ]'
check "the first refresh was not disturbed ($(rc_of r3))" [ "$(rc_of r3)" = 0 ]
check "the refused refresh asked no provider" [ "$(grep -c '^REQ ' "$T/vast-old.log")" -eq 2 ]
stop_readers "--wait 0"
n=$(sqlite3 "$DB" "select count(*) from offers where provider = 'vast'")
check "Vast holds the new offers ($n)" [ "$n" -eq "$n_new" ]

# 3. And afterwards a refresh runs at once.
GPUCOST_VAST_URL=$vast_old run --db "$DB" refresh --provider vast --wait 0
check "afterwards --wait 0 succeeds" status_is 0

echo "concurrency: $reader_total reader runs in all, none failed"
check "readers ran many times ($reader_total)" [ "$reader_total" -ge 30 ]
finish
