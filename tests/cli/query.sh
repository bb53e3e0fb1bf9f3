#!/bin/sh
# Queries on the snapshot: every filter, sort, --hours, --multi-node, and
# prices equal to the published prices they came from.
. "$(dirname "$0")/../lib.sh"

q() { run --db "$DB" --format csv --quiet "$@"; }
# Values of CSV column NAME (header skipped), one per line.
col() {
	c=$(csv_col "$1")
	tail -n +2 "$T/out" | tr -d '\r' | awk -v c="$c" -F, '
	{	# split on commas outside quotes
		n = 0; f = ""; inq = 0
		for (i = 1; i <= length($0); i++) {
			ch = substr($0, i, 1)
			if (ch == "\"") { inq = !inq; continue }
			if (ch == "," && !inq) { n++; if (n == c) break; f = ""; continue }
			f = f ch
		}
		if (n + 1 == c || n == c) print f
	}'
}
all_equal() { [ "$(col "$1" | sort -u)" = "$2" ]; }
# Known values in order, unknown (empty) ones after all of them.
sorted() {
	col "$1" | awk 'NF == 0 { e = 1; next } e { exit 1 }' &&
	    col "$1" | grep -v '^$' | sort -c $2
}
rows() { echo $(($(wc -l < "$T/out") - 1)); }

# The issue's headline query: several providers, per-GPU price, savings.
run --db "$DB" --gpu A100-80 --count 4
check "A100-80 x4 finds offers" status_is 0
check "A100-80 x4 prints a table header" out_has 'PROVIDER'
check "A100-80 x4 shows \$/GPU-H" out_has 'GPU-H'
check "A100-80 x4 shows spot savings" out_has 'SAVE'
check "data age line on stderr" err_has 'data age: '
check "several providers" [ "$(awk 'NR > 1 {print $1}' "$T/out" | sort -u | wc -l)" -ge 2 ]

# Prices equal the snapshot's published prices, row by row (its spot
# prices are history, used only with --include-stale: issue 44 item 7).
q --gpu A100-80 --count 4
check "A100-80 x4: no spot price of the snapshot is used" [ -z "$(col spot_hour | sort -u)" ]
q --gpu A100-80 --count 4 --include-stale
check "A100-80 x4 csv" status_is 0
col provider > "$T/p"; col key > "$T/k"; col price_hour > "$T/ph"; col spot_hour > "$T/sh"
paste -d'\t' "$T/p" "$T/k" "$T/ph" "$T/sh" > "$T/got"
mismatch=$(awk -F'\t' 'NR == FNR { p[$1 "\t" $2] = $3; s[$1 "\t" $2] = $4; next }
	/^#/ || $1 == "provider" { next }
	($1 "\t" $2) in p {
		k = $1 "\t" $2
		if (p[k] + 0 != $12 + 0 || s[k] + 0 != $13 + 0 || (p[k] == "") != ($12 == "") || (s[k] == "") != ($13 == "")) print k, p[k], $12, s[k], $13
		seen++
	}
	END { if (seen == 0) print "no rows compared" }' "$T/got" "$SNAPSHOT")
check "prices equal the snapshot ($mismatch)" [ -z "$mismatch" ]

# --gpu A100 matches both memory variants; A100-80 never a 40 GB card.
q --gpu A100
check "--gpu A100 matches A100-40 and A100-80" all_equal gpu "A100-40
A100-80"
q --gpu a100_80gb
check "--gpu a100_80gb only A100-80" all_equal gpu A100-80
q --gpu 'NVIDIA A100-SXM4-80GB'
check "--gpu 'NVIDIA A100-SXM4-80GB' only A100-80" all_equal gpu A100-80
q --gpu 'A100 80GB' --count 8
check "--gpu 'A100 80GB' --count 8 only 8-GPU A100-80" all_equal gpu_count 8
check "... and never 40 GB" all_equal vram_gb 80

# Filters.
q --min-vram 80
check "--min-vram 80: every GPU has at least 80 GB" [ "$(col vram_gb | sort -n | head -1)" -ge 80 ]
q --interconnect nvlink --gpu H100
check "--interconnect nvlink" all_equal interconnect nvlink
q --interconnect pcie --gpu H100
check "--interconnect pcie" all_equal interconnect pcie
q --provider lambda,vultr
check "--provider lambda,vultr" all_equal provider "lambda
vultr"
q --region 'us-east-*' --provider aws
check "--region glob" [ -z "$(col region | grep -v '^us-east-')" ]
q --region EUROPE --provider gcp
check "--region substring, case-insensitive" [ -z "$(col region | grep -vi 'europe')" ]
check "--region substring finds rows" [ "$(rows)" -gt 0 ]
q --max-price 0.5
check "--max-price 0.5: every per-GPU price <= 0.5" [ -z "$(col price_gpu_hour | awk '$1 > 0.5')" ]
check "--max-price finds rows" [ "$(rows)" -gt 0 ]
q --spot --max-price 1 --gpu H100
check "--spot --max-price applies to spot" [ -z "$(col spot_gpu_hour | awk '$1 > 1 || $1 == ""')" ]
q --spot --gpu A100
check "--spot only offers with a spot price" [ -z "$(col spot_hour | grep -x '')" ]
check "--spot sorts by spot per GPU-hour" sorted spot_gpu_hour -g
q --available
check "--available: the snapshot knows no availability" status_is 1

# Sorting.
q --gpu H100 --sort gpu-price
check "sort gpu-price ascending" sorted price_gpu_hour -g
q --gpu H100 --sort price
check "sort price ascending" sorted price_hour -g
q --gpu H100 --sort gpu-price --reverse
check "sort --reverse descending" sorted price_gpu_hour -gr
q --gpu H100 --sort vram
check "sort vram descending" sorted vram_gb -gr
q --gpu A100 --sort savings
col spot_savings_pct | grep -v '^$' > "$T/sv"
check "sort savings: known savings descending" sort -c -gr "$T/sv"
check "sort savings: unknown last" [ -z "$(col spot_savings_pct | awk 'NF == 0 { e = 1; next } e { print "known after unknown" }')" ]
q --gpu H100 --sort pflop
check "sort pflop ascending" sorted usd_per_pflop_hour -g
q --sort provider --limit 3000
check "sort provider" sorted provider ""

# --limit and --hours.
q --gpu H100 --limit 3
check "--limit 3" [ "$(rows)" -eq 3 ]
q --gpu L4 --count 1 --hours 10 --limit 5
check "--hours adds total_cost" [ -n "$(csv_col total_cost)" ]
col price_hour > "$T/ph"
col total_cost > "$T/tc"
bad=$(paste -d' ' "$T/ph" "$T/tc" | awk '{ d = $1 * 10 - $2; if (d > 0.000001 || d < -0.000001) print }')
check "total_cost = price_hour x 10 ($bad)" [ -z "$bad" ]
q --gpu L4 --count 1
check "no total_cost without --hours" [ -z "$(csv_col total_cost)" ]

# --multi-node: 16 GPUs as two 8-GPU nodes.
q --gpu H100 --count 16
check "no single 16-GPU H100 machine" status_is 1
q --gpu H100 --count 16 --multi-node
check "--multi-node finds plans" status_is 0
check "--multi-node: total_gpus 16" all_equal total_gpus 16
col gpu_count > "$T/gc"
col nodes > "$T/nd"
check "--multi-node: 2 nodes of 8 exist" [ "$(paste -d, "$T/gc" "$T/nd" | grep -c '^8,2$')" -gt 0 ]
run --db "$DB" --gpu H100 --count 16 --multi-node --provider aws --limit 1
check "multi-node table shows 2 nodes x 8" out_has '2 nodes x 8 H100'
check "multi-node table shows the fabric" out_has 'FABRIC  NODE GB/S'
check "multi-node table: p5 on EFA at 3200" out_has 'efa  *3200'

# No match: exit 1 and a message.
run --db "$DB" --gpu H100 --provider lambda --count 3
check "no match exits 1" status_is 1
check "no match says why" err_has 'offers match --gpu H100 --count 3; none matches --provider lambda'

finish
