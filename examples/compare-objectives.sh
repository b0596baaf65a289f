#!/usr/bin/env bash
# Maps the bundled CG-64 trace onto the paper's 96-node FX10 box with each objective and
# scores the three mappings side by side. Run from anywhere after building (scripts/build.sh);
# writes tac3.map, tahb.map and rmatt-o2f.map in the current folder (TAC3MAP=path overrides
# which binary runs).
#   usage: examples/compare-objectives.sh [shape] [trace] [seed]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
tool=${TAC3MAP:-$root/${BUILD:-build}/tac3map}
shape=${1:-2x2x2x2x3x2}
trace=${2:-$root/examples/cg64-sendrecv.trace}
seed=${3:-1}
machine="$root/topologies/fx10.json"
for objective in tac3 tahb rmatt-o2f; do
  "$tool" map --machine "$machine" --shape "$shape" --trace "$trace" \
    --objective "$objective" --seed "$seed" -o "$objective.map" | grep '^search'
done
"$tool" score --machine "$machine" --shape "$shape" --trace "$trace" tac3.map tahb.map rmatt-o2f.map
