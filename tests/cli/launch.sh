#!/bin/sh
# From choice to launch: every offer of every provider has a `launch`
# command; each command (launch, launch_spot, launch_vertex) is parsed
# as shell words by python3's shlex (POSIX rules, operators split out)
# and syntax-checked by sh -n, never run; hostile provider text
# (tests/fixtures/hostile) stays inside one quoted word. The issue's
# examples: GCP a3-highgpu-2g in us-central1 with its zone, quota and
# Vertex AI line; AWS p4d.24xlarge with spot options and P quota codes.
. "$(dirname "$0")/../lib.sh"

command -v python3 >/dev/null 2>&1 || { echo "python3 is needed" >&2; exit 77; }

# words.py JSON [HOSTILE...]: check every command of every offer in the
# JSON document; prints one line per problem and a summary line. Each
# HOSTILE text found in a command must lie whole inside one word.
cat > "$T/words.py" <<'EOF'
import json, re, shlex, subprocess, sys

PROGRAM = {"aws": "aws", "gcp": "gcloud", "runpod": "runpodctl",
           "vast": "vastai", "lambda": "curl", "vultr": "vultr-cli",
           "azure": "az", "oci": "oci", "scaleway": "scw", "salad": "curl",
           "coreweave": "printf", "akash": "printf"}
# The commands of several steps: exactly these operators, in this order
# (a manifest piped to kubectl; an SDL written, then provider-services).
OPS = {"coreweave": ["|"], "akash": [">", "&&", "&&", "&&", "&&"]}
HOSTILE = sorted(sys.argv[2:], key=len, reverse=True)
doc = json.load(open(sys.argv[1]))
bad = 0
seen = {}
commands = hostile_words = 0


def problem(offer, field, why):
    global bad
    bad += 1
    print("%s %s %s: %s" % (offer["provider"], offer["key"], field, why))


def words(cmd):
    lex = shlex.shlex(cmd, posix=True, punctuation_chars=True)
    lex.whitespace_split = True
    return list(lex)


for o in doc["offers"]:
    seen[o["provider"]] = seen.get(o["provider"], 0) + 1
    # An on-demand command exactly where there is an on-demand price
    # (issue 22: never one for what is not sold on demand).
    if o["price_hour"] is None and o["launch"]:
        problem(o, "launch", "an on-demand command with no on-demand price")
    if o["price_hour"] is not None and not o["launch"]:
        problem(o, "launch", "missing")
    if "not-on-demand" in o["notes"] and o["price_hour"] is not None:
        problem(o, "price_hour", "an on-demand price for what is not sold on demand")
    for field in ("launch", "launch_spot", "launch_vertex"):
        cmd = o[field]
        if cmd is None:
            continue
        commands += 1
        if any(ord(c) < 0x20 or 0x7f <= ord(c) < 0xa0 for c in cmd):
            problem(o, field, "control character")
        try:
            w = words(cmd)
        except ValueError as e:
            problem(o, field, "does not parse: %s" % e)
            continue
        # An operator outside quotes would end the command or start one.
        ops = [x for x in w if x and all(c in "();<>|&" for c in x)]
        if ops != OPS.get(o["provider"], []):
            problem(o, field, "shell operators %r" % ops)
        if w[0] != PROGRAM.get(o["provider"]):
            problem(o, field, "runs %r" % w[0])
        if subprocess.run(["sh", "-n", "-c", cmd]).returncode != 0:
            problem(o, field, "sh -n rejects it")
        # Issue 44: no region "all" (one price everywhere), "(sold out)"
        # or "unknown": REGION and the provider's list instead.
        if re.search(r"['\"](all|\(sold out\)|unknown)['\"]", cmd):
            problem(o, field, "names a region that is none")
        if "REGION" in cmd and "# REGION: one of " not in cmd:
            problem(o, field, "REGION without the list of regions")
        if HOSTILE:
            hits = [x for x in w if "DROP" in x]
            if hits:
                hostile_words += 1
            for x in hits:
                for h in HOSTILE:
                    x = x.replace(h, "")
                if "DROP" in x:
                    problem(o, field, "hostile text split: %r" % hits)
            if sum(x.count("DROP") for x in w) != cmd.count("DROP"):
                problem(o, field, "hostile text outside the words")
print("checked %d commands of %s; %d hold hostile text in one word; "
      "%d problems" % (commands, sorted(seen.items()), hostile_words, bad))
sys.exit(1 if bad else 0)
EOF

# --- The snapshot: every offer, every command. ---
run --db "$DB" --include-stale --format json --quiet
check "all offers as JSON: exit 0" status_is 0
cp "$T/out" "$T/all.json"
python3 "$T/words.py" "$T/all.json" > "$T/words.out" 2>&1
rc=$?
check "every snapshot command parses as shell words ($(tail -1 "$T/words.out"); $(head -3 "$T/words.out" | tr '\n' ' '))" [ "$rc" -eq 0 ]
# Offers with a launch command, per provider ("provider count" lines).
python3 -c 'import json,sys; d=json.load(open(sys.argv[1]))
for p in sys.argv[2:]: print(p, sum(1 for o in d["offers"] if o["provider"] == p and o["launch"]))' \
    "$T/all.json" aws gcp lambda runpod vast vultr > "$T/launch-counts"
while read -r p n; do
	check "$p: offers with a launch command ($n)" [ "$n" -gt 0 ]
done < "$T/launch-counts"
check "every provider counted" [ "$(wc -l < "$T/launch-counts")" -eq 6 ]

# --- The issue's GCP example. ---
jq_() { python3 -c 'import json,sys; o=json.load(open(sys.argv[1]))["offers"][0]; v=o[sys.argv[2]]; print("null" if v is None else v)' "$T/out" "$1"; }
run --db "$DB" --provider gcp --gpu H100 --count 2 --region us-central1 --format json --quiet
check "gcp H100 x2 us-central1: exit 0" status_is 0
check "gcp: a3-highgpu-2g" [ "$(jq_ instance_type)" = a3-highgpu-2g ]
# a3-highgpu-2g is sold only as Spot or through DWS: no on-demand price,
# no on-demand command, a note saying so (issue 22).
check "gcp: a3-highgpu-2g has no on-demand price" [ "$(jq_ price_hour)" = null ]
check "gcp: ... and no on-demand command" [ "$(jq_ launch)" = null ]
check "gcp: ... and says how it is sold" sh -c "echo \"\$1\" | grep -qF not-on-demand" _ "$(jq_ notes)"
check "gcp: spot launch names the machine type" sh -c "echo \"\$1\" | grep -qF -- \"--machine-type='a3-highgpu-2g'\"" _ "$(jq_ launch_spot)"
check "gcp: spot launch names a us-central1 zone" sh -c "echo \"\$1\" | grep -qE -- \"--zone='us-central1-[a-f]'\"" _ "$(jq_ launch_spot)"
check "gcp: no --accelerator for A3" sh -c "! echo \"\$1\" | grep -q -- --accelerator" _ "$(jq_ launch_spot)"
check "gcp: --maintenance-policy=TERMINATE" sh -c "echo \"\$1\" | grep -qF -- --maintenance-policy=TERMINATE" _ "$(jq_ launch_spot)"
check "gcp: spot with --provisioning-model=SPOT" sh -c "echo \"\$1\" | grep -qF -- --provisioning-model=SPOT" _ "$(jq_ launch_spot)"
check "gcp: zones listed" [ "$(jq_ zones)" = "us-central1-a us-central1-b us-central1-c" ]
check "gcp: quota names the H100 metric" sh -c "echo \"\$1\" | grep -q 'NVIDIA_H100_GPUS'" _ "$(jq_ quota)"
check "gcp: Vertex trains H100 in us-central1" [ "$(jq_ vertex_training)" = True ]
check "gcp: launch_vertex with NVIDIA_H100_80GB x 2" sh -c "echo \"\$1\" | grep -qF 'accelerator-type=NVIDIA_H100_80GB,accelerator-count=2'" _ "$(jq_ launch_vertex)"
check "gcp: launch_vertex in us-central1" sh -c "echo \"\$1\" | grep -qF -- \"--region='us-central1'\"" _ "$(jq_ launch_vertex)"

# --- The issue's AWS example. ---
run --db "$DB" --provider aws --region us-east-1 --format json --quiet
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); o=[o for o in d["offers"] if o["instance_type"] == "p4d.24xlarge"]; json.dump({"offers": o}, open(sys.argv[2], "w"))' "$T/out" "$T/p4d.json"
cp "$T/p4d.json" "$T/out"
check "aws p4d.24xlarge us-east-1: one offer" [ "$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["offers"]))' "$T/out")" = 1 ]
check "aws: launch is run-instances with the type" sh -c "echo \"\$1\" | grep -qF \"aws ec2 run-instances --region 'us-east-1' --instance-type 'p4d.24xlarge'\"" _ "$(jq_ launch)"
check "aws: launch is on demand" sh -c "! echo \"\$1\" | grep -q market" _ "$(jq_ launch)"
check "aws: launch_spot has spot market options" sh -c "echo \"\$1\" | grep -qF -- \"--instance-market-options 'MarketType=spot,\"" _ "$(jq_ launch_spot)"
check "aws: P-family quota codes" [ "$(jq_ quota)" = "on-demand=L-417A185B spot=L-7212CCBC" ]
check "aws: no Vertex" [ "$(jq_ vertex_training)" = null ]

# --- --vertex keeps offers Vertex AI trains on. ---
run --db "$DB" --vertex --format json --quiet
check "--vertex: exit 0" status_is 0
check "--vertex: only GCP offers Vertex trains on" python3 -c 'import json,sys; o=json.load(open(sys.argv[1]))["offers"]; sys.exit(not o or any(x["provider"] != "gcp" or x["vertex_training"] is not True or not x["launch_vertex"] for x in o))' "$T/out"
run --db "$DB" --vertex --provider aws
check "--vertex with AWS alone: no offer, exit 1" status_is 1

# --- Hostile provider text. ---
HX=$TOP_SRCDIR/tests/fixtures/hostile
LAMBDA_API_KEY=lambda-test-key
export LAMBDA_API_KEY
serve hostile "$HX"
for p in vast runpod vultr lambda akash; do
	export "$(url_var "$p")=$url"
done
run --db "$DB" refresh --provider vast,runpod,vultr,lambda,akash
check "refresh of hostile answers: exit 0" status_is 0
run --db "$DB" --provider vast,runpod,vultr,lambda,akash --format json --quiet
cp "$T/out" "$T/hostile.json"
# A region holds the hostile text with its shell marks made '_'
# (offer_region_char_ok()); a key or a type holds it whole.
region_form() { printf '%s' "$1" | tr -c 'A-Za-z0-9 ._,()/:-' '_'; }
python3 "$T/words.py" "$T/hostile.json" "'); DROP TABLE offers; --" \
    "Robert'); DROP TABLE offers;--" \
    "$(region_form "'); DROP TABLE offers; --")" \
    "$(region_form "Robert'); DROP TABLE offers;--")" > "$T/words.out" 2>&1
rc=$?
check "hostile text stays in one quoted word ($(tail -1 "$T/words.out"); $(head -3 "$T/words.out" | tr '\n' ' '))" [ "$rc" -eq 0 ]
check "hostile text reached a command of each of 3 providers" grep -q ' [3-9] hold hostile text' "$T/words.out"
for p in runpod vultr lambda; do
	check "$p: a command carries the hostile text" python3 -c 'import json,sys; o=json.load(open(sys.argv[1]))["offers"]; sys.exit(not any(x["provider"] == sys.argv[2] and "DROP TABLE" in (x["launch"] or "") for x in o))' "$T/hostile.json" "$p"
done
finish
