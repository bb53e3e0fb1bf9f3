#!/bin/sh
# bench/aws.sh: `gpucost refresh --provider aws` of one region whose
# price list is a generated 200 MB AWS-format CSV served on 127.0.0.1,
# against `curl -s URL | grep -c GPU` on the same URL (target <= 1.5x);
# its peak RSS (target <= 64 MB); and the same at 1 GB, whose RSS must
# stay flat (<= 1.1x the 200 MB figure).
#
# bench/gen_aws writes the CSV: the real preamble and 91-column header,
# ~560 rows per instance type (12 OS/software pairs x tenancies x
# capacity statuses x 20 reserved terms), 1 type in 10 with GPUs, so
# GPU offers are well under 1 % of the rows; past ~160 MB it grows with
# Local Zone rows that gpucost reads and skips. Each refresh starts
# from the same snapshot-seeded cache (a cached region version would
# skip the download).
. "$(dirname "$0")/lib.sh"

if ! have curl; then
	echo "bench/aws.sh: curl is needed for the baseline; skipped" >&2
	exit 0
fi
gen_aws_bin
mb=${BENCH_AWS_MB:-200}
big=${BENCH_AWS_BIG_MB:-1000}
[ "$BENCH_QUICK" = 1 ] && big=0
d=$B/aws
mkdir -p "$d"
fx=$TOP_SRCDIR/tests/fixtures/aws
cp "$fx/region_index.json" "$fx/spot.json" "$fx/spot-advisor-data.json" "$d/"
csv=/offers/v1.0/aws/AmazonEC2/current/us-east-1/index.csv
cat > "$d/routes" <<ROUTES
GET /offers/v1.0/aws/AmazonEC2/current/region_index.json  region_index.json
GET $csv  us-east-1.csv
GET /spot.json  spot.json
GET /spot-advisor-data.json  spot-advisor-data.json
ROUTES
"$gen_aws" us-east-1 "$mb" > "$d/us-east-1.csv" || exit 1
serve aws "$d" "$d/routes"
GPUCOST_AWS_URL=$url
GPUCOST_AWS_REGIONS=us-east-1
export GPUCOST_AWS_URL GPUCOST_AWS_REGIONS

seeded_cache "$B/seed.db"
prep="cp '$B/seed.db' '$B/run.db' && rm -f '$B/run.db-wal' '$B/run.db-shm'"
refresh=$(cmdline "$GPUCOST" --db "$B/run.db" refresh --provider aws)
bcmd=$(cmdline sh -c "curl -s '$url$csv' | grep -c GPU")
sh -c "$prep"
check_run "$refresh" || exit 1
offers=$(sqlite3 "$B/run.db" "select count(*) from offers where provider = 'aws' and source = 'live'" 2>/dev/null)
rows=$(($(wc -l < "$d/us-east-1.csv") - 6))
size=$(wc -c < "$d/us-east-1.csv")
mb=$((size / 1000000))	# the list holds every GPU type: ~160 MB at least
measure_pair "$BENCH_RUNS" "$prep" "$bcmd" "$refresh" || exit 1
report "aws: refresh, $mb MB price list" "$median" "curl -s URL | grep -c GPU" \
    "$base" ratio 1.5
note "aws: $size bytes, $rows rows, ${offers:-?} GPU offers kept"

sh -c "$prep"
peak_rss "$GPUCOST" --db "$B/run.db" refresh --provider aws
rss_small=$rss_kb
peak_rss curl -s -o /dev/null "$url$csv"
report "aws: peak RSS, $mb MB price list" "$rss_small" "curl -s URL -o /dev/null" \
    "$rss_kb" kb 65536

[ "$big" -gt 0 ] || exit 0
avail=$(df -Pk "$d" | awk 'NR == 2 { print $4 }')
if [ "${avail:-0}" -lt $((big * 1000 + 100000)) ]; then
	note "aws: not enough space in ${TMPDIR:-/tmp} for the $big MB list; skipped"
	exit 0
fi
rm -f "$d/us-east-1.csv"
"$gen_aws" us-east-1 "$big" > "$d/us-east-1.csv" || exit 1
sh -c "$prep"
peak_rss "$GPUCOST" --db "$B/run.db" refresh --provider aws
[ "$rss_status" -eq 0 ] || { echo "bench/aws.sh: the $big MB refresh failed" >&2; exit 1; }
big=$(($(wc -c < "$d/us-east-1.csv") / 1000000))
report "aws: peak RSS, $big MB price list" "$rss_kb" "the same, $mb MB list" \
    "$rss_small" kbratio 1.1
measure_pair 3 "$prep" "$bcmd" "$refresh" || exit 1
report "aws: refresh, $big MB price list" "$median" "curl -s URL | grep -c GPU" \
    "$base" ratio 1.5
rm -f "$d/us-east-1.csv"
