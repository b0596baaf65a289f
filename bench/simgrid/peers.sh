#!/usr/bin/env bash
# tac3map's mapping against its peers in the SimGrid simulation (issue 11's acceptance
# figures): Scotch's static mapper (best of 4 strategies), the launcher's placements (identity
# = block, tofu-default, round-robin) and tac3map's own hop-bytes search (tahb-map). Same
# pipeline as validate.sh (gen -> convert -> map/score -> platform -> smpirun -replay, SMPI
# configured as there; functions in common.sh); docs/validation.md, section "Against Scotch
# and the launcher's placements", records a run and the command.
#
# usage: bench/simgrid/peers.sh [OUTDIR]      (default: a new temporary folder)
# environment:
#   CASES           default: all of
#                     cg64-<box>[-barrier]    box 1x2x4x2x3x2, 2x2x2x2x3x2, 4x2x1x2x3x2
#                     cg32-<box>[-barrier]    box 1x1x4x2x3x2, 1x2x2x2x3x2, 4x1x1x2x3x2
#                     stencil-<box>[-barrier] box 2x2x2x2x3x2, 1x2x4x2x3x2, 4x2x1x2x3x2
#                   (the paper's six CG boxes on FX10; 1 MiB sendrecv CG, 256 KiB Isend 4x4x4
#                   periodic 7-point stencil; -barrier: a barrier after every exchange);
#                   a word cg, cg64, cg32 or stencil stands for all cases of that program
#   ENGINES         list; "default" = the machine file's engines, else --engines E
#   RANKS_PER_NODE  list (default "1 2 4"); K > 1 only for the 64-rank cases (cg64, stencil)
#   KBOXES          boxes of the K > 1 runs, a list (default "packed"):
#                     packed  exactly 64/K nodes: the case's box with B = 1 for K = 2
#                             (2x2x2x2x1x2, 1x2x4x2x1x2, 4x2x1x2x1x2: 32 nodes) and the
#                             matching CG-32 box with B = 1 for K = 4 (1x2x2x2x1x2,
#                             1x1x4x2x1x2, 4x1x1x2x1x2: 16 nodes); every slot holds a rank
#                     paper   the case's own 96-node box (free nodes: a map may spread out)
#   OVERLAP         list of `map --overlap` values for extra tac3 mappings (default
#                   "default": no flag); a value the binary rejects is skipped with a message;
#                   mapping tac3-map-<value>, criteria given for each tac3 mapping
#   SCOTCH          1 (default): Scotch maps, K slots of equal weight per node (needs `apt-get
#                   install scotch`); 0: none
#   SEED            seed of the tahb and tac3 searches (default 1)
#   TAC3_SEEDS      more seeds for the tac3 search (default none): mapping tac3-map-seedN each,
#                   for the seed spread of issue 24 (fidelity_summary.py)
#   PROFILE         ping-pong profile for the predicted column: "platform" (default) for one
#                   hop of the simulated platform (common.sh, write_platform_profile: what
#                   tac3map-pingpong would measure on it, so that predict's model is compared
#                   with the simulator on the simulator's own figures), a profile file (e.g.
#                   topologies/fx10-profile.json, the papers' FX10: 1.5 us + bytes / 4.7 GB/s
#                   where the platform has 1 us + bytes / 5 GB/s), or empty for none
#   TAC3_FLAGS      extra flags for the tac3 searches only, e.g. "--chains 4 --threads 2"
#   JOBS            simulations run at once (default 2)
#   TAC3MAP, MACHINE, SMPIRUN, PYTHON as in validate.sh
# Output: OUTDIR/peers.csv (one line per simulated run), OUTDIR/peers-summary.csv (one line
# per case and tac3 mapping), a table per case and the criteria lines on standard output
# (also OUTDIR/peers-report.md), then issue 24's fidelity figures (fidelity_summary.py:
# Kendall tau of tac3 and of the timeline against the simulated time, predict's error, the
# tac3 map against every other map; also OUTDIR/fidelity-report.md).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
TAC3MAP=${TAC3MAP:-$root/build/tac3map}
MACHINE=${MACHINE:-$root/topologies/fx10.json}
SMPIRUN=${SMPIRUN:-smpirun}
PYTHON=${PYTHON:-python3}
SEED=${SEED:-1}
TAC3_SEEDS=${TAC3_SEEDS:-}
PROFILE=${PROFILE-platform}
ENGINES=${ENGINES:-default}
RANKS_PER_NODE=${RANKS_PER_NODE:-1 2 4}
KBOXES=${KBOXES:-packed}
OVERLAP=${OVERLAP:-default}
SCOTCH=${SCOTCH:-1}
JOBS=${JOBS:-2}
TAC3_FLAGS=${TAC3_FLAGS:-}
CG64_BOXES="1x2x4x2x3x2 2x2x2x2x3x2 4x2x1x2x3x2"
CG32_BOXES="1x1x4x2x3x2 1x2x2x2x3x2 4x1x1x2x3x2"
STENCIL_BOXES="2x2x2x2x3x2 1x2x4x2x3x2 4x2x1x2x3x2"
ALL_CASES=""
for b in $CG64_BOXES; do ALL_CASES+="cg64-$b cg64-$b-barrier "; done
for b in $CG32_BOXES; do ALL_CASES+="cg32-$b cg32-$b-barrier "; done
for b in $STENCIL_BOXES; do ALL_CASES+="stencil-$b stencil-$b-barrier "; done
cases=""
for c in ${CASES:-$ALL_CASES}; do
  case "$c" in
    cg|cg64|cg32|stencil) for a in $ALL_CASES; do [[ "$a" == "$c"* ]] && cases+="$a "; done ;;
    *) cases+="$c " ;;
  esac
done
OUT=${1:-$(mktemp -d /tmp/tac3map-peers.XXXXXX)}

# Scotch strategies: name and scotch_gmap options. Scotch 7.0's default strategy is
# recursive bipartitioning (its multilevel layer only starts above 10,000 vertices), so the
# other three vary the bipartitioning: -cq (quality: two separators tried), greedy graph
# growing with Fiduccia-Mattheyses refinement, and greedy graph growing alone.
SCOTCH_NAMES=(default quality gg-fm gg)
SCOTCH_OPTS=(""
             "-cq"
             "-mr{job=t,map=t,poli=S,sep=h{pass=10}f{move=120,pass=-1,bal=0.01,type=b}}"
             "-mr{job=t,map=t,poli=S,sep=h{pass=10}}")

source "$here/common.sh"   # SMPI_CFG, cg_trace, stencil_trace, simulate, set_platform_flags

command -v "$SMPIRUN" >/dev/null || { echo "peers.sh: $SMPIRUN not found (apt-get install libsimgrid-dev)" >&2; exit 1; }
command -v "$PYTHON" >/dev/null || { echo "peers.sh: $PYTHON not found" >&2; exit 1; }
[ -x "$TAC3MAP" ] || { echo "peers.sh: $TAC3MAP is not built" >&2; exit 1; }
if [ "$SCOTCH" = 1 ] && ! command -v scotch_gmap >/dev/null; then
  echo "peers.sh: scotch_gmap not found (apt-get install scotch), or SCOTCH=0" >&2; exit 1
fi
mkdir -p "$OUT"
# SMPI runs its barriers linear: tac3map is told so (empty for binaries without it).
# shellcheck disable=SC2207
barrier_flags=($(smpi_barrier_flags))
OUT=$(cd "$OUT" && pwd)   # smpirun runs in the case folder
if [ "$PROFILE" = platform ]; then
  write_platform_profile "$MACHINE" "$root/topologies/fx10-profile.json" "$OUT/platform-profile.json"
  PROFILE=$OUT/platform-profile.json
fi
CSV=$OUT/peers.csv
echo "case,program,barriers,boxes,shape,engines,ranks_per_node,mapping,tac3_seconds,tac3_lower_bound,tahb,max_link_messages,simulated_seconds,timeline_seconds,predicted_seconds,flow_seconds" > "$CSV"

# Which --overlap values this binary takes.
overlaps=()
for v in $OVERLAP; do
  if [ "$v" = default ]; then overlaps+=(default); continue; fi
  if ! "$TAC3MAP" map --help 2>/dev/null | grep -q -- '--overlap'; then
    echo "skipped: OVERLAP=$v: $TAC3MAP map has no --overlap" >&2; continue
  fi
  overlaps+=("$v")
done

# The K > 1 box of a 64-rank case (prints nothing when the case has no such box).
packed_box() {  # box K
  case "$2:$1" in
    2:?x?x?x2x3x2) echo "${1%x3x2}x1x2" ;;
    4:1x2x4x2x3x2) echo 1x1x4x2x1x2 ;;
    4:2x2x2x2x3x2) echo 1x2x2x2x1x2 ;;
    4:4x2x1x2x3x2) echo 4x1x1x2x1x2 ;;
  esac
}

# Scotch maps of TRACE on BOX with K ranks per node (every node K slots of equal weight),
# written as DIR/scotch-<strategy>.map; prints the labels made.
scotch_maps() {  # trace box dir K
  local work=$3/scotch tasks i name
  mkdir -p "$work"
  "$TAC3MAP" ccs --json --trace "$1" > "$work/ccs.json"
  tasks=$("$PYTHON" "$here/scotch_maps.py" graphs "$MACHINE" "$2" "$work/ccs.json" "$work" "$4")
  amk_grf "$work/arch.grf" "$work/arch.tgt"
  for i in "${!SCOTCH_NAMES[@]}"; do
    name=${SCOTCH_NAMES[$i]}
    if ! scotch_gmap "$work/src.grf" "$work/arch.tgt" "$work/$name.smap" ${SCOTCH_OPTS[$i]} \
         > "$work/$name.log" 2>&1; then
      echo "peers.sh: scotch_gmap ($name) failed on $2, see $work/$name.log; left out" >&2; continue
    fi
    if ! "$PYTHON" "$here/scotch_maps.py" convert "$2" "$tasks" "$work/$name.smap" \
         "$3/scotch-$name.map" "$4" 2>> "$work/$name.log"; then
      echo "peers.sh: scotch ($name) on $2: $(tail -1 "$work/$name.log"); left out" >&2; continue
    fi
    echo "scotch-$name"
  done
}

for name in $cases; do
  program=${name%%-*}
  rest=${name#*-}
  barriers=0
  case "$rest" in *-barrier) barriers=1; rest=${rest%-barrier} ;; esac
  paper_box=$rest
  base=$OUT/$name
  mkdir -p "$base"
  case "$program" in
    cg64) cg_trace 64 "$barriers" "$base/trace.trace" ;;
    cg32) cg_trace 32 "$barriers" "$base/trace.trace" ;;
    stencil) stencil_trace "$barriers" "$base/trace.trace" ;;
    *) echo "peers.sh: unknown case '$name' (cases: $ALL_CASES)" >&2; exit 1 ;;
  esac
  "$TAC3MAP" convert "$base/trace.trace" --to simgrid-ti -o "$base/trace.ti" >/dev/null
  for k in $RANKS_PER_NODE; do
    if [ "$k" = 1 ]; then kboxes=paper
    elif [ "$program" = cg32 ]; then continue
    else kboxes=$KBOXES; fi
    for boxes in $kboxes; do
      shape=$paper_box
      if [ "$boxes" = packed ]; then
        shape=$(packed_box "$paper_box" "$k")
        [ -n "$shape" ] || { echo "skipped: $name K=$k: no packed box for $paper_box" >&2; continue; }
      fi
      box=(--machine "$MACHINE" --shape "$shape")
      scotch=()
      if [ "$SCOTCH" = 1 ]; then
        mapfile -t scotch < <(scotch_maps "$base/trace.trace" "$shape" "$base/$boxes-$shape" "$k")
      fi
      for engines in $ENGINES; do
        flags=()
        [ "$engines" != default ] && flags+=(--engines "$engines")
        [ "$k" != 1 ] && flags+=(--ranks-per-node "$k")
        flags+=("${barrier_flags[@]}")
        dir=$base/$boxes-$shape/e$engines-k$k
        mkdir -p "$dir"
        if ! err=$("$TAC3MAP" score "${box[@]}" --trace "$base/trace.trace" "${flags[@]}" identity 2>&1 >/dev/null); then
          echo "skipped: $name $shape engines=$engines K=$k: tac3map score says: ${err%%$'\n'*}" >&2
          continue
        fi
        if [ "$k" = 1 ]; then mappings=(identity tofu-default random:1); else mappings=(identity round-robin random:1); fi
        "$TAC3MAP" map "${box[@]}" --trace "$base/trace.trace" "${flags[@]}" --objective tahb \
          --seed "$SEED" --quiet -o "$dir/tahb-map.map" >/dev/null
        mappings+=("$dir/tahb-map.map")
        for v in "${overlaps[@]}"; do
          label=tac3-map; extra=()
          [ "$v" != default ] && { label=tac3-map-$v; extra=(--overlap "$v"); }
          if ! err=$("$TAC3MAP" map "${box[@]}" --trace "$base/trace.trace" "${flags[@]}" "${extra[@]}" \
               $TAC3_FLAGS --objective tac3 --seed "$SEED" --quiet -o "$dir/$label.map" 2>&1 >/dev/null); then
            echo "skipped: $name $shape engines=$engines K=$k --overlap $v: ${err%%$'\n'*}" >&2; continue
          fi
          mappings+=("$dir/$label.map")
        done
        for extra_seed in $TAC3_SEEDS; do
          "$TAC3MAP" map "${box[@]}" --trace "$base/trace.trace" "${flags[@]}" $TAC3_FLAGS \
            --objective tac3 --seed "$extra_seed" --quiet -o "$dir/tac3-map-seed$extra_seed.map" >/dev/null
          mappings+=("$dir/tac3-map-seed$extra_seed.map")
        done
        for s in "${scotch[@]}"; do mappings+=("$base/$boxes-$shape/$s.map"); done
        # mapping,tac3,tac3_lower_bound,tahb,rmatt_o2f,max_link_messages,avg_hops,timeline,flow
        # [,predicted_seconds]  (older binaries: no timeline or flow; those columns stay empty)
        profile=()
        [ -n "$PROFILE" ] && profile=(--profile "$PROFILE")
        "$TAC3MAP" score "${box[@]}" --trace "$base/trace.trace" "${flags[@]}" --output-format csv \
          "${profile[@]}" "${mappings[@]}" > "$dir/scores.csv"
        set_platform_flags "$engines" "$k"
        "$TAC3MAP" platform "${box[@]}" "${platform_flags[@]}" -o "$dir/platform.xml" >/dev/null
        labels=()
        running=0
        for mapping in "${mappings[@]}"; do
          label=$(basename "$mapping" .map)
          label=${label//:/-}
          labels+=("$label")
          "$TAC3MAP" platform "${box[@]}" "${platform_flags[@]}" --trace "$base/trace.trace" "$mapping" \
            -o "$dir/$label.platform.xml" --hostfile "$dir/$label.hosts" >/dev/null
          rm -f "$dir/$label.platform.xml"
          ( simulate "$dir/platform.xml" "$dir/$label.hosts" "$base/trace.ti" "$dir/$label.smpi.log" \
              > "$dir/$label.seconds" ) &
          running=$((running + 1))
          if [ "$running" -ge "$JOBS" ]; then wait -n; running=$((running - 1)); fi
        done
        wait
        line=1
        for label in "${labels[@]}"; do
          line=$((line + 1))
          simulated=$(cat "$dir/$label.seconds")
          [ -n "$simulated" ] || { echo "peers.sh: simulation of $name $label failed (see $dir/$label.smpi.log)" >&2; exit 1; }
          # The timeline and predicted columns by name (their position depends on the binary).
          sed -n "1p;${line}p" "$dir/scores.csv" | awk -F, -v c="$name" -v p="$program" -v b="$barriers" \
            -v x="$boxes" -v s="$shape" -v e="$engines" -v k="$k" -v m="$label" -v t="$simulated" \
            'NR == 1 { for (i = 1; i <= NF; ++i) col[$i] = i; next }
             { tl = ("timeline" in col) ? $col["timeline"] : ""
               pr = ("predicted_seconds" in col) ? $col["predicted_seconds"] : ""
               fl = ("flow" in col) ? $col["flow"] : ""
               print c "," p "," b "," x "," s "," e "," k "," m "," $2 "," $3 "," $4 "," $6 "," t "," tl "," pr "," fl }' >> "$CSV"
        done
      done
    done
  done
done

"$PYTHON" "$here/peers_summary.py" "$CSV" "$OUT/peers-summary.csv" | tee "$OUT/peers-report.md"
"$PYTHON" "$here/fidelity_summary.py" "$CSV" | tee "$OUT/fidelity-report.md"
