#!/usr/bin/env bash
# Does a lower tac3 score mean a faster run? (issue 11.) For each case: generate the trace
# with `tac3map gen`, compute several mappings, score them (`tac3map score --output-format csv`),
# then simulate each with SimGrid's SMPI (`smpirun -replay`) on the box's platform written by
# `tac3map platform`, and compare: per case the Kendall tau between score and simulated time,
# whether the lowest score is the fastest run, and the simulated-time ratios
# tac3-map / identity and tac3-map / tahb-map. docs/validation.md explains the model and
# records a run. Not part of ctest: it needs SimGrid (apt-get install libsimgrid-dev).
#
# usage: bench/simgrid/validate.sh [OUTDIR]      (default: a new temporary folder)
# environment:
#   CASES           cases to run (default: all; names below, e.g. CASES="cg64 cg32")
#   ENGINES         injection engines per node, a list; "default" = the machine file's
#                   (default: "default"); other values pass --engines E to map/score/platform
#   RANKS_PER_NODE  ranks per node, a list (default: 1); K > 1 passes --ranks-per-node K
#   SEED            seed of the tahb and tac3 searches (default 1)
#   TAC3MAP         the tac3map binary (default: build/tac3map)
#   MACHINE         machine file (default: topologies/fx10.json); the fat-tree-* and dragonfly-*
#                   cases use their own graph machine (`tac3map topology`: a 2-level 8-ary fat-tree,
#                   a dragonfly of 4 groups x 4 routers x 4 hosts; 64 nodes each)
#   PROFILE         ping-pong profile for the predicted column (default:
#                   topologies/fx10-profile.json; empty: no prediction)
#   SMPIRUN, PYTHON the smpirun and python3 to use
# A flag the current tac3map rejects (--engines, --ranks-per-node before they exist) skips
# those cases with a message; the defaults need neither.
# Output: a table on standard output, OUTDIR/validation.csv (one line per simulated run) and
# OUTDIR/summary.csv (one line per case).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
TAC3MAP=${TAC3MAP:-$root/build/tac3map}
MACHINE=${MACHINE:-$root/topologies/fx10.json}
PROFILE=${PROFILE-$root/topologies/fx10-profile.json}
SMPIRUN=${SMPIRUN:-smpirun}
PYTHON=${PYTHON:-python3}
SEED=${SEED:-1}
ENGINES=${ENGINES:-default}
RANKS_PER_NODE=${RANKS_PER_NODE:-1}
ALL_CASES="stencil-2x2x2x2x3x2 stencil-1x2x4x2x3x2 stencil-4x2x1x2x3x2 cg64 cg64-barrier cg32 cg32-barrier
           fat-tree-cg64 fat-tree-stencil dragonfly-cg64 dragonfly-stencil"
CASES=${CASES:-$ALL_CASES}
OUT=${1:-$(mktemp -d /tmp/tac3map-validate.XXXXXX)}

source "$here/common.sh"   # SMPI_CFG, cg_trace, simulate, set_platform_flags

command -v "$SMPIRUN" >/dev/null || { echo "validate.sh: $SMPIRUN not found (apt-get install libsimgrid-dev)" >&2; exit 1; }
command -v "$PYTHON" >/dev/null || { echo "validate.sh: $PYTHON not found" >&2; exit 1; }
[ -x "$TAC3MAP" ] || { echo "validate.sh: $TAC3MAP is not built" >&2; exit 1; }
mkdir -p "$OUT"
# SMPI runs its barriers linear: tac3map is told so (empty for binaries without it).
# shellcheck disable=SC2207
barrier_flags=($(smpi_barrier_flags))
OUT=$(cd "$OUT" && pwd)   # smpirun runs in the case folder
CSV=$OUT/validation.csv
echo "case,shape,engines,ranks_per_node,mapping,tac3_seconds,tac3_lower_bound,tahb,max_link_messages,predicted_seconds,simulated_seconds,timeline_seconds,flow_seconds" > "$CSV"

# Writes the case's trace to $1 and prints its box ("graph": the case's own graph machine,
# written to $1's folder as machine.json, all of its compute nodes).
make_case() {  # case trace-file
  local folder
  folder=$(dirname "$2")
  case "$1" in
    fat-tree-* | dragonfly-*)
      case "$1" in
        fat-tree-*) "$TAC3MAP" topology fat-tree --k 8 --levels 2 -o "$folder/machine.json" >/dev/null ;;
        *) "$TAC3MAP" topology dragonfly --groups 4 --routers 4 --hosts 4 -o "$folder/machine.json" >/dev/null ;;
      esac
      case "$1" in
        *-cg64) cg_trace 64 0 "$2" ;;
        *) "$TAC3MAP" gen stencil --dims 4x4x4 --points 7 --periodic --bytes 262144 --variant isend -o "$2" ;;
      esac
      echo graph ;;
    stencil-*)
      "$TAC3MAP" gen stencil --dims 4x4x4 --points 7 --periodic --bytes 262144 --variant isend -o "$2"
      echo "${1#stencil-}" ;;
    cg64) cg_trace 64 0 "$2"; echo 2x2x2x2x3x2 ;;
    cg64-barrier) cg_trace 64 1 "$2"; echo 2x2x2x2x3x2 ;;
    cg32) cg_trace 32 0 "$2"; echo 1x2x2x2x3x2 ;;
    cg32-barrier) cg_trace 32 1 "$2"; echo 1x2x2x2x3x2 ;;
    *) echo "validate.sh: unknown case '$1' (cases: $ALL_CASES)" >&2; return 1 ;;
  esac
}

for name in $CASES; do
  base=$OUT/$name
  mkdir -p "$base"
  shape=$(make_case "$name" "$base/trace.trace")
  "$TAC3MAP" convert "$base/trace.trace" --to simgrid-ti -o "$base/trace.ti" >/dev/null
  for engines in $ENGINES; do
    for k in $RANKS_PER_NODE; do
      flags=()
      [ "$engines" != default ] && flags+=(--engines "$engines")
      [ "$k" != 1 ] && flags+=(--ranks-per-node "$k")
      flags+=("${barrier_flags[@]}")
      box=(--machine "$MACHINE" --shape "$shape")
      [ "$shape" = graph ] && box=(--machine "$base/machine.json")
      dir=$base/e$engines-k$k
      mkdir -p "$dir"
      if ! err=$("$TAC3MAP" score "${box[@]}" --trace "$base/trace.trace" "${flags[@]}" identity 2>&1 >/dev/null); then
        echo "skipped: $name engines=$engines ranks-per-node=$k: tac3map score says: ${err%%$'\n'*}" >&2
        continue
      fi
      if [ "$shape" = graph ]; then names=(identity random:1 random:2)  # no tofu-default on a graph
      elif [ "$k" = 1 ]; then names=(identity tofu-default random:1); else names=(identity round-robin random:1); fi
      for objective in tahb tac3; do
        "$TAC3MAP" map "${box[@]}" --trace "$base/trace.trace" "${flags[@]}" --objective "$objective" \
          --seed "$SEED" --quiet -o "$dir/$objective.map" >/dev/null
      done
      mappings=("${names[@]}" "$dir/tahb.map" "$dir/tac3.map")
      profile=()
      [ -n "$PROFILE" ] && [ "$shape" != graph ] && profile=(--profile "$PROFILE")
      if ! "$TAC3MAP" score "${box[@]}" --trace "$base/trace.trace" "${flags[@]}" --output-format csv \
          "${profile[@]}" "${mappings[@]}" > "$dir/scores.csv" 2>/dev/null; then
        "$TAC3MAP" score "${box[@]}" --trace "$base/trace.trace" "${flags[@]}" --output-format csv \
          "${mappings[@]}" > "$dir/scores.csv"
      fi
      set_platform_flags "$engines" "$k"
      "$TAC3MAP" platform "${box[@]}" "${platform_flags[@]}" -o "$dir/platform.xml" >/dev/null
      line=1
      for mapping in "${mappings[@]}"; do
        line=$((line + 1))
        label=$(basename "$mapping" .map)
        [ "$label" = tahb ] && label=tahb-map
        [ "$label" = tac3 ] && label=tac3-map
        hosts=$dir/${label//:/-}.hosts
        "$TAC3MAP" platform "${box[@]}" "${platform_flags[@]}" --trace "$base/trace.trace" "$mapping" \
          -o "$dir/platform.xml" --hostfile "$hosts" >/dev/null
        simulated=$(simulate "$dir/platform.xml" "$hosts" "$base/trace.ti" "${hosts%.hosts}.smpi.log") ||
          { echo "validate.sh: simulation of $name $label failed" >&2; exit 1; }
        # scores.csv: mapping,tac3,tac3_lower_bound,tahb,rmatt_o2f,max_link_messages,avg_hops,
        # then (newer binaries) timeline, flow and with a profile predicted_seconds: read by name.
        sed -n "1p;${line}p" "$dir/scores.csv" | awk -F, -v c="$name" -v s="$shape" -v e="$engines" \
          -v k="$k" -v m="$label" -v t="$simulated" \
          'NR == 1 { for (i = 1; i <= NF; ++i) col[$i] = i; next }
           { p = ("predicted_seconds" in col) ? $col["predicted_seconds"] : ""
             tl = ("timeline" in col) ? $col["timeline"] : ""
             fl = ("flow" in col) ? $col["flow"] : ""
             print c "," s "," e "," k "," m "," $2 "," $3 "," $4 "," $6 "," p "," t "," tl "," fl }' >> "$CSV"
      done
    done
  done
done

"$PYTHON" - "$CSV" "$OUT/summary.csv" <<'EOF'
import csv, sys
from collections import OrderedDict

rows = list(csv.DictReader(open(sys.argv[1])))
groups = OrderedDict()
for r in rows:
    groups.setdefault((r["case"], r["shape"], r["engines"], r["ranks_per_node"]), []).append(r)

def kendall_tau_b(x, y):
    n = len(x); concordant = discordant = ties_x = ties_y = 0
    for i in range(n):
        for j in range(i + 1, n):
            dx, dy = x[i] - x[j], y[i] - y[j]
            # scores or times within 0.1% are ties (floating noise, latencies)
            tx = abs(dx) <= 1e-3 * max(abs(x[i]), abs(x[j]))
            ty = abs(dy) <= 1e-3 * max(abs(y[i]), abs(y[j]))
            if tx and ty: continue
            if tx: ties_x += 1; continue
            if ty: ties_y += 1; continue
            if dx * dy > 0: concordant += 1
            else: discordant += 1
    denominator = ((concordant + discordant + ties_x) * (concordant + discordant + ties_y)) ** 0.5
    return (concordant - discordant) / denominator if denominator else float("nan")

def fmt(v, digits=6):
    return "" if v in ("", None) else f"{float(v):.{digits}g}"

print(f"{'case':<22}{'E':>8}{'K':>3}  {'mapping':<14}{'tac3[s]':>12}{'predicted[s]':>14}{'simulated[s]':>14}{'sim/tac3':>10}")
summary = []
for (case, shape, engines, k), rs in groups.items():
    for r in rs:
        ratio = float(r["simulated_seconds"]) / float(r["tac3_seconds"])
        print(f"{case:<22}{engines:>8}{k:>3}  {r['mapping']:<14}{fmt(r['tac3_seconds']):>12}"
              f"{fmt(r['predicted_seconds']):>14}{fmt(r['simulated_seconds']):>14}{ratio:>10.3f}")
    score = [float(r["tac3_seconds"]) for r in rs]
    sim = [float(r["simulated_seconds"]) for r in rs]
    by = {r["mapping"]: float(r["simulated_seconds"]) for r in rs}
    tau = kendall_tau_b(score, sim)
    lowest = min(score)
    best = [s for sc, s in zip(score, sim) if sc <= lowest * (1 + 1e-3)]
    lowest_fastest = all(s <= min(sim) * (1 + 1e-3) for s in best)
    vs_identity = by["tac3-map"] / by["identity"]
    vs_tahb = by["tac3-map"] / by["tahb-map"]
    # The flow model's column (flow[s] of score), where the binary has it for every map.
    flow = [r.get("flow_seconds") for r in rs]
    tau_flow = (kendall_tau_b([float(v) for v in flow], sim)
                if all(v not in ("", None) for v in flow) else float("nan"))
    summary.append((case, shape, engines, k, tau, tau_flow, lowest_fastest, vs_identity, vs_tahb))
    print(f"  -> Kendall tau(score, simulated) = {tau:.3f} (flow: {tau_flow:.3f}); lowest score is "
          f"fastest: {'yes' if lowest_fastest else 'no'}; simulated tac3-map/identity = "
          f"{vs_identity:.3f}, tac3-map/tahb-map = {vs_tahb:.3f}")
with open(sys.argv[2], "w") as f:
    f.write("case,shape,engines,ranks_per_node,kendall_tau,kendall_tau_flow,lowest_score_fastest,"
            "sim_tac3_over_identity,sim_tac3_over_tahb\n")
    for case, shape, engines, k, tau, tau_flow, fastest, vi, vt in summary:
        f.write(f"{case},{shape},{engines},{k},{tau:.4f},{tau_flow:.4f},"
                f"{'yes' if fastest else 'no'},{vi:.4f},{vt:.4f}\n")
print(f"\nper run: {sys.argv[1]}\nper case: {sys.argv[2]}")
EOF
