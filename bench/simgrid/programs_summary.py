#!/usr/bin/env python3
"""Table of bench/simgrid/programs.sh: programs_summary.py PROGRAMS.csv [STEPS.csv]

Per program, the simulated time (SMPI, the real binary, communication only) of every mapping:
identity, tofu-default, tahb-map, the best of Scotch's strategies ("scotch", the strategy in
brackets) and each tac3-map seed. Then per program each seed's ratio to the best other map
(the fastest of identity, tofu-default, tahb-map and scotch), the slowest seed over each other
map, the seeds' spread (slowest / fastest seed) and Kendall's tau-b of the flow model's and of
tac3's predictions against the simulated times (over every mapping of the program that has
both: each Scotch strategy and each seed counted). Overall: the geometric mean over programs of
(mean of the seeds / best other map), the programs where some seed is more than 1% slower than
some other map, and each map's wall time and peak memory (the largest over programs). Rows
whose status is not ok (a map timed out or failed, a run failed) are listed at the end. STEPS.csv
(default: steps.csv beside PROGRAMS.csv, if there) adds the SMPI runs' wall time per program.
"""
import csv
import math
import os
import sys
from collections import OrderedDict

SLOWER = 1.01   # "slower" above this ratio
OTHERS = ["identity", "tofu-default", "tahb-map", "scotch"]


def num(v):
    try:
        x = float(v)
    except (TypeError, ValueError):
        return None
    return x if math.isfinite(x) else None


def ms(t):
    return "-" if t is None else f"{t * 1e3:.5g}"


def ratio(x):
    return "-" if x is None else f"{x:.4f}"


def geomean(xs):
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else None


def kendall_tau_b(pairs):
    """Kendall's tau-b of (x, y) pairs (ties in either counted as neither concordant nor
    discordant); None with fewer than 3 pairs or a constant column."""
    n = len(pairs)
    if n < 3:
        return None
    conc = disc = tie_x = tie_y = 0
    for i in range(n):
        for j in range(i + 1, n):
            dx = pairs[i][0] - pairs[j][0]
            dy = pairs[i][1] - pairs[j][1]
            if dx == 0 and dy == 0:
                tie_x += 1
                tie_y += 1
            elif dx == 0:
                tie_x += 1
            elif dy == 0:
                tie_y += 1
            elif (dx > 0) == (dy > 0):
                conc += 1
            else:
                disc += 1
    n0 = n * (n - 1) // 2
    denom = math.sqrt((n0 - tie_x) * (n0 - tie_y))
    return (conc - disc) / denom if denom else None


def table(header, rows, left=1):
    """Prints rows (lists of strings) in columns; the first `left` columns left-aligned."""
    widths = [max(len(str(r[i])) for r in [header] + rows) for i in range(len(header))]
    for r in [header] + rows:
        print("  ".join(str(c).ljust(w) if i < left else str(c).rjust(w)
                        for i, (c, w) in enumerate(zip(r, widths))).rstrip())


def main(programs_csv, steps_csv=None):
    rows = list(csv.DictReader(open(programs_csv)))
    progs = OrderedDict()
    for r in rows:
        progs.setdefault(r["program"], []).append(r)
    seeds = sorted({r["seed"] for r in rows if r["mapping"] == "tac3-map"}, key=lambda s: int(s))

    summary = OrderedDict()
    for p, rs in progs.items():
        sim = {}
        scotch = None
        tac3 = {}
        for r in rs:
            t = num(r["simulated_seconds"])
            if r["mapping"] == "tac3-map":
                tac3[r["seed"]] = t
            elif r["mapping"].startswith("scotch-"):
                if t is not None and (scotch is None or t < scotch[1]):
                    scotch = (r["mapping"][len("scotch-"):], t)
            else:
                sim[r["mapping"]] = t
        sim["scotch"] = scotch[1] if scotch else None
        others = {m: sim.get(m) for m in OTHERS if sim.get(m) is not None}
        best = min(others.items(), key=lambda mt: mt[1]) if others else None
        ts = [t for t in tac3.values() if t is not None]
        s = dict(sim=sim, scotch=scotch, tac3=tac3, others=others, best=best)
        s["mean_over_best"] = (sum(ts) / len(ts)) / best[1] if ts and best else None
        s["worst"] = max(ts) if ts else None
        s["spread"] = max(ts) / min(ts) if len(ts) > 1 else None
        s["slower"] = (max(ts) > SLOWER * best[1]) if ts and best else None
        for col in ("flow_seconds", "tac3_seconds"):
            pairs = [(num(r[col]), num(r["simulated_seconds"])) for r in rs]
            pairs = [(x, y) for x, y in pairs if x is not None and y is not None]
            s[col] = (kendall_tau_b(pairs), len(pairs))
        summary[p] = s

    print("simulated time [ms] (SMPI, the real binary, communication only)")
    head = ["program"] + OTHERS[:3] + ["scotch (best)"] + [f"tac3 s{x}" for x in seeds]
    out = []
    for p, s in summary.items():
        sc = f"{ms(s['scotch'][1])} ({s['scotch'][0]})" if s["scotch"] else "-"
        out.append([p] + [ms(s["sim"].get(m)) for m in OTHERS[:3]] + [sc]
                   + [ms(s["tac3"].get(x)) for x in seeds])
    table(head, out)

    print(f"\ntac3-map against the other maps (ratios of simulated times; > 1: tac3 slower)")
    head = (["program", "best other"] + [f"s{x}/best" for x in seeds] + ["mean/best"]
            + [f"worst/{m}" for m in OTHERS] + ["spread", "tau flow", "tau tac3"])
    out = []
    for p, s in summary.items():
        best = s["best"]
        w = s["worst"]
        line = [p, best[0] if best else "-"]
        line += [ratio(s["tac3"][x] / best[1]) if best and s["tac3"].get(x) is not None else "-"
                 for x in seeds]
        line.append(ratio(s["mean_over_best"]))
        line += [ratio(w / s["others"][m]) if w is not None and m in s["others"] else "-"
                 for m in OTHERS]
        line.append(ratio(s["spread"]))
        for col in ("flow_seconds", "tac3_seconds"):
            tau, n = s[col]
            line.append("-" if tau is None else f"{tau:+.2f} ({n})")
        out.append(line)
    table(head, out, left=2)

    means = [s["mean_over_best"] for s in summary.values() if s["mean_over_best"]]
    g = geomean(means)
    slower = [p for p, s in summary.items() if s["slower"]]
    judged = [p for p, s in summary.items() if s["slower"] is not None]
    print(f"\noverall: geomean over {len(means)} programs of (mean of the seeds / best other map) "
          f"= {ratio(g)}")
    print(f"programs where some seed is > {SLOWER}x slower than some other map: "
          f"{len(slower)} of {len(judged)}" + (f" ({', '.join(slower)})" if slower else ""))
    taus = [s["flow_seconds"][0] for s in summary.values() if s["flow_seconds"][0] is not None]
    if taus:
        print(f"flow model: Kendall tau-b against the simulated times, mean over {len(taus)} "
              f"programs {sum(taus) / len(taus):+.2f} (min {min(taus):+.2f}, max {max(taus):+.2f})")

    # maps: wall time and peak memory
    kinds = ["tahb-map", "scotch"] + [f"tac3 s{x}" for x in seeds]
    print("\nmaps: wall s / peak MiB (scotch: ccs + its four strategies together; "
          "T: timed out, F: failed)")
    out = []
    worst = {k: [None, None] for k in kinds}
    for p, rs in progs.items():
        cells = {}
        for r in rs:
            if r["mapping"] == "tahb-map":
                k = "tahb-map"
            elif r["mapping"].startswith("scotch-"):
                k = "scotch"
            elif r["mapping"] == "tac3-map":
                k = f"tac3 s{r['seed']}"
            else:
                continue
            if k in cells:
                continue
            wall, peak = num(r["map_wall_s"]), num(r["map_peak_kib"])
            flag = {"map-timeout": " T", "map-failed": " F"}.get(r["status"], "")
            cells[k] = ("-" if wall is None else f"{wall:.1f}") + " / " + \
                ("-" if peak is None else f"{peak / 1024:.0f}") + flag
            for i, v in enumerate((wall, peak)):
                if v is not None and (worst[k][i] is None or v > worst[k][i]):
                    worst[k][i] = v
        out.append([p] + [cells.get(k, "-") for k in kinds])
    out.append(["max"] + [("-" if w is None else f"{w:.1f}") + " / " +
                          ("-" if m is None else f"{m / 1024:.0f}") for w, m in
                          (worst[k] for k in kinds)])
    table(["program"] + kinds, out)

    if steps_csv and os.path.exists(steps_csv):
        last = OrderedDict()
        for st in csv.DictReader(open(steps_csv)):
            if st["cached"] != "1":
                last[(st["program"], st["step"])] = st
        runs = OrderedDict()
        for (p, name), st in last.items():
            if name.startswith("run-"):
                n, total = runs.get(p, (0, 0.0))
                runs[p] = (n + 1, total + (num(st["wall_seconds"]) or 0))
        if runs:
            print("\nSMPI runs of the binaries (the last new run of each host file): " +
                  ", ".join(f"{p} {n} in {total:.0f} s" for p, (n, total) in runs.items()))

    bad = [r for r in rows if r["status"] != "ok"]
    if bad:
        print("\nnot ok:")
        for r in bad:
            seed = f" seed {r['seed']}" if r["seed"] else ""
            print(f"  {r['program']} {r['mapping']}{seed}: {r['status']} "
                  f"(map {r['map_wall_s'] or '-'} s)")
    print(f"\nper mapping: {programs_csv}")


if __name__ == "__main__":
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    steps = sys.argv[2] if len(sys.argv) == 3 else os.path.join(
        os.path.dirname(os.path.abspath(sys.argv[1])), "steps.csv")
    main(sys.argv[1], steps)
