#!/bin/sh
# refresh --from's bookkeeping and transport, lock files, and signed
# copies (issue 23, points 3, 6 and 7):
#  - a pull of some providers, then of all, imports the rest (from a
#    directory and over HTTP, where the second pull must not send the
#    validators that would earn a 304);
#  - a first pull answered 304 (no validator was sent) is refused;
#  - --deadline ends a dripped download; SIGTERM ends a pull, recorded in
#    the providers' status as an interrupted refresh is;
#  - a password in the URL is in no message;
#  - a server adding Content-Encoding: gzip to the .gz is handled;
#  - after a redirected manifest the data file is fetched beside it;
#  - a pulled file is hashed before it is inflated (a bomb with a wrong
#    sha256 never reaches the disk: checked under a file size limit);
#  - symlinked lock files are refused, their target never created;
#  - publish --sign / from_key: a signed copy is accepted, an unsigned,
#    re-signed or altered one refused; plain http without a key warns.
. "$(dirname "$0")/../lib.sh"

command -v sqlite3 >/dev/null 2>&1 || { echo "sqlite3 is needed" >&2; exit 77; }
command -v python3 >/dev/null 2>&1 || { echo "python3 is needed" >&2; exit 77; }
FX=$TOP_SRCDIR/tests/fixtures
VAST_API_KEY=vast-SECRET-key-0004
export VAST_API_KEY

PUB=$T/pub.db
DIR=$T/site
mkdir -p "$DIR"
run --db "$PUB" providers
serve azure "$FX/azure"
azure_url=$url
serve vast "$FX/vast"
vast_url=$url
GPUCOST_AZURE_URL=$azure_url GPUCOST_VAST_URL=$vast_url \
    run --db "$PUB" refresh --provider azure,vast
check "publisher: azure and vast live" status_is 0
run --db "$PUB" publish "$DIR"
check "publish exits 0" status_is 0
data=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["data"]["file"])' "$DIR/manifest.json")
size=$(wc -c < "$DIR/$data")
live_of() { sqlite3 "$1" "select source from provider_status where provider = '$2'"; }
same_as_pub() {
	[ "$(sqlite3 "$1" "select * from offers where provider = '$2' order by key" | cksum)" = \
	  "$(sqlite3 "$PUB" "select * from offers where provider = '$2' order by key" | cksum)" ]
}

# ---------------------------------------------------------------------
# Subset, then all.
# ---------------------------------------------------------------------
R=$T/r1.db
run --db "$R" refresh --from "$DIR" --provider vast
check "dir: --provider vast pulls vast" err_has "^vast: .* offers from the team snapshot"
check "dir: ... and leaves azure" [ "$(live_of "$R" azure)" = snapshot ]
run --db "$R" refresh --from "$DIR"
check "dir: then a plain pull exits 0" status_is 0
check "dir: ... is not 'already imported'" eval '! err_has "already imported"'
check "dir: ... imports azure" err_has "^azure: .* offers from the team snapshot"
check "dir: azure is the publisher's" same_as_pub "$R" azure
run --db "$R" refresh --from "$DIR"
check "dir: a third pull downloads nothing" err_has "already imported.*no data downloaded"

python3 -u -m http.server 0 --bind 127.0.0.1 --directory "$DIR" \
    >"$T/http.out" 2>"$T/http.log" &
server_pids="$server_pids $!"
wait_for 20 grep -q 'port [0-9]' "$T/http.out" || { echo "python3 http.server did not start" >&2; exit 99; }
site=http://127.0.0.1:$(sed -n 's/.* port \([0-9]*\).*/\1/p' "$T/http.out" | head -1)/
R=$T/r2.db
run --db "$R" refresh --from "$site" --provider vast
check "http: --provider vast pulls vast" err_has "^vast: .* offers from the team snapshot"
sleep 1
run --db "$R" refresh --from "$site"
check "http: then a plain pull imports azure (no 304)" err_has "^azure: .* offers from the team snapshot"
check "http: azure is the publisher's" same_as_pub "$R" azure
sleep 1
run --db "$R" refresh --from "$site" --quiet
check "http: now everything is in: a 304, nothing said" [ ! -s "$T/err" ]
check "http: ... the server answered 304" grep -q 'GET /manifest.json HTTP/1.1" 304' "$T/http.log"

# ---------------------------------------------------------------------
# Transport: 304 on a first pull, Content-Encoding, redirects,
# credentials, the deadline, SIGTERM.
# ---------------------------------------------------------------------
W=$T/web
mkdir -p "$W/new"
cp "$DIR/manifest.json" "$DIR/$data" "$W/"
cp "$DIR/manifest.json" "$DIR/$data" "$W/new/"
cat > "$W/routes" <<ROUTES
GET /nm/manifest.json - status=304
GET /enc/manifest.json manifest.json
GET /enc/$data $data header=Content-Encoding:%20gzip type=application/gzip
GET /old/manifest.json - status=302 header=Location:%20/new/manifest.json
GET /new/manifest.json new/manifest.json
GET /new/$data new/$data
GET /drip/manifest.json manifest.json
GET /drip/$data $data drip=2048/500
GET /auth/manifest.json manifest.json
GET /auth/$data $data
ROUTES
serve web "$W"
web=$url

R=$T/r3.db
run --db "$R" providers
run --db "$R" refresh --from "$web/nm/"
check "first pull answered 304: refused (exit 4, $status)" status_is 4
check "first pull answered 304: one line" err_lines_are 1
check "first pull answered 304: says so" err_has "304 Not Modified to a request that named no copy"

run --db "$R" refresh --from "$web/enc/"
check "Content-Encoding: gzip on the .gz: pulled (exit $status)" status_is 0
check "Content-Encoding: gzip: vast imported" same_as_pub "$R" vast
check "Content-Encoding: gzip: the data was asked for as it is (no Accept-Encoding)" \
    eval '! grep -A12 "^REQ GET /enc/$data" "$T/web.log" | grep -qi "^Accept-Encoding"'

R=$T/r4.db
run --db "$R" refresh --from "$web/old/"
check "redirected manifest: pulled (exit $status)" status_is 0
check "redirected manifest: the data fetched beside the new one" grep -q "^REQ GET /new/$data" "$T/web.log"
check "redirected manifest: never beside the old one" eval '! grep -q "^REQ GET /old/$data" "$T/web.log"'

R=$T/r5.db
run --db "$R" providers
pw=pa55-W0RD-secret
run --db "$R" refresh --from "http://ann:$pw@127.0.0.1:1/nowhere/"
check "password: an unreachable source fails" status_is 4
check "password: not in the message" eval '! grep -q "$pw" "$T/err"'
check "password: masked" err_has "ann:\*\*\*@127.0.0.1"
run --db "$R" refresh --from "http://ann:$pw@${web#http://}/auth/"
check "password: a pull works (exit $status)" status_is 0
check "password: not in its lines" eval '! grep -q "$pw" "$T/err"'
check "password: masked there too" err_has "ann:\*\*\*@"
run --db "$R" refresh --from "http://ann:$pw@${web#http://}/nm/"
check "password: not in a refusal" eval '! grep -q "$pw" "$T/err"'
run --db "$R" refresh --from "ftp://ann:$pw@example.com/"
check "password: not in a usage error" eval '! grep -q "$pw" "$T/err"'

# --deadline: the drip would take $size / 2048 x 0.5 s (about a minute).
R=$T/r6.db
run --db "$R" providers
before=$(sqlite3 "$R" "select * from offers order by provider, key" | cksum)
start=$(now_s)
run --db "$R" refresh --from "$web/drip/" --deadline 2
echo "--deadline 2 on a dripped file: exit $status after $(since "$start") s: $(cat "$T/err")"
check "--deadline: refused (exit 4, $status)" status_is 4
check "--deadline: says so" err_has "deadline"
check "--deadline: cache unchanged" [ "$(sqlite3 "$R" "select * from offers order by provider, key" | cksum)" = "$before" ]

# SIGTERM during the download: recorded, the offers kept, ended by it.
asked() { grep -q "^REQ GET /drip/$data" "$T/web.log"; }
: > "$T/web.log"
"$GPUCOST" --db "$R" refresh --from "$web/drip/" >/dev/null 2>"$T/bg.err" &
pid=$!
check "SIGTERM: the pull asked for the data" wait_for 30 asked
kill -TERM "$pid"
wait "$pid"
rc=$?
cp "$T/bg.err" "$T/err"
check "SIGTERM: gpucost ends by the signal (exit $rc)" [ "$rc" -eq 143 ]
check "SIGTERM: says so" err_has "interrupted by SIGTERM after"
check "SIGTERM: the status records it" [ "$(sqlite3 "$R" "select count(*) from provider_status where last_error like 'interrupted by SIGTERM after % (refresh --from); kept the cached offers'")" -gt 0 ]
check "SIGTERM: the offers are kept" [ "$(sqlite3 "$R" "select * from offers order by provider, key" | cksum)" = "$before" ]
check "SIGTERM: no temporary file left" [ -z "$(ls "$T" | grep 'r6.db.from-')" ]

# ---------------------------------------------------------------------
# Hashed before inflated: 64 MiB of zeros (64 kB gzipped) whose sha256
# is not the manifest's. Under a 16 MiB file size limit inflating it
# first would end in SIGXFSZ or EFBIG; checking first refuses it.
# ---------------------------------------------------------------------
B=$T/bomb
mkdir -p "$B"
python3 - "$DIR/manifest.json" "$B" <<'PY'
import gzip, json, os, sys
m = json.load(open(sys.argv[1]))
packed = gzip.compress(b"\0" * (64 << 20))
name = "gpucost-bomb.db.gz"
open(os.path.join(sys.argv[2], name), "wb").write(packed)
m["data"].update(file=name, size=len(packed), db_size=64 << 20,
                 sha256="0" * 64)
json.dump(m, open(os.path.join(sys.argv[2], "manifest.json"), "w"))
PY
R=$T/r7.db
run --db "$R" providers
status=0
(ulimit -f 32768; exec "$GPUCOST" --db "$R" refresh --from "$B") >"$T/out" 2>"$T/err" || status=$?
check "bomb: refused (exit 4, $status)" status_is 4
check "bomb: by its sha256, before inflating" err_has "sha256 .* is not the manifest's"
check "bomb: no temporary file left" [ -z "$(ls "$T" | grep 'r7.db.from-')" ]

# ---------------------------------------------------------------------
# Lock files are never followed through a symbolic link.
# ---------------------------------------------------------------------
R=$T/r8.db
run --db "$R" providers
ln -s "$T/planted-refresh" "$R.lock"
run --db "$R" refresh --from "$DIR"
check "symlinked refresh lock: refused (exit $status)" [ "$status" -ne 0 ]
check "symlinked refresh lock: says so" err_has "symbolic link"
check "symlinked refresh lock: its target not created" [ ! -e "$T/planted-refresh" ]
GPUCOST_VAST_URL=$vast_url run --db "$R" refresh --provider vast --live
check "symlinked refresh lock: a live refresh refuses too" err_has "symbolic link"
check "symlinked refresh lock: target still not created" [ ! -e "$T/planted-refresh" ]
rm "$R.lock"
P=$T/pubdir
mkdir -p "$P"
ln -s "$T/planted-publish" "$P/.gpucost-publish.lock"
run --db "$PUB" publish "$P"
check "symlinked publish lock: refused (exit $status)" status_is 3
check "symlinked publish lock: its target not created" [ ! -e "$T/planted-publish" ]
rm "$P/.gpucost-publish.lock"
mkfifo "$P/.gpucost-publish.lock"
run --db "$PUB" publish "$P"
check "a FIFO as the publish lock: refused" err_has "not a regular file"

# ---------------------------------------------------------------------
# Signatures.
# ---------------------------------------------------------------------
run publish --keygen "$T/team.key"
check "keygen exits 0" status_is 0
check "keygen: the secret key is 0600" [ "$(stat -c %a "$T/team.key")" = 600 ]
check "keygen: prints the public key" out_has "^gpucost-ed25519-public-key "
check "keygen: and writes it" [ "$(cat "$T/team.key.pub")" = "$(cat "$T/out")" ]
pub=$(cat "$T/team.key.pub")
run publish --keygen "$T/team.key"
check "keygen never overwrites a key" status_is 3
run publish --keygen "$T/other.key"

S=$T/signed
mkdir -p "$S"
run --db "$PUB" publish "$S" --sign "$T/team.key"
check "publish --sign exits 0" status_is 0
check "the manifest carries the signature" grep -q '"algorithm":	"ed25519"' "$S/manifest.json"
R=$T/r9.db
run --db "$R" refresh --from "$S" --from-key "$T/team.key.pub"
check "signed copy, pinned key (file): accepted (exit $status)" status_is 0
check "... says it was signed" err_has "signed by key"
check "... vast imported" same_as_pub "$R" vast
R=$T/r10.db
mkdir -p "$HOME/.config/gpucost"
printf 'from = %s\nfrom_key = %s\n' "$S" "$pub" > "$HOME/.config/gpucost/config"
run --db "$R" refresh
check "signed copy, from_key in the config (the key's line): accepted" status_is 0
rm "$HOME/.config/gpucost/config"

R=$T/r11.db
run --db "$R" providers
before=$(sqlite3 "$R" "select * from offers order by provider, key" | cksum)
run --db "$R" refresh --from "$DIR" --from-key "$pub"
check "unsigned copy, key pinned: refused (exit 4, $status)" status_is 4
check "... one line" err_lines_are 1
check "... says so" err_has "not signed, and a key is pinned"
mkdir -p "$T/resigned"
run --db "$PUB" publish "$T/resigned" --sign "$T/other.key"
run --db "$R" refresh --from "$T/resigned" --from-key "$pub"
check "re-signed with another key: refused (exit 4, $status)" status_is 4
check "... says so" err_has "not the pinned key"
# The signature kept, the data (and its sha256 in the manifest) changed.
mkdir -p "$T/altered"
cp "$S/manifest.json" "$T/altered/"
cp "$DIR/$data" "$T/altered/"
python3 - "$T/altered/manifest.json" "$DIR/manifest.json" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
other = json.load(open(sys.argv[2]))
m["data"] = other["data"]
json.dump(m, open(sys.argv[1], "w"))
PY
run --db "$R" refresh --from "$T/altered" --from-key "$pub"
check "signed manifest, other data: refused (exit 4, $status)" status_is 4
check "... the signature does not match" err_has "signature: does not match the pinned key"
check "nothing merged from any of them" [ "$(sqlite3 "$R" "select * from offers order by provider, key" | cksum)" = "$before" ]
run --db "$R" refresh --from "$S" --from-key "not a key"
check "a malformed --from-key: usage error" status_is 2

# Plain http without a key: a warning when data is imported.
R=$T/r12.db
run --db "$R" refresh --from "$web/auth/"
check "plain http, no key: pulled" status_is 0
check "plain http, no key: warns" err_has "warning: .* is plain http and no from_key is pinned"

# Issue 43, item 5: a key file that is a FIFO (or anything but a regular
# file) is refused at once, never waited on for a writer (`timeout`
# ends a gpucost that waits: exit 124).
mkfifo "$T/key.fifo"
refused_at_once() {
	what=$1
	shift
	timeout 20 "$GPUCOST" "$@" >"$T/out" 2>"$T/err"
	status=$?
	check "$what: refused at once, not waited on (exit $status)" [ "$status" -ne 124 ]
	check "$what: one line" err_lines_are 1
	check "$what: it says the file is a FIFO" err_has "key.fifo: is a FIFO (named pipe), not a regular file"
}
refused_at_once "publish --sign FIFO" --db "$PUB" publish "$S" --sign "$T/key.fifo"
check "publish --sign FIFO: exit 3" status_is 3
refused_at_once "--from-key FIFO" --db "$R" refresh --from "$S" --from-key "$T/key.fifo"
check "--from-key FIFO: exit 2" status_is 2
printf 'from_key = %s\n' "$T/key.fifo" > "$HOME/.config/gpucost/config"
refused_at_once "from_key = FIFO in the config" --db "$R" refresh --from "$S"
check "from_key = FIFO in the config: exit 2" status_is 2
rm "$HOME/.config/gpucost/config"
finish
