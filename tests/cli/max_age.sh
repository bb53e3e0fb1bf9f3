#!/bin/sh
# Issue 25: --max-age DURATION (and max_age in the config) refreshes,
# before answering, only the keyless providers the query may use whose
# data is older than that; the answer is still served from the cache when
# the network fails, with the reason on stderr.
. "$(dirname "$0")/../lib.sh"

unset GCP_API_KEY LAMBDA_API_KEY
fx=$TOP_SRCDIR/tests/fixtures
for p in vast oci lambda; do
	serve "$p" "$fx/$p"
	export "$(url_var "$p")=$url"
done
requests() { n=$(grep -c '^REQ ' "$T/$1.log" 2>/dev/null); echo "${n:-0}"; }

# The snapshot's data is months old: vast and oci are refreshed, Lambda
# needs a key and is left alone, AWS is not asked for.
run --db "$DB" --max-age 1d --provider vast,oci,lambda --format csv -q
check "stale keyless providers: exit 0" status_is 0
check "vast asked" [ "$(requests vast)" -gt 0 ]
check "oci asked" [ "$(requests oci)" -gt 0 ]
check "lambda (needs a key) not asked" [ "$(requests lambda)" -eq 0 ]
check "a pipe gets no progress" [ ! -s "$T/err" ]
run --db "$DB" providers --format csv
src() { tr -d '\r' < "$T/out" | grep "^$1," | cut -d, -f3; }
check "vast now live" [ "$(src vast)" = live ]
check "oci now live" [ "$(src oci)" = live ]
check "aws untouched (not in --provider)" [ "$(src aws)" = snapshot ]
check "lambda still the snapshot" [ "$(src lambda)" = snapshot ]

# Fresh enough now: nothing is asked again.
v=$(requests vast)
o=$(requests oci)
run --db "$DB" --max-age 1d --provider vast,oci --format csv -q
check "fresh data: exit 0" status_is 0
check "fresh data: vast not asked again" [ "$(requests vast)" -eq "$v" ]
check "fresh data: oci not asked again" [ "$(requests oci)" -eq "$o" ]

# The config's max_age does the same.
mkdir -p "$HOME/.config/gpucost"
printf 'max_age = 1d\n' > "$HOME/.config/gpucost/config"
run --db "$DB" --provider vast,oci --format csv -q
check "max_age in the config: exit 0" status_is 0
check "max_age in the config: fresh, not asked" [ "$(requests vast)" -eq "$v" ]
rm -f "$HOME/.config/gpucost/config"

# The network fails: the answer comes from the cache, and says why.
d=$(fault_dir oci 500)
serve oci500 "$d"
export GPUCOST_OCI_URL="$url"
sleep 2
run --db "$DB" --max-age 1s --provider oci --format csv
check "failed refresh: still an answer (exit 0)" status_is 0
check "failed refresh: offers printed" [ "$(wc -l < "$T/out")" -gt 1 ]
check "failed refresh: the reason on stderr" err_has '--max-age: 1 provider failed to refresh (oci: '
check "failed refresh: answered from the cache" err_has 'answered from the cache'

# The refresh progress line fits a 100-column terminal: every redraw (a
# "\r" segment) stays within it, and one summary line ends the run.
if command -v script >/dev/null 2>&1; then
	GPUCOST_AWS_REGIONS=us-east-1,us-west-2,eu-west-1
	export GPUCOST_AWS_REGIONS
	for p in vast oci aws azure scaleway runpod vultr; do
		d=$(fault_dir "$p" slow2s)
		serve "$p-slow" "$d"
		export "$(url_var "$p")=$url"
	done
	script -qec "stty cols 100 rows 40; $GPUCOST --db $DB refresh --live --provider vast,oci,aws,azure,scaleway,runpod,vultr" /dev/null \
	    > "$T/pty" 2>&1 </dev/null
	# Drop the erase-line sequence, then one line per \r or \n.
	sed 's/\x1b\[K//g' "$T/pty" | tr '\r' '\n' > "$T/lines"
	grep '^[0-9]/7 done' "$T/lines" > "$T/progress"
	check "progress: drawn" [ -s "$T/progress" ]
	check "progress: several providers at once" grep -q ' | .* | ' "$T/progress"
	check "progress at 100 columns: no redraw over 99" [ "$(awk '{ if (length($0) > m) m = length($0) } END { print m + 0 }' "$T/progress")" -le 99 ]
	check "progress: one summary line" grep -q '^gpucost: 7 of 7 providers refreshed' "$T/lines"
fi

# Issue 43, item 4: --max-age never blocks a query for minutes. It does
# not wait for the lock another refresh holds (60 s before), it uses the
# config's timeout, and the whole refresh has a budget (max_age_budget,
# 10 s by default) where a server that accepts and never answers held it
# for 183 s (60 s of stall x 3 attempts). Each run is bounded by
# timeout(1) at 60 s, far above what it takes, and checked under 30 s.
stall=$(fault_dir oci stall)
serve oci-stall "$stall"
stall_url=$url
# bounded DESCRIPTION ARGS...: run gpucost under timeout 60; $took.
bounded() {
	what=$1
	shift
	start=$(now_s)
	timeout 60 "$GPUCOST" "$@" >"$T/out" 2>"$T/err"
	status=$?
	took=$(since "$start")
	check "$what: done in ${took}s (< 30 s)" awk -v e="$took" 'BEGIN { exit !(e < 30) }'
}
# Another refresh holds the lock (its provider never answers).
GPUCOST_OCI_URL=$stall_url "$GPUCOST" --db "$DB" refresh --provider oci --timeout 100 \
    >/dev/null 2>&1 &
holder=$!
if wait_for 20 grep -q '^REQ ' "$T/oci-stall.log"; then
	sleep 2
	bounded "lock held by another refresh" --db "$DB" --max-age 1s --provider vast --format csv
	check "lock held: an answer (exit 0, $status)" status_is 0
	check "lock held: offers printed" [ "$(wc -l < "$T/out")" -gt 1 ]
	check "lock held: says it did not wait" err_has '--max-age: another refresh holds the lock, not waited for; answered from the cache'
else
	check "the refresh holding the lock started" false
fi
kill "$holder" 2>/dev/null
wait "$holder" 2>/dev/null
export GPUCOST_OCI_URL="$stall_url"
# A server that never answers, the budget alone: 10 s by default.
bounded "never answers, default budget" --db "$DB" --max-age 1s --provider oci --format csv
check "never answers: an answer from the cache (exit 0, $status)" status_is 0
check "never answers: the budget named" err_has '--max-age: 1 provider failed to refresh (oci: took longer than its 10 s deadline'
GPUCOST_MAX_AGE_BUDGET=2 bounded "never answers, GPUCOST_MAX_AGE_BUDGET=2" --db "$DB" --max-age 1s --provider oci --format csv
check "GPUCOST_MAX_AGE_BUDGET=2: its budget named" err_has 'took longer than its 2 s deadline'
check "GPUCOST_MAX_AGE_BUDGET=2: within it and the write (${took}s < 8)" awk -v e="$took" 'BEGIN { exit !(e < 8) }'
# The config's timeout applies: a stall fails each try after 1 s.
mkdir -p "$HOME/.config/gpucost"
printf 'timeout = 1\nmax_age_budget = 20\n' > "$HOME/.config/gpucost/config"
bounded "never answers, timeout = 1 in the config" --db "$DB" --max-age 1s --provider oci --format csv
check "timeout = 1: an answer (exit 0, $status)" status_is 0
check "timeout = 1: the transfer timed out, not the budget" eval 'err_has "failed to refresh (oci: " && ! err_has "deadline"'
printf 'max_age_budget = 0\n' > "$HOME/.config/gpucost/config"
run --db "$DB" --max-age 1s --provider oci --format csv
check "max_age_budget = 0: refused (exit 2, $status)" status_is 2
check "max_age_budget = 0: says the range" err_has 'max_age_budget: expected a number of seconds from 1 to 3600'
rm -f "$HOME/.config/gpucost/config"

run --db "$DB" --max-age soon
check "bad duration: usage error" status_is 2
check "bad duration: names the option" err_has '--max-age: expected a duration'

finish
