#!/usr/bin/env python3
"""Is each tac3 map of a peers.sh run a local optimum of the flow model under single swaps?

For every case folder of OUTDIR (bench/simgrid/peers.sh's output) with a tac3-map.map, scores
with `tac3map score` every map that swaps two ranks on different nodes (about n^2/2 maps) and
prints the fastest of them by the flow model against the tac3 map's own flow time. The flow
model agrees with SimGrid within 0.1% on these cases (docs/validation.md), so a ratio of 1.000
means no single swap makes the run faster: the evidence docs/validation.md gives where the
tac3 map is not known to be optimal.

usage: bench/simgrid/swap_check.py OUTDIR [K ...]   (default K: 2 4)
environment: TAC3MAP (default build/tac3map), MACHINE (default topologies/fx10.json)
"""
import csv
import io
import os
import subprocess
import sys
import tempfile

root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
tac3map = os.environ.get("TAC3MAP", os.path.join(root, "build", "tac3map"))
machine = os.environ.get("MACHINE", os.path.join(root, "topologies", "fx10.json"))


def flows(case, shape, k, maps):
    command = [tac3map, "score", "--machine", machine, "--shape", shape, "--trace",
               os.path.join(case, "trace.trace"), "--collectives", "barrier=linear",
               "--output-format", "csv"]
    if k != "1":
        command += ["--ranks-per-node", k]
    out = subprocess.run(command + maps, capture_output=True, text=True, check=True).stdout
    return [float(r["flow"]) for r in csv.DictReader(io.StringIO(out))]


def main():
    out = sys.argv[1]
    ks = sys.argv[2:] or ["2", "4"]
    print("| case | K | box | swaps | tac3 map [ms] | fastest swap [ms] | ratio |")
    print("|---|---|---|---|---|---|---|")
    for name in sorted(os.listdir(out)):
        case = os.path.join(out, name)
        if not os.path.isdir(case):
            continue
        for boxes in sorted(os.listdir(case)):
            if "-" not in boxes or not os.path.isdir(os.path.join(case, boxes)):
                continue
            shape = boxes.split("-", 1)[1]
            for run in sorted(os.listdir(os.path.join(case, boxes))):
                k = run.rsplit("-k", 1)[-1]
                start = os.path.join(case, boxes, run, "tac3-map.map")
                if k not in ks or not os.path.exists(start):
                    continue
                lines = open(start).read().splitlines()
                header = [l for l in lines if l.startswith("#")]
                rows = [l.split() for l in lines if l and not l.startswith("#")]
                with tempfile.TemporaryDirectory() as tmp:
                    maps = []
                    for i in range(len(rows)):
                        for j in range(i + 1, len(rows)):
                            if rows[i][1:-1] == rows[j][1:-1]:
                                continue  # one node: the same run
                            swapped = [list(r) for r in rows]
                            swapped[i][1:], swapped[j][1:] = rows[j][1:], rows[i][1:]
                            path = os.path.join(tmp, "s%d.map" % len(maps))
                            with open(path, "w") as f:
                                f.write("\n".join(header + [" ".join(r) for r in swapped]) + "\n")
                            maps.append(path)
                    own = flows(case, shape, k, [start])[0]
                    best = min(flows(case, shape, k, maps))
                print("| %s | %s | %s | %d | %.4f | %.4f | %.3f |" %
                      (name, k, shape, len(maps), own * 1e3, best * 1e3, best / own), flush=True)


if __name__ == "__main__":
    main()
