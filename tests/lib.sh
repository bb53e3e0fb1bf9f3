# tests/lib.sh: helpers for the scripts that run the real gpucost binary.
# Sourced by tests/cli/*.sh. Each script gets a private HOME, cache and
# temp dir; `check` counts failures; `finish` exits 0 or 1.

set -u

: "${GPUCOST:?GPUCOST must name the gpucost binary}"
: "${TOP_SRCDIR:=$(cd "$(dirname "$0")/../.." && pwd)}"

T=$(mktemp -d "${TMPDIR:-/tmp}/gpucost-test.XXXXXX") || exit 99
trap 'rm -rf "$T"' EXIT
HOME=$T/home
mkdir -p "$HOME"
export HOME
unset XDG_DATA_HOME XDG_CONFIG_HOME GPUCOST_DB COLUMNS NO_COLOR
unset GCP_API_KEY LAMBDA_API_KEY RUNPOD_API_KEY VAST_API_KEY VULTR_API_KEY
DB=$T/cache.db
SNAPSHOT=$TOP_SRCDIR/data/snapshot.tsv

failures=0
checks=0

# Run gpucost: stdout in $T/out, stderr in $T/err, exit status in $status.
run() {
	"$GPUCOST" "$@" >"$T/out" 2>"$T/err"
	status=$?
}

# check DESCRIPTION COMMAND...: the command must succeed.
check() {
	desc=$1
	shift
	checks=$((checks + 1))
	if ! "$@"; then
		failures=$((failures + 1))
		echo "FAIL: $desc" >&2
		echo "  stdout: $(head -c 600 "$T/out" 2>/dev/null)" >&2
		echo "  stderr: $(head -c 600 "$T/err" 2>/dev/null)" >&2
	fi
}

status_is() { [ "$status" -eq "$1" ]; }
out_has() { grep -q -- "$1" "$T/out"; }
err_has() { grep -q -- "$1" "$T/err"; }
out_lacks() { ! grep -q -- "$1" "$T/out"; }
err_lines_are() { [ "$(wc -l < "$T/err")" -eq "$1" ]; }

# Field number of NAME in the CSV header of $T/out.
csv_col() {
	head -1 "$T/out" | tr -d '\r' | tr ',' '\n' | grep -n -x -- "$1" | cut -d: -f1
}

finish() {
	echo "$(basename "$0"): $((checks - failures)) passed, $failures failed"
	[ "$failures" -eq 0 ]
	exit $?
}
