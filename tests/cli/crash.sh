#!/bin/sh
# Crash consistency: kill -9 a refresh at random points, many times
# (`make check-soak` draws two to three times as many as `make check`),
#  - during a large AWS price-list download (a ~33 MB regional CSV of
#    distractor rows and a few GPU rows, served slowly with drip=), and
#  - during the cache write (a Vast answer of 20,000 offers, killed 0-300
#    ms after its write transaction began),
# and after each kill: PRAGMA integrity_check says ok; each provider's
# offers are either all the old ones or all the new ones (fingerprints
# recorded from uninterrupted runs); its status row agrees with its
# offers; and the next refresh works at once (--wait 0: the lock died
# with the process).
#
# Also an Azure refresh killed between its pages (page 2 stalled), and
# refresh --from killed while its copy downloads.
#
# CRASH_SEED=N repeats a run's kill times.
. "$(dirname "$0")/../lib.sh"

command -v sqlite3 >/dev/null 2>&1 || { echo "sqlite3 is needed" >&2; exit 77; }

SEED=${CRASH_SEED:-$$}
KILLS=$(soak 8 20)	# kills wanted in each phase
TRIES=$((KILLS * 4))	# at most this many attempts per phase (a busy
			# machine misses more: a kill can land before the request)
FX=$TOP_SRCDIR/tests/fixtures
echo "crash.sh: CRASH_SEED=$SEED"

# alive PID: the process runs (not gone, not a zombie waiting for wait).
alive() {
	kill -0 "$1" 2>/dev/null || return 1
	case $(ps -o stat= -p "$1" 2>/dev/null) in Z*) return 1 ;; esac
	return 0
}

# The write lock of the cache is held (a write transaction is open).
write_locked() { ! sqlite3 "$DB" 'BEGIN IMMEDIATE; ROLLBACK;' >/dev/null 2>&1; }
# A refresh marks Vast "did not finish" before it fetches: the next write
# lock it takes is the offers' transaction.
vast_marked() {
	sqlite3 "$DB" "select last_error from provider_status where provider = 'vast'" 2>/dev/null |
	    grep -q 'did not finish'
}

# after_kill PROVIDER OLD NEW WHAT: the checks every kill must pass.
# Sets $outcome to old or new.
after_kill() {
	ic=$(sqlite3 "$DB" 'PRAGMA integrity_check' 2>&1)
	check "$4: integrity_check ok ($ic)" [ "$ic" = ok ]
	sum=$(offers_data_sum "$1")
	if [ "$sum" = "$2" ]; then
		outcome=old
	elif [ "$sum" = "$3" ]; then
		outcome=new
	else
		outcome=mixed
	fi
	check "$4: $1 offers all old or all new (got $outcome)" [ "$outcome" != mixed ]
	check "$4: $1 status agrees with its offers" [ \
	    "$(sqlite3 "$DB" "select offer_count from provider_status where provider = '$1'")" = \
	    "$(sqlite3 "$DB" "select count(*) from offers where provider = '$1'")" ]
}

run --db "$DB" providers
check "seeded" status_is 0

# ---------------------------------------------------------------------
# AWS: old = the small recorded us-east-1 list; new = a big one with one
# price changed and a newer version, served fast (reference) or slowly.
# ---------------------------------------------------------------------
mkdir -p "$T/aws"
cp "$FX/aws/spot.json" "$FX/aws/spot-advisor-data.json" "$FX/aws/us-east-1.csv" "$T/aws/"
cp "$FX/aws/region_index.json" "$T/aws/index-old.json"
sed 's|/AmazonEC2/[0-9]*/us-east-1/|/AmazonEC2/20260101000000/us-east-1/|' \
    "$FX/aws/region_index.json" > "$T/aws/index-new.json"
check "new region index has the new version" grep -q 20260101000000 "$T/aws/index-new.json"
subst_first "$FX/aws/us-east-1.csv" "$T/aws/gpu-rows.csv" '"Hrs","1.0060000000","USD"' \
    '"Hrs","1.2060000000","USD"' '$1.006 per On Demand Linux g5.xlarge'
check "new price list has the changed price" grep -q '"1.2060000000"' "$T/aws/gpu-rows.csv"
# 60,000 distractor rows (an m5 row and an EBS row, each with its own
# SKU), then the recorded rows with their GPU rows.
awk -v n=60000 '
NR <= 6 {
	if ($0 ~ /^"Version"/)
		$0 = "\"Version\",\"20260101000000\""
	print
	next
}
NR == 7 || NR == 8 { d[++nd] = substr($0, index($0, "\",\"")) }
{ rows[++nr] = $0 }
END {
	for (i = 1; i <= n; i++)
		print "\"DISTRACTOR" i d[i % nd + 1]
	for (i = 1; i <= nr; i++)
		print rows[i]
}' "$T/aws/gpu-rows.csv" > "$T/aws/big.csv"
size=$(wc -c < "$T/aws/big.csv")
check "big price list is 30-50 MB ($size bytes)" eval '[ "$size" -gt 30000000 ] && [ "$size" -lt 50000000 ]'
CSV=/offers/v1.0/aws/AmazonEC2/current/us-east-1/index.csv
IDX=/offers/v1.0/aws/AmazonEC2/current/region_index.json
for v in old new drip; do
	case $v in
	old) idx=index-old.json csv=us-east-1.csv opt= ;;
	new) idx=index-new.json csv=big.csv opt= ;;
	drip) idx=index-new.json csv=big.csv opt="drip=65536/2" ;;
	esac
	{
		echo "GET $IDX $idx"
		echo "GET $CSV $csv $opt"
		echo "GET /spot.json spot.json"
		echo "GET /spot-advisor-data.json spot-advisor-data.json"
	} > "$T/aws/routes-$v"
	serve "aws-$v" "$T/aws" "$T/aws/routes-$v"
	eval "aws_$v=\$url"
done
GPUCOST_AWS_REGIONS=us-east-1
export GPUCOST_AWS_REGIONS

# Back to the old AWS data, through a refresh that must start at once.
aws_reset() {
	GPUCOST_AWS_URL=$aws_old run --db "$DB" refresh --provider aws --wait 0
	check "$1: the next refresh starts at once and works ($status)" status_is 0
	if [ "$(offers_data_sum aws)" != "$aws_a" ]; then
		# Killed between the offers' commit and the record of their
		# version: the old list "is unchanged" and keeps the new rows.
		torn=$((torn + 1))
		sqlite3 "$DB" "delete from provider_meta where provider = 'aws'"
		GPUCOST_AWS_URL=$aws_old run --db "$DB" refresh --provider aws --wait 0
	fi
	check "$1: back to the old AWS offers" [ "$(offers_data_sum aws)" = "$aws_a" ]
}

torn=0
GPUCOST_AWS_URL=$aws_old run --db "$DB" refresh --provider aws
check "aws old: refresh works" status_is 0
aws_a=$(offers_data_sum aws)
GPUCOST_AWS_URL=$aws_new run --db "$DB" refresh --provider aws
check "aws new: refresh works" status_is 0
aws_b=$(offers_data_sum aws)
check "aws old and new offers differ" [ "$aws_a" != "$aws_b" ]
aws_reset "aws reference"
# How long the slow download takes, uninterrupted.
start=$(now_s)
GPUCOST_AWS_URL=$aws_drip run --db "$DB" refresh --provider aws
dl=$(since "$start")
check "aws slow: refresh works" status_is 0
check "aws slow: same offers as fast" [ "$(offers_data_sum aws)" = "$aws_b" ]
dl_ms=$(awk -v s="$dl" 'BEGIN { printf "%d", s * 1000 }')
check "aws slow: the download takes a while (${dl}s)" [ "$dl_ms" -ge 800 ]
echo "aws: slow refresh of $size bytes took ${dl}s"

# Kill at random points of the download, below the drip's own pace
# (65536 bytes every 2 ms): no run can finish sooner, however idle the
# machine. (The time measured above may be a busy moment's, and kills
# up to it then come after later runs ended.)
drip_ms=$((size / 65536 * 2))
random_ms "$SEED" "$TRIES" 50 $((drip_ms * 9 / 10)) > "$T/delays-aws"
during=0
attempts=0
old=0
new=0
while [ "$during" -lt "$KILLS" ] && [ "$attempts" -lt "$TRIES" ] && read -r d <&3; do
	attempts=$((attempts + 1))
	aws_reset "aws kill $attempts"
	csv_before=$(grep -c "^REQ GET $CSV" "$T/aws-drip.log")
	GPUCOST_AWS_URL=$aws_drip "$GPUCOST" --db "$DB" refresh --provider aws \
	    --timeout 60 >/dev/null 2>"$T/bg.err" &
	pid=$!
	ms_sleep "$d"
	killed=no
	if alive "$pid"; then
		kill -9 "$pid" 2>/dev/null && killed=yes
	fi
	{ wait "$pid"; } 2>/dev/null
	rc=$?
	csv_after=$(grep -c "^REQ GET $CSV" "$T/aws-drip.log")
	after_kill aws "$aws_a" "$aws_b" "aws kill $attempts at ${d} ms"
	eval "$outcome=\$(($outcome + 1))"
	# During the download: killed, the list requested, nothing written.
	if [ "$killed" = yes ] && [ "$rc" -eq 137 ] &&
	    [ "$csv_after" -gt "$csv_before" ] && [ "$outcome" = old ]; then
		during=$((during + 1))
	fi
done 3< "$T/delays-aws"
aws_reset "aws after the kills"
echo "aws: $attempts kills, $during during the download; old $old, new $new; $torn between offers and version"
check "aws: at least $KILLS kills during the download ($during)" [ "$during" -ge "$KILLS" ]

# ---------------------------------------------------------------------
# Vast: old = the recorded answer (10 offers); new = 20,000 other offers.
# ---------------------------------------------------------------------
mkdir -p "$T/vast"
cp "$FX/vast/offers.json" "$T/vast/old.json"
awk -v n=20000 'BEGIN {
	split("RTX 4090|RTX 3090|A100 SXM4|H100 SXM|L40S|RTX A6000", names, "|")
	split("Oregon, US|Texas, US|Quebec, CA|Bavaria, DE|Tokyo, JP", places, "|")
	printf "{\"offers\": [\n"
	for (i = 1; i <= n; i++)
		printf "{\"id\": %d, \"dph_total\": %.4f, \"min_bid\": %.4f, " \
		    "\"num_gpus\": %d, \"gpu_name\": \"%s\", \"gpu_ram\": 24564, " \
		    "\"geolocation\": \"%s\", \"rentable\": true}%s\n",
		    7000000 + i, 0.2 + (i % 700) / 100, 0.1 + (i % 300) / 1000,
		    1 + i % 8, names[1 + i % 6], places[1 + i % 5], i < n ? "," : ""
	printf "]}\n"
}' > "$T/vast/new.json"
for v in old new; do
	echo "POST /api/v0/bundles/ $v.json" > "$T/vast/routes-$v"
	serve "vast-$v" "$T/vast" "$T/vast/routes-$v"
	eval "vast_$v=\$url"
done

vast_reset() {
	GPUCOST_VAST_URL=$vast_old run --db "$DB" refresh --provider vast --wait 0
	check "$1: the next refresh starts at once and works ($status)" status_is 0
	check "$1: back to the old Vast offers" [ "$(offers_data_sum vast)" = "$vast_a" ]
}

GPUCOST_VAST_URL=$vast_old run --db "$DB" refresh --provider vast
check "vast old: refresh works" status_is 0
vast_a=$(offers_data_sum vast)
# The new data, uninterrupted, timing its write transaction.
GPUCOST_VAST_URL=$vast_new "$GPUCOST" --db "$DB" refresh --provider vast \
    --timeout 60 >/dev/null 2>"$T/bg.err" &
pid=$!
wait_for 60 vast_marked
wait_for 60 write_locked
t0=$(now_s)
wait_for 60 eval '! write_locked'
txn=$(since "$t0")
wait "$pid"
check "vast new: refresh works" [ $? -eq 0 ]
check "vast new: 20000 offers" [ "$(sqlite3 "$DB" "select count(*) from offers where provider = 'vast'")" -eq 20000 ]
vast_b=$(offers_data_sum vast)
check "vast old and new offers differ" [ "$vast_a" != "$vast_b" ]
txn_ms=$(awk -v s="$txn" 'BEGIN { printf "%d", s * 1000 }')
echo "vast: writing 20000 offers held the write lock for ${txn}s"
# Kill within the transaction: 0-300 ms after it began, or less when it
# is shorter than that (a fast build): at most 60% of its measured time.
hi=$((txn_ms * 6 / 10))
[ "$hi" -gt 300 ] && hi=300
[ "$hi" -lt 1 ] && hi=1
random_ms "$((SEED + 1))" "$TRIES" 0 "$hi" > "$T/delays-vast"

inside=0
spilled=0
attempts=0
old=0
new=0
while [ "$inside" -lt "$KILLS" ] && [ "$attempts" -lt "$TRIES" ] && read -r d <&3; do
	attempts=$((attempts + 1))
	vast_reset "vast kill $attempts"
	sqlite3 "$DB" 'PRAGMA wal_checkpoint(TRUNCATE)' >/dev/null
	GPUCOST_VAST_URL=$vast_new "$GPUCOST" --db "$DB" refresh --provider vast \
	    --timeout 60 >/dev/null 2>"$T/bg.err" &
	pid=$!
	# The transaction began when the write lock is taken (after the mark).
	locked=no
	n=0
	while alive "$pid" && [ "$n" -lt 6000 ] && ! vast_marked; do
		n=$((n + 1))
		sleep 0.01
	done
	while alive "$pid" && [ "$n" -lt 6000 ]; do
		if write_locked; then
			locked=yes
			break
		fi
		n=$((n + 1))
		sleep 0.01
	done
	killed=no
	if [ "$locked" = yes ]; then
		ms_sleep "$d"
		if alive "$pid"; then
			kill -9 "$pid" 2>/dev/null && killed=yes
		fi
	fi
	{ wait "$pid"; } 2>/dev/null
	rc=$?
	# Pages of the unfinished transaction already in the WAL?
	[ -f "$DB-wal" ] && [ "$(wc -c < "$DB-wal")" -gt 0 ] && [ "$rc" -eq 137 ] &&
	    spilled=$((spilled + 1))
	after_kill vast "$vast_a" "$vast_b" "vast kill $attempts at ${d} ms"
	eval "$outcome=\$(($outcome + 1))"
	if [ "$killed" = yes ] && [ "$rc" -eq 137 ] && [ "$outcome" = old ]; then
		inside=$((inside + 1))
	fi
done 3< "$T/delays-vast"
vast_reset "vast after the kills"
echo "vast: $attempts kills in 0-$hi ms of the write, $inside inside the transaction (old kept), $spilled of them with uncommitted pages in the WAL; old $old, new $new"
check "vast: at least $KILLS kills inside the write transaction ($inside)" [ "$inside" -ge "$KILLS" ]

# ---------------------------------------------------------------------
# Azure, a paged API: killed between pages (page 1 parsed, page 2 still
# coming, 0-1500 ms into its stall), the cache keeps the old offers.
# ---------------------------------------------------------------------
AZ_KILLS=$(soak 5 10)
mkdir -p "$T/azure"
cp "$FX/azure/prices-1.json" "$T/azure/"
subst_first "$FX/azure/prices-2.json" "$T/azure/prices-2.json" \
    '"retailPrice": 127.816' '"retailPrice": 129.5'
check "azure: page 2 has the changed price" grep -q '129.5' "$T/azure/prices-2.json"
for v in new stall; do
	opt=
	[ "$v" = stall ] && opt="delay=3000"
	{
		echo "GET /api/retail/prices?\$skip=1000 prices-2.json $opt"
		echo "GET /api/retail/prices?api-version=2023-01-01-preview prices-1.json"
	} > "$T/azure/routes-$v"
	serve "azure-$v" "$T/azure" "$T/azure/routes-$v"
	eval "azure_$v=\$url"
done
serve azure-old "$FX/azure"
azure_old=$url
GPUCOST_AZURE_URL=$azure_new run --db "$DB" refresh --provider azure
check "azure new: refresh works" status_is 0
azure_b=$(offers_data_sum azure)
GPUCOST_AZURE_URL=$azure_old run --db "$DB" refresh --provider azure
check "azure old: refresh works" status_is 0
azure_a=$(offers_data_sum azure)
check "azure old and new offers differ" [ "$azure_a" != "$azure_b" ]
random_ms "$((SEED + 2))" "$AZ_KILLS" 0 1500 > "$T/delays-azure"
between=0
n=0
while read -r d <&3; do
	n=$((n + 1))
	pages=$(grep -c '^REQ GET /api/retail/prices?.*skip=1000' "$T/azure-stall.log" 2>/dev/null)
	pages=${pages:-0}
	GPUCOST_AZURE_URL=$azure_stall "$GPUCOST" --db "$DB" refresh --provider azure \
	    --timeout 60 >/dev/null 2>"$T/bg.err" &
	pid=$!
	wait_for 30 eval '[ "$(grep -c "^REQ GET /api/retail/prices?.*skip=1000" "$T/azure-stall.log")" -gt "$pages" ]'
	ms_sleep "$d"
	alive "$pid" && kill -9 "$pid" 2>/dev/null && between=$((between + 1))
	{ wait "$pid"; } 2>/dev/null
	after_kill azure "$azure_a" "$azure_b" "azure kill $n at ${d} ms into page 2"
	check "azure kill $n: the old offers stand" [ "$outcome" = old ]
	GPUCOST_AZURE_URL=$azure_old run --db "$DB" refresh --provider azure --wait 0
	check "azure kill $n: the next refresh starts at once and works" status_is 0
done 3< "$T/delays-azure"
echo "azure: $n kills while page 2 was on its way, $between of them before it came"
check "azure: every kill came between the pages ($between of $AZ_KILLS)" [ "$between" -eq "$AZ_KILLS" ]

# ---------------------------------------------------------------------
# Linode (issue 28), three lists joined at the end: killed while the
# stock list's page 2 stalls (types, regions and stock page 1 parsed),
# the cache keeps the old offers.
# ---------------------------------------------------------------------
LN_KILLS=$(soak 3 6)
mkdir -p "$T/linode"
cp "$FX/linode"/*.json "$T/linode/"
subst_first "$FX/linode/types.json" "$T/linode/types.json" \
    '"hourly": 1.5,' '"hourly": 1.75,' '"id": "g1-gpu-rtx6000-1"'
check "linode: the new types list has the changed price" grep -q '"hourly": 1.75,' "$T/linode/types.json"
for v in new stall; do
	opt=
	[ "$v" = stall ] && opt="delay=3000"
	{
		echo "GET /v4/regions/availability?page=2&page_size=500 availability-2.json $opt"
		grep '^GET' "$FX/linode/routes" | grep -v 'page=2&'
	} > "$T/linode/routes-$v"
	serve "linode-$v" "$T/linode" "$T/linode/routes-$v"
	eval "linode_$v=\$url"
done
serve linode-old "$FX/linode"
linode_old=$url
GPUCOST_LINODE_URL=$linode_new run --db "$DB" refresh --provider linode
check "linode new: refresh works" status_is 0
linode_b=$(offers_data_sum linode)
GPUCOST_LINODE_URL=$linode_old run --db "$DB" refresh --provider linode
check "linode old: refresh works" status_is 0
linode_a=$(offers_data_sum linode)
check "linode old and new offers differ" [ "$linode_a" != "$linode_b" ]
random_ms "$((SEED + 3))" "$LN_KILLS" 0 1500 > "$T/delays-linode"
between=0
n=0
while read -r d <&3; do
	n=$((n + 1))
	pages=$(grep -c '^REQ GET /v4/regions/availability?page=2' "$T/linode-stall.log" 2>/dev/null)
	pages=${pages:-0}
	GPUCOST_LINODE_URL=$linode_stall "$GPUCOST" --db "$DB" refresh --provider linode \
	    --timeout 60 >/dev/null 2>"$T/bg.err" &
	pid=$!
	wait_for 30 eval '[ "$(grep -c "^REQ GET /v4/regions/availability?page=2" "$T/linode-stall.log")" -gt "$pages" ]'
	ms_sleep "$d"
	alive "$pid" && kill -9 "$pid" 2>/dev/null && between=$((between + 1))
	{ wait "$pid"; } 2>/dev/null
	after_kill linode "$linode_a" "$linode_b" "linode kill $n at ${d} ms into stock page 2"
	check "linode kill $n: the old offers stand" [ "$outcome" = old ]
	GPUCOST_LINODE_URL=$linode_old run --db "$DB" refresh --provider linode --wait 0
	check "linode kill $n: the next refresh starts at once and works" status_is 0
done 3< "$T/delays-linode"
check "linode: every kill came between the stock pages ($between of $LN_KILLS)" [ "$between" -eq "$LN_KILLS" ]

# ---------------------------------------------------------------------
# refresh --from: killed while the published copy downloads (served
# slowly), the reader's cache is whole: sound,
# every offer the old or every offer the new, and the next --from works
# at once.
# ---------------------------------------------------------------------
FROM_KILLS=$(soak 8 20)
PUB=$T/from-pub.db
RD=$T/from-reader.db
mkdir -p "$T/site"
# The copy: the snapshot's offers and Vast's 10 recorded ones (0.8 MB),
# served slowly (8 KB every 20 ms). Every kill lands in the download,
# whatever its size, and the merge after each kill is of these.
GPUCOST_VAST_URL=$vast_old run --db "$PUB" refresh --provider vast --timeout 60
check "from: publisher refresh works" status_is 0
run --db "$PUB" publish "$T/site"
check "from: publish works" status_is 0
data=$(sed -n 's/.*"file":[^"]*"\([^"]*\)".*/\1/p' "$T/site/manifest.json")
check "from: the manifest names a data file ($data)" [ -f "$T/site/$data" ]
for v in fast drip; do
	opt=
	[ "$v" = drip ] && opt="drip=8192/20"
	{
		echo "GET /manifest.json manifest.json"
		echo "GET /$data $data $opt"
	} > "$T/site/routes-$v"
	serve "site-$v" "$T/site" "$T/site/routes-$v"
	eval "site_$v=\$url"
done
run --db "$RD" providers
sqlite3 "$RD" 'PRAGMA wal_checkpoint(TRUNCATE)' >/dev/null
cp "$RD" "$T/from-old.db"
from_a=$(sqlite3 "$RD" "select * from offers order by provider, key" | cksum)
start=$(now_s)
run --db "$RD" refresh --from "$site_drip/"
dl=$(since "$start")
check "from: an uninterrupted slow --from works" status_is 0
from_b=$(sqlite3 "$RD" "select * from offers order by provider, key" | cksum)
check "from: old and new offers differ" [ "$from_a" != "$from_b" ]
echo "from: a slow --from of $(wc -c < "$T/site/$data") bytes took ${dl}s"
# Kill times below the drip's own pace (8192 bytes every 20 ms): no
# run can finish sooner, however idle the machine, so every kill lands
# in a live run (the uninterrupted run above, ${dl}s, was on this load).
drip_ms=$(( $(wc -c < "$T/site/$data") / 8192 * 20 ))
check "from: the download takes a while (${drip_ms} ms at the drip's pace)" [ "$drip_ms" -ge 1000 ]
random_ms "$((SEED + 3))" "$FROM_KILLS" 50 $((drip_ms * 9 / 10)) > "$T/delays-from"
n=0
killed_n=0
old=0
new=0
while read -r d <&3; do
	n=$((n + 1))
	rm -f "$RD" "$RD-wal" "$RD-shm"
	cp "$T/from-old.db" "$RD"
	"$GPUCOST" --db "$RD" refresh --from "$site_drip/" >/dev/null 2>"$T/bg.err" &
	pid=$!
	ms_sleep "$d"
	if alive "$pid"; then
		kill -9 "$pid" 2>/dev/null && killed_n=$((killed_n + 1))
	fi
	{ wait "$pid"; } 2>/dev/null
	ic=$(sqlite3 "$RD" 'PRAGMA integrity_check' 2>&1)
	check "from kill $n at ${d} ms: integrity_check ok ($ic)" [ "$ic" = ok ]
	sum=$(sqlite3 "$RD" "select * from offers order by provider, key" | cksum)
	if [ "$sum" = "$from_a" ]; then
		old=$((old + 1))
	elif [ "$sum" = "$from_b" ]; then
		new=$((new + 1))
	else
		check "from kill $n at ${d} ms: offers all old or all new" false
	fi
	check "from kill $n: vast status agrees with its offers" [ \
	    "$(sqlite3 "$RD" "select offer_count from provider_status where provider = 'vast'")" = \
	    "$(sqlite3 "$RD" "select count(*) from offers where provider = 'vast'")" ]
	run --db "$RD" refresh --from "$site_fast/" --wait 0
	check "from kill $n: the next --from starts at once and works ($status)" status_is 0
	check "from kill $n: then the new offers" [ "$(sqlite3 "$RD" "select * from offers order by provider, key" | cksum)" = "$from_b" ]
	check "from kill $n: no temporary file left" [ -z "$(ls "$T" | grep 'from-reader.db.from-')" ]
done 3< "$T/delays-from"
echo "from: $n runs, $killed_n killed; old $old, new $new"
check "from: most runs were killed ($killed_n of $n)" [ "$killed_n" -ge $((FROM_KILLS / 2)) ]

# The lock file is there, and nobody holds it.
check "lock file next to the cache" [ -f "$DB.lock" ]
if command -v flock >/dev/null 2>&1; then
	check "nobody holds the lock" flock -n "$DB.lock" true
fi
GPUCOST_VAST_URL=$vast_old run --db "$DB" refresh --provider vast --wait 0
check "a last refresh works" status_is 0
ic=$(sqlite3 "$DB" 'PRAGMA integrity_check')
check "the cache is sound at the end ($ic)" [ "$ic" = ok ]
finish
