#!/usr/bin/env bash
# Seed spread on full nodes (issue 24, item 3): K > 1 ranks per node and every slot used.
# For each case, `map` (default options: --init auto, tac3) with seeds 1, 2, 3, and the tac3
# score of each result; beside them the block, round-robin and Scotch (graph) maps, read from
# seed 1's report (its --init auto candidates). Prints one line per case:
#   case  block  round-robin  scotch  seed1  seed2  seed3  spread  vs-best-launcher  map[s]  flow1
# flow1: the flow model's length of seed 1's map (the referee's figure, within 0.1% of SimGrid
# on FX10 boxes, docs/validation.md);
# scores in µs per iteration; spread = worst seed / best seed - 1; vs-best = worst seed / best
# of block, round-robin and Scotch (<= 1: never worse). docs/search.md records runs.
#
# usage: bench/full_nodes.sh [OUTDIR]
# environment: TAC3MAP (default build/tac3map), SEEDS (default "1 2 3"), CASES (default all):
#   st-k4     8x4x4 periodic 7-point stencil (128 ranks, 256 KiB), K = 4, FX10 1x1x8x2x1x2
#   st-k2     the same stencil, K = 2, FX10 2x1x8x2x1x2
#   cg-k4     CG-64 (1 MiB, sendrecv), K = 4, FX10 2x1x2x2x1x2        (-b: barrier after each
#   cg-k2z    CG-64, K = 2, FX10 1x1x8x2x1x2                            exchange, as
#   cg-k2a    CG-64, K = 2, FX10 2x1x2x2x2x2                            bench/simgrid/common.sh)
#   and cg-k4-b, cg-k2z-b, cg-k2a-b.  MAP_FLAGS: extra flags for map.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
TAC3MAP=${TAC3MAP:-$root/build/tac3map}
SEEDS=${SEEDS:-1 2 3}
CASES=${CASES:-st-k4 st-k2 cg-k4 cg-k4-b cg-k2z cg-k2z-b cg-k2a cg-k2a-b}
MAP_FLAGS=${MAP_FLAGS:-}
out=${1:-$(mktemp -d)}
mkdir -p "$out"
"$TAC3MAP" gen stencil --dims 8x4x4 --points 7 --periodic --bytes 262144 --variant isend \
  -o "$out/st128.trace" > /dev/null
"$TAC3MAP" gen cg --ranks 64 --bytes 1048576 --variant sendrecv -o "$out/cg64.trace" > /dev/null
awk '{ print } $2 == "sendrecv" { print $1 " barrier" }' "$out/cg64.trace" > "$out/cg64-b.trace"
printf '%-9s %8s %8s %8s' case block rr scotch
for s in $SEEDS; do printf ' %8s' "seed$s"; done
printf ' %7s %7s %6s %8s\n' spread vs-best 'map[s]' flow1
for c in $CASES; do
  trace=cg64
  case ${c%-b} in
    st-k4) trace=st128; k=4; shape=1x1x8x2x1x2 ;;
    st-k2) trace=st128; k=2; shape=2x1x8x2x1x2 ;;
    cg-k4) k=4; shape=2x1x2x2x1x2 ;;
    cg-k2z) k=2; shape=1x1x8x2x1x2 ;;
    cg-k2a) k=2; shape=2x1x2x2x2x2 ;;
    *) echo "unknown case $c" >&2; exit 2 ;;
  esac
  [ "$c" != "${c%-b}" ] && trace=$trace-b
  reports=()
  start=$(date +%s.%N)
  for s in $SEEDS; do
    "$TAC3MAP" map --machine "$root/topologies/fx10.json" --shape "$shape" --ranks-per-node "$k" \
      --trace "$out/$trace.trace" --seed "$s" --quiet $MAP_FLAGS -o "$out/$c-$s.map" \
      --report "$out/$c-$s.json" > /dev/null
    reports+=("$out/$c-$s.json")
  done
  seconds=$(echo "$(date +%s.%N) - $start" | bc)
  python3 - "$c" "$seconds" "${reports[@]}" <<'PY'
import json, sys
case, seconds, reports = sys.argv[1], float(sys.argv[2]), sys.argv[3:]
runs = [json.load(open(r)) for r in reports]
starts = {c["name"]: c["scores"]["tac3"] for c in runs[0]["start"]["candidates"]}
launch = [starts.get(n) for n in ("identity", "round-robin", "graph")]
seeds = [r["scores"]["tac3"] for r in runs]
us = lambda v: "%8.1f" % (v * 1e6) if v is not None else "%8s" % "-"
best_launch = min(v for v in launch if v is not None)
print("%-9s %s %s %7.3f %7.3f %6.1f %s" % (case, " ".join(us(v) for v in launch),
      " ".join(us(v) for v in seeds), max(seeds) / min(seeds) - 1, max(seeds) / best_launch,
      seconds / len(runs), us(runs[0]["scores"].get("flow"))))
PY
done
