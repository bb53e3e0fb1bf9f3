#!/bin/sh
# The module rules of DESIGN.md, checked on the sources:
# only http.c includes curl, only src/tui/ includes curses, only the
# cache files (db.c, db_*.c, db_internal.h) talk to SQLite or hold SQL,
# adapters touch neither (nor the transport, http.h:
# they describe requests with request.h), refresh.c names no provider,
# pure modules do no I/O, the TUI does not include cli.h, and the
# output modules and the cache's files call down only (levels).
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

only '#include *[<"]curl/' 'http.c'
only '\bcurl_[a-z_]+ *\(' 'http.c'
only '#include <(n?curses|ncursesw/|term\.h|panel\.h)' 'tui/curses.h'
only '#include "tui/curses\.h"|#include "curses\.h"' 'tui/*'
only '#include <sqlite3\.h>' 'db.c' 'db_*.c' 'db_internal.h'
only 'sqlite3_' 'db.c' 'db_*.c' 'db_internal.h'
only '#include "db_internal\.h"' 'db.c' 'db_*.c'
# SQL itself (a string literal holding a statement's keyword) is the
# cache files' alone: the rest of gpucost asks them through db.h.
only '"[^"]*\b(SELECT|INSERT (OR [A-Z]+ )?INTO|UPDATE [a-z_.]+ SET|DELETE FROM|CREATE (TEMP |UNIQUE )?(TABLE|INDEX|VIEW|TRIGGER)|DROP (TABLE|INDEX)|ALTER TABLE|PRAGMA|ATTACH|DETACH|VACUUM|BEGIN (IMMEDIATE|EXCLUSIVE|DEFERRED|TRANSACTION))\b' \
    'db.c' 'db_*.c' 'db_internal.h'
only '#include <zlib\.h>' 'gz.c'
only '#include <sodium\.h>' 'sign.c'
# Pure modules: no stdio streams, no files, no clocks. A call of printf,
# not the word: launch.c writes shell commands that run printf(1).
only '\b(fopen|printf ?\(|fprintf|fputs|puts|getenv|time\(NULL\))' \
    'cli.c' 'cli_common.c' 'cli_refresh.c' 'cmd_*.c' 'main.c' 'output*.c' 'paths.c' 'cache.c' 'refresh.c' 'db.c' 'db_*.c' \
    'xalloc.c' 'http.c' 'settings.c' 'log.c' 'tui/*' 'str.c' 'err.c' \
    'columns.c' 'layout.c' 'snapshot.c' 'answer.c' 'mcp_offers.c' '*.h'
for f in offer.c cost.c gpu.c money.c query.c provider/*.c; do
	[ -f "$f" ] || continue
	checks=$((checks + 1))
	if grep -n -E '\b(fopen|fprintf|printf|puts|getenv|time\(|sqlite3_|curl_)' "$f" >/dev/null; then
		echo "FAIL: $f is meant to be pure (no I/O, env, clock, SQL or curl)" >&2
		fails=$((fails + 1))
	fi
done

# Adapters and the toolkit they use are bytes in, offers out: no
# transport, no cache, no streams. (snprintf from stdio.h is fine.)
for f in provider.c provider/*.c; do
	[ -f "$f" ] || continue
	checks=$((checks + 1))
	if hit=$(grep -n -E \
	    -e '#include *"(http|db|cache|refresh|settings|paths)\.h"' \
	    -e '#include *[<"](curl/|sqlite3\.h|n?curses)' \
	    -e '\b(FILE|stdin|stdout|stderr)\b' \
	    -e '\b(fopen|fdopen|fread|fwrite|fgets|fputs|fputc|putchar)\(' \
	    -e '\b(open|read|write|getenv|dlopen)\(' \
	    "$f"); then
		echo "FAIL: $f is an adapter: no http.h, cache, curl, SQLite" \
		    "or I/O: $hit" >&2
		fails=$((fails + 1))
	fi
done

# The faces are separate: the TUI takes a filter (struct tui_options in
# tui/tui.h), never the command line's parsed options, so no file of
# src/tui/ includes cli.h (cmd_tui.c builds the options from them).
for f in tui/*.[ch]; do
	[ -f "$f" ] || continue
	checks=$((checks + 1))
	if hit=$(grep -n -E '#include *[<"](\.\./)?cli\.h[">]' "$f"); then
		echo "FAIL: $f is the TUI: it takes struct tui_options," \
		    "not cli.h: $hit" >&2
		fails=$((fails + 1))
	fi
done

# refresh.c runs every provider the same way: provider-specific steps
# are hooks in struct provider (provider.h), never a test of the id.
checks=$((checks + 1))
ids=$(sed -n 's/^[[:space:]]*\.id = "\([a-z0-9_-]*\)",.*/\1/p' provider/*.c)
if [ -z "$ids" ]; then
	echo "FAIL: no provider ids found in src/provider/*.c" >&2
	fails=$((fails + 1))
fi
for id in $ids; do
	if hit=$(grep -n "\"$id\"" refresh.c); then
		echo "FAIL: refresh.c names provider \"$id\": $hit" >&2
		fails=$((fails + 1))
		break
	fi
done

# The output modules call down, never up or across: format dispatch
# (output.c) and the listings (output_summary.c over output_records.c)
# call the writers, the writers (output_delim.c, output_json.c,
# output_table.c) call the fields (output_fields.c), which call the
# table's cells (columns.c), which call layout.c. A level is a line of
# "levels" below, highest first; nothing a file defines for others (a
# function or table not static) is named in the code of a file of its
# own level or one below it (comments and strings aside).

# The names FILE defines for other files.
exported() {
	awk '
	/^[a-z][A-Za-z0-9_]*\(/ && prev !~ /^static/ {
		sub(/\(.*/, ""); print
	}
	/^(const |struct |enum |unsigned |int |long |char |size_t |bool |double )[^=(;]*=/ {
		line = $0
		sub(/(\[[^]]*\])* *=.*/, "", line)
		sub(/.*[^A-Za-z0-9_]/, "", line)
		print line
	}
	{ prev = $0 }' "$1" | sort -u
}

# FILE without comments, strings and characters: the names it uses.
code_of() {
	awk -v sq="'" '
	{
		line = $0
		out = ""
		while (line != "") {
			if (incomment) {
				if (!(e = index(line, "*/")))
					break
				line = substr(line, e + 2)
				incomment = 0
				continue
			}
			if (!match(line, "/[*]|//|\"|" sq)) {
				out = out line
				break
			}
			out = out substr(line, 1, RSTART - 1) " "
			tok = substr(line, RSTART, RLENGTH)
			line = substr(line, RSTART + RLENGTH)
			if (tok == "/*")
				incomment = 1
			else if (tok == "//")
				line = ""
			else if (match(line, "^([^" tok "\\\\]|\\\\.)*" tok))
				line = substr(line, RLENGTH + 1)
			else
				line = ""
		}
		print out
	}' "$1"
}

# call_down NAME LEVELS: the files of LEVELS (a line a level, highest
# first) call down only: each file against every file of its level and
# below.
call_down() {
	what=$1
	levels=$2
	rank=0
	for upper_level in $(echo "$levels" | tr ' ' ','); do
		rank=$((rank + 1))
		for upper in $(echo "$upper_level" | tr ',' ' '); do
			[ -f "$upper" ] || continue
			checks=$((checks + 1))
			names=$(exported "$upper")
			below=$(echo "$levels" | sed -n "$rank,\$p")
			hits=$(for lower in $below; do
				[ "$lower" != "$upper" ] && [ -f "$lower" ] ||
				    continue
				code=$(code_of "$lower")
				for name in $names; do
					if echo "$code" | grep -q -w -- "$name"; then
						echo "$lower uses $name"
					fi
				done
			done)
			if [ -n "$hits" ]; then
				echo "FAIL: $what call down only, but of" \
				    "$upper:" $hits >&2
				fails=$((fails + 1))
			fi
		done
	done
}

call_down "the output modules" 'output_summary.c
output.c output_records.c
output_delim.c output_json.c output_table.c
output_fields.c
columns.c
layout.c'

# The cache's files call one way, as a list (so no two call each other,
# as db_offers.c and db_summary.c once did). A db file missing from the
# list fails: place it.
DB_ORDER="db_share.c db_offers.c db_query.c db_fold.c db_summary.c db_sort_keys.c
    db_filter.c db_rows.c db_committed.c db_history.c db_settings.c
    db_health.c db_complete.c db.c db_limits.c"
for f in db.c db_*.c; do
	checks=$((checks + 1))
	case " $(echo $DB_ORDER) " in
	*" $f "*) ;;
	*)	echo "FAIL: $f is not in check_layering.sh's DB_ORDER" >&2
		fails=$((fails + 1)) ;;
	esac
done
call_down "the cache's files" "$(echo $DB_ORDER | tr ' ' '\n')"

echo "check_layering.sh: $((checks - fails)) passed, $fails failed"
[ "$fails" -eq 0 ]
