#!/usr/bin/env bash
# libtac3remap under Open MPI, node coordinates given by TAC3MAP_COORDS_BY_RANK (world rank r
# on box node r of fx10 box 1x1x2x2x1x2): after tac3map_comm_remap, the process with new rank
# k must sit on the node the mapping gives task k; a map with more tasks than processes must
# fail on every process with one clear line. K = 2: 16 processes, two on each of the 8 nodes,
# and a mapping with a slot per task: the process with new rank k must be on task k's node and
# be the node's local rank (its place among the node's processes in world order) that task
# k's slot names; a map asking a slot of a node with fewer processes must fail. A bad map is
# every process's problem: one line on stderr, not one per rank.
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

# K = 2. World rank r on node r % 8, so its local rank (place among the node's processes in
# world order) is r / 8. Task t at position p = (5t + 3) mod 16: node p / 2, slot p % 2.
node_line() {  # box node n -> its coordinates
  echo "0 0 $(($1 % 2)) $(($1 / 2 % 2)) 0 $(($1 / 4))"
}
for r in $(seq 0 15); do node_line $((r % 8)); done > "$work/coords16"
{
  echo "# tac3map mapping 1"
  echo "# machine fx10 4x2x8x2x3x2"
  echo "# shape 1x1x2x2x1x2 offset 0,0,0,0,0,0"
  for t in $(seq 0 15); do
    p=$(((5 * t + 3) % 16))
    echo "$t $(node_line $((p / 2))) $((p % 2))"
  done
} > "$work/k2.map"
"$tac3map" gen cg --ranks 16 --bytes 4096 -o "$work/cg16.trace"
# tac3map itself reads the map as 16 ranks on 8 nodes, two per node.
"$tac3map" score --machine "$source/topologies/fx10.json" --shape 1x1x2x2x1x2 \
  --trace "$work/cg16.trace" --ranks-per-node 2 "$work/k2.map" > /dev/null
TAC3MAP_COORDS_BY_RANK="$work/coords16" "$mpiexec" --allow-run-as-root --oversubscribe -n 16 \
  -x TAC3MAP_COORDS_BY_RANK "$program" "$work/k2.map" > "$work/out16"
test "$(wc -l < "$work/out16")" = 16
seen=""
while read -r _ world _ new; do
  expected="$(sed -n "$((world + 1))p" "$work/coords16") $((world / 8))"
  actual=$(awk -v k="$new" '$1 == k && $0 !~ /^#/ {print $2, $3, $4, $5, $6, $7, $8}' "$work/k2.map")
  [ "$expected" = "$actual" ] || { echo "K=2: world $world -> new $new: node and local rank ($expected), task $new on ($actual)" >&2; exit 1; }
  seen="$seen $new"
done < "$work/out16"
test "$(echo $seen | tr ' ' '\n' | sort -n | uniq | wc -l)" = 16
echo "16 processes, 2 per node, remapped onto the mapping's nodes and slots"
# The same map with one process per node: slot 1 of a node has no process.
if TAC3MAP_COORDS_BY_RANK="$work/coords16" "$mpiexec" --allow-run-as-root --oversubscribe -n 8 \
    -x TAC3MAP_COORDS_BY_RANK "$program" "$work/k2.map" > "$work/out8" 2> "$work/err8"; then
  echo "remap should have failed with one process per node" >&2
  exit 1
fi
# 16 tasks, 8 processes: the task count is the first complaint.
grep -q "has 16 tasks but the communicator has 8 processes" "$work/err8"
# 8 tasks, two on node 0 (slots 0 and 1), 8 processes one per node: task 1 has no process.
{
  head -3 "$work/k2.map"
  echo "0 $(node_line 0) 0"
  echo "1 $(node_line 0) 1"
  for t in 2 3 4 5 6 7; do echo "$t $(node_line $((t - 1)))"; done
} > "$work/k2-short.map"
if TAC3MAP_COORDS_BY_RANK="$work/coords16" "$mpiexec" --allow-run-as-root --oversubscribe -n 8 \
    -x TAC3MAP_COORDS_BY_RANK "$program" "$work/k2-short.map" > "$work/out8" 2> "$work/err8"; then
  echo "remap should have failed: slot 1 of node 0 has no process" >&2
  exit 1
fi
grep -q "^tac3map_comm_remap: rank 0: task 1 of $work/k2-short.map is in slot 1 of node (0,0,0,0,0,0), where the job has 1 process\$" "$work/err8" || { cat "$work/err8" >&2; exit 1; }
test "$(grep -c "^tac3map_comm_remap" "$work/err8")" = 1  # one line, from rank 0
test ! -s "$work/out8"
echo "missing slot reported"

# A bad map file fails on every process, with one line (no rank prefix: all ranks share it).
for bad in "$work/missing.map" "$work/cg8.trace"; do
  if TAC3MAP_COORDS_BY_RANK="$work/coords" "$mpiexec" --allow-run-as-root --oversubscribe -n 8 \
      -x TAC3MAP_COORDS_BY_RANK "$program" "$bad" > "$work/outbad" 2> "$work/errbad"; then
    echo "remap should have failed with $bad" >&2
    exit 1
  fi
  test "$(grep -c "^tac3map_comm_remap" "$work/errbad")" = 1 || { cat "$work/errbad" >&2; exit 1; }
  test ! -s "$work/outbad"
done
grep -q "^tac3map_comm_remap: $work/cg8.trace:1: not a tac3map coordinates mapping" "$work/errbad" \
  || { cat "$work/errbad" >&2; exit 1; }
# The task count is every process's problem too: one line.
test "$(grep -c "^tac3map_comm_remap" "$work/err4")" = 1 || { cat "$work/err4" >&2; exit 1; }
grep -q "^tac3map_comm_remap: $work/cg8.map has 8 tasks but the communicator has 4 processes\$" \
  "$work/err4"
# No process can find its node: the same problem everywhere, one line.
if env -u TAC3MAP_NODE_COORDS -u TAC3MAP_COORDS_BY_RANK -u TAC3MAP_NODES \
    "$mpiexec" --allow-run-as-root --oversubscribe -n 8 "$program" "$work/cg8.map" \
    > "$work/outbad" 2> "$work/errbad"; then
  echo "remap should have failed without node coordinates" >&2
  exit 1
fi
test "$(grep -c "^tac3map_comm_remap" "$work/errbad")" = 1 || { cat "$work/errbad" >&2; exit 1; }
grep -q "^tac3map_comm_remap: no node coordinates: set TAC3MAP_NODE_COORDS" "$work/errbad"
echo "a bad map is reported once"
