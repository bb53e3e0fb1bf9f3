#!/bin/sh
# Turn a text file into a C string (usage: embed-text.sh IN OUT SYMBOL).
set -eu
in=$1
out=$2
sym=$3
tmp=${out}.tmp.$$
trap 'rm -f "$tmp"' EXIT
{
	echo "/* Generated from $(basename "$in") by tools/embed-text.sh; do not edit. */"
	echo '#include "config.h"'
	echo '#include <stddef.h>'
	echo ""
	echo "extern const char ${sym}[];"
	echo "extern const size_t ${sym}_len;"
	echo "const char ${sym}[] ="
	LC_ALL=C awk '{
		gsub(/\\/, "\\\\")
		gsub(/"/, "\\\"")
		gsub(/\t/, "\\t")
		print "\t\"" $0 "\\n\""
	}' "$in"
	printf '\t"";\n'
	echo "const size_t ${sym}_len = sizeof ${sym} - 1;"
} > "$tmp"
mv "$tmp" "$out"
