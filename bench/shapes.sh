#!/bin/sh
# bench/shapes.sh: every query option of `gpucost --help` as a query
# shape on big caches, each against the cost of starting sqlite3 at all
# in the same run: 100k offers (target <= 3x), 1M offers (<= 5x), and
# the 100k cache again after 30 refreshes with moving prices (<= 3x).
# bench/README.md lists which shape covers which option.
#
# Each cache is seeded by gpucost from the snapshot, then bench/driver
# writes N Vast-like offers and N/10 cloud offers cloned from the
# snapshot through db_replace_offers(), as a refresh does (statistics,
# sort keys and status included); `driver history` then refreshes the
# Vast offers 30 times, a tenth of the prices moving each time. Every
# query is `--limit 20 --format csv -q`, a whole process. The figures
# are printed as one table at the end (shape by cache); with BENCH_LOG
# set, each also goes there as a report line (run.sh counts them).
#
# BENCH_SHAPES (a file, one shape a line) replaces the list below.
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

# The shapes, one a line: the words after `gpucost` (quoted as for a
# shell), before `--limit 20 --format csv -q`. The first five are
# issue 17's; `history` and `watch` lines name their command.
if [ -n "${BENCH_SHAPES:-}" ]; then
	cp "$BENCH_SHAPES" "$B/shapes.txt" || exit 1
else
	cat > "$B/shapes.txt" <<'EOF'
--gpu RTX4090 --count 2
--count 4 --min-vram 40
--interconnect nvlink --count 8
--provider vast --sort pflop
--max-price 0.4
--region europe
--region de --count 2
--region 'us-*' --gpu H100
--match 'rtx 4090'
--vertex --gpu H100
--gpu 'H100 SXM' --count 8
--spot --gpu A100-80
--min-vcpu-per-gpu 8 --min-ram-per-gpu 64
--no-outliers --sort pflop
--available --count 4
--multi-node --count 16 --min-vram 40
--nodes 2
--fabric any --multi-node --count 16
--fabric infiniband --min-node-gbps 400 --multi-node --count 16
--group-by gpu
--group-by continent --gpu H100
--include-stale
--term 1y
--sort spot-gpu-price
--sort price
--sort vram --reverse
--sort age
--gpu H100 --all-regions --hours 100
history --gpu RTX4090 --count 2
history --provider vast --gpu H100 --since 2d
watch --gpu H100
watch --list
EOF
fi

# A watch shape runs as a cron job finds its watch: knowing the first
# BENCH_WATCH_KNOWN matches (reported by earlier runs), restored before
# each run. Left to grow, the state gained the 20 offers of each timed
# run, so the figure measured a watch of as many offers as the timing
# loop made runs (hundreds to thousands, by the machine's speed).
watch_known=${BENCH_WATCH_KNOWN:-1000}

# watch_state DB WORDS...: the watch of WORDS (`watch` and its query
# options) made to know its first $watch_known matches, saved; $_prep
# restores it.
watch_state() {
	_wdb=$1
	shift
	"$GPUCOST" --db "$_wdb" "$@" --forget -q >/dev/null 2>&1
	"$GPUCOST" --db "$_wdb" "$@" --limit "$watch_known" --format csv \
	    -q >/dev/null || return 1
	sqlite3 "$_wdb" "DROP TABLE IF EXISTS bench_watch;
	    CREATE TABLE bench_watch AS SELECT * FROM watch;" || return 1
	_prep="sqlite3 $(shquote "$_wdb") 'DELETE FROM watch;
	    INSERT INTO watch SELECT * FROM bench_watch;'"
}

# shapes DB COLUMN TARGET: one figure per shape, into $B/results
# ("COLUMN<TAB>LINE<TAB>MEDIAN<TAB>BASE").
shapes() {
	_db=$1 _col=$2 _target=$3 _sl=0
	while IFS= read -r _q; do
		_sl=$((_sl + 1))
		[ -z "$_q" ] && continue
		eval "set -- $_q"
		_prep=
		if [ "$1" = watch ] && [ "${2:-}" != --list ]; then
			watch_state "$_db" "$@" || return 1
		fi
		_cmd=$(cmdline "$GPUCOST" --db "$_db" "$@" --limit 20 \
		    --format csv -q)
		# A shape that selects nothing measures nothing: say so.
		[ -n "$_prep" ] && sh -c "$_prep"
		if ! check_run "$_cmd" || [ ! -s "$B/last.out" ]; then
			echo "bench/shapes.sh: '$_q' on $_col gave no rows" >&2
			return 1
		fi
		measure_pair $((BENCH_RUNS * 3)) "$_prep" "$base_cmd" "$_cmd" ||
		    return 1
		printf '%s\t%s\t%s\t%s\n' "$_col" "$_sl" "$median" "$base" \
		    >> "$B/results"
		report "$_col: $_q" "$median" "sqlite3 :memory: 'select 1'" \
		    "$base" ratio "$_target" > /dev/null
	done < "$B/shapes.txt"
}

: > "$B/results"
: > "$B/columns"
for n in $sizes; do
	db=$B/shapes-$n.db
	"$GPUCOST" --db "$db" providers >/dev/null || exit 1
	"$BENCH_DRIVER" make-cache "$db" "$n" > "$B/make.out" || exit 1
	total=$(sqlite3 "$db" 'select count(*) from offers')
	target=3
	[ "$n" -gt 100000 ] && target=5
	col="$((n / 1000))k"
	[ "$n" -ge 1000000 ] && col="$((n / 1000000))M"
	printf '%s\t%s\n' "$col" "$target" >> "$B/columns"
	# Two other watches stored, so that `watch --list` lists some.
	# The `watch` shape's own first run stores it; what its --limit
	# cuts stays news, so each later run reports 20 offers again.
	"$GPUCOST" --db "$db" watch --gpu A100-80 -q >/dev/null 2>&1
	"$GPUCOST" --db "$db" watch --gpu RTX4090 --count 8 -q >/dev/null 2>&1
	shapes "$db" "$col" "$target" || exit 1
	note "shapes $col: $total offers cached ($(cut -d' ' -f3- "$B/make.out") + the snapshot); $(cut -d' ' -f2 "$B/make.out") s to write the Vast ones"
	if [ "$n" = "$(echo "$sizes" | cut -d' ' -f1)" ]; then
		"$BENCH_DRIVER" history "$db" "$n" "$rounds" > "$B/hist.out" ||
		    exit 1
		col="${col}+${rounds}r"
		printf '%s\t%s\n' "$col" 3 >> "$B/columns"
		shapes "$db" "$col" 3 || exit 1
		note "history: $(cut -d' ' -f3- "$B/hist.out") in $(cut -d' ' -f2 "$B/hist.out") s; $(sqlite3 "$db" 'select count(*) from price_history') rows in price_history"
	fi
	rm -f "$db" "$db-wal" "$db-shm"
done

# The table: a row per shape, per cache its median and its ratio to the
# floor measured beside it (marked ! where it misses the target).
awk -F'\t' -v shapes="$B/shapes.txt" -v cols="$B/columns" '
function human(t) {
	if (t < 0.001) return sprintf("%.0f us", t * 1e6)
	if (t < 0.1) return sprintf("%.1f ms", t * 1e3)
	if (t < 1) return sprintf("%.0f ms", t * 1e3)
	return sprintf("%.2f s", t)
}
BEGIN {
	while ((getline l < shapes) > 0)
		shape[++nshapes] = l
	while ((getline l < cols) > 0) {
		split(l, f, "\t")
		col[++ncols] = f[1]
		target[f[1]] = f[2]
	}
}
{ med[$1, $2] = $3; base[$1, $2] = $4; floor_sum[$1] += $4; floor_n[$1]++ }
END {
	printf "| shape |"
	for (c = 1; c <= ncols; c++)
		printf " %s | x floor |", col[c]
	printf "\n| --- |"
	for (c = 1; c <= ncols; c++)
		printf " ---: | ---: |"
	printf "\n"
	for (s = 1; s <= nshapes; s++) {
		if (shape[s] == "")
			continue
		printf "| `%s` |", shape[s]
		for (c = 1; c <= ncols; c++) {
			k = col[c] SUBSEP s
			if (!(k in med) || base[k] <= 0) {
				printf " - | - |"
				continue
			}
			r = med[k] / base[k]
			printf " %s | %.2f%s |", human(med[k]), r,
			    r <= target[col[c]] ? "" : " !"
		}
		printf "\n"
	}
	printf "| floor: `sqlite3 :memory: '\''select 1'\''` (mean) |"
	for (c = 1; c <= ncols; c++)
		printf " %s | <= %dx |", floor_n[col[c]] ? \
		    human(floor_sum[col[c]] / floor_n[col[c]]) : "-", \
		    target[col[c]]
	printf "\n"
}' "$B/results" > "$B/table"
if awk '$1 == "watch" && $2 != "--list" { f = 1 } END { exit !f }' \
    "$B/shapes.txt"; then
	printf '\n`watch` shapes: the watch knows its first %s matches at each run (restored before it).\n' \
	    "$watch_known" >> "$B/table"
fi
cat "$B/table"
[ -n "${BENCH_LOG:-}" ] && cat "$B/table" >> "$BENCH_LOG"
exit 0
