#!/bin/sh
# Committed prices (issue 27) against the fixture server: the Azure
# reservation of 612,000 USD a year is 69.863014 an hour, its savings
# plans as published; AWS p4d.24xlarge's Reserved terms, 1 and 3 years,
# no/partial/all upfront, hourly + upfront / (years x 8,760); GCP
# commitment SKUs only as `committed`, never as an on-demand price;
# --term ranks by them, --hours with --term compares the job each way,
# --group-by with --term summarises them, and the cache keeps them (and
# their history) like other prices.
. "$(dirname "$0")/../lib.sh"

command -v sqlite3 >/dev/null 2>&1 || { echo "sqlite3 is needed" >&2; exit 77; }
command -v python3 >/dev/null 2>&1 || { echo "python3 is needed" >&2; exit 77; }

FX=$TOP_SRCDIR/tests/fixtures
GCP_API_KEY=gcp-SECRET-key-0001
GPUCOST_AWS_REGIONS=us-east-1,us-west-2,eu-west-1
export GCP_API_KEY GPUCOST_AWS_REGIONS

serve aws "$FX/aws"
GPUCOST_AWS_URL=$url
serve azure "$FX/azure"
GPUCOST_AZURE_URL=$url
echo "GET /v1/services/6F81-5844-456A/skus? skus-commit.json" > "$T/gcp-routes"
serve gcp "$FX/gcp" "$T/gcp-routes"
GPUCOST_GCP_URL=$url
export GPUCOST_AWS_URL GPUCOST_AZURE_URL GPUCOST_GCP_URL

run --db "$DB" refresh --provider aws,azure,gcp
check "refresh exits 0" status_is 0

# committed[] of the offer with KEY in $T/out (JSON), one line per entry:
# "kind term upfront price_hour upfront_usd".
committed_of() {
	python3 - "$T/out" "$1" <<'EOF'
import json, sys
doc = json.load(open(sys.argv[1]))
for o in doc["offers"]:
    if o["key"] == sys.argv[2]:
        for c in o["committed"]:
            print(c["kind"], c["term"], c["upfront"], c["price_hour"],
                  c["upfront_usd"])
EOF
}

# --- Azure: the reservation is the whole term's price -----------------
run --db "$DB" --provider azure --gpu H200 --format json --quiet
check "azure H200: json exits 0" status_is 0
committed_of Standard_ND96isr_H200_v5/eastus2 > "$T/azure"
check "azure H200: 1y reservation 612,000 is 69.863014/h ($(tr '\n' ';' < "$T/azure"))" \
    grep -qx 'reservation 1y all 69.863014 612000.0' "$T/azure"
check "azure H200: 3y reservation 1,250,000 is 47.564688/h" \
    grep -qx 'reservation 3y all 47.564688 1250000.0' "$T/azure"
check "azure H200: 1y savings plan 55.12/h" grep -qx 'savings-plan 1y none 55.12 0.0' "$T/azure"
check "azure H200: 3y savings plan 38.16/h" grep -qx 'savings-plan 3y none 38.16 0.0' "$T/azure"
check "azure H200: on-demand price unchanged" out_has '"price_hour": 84.80,'

# The table: TERM $/GPU-H is 69.863014 / 8 for the reservation, 55.12 / 8
# for the savings plan: the best 1-year price ranks.
run --db "$DB" --provider azure --gpu H200 --term 1y
check "azure --term 1y: exits 0" status_is 0
check "azure --term 1y: TERM \$/GPU-H column" out_has 'TERM \$/GPU-H'
check "azure --term 1y: the savings plan's 6.89 per GPU-hour" out_has ' 6\.8900 '
check "azure --term 1y: 35% saved against on-demand" out_has ' 35%'

# --- AWS: p4d.24xlarge's Reserved terms -------------------------------
run --db "$DB" --provider aws --gpu A100 --format json --quiet
check "aws: json exits 0" status_is 0
committed_of p4d.24xlarge/us-east-1 > "$T/aws"
check "aws p4d: 6 reservation prices ($(tr '\n' ';' < "$T/aws"))" [ "$(wc -l < "$T/aws")" -eq 6 ]
check "aws p4d: 1y no upfront 13.7406" grep -qx 'reservation 1y none 13.7406 0.0' "$T/aws"
check "aws p4d: 1y partial 6.5984 + 57,800 / 8,760" grep -qx 'reservation 1y partial 13.196574 57800.0' "$T/aws"
check "aws p4d: 1y all 113,300 / 8,760" grep -qx 'reservation 1y all 12.93379 113300.0' "$T/aws"
check "aws p4d: 3y no upfront 8.7996" grep -qx 'reservation 3y none 8.7996 0.0' "$T/aws"
check "aws p4d: 3y partial 3.9082 + 102,700 / 26,280" grep -qx 'reservation 3y partial 7.816115 102700.0' "$T/aws"
check "aws p4d: 3y all 201,300 / 26,280" grep -qx 'reservation 3y all 7.659817 201300.0' "$T/aws"
check "aws p4d: on-demand stays 21.9576" out_has '"price_hour": 21.9576,'

# --- GCP: commitment SKUs are never on-demand --------------------------
run --db "$DB" --provider gcp --format json --quiet
check "gcp: json exits 0" status_is 0
committed_of a2-highgpu-1g/us-central1 > "$T/gcp"
# price_hour of every offer in $T/out, one per line.
prices_of() {
	python3 -c 'import json, sys
for o in json.load(open(sys.argv[1]))["offers"]:
    print(o["key"], o["price_hour"])' "$T/out"
}
prices_of > "$T/gcp-prices"
check "gcp a2-highgpu-1g: on-demand from the OnDemand SKUs (3.673385)" grep -qx 'a2-highgpu-1g/us-central1 3.673385' "$T/gcp-prices"
check "gcp a2-highgpu-1g: 1y commitment 2.314107 ($(tr '\n' ';' < "$T/gcp"))" grep -qx 'commitment 1y none 2.314107 0.0' "$T/gcp"
check "gcp a2-highgpu-1g: 3y commitment 1.653053" grep -qx 'commitment 3y none 1.653053 0.0' "$T/gcp"
check "gcp: no commitment rate as an on-demand price" sh -c '! grep -q " 2.314107\$\| 1.653053\$" "$1"' _ "$T/gcp-prices"
check "gcp: no H100 offer from commitment SKUs alone (us-east5)" out_lacks 'us-east5'
check "gcp: the cache holds no us-east5 offer" [ "$(sqlite3 "$DB" "select count(*) from offers where provider = 'gcp' and region = 'us-east5'")" -eq 0 ]

# --- --term ranks by the term's best price ----------------------------
run --db "$DB" --provider aws,azure,gcp --term 1y --format csv --quiet
check "--term 1y csv: exits 0" status_is 0
col=$(csv_col term_gpu_hour)
tr -d '\r' < "$T/out" | tail -n +2 | python3 -c '
import csv, sys
rows = list(csv.reader(sys.stdin))
v = [float(r[int(sys.argv[1]) - 1]) for r in rows]
sys.exit(not (v and v == sorted(v)))' "$col"
check "--term 1y: sorted by term_gpu_hour, every row has one" [ $? -eq 0 ]
check "--term 1y: the GCP commitment ranks (2.314107 an hour)" out_has ',a2-highgpu-1g,'
rows=$(($(wc -l < "$T/out") - 1))
run --db "$DB" --provider aws,azure,gcp --format csv --quiet
all=$(($(wc -l < "$T/out") - 1))
check "--term 1y: only offers with a 1-year price ($rows of $all)" [ "$rows" -lt "$all" ]
check "--term 1y: some ($rows)" [ "$rows" -gt 0 ]

# --- --term --limit N: the first N rows of the full answer -------------
# (offer_terms, walked in the term's order; only N offers read whole.)
for args in "--term 1y" "--term 3y" "--term any" "--term 1y --reverse" \
    "--term 3y --sort gpu-price" "--term any --gpu H100 --max-price 9" \
    "--term 1y --provider azure,gcp --sort price --reverse"; do
	# shellcheck disable=SC2086
	run --db "$DB" $args --format csv --quiet
	head -n 4 "$T/out" > "$T/full"
	# shellcheck disable=SC2086
	GPUCOST_DEBUG_READS=1 run --db "$DB" $args --limit 3 --format csv --quiet
	check "$args --limit 3: the full answer's first 3 rows" cmp -s "$T/full" "$T/out"
	check "$args --limit 3: 3 offers read whole" err_has "debug: [0-3] offers read whole"
done

# --- --hours with --term: the job each way ----------------------------
run --db "$DB" --provider azure --gpu H200 --term 1y --hours 2000
check "--hours 2000 --term 1y: exits 0" status_is 0
check "--hours 2000 --term 1y: on-demand 2,000 x 84.80" out_has 'on-demand \$169,600.00'
check "--hours 2000 --term 1y: the savings plan costs the year" out_has '1y savings plan \$482,851.20 for the year (no upfront)'
check "--hours 2000 --term 1y: the reservation costs 612,000" out_has '1y reservation \$612,000.00 for the year (all upfront)'
check "--hours 2000 --term 1y: TERM TOTAL \$ column" out_has 'TERM TOTAL \$'
run --db "$DB" --provider aws --gpu A100 --count 8 --term 1y --hours 2000 --limit 1
check "aws --hours 2000 --term 1y: spot is interruptible" out_has 'spot \$[0-9,.]* (interruptible)'
check "aws --hours 2000 --term 1y: all upfront, 113,300 for the year" out_has '1y reservation \$113,300.00 for the year (all upfront)'
run --db "$DB" --provider azure --gpu H200 --term 1y --hours 2000 --format json --quiet
check "json: total_term_cost 482851.2" out_has '"total_term_cost": 482851.20'

# --- --group-by with --term ------------------------------------------
run --db "$DB" --provider aws,azure,gcp --term 1y --group-by gpu --format csv --quiet
check "--group-by --term: exits 0" status_is 0
check "--group-by --term: min of the term" [ -n "$(csv_col min_term_gpu_hour)" ]
check "--group-by --term: median of the term" [ -n "$(csv_col median_term_gpu_hour)" ]
run --db "$DB" --provider aws,azure,gcp --group-by gpu --format csv --quiet
check "--group-by without --term: no term columns" [ -z "$(csv_col min_term_gpu_hour)" ]

# --- the cache: stored, history, replaced with the offers --------------
check "cache: committed rows stored" [ "$(sqlite3 "$DB" "select count(*) from committed")" -gt 20 ]
hist=$(sqlite3 "$DB" "select count(*) from committed_history")
# (The snapshot's GCP commitments seeded the cache before the refresh
# replaced them: their history rows stay, at the snapshot's date.)
live_hist=$(sqlite3 "$DB" "select count(*) from committed_history h join committed c using (provider, key, kind, months, upfront) where h.price_hour = c.price_hour")
check "cache: a history row per new committed price ($live_hist)" [ "$live_hist" -eq "$(sqlite3 "$DB" "select count(*) from committed")" ]
run --db "$DB" refresh --provider azure
check "second refresh exits 0" status_is 0
check "cache: unchanged prices add no history" [ "$(sqlite3 "$DB" "select count(*) from committed_history")" -eq "$hist" ]

# --- history --term: the term's price over time ------------------------
mkdir -p "$T/azure2"
cp "$FX/azure"/* "$T/azure2/"
sed 's/"retailPrice": 55.12,/"retailPrice": 50.0,/' "$FX/azure/prices-2.json" > "$T/azure2/prices-2.json"
check "azure2: the 1-year savings plan changed" grep -q '"retailPrice": 50.0,' "$T/azure2/prices-2.json"
serve azure2 "$T/azure2"
GPUCOST_AZURE_URL=$url run --db "$DB" refresh --provider azure
check "refresh with a changed savings plan exits 0" status_is 0
check "cache: one history row for the changed price" [ "$(sqlite3 "$DB" "select count(*) from committed_history")" -eq $((hist + 1)) ]
run --db "$DB" history --provider azure --gpu H200 --term 1y --format csv --quiet
check "history --term 1y: exits 0" status_is 0
check "history --term 1y: the savings plan's points, 55.12 then 50.00" sh -c 'tr -d "\r" < "$1" | grep -q ",55.12," && tr -d "\r" < "$1" | grep -q ",50.00,"' _ "$T/out"
run --db "$DB" history --provider azure --gpu H200 --format csv --quiet
check "history without --term: the on-demand price, unchanged" sh -c '! tr -d "\r" < "$1" | grep -q ",50.00,"' _ "$T/out"

# --- bad --term --------------------------------------------------------
run --db "$DB" --term 2w
check "--term 2w: usage error" status_is 2
check "--term 2w: one line naming the option" err_has '^gpucost: --term: terms are 1y and 3y'

finish
