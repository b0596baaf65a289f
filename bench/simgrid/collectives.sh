#!/usr/bin/env bash
# Are the collective crossovers that `tac3map predict` reports those of a simulation? (issue 11,
# part 4.) For allgather (ring, shift-ring, Bruck, recursive doubling) and allreduce (ring,
# recursive doubling) on 8, 16, 32 and 64 ranks of an FX10 box and block/vector sizes 1 KiB ..
# 16 MiB: a native trace with one call per rank (`<rank> allgather <bytes>`), converted with
# `tac3map convert --to simgrid-ti --collectives op=ALG` into tac3map's point-to-point steps,
# replayed by SimGrid's SMPI on `tac3map platform` (the SMPI configuration of validate.sh,
# common.sh), and predicted by `tac3map predict --collectives op=ALG` with the profile; plus
# `predict --collectives-compare` (the best algorithm by size, powers of two 8 B .. 16 MiB).
# docs/predict.md ("Collective crossovers against the simulator") records a run. Not part of
# ctest: it needs SimGrid (apt-get install libsimgrid-dev).
#
# usage: bench/simgrid/collectives.sh [OUTDIR]      (default: a new temporary folder)
# environment:
#   RANKS       communicator sizes (default "8 16 32 64"; boxes 1x1x1x2x3x2, 1x1x2x2x3x2,
#               1x2x2x2x3x2, 2x2x2x2x3x2; SHAPE_<n>=AxBx... sets another or a new size's box)
#   SIZES       bytes per call (default 1 KiB .. 16 MiB, powers of two)
#   MAPPINGS    mappings (default "tofu-default identity")
#   ALLGATHER   allgather algorithms (default "ring shift-ring bruck recursive-doubling")
#   ALLREDUCE   allreduce algorithms (default "ring recursive-doubling")
#   TAC3MAP, MACHINE (default topologies/fx10.json), PROFILE (default
#   topologies/fx10-profile.json), SMPIRUN, PYTHON
# Output: a report on standard output and OUTDIR/collectives-report.md, OUTDIR/collectives.csv
# (one line per simulated run: predicted seconds with PROFILE, predicted seconds with the
# "platform" profile -- one hop of the simulated platform, message_latency + hop_latency +
# bytes / link_bandwidth,
# which the script writes to OUTDIR/platform-profile.json so that the model is compared with
# the simulator on the simulator's own parameters -- and simulated seconds) and
# OUTDIR/compare.csv (predict --collectives-compare's best-by-size ranges per collective, box
# and mapping).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
TAC3MAP=${TAC3MAP:-$root/build/tac3map}
MACHINE=${MACHINE:-$root/topologies/fx10.json}
PROFILE=${PROFILE:-$root/topologies/fx10-profile.json}
SMPIRUN=${SMPIRUN:-smpirun}
PYTHON=${PYTHON:-python3}
RANKS=${RANKS:-8 16 32 64}
SIZES=${SIZES:-$(for k in $(seq 10 24); do echo $((1 << k)); done)}
MAPPINGS=${MAPPINGS:-tofu-default identity}
ALLGATHER=${ALLGATHER:-ring shift-ring bruck recursive-doubling}
ALLREDUCE=${ALLREDUCE:-ring recursive-doubling}
OUT=${1:-$(mktemp -d /tmp/tac3map-collectives.XXXXXX)}

source "$here/common.sh"   # SMPI_CFG, simulate

command -v "$SMPIRUN" >/dev/null || { echo "collectives.sh: $SMPIRUN not found (apt-get install libsimgrid-dev)" >&2; exit 1; }
command -v "$PYTHON" >/dev/null || { echo "collectives.sh: $PYTHON not found" >&2; exit 1; }
[ -x "$TAC3MAP" ] || { echo "collectives.sh: $TAC3MAP is not built" >&2; exit 1; }
"$TAC3MAP" convert --help | grep -q -- '--collectives' ||
  { echo "collectives.sh: $TAC3MAP convert has no --collectives" >&2; exit 1; }
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)   # smpirun runs in the case folder

shape_of() {  # ranks
  local var="SHAPE_$1"
  if [ -n "${!var:-}" ]; then echo "${!var}"; return; fi
  case "$1" in
    8) echo 1x1x1x2x3x2 ;;
    16) echo 1x1x2x2x3x2 ;;
    32) echo 1x2x2x2x3x2 ;;
    64) echo 2x2x2x2x3x2 ;;
    *) echo "collectives.sh: no FX10 box for $1 ranks; set SHAPE_$1" >&2; return 1 ;;
  esac
}

write_platform_profile "$MACHINE" "$PROFILE" "$OUT/platform-profile.json"

CSV=$OUT/collectives.csv
COMPARE=$OUT/compare.csv
echo "collective,ranks,shape,mapping,algorithm,bytes,predicted_seconds,predicted_platform_seconds,simulated_seconds" > "$CSV"
echo "collective,ranks,shape,mapping,from_bytes,to_bytes,best" > "$COMPARE"

trace_of() {  # op ranks bytes file
  { echo "tac3map-trace 1"; echo "ranks $2"
    for ((r = 0; r < $2; ++r)); do echo "$r $1 $3"; done; } > "$4"
}

predicted() {  # predict args...: communication seconds of the whole trace
  "$TAC3MAP" predict "$@" --json | "$PYTHON" -c 'import json, sys; print(repr(json.load(sys.stdin)["communication_seconds"]))'
}

start=$SECONDS
runs=0
for n in $RANKS; do
  shape=$(shape_of "$n")
  box=(--machine "$MACHINE" --shape "$shape")
  dir=$OUT/n$n
  mkdir -p "$dir"
  trace_of allgather "$n" 1024 "$dir/hosts.trace"   # for the host files: any trace of n ranks
  for mapping in $MAPPINGS; do
    hosts=$dir/${mapping//[:\/]/-}.hosts
    "$TAC3MAP" platform "${box[@]}" --trace "$dir/hosts.trace" "$mapping" -o "$dir/platform.xml" \
      --hostfile "$hosts" >/dev/null
    for op in allgather allreduce; do
      if [ "$op" = allgather ]; then algorithms=$ALLGATHER; else algorithms=$ALLREDUCE; fi
      # predict's own crossovers: the best algorithm by size, 8 B .. 16 MiB (powers of two)
      trace_of "$op" "$n" 1024 "$dir/$op.trace"
      "$TAC3MAP" predict "${box[@]}" --trace "$dir/$op.trace" "$mapping" --profile "$PROFILE" \
          --collectives-compare --json |
        "$PYTHON" -c '
import json, sys
for c in json.load(sys.stdin)["collectives"]:
    for r in c["best_by_size"]:
        print(",".join(sys.argv[1:] + [str(r["from_bytes"]), str(r["to_bytes"]), r["best"]]))
' "$op" "$n" "$shape" "$mapping" >> "$COMPARE"
      for bytes in $SIZES; do
        trace=$dir/$op-$bytes.trace
        trace_of "$op" "$n" "$bytes" "$trace"
        for algorithm in $algorithms; do
          choice=(--collectives "$op=$algorithm")
          ti=$dir/ti/$op-$bytes-$algorithm.ti
          mkdir -p "$dir/ti"
          "$TAC3MAP" convert "$trace" --to simgrid-ti "${choice[@]}" -o "$ti" >/dev/null
          p=$(predicted "${box[@]}" --trace "$trace" "$mapping" --profile "$PROFILE" "${choice[@]}")
          q=$(predicted "${box[@]}" --trace "$trace" "$mapping" --profile "$OUT/platform-profile.json" "${choice[@]}")
          log=$dir/ti/$op-$bytes-$algorithm-${mapping//[:\/]/-}.smpi.log
          s=$(simulate "$dir/platform.xml" "$hosts" "$ti" "$log") ||
            { echo "collectives.sh: simulation of $op $algorithm $bytes B on $n ranks ($mapping) failed" >&2; exit 1; }
          echo "$op,$n,$shape,$mapping,$algorithm,$bytes,$p,$q,$s" >> "$CSV"
          rm -f "$ti".rank*   # ~100 MB over all runs otherwise; the index and log stay
          runs=$((runs + 1))
        done
      done
    done
    echo "collectives.sh: $n ranks, $mapping: done ($runs simulations, $((SECONDS - start)) s)" >&2
  done
done

"$PYTHON" "$here/collectives_summary.py" "$CSV" "$COMPARE" | tee "$OUT/collectives-report.md"
echo "per run: $CSV; predict's ranges: $COMPARE; report: $OUT/collectives-report.md"
