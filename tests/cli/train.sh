#!/bin/sh
# --train (issue 46): the cost of the job, not of the hour. On the
# built-in snapshot: 7B:2T on eight A100-80 is about 186,966 GPU-hours
# and each offer's job costs its hours at its price; without --gpu the
# answer ranks GPU types by the job; a run no plan can hold is refused
# (exit 2, naming memory); spot adds restarts; --egress adds each
# provider's published price. On the AWS fixture: the Spot Advisor's
# bucket and a Reserved term beside the on-demand job.
. "$(dirname "$0")/../lib.sh"

command -v python3 >/dev/null 2>&1 || { echo "python3 is needed" >&2; exit 77; }

# py CODE: run CODE with doc = the JSON document in $T/out.
py() {
	python3 -c "import json, sys
doc = json.load(open(sys.argv[1]))
offers = doc['offers']
$1" "$T/out"
}

# --- 7B:2T on eight A100-80 -------------------------------------------
run --db "$DB" --train 7B:2T --gpu A100-80 --count 8 --format json --quiet
check "7B:2T A100-80 x8: exits 0" status_is 0
check "7B:2T: every offer about 186,966 GPU-hours" py '
assert offers
for o in offers:
    assert abs(o["gpu_hours"] - 186965.8) < 1, o["gpu_hours"]'
check "7B:2T: job hours are GPU-hours over 8 GPUs" py '
for o in offers:
    assert abs(o["job_hours"] - o["gpu_hours"] / 8) < 0.01, o'
check "7B:2T: job cost = job hours x price, every priced offer" py '
n = 0
for o in offers:
    if o["price_hour"] is None:
        assert o["job_cost"] is None, o
        continue
    assert abs(o["job_cost"] - o["job_hours"] * o["price_hour"]) < 0.01, o
    n += 1
assert n > 3, n'
check "7B:2T: ranked by the job's cost" py '
costs = [o["job_cost"] for o in offers if o["job_cost"] is not None]
assert costs == sorted(costs), costs
seen_none = False
for o in offers:
    seen_none = seen_none or o["job_cost"] is None
    assert not (seen_none and o["job_cost"] is not None), "unknown not last"'
check "7B:2T: the assumptions once, at the top" py '
t = doc["train"]
assert t["run"] == "7B:2T" and t["mfu"] == 0.4, t
assert t["flops"] == 8.4e22 and t["memory_gb"] == 134.4, t
assert t["checkpoint_seconds"] == 1800 and t["egress_gb"] == 0, t
assert t["scaling"][0] == {"fabric": "one node", "efficiency": 1}, t
assert "gpu_hours" not in t'
# The snapshot's spot prices are history (issue 44 item 7): asked for.
run --db "$DB" --train 7B:2T --gpu A100-80 --count 8 --format json --quiet \
    --include-stale
check "7B:2T: spot never below the spot price x the hours" py '
n = 0
for o in offers:
    if o["spot_hour"] is None:
        assert o["spot_job_cost"] is None, o
        continue
    assert o["spot_job_hours"] > o["job_hours"], o
    assert o["spot_job_cost"] >= o["spot_hour"] * o["job_hours"], o
    n += 1
assert n > 0'

# The table: the job's columns, the assumptions on stderr.
run --db "$DB" --train 7B:2T --gpu A100-80 --count 8 --limit 3
check "table: exits 0" status_is 0
check "table: HOURS" out_has 'HOURS'
check "table: JOB \$" out_has 'JOB \$'
check "table: SPOT JOB \$" out_has 'SPOT JOB \$'
check "table: \$/1B TOKENS" out_has '\$/1B TOKENS'
check "table: 23,371 hours on 8 GPUs" out_has ' 23,371 '
check "table: no EGRESS \$ without --egress" out_lacks 'EGRESS'
check "table: the assumptions on stderr, once" \
    [ "$(grep -c 'gpucost: --train 7B:2T: 8.4e+22 FLOPs' "$T/err")" -eq 1 ]
check "table: MFU, scaling, spot and checkpoint said" \
    err_has 'at MFU 0.40 .* a scaling of 1.00 (RDMA, 200 Gb/s a GPU or more).* else 25 % of nodes a month, a checkpoint every 30m and 15m to restart'
run --db "$DB" --train 7B:2T --gpu A100-80 --count 8 --limit 3 --quiet
check "table -q: no assumptions line" err_lines_are 0

# CSV: the job's fields after every other field, in this order.
run --db "$DB" --train 7B:2T --gpu A100-80 --count 8 --format csv --quiet
check "csv: exits 0" status_is 0
check "csv: the job's fields last" \
    sh -c "head -1 '$T/out' | tr -d '\r' | grep -q ',term_savings_pct,price_from,regions,gpu_hours,job_hours,job_cost,spot_job_cost,egress_cost,job_scaling,spot_job_hours,job_cost_per_1b_tokens,job_term,job_term_cost,job_term_commitment\$'"
run --db "$DB" --gpu A100-80 --count 8 --format csv --quiet
check "csv without --train: none of the job's fields" out_lacks 'gpu_hours'

# --- across GPU types, by the job ---------------------------------------
run --db "$DB" --train 7B:2T --count 8 --format json --quiet --limit 40
check "7B:2T x8: exits 0" status_is 0
check "7B:2T x8: several GPU types, ranked by the job's cost" py '
costs = [o["job_cost"] for o in offers]
assert None not in costs and costs == sorted(costs), costs
assert len({o["gpu"] for o in offers}) > 2, {o["gpu"] for o in offers}'
check "7B:2T x8: the H100's fewer hours beat its price per hour" py '
h100 = [o for o in offers if o["gpu"] == "H100" and o["interconnect"] == "nvlink"]
a100 = [o for o in offers if o["gpu"] == "A100-80"]
assert h100
for o in h100:
    assert abs(o["gpu_hours"] - 186965.8 * 312 / 989.4) < 1, o["gpu_hours"]'
run --db "$DB" --train 7B:2T --count 8 --sort gpu-price --format json --quiet --limit 40
check "--sort gpu-price still ranks by the hour" py '
p = [o["price_gpu_hour"] for o in offers]
assert p == sorted(p), p'

# --- memory ---------------------------------------------------------------
run --db "$DB" --train 70B:1T --gpu RTX4090 --count 2
check "70B:1T on 2 x RTX4090: refused, exit 2" status_is 2
check "70B:1T on 2 x RTX4090: the message names memory" \
    err_has 'none has the GPU memory for --train 70B:1T: its training state needs 1344 GB'
check "70B:1T on 2 x RTX4090: and the largest plan's" err_has 'the largest plan holds 48 GB'
run --db "$DB" --train 70B:1T --gpu RTX4090 --count 2 --quiet
check "refused with -q too: exit 2" status_is 2
check "refused with -q too: one line" err_lines_are 1
run --db "$DB" --train 7B:2T --gpu B300 --count 3
check "no such plan at all: exit 1, not a refusal" status_is 1
run --db "$DB" --train 70B:1T --gpu H100 --format json --quiet
check "70B:1T without --count: exits 0" status_is 0
check "70B:1T without --count: the fewest nodes that hold 1,344 GB" py '
assert offers
for o in offers:
    vram = o["vram_gb"] * o["total_gpus"]
    assert vram >= 1344, o
    assert o["vram_gb"] * o["gpu_count"] * (o["nodes"] - 1) < 1344, o
assert any(o["nodes"] > 1 for o in offers)'

# --- spot, checkpoints, MFU ------------------------------------------------
run --db "$DB" --train 7B:2T --gpu A100-80 --count 8 --checkpoint 6h --format json --quiet
check "--checkpoint 6h: exits 0" status_is 0
py 'print(max(o["spot_job_hours"] - o["job_hours"] for o in offers if o["spot_job_hours"]))' > "$T/six"
run --db "$DB" --train 7B:2T --gpu A100-80 --count 8 --format json --quiet
py 'print(max(o["spot_job_hours"] - o["job_hours"] for o in offers if o["spot_job_hours"]))' > "$T/half"
check "--checkpoint 6h: more spot hours lost than every 30m ($(cat "$T/six") > $(cat "$T/half"))" \
    python3 -c "import sys; sys.exit(0 if float(open('$T/six').read()) > float(open('$T/half').read()) else 1)"
run --db "$DB" --train 7B:2T --gpu A100-80 --count 8 --mfu 0.2 --format json --quiet
check "--mfu 0.2: twice the GPU-hours" py '
assert abs(offers[0]["gpu_hours"] - 2 * 186965.8) < 2 and doc["train"]["mfu"] == 0.2'

# --- egress -----------------------------------------------------------------
run --db "$DB" --train 7B:2T --count 8 --egress 10TB --format json --quiet --limit 400
check "--egress 10TB: exits 0" status_is 0
check "--egress 10TB: AWS 891.00 (100 GB free, then 0.09), Lambda and RunPod 0" py '
seen = set()
for o in offers:
    if o["provider"] == "aws":
        assert o["egress_cost"] == 891.0, o
    if o["provider"] in ("lambda", "runpod"):
        assert o["egress_cost"] == 0, o
    seen.add(o["provider"])
assert {"aws", "lambda", "runpod"} <= seen, seen
assert doc["train"]["egress_gb"] == 10000'
check "--egress 10TB: ranked by the job and its egress" py '
t = [o["job_cost"] + o["egress_cost"] for o in offers if o["egress_cost"] is not None and o["job_cost"] is not None]
assert t == sorted(t), t'
run --db "$DB" --train 7B:2T --gpu A100-80 --count 8 --egress 10TB --limit 3
check "--egress: an EGRESS \$ column" out_has 'EGRESS \$'

# --- usage errors -----------------------------------------------------------
run --db "$DB" --train 7B
check "--train 7B: exit 2" status_is 2
check "--train 7B: names the option" err_has '--train: expected PARAMS:TOKENS such as 7B:2T'
run --db "$DB" --mfu 0.5
check "--mfu without --train: exit 2" status_is 2
check "--mfu without --train: says so" err_has '--mfu: only with --train'
run --db "$DB" --train 7B:2T --egress lots
check "--egress lots: exit 2" status_is 2
check "--egress lots: names the option" err_has '--egress: expected a size'
run --db "$DB" --train 7B:2T --checkpoint 10s
check "--checkpoint 10s: exit 2" status_is 2
check "--checkpoint 10s: names the option" err_has '--checkpoint: expected a duration'

# --- AWS fixture: the Spot Advisor's bucket, a Reserved term ---------------
FX=$TOP_SRCDIR/tests/fixtures
GPUCOST_AWS_REGIONS=us-east-1,us-west-2,eu-west-1
export GPUCOST_AWS_REGIONS
serve aws "$FX/aws"
GPUCOST_AWS_URL=$url
export GPUCOST_AWS_URL
run --db "$T/aws.db" refresh --provider aws
check "aws fixture: refresh exits 0" status_is 0
run --db "$T/aws.db" --provider aws --gpu A100-40 --train 7B:2T --format json --quiet
check "aws p4d: exits 0" status_is 0
# 23,371 hours: one 3y term (201,300 all upfront) beats three 1y ones.
check "aws p4d us-east-1: the cheapest term beside the job, in whole terms" py '
o = [o for o in offers if o["key"] == "p4d.24xlarge/us-east-1"][0]
assert o["job_term"] == "reservation 3y all", o["job_term"]
assert abs(o["job_term_cost"] - 7.659817 * 26280) < 0.01, o
assert abs(o["job_term_commitment"] - 7.659817 * 26280) < 0.01, o
assert o["job_term_cost"] < o["job_cost"]'
run --db "$T/aws.db" --provider aws --gpu A100-40 --train 7B:2T --term 1y --format json --quiet
check "aws p4d --term 1y: that term, three of them" py '
o = [o for o in offers if o["key"] == "p4d.24xlarge/us-east-1"][0]
assert o["job_term"] == "reservation 1y all", o["job_term"]
assert abs(o["job_term_cost"] - 12.93379 * 8760 * 3) < 0.01, o
assert abs(o["job_term_commitment"] - 12.93379 * 8760) < 0.01, o'
check "aws: a Spot Advisor bucket makes the rate its own" py '
o = [o for o in offers if o["spot_interruption"] is not None and o["spot_hour"] is not None]
assert o, "no offer with a bucket"'
run --db "$T/aws.db" --provider aws --gpu A100-40 --train 7B:2T --limit 1
check "aws table: the first row's term, with its commitment" \
    out_has 'on a 3y reservation (all upfront) \$201,299.99 for 1 term, committing \$201,299.99 a term'

finish
