#!/bin/sh
# A marketplace answer costs no more memory for more offers: Vast's
# offers go to the cache in batches as they are parsed (provider.h,
# .batches), so the peak RSS of a refresh of 100,000 offers is about
# that of 10,000 (it was 3.5 times it when the whole list was held).
# The batches keep the one-transaction guarantee: a key repeated across
# batches, or an answer cut short after several batches, fails the
# provider and leaves its cached offers as they were. Memory is compared
# as a ratio within one run (getrusage through python3), never timed.
# Skipped under AddressSanitizer or valgrind, whose own memory swamps it.
. "$(dirname "$0")/../lib.sh"

command -v sqlite3 >/dev/null 2>&1 || { echo "sqlite3 is needed" >&2; exit 77; }
command -v python3 >/dev/null 2>&1 || { echo "python3 is needed" >&2; exit 77; }
if [ "$(head -c 4 "$GPUCOST" | od -An -c | tr -d ' ')" != '177ELF' ] ||
    grep -q __asan_init "$GPUCOST"; then
	echo "$GPUCOST is instrumented (ASan or a valgrind wrapper): skipped" >&2
	exit 77
fi

# peak_kb ARGS...: run gpucost; $status, and $kb its peak RSS in KB.
peak_kb() {
	kb=$(python3 -c '
import resource, subprocess, sys
with open(sys.argv[1], "w") as out, open(sys.argv[2], "w") as err:
    rc = subprocess.call(sys.argv[3:], stdout=out, stderr=err)
print(rc, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
' "$T/out" "$T/err" "$GPUCOST" "$@")
	status=${kb% *}
	kb=${kb#* }
}

for n in 10000 100000; do
	mkdir -p "$T/v$n"
	vast_offers "$n" "$T/v$n/offers.json"
	echo "POST /api/v0/bundles/ offers.json" > "$T/v$n/routes"
done
serve small "$T/v10000"
small=$url
serve large "$T/v100000"
large=$url

GPUCOST_VAST_URL=$small peak_kb --db "$DB" refresh --provider vast --quiet
check "10,000 offers: exit 0 ($status)" status_is 0
small_kb=$kb
GPUCOST_VAST_URL=$large peak_kb --db "$DB" refresh --provider vast --quiet
check "100,000 offers: exit 0 ($status)" status_is 0
large_kb=$kb
check "100,000 offers cached" [ "$(sqlite3 "$DB" "select count(*) from offers where provider = 'vast'")" -eq 100000 ]
echo "memory.sh: peak RSS $small_kb KB for 10,000 Vast offers, $large_kb KB for 100,000"
check "peak RSS flat: 100,000 offers take < 1.5 x the memory of 10,000 ($large_kb / $small_kb KB)" \
    [ "$((large_kb * 10))" -lt "$((small_kb * 15))" ]
sum_before=$(offers_data_sum vast)

# A key repeated 9,000 offers later (other batches): the provider fails.
mkdir -p "$T/dup"
vast_offers 10000 "$T/dup/offers.json"
sed -i 's/"id": 9009000,/"id": 9000001,/' "$T/dup/offers.json"
check "the fixture repeats an id" [ "$(grep -c '"id": 9000001,' "$T/dup/offers.json")" -eq 2 ]
echo "POST /api/v0/bundles/ offers.json" > "$T/dup/routes"
serve dup "$T/dup"
GPUCOST_VAST_URL=$url run --db "$DB" refresh --provider vast
check "a key in two batches: exit 4 ($status)" status_is 4
check "a key in two batches: named" err_has "vast: .*offer 9000001 is listed twice"
check "a key in two batches: the cached offers stay" [ "$(offers_data_sum vast)" = "$sum_before" ]

# An answer cut short after several batches: nothing of it is kept.
mkdir -p "$T/cut"
cp "$T/v10000/offers.json" "$T/cut/offers.json"
size=$(wc -c < "$T/cut/offers.json")
echo "POST /api/v0/bundles/ offers.json truncate=$((size * 9 / 10))" > "$T/cut/routes"
serve cut "$T/cut"
GPUCOST_VAST_URL=$url run --db "$DB" refresh --provider vast
check "an answer cut after 9,000 offers: exit 4 ($status)" status_is 4
check "an answer cut short: the cached offers stay" [ "$(offers_data_sum vast)" = "$sum_before" ]
check "an answer cut short: recorded" [ -n "$(sqlite3 "$DB" "select last_error from provider_status where provider = 'vast'")" ]

# After both failures a good answer is whole: nothing staged lingers.
GPUCOST_VAST_URL=$small run --db "$DB" refresh --provider vast
check "then 10,000 offers: exit 0 ($status)" status_is 0
check "then exactly 10,000 offers cached" [ "$(sqlite3 "$DB" "select count(*) from offers where provider = 'vast'")" -eq 10000 ]
finish
