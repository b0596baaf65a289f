#!/usr/bin/env bash
# Behaviour unchanged: runs the same commands with two tac3map binaries (before and after a
# restructuring) and compares every file they write, byte for byte. Maps (every output format,
# one rank per node and packed, torus and graph machines, the starts), scores, platform and
# host files, pictures, converted traces and mappings, broadcast schedules, a sweep (its
# wall-clock seconds left out, lines sorted: threads finish in any order).
# Usage: bench/same_outputs.sh BASE_BINARY NEW_BINARY [OUTDIR]   (exit 1 if any file differs)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
base=$(realpath "$1") new=$(realpath "$2")
out=${3:-$(mktemp -d)}
mkdir -p "$out"
cd "$out"
fx10="--machine $root/topologies/fx10.json --shape 2x2x2x2x3x2"
tree="--machine $root/topologies/trees/dual-cpu-2x4.json"
"$base" gen stencil --dims 8x4x4 --points 7 --periodic --bytes 65536 -o stencil.trace
"$base" gen stencil --dims 4x2 --points 5 --periodic -o stencil8.trace
cg=$root/examples/cg64-sendrecv.trace
run() {  # run NAME: the commands, writing into NAME/
  local bin=$1 d=$2
  mkdir -p "$d"
  for f in coords json fujitsu-vcoord openmpi-rankfile slurm-hostfile; do
    "$bin" map $fx10 --trace "$cg" --nodes "$root/examples/convert/fx10-nodes.txt" -f "$f" \
      -o "$d/cg.$f" -q
  done
  "$bin" map $fx10 --trace "$cg" -o "$d/cg.map" -q
  "$bin" map $fx10 --trace "$cg" --objective tahb -o "$d/tahb.map" -q
  "$bin" map --machine "$root/topologies/fx10.json" --shape 1x2x2x2x3x2 --ranks-per-node 2 \
    --trace "$root/examples/cg64-isend.trace" -o "$d/k2.map" -q
  "$bin" map --machine "$root/topologies/k-computer.json" --shape 4x4x2x2x3x2 \
    --trace stencil.trace --init geometric --grid 8x4x4 -o "$d/geometric.map" -q
  "$bin" map $fx10 --ranks-per-node 2 --trace stencil.trace -o "$d/stencil-k2.map" -q
  "$bin" map $tree --trace stencil8.trace -o "$d/tree.map" -q
  (cd "$d" && "$bin" score $fx10 --trace "$cg" identity tofu-default round-robin random:3 \
    cg.map --output-format csv >score.csv)  # the label is the path as given
  "$bin" platform $fx10 --trace "$cg" "$d/cg.map" -o "$d/p.xml" --hostfile "$d/p.hosts" >/dev/null
  "$bin" platform $tree --trace stencil8.trace "$d/tree.map" -o "$d/tree.xml" \
    --hostfile "$d/tree.hosts" >/dev/null
  "$bin" viz $fx10 --trace "$cg" identity --compare tofu-default -o "$d/v.svg" -q
  "$bin" viz $tree --trace stencil8.trace identity -o "$d/tree.svg" -q
  "$bin" convert "$root/examples/cg64-isend.trace" --to simgrid-ti -o "$d/cg.ti" -q
  "$bin" convert --mapping "$d/cg.coords" $fx10 --to scotch -o "$d/cg.scotch.map" -q
  "$bin" bcast $tree --root c0 -o "$d/bcast.json" -q
  "$bin" bcast $tree --root c0 --algorithm binomial -o "$d/binomial.json" -q
  "$bin" sweep "$root/examples/sweep-paper-table1.json" -o "$d/sweep.raw" -q --threads 2
  python3 - "$d/sweep.raw" "$d/sweep.jsonl" <<'PY'
import json, sys
lines = []
for line in open(sys.argv[1]):
    d = json.loads(line)
    d.get("search", {}).pop("seconds", None)
    lines.append(json.dumps(d, sort_keys=True))
open(sys.argv[2], "w").write("\n".join(sorted(lines)) + "\n")
PY
  rm "$d/sweep.raw"
  # The optimal schedule's search time varies run to run.
  python3 -c "import json,sys; d=json.load(open(sys.argv[1])); d.get('search',{}).pop('seconds',None); json.dump(d,open(sys.argv[1],'w'),sort_keys=True)" "$d/bcast.json"
}
run "$base" "$out/base"
run "$new" "$out/new"
same=0 differ=0
for f in "$out"/base/*; do
  name=$(basename "$f")
  if cmp -s "$f" "$out/new/$name"; then same=$((same + 1)); else
    differ=$((differ + 1)); echo "differs: $name"; fi
done
echo "same_outputs: $same files identical, $differ differ ($out)"
[ "$differ" -eq 0 ]
