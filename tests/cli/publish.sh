#!/bin/sh
# Sharing one price database: `gpucost publish DIR` and
# `gpucost refresh --from URL|DIR`, through a directory, python3's static
# HTTP server (which answers If-Modified-Since with 304) and the fixture
# server (for a download cut short):
#  - publish -> --from into an empty cache: identical offers and history;
#  - a second --from transfers no data file (and, over HTTP, no manifest
#    body: 304); bytes transferred are printed;
#  - a newer local provider survives an older snapshot;
#  - a tampered data file, a truncated download and a manifest from a
#    future schema are each refused with one line, exit 4, cache unchanged;
#  - publish prunes old files but the previous manifest's, and writes
#    nothing new when the data did not change; `from =` in the config.
. "$(dirname "$0")/../lib.sh"

command -v sqlite3 >/dev/null 2>&1 || { echo "sqlite3 is needed" >&2; exit 77; }
command -v python3 >/dev/null 2>&1 || { echo "python3 is needed" >&2; exit 77; }
FX=$TOP_SRCDIR/tests/fixtures
VAST_API_KEY=vast-SECRET-key-0004
export VAST_API_KEY

PUB=$T/pub.db
DIR=$T/site
mkdir -p "$DIR"

# Fingerprints of a cache: offers, history, status (what --from moves).
offers_of() { sqlite3 "$1" "select * from offers order by provider, key" | cksum; }
history_of() {
	sqlite3 "$1" "select provider, key, observed_at, price, spot_price,
	    availability from price_history order by 1, 2, 3" | cksum
}
status_of() {
	sqlite3 "$1" "select provider, source, last_attempt, last_success,
	    offer_count, last_error, oldest, newest from provider_status
	    order by provider" | cksum
}
whole_of() { echo "$(offers_of "$1") $(history_of "$1") $(status_of "$1") $(sqlite3 "$1" 'select count(*) from refresh_log')"; }
manifest_field() {
	python3 -c 'import json, sys; m = json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' \
	    "$DIR/manifest.json" "$1"
}

# The publisher: seeded, then Azure and Vast live from the fixtures.
run --db "$PUB" providers
serve azure "$FX/azure"
azure_url=$url
serve vast "$FX/vast"
vast_url=$url
GPUCOST_AZURE_URL=$azure_url GPUCOST_VAST_URL=$vast_url \
    run --db "$PUB" refresh --provider azure,vast
check "publisher: live refresh works" status_is 0
check "publisher: vast is live" [ "$(sqlite3 "$PUB" "select source from provider_status where provider = 'vast'")" = live ]
sqlite3 "$PUB" "insert into watch values ('--gpu H100', 1, 1)"

run --db "$PUB" publish "$DIR"
check "publish exits 0" status_is 0
check "publish says what it wrote" err_has "published $DIR/gpucost-"
data=$(manifest_field 'm["data"]["file"]')
check "the manifest names a data file that is there ($data)" [ -f "$DIR/$data" ]
check "data file size as the manifest says" [ "$(wc -c < "$DIR/$data")" -eq "$(manifest_field 'm["data"]["size"]')" ]
check "data file sha256 as the manifest says" [ "$(sha256sum < "$DIR/$data" | cut -d' ' -f1)" = "$(manifest_field 'm["data"]["sha256"]')" ]
check "the manifest's schema version" [ "$(manifest_field 'm["schema_version"]')" -eq "$(sqlite3 "$PUB" 'PRAGMA user_version')" ]
check "manifest: vast's offer count and source" [ "$(manifest_field '[p for p in m["providers"] if p["id"] == "vast"][0]["offer_count"], [p for p in m["providers"] if p["id"] == "vast"][0]["source"]')" = "($(sqlite3 "$PUB" "select count(*) from offers where provider = 'vast'"), 'live')" ]
check "manifest: fetched_at as ISO time" manifest_field '[p for p in m["providers"] if p["id"] == "azure"][0]["fetched_at"]'
gunzip -c "$DIR/$data" > "$T/plain.db"
check "gunzip reads the data file; it is the cache" [ "$(offers_of "$T/plain.db")" = "$(offers_of "$PUB")" ]
check "the copy holds no watch" [ "$(sqlite3 "$T/plain.db" 'select count(*) from watch')" -eq 0 ]
check "the copy passes integrity_check" [ "$(sqlite3 "$T/plain.db" 'PRAGMA integrity_check')" = ok ]
size=$(wc -c < "$DIR/$data")
dbsize=$(manifest_field 'm["data"]["db_size"]')
echo "publish: $dbsize bytes of cache -> $size bytes gzipped"
check "no temporary files left in DIR" [ -z "$(ls -A "$DIR" | grep '^\.gpucost-tmp')" ]

# Publishing the same data again changes nothing (readers get 304).
before=$(ls -l --time-style=+%s.%N "$DIR/manifest.json")
sleep 1
run --db "$PUB" publish "$DIR"
check "publish of unchanged data exits 0" status_is 0
check "publish of unchanged data says so" err_has "unchanged"
check "the manifest was left alone" [ "$(ls -l --time-style=+%s.%N "$DIR/manifest.json")" = "$before" ]

# ---------------------------------------------------------------------
# From a directory into an empty cache: the same offers and history.
# ---------------------------------------------------------------------
R1=$T/r1.db
run --db "$R1" refresh --from "$DIR"
check "--from DIR exits 0" status_is 0
check "--from DIR reports vast" err_has "^vast: .* offers from the team snapshot"
check "offers identical to the publisher's" [ "$(offers_of "$R1")" = "$(offers_of "$PUB")" ]
check "history identical to the publisher's" [ "$(history_of "$R1")" = "$(history_of "$PUB")" ]
check "vast's status came along" [ "$(sqlite3 "$R1" "select source, offer_count from provider_status where provider = 'vast'")" = "$(sqlite3 "$PUB" "select source, offer_count from provider_status where provider = 'vast'")" ]
check "no watch came along" [ "$(sqlite3 "$R1" 'select count(*) from watch')" -eq 0 ]
h1=$(sqlite3 "$R1" 'select count(*) from price_history')
run --db "$R1" refresh --from "$DIR"
check "second --from DIR exits 0" status_is 0
check "second --from DIR downloads no data" err_has "already imported.*no data downloaded"
check "second --from DIR adds no history" [ "$(sqlite3 "$R1" 'select count(*) from price_history')" -eq "$h1" ]
check "no temporary file next to the cache" [ -z "$(ls "$T" | grep 'r1.db.from-')" ]

# ---------------------------------------------------------------------
# Over HTTP from python3's static server.
# ---------------------------------------------------------------------
python3 -u -m http.server 0 --bind 127.0.0.1 --directory "$DIR" \
    >"$T/http.out" 2>"$T/http.log" &
server_pids="$server_pids $!"
wait_for 20 grep -q 'port [0-9]' "$T/http.out" || { echo "python3 http.server did not start" >&2; exit 99; }
port=$(sed -n 's/.* port \([0-9]*\).*/\1/p' "$T/http.out" | head -1)
site=http://127.0.0.1:$port/
R2=$T/r2.db
run --db "$R2" refresh --from "$site"
check "--from URL exits 0" status_is 0
check "--from URL: identical offers" [ "$(offers_of "$R2")" = "$(offers_of "$PUB")" ]
check "--from URL: identical history" [ "$(history_of "$R2")" = "$(history_of "$PUB")" ]
check "--from URL: the data file was downloaded" grep -q "GET /$data HTTP/1.1\" 200" "$T/http.log"
first=$(grep "snapshot of" "$T/err")
echo "first --from: $first"
check "--from URL: bytes transferred are printed" err_has "manifest [0-9.]* kB, data [0-9.]* kB"
gets=$(grep -c "GET /$data " "$T/http.log")
sleep 1
run --db "$R2" refresh --from "$site" --quiet
check "second --from URL --quiet exits 0" status_is 0
check "second --from URL --quiet prints nothing" [ ! -s "$T/err" ]
check "second --from URL: no data file transferred" [ "$(grep -c "GET /$data " "$T/http.log")" -eq "$gets" ]
check "second --from URL: the manifest answered 304" grep -q 'GET /manifest.json HTTP/1.1" 304' "$T/http.log"
run --db "$R2" refresh --from "${site}manifest.json"
check "--from the manifest's own URL (another source): manifest only" err_has "already imported.*no data downloaded"
echo "second --from: $(cat "$T/err")"

# ---------------------------------------------------------------------
# A newer local provider survives an older snapshot.
# ---------------------------------------------------------------------
R3=$T/r3.db
mkdir -p "$T/vast2"
vast_offers 7 "$T/vast2/offers.json"
echo "POST /api/v0/bundles/ offers.json" > "$T/vast2/routes"
serve vast2 "$T/vast2"
sleep 1		# a later second than the publisher's refresh
GPUCOST_VAST_URL=$url run --db "$R3" refresh --provider vast
check "local vast refresh works" status_is 0
mine=$(sqlite3 "$R3" "select * from offers where provider = 'vast' order by key" | cksum)
azure_before=$(sqlite3 "$R3" "select count(*) from offers where provider = 'azure' and source = 'live'")
run --db "$R3" refresh --from "$DIR"
check "--from over a newer local vast exits 0" status_is 0
check "it says vast was kept" err_has "^vast: kept, local data newer"
check "the newer local vast offers survive" [ "$(sqlite3 "$R3" "select * from offers where provider = 'vast' order by key" | cksum)" = "$mine" ]
check "vast still has its own 7 offers" [ "$(sqlite3 "$R3" "select offer_count from provider_status where provider = 'vast'")" -eq 7 ]
check "azure (older locally) was replaced" [ "$(sqlite3 "$R3" "select count(*) from offers where provider = 'azure' and source = 'live'")" -gt "$azure_before" ]
pubkeys=$(sqlite3 "$PUB" "select count(distinct key) from price_history where provider = 'vast'")
check "every vast offer the publisher saw has history here" [ "$(sqlite3 "$R3" "attach '$PUB' as p; select count(*) from (select distinct key from p.price_history where provider = 'vast' except select distinct key from main.price_history where provider = 'vast')")" -eq 0 ] 
check "the publisher had vast history ($pubkeys keys)" [ "$pubkeys" -gt 0 ]

# ---------------------------------------------------------------------
# Refusals: one line, exit 4, the cache unchanged.
# ---------------------------------------------------------------------
R4=$T/r4.db
run --db "$R4" providers
before=$(whole_of "$R4")
refused() {	# DESCRIPTION WANT-IN-MESSAGE
	check "$1: exit 4 ($status)" status_is 4
	check "$1: one line" err_lines_are 1
	check "$1: says why ($2)" err_has "$2"
	check "$1: the cache is unchanged" [ "$(whole_of "$R4")" = "$before" ]
	check "$1: the cache is sound" [ "$(sqlite3 "$R4" 'PRAGMA integrity_check')" = ok ]
	check "$1: no temporary file left" [ -z "$(ls "$T" | grep 'r4.db.from-')" ]
}
# A tampered data file: one byte changed, same size.
cp -r "$DIR" "$T/tampered"
python3 - "$T/tampered/$data" <<'PY'
import sys
p = sys.argv[1]
b = bytearray(open(p, 'rb').read())
b[len(b) // 2] ^= 0x01
open(p, 'wb').write(bytes(b))
PY
run --db "$R4" refresh --from "$T/tampered"
refused "tampered data file" "sha256 .* is not the manifest's"
check "tampered: the message names the file" err_has "$T/tampered/$data"

# A truncated download: the fixture server sends half and closes.
mkdir -p "$T/trunc"
cp "$DIR/manifest.json" "$DIR/$data" "$T/trunc/"
{
	echo "GET /manifest.json manifest.json"
	echo "GET /$data $data truncate=$((size / 2))"
} > "$T/trunc/routes"
serve trunc "$T/trunc"
run --db "$R4" refresh --from "$url/"
refused "truncated download" "closed early\|cut short"
# A data file that is the right length but stops early is no better.
head -c $((size / 2)) "$DIR/$data" > "$T/trunc/short.gz"
echo "GET /manifest.json manifest.json" > "$T/trunc/routes.2"
echo "GET /$data short.gz" >> "$T/trunc/routes.2"
mv "$T/trunc/routes.2" "$T/trunc/routes"
run --db "$R4" refresh --from "$url/"
refused "short data file" "cut short"

# A manifest from a future schema: refused before any download.
mkdir -p "$T/future"
cp "$DIR/$data" "$T/future/"
sed 's/"schema_version":[^,]*/"schema_version":\t99/' "$DIR/manifest.json" > "$T/future/manifest.json"
check "future manifest made" grep -q '"schema_version":	99' "$T/future/manifest.json"
echo "GET /manifest.json manifest.json" > "$T/future/routes"
echo "GET /$data $data" >> "$T/future/routes"
serve future "$T/future"
run --db "$R4" refresh --from "$url"
refused "future schema" "made by a newer gpucost"
check "future schema: the data file was not requested" [ "$(grep -c "^REQ GET /$data" "$T/future.log")" -eq 0 ]
run --db "$R4" refresh --from "$T/future"
refused "future schema (directory)" "made by a newer gpucost"
# A manifest naming a file outside its directory.
mkdir -p "$T/escape"
sed "s|\"file\":[^,]*|\"file\":\t\"../pub.db\"|" "$DIR/manifest.json" > "$T/escape/manifest.json"
run --db "$R4" refresh --from "$T/escape"
refused "a file name leaving the directory" "not a plain file name"
run --db "$R4" refresh --from "$T/nowhere"
refused "a directory that is not there" "no such file"

# ---------------------------------------------------------------------
# The config's `from`: a plain refresh pulls the team's copy.
# ---------------------------------------------------------------------
mkdir -p "$HOME/.config/gpucost"
echo "from = $DIR" > "$HOME/.config/gpucost/config"
R5=$T/r5.db
run --db "$R5" refresh
check "refresh with from = DIR exits 0" status_is 0
check "refresh with from = DIR pulled the snapshot" [ "$(offers_of "$R5")" = "$(offers_of "$PUB")" ]
# --live asks the provider itself, whatever the config's from says.
R6=$T/r6.db
asked=$(grep -c '^REQ POST /api/v0/bundles/' "$T/vast.log")
GPUCOST_VAST_URL=$vast_url run --db "$R6" refresh --live --provider vast
check "refresh --live with from = DIR exits 0" status_is 0
check "refresh --live asked Vast, not the team's copy" \
    [ "$(sqlite3 "$R6" "select source from provider_status where provider = 'vast'")" = live ]
check "refresh --live: no pull was said" eval '! err_has "snapshot of"'
check "refresh --live: the Vast server was asked once more" \
    [ "$(grep -c '^REQ POST /api/v0/bundles/' "$T/vast.log")" -eq $((asked + 1)) ]
run --db "$R6" refresh --live --from "$DIR"
check "--live with --from: usage error" status_is 2
check "--live with --from: one line" err_lines_are 1
rm "$HOME/.config/gpucost/config"

# ---------------------------------------------------------------------
# Pruning: a new publish keeps the file the previous manifest named.
# ---------------------------------------------------------------------
GPUCOST_VAST_URL=$vast_url run --db "$PUB" refresh --provider vast
run --db "$PUB" publish "$DIR"
check "publish after a refresh exits 0" status_is 0
data2=$(manifest_field 'm["data"]["file"]')
check "a new data file ($data2)" [ "$data2" != "$data" ]
check "the previous one is kept (a reader may be downloading it)" [ -f "$DIR/$data" ]
sleep 1
GPUCOST_VAST_URL=$vast_url run --db "$PUB" refresh --provider vast
run --db "$PUB" publish "$DIR"
data3=$(manifest_field 'm["data"]["file"]')
check "third publish: the first file is pruned" [ ! -f "$DIR/$data" ]
check "third publish: the second is kept" [ -f "$DIR/$data2" ]
check "third publish: the third is there" [ -f "$DIR/$data3" ]
check "third publish: said it removed one" err_has "removed 1 older data file"
run --db "$R2" refresh --from "$site"
check "a reader picks up the new publish" err_has "snapshot of"
check "... and has the publisher's offers" [ "$(offers_of "$R2")" = "$(offers_of "$PUB")" ]

run --db "$PUB" publish "$T/nowhere"
check "publish into a missing directory: exit 3" status_is 3
check "publish into a missing directory: one line" err_lines_are 1

# ---------------------------------------------------------------------
# Issue 43, item 1: publish never publishes a copy its readers refuse.
# An error an older gpucost stored longer than a reader takes is cut in
# the copy; a row no reader takes is refused in one line, exit 3, and
# the published files stay as they were.
# ---------------------------------------------------------------------
OLD=$T/old.db
cp "$PUB" "$OLD"
sqlite3 "$OLD" "update provider_status set last_error = printf('%.300c', 'x') where provider = 'azure'"
run --db "$OLD" publish "$DIR"
check "an older cache's 300-byte error: publish exits 0" status_is 0
R7=$T/r7.db
run --db "$R7" refresh --from "$DIR"
check "an older cache's 300-byte error: a reader pulls the copy" status_is 0
before=$(ls "$DIR" | cksum)
manifest_before=$(cksum < "$DIR/manifest.json")
sqlite3 "$OLD" "update provider_status set source = 'elsewhere' where provider = 'aws'"
run --db "$OLD" publish "$DIR"
check "a row no reader takes: publish exits 3" status_is 3
check "a row no reader takes: one line" err_lines_are 1
check "a row no reader takes: it says why" err_has "would be refused by every reader: provider_status: a row of aws is not one gpucost writes (source: not one of live, snapshot)"
check "a row no reader takes: the site is as it was" [ "$(ls "$DIR" | cksum)" = "$before" ]
check "a row no reader takes: the manifest is as it was" [ "$(cksum < "$DIR/manifest.json")" = "$manifest_before" ]
finish
