#!/usr/bin/env bash
# Issue 12's 27 small peer cases: 9 inputs x 3 boxes on FX10, tac3map's hop-bytes map
# (`map --objective tahb`) against Scotch's best of the four strategies of
# bench/simgrid/peers.sh. Hop-bytes are computed independently of tac3map
# (bench/peer_hopbytes.py: the trace's communications from `tac3map ccs --json`, the mapping
# files' box coordinates, dimension-order hop counts on the box's mesh/torus) and
# cross-checked against `tac3map score`'s tahb. docs/performance.md, section "Search at scale
# and the peer cases", lists the cases and records a run.
#
# usage: bench/peer_cases.sh [OUTDIR]      (default: a new temporary folder)
# environment:
#   INPUTS     inputs to run (default: all nine below); the 64-rank ones run on the 64-rank
#              boxes, the 32-rank ones on the 32-rank boxes
#     cg64            examples/cg64-sendrecv.trace (NAS CG, 1 MiB sendrecv)
#     cg32            examples/cg32-sendrecv.trace
#     stencil444      gen stencil --dims 4x4x4 --points 7 --periodic --bytes 262144 (64 ranks)
#     stencil442      gen stencil --dims 4x4x2 --points 7 --periodic --bytes 262144 (32 ranks)
#     random64-d3-s1  gen random --ranks 64 --degree 3 --bytes 65536 --max-bytes 262144 --seed 1
#     random64-d4-s2  ... --ranks 64 --degree 4 ... --seed 2
#     random64-d3-s2  ... --ranks 64 --degree 3 ... --seed 2
#     random32-d3-s1  ... --ranks 32 --degree 3 ... --seed 1
#     random32-d4-s2  ... --ranks 32 --degree 4 ... --seed 2
#   boxes (the paper's, as in bench/simgrid/peers.sh):
#     64 ranks: 1x2x4x2x3x2 2x2x2x2x3x2 4x2x1x2x3x2;  32 ranks: 1x1x4x2x3x2 1x2x2x2x3x2 4x1x1x2x3x2
#   SEED       seed of the tahb map (default 1)
#   MAP_FLAGS  extra flags for map
#   TAC3MAP (default build/tac3map), MACHINE (topologies/fx10.json), PYTHON (python3)
# Output: a table and "tahb <= scotch best on N/27 cases, geomean ratio X" on standard output
# (also OUTDIR/peer-cases.md), OUTDIR/peer-cases.csv (one line per case), per case a folder
# with the maps and Scotch's files.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
TAC3MAP=${TAC3MAP:-$root/build/tac3map}
MACHINE=${MACHINE:-$root/topologies/fx10.json}
PYTHON=${PYTHON:-python3}
SEED=${SEED:-1}
MAP_FLAGS=${MAP_FLAGS:-}
ALL_INPUTS="cg64 stencil444 random64-d3-s1 random64-d4-s2 random64-d3-s2 cg32 stencil442 random32-d3-s1 random32-d4-s2"
INPUTS=${INPUTS:-$ALL_INPUTS}
BOXES64="1x2x4x2x3x2 2x2x2x2x3x2 4x2x1x2x3x2"
BOXES32="1x1x4x2x3x2 1x2x2x2x3x2 4x1x1x2x3x2"

source "$here/scotch_lib.sh"   # scotch_maps_timed

[ -x "$TAC3MAP" ] || { echo "peer_cases.sh: $TAC3MAP is not built (or set TAC3MAP)" >&2; exit 1; }
command -v "$PYTHON" >/dev/null || { echo "peer_cases.sh: $PYTHON not found" >&2; exit 1; }
command -v scotch_gmap >/dev/null || { echo "peer_cases.sh: scotch_gmap not found (apt-get install scotch)" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "peer_cases.sh: /usr/bin/time not found (apt-get install time)" >&2; exit 1; }
OUT=${1:-$(mktemp -d /tmp/tac3map-peer-cases.XXXXXX)}
mkdir -p "$OUT/inputs"
OUT=$(cd "$OUT" && pwd)
TSV=$OUT/peer-cases.tsv
printf 'case\tinput\tranks\tbox\tmapping\tstrategy\thop_bytes\tbytes\tavg_hops\tscore_tahb\tstatus\twall_s\n' > "$TSV"

# Writes input $1's trace to $2 and prints its rank count.
make_input() {  # input trace
  local ranks degree seed
  case "$1" in
    cg64|cg32) cp "$root/examples/$1-sendrecv.trace" "$2"; echo "${1#cg}" ;;
    stencil444) "$TAC3MAP" gen stencil --dims 4x4x4 --points 7 --periodic --bytes 262144 -o "$2" >/dev/null; echo 64 ;;
    stencil442) "$TAC3MAP" gen stencil --dims 4x4x2 --points 7 --periodic --bytes 262144 -o "$2" >/dev/null; echo 32 ;;
    random*-d*-s*)
      ranks=${1#random}; ranks=${ranks%%-*}
      degree=${1#*-d}; degree=${degree%%-*}
      seed=${1##*-s}
      "$TAC3MAP" gen random --ranks "$ranks" --degree "$degree" --bytes 65536 --max-bytes 262144 \
        --seed "$seed" -o "$2" >/dev/null
      echo "$ranks" ;;
    *) echo "peer_cases.sh: unknown input '$1' (inputs: $ALL_INPUTS)" >&2; return 1 ;;
  esac
}

for input in $INPUTS; do
  trace=$OUT/inputs/$input.trace
  ranks=$(make_input "$input" "$trace")
  "$TAC3MAP" ccs --json --trace "$trace" > "$OUT/inputs/$input.ccs.json"
  case "$ranks" in 64) boxes=$BOXES64 ;; 32) boxes=$BOXES32 ;;
    *) echo "peer_cases.sh: $input has $ranks ranks, not 32 or 64" >&2; exit 1 ;; esac
  for box in $boxes; do
    name=$input-$box
    dir=$OUT/$name
    rm -rf "$dir"
    mkdir -p "$dir"
    echo "[$name]" >&2
    /usr/bin/time -f "%e %M" -o "$dir/tahb-map.time" "$TAC3MAP" map --machine "$MACHINE" --shape "$box" \
      --trace "$trace" --objective tahb --seed "$SEED" --quiet $MAP_FLAGS -o "$dir/tahb-map.map" \
      --report "$dir/tahb-map.json" > "$dir/tahb-map.log" 2>&1 ||
      { echo "peer_cases.sh: $name: map failed, see $dir/tahb-map.log" >&2; exit 1; }
    read -r map_wall _ < <(tail -1 "$dir/tahb-map.time")
    scotch_maps_timed "$trace" "$MACHINE" "$box" "$dir" ||
      echo "peer_cases.sh: $name: no Scotch map (see $dir/scotch/status.tsv)" >&2
    files=("$dir/tahb-map.map")
    for s in "${SCOTCH_NAMES[@]}"; do [ -f "$dir/scotch-$s.map" ] && files+=("$dir/scotch-$s.map"); done
    "$PYTHON" "$here/peer_hopbytes.py" "$MACHINE" "$box" "$OUT/inputs/$input.ccs.json" "${files[@]}" \
      > "$dir/hopbytes.tsv"
    # mapping,tac3,tac3_lower_bound,tahb,rmatt_o2f,max_link_messages,avg_hops
    "$TAC3MAP" score --machine "$MACHINE" --shape "$box" --trace "$trace" --output-format csv "${files[@]}" \
      > "$dir/scores.csv"
    "$PYTHON" - "$name" "$input" "$ranks" "$box" "$dir" "$map_wall" >> "$TSV" <<'PY'
import csv, os, sys
name, input_, ranks, box, d, map_wall = sys.argv[1:]
hb = [line.rstrip("\n").split("\t") for line in open(f"{d}/hopbytes.tsv")]
sc = list(csv.DictReader(open(f"{d}/scores.csv")))
assert len(hb) == len(sc)
status = {}
for line in open(f"{d}/scotch/status.tsv"):
    f = line.rstrip("\n").split("\t")
    status[f[0]] = f
for (path, hop_bytes, total, avg), s in zip(hb, sc):
    label = os.path.basename(path)[:-len(".map")]
    strategy = label[len("scotch-"):] if label.startswith("scotch-") else ""
    wall = map_wall if not strategy else status[strategy][2]
    print("\t".join([name, input_, ranks, box, "tahb-map" if not strategy else "scotch", strategy,
                     hop_bytes, total, avg, s["tahb"], "ok", wall]))
for step, f in status.items():
    if step not in ("graphs", "target", "target2") and f[1] != "ok":
        print("\t".join([name, input_, ranks, box, "scotch", step, "", "", "", "", f[1], f[2]]))
PY
  done
done

"$PYTHON" - "$TSV" "$OUT/peer-cases.csv" <<'PY' | tee "$OUT/peer-cases.md"
import csv, math, sys
from collections import OrderedDict
MIB = 1024 * 1024
rows = list(csv.DictReader(open(sys.argv[1]), delimiter="\t"))
cases = OrderedDict()
for r in rows:
    cases.setdefault(r["case"], []).append(r)
print("| # | input | ranks | box | tahb map [MiB·hops] | Scotch best [MiB·hops] | Scotch strategy | tahb / Scotch | tahb ≤ Scotch | avg hops tahb / Scotch | score agrees |")
print("|---|---|---|---|---|---|---|---|---|---|---|")
wins, ratios, disagree, notes = 0, [], 0, []
out = []
for i, (name, rs) in enumerate(cases.items(), 1):
    mine = next(r for r in rs if r["mapping"] == "tahb-map")
    scotch = [r for r in rs if r["mapping"] == "scotch" and r["status"] == "ok"]
    for r in rs:
        if r["status"] != "ok":
            notes.append(f"{name}: Scotch {r['strategy']} {r['status']}, left out")
    ok_rows = [mine] + scotch
    agrees = all(abs(float(r["hop_bytes"]) - float(r["score_tahb"])) <= 1e-9 * max(1.0, float(r["hop_bytes"]))
                 for r in ok_rows)
    if not agrees:
        disagree += 1
        notes.append(f"{name}: python and tac3map score differ: "
                     + ", ".join(f"{r['mapping']}{'-' + r['strategy'] if r['strategy'] else ''} "
                                 f"{r['hop_bytes']} vs {r['score_tahb']}" for r in ok_rows))
    m = int(mine["hop_bytes"])
    if scotch:
        best = min(scotch, key=lambda r: int(r["hop_bytes"]))
        b = int(best["hop_bytes"])
        ratio = m / b
        ratios.append(ratio)
        wins += m <= b
        print(f"| {i} | {mine['input']} | {mine['ranks']} | {mine['box']} | {m / MIB:.1f} | {b / MIB:.1f} | "
              f"{best['strategy']} | {ratio:.3f} | {'yes' if m <= b else 'no'} | "
              f"{float(mine['avg_hops']):.3f} / {float(best['avg_hops']):.3f} | {'yes' if agrees else 'NO'} |")
        out.append([name, mine["input"], mine["ranks"], mine["box"], m, b, best["strategy"], f"{ratio:.4f}",
                    "yes" if m <= b else "no", mine["avg_hops"], best["avg_hops"], "yes" if agrees else "no",
                    mine["wall_s"]])
    else:
        print(f"| {i} | {mine['input']} | {mine['ranks']} | {mine['box']} | {m / MIB:.1f} | no map | | | | | "
              f"{'yes' if agrees else 'NO'} |")
        out.append([name, mine["input"], mine["ranks"], mine["box"], m, "", "", "", "", mine["avg_hops"], "",
                    "yes" if agrees else "no", mine["wall_s"]])
if notes:
    print()
for n in notes:
    print(f"- {n}")
geo = math.exp(sum(map(math.log, ratios)) / len(ratios)) if ratios else float("nan")
print(f"\ntahb <= scotch best on {wins}/{len(cases)} cases, geomean ratio {geo:.3f}"
      + (f" ({len(cases) - len(ratios)} cases without a Scotch map)" if len(ratios) < len(cases) else ""))
print(f"hop-bytes of python and tac3map score agree on {len(cases) - disagree}/{len(cases)} cases")
with open(sys.argv[2], "w", newline="") as f:
    w = csv.writer(f)
    w.writerow(["case", "input", "ranks", "box", "tahb_map_hop_bytes", "scotch_best_hop_bytes", "scotch_strategy",
                "ratio", "tahb_le_scotch", "tahb_map_avg_hops", "scotch_avg_hops", "score_agrees", "tahb_map_wall_s"])
    w.writerows(out)
PY
