#!/bin/sh
# --version: the version, then each provider's snapshot date and source
# from the snapshot built in (its "# source" lines), every provider of
# the registry named; `providers` shows the same date and source.
. "$(dirname "$0")/../lib.sh"

run --version
check "--version exits 0" status_is 0
check "--version: the version first" [ "$(head -1 "$T/out")" = "gpucost $(sed -n 's/^AC_INIT(\[gpucost\], \[\([^]]*\)\].*/\1/p' "$TOP_SRCDIR/configure.ac")" ]
check "--version needs no cache" [ ! -e "$HOME/.local" ]
grep '^# source ' "$SNAPSHOT" > "$T/sources"
check "the snapshot names its sources" [ -s "$T/sources" ]
while read -r hash word provider date what; do
	check "--version: $provider $date" grep -Eq "^  $provider +$date  " "$T/out"
done < "$T/sources"
for p in $("$GPUCOST" __complete providers); do
	check "--version names provider $p" grep -Eq "^  $p " "$T/out"
	grep -q "^# source $p " "$T/sources" ||
	    check "--version: $p has no snapshot rows" grep -Eq "^  $p +- +no snapshot rows" "$T/out"
done
run version
check "'gpucost version' is the same" grep -q '^  aws ' "$T/out"

run --db "$DB" providers --format csv
check "providers exits 0" status_is 0
check "providers: snapshot_date and snapshot_source last" \
    [ "$(head -1 "$T/out" | tr -d '\r' | awk -F, '{ print $(NF-1) "," $NF }')" = snapshot_date,snapshot_source ]
while read -r hash word provider date what; do
	check "providers: $provider's snapshot date $date" grep -q "^$provider,.*,$date," "$T/out"
done < "$T/sources"
run --db "$DB" providers --format json
check "providers json: aws snapshot_source" sh -c "jq -e '.providers[] | select(.provider == \"aws\") | .snapshot_source | test(\"catalog\")' '$T/out' >/dev/null"

finish
