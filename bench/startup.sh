#!/bin/sh
# bench/startup.sh: `gpucost --version` against `true` (target <= 2x):
# the cost of starting the program at all, dynamic loading included.
. "$(dirname "$0")/lib.sh"

runs=$((BENCH_RUNS * 10))
check_run "$(cmdline "$GPUCOST" --version)" || exit 1
measure_pair "$runs" "" "$(cmdline "$TRUE_BIN")" \
    "$(cmdline "$GPUCOST" --version)" || exit 1
report "startup: gpucost --version" "$median" "true" "$base" ratio 2
