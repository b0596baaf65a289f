#!/usr/bin/env python3
"""VieM's best hop-bytes map of each peer case (docs/performance.md, issue 26): bench/viem_map.py
with every variant below, the lowest hop-bytes (bench/peer_hopbytes.py) kept. Not part of ctest.

usage: viem_cases.py small|big VIEM_BINARY PEERDIR OUTDIR
  small: the 27 peer cases, on the inputs bench/peer_cases.sh wrote to PEERDIR/inputs
         (<input>.ccs.json); big: random4096 on K 8x8x6x2x3x2 from PEERDIR/inputs/random4096.ccs.json
         (`tac3map ccs --json` of `tac3map gen random --ranks 4096 --degree 3 --bytes 65536
         --max-bytes 262144 --seed 1`)
Appends to OUTDIR/results.tsv (case, variant, hop_bytes, avg_hops, wall_s) and copies the best
map per case to OUTDIR/maps/<case>.map (first variant wins ties). VIEM_BINARY: see viem_map.py.
"""
import os
import shutil
import subprocess
import sys

if len(sys.argv) != 5:
    sys.exit(__doc__)
MAIN = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
VIEM, PEERS, RUN = sys.argv[2], sys.argv[3], sys.argv[4]
FX10 = f"{MAIN}/topologies/fx10.json"
K = f"{MAIN}/topologies/k-computer.json"
BOXES64 = "1x2x4x2x3x2 2x2x2x2x3x2 4x2x1x2x3x2".split()
BOXES32 = "1x1x4x2x3x2 1x2x2x2x3x2 4x1x1x2x3x2".split()
INPUTS = "cg64 stencil444 random64-d3-s1 random64-d4-s2 random64-d3-s2 cg32 stencil442 random32-d3-s1 random32-d4-s2".split()


def small_variants():
    cons = [["--construction_algorithm=hierarchytopdown", f"--preconfiguration_mapping={p}"] for p in ("fast", "eco", "strong")]
    cons += [["--construction_algorithm=hierarchybottomup", f"--preconfiguration_mapping={p}"] for p in ("eco", "strong")]
    cons += [["--construction_algorithm=growing"], ["--construction_algorithm=identity"], ["--construction_algorithm=random"]]
    lss = [["--local_search_neighborhood=communication"], ["--local_search_neighborhood=nsquare"],
           ["--local_search_neighborhood=nsquarepruned"]]
    out = []
    for c in cons:
        for ls in lss:
            for seed in (1, 2, 3):
                out.append(c + ls + [f"--seed={seed}"])
    return out


BIG_VARIANTS = [
    ["--construction_algorithm=hierarchytopdown", "--preconfiguration_mapping=eco", "--local_search_neighborhood=communication", "--communication_neighborhood_dist=1", "--seed=1"],
    ["--construction_algorithm=hierarchytopdown", "--preconfiguration_mapping=eco", "--local_search_neighborhood=communication", "--seed=1"],
    ["--construction_algorithm=hierarchytopdown", "--preconfiguration_mapping=eco", "--local_search_neighborhood=nsquarepruned", "--seed=1"],
    ["--construction_algorithm=hierarchytopdown", "--preconfiguration_mapping=eco", "--local_search_neighborhood=nsquare", "--seed=1"],
    ["--construction_algorithm=hierarchytopdown", "--preconfiguration_mapping=strong", "--local_search_neighborhood=nsquare", "--seed=1"],
    ["--construction_algorithm=hierarchytopdown", "--preconfiguration_mapping=strong", "--local_search_neighborhood=nsquare", "--seed=2"],
    ["--construction_algorithm=growing", "--local_search_neighborhood=nsquare", "--seed=1"],
]


def run_case(case, machine, box, ccs, variants, tsv):
    d = f"{RUN}/runs/{case}"
    os.makedirs(d, exist_ok=True)
    best = None
    for i, flags in enumerate(variants):
        out = f"{d}/v{i:02d}.map"
        r = subprocess.run([sys.executable, f"{MAIN}/bench/viem_map.py", machine, box, ccs, out, VIEM] + flags,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        variant = " ".join(flags)
        if r.returncode != 0:
            print(f"{case}\t{variant}\tFAILED: {r.stdout.strip()}", file=sys.stderr)
            tsv.write(f"{case}\t{variant}\tFAILED\t\t\n")
            continue
        tasks, n, J, Jbytes, wall = r.stdout.split()
        hb = subprocess.run([sys.executable, f"{MAIN}/bench/peer_hopbytes.py", machine, box, ccs, out],
                            stdout=subprocess.PIPE, text=True, check=True).stdout.split("\t")
        hop_bytes, avg = int(hb[1]), float(hb[3])
        tsv.write(f"{case}\t{variant}\t{hop_bytes}\t{avg:.6f}\t{wall}\n")
        tsv.flush()
        print(f"{case}\t{variant}\t{hop_bytes}\tJ/2*1KiB={Jbytes}\t{wall}", file=sys.stderr)
        if best is None or hop_bytes < best[0]:
            best = (hop_bytes, out, variant)
    if best:
        shutil.copy(best[1], f"{RUN}/maps/{case}.map")
    return best


def main():
    what = sys.argv[1]
    os.makedirs(f"{RUN}/maps", exist_ok=True)
    os.environ["VIEM_CACHE"] = f"{RUN}/cache"
    os.makedirs(f"{RUN}/cache", exist_ok=True)
    path = f"{RUN}/results.tsv"
    new = not os.path.exists(path)
    with open(path, "a") as tsv:
        if new:
            tsv.write("case\tvariant\thop_bytes\tavg_hops\twall_s\n")
        if what == "small":
            for inp in INPUTS:
                boxes = BOXES64 if inp.endswith("64") or "64-" in inp or inp == "stencil444" else BOXES32
                for box in boxes:
                    run_case(f"{inp}-{box}", FX10, box, f"{PEERS}/inputs/{inp}.ccs.json", small_variants(), tsv)
        elif what == "big":
            run_case("random4096-8x8x6x2x3x2", K, "8x8x6x2x3x2", f"{PEERS}/inputs/random4096.ccs.json", BIG_VARIANTS, tsv)
        else:
            sys.exit(__doc__)


if __name__ == "__main__":
    main()
