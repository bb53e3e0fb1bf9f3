#!/bin/sh
# A published copy is data, never code (issue 23, points 1 and 2). Each
# copy below is an honest publish changed the way an attacker (or a
# broken publisher) could, then repacked with a manifest that matches it
# (size, sha256): the checksum cannot catch any of them.
#  - a copy whose offers are a VIEW (here one that hands out terminal
#    escapes), one with a trigger, one with a table of its own, and one
#    whose offers view recurses without end: each refused in one line,
#    exit 4, the cache unchanged, and the refresh lock free (a later
#    pull works); the recursive one refused before it runs, not spun on;
#  - values no adapter lets through (a negative price, 2^31-1 GPUs, 0
#    GPUs, text in a number column, an unknown GPU id, an over-long key)
#    and a copy dated in the future (offers of 2100, or a manifest of
#    2100): refused whole, nothing merged;
#  - a copy only a few minutes ahead of this clock (within the skew) is
#    still taken.
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
serve vast "$FX/vast"
GPUCOST_VAST_URL=$url run --db "$PUB" refresh --provider vast
check "publisher: vast refresh works" status_is 0
run --db "$PUB" publish "$DIR"
check "publish exits 0" status_is 0

# repack NAME [CREATED_AT]: a copy of $DIR in $T/NAME with the SQL on
# stdin run on its data, the manifest made to match (and dated
# CREATED_AT, an ISO time, if given).
repack() {
	mkdir -p "$T/$1"
	cat > "$T/$1.sql"
	python3 - "$DIR" "$T/$1" "$T/$1.sql" "${2:-}" <<'PY' || return 1
import gzip, hashlib, json, os, sqlite3, sys
src, dst, sqlfile, created = sys.argv[1:5]
m = json.load(open(os.path.join(src, "manifest.json")))
plain = os.path.join(dst, "plain.db")
with gzip.open(os.path.join(src, m["data"]["file"])) as f:
    open(plain, "wb").write(f.read())
db = sqlite3.connect(plain)
db.executescript(open(sqlfile).read())
db.commit()
db.close()
raw = open(plain, "rb").read()
os.unlink(plain)
packed = gzip.compress(raw, compresslevel=1)	# fast; any level inflates alike
name = "gpucost-evil-" + hashlib.sha256(packed).hexdigest()[:8] + ".db.gz"
open(os.path.join(dst, name), "wb").write(packed)
m["data"].update(file=name, size=len(packed), db_size=len(raw),
                 sha256=hashlib.sha256(packed).hexdigest())
if created:
    m["created_at"] = created
json.dump(m, open(os.path.join(dst, "manifest.json"), "w"), indent=1)
PY
}

R=$T/r.db
run --db "$R" providers
whole_of() {
	echo "$(sqlite3 "$1" "select * from offers order by provider, key" | cksum) $(sqlite3 "$1" "select * from price_history order by 1, 2, 3" | cksum) $(sqlite3 "$1" "select * from provider_status order by 1" | cksum)"
}
before=$(whole_of "$R")
refused() {	# DESCRIPTION WANT-IN-MESSAGE
	check "$1: exit 4 ($status)" status_is 4
	check "$1: one line" err_lines_are 1
	check "$1: says why ($2)" err_has "$2"
	check "$1: nothing merged, the cache unchanged" [ "$(whole_of "$R")" = "$before" ]
	check "$1: no temporary file left" [ -z "$(ls "$T" | grep 'r.db.from-')" ]
}

# 1. Code in a copy. The offers a view that hands out an OSC title
#    sequence (what changed a tmux pane's title).
repack view <<'SQL'
ALTER TABLE offers RENAME TO offers_real;
CREATE VIEW offers AS SELECT provider, key, instance_type,
  region || char(27) || ']2;pwned' || char(7) AS region, gpu, gpu_raw,
  gpu_count, vram_gb, interconnect, vcpus, ram_gb, price, spot_price,
  availability, spot_interruption, reliability, fetched_at, source, notes,
  spot_zone, currency, price_original, sk_gpu_price, sk_spot_gpu, sk_pflop
  FROM offers_real;
SQL
run --db "$R" refresh --from "$T/view" --wait 1
refused "offers as a view" "not gpucost's: a view offers"
run --db "$R" --format csv
check "no escape sequence reached a query" eval '! grep -q "$(printf "\033")" "$T/out"'

repack trigger <<'SQL'
CREATE TRIGGER spy AFTER INSERT ON price_history BEGIN SELECT 1; END;
SQL
run --db "$R" refresh --from "$T/trigger" --wait 1
refused "a trigger" "a trigger spy"

repack extra <<'SQL'
CREATE TABLE notes_of_mine (x TEXT);
SQL
run --db "$R" refresh --from "$T/extra" --wait 1
refused "a table of its own" "a table notes_of_mine"

# An endless recursive view behind the offers: today's code spun on it
# at 100 % CPU holding the refresh lock. `timeout` only keeps a
# regression from hanging the suite: the refusal is immediate.
repack spin <<'SQL'
ALTER TABLE offers RENAME TO offers_real;
CREATE VIEW offers AS SELECT o.* FROM offers_real o,
  (WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c)
   SELECT x FROM c) WHERE x < 0;
SQL
start=$(now_s)
status=0
timeout 300 "$GPUCOST" --db "$R" refresh --from "$T/spin" --wait 1 \
    >"$T/out" 2>"$T/err" || status=$?
echo "recursive view refused in $(since "$start") s: $(cat "$T/err")"
refused "an endless recursive view" "a view offers"
start=$(now_s)
run --db "$R" refresh --from "$DIR" --wait 1
echo "then an honest pull (lock free) in $(since "$start") s"
check "after all that, the lock is free: an honest pull works" status_is 0
check "... and imports vast" err_has "^vast: .* offers from the team snapshot"
check "... the same offers as the publisher's" [ "$(sqlite3 "$R" "select count(*) from offers where provider = 'vast'")" -eq "$(sqlite3 "$PUB" "select count(*) from offers where provider = 'vast'")" ]

# 2. Values no adapter lets through, and dates ahead of the clock.
R=$T/r2.db
run --db "$R" providers
before=$(whole_of "$R")
one="(provider, key) = (SELECT provider, key FROM offers WHERE provider = 'vast' LIMIT 1)"
bad() {	# NAME WANT SQL
	echo "$3" | repack "$1" || { check "$1: repacked" false; return; }
	run --db "$R" refresh --from "$T/$1"
	refused "$1" "$2"
}
bad negative-price "price: -1.00 USD/h is out of range" \
    "UPDATE offers SET price = -1000000, sk_gpu_price = -1000000 WHERE $one;"
bad huge-count "gpu_count 2147483647 is out of range" \
    "UPDATE offers SET gpu_count = 2147483647 WHERE $one;"
bad zero-gpus "gpu_count 0 is out of range" \
    "UPDATE offers SET gpu_count = 0 WHERE $one;"
bad negative-gpus "gpu_count -8 is out of range" \
    "UPDATE offers SET gpu_count = -8 WHERE $one;"
bad text-in-number "vram_gb: text where gpucost stores a number" \
    "UPDATE offers SET vram_gb = 'lots' WHERE $one;"
bad unknown-gpu "gpu: not a GPU of the catalogue" \
    "UPDATE offers SET gpu = 'H9000' WHERE $one;"
bad long-key "key: longer than gpucost stores" \
    "UPDATE offers SET key = key || printf('%200s', 'x') WHERE $one;"
bad history-price "price_history: a row of vast is not one gpucost writes" \
    "UPDATE price_history SET price = -5 WHERE provider = 'vast';"
bad future "dated in the future (2100-01-01 00:00 UTC" \
    "UPDATE offers SET fetched_at = 4102444800 WHERE provider = 'vast';
     UPDATE provider_status SET newest = 4102444800, last_success = 4102444800
       WHERE provider = 'vast';"
echo "future copy: $(cat "$T/err")"
bad future-status "dated in the future" \
    "UPDATE provider_status SET last_success = 4102444800 WHERE provider = 'vast';"
echo "" | repack future-manifest 2100-01-01T00:00:00Z
run --db "$R" refresh --from "$T/future-manifest"
refused "a manifest dated 2100" "created_at 2100-01-01T00:00:00Z is in the future"

# Within the skew (5 minutes ahead: clocks differ) the copy is taken.
soon=$(($(date +%s) + 300))
echo "UPDATE offers SET fetched_at = $soon WHERE provider = 'vast';
UPDATE provider_status SET newest = $soon, last_success = $soon WHERE provider = 'vast';" |
    repack soon
run --db "$R" refresh --from "$T/soon"
check "5 minutes ahead: taken" status_is 0
check "5 minutes ahead: vast imported" err_has "^vast: .* offers from the team snapshot"
# The merged offers' sort keys are computed here, never the copy's.
check "sort keys are this gpucost's" [ "$(sqlite3 "$R" "select count(distinct sort_keys) from provider_status where provider = 'vast'")" -eq 1 ]
finish
