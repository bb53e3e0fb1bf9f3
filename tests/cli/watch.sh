#!/bin/sh
# gpucost watch, history and --group-by over a sequence of refreshes of a
# Lambda answer (its real shape) whose price and capacity move: watch is
# silent (exit 1) until an offer qualifies, speaks once (exit 0), is
# silent again, speaks when it gets cheaper; --exec gets the news as JSON
# on stdin and no provider text runs; history lists every change in
# order; a group's minimum is the cheapest matching offer.
. "$(dirname "$0")/../lib.sh"

command -v jq >/dev/null 2>&1 || { echo "jq is needed" >&2; exit 77; }

LAMBDA_API_KEY=lambda-watch-key
export LAMBDA_API_KEY
FX=$T/lambda
mkdir -p "$FX"
printf 'GET\t/api/v1/instance-types\tinstance-types.json\n' > "$FX/routes"

# lambda_answer CENTS REGION...: the 8x H100 at CENTS an hour, with
# capacity in the regions given (none: sold out everywhere). Its
# description carries shell text that must never run.
lambda_answer() {
	cents=$1
	shift
	regions=
	for r in "$@"; do
		regions="$regions${regions:+,}{\"name\": \"$r\", \"description\": \"somewhere\"}"
	done
	cat > "$FX/instance-types.json" <<JSON
{
  "data": {
    "gpu_8x_h100_sxm5": {
      "instance_type": {
        "name": "gpu_8x_h100_sxm5",
        "description": "8x H100 (80 GB SXM5) \$(touch $T/pwned) \`touch $T/pwned\`; touch $T/pwned '\"",
        "gpu_description": "H100 (80 GB SXM5)",
        "price_cents_per_hour": $cents,
        "specs": {"vcpus": 208, "memory_gib": 1800, "storage_gib": 22000, "gpus": 8}
      },
      "regions_with_capacity_available": [$regions]
    },
    "gpu_1x_a10": {
      "instance_type": {
        "name": "gpu_1x_a10",
        "description": "1x A10 (24 GB PCIe)",
        "gpu_description": "A10 (24 GB PCIe)",
        "price_cents_per_hour": 75,
        "specs": {"vcpus": 30, "memory_gib": 200, "storage_gib": 1400, "gpus": 1}
      },
      "regions_with_capacity_available": [{"name": "us-east-1", "description": "Virginia, USA"}]
    }
  }
}
JSON
}

refresh() {
	run --db "$DB" refresh --provider lambda
	check "refresh at $1 cents exits 0" status_is 0
}

Q="--provider lambda --gpu H100 --count 8 --max-price 3.00"
serve lambda "$FX"
GPUCOST_LAMBDA_URL=$url
export GPUCOST_LAMBDA_URL

# $4.00/GPU-h, sold out: nothing qualifies.
lambda_answer 3200
refresh 3200
run --db "$DB" watch $Q
check "nothing under \$3: exit 1" status_is 1
check "nothing under \$3: silent" [ ! -s "$T/out" ]
check "nothing under \$3: silent on stderr" [ ! -s "$T/err" ]
run --db "$DB" watch $Q
check "still nothing: exit 1" status_is 1

# $3.00/GPU-h with capacity in one region: it crosses the line.
lambda_answer 2400 us-east-3
refresh 2400
run --db "$DB" watch $Q --format csv
check "price crosses the line: exit 0" status_is 0
check "the offer is printed" [ "$(tail -n +2 "$T/out" | grep -c 'gpu_8x_h100_sxm5,us-east-3')" -eq 1 ]
run --db "$DB" watch $Q --format csv
check "next run: exit 1" status_is 1
check "next run: silent" [ ! -s "$T/out" ]

# A refresh with the same price: still silent.
refresh 2400
run --db "$DB" watch $Q
check "same price after a refresh: exit 1" status_is 1

# Cheaper: speaks again.
lambda_answer 2320 us-east-3
refresh 2320
run --db "$DB" watch $Q --format json
check "cheaper: exit 0" status_is 0
check "cheaper: the new price" [ "$(jq '.offers[0].price_hour' "$T/out")" = 23.2 ]

# Dearer (still under the line): not news.
lambda_answer 2360 us-east-3
refresh 2360
run --db "$DB" watch $Q
check "dearer: exit 1" status_is 1

# Capacity in a second region: a new offer.
lambda_answer 2360 us-east-3 us-south-2
refresh 2360
run --db "$DB" watch $Q --format csv
check "new region: exit 0" status_is 0
check "new region: one row" [ "$(tail -n +2 "$T/out" | wc -l)" -eq 1 ]
check "new region: it" out_has us-south-2

# --exec: the news as JSON on stdin; provider text never runs.
lambda_answer 2240 us-east-3 us-south-2
refresh 2240
run --db "$DB" watch $Q --exec "cat > '$T/got.json'"
check "--exec: exit 0" status_is 0
check "--exec: nothing on stdout" [ ! -s "$T/out" ]
check "--exec: valid JSON on stdin" jq -e '.offers | length == 2' "$T/got.json"
check "--exec: the hostile description arrived as text" jq -e '[.offers[].gpu_raw] | length == 2' "$T/got.json"
check "--exec: no provider text ran" [ ! -e "$T/pwned" ]
# A failing command: the news stays unreported and comes again.
lambda_answer 2200 us-east-3 us-south-2
refresh 2200
run --db "$DB" watch $Q --exec 'exit 3'
check "--exec failing: exit 3" status_is 3
check "--exec failing: said so" err_has "exited with status 3"
run --db "$DB" watch $Q --format csv
check "after a failed --exec the news comes again" status_is 0

# What a watch knows, damaged (a hand edit, a bad copy): one line naming
# the watch and the line, exit 3, nothing stored; --forget starts anew.
command -v sqlite3 >/dev/null 2>&1 && {
	sqlite3 "$DB" "update watch set known = known || 'lambda' || char(9) || 'x' || char(10)"
	before=$(sqlite3 "$DB" "select last_run, known from watch" | cksum)
	run --db "$DB" watch $Q --format csv
	check "damaged state: exit 3" status_is 3
	check "damaged state: one line" err_lines_are 1
	q=$(sqlite3 "$DB" "select query from watch")
	check "damaged state: names the watch ($q)" err_has "watch \"$q\""
	check "damaged state: names the line" err_has "damaged at line 3"
	check "damaged state: says how to start anew" err_has "'gpucost watch $q --forget' starts it anew"
	check "damaged state: left as it was" [ "$(sqlite3 "$DB" "select last_run, known from watch" | cksum)" = "$before" ]
}

# The stored watches.
run --db "$DB" watch --list
check "--list shows the normalised query" out_has -- "--provider lambda --gpu H100 --count 8 --max-price 3"
run --db "$DB" watch $Q --forget
check "--forget: exit 0" status_is 0
run --db "$DB" watch --list
check "--forget: gone" status_is 1
run --db "$DB" watch $Q --format csv
check "a forgotten watch starts afresh" status_is 0

# history: every change of the 8x H100 in us-east-3, in order.
run --db "$DB" history --provider lambda --gpu H100 --count 8 --region us-east-3 --format json
check "history: exit 0" status_is 0
# The snapshot lists Lambda's types once, in region all (one price in
# every region), so this offer's history starts at its first live price.
check "history: every price change in order" [ "$(jq -c '[.offers[0].points[].price_hour]' "$T/out")" = "[24,23.2,23.6,22.4,22]" ]
check "history: min per GPU-hour" [ "$(jq -c '.offers[0].min_price_gpu_hour' "$T/out")" = 2.75 ]
check "history: max per GPU-hour is the first price's" [ "$(jq -c '.offers[0].max_price_gpu_hour == (.offers[0].points[0].price_hour / 8)' "$T/out")" = true ]
check "history: always available when listed" [ "$(jq '.offers[0].available_share' "$T/out")" = 1 ]
run --db "$DB" history --provider lambda --gpu H100 --count 8 --region us-east-3 --format csv
check "history csv: a row per point" [ "$(tail -n +2 "$T/out" | wc -l)" -eq 5 ]
run --db "$DB" history --provider lambda --gpu H100 --count 8 --region us-east-3
check "history table: a sparkline" out_has '▁'
run --db "$DB" history --since 1x
check "history --since: a bad duration is a usage error" status_is 2

# --group-by: the minimum is the cheapest matching offer.
run --db "$DB" --provider lambda --format json --quiet
cheapest=$(jq '[.offers[].price_gpu_hour] | min' "$T/out")
run --db "$DB" --provider lambda --group-by provider --format json
check "group-by: one group" [ "$(jq '.groups | length' "$T/out")" -eq 1 ]
check "group-by: min = the cheapest offer ($cheapest)" [ "$(jq '.groups[0].min_price_gpu_hour' "$T/out")" = "$cheapest" ]
run --db "$DB" --group-by gpu,provider --format csv
check "group-by gpu,provider: header" [ "$(head -1 "$T/out" | cut -d, -f1-3 | tr -d '\r')" = "gpu,provider,offers" ]
run --db "$DB" --group-by continent --format csv
check "group-by continent: exit 0" status_is 0
check "group-by continent: North America's row" [ "$(tail -n +2 "$T/out" | cut -d, -f1 | grep -c '^NA$')" -eq 1 ]
run --db "$DB" --group-by zone
check "group-by: unknown key is a usage error" status_is 2

# Retention: change points older than history_days go, except each
# offer's last one before the cut (the price a period starts at).
command -v sqlite3 >/dev/null 2>&1 && {
	k='gpu_1x_a10/all'	# the snapshot's offer, gone after the refresh
	sqlite3 "$DB" "insert into price_history values ('lambda', '$k', 1000, 1, null, 'unknown'), ('lambda', '$k', 2000, 2, null, 'unknown')"
	before=$(sqlite3 "$DB" "select count(*) from price_history where key = '$k'")
	GPUCOST_HISTORY_DAYS=1 run --db "$DB" refresh --provider lambda
	check "refresh with history_days=1 exits 0" status_is 0
	check "old points pruned ($before before)" [ "$(sqlite3 "$DB" "select count(*) from price_history where key = '$k' and observed_at < 1700000000")" -eq 0 ]
	check "the last point before the cut stays" [ "$(sqlite3 "$DB" "select count(*) from price_history where key = '$k'")" -ge 1 ]
	GPUCOST_HISTORY_DAYS=0 run --db "$DB" refresh --provider lambda
	check "history_days=0 is refused" status_is 3
}

# --- Issue 44 item 10: on the built-in data, snapshot rows are a starting
# point, not price changes.
B=$T/base.db
run --db "$B" watch --gpu H100 --count 8
check "first watch on the snapshot: no news (exit 1)" status_is 1
check "... nothing reported as new" [ ! -s "$T/out" ]
check "... says it recorded a baseline" err_has "offers of the built-in snapshot recorded as this watch's baseline, not news"
check "... ends with the data-age line" err_has '^gpucost: data age: .*(snapshot)'
run --db "$B" watch --gpu H100 --count 8
check "second watch: still nothing new (exit 1)" status_is 1
check "... no news" [ ! -s "$T/out" ]
run --db "$B" watch --gpu H100 --count 8 --forget
check "--forget: exit 0" status_is 0
check "--forget says what it forgot" err_has 'forgot the watch of "--gpu H100 --count 8"'
run --db "$B" history --gpu H100 --count 8 --limit 3
check "history on the snapshot: says where it begins" err_has "history begins at the first 'gpucost refresh'"

finish
