#!/bin/sh
# bench/parallel.sh: `gpucost refresh` of three providers (Vast, RunPod,
# Lambda: one request each) whose fixture servers answer every request
# after 2 s (target: all three in < 4 s). Baseline, same run: a refresh
# of Vast alone with the same 2 s delay, the floor of any of them.
. "$(dirname "$0")/lib.sh"

delay=2000
for p in vast runpod lambda; do
	d=$B/$p
	mkdir -p "$d"
	cp "$TOP_SRCDIR/tests/fixtures/$p"/* "$d/"
	awk -v delay="$delay" '/^[ \t]*#/ || NF < 3 { print; next }
	    { print $0, "delay=" delay }' \
	    "$TOP_SRCDIR/tests/fixtures/$p/routes" > "$d/routes"
	serve "$p" "$d" "$d/routes"
	eval "GPUCOST_$(echo "$p" | tr '[:lower:]' '[:upper:]')_URL=\$url"
done
export GPUCOST_VAST_URL GPUCOST_RUNPOD_URL GPUCOST_LAMBDA_URL
RUNPOD_API_KEY=bench-key
LAMBDA_API_KEY=bench-key
export RUNPOD_API_KEY LAMBDA_API_KEY

seeded_cache "$B/run.db"
three=$(cmdline "$GPUCOST" --db "$B/run.db" refresh --provider \
    vast,runpod,lambda)
one=$(cmdline "$GPUCOST" --db "$B/run.db" refresh --provider vast)
check_run "$three" || exit 1
runs=$((BENCH_RUNS / 2))
[ "$runs" -lt 3 ] && runs=3
measure_pair "$runs" "" "$one" "$three" || exit 1
report "parallel: 3 providers, each 2 s late" "$median" \
    "one provider, 2 s late" "$base" secs 4
