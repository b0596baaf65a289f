#!/usr/bin/env bash
# Issue 12's "Done when" figures side by side with Scotch, run the same day on the same
# machine (docs/performance.md, section "Search at scale and the peer cases", records a run).
# For each case: the trace from `tac3map gen` (as bench/starts.sh makes it); the baselines
# identity and tofu-default; Scotch's best of the four strategies of bench/simgrid/peers.sh
# (best = lowest hop-bytes as `tac3map score` computes it; a strategy that fails or puts two
# tasks on one node is left out, and said so); `tac3map map --objective tac3` and
# `--objective tahb` for each seed, timed with /usr/bin/time (wall seconds, peak memory), with
# --report; every mapping scored by one `tac3map score --output-format csv`. Prints a markdown table
# per case and the issue's criteria with PASS/FAIL.
#
# usage: bench/search_at_scale.sh [OUTDIR]      (default: a new temporary folder)
# environment:
#   CASES         default "stencil1152 random4096 stencil512 fugaku":
#     stencil1152   12x12x8 periodic 7-point stencil, 256 KiB, on K 4x4x6x2x3x2
#     random4096    4,096 ranks, 3 partners each, 64-256 KiB (seed 1), on K 8x8x6x2x3x2
#     stencil512    8x8x8 periodic stencil on the whole FX10 (4x2x8x2x3x2 as fx10.json says);
#                   judged by SimGrid: identity, tofu-default, Scotch's best and the tac3 map of
#                   the first seed replayed with smpirun as bench/simgrid/validate.sh does
#     fugaku        48x46x72 periodic stencil on the whole of Fugaku (24x23x24x2x3x2); no
#                   Scotch (158,976 vertices), the tac3 objective only
#     mesh20k       issue 26's partitioned mesh: `gen mesh` 20,000 ranks (6 nearest, 16-256 KiB,
#                   seed 1) on Fugaku 12x12x12x2x3x2; Scotch on the exact torus target
#                   (scotch_lib.sh's scotch_torus_maps_timed: amk_grf cannot hold the box)
#     mesh100k      the same with 100,000 ranks on the whole of Fugaku (24x23x24x2x3x2)
#   SEEDS         seeds of the map runs (default "1 2 3")
#   SEEDS_MESH    seeds of the mesh cases (default "1")
#   SEEDS_FUGAKU  seeds of the fugaku case (default "1")
#   MAP_FLAGS     extra flags for every map run (e.g. "--chains 2 --threads 2")
#   FUGAKU_FLAGS  extra flags for the fugaku map runs (default "--time-limit 500")
#   MAP_TIMEOUT   seconds after which a map run is killed (default: none); a killed run shows
#                 as "killed" in the table and fails its criteria
#   SCOTCH        1 (default): Scotch maps; 0: none (its criteria then cannot be judged)
#   JOBS          simulations run at once (default 2)
#   TAC3MAP (default build/tac3map), SMPIRUN (smpirun), PYTHON (python3)
# Output in OUTDIR: report.md (the tables and criteria as printed), results.csv (one line per
# mapping of every case, Scotch's four strategies included), criteria.txt, and per case a
# folder with the trace, the maps, the map reports, scores.csv and Scotch's files.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
TAC3MAP=${TAC3MAP:-$root/build/tac3map}
SMPIRUN=${SMPIRUN:-smpirun}
PYTHON=${PYTHON:-python3}
CASES=${CASES:-stencil1152 random4096 stencil512 fugaku}
SEEDS=${SEEDS:-1 2 3}
SEEDS_FUGAKU=${SEEDS_FUGAKU:-1}
SEEDS_MESH=${SEEDS_MESH:-1}
MAP_FLAGS=${MAP_FLAGS:-}
FUGAKU_FLAGS=${FUGAKU_FLAGS---time-limit 500}
SCOTCH=${SCOTCH:-1}
JOBS=${JOBS:-2}
MAP_TIMEOUT=${MAP_TIMEOUT:-}

source "$here/simgrid/common.sh"   # simulate, set_platform_flags (SMPI configured as validate.sh)
source "$here/scotch_lib.sh"       # scotch_maps_timed

[ -x "$TAC3MAP" ] || { echo "search_at_scale.sh: $TAC3MAP is not built (or set TAC3MAP)" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "search_at_scale.sh: /usr/bin/time not found (apt-get install time)" >&2; exit 1; }
command -v "$PYTHON" >/dev/null || { echo "search_at_scale.sh: $PYTHON not found" >&2; exit 1; }
if [ "$SCOTCH" = 1 ] && ! command -v scotch_gmap >/dev/null; then
  echo "search_at_scale.sh: scotch_gmap not found (apt-get install scotch), or SCOTCH=0" >&2; exit 1
fi
OUT=${1:-$(mktemp -d /tmp/tac3map-scale.XXXXXX)}
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)   # smpirun runs in the case folder
: > "$OUT/report.md"
: > "$OUT/criteria.txt"
rm -f "$OUT/results.csv"
{
  echo "# bench/search_at_scale.sh, $(date -u '+%Y-%m-%d %H:%M UTC') on $(uname -n), $(nproc) cores"
  echo "# tac3map: $TAC3MAP; SEEDS=\"$SEEDS\" SEEDS_FUGAKU=\"$SEEDS_FUGAKU\" MAP_FLAGS=\"$MAP_FLAGS\" FUGAKU_FLAGS=\"$FUGAKU_FLAGS\""
  command -v scotch_gmap >/dev/null && echo "# scotch: $(dpkg-query -W -f '${Version}' scotch 2>/dev/null || echo '?')"
} | tee -a "$OUT/report.md"

for c in $CASES; do
  seeds=$SEEDS objectives="tac3 tahb" scotch=$SCOTCH flags=$MAP_FLAGS simulate_case=0 target=deco
  case $c in
    stencil1152) machine=k-computer; shape=4x4x6x2x3x2
      gen="gen stencil --dims 12x12x8 --points 7 --periodic --bytes 262144" ;;
    random4096) machine=k-computer; shape=8x8x6x2x3x2
      gen="gen random --ranks 4096 --degree 3 --bytes 65536 --max-bytes 262144 --seed 1" ;;
    stencil512) machine=fx10; simulate_case=1
      shape=$("$PYTHON" -c "import json;print('x'.join(str(a['size']) for a in json.load(open('$root/topologies/fx10.json'))['axes']))")
      gen="gen stencil --dims 8x8x8 --points 7 --periodic --bytes 262144" ;;
    fugaku) machine=fugaku; shape=24x23x24x2x3x2; seeds=$SEEDS_FUGAKU objectives=tac3 scotch=0
      flags="$MAP_FLAGS $FUGAKU_FLAGS"
      gen="gen stencil --dims 48x46x72 --points 7 --periodic --bytes 262144" ;;
    mesh20k) machine=fugaku; shape=12x12x12x2x3x2; seeds=$SEEDS_MESH target=torus
      gen="gen mesh --ranks 20000 --neighbours 6 --bytes 16384 --max-bytes 262144 --seed 1" ;;
    mesh100k) machine=fugaku; shape=24x23x24x2x3x2; seeds=$SEEDS_MESH target=torus
      gen="gen mesh --ranks 100000 --neighbours 6 --bytes 16384 --max-bytes 262144 --seed 1" ;;
    *) echo "search_at_scale.sh: unknown case $c" >&2; exit 2 ;;
  esac
  machine_file=$root/topologies/$machine.json
  dir=$OUT/$c
  rm -rf "$dir"
  mkdir -p "$dir"
  "$TAC3MAP" $gen -o "$dir/trace.trace" > /dev/null
  box=(--machine "$machine_file" --shape "$shape")
  # runs.tsv: label kind strategy seed objective wall_s peak_kib stopped mapping; scores.csv
  # gets one line per runs.tsv line, in the same order
  printf 'label\tkind\tstrategy\tseed\tobjective\twall_s\tpeak_kib\tstopped\tmapping\n' > "$dir/runs.tsv"
  : > "$dir/killed.tsv"   # map runs cut by MAP_TIMEOUT: label seed objective wall_s peak_kib
  limit=()
  [ -n "$MAP_TIMEOUT" ] && limit=(timeout "$MAP_TIMEOUT")
  for m in identity tofu-default; do
    printf '%s\tbaseline\t\t\t\t\t\t\t%s\n' "$m" "$m" >> "$dir/runs.tsv"
  done
  if [ "$scotch" = 1 ]; then
    echo "[$c] Scotch ($shape)" >&2
    scotch_run=scotch_maps_timed
    [ "$target" = torus ] && scotch_run=scotch_torus_maps_timed
    "$scotch_run" "$dir/trace.trace" "$machine_file" "$shape" "$dir" ||
      echo "search_at_scale.sh: $c: no Scotch map (see $dir/scotch/status.tsv)" >&2
    while IFS=$'\t' read -r step status wall kib _; do
      [ "$status" = ok ] && [ -f "$dir/scotch-$step.map" ] &&
        printf 'scotch-%s\tscotch\t%s\t\t\t%s\t%s\t\t%s\n' "$step" "$step" "$wall" "$kib" \
          "$dir/scotch-$step.map" >> "$dir/runs.tsv"
    done < "$dir/scotch/status.tsv"
  fi
  for s in $seeds; do
    for o in $objectives; do
      label=$o-map-s$s
      echo "[$c] map --objective $o --seed $s $flags" >&2
      if ! /usr/bin/time -f "%e %M" -o "$dir/$label.time" "${limit[@]}" "$TAC3MAP" map "${box[@]}" \
           --trace "$dir/trace.trace" --objective "$o" --seed "$s" --quiet $flags \
           -o "$dir/$label.map" --report "$dir/$label.json" > "$dir/$label.log" 2>&1; then
        if [ -n "$MAP_TIMEOUT" ] && grep -q 'status 124' "$dir/$label.time"; then
          read -r wall kib < <(tail -1 "$dir/$label.time")
          echo "search_at_scale.sh: $c: map --objective $o --seed $s killed after $MAP_TIMEOUT s (MAP_TIMEOUT)" >&2
          printf '%s\t%s\t%s\t%s\t%s\n' "$label" "$s" "$o" "$wall" "$kib" >> "$dir/killed.tsv"
        else
          echo "search_at_scale.sh: $c: map --objective $o --seed $s failed, see $dir/$label.log" >&2
        fi
        continue
      fi
      read -r wall kib < <(tail -1 "$dir/$label.time")
      stopped=$("$PYTHON" -c "import json,sys;print(json.load(open(sys.argv[1]))['search']['stopped'])" "$dir/$label.json")
      printf '%s\ttac3map\t\t%s\t%s\t%s\t%s\t%s\t%s\n' "$label" "$s" "$o" "$wall" "$kib" "$stopped" \
        "$dir/$label.map" >> "$dir/runs.tsv"
    done
  done
  mapfile -t mappings < <(tail -n +2 "$dir/runs.tsv" | cut -f9)
  # mapping,tac3,tac3_lower_bound,tahb,rmatt_o2f,max_link_messages,avg_hops
  "$TAC3MAP" score "${box[@]}" --trace "$dir/trace.trace" --output-format csv "${mappings[@]}" > "$dir/scores.csv"

  : > "$dir/simulated.tsv"
  if [ "$simulate_case" = 1 ]; then
    command -v "$SMPIRUN" >/dev/null || { echo "search_at_scale.sh: $SMPIRUN not found (apt-get install libsimgrid-dev)" >&2; exit 1; }
    # identity, tofu-default, Scotch's best (by tahb) and the tac3 map of the first seed
    first=${seeds%% *}
    mapfile -t sims < <("$PYTHON" - "$dir/runs.tsv" "$dir/scores.csv" "tac3-map-s$first" <<'PY'
import csv, sys
runs = list(csv.DictReader(open(sys.argv[1]), delimiter="\t"))
scores = list(csv.DictReader(open(sys.argv[2])))
scotch = [(float(s["tahb"]), r["label"]) for r, s in zip(runs, scores) if r["kind"] == "scotch"]
for r in runs:
    if r["kind"] == "baseline" or r["label"] == sys.argv[3] or (scotch and r["label"] == min(scotch)[1]):
        print(r["label"] + "\t" + r["mapping"])
PY
)
    echo "[$c] SimGrid: ${#sims[@]} mappings" >&2
    "$TAC3MAP" convert "$dir/trace.trace" --to simgrid-ti -o "$dir/trace.ti" > /dev/null
    set_platform_flags default 1
    "$TAC3MAP" platform "${box[@]}" "${platform_flags[@]}" -o "$dir/platform.xml" > /dev/null
    running=0
    for line in "${sims[@]}"; do
      label=${line%%$'\t'*}
      mapping=${line#*$'\t'}
      "$TAC3MAP" platform "${box[@]}" "${platform_flags[@]}" --trace "$dir/trace.trace" "$mapping" \
        -o "$dir/$label.platform.xml" --hostfile "$dir/$label.hosts" > /dev/null
      rm -f "$dir/$label.platform.xml"
      ( simulate "$dir/platform.xml" "$dir/$label.hosts" "$dir/trace.ti" "$dir/$label.smpi.log" \
          > "$dir/$label.seconds" ) &
      running=$((running + 1))
      if [ "$running" -ge "$JOBS" ]; then wait -n || true; running=$((running - 1)); fi
    done
    wait || true
    for line in "${sims[@]}"; do
      label=${line%%$'\t'*}
      printf '%s\t%s\n' "$label" "$(cat "$dir/$label.seconds")" >> "$dir/simulated.tsv"
    done
    rm -f "$dir"/trace.ti.rank*   # the per-rank TI files are large and made again in seconds
  fi
  "$PYTHON" "$here/search_at_scale_report.py" "$c" "$shape" "$dir" "$OUT" | tee -a "$OUT/report.md"
done

{
  echo
  echo "## Criteria (issue 12, \"Done when\"; issue 26 item 3 for the mesh cases)"
  echo
  sed 's/^/- /' "$OUT/criteria.txt"
  echo
  echo "results: $OUT/results.csv; tables: $OUT/report.md"
} | tee -a "$OUT/report.md"
