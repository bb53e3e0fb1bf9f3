#!/bin/sh
# Run the CLI integration scripts (tests/cli/*.sh, or those named as
# arguments) with every gpucost run under valgrind: memory errors, and
# definite or indirect leaks. The fixture server and the test tools run
# natively. Fails on any valgrind report; a script's own verdict is shown
# but does not decide (valgrind is 10-50 times slower, and some scripts
# time things).
#
#	make check-valgrind		(a build without --enable-sanitizers)
#	GPUCOST=./gpucost FIXTURE_SERVER=tests/server/fixture_server \
#	    sh tests/valgrind.sh [tests/cli/refresh.sh ...]
#
# VALGRIND_SKIP lists scripts to leave out (default: crash.sh, which
# kills gpucost with SIGKILL at timed moments: nothing for valgrind to
# report, and its timing is meaningless under valgrind).
set -u

: "${GPUCOST:?GPUCOST must name the gpucost binary}"
: "${FIXTURE_SERVER:?FIXTURE_SERVER must name the fixture server}"
: "${TOP_SRCDIR:=$(cd "$(dirname "$0")/.." && pwd)}"
SKIP=${VALGRIND_SKIP-crash.sh}

if ! command -v valgrind >/dev/null 2>&1; then
	echo "valgrind.sh: valgrind is not installed" >&2
	exit 77
fi
case $GPUCOST in /*) ;; *) GPUCOST=$(pwd)/$GPUCOST ;; esac
if nm -D "$GPUCOST" 2>/dev/null | grep -q '__asan_init\|__tsan_init' ||
    grep -q '__asan_init' "$GPUCOST" 2>/dev/null; then
	echo "valgrind.sh: $GPUCOST is a sanitizer build; configure without --enable-sanitizers" >&2
	exit 77
fi

W=$(mktemp -d "${TMPDIR:-/tmp}/gpucost-valgrind.XXXXXX") || exit 99
trap 'rm -rf "$W"' EXIT
mkdir -p "$W/logs"
# The wrapper: exec, so a test that waits for or kills "gpucost" gets
# valgrind. Reports go to one file per process, never to the test's
# stderr, which the scripts check line by line.
cat > "$W/gpucost" <<EOF
#!/bin/sh
exec valgrind -q --error-exitcode=99 --leak-check=full \\
    --errors-for-leak-kinds=definite,indirect \\
    --show-leak-kinds=definite,indirect --track-origins=yes \\
    --log-file="$W/logs/vg.%p.log" "$GPUCOST" "\$@"
EOF
chmod +x "$W/gpucost"

if [ $# -eq 0 ]; then
	set -- "$TOP_SRCDIR"/tests/cli/*.sh
fi

unset COLUMNS GPUCOST_DB XDG_DATA_HOME XDG_CONFIG_HOME NO_COLOR
reports=0
runs=0
for script in "$@"; do
	name=$(basename "$script")
	case " $SKIP " in *" $name "*) echo "SKIP: $name"; continue ;; esac
	rm -f "$W"/logs/*
	start=$(date +%s)
	GPUCOST=$W/gpucost FIXTURE_SERVER=$FIXTURE_SERVER TOP_SRCDIR=$TOP_SRCDIR \
	    sh "$script" > "$W/script.out" 2>&1
	rc=$?
	took=$(($(date +%s) - start))
	n=$(ls "$W"/logs | wc -l)
	runs=$((runs + n))
	# With -q a clean run leaves an empty log; valgrind's own notices
	# about big allocations are not reports.
	bad=0
	for log in "$W"/logs/*; do
		[ -f "$log" ] || continue
		if grep -v -e 'Warning: set address range perms' \
		    -e 'Warning: noted but unhandled ioctl' \
		    -e 'This could cause spurious value errors' \
		    -e 'See README_MISSING_SYSCALL_OR_IOCTL' \
		    -e 'set address range perms: large range' \
		    -e 'Warning: client switching stacks' \
		    -e '^==[0-9]*== *$' "$log" | grep -q .; then
			bad=$((bad + 1))
			echo "--- valgrind report from $name ($(basename "$log")):"
			head -60 "$log"
		fi
	done
	reports=$((reports + bad))
	verdict=passed
	[ "$rc" -eq 0 ] || verdict="failed (exit $rc; see below)"
	[ "$rc" -eq 77 ] && verdict=skipped
	echo "$([ "$bad" -eq 0 ] && echo PASS || echo FAIL): $name: $n gpucost runs under valgrind, $bad with reports, ${took}s; the script itself $verdict"
	if [ "$rc" -ne 0 ] && [ "$rc" -ne 77 ]; then
		grep '^FAIL' "$W/script.out" | head -10 | sed 's/^/    /'
	fi
done
echo "valgrind.sh: $runs gpucost runs, $reports with valgrind reports"
[ "$reports" -eq 0 ]
