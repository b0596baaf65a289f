#!/usr/bin/env python3
"""Scotch's static mapper as a peer of tac3map (bench/simgrid/peers.sh, docs/validation.md).

  scotch_maps.py graphs MACHINE.json BOX CCS.json OUTDIR [K]
      writes OUTDIR/arch.grf, the box's network as a Scotch graph (one vertex per node,
      numbered X fastest as tac3map numbers the box; an edge per pair of neighbouring nodes,
      wrap-around links only on an axis that wraps in the box), to be turned into a
      decomposition-defined target with `amk_grf` (distances = hop counts of the box), and
      OUTDIR/src.grf, the tasks' communication graph from `tac3map ccs --json` (edge weight =
      bytes exchanged by the pair over all CCSs, in KiB, at least 1), padded with isolated
      vertices up to K times the node count (K ranks per node, default 1) so that a balanced
      mapping is K tasks on every node (every node of the box weighs the same, K slots), and
      OUTDIR/src-unpadded.grf, the same graph without the padding. Prints the number of tasks.

  scotch_maps.py torus MACHINE.json BOX OUTDIR
      writes OUTDIR/torus.tgt, Scotch's algorithmic target with the box's exact hop counts (for
      boxes too large for amk_grf's distance matrix): a 'sub' target of a torusXD of at most 5
      axes, every axis closed, an open axis of n nodes laid on a ring of 2(n-1), axes of one node
      left out and two axes of two nodes merged into one ring of four (Tofu's A and C) while
      more than 5 remain; its terminal i is box node i, as arch.grf's vertex i (so `convert`
      reads its maps). Exits when more than 5 axes remain.

  scotch_maps.py convert BOX TASKS SCOTCH.map OUT.map [K]
      turns scotch_gmap's result (terminal number = vertex of arch.grf) into a tac3map mapping
      file (box-relative coordinates; with K > 1 a slot column, slots in rank order). Exits 2
      with a message when Scotch put more than K tasks on one node (a mapping tac3map cannot
      take with K ranks per node).
"""
import json
import sys


def shape_of(box):
    return [int(x) for x in box.split("x")]


def coords(v, shape):
    c = []
    for s in shape:
        c.append(v % s)
        v //= s
    return c


def node(c, shape):
    v, stride = 0, 1
    for x, s in zip(c, shape):
        v += x * stride
        stride *= s
    return v


def pair_bytes(ccs_path):
    """Bytes exchanged by each pair of ranks {a, b} (a < b) over every CCS of `tac3map ccs
    --json`, and the number of tasks; a rank's messages to itself are left out."""
    weights, tasks = {}, 0
    for s in json.load(open(ccs_path))["ccs"]:
        for c in s:
            tasks = max(tasks, c["src"] + 1, c["dst"] + 1)
            if c["src"] == c["dst"]:
                continue
            key = (min(c["src"], c["dst"]), max(c["src"], c["dst"]))
            weights[key] = weights.get(key, 0) + c["bytes"]
    return weights, tasks


def box_of(machine_path, box, who):
    """The box's sizes, which of its axes wrap (only where the machine's axis wraps and the
    box spans it) and its node count; exits naming `who` when the box does not fit the machine."""
    machine = json.load(open(machine_path))
    shape = shape_of(box)
    if len(shape) != len(machine["axes"]):
        sys.exit(f"{who}: box {box} has {len(shape)} axes, the machine {len(machine['axes'])}")
    wrap = [a["wrap"] and s == a["size"] and s > 1 for a, s in zip(machine["axes"], shape)]
    n = 1
    for s in shape:
        n *= s
    return shape, wrap, n


def graphs(machine_path, box, ccs_path, out, k="1"):
    k = int(k)
    shape, wrap, n = box_of(machine_path, box, "scotch_maps.py")
    adj = []
    for v in range(n):
        c, nb = coords(v, shape), set()
        for a, s in enumerate(shape):
            for d in (1, -1):
                x = c[a] + d
                if 0 <= x < s or wrap[a]:
                    cc = list(c)
                    cc[a] = x % s
                    nb.add(node(cc, shape))
        nb.discard(v)
        adj.append(sorted(nb))
    with open(f"{out}/arch.grf", "w") as f:
        f.write(f"0\n{n} {sum(map(len, adj))}\n0 000\n")
        for nb in adj:
            f.write(f"{len(nb)} {' '.join(map(str, nb))}\n")
    weights, tasks = pair_bytes(ccs_path)
    if tasks > n * k:
        sys.exit(f"scotch_maps.py: {tasks} tasks do not fit on {n} nodes of {k} slots")
    edges = [[] for _ in range(n * k)]
    for (a, b), bytes_ in weights.items():
        kib = max(1, bytes_ // 1024)
        edges[a].append((b, kib))
        edges[b].append((a, kib))
    for name, vertices in (("src.grf", n * k), ("src-unpadded.grf", tasks)):
        with open(f"{out}/{name}", "w") as f:
            f.write(f"0\n{vertices} {sum(map(len, edges))}\n0 010\n")
            for e in edges[:vertices]:
                f.write(f"{len(e)} " + " ".join(f"{w} {t}" for t, w in sorted(e)) + "\n")
    print(tasks)


def torus(machine_path, box, out):
    shape, wrap, n = box_of(machine_path, box, "scotch_maps.py")
    parts = [[a] for a, size in enumerate(shape) if size > 1]
    pairs = [a for a, size in enumerate(shape) if size == 2]
    while len(parts) > 5 and len(pairs) >= 2:
        b, a = pairs.pop(), pairs.pop()
        parts.remove([b])
        parts[parts.index([a])] = [a, b]
    if len(parts) > 5:
        sys.exit(f"scotch_maps.py: box {box} needs {len(parts)} torus axes, Scotch takes 5")
    extents = [4 if len(p) == 2 else shape[p[0]] if wrap[p[0]] else 2 * (shape[p[0]] - 1)
               for p in parts]
    cells = []
    for v in range(n):
        c = coords(v, shape)
        cell, stride = 0, 1
        for p, e in zip(parts, extents):
            # around the 2x2 ring: (0,0) (1,0) (1,1) (0,1)
            pos = c[p[0]] if len(p) == 1 else (c[p[0]] if c[p[1]] == 0 else 3 - c[p[0]])
            cell += pos * stride
            stride *= e
        cells.append(cell)
    with open(f"{out}/torus.tgt", "w") as f:
        f.write(f"sub\n{n} {' '.join(map(str, cells))}\n")
        f.write(f"torusXD {len(extents)} {' '.join(map(str, extents))}\n")


def convert(box, tasks, scotch_map, out, k="1"):
    shape = shape_of(box)
    tasks, k = int(tasks), int(k)
    lines = open(scotch_map).read().split("\n")[1:]
    place = {}
    for line in lines:
        if line.strip():
            v, t = map(int, line.split())
            place[v] = t
    used = [place[v] for v in range(tasks)]
    slot, count = [], {}
    for t in used:
        slot.append(count.get(t, 0))
        count[t] = slot[-1] + 1
    if max(count.values()) > k:
        what = "two tasks" if k == 1 else f"more than {k} tasks"
        print(f"scotch_maps.py: {scotch_map}: Scotch put {what} on one node", file=sys.stderr)
        sys.exit(2)
    with open(out, "w") as f:
        f.write("# tac3map mapping 1\n# converted from scotch_gmap\n")
        if k > 1:
            f.write(f"# ranks-per-node {k}\n")
        for v in range(tasks):
            extra = f" {slot[v]}" if k > 1 else ""
            f.write(f"{v} {' '.join(map(str, coords(used[v], shape)))}{extra}\n")


if __name__ == "__main__":
    if len(sys.argv) in (6, 7) and sys.argv[1] == "graphs":
        graphs(*sys.argv[2:])
    elif len(sys.argv) == 5 and sys.argv[1] == "torus":
        torus(*sys.argv[2:])
    elif len(sys.argv) in (6, 7) and sys.argv[1] == "convert":
        convert(*sys.argv[2:])
    else:
        sys.exit(__doc__)
