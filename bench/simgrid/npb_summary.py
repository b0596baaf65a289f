#!/usr/bin/env python3
"""Table of bench/simgrid/npb.sh: npb_summary.py NPB.csv STEPS.csv

Per kernel and class, one row per mapping: tac3 score, tahb, simulated seconds and the ratio
to identity; of Scotch's strategies (scotch-<name>) only the best (lowest simulated time) is
shown, as in peers.sh. Then the latest wall time and peak memory of each build, trace and map
from STEPS.csv, and the total wall time of the SMPI runs per kernel. (NPB's own "Time in
seconds" is in NPB.csv only: it has two decimals.)
"""
import csv
import sys
from collections import OrderedDict


def num(v):
    try:
        return float(v)
    except (TypeError, ValueError):
        return None


def fmt(v, digits=6):
    return "-" if v is None else f"{v:.{digits}g}"


def main(npb_csv, steps_csv):
    rows = list(csv.DictReader(open(npb_csv)))
    kernels = OrderedDict()
    for r in rows:
        kernels.setdefault((r["kernel"], r["class"]), []).append(r)
    print(f"{'kernel':<7}{'class':<6}{'mapping':<22}{'tac3[s]':>12}{'tahb':>14}"
          f"{'simulated[s]':>14}{'/identity':>10}")
    for (kernel, cls), rs in kernels.items():
        sims = {r["mapping"]: num(r["simulated_seconds"]) for r in rs}
        base = sims.get("identity")
        scotch = [r for r in rs if r["mapping"].startswith("scotch-") and sims[r["mapping"]] is not None]
        best = min(scotch, key=lambda r: sims[r["mapping"]]) if scotch else None
        for r in rs:
            m = r["mapping"]
            if m.startswith("scotch-"):
                if r is not best:
                    continue
                m = f"scotch ({m[len('scotch-'):]})"
            t = sims[r["mapping"]]
            ratio = t / base if t is not None and base else None
            print(f"{kernel:<7}{cls:<6}{m:<22}{fmt(num(r['tac3_seconds'])):>12}"
                  f"{fmt(num(r['tahb'])):>14}{fmt(t):>14}{fmt(ratio, 4):>10}")
    # the last record of each (kernel, step); the runs summed per kernel
    last = OrderedDict()
    for st in csv.DictReader(open(steps_csv)):
        last[(st["kernel"], st["step"])] = st
    runs = OrderedDict()
    for (k, name), st in last.items():
        if name.startswith("run-"):
            n, total = runs.get(k, (0, 0.0))
            runs[k] = (n + 1, total + (num(st["wall_seconds"]) or 0))
    shown = [st for (k, name), st in last.items() if not name.startswith(("run-", "score"))]
    if shown:
        print("\nsteps (wall s, peak KiB; cached = read back from an earlier run):")
        for st in shown:
            note = f"  {st['note']}" if st["note"] else ""
            print(f"  {st['kernel']:<7}{st['step']:<14}{st['wall_seconds']:>10}{st['peak_kib']:>10}"
                  f"{'  cached' if st['cached'] == '1' else ''}{note}")
        for k, (n, total) in runs.items():
            print(f"  {k:<7}{'runs':<14}{total:>10.1f}{'':>10}  {n} SMPI runs of the binary (new ones only)")
    print(f"\nper mapping: {npb_csv}\nsteps: {steps_csv}")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])
