#!/bin/sh
# Generate src/region_table.c from data/countries.tsv and data/regions.tsv
# (usage: gen-region-table.sh COUNTRIES REGIONS OUT). Checks that every
# region names a known country and continent, and that no row repeats.
set -eu
countries=$1
regions=$2
out=$3
tmp=${out}.tmp.$$
trap 'rm -f "$tmp"' EXIT

LC_ALL=C awk -F '\t' '
function cstr(s) {
	gsub(/\\/, "\\\\", s)
	gsub(/"/, "\\\"", s)
	return "\"" s "\""
}
function fail(msg) {
	print FILENAME ":" FNR ": " msg > "/dev/stderr"
	bad = 1
	exit 1
}
BEGIN {
	split("AF AN AS EU NA OC SA", c, " ")
	for (i in c)
		continents[c[i]] = 1
}
/^#/ || /^[ \t]*$/ { next }
FILENAME == COUNTRIES && !cheader {
	if ($0 != "code\tcontinent\tnames")
		fail("unexpected header: " $0)
	cheader = 1
	next
}
FILENAME == COUNTRIES {
	if (NF != 3 || $1 !~ /^[A-Z][A-Z]$/ || !($2 in continents) || $3 == "")
		fail("bad country line")
	if ($1 <= prevcode)
		fail("countries must be sorted by code, once each: " $1)
	prevcode = $1
	country[$1] = $2
	clines[nc++] = sprintf("\t{ %s, %s, %s },", cstr($1), cstr($2), cstr($3))
	next
}
!rheader {
	if ($0 != "provider\tregion\tcountry\tcontinent")
		fail("unexpected header: " $0)
	rheader = 1
	next
}
{
	if (NF < 3 || NF > 4 || $1 !~ /^[a-z0-9][a-z0-9-]*$/ || $2 == "")
		fail("bad region line")
	if ($3 != "" && !($3 in country))
		fail("unknown country " $3)
	cont = NF == 4 && $4 != "" ? $4 : ($3 != "" ? country[$3] : "")
	if (!(cont in continents))
		fail("no continent for " $2)
	k = $1 "\t" tolower($2)
	if (k in seen)
		fail("duplicate region " $1 " " $2)
	seen[k] = 1
	rlines[nr++] = sprintf("\t{ %s, %s, %s, %s },", cstr($1), cstr($2),
	    cstr($3), cstr(cont))
}
END {
	if (bad)
		exit 1
	if (!cheader || !rheader) {
		print "gen-region-table.sh: missing header" > "/dev/stderr"
		exit 1
	}
	print "/* Generated from data/countries.tsv and data/regions.tsv by tools/gen-region-table.sh; do not edit. */"
	print "#include \"config.h\""
	print "#include \"region.h\""
	print ""
	print "const struct region_country region_countries[] = {"
	for (i = 0; i < nc; i++)
		print clines[i]
	print "};"
	print "const size_t region_country_count = " nc ";"
	print ""
	print "const struct region_place region_places[] = {"
	for (i = 0; i < nr; i++)
		print rlines[i]
	print "};"
	print "const size_t region_place_count = " nr ";"
}' COUNTRIES="$countries" "$countries" "$regions" > "$tmp"
mv "$tmp" "$out"
