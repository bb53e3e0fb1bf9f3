# bench/lib.sh: helpers sourced by the bench/*.sh scripts.
#
# Each script measures one figure of the performance targets (README,
# "Performance") as a median over several runs, next to a baseline
# measured in the same run, and prints one line per figure through
# report(). The runs of the figure and of its baseline alternate in
# blocks, so a machine that gets busier halfway hurts both alike.
#
# Environment (make bench sets the first four):
#   GPUCOST          the gpucost binary (required)
#   FIXTURE_SERVER   tests/server/fixture_server (for the refresh figures)
#   BENCH_DRIVER     bench/driver (cache write and TUI figures)
#   BENCH_GEN_AWS    bench/gen_aws; built here with $CC when unset
#   BENCH_RUNS       runs per figure (default 10)
#   BENCH_QUICK=1    3 runs, no 1 GB price list, smaller data sets
#   BENCH_NO_HYPERFINE=1  time with the date loop below
#   BENCH_LOG        also append each report line to this file
#   TMPDIR           where generated data goes (deleted on exit)
#
# Timing uses hyperfine when it is installed (it forks and times the
# program itself), else date +%s%N around each run (or around a batch
# of runs of a short command) minus the measured cost of two date
# calls; BENCH_NO_HYPERFINE=1 forces that fallback. Peak RSS comes from
# GNU time (/usr/bin/time -f %M) or, without it, from polling VmHWM in
# /proc/PID/status.

set -u

: "${GPUCOST:?GPUCOST must name the gpucost binary}"
: "${TOP_SRCDIR:=$(cd "$(dirname "$0")/.." && pwd)}"
BENCH_DIR=$TOP_SRCDIR/bench
BENCH_RUNS=${BENCH_RUNS:-10}
BENCH_QUICK=${BENCH_QUICK:-0}
[ "$BENCH_QUICK" = 1 ] && BENCH_RUNS=3

B=$(mktemp -d "${TMPDIR:-/tmp}/gpucost-bench.XXXXXX") || exit 1
HOME=$B/home
mkdir -p "$HOME"
export HOME
unset XDG_DATA_HOME XDG_CONFIG_HOME GPUCOST_DB COLUMNS NO_COLOR
unset GCP_API_KEY LAMBDA_API_KEY RUNPOD_API_KEY VAST_API_KEY VULTR_API_KEY
unset GPUCOST_AWS_URL GPUCOST_GCP_URL GPUCOST_LAMBDA_URL GPUCOST_RUNPOD_URL
unset GPUCOST_VAST_URL GPUCOST_VULTR_URL GPUCOST_AWS_REGIONS
LC_ALL=C
export LC_ALL

server_pids=
bench_cleanup() {
	for p in $server_pids; do
		kill "$p" 2>/dev/null
	done
	rm -rf "$B"
}
trap bench_cleanup EXIT
trap 'exit 1' INT TERM HUP

have() { command -v "$1" >/dev/null 2>&1; }

# An external `true`: the shell's builtin would cost nothing to start.
TRUE_BIN=/bin/true
[ -x "$TRUE_BIN" ] || TRUE_BIN=/usr/bin/true

# ---------------------------------------------------------------------
# Timing
# ---------------------------------------------------------------------

# shquote ARG: ARG quoted for a shell (and for hyperfine -N).
shquote() {
	printf "'%s'" "$(printf '%s' "$1" | sed "s/'/'\\\\''/g")"
}

# The median of the numbers in file $1 (one per line).
median_of() {
	sort -g "$1" | awk '{ v[NR] = $1 } END {
		if (NR == 0) { print "nan"; exit }
		if (NR % 2) print v[(NR + 1) / 2]
		else printf "%.9f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

now_ns() { date +%s%N; }

# Nanoseconds two date calls add around a run (the fallback's floor).
date_floor=
calibrate_date() {
	[ -n "$date_floor" ] && return
	: > "$B/cal"
	_i=0
	while [ "$_i" -lt 20 ]; do
		_t0=$(now_ns)
		_t1=$(now_ns)
		echo $((_t1 - _t0)) >> "$B/cal"
		_i=$((_i + 1))
	done
	date_floor=$(median_of "$B/cal" | awk '{ printf "%d", $1 }')
}

# time_block N PREPARE OUT CMDLINE: run CMDLINE (words, quoted as for a
# shell; no pipes: use sh -c '...') N times, after PREPARE each time (a
# command line for sh -c, or ""), appending the seconds to file OUT.
time_block() {
	_n=$1 _prep=$2 _out=$3 _cmd=$4
	if have hyperfine && [ "${BENCH_NO_HYPERFINE:-0}" != 1 ]; then
		if [ -n "$_prep" ]; then
			hyperfine -N --style none --warmup 1 --runs "$_n" \
			    --export-json "$B/h.json" --prepare \
			    "sh -c $(shquote "$_prep")" -- "$_cmd" \
			    >/dev/null 2>"$B/h.err"
		else
			hyperfine -N --style none --warmup 1 --runs "$_n" \
			    --export-json "$B/h.json" -- "$_cmd" \
			    >/dev/null 2>"$B/h.err"
		fi || { cat "$B/h.err" >&2; return 1; }
		awk '/"times"/ { on = 1; next } on && /\]/ { on = 0 }
		    on { gsub(/[ ,]/, ""); print }' "$B/h.json" >> "$_out"
		return 0
	fi
	calibrate_date
	eval "set -- $_cmd"
	# Short commands run k times per sample, so that the two date
	# calls (a few ms) are small against what they time.
	_k=1
	if [ -z "$_prep" ]; then
		for _x in 1 2 3; do
			_t0=$(now_ns)
			"$@" >/dev/null 2>&1
			_t1=$(now_ns)
			_j=$((200000000 / (_t1 - _t0 + 1)))
			[ "$_j" -gt "$_k" ] && _k=$_j
		done
		[ "$_k" -gt 20 ] && _k=20
	fi
	_i=0
	while [ "$_i" -lt "$_n" ]; do
		[ -n "$_prep" ] && sh -c "$_prep"
		_j=0
		_t0=$(now_ns)
		while [ "$_j" -lt "$_k" ]; do
			"$@" >/dev/null 2>&1
			_j=$((_j + 1))
		done
		_t1=$(now_ns)
		awk -v d=$((_t1 - _t0 - date_floor)) -v k="$_k" \
		    'BEGIN { printf "%.9f\n", (d < 0 ? 0 : d) / k / 1e9 }' \
		    >> "$_out"
		_i=$((_i + 1))
	done
}

# cmdline WORD...: the words as one command line for time_block.
cmdline() {
	_c=
	for _a in "$@"; do
		_c="$_c${_c:+ }$(shquote "$_a")"
	done
	printf '%s\n' "$_c"
}

# check_run CMDLINE: it must succeed once (output in $B/last.out, .err).
check_run() {
	eval "set -- $1"
	if ! "$@" >"$B/last.out" 2>"$B/last.err"; then
		echo "bench: this command failed: $*" >&2
		head -c 1000 "$B/last.err" >&2
		return 1
	fi
}

# measure_pair RUNS PREPARE BASELINE CMD: medians in seconds of RUNS runs
# of command line CMD ($median) and of command line BASELINE ($base),
# in alternating blocks. PREPARE runs before each run of CMD only.
measure_pair() {
	_mp_runs=$1 _mp_prep=$2 _mp_bcmd=$3 _mp_acmd=$4
	: > "$B/a.times"
	: > "$B/b.times"
	_mp_blocks=3
	[ "$_mp_runs" -lt 3 ] && _mp_blocks=1
	_mp_per=$(((_mp_runs + _mp_blocks - 1) / _mp_blocks))
	_mp_blk=0
	while [ "$_mp_blk" -lt "$_mp_blocks" ]; do
		time_block "$_mp_per" "" "$B/b.times" "$_mp_bcmd" || return 1
		time_block "$_mp_per" "$_mp_prep" "$B/a.times" "$_mp_acmd" ||
		    return 1
		_mp_blk=$((_mp_blk + 1))
	done
	median=$(median_of "$B/a.times")
	base=$(median_of "$B/b.times")
}

# measure RUNS PREPARE CMD: $median in seconds of RUNS runs of CMD.
measure() {
	: > "$B/a.times"
	time_block "$1" "$2" "$B/a.times" "$3" || return 1
	median=$(median_of "$B/a.times")
}

# ---------------------------------------------------------------------
# Memory
# ---------------------------------------------------------------------

# peak_rss CMD...: run CMD once; $rss_kb is its peak resident set (KB).
peak_rss() {
	rss_kb=
	if /usr/bin/time -f %M -o "$B/rss" true >/dev/null 2>&1; then
		/usr/bin/time -f %M -o "$B/rss" "$@" >/dev/null 2>"$B/rss.err"
		rss_status=$?
		rss_kb=$(tail -1 "$B/rss")
		return 0
	fi
	"$@" >/dev/null 2>"$B/rss.err" &
	_pid=$!
	while kill -0 "$_pid" 2>/dev/null; do
		_v=$(awk '/^VmHWM:/ { print $2 }' "/proc/$_pid/status" \
		    2>/dev/null)
		[ -n "$_v" ] && rss_kb=$_v
		sleep 0.02
	done
	wait "$_pid"
	rss_status=$?
}

# ---------------------------------------------------------------------
# The fixture server and data
# ---------------------------------------------------------------------

# serve NAME DIR ROUTES: start a fixture server; $url is its origin.
serve() {
	: "${FIXTURE_SERVER:?FIXTURE_SERVER must name tests/server/fixture_server}"
	rm -f "$B/$1.port"
	"$FIXTURE_SERVER" --dir "$2" --routes "$3" --port-file "$B/$1.port" \
	    --idle-timeout 600 2>>"$B/$1.stderr" &
	server_pids="$server_pids $!"
	_i=0
	while [ ! -s "$B/$1.port" ]; do
		_i=$((_i + 1))
		if [ "$_i" -gt 200 ]; then
			echo "bench: fixture server $1 did not start" >&2
			cat "$B/$1.stderr" >&2
			exit 1
		fi
		sleep 0.05
	done
	url=http://127.0.0.1:$(cat "$B/$1.port")
}

# gen_aws_bin: $gen_aws names a built bench/gen_aws.
gen_aws_bin() {
	gen_aws=${BENCH_GEN_AWS:-}
	if [ -z "$gen_aws" ] || [ ! -x "$gen_aws" ]; then
		gen_aws=$B/gen_aws
		${CC:-cc} -O2 -o "$gen_aws" "$BENCH_DIR/gen_aws.c" || exit 1
	fi
}

# seeded_cache FILE: a cache seeded from the snapshot (all six
# providers), as every user's first run leaves it.
seeded_cache() {
	"$GPUCOST" --db "$1" providers >/dev/null || exit 1
}

# ---------------------------------------------------------------------
# Reporting
# ---------------------------------------------------------------------

# human SECONDS: "812 us", "12.3 ms", "1.24 s".
human() {
	awk -v t="$1" 'BEGIN {
		if (t < 0.001) printf "%.0f us", t * 1e6
		else if (t < 0.1) printf "%.1f ms", t * 1e3
		else if (t < 1) printf "%.0f ms", t * 1e3
		else printf "%.2f s", t }'
}

# report WHAT VALUE BASE-WHAT BASE KIND TARGET: one figure.
#   KIND ratio: met when VALUE / BASE <= TARGET (both seconds)
#   KIND secs:  met when VALUE < TARGET seconds
#   KIND kb:    met when VALUE <= TARGET KB (VALUE and BASE in KB)
#   KIND kbratio: met when VALUE / BASE <= TARGET (both KB)
report() {
	_what=$1 _value=$2 _bwhat=$3 _bvalue=$4 _kind=$5 _target=$6
	_ratio=$(awk -v a="$_value" -v b="$_bvalue" \
	    'BEGIN { if (b > 0) printf "%.2fx", a / b; else print "-" }')
	case $_kind in
	ratio)
		_v=$(human "$_value") _bv=$(human "$_bvalue") _t="<= ${_target}x"
		_ok=$(awk -v a="$_value" -v b="$_bvalue" -v t="$_target" \
		    'BEGIN { print (b > 0 && a / b <= t) ? "met" : "MISSED" }')
		;;
	secs)
		_v=$(human "$_value") _bv=$(human "$_bvalue")
		_t="< $(human "$_target")"
		_ok=$(awk -v a="$_value" -v t="$_target" \
		    'BEGIN { print (a < t) ? "met" : "MISSED" }')
		;;
	kb|kbratio)
		_v=$(awk -v k="$_value" 'BEGIN { printf "%.1f MB", k / 1024 }')
		_bv=$(awk -v k="$_bvalue" 'BEGIN { printf "%.1f MB", k / 1024 }')
		if [ "$_kind" = kb ]; then
			_t="<= $(awk -v k="$_target" \
			    'BEGIN { printf "%.0f MB", k / 1024 }')"
			_ok=$(awk -v a="$_value" -v t="$_target" \
			    'BEGIN { print (a <= t) ? "met" : "MISSED" }')
		else
			_t="<= ${_target}x"
			_ok=$(awk -v a="$_value" -v b="$_bvalue" -v t="$_target" \
			    'BEGIN { print (b > 0 && a / b <= t) ? "met" : "MISSED" }')
		fi
		;;
	esac
	_line=$(printf '%-40s %9s | %-36s %9s | %7s | %-9s %s' "$_what" "$_v" \
	    "$_bwhat" "$_bv" "$_ratio" "$_t" "$_ok")
	printf '%s\n' "$_line"
	[ -n "${BENCH_LOG:-}" ] && printf '%s\n' "$_line" >> "$BENCH_LOG"
	return 0
}

# note TEXT: a line of context under the figures.
note() {
	printf '  %s\n' "$*"
	[ -n "${BENCH_LOG:-}" ] && printf '  %s\n' "$*" >> "$BENCH_LOG"
	return 0
}
