#!/bin/sh
# One question, one answer (issue 48): every face renders what
# answer_get() returns. Each question below goes through the CLI's JSON,
# CSV and table, the quick ways and the full path (GPUCOST_DEBUG_FULL_PATH),
# the TUI (its first screen and its whole load), --group-by, MCP's
# find_offers and market_summary, and launch; each must give the same
# offers in the same order with the same numbers and notes.
#
# The table and the TUI write the rows they render to GPUCOST_DEBUG_ROWS
# (column_dump(): the offer, its +N and every cell as shown). The cache is
# varied: the snapshot (AWS, Azure, GCP with fabrics, Lambda and OCI in
# region all, RunPod, Vast listings older than a day), live Vast single
# listings and RunPod's cluster products.
. "$(dirname "$0")/../lib.sh"
command -v jq >/dev/null 2>&1 || { echo "jq not found: skipped"; exit 77; }

varied_cache
# Issue 44 item 7: spot prices current (Vast's live listings; AWS's p5
# rows, as if just refreshed) and history (the snapshot's, AWS's others:
# one provider with both, judged row by row).
now=$(date +%s)
sqlite3 "$DB" "UPDATE offers SET fetched_at = $now WHERE provider = 'aws' AND instance_type LIKE 'p5%'; UPDATE provider_status SET newest = $now WHERE provider = 'aws'"

# The questions: every query option at least once, plans of several
# nodes, fabrics, terms, regions, market references, empty answers.
cat > "$T/questions" <<'EOF'
--gpu A100-80 --count 4
--gpu H100 --count 8
--gpu H100 --count 16 --nodes 2
--gpu H100 --count 16 --nodes 2 --fabric rdma
--multi-node --count 16 --min-vram 40
--multi-node
--gpu 'H100 SXM' --count 8
--gpu RTX4090 --count 2 --max-price 0.5
--region europe --sort pflop
--region us --gpu H100
--region 'us-*' --gpu H100
--region de --count 2
--spot --gpu A100-80
--available
--vertex --gpu H100
--match 'rtx 4090'
--no-outliers --sort pflop
--include-stale --gpu RTX4090
--min-vcpu-per-gpu 8 --min-ram-per-gpu 64 --gpu H100
--fabric efa --gpu H100 --count 8
--min-node-gbps 1600 --gpu A100
--provider aws,gcp --gpu A100
--interconnect nvlink --count 8
--sort spot --reverse --gpu A100-80
--spot --limit 5
--spot --gpu H100 --count 8
--sort spot-gpu-price --limit 8
--sort savings --gpu H100
--spot --include-stale --limit 5
--hours 24 --spot --gpu H100
--sort region --gpu L4
--sort age --limit 10
--term 1y --gpu H100
--term any --count 8
--hours 72 --gpu H100 --count 8
--gpu H100 --count 8 --limit 5
--count 8 --sort vcpus-per-gpu --limit 5
--gpu A100 --region north-america --all-regions
--gpu H100 --max-price 0.01
--provider vast

EOF
nq=$(grep -c . "$T/questions")
check "at least 30 questions ($nq)" [ "$nq" -ge 30 ]

# q ARGS...: gpucost --db DB ARGS, stdout in $T/out, stderr in $T/err.
q() { run --db "$DB" "$@"; }
# The rows of a JSON answer: provider TAB key TAB nodes.
json_rows() { jq -r '.offers[] | [.provider, .key, .nodes] | @tsv' "$1"; }
# The rows of a dump (GPUCOST_DEBUG_ROWS) after its last "# LABEL" line,
# without the AGE column (each face's own clock: a live offer's minutes).
dump_rows() {
	awk -F '\t' -v label="$2" '
	    $0 ~ "^# " label " " { n = 0; p = 1; next }
	    /^# / { p = 0; next }
	    /^#provider/ { for (c = 1; c <= NF; c++) if ($c == "AGE") age = c; next }
	    p { line = ""; for (c = 1; c <= NF; c++) if (c != age)
	        line = line (c > 1 ? "\t" : "") $c; rows[n++] = line }
	    END { for (i = 0; i < n; i++) print rows[i] }' "$1"
}

# no_limit ARGS...: ARGS without --limit N, quoted for eval.
no_limit() {
	while [ $# -gt 0 ]; do
		if [ "$1" = --limit ]; then
			shift 2
			continue
		fi
		printf "'%s' " "$1"
		shift
	done
}

# launch_opts ARGS...: the plan options of a question (what launch takes:
# not --limit, --hours, --all-regions), quoted for eval.
launch_opts() {
	while [ $# -gt 0 ]; do
		case $1 in
		--limit|--hours)
			shift 2
			continue ;;
		--all-regions)
			shift
			continue ;;
		esac
		printf "'%s' " "$1"
		shift
	done
}

# mcp_args ARGS...: the query options as find_offers' JSON arguments.
mcp_args() {
	printf '{'
	sep=
	while [ $# -gt 0 ]; do
		name=${1#--}
		case $name in
		multi-node|spot|available|vertex|no-outliers|include-stale|reverse)
			printf '%s"%s":true' "$sep" "$name"
			shift ;;
		count|nodes|limit|min-vram|min-vcpu-per-gpu|min-ram-per-gpu|min-node-gbps)
			printf '%s"%s":%s' "$sep" "$name" "$2"
			shift 2 ;;
		max-price|hours)
			printf '%s"%s":%s' "$sep" "$name" "$2"
			shift 2 ;;
		*)
			printf '%s"%s":"%s"' "$sep" "$name" "$2"
			shift 2 ;;
		esac
		sep=,
	done
	printf '}'
}

i=0
: > "$T/mcp.in"
while IFS= read -r line; do
	[ -n "$line" ] || continue
	i=$((i + 1))
	eval "set -- $line"
	name="[$i] $line"

	# --- JSON: the whole answer, and the same by the full path.
	q "$@" --format json
	json_status=$status
	cp "$T/out" "$T/j.$i"
	json_rows "$T/j.$i" > "$T/j.$i.rows"
	matched=$(jq '.matched' "$T/j.$i")
	GPUCOST_DEBUG_FULL_PATH=1 q "$@" --format json
	check "$name: json, the full path: same offers" \
	    [ "$(jq -c .offers "$T/out")" = "$(jq -c .offers "$T/j.$i")" ]
	check "$name: json, the full path: same matched" \
	    [ "$(jq .matched "$T/out")" = "$matched" ]
	q "$@" --format json -q
	check "$name: json -q: same offers" \
	    [ "$(jq -c .offers "$T/out")" = "$(jq -c .offers "$T/j.$i")" ]
	# The whole answer's rows (the same question without --limit).
	no_limit "$@" > "$T/args"
	eval "q $(cat "$T/args") --format json"
	json_rows "$T/out" > "$T/j.$i.all"

	# --- CSV and TSV: the same rows and numbers.
	q "$@" --format csv
	check "$name: csv and json: same status" status_is "$json_status"
	check "$name: csv: a header and a line per json offer" \
	    [ "$(($(wc -l < "$T/out") - 1))" -eq "$(wc -l < "$T/j.$i.rows")" ]
	jq -r '.offers[] | [.provider, .key, .nodes, .price_hour,
	    .price_gpu_hour, .spot_hour, .spot_gpu_hour,
	    (.notes | join(";"))] | map(. // "" | tostring) | @tsv' \
	    "$T/j.$i" > "$T/j.$i.num"
	q "$@" --format tsv
	# The TSV's fields by name, numbers read as JSON reads them.
	jq -R -r 'split("\t")' "$T/out" | jq -r -s '
	    .[0] as $h | .[1:][] | [$h, .] | transpose |
	    map({(.[0]): .[1]}) | add |
	    [.provider, .key, .nodes, .price_hour, .price_gpu_hour,
	    .spot_hour, .spot_gpu_hour] as $v |
	    ($v[:2] + ($v[2:] | map(if . == "" then "" else
	    (tonumber | tostring) end)) + [.notes]) | @tsv' > "$T/c.$i.num"
	check "$name: tsv and json: same rows and numbers" \
	    cmp -s "$T/c.$i.num" "$T/j.$i.num"

	# --- The table: the JSON's rows, an instance type's regions folded.
	rm -f "$T/rows"
	GPUCOST_DEBUG_ROWS=$T/rows q "$@"
	check "$name: table and json: same status" status_is "$json_status"
	dump_rows "$T/rows" table > "$T/t.$i"
	cut -f 1-3 "$T/t.$i" > "$T/t.$i.rows"
	# Each row is an offer of the JSON answer, in its order.
	check "$name: table rows are json offers in order" \
	    awk 'NR == FNR { at[$0] = FNR; next }
	        !($0 in at) || at[$0] <= last { bad = 1 }
	        { last = at[$0] } END { exit bad }' \
	    "$T/j.$i.all" "$T/t.$i.rows"
	case " $* " in
	*" --limit "*) ;;
	*)
		folded=$(awk -F '\t' '{ n += 1 + $4 } END { print n + 0 }' "$T/t.$i")
		check "$name: table rows and +N add up to json's $matched" \
		    [ "$folded" -eq "$matched" ] ;;
	esac
	# The quick way (-q: the first rows of the walk) and the full path.
	rm -f "$T/rows" "$T/rows.full"
	GPUCOST_DEBUG_ROWS=$T/rows q "$@" -q --limit 7
	GPUCOST_DEBUG_ROWS=$T/rows.full GPUCOST_DEBUG_FULL_PATH=1 \
	    q "$@" -q --limit 7
	check "$name: table --limit 7 -q: the full path's rows" \
	    cmp -s "$T/rows" "$T/rows.full"

	# --- --group-by: summaries of the rows the same question shows.
	case " $* " in
	*" --limit "*|*" --all-regions "*|*" --term "*) ;;
	*)
		q "$@" --group-by provider --format json
		jq -r '.groups[] | [.provider, .offers, (.min_price_gpu_hour //
		    "" | tostring)] | @tsv' "$T/out" 2>/dev/null | sort > "$T/g.$i"
		jq -r '[.offers[] | {p: .provider, v: .price_gpu_hour}] |
		    group_by(.p)[] | [.[0].p, length,
		    ([.[].v | select(. != null)] | min // "" | tostring)] |
		    @tsv' "$T/j.$i" | sort > "$T/g.$i.want"
		check "$name: --group-by provider: the json rows' counts and minima" \
		    cmp -s "$T/g.$i" "$T/g.$i.want"
		# The cheapest row's $/PFLOP-h and, with --hours, its job.
		hours=$(printf '%s\n' "$line" | sed -n 's/.*--hours \([0-9.]*\).*/\1/p')
		cp "$T/out" "$T/g.$i.json"
		check "$name: --group-by provider: the cheapest row's \$/PFLOP-h and total" \
		    jq -e -n --slurpfile g "$T/g.$i.json" --slurpfile j "$T/j.$i" \
		    --arg hours "${hours:--1}" '
		    [$g[0].groups[] as $grp | $j[0].offers[] |
		    select(.provider == $grp.cheapest_provider and
		    .instance_type == $grp.cheapest_instance_type and
		    .region == $grp.cheapest_region) | . as $o |
		    ($o.usd_per_pflop_hour == $grp.cheapest_usd_per_pflop_hour or
		    (($o.usd_per_pflop_hour // 0) - ($grp.cheapest_usd_per_pflop_hour // 0) |
		    fabs) < 0.0001) and
		    (($hours | tonumber) < 0 or
		    (($o.price_hour * ($hours | tonumber)) - $grp.cheapest_total |
		    fabs) < 0.005)] | all'
		q "$@" --group-by gpu --format csv -q
		cp "$T/out" "$T/g.$i.quick"
		GPUCOST_DEBUG_FULL_PATH=1 q "$@" --group-by gpu --format csv -q
		check "$name: --group-by gpu -q: the full path's groups" \
		    cmp -s "$T/out" "$T/g.$i.quick" ;;
	esac

	# --- launch: every spot price shown has its command; launch asked
	# the same question prints the first row's command (JSON's, for
	# plans of several nodes too, with its setup steps), by its key and
	# by its instance type as the table shows it (issue 48).
	check "$name: every spot price has a spot command" \
	    [ "$(jq '[.offers[] | select(.spot_hour != null and
	    .launch_spot == null)] | length' "$T/j.$i")" -eq 0 ]
	case " $* " in
	*" --spot "*) field=launch_spot ;;
	*" --vertex "*) field=launch_vertex ;;
	*) field=launch ;;
	esac
	want=$(jq -r ".offers[0].$field // empty" "$T/j.$i")
	if [ -n "$want" ]; then
		first_key=$(jq -r '.offers[0].key' "$T/j.$i")
		first_type=$(jq -r '.offers[0].instance_type' "$T/j.$i")
		nodes=$(jq -r '.offers[0].nodes' "$T/j.$i")
		launch_opts "$@" > "$T/args"
		case " $* " in
		*" --provider "*) ;;
		*) printf "%s '%s' " --provider "$(jq -r '.offers[0].provider' \
		    "$T/j.$i")" >> "$T/args" ;;
		esac
		eval "q launch \"\$first_key\" $(cat "$T/args")"
		check "$name: launch KEY, the same options: json's command" \
		    [ "$(head -n 1 "$T/out")" = "$want" ]
		if [ "$nodes" -gt 1 ]; then
			check "$name: ... and the plan's setup steps" \
			    grep -q "^# $nodes nodes of " "$T/out"
		else
			check "$name: ... alone" [ "$(wc -l < "$T/out")" -eq 1 ]
		fi
		eval "q launch \"\$first_type\" $(cat "$T/args")"
		check "$name: launch INSTANCE, the same options: json's command" \
		    [ "$(head -n 1 "$T/out")" = "$want" ]
	fi

	# --- MCP: queued; answered in one session below.
	case " $* " in
	*" --all-regions "*) ;;
	*)
		printf '{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"find_offers","arguments":%s}}\n' \
		    "$i" "$(mcp_args "$@")" >> "$T/mcp.in" ;;
	esac
	if [ -f "$T/g.$i.json" ]; then
		printf '{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"market_summary","arguments":%s}}\n' \
		    "$((1000 + i))" "$(mcp_args "$@" --group-by provider)" >> "$T/mcp.in"
	fi
done < "$T/questions"

# --- MCP: find_offers gives the table's rows (one per instance type,
# +N its other regions; 20 unless --limit), the first one the JSON's
# first offer; market_summary the CLI's --group-by groups.
{
	printf '%s\n' '{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"one_answer","version":"1"}}}'
	printf '%s\n' '{"jsonrpc":"2.0","method":"notifications/initialized"}'
	cat "$T/mcp.in"
} | "$GPUCOST" --db "$DB" mcp > "$T/mcp.out" 2>"$T/mcp.err"
for i in $(jq -r 'select(.id | type == "number" and . < 1000) | .id' "$T/mcp.out"); do
	line=$(sed -n "$(awk -v n="$i" 'NF { k++ } k == n { print NR; exit }' "$T/questions")p" "$T/questions")
	check "[$i] $line: mcp find_offers: an answer" \
	    [ "$(jq "select(.id == $i) | .result.isError" "$T/mcp.out")" = false ]
	jq -r "select(.id == $i) | .result.structuredContent.offers // [] | .[] |
	    [.provider, .key, .nodes, .other_regions // 0] | @tsv" "$T/mcp.out" > "$T/m.$i"
	limit=$(printf '%s\n' "$line" | sed -n 's/.*--limit \([0-9]*\).*/\1/p')
	cut -f 1-4 "$T/t.$i" | head -n "${limit:-20}" > "$T/m.$i.want"
	check "[$i] $line: mcp find_offers: the table's rows" \
	    cmp -s "$T/m.$i" "$T/m.$i.want"
	jq -c "select(.id == $i) | .result.structuredContent.offers[0] // {} |
	    [.provider, .key, .nodes, .price_hour, .price_gpu_hour, .spot_hour,
	    .spot_gpu_hour, .notes // [], .launch, .cluster_setup]" "$T/mcp.out" > "$T/m.$i.first"
	jq -c '.offers[0] // {} | [.provider, .key, .nodes, .price_hour,
	    .price_gpu_hour, .spot_hour, .spot_gpu_hour, .notes // [], .launch,
	    .cluster_setup]' "$T/j.$i" > "$T/m.$i.first.want"
	check "[$i] $line: mcp find_offers: the first offer is the json's first" \
	    cmp -s "$T/m.$i.first" "$T/m.$i.first.want"
	if [ -f "$T/g.$i.json" ]; then
		jq -c "select(.id == $((1000 + i))) | .result.structuredContent.groups" \
		    "$T/mcp.out" > "$T/m.$i.groups"
		jq -c .groups "$T/g.$i.json" > "$T/m.$i.groups.want"
		check "[$i] $line: mcp market_summary: the cli's --group-by groups" \
		    cmp -s "$T/m.$i.groups" "$T/m.$i.groups.want"
	fi
done

# --- The TUI: the first screen and the whole load are the table's rows.
if command -v tmux >/dev/null 2>&1; then
	SOCK=gpucost$$
	trap 'tmux -L "$SOCK" kill-server 2>/dev/null; for p in $server_pids; do kill "$p" 2>/dev/null; done; rm -rf "$T"' EXIT
	tm() { tmux -L "$SOCK" -f /dev/null "$@"; }
	# One session for the whole run: killing a question's last session
	# would end the server while the next one connects to it.
	tm new-session -d -s keep "sleep 600"
	# tui N ARGS...: the TUI asked ARGS, its rows in $T/tui.N; it stays
	# open as session sN.
	tui() {
		n=$1
		shift
		rm -f "$T/tui.$n"
		tm new-session -d -s "s$n" -x 400 -y 50 \
		    "env HOME='$HOME' LC_ALL=C.UTF-8 GPUCOST_DEBUG_ROWS='$T/tui.$n' '$GPUCOST' --db '$DB' tui $*; sleep 600"
		wait_for 30 grep -qs '^# tui ' "$T/tui.$n"
	}
	i=0
	while IFS= read -r line; do
		[ -n "$line" ] || continue
		i=$((i + 1))
		case " $line " in *" --limit "*|*" --hours "*) continue ;; esac
		tui "$i" "$line"
		check "[$i] $line: the TUI loaded" grep -q '^# tui ' "$T/tui.$i"
		dump_rows "$T/tui.$i" tui > "$T/u.$i"
		# Its first MODEL_FIRST_ROWS (500) of a longer answer before
		# the rest of the load, else the whole answer.
		n=$(wc -l < "$T/u.$i")
		head -n "$n" "$T/t.$i" > "$T/t.$i.head"
		check "[$i] $line: the TUI's rows are the table's" \
		    cmp -s "$T/u.$i" "$T/t.$i.head"
		check "[$i] $line: ... all of them, or its first 500" \
		    [ "$n" -eq "$(wc -l < "$T/t.$i")" -o "$n" -eq 500 ]
		if grep -q '^# tui-first ' "$T/tui.$i"; then
			dump_rows "$T/tui.$i" tui-first > "$T/u.$i.first"
			n=$(wc -l < "$T/u.$i.first")
			head -n "$n" "$T/t.$i" > "$T/t.$i.first"
			check "[$i] $line: the TUI's first screen is the table's first rows" \
			    cmp -s "$T/u.$i.first" "$T/t.$i.first"
		fi
		tm kill-session -t "s$i"
	done < "$T/questions"

	# c clears every filter: the table of no option, from its first row.
	rm -f "$T/rows"
	GPUCOST_DEBUG_ROWS=$T/rows q
	dump_rows "$T/rows" table > "$T/t.none"
	tui c --gpu H100 --count 16 --nodes 2
	tm send-keys -t sc Down Down Down
	tm send-keys -t sc c
	wait_for 10 sh -c "[ \$(grep -c '^# tui ' '$T/tui.c') -ge 2 ]"
	dump_rows "$T/tui.c" tui > "$T/u.c"
	check "TUI c: the rows of the query with no option" cmp -s "$T/u.c" "$T/t.none"
	wait_for 5 sh -c "tmux -L '$SOCK' -f /dev/null capture-pane -p -t sc | head -1 | grep -q 'row 1 of'"
	check "TUI c: the first row selected" \
	    sh -c "tmux -L '$SOCK' -f /dev/null capture-pane -p -t sc | head -1 | grep -q 'row 1 of'"
	check "TUI c: no TERM column without a term" \
	    sh -c "! tmux -L '$SOCK' -f /dev/null capture-pane -p -t sc | sed -n 2p | grep -q TERM"
	tm kill-server 2>/dev/null
fi

finish
