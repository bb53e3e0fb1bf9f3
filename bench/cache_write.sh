#!/bin/sh
# bench/cache_write.sh: replace the 100,000 offers of one provider in the
# cache, 1 % of them with a new price (so 1,000 history rows), in one
# transaction (target < 1 s). Timed inside bench/driver around
# db_replace_offers() after a first load of the same offers. Baseline,
# same run: the same 100,000 rows inserted by one prepared statement in
# one transaction into an empty table shaped like offers, the least any
# write of them costs.
. "$(dirname "$0")/lib.sh"

if [ -z "${BENCH_DRIVER:-}" ] || [ ! -x "$BENCH_DRIVER" ]; then
	echo "bench/cache_write.sh: BENCH_DRIVER (bench/driver) not built; skipped" >&2
	exit 0
fi
n=${BENCH_WRITE_OFFERS:-100000}
"$BENCH_DRIVER" cache-write "$B/write.db" "$n" "$BENCH_RUNS" > "$B/write.out" ||
    exit 1
awk '$1 == "write" { print $2 }' "$B/write.out" > "$B/write.times"
awk '$1 == "floor" { print $2 }' "$B/write.out" > "$B/floor.times"
hist=$(awk '$1 == "write" { print $5; exit }' "$B/write.out")
report "cache write: replace 100k, 1% changed" "$(median_of "$B/write.times")" \
    "same rows into an empty table" "$(median_of "$B/floor.times")" secs 1
note "cache write: $n offers, $hist history rows appended per replace"
