#!/bin/sh
# bench/vast.sh: `gpucost refresh --provider vast` of 20,000 offers in
# Vast's real response shape (all 83 fields of an offer, ~2 kB each as
# bench/gen_vast.awk writes them), cache write included (target < 3 s).
# Baseline, same run: curl fetching the same response (the transfer).
. "$(dirname "$0")/lib.sh"

if ! have curl; then
	echo "bench/vast.sh: curl is needed for the baseline; skipped" >&2
	exit 0
fi
n=${BENCH_VAST_OFFERS:-20000}
[ "$BENCH_QUICK" = 1 ] && n=2000
d=$B/vast
mkdir -p "$d"
awk -v n="$n" -f "$BENCH_DIR/gen_vast.awk" > "$d/offers.json"
printf 'POST /api/v0/bundles/  offers.json  body~=rentable\n' > "$d/routes"
serve vast "$d" "$d/routes"
GPUCOST_VAST_URL=$url
export GPUCOST_VAST_URL

seeded_cache "$B/seed.db"
prep="cp '$B/seed.db' '$B/run.db' && rm -f '$B/run.db-wal' '$B/run.db-shm'"
refresh=$(cmdline "$GPUCOST" --db "$B/run.db" refresh --provider vast)
bcmd=$(cmdline curl -s -o /dev/null -X POST -d '{"rentable":{"eq":true}}' \
    "$url/api/v0/bundles/")
sh -c "$prep"
check_run "$refresh" || exit 1
measure_pair "$BENCH_RUNS" "$prep" "$bcmd" "$refresh" || exit 1
report "vast: refresh $n offers" "$median" "curl the same response" "$base" \
    secs 3
sh -c "$prep"
peak_rss "$GPUCOST" --db "$B/run.db" refresh --provider vast
note "vast: $(wc -c < "$d/offers.json") bytes of JSON; peak RSS $((rss_kb / 1024)) MB (the body and its cJSON tree are held whole)"
