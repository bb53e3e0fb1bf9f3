#!/bin/sh
# Providers that stay true (issue 28, and issue 22's "failing for 7
# days"): a refresh that parses no GPU offer from a 200 answer fails and
# keeps the old offers; every refresh's outcome is recorded, so
# `providers` shows each provider's health and the endpoint of its last
# success, and an answer that uses the rows of a provider failing for 7
# days, or whose last refresh found half its usual offers or fewer, says
# so under the table.
. "$(dirname "$0")/../lib.sh"

command -v sqlite3 >/dev/null 2>&1 || { echo "sqlite3 is needed" >&2; exit 77; }

FX=$TOP_SRCDIR/tests/fixtures
NEW="linode ovh cloudrift"
DAY=86400

# A copy of each new provider's fixtures, served; a variant replaces one
# file of the copy.
for p in $NEW; do
	mkdir -p "$T/work/$p"
	cp "$FX/$p"/* "$T/work/$p/"
	serve "$p" "$T/work/$p"
	eval "url_$p=\$url"
	export "$(url_var "$p")=$url"
done
good() { cp "$FX/$1/$2" "$T/work/$1/$2"; }
# field PROVIDER COLUMN: a field of `providers --format tsv` (the notes
# hold commas). Leaves $T/out and $T/err alone.
field() {
	"$GPUCOST" --db "$DB" providers --format tsv > "$T/prov.tsv" 2>/dev/null
	col=$(head -1 "$T/prov.tsv" | tr -d '\r' | tr '\t' '\n' | grep -n "^$2\$" | cut -d: -f1)
	tr -d '\r' < "$T/prov.tsv" | grep "^$1	" | cut -f"$col"
}

run --db "$DB" providers
run --db "$DB" refresh --provider linode,ovh,cloudrift
check "good refresh of the three: exit 0" status_is 0
for p in $NEW; do
	eval "u=\$url_$p"
	check "$p: healthy after one success ($(field "$p" health))" [ "$(field "$p" health)" = ok ]
	check "$p: the endpoint of its last success is the local server" [ "$(field "$p" endpoint)" = "$u" ]
	check "$p: one outcome recorded" [ "$(sqlite3 "$DB" "select count(*) || ' ' || sum(ok) from refresh_outcome where provider = '$p'")" = "1 1" ]
done
check "linode: the outcome holds the offers stored" [ "$(sqlite3 "$DB" "select offers from refresh_outcome where provider = 'linode'")" -eq 15 ]

# ---------------------------------------------------------------------
# A 200 answer with no GPU offer in it is a failure: old offers kept.
# ---------------------------------------------------------------------
cat > "$T/work/linode/types.json" <<'JSON'
{"data": [{"id": "g6-nanode-1", "label": "Nanode 1GB", "class": "nanode", "gpus": 0,
  "vcpus": 1, "memory": 1024, "price": {"hourly": 0.0075, "monthly": 5.0}}],
 "page": 1, "pages": 1, "results": 1}
JSON
cat > "$T/work/ovh/catalog-fr.json" <<'JSON'
{"catalogId": 1214, "locale": {"currencyCode": "EUR", "subsidiary": "FR", "taxRate": 20},
 "plans": [], "addons": [{"planCode": "b3-8.consumption", "invoiceName": "b3-8",
  "pricings": [{"intervalUnit": "hour", "price": 5080000}],
  "configurations": [{"name": "region", "values": ["GRA9"]}],
  "blobs": {"commercial": {"brick": "general-purpose"}, "technical": {"cpu": {"cores": 8}}}}]}
JSON
cat > "$T/work/cloudrift/instance-types.json" <<'JSON'
{"version": "2025-01-29", "data": {"instance_types": []}}
JSON
for p in $NEW; do eval "before_$p=\$(offers_sum $p)"; done
run --db "$DB" refresh --provider linode,ovh,cloudrift
check "empty 200s: exit 4" status_is 4
check "empty 200s: one line per provider" err_lines_are 3
for p in $NEW; do
	eval "b=\$before_$p"
	check "empty 200, $p: the line says no GPU offers" err_has "^gpucost: $p: no GPU offers in the response; keeping the cached offers"
	check "empty 200, $p: offers unchanged" [ "$(offers_sum "$p")" = "$b" ]
	check "empty 200, $p: the status records the error" [ -n "$(field "$p" last_error)" ]
	check "empty 200, $p: a failed outcome recorded" [ "$(sqlite3 "$DB" "select ok from refresh_outcome where provider = '$p' order by at desc, rowid desc limit 1")" = 0 ]
	# Not failing yet, but never "ok" beside an error (issue 45).
	check "empty 200, $p: one failure is failed, not failing ($(field "$p" health))" [ "$(field "$p" health)" = failed ]
	check "empty 200, $p: the note says so" [ "$(field "$p" health_note)" = "its last refresh failed (1 try since its last success)" ]
done

# ---------------------------------------------------------------------
# Failing for 7 days: the same outcomes, moved 8 days back.
# ---------------------------------------------------------------------
sqlite3 "$DB" "update refresh_outcome set at = at - 8 * $DAY where provider = 'ovh'"
check "ovh: failing in providers" [ "$(field ovh health)" = failing ]
check "ovh: the note says for how long" [ "$(field ovh health_note)" = "every refresh has failed for 8 days (1 try)" ]
check "linode: not failing (its failure is today), failed" [ "$(field linode health)" = failed ]
run --db "$DB" providers
check "providers table: a line says ovh is failing" grep -q '^ovh is failing: every refresh has failed for 8 days (1 try); last error: .*\.$' "$T/out"
run --db "$DB" --provider ovh --gpu H100
check "an answer with ovh rows: exit 0" status_is 0
check "its footer says ovh is failing" err_has "^gpucost: ovh is failing: every refresh has failed for 8 days (1 try); its rows are from its last success, "
run --db "$DB" --provider linode,cloudrift
check "an answer without ovh rows: no word of it" [ "$(grep -c 'ovh' "$T/err")" -eq 0 ]
run --db "$DB" --provider ovh --gpu H100 --quiet
check "--quiet: no footer" [ ! -s "$T/err" ]
good linode types.json
good ovh catalog-fr.json
good cloudrift instance-types.json
run --db "$DB" refresh --provider ovh
check "ovh good again: exit 0" status_is 0
check "ovh: healthy again" [ "$(field ovh health)" = ok ]
run --db "$DB" --provider ovh --gpu H100
check "ovh: the footer no longer warns" [ "$(grep -c 'failing' "$T/err")" -eq 0 ]

# ---------------------------------------------------------------------
# Shrunk: 15 offers three times, then a stock of 5 (one GPU region).
# ---------------------------------------------------------------------
run --db "$DB" refresh --provider linode
run --db "$DB" refresh --provider linode
run --db "$DB" refresh --provider linode
check "linode: three more good refreshes" status_is 0
check "linode: still ok" [ "$(field linode health)" = ok ]
# Only us-ord keeps its GPU capability.
awk '
/"id": "de-fra-2"|"id": "in-maa"/ { strip = 1 }
strip && /"GPU Linodes",/ { sub(/"GPU Linodes",/, ""); strip = 0 }
{ print }' "$FX/linode/regions.json" > "$T/work/linode/regions.json"
check "two regions lost their GPUs in the variant" [ "$(grep -c '"GPU Linodes"' "$T/work/linode/regions.json")" -eq 1 ]
run --db "$DB" refresh --provider linode
check "linode, 5 offers: the refresh works" status_is 0
check "linode: 5 offers stored" [ "$(sqlite3 "$DB" "select count(*) from offers where provider = 'linode'")" -eq 5 ]
check "linode: shrunk ($(field linode health))" [ "$(field linode health)" = shrunk ]
check "linode: the note gives the counts" [ "$(field linode health_note)" = "its last refresh found 5 offers, under half the median (15) of the refreshes before" ]
run --db "$DB" --provider linode
check "an answer with linode rows says it shrank" err_has '^gpucost: linode has shrunk: its last refresh found 5 offers, under half the median (15) of the refreshes before; its list may be incomplete$'
good linode regions.json
run --db "$DB" refresh --provider linode
check "linode: 15 again, healthy" [ "$(field linode health)" = ok ]

# JSON carries the same fields.
run --db "$DB" providers --format json
if command -v jq >/dev/null 2>&1; then
	check "JSON: health and endpoint of every provider" \
	    [ "$(jq -r '.providers[] | select(.provider == "linode") | .health + " " + .endpoint' "$T/out")" = "ok $url_linode" ]
fi

# A published copy keeps no refresh outcome (endpoints are this cache's).
mkdir -p "$T/pub"
run --db "$DB" publish "$T/pub"
check "publish works" status_is 0
copy=$(ls "$T"/pub/*.db.gz 2>/dev/null | head -1)
if [ -n "$copy" ]; then
	gzip -dc "$copy" > "$T/copy.db"
	check "the published copy holds no refresh outcome" [ "$(sqlite3 "$T/copy.db" 'select count(*) from refresh_outcome')" -eq 0 ]
fi
finish
