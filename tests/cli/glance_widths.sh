#!/bin/sh
# Read at a glance, round two (issue 45), on 80-, 100- and 120-column
# terminals as a new user would: tables that fit, names never cut, a
# width policy by what a buyer decides on, the price range of a folded
# row, a footer wrapped at words with the most important first, health
# that tells the truth; numbers printed one way everywhere and "any
# region" one name (issue 48, items 5 and 6); and offline honesty
# (issue 44, item 9).
. "$(dirname "$0")/../lib.sh"

command -v script >/dev/null 2>&1 || { echo "script(1) absent: skipped"; exit 77; }
command -v jq >/dev/null 2>&1 || { echo "jq absent: skipped"; exit 77; }

run --db "$DB" --gpu H100 --count 1 --limit 1 -q
check "seed the cache" status_is 0

widest() { awk '{ if (length($0) > m) m = length($0) } END { print m + 0 }' "$1"; }
# The table of $T/out: its lines before the footer's.
table() { awk '/^gpucost: / { exit } { print }' "$T/out"; }
# The footer's entries, each on one line again.
footer() {
	awk '/^gpucost: / { if (e != "") print e; e = $0; next }
	    /^         [^ ]/ && e != "" { sub(/^ +/, ""); e = e " " $0; next }
	    END { if (e != "") print e }' "$T/out"
}
# The cells of column HEADER in the table of $T/out, one a line.
cells() {
	table | awk -v h="$1" '
	    NR == 1 { c = index($0, h); w = length(h); next }
	    c > 0 { s = substr($0, c); sub(/  .*/, "", s); print s }'
}
json() { "$GPUCOST" --db "$DB" --format json --quiet "$@"; }

# --- 45.4: names a buyer copies are whole or not shown. ----------------
for cols in 80 100 120; do
	for q in "--gpu H100 --count 8" "--gpu A100-80 --count 4" \
	    "--gpu A100 --hours 72" "--gpu H100 --group-by provider"; do
		# shellcheck disable=SC2086
		pty "$cols" --db "$DB" $q
		check "pty $cols $q: answers" status_is 0
		check "pty $cols $q: no line wider than the terminal" [ "$(widest "$T/out")" -le "$cols" ]
		check "pty $cols $q: no cell cut with ~" sh -c '! awk "/^gpucost: / { exit } { print }" "$1" | grep -q "~"' _ "$T/out"
	done
	pty "$cols" --db "$DB" --gpu A100-80 --count 4
	json --gpu A100-80 --count 4 | jq -r '.offers[].instance_type' | sort -u > "$T/names"
	cells INSTANCE > "$T/shown"
	check "pty $cols: the instance column is shown" [ -s "$T/shown" ]
	check "pty $cols: every instance shown whole" sh -c 'while read -r n; do grep -qx -- "$n" "$2" || exit 1; done < "$1"' _ "$T/shown" "$T/names"
	cells REGION | sed 's/ +[0-9]*$//' > "$T/regions"
	json --gpu A100-80 --count 4 --all-regions | jq -r '.offers[].region' | sed 's/^all$/any region/' | sort -u > "$T/rnames"
	check "pty $cols: every region shown whole" sh -c 'while read -r n; do grep -qx -- "$n" "$2" || exit 1; done < "$1"' _ "$T/regions" "$T/rnames"
done

# --- 45.3: the width policy ranks what a buyer decides on. -------------
# The snapshot's spot prices shown (--include-stale): the table is full.
pty 120 --db "$DB" --gpu H100 --count 8 --include-stale
check "120: AGE kept (the freshness a buyer needs)" sh -c 'head -1 "$1" | grep -q " AGE"' _ "$T/out"
check "120: CPU/GPU goes before it" sh -c '! head -1 "$1" | grep -q "CPU/GPU"' _ "$T/out"
for cols in 80 100 120; do
	pty "$cols" --db "$DB" --gpu H100 --count 8 --hours 72 --include-stale
	check "$cols --hours: TOTAL \$ kept" sh -c 'head -1 "$1" | grep -q "  TOTAL \\$"' _ "$T/out"
	check "$cols --hours: SPOT TOTAL \$ kept (spot or on-demand?)" sh -c 'head -1 "$1" | grep -q "SPOT TOTAL \\$"' _ "$T/out"
	pty "$cols" --db "$DB" --gpu H100 --count 8 --hours 72 --spot --include-stale
	check "$cols --hours --spot: both totals" sh -c 'head -1 "$1" | grep -q "  TOTAL \\$.*SPOT TOTAL \\$"' _ "$T/out"
done

# --- 45.5: a folded row's price range; GPU counts sort as numbers. -----
COLUMNS=250 run --db "$DB" --gpu A100-80 --count 4
check "wide: RANGE/GPU-H for the folded rows" out_has 'RANGE/GPU-H'
az=$(json --gpu A100-80 --count 4 --all-regions --provider azure |
    jq -r '[.offers[] | select(.instance_type == "Standard_NC96ads_A100_v4") | .price_gpu_hour] | "\(min) \(max)"')
lo=$(printf '%.4f' "${az% *}")
hi=$(printf '%.4f' "${az#* }")
check "azure's row: the range of its regions ($lo-$hi)" out_has "Standard_NC96ads_A100_v4 .* $lo-$hi "
COLUMNS=250 run --db "$DB" --gpu A100-80 --count 4 --all-regions
check "--all-regions: no range (a row per region)" out_lacks 'RANGE/GPU-H'
for limit in "--limit 8" ""; do
	# shellcheck disable=SC2086
	run --db "$DB" --sort gpu --gpu A4000 --format csv -q $limit --reverse
	col=$(csv_col gpu_count)
	tr -d '\r' < "$T/out" | awk -F, -v c="$col" 'NR > 1 { print $c }' > "$T/counts"
	check "--sort gpu --reverse $limit: counts down as numbers" sh -c 'sort -n -r -c "$1"' _ "$T/counts"
	# shellcheck disable=SC2086
	run --db "$DB" --sort gpu --gpu A4000 --format csv -q $limit
	col=$(csv_col gpu_count)
	tr -d '\r' < "$T/out" | awk -F, -v c="$col" 'NR > 1 { print $c }' > "$T/counts"
	check "--sort gpu $limit: counts as numbers (1, 2 ... 10)" sh -c 'sort -n -c "$1"' _ "$T/counts"
done
check "--sort gpu: 10x after 9x" sh -c '[ "$(grep -n -x 9 "$1" | tail -1 | cut -d: -f1)" -lt "$(grep -n -x 10 "$1" | head -1 | cut -d: -f1)" ]' _ "$T/counts"

# --- 45.6: the footer wraps at words, the most important first. --------
for cols in 80 100 120; do
	pty "$cols" --db "$DB" --gpu H100 --count 8 --limit 6
	footer > "$T/foot"
	check "pty $cols: footer lines fit" [ "$(awk '/^gpucost: /,0' "$T/out" | awk '{ if (length($0) > m) m = length($0) } END { print m + 0 }')" -le "$cols" ]
	check "pty $cols: the data age first" sh -c 'head -1 "$1" | grep -q "^gpucost: data age: "' _ "$T/foot"
	check "pty $cols: then what was left out" sh -c 'sed -n 2p "$1" | grep -q "left out"' _ "$T/foot"
	check "pty $cols: no word cut (continuations start a word)" sh -c '! awk "/^gpucost: /,0" "$1" | grep -q "^         [a-z]*[^ ]$"; true' _ "$T/out"
	check "pty $cols: no line ends mid-word" sh -c 'awk "/^gpucost: /,0" "$1" | awk "NR > 1 && prev !~ /[ ,;:)a-z0-9\\$]$/ { bad = 1 } { prev = \$0 } END { exit bad }"' _ "$T/out"
	check "pty $cols: the legend keeps 'o stale' together" grep -q 'o stale' "$T/foot"
done
# One row is a row, not "1 rows" (every region of GCP's a2-highgpu-8g).
run --db "$DB" --gpu A100,H200 --count 8 --term 1y
check "one row: singular" err_has ' offers in 1 row (+N'
run --db "$DB" --gpu H100 --count 8 --limit 6
check "a pipe: one line an entry" [ "$(grep -c '^gpucost: ' "$T/err")" -eq "$(wc -l < "$T/err")" ]
check "a pipe: data age first" sh -c 'head -1 "$1" | grep -q "^gpucost: data age: "' _ "$T/err"

# --- 45.1/45.2: providers after a failed first refresh. ----------------
# linode answers 500; ovh's server is gone (a closed port on 127.0.0.1:
# curl's error names the whole URL).
dir=$(fault_dir linode 500)
serve linode "$dir"
export "$(url_var linode)=$url"
serve ovh "$TOP_SRCDIR/tests/fixtures/ovh"
export "$(url_var ovh)=$url"
kill "${server_pids##* }" 2>/dev/null
wait "${server_pids##* }" 2>/dev/null
run --db "$DB" refresh --provider linode,ovh
check "a refresh that fails: exit 4" status_is 4
check "every line of refresh says gpucost:" [ "$(grep -c -v '^gpucost: ' "$T/err")" -eq 0 ]
for cols in 80 100 120; do
	pty "$cols" --db "$DB" providers
	check "providers $cols: fits" [ "$(widest "$T/out")" -le "$cols" ]
	check "providers $cols: the short error (host and reason)" grep -q "^ovh.* 127\.0\.0\.1:[0-9]*: [A-Z]" "$T/out"
	check "providers $cols: linode's status" sh -c 'tr "\n" " " < "$1" | grep -q "linode: no refresh has worked yet (1 try); last error: /v4/[a-z/]*: HTTP 500"' _ "$T/out"
	check "providers $cols: no URL in the table" sh -c '! grep -q "http://" "$1"' _ "$T/out"
	check "providers $cols: no cut error" sh -c '! grep -q "~" "$1"' _ "$T/out"
	check "providers $cols: HEALTH failed, not ok" grep -q '^linode .* failed' "$T/out"
	check "providers $cols: a line says why" grep -q '^ovh: no refresh has worked yet (1 try); last error: 127\.0\.0\.1' "$T/out"
done
run --db "$DB" providers --format json
check "json: the whole error text" [ "$(jq -r '.providers[] | select(.provider == "ovh") | .last_error' "$T/out" | grep -c 'http://127.0.0.1')" -eq 1 ]
check "json: health failed beside last_success null" [ "$(jq -r '.providers[] | select(.provider == "linode") | "\(.health) \(.last_success)"' "$T/out")" = "failed null" ]

# --- 48.5: numbers print one way: four decimals an hourly price. -------
COLUMNS=200 run --db "$DB" --gpu A100-80 --count 4
first=$(awk 'NR == 2' "$T/out" | tr -s ' ')
COLUMNS=200 run --db "$DB" --gpu A100-80 --count 4 --limit 1
check "the first row reads the same with --limit 1" [ "$(awk 'NR == 2' "$T/out" | tr -s ' ')" = "$first" ]
check "\$/GPU-H: four decimals (1.3900)" sh -c 'echo "$1" | grep -q " 1\.3900 "' _ "$first"
check "\$/H: four decimals (5.5600)" sh -c 'echo "$1" | grep -q " 5\.5600 "' _ "$first"
run --db "$DB" --gpu H100 --group-by provider
check "--group-by: four decimals" sh -c 'awk "NR > 1 { print \$3, \$4, \$5 }" "$1" | grep -v -q "[0-9]\\.[0-9][0-9][0-9][0-9] [0-9,]*\\.[0-9][0-9][0-9][0-9] [0-9,]*\\.[0-9][0-9][0-9][0-9]$" && exit 1; exit 0' _ "$T/out"
run --db "$DB" history --gpu H100 --count 8 --limit 3
check "history: four decimals" sh -c 'awk "NR > 1" "$1" | grep -q " 2\\.8900 "' _ "$T/out"
run --db "$DB" --gpu H100 --count 8 --spot --max-price 1 --include-stale
check "an error quoting a price rounds as the table" err_has 'the cheapest is [0-9]*\.[0-9][0-9][0-9][0-9] USD per GPU-hour (spot)'

# --- 48.6: "any region" is one name everywhere. -------------------------
run --db "$DB" --gpu H100 --count 8 --provider lambda
check "table: any region" out_has 'any region'
run --db "$DB" --gpu H100 --count 8 --group-by region
check "--group-by region: any region" out_has '^any region '
check "--group-by region: never all" out_lacks '^all '
run --db "$DB" --gpu H100 --count 8 --group-by continent
check "--group-by continent: any region" out_has '^any region '
check "--group-by continent: not unknown" out_lacks '^unknown '
run --db "$DB" history --gpu H100 --count 8 --provider lambda
check "history: any region" out_has 'any region'
run --db "$DB" --gpu H100 --count 8 --group-by region --format csv
check "csv keeps the data's name" out_has '^all,'

# --- 44.9: offline honesty. --------------------------------------------
run --db "$DB" --provider scaleway --gpu H100
check "--provider scaleway: exit 1" status_is 1
check "--provider scaleway: no data until a refresh" err_has "^gpucost: scaleway has no data until 'gpucost refresh --provider scaleway'"
check "--provider scaleway: one line" err_lines_are 1
run --db "$DB" --gpu H100 --count 8
check "a default answer: the providers with no data, in one line" [ "$(grep -c '^gpucost: no data yet from .*scaleway.*: .gpucost refresh. fetches their offers$' "$T/err")" -eq 1 ]
run --db "$DB" --gpu H100 --count 8 --provider aws
check "--provider aws (data): no such line" sh -c '! grep -q "no data yet" "$1"' _ "$T/err"
# The snapshot has GCP's and some Azure terms (issue 44), none of AWS's.
run --db "$DB" --gpu H100 --term 1y --provider aws
check "--term 1y offline, aws: exit 1" status_is 1
check "--term 1y offline, aws: who publishes them and the command" err_has "aws publishes them: 'gpucost refresh --provider aws' fetches them"
run --db "$DB" --gpu H100 --term any --provider aws
check "--term any: never 'another term'" sh -c '! grep -q "another term" "$1"' _ "$T/err"
check "--term any --provider aws: only aws needs a refresh" err_has "aws publishes them: 'gpucost refresh --provider aws' fetches them"
run --db "$DB" --gpu H100 --term 2y
check "--term 2y: refused" status_is 2
check "--term 2y: terms are 1y and 3y" err_has 'terms are 1y and 3y'

# --- 45.7: the smaller ones. -------------------------------------------
run --db "$DB" --provider aws,lamda
check "--provider lamda: exit 2" status_is 2
check "--provider lamda: did you mean lambda" err_has 'did you mean lambda?'
run help launch
check "help launch: exit 0" status_is 0
check "help launch: launch's usage" out_has '^usage: gpucost launch KEY'
check "help launch: its options" out_has '--spot'
check "help launch: not the whole help" out_lacks 'history and watch options'
run launch --help
check "launch --help: launch's usage" out_has '^usage: gpucost launch KEY'
run help lanch
check "help lanch: exit 2" status_is 2
if command -v mandoc >/dev/null 2>&1; then
	mandoc -T utf8 "$TOP_SRCDIR/man/gpucost.1" 2>/dev/null | sed 's/.\x08//g' > "$T/man"
	"$GPUCOST" gpus | head -1 | tr -s ' ' '\n' | grep -v '^$' > "$T/gpucols"
	check "man: gpus names each column of its table" sh -c 'while read -r c; do grep -q -- "$c" "$2" || exit 1; done < "$1"' _ "$T/gpucols" "$T/man"
fi

# The TUI at 80 columns: the title keeps the data age, the help wraps,
# the filter panel counts offers.
if command -v tmux >/dev/null 2>&1; then
	SOCK=glance$$
	trap 'tmux -L "$SOCK" kill-server 2>/dev/null; for p in $server_pids; do kill "$p" 2>/dev/null; done; rm -rf "$T"' EXIT
	tm() { tmux -L "$SOCK" -f /dev/null "$@"; }
	screen() { tm capture-pane -p -t g; }
	tm new-session -d -s g -x 80 -y 40 \
	    "env HOME='$HOME' LC_ALL=C.UTF-8 '$GPUCOST' --db '$DB' tui --gpu H100 --count 8; sleep 600"
	wait_for 30 sh -c 'tmux -L "$1" capture-pane -p -t g | grep -q "| row 1 of"' _ "$SOCK"
	screen > "$T/screen"
	check "tui 80: the title keeps the data age" sh -c 'head -1 "$1" | grep -q "data: [0-9]*[mhd] old"' _ "$T/screen"
	tm send-keys -t g f
	wait_for 10 sh -c 'tmux -L "$1" capture-pane -p -t g | grep -q "offers match"' _ "$SOCK"
	screen > "$T/screen"
	json --gpu H100 --count 8 | jq '.offers | length' > "$T/n"
	check "tui: the filter panel counts offers ($(cat "$T/n"))" grep -q "$(cat "$T/n") of [0-9]* offers match" "$T/screen"
	tm send-keys -t g Escape
	tm send-keys -t g '?'
	wait_for 10 sh -c 'tmux -L "$1" capture-pane -p -t g | grep -q "show this help"' _ "$SOCK"
	screen > "$T/screen"
	check "tui 80: the help wraps, never cut with ~" sh -c '! grep -q "~ *$" "$1"' _ "$T/screen"
	check "tui 80: a wrapped help line goes on" grep -q 'region$' "$T/screen"
fi

finish
