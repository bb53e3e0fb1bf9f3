#!/bin/sh
# bench/run.sh: every benchmark of bench/, one after the other (make
# bench). Prints the machine, each figure against its baseline and
# target, and a summary; exits 1 if a script failed (a missed target
# is reported, not an error). Environment: see bench/lib.sh.
set -u
: "${GPUCOST:?GPUCOST must name the gpucost binary}"
: "${TOP_SRCDIR:=$(cd "$(dirname "$0")/.." && pwd)}"
export GPUCOST TOP_SRCDIR
dir=$TOP_SRCDIR/bench
log=$(mktemp "${TMPDIR:-/tmp}/gpucost-bench-log.XXXXXX") || exit 1
trap 'rm -f "$log"' EXIT
BENCH_LOG=$log
export BENCH_LOG

cpu=$(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo 2>/dev/null)
mem=$(awk '/^MemTotal/ { printf "%.1f GB", $2 / 1048576 }' /proc/meminfo 2>/dev/null)
echo "gpucost benchmarks: $("$GPUCOST" --version)"
echo "machine: $(uname -sm), $(nproc 2>/dev/null || echo '?') CPUs (${cpu:-?}), ${mem:-? GB} RAM"
echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)"
if command -v hyperfine >/dev/null 2>&1 && [ "${BENCH_NO_HYPERFINE:-0}" != 1 ]; then
	echo "timing: $(hyperfine --version), medians of ${BENCH_RUNS:-10} runs per figure unless noted"
else
	echo "timing: date +%s%N loops, medians of ${BENCH_RUNS:-10} runs per figure unless noted"
fi
echo
printf '%-40s %9s | %-36s %9s | %7s | %s\n' "figure" "gpucost" \
    "baseline (same run)" "baseline" "ratio" "target"
failed=
for s in ${BENCH_SCRIPTS:-startup query shapes aws vast parallel cache_write tui}; do
	sh "$dir/$s.sh" || failed="$failed $s"
done
echo
echo "load average at end: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)"
met=$(grep -c ' met$' "$log")
missed=$(grep -c ' MISSED$' "$log")
echo "targets: $met met, $missed missed${failed:+; failed:$failed}"
[ -z "$failed" ]
