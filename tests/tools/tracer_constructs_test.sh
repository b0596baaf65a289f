#!/usr/bin/env bash
# The tracer records every construct of tests/data/constructs/constructs.c (partial waitall,
# wildcards, waitany, test, persistent requests, probe, a split communicator, non-blocking
# collectives, sendrecv_replace, ssend, issend) under a real MPI: the trace gives the same
# messages (source, destination, bytes) as the hand-written native trace of the program.
# Usage: tracer_constructs_test.sh MPIEXEC TAC3MAP LIBTAC3TRACE PROGRAM SOURCE_DIR
set -euo pipefail
mpiexec=$1 tac3map=$2 tracer=$3 program=$4 source=$5
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
TAC3TRACE_PREFIX="$work/t" "$mpiexec" --allow-run-as-root --oversubscribe -n 4 \
  -x LD_PRELOAD="$tracer" -x TAC3TRACE_PREFIX "$program"
cat "$work/t.header" "$work"/t.rank* > "$work/t.trace"
messages() { "$tac3map" ccs --trace "$1" | sed -n 's/^  \([0-9]*\) -> \([0-9]*\)  \([0-9]*\) bytes.*/\1 \2 \3/p' | sort; }
messages "$work/t.trace" > "$work/traced.txt"
messages "$source/tests/data/constructs/constructs.trace" > "$work/expected.txt"
test "$(wc -l < "$work/expected.txt")" = 46
diff "$work/expected.txt" "$work/traced.txt"
echo "every construct recorded"
