#!/usr/bin/env python3
"""Build gpucost's embedded price snapshot from public price catalogs.

Usage: tools/make-snapshot.py CATALOG_DIR > data/snapshot.tsv

CATALOG_DIR holds aws_gpu.csv, gcp_gpu.csv, gcp_host_vms.csv, lambda_gpu.csv,
runpod_gpu.csv, vast_gpu.csv, azure_gpu.csv, oci_gpu.csv and vultr/gpuhunt_test_vultr_fixture.json (the
SkyPilot-schema catalogs described in data/README.md).  The GPU catalogue is read
from data/gpus.tsv next to this script; every offer's GPU must resolve there.
Retired sizes and providers (data/retired.tsv) get no row.

Python 3 standard library only.  Output is deterministic: rows sorted by
provider then key, prices copied as the source's decimal strings (GCP sums are
exact decimal arithmetic).  Counts and skipped rows are reported on stderr.
Every normalisation choice made here is documented in data/README.md.
"""

import ast
import collections
import csv
import json
import os
import re
import sys
from decimal import Decimal, ROUND_HALF_EVEN

HEADER = ("provider", "key", "instance_type", "region", "gpu", "gpu_raw", "gpu_count",
          "vram_gb", "interconnect", "vcpus", "ram_gb", "price", "spot_price",
          "availability", "as_of", "notes", "spot_zone", "committed")
# Notes the sources themselves justify (the token table is src/notes.h); gpucost
# adds price-outlier and spot-not-cheaper itself when it loads the snapshot.
NOTES = ("spot-cheapest-zone", "host-estimated", "low-confidence", "single-listing",
         "not-on-demand", "doubtful-price", "interruptible")
GPUS_HEADER = ("id", "family", "vendor", "vram_gb", "arch", "bf16_tflops",
               "bf16_tflops_pcie", "aliases", "form")

# Date of each source (YYYY-MM-DD) and the short source named in the header.
SOURCES = {
    "aws": ("2026-06-03", "skypilot-org/skypilot-catalog catalogs/v9/aws/vms.csv @2c3d7ea7 (undated; "
                          "on or after 2026-06-03, see data/README.md)"),
    "gcp": ("2026-07-30", "Cyclenerd/google-cloud-pricing-cost-calculator pricing.yml @fd66b26f "
                          "(Google's whole-machine list: a2, a3-highgpu/megagpu, g2, g4); other "
                          "machines from anycloud-sh/catalog gcp/vms.csv @62ff0a98 of 2026-05-20 "
                          "(host row + GPU row)"),
    "lambda": ("2026-06-03", "skypilot-org/skypilot-catalog catalogs/v9/lambda/vms.csv @2c3d7ea7 "
                             "(one offer per type in region all, see data/README.md)"),
    "runpod": ("2026-02-12", "skypilot-org/skypilot-catalog catalogs/v8/runpod/vms.csv @01acdfd4 "
                             "(undated; lower bound, see data/README.md)"),
    "vast": ("2026-05-20", "anycloud-sh/catalog vast/vms.csv @3e4e408c (marketplace listings: "
                           "market references, hidden by default; rows carried over from "
                           "@336ccee4 dated 2026-04-29)"),
    "oci": ("2026-09-18", "skypilot-org/skypilot-catalog catalogs/v8/oci/vms.csv @05887511 "
                          "(one offer per shape in region all)"),
    "azure": ("2026-05-20", "SkyPilot-schema Azure catalog azure_gpu.csv (every GPU size and region, "
                            "dated 2026-05-20; GPUs from the adapter's azure_skus[])"),
    "vultr": ("2025-01-08", "dstackai/gpuhunt src/tests/providers/test_vultr.py blob be1e6faf "
                            "(test fixture, medium confidence) + unattributed rows (low confidence)"),
}

# GPU form factor, used for the interconnect column when the provider says nothing.
# It comes from the "form" column of data/gpus.tsv (the same rule gpucost's live
# adapters use, src/provider.c provider_interconnect()):
#   sxm         SXM/HGX-only board (NVLink/NVSwitch)          -> nvlink
#   pcie        PCIe card without any NVLink capability       -> pcie
#   pcie-bridge PCIe card, an NVLink bridge is optional       -> pcie for 1 GPU, else unknown
#   both        sold as SXM and as PCIe under the same id     -> unknown
#   superchip   Grace Hopper module                           -> unknown
#   oam         AMD OAM module (Infinity Fabric, not NVLink)  -> unknown
FORM = {}

# Host figures per GPU beyond any real machine (src/offer.h OFFER_HOST_*_PER_GPU_MAX,
# the reasons in data/README.md): dropped to unknown, never printed as facts.
HOST_VCPUS_PER_GPU_MAX = 256
HOST_RAM_GB_PER_GPU_MAX = 1024


def retired_sizes():
    """data/retired.tsv: (provider, instance_type or '*') -> retirement date."""
    here = os.path.dirname(os.path.abspath(__file__))
    out = {}
    with open(os.path.join(here, "..", "data", "retired.tsv"), encoding="utf-8") as f:
        lines = [l.rstrip("\n") for l in f if l.strip() and not l.startswith("#")]
    if lines[0].split("\t") != ["provider", "instance_type", "retired", "source"]:
        die("data/retired.tsv: bad header")
    for ln in lines[1:]:
        prov, it, date, _src = ln.split("\t")
        out[(prov, it.lower())] = date
    return out


RETIRED = {}


def retired(provider, it):
    return (provider, "*") in RETIRED or (provider, it.lower()) in RETIRED


def warn(msg):
    print("make-snapshot: " + msg, file=sys.stderr)


def die(msg):
    warn("error: " + msg)
    sys.exit(1)


# ---------------------------------------------------------------------------
# GPU catalogue and name resolution

# These must equal gpu_normalise() and gpu_resolve() in src/gpu.c (and the copy of
# the normaliser in tools/gen-gpu-table.sh).
_PREFIXES = ("nvidia", "amd", "tesla", "geforce", "radeon", "quadro")
_FORM_WORDS = ("pcie", "sxm6", "sxm5", "sxm4", "sxm3", "sxm2", "sxm", "hbm3")


def normalise(s):
    """The matching key of a GPU spelling: lowercase, [a-z0-9] only, leading
    vendor/brand words dropped (repeatedly), trailing "gb" after a digit dropped."""
    n = re.sub(r"[^a-z0-9]", "", s.lower())
    changed = True
    while changed:
        changed = False
        for p in _PREFIXES:
            if n.startswith(p) and len(n) > len(p):
                n = n[len(p):]
                changed = True
    if re.search(r"[0-9]gb$", n):
        n = n[:-2]
    return n


class Catalogue:
    def __init__(self, path):
        self.gpus = {}            # id -> dict
        self.alias = {}           # normalised spelling -> id
        self.family = collections.defaultdict(list)   # normalised family -> [ids]
        with open(path, encoding="utf-8") as f:
            lines = [l.rstrip("\n") for l in f if not l.startswith("#") and l.strip()]
        if tuple(lines[0].split("\t")) != GPUS_HEADER:
            die("%s: bad header %r" % (path, lines[0]))
        for ln in lines[1:]:
            cols = ln.split("\t")
            if len(cols) != len(GPUS_HEADER):
                die("%s: %d columns in %r" % (path, len(cols), ln))
            g = dict(zip(GPUS_HEADER, cols))
            if g["id"] in self.gpus:
                die("duplicate gpu id " + g["id"])
            if g["vendor"] not in ("nvidia", "amd"):
                die("bad vendor for " + g["id"])
            g["vram"] = int(g["vram_gb"])
            for col in ("bf16_tflops", "bf16_tflops_pcie"):
                if g[col]:
                    Decimal(g[col])
            self.gpus[g["id"]] = g
            self.family[normalise(g["family"])].append(g["id"])
            # "" in gpus.tsv: both forms, an AMD OAM module or a superchip.
            FORM[g["id"]] = {"sxm": "sxm", "pcie": "pcie", "bridge": "pcie-bridge"}.get(
                g["form"], "oam" if g["vendor"] == "amd" else
                "superchip" if g["id"].startswith("GH") else "both")
        self.check_aliases()

    def spellings(self, gid):
        g = self.gpus[gid]
        return [gid] + [a for a in g["aliases"].split("|") if a]

    def check_aliases(self):
        """No normalised spelling may name two ids, and no model's spelling may equal
        the name of a family with several members (resolving those is the family's job:
        an alias would shadow it)."""
        bad, seen = [], {}
        for gid in self.gpus:
            for sp in self.spellings(gid):
                n = normalise(sp)
                if len(n) >= 64:
                    bad.append("%r (%s) is too long" % (sp, gid))
                if n in seen and seen[n][0] != gid:
                    bad.append("%r (%s) and %r (%s) both normalise to %r" % (
                        seen[n][1], seen[n][0], sp, gid, n))
                seen.setdefault(n, (gid, sp))
                fam = self.family.get(n)
                if fam and len(fam) > 1:
                    bad.append("%r (%s) equals the family name of %s" % (sp, gid, fam))
        if bad:
            die("alias check failed:\n  " + "\n  ".join(bad))
        self.alias = {k: v[0] for k, v in seen.items()}

    def lookup(self, raw):
        """Exact (normalised) alias match, or None."""
        return self.alias.get(normalise(raw))

    def _family(self, norm, vram_gb, nearest):
        members = self.family.get(norm)
        if not members:
            return None
        if len(members) == 1:
            return members[0]
        if vram_gb is None:
            return None
        best = None
        for m in members:
            diff = abs(self.gpus[m]["vram"] - vram_gb)
            if not nearest and diff * 100 > self.gpus[m]["vram"] * 7:
                continue
            if best is None or diff < best[0]:
                best = (diff, m)
        return best[1] if best else None

    def resolve(self, raw, vram_gb, nearest=False):
        """As gpu_resolve() in src/gpu.c: an alias; else a family name plus the VRAM
        hint (the member within 7 %; nearest=True takes the nearest member); else the
        same after dropping one trailing form-factor word ("A100 SXM4" -> "A100")."""
        norm = normalise(raw)
        if not norm:
            return None
        gid = self.alias.get(norm)
        if gid:
            return gid
        if norm in self.family:
            return self._family(norm, vram_gb, nearest)
        for w in _FORM_WORDS:
            if len(norm) > len(w) and norm.endswith(w):
                norm = norm[:-len(w)]
                return self.alias.get(norm) or self._family(norm, vram_gb, nearest)
        return None

    def pick(self, candidates, vram_gib, where):
        """candidates: provider spellings, most authoritative first.  Returns (id, raw).
        The id comes from the first candidate that resolves (an alias, or a family name,
        possibly with a form-factor word, plus the VRAM hint); gpu_raw is the most specific (longest normalised)
        candidate that is an alias of that id, else the family name that chose it."""
        cands = [c for c in candidates if c]
        gid, via = None, None
        for c in cands:
            gid = self.resolve(c, vram_gib, nearest=True)
            if gid:
                via = c
                break
        if not gid:
            return None, (cands[0] if cands else "")
        for c in cands:
            other = self.lookup(c)
            if other and other != gid:
                warn("%s: %r names %s but %r names %s; using %s" % (where, via, gid, c, other, gid))
        same = [c for c in cands if self.lookup(c) == gid]
        if same:
            return gid, max(same, key=lambda c: (len(normalise(c)), -cands.index(c)))
        return gid, via


# ---------------------------------------------------------------------------
# helpers

def dec(s):
    """Decimal of a price string, or None when empty."""
    s = (s or "").strip()
    return Decimal(s) if s else None


def dstr(d):
    """Decimal to a plain string (no exponent), as given."""
    return format(d, "f")


def num(s):
    """'64.0' -> '64'; '0.50' -> '0.5' (for vCPU / RAM columns)."""
    d = Decimal(str(s).strip())
    if d == d.to_integral_value():
        return str(int(d))
    return dstr(d.normalize())


def mib_to_gib(mib):
    return float(mib) / 1024.0


def gpuinfo(s):
    """SkyPilot's GpuInfo column: a Python dict literal (or a bare name for TPUs)."""
    s = (s or "").strip()
    if not s.startswith("{"):
        return None
    return ast.literal_eval(s)


def read_csv(path):
    with open(path, newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def form_interconnect(gid, count):
    form = FORM.get(gid)
    if form is None:
        die("no form factor known for " + gid)
    if form == "sxm":
        return "nvlink"
    if form == "pcie":
        return "pcie"
    if form == "pcie-bridge":
        return "pcie" if count == 1 else "unknown"
    return "unknown"


class Out:
    def __init__(self, cat):
        self.cat = cat
        self.rows = []
        self.keys = set()
        self.notes = collections.defaultdict(list)   # (provider, key) -> comment lines
        self.skipped = collections.Counter()          # (provider, reason) -> source rows
        self.vram_warned = set()
        self.host_dropped = collections.Counter()     # (provider, why) -> rows
        self.relabelled = collections.Counter()       # (provider, what) -> rows

    def add(self, provider, key, itype, region, gid, raw, count, vram_gib, inter,
            vcpus, ram, price, spot, note=None, notes=(), spot_zone="", vram_gb=None,
            as_of=None, committed=()):
        """vram_gb: the provider's own per-GPU figure, when it states one exactly
        (else the catalogue's).  notes: tokens of NOTES.  committed: (kind, term,
        upfront, price_hour[, upfront_usd]) tuples of decimal strings, as
        src/committed.h names them (see committed_cell())."""
        if (provider, key) in self.keys:
            die("duplicate key %s %s" % (provider, key))
        for val, limit, what in ((key, 128, "key"), (itype, 64, "instance_type"),
                                 (region, 64, "region"), (raw, 64, "gpu_raw"),
                                 (gid, 24, "gpu")):
            if not val or len(val.encode("utf-8")) >= limit:
                die("%s %s: %s empty or too long for the loader" % (provider, key, what))
        g = self.cat.gpus[gid]
        if self.cat.resolve(raw, g["vram"]) != gid:
            die("%s %s: gpu_raw %r does not resolve to %s" % (provider, key, raw, gid))
        if vram_gib is not None and abs(vram_gib - g["vram"]) > 0.12 * g["vram"]:
            if (provider, gid) not in self.vram_warned:
                warn("%s %s: source VRAM %.1f GiB vs catalogue %d GB for %s" % (
                    provider, key, vram_gib, g["vram"], gid))
                self.vram_warned.add((provider, gid))
        if not isinstance(count, int) or count < 1:
            die("%s %s: bad gpu_count %r" % (provider, key, count))
        for p in (price, spot):
            if p is not None and not (Decimal(0) < Decimal(p) < Decimal(1000)):
                die("%s %s: implausible price %s" % (provider, key, p))
        if price is None and spot is None and "not-on-demand" not in notes:
            die("%s %s: no price at all" % (provider, key))
        if price is not None and "not-on-demand" in notes:
            die("%s %s: an on-demand price for what is not sold on demand" % (provider, key))
        vcpus, ram = self.host_bounds(provider, key, count, vcpus, ram)
        for n in notes:
            if n not in NOTES:
                die("%s %s: unknown note %r" % (provider, key, n))
        if spot_zone and spot is None:
            die("%s %s: a spot zone without a spot price" % (provider, key))
        self.keys.add((provider, key))
        self.rows.append((provider, key, itype, region, gid, raw, str(count),
                          str(vram_gb or g["vram"]), inter, vcpus, ram, price or "", spot or "",
                          "unknown", as_of or SOURCES[provider][0],
                          ";".join(n for n in NOTES if n in notes), spot_zone,
                          committed_cell(provider, key, committed, price)))
        if note:
            self.notes[(provider, key)].append(note)

    def host_bounds(self, provider, key, count, vcpus, ram):
        """Host figures beyond any real machine are dropped to unknown (the
        bounds of src/offer.h, OFFER_HOST_*_PER_GPU_MAX; see data/README.md)."""
        if vcpus and Decimal(vcpus) > HOST_VCPUS_PER_GPU_MAX * count:
            self.host_dropped[(provider, "vCPUs per GPU above %d" % HOST_VCPUS_PER_GPU_MAX)] += 1
            vcpus = ""
        if ram and Decimal(ram) > HOST_RAM_GB_PER_GPU_MAX * count:
            self.host_dropped[(provider, "RAM per GPU above %d GB" % HOST_RAM_GB_PER_GPU_MAX)] += 1
            ram = ""
        return vcpus, ram

    def write(self, f):
        f.write("# gpucost price snapshot: normalised GPU offers from public price catalogs.\n")
        f.write("# Generated by: python3 tools/make-snapshot.py CATALOG_DIR > data/snapshot.tsv"
                " (CATALOG_DIR = the catalogs folder described in data/README.md). Do not edit.\n")
        for p in sorted(SOURCES):
            f.write("# source %s %s %s\n" % (p, SOURCES[p][0], SOURCES[p][1]))
        f.write("# Prices: USD per instance-hour as the source's decimal string; empty = not published.\n")
        f.write("# availability: catalogs carry no stock information, so every row is 'unknown'.\n")
        f.write("# vultr: thin, old data (2 bare-metal and 1 cloud-GPU plan from a 2025-01-08 test fixture,\n")
        f.write("#   plus 3 unattributed plans marked below); low confidence overall.\n")
        f.write("\t".join(HEADER) + "\n")
        for row in sorted(self.rows, key=lambda r: (r[0], r[1])):
            for n in self.notes.get((row[0], row[1]), []):
                f.write("# " + n + "\n")
            for cell in row:
                if "\t" in cell or "\n" in cell:
                    die("tab/newline in cell %r" % cell)
            f.write("\t".join(row) + "\n")


COMMITTED_KINDS = ("reservation", "savings-plan", "commitment")
COMMITTED_UPFRONTS = ("none", "partial", "all")
# At most src/committed.h OFFER_COMMITTED_MAX entries an offer.
OFFER_COMMITTED_MAX = 8


def committed_cell(provider, key, entries, price):
    """The committed column: "kind:term:upfront:price_hour[:upfront_usd]"
    joined with ';' (src/snapshot.c field_committed() reads it).  price_hour
    is the effective USD per instance-hour of the whole term (committed.h);
    none may be zero, absurd, or at or above the on-demand price."""
    if len(entries) > OFFER_COMMITTED_MAX:
        die("%s %s: %d committed prices, at most %d" % (provider, key, len(entries),
                                                          OFFER_COMMITTED_MAX))
    cells = []
    for e in entries:
        kind, term, upfront, hour = e[:4]
        if (kind not in COMMITTED_KINDS or upfront not in COMMITTED_UPFRONTS or
                not re.match(r"^[1-9][0-9]*[my]$", term) or len(e) > 5):
            die("%s %s: bad committed price %r" % (provider, key, e))
        if not Decimal(0) < Decimal(hour) < Decimal(1000):
            die("%s %s: implausible committed price %s" % (provider, key, hour))
        if price is not None and Decimal(hour) >= Decimal(price):
            die("%s %s: a committed price %s not below on-demand %s" % (
                provider, key, hour, price))
        cells.append(":".join(e))
    return ";".join(cells)


def money6(d):
    """A Decimal rounded to the micro-USD the loader keeps, as a plain
    string without trailing zeros (88.4899999025753 -> 88.49)."""
    q = d.quantize(Decimal("0.000001"), rounding=ROUND_HALF_EVEN)
    return dstr(q.normalize()) if q != q.to_integral_value() else str(int(q))


def min_price(pairs):
    """pairs: [(Decimal, original string, tiebreak)] -> original string of the minimum."""
    pairs = [p for p in pairs if p[0] is not None]
    if not pairs:
        return None
    return min(pairs, key=lambda p: (p[0], p[2]))[1]


# ---------------------------------------------------------------------------
# AWS

# Sold only as EC2 Capacity Blocks for ML (and spot), never on demand: the
# catalog has no on-demand price for it in any region (gpuhunt's notes agree).
AWS_CAPACITY_BLOCK_ONLY = ("p5e.48xlarge",)

AWS_NVLINK_FAMILIES = ("p3dn", "p4d", "p4de", "p5", "p5e", "p5en", "p6-b200", "p6-b300")


def aws(cat, out, d):
    rows = read_csv(os.path.join(d, "aws_gpu.csv"))
    groups = collections.OrderedDict()
    for r in rows:
        if retired("aws", r["InstanceType"]):
            out.skipped[("aws", "retired size (data/retired.tsv): " + r["InstanceType"])] += 1
            continue
        count = Decimal(r["AcceleratorCount"])
        if count != count.to_integral_value() or count < 1:
            out.skipped[("aws", "fractional GPU (g6f/gr6f slice)")] += 1
            continue
        groups.setdefault((r["InstanceType"], r["Region"]), []).append(r)
    for (it, region), rs in groups.items():
        r0 = rs[0]
        for r in rs[1:]:
            for col in ("AcceleratorName", "AcceleratorCount", "vCPUs", "MemoryGiB", "GpuInfo"):
                if r[col] != r0[col]:
                    die("aws %s %s: %s differs between zones" % (it, region, col))
        ods = {dec(r["Price"]) for r in rs if dec(r["Price"]) is not None}
        if len(ods) > 1:
            warn("aws %s %s: on-demand differs between zones %s; taking the minimum" % (
                it, region, sorted(ods)))
        price = min_price([(dec(r["Price"]), r["Price"].strip(), r["AvailabilityZone"]) for r in rs])
        spots = [(dec(r["SpotPrice"]), r["SpotPrice"].strip(), r["AvailabilityZone"])
                 for r in rs if dec(r["SpotPrice"]) is not None]
        spot = min_price(spots)
        # The region's spot price is its cheapest zone: a best case when the
        # zones differ.  Name that zone.
        notes, spot_zone = (), ""
        if len({p[0] for p in spots}) > 1:
            notes = ("spot-cheapest-zone",)
            spot_zone = min(spots, key=lambda p: (p[0], p[2]))[2]
        # Capacity that AWS sells only as EC2 Capacity Blocks (and spot) is
        # shown with no on-demand price and says so; even a region with
        # neither price is kept, as that is how it is sold.
        if it in AWS_CAPACITY_BLOCK_ONLY:
            if price is not None:
                die("aws %s %s: an on-demand price for a capacity-block type" % (it, region))
            notes = notes + ("not-on-demand",)
            out.relabelled[("aws", "not-on-demand (capacity blocks): " + it)] += 1
        elif price is None and spot is None:
            out.skipped[("aws", "region with neither on-demand nor spot price")] += len(rs)
            continue
        info = gpuinfo(r0["GpuInfo"])
        g = info["Gpus"][0]
        count = int(Decimal(r0["AcceleratorCount"]))
        vram = mib_to_gib(g["MemoryInfo"]["SizeInMiB"])
        gid, raw = cat.pick([g.get("Name"), r0["AcceleratorName"]], vram, "aws " + it)
        if not gid:
            die("aws %s: cannot map GPU %r / %r" % (it, g.get("Name"), r0["AcceleratorName"]))
        fam = it.split(".")[0]
        if fam == "p3":
            inter = "nvlink"   # V100 SXM2 boards; p3.8x/16x have NVLink, p3.2xlarge one SXM2 GPU
        elif fam in AWS_NVLINK_FAMILIES:
            inter = "nvlink"
        elif fam.startswith("g"):
            inter = "pcie"
        else:
            die("aws: no interconnect rule for family " + fam)
        out.add("aws", "%s/%s" % (it, region), it, region, gid, raw, count, vram, inter,
                num(r0["vCPUs"]), num(r0["MemoryGiB"]), price, spot, notes=notes,
                spot_zone=spot_zone)


# ---------------------------------------------------------------------------
# GCP

G2_L4 = {4: 1, 8: 1, 12: 1, 16: 1, 24: 2, 32: 1, 48: 4, 96: 8}
# The date of anycloud-sh/catalog gcp/vms.csv, for the machines Google's
# whole-machine list leaves out (N1 + GPUs, a3-edgegpu, a3-ultragpu, a4).
GCP_CATALOG_DATE = "2026-05-20"


def gcp_machine_gpu(it):
    """Machine type -> (catalog AcceleratorName, count), from the machine's name."""
    m = re.match(r"^a2-(highgpu|megagpu|ultragpu)-(\d+)g$", it)
    if m:
        return ("A100-80GB" if m.group(1) == "ultragpu" else "A100"), int(m.group(2))
    m = re.match(r"^a3-(highgpu|edgegpu|megagpu|ultragpu)-(\d+)g(-nolssd)?$", it)
    if m:
        kind = m.group(1)
        name = {"highgpu": "H100", "edgegpu": "H100", "megagpu": "H100-MEGA",
                "ultragpu": "H200"}[kind]
        return name, int(m.group(2))
    m = re.match(r"^a4-highgpu-(\d+)g$", it)
    if m:
        return "B200", int(m.group(1))
    m = re.match(r"^g2-standard-(\d+)$", it)
    if m:
        k = int(m.group(1))
        if k not in G2_L4:
            die("gcp: unknown g2 shape " + it)
        return "L4", G2_L4[k]
    return None, None


# N1 machines with attached GPUs, named and shaped as the live adapter
# (src/provider/gcp.c machines[]) names them: "<n1 host>+<N>x<GPU>".
GCP_N1 = (
    ("n1-standard-8", "T4", 1), ("n1-standard-16", "T4", 2), ("n1-standard-32", "T4", 4),
    ("n1-standard-8", "V100", 1), ("n1-highmem-16", "V100", 2), ("n1-highmem-32", "V100", 4),
    ("n1-highmem-64", "V100", 8),
    ("n1-standard-8", "P100", 1), ("n1-highmem-16", "P100", 2), ("n1-highmem-32", "P100", 4),
    ("n1-standard-8", "P4", 1), ("n1-standard-16", "P4", 2), ("n1-standard-32", "P4", 4),
)


def gcp_machines(it):
    """Host machine type -> [(offer instance type, catalog AcceleratorName, count)]."""
    if it.startswith("n1-"):
        return [("%s+%dx%s" % (it, n, name), name, n) for host, name, n in GCP_N1 if host == it]
    name, count = gcp_machine_gpu(it)
    return [(it, name, count)] if name is not None else None


# Machine types Google sells only as Spot or through DWS (Flex-start,
# Calendar mode) and reservations, never on demand (gpuhunt filters their
# on-demand rows; src/provider/gcp.c machines[] .spot_only says the same).
GCP_SPOT_ONLY_RE = re.compile(
    r"^(a3-highgpu-[124]g|a3-ultragpu-\d+g(-nolssd)?|a4-highgpu-\d+g|a4x-highgpu-\d+g)$")

# A GPU row's on-demand price is not pay-as-you-go when it is not above its own
# spot price, or below GCP_PAYG_MIN of the reference: the median of the dearer
# half of the same GPU row's (model, count) prices over every region.  Committed-
# use rates sit at 0.33-0.55 of that reference in the catalog; real regional
# prices at 0.81 or more (L4, T4: their cheapest regions), so 0.6 separates them.
GCP_PAYG_MIN = Decimal("0.6")


def gcp_doubtful_rows(gpus):
    """Keys (AcceleratorName, count, zone) of the GPU rows whose on-demand price
    cannot be a pay-as-you-go price, and why."""
    by_model = collections.defaultdict(dict)      # (name, count) -> region -> price
    for r in gpus:
        p = dec(r["Price"])
        if p is not None:
            k = (r["AcceleratorName"], int(Decimal(r["AcceleratorCount"])))
            by_model[k][r["Region"]] = min(p, by_model[k].get(r["Region"], p))
    ref = {}
    for k, regions in by_model.items():
        ps = sorted(regions.values())
        upper = ps[len(ps) // 2:]
        n = len(upper)
        ref[k] = upper[n // 2] if n % 2 else (upper[n // 2 - 1] + upper[n // 2]) / 2
    bad = {}
    for r in gpus:
        p, sp = dec(r["Price"]), dec(r["SpotPrice"])
        if p is None:
            continue
        k = (r["AcceleratorName"], int(Decimal(r["AcceleratorCount"])))
        if sp is not None and p <= sp:
            bad[k + (r["AvailabilityZone"],)] = "not above its own spot price"
        elif p < GCP_PAYG_MIN * ref[k]:
            bad[k + (r["AvailabilityZone"],)] = "below %s of the dearer regions' median" % GCP_PAYG_MIN
    return bad


# Google's whole-machine list (gcp_gpu_pricing.csv): its gpu_key -> the GPU
# name the snapshot has always given these machines (the SkyPilot catalog's
# AcceleratorName; G4's is Google's product name) and the VRAM that picks the
# family member.
GCP_LIST_GPUS = {
    "a100": ("A100", 40), "a100-80gb": ("A100-80GB", 80), "h100-80gb": ("H100", 80),
    "h100-80gb-mega": ("H100-MEGA", 80), "l4": ("L4", 24), "rtx6000": ("RTX PRO 6000", 96),
}
GCP_LIST_DATE = "2026-07-30"
GCP_HOURS_PER_MONTH = Decimal(730)


def gcp_list(cat, out, d):
    """The machines of Google's whole-machine list, one row per machine and
    region: `hour` is the pay-as-you-go price, `hour_spot` the spot price,
    month_1y / month_3y the 1- and 3-year committed-use price of a month of
    730 hours (Google's convention), each as the list computes it from
    Google's SKUs.  Returns the machine types it covers (the catalog's rows
    of those types are not used)."""
    rows = read_csv(os.path.join(d, "gcp_gpu_pricing.csv"))
    covered = set()
    for r in rows:
        it, region = r["instance_type"], r["region"]
        covered.add(it)
        count = Decimal(r["gpu_count"])
        if count != count.to_integral_value():
            out.skipped[("gcp", "fraction of a GPU (G4 vGPU slice)")] += 1
            continue
        count = int(count)
        if r["gpu_key"] not in GCP_LIST_GPUS:
            die("gcp list: unknown gpu_key %r" % r["gpu_key"])
        raw, vram = GCP_LIST_GPUS[r["gpu_key"]]
        gid, raw = cat.pick([raw], vram, "gcp " + it)
        if not gid:
            die("gcp list %s: cannot map GPU %r" % (it, raw))
        price, spot = dec(r["hour"]), dec(r["hour_spot"])
        price = money6(price) if price else None
        spot = money6(spot) if spot else None
        committed = []
        for term, col in (("1y", "month_1y"), ("3y", "month_3y")):
            m = dec(r[col])
            if m:
                committed.append(("commitment", term, "none", money6(m / GCP_HOURS_PER_MONTH)))
        notes = ()
        if GCP_SPOT_ONLY_RE.match(it):
            # Sold only as Spot or Flex-start: the list computes an on-demand
            # price from the SKUs, but Google sells none, and no commitment
            # can be used for it either.
            out.relabelled[("gcp", "list's on-demand and committed prices removed: "
                            "spot/Flex-start-only type")] += 1
            price, committed, notes = None, [], ("not-on-demand",)
        if price is None and spot is None and not notes:
            out.skipped[("gcp", "list row without a price")] += 1
            continue
        inter = "pcie" if it.startswith(("g2-", "g4-")) else "nvlink"
        out.add("gcp", "%s/%s" % (it, region), it, region, gid, raw, count, vram, inter,
                num(r["vcpus"]), num(r["ram_gb"]), price, spot, notes=notes,
                as_of=GCP_LIST_DATE, committed=committed)
    return covered


def gcp(cat, out, d):
    covered = gcp_list(cat, out, d)
    hosts = read_csv(os.path.join(d, "gcp_host_vms.csv"))
    gpus = [r for r in read_csv(os.path.join(d, "gcp_gpu.csv")) if not r["InstanceType"]]
    gpu_rows = {}
    for r in gpus:
        gpu_rows[(r["AcceleratorName"], int(Decimal(r["AcceleratorCount"])),
                  r["AvailabilityZone"])] = r
    doubtful = gcp_doubtful_rows(gpus)
    for why in doubtful.values():
        out.relabelled[("gcp", "GPU rows refused as not PAYG (%s)" % why)] += 1
    by_region = collections.OrderedDict()
    shapes = {}
    for h in hosts:
        it = h["InstanceType"]
        if it in covered:
            out.skipped[("gcp", "host row of a machine in Google's whole-machine list")] += 1
            continue
        machines = gcp_machines(it)
        if machines is None:
            out.skipped[("gcp", "host machine without a GPU rule")] += 1
            warn("gcp: no GPU rule for " + it)
            continue
        if not machines:
            out.skipped[("gcp", "n1 host shape no GPU machine uses")] += 1
            continue
        for name_it, name, count in machines:
            shapes[name_it] = (name, count)
            g = gpu_rows.get((name, count, h["AvailabilityZone"]))
            if g is None:
                why = ("n1 host zone without that GPU" if it.startswith("n1-")
                       else "host zone without a matching GPU row")
                out.skipped[("gcp", why)] += 1
                continue
            by_region.setdefault((name_it, h["Region"]), []).append((h, g))
    for (it, region), pairs in by_region.items():
        h0, g0 = pairs[0]
        spot_only = GCP_SPOT_ONLY_RE.match(it) is not None
        ods, spots, refused = [], [], 0
        for h, g in pairs:
            hp, gp = dec(h["Price"]), dec(g["Price"])
            gkey = (g["AcceleratorName"], int(Decimal(g["AcceleratorCount"])),
                    g["AvailabilityZone"])
            if hp is not None and gp is not None and gkey in doubtful:
                refused += 1
            elif hp is not None and gp is not None:
                s = hp + gp
                ods.append((s, dstr(s), h["AvailabilityZone"]))
            hs, gs = dec(h["SpotPrice"]), dec(g["SpotPrice"])
            if hs is not None and gs is not None:
                s = hs + gs
                spots.append((s, dstr(s), h["AvailabilityZone"]))
        price, spot = min_price(ods), min_price(spots)
        notes = ()
        if spot_only:
            # Sold only as Spot or via DWS/reservations: no on-demand price,
            # kept (even with no spot price) and noted how it is sold.
            if price is not None or refused:
                out.relabelled[("gcp", "on-demand price removed: spot/DWS-only type")] += 1
            price, notes = None, ("not-on-demand",)
        elif price is None and refused:
            if spot is None:
                out.skipped[("gcp", "only a non-PAYG on-demand price and no spot price")] += 1
                continue
            notes = ("doubtful-price",)
            out.relabelled[("gcp", "doubtful-price: on-demand refused, spot kept")] += 1
        elif refused:
            out.relabelled[("gcp", "a zone's non-PAYG price passed over for another zone's")] += 1
        if price is None and spot is None and not notes:
            out.skipped[("gcp", "neither on-demand nor spot composable")] += len(pairs)
            continue
        name, count = shapes[it]
        info = gpuinfo(g0["GpuInfo"])
        vram = mib_to_gib(info["Gpus"][0]["MemoryInfo"]["SizeInMiB"])
        gid, raw = cat.pick([g0["AcceleratorName"]], vram, "gcp " + it)
        if not gid:
            die("gcp %s: cannot map GPU %r" % (it, g0["AcceleratorName"]))
        # N1 GPUs are attached PCIe devices, but V100s are SXM2 boards on an
        # NVLink ring (Google's GPU table), as the live adapter says.
        if it.startswith("n1-") and name == "V100":
            inter = "nvlink"
        elif it.startswith(("g2-", "n1-")):
            inter = "pcie"
        else:
            inter = "nvlink"
        out.add("gcp", "%s/%s" % (it, region), it, region, gid, raw, count, vram, inter,
                num(h0["vCPUs"]), num(h0["MemoryGiB"]), price, spot, notes=notes,
                as_of=GCP_CATALOG_DATE)


# ---------------------------------------------------------------------------
# Lambda

# The catalog has no description; Lambda's API describes each type as below
# ("8x A100 (40 GB SXM4)"), and the form word in the parentheses is the link:
# SXMn -> nvlink, PCIe -> pcie, none -> decided by the card.  Sources:
# Lambda's instance-types answers and docs (see data/README.md).
LAMBDA_DESCRIPTIONS = {
    "gpu_1x_a10": "1x A10 (24 GB PCIe)",
    "gpu_1x_a100": "1x A100 (40 GB PCIe)",
    "gpu_1x_a100_sxm4": "1x A100 (40 GB SXM4)",
    "gpu_2x_a100": "2x A100 (40 GB PCIe)",
    "gpu_4x_a100": "4x A100 (40 GB PCIe)",
    "gpu_8x_a100": "8x A100 (40 GB SXM4)",
    "gpu_8x_a100_80gb_sxm4": "8x A100 (80 GB SXM4)",
    "gpu_1x_a6000": "1x A6000 (48 GB)",
    "gpu_2x_a6000": "2x A6000 (48 GB)",
    "gpu_4x_a6000": "4x A6000 (48 GB)",
    "gpu_1x_rtx6000": "1x RTX 6000 (24 GB)",
    "gpu_1x_gh200": "1x GH200 (96 GB)",
    "gpu_1x_h100_pcie": "1x H100 (80 GB PCIe)",
    "gpu_1x_h100_sxm5": "1x H100 (80 GB SXM5)",
    "gpu_2x_h100_sxm5": "2x H100 (80 GB SXM5)",
    "gpu_4x_h100_sxm5": "4x H100 (80 GB SXM5)",
    "gpu_8x_h100_sxm5": "8x H100 (80 GB SXM5)",
    "gpu_1x_b200_sxm6": "1x B200 (180 GB SXM6)",
    "gpu_2x_b200_sxm6": "2x B200 (180 GB SXM6)",
    "gpu_4x_b200_sxm6": "4x B200 (180 GB SXM6)",
    "gpu_8x_b200_sxm6": "8x B200 (180 GB SXM6)",
    "gpu_8x_v100": "8x Tesla V100 (16 GB)",
    "gpu_8x_v100_n": "8x Tesla V100 (16 GB)",
}


def lambda_link(it, gid, count):
    desc = LAMBDA_DESCRIPTIONS.get(it)
    if desc is None:
        die("lambda: no description known for " + it)
    m = re.search(r"\(([^)]*)\)", desc)
    form = m.group(1).upper() if m else ""
    if "SXM" in form:
        return "nvlink"
    if "PCIE" in form:
        return "pcie"
    if gid.startswith("V100") and count == 8:
        return "nvlink"   # Lambda's 8x V100 servers are SXM2 boards in an NVLink mesh
    return form_interconnect(gid, count)


def lambda_(cat, out, d):
    """One offer per type in region "all": Lambda prices a type the same in
    every region and the catalog carries no capacity, while the live API shows
    each type with capacity in at most one region at a time.  Listing it in all
    17 regions said it could be started in each; "all" says only that the price
    holds wherever it has capacity (a refresh says where)."""
    types = collections.OrderedDict()
    for r in read_csv(os.path.join(d, "lambda_gpu.csv")):
        types.setdefault(r["InstanceType"], []).append(r)
    for it, rs in types.items():
        r = rs[0]
        for x in rs[1:]:
            for col in ("Price", "SpotPrice", "AcceleratorName", "AcceleratorCount", "vCPUs",
                        "MemoryGiB"):
                if x[col] != r[col]:
                    die("lambda %s: %s differs between regions" % (it, col))
        out.relabelled[("lambda", "regions folded into one offer in region all")] += len(rs) - 1
        info = gpuinfo(r["GpuInfo"])
        g = info["Gpus"][0]
        count = int(Decimal(r["AcceleratorCount"]))
        vram = mib_to_gib(g["MemoryInfo"]["SizeInMiB"])
        gid, raw = cat.pick([r["AcceleratorName"], g.get("Name")], vram, "lambda " + it)
        if not gid:
            die("lambda %s: cannot map GPU %r" % (it, r["AcceleratorName"]))
        inter = lambda_link(it, gid, count)
        spot = r["SpotPrice"].strip() or None
        out.add("lambda", "%s/all" % it, it, "all", gid, raw, count, vram, inter,
                num(r["vCPUs"]), num(r["MemoryGiB"]), r["Price"].strip() or None, spot)


# ---------------------------------------------------------------------------
# Azure

# The GPU model, count, host and interconnect of each size come from the live
# adapter's table (src/provider/azure.c azure_skus[]), read here so that the
# snapshot and a refresh never disagree on what a size is.
AZURE_SKU_RE = re.compile(
    r'\{\s*"(Standard_[^"]+)",\s*"([^"]+)",\s*(\d+),\s*(\d+),\s*(\d+),\s*([\d.]+),\s*'
    r'IC_(NVLINK|PCIE|UNKNOWN),\s*(true|false),\s*(true|false)\s*\}')


def azure_skus():
    here = os.path.dirname(os.path.abspath(__file__))
    with open(os.path.join(here, "..", "src", "provider", "azure.c"), encoding="utf-8") as f:
        text = f.read()
    table = {}
    for m in AZURE_SKU_RE.finditer(text):
        name, raw, count, vram, vcpus, ram, ic, _ib, fraction = m.groups()
        table[name.lower()] = dict(name=name, raw=raw, count=int(count), vram=int(vram),
                                   vcpus=vcpus if vcpus != "0" else "", ram=ram if ram != "0" else "",
                                   ic=ic.lower(), fraction=fraction == "true")
    if len(table) < 20:
        die("azure: could not read azure_skus[] from src/provider/azure.c (%d sizes)" % len(table))
    return table


# Reservations (committed prices) from dated public copies of Azure's Retail
# Prices API, the whole term's price in USD (the API's retailPrice of a
# "Reservation" row, whose unit says "1 Hour" but is the term's total:
# research/committed.md): thatkavish/OpenComputePrices data/azure.csv @
# 95870c11, snapshot of 2026-03-21 (Linux rows; that file labels the
# reservation rows "on_demand" without their term, so 1 and 3 years are told
# apart by size: the 3-year total is the larger, and each effective price
# lies between 0.37 and 0.75 of the on-demand one), and the same project's
# tests/test_azure.py @ 2fd01950 (NC48ads_A100_v4 eastus, "1 Year", 42066).
# Each row's on-demand price equals the snapshot's: the same price list.
AZURE_RESERVATIONS = {
    ("Standard_NC48ads_A100_v4", "eastus"): (("1y", "42066"),),
    ("Standard_NC48ads_A100_v4", "eastus2"): (("1y", "42066"), ("3y", "71642")),
    ("Standard_NC40ads_H100_v5", "uaenorth"): (("1y", "65569"), ("3y", "144251")),
    ("Standard_NC80adis_H100_v5", "uksouth"): (("1y", "114647"), ("3y", "252222")),
    ("Standard_NC8ads_A10_v4", "southcentralus"): (("1y", "7169"), ("3y", "13876")),
    ("Standard_NC8as_T4_v3", "australiaeast"): (("1y", "5037"), ("3y", "9763")),
}
AZURE_HOURS_PER_YEAR = Decimal(8760)


def azure_reservations(size, region):
    """The committed entries of AZURE_RESERVATIONS for one offer: all paid
    up front, the effective price the total over the term's hours."""
    return [("reservation", term, "all",
             money6(Decimal(total) / (AZURE_HOURS_PER_YEAR * int(term[:-1]))), total)
            for term, total in AZURE_RESERVATIONS.get((size, region), ())]


def azure(cat, out, d):
    """One row per size and region of the catalog; on-demand Price and SpotPrice
    (a SpotPrice equal to Price is the catalog's copy, not a spot price)."""
    skus = azure_skus()
    used = set()
    with open(os.path.join(d, "azure_gpu.csv"), newline="", encoding="utf-8") as f:
        rows = list(csv.reader(f))
    head = rows[0]
    col = {name: i for i, name in enumerate(head)}
    for r in rows[1:]:
        it, region = r[col["InstanceType"]], r[col["Region"]]
        s = skus.get(it.lower())
        if retired("azure", it):
            out.skipped[("azure", "retired size (data/retired.tsv): " + it)] += 1
            continue
        if s is None:
            out.skipped[("azure", "size not in azure_skus[]: " + it)] += 1
            continue
        if s["fraction"]:
            out.skipped[("azure", "fraction of a GPU")] += 1
            continue
        gid = cat.resolve(s["raw"], s["vram"])
        if gid is None:
            out.skipped[("azure", "GPU not in gpus.tsv: " + s["raw"])] += 1
            continue
        price = r[col["Price"]].strip() or None
        spot = r[col["SpotPrice"]].strip() or None
        if spot is not None and price is not None and dec(spot) >= dec(price):
            spot = None
        if price is None and spot is None:
            out.skipped[("azure", "no price")] += 1
            continue
        committed = azure_reservations(s["name"], region)
        used.update([(s["name"], region)] if committed else [])
        out.add("azure", "%s/%s" % (s["name"], region), s["name"], region, gid, s["raw"],
                s["count"], None, s["ic"], s["vcpus"], s["ram"], price, spot,
                vram_gb=s["vram"] or None, committed=committed)
    if used != set(AZURE_RESERVATIONS):
        die("azure: reservations of no offer: %s" % sorted(set(AZURE_RESERVATIONS) - used))


# ---------------------------------------------------------------------------
# RunPod

def runpod(cat, out, d):
    rows = read_csv(os.path.join(d, "runpod_gpu.csv"))
    # SkyPilot's host figures are a per-GPU table times the count; the 1-GPU
    # row of each type gives the per-GPU figure.  A row whose figure is not
    # count x that (RAM growing with the square of the count: 8 x RTX PRO 4500
    # at 6,016 GB) is a copy error, left unknown.
    per_gpu = {}
    for r in rows:
        if int(Decimal(r["AcceleratorCount"])) == 1:
            per_gpu[r["InstanceType"].split("_", 1)[1]] = (Decimal(r["vCPUs"]), Decimal(r["MemoryGiB"]))
    for r in rows:
        it, dc = r["InstanceType"], r["AvailabilityZone"]
        info = gpuinfo(r["GpuInfo"])
        g = info["Gpus"][0]
        count = int(Decimal(r["AcceleratorCount"]))
        vram = float(g["MemoryInfo"]["SizeInMiB"])   # RunPod's "SizeInMiB" holds GB
        gid, raw = cat.pick([g.get("Name"), r["AcceleratorName"]], vram, "runpod " + it)
        if not gid:
            die("runpod %s: cannot map GPU %r / %r" % (it, g.get("Name"), r["AcceleratorName"]))
        names = (r["AcceleratorName"] + " " + (g.get("Name") or "")).upper()
        if "SXM" in names:
            inter = "nvlink"
        elif "NVL" in names or "PCIE" in names:
            inter = "pcie"      # NVL cards pair over bridges but sit on PCIe (live: the same)
        elif FORM[gid] in ("sxm", "oam", "superchip", "pcie-bridge"):
            # A6000, A5000, A40, RTX 3090 ...: one card is PCIe; several may
            # or may not be bridged, as the live adapter says (unknown).
            inter = form_interconnect(gid, count)
        else:
            inter = "pcie"
        price = r["Price"].strip() or None
        # No spot price: RunPod ended spot pods on 2026-09-11 (and this
        # catalog's SpotPrice was a copy of Price on every row anyway).
        spot = None
        # vCPU/RAM are SkyPilot's static per-GPU table, not a real pod's host.
        vcpus, ram = num(r["vCPUs"]), num(r["MemoryGiB"])
        one = per_gpu.get(it.split("_", 1)[1])
        if one is not None and Decimal(r["MemoryGiB"]) != one[1] * count:
            out.relabelled[("runpod", "RAM not count x the 1-GPU figure: unknown")] += 1
            ram = ""
        if one is not None and Decimal(r["vCPUs"]) != one[0] * count:
            out.relabelled[("runpod", "vCPUs not count x the 1-GPU figure: unknown")] += 1
            vcpus = ""
        out.add("runpod", "%s/%s" % (it, dc), it, dc, gid, raw, count, vram, inter,
                vcpus, ram, price, spot, notes=("host-estimated",))


# ---------------------------------------------------------------------------
# Vast.ai

VAST_FILLER = ("32", "64")        # the April 2026 seed's placeholder vCPUs / GiB
VAST_SEED_DATE = "2026-04-29"      # rows carried over from that seed


def vast_gpuinfo(s):
    """GpuInfo in either of the catalog's syntaxes: JSON, or a Python dict."""
    s = (s or "").strip()
    try:
        return json.loads(s)
    except ValueError:
        return ast.literal_eval(s)


def price6(s):
    """A price string to at most 6 decimals (micro-USD, what the loader keeps)."""
    d = dec(s)
    if d is None:
        return None
    q = d.quantize(Decimal("0.000001"), rounding=ROUND_HALF_EVEN)
    return dstr(q.normalize()) if q != q.to_integral_value() else str(int(q))


def vast(cat, out, d):
    """Each row is one host's ask on one day: a market reference, noted
    single-listing; gpucost leaves it out of answers a day after as_of."""
    seen = collections.Counter()
    for r in read_csv(os.path.join(d, "vast_gpu.csv")):
        it = r["InstanceType"]              # Vast's gpu_name with "_" for " "
        vast_name = it.replace("_", " ")
        count = int(Decimal(r["AcceleratorCount"]))
        info = vast_gpuinfo(r["GpuInfo"])
        total = info.get("TotalGpuMemoryInMiB") or info["Gpus"][0]["MemoryInfo"]["SizeInMiB"]
        vram = mib_to_gib(total) / count            # the catalog holds the total
        gid, raw = cat.pick([vast_name, r["AcceleratorName"]], vram, "vast " + it)
        if not gid:
            out.skipped[("vast", "GPU not in gpus.tsv: " + vast_name)] += 1
            continue
        region = r["Region"].strip()
        up = vast_name.upper()
        if "SXM" in up:
            inter = "nvlink"
        elif "PCIE" in up:
            inter = "pcie"
        else:
            inter = form_interconnect(gid, count)
        price = price6(r["Price"])
        spot = price6(r["SpotPrice"])
        if spot is not None and Decimal(spot) <= 0:
            spot = None                  # 0.00 means "not provided"
        if price is None and spot is None:
            out.skipped[("vast", "no price")] += 1
            continue
        host = (num(r["vCPUs"]), num(r["MemoryGiB"]))
        if host == VAST_FILLER:
            vcpus, ram, as_of = "", "", VAST_SEED_DATE
        else:
            # Vast's effective cores may be fractional (25.6): whole vCPUs.
            vcpus = str(int(Decimal(r["vCPUs"]))) if Decimal(r["vCPUs"]) >= 1 else ""
            ram = num(Decimal(r["MemoryGiB"]).quantize(Decimal("0.01")))
            as_of = None
        itype = "%dx-%s" % (count, it)
        seen[(itype, region)] += 1
        key = "%s/%s/%d" % (itype, region, seen[(itype, region)])
        out.add("vast", key, itype, region, gid, raw, count, vram, inter,
                vcpus, ram, price, spot, notes=("single-listing",), as_of=as_of)


# ---------------------------------------------------------------------------
# OCI

# The GPU link of the bare-metal shapes, as src/provider/oci.c oci_gpus[] has
# it (HGX/GB boards NVLink, AMD Infinity Fabric unknown, L40S/A10/RTX PRO
# PCIe); VM shapes by card.
OCI_BM_LINK = {"P100": "unknown", "V100-16": "nvlink", "V100-32": "nvlink", "A100-40": "nvlink", "A100-80": "nvlink",
               "A10": "pcie", "L40S": "pcie", "H100": "nvlink", "H200": "nvlink",
               "B200": "nvlink", "B300": "nvlink", "GB200": "nvlink", "GB300": "nvlink",
               "MI300X": "unknown", "MI355X": "unknown", "RTXPRO6000": "pcie"}


def oci(cat, out, d):
    """One offer per shape in region "all" (Oracle prices a shape the same in
    every region and publishes no per-region GPU availability), keyed by the
    shape name as the live adapter keys it."""
    for r in read_csv(os.path.join(d, "oci_gpu.csv")):
        it = r["InstanceType"]
        if r["Region"] != "all":
            die("oci %s: region %r, expected all" % (it, r["Region"]))
        info = gpuinfo(r["GpuInfo"])
        g = info["Gpus"][0]
        count = int(Decimal(r["AcceleratorCount"]))
        vram = mib_to_gib(g["MemoryInfo"]["SizeInMiB"])
        gid, raw = cat.pick([r["AcceleratorName"], g.get("Name")], vram, "oci " + it)
        if not gid:
            out.skipped[("oci", "GPU not in gpus.tsv: " + r["AcceleratorName"])] += 1
            continue
        if it.startswith("BM."):
            inter = OCI_BM_LINK.get(gid)
            if inter is None:
                die("oci %s: no link known for %s" % (it, gid))
        else:
            inter = form_interconnect(gid, count)
        out.add("oci", it, it, "all", gid, raw, count, vram, inter,
                num(r["vCPUs"]), num(r["MemoryGiB"]), r["Price"].strip() or None,
                r["SpotPrice"].strip() or None)


# ---------------------------------------------------------------------------
# Vultr

# Bare-metal plans carry no GPU fields; the GPU comes from the plan id (as gpuhunt's
# BARE_METAL_GPU_DETAILS does).  (gpu_type spelling, count)
VULTR_METAL = {
    "vbm-256c-2048gb-8-mi300x-gpu": ("AMD_MI300X", 8),
    "vbm-112c-2048gb-8-h100-gpu": ("NVIDIA_H100", 8),
}
# GB per whole GPU of each Vultr gpu_type (Vultr's A100 is the 80 GB card, per gpuhunt;
# its B200 plan has 1536 GB of VRAM for 8 GPUs: 192 GB each, printed as Vultr states it).
VULTR_GPU_GB = {"NVIDIA_A100": 80, "NVIDIA_A16": 16, "NVIDIA_A40": 48, "NVIDIA_L40S": 48,
                "NVIDIA_H100": 80, "NVIDIA_B200": 192, "NVIDIA_GH200": 96,
                "AMD_MI300X": 192, "AMD_MI325X": 256}

# Lower-confidence hourly prices transcribed from unattributed sources (see data/README.md):
# plan id -> (gpu_type, count, vcpus, ram_gb, hourly, source note).
VULTR_LOW = [
    ("vcg-b200-248c-2826g-1536vram", "NVIDIA_B200", 8, "248", "2826", "79.92",
     "vultr LOW confidence: next row from an unattributed Kubernetes-engine doc table (undated, "
     "no location; another doc says ~$45,696/month for the same plan)"),
    ("vcg-l40s-16c-180g-48vram", "NVIDIA_L40S", 1, "16", "180", "2.09",
     "vultr LOW confidence: next row from an unattributed Kubernetes-engine doc table (undated, "
     "no location)"),
    ("vcg-a16-6c-64g-16vram", "NVIDIA_A16", 1, "6", "64", "0.58",
     "vultr LOW confidence: next row from an unattributed Kubernetes-engine doc table (undated, "
     "no location)"),
]


def ram_mb_to_gb(mb):
    q = (Decimal(mb) / Decimal(1024)).quantize(Decimal("0.01"), rounding=ROUND_HALF_EVEN)
    return num(q)


def vultr(cat, out, d):
    path = os.path.join(d, "vultr", "gpuhunt_test_vultr_fixture.json")
    with open(path, encoding="utf-8") as f:
        fx = json.load(f)

    def emit(plan, gtype, count, vcpus, ram, price, locations, note=None, low=False):
        gb = VULTR_GPU_GB.get(gtype)
        gid, raw = cat.pick([gtype], gb, "vultr " + plan)
        if not gid:
            die("vultr %s: cannot map %r" % (plan, gtype))
        if "-h100-gpu" in plan and plan.startswith("vbm-"):
            inter = "nvlink"    # 8x H100 bare metal is an HGX (SXM) board
        elif gtype.endswith("_SXM"):
            inter = "nvlink"
        elif gtype.endswith("_PCIE"):
            inter = "pcie"
        else:
            inter = form_interconnect(gid, count)
        for loc in (locations or ["unknown"]):   # the loader needs a region
            key = "%s/%s" % (plan, loc)
            # Low confidence: an unattributed price.  No spot price: the
            # plans' hourly_cost_preemptible is confirmed by no other source and
            # no command is known to rent at it (src/rentable.c
            # spot_launch_providers[]), so it is not an offer.
            notes = ("low-confidence",) if low else ()
            out.add("vultr", key, plan, loc, gid, raw, count, gb, inter, vcpus, ram,
                    price, None, note, notes=notes,
                    vram_gb=gb if gb != cat.gpus[gid]["vram"] else None)

    for p in fx["bare_metal"]["plans_metal"]:
        if p["id"] not in VULTR_METAL:
            die("vultr: no GPU known for bare-metal plan " + p["id"])
        gtype, count = VULTR_METAL[p["id"]]
        emit(p["id"], gtype, count, str(p["cpu_threads"]), ram_mb_to_gb(p["ram"]),
             json_num(p["hourly_cost"]), p["locations"])
    for p in fx["vm_instances"]["plans"]:
        gtype = p["gpu_type"]
        per = VULTR_GPU_GB[gtype]
        total = int(p["gpu_vram_gb"])
        if "gpu_count" in p and "/" not in str(p["gpu_count"]):
            count = int(p["gpu_count"])
        elif total % per == 0:
            count = total // per
        else:
            count = 0
        if count < 1:
            out.skipped[("vultr", "fractional GPU (vGPU slice of a %d GB card)" % per)] += 1
            continue
        emit(p["id"], gtype, count, str(p["vcpu_count"]), ram_mb_to_gb(p["ram"]),
             json_num(p["hourly_cost"]), p["locations"])
    for plan, gtype, count, vcpus, ram, hourly, note in VULTR_LOW:
        emit(plan, gtype, count, vcpus, ram, hourly, None, note, low=True)
    # vcg-h100-216c-1914gb-640vram (8 x H100, $23.92 in an unattributed vitest
    # fixture) is marked deploy_ondemand false there: not sold on demand, so that
    # price is not an on-demand price, and there is no spot price: no offer.
    out.skipped[("vultr", "plan not deployable on demand, no spot price")] += 1


def json_num(v):
    """A JSON number as the decimal text it was written with (json loads it as float;
    repr() of a float from a short decimal literal gives that literal back)."""
    if isinstance(v, int):
        return str(v)
    s = repr(v)
    if "e" in s or "E" in s:
        die("vultr: unexpected number %r" % v)
    return s


# ---------------------------------------------------------------------------
# Providers without a price feed (issue 47): data/list_prices.tsv, by hand

LIST_HEADER = ("provider", "key", "instance_type", "region", "gpu_raw", "gpu_count", "vram_gb",
               "interconnect", "vcpus", "ram_gb", "price", "spot_price", "notes", "as_of", "source")


def list_prices(cat, out, path):
    """data/list_prices.tsv: one row per offer with its date and source, copied as written
    (prices as the page's decimal strings).  Its '# source PROVIDER DATE TEXT' lines become
    the snapshot's source lines for those providers; a provider with rows and no such line,
    a row dated after its provider's list, an unknown GPU or interconnect is an error."""
    sources = {}
    header = None
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            line = line.rstrip("\n")
            where = "%s:%d" % (os.path.basename(path), n)
            if line.startswith("# source "):
                prov, date, text = line[len("# source "):].split(" ", 2)
                if prov in SOURCES or prov in sources:
                    die("%s: a second source for %s" % (where, prov))
                if not re.fullmatch(r"\d{4}-\d{2}-\d{2}", date):
                    die("%s: bad date %r" % (where, date))
                sources[prov] = (date, text)
                continue
            if not line or line.startswith("#"):
                continue
            cells = line.split("\t")
            if header is None:
                if tuple(cells) != LIST_HEADER:
                    die("%s: the header is not %s" % (where, " ".join(LIST_HEADER)))
                header = cells
                continue
            if len(cells) != len(LIST_HEADER):
                die("%s: %d fields, not %d" % (where, len(cells), len(LIST_HEADER)))
            r = dict(zip(LIST_HEADER, cells))
            prov = r["provider"]
            if prov not in sources:
                die("%s: no '# source %s' line above its rows" % (where, prov))
            if not r["source"] or not re.fullmatch(r"\d{4}-\d{2}-\d{2}", r["as_of"]) \
                    or r["as_of"] > sources[prov][0]:
                die("%s: a row needs a source and a date no later than its list's" % where)
            count = int(r["gpu_count"])
            vram = int(r["vram_gb"]) if r["vram_gb"] else None
            gid = cat.resolve(r["gpu_raw"], vram or 0)
            if gid is None:
                die("%s: GPU %r is not in data/gpus.tsv" % (where, r["gpu_raw"]))
            inter = r["interconnect"] or form_interconnect(gid, count)
            if inter not in ("nvlink", "pcie", "unknown"):
                die("%s: interconnect %r" % (where, inter))
            notes = tuple(t for t in r["notes"].split(";") if t)
            out.add(prov, r["key"], r["instance_type"], r["region"], gid, r["gpu_raw"], count,
                    None, inter, r["vcpus"], r["ram_gb"], r["price"] or None,
                    r["spot_price"] or None, notes=notes, vram_gb=vram, as_of=r["as_of"])
    SOURCES.update(sources)


# ---------------------------------------------------------------------------

def main(argv):
    if len(argv) != 2 or argv[1] in ("-h", "--help"):
        print(__doc__.strip(), file=sys.stderr)
        return 2
    d = argv[1]
    here = os.path.dirname(os.path.abspath(__file__))
    cat = Catalogue(os.path.join(here, "..", "data", "gpus.tsv"))
    RETIRED.update(retired_sizes())
    out = Out(cat)
    aws(cat, out, d)
    gcp(cat, out, d)
    lambda_(cat, out, d)
    runpod(cat, out, d)
    vast(cat, out, d)
    vultr(cat, out, d)
    azure(cat, out, d)
    oci(cat, out, d)
    list_prices(cat, out, os.path.join(here, "..", "data", "list_prices.tsv"))
    counts = collections.Counter(r[0] for r in out.rows)
    for p in sorted(SOURCES):
        if not counts[p]:
            die("no offers for " + p)
        warn("%-7s %5d offers" % (p, counts[p]))
    warn("total   %5d offers" % len(out.rows))
    for (p, why), n in sorted(out.skipped.items()):
        warn("skipped %s: %d source rows (%s)" % (p, n, why))
    for (p, why), n in sorted(out.relabelled.items()):
        warn("changed %s: %d rows (%s)" % (p, n, why))
    for (p, why), n in sorted(out.host_dropped.items()):
        warn("host    %s: %d rows (%s: unknown)" % (p, n, why))
    out.write(sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
