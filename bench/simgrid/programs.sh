#!/usr/bin/env bash
# The real-program bench run as users run them: tac3map with its defaults only, told the MPI.
# For each program (the NAS Parallel Benchmarks of bench/simgrid/npb.sh and the proxy
# applications of bench/simgrid/apps.sh), RANKS ranks traced once with SMPI (`smpirun
# -trace-ti`; built, traced and checked by those scripts, whose caches this one reads), then
# on the box SHAPE of MACHINE (FX10 2x2x2x2x3x2 by default, 96 nodes, RANKS of them used):
#   - the mappings identity and tofu-default (names tac3map resolves itself); tahb-map
#     (`tac3map map --objective tahb --mpi smpi --seed 1`); Scotch's static maps (npb.sh's
#     scotch_maps: four strategies, each run; the best simulated one is "scotch"); and tac3-map
#     for each seed S of SEEDS (`tac3map map --mpi smpi --seed S`, no other flag). Besides the
#     machine, box, trace, seed, output and objective, `--mpi smpi` is the only flag `map` ever
#     gets: the question is how tac3map does as a user runs it, with its default search, start,
#     collectives and eager limit, knowing only which MPI the program runs. That MPI is SMPI
#     (SimGrid 3.32's defaults, docs/mpi-profiles.md): the runs below are SMPI runs, so
#     `--mpi smpi` is the truth, where a machine file's "mpi" (fujitsu for FX10) would describe
#     the real machine's. Each map's wall time and peak memory are recorded (/usr/bin/time); a
#     map running longer than MAP_TIMEOUT is stopped and recorded as timed out (no run);
#   - `tac3map score --mpi smpi --output-format csv` of every mapping (tac3, the flow model,
#     tahb, ...);
#   - the platform `tac3map platform --mpi smpi` (the MPI's eager limit, software costs and
#     collective selector in its <config>) and one SMPI host file per mapping (`tac3map
#     platform ... MAPPING --hostfile H`, its platform thrown away: the same box);
#   - one run of the real binary (not a replay) per mapping under smpirun on that platform with
#     --cfg=network/model:CM02 --cfg=network/crosstraffic:0 (tac3map's max-min network; a
#     platform file cannot choose the model, smpirun sets it on its command line) and
#     --cfg=smpi/simulate-computation:no (the simulated time is the communication alone, as
#     npb.sh's COMPUTE=no), otherwise SMPI's defaults and the platform's <config> (not
#     common.sh's SMPI_CFG); each run checked by the program's own verification (npb.sh's run,
#     apps.sh's run_app, which cache runs by binary, platform, host file and configuration).
# programs_summary.py then compares, per program, the simulated time of every tac3 seed with
# the best of the other maps, the spread of the seeds, and the flow model's ranking (Kendall's
# tau of its predictions against the simulated times). Not part of ctest: needs what npb.sh
# and apps.sh need (SimGrid's smpirun and compiler wrappers, gfortran, g++), python3, GNU
# time, coreutils' timeout and, for the Scotch maps, scotch (scotch_gmap, amk_grf).
#
# usage: bench/simgrid/programs.sh [OUTDIR]      (default: $WORK/results)
# environment:
#   PROGRAMS     NPB kernel.class and apps.sh application names (default "cg.A mg.A ft.A is.A
#                bt.W lu.W sp.W pennant snap cloverleaf miniamr-nolb")
#   MAPPINGS     default "identity tofu-default tahb-map scotch tac3-map"
#   SEEDS        the tac3-map seeds (default "1 2 3"); tahb-map always seed 1
#   MAP_TIMEOUT  seconds a `map` may run (default 900; 0: no limit); a timed-out map is kept as
#                such and tried again only with a larger MAP_TIMEOUT
#   RANKS        MPI ranks (default 64: the apps' problems are sized for 64)
#   TAC3MAP      the tac3map binary (default: build/tac3map; waited for up to 10 minutes when
#                missing, as while it is being rebuilt)
#   MACHINE, SHAPE  the machine file and box (default topologies/fx10.json, 2x2x2x2x3x2)
#   WORK         default /tmp/tac3map-programs (OUTDIR, npb.sh's trace-only output)
#   NPB_WORK, APPS_WORK, NPB_SRC, APPS_SRC  npb.sh's and apps.sh's caches and sources
#                (defaults /tmp/tac3map-npb, /tmp/tac3map-apps; the runs are cached there too)
#   NICENESS     the script renices itself to at least this (default 5): SMPI and map are heavy
#   SMPIRUN, PYTHON  the smpirun and python3 to use
# A rerun is cheap and resumes: traces, maps (redone when their command line changes), Scotch's
# maps, scores (redone when a map, the binary or the machine file changes) and runs are cached.
# Output: OUTDIR/programs.csv (program, mapping, seed, tac3_seconds, flow_seconds, tahb,
# simulated_seconds, map_wall_s, map_peak_kib, status; rewritten after every program from
# OUTDIR/<program>/rows.csv, rows of programs not run this time kept), OUTDIR/steps.csv (wall
# time, peak memory of every map, score and run), the table of programs_summary.py on standard
# output and in OUTDIR/programs-report.txt. Map logs (tac3map's own messages):
# OUTDIR/<program>/<label>.log.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
TAC3MAP=${TAC3MAP:-$root/build/tac3map}
MACHINE=${MACHINE:-$root/topologies/fx10.json}
SHAPE=${SHAPE:-2x2x2x2x3x2}
SEEDS=${SEEDS:-1 2 3}
PROGRAMS=${PROGRAMS:-cg.A mg.A ft.A is.A bt.W lu.W sp.W pennant snap cloverleaf miniamr-nolb}
MAPPINGS=${MAPPINGS:-identity tofu-default tahb-map scotch tac3-map}
MAP_TIMEOUT=${MAP_TIMEOUT:-900}
RANKS=${RANKS:-64}
WORK=${WORK:-/tmp/tac3map-programs}
NPB_WORK=${NPB_WORK:-/tmp/tac3map-npb}
APPS_WORK=${APPS_WORK:-/tmp/tac3map-apps}
NICENESS=${NICENESS:-5}
SMPIRUN=${SMPIRUN:-smpirun}
PYTHON=${PYTHON:-python3}
MPI=smpi   # the MPI the simulation runs (not a knob: the runs are SMPI's)
export NPB_WORK APPS_WORK SMPIRUN PYTHON RANKS

log() { echo "programs.sh: $*" >&2; }

if [ "$(nice)" -lt "$NICENESS" ]; then renice -n "$NICENESS" -p $$ >/dev/null; fi
for tool in "$SMPIRUN" "$PYTHON" /usr/bin/time timeout md5sum; do
  command -v "$tool" >/dev/null || { log "$tool not found"; exit 1; }
done
if [[ " $MAPPINGS " == *" scotch "* ]] && ! command -v scotch_gmap >/dev/null; then
  log "scotch_gmap not found (apt-get install scotch), or leave scotch out of MAPPINGS"; exit 1
fi
for m in $MAPPINGS; do
  case "$m" in identity|tofu-default|tahb-map|scotch|tac3-map) ;;
    *) log "unknown mapping $m (identity tofu-default tahb-map scotch tac3-map)"; exit 1 ;; esac
done
mkdir -p "$WORK"
WORK=$(cd "$WORK" && pwd)
OUT=${1:-$WORK/results}
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
STEPS_CSV=$OUT/steps.csv
[ -f "$STEPS_CSV" ] || echo "program,step,wall_seconds,peak_kib,cached,note" > "$STEPS_CSV"
step() { echo "$1,$2,$3,$4,$5,$6" >> "$STEPS_CSV"; }   # program step wall peak cached note

# tac3map, waited for while it is missing (being rebuilt), up to 10 minutes.
need_tac3map() {
  local i
  for ((i = 0; i < 60; i++)); do
    [ -x "$TAC3MAP" ] && return 0
    if [ "$i" = 0 ]; then log "waiting for $TAC3MAP (being rebuilt?)"; fi
    sleep 10
  done
  log "$TAC3MAP is not there"; return 1
}
# A cheap tac3map command (platform, score): tried again once a minute later when it fails.
t3() {
  need_tac3map
  "$TAC3MAP" "$@" && return 0
  log "tac3map $1 failed; trying again in a minute: tac3map $*"
  sleep 60; need_tac3map
  "$TAC3MAP" "$@"
}

is_npb() { [[ "$1" =~ ^(bt|cg|ep|ft|is|lu|mg|sp)\.[SWABCDE]$ ]]; }

# npb.sh's Scotch maps (scotch_maps and its strategies) and its run of a binary (run, here
# npb_run), taken from the script itself: it has no functions-only mode, and they are its.
# shellcheck disable=SC1090
source <(sed -n '/^SCOTCH_NAMES=(/,/^}/p' "$here/npb.sh")
# shellcheck disable=SC1090
source <(sed -n '/^run() {/,/^}/p' "$here/npb.sh" | sed '1s/^run()/npb_run()/')
for f in scotch_maps npb_run; do
  declare -F "$f" >/dev/null || { log "could not take $f from npb.sh"; exit 1; }
done

# --- 1. build and trace (npb.sh and apps.sh, their caches) ------------------------------------
npb_list="" app_list=""
for p in $PROGRAMS; do
  if is_npb "$p"; then npb_list+=" $p"; else app_list+=" $p"; fi
done
if [ -n "$npb_list" ]; then
  # its own OUTDIR: npb.sh resets the rows of these kernels in its OUTDIR's npb.csv
  STEPS=trace KERNELS="${npb_list# }" bash "$here/npb.sh" "$WORK/npb-trace" ||
    { log "npb.sh could not build or trace${npb_list}"; exit 1; }
fi
if [ -n "$app_list" ]; then
  # shellcheck source=apps.sh
  STEPS=functions source "$here/apps.sh"
  apps_tools
  for p in $app_list; do
    case " $ALL_APPS " in *" $p "*) ;; *) log "unknown program $p (NPB kernel.class or one of: $ALL_APPS)"; exit 1 ;; esac
  done
fi

# --- SMPI's configuration of the runs ---------------------------------------------------------
# Network model as tac3map's (CM02 without cross traffic), communication only, and "Simulated
# time" (smpi_utils, --cfg=smpi/display-timing:yes) stamped with the clock to 1e-12 s, which
# npb_run and run_app read. The rest: SMPI's defaults and the platform's <config>.
# shellcheck disable=SC2034  # read by npb_run and run_app
RUN_CFG=(--cfg=network/model:CM02 --cfg=network/crosstraffic:0
         --cfg=smpi/simulate-computation:no --cfg=smpi/display-timing:yes
         --log=root.thres:warning --log=smpi_config.thres:error
         --log=smpi_utils.thres:info '--log=root.fmt:clock=%.12r%e%c%e%m%n')

box=(--machine "$MACHINE" --shape "$SHAPE")

# --- 2. maps ----------------------------------------------------------------------------------
# Map results of the program at hand, by label: status (ok, timeout, failed), wall s, peak KiB.
declare -A map_status map_wall map_peak

# `tac3map map` into DIR/LABEL.map with SEED (and OBJECTIVE unless empty), timed; skipped when
# the same command line made it before (or timed out with no smaller MAP_TIMEOUT than now).
map_one() {  # program index dir label seed objective
  local prog=$1 index=$2 dir=$3 label=$4 seed=$5 obj=$6 map=$3/$4.map
  local flags=() cmdline status=0 wall peak old_status old_wall old_peak old_limit
  if [ -n "$obj" ]; then flags+=(--objective "$obj"); fi
  flags+=(--mpi "$MPI" --seed "$seed")
  cmdline="map ${box[*]} --trace $index ${flags[*]}"
  if [ -f "$map.result" ] && [ "$(cat "$map.flags" 2>/dev/null)" = "$cmdline" ]; then
    read -r old_status old_wall old_peak old_limit < "$map.result"
    if { [ "$old_status" = ok ] && [ -s "$map" ]; } ||
       { [ "$old_status" = timeout ] && [ "$MAP_TIMEOUT" != 0 ] && [ "$MAP_TIMEOUT" -le "$old_limit" ]; }; then
      map_status[$label]=$old_status map_wall[$label]=$old_wall map_peak[$label]=$old_peak
      step "$prog" "map-$label" "$old_wall" "$old_peak" 1 "$old_status: ${flags[*]}"
      return 0
    fi
  fi
  rm -f "$map" "$map.result" "$map.flags"
  local attempt
  for attempt in 1 2; do
    need_tac3map
    local cmd=("$TAC3MAP" map "${box[@]}" --trace "$index" "${flags[@]}" -o "$map")
    if [ "$MAP_TIMEOUT" != 0 ]; then cmd=(timeout --kill-after=30 "$MAP_TIMEOUT" "${cmd[@]}"); fi
    log "$prog: map $label (${flags[*]})"
    status=0
    /usr/bin/time -f '%e %M' -o "$map.time" "${cmd[@]}" > "$dir/$label.log" 2>&1 || status=$?
    read -r wall peak < <(tail -1 "$map.time")
    # 124: timeout stopped it (137: killed after it); other failures tried once more a minute
    # later (a binary being rebuilt)
    if [ "$status" = 0 ] && [ -s "$map" ]; then break; fi
    if [ "$status" = 124 ] || [ "$status" = 137 ]; then break; fi
    if [ "$attempt" = 1 ]; then log "$prog: map $label failed (status $status); again in a minute"; sleep 60; fi
  done
  if [ "$status" = 0 ] && [ -s "$map" ]; then
    map_status[$label]=ok
  elif [ "$status" = 124 ] || [ "$status" = 137 ]; then
    map_status[$label]=timeout
    log "$prog: map $label timed out after ${wall}s (MAP_TIMEOUT $MAP_TIMEOUT; log $dir/$label.log)"
    rm -f "$map"
  else
    map_status[$label]=failed
    log "$prog: map $label failed (status $status, ${wall}s): $(tail -3 "$dir/$label.log" | tr '\n' ' ')"
    rm -f "$map"
  fi
  map_wall[$label]=$wall map_peak[$label]=$peak
  step "$prog" "map-$label" "$wall" "$peak" 0 "${map_status[$label]} (status $status): ${flags[*]}"
  # failures are not kept: tried again by the next run; a timeout is
  if [ "${map_status[$label]}" != failed ]; then
    echo "${map_status[$label]} $wall $peak $MAP_TIMEOUT" > "$map.result"
    echo "$cmdline" > "$map.flags"
  fi
}

# npb.sh's scotch_maps (ccs --json, scotch_maps.py, amk_grf, scotch_gmap x 4 strategies) in
# its own shell, timed as one map; cached by its command line. Sets scotch_labels.
scotch_one() {  # program index dir
  local prog=$1 index=$2 dir=$3 cmdline status=0 wall peak name
  cmdline="ccs --json --trace $index --mpi $MPI | scotch ${box[*]} ${SCOTCH_OPTS[*]}"
  scotch_labels=()
  if [ -f "$dir/scotch.result" ] && [ "$(cat "$dir/scotch.flags" 2>/dev/null)" = "$cmdline" ]; then
    read -r wall peak < "$dir/scotch.result"
    mapfile -t scotch_labels < "$dir/scotch.labels"
    step "$prog" map-scotch "$wall" "$peak" 1 "${#scotch_labels[@]} strategies"
  else
    need_tac3map
    rm -f "$dir"/scotch-*.map "$dir/scotch.result" "$dir/scotch.flags"
    local env=$dir/scotch.env coll_flags=(--mpi "$MPI")
    { declare -p TAC3MAP PYTHON MACHINE SHAPE here coll_flags SCOTCH_NAMES SCOTCH_OPTS
      declare -f scotch_maps log; echo 'step() { :; }'; } > "$env"
    log "$prog: Scotch's maps"
    # shellcheck disable=SC2016
    /usr/bin/time -f '%e %M' -o "$dir/scotch.time" \
      bash -c 'set -euo pipefail; source "$1"; shift; scotch_maps "$@"' _ "$env" "$index" "$dir" "$prog" \
      > "$dir/scotch.labels" 2> "$dir/scotch.log" || status=$?
    read -r wall peak < <(tail -1 "$dir/scotch.time")
    mapfile -t scotch_labels < "$dir/scotch.labels"
    [ "$status" = 0 ] || log "$prog: Scotch's maps failed (status $status): $(tail -3 "$dir/scotch.log" | tr '\n' ' ')"
    step "$prog" map-scotch "$wall" "$peak" 0 "${#scotch_labels[@]} strategies (status $status)"
    if [ "$status" = 0 ]; then
      echo "$wall $peak" > "$dir/scotch.result"
      echo "$cmdline" > "$dir/scotch.flags"
    fi
  fi
  for name in "${SCOTCH_NAMES[@]}"; do
    if [[ " ${scotch_labels[*]} " == *" scotch-$name "* ]]; then
      map_status[scotch-$name]=ok
    else
      map_status[scotch-$name]=failed
    fi
    map_wall[scotch-$name]=$wall map_peak[scotch-$name]=$peak   # the four together
  done
}

# --- 3. runs ----------------------------------------------------------------------------------
# The real binary of PROGRAM on PLATFORM with HOSTS: prints the simulated seconds. NPB through
# npb.sh's run (cache NPB_WORK/runs), the apps through apps.sh's run_app (APPS_WORK/runs); a
# cached run is recorded in steps.csv as such, a new one as the function recorded it.
run_one() {  # program binary platform hosts
  local prog=$1 csv before sim=""
  if is_npb "$prog"; then csv=$STEPS_CSV; else csv=$APPS_WORK/steps.csv; fi
  before=$( (cat "$csv" 2>/dev/null || true) | wc -l)
  if is_npb "$prog"; then
    sim=$(npb_run "$prog" "$2" "$3" "$4" | awk '{ print $1 }') || return 1
  else
    sim=$(run_app "$prog" "$3" "$4") || return 1
  fi
  if [ "$( (cat "$csv" 2>/dev/null || true) | wc -l)" = "$before" ]; then
    step "$prog" "run-$(basename "$4" .hosts)" "" "" 1 "simulated $sim s"
  elif ! is_npb "$prog"; then
    tail -1 "$csv" >> "$STEPS_CSV"
  fi
  echo "$sim"
}

# --- the programs -----------------------------------------------------------------------------
CSV=$OUT/programs.csv
HEADER=program,mapping,seed,tac3_seconds,flow_seconds,tahb,simulated_seconds,map_wall_s,map_peak_kib,status
write_csv() {  # programs.csv from every OUT/<program>/rows.csv, PROGRAMS' order first
  local p seen=" " tmp=$CSV.tmp
  echo "$HEADER" > "$tmp"
  for p in $PROGRAMS; do
    if [ -f "$OUT/$p/rows.csv" ]; then cat "$OUT/$p/rows.csv" >> "$tmp"; fi
    seen+="$p "
  done
  for d in "$OUT"/*/; do
    p=$(basename "$d")
    [[ "$seen" == *" $p "* ]] || [ ! -f "$d/rows.csv" ] || cat "$d/rows.csv" >> "$tmp"
  done
  mv "$tmp" "$CSV"
}

need_tac3map
log "$("$TAC3MAP" --version) at $TAC3MAP; box $SHAPE of $(basename "$MACHINE"); PROGRAMS=$PROGRAMS; SEEDS=$SEEDS; MAP_TIMEOUT=$MAP_TIMEOUT"
for prog in $PROGRAMS; do
  if is_npb "$prog"; then
    bin=$NPB_WORK/NPB3.3-MPI/bin/$prog.$RANKS
    index=$NPB_WORK/traces/$prog.$RANKS/trace.txt
  else
    bin=$(app_build "$prog")
    index=$(app_trace "$prog" "$bin")
  fi
  if [ ! -x "$bin" ] || [ ! -s "$index" ]; then log "$prog: no binary $bin or trace $index"; exit 1; fi
  dir=$OUT/$prog
  mkdir -p "$dir"
  map_status=() map_wall=() map_peak=()
  # mapping (name or file), label, seed, in the order of MAPPINGS
  mappings=() labels=() seeds=()
  for m in $MAPPINGS; do
    case "$m" in
      identity|tofu-default) mappings+=("$m") labels+=("$m") seeds+=("") ;;
      tahb-map)
        map_one "$prog" "$index" "$dir" tahb-map 1 tahb
        mappings+=("$dir/tahb-map.map") labels+=(tahb-map) seeds+=(1) ;;
      scotch)
        scotch_one "$prog" "$index" "$dir"
        for name in "${SCOTCH_NAMES[@]}"; do
          mappings+=("$dir/scotch-$name.map") labels+=("scotch-$name") seeds+=("")
        done ;;
      tac3-map)
        for s in $SEEDS; do
          map_one "$prog" "$index" "$dir" "tac3-map-s$s" "$s" ""
          mappings+=("$dir/tac3-map-s$s.map") labels+=("tac3-map-s$s") seeds+=("$s")
        done ;;
    esac
  done
  # the mappings there are: scored together, in this order
  scored=()
  for i in "${!mappings[@]}"; do
    if [ "${map_status[${labels[$i]}]:-ok}" = ok ]; then scored+=("${mappings[$i]}"); fi
  done
  need_tac3map
  key=$( (md5sum < "$TAC3MAP"; md5sum < "$MACHINE"; echo "${box[*]} $index $MPI ${scored[*]}"
          for m in "${scored[@]}"; do if [ -f "$m" ]; then md5sum < "$m"; fi; done) | md5sum | cut -c1-16)
  if [ "${#scored[@]}" = 0 ]; then
    : > "$dir/scores.csv"
  elif [ -s "$dir/scores.csv" ] && [ "$(cat "$dir/scores.key" 2>/dev/null)" = "$key" ]; then
    step "$prog" score "" "" 1 "${#scored[@]} mappings"
  else
    rm -f "$dir/scores.key"
    log "$prog: score of ${#scored[@]} mappings"
    for attempt in 1 2; do
      need_tac3map
      status=0
      /usr/bin/time -f '%e %M' -o "$dir/scores.time" "$TAC3MAP" score "${box[@]}" --trace "$index" \
        --mpi "$MPI" --output-format csv "${scored[@]}" > "$dir/scores.csv" 2> "$dir/scores.log" || status=$?
      if [ "$status" = 0 ]; then break; fi
      log "$prog: score failed (status $status): $(tail -3 "$dir/scores.log" | tr '\n' ' ')"
      : > "$dir/scores.csv"
      if [ "$attempt" = 1 ]; then log "again in a minute"; sleep 60; fi
    done
    read -r wall peak < <(tail -1 "$dir/scores.time")
    step "$prog" score "$wall" "$peak" 0 "${#scored[@]} mappings (status $status)"
    if [ -s "$dir/scores.csv" ]; then echo "$key" > "$dir/scores.key"; fi
  fi
  # tac3, flow and tahb of each scored mapping, by its position (line 2 = the first)
  declare -A score_of=()
  line=1
  for m in "${scored[@]}"; do
    line=$((line + 1))
    score_of[$m]=$(awk -F, -v n="$line" '
      NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i }
      NR == n { print $(col["tac3"]) "," $(col["flow"]) "," $(col["tahb"]) }' "$dir/scores.csv")
  done
  t3 platform "${box[@]}" --mpi "$MPI" -o "$dir/platform.xml" >/dev/null
  : > "$dir/rows.tmp"
  for i in "${!mappings[@]}"; do
    mapping=${mappings[$i]} label=${labels[$i]} seed=${seeds[$i]}
    status=${map_status[$label]:-ok} sim="" scores=,,
    mapping_label=$label
    if [[ "$label" == tac3-map-s* ]]; then mapping_label=tac3-map; fi
    if [ "$status" = ok ]; then
      scores=${score_of[$mapping]:-,,}
      ranks=(--ranks "$RANKS")
      if [ -f "$mapping" ]; then ranks=(); fi   # a mapping file sizes the host file itself
      if t3 platform "${box[@]}" --mpi "$MPI" "${ranks[@]}" "$mapping" -o "$dir/$label.platform.xml" \
           --hostfile "$dir/$label.hosts" >/dev/null; then
        rm -f "$dir/$label.platform.xml"
        log "$prog: run on $label"
        sim=$(run_one "$prog" "$bin" "$dir/platform.xml" "$dir/$label.hosts") ||
          { log "$prog $label: the run failed or did not verify"; sim="" status=run-failed; }
      else
        log "$prog $label: no host file"; status=no-hostfile
      fi
    else
      status=map-$status
    fi
    echo "$prog,$mapping_label,$seed,$scores,$sim,${map_wall[$label]:-},${map_peak[$label]:-},$status" >> "$dir/rows.tmp"
  done
  unset score_of
  mv "$dir/rows.tmp" "$dir/rows.csv"
  write_csv
done
write_csv

"$PYTHON" "$here/programs_summary.py" "$CSV" "$STEPS_CSV" | tee "$OUT/programs-report.txt"
