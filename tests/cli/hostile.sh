#!/bin/sh
# Hostile text: provider answers whose stored strings (GPU names and ids,
# regions, plan and instance-type names) carry terminal control sequences
# (tests/fixtures/hostile/README) and SQL-looking text. After a refresh,
# neither the cache nor any output (table, CSV, TSV, JSON, providers,
# stderr) holds a byte a terminal could take for a control, the sequences
# are removed whole, and the SQL text is stored as data, verbatim. The
# same holds for the messages of failing refreshes and for hostile
# command-line arguments.
. "$(dirname "$0")/../lib.sh"

command -v sqlite3 >/dev/null 2>&1 || { echo "sqlite3 is needed" >&2; exit 77; }

HX=$TOP_SRCDIR/tests/fixtures/hostile
PROVS=vast,runpod,runpod-clusters,vultr,lambda,azure,oci,scaleway,linode,ovh,cloudrift,verda,akash,salad
SQL="'); DROP TABLE offers; --"
SQL2="Robert'); DROP TABLE offers;--"
LAMBDA_API_KEY=lambda-test-key
export LAMBDA_API_KEY
SALAD_API_KEY=salad-test-key
GPUCOST_SALAD_ORGANIZATION=gpucost-org
export SALAD_API_KEY GPUCOST_SALAD_ORGANIZATION

# The fixtures, with raw bytes where vast.json says @RAW@: a CR, a raw
# OSC title, a lone 0x9b (8-bit CSI), a lone 0x85 (NEL).
mkdir -p "$T/hx"
cp "$HX"/* "$T/hx/"
LC_ALL=C awk '{ gsub(/@RAW@/, "\r\033]0;raw\007\2332J\205") } { print }' \
    "$HX/vast.json" > "$T/vast-raw.json"
cp "$T/vast-raw.json" "$T/hx/vast.json"
check "raw bytes are in the Vast answer" [ "$(bad_bytes "$T/hx/vast.json" 2>/dev/null)" -ge 8 ]
serve hostile "$T/hx"
for p in vast runpod runpod-clusters vultr lambda azure oci scaleway linode ovh cloudrift verda akash salad; do
	export "$(url_var "$p")=$url"
done

run --db "$DB" providers
run --db "$DB" refresh --provider "$PROVS"
check "refresh of hostile answers works" status_is 0
check "refresh printed nothing" [ ! -s "$T/err" ]
for p in vast runpod runpod-clusters vultr lambda azure oci scaleway linode ovh cloudrift verda akash salad; do
	check "$p: hostile offers stored" \
	    [ "$(sqlite3 "$DB" "select count(*) from offers where provider = '$p' and source = 'live'")" -gt 0 ]
done

scanned=0
# clean FILE WHAT [MODE]: no control byte in FILE; no OSC 8 target.
clean() {
	scanned=$((scanned + 1))
	nbad=$(bad_bytes "$1" "${3:-}" 2>"$T/bad.where")
	check "$2: no control bytes ($nbad; $(head -3 "$T/bad.where" | tr '\n' ' '))" [ "$nbad" -eq 0 ]
	check "$2: escape sequences removed whole (no OSC 8 target)" [ "$(grep -c 'evil' "$1")" -eq 0 ]
}

# The cache: its dump, and every table as sqlite3 prints it raw.
sqlite3 "$DB" .dump > "$T/dump"
clean "$T/dump" "cache dump"
for t in offers price_history provider_status provider_meta; do
	sqlite3 "$DB" "select * from $t" > "$T/table-$t"
	clean "$T/table-$t" "cache table $t"
done

# Every output format, and the providers table.
for fmt in table csv tsv json; do
	run --db "$DB" --provider "$PROVS" --format "$fmt"
	check "$fmt: exit 0" status_is 0
	mode=
	[ "$fmt" = tsv ] && mode=tsv
	[ "$fmt" = csv ] && mode=csv
	clean "$T/out" "$fmt output" "$mode"
	clean "$T/err" "$fmt stderr"
	cp "$T/out" "$T/out.$fmt"
done
run --db "$DB" --provider "$PROVS" --sort region --reverse --hours 10
check "table sorted by region: exit 0" status_is 0
clean "$T/out" "table by region output"
for fmt in table csv; do
	run --db "$DB" providers --format "$fmt"
	check "providers $fmt: exit 0" status_is 0
	clean "$T/out" "providers $fmt output" "$([ "$fmt" = csv ] && echo csv)"
done
check "JSON holds no escaped control either" \
    [ "$(grep -c '\\u00[01][0-9a-fA-F]\|\\u007[fF]\|\\u00[89][0-9a-fA-F]' "$T/out.json")" -eq 0 ]
if command -v jq >/dev/null 2>&1; then
	check "JSON parses and no string holds a control" \
	    [ "$(jq '[.. | strings | select(test("[\u0001-\u001f\u007f-\u009f]"))] | length' "$T/out.json")" = 0 ]
fi

# Sequences go whole, the text around them stays.
value() { sqlite3 "$DB" "select $2 from offers where provider = 'vast' and key = '$1'"; }
check "OSC title removed: gpu_raw 'RTX 4090' ($(value 9100001 gpu_raw))" [ "$(value 9100001 gpu_raw)" = "RTX 4090" ]
check "OSC title removed: GPU known" [ "$(value 9100001 gpu)" = RTX4090 ]
check "CSI removed: region 'Texas, US'" [ "$(value 9100001 region)" = "Texas, US" ]
check "OSC 8 link removed: 'A100 SXM4' ($(value 9100002 gpu_raw))" [ "$(value 9100002 gpu_raw)" = "A100 SXM4" ]
check "CR, BS, DEL: 'H100 SXM' ($(value 9100004 gpu_raw))" [ "$(value 9100004 gpu_raw)" = "H100 SXM" ]
check "VT, FF, RIS: 'Oregon, US' ($(value 9100004 region))" [ "$(value 9100004 region)" = "Oregon, US" ]
check "DCS, APC, PM: 'L40S' ($(value 9100005 gpu_raw))" [ "$(value 9100005 gpu_raw)" = "L40S" ]
check "SGR, DECSC, charset, cut CSI: 'Bavaria, DE' ($(value 9100005 region))" [ "$(value 9100005 region)" = "Bavaria, DE" ]
check "alternate screen, hidden cursor, BEL: 'Tokyo, JP' ($(value 9100006 region))" [ "$(value 9100006 region)" = "Tokyo, JP" ]

# SQL-looking text is data: stored verbatim, matched as text, harmless.
check "offers table still there" [ "$(sqlite3 "$DB" "select count(*) from sqlite_master where type = 'table' and name = 'offers'")" -eq 1 ]
q=$(echo "$SQL" | sed "s/'/''/g")
q2=$(echo "$SQL2" | sed "s/'/''/g")
# A region holds only what region names hold (issue 43, item 2:
# offer_region_char_ok()): the rest of the text stays, each other
# character '_'.
SQLR=$(printf '%s' "$SQL" | tr -c 'A-Za-z0-9 ._,()/:-' '_')
SQLR2=$(printf '%s' "$SQL2" | tr -c 'A-Za-z0-9 ._,()/:-' '_')
check "Vast GPU name stored verbatim" [ "$(sqlite3 "$DB" "select count(*) from offers where provider = 'vast' and gpu_raw = '$q'")" -eq 1 ]
check "Vast region stored as data ($SQLR2)" [ "$(sqlite3 "$DB" "select count(*) from offers where provider = 'vast' and region = '$SQLR2'")" -eq 1 ]
check "Vultr plan id stored verbatim" [ "$(sqlite3 "$DB" "select count(*) from offers where provider = 'vultr' and instance_type = '$q'")" -eq 1 ]
check "Lambda region stored as data ($SQLR)" [ "$(sqlite3 "$DB" "select count(*) from offers where provider = 'lambda' and region = '$SQLR'")" -eq 1 ]
check "Azure region stored as data ($SQLR)" [ "$(sqlite3 "$DB" "select count(*) from offers where provider = 'azure' and region = '$SQLR'")" -eq 1 ]
check "Azure sequences removed whole: region 'eastus'" [ "$(sqlite3 "$DB" "select count(*) from offers where provider = 'azure' and key = 'Standard_NC24ads_A100_v4/eastus'")" -eq 1 ]
check "OCI shape name: sequences removed, suffix cut ('BM.GPU.H100.8')" [ "$(sqlite3 "$DB" "select count(*) from offers where provider = 'oci' and key = 'BM.GPU.H100.8'")" -eq 1 ]
check "Scaleway type stored verbatim" [ "$(sqlite3 "$DB" "select count(*) from offers where provider = 'scaleway' and instance_type = '$q'")" -eq 1 ]
check "Scaleway escapes removed whole, stock joined by clean name" [ "$(sqlite3 "$DB" "select instance_type || ' ' || gpu_raw || ' ' || availability from offers where provider = 'scaleway' and gpu = 'H100'")" = "H100-1-80G H100-PCIe available" ]
check "RunPod Instant Clusters data centre stored as data" [ "$(sqlite3 "$DB" "select count(*) from offers where provider = 'runpod-clusters' and region = '$SQLR'")" -eq 7 ]
check "RunPod Instant Clusters escapes removed whole: 'US-KS-2x'" [ "$(sqlite3 "$DB" "select count(*) from offers where provider = 'runpod-clusters' and region = 'US-KS-2x'")" -eq 7 ]
check "Linode plan id stored verbatim" [ "$(sqlite3 "$DB" "select count(*) from offers where provider = 'linode' and instance_type = '$q'")" -eq 1 ]
check "Linode escapes removed whole: override and stock joined by clean names" [ "$(sqlite3 "$DB" "select key || ' ' || price || ' ' || availability from offers where provider = 'linode' and gpu = 'RTX4000-Ada'")" = "g2-gpu-rtx4000a1-s/us-ord 600000 available" ]
check "OVH flavor stored verbatim" [ "$(sqlite3 "$DB" "select count(*) from offers where provider = 'ovh' and instance_type = '$q'")" -eq 1 ]
check "OVH escapes removed whole: 'l40s-90/GRA11', 'L40S'" [ "$(sqlite3 "$DB" "select key || ' ' || gpu_raw from offers where provider = 'ovh' and gpu = 'L40S'")" = "l40s-90/GRA11 L40S" ]
check "CloudRift variant stored verbatim" [ "$(sqlite3 "$DB" "select count(*) from offers where provider = 'cloudrift' and instance_type = '$q'")" -eq 1 ]
check "CloudRift escapes removed whole: datacenters and brand" [ "$(sqlite3 "$DB" "select group_concat(region || ' ' || gpu_raw, ', ') from (select * from offers where provider = 'cloudrift' order by region)")" = "eu-central-it-gv-1 RTX 4090, us-east-nc-nr-1 RTX 4090" ]
check "Verda instance stored verbatim" [ "$(sqlite3 "$DB" "select count(*) from offers where provider = 'verda' and instance_type = '1x $q 80GB'")" -eq 1 ]
check "Verda escapes removed whole: '1x H100 SXM5 80GB'" [ "$(sqlite3 "$DB" "select key || ' ' || gpu || ' ' || price from offers where provider = 'verda' and gpu = 'H100'")" = "1x H100 SXM5 80GB H100 3250000" ]
check "Akash model stored verbatim" [ "$(sqlite3 "$DB" "select count(*) from offers where provider = 'akash' and gpu_raw = '$q'")" -eq 1 ]
check "Akash escapes removed whole: 'nvidia/h100/80Gi/SXM5'" [ "$(sqlite3 "$DB" "select group_concat(key || ' ' || gpu || ' ' || price, ', ') from (select * from offers where provider = 'akash' and gpu <> '' order by key)")" = "nvidia/h100/80Gi/SXM5 H100 1290000, nvidia/rtx4090/24Gi/PCIe RTX4090 350000" ]
check "SaladCloud class stored verbatim" [ "$(sqlite3 "$DB" "select count(*) from offers where provider = 'salad' and instance_type = '$q'")" -eq 1 ]
check "SaladCloud escapes removed whole: 'RTX 4090 (24 GB)'" [ "$(sqlite3 "$DB" "select key || ' ' || gpu || ' ' || price from offers where provider = 'salad' and gpu = 'RTX4090'")" = "RTX 4090 (24 GB) RTX4090 330000" ]
check "RunPod id stored verbatim in the key" [ "$(sqlite3 "$DB" "select count(*) from offers where provider = 'runpod' and key like '%$q%'")" -eq 1 ]
check "CSV output shows it" grep -qF "$SQL" "$T/out.csv"
check "JSON output shows it" grep -qF "$SQL" "$T/out.json"
before=$(sqlite3 "$DB" 'select count(*) from offers')
run --db "$DB" --region "$SQLR2" --format csv --quiet
check "--region with the stored name: exit 0" status_is 0
check "--region with the stored name: matches the two offers there" [ "$(tr -d '\r' < "$T/out" | grep -cF "$SQLR2")" -eq 2 ]
run --db "$DB" --gpu "$SQL"
check "--gpu with SQL text: a usage error" status_is 2
clean "$T/err" "--gpu with SQL text: stderr"
check "SQL text changed nothing" [ "$(sqlite3 "$DB" 'select count(*) from offers')" -eq "$before" ]
ic=$(sqlite3 "$DB" 'PRAGMA integrity_check')
check "cache sound ($ic)" [ "$ic" = ok ]

# Failing refreshes whose messages quote hostile text.
# provider|file|from|to|anchor
cat > "$T/failing" <<'EOF'
vast|vast.json|"dph_total": 0.512|"dph_total": "1\u001b]0;pwned\u0007\u001b[2J\u009b31m"|
vast|vast.json|"num_gpus": 2|"num_gpus": "2\u001b]8;;http://evil\u001b\\x"|
runpod|runpod.json|"securePrice": 0.69|"securePrice": "0.69\u001b]0;pwned\u0007\u001b[2J\u009b"|
runpod|runpod.json|"id": "'); DROP TABLE offers; --"|"id": "NVIDIA GeForce RTX 4090\u001b[2J"|
runpod|runpod.json|"maxGpuCount": 2|"maxGpuCount": "2\u001b[2J\u0007"|
runpod-clusters|runpod-clusters.json|"clusterPrice": 2.99|"clusterPrice": "2.99\u001b]0;pwned\u0007\u001b[2J\u009b"|
runpod-clusters|runpod-clusters.json|"maxGpuCount": 8|"maxGpuCount": "8\u001b]8;;http://evil\u001b\\x"|
vultr|vultr-plans.json|"gpu_count": "1"|"gpu_count": "1\u001b]0;pwned\u0007/\u001b[2J"|
vultr|vultr-plans.json|"hourly_cost": 1.871|"hourly_cost": "1.8\u001b[2J\u009b"|
lambda|lambda.json|"gpus": 1|"gpus": 8|
azure|azure-prices.json|"retailPrice": 3.673|"retailPrice": "3.6\u001b]0;pwned\u0007\u001b[2J\u009b"|
azure|azure-prices.json|"currencyCode": "USD"|"currencyCode": "EU\u001b[2JR\u0007"|
oci|oci-products.json|"value": 10|"value": "10\u001b]0;pwned\u0007\r"|
oci|oci-shapes.json|"gpuQty": 8|"gpuQty": "8\u001b]8;;http://evil\u001b\\x"|
lambda|lambda.json|"price_cents_per_hour": 249|"price_cents_per_hour": "249\u001b]0;pwned\u0007\r"|
scaleway|scaleway.json|"hourly_price": 2.8665|"hourly_price": "2.8\u001b]0;pwned\u0007\u009b2J"|
scaleway|scaleway.json|"gpu": 1|"gpu": "1\u001b[2J\u0007"|
linode|linode-types.json|"hourly": 0.52|"hourly": "0.5\u001b]0;pwned\u0007\u001b[2J\u009b"|
linode|linode-types.json|"gpus": 1|"gpus": "1\u001b[2J\u0007"|
ovh|ovh.json|"price": 140000000|"price": "14\u001b]0;pwned\u0007\u009b2J"|
ovh|ovh.json|"subsidiary": "FR"|"subsidiary": "F\u001b[2JX\u0007"|
cloudrift|cloudrift.json|"cost_per_hour": 39.0|"cost_per_hour": "39\u001b]0;pwned\u0007\u009b2J"|
cloudrift|cloudrift.json|"gpu_count": 1|"gpu_count": "1\u001b]8;;http://evil\u001b\\x"|
verda|verda.html|"price":3.25|"price":"3.2\u001b]0;pwned\u0007\u009b2J"|
verda|verda.html|"@graph":[|"@graph\u001b[2J":[|
akash|akash.json|"weightedAverage": 1.29|"weightedAverage": "1.2\u001b]0;pwned\u0007\u009b2J"|
akash|akash.json|"models": [|"models\u001b[2J": [|
salad|salad.json|"price": "0.33"|"price": "0.3\u001b]0;pwned\u0007\u009b2J"|
salad|salad.json|"items": [|"items\u001b[2J": [|
EOF
failing=0
while IFS='|' read -r p file from to anchor <&3; do
	failing=$((failing + 1))
	if ! subst_first "$HX/$file" "$T/hx/$file" "$from" "$to" "$anchor"; then
		check "$p failing variant $failing: pattern found in $file" false
		continue
	fi
	run --db "$DB" refresh --provider "$p"
	check "$p failing variant $failing: exit 4" status_is 4
	check "$p failing variant $failing: one line" err_lines_are 1
	clean "$T/err" "$p failing variant $failing: stderr"
	sqlite3 "$DB" "select last_error from provider_status where provider = '$p'" > "$T/lasterr"
	clean "$T/lasterr" "$p failing variant $failing: stored error"
	run --db "$DB" providers
	clean "$T/out" "$p failing variant $failing: providers output"
	cp "$HX/$file" "$T/hx/$file"
	[ "$file" = vast.json ] && cp "$T/vast-raw.json" "$T/hx/vast.json"
done 3< "$T/failing"

# Hostile command-line arguments: quoted in messages, never raw.
esc=$(printf '\033]0;pwned\007\033[2J')
run --db "$DB" --region "x$esc"
check "hostile --region: usage error" status_is 2
clean "$T/err" "hostile --region: stderr"
run --db "$DB" --gpu "H100$esc"
clean "$T/err" "hostile --gpu: stderr"
clean "$T/out" "hostile --gpu: stdout"
run --db "$DB" --format "csv$esc"
check "hostile --format: usage error" status_is 2
clean "$T/err" "hostile --format: stderr"
run --db "$DB" --sort "price$esc"
check "hostile --sort: usage error" status_is 2
clean "$T/err" "hostile --sort: stderr"
run --db "$DB" "bogus$esc"
check "hostile command: usage error" status_is 2
clean "$T/err" "hostile command: stderr"
run --db "$T/no/such/dir$esc/cache.db" --gpu H100
check "hostile --db path: an error" [ "$status" -ne 0 ]
clean "$T/err" "hostile --db path: stderr"
run --db "$DB" refresh --provider "vast$esc"
check "hostile --provider: usage error" status_is 2
clean "$T/err" "hostile --provider: stderr"

echo "hostile: $scanned files scanned, $failing failing refreshes quoting hostile text"
finish
