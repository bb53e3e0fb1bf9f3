#!/bin/sh
# Generate src/region_table.c from data/countries.tsv, data/regions.tsv and
# data/any_region.tsv (usage: gen-region-table.sh COUNTRIES REGIONS ANY OUT).
# Checks that every region names a known country and continent, that no row
# repeats, and that every region an "all" offer can be started in has a place
# (a row of REGIONS), its provider's rows together.
set -eu
countries=$1
regions=$2
anyregions=$3
out=$4
tmp=${out}.tmp.$$
trap 'rm -f "$tmp"' EXIT

LC_ALL=C awk -F '\t' "$(cat "$(dirname "$0")/table.awk")"'
BEGIN {
	split("AF AN AS EU NA OC SA", c, " ")
	for (i in c)
		continents[c[i]] = 1
}
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
FILENAME == ANY && !aheader {
	if ($0 != "provider\tregion")
		fail("unexpected header: " $0)
	aheader = 1
	next
}
FILENAME == ANY {
	if (NF != 2 || $1 !~ /^[a-z0-9][a-z0-9-]*$/ || $2 == "" || $2 ~ /[*]/)
		fail("bad line")
	k = $1 "\t" tolower($2)
	if (!(k in seen))
		fail("no place in regions.tsv for " $1 " " $2)
	if (k in aseen)
		fail("duplicate region " $1 " " $2)
	if ($1 != aprev && ($1 in aprov))
		fail("keep the rows of " $1 " together")
	aseen[k] = 1
	aprov[$1] = 1
	aprev = $1
	alines[na++] = sprintf("\t{ %s, %s },", cstr($1), cstr($2))
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
	if (!cheader || !rheader || !aheader) {
		print "gen-region-table.sh: missing header" > "/dev/stderr"
		exit 1
	}
	print "/* Generated from data/countries.tsv, data/regions.tsv and data/any_region.tsv by tools/gen-region-table.sh; do not edit. */"
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
	print ""
	print "const struct region_any region_any_places[] = {"
	for (i = 0; i < na; i++)
		print alines[i]
	print "};"
	print "const size_t region_any_count = " na ";"
}' COUNTRIES="$countries" ANY="$anyregions" "$countries" "$regions" \
    "$anyregions" > "$tmp"
mv "$tmp" "$out"
