#!/usr/bin/env bash
# The tracer records collectives in the native syntax, with sub-communicators: the CCSs of the
# trace recorded from tests/tools/mpi_collectives.cpp on 6 ranks equal those of the same calls
# written by hand.
# Usage: tracer_collectives_test.sh MPIEXEC TAC3MAP LIBTAC3TRACE PROGRAM
set -euo pipefail
mpiexec=$1 tac3map=$2 tracer=$3 program=$4
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
TAC3TRACE_PREFIX="$work/t" "$mpiexec" --allow-run-as-root --oversubscribe -n 6 \
  -x LD_PRELOAD="$tracer" -x TAC3TRACE_PREFIX "$program"
cat "$work/t.header" "$work"/t.rank* > "$work/t.trace"
{
  echo "tac3map-trace 1"
  echo "ranks 6"
  echo "0 comm evens 0 2 4"
  for r in 0 1 2 3 4 5; do
    echo "$r iteration"
    echo "$r bcast 1000 root=1"
    echo "$r allreduce 800"
    if [ $((r % 2)) = 0 ]; then
      echo "$r allgather 64 comm=evens"
      echo "$r barrier comm=evens"
    fi
    echo "$r barrier"
  done
} > "$work/expected.trace"
for algorithms in "" "allreduce=ring,allgather=bruck"; do
  "$tac3map" ccs --trace "$work/t.trace" --collectives "$algorithms" --json > "$work/a.json"
  "$tac3map" ccs --trace "$work/expected.trace" --collectives "$algorithms" --json > "$work/b.json"
  cmp "$work/a.json" "$work/b.json"
done
echo "recorded collectives give the hand-written CCSs"
