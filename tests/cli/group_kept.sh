#!/bin/sh
# --group-by from the summaries kept at write time (db_groups_store(),
# db_groups_stored()) gives the full path's answer byte for byte, and
# stays true after every kind of write: a refresh that moves prices (a
# summary not stored again would print the old counts and medians, while
# the cheapest offers stay the same, so the answer would still look
# sound), a merge of a published copy (refresh --from), stored sort keys
# of another version (db_sort_keys_update()), and summaries of another
# version of the program (made again on the first query). On Vast
# listings with many offers tied at each group's cheapest, some without
# a spot price and some of a GPU the catalogue does not know, in regions
# on five continents, beside the snapshot's clouds. GPUCOST_DEBUG_READS
# shows the kept summaries answer: one offer read whole per group shown
# (the old code read every tie).
. "$(dirname "$0")/../lib.sh"

VAST_API_KEY=vast-key
export VAST_API_KEY

# vast_answer DIR ROUND: a Vast answer into DIR. Per-GPU prices come in
# steps of 0.05, so each group has ties at its cheapest; round 2 moves
# every price above a GPU's lowest step up by 0.07 a GPU and adds 40
# listings at the top step: the cheapest offers stay, counts, medians and
# maxima move.
vast_answer() {
	mkdir -p "$1"
	cp "$TOP_SRCDIR/tests/fixtures/vast/routes" "$1/routes"
	awk -v round="$2" 'BEGIN {
		split("RTX 4090|24564;RTX 3090|24576;H100 SXM|81559;" \
		    "H100 PCIE|81559;A100 SXM4|81920;A100 PCIE|40960;" \
		    "L40S|46068;Titan Xp|12288", gpu, ";")
		split("Texas, US|Quebec, CA|Germany, DE|Poland, PL|Japan, JP|" \
		    "Singapore, SG|Brazil, BR|New South Wales, AU", geo, "|")
		n = round == 2 ? 440 : 400
		printf "{\"offers\":["
		for (i = 1; i <= n; i++) {
			g = 1 + i % 8
			split(gpu[g], f, "|")
			k = 2 ^ (i % 3)
			step = (i * 7) % 5
			if (i > 400)
				step = 4
			per = 0.2 + g * 0.1 + step * 0.05
			if (round == 2 && step > 0)
				per += 0.07
			dph = per * k
			printf "%s\n{\"bw_nvlink\":0.0,\"cpu_cores\":%d," \
			    "\"cpu_cores_effective\":%d.0,\"cpu_ram\":%d," \
			    "\"dph_total\":%.6f,\"geolocation\":\"%s\"," \
			    "\"gpu_name\":\"%s\",\"gpu_ram\":%d,\"id\":%d,", \
			    (i == 1 ? "" : ","), 16 * k, 16 * k, 64000 * k, dph,
			    geo[1 + int(i / 8) % 8], f[1], f[2], 5000000 + i
			bid = dph * (0.4 + (i % 3) * 0.1)
			if (i % 4 != 0)
				printf "\"min_bid\":%.6f,", bid
			printf "\"num_gpus\":%d,\"reliability2\":0.98," \
			    "\"rentable\":true,\"rented\":false}", k
		}
		printf "\n]}\n"
	}' > "$1/offers.json"
}

# same NAME ARGS...: stdout and exit status of gpucost ARGS -q (the kept
# summaries where they answer) and gpucost ARGS (the full path: every
# offer read) are the same.
same() {
	name=$1
	shift
	run --db "$DB" "$@" -q
	cp "$T/out" "$T/fast"
	fast_status=$status
	run --db "$DB" "$@"
	check "$name: same answer" cmp -s "$T/fast" "$T/out"
	check "$name: same status ($fast_status)" status_is "$fast_status"
}

# all_same ROUND: every grouping and filter a kept summary answers, and
# some it does not (they take the index walk).
all_same() {
	for by in gpu provider region continent gpu,provider provider,gpu \
	    region,gpu continent,gpu gpu,provider,region; do
		for extra in "" "--gpu RTX4090" "--gpu H100" "--gpu A100" \
		    "--reverse" "--limit 3" "--format json" "--format table" \
		    "--format tsv --gpu L40S" "--spot" "--sort price" \
		    "--gpu B200"; do
			# shellcheck disable=SC2086
			same "$1: --group-by $by $extra" --group-by "$by" \
			    --format csv $extra
		done
		same "$1: --group-by $by --gpu 'H100 SXM'" --group-by "$by" \
		    --gpu 'H100 SXM' --format csv
	done
}

# reads_kept NAME ARGS...: with -q, one offer read whole per group shown.
reads_kept() {
	name=$1
	shift
	GPUCOST_DEBUG_READS=1 run --db "$DB" "$@" --format csv -q
	rows=$(($(wc -l < "$T/out") - 1))
	reads=$(sed -n 's/^gpucost: debug: \([0-9]*\) offers read whole$/\1/p' \
	    "$T/err")
	check "$name: one offer read per group ($reads for $rows)" one_each
}
one_each() { [ "$rows" -gt 0 ] && [ "$reads" = "$rows" ]; }

vast_answer "$T/v1" 1
vast_answer "$T/v2" 2
serve v1 "$T/v1"
GPUCOST_VAST_URL=$url run --db "$DB" refresh --provider vast
check "first refresh: exit 0" status_is 0
check "every kept grouping is current" [ "$(sqlite3 "$DB" \
    "select count(distinct version), count(*) from group_state")" = "1|7" ]
ties=$(sqlite3 "$DB" "select count(*) from (select gpu from offers where \
    provider = 'vast' and nodes = 1 group by gpu having count(*) > \
    count(distinct sk_gpu_price))")
check "groups with ties ($ties GPUs)" [ "$ties" -ge 6 ]
check "listings without a spot price, of an unknown GPU" [ "$(sqlite3 "$DB" \
    "select count(*) > 0 from offers where provider = 'vast' and \
    spot_price is null")$(sqlite3 "$DB" "select count(*) > 0 from offers \
    where provider = 'vast' and gpu = ''")" = 11 ]
all_same "round 1"
reads_kept "round 1: --group-by gpu" --group-by gpu
reads_kept "round 1: --group-by continent --gpu H100" --group-by continent \
    --gpu H100
reads_kept "round 1: --group-by region,gpu --gpu RTX4090" \
    --group-by region,gpu --gpu RTX4090 --limit 5

# A second refresh moves prices and adds listings: stored again.
serve v2 "$T/v2"
before=$(sqlite3 "$DB" "select offers, price_median from group_summary \
    where keyset = 1 order by gpu")
GPUCOST_VAST_URL=$url run --db "$DB" refresh --provider vast
check "second refresh: exit 0" status_is 0
check "the kept counts and medians moved" [ "$(sqlite3 "$DB" "select offers, \
    price_median from group_summary where keyset = 1 order by gpu")" != \
    "$before" ]
all_same "round 2"
reads_kept "round 2: --group-by gpu" --group-by gpu
reads_kept "round 2: --group-by provider --gpu RTX4090" --group-by provider \
    --gpu RTX4090

# Stored sort keys of another version: the query brings them up to date,
# and the summaries with them (the wrong count below is stored again).
sqlite3 "$DB" "update provider_status set sort_keys = 'old' where \
    provider = 'vast'; update group_summary set offers = offers + 1"
same "sort keys of another version: --group-by gpu" --group-by gpu \
    --format csv
check "... the sort keys are current again" [ "$(sqlite3 "$DB" \
    "select count(*) from provider_status where sort_keys = 'old'")" = 0 ]
# Summaries of another version of the program: made again, not read.
sqlite3 "$DB" "update group_state set version = 'old'; update \
    group_summary set offers = offers + 1"
same "summaries of another version: --group-by continent" \
    --group-by continent --format csv
check "... made again" [ "$(sqlite3 "$DB" "select count(*) from \
    group_state where version = 'old'")" = 0 ]
reads_kept "summaries made again: --group-by gpu" --group-by gpu

# The kept summaries leave out the market references, as the same query's
# rows do (issue 48): a day later the listings are references, and the
# summaries kept before hold no longer. Turned a day older here (their
# fetched_at and the status's range), with no write: the kept groups must
# not answer; the summary index does, without the references.
GPUCOST_DEBUG_PATH=1 run --db "$DB" --group-by provider --format csv -q
check "fresh listings: the kept groups answer" err_has 'answered by groups-kept'
check "... with the Vast listings" out_has '^vast,'
sqlite3 "$DB" "update offers set fetched_at = fetched_at - 2 * 86400 \
    where provider = 'vast'; update provider_status set \
    oldest = oldest - 2 * 86400, newest = newest - 2 * 86400 \
    where provider = 'vast'"
GPUCOST_DEBUG_PATH=1 run --db "$DB" --group-by provider --format csv -q
check "listings a day old: the kept groups do not answer" \
    err_has 'answered by groups-indexed'
check "... and no group counts a reference" out_lacks '^vast,'
same "listings a day old: --group-by gpu" --group-by gpu --format csv
same "listings a day old: --group-by provider --include-stale" \
    --group-by provider --format csv --include-stale
run --db "$DB" --group-by provider --format csv --include-stale -q
check "--include-stale: the references' group" out_has '^vast,'

# A published copy merged into a cache seeded from the snapshot.
mkdir "$T/pub"
run --db "$DB" publish "$T/pub"
check "publish: exit 0" status_is 0
PUB_DB=$DB
DB=$T/merged.db
run --db "$DB" refresh --from "$T/pub"
check "refresh --from: exit 0" status_is 0
check "the merged cache has the copy's vast offers" [ "$(sqlite3 "$DB" \
    "select count(*) from offers where provider = 'vast'")" = "$(sqlite3 \
    "$PUB_DB" "select count(*) from offers where provider = 'vast'")" ]
all_same "merged"
reads_kept "merged: --group-by gpu" --group-by gpu

finish
