#!/usr/bin/env bash
# How the cost grows with the job: a periodic 3D 7-point stencil (64 KiB messages, one rank per
# node) on Fugaku boxes of 64 to 158,976 nodes, objective tac3, started from identity, at one
# low temperature (so that trials are the search's steady state, mostly rejected or local).
# Prints per size: setup time (read trace, CCSs, routes, engine), trials/s and microseconds
# per trial of the search loop, and peak memory of the whole command. Needs a built tac3map
# (BUILD=build by default) and python3. TRIALS (default 200000) trials per size.
set -euo pipefail
cd "$(dirname "$0")/.."
tool=$(realpath "${BUILD:-build}/tac3map")
machine=$(realpath topologies/fugaku.json)
trials=${TRIALS:-200000}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

printf '%-8s %-15s %-10s %-9s %-12s %-10s %-11s\n' tasks box grid "setup s" "trials/s" \
  "us/trial" "peak MiB"
for spec in "64 2x2x2x2x2x2 4x4x4" "1152 4x4x6x2x3x2 8x12x12" "10368 12x12x6x2x3x2 24x36x12" \
            "110592 24x16x24x2x3x2 48x48x48" "158976 24x23x24x2x3x2 48x69x48"; do
  set -- $spec
  tasks=$1 box=$2 grid=$3
  "$tool" gen stencil --dims "$grid" --points 7 --periodic --bytes 65536 -o "$work/s.trace"
  "$tool" map --machine "$machine" --shape "$box" --trace "$work/s.trace" --engines 1 --init identity \
    --t0 1e-4 --t-end 1e-4 --trials "$trials" --no-early-stop --quiet \
    -o "$work/s.map" --report "$work/s.json" >/dev/null
  python3 - "$work/s.json" "$tasks" "$box" "$grid" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
chain = r["chains"][0]
setup = r["resources"]["seconds"] - chain["seconds"]
rate = chain["trials"] / chain["seconds"]
print(f"{sys.argv[2]:<8} {sys.argv[3]:<15} {sys.argv[4]:<10} {setup:<9.2f} {rate:<12.0f} "
      f"{1e6 / rate:<10.2f} {r['resources']['peak_memory_mib']:<11.0f}")
PY
done
