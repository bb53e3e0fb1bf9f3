#!/bin/sh
# The config file (~/.config/gpucost/config): every documented setting
# works, history_days among them (it once made every refresh fail with
# "unknown setting"); an unknown one is refused in one line naming the
# file, the line and the name, with the nearest known name; `timeout`
# is refresh --timeout's default (it was accepted and never read), and
# numbers out of range are refused with their line.
. "$(dirname "$0")/../lib.sh"

CFG=$HOME/.config/gpucost/config
mkdir -p "$(dirname "$CFG")"
LAMBDA_API_KEY=lambda-config-key
export LAMBDA_API_KEY
serve lambda "$TOP_SRCDIR/tests/fixtures/lambda"
GPUCOST_LAMBDA_URL=$url
export GPUCOST_LAMBDA_URL

# Every setting the man page and the README name, at once.
cat > "$CFG" <<'CONF'
# every documented setting
gcp_api_key =
lambda_api_key = lambda-config-key
runpod_api_key =
vast_api_key =
vultr_api_key =
salad_api_key =
salad_organization = gpucost-org
aws_regions = us-east-1
usd_per_eur = 1.08
history_days = 30
timeout = 120
max_age = 400d
CONF
chmod 600 "$CFG"
run --db "$DB" refresh --provider lambda
check "every documented setting: refresh exits 0 ($status)" status_is 0
check "every documented setting: no complaint" eval '! err_has "setting"'
for s in gcp_api_key lambda_api_key runpod_api_key vast_api_key \
    vultr_api_key salad_api_key salad_organization aws_regions usd_per_eur \
    history_days timeout from max_age; do
	check "the man page documents $s" grep -q "$s" "$TOP_SRCDIR/man/gpucost.1"
	check "the README documents $s" grep -q "$s" "$TOP_SRCDIR/README.md"
done

# history_days is used: a point older than 30 days goes.
command -v sqlite3 >/dev/null 2>&1 && {
	k=$(sqlite3 "$DB" "select key from offers where provider = 'lambda' limit 1")
	sqlite3 "$DB" "insert into price_history values ('lambda', '$k', 1000, 1, null, 'unknown'), ('lambda', '$k', 2000, 2, null, 'unknown')"
	t40=$(( $(date +%s) - 40 * 86400 ))
	sqlite3 "$DB" "insert into price_history values ('lambda', '$k', $t40, 3, null, 'unknown')"
	run --db "$DB" refresh --provider lambda
	check "history_days = 30: refresh exits 0 ($status)" status_is 0
	check "history_days = 30: points before the cut pruned" \
	    [ "$(sqlite3 "$DB" "select count(*) from price_history where key = '$k' and observed_at < $t40")" -eq 0 ]
	check "history_days = 30: the last point before the cut stays" \
	    [ "$(sqlite3 "$DB" "select count(*) from price_history where key = '$k' and observed_at = $t40")" -eq 1 ]
}

# Unknown names: one line with file, line and name, and a suggestion.
printf '# mine\nhistory_days = 30\nhistroy_days = 20\n' > "$CFG"
run --db "$DB" refresh --provider lambda
check "a misspelt setting: exit 3 ($status)" status_is 3
check "a misspelt setting: one line" err_lines_are 1
check "a misspelt setting: file, line and name" err_has "$CFG:3: unknown setting \"histroy_days\""
check "a misspelt setting: the nearest name" err_has 'did you mean "history_days"'
printf 'vast_apikey = x\n' > "$CFG"
run --db "$DB" refresh --provider lambda
check "a misspelt key name: suggests vast_api_key" err_has 'did you mean "vast_api_key"'
printf 'colour = always\n' > "$CFG"
run --db "$DB" refresh --provider lambda
check "a name like no other: exit 3" status_is 3
check "a name like no other: named, one line" eval 'err_has "$CFG:1: unknown setting \"colour\"" && err_lines_are 1'
run --db "$DB" providers
check "providers refuses it too" eval 'err_has "unknown setting \"colour\""'

# Numbers: out of range or not a number, refused with the line.
for bad in 'history_days = 0' 'history_days = 30d' 'timeout = 0' 'timeout = soon'; do
	printf '%s\n' "$bad" > "$CFG"
	run --db "$DB" refresh --provider lambda
	check "'$bad': exit 3 ($status)" status_is 3
	check "'$bad': named with its line" eval 'err_has "$CFG:1: ${bad%% *}: expected a number" && err_lines_are 1'
done

# timeout: the transfer limit of a refresh, as --timeout. A server that
# never answers fails at it ("Timeout"), long before the 60 s stall
# ends (the deadline would otherwise be 900 s).
stall=$(fault_dir lambda stall)
serve stall "$stall"
printf 'timeout = 1\n' > "$CFG"
GPUCOST_LAMBDA_URL=$url run --db "$DB" refresh --provider lambda
check "timeout = 1 against a stalled server: exit 4 ($status)" status_is 4
check "timeout = 1: the transfer timed out" err_has "[Tt]ime"
check "timeout = 1: said as the transfer limit, not the deadline" eval '! err_has deadline'
# --timeout wins over the file: an answer 2 s late comes within 30 s.
slow=$(fault_dir lambda slow2s)
serve slow "$slow"
GPUCOST_LAMBDA_URL=$url run --db "$DB" refresh --provider lambda --timeout 30
check "--timeout 30 wins over timeout = 1: exit 0 ($status)" status_is 0
rm -f "$CFG"
finish
