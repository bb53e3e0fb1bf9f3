#!/bin/sh
# Turn a text file into a C string (usage: embed-text.sh IN OUT SYMBOL),
# with SYMBOL_version: the text's POSIX cksum (CRC and length), which
# tells one build's text from another's (cache.c reseeds a cache whose
# snapshot rows came from another build).
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
	echo "extern const char ${sym}_version[];"
	echo "const char ${sym}[] ="
	LC_ALL=C awk '{
		gsub(/\\/, "\\\\")
		gsub(/"/, "\\\"")
		gsub(/\t/, "\\t")
		print "\t\"" $0 "\\n\""
	}' "$in"
	printf '\t"";\n'
	echo "const size_t ${sym}_len = sizeof ${sym} - 1;"
	echo "const char ${sym}_version[] = \"$(LC_ALL=C cksum < "$in" | awk '{ print $1 "-" $2 }')\";"
} > "$tmp"
mv "$tmp" "$out"
