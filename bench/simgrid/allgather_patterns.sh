#!/usr/bin/env bash
# Which allgather does each MPI run, message by message? (docs/trace-format.md, "Which ring".)
# For one MPI_Allgather of BYTES per rank on N ranks it prints, per algorithm, where ranks 0
# and 1 send:
#   - Open MPI (mpicc, mpirun on this machine, oversubscribed): the pml monitoring component's
#     per-peer counts of internal messages (--mca pml_monitoring_enable 2), for the default
#     decision and for each tuned algorithm forced with coll_tuned_allgather_algorithm;
#   - SimGrid (smpicc, smpirun on a small cluster): the destinations in posting order, from
#     the Paje trace with --cfg=tracing/smpi/internals:yes, for SimGrid's algorithms.
# Not part of ctest. Needs openmpi-bin, libopenmpi-dev and libsimgrid-dev.
#
# usage: bench/simgrid/allgather_patterns.sh [N] [BYTES] [OUTDIR]   (default 8 1024, a temp dir)
# environment: SIMGRID_ALGORITHMS (default "default ring ompi mpich"),
#              OMPI_ALGORITHMS (tuned numbers, default "0 4 5": 0 = the default decision)
set -euo pipefail

n=${1:-8}
bytes=${2:-1024}
out=${3:-$(mktemp -d /tmp/tac3map-allgather.XXXXXX)}
SIMGRID_ALGORITHMS=${SIMGRID_ALGORITHMS:-default ring ompi mpich}
OMPI_ALGORITHMS=${OMPI_ALGORITHMS:-0 4 5}
mkdir -p "$out"
cd "$out"

cat > allgather.c <<'EOF'
#include <mpi.h>
#include <stdlib.h>
int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int n;
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  const int count = argc > 1 ? atoi(argv[1]) : 1024;
  char* block = calloc(count, 1);
  char* all = calloc((size_t)count * n, 1);
  MPI_Allgather(block, count, MPI_BYTE, all, count, MPI_BYTE, MPI_COMM_WORLD);
  free(block);
  free(all);
  MPI_Finalize();
  return 0;
}
EOF

echo "MPI_Allgather of $bytes bytes per rank on $n ranks"
if command -v mpicc >/dev/null && command -v mpirun >/dev/null; then
  mpicc -O1 allgather.c -o allgather-ompi
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
  for a in $OMPI_ALGORITHMS; do
    rules=()
    [ "$a" != 0 ] && rules=(--mca coll_tuned_use_dynamic_rules 1 --mca coll_tuned_allgather_algorithm "$a")
    # monitoring lines: I <rank> <peer> "<bytes> bytes" "<count> msgs sent" ...
    sends=$(mpirun -n "$n" --oversubscribe --mca pml_monitoring_enable 2 \
              --mca pml_monitoring_enable_output 1 "${rules[@]}" ./allgather-ompi "$bytes" 2>&1 |
            awk -F'\t' '$1 == "I" && ($2 == 0 || $2 == 1) {
                          split($4, b, " "); split($5, m, " ")
                          printf "%s->%s %s x %s B; ", $2, $3, m[1], b[1] / m[1] }')
    label=$([ "$a" = 0 ] && echo "default decision" || echo "coll_tuned_allgather_algorithm $a")
    echo "open mpi  $label: $sends"
  done
else
  echo "open mpi: mpicc/mpirun not found, skipped"
fi

if command -v smpicc >/dev/null && command -v smpirun >/dev/null; then
  smpicc -O1 allgather.c -o allgather-smpi 2>/dev/null
  cat > cluster.xml <<EOF
<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
  <cluster id="c" prefix="h" suffix="" radical="0-$((n - 1))" speed="1Gf" bw="5GBps" lat="1us"/>
</platform>
EOF
  for r in $(seq 0 $((n - 1))); do echo "h$r"; done > hosts.txt
  for a in $SIMGRID_ALGORITHMS; do
    smpirun -np "$n" -platform cluster.xml -hostfile hosts.txt -trace -trace-file "$a.paje" \
      --cfg=tracing/smpi/internals:yes --cfg=smpi/host-speed:1e9f --cfg=smpi/allgather:"$a" \
      ./allgather-smpi "$bytes" > "$a.log" 2>&1 || { echo "simgrid $a: smpirun failed, see $out/$a.log"; continue; }
    # Paje: 15 = start of a message (time, type, container, value, source, key),
    # 16 = its end (time, type, container, value, destination, key); container k = rank k-1.
    sends=$(awk '$1 == 15 { start[$7] = $2; from[$7] = $6 - 1 }
                 $1 == 16 { to[$7] = $6 - 1 }
                 END { for (k in start) if (from[k] <= 1) print from[k], start[k], k, to[k] }' "$a.paje" |
            sort -k1,1n -k2,2g -k3,3V |
            awk '{ if (NR == 1 || $1 != last) { printf "%s%s->", (NR > 1 ? "; " : ""), $1; last = $1 } else printf ","
                   printf "%s", $4 } END { print "" }')
    echo "simgrid   smpi/allgather:$a: $sends (destinations in posting order)"
  done
else
  echo "simgrid: smpicc/smpirun not found, skipped"
fi
echo "files in $out"
