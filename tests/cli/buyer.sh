#!/bin/sh
# Issue 12, the buyer's view, on the snapshot: board form in --gpu and
# the output, region geography (continent, country, free text), offers
# folded by region in tables, columns chosen by importance at 80
# columns, host resources per GPU, and empty answers that say why.
. "$(dirname "$0")/../lib.sh"

# Values of CSV column NAME (header skipped), quoted commas kept inside.
col() {
	c=$(csv_col "$1")
	tail -n +2 "$T/out" | tr -d '\r' | awk -v c="$c" '
	{
		n = 1; f = ""; inq = 0
		for (i = 1; i <= length($0); i++) {
			ch = substr($0, i, 1)
			if (ch == "\"") { inq = !inq; continue }
			if (ch == "," && !inq) {
				if (n == c) break
				n++; f = ""; continue
			}
			f = f ch
		}
		print f
	}'
}
q() { run --db "$DB" --format csv --quiet "$@"; }
rows() { echo $(($(wc -l < "$T/out") - 1)); }
only() { [ "$(col "$1" | sort -u)" = "$2" ]; }
# Like only, for the rows with a place: an offer in region "all" (one
# price in every region: OCI, Lambda) has none of its own (it matches
# where its provider has a region: data/any_region.tsv).
only_placed() {
	col region > "$T/col-region"
	col "$1" > "$T/col-value"
	[ "$(paste -d '|' "$T/col-region" "$T/col-value" |
	    awk -F '|' '$1 != "all" { print $2 }' | sort -u)" = "$2" ]
}
has_value() { col "$1" | grep -q -x -- "$2"; }
no_value() { ! col "$1" | grep -q -x -- "$2"; }

# --- 1. Form: a form word narrows, a family name does not. -----------
q --gpu H100
check "H100: offers" status_is 0
check "H100: both forms" has_value form sxm
check "H100: PCIe too" has_value form pcie
all_h100=$(rows)
q --gpu "H100 SXM"
check "H100 SXM: offers" status_is 0
check "H100 SXM: only SXM boards" only form sxm
check "H100 SXM: fewer than all H100" [ "$(rows)" -lt "$all_h100" ]
check "H100 SXM: no PCIe text" no_value gpu_raw "H100 PCIe"
q --gpu H100-PCIe
check "H100-PCIe: offers" status_is 0
check "H100-PCIe: only PCIe cards" only form pcie
q --gpu "A100 80GB SXM4"
check "A100 80GB SXM4: offers" status_is 0
check "A100 80GB SXM4: one model" only gpu A100-80
check "A100 80GB SXM4: only SXM" only form sxm
q --gpu "A100 PCIe"
check "A100 PCIe: both sizes" [ "$(col gpu | sort -u | tr '\n' ' ')" = "A100-40 A100-80 " ]
check "A100 PCIe: only PCIe" only form pcie
q --gpu H100-NVL
check "H100 NVL stays its own model" only gpu H100-NVL
q --gpu GH200
check "GH200: form unknown is empty" only form ""
run --db "$DB" --format json --quiet --gpu GH200 --limit 1
check "JSON: unknown form is null" out_has '"form": null'
run --db "$DB" --format json --quiet --gpu "H100 SXM" --limit 1
check "JSON: form" out_has '"form": "sxm"'

# --- 2. Geography. ----------------------------------------------------
q --region europe --include-stale
check "europe: offers" status_is 0
check "europe: only EU" only_placed continent EU
check "europe: Vast's European hosts too" has_value provider vast
check "europe: every provider with a European region, and those in region all" [ "$(col provider | sort -u | tr '\n' ' ')" = "aws azure coreweave gcp lambda oci runpod vast " ]
check "europe: OCI's one offer per shape is there (any region)" has_value region all
europe=$(rows)
q --region eu --include-stale
check "eu is europe" [ "$(rows)" = "$europe" ]
q --region us --include-stale
check "us: only the US" only_placed country US
check "us: no Australian region" no_value region australia-southeast1
check "us: Vast's US hosts" has_value region "US"
q --region north-america
check "north-america: only NA" only_placed continent NA
check "north-america: Canada too" has_value country CA
q --region de
check "de: only Germany" only_placed country DE
check "de: aws eu-central-1" has_value region eu-central-1
check "de: gcp europe-west3" has_value region europe-west3
q --region Germany
check "a country name works too" only_placed country DE
q --region jp
check "jp: RunPod AP-JP-1" has_value region AP-JP-1
q --region oceania
check "oceania: only OC" only_placed continent OC
q --region sweden --include-stale
check "sweden: RunPod EU-SE-1" has_value region EU-SE-1
check "sweden: Vast 'SE'" has_value region "SE"
q --region 'us-east*'
check "a glob still matches region names" [ "$(col region | grep -v -x all | grep -c -v '^us-east')" -eq 0 ]
q --region southeast
check "a region-name substring still works" [ "$(col region | grep -v -x all | grep -c -v southeast)" -eq 0 ]
check "... and finds them" has_value region australia-southeast1
q --provider aws --region eu-west-2
check "every field: country GB" only country GB
check "every field: continent EU" only continent EU
q --provider vultr
check "vultr: region unknown has no country" has_value country ""
check "vultr: sea is in the US" [ "$(awk -F, 'NR > 1 && $3 == "sea"' "$T/out" | wc -l)" -gt 0 ]
run --db "$DB" --region '['
check "an invalid glob is a usage error" status_is 2
check "it names --region" err_has -- '--region'

# --- 2b. Issue 44 items 5 and 6: "any region" is not "in Europe"; a
# --region no place answers is refused. --------------------------------
# Lambda has no region in Africa, Sweden or Brazil; OCI has Johannesburg,
# Stockholm and Sao Paulo; neither has one in Poland. Each way: the walk
# of the first rows (--limit: SQL) and every offer read (C).
for lim in "" "--limit 1000"; do
	q --region africa --provider lambda,oci $lim
	check "africa$lim: OCI's one price holds in Johannesburg" has_value provider oci
	check "africa$lim: not Lambda's: it has no region in Africa" no_value provider lambda
	q --region sweden --provider lambda,oci $lim
	check "sweden$lim: only OCI (Stockholm)" only provider oci
	q --region us-east --provider lambda,oci $lim
	check "us-east$lim: Lambda's us-east-1 ... by name" only provider lambda
	q --region pl --provider lambda,oci $lim
	check "pl$lim: neither has a region in Poland" status_is 1
	q --region europe --provider lambda $lim
	check "europe$lim: Lambda (europe-central-1, europe-south-1)" only provider lambda
	check "europe$lim: the regions field names them" only regions "europe-central-1;europe-south-1"
done
q --provider oci --gpu H100
check "no --region: regions is every OCI region listed" [ "$(col regions | tr ';' '\n' | wc -l)" -eq "$(grep -c '^oci	' "$TOP_SRCDIR/data/any_region.tsv")" ]
q --provider aws --region eu-west-2 --gpu A10G
check "an offer with a region: regions is its own" only regions eu-west-2
for r in mars eurpoe us-east-7; do
	run --db "$DB" --region "$r"
	check "--region $r: refused (exit 2)" status_is 2
	check "--region $r: the message names --region" err_has -- "--region: no continent, country or region is called \"$r\""
	check "--region $r: nothing on stdout" [ ! -s "$T/out" ]
done
run --db "$DB" --region eurpoe
check "eurpoe: did you mean europe?" err_has 'did you mean europe?'
run --db "$DB" --region us-east-7 --limit 3
check "us-east-7: the nearest names" err_has 'did you mean us-east-1, us-east-2'
# Every command that takes the filter, and MCP through the CLI.
for cmd in tui watch history; do
	run --db "$DB" $cmd --region mars
	check "$cmd --region mars: refused (exit 2)" status_is 2
	check "$cmd --region mars: says why" err_has 'no continent, country or region is called'
done
# A name the tables do not know but the cache holds (a marketplace's
# free text, a name a pattern stands for) is a place.
run --db "$DB" --region EU-SE-1 --format csv --quiet
check "a cache's region name is known" status_is 0

# --- 3. Offers that differ only in region: one table row. -----------
q --gpu A100-80 --count 4 --provider runpod
runpod_offers=$(rows)
run --db "$DB" --gpu A100-80 --count 4 --provider runpod
check "runpod 4x A100-80: a table" status_is 0
check "one row per price, +N regions" [ "$(($(wc -l < "$T/out") - 1))" -lt "$runpod_offers" ]
check "the row says +1" out_has 'AP-IN-1 +1'
check "stderr counts offers and rows" err_has "$runpod_offers offers in 2 rows"
run --db "$DB" --gpu A100-80 --count 4 --provider runpod --all-regions
check "--all-regions: a row per region" [ "$(($(wc -l < "$T/out") - 1))" -eq "$runpod_offers" ]
check "--all-regions: no +N" out_lacks ' +1'
# Lambda: one price for every region, one offer in region all.
run --db "$DB" --gpu H100 --count 8 --provider lambda
check "lambda 8x H100: one row" [ "$(($(wc -l < "$T/out") - 1))" -eq 1 ]
check "lambda: the row says any region" out_has 'gpu_8x_h100_sxm5 *any region'
q --gpu H100 --count 8 --provider lambda
check "CSV: one offer, region all" only region all

# --- 4. Columns by importance at 80 columns. -------------------------
# The price, what it buys, where and how fresh (issue 45); GPUS says
# "4x A100-80" in every row, which the question said, so it may go.
COLUMNS=80 run --db "$DB" --gpu A100-80 --count 4
check "80 columns: offers" status_is 0
head -1 "$T/out" > "$T/hdr"
for c in PROVIDER INSTANCE REGION '$/GPU-H' AGE; do
	check "80 columns: $c shown" grep -q -F -- "$c" "$T/hdr"
done
check "80 columns: no line longer than 80" [ "$(awk '{ if (length($0) > m) m = length($0) } END { print m }' "$T/out")" -le 80 ]
# One row per instance type (issue 45): the first row's names whole.
check "80 columns: the first row's instance and region whole" out_has '4x_A100-80GB_SECURE  *AP-IN-1 +1 '
# The snapshot's spot prices are history (issue 44 item 7): asked for.
COLUMNS=80 run --db "$DB" --gpu H100 --spot --include-stale --hours 1000 --limit 5
check "--spot --hours at 80: spot total kept" grep -q 'SPOT TOTAL' "$T/out"
check "--spot --hours at 80: spot ranking column kept" grep -q 'SPOT/GPU-H' "$T/out"
check "totals: thousands separators" out_has '[0-9],[0-9][0-9][0-9]\.[0-9][0-9]$'
COLUMNS=120 run --db "$DB" --sort pflop --limit 5
check "sorted by \$/PFLOP-h: the column is kept" grep -q 'PFLOP' "$T/out"
COLUMNS=100 run --db "$DB" --gpu A100-80 --count 4
check "AVAIL (all unknown) goes first" out_lacks 'AVAIL'
# Fixed decimals within a column: every $/GPU-H cell has as many.
run --db "$DB" --gpu A100-80 --count 4
awk 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "$/GPU-H") c = i; next }
    { print $(c + 1) }' "$T/out" > "$T/prices"
check "one number of decimals per column" [ "$(grep -v -x -- - "$T/prices" | sed 's/^[0-9,]*\.//' | awk '{ print length($0) }' | sort -u | wc -l)" -eq 1 ]

# --- 5. Host resources per GPU. --------------------------------------
q --provider aws --region us-east-1 --gpu H100 --count 8
check "p5.48xlarge: 24 vCPUs per GPU" only vcpus_per_gpu 24
check "p5.48xlarge: 256 GB per GPU" only ram_gb_per_gpu 256
q --gpu H100 --min-vcpu-per-gpu 20
check "--min-vcpu-per-gpu: offers" status_is 0
check "--min-vcpu-per-gpu: each has 20 or more" [ "$(col vcpus_per_gpu | awk '$1 < 20' | wc -l)" -eq 0 ]
check "--min-vcpu-per-gpu: Vast's 8x (no host figures) gone" no_value instance_type 8x-H100_SXM
q --gpu H100 --min-ram-per-gpu 200
check "--min-ram-per-gpu: each has 200 GB or more" [ "$(col ram_gb_per_gpu | awk '$1 < 200' | wc -l)" -eq 0 ]
run --db "$DB" --min-vcpu-per-gpu 0
check "--min-vcpu-per-gpu 0 is a usage error" status_is 2
COLUMNS=200 run --db "$DB" --gpu H100 --count 8
check "wide table: CPU/GPU column" out_has 'CPU/GPU'
check "wide table: RAM/GPU column" out_has 'RAM/GPU'

# --- 7. Empty answers say why. ---------------------------------------
run --db "$DB" --gpu H100 --count 8 --available
check "--available on the snapshot: exit 1" status_is 1
check "names the filter and the next step" err_has "offers match --gpu H100 --count 8; none is known to be available: the snapshot has no availability, run 'gpucost refresh'"
check "first, then the providers with no data (one line)" sh -c 'head -1 "$1" | grep -q "none is known to be available" && [ "$(wc -l < "$1")" -eq 2 ] && tail -1 "$1" | grep -q "^gpucost: no data yet from "' _ "$T/err"
run --db "$DB" --gpu H100 --max-price 0.5
check "--max-price too low: exit 1" status_is 1
check "--max-price: says the cheapest, as the table rounds it" err_has 'none matches --max-price 0.5; the cheapest is 2.8900 USD per GPU-hour'
run --db "$DB" --gpu P4 --region de
check "--region empties it" err_has "offers match --gpu P4; none matches --region 'de'"
run --db "$DB" --gpu H100 --count 12
check "--count: the counts offered" err_has '[0-9][0-9]* offers match --gpu H100; none has 12 GPUs in one instance; counts offered: 1, 2, 3, 4, 5, 6, 7, 8 (--multi-node combines instances)'

finish
