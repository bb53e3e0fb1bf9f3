#!/bin/sh
# watch says why a row is news: after a price cut from $10.00 to $8.50
# the row says `cheaper $10.00 -> $8.50, -15%` in the table, and CSV,
# TSV and JSON carry change, the previous price and the difference
# (JSON: "previous", null for a new offer); an offer back in stock says
# available-again. A run with nothing new says "nothing new since
# <time>" on a terminal (stderr) and nothing on a pipe. `watch --list`
# has a header and every format.
. "$(dirname "$0")/../lib.sh"

command -v jq >/dev/null 2>&1 || { echo "jq is needed" >&2; exit 77; }

LAMBDA_API_KEY=lambda-why-key
export LAMBDA_API_KEY
FX=$T/lambda
mkdir -p "$FX"
printf 'GET\t/api/v1/instance-types\tinstance-types.json\n' > "$FX/routes"

# lambda_answer CENTS [REGION...]: one 1x A10 at CENTS an hour, with
# capacity in the regions given (none: sold out).
lambda_answer() {
	cents=$1
	shift
	regions=
	for r in "$@"; do
		regions="$regions${regions:+,}{\"name\": \"$r\", \"description\": \"somewhere\"}"
	done
	cat > "$FX/instance-types.json" <<JSON
{"data": {"gpu_1x_a10": {"instance_type": {"name": "gpu_1x_a10",
  "description": "1x A10 (24 GB PCIe)", "gpu_description": "A10 (24 GB PCIe)",
  "price_cents_per_hour": $cents,
  "specs": {"vcpus": 30, "memory_gib": 200, "storage_gib": 1400, "gpus": 1}},
  "regions_with_capacity_available": [$regions]}}}
JSON
}
serve lambda "$FX"
GPUCOST_LAMBDA_URL=$url
export GPUCOST_LAMBDA_URL
refresh() {
	lambda_answer "$@"
	run --db "$DB" refresh --provider lambda --quiet
	check "refresh at $1 cents: exit 0 ($status)" status_is 0
}
Q="--provider lambda --gpu A10 --region us-east-1"

refresh 1000 us-east-1
run --db "$DB" watch $Q --format json
check "first run: exit 0 ($status)" status_is 0
check "first run: change new" [ "$(jq -r '.offers[0].change' "$T/out")" = new ]
check "first run: previous null" [ "$(jq -r '.offers[0].previous' "$T/out")" = null ]

# $10.00 -> $8.50: cheaper, with both prices and -15%.
refresh 850 us-east-1
run --db "$DB" watch $Q
check "price cut, table: exit 0 ($status)" status_is 0
check "price cut, table: a CHANGE column" out_has '^CHANGE  *PROVIDER'
check "price cut, table: cheaper \$10.0000 -> \$8.5000, -15% (the table's decimals)" out_has 'cheaper \$10\.0000 -> \$8\.5000, -15%'
# The same news in the other formats (forget and replay the two runs).
for fmt in json csv tsv; do
	run --db "$DB" watch $Q --forget
	refresh 1000 us-east-1
	run --db "$DB" watch $Q --format csv
	refresh 850 us-east-1
	run --db "$DB" watch $Q --format "$fmt"
	check "price cut, $fmt: exit 0 ($status)" status_is 0
	cp "$T/out" "$T/cut.$fmt"
done
check "JSON: change cheaper" [ "$(jq -r '.offers[0].change' "$T/cut.json")" = cheaper ]
check "JSON: previous.price_gpu_hour 10" [ "$(jq '.offers[0].previous.price_gpu_hour' "$T/cut.json")" = 10 ]
check "JSON: the new price 8.5" [ "$(jq '.offers[0].price_gpu_hour' "$T/cut.json")" = 8.5 ]
check "JSON: previous.difference_gpu_hour -1.5" [ "$(jq '.offers[0].previous.difference_gpu_hour' "$T/cut.json")" = -1.5 ]
check "JSON: previous.difference_pct -15" [ "$(jq '.offers[0].previous.difference_pct' "$T/cut.json")" = -15 ]
check "JSON: compared on-demand" [ "$(jq -r '.offers[0].previous.compared' "$T/cut.json")" = on-demand ]
check "JSON: previous.reported_at is a time" jq -e '.offers[0].previous.reported_at | test("^20[0-9-]+T")' "$T/cut.json"
hdr=$(head -1 "$T/cut.csv" | tr -d '\r')
check "CSV: the three fields come last" [ "$(printf '%s' "$hdr" | awk -F, '{ print $(NF-2) "," $(NF-1) "," $NF }')" = "change,previous_price_gpu_hour,difference_pct" ]
row=$(sed -n 2p "$T/cut.csv" | tr -d '\r')
check "CSV: cheaper,10.00,-15.0 ($row)" [ "$(printf '%s' "$row" | awk -F, '{ print $(NF-2) "," $(NF-1) "," $NF }')" = "cheaper,10.00,-15.0" ]
check "TSV: the same fields" [ "$(head -1 "$T/cut.tsv" | awk -F'\t' '{ print $NF }')" = difference_pct ]
check "TSV: the change" [ "$(sed -n 2p "$T/cut.tsv" | awk -F'\t' '{ print $(NF-2) }')" = cheaper ]
run --db "$DB" --provider lambda --format csv --quiet
check "a plain query's CSV has no change fields" out_lacks 'difference_pct'

# Sold out, then back: available-again.
refresh 850
run --db "$DB" watch $Q
check "sold out: no news (exit 1, $status)" status_is 1
refresh 850 us-east-1
run --db "$DB" watch $Q --format json
check "back in stock: exit 0 ($status)" status_is 0
check "back in stock: change available-again" [ "$(jq -r '.offers[0].change' "$T/out")" = available-again ]
check "back in stock: previously unavailable" [ "$(jq -r '.offers[0].previous.availability' "$T/out")" = unavailable ]
run --db "$DB" watch $Q --format csv
check "then nothing: exit 1" status_is 1
check "then nothing, on a pipe: silent" eval '[ ! -s "$T/out" ] && [ ! -s "$T/err" ]'

# On a terminal, a run with nothing new says so on stderr.
if command -v script >/dev/null 2>&1; then
	script -qec "'$GPUCOST' --db '$DB' watch $Q" /dev/null > "$T/tty.all" 2>&1
	check "terminal: nothing new since <time>" grep -q 'nothing new since 20[0-9-]*T' "$T/tty.all"
fi

# --list: a header, and every format.
run --db "$DB" watch --list
check "--list: exit 0" status_is 0
check "--list: a header" out_has '^QUERY  *OFFERS  *LAST RUN  *CREATED'
check "--list: the query" out_has -- '--gpu A10 --provider lambda --region us-east-1'
run --db "$DB" watch --list --format json
check "--list --format json: valid, one watch" [ "$(jq '.watches | length' "$T/out")" -eq 1 ]
check "--list --format json: its query" [ "$(jq -r '.watches[0].query' "$T/out")" = "--gpu A10 --provider lambda --region us-east-1" ]
check "--list --format json: its offers" [ "$(jq '.watches[0].offers' "$T/out")" -eq 1 ]
run --db "$DB" watch --list --format csv
check "--list --format csv: header" [ "$(head -1 "$T/out" | tr -d '\r')" = "query,offers,last_run,created_at" ]
run --db "$DB" watch --list --format tsv
check "--list --format tsv: a row" [ "$(wc -l < "$T/out")" -eq 2 ]
run --db "$DB" watch $Q --forget
run --db "$DB" watch --list --format json
check "--list with no watch, JSON: an empty list, exit 1" eval '[ "$status" -eq 1 ] && [ "$(jq ".watches | length" "$T/out")" -eq 0 ]'
finish
