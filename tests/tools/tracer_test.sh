#!/usr/bin/env bash
# The PMPI tracer on a real MPI program: examples/cg-mpi under mpirun with libtac3trace
# preloaded, for 32 and 64 ranks; the recorded trace must give exactly the CCSs of
# `tac3map gen cg` for the same ranks, message size and iterations.
# Usage: tracer_test.sh MPIEXEC TAC3MAP LIBTAC3TRACE CG_MPI
set -euo pipefail
mpiexec=$1 tac3map=$2 tracer=$3 cg=$4
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for ranks in 32 64; do
  TAC3TRACE_PREFIX="$work/cg$ranks" "$mpiexec" --allow-run-as-root --oversubscribe -n "$ranks" \
    -x LD_PRELOAD="$tracer" -x TAC3TRACE_PREFIX "$cg" 65536 2
  cat "$work/cg$ranks.header" "$work"/cg$ranks.rank* > "$work/traced.trace"
  "$tac3map" ccs --trace "$work/traced.trace" --json > "$work/traced.json"
  "$tac3map" gen cg --ranks "$ranks" --bytes 65536 --iterations 2 -o "$work/gen.trace"
  "$tac3map" ccs --trace "$work/gen.trace" --json > "$work/gen.json"
  cmp "$work/traced.json" "$work/gen.json"
  # The second iteration too.
  "$tac3map" ccs --trace "$work/traced.trace" --iteration 2 --json > "$work/traced2.json"
  "$tac3map" ccs --trace "$work/gen.trace" --iteration 2 --json > "$work/gen2.json"
  cmp "$work/traced2.json" "$work/gen2.json"
  echo "$ranks ranks: traced CCSs equal the generator's"
done
