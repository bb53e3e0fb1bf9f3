#!/bin/sh
# Issue 22, only what can be rented, on the built-in data and the fixture
# server: marketplace listings older than a day are market references
# (left out, counted, --include-stale), nothing not sold on demand has an
# on-demand price or command (snapshot and live), GCP's committed-use
# rates never pass as pay-as-you-go, retired sizes (Azure NCv3, AWS p3/p3dn)
# and Cudo never show
# (also from an old cache), impossible host figures are unknown, the
# interconnect fixes, OCI from the snapshot in region all, and spot
# prices more than 7 days old are history.
. "$(dirname "$0")/../lib.sh"

command -v sqlite3 >/dev/null 2>&1 || { echo "sqlite3 is needed" >&2; exit 77; }

FX=$TOP_SRCDIR/tests/fixtures
q() { run --db "$DB" --format csv --quiet "$@"; }
rows() { echo $(($(tr -d '\r' < "$T/out" | wc -l) - 1)); }
# Values of CSV column NAME (no field of these queries holds a comma but
# the launch commands, which come after every column read here).
col() { tr -d '\r' < "$T/out" | tail -n +2 | cut -d, -f"$(csv_col "$1")"; }
# col NAME for the row whose key is KEY.
col_of() { tr -d '\r' < "$T/out" | awk -F, -v c="$(csv_col "$1")" -v k="$(csv_col key)" -v t="$2" 'NR > 1 && $k == t { print $c }'; }

# --- 1. Market references: the snapshot's Vast listings are months old.
run --db "$DB" --gpu H100 --count 8
check "H100 x8: exit 0" status_is 0
check "H100 x8: no marketplace listing" out_lacks '^vast '
check "H100 x8: the footer says how many were left out and how to see them" \
    err_has '^gpucost: [1-9][0-9]* marketplace listings* older than a day left out (an* market references*, not an* offers*: --include-stale shows \(it\|them\))'
left=$(sed -n 's/^gpucost: \([0-9]*\) marketplace listings* older than a day left out.*/\1/p' "$T/err")
q --gpu H100 --count 8 --include-stale
check "--include-stale: exactly those listings come back" [ "$(col provider | grep -c -x vast)" = "$left" ]
check "--include-stale: noted single-listing and stale" [ "$(col notes | grep -c 'single-listing;stale')" -ge "$left" ]
run --db "$DB" --gpu H100 --count 8 --include-stale
check "--include-stale: the footer says which are references" err_has 'shown .* market reference'
q --gpu H100 --count 8 --limit 3
check "--limit (SQL picks the rows): no listing either" [ "$(col provider | grep -c -x vast)" -eq 0 ]
check "--limit: three offers" [ "$(rows)" -eq 3 ]
run --db "$DB" --gpu H100 --count 8 --limit 3 --format json
check "--limit JSON: matched leaves the references out" [ "$(jq '.matched' "$T/out")" -eq "$(q --gpu H100 --count 8; rows)" ]
# A provider's own list price stays an offer at any age (noted stale).
q --provider vultr
check "Vultr's 2025 list prices are still shown" [ "$(rows)" -gt 0 ]
check "... noted stale" [ "$(col notes | grep -c stale)" -eq "$(rows)" ]
# --group-by summarises the rows the same query shows (issue 48): no
# market reference unless --include-stale asks, and then it says so.
run --db "$DB" --gpu H100 --group-by provider --format csv
check "--group-by: no Vast group (its listings are references)" out_lacks '^vast,'
check "--group-by: the references left out are said" err_has 'marketplace listing.* left out'
run --db "$DB" --gpu H100 --group-by provider --format csv --include-stale
check "--group-by --include-stale: a Vast group" out_has '^vast,'
check "--group-by: says how many offers are market references" err_has 'market reference'
# Nothing else: the empty answer says what was left out.
run --db "$DB" --provider vast
check "--provider vast: exit 1" status_is 1
check "--provider vast: says the listings are references" err_has 'marketplace listings older than a day did (market references, not offers: --include-stale shows them)'
run --db "$DB" watch --gpu H100 --count 8 --format csv
check "watch: no market reference is news" [ "$(grep -c '^vast,' "$T/out")" -eq 0 ]

# --- 2. Live: a fresh listing is an offer; a day later a reference.
VAST_API_KEY=vast-key
export VAST_API_KEY
serve vast "$FX/vast"
GPUCOST_VAST_URL=$url
export GPUCOST_VAST_URL
LDB=$T/live.db
run --db "$LDB" refresh --provider vast
check "vast refresh: exit 0" status_is 0
run --db "$LDB" --provider vast --format csv --quiet
live=$(rows)
check "fresh listings are offers ($live)" [ "$live" -gt 1 ]
run --db "$LDB" --provider vast --limit 2 --format csv --quiet
check "fresh listings with --limit" [ "$(rows)" -eq 2 ]
sqlite3 "$LDB" "update offers set fetched_at = fetched_at - 2 * 86400 where provider = 'vast'; update provider_status set oldest = oldest - 2 * 86400, newest = newest - 2 * 86400 where provider = 'vast'"
run --db "$LDB" --provider vast
check "two days later: none is an offer" status_is 1
run --db "$LDB" --provider vast --limit 2 --format csv --quiet
check "two days later, --limit: none either" status_is 1
run --db "$LDB" --provider vast --include-stale --format csv --quiet
check "two days later, --include-stale: all of them" [ "$(rows)" -eq "$live" ]
one=$(sqlite3 "$LDB" "select key from offers where provider = 'vast' and price is not null order by key limit 1")
sqlite3 "$LDB" "update offers set fetched_at = strftime('%s', 'now') where provider = 'vast' and key = '$one'; update provider_status set newest = strftime('%s', 'now') where provider = 'vast'"
run --db "$LDB" --provider vast --limit 5 --format csv --quiet
check "one listing refreshed: --limit shows one" [ "$(rows)" -eq 1 ]
# (Its region, "City, CC", is quoted with a comma: not col's cut.)
check "one listing refreshed: --limit shows it" grep -q -- ",$one," "$T/out"
run --db "$LDB" --provider vast --format csv --quiet
check "one listing refreshed: it alone" [ "$(rows)" -eq 1 ]

# --- 3. Not sold on demand: no on-demand price or command, snapshot and live.
not_on_demand() {	# every offer of $T/out (JSON): no price, no launch, noted
	python3 - "$T/out" <<'PY'
import json, sys
o = json.load(open(sys.argv[1]))["offers"]
sys.exit(not o or any(x["price_hour"] is not None or x["launch"] is not None
                      or "not-on-demand" not in x["notes"] for x in o))
PY
}
for t in a3-highgpu-1g a3-highgpu-2g a3-highgpu-4g a3-ultragpu-8g a4-highgpu-8g; do
	run --db "$DB" --provider gcp --match "$t" --format json --quiet
	check "snapshot $t: no on-demand price or command, says how it is sold" not_on_demand
done
run --db "$DB" --provider aws --match p5e.48xlarge --format json --quiet
check "snapshot p5e.48xlarge (capacity blocks): the same" not_on_demand
check "p5e.48xlarge: every region, eu-west-2's with no price at all kept" [ "$(jq '.offers | length' "$T/out")" -eq 6 ]
GCP_API_KEY=gcp-key
export GCP_API_KEY
serve gcp "$FX/gcp"
GPUCOST_GCP_URL=$url
export GPUCOST_GCP_URL
run --db "$LDB" refresh --provider gcp
check "gcp refresh: exit 0" status_is 0
for t in a3-highgpu-1g a3-highgpu-2g a3-highgpu-4g a3-ultragpu-8g a4-highgpu-8g; do
	run --db "$LDB" --provider gcp --match "$t" --format json --quiet
	check "live $t: as the snapshot says" not_on_demand
done

# --- 4. GCP: committed-use rates are not pay-as-you-go prices. Since
# issue 44 the snapshot's a2, a3, g2 and g4 rows are Google's own
# whole-machine list of 2026-07-30: the pay-as-you-go price, and the
# committed-use rates as 1y/3y commitments beside it.
run --db "$DB" --provider azure --term 3y --all-regions --format json --quiet
check "--term 3y offline: Azure's dated reservations (NC48ads_A100_v4 eastus2: 71,642 / 26,280 h)" \
    [ "$(jq -r '.offers[] | select(.key == "Standard_NC48ads_A100_v4/eastus2") | .committed[] | select(.term == "3y") | "\(.kind) \(.upfront) \(.price_hour) \(.upfront_usd)"' "$T/out")" = "reservation all 2.726104 71642" ]
q --provider gcp --gpu A100-80 --count 4 --all-regions
check "a2-ultragpu-4g us-central1 at Google's \$20.28 (was a committed \$11.78, refused)" \
    [ "$(tr -d '\r' < "$T/out" | awk -F, -v p="$(csv_col price_hour)" -v n="$(csv_col notes)" '$3 == "us-central1" { print $p "|" $n }')" = "20.275192|stale;spot-history" ]
check "a2-ultragpu-4g us-east5 at Google's \$22.26: no outlier" \
    [ "$(tr -d '\r' < "$T/out" | awk -F, -v p="$(csv_col price_hour)" -v n="$(csv_col notes)" '$3 == "us-east5" { print $p "|" $n }')" = "22.25966|stale;spot-history" ]
q --provider gcp --gpu H100 --count 8 --all-regions --match a3-highgpu-8g
check "a3-highgpu-8g us-central1: \$88.49 on demand (issue 44; doubtful-price before)" \
    [ "$(tr -d '\r' < "$T/out" | awk -F, -v p="$(csv_col price_hour)" -v n="$(csv_col notes)" '$3 == "us-central1" { print $p "|" $n }')" = "88.49|stale;spot-history" ]
run --db "$DB" --provider gcp --gpu H100 --count 8 --match a3-highgpu-8g --all-regions --term 1y --format json --quiet
check "--term 1y offline: a3-highgpu-8g us-central1's 1-year commitment, \$61.38" \
    [ "$(jq -r '.offers[] | select(.key == "a3-highgpu-8g/us-central1") | .committed[] | select(.term == "1y") | "\(.kind) \(.upfront) \(.price_hour)"' "$T/out")" = "commitment none 61.383672" ]
q --provider gcp
check "every GCP offer with no on-demand price says why" [ "$(tr -d '\r' < "$T/out" | awk -F, -v p="$(csv_col price_hour)" -v n="$(csv_col notes)" 'NR > 1 && $p == "" && $n !~ /not-on-demand|doubtful-price/' | wc -l)" -eq 0 ]
check "no GCP offer is noted price-outlier" out_lacks 'price-outlier'
q --provider gcp --gpu H100 --count 8 --no-outliers
check "--no-outliers keeps Google's real prices" [ "$(col price_hour | grep -c .)" -ge 10 ]
run --db "$DB" --provider gcp --gpu H100 --count 8 --format csv --quiet
check "doubtful rows rank below every priced offer" [ "$(col price_hour | awk 'NF == 0 { e = 1; next } e { print "priced after unpriced" }')" = "" ]

# --- 5. Retired sizes and providers.
q --provider azure
check "no Azure NCv3 (retired 2025-09-30)" [ "$(col instance_type | grep -c -E '^Standard_NC(6|12|24|24r)s_v3$')" -eq 0 ]
check "other Azure sizes stay" [ "$(rows)" -gt 100 ]
q --provider aws
check "no AWS p3 or p3dn (retired 2025-12-20)" [ "$(col instance_type | grep -c -E '^p3(dn)?\.')" -eq 0 ]
check "other AWS sizes stay" [ "$(rows)" -gt 100 ]
# A live AWS price list that still names p3 (the fixture's us-east-1 and
# us-west-2 do): those rows are dropped, the others kept.
GPUCOST_AWS_REGIONS=us-east-1,us-west-2,eu-west-1
export GPUCOST_AWS_REGIONS
serve aws "$FX/aws"
ADB=$T/aws.db
GPUCOST_AWS_URL=$url run --db "$ADB" refresh --provider aws
check "aws refresh: exit 0" status_is 0
run --db "$ADB" --provider aws --format csv --quiet --all-regions
check "live: no p3 although the price list names it" [ "$(col instance_type | grep -c -E '^p3(dn)?\.')" -eq 0 ]
check "live: the other sizes stay" [ "$(col instance_type | grep -c -E '^(g5|p4d)\.')" -gt 0 ]
run --db "$DB" refresh --provider cudo
check "refresh --provider cudo: exit 2" status_is 2
check "... one line saying why" err_lines_are 1
check "... Cudo is retired since 2026-03-31" err_has '^gpucost: cudo is retired since 2026-03-31 (Cudo Compute closed its public on-demand platform'
run --db "$DB" --provider cudo
check "--provider cudo: exit 2" status_is 2
check "... the same one line" err_lines_are 1
run --db "$DB" providers
check "providers: no Cudo" [ "$(grep -c '^cudo' "$T/out")" -eq 0 ]
# An old cache: Cudo's offers, an NCv3 size, a RunPod host of 9,000 GB.
ODB=$T/old.db
run --db "$ODB" providers
sqlite3 "$ODB" "create temp table t as select * from offers where provider = 'runpod' and gpu = 'A5000' limit 1;
    update t set provider = 'cudo', key = 'epyc-rome-rtx-a5000/se-smedjebacken-1/1', instance_type = 'epyc-rome-rtx-a5000', region = 'se-smedjebacken-1', price = 1000, sk_gpu_price = 1000;
    insert into offers select * from t; delete from t;
    insert into t select * from offers where provider = 'azure' and instance_type = 'Standard_NC24ads_A100_v4' limit 1;
    update t set key = 'Standard_NC24s_v3/eastus', instance_type = 'Standard_NC24s_v3', region = 'eastus', gpu = 'V100-16', gpu_raw = 'V100', price = 1000, sk_gpu_price = 1000;
    insert into offers select * from t;
    update offers set ram_gb = 9000, vcpus = 2100 where provider = 'runpod' and key = '8x_H100-SXM_SECURE/US-OR-2'"
check "the old rows are in the cache" [ "$(sqlite3 "$ODB" "select count(*) from offers where provider = 'cudo' or instance_type = 'Standard_NC24s_v3'")" -eq 2 ]
run --db "$ODB" --gpu A5000 --format csv --quiet
check "old cache: no Cudo offer" out_lacks '^cudo,'
run --db "$ODB" --limit 5 --format csv --quiet
check "old cache, --limit (SQL): no Cudo, no NCv3 at the top" [ "$(col instance_type | grep -c -E 'epyc|NC24s_v3')" -eq 0 ]
check "old cache, --limit (SQL): five rows" [ "$(rows)" -eq 5 ]
run --db "$ODB" --gpu V100 --format csv --quiet
check "old cache: no NCv3" [ "$(col instance_type | grep -c Standard_NC24s_v3)" -eq 0 ]
run --db "$ODB" --provider runpod --gpu H100 --count 8 --format csv --quiet
check "old cache: the row is there" [ "$(col_of gpu_count 8x_H100-SXM_SECURE/US-OR-2)" = 8 ]
check "old cache: 9,000 GB for 8 GPUs is no fact (unknown)" [ "$(col_of ram_gb 8x_H100-SXM_SECURE/US-OR-2)" = "" ]
check "old cache: 2,100 vCPUs for 8 GPUs neither" [ "$(col_of vcpus 8x_H100-SXM_SECURE/US-OR-2)" = "" ]

# --- 6. Host figures and links as a buyer sees them.
q --provider runpod
check "RunPod: no host figure beyond 256 vCPUs or 1,024 GB per GPU" [ "$(tr -d '\r' < "$T/out" | awk -F, -v v="$(csv_col vcpus_per_gpu)" -v r="$(csv_col ram_gb_per_gpu)" 'NR > 1 && ($v > 256 || $r > 1024)' | wc -l)" -eq 0 ]
q --provider runpod --gpu RTXPRO4500 --count 8
check "RunPod 8x RTX PRO 4500: RAM unknown, not 6,016 GB" [ "$(col ram_gb | sort -u)" = "" ]
q --min-ram-per-gpu 500
check "--min-ram-per-gpu 500: no RunPod copy error first" [ "$(col provider | head -1)" != runpod ]
for n in 2 4 8; do
	q --provider gcp --gpu V100 --count "$n"
	check "GCP N1 + $n V100: nvlink" [ "$(col interconnect | sort -u)" = nvlink ]
done
q --provider azure --match ads_A100_v4
check "Azure NC A100 v4: pcie" [ "$(col interconnect | sort -u)" = pcie ]
q --provider runpod --gpu A6000,A5000,A40,RTX3090 --count 2
check "RunPod 2x A6000/A5000/A40/3090: unknown, as a refresh says" [ "$(col interconnect | sort -u)" = unknown ]

# --- 7. OCI from the snapshot, one offer per shape in region all.
run --db "$DB" --provider oci
check "--provider oci answers from the snapshot" status_is 0
check "... in any region" out_has 'BM.GPU.H100.8 *any region'
q --provider oci
check "OCI: region all" [ "$(col region | sort -u)" = all ]
q --provider oci --region europe
check "region all matches --region europe" [ "$(rows)" -gt 0 ]
q --provider oci --region jp
check "... and --region jp" [ "$(rows)" -gt 0 ]

# --- 8. Issue 44 item 7: a spot price from data more than 7 days old is
# history, not an offer (an on-demand list price holds until changed, a
# spot price moves hourly): every one of the snapshot's.
q --provider aws --gpu H100 --count 8 --hours 24
check "snapshot spot: no spot price used" [ -z "$(col spot_hour | sort -u)" ]
check "... no SAVE" [ -z "$(col spot_savings_pct | sort -u)" ]
check "... no spot total (--hours)" [ -z "$(col total_spot_cost | sort -u)" ]
check "... noted spot-history where the snapshot has one" [ "$(col notes | grep -c spot-history)" -eq "$(awk -F '\t' '$1 == "aws" && $3 == "p5.48xlarge" && $13 != ""' "$SNAPSHOT" | wc -l)" ]
run --db "$DB" --provider aws --gpu H100 --count 8
check "the table says it in words" err_has 'H spot-history'
run --db "$DB" --gpu H100 --count 8 --term 1y --hours 720 --limit 2
check "--term's comparison has no spot figure from history" out_lacks 'spot \$'
for lim in "" "--limit 3"; do
	run --db "$DB" --spot --gpu H100 $lim
	check "--spot offline$lim: nothing current (exit 1)" status_is 1
	check "--spot offline$lim says why" err_has 'none has a current spot price: the [0-9]* spot prices here are from data more than 7 days old'
	check "... and what to do$lim" err_has "'gpucost refresh' fetches current ones; --include-stale ranks by the old ones"
done
q --spot --gpu H100 --include-stale
check "--include-stale: ranked by the old spot prices" [ "$(rows)" -gt 0 ]
check "... with them" [ -n "$(col spot_hour | sort -u)" ]
check "... and their SAVE" [ -n "$(col spot_savings_pct | sort -u)" ]
q --provider aws --gpu H100 --sort spot-gpu-price --limit 3
check "--sort spot-gpu-price: history ranks as no spot price" [ -z "$(col spot_gpu_hour | sort -u)" ]

finish
