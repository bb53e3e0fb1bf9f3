#!/bin/sh
# bench/query.sh: a query of a 100k-offer cache against the cost of
# starting sqlite3 at all (target <= 3x).
#
# The cache is built the way users get one: the first run seeds it from
# the snapshot, then `gpucost refresh` fetches 100,000 Vast offers from
# the fixture server (a generated response with only the fields the
# adapter reads, so it stays under the adapter's 64 MB body cap). The
# query then runs on that warm, already-seeded cache.
. "$(dirname "$0")/lib.sh"

if ! have sqlite3; then
	echo "bench/query.sh: sqlite3 is needed for the baseline; skipped" >&2
	exit 0
fi
n=${BENCH_QUERY_OFFERS:-100000}
mkdir -p "$B/vast"
awk -v n="$n" -v lean=1 -f "$BENCH_DIR/gen_vast.awk" > "$B/vast/offers.json"
printf 'POST /api/v0/bundles/  offers.json  body~=rentable\n' > "$B/vast/routes"
serve vast "$B/vast" "$B/vast/routes"
db=$B/query.db
GPUCOST_VAST_URL=$url "$GPUCOST" --db "$db" refresh --provider vast || exit 1
total=$(sqlite3 "$db" 'select count(*) from offers')

q=$(cmdline "$GPUCOST" --db "$db" --gpu RTX4090 --count 2 --limit 20 \
    --format csv)
check_run "$q" || exit 1
matched=$(sed -n 's/.* of \([0-9]*\) offers.*/\1/p' "$B/last.err")
measure_pair $((BENCH_RUNS * 3)) "" "$(cmdline sqlite3 :memory: 'select 1')" \
    "$q" || exit 1
report "query: 100k cache, RTX4090 x2, 20 rows" "$median" \
    "sqlite3 :memory: 'select 1'" "$base" ratio 3
note "query: $total offers cached ($n Vast + the snapshot), ${matched:-?} match, 20 printed as CSV"
