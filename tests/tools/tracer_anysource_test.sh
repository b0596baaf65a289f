#!/usr/bin/env bash
# The tracer resolves MPI_ANY_SOURCE / MPI_ANY_TAG from statuses and translates communicator
# ranks to world ranks (tests/tools/mpi_anysource.cpp: world rank 3 is rank 0 of a reversed split
# communicator and receives two messages from each other rank).
# Usage: tracer_anysource_test.sh MPIEXEC TAC3MAP LIBTAC3TRACE PROGRAM
set -euo pipefail
mpiexec=$1 tac3map=$2 tracer=$3 program=$4
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
TAC3TRACE_PREFIX="$work/t" "$mpiexec" --allow-run-as-root --oversubscribe -n 4 \
  -x LD_PRELOAD="$tracer" -x TAC3TRACE_PREFIX "$program"
cat "$work/t.header" "$work"/t.rank* > "$work/t.trace"
"$tac3map" ccs --trace "$work/t.trace" > "$work/ccs.txt"
test "$(grep -c -- '-> 3 ' "$work/ccs.txt")" = 6
for source in 0 1 2; do
  test "$(grep -c -- "^  $source -> 3 " "$work/ccs.txt")" = 2
done
! grep -q -- '-> [012] ' "$work/ccs.txt"
echo "sources resolved and translated"
