#!/usr/bin/env python3
"""Hop-bytes of tac3map mapping files, computed independently of tac3map (bench/peer_cases.sh).

usage: peer_hopbytes.py MACHINE.json BOX CCS.json MAP [MAP ...]

CCS.json is `tac3map ccs --json` of the trace: {"ccs": [[{src, dst, bytes}, ...], ...]}. A
mapping file is tac3map's coords format: lines "rank X Y Z A B C" with box-relative
coordinates, '#' lines are comments. Hop-bytes = sum over every communication of every CCS
(a rank to itself: none) of bytes x hops, hops being the length of the dimension-order route
on the box's network: on each axis |dx|, or min(|dx|, size - |dx|) when the axis wraps in the
box, which it does only when the machine's axis wraps and the box spans the whole axis (as
bench/simgrid/scotch_maps.py builds Scotch's target). Prints one line per mapping file:
    MAP <TAB> hop-bytes <TAB> bytes <TAB> average hops
and exits 2 when a mapping puts two ranks on one node or leaves a rank out.
"""
import json
import sys


def read_map(path, axes):
    place = {}
    for line in open(path):
        line = line.split("#", 1)[0].split()
        if not line:
            continue
        if len(line) != axes + 1:
            sys.exit(f"peer_hopbytes.py: {path}: line '{' '.join(line)}' is not rank + {axes} coordinates")
        place[int(line[0])] = tuple(int(x) for x in line[1:])
    return place


def main():
    if len(sys.argv) < 5:
        sys.exit(__doc__)
    machine = json.load(open(sys.argv[1]))
    shape = [int(x) for x in sys.argv[2].split("x")]
    axes = machine["axes"]
    if len(shape) != len(axes):
        sys.exit(f"peer_hopbytes.py: box {sys.argv[2]} has {len(shape)} axes, the machine {len(axes)}")
    wrap = [a["wrap"] and s == a["size"] and s > 1 for a, s in zip(axes, shape)]
    comms = [c for s in json.load(open(sys.argv[3]))["ccs"] for c in s]
    ranks = 1 + max(max(c["src"], c["dst"]) for c in comms)
    for path in sys.argv[4:]:
        place = read_map(path, len(shape))
        missing = [r for r in range(ranks) if r not in place]
        if missing:
            print(f"peer_hopbytes.py: {path}: rank {missing[0]} has no node", file=sys.stderr)
            sys.exit(2)
        if len(set(place.values())) != len(place):
            print(f"peer_hopbytes.py: {path}: two ranks on one node", file=sys.stderr)
            sys.exit(2)
        for r, c in place.items():
            if any(not 0 <= x < s for x, s in zip(c, shape)):
                sys.exit(f"peer_hopbytes.py: {path}: rank {r} at {c} is outside the box {sys.argv[2]}")
        hop_bytes = total = 0
        for c in comms:
            if c["src"] == c["dst"]:
                continue
            a, b = place[c["src"]], place[c["dst"]]
            hops = 0
            for x, y, s, w in zip(a, b, shape, wrap):
                d = abs(x - y)
                hops += min(d, s - d) if w else d
            hop_bytes += c["bytes"] * hops
            total += c["bytes"]
        print(f"{path}\t{hop_bytes}\t{total}\t{hop_bytes / total if total else 0:.6f}")


if __name__ == "__main__":
    main()
