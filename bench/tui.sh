#!/bin/sh
# bench/tui.sh: the TUI with 100k offers cached: its first screen
# (target < 300 ms) and a keystroke in its text filter (target < 50 ms);
# and the same with 1M offers (targets < 1.5 s and < 150 ms).
#
# Two ways, both printed for each size:
#  - bench/driver times the TUI's own model code in-process, without a
#    terminal: model_open() + model_load_first() for the first screen
#    (its plans from the cache's indexes; the rest of the load after the
#    first draw, model_finish(): every offer read and sorted, is noted),
#    and
#    model_query() after each character of "rtx 4090 texas" typed into
#    the text filter (the slowest keystroke's median is the figure).
#    Baselines: SQLite stepping through every offer row; one pass over
#    the offers searching one field for the first word.
#  - the real binary in a tmux pane (when tmux is installed): the time
#    from starting `gpucost tui` until capture-pane shows the title and
#    a row of offers, and from each `send-keys` of a character until
#    the title shows the new filter text. Baselines: the same polling
#    of a pane whose program prints the marker at once and then echoes
#    each key (sh): what tmux and the polling cost. The TUI's peak RSS
#    (GNU time, start and typing included) is noted.
#
# The 100k cache is a Vast refresh from the fixture server (the
# snapshot plus gen_vast.awk's offers); the 1M one, like shapes.sh's,
# the snapshot plus `driver make-cache DB 1000000` (Vast-like offers:
# RTX 4090s in Texas among them, so the typed text narrows as at 100k).
# BENCH_TUI_OFFERS and BENCH_TUI_LARGE set the two sizes (LARGE=0
# skips the second); BENCH_QUICK=1 makes them 20k and 100k.
. "$(dirname "$0")/lib.sh"

n=${BENCH_TUI_OFFERS:-100000}
large=${BENCH_TUI_LARGE:-1000000}
if [ "$BENCH_QUICK" = 1 ]; then
	n=20000
	large=100000
fi
text="rtx 4090 texas"
have_driver=
[ -n "${BENCH_DRIVER:-}" ] && [ -x "$BENCH_DRIVER" ] && have_driver=1

# label N: "tui" at the first size, "tui 1M" (or "tui 100k") beyond.
label() {
	if [ "$1" = "$n" ]; then
		echo tui
	elif [ "$1" -ge 1000000 ]; then
		echo "tui $(($1 / 1000000))M"
	else
		echo "tui $(($1 / 1000))k"
	fi
}

# inprocess DB LABEL FIRST-TARGET KEY-TARGET: the driver's figures.
inprocess() {
	"$BENCH_DRIVER" load "$1" "$BENCH_RUNS" > "$B/load.out" || return 1
	awk '$1 == "load" { print $2 }' "$B/load.out" > "$B/t1"
	awk '$1 == "floor" { print $2 }' "$B/load.out" > "$B/t2"
	report "$2: first screen data (model_load_first)" "$(median_of "$B/t1")" \
	    "SQLite steps through every offer" "$(median_of "$B/t2")" secs "$3"
	awk '$1 == "rest" { print $2 }' "$B/load.out" > "$B/t1"
	[ -s "$B/t1" ] && note "$2: the rest of the load after the first screen (model_finish): $(human "$(median_of "$B/t1")")"
	"$BENCH_DRIVER" filter "$1" "$BENCH_RUNS" "$text" > "$B/filter.out" ||
	    return 1
	# The slowest keystroke, each keystroke's time a median over runs.
	awk '$1 == "key" { t[$3] = t[$3] " " $2 }
	    END { for (k in t) print k "\t" t[k] }' "$B/filter.out" |
	while IFS='	' read -r key times; do
		printf '%s\n' $times | sort -g |
		    awk -v k="$key" '{ v[NR] = $1 } END {
			printf "%s\t%s\n", v[int((NR + 1) / 2)], k }'
	done | sort -g | tail -1 > "$B/slowest"
	awk '$1 == "floor" { print $2 }' "$B/filter.out" > "$B/t2"
	report "$2: filter keystroke (model_query)" "$(cut -f1 "$B/slowest")" \
	    "one pass over the offers" "$(median_of "$B/t2")" secs "$4"
	note "$2: slowest keystroke typing \"$text\": $(cut -f2 "$B/slowest") of $(awk '$1 == "offers" { print $2 }' "$B/filter.out") offers"
}

# The 100k cache: a Vast refresh from the fixture server.
mkdir -p "$B/vast"
awk -v n="$n" -v lean=1 -f "$BENCH_DIR/gen_vast.awk" > "$B/vast/offers.json"
printf 'POST /api/v0/bundles/  offers.json  body~=rentable\n' > "$B/vast/routes"
serve vast "$B/vast" "$B/vast/routes"
db=$B/tui.db
GPUCOST_VAST_URL=$url "$GPUCOST" --db "$db" refresh --provider vast || exit 1
rm -f "$B/vast/offers.json"
# The large cache: the snapshot, then the driver's Vast-like offers.
big=
if [ "$large" -gt 0 ] && [ -n "$have_driver" ]; then
	big=$B/tui-large.db
	"$GPUCOST" --db "$big" providers >/dev/null || exit 1
	"$BENCH_DRIVER" make-cache "$big" "$large" > "$B/make.out" || exit 1
fi

if [ -n "$have_driver" ]; then
	inprocess "$db" "$(label "$n")" 0.3 0.05 || exit 1
	if [ -n "$big" ]; then
		inprocess "$big" "$(label "$large")" 1.5 0.15 || exit 1
	fi
else
	echo "bench/tui.sh: BENCH_DRIVER (bench/driver) not built; in-process figures and the large cache skipped" >&2
fi

have tmux || { echo "bench/tui.sh: tmux not found; terminal figures skipped" >&2; exit 0; }
SOCK=gpucost-bench$$
tm() { tmux -L "$SOCK" -f /dev/null "$@"; }
trap 'tm kill-server 2>/dev/null; bench_cleanup' EXIT

# wait_screen SESSION FIXED-STRING LINE: poll (polls times, 2500 unless
# set: about 5 s) until the pane's LINE-th line (0: any) holds the
# string; 1 on a timeout.
polls=2500
wait_screen() {
	_w=0
	while [ "$_w" -lt "$polls" ]; do
		if [ "$3" -eq 0 ]; then
			tm capture-pane -p -t "$1" 2>/dev/null | grep -q -F -- "$2" &&
			    return 0
		else
			tm capture-pane -p -t "$1" 2>/dev/null | sed -n "$3p" |
			    grep -q -F -- "$2" && return 0
		fi
		_w=$((_w + 1))
	done
	return 1
}

# secs_since NS: seconds from NS (date +%s%N) to now.
secs_since() {
	awk -v a="$1" -v b="$(now_ns)" 'BEGIN { printf "%.6f\n", (b - a) / 1e9 }'
}

# first_screen NAME CMD MARKER: start CMD in a new pane, time until the
# pane shows " gpucost:" on line 1 and MARKER anywhere.
first_screen() {
	_t0=$(now_ns)
	tm new-session -d -s "$1" -x 140 -y 40 "$2" || return 1
	if ! wait_screen "$1" " gpucost:" 1 || ! wait_screen "$1" "$3" 0; then
		echo "bench/tui.sh: $1: no screen within $polls polls" >&2
		tm capture-pane -p -t "$1" >&2
		return 1
	fi
	secs_since "$_t0"
}

# The baseline pane: the marker at once, then each key shown as "[...]".
cat > "$B/echo.sh" <<'ECHO'
printf ' gpucost: 1 offers\n vast\n'
stty -icanon -echo
s=
while c=$(dd bs=1 count=1 2>/dev/null); do
	s="$s$c"
	printf '\r[%s]' "$s"
done
ECHO
fake_cmd="sh '$B/echo.sh'"
# GNU time around the TUI for its peak RSS, when it is installed.
timer=
/usr/bin/time -f %M -o "$B/rss.try" true >/dev/null 2>&1 &&
    timer="/usr/bin/time -f %M -o '$B/rss'"

# terminal DB LABEL FIRST-TARGET KEY-TARGET: the tmux figures.
terminal() {
	tui_cmd="env HOME='$HOME' LC_ALL=C.UTF-8 TERM=tmux-256color $timer '$GPUCOST' --db '$1' tui"
	: > "$B/fs.a"
	: > "$B/fs.b"
	: > "$B/key.a"
	: > "$B/key.b"
	: > "$B/rss.all"
	runs=$((BENCH_RUNS / 2))
	[ "$runs" -lt 3 ] && runs=3
	r=0
	while [ "$r" -lt "$runs" ]; do
		first_screen base "$fake_cmd" " vast" >> "$B/fs.b" || return 1
		# GNU time opens its file at the start: remove the last one now.
		rm -f "$B/rss"
		first_screen tui "$tui_cmd" " vast " >> "$B/fs.a" || return 1
		# Keystrokes: the search prompt, then one character at a time.
		tm send-keys -t tui /
		wait_screen tui "Search:" 0 || return 1
		typed=
		rest=$text
		while [ -n "$rest" ]; do
			ch=$(printf '%s' "$rest" | cut -c1)
			rest=$(printf '%s' "$rest" | cut -c2-)
			typed="$typed$ch"
			_t0=$(now_ns)
			tm send-keys -t tui -l "$ch"
			# The title names the filter in CLI words, shell-quoted.
			case $typed in
			*" "*) want="--match '$typed'" ;;
			*) want="--match $typed" ;;
			esac
			wait_screen tui "$want |" 1 || return 1
			secs_since "$_t0" >> "$B/key.a"
			_t0=$(now_ns)
			tm send-keys -t base -l "$ch"
			wait_screen base "[$typed]" 0 || return 1
			secs_since "$_t0" >> "$B/key.b"
		done
		# Enter keeps the search; q quits (GNU time then writes).
		tm send-keys -t tui Enter
		tm send-keys -t tui q
		_w=0
		while [ ! -s "$B/rss" ] && [ -n "$timer" ] && [ "$_w" -lt 500 ]; do
			sleep 0.02
			_w=$((_w + 1))
		done
		[ -s "$B/rss" ] && tail -1 "$B/rss" >> "$B/rss.all"
		tm kill-session -t tui 2>/dev/null
		tm kill-session -t base
		r=$((r + 1))
	done
	report "$2: first screen in tmux" "$(median_of "$B/fs.a")" \
	    "a pane printing the marker at once" "$(median_of "$B/fs.b")" secs "$3"
	report "$2: keystroke in tmux (median)" "$(median_of "$B/key.a")" \
	    "a pane echoing each key (sh)" "$(median_of "$B/key.b")" secs "$4"
	note "$2: slowest keystroke in tmux $(human "$(sort -g "$B/key.a" | tail -1)"); tmux polling adds what its baseline shows"
	if [ -s "$B/rss.all" ]; then
		note "$2: peak RSS of the TUI (start, typing \"$text\"): $(median_of "$B/rss.all" | awk '{ printf "%.1f MB", $1 / 1024 }') (median of $(wc -l < "$B/rss.all") runs)"
	fi
}

# A session that outlives the others: the server stays up between runs.
tm new-session -d -s keep "sleep 3600" || exit 1
terminal "$db" "$(label "$n")" 0.3 0.05 || exit 1
if [ -n "$big" ]; then
	# A first screen of seconds: poll for a minute at most.
	polls=30000
	terminal "$big" "$(label "$large")" 1.5 0.15 || exit 1
fi
