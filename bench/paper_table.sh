#!/usr/bin/env bash
# Reproduces the quality check of the paper's six FX10 boxes: for each box, 10 seeds of
# tac3, tahb and rmatt-o2f with the default schedule; prints how often tac3 reaches its lower
# bound, its mean search time, and the tac3 score (as a multiple of the bound) of the best
# tahb and best rmatt-o2f mappings. Needs a built tac3map (BUILD=build by default) and python3.
set -euo pipefail
cd "$(dirname "$0")/.."
tool=${BUILD:-build}/tac3map
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

summarise() {  # objective json reports... -> "best-objective-value tac3/bound of that mapping"
  python3 - "$@" <<'PY'
import json, sys
key = {"tahb": "tahb", "rmatt-o2f": "rmatt_o2f"}[sys.argv[1]]
reports = [json.load(open(f)) for f in sys.argv[2:]]
best = min(reports, key=lambda r: (r["scores"][key], r["seed"]))
s = best["scores"]
print(f"{s['tac3'] / s['tac3_lower_bound']:.2f}x (seed {best['seed']})")
PY
}

printf '%-6s %-13s %-12s %-14s %-20s %-20s\n' tasks box "tac3@bound" "tac3 mean s" \
  "tac3 of best tahb" "tac3 of best rmatt"
for spec in "64 1x2x4x2x3x2" "64 2x2x2x2x3x2" "64 4x2x1x2x3x2" \
            "32 1x1x4x2x3x2" "32 1x2x2x2x3x2" "32 4x1x1x2x3x2"; do
  set -- $spec
  tasks=$1 box=$2
  for objective in tac3 tahb rmatt-o2f; do
    for seed in 1 2 3 4 5 6 7 8 9 10; do
      "$tool" map --machine topologies/fx10.json --shape "$box" --engines 1 --init identity \
        --trace "examples/cg$tasks-sendrecv.trace" --objective "$objective" --seed "$seed" \
        -o "$work/m.map" --report "$work/$objective-$seed.json" >/dev/null
    done
  done
  hits=$(python3 - "$work"/tac3-*.json <<'PY'
import json, sys
rs = [json.load(open(f)) for f in sys.argv[1:]]
hit = sum(r["scores"]["tac3"] == r["scores"]["tac3_lower_bound"] for r in rs)
print(f"{hit}/{len(rs)} {sum(r['search']['seconds'] for r in rs) / len(rs):.3f}")
PY
)
  printf '%-6s %-13s %-12s %-14s %-20s %-20s\n' "$tasks" "$box" ${hits} \
    "$(summarise tahb "$work"/tahb-*.json)" "$(summarise rmatt-o2f "$work"/rmatt-o2f-*.json)"
done
