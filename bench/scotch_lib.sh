# Scotch's static mapper as a peer, timed (sourced by bench/search_at_scale.sh and
# bench/peer_cases.sh, not run). Needs TAC3MAP and PYTHON set by the caller, scotch_gmap and
# amk_grf on the PATH (Debian's `scotch` package). The graphs and the conversion back are
# bench/simgrid/scotch_maps.py's; the four strategies are those of bench/simgrid/peers.sh.

scotch_lib_here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

# Every Scotch variant that could be the best peer (issue 26): five strategies x two targets x
# two source graphs, named STRATEGY[+deco2][+unpadded].
# - Strategies: Scotch 7.0's default (recursive bipartitioning; its multilevel layer only starts
#   above 10,000 vertices), -cq (privilege quality: two separators), -cb (enforce load balance),
#   gg-fm (greedy graph growing with Fiduccia-Mattheyses refinement) and gg (greedy graph
#   growing alone), the first four as in bench/simgrid/peers.sh.
# - Targets: the box as a 'deco 0' target (amk_grf: exact hop distances) and as a 'deco 2' one
#   (amk_grf -2: Scotch's multilevel target for large graphs). An algorithmic torusXD/meshXD
#   target is exact only when every axis of size 3 or more has the same wrap-around, which none
#   of the benched boxes has (their X, Y, Z are open, B wraps), so there is none.
# - Source graphs: padded with isolated vertices to K slots on every node (Scotch's balance then
#   puts exactly K tasks on each), and the tasks alone (Scotch balances them over the nodes, and
#   may put two on one: such a map is left out).
SCOTCH_STRATEGY_NAMES=(default quality balance gg-fm gg)
SCOTCH_STRATEGY_OPTS=(""
                      "-cq"
                      "-cb"
                      "-mr{job=t,map=t,poli=S,sep=h{pass=10}f{move=120,pass=-1,bal=0.01,type=b}}"
                      "-mr{job=t,map=t,poli=S,sep=h{pass=10}}")
SCOTCH_NAMES=() SCOTCH_OPTS=() SCOTCH_TARGETS=() SCOTCH_SOURCES=()
for scotch_target in arch.tgt arch2.tgt; do
  for scotch_source in src.grf src-unpadded.grf; do
    for i in "${!SCOTCH_STRATEGY_NAMES[@]}"; do
      scotch_name=${SCOTCH_STRATEGY_NAMES[$i]}
      [ "$scotch_target" = arch2.tgt ] && scotch_name+=+deco2
      [ "$scotch_source" = src-unpadded.grf ] && scotch_name+=+unpadded
      SCOTCH_NAMES+=("$scotch_name")
      SCOTCH_OPTS+=("${SCOTCH_STRATEGY_OPTS[$i]}")
      SCOTCH_TARGETS+=("$scotch_target")
      SCOTCH_SOURCES+=("$scotch_source")
    done
  done
done

# Scotch maps of TRACE on BOX of MACHINE. Writes DIR/scotch-<variant>.map for each variant
# that gives one task per node, and DIR/scotch/status.tsv: one line per step,
#   step <TAB> status <TAB> wall seconds <TAB> peak KiB <TAB> message
# with step = graphs (scotch_maps.py graphs), target or target2 (amk_grf, amk_grf -2) or a
# variant's name, status = ok | failed | two-tasks-on-a-node. Returns 1 when no map was made.
scotch_maps_timed() {  # trace machine box dir
  local work=$4/scotch tasks i name made=0 t
  mkdir -p "$work"
  : > "$work/status.tsv"
  "$TAC3MAP" ccs --json --trace "$1" > "$work/ccs.json"
  if ! /usr/bin/time -f "%e %M" -o "$work/graphs.time" \
       "$PYTHON" "$scotch_lib_here/simgrid/scotch_maps.py" graphs "$2" "$3" "$work/ccs.json" "$work" \
       > "$work/tasks" 2> "$work/graphs.log"; then
    printf 'graphs\tfailed\t\t\t%s\n' "$(tail -1 "$work/graphs.log")" >> "$work/status.tsv"; return 1
  fi
  tasks=$(cat "$work/tasks")
  read -r t < "$work/graphs.time"
  printf 'graphs\tok\t%s\t%s\t\n' $t >> "$work/status.tsv"
  if ! /usr/bin/time -f "%e %M" -o "$work/target.time" amk_grf "$work/arch.grf" "$work/arch.tgt" \
       > "$work/target.log" 2>&1 ||
     ! /usr/bin/time -f "%e %M" -o "$work/target2.time" amk_grf -2 "$work/arch.grf" "$work/arch2.tgt" \
       >> "$work/target.log" 2>&1; then
    printf 'target\tfailed\t\t\tamk_grf: %s\n' "$(tail -1 "$work/target.log")" >> "$work/status.tsv"; return 1
  fi
  read -r t < "$work/target.time"
  printf 'target\tok\t%s\t%s\t\n' $t >> "$work/status.tsv"
  read -r t < "$work/target2.time"
  printf 'target2\tok\t%s\t%s\t\n' $t >> "$work/status.tsv"
  scotch_variants_timed "$3" "$4" "$tasks" SCOTCH_NAMES SCOTCH_OPTS SCOTCH_TARGETS SCOTCH_SOURCES
}

# The torus variants, for boxes too large for amk_grf's distance matrix (issue 26's partitioned
# mesh on Fugaku): the five strategies x padded/unpadded on scotch_maps.py's exact torus target
# (a 'sub' target of a torusXD), named STRATEGY+torus[+unpadded]. SCOTCH_TORUS_STRATEGIES picks
# strategies by name (default all five), SCOTCH_TORUS_SOURCES the source graphs (default
# "src.grf src-unpadded.grf"; the padded graph put two tasks on a node with four strategies of
# five on the 20,000-rank mesh, and with -cq on the 100,000-rank one, each run taking minutes
# there). Same files and return as scotch_maps_timed.
scotch_torus_maps_timed() {  # trace machine box dir
  local work=$4/scotch tasks t i
  local names=() opts=() targets=() sources=()
  mkdir -p "$work"
  : > "$work/status.tsv"
  "$TAC3MAP" ccs --json --trace "$1" > "$work/ccs.json"
  if ! /usr/bin/time -f "%e %M" -o "$work/graphs.time" \
       "$PYTHON" "$scotch_lib_here/simgrid/scotch_maps.py" graphs "$2" "$3" "$work/ccs.json" "$work" \
       > "$work/tasks" 2> "$work/graphs.log" ||
     ! "$PYTHON" "$scotch_lib_here/simgrid/scotch_maps.py" torus "$2" "$3" "$work" 2>> "$work/graphs.log"; then
    printf 'graphs\tfailed\t\t\t%s\n' "$(tail -1 "$work/graphs.log")" >> "$work/status.tsv"; return 1
  fi
  rm -f "$work/ccs.json" "$work/arch.grf"  # large, and not needed again
  tasks=$(cat "$work/tasks")
  read -r t < "$work/graphs.time"
  printf 'graphs\tok\t%s\t%s\t\n' $t >> "$work/status.tsv"
  for source in ${SCOTCH_TORUS_SOURCES:-src.grf src-unpadded.grf}; do
    for i in "${!SCOTCH_STRATEGY_NAMES[@]}"; do
      case " ${SCOTCH_TORUS_STRATEGIES:-${SCOTCH_STRATEGY_NAMES[*]}} " in
        *" ${SCOTCH_STRATEGY_NAMES[$i]} "*) ;;
        *) continue ;;
      esac
      names+=("${SCOTCH_STRATEGY_NAMES[$i]}+torus$([ $source = src-unpadded.grf ] && echo +unpadded)")
      opts+=("${SCOTCH_STRATEGY_OPTS[$i]}")
      targets+=(torus.tgt)
      sources+=("$source")
    done
  done
  scotch_variants_timed "$3" "$4" "$tasks" names opts targets sources
}

# Runs the variants named in the arrays NAMES OPTS TARGETS SOURCES (passed by name) on the
# files in DIR/scotch, converting each map back as scotch_maps_timed says.
scotch_variants_timed() {  # box dir tasks names opts targets sources
  local -n v_names=$4 v_opts=$5 v_targets=$6 v_sources=$7
  local box=$1 dir=$2 work=$2/scotch tasks=$3 i name made=0 t
  for i in "${!v_names[@]}"; do
    name=${v_names[$i]}
    rm -f "$dir/scotch-$name.map"
    if ! /usr/bin/time -f "%e %M" -o "$work/$name.time" scotch_gmap "$work/${v_sources[$i]}" "$work/${v_targets[$i]}" \
         "$work/$name.smap" ${v_opts[$i]} > "$work/$name.log" 2>&1; then
      # /usr/bin/time writes "Command exited with non-zero status N" before its line
      printf '%s\tfailed\t%s\t%s\tscotch_gmap: %s\n' "$name" $(tail -1 "$work/$name.time") \
        "$(grep -v '^Command exited' "$work/$name.log" | tail -1)" >> "$work/status.tsv"
      continue
    fi
    read -r t < "$work/$name.time"
    if ! "$PYTHON" "$scotch_lib_here/simgrid/scotch_maps.py" convert "$box" "$tasks" "$work/$name.smap" \
         "$dir/scotch-$name.map" 2>> "$work/$name.log"; then
      rm -f "$dir/scotch-$name.map"
      printf '%s\ttwo-tasks-on-a-node\t%s\t%s\t%s\n' "$name" $t "$(tail -1 "$work/$name.log")" >> "$work/status.tsv"
      continue
    fi
    printf '%s\tok\t%s\t%s\t\n' "$name" $t >> "$work/status.tsv"
    made=$((made + 1))
  done
  [ "$made" -gt 0 ]
}
