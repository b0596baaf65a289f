#!/usr/bin/env bash
# Whole-machine jobs: a periodic 3D 7-point stencil (64 KiB messages), one rank per node, on
# the full Fugaku (158,976 nodes), on a 110,592-node part of it and on the full K computer;
# objective tac3. For each: `tac3map map` started from identity and from tofu-default (the
# stencil's natural embedding) with --time-limit; tac3 of the start and of the result as
# multiples of the lower bound; wall time and peak memory from /usr/bin/time. TIME_LIMIT (default 60) seconds of search per run.
# Needs a built tac3map (BUILD=build by default), /usr/bin/time and python3.
set -euo pipefail
cd "$(dirname "$0")/.."
tool=$(realpath "${BUILD:-build}/tac3map")
limit=${TIME_LIMIT:-60}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

printf '%-11s %-15s %-9s %-13s %-8s %-9s %-12s %-7s %-9s\n' machine box grid init \
  "start x" "result x" "stopped" "wall s" "peak MiB"
for spec in "fugaku 24x23x24x2x3x2 48x69x48" "fugaku 24x16x24x2x3x2 48x48x48" \
            "k-computer 24x18x17x2x3x2 48x54x34"; do
  set -- $spec
  machine=topologies/$1.json box=$2 grid=$3
  "$tool" gen stencil --dims "$grid" --points 7 --periodic --bytes 65536 -o "$work/s.trace"
  for init in identity tofu-default; do
    /usr/bin/time -f "%e %M" -o "$work/time" "$tool" map --machine "$machine" --shape "$box" \
      --trace "$work/s.trace" --engines 1 --init "$init" --t0 2e-7 --t-end 1e-9 --trials 400000 \
      --time-limit "$limit" --quiet -o "$work/s.map" --report "$work/s.json" >/dev/null
    python3 - "$work/s.json" "$work/time" "$1" "$box" "$grid" "$init" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
wall, kib = open(sys.argv[2]).read().split()
bound = r["scores"]["tac3_lower_bound"]
print(f"{sys.argv[3]:<11} {sys.argv[4]:<15} {sys.argv[5]:<9} {sys.argv[6]:<13} "
      f"{r['initial_scores']['tac3'] / bound:<8.2f} {r['scores']['tac3'] / bound:<9.2f} "
      f"{r['search']['stopped']:<12} {float(wall):<7.1f} {int(kib) / 1024:<9.0f}")
PY
  done
done
