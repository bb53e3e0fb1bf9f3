#!/bin/sh
# Out of memory is reported as such: under shrinking `ulimit -v` limits,
# a query over a big cache either works or exits 3 with one "out of
# memory" line (never an abort or a crash), and a refresh of a big Vast
# answer fails that provider as "out of memory", recorded in its status,
# not as "malformed JSON". Skipped under AddressSanitizer or valgrind,
# which reserve far more address space than any limit here.
. "$(dirname "$0")/../lib.sh"

command -v sqlite3 >/dev/null 2>&1 || { echo "sqlite3 is needed" >&2; exit 77; }
if [ "$(head -c 4 "$GPUCOST" | od -An -c | tr -d ' ')" != '177ELF' ]; then
	echo "$GPUCOST is not an executable (a valgrind wrapper?): skipped" >&2
	exit 77
fi
if grep -q __asan_init "$GPUCOST"; then
	echo "built with AddressSanitizer: ulimit -v cannot work, skipped" >&2
	exit 77
fi
(ulimit -v 1000000) 2>/dev/null || { echo "ulimit -v unsupported: skipped" >&2; exit 77; }

# limited KB ARGS...: gpucost with at most KB kilobytes of address space.
limited() {
	(ulimit -v "$1" && shift && exec "$GPUCOST" "$@") >"$T/out" 2>"$T/err"
	status=$?
}

# A Vast answer of 60,000 offers (8.5 MB of JSON).
mkdir -p "$T/big"
vast_offers 60000 "$T/big/offers.json"
echo "POST /api/v0/bundles/ offers.json" > "$T/big/routes"
serve big "$T/big"
GPUCOST_VAST_URL=$url
export GPUCOST_VAST_URL
run --db "$DB" refresh --provider vast --quiet
check "the big refresh works without a limit" status_is 0
offers=$(sqlite3 "$DB" "select count(*) from offers where provider = 'vast'")
check "60000 Vast offers cached ($offers)" [ "$offers" -eq 60000 ]
sum_before=$(offers_data_sum vast)

# mid KB1 KB2: the limit halfway between two, on a log scale.
mid() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%d", sqrt(a * b) }'; }

# Queries: the highest limit where one fails, to 15%, found by halving
# (on a log scale) the range between 400 MB, where it works, and 4 MB.
# A limit far below that may fail anywhere (the loader: 127), never with
# a crash; the highest failure, within 15% of a limit that worked, is
# the clean one: exit 3 and one "out of memory" line.
limited 400000 --db "$DB" --provider vast --format csv
check "query at 400000 KB: works ($status)" status_is 0
hi=400000
lo=4000
while [ "$((hi * 85 / 100))" -gt "$lo" ]; do
	kb=$(mid "$hi" "$lo")
	limited "$kb" --db "$DB" --provider vast --format csv
	if [ "$status" -eq 0 ]; then
		hi=$kb
		continue
	fi
	check "query at ${kb} KB: exit 3 or 127, no crash ($status)" \
	    eval '[ "$status" -eq 3 ] || [ "$status" -eq 127 ]'
	lo=$kb
	lo_status=$status
	cp "$T/err" "$T/err-lo"
done
if [ "$lo" -gt 4000 ]; then
	kb=$lo
	status=$lo_status
	cp "$T/err-lo" "$T/err"
	check "query at ${kb} KB: exit 3 ($status)" status_is 3
	check "query at ${kb} KB: one line" err_lines_are 1
	check "query at ${kb} KB: says out of memory" err_has "^gpucost: .*out of memory"
	echo "oom.sh: a query over 60000 offers ran out of memory at ${kb} KB (it worked at ${hi} KB): $(cat "$T/err")"
fi
check "a query ran out of memory at some limit" [ "$lo" -gt 4000 ]

# Refreshes, until Vast's failure is recorded as such. Below the lowest
# limit where a refresh works it fails for memory before Vast's answer
# is parsed whole (exit 3), then comes the narrow window where Vast's
# answer fails (exit 4, recorded), then opening and checking the cache
# fails. So: that lowest limit, to 1%, by halving as above (a failure
# far below it may fail anywhere, never with a crash), then down from it
# by 3% a step until Vast's failure is recorded; every failure on the
# way must be out of memory, exit 3 and one line.
limited 400000 --db "$DB" refresh --provider vast
check "refresh at 400000 KB: works ($status)" status_is 0
hi=400000
lo=4000
while [ "$((hi * 99 / 100))" -gt "$lo" ]; do
	kb=$(mid "$hi" "$lo")
	limited "$kb" --db "$DB" refresh --provider vast
	if [ "$status" -eq 0 ]; then
		hi=$kb
		continue
	fi
	[ "$status" -eq 4 ] && break
	check "refresh at ${kb} KB: exit 3 or 127, no crash ($status)" \
	    eval '[ "$status" -eq 3 ] || [ "$status" -eq 127 ]'
	check "refresh at ${kb} KB: never called corrupt" eval '! err_has corrupt'
	lo=$kb
done
[ "$status" -eq 4 ] || kb=$((hi * 97 / 100))
recorded=no
while [ "$kb" -gt 4000 ]; do
	[ "$status" -eq 4 ] || limited "$kb" --db "$DB" refresh --provider vast
	case $status in
	0) ;;
	4)
		check "refresh at ${kb} KB: says vast ran out of memory" \
		    err_has "^gpucost: vast: .*out of memory"
		check "refresh at ${kb} KB: not malformed JSON" eval '! err_has malformed'
		last=$(sqlite3 "$DB" "select last_error from provider_status where provider = 'vast'")
		check "refresh at ${kb} KB: the status records it ($last)" \
		    eval 'echo "$last" | grep -q "out of memory"'
		check "refresh at ${kb} KB: the offers are kept" [ "$(offers_data_sum vast)" = "$sum_before" ]
		run --db "$DB" providers --format csv
		check "refresh at ${kb} KB: providers shows it" out_has "^vast,.*out of memory"
		echo "oom.sh: a refresh of 8.5 MB of JSON ran out of memory at ${kb} KB (it worked at ${hi} KB): $last"
		recorded=yes
		break
		;;
	*)
		check "refresh at ${kb} KB: exit 0, 4 or 3 ($status)" status_is 3
		check "refresh at ${kb} KB: out of memory, one line" \
		    eval 'err_has "out of memory" && err_lines_are 1'
		;;
	esac
	kb=$((kb * 97 / 100))
done
check "a refresh recorded running out of memory" [ "$recorded" = yes ]

# Below that, down to where nothing loads: whatever fails, never "corrupt"
# (SQLite's check failing for memory once advised moving a sound cache
# away), never a crash, and the cache keeps its offers.
while [ "$kb" -gt 4000 ]; do
	limited "$kb" --db "$DB" refresh --provider vast
	check "refresh at ${kb} KB: exit 0, 3 or 4 ($status)" \
	    eval '[ "$status" -eq 0 ] || [ "$status" -eq 3 ] || [ "$status" -eq 4 ] || [ "$status" -eq 127 ]'
	check "refresh at ${kb} KB: never called corrupt" eval '! err_has corrupt'
	kb=$((kb * 85 / 100))
done
check "the cache is sound after every limit" \
    eval '[ "$(sqlite3 "$DB" "pragma integrity_check")" = ok ]'
check "and keeps its Vast offers" [ "$(offers_data_sum vast)" = "$sum_before" ]
finish
