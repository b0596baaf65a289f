#!/usr/bin/env bash
# Regenerates the viz pictures of the README and docs/viz.md in docs/images/ with the tool itself (PNG through
# rsvg-convert: scripts/install-deps.sh --browser installs it):
#   viz-cg64.png   the CG-64 example on fx10 box 2x2x2x2x3x2 (96 nodes): a mapping found by
#                  `tac3map map` (seed 1) beside identity, each link's largest load over the
#                  CCSs, every link drawn;
#   viz-k1152.png  a 7-point stencil of 1,152 ranks on K computer box 4x4x6x2x3x2 under the
#                  identity mapping: each node coloured by its busiest link, per-axis histograms.
# Usage: scripts/make-readme-images.sh [TAC3MAP]   (default: build/tac3map)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
tac3map=$(realpath "${1:-$root/build/tac3map}")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$root/docs/images"
# In the work folder, so that the pictures' titles name plain file names, not temporary paths.
cp "$root/examples/cg64-sendrecv.trace" "$work/"
cd "$work"
fx10="--machine $root/topologies/fx10.json --shape 2x2x2x2x3x2 --trace cg64-sendrecv.trace"
# shellcheck disable=SC2086
"$tac3map" map $fx10 --seed 1 --quiet -o cg64.map >/dev/null
# shellcheck disable=SC2086
"$tac3map" viz $fx10 cg64.map --compare identity --aggregate-only -o viz-cg64.png >/dev/null
"$tac3map" gen stencil --dims 12x12x8 --points 7 -o stencil-1152.trace
"$tac3map" viz --machine "$root/topologies/k-computer.json" --shape 4x4x6x2x3x2 \
  --trace stencil-1152.trace identity -o viz-k1152.png >/dev/null
for image in viz-cg64.png viz-k1152.png; do
  size=$(wc -c <"$image")
  [ "$size" -lt 300000 ] || { echo "$image: $size bytes, above the 300 kB a picture of the docs may take" >&2; exit 1; }
  mv "$image" "$root/docs/images/$image"
  echo "docs/images/$image: $size bytes"
done
