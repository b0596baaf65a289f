#!/usr/bin/env python3
"""VieM as a hop-bytes peer of tac3map (issue 26, docs/performance.md "Hop-bytes against every
Scotch variant and VieM"). VieM 1.0 (github.com/schulzchristian/VieM, MIT, not in Debian) builds
its processor distance matrix from a hierarchy only; the VIEM_BINARY used here is VieM built
with one added option, --distance_matrix_file=F (F: n lines of n integers, read instead of the
hierarchy's matrix; the hierarchy still gives n). Not part of ctest.

usage: viem_map.py MACHINE.json BOX CCS.json OUT.map VIEM_BINARY [VIEM_FLAG ...]

Builds, in a work folder (OUT.map's name + ".viem/", kept):
  graph.metis   the task graph in METIS format (fmt 1: edge weights): edge weight = bytes
                exchanged by the pair over all CCSs of CCS.json (`tac3map ccs --json`), in KiB
                (floor), at least 1; messages of a rank to itself ignored; padded with isolated
                vertices up to n = number of nodes of the box (VieM maps n tasks one-to-one
                onto n PEs; a padding vertex = an unused node)
  dist.txt      (or $VIEM_CACHE/<machine>-<box>.dist when VIEM_CACHE is set, built once)
                the exact hop distances of the box, n lines of n integers: nodes numbered with
                the first axis fastest (bench/simgrid/scotch_maps.py's coords()/node()); an axis
                wraps only when the machine's axis wraps, the box spans it and its size > 1;
                distance = sum over axes of |dx| or, on a wrapping axis, min(|dx|, size - |dx|)
then runs VIEM_BINARY on them with
  --distance_matrix_file=dist.txt --hierarchy_parameter_string=<box sizes > 1, first axis
  first> --distance_parameter_string=<placeholder>  (the hierarchy only gives k = n and the
  levels of the hierarchytopdown/bottomup constructions; the distances are the file's)
plus VIEM_FLAGs (a --hierarchy_parameter_string among them replaces the default one), reads
VieM's permutation (line i = PE of task i) and writes OUT.map in tac3map's mapping format as
scotch_maps.py's convert() does, for the real tasks 0..tasks-1 only.
Prints one line:  tasks n J J/2*1024 wall_seconds
(J = VieM's objective, sum over both directions of every edge of KiB x hops, so J/2*1024 is the
hop-bytes of the KiB-rounded graph).
"""
import os
import re
import subprocess
import sys
import time


sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "simgrid"))
from scotch_maps import box_of, coords, pair_bytes  # noqa: E402  (the box as Scotch sees it)


def main():
    if len(sys.argv) < 6:
        sys.exit(__doc__)
    machine_path, box, ccs_path, out, viem = sys.argv[1:6]
    flags = sys.argv[6:]
    shape, wrap, n = box_of(machine_path, box, "viem_map.py")

    work = out + ".viem"
    os.makedirs(work, exist_ok=True)

    # task graph
    weights, tasks = pair_bytes(ccs_path)
    if tasks > n:
        sys.exit(f"viem_map.py: {tasks} tasks do not fit on the {n} nodes of {box}")
    adj = [[] for _ in range(n)]
    for (a, b), bytes_ in weights.items():
        kib = max(1, bytes_ // 1024)
        adj[a].append((b, kib))
        adj[b].append((a, kib))
    with open(f"{work}/graph.metis", "w") as f:
        f.write(f"{n} {len(weights)} 1\n")
        for e in adj:
            f.write(" ".join(f"{t + 1} {w}" for t, w in sorted(e)) + "\n")

    # exact distance matrix, written row by row
    cs = [coords(v, shape) for v in range(n)]
    # per axis, a table of distances between positions
    tab = []
    for s, w in zip(shape, wrap):
        tab.append([[min(abs(x - y), s - abs(x - y)) if w else abs(x - y) for y in range(s)] for x in range(s)])
    # VIEM_CACHE=DIR: keep/reuse the matrix as DIR/<machine>-<box>.dist (built once per box)
    cache = os.environ.get("VIEM_CACHE")
    dist = (f"{cache}/{os.path.basename(machine_path).rsplit('.', 1)[0]}-{box}.dist" if cache
            else f"{work}/dist.txt")
    if not (cache and os.path.exists(dist)):
        with open(dist + ".tmp", "w") as f:
            for u in range(n):
                cu = cs[u]
                rows = [tab[a][cu[a]] for a in range(len(shape))]
                f.write(" ".join(str(sum(r[x] for r, x in zip(rows, cv))) for cv in cs) + "\n")
        os.replace(dist + ".tmp", dist)

    hierarchy = ":".join(str(s) for s in shape if s > 1) or "1"
    levels = hierarchy.count(":") + 1
    cmd = [viem, f"{work}/graph.metis", f"--distance_matrix_file={dist}",
           f"--output_filename={work}/permutation"]
    if not any(x.startswith("--hierarchy_parameter_string") for x in flags):
        cmd.append(f"--hierarchy_parameter_string={hierarchy}")
    if not any(x.startswith("--distance_parameter_string") for x in flags):
        cmd.append("--distance_parameter_string=" + ":".join(["1"] * levels))
    cmd += flags
    if os.path.exists(f"{work}/permutation"):
        os.remove(f"{work}/permutation")
    t0 = time.time()
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    wall = time.time() - t0
    open(f"{work}/viem.log", "w").write(" ".join(cmd) + "\n" + r.stdout)
    m = re.search(r"quadratic assignment objective J\(C,D,Pi'\) = (-?\d+)", r.stdout)
    if r.returncode != 0 or not m or "a permutation" not in r.stdout or not os.path.exists(f"{work}/permutation"):
        sys.exit(f"viem_map.py: VieM failed (exit {r.returncode}), see {work}/viem.log")
    J = int(m.group(1))
    perm = [int(x) for x in open(f"{work}/permutation").read().split()]
    if len(perm) != n or sorted(perm) != list(range(n)):
        sys.exit(f"viem_map.py: {work}/permutation is not a permutation of {n} PEs")
    with open(out, "w") as f:
        f.write("# tac3map mapping 1\n# converted from VieM\n")
        for v in range(tasks):
            f.write(f"{v} {' '.join(map(str, coords(perm[v], shape)))}\n")
    print(f"{tasks}\t{n}\t{J}\t{J // 2 * 1024}\t{wall:.3f}")


if __name__ == "__main__":
    main()
