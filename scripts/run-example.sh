#!/usr/bin/env bash
# Fresh machine to first mapping: installs what is needed, builds the command (the `tac3map`
# target only: not the tests, benchmarks and MPI tools, which scripts/build.sh builds), and
# maps the bundled NAS CG trace (64 ranks, 1 MiB messages) onto the FX10 box of the paper,
# printing the scores and writing cg64.map and cg64-report.json in the current folder.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/install-deps.sh"
build=${BUILD:-build}
(
  cd "$root"
  cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release >/dev/null
  cmake --build "$build" --target tac3map -j"$(nproc)"
)
"$root/$build/tac3map" map --machine "$root/topologies/fx10.json" --shape 2x2x2x2x3x2 \
  --trace "$root/examples/cg64-sendrecv.trace" --seed 1 -o cg64.map --report cg64-report.json
