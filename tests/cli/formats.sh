#!/bin/sh
# The output contract: table, CSV (RFC 4180), TSV and JSON.
. "$(dirname "$0")/../lib.sh"

fields="provider,instance_type,region,gpu,gpu_raw,gpu_count,nodes,total_gpus,vram_gb,interconnect,vcpus,ram_gb,price_hour,price_gpu_hour,spot_hour,spot_gpu_hour,spot_savings_pct,usd_per_pflop_hour,availability,spot_interruption,reliability,source,fetched_at,key"
# Appended after the totals (shown only with --hours): never reordered.
tail="notes,node_keys,inter_node,spot_zone,currency,price_original"
# Fields added after them (issue 12).
added="form,country,continent,vcpus_per_gpu,ram_gb_per_gpu,launch,launch_spot,zones,quota,vertex_training,launch_vertex"
# Issue 26: the fabric between nodes, and what kind of plan it is.
added="$added,fabric,node_gbps,gpudirect_rdma,placement,gpus_per_node,plan_type,cluster_setup"
# Committed prices (issue 27): always; their job total only with --hours.
added="$added,committed,term,term_hour,term_gpu_hour,term_savings_pct"
# Issue 47: after the term's total (shown only with --hours), what a market
# price starts from.
last="price_from"
# Issue 44: where the offer can be started (a region "all": its provider's).
last="$last,regions"

run --db "$DB" --provider vast --include-stale --format csv --quiet
check "csv exits 0" status_is 0
check "csv header is the contract" [ "$(head -1 "$T/out" | tr -d '\r')" = "$fields,$tail,$added,$last" ]
check "csv: notes joined with ;" out_has ',single-listing;stale,'
check "csv lines end in CRLF" [ "$(head -1 "$T/out" | tail -c 2 | od -An -c | tr -s ' ' | grep -c '\\r \\n')" -eq 1 ]
check "csv leaves unknown prices empty" out_has ',,'
run --db "$DB" --provider gcp --gpu H100 --count 8 --region us-east4 --limit 1 --format csv --quiet
check "csv quotes a field with a comma (Vertex AI's worker pool)" out_has ',"gcloud ai custom-jobs create [^"]*,replica-count=1,[^"]*"'

run --db "$DB" --provider vast --include-stale --format tsv --quiet
check "tsv exits 0" status_is 0
check "tsv header" [ "$(head -1 "$T/out")" = "$(echo "$fields,$tail,$added,$last" | tr ',' '\t')" ]
check "tsv has no quotes" out_lacks '"'
check "tsv: same number of fields on every line" [ "$(awk -F'\t' '{ print NF }' "$T/out" | sort -u | wc -l)" -eq 1 ]

run --db "$DB" --gpu H100 --count 8 --format csv --hours 24 --quiet
check "--hours adds total_cost and total_spot_cost" [ "$(head -1 "$T/out" | tr -d '\r')" = "$fields,total_cost,total_spot_cost,$tail,$added,total_term_cost,$last" ]

run --db "$DB" --gpu H100 --count 8 --format json --hours 24 --limit 5
check "json exits 0" status_is 0
if command -v jq >/dev/null 2>&1; then
	check "json is valid" jq -e . "$T/out" >/dev/null
	check "json: count 5" [ "$(jq '.count' "$T/out")" -eq 5 ]
	check "json: matched >= count" [ "$(jq '.matched >= .count' "$T/out")" = true ]
	check "json: offer fields in contract order" [ "$(jq -r '.offers[0] | keys_unsorted | join(",")' "$T/out")" = "$fields,total_cost,total_spot_cost,$tail,$added,total_term_cost,$last" ]
	check "json: notes is always an array" [ "$(jq '[.offers[] | .notes | type == "array"] | all' "$T/out")" = true ]
	check "json: node_keys has one key per node" [ "$(jq '[.offers[] | (.node_keys | length) == .nodes] | all' "$T/out")" = true ]
	check "json: one node has no inter_node" [ "$(jq '[.offers[] | select(.nodes == 1) | .inter_node == null] | all' "$T/out")" = true ]
	check "json: prices are numbers" [ "$(jq -r '.offers[0].price_hour | type' "$T/out")" = number ]
	check "json: total_cost = price_hour x 24" [ "$(jq '[.offers[] | select(.price_hour != null) | ((.total_cost - .price_hour * 24) | fabs) < 0.000001] | all' "$T/out")" = true ]
	check "json: per-GPU = price / gpu_count" [ "$(jq '[.offers[] | select(.price_hour != null) | ((.price_gpu_hour - .price_hour / .gpu_count) | fabs) < 0.000001] | all' "$T/out")" = true ]
	check "json: fetched_at is ISO 8601 UTC" [ "$(jq -r '.offers[0].fetched_at' "$T/out" | grep -c '^[0-9]\{4\}-[0-9][0-9]-[0-9][0-9]T[0-9:]\{8\}Z$')" -eq 1 ]
	nprov=$("$GPUCOST" --help | sed -n '/^providers:/,/\.$/p' | tr -d '\n ' | sed 's/^providers://; s/\.$//' | awk -F, '{ print NF }')
	check "json: data age per provider ($nprov)" [ "$(jq '.providers | length' "$T/out")" -eq "$nprov" ]
	check "json: interconnect values" [ -z "$(jq -r '.offers[].interconnect' "$T/out" | grep -v -x -e nvlink -e pcie -e unknown)" ]
	check "json: availability values" [ -z "$(jq -r '.offers[].availability' "$T/out" | grep -v -x -e available -e limited -e unavailable -e unknown)" ]
	run --db "$DB" --gpu A100 --format json --quiet
	check "json: unknown spot is null, never 0" [ "$(jq '[.offers[] | select(.spot_hour == 0)] | length' "$T/out")" -eq 0 ]
	check "json: some unknown spot prices are null" [ "$(jq '[.offers[] | select(.spot_hour == null)] | length' "$T/out")" -gt 0 ]
	run --db "$DB" --gpu H100 --provider lambda --count 3 --format json
	check "json with no match: exit 1" status_is 1
	check "json with no match: still a document" [ "$(jq '.offers | length' "$T/out")" -eq 0 ]
else
	echo "jq not installed: skipping the JSON structure checks" >&2
	check "json has an offers array" out_has '"offers": \['
fi

# Table: fits the width, drops the least important columns first.
COLUMNS=60 run --db "$DB" --gpu H100 --count 8 --limit 5
check "table at 60 columns: no line longer than 60" [ "$(awk '{ if (length($0) > m) m = length($0) } END { print m }' "$T/out")" -le 60 ]
check "table at 60 columns keeps the per-GPU price" out_has 'GPU-H'
check "table at 60 columns drops \$/PFLOP-H" out_lacks 'PFLOP'
COLUMNS=200 run --db "$DB" --gpu H100 --count 8 --limit 5
check "table at 200 columns shows \$/PFLOP-H" out_has 'PFLOP'
check "table: 5 rows + header" [ "$(wc -l < "$T/out")" -eq 6 ]

finish
