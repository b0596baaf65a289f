#!/usr/bin/env bash
# Which CCS rule for several injection engines tracks a flow-level simulation better
# (docs/model.md)? For the 4x4x4 periodic Isend stencil (256 KiB) on three FX10 boxes with the
# machine file's 4 engines, scores nine mappings under `--engine-sets level` (a level is one
# set, engines charged in its cost) and `--engine-sets split` (at most E messages per rank and
# set), simulates each mapping with SMPI on the box's platform, and prints per box and rule
# the Kendall tau between score and simulated time and the median |score / simulated - 1|.
# Not part of ctest: needs SimGrid (apt-get install libsimgrid-dev) and python3.
# usage: bench/simgrid/engine_rules.sh [OUTDIR]
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
TAC3MAP=${TAC3MAP:-$root/build/tac3map}
SMPIRUN=${SMPIRUN:-smpirun}
T=$TAC3MAP
M=${MACHINE:-$root/topologies/fx10.json}
# shellcheck source=common.sh
. "$root/bench/simgrid/common.sh"  # SMPI_CFG, stencil_trace, simulate
OUT=${1:-$(mktemp -d /tmp/tac3map-rules.XXXXXX)}
mkdir -p "$OUT"
cd "$OUT"
OUT=$(pwd)
stencil_trace 0 st.trace
"$T" convert st.trace --to simgrid-ti -o st.ti >/dev/null
sim() {  # mapping box -> simulated seconds
  "$T" platform -m "$M" -s "$2" --trace st.trace "$1" -o p.xml --hostfile h.txt >/dev/null
  simulate "$OUT/p.xml" "$OUT/h.txt" "$OUT/st.ti" "$OUT/smpi.log"
}
echo "box,mapping,level,split,simulated" > rules.csv
for box in 2x2x2x2x3x2 1x2x4x2x3x2 4x2x1x2x3x2; do
  "$T" map -m "$M" -s "$box" -t st.trace --objective tahb -o tahb.map --quiet >/dev/null
  "$T" map -m "$M" -s "$box" -t st.trace -o level.map --quiet >/dev/null
  "$T" map -m "$M" -s "$box" -t st.trace --engine-sets split -o split.map --quiet >/dev/null
  "$T" map -m "$M" -s "$box" -t st.trace --init identity -o level-from-identity.map --quiet >/dev/null
  for m in identity tofu-default random:1 random:2 random:3 tahb.map level.map split.map \
           level-from-identity.map; do
    a=$("$T" score -m "$M" -s "$box" -t st.trace --output-format csv "$m" | tail -1 | cut -d, -f2)
    b=$("$T" score -m "$M" -s "$box" -t st.trace --engine-sets split --output-format csv "$m" | tail -1 | cut -d, -f2)
    echo "$box,$m,$a,$b,$(sim "$m" "$box")" >> rules.csv
  done
done
python3 - rules.csv <<'PY'
import csv, itertools, statistics, sys
rows = list(csv.DictReader(open(sys.argv[1])))
def tau(x, y):  # Kendall tau-b; values within 0.1% are ties
    c = d = tx = ty = 0
    for i, j in itertools.combinations(range(len(x)), 2):
        dx, dy = x[i] - x[j], y[i] - y[j]
        a = abs(dx) <= 1e-3 * max(abs(x[i]), abs(x[j]))
        b = abs(dy) <= 1e-3 * max(abs(y[i]), abs(y[j]))
        if a and b: continue
        if a: tx += 1; continue
        if b: ty += 1; continue
        c, d = (c + 1, d) if dx * dy > 0 else (c, d + 1)
    return (c - d) / (((c + d + tx) * (c + d + ty)) ** 0.5)
print(f"{'box':<14}{'rule':<7}{'tau':>7}{'median |score/sim - 1|':>25}")
for box in dict.fromkeys(r["box"] for r in rows):
    rs = [r for r in rows if r["box"] == box]
    sim = [float(r["simulated"]) for r in rs]
    for rule in ("level", "split"):
        score = [float(r[rule]) for r in rs]
        err = statistics.median(abs(s / t - 1) for s, t in zip(score, sim))
        print(f"{box:<14}{rule:<7}{tau(score, sim):>7.3f}{err:>25.3f}")
PY
