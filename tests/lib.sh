# tests/lib.sh: helpers for the scripts that run the real gpucost binary.
# Sourced by tests/cli/*.sh. Each script gets a private HOME, cache and
# temp dir; `check` counts failures; `finish` exits 0 or 1.

set -u

: "${GPUCOST:?GPUCOST must name the gpucost binary}"
: "${TOP_SRCDIR:=$(cd "$(dirname "$0")/../.." && pwd)}"

T=$(mktemp -d "${TMPDIR:-/tmp}/gpucost-test.XXXXXX") || exit 99
trap 'rm -rf "$T"' EXIT
HOME=$T/home
mkdir -p "$HOME"
export HOME
unset XDG_DATA_HOME XDG_CONFIG_HOME GPUCOST_DB COLUMNS NO_COLOR
unset GCP_API_KEY LAMBDA_API_KEY RUNPOD_API_KEY VAST_API_KEY VULTR_API_KEY
DB=$T/cache.db
SNAPSHOT=$TOP_SRCDIR/data/snapshot.tsv

failures=0
checks=0

# Run gpucost: stdout in $T/out, stderr in $T/err, exit status in $status.
run() {
	"$GPUCOST" "$@" >"$T/out" 2>"$T/err"
	status=$?
}

# check DESCRIPTION COMMAND...: the command must succeed.
check() {
	desc=$1
	shift
	checks=$((checks + 1))
	if ! "$@"; then
		failures=$((failures + 1))
		echo "FAIL: $desc" >&2
		echo "  stdout: $(head -c 600 "$T/out" 2>/dev/null)" >&2
		echo "  stderr: $(head -c 600 "$T/err" 2>/dev/null)" >&2
	fi
}

status_is() { [ "$status" -eq "$1" ]; }
out_has() { grep -q -- "$1" "$T/out"; }
err_has() { grep -q -- "$1" "$T/err"; }
out_lacks() { ! grep -q -- "$1" "$T/out"; }
err_lines_are() { [ "$(wc -l < "$T/err")" -eq "$1" ]; }

# Field number of NAME in the CSV header of $T/out.
csv_col() {
	head -1 "$T/out" | tr -d '\r' | tr ',' '\n' | grep -n -x -- "$1" | cut -d: -f1
}

finish() {
	echo "$(basename "$0"): $((checks - failures)) passed, $failures failed"
	[ "$failures" -eq 0 ]
	exit $?
}

# ---------------------------------------------------------------------
# The fixture server (tests/server): serve NAME DIR [ROUTES] starts one
# in the background and sets $url to its http://127.0.0.1:PORT origin.
# Servers stop when the script exits.
# ---------------------------------------------------------------------
server_pids=
trap 'for p in $server_pids; do kill "$p" 2>/dev/null; done; rm -rf "$T"' EXIT

serve() {
	name=$1
	dir=$2
	routes=${3:-$dir/routes}
	: "${FIXTURE_SERVER:?FIXTURE_SERVER must name the fixture server}"
	rm -f "$T/$name.port"
	"$FIXTURE_SERVER" --dir "$dir" --routes "$routes" \
	    --port-file "$T/$name.port" --log "$T/$name.log" \
	    --idle-timeout 300 2>>"$T/$name.stderr" &
	server_pids="$server_pids $!"
	i=0
	while [ ! -s "$T/$name.port" ]; do
		i=$((i + 1))
		if [ "$i" -gt 100 ]; then
			echo "fixture server $name did not start" >&2
			cat "$T/$name.stderr" >&2
			exit 99
		fi
		sleep 0.05
	done
	url=http://127.0.0.1:$(cat "$T/$name.port")
}

# The GPUCOST_<ID>_URL variable name of provider id.
url_var() {
	echo "GPUCOST_$(echo "$1" | tr '[:lower:]-' '[:upper:]_')_URL"
}

# fault_dir PROVIDER KIND: a copy of the provider's fixtures whose routes
# answer every request with the fault; prints the directory.
#   500, 429 (Retry-After: 1), html, malformed (half the body then junk),
#   truncated (connection closed halfway), empty, stall (no answer).
fault_dir() {
	src=$TOP_SRCDIR/tests/fixtures/$1
	dst=$T/fx-$1-$2
	rm -rf "$dst"
	mkdir -p "$dst"
	cp "$src"/* "$dst"/
	printf '<!DOCTYPE html>\n<html><body><h1>502 Bad Gateway</h1></body></html>\n' \
	    > "$dst/error.html"
	for f in "$dst"/*.json "$dst"/*.csv "$dst"/*.js "$dst"/pricing*.html; do
		[ -f "$f" ] || continue
		size=$(wc -c < "$f")
		head -c $((size / 2)) "$f" > "$f.bad"
		printf '\n@@ not what the API sends @@\n' >> "$f.bad"
	done
	awk -v kind="$2" -v dir="$dst" '
	/^[ \t]*#/ || NF < 3 { next }
	{
		keep = ""
		for (i = 4; i <= NF; i++)
			if ($i ~ /^body~=/)
				keep = keep " " $i
		file = $3
		if (kind == "500")
			print $1, $2, "-", "status=500" keep
		else if (kind == "429")
			print $1, $2, "-", "status=429 header=Retry-After:%201" keep
		else if (kind == "html")
			print $1, $2, "error.html", "type=text/html" keep
		else if (kind == "malformed")
			print $1, $2, file ".bad" keep
		else if (kind == "truncated") {
			cmd = "wc -c < \"" dir "/" file "\""
			cmd | getline size
			close(cmd)
			print $1, $2, file, "truncate=" int(size / 2) keep
		} else if (kind == "empty")
			print $1, $2, "-" keep
		else if (kind == "stall")
			print $1, $2, file, "delay=60000" keep
		else if (kind == "slow2s")
			print $1, $2, file, "delay=2000" keep
	}' "$src/routes" > "$dst/routes"
	echo "$dst"
}

# A stable fingerprint of one provider's cached offers.
offers_sum() {
	sqlite3 "$DB" "select * from offers where provider = '$1' order by key" | cksum
}

# ---------------------------------------------------------------------
# Helpers for the fault, crash, concurrency, hostile-text and secrets
# scripts (tests/cli/faults.sh ...).
# ---------------------------------------------------------------------

# subst_first SRC DST FROM TO [ANCHOR]: copy SRC to DST with the first
# occurrence of the fixed string FROM replaced by TO; with ANCHOR, the
# first occurrence at or after the first ANCHOR (FROM and TO may span
# lines). Returns 1, leaving DST alone, when there is no such FROM: a
# fixture that changes must fail the test, not quietly test nothing.
# For small files: the whole file is one awk record.
subst_first() {
	FROM=$3 TO=$4 ANCHOR=${5:-} awk '
	BEGIN { RS = "\001"; from = ENVIRON["FROM"]; to = ENVIRON["TO"]; anchor = ENVIRON["ANCHOR"] }
	{ s = s sep $0; sep = RS }
	END {
		a = anchor == "" ? 1 : index(s, anchor)
		i = a > 0 ? index(substr(s, a), from) : 0
		if (i == 0)
			exit 1
		i += a - 1
		printf "%s", substr(s, 1, i - 1) to substr(s, i + length(from))
	}' "$1" > "$2.tmp" || { rm -f "$2.tmp"; return 1; }
	mv "$2.tmp" "$2"
}

# soak N M: how many times a loop of random cases (kills at random
# points, random timings) goes round: N in `make check`, M under `make
# check-soak` (GPUCOST_TEST_SOAK=1), which CI runs as well. Every round
# checks the same things; the soak only draws more of them.
soak() {
	if [ -n "${GPUCOST_TEST_SOAK:-}" ]; then
		echo "$2"
	else
		echo "$1"
	fi
}

# Seconds since the epoch with a fraction, and the time since one.
now_s() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now_s)" 'BEGIN { printf "%.2f", b - a }'; }

# A stable fingerprint of every offer of every provider.
all_sums() {
	sqlite3 "$DB" "select * from offers order by provider, key" | cksum
}

# wait_for SECONDS COMMAND...: poll (every 0.05 s) until COMMAND succeeds;
# returns 1 after SECONDS.
wait_for() {
	_n=$(($1 * 20))
	shift
	while ! "$@"; do
		_n=$((_n - 1))
		[ "$_n" -gt 0 ] || return 1
		sleep 0.05
	done
}

# A fingerprint of one provider's offers without fetched_at: the same
# data fetched at another time has the same fingerprint.
offers_data_sum() {
	sqlite3 "$DB" "select provider, key, instance_type, region, gpu, gpu_raw,
	    gpu_count, vram_gb, interconnect, vcpus, ram_gb, price, spot_price,
	    availability, spot_interruption, reliability, source
	    from offers where provider = '$1' order by key" | cksum
}

# random_ms SEED COUNT MIN MAX: COUNT pseudo-random integers in MIN..MAX,
# one a line, the same for the same SEED.
random_ms() {
	awk -v seed="$1" -v n="$2" -v lo="$3" -v hi="$4" 'BEGIN {
		srand(seed)
		for (i = 0; i < n; i++)
			print lo + int(rand() * (hi - lo + 1))
	}'
}

# ms_sleep MS: sleep MS milliseconds.
ms_sleep() { sleep "$(awk -v ms="$1" 'BEGIN { printf "%.3f", ms / 1000 }')"; }

# bad_bytes FILE [tsv|csv]: print how many bytes of FILE a terminal could
# take for a control: C0 controls but newline (and tab for tsv, CR before
# a newline for csv), DEL, C1 controls (UTF-8 C2 80..C2 9F) and bytes that
# are not UTF-8 (a lone 0x9b is CSI to an 8-bit terminal). The offsets of
# the first few go to stderr.
bad_bytes() {
	od -An -v -tu1 "$1" | awk -v mode="${2:-}" '
	function bad(what) {
		n++
		if (n <= 5)
			printf "  byte %d: %s\n", pos, what > "/dev/stderr"
	}
	{
		for (f = 1; f <= NF; f++) {
			c = $f + 0
			pos++
			if (cr) {
				cr = 0
				if (c != 10)
					bad("CR not before a newline")
			}
			if (cont > 0) {
				if (c >= 128 && c <= 191) {
					if (lead == 194 && cont == 1 && c <= 159)
						bad("C1 control " c)
					cont--
					continue
				}
				bad("cut UTF-8 sequence")
				cont = 0
			}
			if (c == 10 || (c == 9 && mode == "tsv"))
				continue
			if (c == 13 && mode == "csv") {
				cr = 1
				continue
			}
			if (c < 32 || c == 127)
				bad("control " c)
			else if (c >= 128 && c <= 193 || c >= 245)
				bad("not UTF-8: " c)
			else if (c >= 194) {
				lead = c
				cont = c >= 240 ? 3 : c >= 224 ? 2 : 1
			}
		}
	}
	END {
		if (cont > 0 || cr)
			bad("cut at the end")
		print n + 0
	}'
}

# vast_offers N FILE: a Vast search answer of N rentable RTX 4090 offers
# (about 140 bytes each) in FILE.
vast_offers() {
	awk -v n="$1" 'BEGIN {
		printf "{\"offers\": [\n"
		for (i = 1; i <= n; i++)
			printf "{\"id\": %d, \"dph_total\": %.4f, \"num_gpus\": %d, " \
			    "\"gpu_name\": \"RTX 4090\", \"gpu_ram\": 24564, " \
			    "\"geolocation\": \"Oregon, US\", \"rentable\": true}%s\n",
			    9000000 + i, 0.3 + (i % 500) / 100, 1 + i % 8, i < n ? "," : ""
		printf "]}\n"
	}' > "$2"
}

# hostile_regions_cached READER: the regions "zc;touch $T/pwned" and
# "zf*" where completion reads them (issue 43, item 2: the completion
# tests). gpucost never writes such a region (offer_region_char_ok():
# a refresh turns ';' and '*' into '_', a copy holding one is refused,
# and publish refuses to publish one): so a publisher's cache edited to
# hold them must fail to publish, and the reader's own cache, edited the
# same way, is what completion reads them from. Returns non-zero if the
# publish did not fail or the edit did.
hostile_regions_cached() {
	_pub=$T/hostile-pub.db
	"$GPUCOST" --db "$_pub" providers >/dev/null 2>&1 || return 1
	"$GPUCOST" --db "$1" providers >/dev/null 2>&1 || return 1
	for _db in "$_pub" "$1"; do
		for _p in aws gcp; do
			_k=$(sqlite3 "$_db" "select key from offers where provider = '$_p' order by key limit 1")
			case $_p in
			aws) _r="zc;touch $T/pwned" ;;
			gcp) _r='zf*' ;;
			esac
			sqlite3 "$_db" "update offers set region = '$_r' where provider = '$_p' and key = '$_k'" || return 1
		done
	done
	mkdir -p "$T/hostile-site"
	! "$GPUCOST" --db "$_pub" publish --quiet "$T/hostile-site" >/dev/null 2>&1
}

# varied_cache: $DB holds the snapshot (AWS, Azure, GCP with fabrics,
# Lambda and OCI in region all, RunPod, Vast listings older than a day)
# and, from the fixtures served on 127.0.0.1, live Vast single listings
# and RunPod's cluster products. Checks the refresh.
varied_cache() {
	VAST_API_KEY=vast-key
	RUNPOD_API_KEY=runpod-key
	export VAST_API_KEY RUNPOD_API_KEY
	serve vast "$TOP_SRCDIR/tests/fixtures/vast"
	GPUCOST_VAST_URL=$url
	serve clusters "$TOP_SRCDIR/tests/fixtures/runpod-clusters"
	GPUCOST_RUNPOD_CLUSTERS_URL=$url
	export GPUCOST_VAST_URL GPUCOST_RUNPOD_CLUSTERS_URL
	run --db "$DB" refresh --provider vast,runpod-clusters
	check "refresh of vast and runpod-clusters: exit 0" status_is 0
	unset GPUCOST_VAST_URL GPUCOST_RUNPOD_CLUSTERS_URL
}

# pty COLS ARGS...: gpucost on a pseudo-terminal of COLS columns (as a
# person sees it: script(1) gives it the terminal, stty its width);
# what it wrote (stdout and stderr) in $T/out, carriage returns dropped.
pty() {
	cols=$1
	shift
	script -qec "stty cols $cols rows 50; $GPUCOST $*" /dev/null \
	    >"$T/out" 2>"$T/err" </dev/null
	status=$?
	tr -d '\r' < "$T/out" > "$T/pty" && mv "$T/pty" "$T/out"
}

# tab_then_enter SHELL LINE SETUP...: an interactive SHELL ("zsh -f -i",
# "fish --no-config -i") driven through zsh's zpty runs each SETUP line,
# then LINE is typed, TAB, and Enter. gpucost on its PATH is a wrapper
# that writes its arguments, one a line, to $T/ran (and runs the real
# one for __complete); $T/ran is empty if nothing ran.
tab_then_enter() {
	mkdir -p "$T/wbin"
	printf '#!/bin/sh\ncase "$1" in __complete) exec "%s" "$@" ;; esac\nprintf "%%s\\n" "$@" > "%s"\n' \
	    "$GPUCOST" "$T/ran" > "$T/wbin/gpucost"
	chmod +x "$T/wbin/gpucost"
	: > "$T/ran"
	PATH=$T/wbin:$PATH RAN=$T/ran SH=$1 LINE=$2 zsh -f -c '
		zmodload zsh/zpty || exit 1
		zpty z ${=SH}
		sleep 1
		for l in "$@"; do zpty -w z "$l"; done
		sleep 1
		zpty -w -n z "$LINE"$'"'"'\t'"'"'
		sleep 1
		zpty -w -n z $'"'"'\r'"'"'
		i=0
		while [[ ! -s $RAN ]] && (( i++ < 200 )); do sleep 0.05; done
		sleep 0.3
		zpty -d z' sh "$@" >"$T/err" 2>&1
}
