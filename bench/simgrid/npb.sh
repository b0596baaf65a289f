#!/usr/bin/env bash
# Real programs (issue 23, item 4): the NAS Parallel Benchmarks 3.3 (MPI) under SimGrid SMPI.
# For each kernel: build it with SMPI's compiler wrappers from the unmodified copy in
# shared/npb (README there), trace one run with `smpirun -trace-ti` (SimGrid's
# time-independent format: an index + one file per rank, read by tac3map as is), compute the
# mappings identity, tofu-default, tahb-map (`map --objective tahb`), Scotch's maps (four
# strategies, as bench/simgrid/peers.sh; the best is the one with the lowest simulated time)
# and tac3-map (`map`), score them (`tac3map score --output-format csv`), then run the real
# binary (not a replay) under SMPI on the box's platform (`tac3map platform`) once per mapping
# and compare the simulated times. Not part of ctest: needs SimGrid (libsimgrid-dev: smpirun,
# smpicc, smpiff), gfortran, gcc, python3 and, for the Scotch maps, scotch (scotch_gmap).
#
# usage: bench/simgrid/npb.sh [OUTDIR]      (default: $NPB_WORK/results)
# environment:
#   KERNELS      kernel.class list (default "cg.A mg.A ft.A is.A bt.W lu.W sp.W")
#   RANKS        MPI ranks, one per node of the box (default 64)
#   SHAPE        the box on MACHINE (default 2x2x2x2x3x2: 96 FX10 nodes, 64 of them used)
#   NPB_SRC      the unmodified NPB3.3-MPI (default: ../shared/npb/NPB3.3-MPI beside the repo)
#   NPB_WORK     cache of builds, traces, maps and runs (default /tmp/tac3map-npb); a rerun
#                skips what exists: NPB_WORK/NPB3.3-MPI/bin (binaries), NPB_WORK/traces/K/trace.txt
#                (the index; rank files in trace.txt_files/), OUTDIR/K/*.map (maps, redone when
#                MAP_FLAGS, SEED or COLLECTIVES change), NPB_WORK/runs/K/<hash>.log (one run per
#                distinct host file and SMPI configuration)
#   MAP_FLAGS    extra flags of both `map` runs (tahb-map, tac3-map), default none; e.g.
#                MAP_FLAGS="--init identity --time-limit 20"
#   MAP_TIMEOUT  seconds after which a `map` run is stopped and its mapping left out (default: none)
#   MAPPINGS     default "identity tofu-default tahb-map scotch tac3-map"
#   SEED         seed of the tahb and tac3 searches (default 1)
#   COLLECTIVES  tac3map's --collectives for map/score (default: what SMPI runs, below)
#   EAGER_LIMIT  tac3map's --eager-limit for map/score (default 65536, the simulation's
#                smpi/send-is-detached-thresh in common.sh; empty: none)
#   SMPI_COLLS   the collective algorithms SMPI runs: "default" (SMPI's own default selector,
#                default; with COLLECTIVES unset, tac3map is told the same algorithms at the
#                kernel's sizes, smpi_default_collectives below) or "tac3map" (SMPI told to run
#                the algorithms tac3map assumes by
#                default: bcast binomial_tree, reduce binomial, allreduce rdb, alltoall and
#                alltoallv ring = tac3map's pairwise, barrier ompi_bruck = its
#                dissemination; with COLLECTIVES unset this also passes
#                --collectives allgather=shift-ring for SMPI's ring allgather)
#   COMPUTE      "no" (default): --cfg=smpi/simulate-computation:no, so the simulated time is
#                the communication alone (the computation still runs, natively, but takes no
#                simulated time); "yes": computation simulated at 1 Gflop/s per node
#   STEPS        "all" (default), or "trace": build and trace only (no tac3map needed)
#   TAC3MAP      the tac3map binary (default: build/tac3map)
#   MACHINE      machine file (default: topologies/fx10.json)
#   SMPIRUN, PYTHON  the smpirun and python3 to use
# Output: a table on standard output (also OUTDIR/npb-report.txt), OUTDIR/npb.csv (one line
# per kernel and mapping, simulated and not), OUTDIR/steps.csv (wall time, peak memory of
# every build, trace, map and run).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
TAC3MAP=${TAC3MAP:-$root/build/tac3map}
MACHINE=${MACHINE:-$root/topologies/fx10.json}
SMPIRUN=${SMPIRUN:-smpirun}
PYTHON=${PYTHON:-python3}
KERNELS=${KERNELS:-cg.A mg.A ft.A is.A bt.W lu.W sp.W}
RANKS=${RANKS:-64}
SHAPE=${SHAPE:-2x2x2x2x3x2}
NPB_SRC=${NPB_SRC:-$root/../shared/npb/NPB3.3-MPI}
NPB_WORK=${NPB_WORK:-/tmp/tac3map-npb}
MAP_FLAGS=${MAP_FLAGS:-}
MAP_TIMEOUT=${MAP_TIMEOUT:-}
MAPPINGS=${MAPPINGS:-identity tofu-default tahb-map scotch tac3-map}
SEED=${SEED:-1}
COLLECTIVES=${COLLECTIVES:-}
EAGER_LIMIT=${EAGER_LIMIT-65536}
SMPI_COLLS=${SMPI_COLLS:-default}
COMPUTE=${COMPUTE:-no}
STEPS=${STEPS:-all}

source "$here/common.sh"   # SMPI_CFG (the network model of validate.sh and peers.sh)

for tool in "$SMPIRUN" smpiff smpicc gfortran "$PYTHON"; do
  command -v "$tool" >/dev/null || { echo "npb.sh: $tool not found (apt-get install libsimgrid-dev gfortran python3)" >&2; exit 1; }
done
[ -d "$NPB_SRC/CG" ] || { echo "npb.sh: no NPB3.3-MPI at $NPB_SRC (set NPB_SRC)" >&2; exit 1; }
if [ "$STEPS" != trace ]; then
  [ -x "$TAC3MAP" ] || { echo "npb.sh: $TAC3MAP is not built" >&2; exit 1; }
  if [[ " $MAPPINGS " == *" scotch "* ]] && ! command -v scotch_gmap >/dev/null; then
    echo "npb.sh: scotch_gmap not found (apt-get install scotch), or leave scotch out of MAPPINGS" >&2; exit 1
  fi
fi
mkdir -p "$NPB_WORK"
NPB_WORK=$(cd "$NPB_WORK" && pwd)
OUT=${1:-$NPB_WORK/results}
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
STEPS_CSV=$OUT/steps.csv
[ -f "$STEPS_CSV" ] || echo "kernel,step,wall_seconds,peak_kib,cached,note" > "$STEPS_CSV"
step() { echo "$1,$2,$3,$4,$5,$6" >> "$STEPS_CSV"; }   # kernel step wall peak cached note
log() { echo "npb.sh: $*" >&2; }

# --- 1. build (the recipe of shared/npb/README.md) -------------------------------------------
BUILD=$NPB_WORK/NPB3.3-MPI
if [ ! -f "$BUILD/config/make.def" ]; then
  rm -rf "$BUILD"
  cp -r "$NPB_SRC/." "$BUILD"
  chmod -R u+w "$BUILD"   # shared/ is read-only
  cat > "$BUILD/config/make.def" <<'EOF'
# written by tac3map's bench/simgrid/npb.sh: SimGrid SMPI's compiler wrappers
MPIF77 = smpiff
FLINK = $(MPIF77)
FMPI_LIB =
FMPI_INC =
FFLAGS = -O2 -fallow-argument-mismatch -std=legacy
FLINKFLAGS = -O2
MPICC = smpicc
CLINK = $(MPICC)
CMPI_LIB =
CMPI_INC =
CFLAGS = -O2
CLINKFLAGS = -O2
CC = gcc
BINDIR = ../bin
RAND = randdp
EOF
  mkdir -p "$BUILD/bin"
fi

build() {  # kernel class -> path of the binary
  local k=$1 c=$2 bin=$BUILD/bin/$1.$2.$RANKS
  if [ ! -x "$bin" ]; then
    log "building $k class $c for $RANKS ranks"
    /usr/bin/time -f '%e %M' -o "$NPB_WORK/build-$k.$c.time" \
      make -C "$BUILD" "${k^^}" NPROCS="$RANKS" CLASS="$c" > "$NPB_WORK/build-$k.$c.log" 2>&1 ||
      { log "build of $k.$c failed, see $NPB_WORK/build-$k.$c.log"; return 1; }
    [ -x "$bin" ] || { log "build of $k.$c made no $bin (see $NPB_WORK/build-$k.$c.log)"; return 1; }
    read -r wall peak < "$NPB_WORK/build-$k.$c.time"
    step "$k.$c" build "$wall" "$peak" 0 ""
  fi
  echo "$bin"
}

# --- 2. trace ----------------------------------------------------------------------------------
# A plain SMPI cluster of RANKS hosts: a TI trace records each rank's MPI calls and arguments,
# which do not depend on the platform (only its `compute` amounts do, and tac3map ignores them).
trace_platform() {
  local dir=$NPB_WORK/trace-platform
  mkdir -p "$dir"
  if [ ! -f "$dir/cluster-$RANKS.xml" ]; then
    cat > "$dir/cluster-$RANKS.xml" <<EOF
<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
  <cluster id="trace" prefix="node-" radical="0-$((RANKS - 1))" suffix="" speed="1Gf" bw="10GBps" lat="1us"/>
</platform>
EOF
    for ((i = 0; i < RANKS; i++)); do echo "node-$i"; done > "$dir/cluster-$RANKS.hosts"
  fi
}

trace() {  # kernel.class binary -> index of the trace
  local dir=$NPB_WORK/traces/$1.$RANKS
  if [ ! -s "$dir/trace.txt" ]; then
    trace_platform
    rm -rf "$dir"; mkdir -p "$dir"
    log "tracing $1 on $RANKS ranks"
    # smpirun in the trace folder: the index lists the rank files relative to it
    (cd "$dir" && /usr/bin/time -f '%e %M' -o trace.time \
      "$SMPIRUN" -np "$RANKS" -platform "$NPB_WORK/trace-platform/cluster-$RANKS.xml" \
        -hostfile "$NPB_WORK/trace-platform/cluster-$RANKS.hosts" -trace-ti -trace-file trace.txt \
        --cfg=smpi/host-speed:1Gf "$2" > trace.log 2>&1) ||
      { log "tracing $1 failed, see $dir/trace.log"; rm -f "$dir/trace.txt"; return 1; }
    grep -q 'Verification *= *SUCCESSFUL' "$dir/trace.log" ||
      { log "$1: NPB did not verify under tracing, see $dir/trace.log"; rm -f "$dir/trace.txt"; return 1; }
    read -r wall peak < "$dir/trace.time"
    step "$1" trace "$wall" "$peak" 0 "$(du -sk "$dir" | cut -f1) KiB"
  fi
  echo "$dir/trace.txt"
}

# --- 3. maps -----------------------------------------------------------------------------------
# Scotch strategies, as bench/simgrid/peers.sh (which explains them).
SCOTCH_NAMES=(default quality gg-fm gg)
SCOTCH_OPTS=(""
             "-cq"
             "-mr{job=t,map=t,poli=S,sep=h{pass=10}f{move=120,pass=-1,bal=0.01,type=b}}"
             "-mr{job=t,map=t,poli=S,sep=h{pass=10}}")

# Scotch maps of TRACE on the box, written as DIR/scotch-<strategy>.map; prints the labels.
scotch_maps() {  # trace dir kernel
  local work=$2/scotch i name start
  mkdir -p "$work"
  start=$(date +%s.%N)
  "$TAC3MAP" ccs --json --trace "$1" "${coll_flags[@]}" > "$work/ccs.json"
  tasks=$("$PYTHON" "$here/scotch_maps.py" graphs "$MACHINE" "$SHAPE" "$work/ccs.json" "$work")
  amk_grf "$work/arch.grf" "$work/arch.tgt"
  for i in "${!SCOTCH_NAMES[@]}"; do
    name=${SCOTCH_NAMES[$i]}
    if ! scotch_gmap "$work/src.grf" "$work/arch.tgt" "$work/$name.smap" ${SCOTCH_OPTS[$i]} \
         > "$work/$name.log" 2>&1; then
      log "scotch_gmap ($name) failed, see $work/$name.log; left out"; continue
    fi
    if ! "$PYTHON" "$here/scotch_maps.py" convert "$SHAPE" "$tasks" "$work/$name.smap" \
         "$2/scotch-$name.map" 2>> "$work/$name.log"; then
      log "scotch ($name): $(tail -1 "$work/$name.log"); left out"; continue
    fi
    echo "scotch-$name"
  done
  step "$3" scotch-maps "$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.2f", b - a }')" "" 0 \
    "ccs + 4 strategies"
}

# `tac3map map` with OBJECTIVE into DIR/LABEL.map, timed; redone when its flags change.
tac3map_map() {  # trace dir label objective kernel
  local map=$2/$3.map flags=(--objective "$4" --seed "$SEED" "${coll_flags[@]}") status=0 wall peak
  # shellcheck disable=SC2206
  flags+=($MAP_FLAGS)
  if [ -s "$map" ] && [ "$(cat "$map.flags" 2>/dev/null)" = "${flags[*]}" ]; then
    read -r wall peak < "$map.time"
    step "$5" "map-$3" "$wall" "$peak" 1 "${flags[*]}"
    return 0
  fi
  rm -f "$map"
  local cmd=("$TAC3MAP" map --machine "$MACHINE" --shape "$SHAPE" --trace "$1" "${flags[@]}" -o "$map")
  [ -n "$MAP_TIMEOUT" ] && cmd=(timeout "$MAP_TIMEOUT" "${cmd[@]}")
  log "$5: map $3 (${flags[*]})"
  /usr/bin/time -f '%e %M' -o "$map.time" "${cmd[@]}" > "$2/$3.log" 2>&1 || status=$?
  read -r wall peak < <(tail -1 "$map.time")
  if [ "$status" != 0 ] || [ ! -s "$map" ]; then
    step "$5" "map-$3" "$wall" "$peak" 0 "failed (status $status) ${flags[*]}"
    log "$5: map $3 failed or timed out (status $status, ${wall}s, see $2/$3.log); left out"
    rm -f "$map"; return 1
  fi
  echo "${flags[*]}" > "$map.flags"
  step "$5" "map-$3" "$wall" "$peak" 0 "${flags[*]}"
}

# --- 4. runs of the real binary ------------------------------------------------------------------
# SMPI as validate.sh and peers.sh configure it (common.sh's SMPI_CFG), less its replay logging.
RUN_CFG=()
for c in "${SMPI_CFG[@]}"; do [[ "$c" == --log=* ]] || RUN_CFG+=("$c"); done
# SMPI prints "Simulated time" (category smpi_utils) with --cfg=smpi/display-timing:yes; its
# line is stamped with the clock to 1e-12 s (the message itself has 6 digits). (A format on
# smpi_utils alone silences it in SimGrid 3.32, hence root.fmt.)
RUN_CFG+=(--cfg=smpi/simulate-computation:"$COMPUTE" --cfg=smpi/display-timing:yes
          --log=root.thres:warning --log=smpi_config.thres:error
          --log=smpi_utils.thres:info '--log=root.fmt:clock=%.12r%e%c%e%m%n')
case "$SMPI_COLLS" in
  default) ;;
  tac3map)
    RUN_CFG+=(--cfg=smpi/bcast:binomial_tree --cfg=smpi/reduce:binomial --cfg=smpi/allreduce:rdb
              --cfg=smpi/alltoall:ring --cfg=smpi/alltoallv:ring --cfg=smpi/allgather:ring
              --cfg=smpi/barrier:ompi_bruck)  # Bruck's barrier is tac3map's dissemination
    [ -n "$COLLECTIVES" ] || COLLECTIVES=allgather=shift-ring ;;
  *) echo "npb.sh: SMPI_COLLS must be default or tac3map" >&2; exit 1 ;;
esac
# What SimGrid's default selector (smpi_default_selector.cpp) runs, in tac3map's names:
# bcast binomial, reduce, gather, scatter, allgather(v) and alltoallv linear (every message
# posted at once), allreduce a reduce to rank 0 then a bcast; alltoall by Open MPI's decision
# for 64 ranks, Bruck below 1 KiB blocks (IS: 4 bytes), linear up to 256 KiB (FT: 32 KiB).
smpi_default_collectives() {  # kernel
  local all=bcast=binomial,reduce=linear,gather=linear,scatter=linear,gatherv=linear
  all+=,scatterv=linear,allgather=linear,allgatherv=linear,alltoallv=linear,allreduce=reduce-bcast
  # Its barrier, Open MPI's basic linear, for binaries that know it (common.sh).
  [ -n "$(smpi_barrier_flags)" ] && all+=,barrier=linear
  case "$1" in
    is.*) echo "$all,alltoall=bruck" ;;
    *) echo "$all,alltoall=linear" ;;
  esac
}
# tac3map's --collectives and --eager-limit for KERNEL into coll_flags.
set_coll_flags() {  # kernel
  local collectives=$COLLECTIVES
  [ -z "$collectives" ] && [ "$SMPI_COLLS" = default ] && collectives=$(smpi_default_collectives "$1")
  coll_flags=()
  [ -n "$collectives" ] && coll_flags=(--collectives "$collectives")
  # The simulation's eager limit (common.sh): MG's 4-32 KiB blocking sends go at once there.
  [ -n "$EAGER_LIMIT" ] && coll_flags+=(--eager-limit "$EAGER_LIMIT")
  return 0
}

# Runs BINARY on PLATFORM with HOSTS; prints the simulated seconds and NPB's own timed
# seconds. Cached per host file, binary and configuration.
run() {  # kernel binary platform hosts
  local key dir=$NPB_WORK/runs/$1.$RANKS log wall peak simulated npb
  key=$( (cat "$4" "$3"; echo "$2 ${RUN_CFG[*]}"; md5sum < "$2") | md5sum | cut -c1-16)
  mkdir -p "$dir"
  log=$dir/$key.log
  if ! grep -q 'Verification *= *SUCCESSFUL' "$log" 2>/dev/null; then
    cp "$4" "$dir/$key.hosts"
    (cd "$dir" && /usr/bin/time -f '%e %M' -o "$key.time" \
      "$SMPIRUN" -np "$RANKS" -platform "$3" -hostfile "$dir/$key.hosts" "${RUN_CFG[@]}" "$2") \
      > "$log" 2>&1 || { log "run failed: $log"; return 1; }
    grep -q 'Verification *= *SUCCESSFUL' "$log" || { log "$1: NPB did not verify, see $log"; return 1; }
    read -r wall peak < "$dir/$key.time"
    step "$1" "run-$(basename "$4" .hosts)" "$wall" "$peak" 0 "$log"
  fi
  simulated=$(sed -n 's/^clock=\([0-9.e+-]*\) smpi_utils Simulated time.*/\1/p' "$log" | tail -1)
  npb=$(sed -n 's/^ *Time in seconds *= *\([0-9.eE+-]*\).*/\1/p' "$log" | tail -1)
  [ -n "$simulated" ] || { log "no simulated time in $log"; return 1; }
  echo "$simulated $npb"
}

# --- the kernels -------------------------------------------------------------------------------
CSV=$OUT/npb.csv
HEADER=kernel,class,mapping,tac3_seconds,tac3_lower_bound,tahb,max_link_messages,avg_hops,simulated_seconds,npb_seconds
# keep the rows of kernels not run this time (a run of KERNELS="cg.A" leaves mg.A's rows)
if [ -f "$CSV" ] && [ "$(head -1 "$CSV")" = "$HEADER" ]; then
  awk -F, -v ks=" $KERNELS " 'NR > 1 && index(ks, " " $1 "." $2 " ") == 0' "$CSV" > "$CSV.keep"
else
  : > "$CSV.keep"
fi
{ echo "$HEADER"; cat "$CSV.keep"; } > "$CSV"
rm -f "$CSV.keep"
for kc in $KERNELS; do
  kernel=${kc%.*} class=${kc#*.}
  bin=$(build "$kernel" "$class")
  index=$(trace "$kc" "$bin")
  [ "$kc" = cg.A ] && [ "$RANKS" = 64 ] && [ -w /work ] && echo "$index" > /work/npb-cg-trace.txt
  [ "$STEPS" = trace ] && continue
  set_coll_flags "$kc"
  dir=$OUT/$kc.$RANKS
  mkdir -p "$dir"
  box=(--machine "$MACHINE" --shape "$SHAPE")
  mappings=()
  for m in $MAPPINGS; do
    case "$m" in
      identity|tofu-default|random:*) mappings+=("$m") ;;
      tahb-map) tac3map_map "$index" "$dir" tahb-map tahb "$kc" && mappings+=("$dir/tahb-map.map") ;;
      tac3-map) tac3map_map "$index" "$dir" tac3-map tac3 "$kc" && mappings+=("$dir/tac3-map.map") ;;
      scotch) while read -r s; do mappings+=("$dir/$s.map"); done < <(scotch_maps "$index" "$dir" "$kc") ;;
      *) echo "npb.sh: unknown mapping $m" >&2; exit 1 ;;
    esac
  done
  # mapping,tac3,tac3_lower_bound,tahb,rmatt_o2f,max_link_messages,avg_hops
  /usr/bin/time -f '%e %M' -o "$dir/scores.time" "$TAC3MAP" score "${box[@]}" --trace "$index" \
    "${coll_flags[@]}" --output-format csv "${mappings[@]}" > "$dir/scores.csv"
  read -r wall peak < "$dir/scores.time"
  step "$kc" score "$wall" "$peak" 0 "${#mappings[@]} mappings"
  "$TAC3MAP" platform "${box[@]}" -o "$dir/platform.xml" >/dev/null
  line=1
  for mapping in "${mappings[@]}"; do
    line=$((line + 1))
    label=$(basename "$mapping" .map)
    label=${label//:/-}
    ranks=(--ranks "$RANKS")
    [ -f "$mapping" ] && ranks=()   # a mapping file sizes the host file itself
    "$TAC3MAP" platform "${box[@]}" "${ranks[@]}" "$mapping" -o "$dir/$label.platform.xml" \
      --hostfile "$dir/$label.hosts" >/dev/null
    rm -f "$dir/$label.platform.xml"
    log "$kc: running on $label"
    read -r simulated npb < <(run "$kc" "$bin" "$dir/platform.xml" "$dir/$label.hosts") ||
      { log "$kc $label: no run"; simulated="" npb=""; }
    sed -n "${line}p" "$dir/scores.csv" | awk -F, -v k="$kernel" -v c="$class" -v m="$label" \
      -v t="$simulated" -v n="$npb" \
      '{ print k "," c "," m "," $2 "," $3 "," $4 "," $6 "," $7 "," t "," n }' >> "$CSV"
  done
done
[ "$STEPS" = trace ] && { log "traces in $NPB_WORK/traces"; exit 0; }

"$PYTHON" "$here/npb_summary.py" "$CSV" "$STEPS_CSV" | tee "$OUT/npb-report.txt"
