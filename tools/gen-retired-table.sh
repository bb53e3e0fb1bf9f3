#!/bin/sh
# Generate src/retired_table.c from data/retired.tsv (usage:
# gen-retired-table.sh RETIRED OUT). Checks the header, the number of
# fields, the date's form and that no (provider, instance_type) repeats.
set -eu
in=$1
out=$2
tmp=${out}.tmp.$$
trap 'rm -f "$tmp"' EXIT

LC_ALL=C awk -F '\t' "$(cat "$(dirname "$0")/table.awk")"'
!header {
	if ($0 != "provider\tinstance_type\tretired\tsource")
		fail("unexpected header: " $0)
	header = 1
	print "/* Generated from retired.tsv by tools/gen-retired-table.sh; do not edit. */"
	print "#include \"config.h\""
	print "#include \"rentable.h\""
	print ""
	print "const struct retired retired_table[] = {"
	next
}
{
	if (NF != 4 || $1 !~ /^[a-z0-9]+$/ || $2 == "" || $4 == "" ||
	    $3 !~ /^[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]$/)
		fail("bad line (provider, instance_type or *, YYYY-MM-DD, source)")
	if (($1 SUBSEP tolower($2)) in seen)
		fail("repeated: " $1 " " $2)
	seen[$1, tolower($2)] = 1
	printf "\t{ %s, %s, %s, %s },\n", cstr($1), cstr($2), cstr($3), cstr($4)
	n++
}
END {
	if (bad)
		exit 1
	if (!header)
		fail("no header")
	print "};"
	print "const size_t retired_count = " n ";"
}
' "$in" > "$tmp"
mv "$tmp" "$out"
