#!/bin/sh
# First use: the cache is created at the XDG location (or --db /
# GPUCOST_DB) and seeded from the embedded snapshot exactly once.
. "$(dirname "$0")/../lib.sh"

# Offers per provider in the shipped snapshot.
snap_count() {
	awk -F'\t' -v p="$1" '!/^#/ && $1 == p { n++ } END { print n + 0 }' "$SNAPSHOT"
}

run --gpu A100-80 --count 4
check "fresh HOME: query succeeds" status_is 0
check "default cache under ~/.local/share" [ -s "$HOME/.local/share/gpucost/gpucost.db" ]

XDG_DATA_HOME=$T/xdg
export XDG_DATA_HOME
run --gpu L4 --quiet
check "XDG_DATA_HOME: query succeeds" status_is 0
check "XDG_DATA_HOME: cache there" [ -s "$T/xdg/gpucost/gpucost.db" ]
check "--quiet: no data-age line" [ ! -s "$T/err" ]
unset XDG_DATA_HOME

GPUCOST_DB=$T/env.db
export GPUCOST_DB
run providers
check "GPUCOST_DB: providers succeeds" status_is 0
check "GPUCOST_DB: cache there" [ -s "$T/env.db" ]
unset GPUCOST_DB

# --db before and after the command word.
run --db "$DB" providers
check "--db before the command" status_is 0
run providers --db "$T/after.db"
check "--db after the command" status_is 0
check "--db after the command: cache there" [ -s "$T/after.db" ]

# Every provider is seeded with all its snapshot offers.
run --db "$DB" providers --format csv
check "providers csv" status_is 0
for p in aws gcp runpod vast lambda vultr azure oci scaleway; do
	want=$(snap_count "$p")
	got=$(tr -d '\r' < "$T/out" | awk -F, -v p="$p" '$1 == p { print $4 }')
	check "$p: $want offers seeded (got $got)" [ "$got" = "$want" ]
	# Scaleway has no dated published price list (data/README.md).
	case $p in
	scaleway) check "$p: no offers in the snapshot" [ "$want" -eq 0 ] ;;
	*) check "$p: has offers in the snapshot" [ "$want" -gt 0 ] ;;
	esac
done
check "all sources are snapshot" [ "$(tr -d '\r' < "$T/out" | awk -F, 'NR > 1 { print $3 }' | sort -u)" = snapshot ]
total=$(awk -F'\t' '!/^#/ && $1 != "provider" { n++ } END { print n }' "$SNAPSHOT")
check "snapshot has at least 500 offers ($total)" [ "$total" -ge 500 ]

# Seeding happens once: a second run adds no history.
if command -v sqlite3 >/dev/null 2>&1; then
	h1=$(sqlite3 "$DB" 'select count(*) from price_history')
	run --db "$DB" --gpu H100 --quiet
	h2=$(sqlite3 "$DB" 'select count(*) from price_history')
	check "history seeded with every offer ($h1 rows)" [ "$h1" -eq "$total" ]
	check "history seeded once ($h1 -> $h2 rows)" [ "$h1" = "$h2" ]
	check "cache is in WAL mode" [ "$(sqlite3 "$DB" 'pragma journal_mode')" = wal ]
	check "prices are integer micro-USD" [ "$(sqlite3 "$DB" "select typeof(price) from offers where price is not null group by 1")" = integer ]
else
	echo "sqlite3 not installed: skipping the history checks" >&2
fi

# An upgrade: offers still from another build's snapshot (another
# version, or none kept: a cache seeded before the version was) are
# replaced by this build's; offers a refresh brought are not.
if command -v sqlite3 >/dev/null 2>&1; then
	want_version=$(sqlite3 "$DB" "select value from provider_meta where provider = 'aws' and name = 'snapshot'")
	check "seeding keeps the snapshot's version ($want_version)" \
	    [ "$want_version" = "$(cksum < "$SNAPSHOT" | awk '{ print $1 "-" $2 }')" ]
	aws_key=$(sqlite3 "$DB" "select key from offers where provider = 'aws' and price is not null order by key limit 1")
	aws_price=$(sqlite3 "$DB" "select price from offers where provider = 'aws' and key = '$aws_key'")
	gone_key=$(sqlite3 "$DB" "select key from offers where provider = 'aws' order by key desc limit 1")
	gcp_key=$(sqlite3 "$DB" "select key from offers where provider = 'gcp' and price is not null order by key limit 1")
	lambda_key=$(sqlite3 "$DB" "select key from offers where provider = 'lambda' and price is not null order by key limit 1")
	lambda_price=$(sqlite3 "$DB" "select price from offers where provider = 'lambda' and key = '$lambda_key'")
	sqlite3 "$DB" "update provider_meta set value = '1-2' where provider = 'aws' and name = 'snapshot';
	    update offers set price = 1, row_hash = NULL where provider = 'aws' and key = '$aws_key';
	    delete from offers where provider = 'aws' and key = '$gone_key';
	    delete from provider_meta where provider = 'lambda' and name = 'snapshot';
	    update offers set price = 2, row_hash = NULL where provider = 'lambda' and key = '$lambda_key';
	    update provider_status set source = 'live' where provider = 'gcp';
	    delete from provider_meta where provider = 'gcp' and name = 'snapshot';
	    update offers set price = 3, row_hash = NULL where provider = 'gcp' and key = '$gcp_key'"
	run --db "$DB" --gpu H100 --quiet
	check "another build's snapshot: query succeeds" status_is 0
	check "another build's snapshot: its price replaced" \
	    [ "$(sqlite3 "$DB" "select price from offers where provider = 'aws' and key = '$aws_key'")" = "$aws_price" ]
	check "another build's snapshot: an offer it lacked is back" \
	    [ "$(sqlite3 "$DB" "select count(*) from offers where provider = 'aws' and key = '$gone_key'")" = 1 ]
	check "another build's snapshot: this build's version kept" \
	    [ "$(sqlite3 "$DB" "select value from provider_meta where provider = 'aws' and name = 'snapshot'")" = "$want_version" ]
	check "a snapshot without a version: reseeded" \
	    [ "$(sqlite3 "$DB" "select price from offers where provider = 'lambda' and key = '$lambda_key'")" = "$lambda_price" ]
	check "offers a refresh brought: left alone" \
	    [ "$(sqlite3 "$DB" "select price from offers where provider = 'gcp' and key = '$gcp_key'")" = 3 ]
	h3=$(sqlite3 "$DB" 'select count(*) from price_history')
	run --db "$DB" --gpu H100 --quiet
	check "reseeded once ($h3 -> $(sqlite3 "$DB" 'select count(*) from price_history') history rows)" \
	    [ "$h3" = "$(sqlite3 "$DB" 'select count(*) from price_history')" ]
fi

# Human output says how old the data is.
run --db "$DB" --gpu H100 --count 8 --provider aws
check "data age line names the provider and the snapshot" err_has 'data age: aws [0-9]*d.*snapshot'

run --db "$DB" providers
check "providers table lists all nine" [ "$(grep -c -E '^(aws|gcp|runpod|vast|lambda|vultr|azure|oci|scaleway) ' "$T/out")" -eq 9 ]
check "providers table does not list retired Cudo" [ "$(grep -c '^cudo ' "$T/out")" -eq 0 ]
check "providers table shows the EUR rate and its source" out_has '^EUR prices are converted at 1.0389 USD per EUR (default: ECB'
GPUCOST_USD_PER_EUR=1.5 run --db "$DB" providers
check "providers: GPUCOST_USD_PER_EUR shown" out_has 'converted at 1.50 USD per EUR (GPUCOST_USD_PER_EUR)'
for bad in 0 -1 NaN abc; do
	GPUCOST_USD_PER_EUR=$bad run --db "$DB" providers
	check "providers: GPUCOST_USD_PER_EUR=$bad is a usage error" status_is 2
	check "providers: GPUCOST_USD_PER_EUR=$bad named" err_has "^gpucost: GPUCOST_USD_PER_EUR: "
done
# Azure's 8x H100 sizes are in the snapshot: they show next to the others.
run --db "$DB" --gpu H100 --count 8 --format csv --quiet
check "snapshot: azure 8x H100 (ND96isr_H100_v5) among the others" out_has '^azure,Standard_ND96isr_H100_v5,'
run --db "$DB" providers --format json
check "providers json" out_has '"provider": "vultr"'

finish
