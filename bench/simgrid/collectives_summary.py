#!/usr/bin/env python3
"""Report of bench/simgrid/collectives.sh: per collective, communicator size and mapping the
simulated time of each algorithm by size with predicted / simulated, the best algorithm by
size (crossovers) from the prediction and from the simulation, and how far the prediction is
off at the smallest and largest sizes (docs/predict.md, "Collective crossovers against the
simulator").

usage: collectives_summary.py COLLECTIVES.csv COMPARE.csv   (markdown on standard output)

Times within 0.1% of the fastest count as a tie for the best (written a=b).
"""
import csv
import math
import sys
from collections import OrderedDict, defaultdict

TOL = 1e-3
rows = list(csv.DictReader(open(sys.argv[1])))
compare = list(csv.DictReader(open(sys.argv[2]))) if len(sys.argv) > 2 else []

groups = OrderedDict()  # (op, ranks, shape, mapping) -> {bytes: {algorithm: row}}
algorithms = OrderedDict()  # op -> algorithms in first-seen order
for r in rows:
    key = (r["collective"], int(r["ranks"]), r["shape"], r["mapping"])
    groups.setdefault(key, OrderedDict()).setdefault(int(r["bytes"]), OrderedDict())[r["algorithm"]] = r
    algorithms.setdefault(r["collective"], OrderedDict())[r["algorithm"]] = None


def size_text(b):
    for unit, scale in (("MiB", 1 << 20), ("KiB", 1 << 10)):
        if b >= scale and b % scale == 0:
            return f"{b // scale} {unit}"
    return f"{b} B"


def best(times):
    """The algorithms within TOL of the fastest, fastest first."""
    low = min(times.values())
    return [a for a, t in sorted(times.items(), key=lambda at: at[1]) if t <= low * (1 + TOL)]


def ranges(by_size):
    """[(from, to, label)] runs of sizes with the same best label."""
    out = []
    for size, label in by_size:
        if out and out[-1][2] == label:
            out[-1][1] = size
        else:
            out.append([size, size, label])
    return out


def ranges_text(rs):
    return "; ".join(f"{size_text(a)}..{size_text(b)} {label}" if a != b else f"{size_text(a)} {label}"
                     for a, b, label in rs)


def geomean(xs):
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else float("nan")


print("# Collective crossovers: predict against the simulator\n")
print("Cells: simulated seconds (predicted / simulated with the profile). "
      "Best: the fastest algorithm (ties within 0.1% as a=b).\n")
summary = []
ratios = defaultdict(list)  # (op, algorithm, bytes) -> [(pred/sim, platform/sim)]
for (op, n, shape, mapping), sizes in groups.items():
    algs = list(algorithms[op])
    print(f"## {op}, {n} ranks, box {shape}, {mapping}\n")
    print("| bytes | " + " | ".join(algs) + " | best predicted | best predicted (platform) | best simulated |")
    print("|---|" + "---|" * (len(algs) + 3))
    pred_best, platform_best, sim_best, regret, regret_platform = [], [], [], [], []
    for size, by_alg in sizes.items():
        cells = []
        pred = {a: float(r["predicted_seconds"]) for a, r in by_alg.items()}
        platform = {a: float(r["predicted_platform_seconds"]) for a, r in by_alg.items()}
        sim = {a: float(r["simulated_seconds"]) for a, r in by_alg.items()}
        for a in algs:
            r = by_alg.get(a)
            if r is None:
                cells.append("")
                continue
            p, q, s = (float(r["predicted_seconds"]), float(r["predicted_platform_seconds"]),
                       float(r["simulated_seconds"]))
            ratios[(op, a, size)].append((p / s, q / s))
            cells.append(f"{s:.4g} ({p / s:.2f})")
        bp, bq, bs = best(pred), best(platform), best(sim)
        pred_best.append((size, "=".join(sorted(bp))))
        platform_best.append((size, "=".join(sorted(bq))))
        sim_best.append((size, "=".join(sorted(bs))))
        # what predict's choice costs in the simulation
        regret.append(sim[bp[0]] / min(sim.values()))
        regret_platform.append(sim[bq[0]] / min(sim.values()))
        print(f"| {size_text(size)} | " + " | ".join(cells) +
              f" | {'='.join(bp)} | {'='.join(bq)} | {'='.join(bs)} |")
    print()
    cmp_rows = [c for c in compare if (c["collective"], int(c["ranks"]), c["shape"], c["mapping"]) ==
                (op, n, shape, mapping)]
    lo, hi = min(sizes), max(sizes)
    cmp_text = "; ".join(
        f"{size_text(max(int(c['from_bytes']), lo))}..{size_text(min(int(c['to_bytes']), hi))} "
        f"{c['best']}"
        for c in cmp_rows if int(c["to_bytes"]) >= lo and int(c["from_bytes"]) <= hi)
    def agreeing(predicted):
        return sum(1 for (_, p), (_, s) in zip(predicted, sim_best)
                   if set(p.split("=")) & set(s.split("=")))

    summary.append((op, n, shape, mapping, ranges_text(ranges(pred_best)),
                    ranges_text(ranges(platform_best)), ranges_text(ranges(sim_best)), cmp_text,
                    agreeing(pred_best), agreeing(platform_best), len(pred_best), max(regret),
                    max(regret_platform)))

print("## Crossovers\n")
print("Best algorithm by size: from the predictions above, from the simulations, and as "
      "`predict --collectives-compare` reports it with the profile (powers of two, sizes in the "
      "run's range); platform: predicted with one hop of the simulated platform as the profile; "
      "agree: sizes where the predicted best is (one of) the simulated best (profile, platform); "
      "worst cost: the largest simulated time of predict's choice over the simulated best "
      "(profile, platform).\n")
print("| collective | ranks | mapping | predicted | predicted (platform) | simulated | "
      "predict --collectives-compare | agree | worst cost |")
print("|---|---|---|---|---|---|---|---|---|")
for op, n, shape, mapping, p, q, s, c, agree, agree_q, total, worst, worst_q in summary:
    print(f"| {op} | {n} | {mapping} | {p} | {q} | {s} | {c} | {agree}/{total}, {agree_q}/{total} "
          f"| {worst:.2f}x, {worst_q:.2f}x |")
print()

all_sizes = sorted({size for (_, _, size) in ratios})
columns = all_sizes if len(all_sizes) <= 8 else all_sizes[::2]
print("## Predicted / simulated by algorithm and size\n")
print("Geometric mean over communicator sizes and mappings (min-max); `profile`: predicted with "
      "the profile given (PROFILE), `platform`: with one hop of the simulated platform "
      "(message_latency + hop_latency + bytes / link_bandwidth) as the profile"
      + ("" if columns == all_sizes else "; every other size of the run") + ".\n")
print("| collective | algorithm | profile | " + " | ".join(size_text(b) for b in columns) + " |")
print("|---|---|---|" + "---|" * len(columns))
for op, algs in algorithms.items():
    for a in algs:
        for which, label in ((0, "profile"), (1, "platform")):
            cells = []
            for size in columns:
                values = [v[which] for v in ratios.get((op, a, size), [])]
                cells.append(f"{geomean(values):.2f} ({min(values):.2f}-{max(values):.2f})"
                             if values else "")
            print(f"| {op} | {a} | {label} | " + " | ".join(cells) + " |")
