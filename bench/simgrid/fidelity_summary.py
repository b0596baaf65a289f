#!/usr/bin/env python3
"""Issue 24's figures from bench/simgrid/peers.sh's per-run CSV (docs/validation.md, "Full
nodes and no barriers"): does a lower score mean a faster run, for the tac3 score and for the
timeline, and is the tac3 map ever slower than another map?

usage: fidelity_summary.py PEERS.csv        (prints markdown on standard output)

Per case (program, barriers, box, engines, K):
  tau tac3 / timeline / flow  Kendall tau-b between the score and the simulated time over
                           the case's maps (1 = the same order);
  tau flow, 1% ties        the same for the flow model, two simulated times within 1% of each
                           other counted as a tie (the flow model's error is a few percent: the
                           order of maps that run within 1% is noise to it);
  bad pairs                pairs of maps where one scores lower by more than 5% and runs slower
                           by more than 5%;
  predict                  the largest |predicted / simulated - 1| over the maps;
  tac3 / best other        the tac3 map's simulated time over the fastest map that is not a tac3
                           map (<= 1.01: never more than 1% slower);
  tac3 / launcher          over the best of identity (block), round-robin / tofu-default and
                           Scotch's maps;
  seeds                    slowest / fastest tac3 map of the seeds (tac3-map, tac3-map-seedN).
"""
import csv
import math
import sys
from collections import OrderedDict


def kendall_tau_b(xs, ys, tie=0.0):
    concordant = discordant = ties_x = ties_y = 0
    n = len(xs)
    for i in range(n):
        for j in range(i + 1, n):
            dx, dy = xs[i] - xs[j], ys[i] - ys[j]
            if abs(dy) <= tie * min(ys[i], ys[j]):
                dy = 0
            if dx == 0 and dy == 0:
                continue
            if dx == 0:
                ties_x += 1
            elif dy == 0:
                ties_y += 1
            elif (dx > 0) == (dy > 0):
                concordant += 1
            else:
                discordant += 1
    denominator = math.sqrt((concordant + discordant + ties_x) * (concordant + discordant + ties_y))
    return (concordant - discordant) / denominator if denominator else float("nan")


def bad_pairs(scores, times, margin=0.05):
    bad = 0
    n = len(scores)
    for i in range(n):
        for j in range(n):
            if scores[i] < scores[j] / (1 + margin) and times[i] > times[j] * (1 + margin):
                bad += 1
    return bad


def number(text):
    return float(text) if text not in ("", None) else None


def geomean(xs):
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else float("nan")


groups = OrderedDict()
for r in csv.DictReader(open(sys.argv[1])):
    key = (r["program"], r["barriers"], r["boxes"], r["shape"], r["engines"], r["ranks_per_node"])
    groups.setdefault(key, []).append(r)

print("| case | barriers | box | K | maps | tau tac3 | tau timeline | tau flow | tau flow, 1% ties | bad pairs tac3 | "
      "bad pairs timeline | bad pairs flow | flow max error | predict max error | "
      "tac3 / best other | best other | tac3 / launcher best | seeds max/min |")
print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
rows = []
for (program, barriers, boxes, shape, engines, k), runs in groups.items():
    sim = [float(r["simulated_seconds"]) for r in runs]
    tac3 = [float(r["tac3_seconds"]) for r in runs]
    timeline = [number(r.get("timeline_seconds")) for r in runs]
    predicted = [number(r.get("predicted_seconds")) for r in runs]
    flow = [number(r.get("flow_seconds")) for r in runs]
    have_flow = all(f is not None for f in flow)
    tauf = kendall_tau_b(flow, sim) if have_flow else float("nan")
    tauf1 = kendall_tau_b(flow, sim, 0.01) if have_flow else float("nan")
    badf = bad_pairs(flow, sim) if have_flow else -1
    flow_error = max(abs(f / s - 1) for f, s in zip(flow, sim)) if have_flow else float("nan")
    names = [r["mapping"] for r in runs]
    have_timeline = all(t is not None for t in timeline)
    tau3 = kendall_tau_b(tac3, sim)
    taut = kendall_tau_b(timeline, sim) if have_timeline else float("nan")
    bad3 = bad_pairs(tac3, sim)
    badt = bad_pairs(timeline, sim) if have_timeline else -1
    errors = [abs(p / s - 1) for p, s in zip(predicted, sim) if p is not None]
    worst_error = max(errors) if errors else float("nan")
    tac3_maps = [s for n, s in zip(names, sim) if n.startswith("tac3-map")]
    others = [(s, n) for n, s in zip(names, sim) if not n.startswith("tac3-map")]
    main_tac3 = next(s for n, s in zip(names, sim) if n == "tac3-map")
    best_other = min(others)
    launchers = [s for n, s in zip(names, sim)
                 if n in ("identity", "round-robin", "tofu-default") or n.startswith("scotch-")]
    row = dict(program=program, barriers=barriers == "1", k=int(k), tau3=tau3, taut=taut,
               tauf=tauf, tauf1=tauf1, badf=badf, bad3=bad3, badt=badt, error=worst_error, r_other=main_tac3 / best_other[0],
               r_launcher=main_tac3 / min(launchers), seeds=max(tac3_maps) / min(tac3_maps))
    rows.append(row)
    print(f"| {program} | {'yes' if row['barriers'] else 'no'} | {shape} | {k} | {len(runs)} "
          f"| {tau3:.2f} | {taut:.2f} | {tauf:.2f} | {tauf1:.2f} | {bad3} | {badt} | {badf} | {flow_error:.3f} "
          f"| {worst_error:.3f} "
          f"| {row['r_other']:.3f} | {best_other[1]} | {row['r_launcher']:.3f} "
          f"| {row['seeds']:.3f} |")


def verdict(ok):
    return "PASS" if ok else "FAIL"


if rows:
    print()
    for name, key, badkey in (("tac3", "tau3", "bad3"), ("timeline", "taut", "badt"),
                              ("flow", "tauf", "badf")):
        worst = min(rows, key=lambda r: r[key] if not math.isnan(r[key]) else -2)
        bad = sum(r[badkey] for r in rows)
        print(f"- **{verdict(worst[key] >= 0.9 and bad == 0)}** score = {name}: Kendall tau >= 0.9 "
              f"on every case (worst {worst[key]:.2f}: {worst['program']} K={worst['k']}), "
              f"bad pairs (5%/5%) {bad}")
    worst = min(rows, key=lambda r: r["tauf1"] if not math.isnan(r["tauf1"]) else -2)
    print(f"- **{verdict(worst['tauf1'] >= 0.9)}** score = flow, simulated times within 1% as "
          f"ties: Kendall tau >= 0.9 on every case (worst {worst['tauf1']:.2f}: {worst['program']} "
          f"K={worst['k']})")
    worst = max(rows, key=lambda r: r["error"])
    print(f"- **{verdict(worst['error'] <= 0.10)}** predict within 10% on every case (worst "
          f"{worst['error']:.3f}: {worst['program']} K={worst['k']})")
    worst = max(rows, key=lambda r: r["r_other"])
    print(f"- **{verdict(worst['r_other'] <= 1.01)}** tac3 map never more than 1.01x slower than "
          f"any other map (worst {worst['r_other']:.3f}: {worst['program']} K={worst['k']})")
    g = geomean([r["r_launcher"] for r in rows])
    print(f"- **{verdict(g <= 0.70)}** tac3 map / best of block, round-robin (or tofu-default) and "
          f"Scotch: geomean {g:.3f} (<= 0.70)")
    worst = max(rows, key=lambda r: r["seeds"])
    print(f"- **{verdict(worst['seeds'] <= 1.03)}** seeds within 3% (worst {worst['seeds']:.3f}: "
          f"{worst['program']} K={worst['k']})")
    full = [r for r in rows if r["k"] > 1]
    if full:
        worst = max(full, key=lambda r: r["seeds"])
        print(f"- **{verdict(worst['seeds'] <= 1.03)}** seeds within 3% with K > 1 (worst "
              f"{worst['seeds']:.3f}: {worst['program']} K={worst['k']} {'with' if worst['barriers'] else 'without'} barriers)")
