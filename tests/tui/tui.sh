#!/bin/sh
# The interactive TUI, driven for real inside tmux: the offers table, the
# text filter, sorting (keys, the sort list, a mouse click on a header),
# the row position, regions folded into one row (a lists them), a new
# filter starting at the first row, spot only ranking by spot, the detail
# view re-laid out when the window grows, refresh errors keeping their cause,
# the detail view, help, the filter panel and its pick list, resizing
# (narrow, too small, back), the function bar, NO_COLOR, the background
# refresh, and that every way out (q, ^C, SIGTERM) returns the exit
# status expected and leaves the terminal as it found it.
#
# Each TUI runs in a tmux pane through run.sh, which records `stty -g`
# before and after, and the exit status. Waits are bounded polls on the
# screen text (at most ~5 s), never fixed sleeps.
command -v tmux >/dev/null 2>&1 || { echo "tmux not found: skipped"; exit 77; }
. "$(dirname "$0")/../lib.sh"

SOCK=gpucost$$
trap 'tmux -L "$SOCK" kill-server 2>/dev/null; rm -rf "$T"' EXIT
tm() { tmux -L "$SOCK" -f /dev/null "$@"; }

# Seed the cache from the embedded snapshot (stdout is not a terminal).
run --db "$DB" --quiet
check "the cache is seeded" status_is 0
# A spot price more than 7 days old is history, never ranked (issue 44
# item 7): these sessions rank by spot, so the clouds' are made current.
command -v sqlite3 >/dev/null 2>&1 || { echo "sqlite3 not found: skipped"; exit 77; }
now=$(date +%s)
sqlite3 "$DB" "UPDATE offers SET fetched_at = $now WHERE provider IN ('aws', 'azure', 'gcp'); UPDATE provider_status SET oldest = $now, newest = $now WHERE provider IN ('aws', 'azure', 'gcp')"
# Offers the CLI finds for a query (CSV rows minus the header).
cli_count() {
	"$GPUCOST" --db "$DB" --quiet --format csv "$@" 2>/dev/null | wc -l |
	    awk '{ print ($1 > 0 ? $1 - 1 : 0) }'
}
total=$(cli_count)

cat > "$T/run.sh" <<'EOF'
# run.sh DIR ARGS...: one TUI session in a tmux pane.
trap : INT	# survive the ^C meant for gpucost (a handler, not an ignore)
dir=$1
shift
stty -g > "$dir/stty.before"
echo "BEFORE-TUI"
sh -c 'echo $$ > "$0/pid"; exec "$GPUCOST" "$@"' "$dir" "$@"
echo $? > "$dir/status.tmp"
stty -g > "$dir/stty.after"
mv "$dir/status.tmp" "$dir/status"
echo "AFTER-TUI"
exec sleep 600
EOF

# start NAME [ENV=VALUE...] -- ARGS...: a session NAME at 140x40.
start() {
	name=$1
	shift
	envs=
	while [ "$1" != "--" ]; do
		envs="$envs $1"
		shift
	done
	shift
	mkdir -p "$T/$name"
	rm -f "$T/$name/status" "$T/$name/pid"
	# shellcheck disable=SC2086
	# ESCDELAY: on a loaded machine tmux may hand over a mouse report in
	# pieces; a longer wait keeps its ESC from reading as the Escape key.
	tm new-session -d -s "$name" -x 140 -y 40 \
	    "env HOME='$HOME' LC_ALL=C.UTF-8 GPUCOST='$GPUCOST' ESCDELAY=300 $envs sh '$T/run.sh' '$T/$name' $*"
	pane=$name
}
screen() { tm capture-pane -p -t "$pane"; }
keys() { tm send-keys -t "$pane" "$@"; }
typed() { tm send-keys -t "$pane" -l "$1"; }
# The table rows: screen lines 3 to LINES-2 that are not blank.
rows() { screen | sed -n "3,$(($(tm display -p -t "$pane" '#{pane_height}') - 2))p" | grep -v '^ *$'; }
title() { screen | sed -n 1p; }
# line_has N REGEX: screen line N matches.
line_has() { screen | sed -n "$1p" | grep -q -- "$2"; }
# rows_all REGEX: there are rows and every one matches.
rows_all() { rows > "$T/r"; [ -s "$T/r" ] && ! grep -v -- "$1" "$T/r"; }
# rows_any REGEX: some row matches.
rows_any() { rows | grep -q -- "$1"; }
# Number of offers the title line says match.
matched() { title | sed -n 's/^ gpucost: \([0-9]*\) .*/\1/p'; }

# settle: wait until the screen stops changing (a frame can be seen
# half-written), at most ~2 s.
settle() {
	si=0
	screen > "$T/s1"
	while :; do
		sleep 0.05
		screen > "$T/s2"
		cmp -s "$T/s1" "$T/s2" && return 0
		mv "$T/s2" "$T/s1"
		si=$((si + 1))
		[ "$si" -gt 40 ] && return 0
	done
}
# wait_for TEXT: poll the screen until it shows TEXT (fixed string).
wait_for() {
	wi=0
	while ! screen | grep -q -F -- "$1"; do
		wi=$((wi + 1))
		if [ "$wi" -gt 200 ]; then
			echo "timed out waiting for: $1" >&2
			screen | sed 's/^/  | /' >&2
			return 1
		fi
		sleep 0.1
	done
	settle
}
wait_gone() {
	wg=0
	while screen | grep -q -F -- "$1"; do
		wg=$((wg + 1))
		[ "$wg" -gt 200 ] && { echo "still on screen: $1" >&2; return 1; }
		sleep 0.1
	done
	settle
}
# wait_exit NAME: the session's gpucost exited; sets $st.
wait_exit() {
	we=0
	while [ ! -f "$T/$1/status" ]; do
		we=$((we + 1))
		[ "$we" -gt 200 ] && { st=timeout; return 1; }
		sleep 0.1
	done
	st=$(cat "$T/$1/status")
}
restored() {
	cmp -s "$T/$1/stty.before" "$T/$1/stty.after" &&
	    [ "$(tm display -p -t "$1" '#{alternate_on}')" = 0 ] &&
	    wait_for "AFTER-TUI" && screen | grep -q "BEFORE-TUI"
}

# Column of a right-aligned numeric header, printed per table row:
# the last word left of the header's right edge.
column() {
	edge=$(screen | sed -n 2p | awk -v h="$1" '{ print index($0, " " h " ") + length(h) }')
	rows | awk -v e="$edge" '{ s = substr($0, 1, e); n = split(s, w, " "); print w[n] }'
}
# Values sorted ascending (-r descending), unknown "-" last either way.
ordered() {
	column "$1" > "$T/col"
	grep -v '^-$' "$T/col" > "$T/known"
	sort -c -g ${2:-} "$T/known" 2>/dev/null &&
	    ! grep -n '^-$' "$T/col" | awk -F: -v n="$(wc -l < "$T/known")" '$1 <= n { bad = 1 } END { exit !bad }'
}
# seen TEXT: the screen shows TEXT now (after letting it settle).
seen() { settle; screen | grep -q -F -- "$1"; }
hex() { printf '%02x' "$1"; }
# click X Y [BUTTON]: an xterm (X10) mouse press and release at 0-based X, Y.
click() {
	b=${3:-0}
	keys -H 1b 5b 4d "$(hex $((32 + b)))" "$(hex $((33 + $1)))" "$(hex $((33 + $2)))"
	[ "$b" -lt 64 ] && keys -H 1b 5b 4d "$(hex 35)" "$(hex $((33 + $1)))" "$(hex $((33 + $2)))"
	return 0
}
# click_for TEXT X Y [BUTTON] / click_gone TEXT X Y [BUTTON]: click and
# wait for TEXT to show / to go. On a loaded machine a mouse report now
# and then never reaches gpucost (its bytes read as Escape and stray
# letters, which do nothing here), so when the screen has not changed
# at all after ~2 s the click is sent again.
click_for() { click_until show "$@"; }
click_gone() { click_until gone "$@"; }
shows() { screen | grep -q -F -- "$1"; }
click_until() {
	mode=$1
	want=$2
	shift 2
	settle
	cp "$T/s1" "$T/before"
	click "$@"
	ci=0
	while :; do
		if [ "$mode" = show ]; then shows "$want" && break
		else shows "$want" || break; fi
		ci=$((ci + 1))
		[ "$ci" -gt 20 ] && break
		sleep 0.1
	done
	settle
	if cmp -s "$T/s1" "$T/before"; then
		echo "click at $* lost; sending it again" >&2
		click "$@"
	fi
	if [ "$mode" = show ]; then wait_for "$want"; else wait_gone "$want"; fi
}

# ---------------------------------------------------------------------
# The offers table.
# ---------------------------------------------------------------------
start main GPUCOST_DEBUG_TUI_HOLD=1 -- --db "$DB"
# The first frame: the model has the first screen's plans only, from
# the cache's indexes (issue 29, model_load_first()); every offer is
# read and sorted after it is drawn. GPUCOST_DEBUG_TUI_HOLD keeps that
# frame until a key.
check "the table appears" wait_for "sort: gpu-price"
check "the function bar is drawn" wait_for "qQuit"
screen > "$T/first"
check "the first frame is counting" line_has 1 '^ gpucost: counting the offers | sort: gpu-price'
check "the first frame says keys wait" grep -q 'Reading every cached offer for the counts; keys act when it is done' "$T/first"
# A key: the rest of the load, then ^L redraws everything from the
# whole model: the same headers and rows, the title with its counts.
keys C-l
check "the counts come" wait_for "| row 1 of"
keys C-l
settle
screen > "$T/full"
check "the first screen's rows are the whole load's" cmp -s \
    "$(sed -n 2,38p "$T/first" > "$T/first.rows"; echo "$T/first.rows")" \
    "$(sed -n 2,38p "$T/full" > "$T/full.rows"; echo "$T/full.rows")"
check "the title counts every offer" [ "$(matched)" = "$total" ]
check "the title shows the position" line_has 1 '| row 1 of [0-9]'
check "offers that differ only in region: one row, +N" rows_any ' +[0-9][0-9]* '
check "the sort column is never dropped" line_has 2 '\$/GPU-H'
check "AVAIL, unknown in every row, goes first" wait_gone 'AVAIL' 
check "the title says how old the data is" line_has 1 'data: [0-9]*[mhd] old (snapshot)'
check "column headers" line_has 2 'PROVIDER.*INSTANCE.*REGION.*GPUS.*VRAM.*LINK.*\$/H.*\$/GPU-H.*NOTE.*SPOT/GPU-H.*SAVE.*AGE'
check "the function bar" line_has 40 '?Help.*/Search.*fFilter.*sSortBy.*rReverse.*EnterDetail.*RRefresh.*qQuit'
check "a full page of rows" [ "$(rows | wc -l)" -eq 36 ]
check "sorted by \$/GPU-H" ordered '$/GPU-H'
check "the alternate screen is on" [ "$(tm display -p -t main '#{alternate_on}')" = 1 ]

# Incremental text filter: every row matches, the count is the CLI's.
keys /
typed "aws"
check "typing filters as it goes" wait_for '--match aws'
check "text filter: the CLI's count" [ "$(matched)" = "$(cli_count --provider aws)" ]
check "text filter: every row is aws" rows_all '^ aws '
typed " us-east"
check "a second word narrows" wait_for "--match 'aws us-east'"
check "two words: every row matches both" rows_all '^ aws .*us-east'
keys Escape
check "Escape clears the text filter" wait_gone '--match'
check "all offers again" [ "$(matched)" = "$total" ]
keys / && typed "vultr" && keys Enter
check "Enter keeps the text filter" wait_for '--match vultr'
check "the prompt is closed" wait_gone "Search:"
check "kept: the CLI's count" [ "$(matched)" = "$(cli_count --provider vultr)" ]
keys Escape
check "Escape in the table clears it" wait_gone '--match'

# Typing narrows the last matches and erasing widens them again (the
# model keeps both): the table is the one a session started with the
# same text shows, one row per region (--all-regions) as folded. "sx"
# then "sxm": a board-form word matches offers whose names do not hold
# it, so it must not narrow from "sx" (the model of 361f9fe did, with
# --all-regions, and lost offers: this check failed on it).
# fresh_rows TEXT ARGS...: the rows of a new session with --match TEXT.
fresh_rows() {
	back=$pane
	ft=$1
	shift
	# start() puts the words in a command line: quote the text.
	start fresh -- --db "$DB" tui "$@" --match "'$ft'"
	wait_for "sort: gpu-price" && rows > "$T/fresh.rows"
	tm kill-session -t fresh
	pane=$back
}
same_as_fresh() {
	rows > "$T/typed.rows"
	fresh_rows "$@"
	[ -s "$T/typed.rows" ] && cmp -s "$T/typed.rows" "$T/fresh.rows"
}
for how in --all-regions ""; do
	start typing -- --db "$DB" tui $how
	wait_for "sort: gpu-price"
	keys /
	typed "h100 sx"
	wait_for "--match 'h100 sx'"
	typed "m"
	check "typed 'h100 sxm' $how" wait_for "--match 'h100 sxm'"
	check "typed 'h100 sxm' $how: the table of a fresh session" \
	    same_as_fresh "h100 sxm" $how
	keys BSpace BSpace
	check "erased to 'h100 s' $how" wait_for "--match 'h100 s' "
	check "erased to 'h100 s' $how: the table of a fresh session" \
	    same_as_fresh "h100 s" $how
	tm kill-session -t typing
done
pane=main

# Sorting: the sort list, reverse, the next column, a click on a header.
keys s
check "s opens the sort list" wait_for "Sort by"
keys j Enter
check "the list sorts by \$/H" wait_for "sort: price |"
check "rows in \$/H order" ordered '$/H'
keys r
check "r reverses" wait_for "sort: price reversed"
check "rows in reverse \$/H order" ordered '$/H' -r
keys '>'
check "> sorts by the next column" wait_for "sort: gpu-price |"
x=$(screen | sed -n 2p | awk '{ print index($0, "SPOT/GPU-H") }')
check "a click on a header sorts by it" click_for "sort: spot-gpu-price |" "$x" 1
check "rows in spot order" ordered 'SPOT/GPU-H'
x=$(screen | sed -n 2p | awk '{ print index($0, "SPOT/GPU-H") }')
check "a second click reverses" click_for "sort: spot-gpu-price reversed" "$x" 1
keys '<'
check "< sorts by the previous column" wait_for "sort: gpu-price |"

# Moving and the wheel.
first=$(rows | sed -n 1p)
keys j j j
check "the position follows the selection" wait_for "| row 4 of"
keys G
check "G goes to the end" wait_gone "$first"
keys g
check "g goes back to the top" wait_for "$first"
keys NPage
check "PgDn pages" wait_gone "$first"
keys Home
check "Home goes to the top" wait_for "$first"
check "the wheel scrolls" click_gone "$first" 10 10 65
check "the wheel scrolls back" click_for "$first" 10 10 64

# The detail view of the third row.
click 5 4
click 5 4	# selecting is idempotent: a second report covers a lost one
inst=$(rows | sed -n 3p | awk '{ print $2 }' | sed 's/~$//')
keys Enter
check "Enter opens the detail" wait_for "per GPU-hour"
check "detail: the selected offer" line_has 1 "$inst"
for w in "Instance type" "Region" "GPUs" "VRAM" "Interconnect" "Availability" \
    "Spot interruption" "on-demand" "spot saving" "per BF16 PFLOP-hour" \
    "24 hours" "1 week (168 h)" "30 days (720 h)" "Price history" "recorded price"; do
	check "detail shows '$w'" wait_for "$w"
done
# Totals are written as the CLI's TOTAL $: cents, thousands separated.
month_line() { screen | grep "30 days (720 h)"; }
cents_only() { month_line | grep -q -E '[$][0-9]{1,3}(,[0-9]{3})*[.][0-9]{2}( |$)' && ! month_line | grep -q -E '[.][0-9]{3}'; }
check "detail totals in cents, thousands separated, as the CLI's" cents_only
keys h && typed "100" && keys Enter
check "typed hours are costed" wait_for "100 hours (h: change)"
keys h C-u && typed "abc" && keys Enter
check "bad hours are refused" wait_for "Hours: expected a number"
keys Escape
check "Esc closes the prompt" wait_gone "Hours:"
keys Escape
check "Esc goes back to the table" wait_for "sort: gpu-price"

# Help, generated from the key table.
keys '?'
check "? opens the help" wait_for "gpucost: keys"
for w in "Offers table" "Offer detail" "Filter panel" "clear the text filter"; do
	check "help lists '$w'" wait_for "$w"
done
keys End
check "End scrolls the help to the mouse section" wait_for "Mouse"
check "the help lists the prompt keys" wait_for "delete the last word"
check "the help explains the note letters" wait_for "Notes (the NOTE column)"
for n in price-outlier not-on-demand doubtful-price host-light; do
	check "help: the note $n" wait_for "$n"
done
check "help's bar" line_has 40 'EscBack'
keys Escape
check "Esc leaves the help" wait_for "sort: gpu-price"
check "a click on the bar's Help runs it" click_for "gpucost: keys" 1 39
keys Escape
wait_for "sort: gpu-price"

# The filter panel: count typed, GPU picked from the list, spot toggled.
keys g j j j j
check "down four rows" wait_for "| row 5 of"
keys f
check "f opens the filter panel" wait_for "Filter"
for w in "GPU model" "GPU count" "Multi-node" "Min VRAM/GPU" "Interconnect" \
    "Providers" "Region" "Max \$/GPU-h" "Spot only" "Available only" "Text search"; do
	check "the panel has '$w'" wait_for "$w"
done
keys j Enter
check "Enter on GPU count prompts" wait_for "GPU count:"
typed "8" && keys Enter
check "count=8 applies" wait_for "filter: --count 8"
check "a new filter starts at the first row" wait_for "| row 1 of"
check "count=8: the CLI's count" [ "$(matched)" = "$(cli_count --count 8)" ]
keys k Enter
check "Enter on GPU model opens the list" wait_for "(*) any"
n=$(screen | grep -n -F "(*) any" | cut -d: -f1)
m=$(screen | grep -n -F "] A100-80 " | cut -d: -f1)
listed=$(screen | sed -n 's/.*\] A100-80  *\([0-9][0-9]*\) .*/\1/p')
i=$n
while [ "$i" -lt "$m" ]; do keys j; i=$((i + 1)); done
keys Enter
check "choosing A100-80 filters" wait_for "filter: --gpu A100-80 --count 8"
check "the list's count is the result" [ "$(matched)" = "$listed" ]
check "A100-80 x8: the CLI's count" [ "$(matched)" = "$(cli_count --gpu A100-80 --count 8)" ]
keys j j j j j j j j Space
check "Space toggles spot only" wait_for "--count 8 --spot"
check "spot only ranks by spot, as --spot does" wait_for "sort: spot-gpu-price"
check "spot: the CLI's count" [ "$(matched)" = "$(cli_count --gpu A100-80 --count 8 --spot)" ]
keys x
check "x sets the field to any" wait_gone "--count 8 --spot"
check "spot off: back to \$/GPU-H" wait_for "sort: gpu-price"
keys k k k Enter
check "Enter on Providers opens the list" wait_for "Providers (Space ticks)"
keys j Space j Space Enter
check "Space ticks providers, Enter keeps them" wait_for "filter: --gpu A100-80 --count 8 --provider aws,gcp |"
check "the list is closed" wait_gone "Providers (Space ticks)"
check "ticked providers: the CLI's count" [ "$(matched)" = "$(cli_count --gpu A100-80 --count 8 --provider aws,gcp)" ]
# Issue 44 item 5: a region no place answers is refused, as the CLI does.
keys j Enter
check "Enter on Region prompts" wait_for "Region:"
typed "eurpoe" && keys Enter
check "an unknown region is refused with the nearest name" wait_for "did you mean europe?"
check "... and not applied" wait_gone "--region eurpoe"
keys C-u && typed "europe" && keys Enter
check "a known region applies" wait_for "--provider aws,gcp --region europ"
check "region europe: the CLI's count" [ "$(matched)" = "$(cli_count --gpu A100-80 --count 8 --provider aws,gcp --region europe)" ]
keys x
check "x clears the region" wait_gone "--region europe"
keys Escape
check "Esc closes the panel" wait_gone "Available only"
check "the filter stays" wait_for "filter: --gpu A100-80 --count 8 --provider aws,gcp |"
keys c
check "c clears every filter" wait_gone "filter:"

# Resizing: fewer columns, the too-small notice, and back.
tm resize-window -t main -x 60 -y 15
check "narrow: redrawn" wait_for "PROVIDER"
check "narrow: least important columns dropped" wait_gone "SPOT/GPU-H"
check "narrow: \$/GPU-H kept" wait_for '$/GPU-H'
check "narrow: no line wider than 60" [ "$(screen | awk '{ if (length($0) > m) m = length($0) } END { print m }')" -le 60 ]
tm resize-window -t main -x 120 -y 40
# PROVIDER is on the narrow screen too: wait for a column it dropped.
check "120 columns: redrawn" wait_for 'SPOT/GPU-H'
check "120 columns: NOTE kept while rows have notes" sh -c 'echo "$1" | grep -q " NOTE"' x "$(screen | sed -n 2p)"
tm resize-window -t main -x 40 -y 8
check "too small: a notice" wait_for "Terminal too small"
tm resize-window -t main -x 140 -y 40
check "back to 140x40" wait_for "SPOT/GPU-H"
check "full page again" [ "$(rows | wc -l)" -eq 36 ]

# q quits with status 0 and gives the terminal back.
keys q
wait_exit main
check "q exits 0" [ "$st" = 0 ]
check "q restores the terminal" restored main

# ---------------------------------------------------------------------
# y copies the launch command the list ranks by, Y the other; inside tmux
# the clipboard is never claimed, and the command is printed on exit.
# ---------------------------------------------------------------------
start copy -- --db "$DB" --provider aws --gpu H100 --count 8 --region us-east-1 --spot tui
check "copy: spot list" wait_for "sort: spot-gpu-price"
keys y
check "y on a spot list: the spot command" wait_for "The spot launch command is printed when you quit"
check "y inside tmux: no clipboard claimed" wait_gone "clipboard (OSC 52)"
keys q
wait_exit copy
check "copy: q exits 0" [ "$st" = 0 ]
check "the copied spot command is printed on exit" wait_for "MarketType=spot"
start copy2 -- --db "$DB" --provider aws --gpu H100 --count 8 --region us-east-1 tui
check "copy2: on-demand list" wait_for "sort: gpu-price"
keys Enter
check "copy2: the detail view" wait_for "p5.48xlarge"
keys y
check "y in the detail of an on-demand list: on-demand" wait_for "The on-demand launch command is printed"
keys Y
check "Y: the other (spot) command" wait_for "The spot launch command is printed"
keys q
wait_exit copy2
check "the last copied (spot) command is printed on exit" wait_for "MarketType=spot"

# ---------------------------------------------------------------------
# `gpucost tui` with query options starts pre-filtered.
# ---------------------------------------------------------------------
start pre -- --db "$DB" --provider runpod --count 4 tui
check "tui: pre-filtered" wait_for "filter: --count 4 --provider runpod"
check "tui: the CLI's count" [ "$(matched)" = "$(cli_count --provider runpod --count 4)" ]
check "runpod 4x A100 80GB: one row for 2 regions" rows_any '4x_A100-80GB_SECURE .* +1 '
folded=$(rows | wc -l)
keys a
check "a lists every region" wait_gone ' +1 '
check "a: more rows" [ "$(rows | wc -l)" -gt "$folded" ]
keys a
check "a again folds them" wait_for ' +1 ' 
keys C-c
wait_exit pre
check "^C exits with SIGINT's status" [ "$st" = 130 ]
check "^C restores the terminal" restored pre

# --all-regions starts with a row per region, as the 'a' key gives.
start allreg -- --db "$DB" --provider runpod --count 4 --all-regions tui
check "tui --all-regions: pre-filtered" wait_for "filter: --count 4 --provider runpod"
check "tui --all-regions: no folded rows" wait_gone ' +1 '
check "tui --all-regions: a row per region" [ "$(rows | wc -l)" -gt "$folded" ]
keys a
check "tui --all-regions: a folds them" wait_for ' +1 '
keys q
wait_exit allreg

# m: the market summary of the shown offers, as --group-by gives it.
start summary -- --db "$DB" --provider lambda --count 8 tui
wait_for "filter: --count 8 --provider lambda"
keys m
check "m opens the market summary by GPU" wait_for "Market summary by GPU"
h100_min=$("$GPUCOST" --db "$DB" --provider lambda --count 8 --gpu H100 --group-by gpu --format csv -q | tail -1 | cut -d, -f3 | tr -d '\r')
check "the H100 row has --group-by's minimum ($h100_min)" wait_for "$(printf 'H100 %s' '')"
check "the CLI gives an H100 minimum" [ -n "$h100_min" ]
screen | grep '^H100 ' > "$T/h100row"
check "the H100 minimum matches the CLI" grep -q -- "$(printf '%.2f' "$h100_min")" "$T/h100row"
# The same offers as --group-by counts: every offer, not the folded rows
# (17 Lambda regions of one type are one table row but 17 offers).
cli_gpus=$("$GPUCOST" --db "$DB" --provider lambda --count 8 --group-by gpu --format csv -q | tail -n +2 | tr -d '\r' | awk -F, '{ print $1 " " $2 " " $4 }')
echo "$cli_gpus" | while read -r gpu offers median; do
	screen | grep "^$gpu " > "$T/sumrow" || true
	check "summary $gpu: $offers offers as --group-by" awk -v n="$offers" '{ exit !($2 == n) }' "$T/sumrow"
	check "summary $gpu: median $median as --group-by" awk -v m="$median" '{ exit !($4 + 0 == m + 0 || sprintf("%.2f", $4) == sprintf("%.2f", m)) }' "$T/sumrow"
done
check "summary: the title counts offers as --group-by" wait_for "of $(echo "$cli_gpus" | awk '{ s += $2 } END { print s }') offers"
keys m
check "m again: by provider" wait_for "Market summary by provider"
keys Escape
check "Esc goes back to the table" wait_for "filter: --count 8 --provider lambda"
keys q
wait_exit summary

# SIGTERM restores the terminal too.
start term -- --db "$DB"
wait_for "sort: gpu-price"
kill -TERM "$(cat "$T/term/pid")"
wait_exit term
check "SIGTERM exits with its status" [ "$st" = 143 ]
check "SIGTERM restores the terminal" restored term

# ---------------------------------------------------------------------
# Colours by role; NO_COLOR gives monochrome.
# ---------------------------------------------------------------------
has_colour() { tm capture-pane -e -p -t "$1" | grep -q "$(printf '\033')\[[0-9;]*\(3[0-7]\|4[0-7]\)[;m]"; }
no_colour() { ! has_colour "$1"; }
start colour -- --db "$DB"
wait_for "sort: gpu-price"
check "colours by default" has_colour colour
keys q
start mono NO_COLOR=1 -- --db "$DB"
wait_for "sort: gpu-price"
check "NO_COLOR: no colours" no_colour mono
keys q

# ---------------------------------------------------------------------
# Refresh in the background: every provider is pointed at a closed port,
# so each fails (or is skipped for want of a key) and the offers stay.
# ---------------------------------------------------------------------
dead=
for p in aws gcp runpod runpod-clusters vast lambda vultr azure oci linode ovh cloudrift verda; do
	dead="$dead $(url_var $p)=http://127.0.0.1:9"
done
# shellcheck disable=SC2086
start refresh $dead -- --db "$DB"
wait_for "sort: gpu-price"
keys R
check "R refreshes and reports" wait_for "Refresh done in"
check "failures are reported" wait_for "failed"
check "the status line keeps the cause" wait_for "Couldn't connect to server)"
check "the offers are kept" [ "$(matched)" = "$total" ]
keys q
wait_exit refresh
check "after a refresh, q exits 0" [ "$st" = 0 ]

# The detail view re-lays out when the terminal grows (an AWS offer: its
# notes are few enough for the cost to show at 24 lines).
start grow -- --db "$DB" --provider aws tui
wait_for "sort: gpu-price"
tm resize-window -t grow -x 80 -y 24
wait_for "PROVIDER"
keys Enter
# Its notes wrap (issue 45): the cost is below them, G scrolls to it.
check "detail at 80x24" wait_for "Offer key"
keys G
check "scrolled to its end" wait_for "recorded price"
tm resize-window -t grow -x 140 -y 40
check "grown: the fields are back" wait_for "Interconnect"
check "grown: the window is filled" [ "$(screen | grep -c -v '^ *$')" -ge 25 ]
keys q

# t: committed prices (--term 1y, then 3y, then on-demand again). One
# Lambda offer gets a 1-year reservation in the cache.
if command -v sqlite3 >/dev/null 2>&1; then
	tkey=$(sqlite3 "$DB" "select key from offers where provider = 'lambda' and gpu_count = 8 order by key limit 1")
	sqlite3 "$DB" "insert into committed values ('lambda', '$tkey', 'reservation', 12, 'all', 9000000, 78840000000)"
	start committed -- --db "$DB" --provider lambda tui
	wait_for "filter: --provider lambda"
	keys t
	check "t: the 1-year term" wait_for "filter: --provider lambda --term 1y"
	check "t: only the offer with a 1-year price" [ "$(matched)" = 1 ]
	check "t: its term price per GPU-hour (9.00 / 8)" rows_any '1\.125'
	keys t
	check "t again: 3 years, none has one" wait_for "filter: --provider lambda --term 3y"
	keys t
	check "t a third time: on-demand again" wait_gone "--term"
	check "t: every offer again" [ "$(matched)" = "$(cli_count --provider lambda)" ]
	keys q
	wait_exit committed
fi

# --train (issue 46): the table keeps its columns, the detail view shows
# the run on the selected plan step by step; plans that cannot hold it
# are not listed.
start train -- --db "$DB" --provider lambda --train 7B:2T --count 8 tui
wait_for "--count 8"
settle
check "--train: no job column in the table" wait_gone 'JOB $'
check "--train: plans that hold 134 GB" rows_any '8x H100'
check "--train: not 8 x 16 GB (128 GB)" eval '! rows_any V100-16'
keys Enter
check "--train: the detail's training run" wait_for "Training run --train 7B:2T"
check "--train: its GPU-hours at MFU 0.40" wait_for "at MFU 0.40 of"
check "--train: the job on demand and on spot" wait_for "the job"
check "--train: the spot restarts, by the default rate" wait_for "default: 0.04 % of a node's"
keys q q
wait_exit train

# ncurses is loaded when the TUI starts (src/tui/curses.c): a library
# that cannot be loaded is named, exit 2, and the terminal is as it was.
start nocurses GPUCOST_DEBUG_NCURSES=libgpucost-no-such-curses.so.6 -- --db "$DB" tui
wait_exit nocurses
check "no ncurses: exit 2" [ "$st" = 2 ]
check "no ncurses: names the library" wait_for "cannot load libgpucost-no-such-curses.so.6"
check "no ncurses: the terminal as it was" restored nocurses

# No terminal: `gpucost tui` refuses with a usage error.
run --db "$DB" tui < /dev/null
check "tui without a terminal: exit 2" status_is 2
check "tui without a terminal: says why" err_has "terminal"

finish
