#!/bin/sh
# gpucost refresh against recorded responses on a local server: a good
# refresh per provider, every fault per provider (old data kept, exit 4,
# one line naming provider and cause), failure isolation, keys never
# leaking, skipped providers, the lock, and parallel fetching.
. "$(dirname "$0")/../lib.sh"

command -v sqlite3 >/dev/null 2>&1 || { echo "sqlite3 is needed" >&2; exit 77; }

PROVIDERS=${TEST_PROVIDERS:-"aws gcp lambda runpod runpod-clusters vast vultr azure oci scaleway linode ovh cloudrift verda akash salad"}
GCP_API_KEY=gcp-SECRET-key-0001
LAMBDA_API_KEY=lambda-SECRET-key-0002
RUNPOD_API_KEY=runpod-SECRET-key-0003
VAST_API_KEY=vast-SECRET-key-0004
VULTR_API_KEY=vultr-SECRET-key-0005
SALAD_API_KEY=salad-SECRET-key-0006
export GCP_API_KEY LAMBDA_API_KEY RUNPOD_API_KEY VAST_API_KEY VULTR_API_KEY
export SALAD_API_KEY
# SaladCloud's keyed price API names the organisation in its path.
GPUCOST_SALAD_ORGANIZATION=gpucost-org
export GPUCOST_SALAD_ORGANIZATION
# The AWS fixtures publish these three regions.
GPUCOST_AWS_REGIONS=us-east-1,us-west-2,eu-west-1
export GPUCOST_AWS_REGIONS

# The providers under test, as a --provider list.
plist() { echo $PROVIDERS | tr ' ' ','; }

# Point every provider at a server on DIR-per-provider (fixture dir of kind).
point_all() {
	kind=$1
	for p in $PROVIDERS; do
		if [ "$kind" = good ]; then
			serve "$p-good" "$TOP_SRCDIR/tests/fixtures/$p"
		else
			d=$(fault_dir "$p" "$kind")
			serve "$p-$kind" "$d"
		fi
		export "$(url_var "$p")=$url"
	done
}

# Seed from the snapshot, then refresh everything from good fixtures.
run --db "$DB" providers
point_all good
run --db "$DB" refresh --provider "$(plist)"
check "good refresh exits 0" status_is 0
check "good refresh prints nothing off a terminal" [ ! -s "$T/err" ]
run --db "$DB" providers --format csv
for p in $PROVIDERS; do
	line=$(tr -d '\r' < "$T/out" | grep "^$p,")
	check "$p: source live after refresh ($line)" [ "$(echo "$line" | cut -d, -f3)" = live ]
	check "$p: live offers stored" [ "$(echo "$line" | cut -d, -f4)" -gt 0 ]
	check "$p: last error cleared" [ -z "$(echo "$line" | cut -d, -f9)" ]
	check "$p: no snapshot offers left" [ "$(sqlite3 "$DB" "select count(*) from offers where provider = '$p' and source = 'snapshot'")" -eq 0 ]
done
# Azure and OCI: exactly the offers their fixtures describe (README there);
# no Windows, Low Priority, Dev/Test, reservation, fractional or unknown
# size, licence row, hidden, inactive or unpriced shape.
keys_of() { sqlite3 "$DB" "select key from offers where provider = '$1' and source = 'live' order by key" | tr '\n' ' '; }
case " $PROVIDERS " in
*" azure "*)
	want="Standard_NC24ads_A100_v4/swedencentral Standard_NC40ads_H100_v5/eastus Standard_NC48ads_A100_v4/eastus Standard_ND128isr_GB300_v6/eastus Standard_ND96amsr_A100_v4/westus2 Standard_ND96isr_H100_v5/eastus Standard_ND96isr_H100_v5/westeurope Standard_ND96isr_H200_v5/eastus2 Standard_ND96isr_MI300X_v5/westus Standard_NV12s_v3/eastus Standard_NV36ads_A10_v5/eastus "
	check "azure: exactly the fixtures' offers ($(keys_of azure))" [ "$(keys_of azure)" = "$want" ]
	check "azure: ND96isr_H100_v5 eastus is 98.32 on-demand, 18.169536 spot" \
	    [ "$(sqlite3 "$DB" "select price || ' ' || spot_price from offers where provider = 'azure' and key = 'Standard_ND96isr_H100_v5/eastus'")" = "98320000 18169536" ]
	check "azure: followed NextPageLink on the local server" grep -q '^REQ GET /api/retail/prices?.*\$skip=1000' "$T/azure-good.log"
	;;
esac
# RunPod Instant Clusters: 4 types-and-data-centres x 2..8 nodes, as
# cluster products; the out-of-stock, unplaced and unpriced types absent.
case " $PROVIDERS " in
*" runpod-clusters "*)
	check "runpod-clusters: 28 cluster offers" [ "$(sqlite3 "$DB" "select count(*) from offers where provider = 'runpod-clusters' and source = 'live'")" -eq 28 ]
	check "runpod-clusters: 2..8 nodes of 8 GPUs each" [ "$(sqlite3 "$DB" "select min(nodes) || ' ' || max(nodes) || ' ' || min(gpu_count) || ' ' || max(gpu_count) from offers where provider = 'runpod-clusters'")" = "2 8 8 8" ]
	check "runpod-clusters: no B200, L40S, RTX 4090 or A6000" [ "$(sqlite3 "$DB" "select count(*) from offers where provider = 'runpod-clusters' and gpu not in ('H100', 'H200', 'A100-80')")" -eq 0 ]
	run --db "$DB" --gpu H100 --count 16 --multi-node --provider runpod-clusters --format json
	check "runpod-clusters: 2 x 8 H100 at 2 x 23.92 a node-hour" [ "$(grep -c '"price_hour": 47.84,' "$T/out")" -eq 2 ]
	check "runpod-clusters: labelled a cluster product" [ "$(grep -c '"plan_type": "cluster-product"' "$T/out")" -eq 2 ]
	check "runpod-clusters: RunPod's 3200 Gb/s" [ "$(grep -c '"node_gbps": 3200,' "$T/out")" -eq 2 ]
	check "runpod-clusters: no fabric kind claimed" [ "$(grep -c '"fabric": null' "$T/out")" -eq 2 ]
	check "runpod-clusters: the setup names NCCL_SOCKET_IFNAME=ens1" grep -q 'NCCL_SOCKET_IFNAME=ens1' "$T/out"
	;;
esac
case " $PROVIDERS " in
*" oci "*)
	want="BM.GPU.A100-v2.8 BM.GPU.B300.8 BM.GPU.GB200.4 BM.GPU.H100.8 BM.GPU.H200.8 BM.GPU.L40S.4 BM.GPU.MI300X.8 BM.GPU.MI355X.8 BM.GPU.RTXPRO.8 BM.GPU4.8 VM.GPU.A10.1 VM.GPU3.1 "
	check "oci: exactly the fixtures' offers ($(keys_of oci))" [ "$(keys_of oci)" = "$want" ]
	check "oci: one region, all, availability unknown" \
	    [ "$(sqlite3 "$DB" "select distinct region || ' ' || availability from offers where provider = 'oci'")" = "all unknown" ]
	check "oci: both documents fetched from the local server" \
	    [ "$(grep -c '^REQ GET /\(pls/apex/cetools/api/v1/products/\|a/ocom/docs/cloudestimator2/data/shapes.json\)' "$T/oci-good.log")" -ge 2 ]
	;;
esac
check "history has live rows" [ "$(sqlite3 "$DB" "select count(*) from price_history h join offers o using (provider, key) where o.source = 'live'")" -gt 0 ]

# Scaleway: exactly the offers the fixtures describe (CPU types,
# a MIG slice, GPU-less zones, a zero-priced type and a type without a
# legal count are not offers), with the prices composed and converted.
if echo " $PROVIDERS " | grep -q ' scaleway '; then
	got=$(sqlite3 "$DB" "select key || ' ' || gpu || ' ' || gpu_count || ' ' || price || ' ' || currency || ' ' || price_original || ' ' || availability from offers where provider = 'scaleway' order by key")
	want='B300-SXM-8-288G/fr-par-2 B300 8 62334000 EUR 60000000 unavailable
GPU-3070-S/fr-par-2  1 1018122 EUR 980000 limited
H100-1-80G/fr-par-2 H100 1 2978007 EUR 2866500 available
H100-1-80G/pl-waw-2 H100 1 2978007 EUR 2866500 limited
H100-2-80G/fr-par-2 H100 2 5956014 EUR 5733000 unavailable
H100-SXM-8-80G/fr-par-2 H100 8 26316168 EUR 25330800 available
L4-1-24G/fr-par-1 L4 1 818134 EUR 787500 unavailable
L4-1-24G/fr-par-2 L4 1 818134 EUR 787500 available
L4-1-24G/pl-waw-2 L4 1 818134 EUR 787500 available
L40S-1-48G/fr-par-2 L40S 1 1527096 EUR 1469916 available
L40S-1-48G/pl-waw-2 L40S 1 1579128 EUR 1520000 unavailable
L40S-8-48G/fr-par-2 L40S 8 12216766 EUR 11759328 unavailable
RENDER-S/fr-par-1 P100 1 1268497 EUR 1221000 unknown
RENDER-S/fr-par-2 P100 1 1268497 EUR 1221000 available'
	check "scaleway: exactly the fixtures' 14 offers at the default rate" [ "$got" = "$want" ]
	check "scaleway: every zone's servers and availability asked" [ "$(grep -c '^REQ GET /instance/v1/zones/[a-z0-9-]*/products/servers' "$T/scaleway-good.log")" -eq 20 ]
	# The user's rate: the environment, then the config file; a bad one
	# fails Scaleway alone with a line naming where it came from.
	GPUCOST_USD_PER_EUR=1.2 run --db "$DB" refresh --provider scaleway
	check "GPUCOST_USD_PER_EUR=1.2: refresh works" status_is 0
	check "GPUCOST_USD_PER_EUR=1.2: 2.8665 EUR is 3.4398 USD" [ "$(sqlite3 "$DB" "select price || ' ' || price_original from offers where provider = 'scaleway' and key = 'H100-1-80G/fr-par-2'")" = "3439800 2866500" ]
	before=$(offers_sum scaleway)
	for bad in 0 -1.1 NaN 1,08 abc; do
		GPUCOST_USD_PER_EUR=$bad run --db "$DB" refresh --provider scaleway,oci
		check "GPUCOST_USD_PER_EUR=$bad: exit 4" status_is 4
		check "GPUCOST_USD_PER_EUR=$bad: one line naming scaleway and the variable" err_has "^gpucost: scaleway: GPUCOST_USD_PER_EUR: "
		check "GPUCOST_USD_PER_EUR=$bad: only scaleway failed" err_lines_are 1
		check "GPUCOST_USD_PER_EUR=$bad: scaleway offers unchanged" [ "$(offers_sum scaleway)" = "$before" ]
	done
	mkdir -p "$T/cfg/gpucost"
	echo 'usd_per_eur = -1.08' > "$T/cfg/gpucost/config"
	XDG_CONFIG_HOME=$T/cfg run --db "$DB" refresh --provider scaleway
	check "usd_per_eur = -1.08 in the config: exit 4" status_is 4
	check "usd_per_eur = -1.08: the file is named" err_has "^gpucost: scaleway: usd_per_eur in $T/cfg/gpucost/config: "
	echo 'usd_per_eur = 1.1' > "$T/cfg/gpucost/config"
	XDG_CONFIG_HOME=$T/cfg run --db "$DB" refresh --provider scaleway
	check "usd_per_eur = 1.1 in the config: refresh works" status_is 0
	check "usd_per_eur = 1.1: applied" [ "$(sqlite3 "$DB" "select price from offers where provider = 'scaleway' and key = 'H100-1-80G/fr-par-2'")" = 3153150 ]
	XDG_CONFIG_HOME=$T/cfg GPUCOST_USD_PER_EUR=1.2 run --db "$DB" refresh --provider scaleway
	check "GPUCOST_USD_PER_EUR wins over the config file" [ "$(sqlite3 "$DB" "select price from offers where provider = 'scaleway' and key = 'H100-1-80G/fr-par-2'")" = 3439800 ]
	rm -rf "$T/cfg"
	run --db "$DB" refresh --provider scaleway
	check "back to the default rate" [ "$(sqlite3 "$DB" "select price from offers where provider = 'scaleway' and key = 'H100-1-80G/fr-par-2'")" = 2978007 ]
fi

# Linode, OVHcloud, CloudRift (issue 28): exactly the GPU offers their
# fixtures describe (README there): no CPU or VPU plan, no region without
# GPUs, no monthly, Windows, 3-AZ, coming-soon or per-minute price, no MIG
# slice; Linode's region override applied, OVH's EUR converted.
if echo " $PROVIDERS " | grep -q ' linode '; then
	got=$(sqlite3 "$DB" "select key || ' ' || gpu || ' ' || gpu_count || ' ' || price || ' ' || availability from offers where provider = 'linode' order by key")
	want='g1-gpu-rtx6000-1/de-fra-2 QRTX6000 1 1500000 unknown
g1-gpu-rtx6000-1/in-maa QRTX6000 1 1500000 unknown
g1-gpu-rtx6000-1/us-ord QRTX6000 1 1500000 unavailable
g1-gpu-rtx6000-2/de-fra-2 QRTX6000 2 3000000 unknown
g1-gpu-rtx6000-2/in-maa QRTX6000 2 3000000 unknown
g1-gpu-rtx6000-2/us-ord QRTX6000 2 3000000 unavailable
g2-gpu-rtx4000a1-s/de-fra-2 RTX4000-Ada 1 520000 available
g2-gpu-rtx4000a1-s/in-maa RTX4000-Ada 1 620000 unavailable
g2-gpu-rtx4000a1-s/us-ord RTX4000-Ada 1 520000 available
g2-gpu-rtx4000a4-m/de-fra-2 RTX4000-Ada 4 2960000 unavailable
g2-gpu-rtx4000a4-m/in-maa RTX4000-Ada 4 2960000 unknown
g2-gpu-rtx4000a4-m/us-ord RTX4000-Ada 4 2960000 available
g3-gpu-rtxpro6000-blackwell-1/de-fra-2 RTXPRO6000 1 2500000 unknown
g3-gpu-rtxpro6000-blackwell-1/in-maa RTXPRO6000 1 2500000 unknown
g3-gpu-rtxpro6000-blackwell-1/us-ord RTXPRO6000 1 2500000 available'
	check "linode: exactly the fixtures' 15 offers" [ "$got" = "$want" ]
	check "linode: both stock pages asked" [ "$(grep -c '^REQ GET /v4/regions/availability?page=[12]&page_size=500' "$T/linode-good.log")" -eq 2 ]
fi
if echo " $PROVIDERS " | grep -q ' ovh '; then
	got=$(sqlite3 "$DB" "select key || ' ' || gpu || ' ' || gpu_count || ' ' || price || ' ' || currency || ' ' || price_original from offers where provider = 'ovh' order by key")
	want='a100-180/GRA11 A100-80 1 3220590 EUR 3100000
h100-380/BHS5 H100 1 2908920 EUR 2800000
h100-380/GRA11 H100 1 2908920 EUR 2800000
h100-380/WAW1 H100 1 2908920 EUR 2800000
h100-760/GRA11 H100 2 5817840 EUR 5600000
l4-90/GRA11 L4 1 779175 EUR 750000
l40s-90/DE1 L40S 1 1454460 EUR 1400000
l40s-90/GRA11 L40S 1 1454460 EUR 1400000
t2-45/BHS5 V100S 1 914232 EUR 880000
t2-45/GRA9 V100S 1 914232 EUR 880000'
	check "ovh: exactly the fixture's 10 offers at the default rate" [ "$got" = "$want" ]
fi
if echo " $PROVIDERS " | grep -q ' cloudrift '; then
	got=$(sqlite3 "$DB" "select key || ' ' || gpu || ' ' || gpu_count || ' ' || price || ' ' || availability from offers where provider = 'cloudrift' order by key")
	want='a100-80-nr.1/ap-east-tw-kn-2 A100-80 1 1200000 available
mi350x-8.8/us-central-tx-nr-1 MI350X 8 16000000 available
rtx49-8c-nr.1/eu-central-it-gv-1 RTX4090 1 390000 unavailable
rtx49-8c-nr.1/us-east-nc-nr-1 RTX4090 1 390000 available
rtx49-8c-nr.2/us-east-nc-nr-1 RTX4090 2 780000 unknown
rtx49-8c-nr.4/eu-central-it-gv-1 RTX4090 4 1560000 available
rtxpro6000-11-50-500-1l.1/ustx1a_a01 RTXPRO6000 1 1393600 unavailable
rtxpro6000-11-50-500-1l.8/ustx1a_a01 RTXPRO6000 8 11148800 available'
	check "cloudrift: exactly the fixture's 8 offers" [ "$got" = "$want" ]
	check "cloudrift: one POST with the selector" grep -q '^REQ POST /api/v1/instance-types/list' "$T/cloudrift-good.log"
fi

if echo " $PROVIDERS " | grep -q ' verda '; then
	got=$(sqlite3 "$DB" "select key || ' ' || gpu || ' ' || gpu_count || ' ' || coalesce(price, '-') || ' ' || coalesce(spot_price, '-') || ' ' || region from offers where provider = 'verda' order by key")
	want='1x A100 SXM4 40GB A100-40 1 1290000 645000 nordics
1x B200 SXM6 180GB B200 1 - 3055000 nordics
1x H100 SXM5 80GB H100 1 3250000 1625000 nordics
1x RTX PRO 6000 96GB RTXPRO6000 1 1890000 945000 nordics
1x RTX PRO 6000 CC 96GB RTXPRO6000 1 1928000 963900 nordics
2x L40S 48GB L40S 2 2740000 - nordics
8x H100 SXM5 80GB H100 8 26000000 13000000 nordics'
	check "verda: exactly the JSON-LD block's 7 instances, never the page's table" [ "$got" = "$want" ]
fi

# Akash (issue 47): one offer per model row of the recorded answer, at the
# weighted average, from its min; the zero-priced and unpriced rows absent.
if echo " $PROVIDERS " | grep -q ' akash '; then
	got=$(sqlite3 "$DB" "select key || ' ' || instance_type || ' ' || gpu || ' ' || gpu_count || ' ' || region || ' ' || price || ' ' || coalesce(price_from, '-') || ' ' || coalesce(spot_price, '-') || ' ' || availability from offers where provider = 'akash' order by key")
	want='nvidia/a100/80Gi/SXM4 a100 80Gi SXM4 A100-80 1 global 1080000 1080000 - available
nvidia/gt1030/2Gi/PCIe gt1030 2Gi PCIe GT1030 1 global 120000 120000 - available
nvidia/h100/80Gi/SXM5 h100 80Gi SXM5 H100 1 global 1290000 1180000 - available
nvidia/h200/141Gi/SXM5 h200 141Gi SXM5 H200 1 global 3020000 2900000 - available
nvidia/pro6000se/96Gi/PCIe pro6000se 96Gi PCIe RTXPRO6000 1 global 1630000 1630000 - available
nvidia/pro6000we/96Gi/PCIe pro6000we 96Gi PCIe RTXPRO6000 1 global 1510000 1510000 - unavailable
nvidia/rtx2000eada/16Gi/PCIe rtx2000eada 16Gi PCIe  1 global 150000 150000 - available
nvidia/rtx4000sada/20Gi/PCIe rtx4000sada 20Gi PCIe RTX4000-Ada 1 global 360000 360000 - available
nvidia/rtx4090/24Gi/PCIe rtx4090 24Gi PCIe RTX4090 1 global 400000 170000 - available
nvidia/v100/16Gi/SXM2 v100 16Gi SXM2 V100-16 1 global 210000 210000 - available
nvidia/v100/32Gi/PCIe v100 32Gi PCIe V100-32 1 global 290000 290000 - available'
	check "akash: exactly the 11 priced model rows" [ "$got" = "$want" ]
	check "akash: one keyless GET" [ "$(grep -c '^REQ GET /v1/gpu-prices' "$T/akash-good.log")" -eq 1 ]
	run --db "$DB" --provider akash --gpu H100 --format json --quiet
	check "akash: price_from in JSON" grep -q '"price_from": 1.18[,}]' "$T/out"
	check "akash: the deployment's SDL asks for the model" grep -q 'model: h100, ram: 80Gi, interface: sxm' "$T/out"
fi
# SaladCloud with a key and an organisation: its classes live.
if echo " $PROVIDERS " | grep -q ' salad '; then
	got=$(sqlite3 "$DB" "select key || ' ' || gpu || ' ' || coalesce(price, '-') || ' ' || coalesce(spot_price, '-') || ' ' || notes from offers where provider = 'salad' order by key")
	want='RTX 2000E Ada (16 GB)  120000 70000 1024
RTX 3060 (12 GB) RTX3060 - 40000 1280
RTX 4090 (24 GB) RTX4090 330000 160000 1024
RTX 5090 (32 GB) RTX5090 500000 250000 1024'
	check "salad: the keyed classes, high on demand, batch as spot" [ "$got" = "$want" ]
	check "salad: the key in its header, not the path" [ -z "$(grep '^REQ' "$T/salad-good.log" | grep SECRET)" ]
fi

# A second identical refresh changes no prices: no new history rows.
h1=$(sqlite3 "$DB" 'select count(*) from price_history')
run --db "$DB" refresh --provider "$(plist)"
check "second good refresh exits 0" status_is 0
h2=$(sqlite3 "$DB" 'select count(*) from price_history')
check "unchanged prices add no history ($h1 -> $h2)" [ "$h1" -eq "$h2" ]

# Queries see the live data.
run --db "$DB" --provider vast --format json --quiet
check "query after refresh: vast offers are live" [ "$(jq -r '[.offers[].source] | unique | join(",")' "$T/out")" = live ]

# Every fault, for every provider at once: exit 4, one line each, data kept.
for kind in 500 429 html malformed truncated empty; do
	for p in $PROVIDERS; do
		# A shell name: runpod-clusters -> runpod_clusters.
		eval "before_$(echo "$p" | tr - _)=\$(offers_sum $p)"
	done
	point_all "$kind"
	run --db "$DB" refresh --provider "$(plist)" --timeout 5
	check "$kind: exit 4" status_is 4
	check "$kind: one line per provider" err_lines_are "$(echo $PROVIDERS | wc -w)"
	for p in $PROVIDERS; do
		check "$kind: $p named in its line" err_has "^gpucost: $p: "
		eval "b=\$before_$(echo "$p" | tr - _)"
		check "$kind: $p offers unchanged" [ "$(offers_sum "$p")" = "$b" ]
		check "$kind: $p status records the error" [ -n "$(sqlite3 "$DB" "select last_error from provider_status where provider = '$p'")" ]
	done
	case $kind in
	500) check "500: cause named" err_has 'HTTP 500' ;;
	429) check "429: cause named" err_has 'HTTP 429' ;;
	html) check "html: cause named" err_has 'HTML' ;;
	truncated) check "truncated: cause named" err_has 'closed early\|truncated\|ends early' ;;
	empty) check "empty: cause named" err_has 'empty' ;;
	esac
done
for p in $PROVIDERS; do
	run --db "$DB" providers --format csv
	check "providers shows $p's last error" [ -n "$(tr -d '\r' < "$T/out" | grep "^$p," | cut -d, -f9-)" ]
done

# 429 then 200: retried (Retry-After honoured) and the refresh succeeds.
mkdir -p "$T/retry"
cp "$TOP_SRCDIR/tests/fixtures/vultr"/* "$T/retry/"
{
	echo "* /v2/plans - status=429 header=Retry-After:%201 times=1"
	cat "$TOP_SRCDIR/tests/fixtures/vultr/routes"
} > "$T/retry/routes"
serve vultr-retry "$T/retry"
GPUCOST_VULTR_URL=$url run --db "$DB" refresh --provider vultr
check "429 once then 200: refresh succeeds" status_is 0
check "429 once then 200: the request was retried" [ "$(grep -c '^REQ GET /v2/plans?' "$T/vultr-retry.log")" -ge 3 ]

# Isolation: faulty providers fail, good ones in the same run succeed.
serve vast-bad "$(fault_dir vast 500)"
export GPUCOST_VAST_URL=$url
serve lambda-bad "$(fault_dir lambda html)"
export GPUCOST_LAMBDA_URL=$url
serve vultr-ok "$TOP_SRCDIR/tests/fixtures/vultr"
export GPUCOST_VULTR_URL=$url
serve runpod-ok "$TOP_SRCDIR/tests/fixtures/runpod"
export GPUCOST_RUNPOD_URL=$url
sqlite3 "$DB" "update provider_status set last_success = 1 where provider in ('vultr', 'runpod')"
run --db "$DB" refresh --provider vast,lambda,vultr,runpod
check "mixed run: exit 4" status_is 4
check "mixed run: two failure lines" err_lines_are 2
check "mixed run: good providers were refreshed" [ "$(sqlite3 "$DB" "select count(*) from provider_status where provider in ('vultr', 'runpod') and last_success > 1")" -eq 2 ]

# Stalls: every provider stalls; the refresh gives up within the timeout
# plus retries (3 attempts of 1 s and 1 s + 2 s of backoff: ~6 s).
point_all stall
start=$(date +%s)
run --db "$DB" refresh --provider "$(plist)" --timeout 1
elapsed=$(($(date +%s) - start))
check "stall: exit 4" status_is 4
check "stall: gave up in ${elapsed}s (< 20 s)" [ "$elapsed" -lt 20 ]
check "stall: says it timed out" err_has 'timed out\|Timeout\|timeout'

# Parallel: three providers each answering after 2 s finish well under the
# 6 s they would take one after another (one request each, so the 2 s are
# the whole of each provider's time); the bound leaves a busy machine room.
PROVIDERS="vast runpod lambda"
point_all slow2s
start=$(date +%s.%N)
run --db "$DB" refresh --provider vast,runpod,lambda
elapsed=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.2f", b - a }')
check "parallel: three 2-second providers succeed" status_is 0
check "parallel: done in ${elapsed}s (< 5.5 s; one after another: 6 s)" awk -v e="$elapsed" 'BEGIN { exit !(e < 5.5) }'
check "parallel: each took 2 s (>= 2)" awk -v e="$elapsed" 'BEGIN { exit !(e >= 2) }'
PROVIDERS=${TEST_PROVIDERS:-"aws gcp lambda runpod runpod-clusters vast vultr azure oci scaleway linode ovh cloudrift verda akash salad"}

# Keys: sent only in headers, never in a URL, the cache, output or errors.
for p in gcp lambda; do
	check "$p key sent in a header" grep -q "SECRET-key" "$T/$p-good.log"
	check "$p key never in a request target" [ -z "$(grep '^REQ' "$T/$p-good.log" | grep 'SECRET')" ]
done
check "no key in the cache" [ "$(grep -c SECRET "$DB" "$DB-wal" 2>/dev/null | awk -F: '{ s += $NF } END { print s + 0 }')" -eq 0 ]
check "no key in any error output so far" [ -z "$(grep -l SECRET "$T/err" "$T/out")" ]

# A provider whose key is missing is skipped with one line; exit unaffected.
serve vultr-ok2 "$TOP_SRCDIR/tests/fixtures/vultr"
GPUCOST_VULTR_URL=$url
export GPUCOST_VULTR_URL
unset LAMBDA_API_KEY GCP_API_KEY
run --db "$DB" refresh --provider lambda,gcp,vultr
check "missing keys: exit 0" status_is 0
check "missing keys: lambda line" err_has '^gpucost: lambda: skipped: set LAMBDA_API_KEY$'
check "missing keys: gcp line" err_has '^gpucost: gcp: skipped: set GCP_API_KEY$'
run --db "$DB" refresh --provider lambda --quiet
check "--quiet: no skip line" [ ! -s "$T/err" ]

# No price feed (issue 47): CoreWeave always, SaladCloud without a key. One
# line naming the list's date, exit 0, nothing fetched, the list kept.
serve nofeed "$TOP_SRCDIR/tests/fixtures/salad"
GPUCOST_COREWEAVE_URL=$url GPUCOST_SALAD_URL=$url SALAD_API_KEY= run --db "$DB" refresh --provider coreweave
check "coreweave: exit 0" status_is 0
check "coreweave: one line" err_lines_are 1
check "coreweave: no feed, the list's date" err_has '^gpucost: coreweave: CoreWeave publishes no price feed: its offers are its list prices of 2026-09-20 (coreweave.com/pricing.*; nothing fetched$'
check "coreweave: its 16 list offers kept" [ "$(sqlite3 "$DB" "select count(*) from offers where provider = 'coreweave' and source = 'snapshot'")" -eq 16 ]
unset SALAD_API_KEY
GPUCOST_SALAD_URL=$url run --db "$DB" refresh --provider salad,coreweave
check "salad without a key: exit 0" status_is 0
check "salad without a key: the list's line" err_has '^gpucost: salad: SaladCloud publishes no keyless price feed .*list prices of 2026-09-20 .*nothing fetched$'
check "nothing fetched for either" [ ! -s "$T/nofeed.log" ] || [ -z "$(grep '^REQ' "$T/nofeed.log")" ]
run --db "$DB" providers
check "providers: coreweave's list and its date" out_has '^CoreWeave publishes no price feed: its offers are its list prices of 2026-09-20'
run --db "$DB" --provider coreweave --gpu H100
check "footer: the list's date, not a refresh to run" err_has 'data age: coreweave [0-9]*d (list prices of 2026-09-20)$'

# The lock: a second refresh waits, then gives up with its own message.
if command -v flock >/dev/null 2>&1; then
	flock "$DB.lock" sleep 3 &
	holder=$!
	sleep 0.3
	run --db "$DB" refresh --provider vultr --wait 1
	check "locked: exit 4" status_is 4
	check "locked: says another refresh is running" err_has 'another refresh is running'
	run --db "$DB" refresh --provider vultr --wait 10
	check "locked: a longer wait succeeds after the holder ends" status_is 0
	wait "$holder"
fi

finish
