#!/usr/bin/env python3
"""Summary of bench/simgrid/peers.sh: per case the simulated-time ratios of tac3's mapping
against its peers, and issue 11's acceptance criteria (docs/validation.md).

usage: peers_summary.py PEERS.csv SUMMARY.csv   (prints markdown on standard output)

"Never slower" allows 0.1% (the tie tolerance of validate.sh: hop latencies, barriers).
"""
import csv
import math
import sys
from collections import OrderedDict

TOL = 1e-3
rows = list(csv.DictReader(open(sys.argv[1])))
groups = OrderedDict()
for r in rows:
    key = (r["case"], r["program"], r["barriers"], r["boxes"], r["shape"], r["engines"], r["ranks_per_node"])
    groups.setdefault(key, OrderedDict())[r["mapping"]] = float(r["simulated_seconds"])


def geomean(xs):
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else float("nan")


def f3(x):
    return "" if x is None else f"{x:.3f}"


def sec(x):
    return "" if x is None else f"{x:.4g}"


summary = []
for (case, program, barriers, boxes, shape, engines, k), sims in groups.items():
    scotch = {m: t for m, t in sims.items() if m.startswith("scotch-")}
    best_scotch = min(scotch.items(), key=lambda mt: mt[1]) if scotch else None
    launcher = "tofu-default" if k == "1" else "round-robin"
    for tac3 in [m for m in sims if m.startswith("tac3-map")]:
        t = sims[tac3]
        s = dict(case=case, program=program, barriers=barriers == "1", boxes=boxes, shape=shape,
                 engines=engines, k=int(k), tac3=tac3, t=t,
                 identity=sims.get("identity"), launcher=sims.get(launcher),
                 tahb=sims.get("tahb-map"),
                 scotch=best_scotch[1] if best_scotch else None,
                 scotch_name=best_scotch[0][len("scotch-"):] if best_scotch else "")
        s["r_scotch"] = t / s["scotch"] if s["scotch"] else None
        s["r_identity"] = t / s["identity"]
        s["r_tahb"] = t / s["tahb"]
        s["r_launcher"] = t / min(s["identity"], s["launcher"]) if k != "1" else None
        summary.append(s)

with open(sys.argv[2], "w") as f:
    f.write("case,boxes,shape,engines,ranks_per_node,tac3_mapping,sim_tac3,sim_best_scotch,"
            "best_scotch_strategy,sim_tac3_over_best_scotch,sim_tac3_over_identity,"
            "sim_tac3_over_tahb,sim_tac3_over_best_of_block_round_robin\n")
    for s in summary:
        f.write(",".join(str(x) for x in (
            s["case"], s["boxes"], s["shape"], s["engines"], s["k"], s["tac3"], s["t"],
            "" if s["scotch"] is None else s["scotch"], s["scotch_name"],
            f3(s["r_scotch"]), f3(s["r_identity"]), f3(s["r_tahb"]), f3(s["r_launcher"]))) + "\n")

print("Simulated seconds and ratios (tac3 = the tac3 mapping's simulated time; launcher = "
      "tofu-default for K = 1, round-robin for K > 1; identity = block for K > 1)\n")
print("| case | box | E | K | tac3 map | tac3 [s] | identity [s] | launcher [s] | tahb-map [s] "
      "| best Scotch [s] | tac3 / best Scotch | tac3 / identity | tac3 / tahb-map "
      "| tac3 / min(block, rr) |")
print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
for s in summary:
    bs = f"{sec(s['scotch'])} ({s['scotch_name']})" if s["scotch"] else ""
    print(f"| {s['case']} | {s['shape']} | {s['engines']} | {s['k']} | {s['tac3']} | {sec(s['t'])} "
          f"| {sec(s['identity'])} | {sec(s['launcher'])} | {sec(s['tahb'])} | {bs} "
          f"| {f3(s['r_scotch'])} | {f3(s['r_identity'])} | {f3(s['r_tahb'])} | {f3(s['r_launcher'])} |")


def line(ok, text, complete=True):
    verdict = "PASS" if ok else "FAIL"
    if not complete:
        verdict = f"INCOMPLETE ({verdict} on these cases)"
    print(f"- **{verdict}** {text}")


print("\nCriteria (never slower = at most 0.1% slower)\n")
for engines in OrderedDict((s["engines"], 0) for s in summary):
    for tac3 in OrderedDict((s["tac3"], 0) for s in summary):
        sel = [s for s in summary if s["engines"] == engines and s["tac3"] == tac3]
        print(f"engines {engines}, {tac3}:\n")
        for barriers in (False, True):
            cg = [s for s in sel if s["program"] in ("cg64", "cg32") and s["k"] == 1
                  and s["barriers"] == barriers and s["r_scotch"] is not None]
            if not cg:
                continue
            g, worst = geomean([s["r_scotch"] for s in cg]), max(cg, key=lambda s: s["r_scotch"])
            name = "with barriers" if barriers else "without barriers"
            incomplete = "" if len(cg) == 6 else f" (only {len(cg)} of the 6 boxes)"
            line(g <= 0.85 and worst["r_scotch"] <= 1 + TOL,
                 f"1. CG 32/64 {name}, tac3 / best Scotch: geomean {g:.3f} (<= 0.85), "
                 f"worst {worst['r_scotch']:.3f} ({worst['case']}; never slower: <= 1.001){incomplete}",
                 len(cg) == 6)
        st = [s for s in sel if s["program"] == "stencil" and s["k"] == 1]
        if st:
            wi = max(st, key=lambda s: s["r_identity"])
            wt = max(st, key=lambda s: s["r_tahb"])
            incomplete = "" if len(st) == 6 else f" (only {len(st)} of the 6 cases)"
            line(wi["r_identity"] <= 1 + TOL and wt["r_tahb"] <= 1 + TOL,
                 f"2. stencil, 3 boxes, with and without barriers: tac3 / identity worst "
                 f"{wi['r_identity']:.3f} ({wi['case']}), tac3 / tahb-map worst {wt['r_tahb']:.3f} "
                 f"({wt['case']}); never slower than either (<= 1.001){incomplete}", len(st) == 6)
        for boxes in OrderedDict((s["boxes"], 0) for s in sel if s["k"] > 1):
            kk = [s for s in sel if s["k"] > 1 and s["boxes"] == boxes]
            g = geomean([s["r_launcher"] for s in kk])
            worst = max(kk, key=lambda s: s["r_launcher"])
            slower = [s for s in kk if s["r_launcher"] > 1 + TOL]
            line(g <= 0.60 and not slower,
                 f"3. K = 2, 4 on CG-64 and stencil, with and without barriers ({boxes} boxes, "
                 f"{len(kk)} cases): tac3 / min(block, round-robin) geomean {g:.3f} (<= 0.60), "
                 f"worst {worst['r_launcher']:.3f} ({worst['case']} K={worst['k']} {worst['shape']}); "
                 f"slower in {len(slower)} cases", len(kk) == 24)
        print()
print(f"per run: {sys.argv[1]}\nper case: {sys.argv[2]}")
