#!/usr/bin/env bash
# `mpirun -n P tac3map map --chains K` must write exactly what one process writes with the same
# K and seed: the same mapping file and the same report apart from timings. Run for P = 2 and 4,
# on a case whose winning chain lives on another rank than 0 (chain 2 of 5: rank 2 of 4).
# Usage: mpi_chains_test.sh MPIEXEC TAC3MAP SOURCE_DIR
set -euo pipefail
mpiexec=$1 tac3map=$2 source=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
run() {  # run NAME LAUNCHER... : maps with both cases' options
  local name=$1
  shift
  "$@" "$tac3map" map --machine "$source/topologies/fx10.json" --shape 2x2x2x2x3x2 \
    --trace "$source/examples/cg64-sendrecv.trace" --objective tahb --init random --seed 5 \
    --t0 0.1 --t-end 0.05 --cooling 0.9 --trials 30 --chains 5 --threads 2 --quiet \
    -o "$name-a.map" --report "$name-a.json" >/dev/null
  "$@" "$tac3map" map --machine "$source/topologies/fx10.json" --shape 2x2x2x2x3x2 \
    --trace "$source/examples/cg64-isend.trace" --seed 4 --trials 200 --chains 3 --quiet \
    -o "$name-b.map" --report "$name-b.json" >/dev/null
}
same() {  # same FILE1 FILE2: identical apart from timings and memory
  diff <(grep -v -e '"seconds"' -e '_seconds"' -e '"peak_memory_mib"' "$1") \
    <(grep -v -e '"seconds"' -e '_seconds"' -e '"peak_memory_mib"' "$2")
}
run single env
grep -q '"best_chain": 2' single-a.json || { echo "case a should be won by chain 2" >&2; exit 1; }
for p in 2 4; do
  run "p$p" "$mpiexec" --allow-run-as-root --oversubscribe -n "$p"
  for c in a b; do
    cmp "single-$c.map" "p$p-$c.map"
    same "single-$c.json" "p$p-$c.json"
  done
  echo "P=$p: same mappings and reports as one process"
done
