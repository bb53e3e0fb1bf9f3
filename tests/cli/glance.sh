#!/bin/sh
# Issue 25, read at a glance: notes in words (a legend under the table,
# NOTE kept at 80 columns, every note in --help and the man page), --help
# within 80 columns, names that forgive (fragments, glued forms, cards
# that share a name) and typo suggestions for options and commands.
. "$(dirname "$0")/../lib.sh"

run --db "$DB" --gpu H100 --count 1 --limit 1 -q
check "seed the cache" status_is 0

# --- --help fits 80 columns and explains every note. -----------------
run --help
check "--help: exit 0" status_is 0
check "--help: no line over 80 columns" [ "$(awk '{ if (length($0) > m) m = length($0) } END { print m + 0 }' "$T/out")" -le 80 ]
check "--help: no trailing blanks" [ "$(grep -c ' $' "$T/out")" -eq 0 ]
check "--help: refresh usage whole" out_has 'refresh \[--provider LIST\].*\[--quiet\]'
for tok in price-outlier spot-not-cheaper spot-cheapest-zone host-estimated low-confidence single-listing stale host-light; do
	check "--help explains $tok" grep -q "^  [^ ]  *$tok  " "$T/out"
done

# --- The legend under a table: the letters shown, in words. ----------
# A pseudo-terminal of 80 and 120 columns (lib.sh's pty).
# The footer's entries wrap at words on a terminal, their continuation
# lines indented: one line each again.
unwrap() {
	awk '/^         [^ ]/ { sub(/^ +/, ""); prev = prev " " $0; next }
	    { if (NR > 1) print prev; prev = $0 } END { print prev }' "$1"
}
if command -v script >/dev/null 2>&1; then
	for cols in 80 120; do
		pty "$cols" --db "$DB" --gpu H100 --count 8 --limit 6
		check "pty $cols: offers" status_is 0
		check "pty $cols: no line wider than the terminal" [ "$(awk '{ if (length($0) > m) m = length($0) } END { print m + 0 }' "$T/out")" -le "$cols" ]
		unwrap "$T/out" > "$T/lines" && mv "$T/lines" "$T/out"
		check "pty $cols: NOTE column kept" grep -q 'NOTE' "$T/out"
		check "pty $cols: no table line wider than the terminal" [ "$(grep -v "^gpucost:" "$T/out" | awk '{ if (length($0) > m) m = length($0) } END { print m + 0 }')" -le "$cols" ]
		# Every marker in the NOTE column is named in the legend line.
		legend=$(grep '^gpucost: notes: ' "$T/out")
		check "pty $cols: a legend line" [ -n "$legend" ]
		# The NOTE cells: the text under the header's NOTE.
		grep -v '^gpucost:' "$T/out" | awk '
		    NR == 1 { c = index($0, "NOTE"); next }
		    { s = substr($0, c); sub(/ .*/, "", s); print s }' \
		    > "$T/notes"
		check "pty $cols: rows have notes" grep -q '[^-]' "$T/notes"
		for m in $(grep -o . "$T/notes" | sort -u); do
			[ "$m" = "-" ] && continue
			check "pty $cols: legend names marker $m" sh -c 'printf "%s\n" "$1" | grep -q -F -- " $2 "' x "$legend" "$m"
		done
	done
fi
COLUMNS=80 run --db "$DB" --gpu H100 --count 8 --limit 6
check "80 columns: NOTE kept" grep -q 'NOTE' "$T/out"
check "legend on stderr: o stale" err_has 'notes: .*o stale'
check "legend: only what is shown (no S)" sh -c '! grep -q "spot-not-cheaper" "$1"' x "$T/err"
COLUMNS=80 run --db "$DB" --gpu H100 --count 8 --limit 6 -q
check "-q: no legend" [ ! -s "$T/err" ]
run --db "$DB" --gpu H100 --count 8 --limit 6 --format csv
check "csv: no legend" sh -c '! grep -q "notes:" "$1"' x "$T/err"

# --- The man page names every note and renders its marker. -----------
if command -v groff >/dev/null 2>&1 || command -v mandoc >/dev/null 2>&1; then
	if command -v mandoc >/dev/null 2>&1; then
		mandoc -T utf8 "$TOP_SRCDIR/man/gpucost.1" > "$T/man" 2>/dev/null
	else
		groff -mandoc -Tutf8 "$TOP_SRCDIR/man/gpucost.1" 2>/dev/null | sed 's/.\x08//g' > "$T/man"
	fi
	check "man: price-outlier (!) renders" grep -q 'price-outlier (!)' "$T/man"
	check "man: host-light (c)" grep -q 'host-light (c)' "$T/man"
fi

# --- Names that forgive. ----------------------------------------------
q() { run --db "$DB" --format json --quiet "$@"; }
gpus_of() { jq -r '.offers[].gpu' "$T/out" | sort -u | tr '\n' ' '; }
q --gpu 4090
check "--gpu 4090: answers" status_is 0
check "--gpu 4090: RTX 4090 offers only" [ "$(gpus_of)" = "RTX4090 " ]
q --gpu 5090
check "--gpu 5090: RTX 5090" [ "$(gpus_of)" = "RTX5090 " ]
run --db "$DB" --format json --quiet --gpu h100pcie
check "--gpu h100pcie: answers" status_is 0
check "--gpu h100pcie: no SXM row" [ "$(jq -r '.offers[].form' "$T/out" | sort -u)" = "pcie" ]
run --db "$DB" --format json --quiet --gpu h100sxm
check "--gpu h100sxm: no PCIe row" [ "$(jq -r '.offers[].form' "$T/out" | sort -u)" = "sxm" ]
run --db "$DB" --gpu RTX6000
check "--gpu RTX6000: exit 2" status_is 2
check "--gpu RTX6000: names the Ada card" err_has 'RTX6000-Ada (48 GB, Ada)'
check "--gpu RTX6000: names the Quadro" err_has 'QRTX6000 (24 GB, Turing)'
q --gpu RTX6000-Ada
check "--gpu RTX6000-Ada: one card" [ "$(gpus_of)" = "RTX6000-Ada " ]
q --gpu A100
check "--gpu A100: both sizes still (one card)" [ "$(gpus_of)" = "A100-40 A100-80 " ]

# The text search (--match, the TUI's /) knows SXM boards whose names do
# not say so: AWS p5 and GCP a3 are SXM.
run --db "$DB" --format json --quiet --match 'h100 sxm'
check "--match 'h100 sxm': AWS p5" sh -c 'jq -r ".offers[].instance_type" "$1" | grep -q "^p5\\."' x "$T/out"
check "--match 'h100 sxm': GCP a3" sh -c 'jq -r ".offers[].instance_type" "$1" | grep -q "^a3-"' x "$T/out"
check "--match 'h100 sxm': no PCIe board" [ "$(jq -r '.offers[].form' "$T/out" | sort -u)" = "sxm" ]
run --db "$DB" --format json --quiet --match 'h100 pcie'
check "--match 'h100 pcie': no SXM board" [ "$(jq -r '.offers[].form' "$T/out" | sort -u)" = "pcie" ]

# --- Typos get the nearest option or command. -------------------------
run --gpus H100
check "--gpus: exit 2" status_is 2
check "--gpus suggests --gpu" err_has 'did you mean --gpu?'
run --regoin us
check "--regoin suggests --region" err_has 'did you mean --region?'
run histroy
check "histroy: exit 2" status_is 2
check "histroy suggests history" err_has 'did you mean history?'
run --xyzzy
check "--xyzzy: no wild guess" sh -c '! grep -q "did you mean" "$1"' x "$T/err"

# --- The data-age line on every answer. --------------------------------
run --db "$DB" --group-by gpu --gpu H100
check "--group-by: exit 0" status_is 0
check "--group-by: data age" err_has '^gpucost: data age: .*snapshot'
check "--group-by: count" err_has '^gpucost: [0-9]* offers in 1 group$'
run --db "$DB" history --gpu H100 --count 8 --limit 2
check "history: exit 0" status_is 0
check "history: data age" err_has '^gpucost: data age: '
check "history: count" err_has '^gpucost: 2 offers$'
run --db "$DB" history --gpu H100 --count 8 --limit 2 -q
check "history -q: nothing on stderr" [ ! -s "$T/err" ]

# --- gpucost launch KEY: the command for one offer. -------------------
run --db "$DB" --format json --quiet --provider aws --gpu H100 --count 8 --region us-east-1 --limit 1
key=$(jq -r '.offers[0].key' "$T/out")
want=$(jq -r '.offers[0].launch' "$T/out")
# The snapshot's spot prices are history (issue 44 item 7): asked for.
run --db "$DB" --format json --quiet --provider aws --gpu H100 --count 8 --region us-east-1 --limit 1 --include-stale
want_spot=$(jq -r '.offers[0].launch_spot' "$T/out")
check "a p5 key" [ "$key" = "p5.48xlarge/us-east-1" ]
run --db "$DB" launch "$key"
check "launch KEY: exit 0" status_is 0
check "launch KEY: the on-demand command, as in JSON" [ "$(cat "$T/out")" = "$want" ]
run --db "$DB" launch "$key" --spot
check "launch KEY --spot, the spot price history: refused" status_is 1
check "... saying why" err_has 'more than 7 days old'
run --db "$DB" launch "$key" --spot --include-stale
check "launch KEY --spot: exit 0" status_is 0
check "launch KEY --spot: the spot command, as in JSON" [ "$(cat "$T/out")" = "$want_spot" ]
check "launch KEY --spot: spot options" out_has 'MarketType=spot'
run --db "$DB" launch "$key" --provider aws
check "launch KEY --provider: exit 0" status_is 0
run --db "$DB" launch "$key" --provider gcp
check "launch KEY at another provider: exit 1" status_is 1
run --db "$DB" launch 'no/such-key'
check "launch unknown KEY: exit 1" status_is 1
check "launch unknown KEY: one line naming it" err_has 'no offer has the key "no/such-key"'
run --db "$DB" launch
check "launch without KEY: usage error" status_is 2
# Issue 48: the query's options, so its row is the plan the query shows.
run --db "$DB" launch "$key" --gpu H100
check "launch KEY --gpu H100: the row of that question" status_is 0
run --db "$DB" launch "$key" --gpu A100
check "launch KEY --gpu A100: not a row of that question, exit 1" status_is 1
check "... which option leaves it out" err_has 'is aws p5.48xlarge in us-east-1, which these options leave out: .*--gpu A100'
# An instance type names every region's offer: the reason is theirs,
# not that of the one region a pick fell on (it said --region before).
run --db "$DB" launch p4d.24xlarge --region us-east-1 --spot
check "launch INSTANCE --region --spot on history: refused" status_is 1
check "... for the spot price's age, not the region" err_has 'p4d.24xlarge, which these options leave out: 1 offer matches --region .us-east-1.; none has a current spot price'
run --db "$DB" launch 'p5.48xlarge/us-east-2x'
check "launch of a mistyped KEY: did you mean" err_has 'did you mean p5.48xlarge/us-east-2'
run --db "$DB" launch p5.48xlarge --region us-east-1
check "launch INSTANCE --region: the table's row, JSON's command" [ "$(cat "$T/out")" = "$want" ]
run --db "$DB" launch p5.48xlarge/us-east-1
check "launch INSTANCE/REGION: the same" [ "$(cat "$T/out")" = "$want" ]
run --db "$DB" --format json --quiet --gpu H100 --count 16 --nodes 2 --provider aws --limit 1
want2=$(jq -r '.offers[0].launch' "$T/out")
key2=$(jq -r '.offers[0].key' "$T/out")
run --db "$DB" launch "$key2" --gpu H100 --count 16 --nodes 2
check "launch KEY --count 16 --nodes 2: exit 0" status_is 0
check "... JSON's command for 2 nodes" [ "$(head -n 1 "$T/out")" = "$want2" ]
check "... its setup steps as comments" [ "$(sed -n 2p "$T/out" | cut -c1-12)" = "# 2 nodes of" ]
check "... every line after the command a comment" [ "$(sed 1d "$T/out" | grep -vc '^# ')" -eq 0 ]
run --db "$DB" --format json --quiet --provider gcp --gpu H100 --count 2 --region us-central1 --vertex --limit 1
gkey=$(jq -r '.offers[0].key' "$T/out")
want_vertex=$(jq -r '.offers[0].launch_vertex' "$T/out")
run --db "$DB" launch "$gkey" --vertex
check "launch KEY --vertex: the Vertex AI job" [ "$(cat "$T/out")" = "$want_vertex" ]

finish
