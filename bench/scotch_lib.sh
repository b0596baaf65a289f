# Scotch's static mapper as a peer, timed (sourced by bench/search_at_scale.sh and
# bench/peer_cases.sh, not run). Needs TAC3MAP and PYTHON set by the caller, scotch_gmap and
# amk_grf on the PATH (Debian's `scotch` package). The graphs and the conversion back are
# bench/simgrid/scotch_maps.py's; the four strategies are those of bench/simgrid/peers.sh.

scotch_lib_here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

# Scotch 7.0's default strategy is recursive bipartitioning (its multilevel layer only starts
# above 10,000 vertices); -cq tries two separators; gg-fm is greedy graph growing with
# Fiduccia-Mattheyses refinement; gg is greedy graph growing alone (as in peers.sh).
SCOTCH_NAMES=(default quality gg-fm gg)
SCOTCH_OPTS=(""
             "-cq"
             "-mr{job=t,map=t,poli=S,sep=h{pass=10}f{move=120,pass=-1,bal=0.01,type=b}}"
             "-mr{job=t,map=t,poli=S,sep=h{pass=10}}")

# Scotch maps of TRACE on BOX of MACHINE. Writes DIR/scotch-<strategy>.map for each strategy
# that gives one task per node, and DIR/scotch/status.tsv: one line per step,
#   step <TAB> status <TAB> wall seconds <TAB> peak KiB <TAB> message
# with step = graphs (scotch_maps.py graphs), target (amk_grf) or a strategy's name, status =
# ok | failed | two-tasks-on-a-node. Returns 1 when no map was made.
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
       > "$work/target.log" 2>&1; then
    printf 'target\tfailed\t\t\tamk_grf: %s\n' "$(tail -1 "$work/target.log")" >> "$work/status.tsv"; return 1
  fi
  read -r t < "$work/target.time"
  printf 'target\tok\t%s\t%s\t\n' $t >> "$work/status.tsv"
  for i in "${!SCOTCH_NAMES[@]}"; do
    name=${SCOTCH_NAMES[$i]}
    rm -f "$4/scotch-$name.map"
    if ! /usr/bin/time -f "%e %M" -o "$work/$name.time" scotch_gmap "$work/src.grf" "$work/arch.tgt" \
         "$work/$name.smap" ${SCOTCH_OPTS[$i]} > "$work/$name.log" 2>&1; then
      # /usr/bin/time writes "Command exited with non-zero status N" before its line
      printf '%s\tfailed\t%s\t%s\tscotch_gmap: %s\n' "$name" $(tail -1 "$work/$name.time") \
        "$(grep -v '^Command exited' "$work/$name.log" | tail -1)" >> "$work/status.tsv"
      continue
    fi
    read -r t < "$work/$name.time"
    if ! "$PYTHON" "$scotch_lib_here/simgrid/scotch_maps.py" convert "$3" "$tasks" "$work/$name.smap" \
         "$4/scotch-$name.map" 2>> "$work/$name.log"; then
      rm -f "$4/scotch-$name.map"
      printf '%s\ttwo-tasks-on-a-node\t%s\t%s\t%s\n' "$name" $t "$(tail -1 "$work/$name.log")" >> "$work/status.tsv"
      continue
    fi
    printf '%s\tok\t%s\t%s\t\n' "$name" $t >> "$work/status.tsv"
    made=$((made + 1))
  done
  [ "$made" -gt 0 ]
}
