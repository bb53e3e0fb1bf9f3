#!/bin/sh
# Generate src/egress_table.c from data/egress.tsv (usage: gen-egress-table.sh
# IN OUT). Refuses, naming the line, a table a lookup could misread: a wrong
# header or column count, a unit other than GB or GiB, an upto or price that
# is not a number, tiers of one group out of order, a group that does not end
# in a line without upto, a group given twice, or a line without a source.
set -eu
in=$1
out=$2
tmp=${out}.tmp.$$
trap 'rm -f "$tmp"' EXIT

LC_ALL=C awk -F '\t' "$(cat "$(dirname "$0")/table.awk")"'
!header {
	if ($0 != "provider\tregion\tunit\tupto\tusd\tsource\tnote")
		fail("unexpected header: " $0)
	header = 1
	print "/* Generated from egress.tsv by tools/gen-egress-table.sh; do not edit. */"
	print "#include \"config.h\""
	print "#include \"egress.h\""
	print ""
	print "const struct egress_tier egress_tiers[] = {"
	next
}
{
	if (NF != 7)
		fail("expected 7 tab-separated fields, got " NF)
	if ($1 !~ /^[a-z0-9][a-z0-9-]*$/)
		fail("bad provider \"" $1 "\"")
	if ($2 == "")
		fail("empty region pattern")
	if ($3 != "GB" && $3 != "GiB")
		fail("unit \"" $3 "\" is neither GB nor GiB")
	if ($4 != "" && ($4 !~ /^[0-9]+$/ || $4 + 0 < 1))
		fail("bad upto \"" $4 "\" (a whole number above 0, or empty)")
	if ($5 != "" && $5 !~ /^[0-9]+(\.[0-9]+)?$/)
		fail("bad usd \"" $5 "\" (a decimal number, or empty)")
	if ($6 == "")
		fail("no source")
	k = $1 "\t" $2
	if (k != group) {
		if (group != "" && open)
			fail("the group before ends with an upto: its last line has none")
		if (k in seen)
			fail("repeats " $1 " " $2 " of line " seen[k])
		seen[k] = FNR
		group = k
		last = 0
	} else if (!open)
		fail("a tier after the line without upto")
	else if ($3 != unit)
		fail("a group in two units")
	unit = $3
	open = $4 != ""
	if (open && $4 + 0 <= last)
		fail("upto " $4 " not above the tier before (" last ")")
	if (open)
		last = $4 + 0
	printf "\t{ %s, %s, %s, %s, %s, %s, %s },\n", cstr($1), cstr($2),
	    $3 == "GiB" ? "true" : "false", $4 == "" ? "0" : $4,
	    $5 == "" ? "-1" : $5, cstr($6), cstr($7)
	n++
}
END {
	if (bad)
		exit 1
	if (!header)
		fail("no header")
	if (open)
		fail("the last group ends with an upto: its last line has none")
	print "};"
	print "const size_t egress_tier_count = " n ";"
}
' "$in" > "$tmp"
mv "$tmp" "$out"
