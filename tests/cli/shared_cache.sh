#!/bin/sh
# A shared, read-only cache (the README's team setup): one account's
# cron refreshes a cache in a directory others may read but not write;
# another user queries it with --db or GPUCOST_DB, also while a refresh
# writes it, and when the writer left no -shm. The reader's refresh is
# refused in one line, and nothing of the reader's touches the files.
#
# Run as root: the reader is the unprivileged user "nobody" (setpriv,
# runuser or su). Run as anyone else: the reader is this same user with
# the cache's directory and file made read-only (chmod).
. "$(dirname "$0")/../lib.sh"

command -v sqlite3 >/dev/null 2>&1 || { echo "sqlite3 is needed" >&2; exit 77; }

FX=$TOP_SRCDIR/tests/fixtures
# /var/lib/gpucost of the README, under the test's directory.
chmod 755 "$T"
LIB=$T/var-lib-gpucost
mkdir "$LIB"
chmod 755 "$LIB"
SHARED=$LIB/gpucost.db

# as_reader ARGS...: gpucost as the other user (stdout/stderr/status as run).
if [ "$(id -u)" -eq 0 ]; then
	if command -v setpriv >/dev/null 2>&1 && id nobody >/dev/null 2>&1; then
		as_reader() {
			setpriv --reuid=nobody --regid="$(id -g nobody)" --clear-groups \
			    env HOME="$T/reader" "$@" >"$T/out" 2>"$T/err"
			status=$?
		}
	elif command -v runuser >/dev/null 2>&1 && id nobody >/dev/null 2>&1; then
		as_reader() {
			runuser -u nobody -- env HOME="$T/reader" "$@" >"$T/out" 2>"$T/err"
			status=$?
		}
	else
		echo "running as root without setpriv/runuser or a nobody user: skipped" >&2
		exit 77
	fi
	mkdir -p "$T/reader"
	chmod 777 "$T/reader"
	reader_mode() { :; }
	writer_mode() { :; }
	who="user nobody"
else
	as_reader() {
		env HOME="$T/reader" "$@" >"$T/out" 2>"$T/err"
		status=$?
	}
	mkdir -p "$T/reader"
	# The reader may not write the directory or the files.
	reader_mode() { chmod a-w "$LIB" "$LIB"/gpucost.db* 2>/dev/null; }
	writer_mode() { chmod u+w "$LIB" "$LIB"/gpucost.db* 2>/dev/null; }
	who="this user, the cache made read-only"
fi
echo "shared_cache.sh: the reader is $who"

# The cron job: the owner refreshes (Vast from a fixture server).
serve vast "$FX/vast"
vast_url=$url
writer_refresh() {
	writer_mode
	GPUCOST_VAST_URL=$1 run --db "$SHARED" refresh --provider vast --quiet
	reader_mode
}
writer_refresh "$vast_url"
check "cron refresh: exit 0 ($status)" status_is 0
check "the writer leaves -wal and -shm for readers" [ -f "$SHARED-shm" ]
live=$(sqlite3 "$SHARED" "select count(*) from offers where provider = 'vast' and source = 'live'")
check "the shared cache has live Vast offers ($live)" [ "$live" -gt 0 ]
sums() { cksum "$SHARED" "$SHARED-wal" "$SHARED-shm" 2>/dev/null; ls "$LIB"; }
before=$(sums)

# The reader: queries, providers, both ways of naming the cache.
as_reader "$GPUCOST" --db "$SHARED" --provider vast --format csv
check "reader --db: exit 0 ($status)" status_is 0
check "reader --db: only the footer (data age, count)" eval 'err_lines_are 2 && err_has "^gpucost: data age" && err_has "^gpucost: [0-9]* offers$"'
check "reader --db: sees the live offers" [ "$(grep -c ',live,' "$T/out")" -eq "$live" ]
as_reader env GPUCOST_DB="$SHARED" "$GPUCOST" --gpu H100 --quiet
check "reader GPUCOST_DB: exit 0 ($status)" status_is 0
as_reader "$GPUCOST" --db "$SHARED" providers --format csv
check "reader providers: exit 0 ($status)" status_is 0
check "reader providers: Vast live" grep -q '^vast,.*,live,' "$T/out"
as_reader "$GPUCOST" --db "$SHARED" --format json --limit 3
check "reader json: exit 0 ($status)" status_is 0
# The reader's refresh cannot write: one line naming the file, exit 3.
as_reader env GPUCOST_VAST_URL="$vast_url" "$GPUCOST" --db "$SHARED" refresh --provider vast --wait 0
check "reader refresh: exit 3 ($status)" status_is 3
check "reader refresh: one line naming the cache" eval 'err_lines_are 1 && err_has "$SHARED"'
check "reader refresh: says it is not allowed" err_has "Permission denied\|Read-only\|cannot write"
check "reader refresh: nothing fetched" [ "$(grep -c '^REQ ' "$T/vast.log")" -eq 1 ]
check "nothing the reader did changed the files" [ "$(sums)" = "$before" ]

# The reader during a refresh: the writer's transaction takes a while
# (Vast's answer dripped in, 20,000 offers); every query works.
mkdir -p "$T/big"
vast_offers 20000 "$T/big/offers.json"
echo "POST /api/v0/bundles/ offers.json drip=32768/15" > "$T/big/routes"
serve big "$T/big"
writer_mode
GPUCOST_VAST_URL=$url "$GPUCOST" --db "$SHARED" refresh --provider vast --quiet \
    >/dev/null 2>"$T/bg.err" &
pid=$!
n=0
bad=0
while kill -0 "$pid" 2>/dev/null; do
	as_reader "$GPUCOST" --db "$SHARED" --provider vast --quiet --format csv
	n=$((n + 1))
	if [ "$status" -ne 0 ]; then
		bad=$((bad + 1))
		echo "reader during the refresh: exit $status: $(cat "$T/err")" >&2
	fi
done
wait "$pid"
check "the refresh under readers worked" [ $? -eq 0 ]
reader_mode
check "readers during the refresh: $n queries, none failed ($bad)" [ "$bad" -eq 0 ]
check "readers during the refresh: at least one ran" [ "$n" -ge 1 ]
echo "shared_cache.sh: $n queries by the reader during the refresh, $bad failed"
as_reader "$GPUCOST" --db "$SHARED" --provider vast --quiet --format csv
check "after the refresh the reader sees the 20000 new offers" [ "$(grep -c ',live,' "$T/out")" -eq 20000 ]

# A cache whose writer left no -shm (an older gpucost, or sqlite3): the
# reader reads the file alone.
writer_mode
sqlite3 "$SHARED" 'pragma wal_checkpoint(truncate)' >/dev/null
rm -f "$SHARED-wal" "$SHARED-shm"
reader_mode
as_reader "$GPUCOST" --db "$SHARED" --provider vast --quiet --format csv
check "no -shm: the reader still reads (exit $status)" status_is 0
check "no -shm: all 20000 offers" [ "$(grep -c ',live,' "$T/out")" -eq 20000 ]
check "no -shm: the reader created nothing" [ ! -e "$SHARED-shm" ]

# A cache whose stored sort keys and filter values are another
# version's (the owner's cron runs an older or newer gpucost than the
# reader): the reader may not update them, and must not trust them.
# Each shortcut (--limit, multi-node walks, kept and indexed groups,
# history) answers from every offer instead, as it would on current
# keys; here the stored values are also wrong, so an answer that used
# them would differ.
writer_mode
shapes="--gpu H100 --limit 3
--gpu H100 --multi-node --count 16 --limit 3
--region europe --limit 3
--sort vram --reverse --limit 4
--group-by gpu --limit 5
--group-by provider --provider vast
history --gpu H100 --limit 2"
i=0
echo "$shapes" | while IFS= read -r q; do
	i=$((i + 1))
	# shellcheck disable=SC2086
	"$GPUCOST" --db "$SHARED" $q --format csv -q > "$T/want$i" 2>&1 ||
	    echo "writer: $q: exit $?" >&2
done
sqlite3 "$SHARED" "update provider_status set sort_keys = '0-another';
    update offers set sk_gpu_price = 1, continent = 'XX' where provider = 'vast'" ||
    echo "the cache could not be made stale" >&2
reader_mode
before=$(sums)
i=0
echo "$shapes" | while IFS= read -r q; do
	i=$((i + 1))
	# shellcheck disable=SC2086
	as_reader "$GPUCOST" --db "$SHARED" $q --format csv -q
	echo "$status" > "$T/status$i"
	cp "$T/out" "$T/got$i"
	cp "$T/err" "$T/goterr$i"
done
i=0
while [ "$i" -lt 7 ]; do
	i=$((i + 1))
	q=$(echo "$shapes" | sed -n "${i}p")
	check "other version's keys, '$q': exit 0 ($(cat "$T/status$i"): $(head -c 200 "$T/goterr$i"))" [ "$(cat "$T/status$i")" = 0 ]
	check "other version's keys, '$q': rows as on current keys" [ -s "$T/want$i" ]
	check "other version's keys, '$q': the same answer" cmp -s "$T/want$i" "$T/got$i"
done
check "other version's keys: nothing the reader did changed the files" [ "$(sums)" = "$before" ]
# Vast's live offers: the snapshot's are a watch's baseline, not news.
as_reader env HOME="$T/reader" "$GPUCOST" --db "$SHARED" watch --provider vast --limit 2 --format json -q
check "other version's keys, watch: exit 0 ($status)" status_is 0
check "other version's keys, watch: the offers arrived" eval "jq -e '.offers | length == 2' '$T/out' >/dev/null"
writer_mode
"$GPUCOST" --db "$SHARED" --gpu H100 --limit 3 --format csv -q > "$T/after" 2>&1
check "the owner's next query updates the keys: the same answer" cmp -s "$T/want1" "$T/after"
check "the owner's next query updates the keys: this version's" [ "$(sqlite3 "$SHARED" "select count(*) from provider_status where sort_keys = '0-another'")" = 0 ]
finish
