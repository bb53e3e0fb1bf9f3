#!/bin/sh
# Answers a buyer can trust (issue 11): no phantom offers, no placeholder
# shown as a fact, every doubtful number noted, in every output format.
. "$(dirname "$0")/../lib.sh"

# 1. RunPod: a cloud that does not sell a type never becomes an offer,
#    whatever placeholder price RunPod answers there.
cat > "$T/runpod.routes" <<ROUTES
POST	/graphql	clouds.json	body~=gpuTypes
ROUTES
serve runpod "$TOP_SRCDIR/tests/fixtures/runpod" "$T/runpod.routes"
GPUCOST_RUNPOD_URL=$url run --db "$DB" refresh --provider runpod
check "runpod refresh from the real GraphQL shape" status_is 0
check "the query asks for secureCloud and communityCloud" grep -q 'communityCloud' "$T/runpod.log"
run --db "$DB" --gpu B200 --provider runpod --format csv
check "B200: offers in secure cloud" out_has ',secure,B200,'
check "B200: none in community (a 0.50 placeholder)" out_lacks ',community,'
run --db "$DB" --gpu RTX4090 --provider runpod --count 4 --format csv
check "RTX 4090: secure stops at maxGpuCountSecureCloud 2" out_lacks ',secure,'
check "RTX 4090: community goes to 4" out_has ',community,RTX4090,'

# 2. Lambda: gpu_8x_a100 is an SXM4 board (NVLink); gpu_1x_a100 is PCIe.
run --db "$DB" --provider lambda --gpu A100-40 --format csv
check "lambda gpu_8x_a100 is nvlink" [ "$(grep '^lambda,gpu_8x_a100,' "$T/out" | cut -d, -f10 | sort -u)" = nvlink ]
check "lambda gpu_1x_a100 is pcie" [ "$(grep '^lambda,gpu_1x_a100,' "$T/out" | cut -d, -f10 | sort -u)" = pcie ]

# 3. Vast snapshot: no invented host; one marketplace machine each.
run --db "$DB" --provider vast --format tsv
check "vast snapshot offers have no vCPU or RAM figure" [ -z "$(tail -n +2 "$T/out" | cut -f11,12 | tr -d '\t' | sort -u)" ]
check "vast offers are single-listing" [ "$(tail -n +2 "$T/out" | grep -c 'single-listing')" -eq "$(tail -n +2 "$T/out" | wc -l)" ]

# 4. GCP N1 machines with T4, V100, P100, P4 from the snapshot.
run --db "$DB" --provider gcp --gpu T4 --format csv
check "gcp T4 answers from the snapshot" status_is 0
check "gcp T4: an n1 host plus its GPUs" out_has '^gcp,n1-standard-8+1xT4,us-central1,T4,'
for g in V100 P100 P4; do
	run --db "$DB" --provider gcp --gpu "$g" --quiet
	check "gcp $g answers" status_is 0
done

# 5. Outliers are noted, not dropped; --no-outliers skips them. GCP's
# committed-use rates are not pay-as-you-go prices (issue 22): such a
# row has no on-demand price and says so, and the median of
# price-outlier is never taken over them, so Google's real price is no
# outlier.
run --db "$DB" --provider gcp --gpu H100 --count 8 --region us-central1 --format csv
check "a3-highgpu-8g us-central1 is kept" out_has '^gcp,a3-highgpu-8g,us-central1,'
check "... at Google's list price, \$88.49 (issue 44: a refused committed rate, doubtful-price, before)" [ "$(grep '^gcp,a3-highgpu-8g,us-central1,' "$T/out" | cut -d, -f"$(csv_col price_hour),$(csv_col notes)")" = "88.49,stale;spot-history" ]
run --db "$DB" --provider gcp --gpu H100 --count 8 --region us-east4 --format csv
check "a3-highgpu-8g us-east4 at Google's price, no outlier" [ "$(grep '^gcp,a3-highgpu-8g,us-east4,' "$T/out" | cut -d, -f"$(csv_col price_hour),$(csv_col notes)")" = "88.555756,stale;spot-history" ]
run --db "$DB" --provider gcp --format csv
check "no GCP offer is noted price-outlier" out_lacks 'price-outlier'
run --db "$DB" --provider vast --include-stale --gpu RTX4090 --region hu --format csv
check "a Vast listing far above its peers is kept" out_has '^vast,1x-RTX_4090,HU,.*price-outlier'
run --db "$DB" --provider vast --include-stale --gpu RTX4090 --region hu --no-outliers --format csv
check "--no-outliers skips it" out_lacks 'price-outlier'
check "--no-outliers keeps the others" out_has '^vast,1x-RTX_4090,HU,'
COLUMNS=200 run --db "$DB" --provider vast --include-stale --gpu RTX4090 --region hu --limit 1
check "the table shows the marker" out_has 'NOTE'
check "... ! for price-outlier" out_has ' !1o '

# 6. Spot: the cheapest zone, named; spot not below on-demand noted.
run --db "$DB" --provider aws --format json --gpu H100 --count 8 --region us-east-1
check "aws spot is the cheapest zone, named" grep -q '"notes": \["spot-cheapest-zone", "stale", "spot-history"\].*"spot_zone": "use1-az' "$T/out"
run --db "$DB" --provider aws --format csv
# (15 before issue 44: 9 were p3/p3dn, retired since.)
check "6 AWS offers with spot >= on-demand are noted" [ "$(grep -c 'spot-not-cheaper' "$T/out")" -eq 6 ]
run --db "$DB" --provider vultr --format csv
# Issue 48: Vultr's unconfirmed preemptible price has no command: not kept.
check "vultr keeps no spot price" [ "$(grep '^vultr,vbm-112c-2048gb-8-h100-gpu,' "$T/out" | grep -c low-confidence)" -eq 0 ]
check "... no vultr offer has a spot price" [ "$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "spot_hour") c = i; next } $c != "" { n++ } END { print n + 0 }' "$T/out")" -eq 0 ]
check "the vultr plan not sold on demand is no offer" out_lacks 'vcg-h100-216c-1914gb-640vram'
check "vultr B200: 192 GB per GPU" [ "$(grep '^vultr,vcg-b200' "$T/out" | cut -d, -f9)" = 192 ]

# 7. Multi-node: no marketplace machine twice; 1-GPU nodes have no NVLink.
run --db "$DB" --gpu H100 --count 16 --multi-node --format json
check "16 x H100: no vast plan of several nodes" [ "$(grep -c '"provider": "vast".*"nodes": [2-9]' "$T/out")" -eq 0 ]
check "16 x H100: p5.48xlarge pairs are joined by EFA" grep -q '"instance_type": "p5.48xlarge".*"nodes": 2.*"inter_node": "efa"' "$T/out"
check "node_keys names each node" grep -q '"node_keys": \["p5.48xlarge/[a-z0-9-]*", "p5.48xlarge/[a-z0-9-]*"\]' "$T/out"
run --db "$DB" --gpu H100 --count 16 --multi-node --provider aws --format csv
check "16 x H100 --multi-node: no swarm of 16 one-GPU p5.4xlarge" out_lacks '^aws,p5.4xlarge,'
# Asked for with --nodes 16, they come, and do not say nvlink.
run --db "$DB" --gpu H100 --count 16 --nodes 16 --provider aws --format csv
check "16 x p5.4xlarge (1 GPU each) do not say nvlink" [ "$(grep '^aws,p5.4xlarge,' "$T/out" | cut -d, -f10 | sort -u)" = unknown ]
run --db "$DB" --gpu H100 --count 16 --nodes 16 --interconnect nvlink --provider aws --format csv
check "--interconnect nvlink: no plan of 1-GPU nodes" out_lacks '^aws,p5.4xlarge,'

# 8. GPU catalogue: variants resolve; a bare RTX 6000 names two different
# cards (issue 25): asked back, both named.
for g in 'GH200 144GB' 'B200 192GB' 'A16 64GB' 'RTX A2000 12GB'; do
	run --db "$DB" gpus --gpu "$g"
	check "gpus '$g' resolves" status_is 0
done
run --db "$DB" --gpu 'RTX 6000' --format csv
check "RTX 6000: asked back (exit 2)" status_is 2
check "RTX 6000: the Quadro card" err_has 'QRTX6000'
check "RTX 6000: and the Ada card" err_has 'RTX6000-Ada'

# The notes in every format: JSON always an array, even empty.
run --db "$DB" --provider lambda --gpu GH200 --format json --limit 1
check "json notes is an array" grep -q '"notes": \[' "$T/out"

finish
