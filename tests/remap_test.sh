#!/usr/bin/env bash
# libtac3remap under Open MPI, node coordinates given by TAC3MAP_COORDS_BY_RANK (world rank r
# on box node r of fx10 box 1x1x2x2x1x2): after tac3map_comm_remap, the process with new rank
# k must sit on the node the mapping gives task k; a map with more tasks than processes must
# fail on every process with one clear line.
# Usage: remap_test.sh MPIEXEC TAC3MAP PROGRAM SOURCE_DIR
set -euo pipefail
mpiexec=$1 tac3map=$2 program=$3 source=$4
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$tac3map" gen cg --ranks 8 --bytes 4096 -o "$work/cg8.trace"
"$tac3map" map --machine "$source/topologies/fx10.json" --shape 1x1x2x2x1x2 --init random \
  --seed 5 --trace "$work/cg8.trace" -o "$work/cg8.map" >/dev/null
for r in 0 1 2 3 4 5 6 7; do  # box node r: Z = r % 2, A = r / 2 % 2, C = r / 4
  echo "0 0 $((r % 2)) $((r / 2 % 2)) 0 $((r / 4))"
done > "$work/coords"
TAC3MAP_COORDS_BY_RANK="$work/coords" "$mpiexec" --allow-run-as-root --oversubscribe -n 8 \
  -x TAC3MAP_COORDS_BY_RANK "$program" "$work/cg8.map" > "$work/out"
test "$(wc -l < "$work/out")" = 8
while read -r _ world _ new; do
  expected=$(sed -n "$((world + 1))p" "$work/coords")
  actual=$(awk -v k="$new" '$1 == k && $0 !~ /^#/ {print $2, $3, $4, $5, $6, $7}' "$work/cg8.map")
  [ "$expected" = "$actual" ] || { echo "world $world -> new $new: node ($expected), task $new on ($actual)" >&2; exit 1; }
done < "$work/out"
echo "8 processes remapped onto the mapping's nodes"
# Only 4 processes for 8 tasks: every process fails, rank 0 says why.
if TAC3MAP_COORDS_BY_RANK="$work/coords" "$mpiexec" --allow-run-as-root --oversubscribe -n 4 \
    -x TAC3MAP_COORDS_BY_RANK "$program" "$work/cg8.map" > "$work/out4" 2> "$work/err4"; then
  echo "remap should have failed with 4 processes" >&2
  exit 1
fi
grep -q "has 8 tasks but the communicator has 4 processes" "$work/err4"
test ! -s "$work/out4"
echo "mismatch reported"
