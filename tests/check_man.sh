#!/bin/sh
# The man page formats cleanly and documents every option and exit code.
set -u
: "${TOP_SRCDIR:=$(cd "$(dirname "$0")/.." && pwd)}"
: "${GPUCOST:?}"
page=$TOP_SRCDIR/man/gpucost.1
fails=0
checks=0
fail() { echo "FAIL: $*" >&2; fails=$((fails + 1)); }

if command -v groff >/dev/null 2>&1; then
	checks=$((checks + 1))
	out=$(groff -mandoc -ww -z "$page" 2>&1)
	[ -z "$out" ] || fail "groff -mandoc -ww -z: $out"
fi
if command -v mandoc >/dev/null 2>&1; then
	checks=$((checks + 1))
	out=$(mandoc -Tlint -W warning "$page" 2>&1)
	[ -z "$out" ] || fail "mandoc -Tlint: $out"
fi

# Every long option in --help is documented.
for opt in $("$GPUCOST" --help | grep -o -e '--[a-z][a-z-]*' | sort -u); do
	checks=$((checks + 1))
	name=${opt#--}
	grep -q -e "^\.It Fl .*-$name\b" -e "^\.It Fl -$name" "$page" ||
	    fail "option $opt is not documented in gpucost.1"
done
# Every exit status is documented.
for code in 0 1 2 3 4; do
	checks=$((checks + 1))
	grep -q "^\.It $code\$" "$page" || fail "exit status $code is not documented"
done
# Every output field is documented.
for field in $("$GPUCOST" --db "${TMPDIR:-/tmp}/gpucost-man-$$.db" --quiet --format csv --limit 1 --hours 1 --train 1B:1B | head -1 | tr -d '\r' | tr ',' ' '); do
	checks=$((checks + 1))
	grep -q -E "^\.It Li ([a-z_]+ , )*$field( ,|$)" "$page" ||
	    fail "output field $field is not documented"
done
rm -f "${TMPDIR:-/tmp}/gpucost-man-$$.db"*

echo "check_man.sh: $((checks - fails)) passed, $fails failed"
[ "$fails" -eq 0 ]
