#!/bin/sh
# Generate src/gpu_table.c from data/gpus.tsv (usage: gen-gpu-table.sh IN OUT).
# The normalisation here must equal gpu_normalise() in src/gpu.c; the unit
# test test_gpu checks every alias against it.
set -eu
in=$1
out=$2
tmp=${out}.tmp.$$
trap 'rm -f "$tmp" "$tmp.aliases"' EXIT

LC_ALL=C awk -F '\t' "$(cat "$(dirname "$0")/table.awk")"'
BEGIN { n = 0 }
function norm(s,   t, changed) {
	t = tolower(s)
	gsub(/[^a-z0-9]/, "", t)
	changed = 1
	while (changed) {
		changed = 0
		if (t ~ /^(nvidia|amd|tesla|geforce|radeon|quadro)./) {
			sub(/^(nvidia|amd|tesla|geforce|radeon|quadro)/, "", t)
			changed = 1
		}
	}
	if (t ~ /[0-9]gb$/)
		sub(/gb$/, "", t)
	return t
}
function num(s) { return s == "" ? "0" : s }
!header_seen {
	if ($0 != "id\tfamily\tvendor\tvram_gb\tarch\tbf16_tflops\tbf16_tflops_pcie\taliases\tform") {
		print FILENAME ": unexpected header: " $0 > "/dev/stderr"
		exit 1
	}
	header_seen = 1
	next
}
{
	if (NF != 9 || $1 == "" || $2 == "" || $4 !~ /^[0-9]+$/ ||
	    $9 !~ /^(sxm|pcie|bridge|)$/) {
		print FILENAME ":" NR ": bad catalogue line" > "/dev/stderr"
		exit 1
	}
	if ($1 in seen) {
		print FILENAME ":" NR ": duplicate id " $1 > "/dev/stderr"
		exit 1
	}
	seen[$1] = n
	models[n] = sprintf("\t{ %s, %s, %s, %s, %d, %s, %s,\n\t    %s, %s },", \
	    cstr($1), cstr($2), cstr($3), cstr($5), $4, num($6), num($7), cstr($8), \
	    cstr($9))
	print norm($1) "\t" (n + 0) > ALIASES
	k = split($8, a, "|")
	for (i = 1; i <= k; i++)
		if (a[i] != "")
			print norm(a[i]) "\t" (n + 0) > ALIASES
	n++
}
END {
	if (!header_seen)
		exit 1
	print "/* Generated from data/gpus.tsv by tools/gen-gpu-table.sh; do not edit. */"
	print "#include \"config.h\""
	print "#include \"gpu.h\""
	print ""
	print "const struct gpu_model gpu_models[] = {"
	for (i = 0; i < n; i++)
		print models[i]
	print "};"
	print "const size_t gpu_model_count = " n ";"
}' ALIASES="$tmp.aliases" "$in" > "$tmp"

# Sorted, de-duplicated alias index; one spelling may name only one model.
LC_ALL=C sort -u "$tmp.aliases" | LC_ALL=C awk -F '\t' '
$1 == prev && $2 != prevm {
	print "gpus.tsv: alias \"" $1 "\" names two models" > "/dev/stderr"
	bad = 1
}
$1 != prev { lines[n++] = "\t{ \"" $1 "\", " $2 " }," }
{ prev = $1; prevm = $2 }
END {
	if (bad)
		exit 1
	print ""
	print "const struct gpu_alias gpu_aliases[] = {"
	for (i = 0; i < n; i++)
		print lines[i]
	print "};"
	print "const size_t gpu_alias_count = " n ";"
}' >> "$tmp"
mv "$tmp" "$out"
