#!/usr/bin/env bash
# Real programs (issue 23, item 4), continued: four public MPI proxy applications under SimGrid
# SMPI, as bench/simgrid/npb.sh does for NPB. For each application: copy its unmodified source
# out of shared/apps (README there; read-only) into APPS_WORK, build it with SMPI's compiler
# wrappers (smpicc, smpicxx, smpiff; -O2, no OpenMP), trace one run of RANKS ranks with
# `smpirun -trace-ti` (SimGrid's time-independent format: an index + one file per rank, read by
# tac3map as is) on a flat cluster of RANKS hosts, and check the run by the application's own
# verification (the run fails loudly otherwise). Not part of ctest: needs SimGrid
# (libsimgrid-dev: smpirun, smpicc, smpicxx, smpiff), gfortran, g++ and gcc.
#
# The applications and their problems (inputs written into APPS_WORK, sources untouched):
#   pennant     lanl/PENNANT (C++): unstructured-mesh Lagrangian hydro, Irecv/Send/Waitall with
#               the neighbours of a 2D partition (diagonals included), Allreduce (MINLOC too).
#               The LeBlanc shock tube of test/leblanc/leblanc.pnt on a 128 x 1152 mesh
#               (2304 zones a rank), 200 cycles. Check: "Run complete" and the final total
#               energy of PENNANT's energy check equal to the initial one (relative 2e-6; the
#               scheme conserves it to round-off, as in PENNANT's sample outputs).
#   snap        lanl/SNAP (Fortran): discrete-ordinates transport, KBA wavefront sweeps on an
#               npey x npez process grid (a near-square factoring of RANKS; 8 x 8 for 64), time
#               dependent: 2 time steps (91 inner sweeps of 8 octants) of 16 x 32 x 32 cells,
#               12 angles per octant, 4 groups, ichunk 4 (4 pipeline stages per octant in x).
#               multiswp=0, the classic pipelined KBA (blocking Recv/Send); SNAP's default
#               multiswp=1 polls with Testsome, which under SMPI costs ~8x the wall time and
#               fills the trace with test lines. Check: "Success! Done in a SNAP!" and no
#               "Unconverged" warning or ERROR. Linked with a 2-line C object (snap_exit_shim)
#               that makes the Fortran EXIT SNAP ends with end its rank only, as smpicc does
#               for C's exit: otherwise the first rank's exit ends the simulation and cuts the
#               tail of every rank's TI file.
#   cloverleaf  UK-MAC/CloverLeaf_ref (Fortran + C kernels): 2D structured Euler hydro, halo
#               exchange of many fields (Isend/Irecv/Waitall), Allreduce, Reduce. Its own
#               InputDecks/clover_bm_short.in (960 x 960 cells, 87 steps, test problem 2).
#               Check: "This test is considered PASSED" (kinetic energy within 0.001 % of the
#               reference). Run with --cfg=smpi/privatize-libs:libgfortran.so.5: every rank
#               opens clover.in.tmp, and one shared libgfortran refuses a file opened twice.
#   miniamr     Mantevo/miniAMR ref (C): AMR stencil; the block exchange (Isend/Irecv/Waitany)
#               changes as a sphere's surface moves through the mesh and blocks refine,
#               coarsen and move (RCB load balance: Alltoall, Allreduce, Comm_split, Scan).
#               A 4 x 4 x 4 rank grid (a near-cubic factoring of RANKS), 8^3-cell blocks, the
#               surface of a sphere of radius 0.15 moving from (0.15, 0.15, 0.15) along the
#               diagonal by 0.015 a step, up to 3 levels of refinement, refined every 5 of 40
#               time steps, 5 stages a step, 10 variables, checksums every 5 stages
#               (1360 blocks on average, at most 189 a rank; --max_blocks 300). Check: its
#               "Summary:" line, more blocks than ranks (it refined) and no checksum
#               "difference too large". SMPI's TI lines name no communicator (and it writes
#               no comm_split or scan lines): the RCB's Allreduces on the Comm_split
#               communicators look like MPI_COMM_WORLD ones, and their number differs between
#               ranks, so the collectives of this trace cannot be matched.
#   miniamr-nolb  the same miniAMR run without load balancing (--lb_opt 0, --max_blocks 600;
#               at most 506 blocks a rank): blocks refine and coarsen where they are, the
#               exchange still changes at every refinement, and every collective is on
#               MPI_COMM_WORLD.
#
# A trace is kept only when the run verified, the index lists RANKS rank files and each of them
# ends with its rank's finalize line. Traced on 2 shared cores (SimGrid 3.32): pennant 22 s
# 0.2 GB 9 MB, snap 40 s 0.15 GB 30 MB, cloverleaf 24 s 0.3 GB 11 MB, miniamr 150 s 2.2 GB
# 105 MB, miniamr-nolb 90 s 4.1 GB 44 MB (wall, peak memory, rank files).
#
# usage: bench/simgrid/apps.sh [APPS]              build, trace, check (default: all five)
#        bench/simgrid/apps.sh run APP PLATFORM HOSTS [LOG]
#               run the real binary (not a replay) on PLATFORM with HOSTS (one line a rank)
#               and print its simulated seconds; SMPI's output in LOG when given
#        STEPS=functions source bench/simgrid/apps.sh   defines the functions only, e.g.
#               run_app APP PLATFORM HOSTS [LOG]  (prints the simulated seconds)
# environment:
#   APPS_SRC     the unmodified applications (default: ../shared/apps beside the repo)
#   APPS_WORK    cache (default /tmp/tac3map-apps); a rerun skips what exists:
#                APPS_WORK/build/<app> (copy and build; the binary as app_binary names it),
#                APPS_WORK/traces/<app>.RANKS/trace.txt (the index; rank files in
#                trace.txt_files/, the application's output in trace.log), APPS_WORK/runs/
#                <app>.RANKS/<hash>/run.log (one run per distinct platform, host file, binary
#                and SMPI configuration)
#   RANKS        MPI ranks (default 64; the problems above are sized for 64)
#   COMPUTE      runs only: "no" (default) --cfg=smpi/simulate-computation:no, the simulated
#                time is the communication alone; "yes": computation at 1 Gflop/s a host
#   SMPIRUN      the smpirun to use
# Output: APPS_WORK/traces/<app>.RANKS/trace.txt, APPS_WORK/steps.csv (wall time, peak memory
# of every build, trace and run; the trace's note: size on disk and lines of the rank files).
[ "${STEPS:-all}" = functions ] || set -euo pipefail   # sourced for its functions: caller's options

apps_here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
apps_root=$(cd "$apps_here/../.." && pwd)
SMPIRUN=${SMPIRUN:-smpirun}
RANKS=${RANKS:-64}
APPS_SRC=${APPS_SRC:-$apps_root/../shared/apps}
APPS_WORK=${APPS_WORK:-/tmp/tac3map-apps}
COMPUTE=${COMPUTE:-no}
STEPS=${STEPS:-all}
ALL_APPS="pennant snap cloverleaf miniamr miniamr-nolb"

TAC3MAP=${TAC3MAP:-$apps_root/build/tac3map}   # common.sh wants it set; not used here
source "$apps_here/common.sh"   # SMPI_CFG (the network model of validate.sh, peers.sh, npb.sh)

alog() { echo "apps.sh: $*" >&2; }
astep() {  # app step wall peak cached note
  local csv=$APPS_WORK/steps.csv
  [ -f "$csv" ] || echo "app,step,wall_seconds,peak_kib,cached,note" > "$csv"
  echo "$1,$2,$3,$4,$5,$6" >> "$csv"
}

# Two or three factors of N, as near equal as can be, largest last: "8 8", "4 4 4".
factor2() {
  local n=$1 a
  for ((a = 1; a * a <= n; a++)); do :; done
  for ((a = a - 1; a > 1; a--)); do ((n % a == 0)) && break; done
  echo "$a $((n / a))"
}
factor3() {
  local n=$1 a best=1 rest
  for ((a = 1; a * a * a <= n; a++)); do ((n % a == 0)) && best=$a; done
  rest=$(factor2 $((n / best)))
  echo "$best $rest"
}

# --- 1. build ---------------------------------------------------------------------------------
# The application an APP name builds: miniamr-nolb is miniamr's binary run differently.
app_base() {  # app
  case "$1" in
    miniamr-nolb) echo miniamr ;;
    *) echo "$1" ;;
  esac
}

app_binary() {  # app -> the binary's path
  local b=$APPS_WORK/build/$1
  case "$1" in
    pennant) echo "$b/build/pennant" ;;
    snap) echo "$b/src/gsnap" ;;
    cloverleaf) echo "$b/clover_leaf" ;;
    miniamr) echo "$b/ref/miniAMR.x" ;;
    *) alog "unknown application $1 (one of: $ALL_APPS)"; return 1 ;;
  esac
}

# The make command of APP into the array make_cmd, run in its copy (the Makefiles' own
# variables, set from the command line: compiler wrappers, -O2, OpenMP off).
app_make() {  # app
  case "$1" in
    pennant)     # Makefile: icpc, -O3 -fast, -openmp; USE_MPI kept
      make_cmd=(make -j1 CXX=smpicxx LD=smpicxx "CXXFLAGS=-O2 -DUSE_MPI" LDFLAGS=) ;;
    snap)        # src/Makefile: mpif90, -O3 -fopenmp; MPI=yes (plib.F90 -DMPI), OPENMP=no;
                 # FFLAG2 (link only) adds smpi_exit.o (snap_exit_shim)
      make_cmd=(make -C src -j1 TARGET=gsnap FORTRAN=smpiff MPI=yes OPENMP=no
                "FFLAGS=-O2 -fallow-argument-mismatch" "FFLAG2=$APPS_WORK/build/snap/smpi_exit.o") ;;
    cloverleaf)  # Makefile: COMPILER=GNU (-O3 -march=native, -fopenmp), mpif90/mpicc
      make_cmd=(make -j1 COMPILER=GNU MPI_COMPILER=smpiff C_MPI_COMPILER=smpicc OMP_GNU=
                "FLAGS_GNU=-O2 -fallow-argument-mismatch" CFLAGS_GNU=-O2) ;;
    miniamr)     # ref/Makefile: mpicc -O3
      make_cmd=(make -C ref -j1 CC=smpicc LD=smpicc CFLAGS=-O2) ;;
  esac
}

# SNAP ends (utils.f90, stop_run) with MPI_Finalize and then the Fortran EXIT intrinsic. Under
# SMPI every rank is a thread of one process: the first rank's exit(0) ends the simulation
# ("Process called exit when leaving - Skipping cleanups") and the unwritten tails of all the TI
# files are lost (unmatched sends and receives, no finalize lines). SMPI's C wrappers replace
# exit by smpi_exit (smpi_helpers.h), which ends the calling rank only; smpiff does not, so this
# object, linked into gsnap, does the same for gfortran's EXIT. SNAP's sources are untouched.
snap_exit_shim() {  # build dir
  cat > "$1/smpi_exit.c" <<'EOF'
/* written by tac3map's bench/simgrid/apps.sh: gfortran's EXIT intrinsic ends only the calling
   SMPI rank, as smpicc's exit does (smpi_helpers.h: #define exit(x) smpi_exit(x)) */
void smpi_exit(int status);
void _gfortran_exit_i4(const int* status) { smpi_exit(status ? *status : 0); }
EOF
  smpicc -O2 -c "$1/smpi_exit.c" -o "$1/smpi_exit.o"
}

app_build() {  # app -> path of the binary
  local app dir bin wall peak make_cmd
  app=$(app_base "$1")
  dir=$APPS_WORK/build/$app
  bin=$(app_binary "$app")
  if [ ! -x "$bin" ]; then
    [ -d "$APPS_SRC/$app" ] || { alog "no $app at $APPS_SRC/$app (set APPS_SRC)"; return 1; }
    rm -rf "$dir"; mkdir -p "$APPS_WORK/build"
    cp -r "$APPS_SRC/$app" "$dir"
    chmod -R u+w "$dir"   # shared/ is read-only
    [ "$app" = snap ] && snap_exit_shim "$dir"
    app_make "$app"
    alog "building $app: ${make_cmd[*]}"
    echo "${make_cmd[*]}" > "$APPS_WORK/build/$app.cmd"
    (cd "$dir" && /usr/bin/time -f '%e %M' -o "$APPS_WORK/build/$app.time" "${make_cmd[@]}") \
      > "$APPS_WORK/build/$app.log" 2>&1 || true
    [ -x "$bin" ] || { alog "build of $app made no $bin, see $APPS_WORK/build/$app.log"; return 1; }
    read -r wall peak < <(tail -1 "$APPS_WORK/build/$app.time")
    astep "$app" build "$wall" "$peak" 0 ""
  fi
  echo "$bin"
}

# --- the problems -----------------------------------------------------------------------------
# Writes APP's input deck (if any) into DIR, the folder the run starts in.
app_prepare() {  # app dir
  local app=$1 dir=$2 ny nz
  case "$app" in
    pennant)   # test/leblanc/leblanc.pnt (10 x 90, dtinit 1e-2), refined 12.8x, no xy output
      cat > "$dir/leblanc128.pnt" <<'EOF'
cstop   200
tstop   6.0
meshtype rect
meshparams 128 1152 1.0 9.0
subregion 0.0 1.0  3.0 9.0
rinit   1.0
einit   0.1
rinitsub 1.0e-3
einitsub 1.0e-7
bcx     0.0 1.0
bcy     0.0 9.0
ssmin   0.1
q1      0.3
q2      2.0
dtinit  1.e-3
dtreport 50
chunksize 512
EOF
      ;;
    snap)
      read -r ny nz < <(factor2 "$RANKS")
      cat > "$dir/snap.in" <<EOF
! written by tac3map's bench/simgrid/apps.sh
&invar
  npey=$ny
  npez=$nz
  ichunk=4
  nthreads=1
  nnested=1
  ndimen=3
  nx=16
  lx=0.16
  ny=32
  ly=0.32
  nz=32
  lz=0.32
  nmom=1
  nang=12
  ng=4
  epsi=1.0E-4
  iitm=5
  oitm=30
  timedep=1
  tf=0.1
  nsteps=2
  mat_opt=1
  src_opt=1
  scatp=0
  swp_typ=0
  multiswp=0
  it_det=0
  fluxp=0
  fixup=1
  soloutp=0
  kplane=0
  popout=0
/
EOF
      ;;
    cloverleaf)
      cp "$APPS_WORK/build/cloverleaf/InputDecks/clover_bm_short.in" "$dir/clover.in"
      chmod u+w "$dir/clover.in" ;;
    miniamr|miniamr-nolb) ;;
    *) alog "unknown application $app (one of: $ALL_APPS)"; return 1 ;;
  esac
}

# The command line of APP (relative to its run folder).
app_args() {  # app
  local px py pz lb
  case "$1" in
    pennant) echo "leblanc128.pnt" ;;
    snap) echo "snap.in snap.out" ;;
    cloverleaf) echo "" ;;   # reads clover.in, writes clover.out
    miniamr|miniamr-nolb)
      read -r px py pz < <(factor3 "$RANKS")
      lb="--max_blocks 300"   # RCB load balance at every refinement (miniAMR's default)
      [ "$1" = miniamr-nolb ] && lb="--max_blocks 600 --lb_opt 0"
      echo "--npx $px --npy $py --npz $pz --nx 8 --ny 8 --nz 8 --num_refine 3 $lb" \
           "--num_objects 1 --object 2 0 0.15 0.15 0.15 0.015 0.015 0.015 0.15 0.15 0.15 0.0 0.0 0.0" \
           "--num_tsteps 40 --stages_per_ts 5 --num_vars 10 --checksum_freq 5 --report_perf 4" ;;
  esac
}

# SMPI options APP needs besides the run's own.
app_smpi_flags() {  # app
  case "$1" in
    # every rank opens clover.in.tmp: one libgfortran (its unit table) per rank, as in a real
    # MPI job. (Not SNAP's: its privatized copies lose the command line, "CMDARG: Missing".)
    cloverleaf) echo "--cfg=smpi/privatize-libs:libgfortran.so.5" ;;
    *) echo "" ;;
  esac
}

# The application's own verification of the run whose output is LOG (in its run folder).
app_check() {  # app log
  local app=$1 log=$2
  case "$app" in
    pennant)
      grep -q '^Run complete' "$log" || { alog "pennant: no 'Run complete' in $log"; return 1; }
      awk '/^Energy check: *total energy *=/ { e[n++] = $NF + 0 }
           END { if (n < 2 || e[0] == 0) exit 1
                 d = (e[n-1] - e[0]) / e[0]; if (d < 0) d = -d
                 printf "pennant: total energy %.6e -> %.6e (relative change %.1e)\n", e[0], e[n-1], d > "/dev/stderr"
                 exit d > 2e-6 }' "$log" ||
        { alog "pennant: energy not conserved (PENNANT's energy check), see $log"; return 1; } ;;
    snap)
      grep -q 'Success! Done in a SNAP!' "$log" || { alog "snap: no 'Success! Done in a SNAP!' in $log"; return 1; }
      if grep -q -e 'Unconverged' -e 'did not converge' -e '\*\*\*ERROR' "$log"; then
        alog "snap: unconverged or an error, see $log"; return 1
      fi ;;
    cloverleaf)
      grep -q 'This test is considered PASSED' "$log" ||
        { alog "cloverleaf: test problem not PASSED, see $log"; return 1; } ;;
    miniamr|miniamr-nolb)
      local blocks
      grep -q 'difference too large' "$log" && { alog "miniamr: checksum failed, see $log"; return 1; }
      blocks=$(sed -n 's/^Summary: .* blocks\/ts \([0-9.]*\) .*/\1/p' "$log" | tail -1)
      [ -n "$blocks" ] || { alog "miniamr: no Summary line in $log"; return 1; }
      awk -v b="$blocks" -v r="$RANKS" 'BEGIN { exit !(b > r) }' ||
        { alog "miniamr: no refinement (blocks/ts $blocks), see $log"; return 1; } ;;
  esac
}

# --- 2. trace ---------------------------------------------------------------------------------
# A plain SMPI cluster of RANKS hosts: a TI trace records each rank's MPI calls and arguments,
# which do not depend on the platform (only its `compute` amounts do, and tac3map ignores them).
trace_platform() {
  local dir=$APPS_WORK/trace-platform
  mkdir -p "$dir"
  if [ ! -f "$dir/cluster-$RANKS.xml" ] || [ ! -f "$dir/cluster-$RANKS.hosts" ]; then
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

app_trace() {  # app binary -> index of the trace
  local app=$1 dir=$APPS_WORK/traces/$1.$RANKS wall peak lines
  local -a args smpi
  if [ ! -s "$dir/trace.txt" ]; then
    trace_platform
    rm -rf "$dir"; mkdir -p "$dir"
    app_prepare "$app" "$dir"
    read -r -a args <<< "$(app_args "$app")"
    read -r -a smpi <<< "$(app_smpi_flags "$app")"
    alog "tracing $app on $RANKS ranks"
    # smpirun in the trace folder: the index lists the rank files relative to it
    (cd "$dir" && /usr/bin/time -f '%e %M' -o trace.time \
      "$SMPIRUN" -np "$RANKS" -platform "$APPS_WORK/trace-platform/cluster-$RANKS.xml" \
        -hostfile "$APPS_WORK/trace-platform/cluster-$RANKS.hosts" -trace-ti -trace-file trace.txt \
        --cfg=smpi/host-speed:1Gf "${smpi[@]}" "$2" "${args[@]}" > trace.log 2>&1) ||
      { alog "tracing $app failed, see $dir/trace.log"; rm -f "$dir/trace.txt"; return 1; }
    app_check "$app" "$dir/trace.log" ||
      { alog "$app did not verify under tracing, see $dir/trace.log"; rm -f "$dir/trace.txt"; return 1; }
    [ "$(wc -l < "$dir/trace.txt")" = "$RANKS" ] ||
      { alog "$app: the index $dir/trace.txt does not list $RANKS rank files"; rm -f "$dir/trace.txt"; return 1; }
    # every rank file complete: its last line "<rank> finalize", newline-terminated
    local f bad=0
    while read -r f; do
      if [ -n "$(tail -c 1 "$dir/$f")" ] || ! tail -1 "$dir/$f" | grep -q ' finalize$'; then
        alog "$app: $dir/$f does not end with finalize (truncated)"; bad=1
      fi
    done < "$dir/trace.txt"
    [ "$bad" = 0 ] || { rm -f "$dir/trace.txt"; return 1; }
    read -r wall peak < <(tail -1 "$dir/trace.time")
    lines=$(cat "$dir"/trace.txt_files/* | wc -l)
    astep "$app" trace "$wall" "$peak" 0 "$(du -sk "$dir/trace.txt_files" | cut -f1) KiB $lines lines"
  fi
  echo "$dir/trace.txt"
}

# --- 3. runs of the real binary ---------------------------------------------------------------
# SMPI as validate.sh, peers.sh and npb.sh configure it (common.sh's SMPI_CFG), less its replay
# logging; "Simulated time" (smpi_utils, with --cfg=smpi/display-timing:yes) stamped with the
# clock to 1e-12 s, as npb.sh's run().
RUN_CFG=()
for c in "${SMPI_CFG[@]}"; do [[ "$c" == --log=* ]] || RUN_CFG+=("$c"); done
RUN_CFG+=(--cfg=smpi/simulate-computation:"$COMPUTE" --cfg=smpi/display-timing:yes
          --log=root.thres:warning --log=smpi_config.thres:error
          --log=smpi_utils.thres:info '--log=root.fmt:clock=%.12r%e%c%e%m%n')

# Runs APP's binary on PLATFORM with HOSTS (RANKS lines), checks it as the trace was checked,
# prints the simulated seconds; SMPI's and the application's output also copied to LOG. Cached
# per platform, host file, binary and configuration in APPS_WORK/runs/APP.RANKS/<hash>/.
run_app() {  # app platform hosts [log]
  local app=$1 platform=$2 hosts=$3 out=${4:-} bin key dir wall peak simulated
  local -a args smpi
  bin=$(app_build "$app") || return 1
  if [ ! -f "$platform" ] || [ ! -f "$hosts" ]; then alog "run_app: no $platform or $hosts"; return 1; fi
  platform=$(cd "$(dirname "$platform")" && pwd)/$(basename "$platform")
  read -r -a args <<< "$(app_args "$app")"
  read -r -a smpi <<< "$(app_smpi_flags "$app")"
  key=$( (cat "$hosts" "$platform"; echo "$app $RANKS ${args[*]} ${smpi[*]} ${RUN_CFG[*]}"; md5sum < "$bin") |
        md5sum | cut -c1-16)
  dir=$APPS_WORK/runs/$app.$RANKS/$key
  if [ ! -f "$dir/run.ok" ]; then
    rm -rf "$dir"; mkdir -p "$dir"
    cp "$hosts" "$dir/hosts"
    app_prepare "$app" "$dir"
    alog "running $app on $(basename "$platform") with $(basename "$hosts")"
    (cd "$dir" && /usr/bin/time -f '%e %M' -o run.time \
      "$SMPIRUN" -np "$RANKS" -platform "$platform" -hostfile "$dir/hosts" "${RUN_CFG[@]}" \
        "${smpi[@]}" "$bin" "${args[@]}" > run.log 2>&1) ||
      { alog "run of $app failed, see $dir/run.log"; [ -n "$out" ] && cp "$dir/run.log" "$out"; return 1; }
    app_check "$app" "$dir/run.log" ||
      { alog "$app did not verify, see $dir/run.log"; [ -n "$out" ] && cp "$dir/run.log" "$out"; return 1; }
    read -r wall peak < <(tail -1 "$dir/run.time")
    astep "$app" "run-$(basename "$hosts" .hosts)" "$wall" "$peak" 0 "$dir/run.log"
    touch "$dir/run.ok"
  fi
  [ -n "$out" ] && cp "$dir/run.log" "$out"
  simulated=$(sed -n 's/^clock=\([0-9.e+-]*\) smpi_utils Simulated time.*/\1/p' "$dir/run.log" | tail -1)
  [ -n "$simulated" ] || { alog "no simulated time in $dir/run.log"; return 1; }
  echo "$simulated"
}

# --- main -------------------------------------------------------------------------------------
apps_tools() {
  local tool
  for tool in "$SMPIRUN" smpicc smpicxx smpiff gfortran; do
    command -v "$tool" >/dev/null ||
      { alog "$tool not found (apt-get install libsimgrid-dev gfortran g++)"; return 1; }
  done
}

mkdir -p "$APPS_WORK"
APPS_WORK=$(cd "$APPS_WORK" && pwd)
[ "$STEPS" = functions ] && { return 0 2>/dev/null || exit 0; }
apps_tools
if [ "${1:-}" = run ]; then
  [ $# -ge 4 ] || { echo "usage: $0 run APP PLATFORM HOSTS [LOG]" >&2; exit 2; }
  run_app "$2" "$3" "$4" "${5:-}"
  exit
fi
for app in ${1:-$ALL_APPS}; do
  bin=$(app_build "$app")
  index=$(app_trace "$app" "$bin")
  alog "$app: $index"
done
