#!/bin/sh
# gpucost gpus: the catalogue, and what a --gpu name matches.
. "$(dirname "$0")/../lib.sh"

run gpus
check "gpus exits 0" status_is 0
for id in H200 H100 H100-NVL GH200 B200 A100-80 A100-40 A10 A10G L40S L40 L4 \
    T4 V100-16 V100-32 A40 A16 A6000 RTX6000-Ada RTX4090 RTX5090 RTX3090 \
    MI300X MI325X; do
	check "catalogue lists $id" grep -q "^$id " "$T/out"
done
check "gpus needs no cache" [ ! -e "$HOME/.local" ]

run gpus --gpu A100
check "gpus --gpu A100: two models" [ "$(tail -n +2 "$T/out" | awk '{ print $1 }' | sort | tr '\n' ' ')" = "A100-40 A100-80 " ]
run gpus --gpu 'nvidia a100-sxm4-80gb'
check "gpus --gpu 'nvidia a100-sxm4-80gb': A100-80 only" [ "$(tail -n +2 "$T/out" | awk '{ print $1 }')" = A100-80 ]
run gpus --format csv
check "gpus csv header" [ "$(head -1 "$T/out" | tr -d '\r')" = "id,family,vendor,arch,vram_gb,bf16_tflops,bf16_tflops_pcie,aliases" ]
run gpus --format json
check "gpus json" out_has '"id": "MI300X"'
if command -v jq >/dev/null 2>&1; then
	check "gpus json is valid" jq -e . "$T/out" >/dev/null
	check "gpus json: H100 PCIe TFLOPS below SXM" [ "$(jq '.gpus[] | select(.id == "H100") | .bf16_tflops_pcie < .bf16_tflops' "$T/out")" = true ]
fi
run gpus --count 2
check "gpus rejects query options" status_is 2

finish
