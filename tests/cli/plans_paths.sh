#!/bin/sh
# The shortcuts of issue 29 give the full path's answer byte for byte:
# --group-by from the summary index (with -q: db_summary_scan() and only
# the offers tied for a group's cheapest read whole; without -q the full
# path reads every offer for the data-age line), and plans of several
# nodes from the walks that can win (--limit: db_query_nodes(); without
# --limit every offer is read). On a varied cache: the snapshot (AWS,
# Azure, GCP with fabrics, Lambda and OCI in region `all`, RunPod, stale
# Vast listings), live Vast single listings, RunPod's cluster products.
# GPUCOST_DEBUG_READS shows the shortcuts are taken (fails on the old code).
. "$(dirname "$0")/../lib.sh"

varied_cache
total=$(sqlite3 "$DB" "select count(*) from offers")
check "a varied cache ($total offers): cluster products" \
    [ "$(sqlite3 "$DB" "select count(*) from offers where nodes > 1")" -gt 0 ]
check "a varied cache: live listings" \
    [ "$(sqlite3 "$DB" "select count(*) from offers where provider = 'vast' and source = 'live'")" -gt 0 ]

# same NAME ARGS...: stdout and exit status of gpucost ARGS -q (the
# summary index) and gpucost ARGS (the full path) are the same.
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

for by in gpu provider region continent gpu,provider continent,gpu; do
	for extra in "" "--gpu H100" "--gpu A100 --count 8" "--spot" \
	    "--max-price 2" "--spot --max-price 0.5" "--provider aws,gcp,vast" \
	    "--sort spot --reverse" "--sort provider" "--available" \
	    "--no-outliers --min-vram 40" "--interconnect nvlink" \
	    "--term 12" "--region europe" "--include-stale" "--fabric efa" \
	    "--min-node-gbps 400"; do
		# shellcheck disable=SC2086
		same "--group-by $by $extra csv" --group-by "$by" $extra \
		    --format csv
	done
	same "--group-by $by json --limit 3" --group-by "$by" --format json \
	    --limit 3
	same "--group-by $by table" --group-by "$by" --gpu H100
	same "--group-by $by tsv, no match" --group-by "$by" --gpu H100 \
	    --max-price 0.01 --format tsv
done

# The shortcut reads far fewer offers whole; the full path every one.
GPUCOST_DEBUG_READS=1 run --db "$DB" --group-by gpu --format csv -q
fast=$(sed -n 's/^gpucost: debug: \([0-9]*\) offers read whole$/\1/p' "$T/err")
GPUCOST_DEBUG_READS=1 run --db "$DB" --group-by gpu --format csv
full=$(sed -n 's/^gpucost: debug: \([0-9]*\) offers read whole$/\1/p' "$T/err")
# One test each (check runs its words; an "&& [ ... ]" after it would
# run outside the check and count for nothing): an empty count fails.
check "--group-by gpu -q reads only the cheapest ties whole ($fast of $total)" \
    [ "${fast:-$total}" -lt "$((total / 4))" ]
check "... the full path reads every offer ($full)" \
    [ "${full:-0}" -ge "$((total / 2))" ]

# Plans of several nodes: the first N of --limit N are the first N of the
# whole answer (no --limit: every offer read), the count of all matches
# is the whole answer's.
for shape in "--multi-node --count 16" "--multi-node --count 16 --min-vram 40" \
    "--multi-node --count 8" "--multi-node --count 32 --gpu H100" \
    "--nodes 2" "--nodes 4 --count 32" "--nodes 2 --gpu A100" \
    "--multi-node --count 16 --fabric efa" \
    "--multi-node --count 16 --fabric infiniband,roce" \
    "--multi-node --count 16 --max-price 3" "--multi-node --count 16 --spot" \
    "--multi-node --count 64 --min-node-gbps 800" \
    "--multi-node --count 16 --region us" "--multi-node --count 24" \
    "--multi-node --count 16 --provider runpod-clusters,aws" \
    "--multi-node --count 16 --fabric any" "--multi-node --count 2 --fabric any" \
    "--nodes 2 --fabric any" "--nodes 3 --fabric any --gpu H100" \
    "--fabric efa" "--fabric any --count 8" "--min-node-gbps 400" \
    "--fabric rdma --min-vram 40"; do
	# shellcheck disable=SC2086
	run --db "$DB" $shape --format csv -q
	all_status=$status
	head -n 6 "$T/out" > "$T/all"
	rows=$(($(wc -l < "$T/out") - 1))
	[ "$rows" -lt 0 ] && rows=0
	# shellcheck disable=SC2086
	run --db "$DB" $shape --format csv -q --limit 5
	check "$shape --limit 5: the first 5 of the whole answer" \
	    cmp -s "$T/out" "$T/all"
	check "$shape --limit 5: same status ($all_status)" status_is "$all_status"
	# shellcheck disable=SC2086
	run --db "$DB" $shape --format json --limit 5
	check "$shape --limit 5 json: matched is all $rows" \
	    grep -q "\"matched\": $rows," "$T/out"
done
run --db "$DB" --multi-node --count 16 --format csv -q
check "multi-node plans exist in this cache" [ "$(wc -l < "$T/out")" -gt 6 ]
check "... cluster products among them" grep -q runpod-clusters "$T/out"

for shape in "--multi-node --count 16" "--multi-node --count 16 --fabric any" \
    "--nodes 2" "--fabric efa"; do
	# shellcheck disable=SC2086
	GPUCOST_DEBUG_READS=1 run --db "$DB" $shape --format csv -q --limit 5
	fast=$(sed -n 's/^gpucost: debug: \([0-9]*\) offers read whole$/\1/p' "$T/err")
	check "$shape --limit 5 reads few offers whole ($fast of $total)" \
	    [ "${fast:-$total}" -lt "$((total / 4))" ]
done

# --limit on a sort SQL cannot order (host per GPU): the first rows of the
# whole answer, not the first rows SQL happens to return (failed before).
for k in vcpus-per-gpu ram-per-gpu; do
	for extra in "" "--gpu H100"; do
		# shellcheck disable=SC2086
		run --db "$DB" --sort "$k" $extra --format csv -q
		head -n 4 "$T/out" > "$T/all"
		# shellcheck disable=SC2086
		run --db "$DB" --sort "$k" $extra --format csv -q --limit 3
		check "--sort $k $extra --limit 3: the first 3 of the whole answer" \
		    cmp -s "$T/out" "$T/all"
		# shellcheck disable=SC2086
		run --db "$DB" history --sort "$k" $extra --format csv -q
		awk -F, 'NR == 1 { print; next }
		    { k = $1 FS $2; if (!(k in seen)) { if (n == 3) exit; seen[k] = 1; n++ } print }' \
		    "$T/out" > "$T/all"
		# shellcheck disable=SC2086
		run --db "$DB" history --sort "$k" $extra --format csv -q --limit 3
		check "history --sort $k $extra --limit 3: the first 3 offers' points" \
		    cmp -s "$T/out" "$T/all"
	done
done

# history --limit 5: the same offers' points as the first 5 offers of the
# whole answer (CSV: one row a point, the offers in the query's order).
for shape in "" "--gpu H100" "--provider vast --sort spot" "--count 8" \
    "--multi-node --count 16" "--nodes 2 --gpu A100" "--region europe"; do
	# shellcheck disable=SC2086
	run --db "$DB" history $shape --format csv -q
	all_status=$status
	awk -F, 'NR == 1 { print; next }
	    { k = $1 FS $2; if (!(k in seen)) { if (n == 5) exit; seen[k] = 1; n++ } print }' \
	    "$T/out" > "$T/all"
	# shellcheck disable=SC2086
	run --db "$DB" history $shape --format csv -q --limit 5
	check "history $shape --limit 5: the first 5 offers' points" \
	    cmp -s "$T/out" "$T/all"
	check "history $shape --limit 5: same status ($all_status)" \
	    status_is "$all_status"
done
GPUCOST_DEBUG_READS=1 run --db "$DB" history --gpu H100 --format csv -q --limit 5
fast=$(sed -n 's/^gpucost: debug: \([0-9]*\) offers read whole$/\1/p' "$T/err")
check "history --limit 5 reads few offers whole ($fast of $total)" \
    [ "${fast:-$total}" -lt "$((total / 4))" ]

# watch --limit 3: the first news and what the watch keeps, as the full
# path (GPUCOST_DEBUG_FULL_READ) finds them, run after run, while prices
# fall and offers go; on two copies of the cache (the watch lives in it).
cp "$DB" "$T/w1.db"
cp "$DB" "$T/w2.db"
# The times of the runs themselves (JSON's generated_at, and a change's
# reported_at: when the copy's previous run reported it): the two runs
# of a pair may fall in different seconds on a busy machine.
run_times() {
	sed -E 's/"(generated|reported)_at": "[^"]*"/"\1_at": "(run)"/g' "$1"
}
# watch_pair NAME ARGS...: the same run on both copies; same output.
watch_pair() {
	name=$1
	shift
	run --db "$T/w1.db" watch "$@"
	run_times "$T/out" > "$T/fast"
	fast_status=$status
	GPUCOST_DEBUG_FULL_READ=1 run --db "$T/w2.db" watch "$@"
	run_times "$T/out" > "$T/full"
	check "watch $name: same news" cmp -s "$T/fast" "$T/full"
	check "watch $name: same status ($fast_status)" status_is "$fast_status"
	# Each watch's known offers but when they were reported (the two
	# runs may fall in different seconds).
	for w in w1 w2; do
		sqlite3 "$T/$w.db" "select query, known from watch order by 1" |
		    awk -F'\t' 'BEGIN { OFS = "\t" } NF >= 5 { NF-- } { print }' > "$T/$w.kept"
	done
	check "watch $name: the same offers kept" cmp -s "$T/w1.kept" "$T/w2.kept"
}
# both SQL: the same change on both copies.
both() { sqlite3 "$T/w1.db" "$1" && sqlite3 "$T/w2.db" "$1"; }
# known_pick N|last: the Nth (or last) of the offers w1's watches know
# (watch.known: a "provider TAB key TAB ..." line each, one per watch
# that knows it) in SQL's order, as a row of SQL values.
known_pick() {
	sqlite3 "$T/w1.db" "select known from watch" |
	    awk -F'\t' 'NF == 5 { print $1 "\t" $2 }' | LC_ALL=C sort > "$T/known"
	if [ "$1" = last ]; then
		line=$(tail -n 1 "$T/known")
	else
		line=$(sed -n "${1}p" "$T/known")
	fi
	printf "(values ('%s', '%s'))" \
	    "$(printf '%s' "$line" | cut -f1 | sed "s/'/''/g")" \
	    "$(printf '%s' "$line" | cut -f2 | sed "s/'/''/g")"
}
for q in "--gpu H100" "--provider vast --sort spot" "--count 8 --spot"; do
	# shellcheck disable=SC2086
	for round in 1 2 3; do
		watch_pair "$q round $round" $q --limit 3 --format csv
	done
	# shellcheck disable=SC2086
	watch_pair "$q json" $q --limit 2 --format json --quiet
	# Cheaper: a known offer and an unseen one; one known offer gone.
	both "update offers set price = price / 2, sk_gpu_price = sk_gpu_price / 2, sk_spot_gpu = sk_spot_gpu / 2, spot_price = spot_price / 2 where (provider, key) in $(known_pick 1) or key = (select max(key) from offers where nodes = 1)"
	both "delete from offers where (provider, key) in $(known_pick last)"
	# shellcheck disable=SC2086
	watch_pair "$q after changes" $q --limit 3 --format csv
	# shellcheck disable=SC2086
	watch_pair "$q after changes, again" $q --limit 3 --format csv
	# A known offer taken, then back: available again (news).
	pick=$(known_pick 2)
	check "$q: the watches know offers to change ($(wc -l < "$T/known"))" [ "$(wc -l < "$T/known")" -ge 2 ]
	both "update offers set availability = 'unavailable' where (provider, key) in $pick"
	# shellcheck disable=SC2086
	watch_pair "$q one taken" $q --limit 3 --format csv
	both "update offers set availability = 'available' where (provider, key) in $pick"
	# shellcheck disable=SC2086
	watch_pair "$q available again" $q --limit 3 --format csv
	# shellcheck disable=SC2086
	watch_pair "$q available again, json" $q --limit 3 --format json
done

# A watch reads whole only the news it shows: the offers it knows and
# passes on its walk are judged on the walk's values (12 known, 3 read;
# the first N + K walk read 15).
cp "$DB" "$T/w3.db"
# As a refresh leaves them: the snapshot's rows are a watch's baseline,
# read whole (issue 44 item 10), never news.
sqlite3 "$T/w3.db" "UPDATE offers SET source = 'live'; UPDATE provider_status SET source = 'live'"
run --db "$T/w3.db" watch --gpu H100 --limit 12 --format csv -q
check "watch --gpu H100 --limit 12: 12 news" \
    [ "$(sed 1d "$T/out" | wc -l)" -eq 12 ]
GPUCOST_DEBUG_READS=1 run --db "$T/w3.db" watch --gpu H100 --limit 3 --format csv -q
check "watch --limit 3 after 12 known: 3 news" \
    [ "$(sed 1d "$T/out" | wc -l)" -eq 3 ]
fast=$(sed -n 's/^gpucost: debug: \([0-9]*\) offers read whole$/\1/p' "$T/err")
check "watch --limit 3 after 12 known reads 3 offers whole (${fast:-?})" \
    [ "${fast:-0}" -eq 3 ]

finish
