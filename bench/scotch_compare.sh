#!/usr/bin/env bash
# Peer comparison with Scotch (Debian package `scotch`; not a build dependency). Scotch's
# static mapper minimises hop-bytes (communication dilation). For each CG case this script
#   1. writes the box's network as a Scotch graph and turns it into a target architecture with
#      amk_grf (decomposition-defined, distances = hop counts of the box),
#   2. writes the tasks' communication graph (edge weight = bytes exchanged, in KiB) padded with
#      isolated dummy vertices up to the node count, so that the mapping is one task per node,
#   3. maps with scotch_gmap (default strategy), converts the result to a tac3map mapping file
#      and scores it with `tac3map score`, beside tac3map's own --objective tahb (10 seeds, best).
# scotch_gmap's terminal numbers for an amk_grf target are the vertex indices of the
# architecture graph (checked on a path graph whose vertices were numbered out of order).
# Needs a built tac3map (BUILD=build by default), scotch and python3.
set -euo pipefail
cd "$(dirname "$0")/.."
tool=${BUILD:-build}/tac3map
command -v scotch_gmap >/dev/null || { echo "install Scotch first: apt-get install scotch" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

printf '%-6s %-13s %-14s %-14s %-16s %-16s\n' tasks box "scotch tahb" "tac3map tahb" \
  "tac3map/scotch" "avg hops s / t"
for spec in "64 1x2x4x2x3x2" "64 2x2x2x2x3x2" "64 4x2x1x2x3x2" \
            "32 1x1x4x2x3x2" "32 1x2x2x2x3x2" "32 4x1x1x2x3x2"; do
  set -- $spec
  tasks=$1 box=$2 trace=examples/cg$1-sendrecv.trace
  "$tool" ccs --json --trace "$trace" >"$work/ccs.json"
  python3 - "$box" "$work" <<'PY'
import json, sys
box, work = sys.argv[1], sys.argv[2]
machine = json.load(open("topologies/fx10.json"))
shape = [int(x) for x in box.split("x")]
wrap = [a["wrap"] and s == a["size"] and s > 1 for a, s in zip(machine["axes"], shape)]
n = 1
for s in shape: n *= s
def coords(v):
    c = []
    for s in shape: c.append(v % s); v //= s
    return c
def node(c):
    v, stride = 0, 1
    for x, s in zip(c, shape): v += x * stride; stride *= s
    return v
adj = []
for v in range(n):
    c, nb = coords(v), set()
    for a, s in enumerate(shape):
        for d in (1, -1):
            x = c[a] + d
            if 0 <= x < s or wrap[a]:
                cc = list(c); cc[a] = x % s; nb.add(node(cc))
    nb.discard(v)
    adj.append(sorted(nb))
with open(f"{work}/arch.grf", "w") as f:
    f.write(f"0\n{n} {sum(map(len, adj))}\n0 000\n")
    for nb in adj: f.write(f"{len(nb)} {' '.join(map(str, nb))}\n")
sets = json.load(open(f"{work}/ccs.json"))["ccs"]
w = {}
tasks = 0
for s in sets:
    for c in s:
        tasks = max(tasks, c["src"] + 1, c["dst"] + 1)
        if c["src"] == c["dst"]: continue
        key = (min(c["src"], c["dst"]), max(c["src"], c["dst"]))
        w[key] = w.get(key, 0) + c["bytes"]
edges = [[] for _ in range(n)]
for (a, b), bytes_ in w.items():
    kib = max(1, bytes_ // 1024)
    edges[a].append((b, kib)); edges[b].append((a, kib))
with open(f"{work}/src.grf", "w") as f:
    f.write(f"0\n{n} {sum(map(len, edges))}\n0 010\n")
    for e in edges: f.write(f"{len(e)} " + " ".join(f"{k} {t}" for t, k in sorted(e)) + "\n")
with open(f"{work}/tasks", "w") as f: f.write(str(tasks))
PY
  amk_grf "$work/arch.grf" "$work/arch.tgt"
  scotch_gmap "$work/src.grf" "$work/arch.tgt" "$work/scotch.map"
  python3 - "$box" "$work" <<'PY'
import sys
box, work = sys.argv[1], sys.argv[2]
shape = [int(x) for x in box.split("x")]
tasks = int(open(f"{work}/tasks").read())
lines = open(f"{work}/scotch.map").read().split("\n")[1:]
place = {}
for line in lines:
    if line.strip():
        v, t = map(int, line.split()); place[v] = t
used = [place[v] for v in range(tasks)]
if len(set(used)) != tasks: sys.exit("scotch put two tasks on one node")
with open(f"{work}/scotch.tac3map", "w") as f:
    f.write("# tac3map mapping 1\n# converted from scotch_gmap\n")
    for v in range(tasks):
        c, t = [], used[v]
        for s in shape: c.append(t % s); t //= s
        f.write(f"{v} {' '.join(map(str, c))}\n")
PY
  for seed in 1 2 3 4 5 6 7 8 9 10; do
    "$tool" map --machine topologies/fx10.json --shape "$box" --trace "$trace" \
      --objective tahb --seed "$seed" -o "$work/tahb-$seed.map" >/dev/null
  done
  "$tool" score --json --machine topologies/fx10.json --shape "$box" --trace "$trace" \
    "$work/scotch.tac3map" "$work"/tahb-*.map >"$work/scores.json"
  python3 - "$tasks" "$box" "$work/scores.json" <<'PY'
import json, sys
tasks, box, path = sys.argv[1:]
rows = json.load(open(path))
scotch = rows[0]["scores"]
best = min((r["scores"] for r in rows[1:]), key=lambda s: s["tahb"])
print(f"{tasks:<6} {box:<13} {scotch['tahb']:<14.0f} {best['tahb']:<14.0f} "
      f"{best['tahb'] / scotch['tahb']:<16.3f} {scotch['avg_hops']:.3f} / {best['avg_hops']:.3f}")
PY
done
