#!/bin/sh
# bench/shapes.sh: every query shape of issue 17 on big caches, against
# the cost of starting sqlite3 at all: 100k offers (target <= 3x), 1M
# offers (<= 5x), and the 100k cache again after 30 refreshes with
# moving prices (<= 3x).
#
# Each cache is seeded by gpucost from the snapshot, then bench/driver
# writes N Vast-like offers through db_replace_offers(), as a refresh
# does (statistics, sort keys and status included); `driver history`
# then refreshes them 30 times, a tenth of the prices moving each time.
# Every query is `--limit 20 --format csv -q`, a whole process.
. "$(dirname "$0")/lib.sh"

if ! have sqlite3; then
	echo "bench/shapes.sh: sqlite3 is needed for the baseline; skipped" >&2
	exit 0
fi
if [ -z "${BENCH_DRIVER:-}" ] || [ ! -x "$BENCH_DRIVER" ]; then
	echo "bench/shapes.sh: BENCH_DRIVER (bench/driver) is needed; skipped" >&2
	exit 0
fi
sizes=${BENCH_SHAPES_SIZES:-"100000 1000000"}
[ "$BENCH_QUICK" = 1 ] && sizes=20000
rounds=${BENCH_HISTORY_ROUNDS:-30}
base_cmd=$(cmdline sqlite3 :memory: 'select 1')

# shapes DB LABEL TARGET: one figure per query shape.
shapes() {
	_db=$1 _label=$2 _target=$3
	for _q in "--gpu RTX4090 --count 2" "--count 4 --min-vram 40" \
	    "--interconnect nvlink --count 8" "--provider vast --sort pflop" \
	    "--max-price 0.4"; do
		# shellcheck disable=SC2086
		_cmd=$(cmdline "$GPUCOST" --db "$_db" $_q --limit 20 \
		    --format csv -q)
		check_run "$_cmd" || return 1
		measure_pair $((BENCH_RUNS * 3)) "" "$base_cmd" "$_cmd" ||
		    return 1
		report "$_label $_q" "$median" "sqlite3 :memory: 'select 1'" \
		    "$base" ratio "$_target"
	done
}

for n in $sizes; do
	db=$B/shapes-$n.db
	"$GPUCOST" --db "$db" providers >/dev/null || exit 1
	"$BENCH_DRIVER" make-cache "$db" "$n" > "$B/make.out" || exit 1
	total=$(sqlite3 "$db" 'select count(*) from offers')
	target=3
	[ "$n" -gt 100000 ] && target=5
	label="$((n / 1000))k:"
	[ "$n" -ge 1000000 ] && label="$((n / 1000000))M:"
	shapes "$db" "$label" "$target" || exit 1
	note "shapes: $total offers cached ($n Vast-like + the snapshot); $(cut -d' ' -f2 "$B/make.out") s to write"
	if [ "$n" = "$(echo "$sizes" | cut -d' ' -f1)" ]; then
		"$BENCH_DRIVER" history "$db" "$n" "$rounds" > "$B/hist.out" ||
		    exit 1
		shapes "$db" "$((n / 1000))k+${rounds}r:" 3 || exit 1
		note "history: $(cut -d' ' -f3- "$B/hist.out") in $(cut -d' ' -f2 "$B/hist.out") s; $(sqlite3 "$db" 'select count(*) from price_history') rows in price_history"
	fi
	rm -f "$db" "$db-wal" "$db-shm"
done
