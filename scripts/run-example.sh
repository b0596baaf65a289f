#!/usr/bin/env bash
# Fresh machine to first mapping: installs what is needed, builds, and maps the bundled NAS CG
# trace (64 ranks, 1 MiB messages) onto the FX10 box of the paper, printing the scores and
# writing cg64.map and cg64-report.json in the current folder.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/install-deps.sh"
"$root/scripts/build.sh"
"$root/${BUILD:-build}/tac3map" map --machine "$root/topologies/fx10.json" --shape 2x2x2x2x3x2 \
  --trace "$root/examples/cg64-sendrecv.trace" --seed 1 -o cg64.map --report cg64-report.json
