#!/bin/sh
# The module rules of DESIGN.md, checked on the sources:
# only http.c includes curl, only src/tui/ includes curses, only db.c
# talks to SQLite, adapters touch neither, and pure modules do no I/O.
set -u
: "${TOP_SRCDIR:=$(cd "$(dirname "$0")/.." && pwd)}"
cd "$TOP_SRCDIR/src" || exit 99
fails=0
checks=0

# only PATTERN ALLOWED-FILES...: PATTERN appears in no other source.
only() {
	pattern=$1
	shift
	checks=$((checks + 1))
	bad=$(grep -l -E "$pattern" $(find . -name '*.[ch]' | sort) |
	    sed 's|^\./||' | while read -r f; do
		ok=0
		for a in "$@"; do
			case "$f" in $a) ok=1 ;; esac
		done
		[ "$ok" -eq 0 ] && echo "$f"
	done)
	if [ -n "$bad" ]; then
		echo "FAIL: '$pattern' outside $*: $bad" >&2
		fails=$((fails + 1))
	fi
}

only '#include <curl/' 'http.c'
only '#include <(n?curses|ncursesw/|term\.h|panel\.h)' 'tui/curses.h'
only '#include "tui/curses\.h"|#include "curses\.h"' 'tui/*'
only '#include <sqlite3\.h>' 'db.c'
only 'sqlite3_' 'db.c'
# Pure modules: no stdio streams, no files, no clocks.
only '\b(fopen|printf|fprintf|fputs|puts|getenv|time\(NULL\))' \
    'cli.c' 'cli_common.c' 'cmd_*.c' 'main.c' 'output*.c' 'paths.c' 'cache.c' 'refresh.c' 'db.c' \
    'xalloc.c' 'http.c' 'settings.c' 'log.c' 'tui/*' 'str.c' 'err.c' \
    'columns.c' 'layout.c' 'snapshot.c' '*.h'
for f in offer.c cost.c gpu.c money.c query.c provider/*.c; do
	[ -f "$f" ] || continue
	checks=$((checks + 1))
	if grep -n -E '\b(fopen|fprintf|printf|puts|getenv|time\(|sqlite3_|curl_)' "$f" >/dev/null; then
		echo "FAIL: $f is meant to be pure (no I/O, env, clock, SQL or curl)" >&2
		fails=$((fails + 1))
	fi
done

echo "check_layering.sh: $((checks - fails)) passed, $fails failed"
[ "$fails" -eq 0 ]
