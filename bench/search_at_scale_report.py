#!/usr/bin/env python3
"""One case of bench/search_at_scale.sh: the markdown table and issue 12's criteria.

usage: search_at_scale_report.py CASE SHAPE CASEDIR OUTDIR

Reads CASEDIR/runs.tsv (one line per mapping: label, kind baseline|scotch|tac3map, strategy,
seed, objective, wall_s, peak_kib, stopped, mapping), CASEDIR/scores.csv (`tac3map score
--output-format csv` of the same mappings, same order), CASEDIR/scotch/status.tsv (Scotch's steps,
when Scotch ran), CASEDIR/simulated.tsv (label, simulated seconds; stencil512 only) and each
map run's CASEDIR/LABEL.json (--report: search.refiner and search.levels, shown in the table's
"refiner (levels)" column and in results.csv; blank when the report has no refiner).
Prints the table and the criteria; appends the rows to OUTDIR/results.csv and the criteria
lines to OUTDIR/criteria.txt.

Scotch's best is the strategy with the lowest hop-bytes (tahb as tac3map computes it); the
tac3 reference of a case is the lowest tac3 of identity, tofu-default and that mapping
(identity and tofu-default only on fugaku, which has no Scotch).
"""
import csv
import json
import os
import sys

MIB = 1024 * 1024
case, shape, d, out = sys.argv[1:5]
runs = list(csv.DictReader(open(f"{d}/runs.tsv"), delimiter="\t"))
scores = list(csv.DictReader(open(f"{d}/scores.csv")))
if len(runs) != len(scores):
    sys.exit(f"search_at_scale_report.py: {d}: {len(runs)} mappings but {len(scores)} scores")
rows = []
for r, s in zip(runs, scores):
    row = dict(r)
    for k in ("tac3", "tac3_lower_bound", "tahb", "avg_hops"):
        row[k] = float(s[k])
    row["max_link_messages"] = s["max_link_messages"]
    row["wall"] = float(r["wall_s"]) if r["wall_s"] else None
    row["mib"] = int(r["peak_kib"]) / 1024 if r["peak_kib"] else None
    row["refiner"] = row["levels"] = ""
    if r["kind"] == "tac3map" and os.path.exists(f"{d}/{r['label']}.json"):
        search = json.load(open(f"{d}/{r['label']}.json")).get("search", {})
        row["refiner"] = search.get("refiner", "")  # absent before issue 12's refiner seam
        row["levels"] = str(search.get("levels", ""))
    rows.append(row)
status = []
if os.path.exists(f"{d}/scotch/status.tsv"):
    status = [line.rstrip("\n").split("\t") for line in open(f"{d}/scotch/status.tsv") if line.strip()]
simulated = {}
if os.path.exists(f"{d}/simulated.tsv"):
    for line in open(f"{d}/simulated.tsv"):
        label, _, t = line.rstrip("\n").partition("\t")
        simulated[label] = float(t) if t.strip() else None

killed = {}
if os.path.exists(f"{d}/killed.tsv"):
    for line in open(f"{d}/killed.tsv"):
        f = line.rstrip("\n").split("\t")
        if len(f) == 5:
            killed[f[0]] = {"label": f[0], "seed": f[1], "objective": f[2], "wall": float(f[3]),
                            "mib": int(f[4]) / 1024}
by = {r["label"]: r for r in rows}
scotch = [r for r in rows if r["kind"] == "scotch"]
best_scotch = min(scotch, key=lambda r: r["tahb"]) if scotch else None
refs = [by["identity"], by["tofu-default"]] + ([best_scotch] if best_scotch else [])
ref = min(refs, key=lambda r: r["tac3"])
ref_name = "scotch-best" if ref is best_scotch else ref["label"]
bound = rows[0]["tac3_lower_bound"]


def cell(x, fmt):
    return "" if x is None else format(x, fmt)


def refiner(r):
    if not r["refiner"]:
        return ""
    return r["refiner"] + (f" ({r['levels']})" if r["levels"] else "")


def display(r):
    if r is best_scotch:
        return f"scotch-best ({r['strategy']})"
    if r["kind"] == "tac3map":
        return f"{r['objective']}-map seed {r['seed']}"
    return r["label"]


tasks = nodes = None
for r in rows:
    if r["kind"] == "tac3map":
        rep = f"{d}/{r['label']}.json"
        if os.path.exists(rep):
            j = json.load(open(rep))
            tasks, nodes = j["tasks"], j["nodes"]
            break
print(f"\n## {case}: {tasks if tasks else '?'} ranks on box {shape}"
      + (f" ({nodes} nodes)" if nodes else ""))
print(f"\ntac3 lower bound {bound * 1e6:.2f} µs; tac3 reference = best of identity, tofu-default"
      + (", Scotch's best" if case != "fugaku" else "") + f": {ref_name} ({ref['tac3'] * 1e6:.2f} µs)\n")
sim_col = bool(simulated)
head = ("| mapping | tac3 [µs] | tac3 / ref | hop-bytes [MiB·hops] | hop-bytes / Scotch best | avg hops | wall s "
        "| peak MiB | refiner (levels) |")
rule = "|---|---|---|---|---|---|---|---|---|"
if sim_col:
    head += " simulated [µs] |"
    rule += "---|"
print(head)
print(rule)
shown = [by["identity"], by["tofu-default"]] + ([best_scotch] if best_scotch else [])
runs_and_cuts = [r for r in rows if r["kind"] == "tac3map"] + [dict(k, killed=True) for k in killed.values()]
shown += sorted(runs_and_cuts, key=lambda r: (r["objective"] != "tac3", int(r["seed"])))
for r in shown:
    if r.get("killed"):
        print(f"| {r['objective']}-map seed {r['seed']} | killed after {r['wall']:.0f} s (MAP_TIMEOUT), no map "
              f"| | | | | {r['wall']:.2f} | {r['mib']:.0f} | |" + (" |" if sim_col else ""))
        continue
    vs_scotch = cell(r["tahb"] / best_scotch["tahb"], ".3f") if best_scotch else "n/a"
    line = (f"| {display(r)} | {r['tac3'] * 1e6:.2f} | {r['tac3'] / ref['tac3']:.3f} | "
            f"{r['tahb'] / MIB:.1f} | {vs_scotch} | {r['avg_hops']:.3f} | {cell(r['wall'], '.2f')} | "
            f"{cell(r['mib'], '.0f')} | {refiner(r)} |")
    if sim_col:
        t = simulated.get(r["label"])
        line += f" {cell(t * 1e6 if t else None, '.3f')} |"
    print(line)

# Scotch: every step, so that a failure or a collision shows
if status:
    parts = []
    for st in status:
        step, what = st[0], st[1]
        wall = st[2] if len(st) > 2 else ""
        msg = st[4] if len(st) > 4 else ""
        if step in ("graphs", "target", "target2"):
            label = {"graphs": "graphs (python)", "target": "amk_grf target", "target2": "amk_grf -2 target"}[step]
            parts.append(f"{label} {what} {wall} s")
            continue
        r = by.get(f"scotch-{step}")
        if what == "ok" and r:
            parts.append(f"{step}: {r['tahb'] / MIB:.1f} MiB·hops, tac3 {r['tac3'] * 1e6:.2f} µs, {wall} s")
        else:
            if what == "two-tasks-on-a-node":
                msg = ""  # scotch_maps.py's message says only that, with a path
            parts.append(f"{step}: {what.upper()}{' (' + msg + ')' if msg else ''}, left out")
    print("\nScotch (scotch-best's wall s and peak MiB are its scotch_gmap run; amk_grf builds the target "
          "once per box): " + "; ".join(parts) + ".")
    if scotch:
        low = min(scotch, key=lambda r: r["tac3"])
        if low["tac3"] < best_scotch["tac3"]:
            print(f"(lowest tac3 of any Scotch strategy: {low['strategy']}, {low['tac3'] * 1e6:.2f} µs)")
    else:
        print("Scotch made no usable map: the criteria that need it cannot be judged.")
stops = sorted({f"{r['objective']}: {r['stopped']}" for r in rows if r["kind"] == "tac3map"})
if stops:
    print(("" if status else "\n") + "search stopped by: " + ", ".join(stops))

# criteria
crit = []


def verdict(ok):
    return "PASS" if ok else "FAIL"


maps = [r for r in rows if r["kind"] == "tac3map"]
seeds = sorted({r["seed"] for r in maps} | {k["seed"] for k in killed.values()}, key=int)


def missing(label):
    k = killed.get(label)
    return (f"killed after {k['wall']:.0f} s by MAP_TIMEOUT ({k['mib']:.0f} MiB peak by then), no map: FAIL"
            if k else "missing (map failed): FAIL")
# each run's time and memory limits: issue 12's, and issue 26's for the partitioned mesh
limits = {"stencil1152": (60, 2048), "random4096": (60, 2048), "mesh20k": (600, 8192),
          "mesh100k": (600, 8192)}
if case in limits:
    wall_limit, mib_limit = limits[case]
    for s in seeds:
        t = by.get(f"tac3-map-s{s}")
        h = by.get(f"tahb-map-s{s}")
        if t:
            x = t["tac3"] / ref["tac3"]
            crit.append(f"{case} seed {s}: tac3 map's tac3 {t['tac3'] * 1e6:.2f} µs = {x:.3f} x best of "
                        f"identity, tofu-default, Scotch ({ref_name}) <= 0.8: {verdict(x <= 0.8)}")
            if best_scotch and case.startswith("mesh"):
                # issue 26: the tac3 map keeps hop-bytes while it lowers contention
                y = t["tahb"] / best_scotch["tahb"]
                crit.append(f"{case} seed {s}: tac3 map's hop-bytes = {y:.3f} x Scotch best "
                            f"({best_scotch['strategy']}) <= 1: {verdict(y <= 1)}")
        else:
            crit.append(f"{case} seed {s}: tac3 map {missing(f'tac3-map-s{s}')}")
        if h and best_scotch:
            x = h["tahb"] / best_scotch["tahb"]
            crit.append(f"{case} seed {s}: tahb map's hop-bytes = {x:.3f} x Scotch best "
                        f"({best_scotch['strategy']}) <= 1: {verdict(x <= 1)}")
        elif h:
            crit.append(f"{case} seed {s}: tahb map vs Scotch: no Scotch map, cannot judge: FAIL")
        else:
            crit.append(f"{case} seed {s}: tahb map {missing(f'tahb-map-s{s}')}")
        both = [r for r in (t, h) if r] + [killed[x] for x in (f"tac3-map-s{s}", f"tahb-map-s{s}") if x in killed]
        ok = len(both) == 2 and not any(x in killed for x in (f"tac3-map-s{s}", f"tahb-map-s{s}")) \
            and all(r["wall"] < wall_limit and r["mib"] < mib_limit for r in both)
        crit.append(f"{case} seed {s}: each run under {wall_limit} s and {mib_limit // 1024} GiB: "
                    + ", ".join(f"{r['objective']} {r['wall']:.1f} s {r['mib']:.0f} MiB" for r in both)
                    + f": {verdict(ok)}")
elif case == "fugaku":
    for s in seeds:
        t = by.get(f"tac3-map-s{s}")
        if not t:
            crit.append(f"{case} seed {s}: tac3 map {missing(f'tac3-map-s{s}')}")
            continue
        x = t["tac3"] / ref["tac3"]
        crit.append(f"{case} seed {s}: tac3 map's tac3 {t['tac3'] * 1e6:.2f} µs = {x:.3f} x the better of "
                    f"identity and tofu-default ({ref_name}) <= 0.9: {verdict(x <= 0.9)}")
        crit.append(f"{case} seed {s}: {t['wall']:.1f} s wall <= 600 s: {verdict(t['wall'] <= 600)}; "
                    f"{t['mib']:.0f} MiB peak <= 8 GiB: {verdict(t['mib'] <= 8192)}")
elif case == "stencil512":
    mine = [label for label in simulated if label.startswith("tac3-map-s")]
    others = {label: t for label, t in simulated.items() if label not in mine}
    if best_scotch is None:
        crit.append(f"{case}: no Scotch map to simulate: judged against identity and tofu-default only")
    for label in mine:
        t = simulated[label]
        bad = [k for k, v in others.items() if v is None]
        if t is None or bad:
            crit.append(f"{case}: a simulation failed ({label if t is None else ', '.join(bad)}): FAIL")
            continue
        names = {k: ("scotch-best" if best_scotch and k == best_scotch["label"] else k) for k in others}
        faster = all(t < v for v in others.values())
        fastest_other = min(others, key=others.get)
        crit.append(f"{case}: simulated {label} {t * 1e6:.3f} µs vs "
                    + ", ".join(f"{names[k]} {v * 1e6:.3f} µs" for k, v in others.items())
                    + f" ({t / others[fastest_other]:.3f} x the fastest of them, {names[fastest_other]}); "
                    f"faster than all: {verdict(faster)}")
print()
for line in crit:
    print("- " + line)
with open(f"{out}/criteria.txt", "a") as f:
    for line in crit:
        f.write(line + "\n")

fields = ["case", "shape", "label", "kind", "strategy", "seed", "objective", "scotch_best", "tac3_us",
          "tac3_lower_bound_us", "tac3_over_ref", "tahb_byte_hops", "tahb_over_scotch_best", "avg_hops",
          "max_link_messages", "wall_s", "peak_mib", "stopped", "simulated_s", "refiner", "levels"]
new = not os.path.exists(f"{out}/results.csv")
with open(f"{out}/results.csv", "a", newline="") as f:
    w = csv.writer(f)
    if new:
        w.writerow(fields)
    for r in rows:
        t = simulated.get(r["label"])
        w.writerow([case, shape, r["label"], r["kind"], r["strategy"], r["seed"], r["objective"],
                    "yes" if r is best_scotch else "", f"{r['tac3'] * 1e6:.4f}", f"{bound * 1e6:.4f}",
                    f"{r['tac3'] / ref['tac3']:.4f}", f"{r['tahb']:.0f}",
                    f"{r['tahb'] / best_scotch['tahb']:.4f}" if best_scotch else "",
                    f"{r['avg_hops']:.4f}", r["max_link_messages"], cell(r["wall"], ".2f"),
                    cell(r["mib"], ".1f"), r["stopped"], "" if t is None else f"{t:.9g}", r["refiner"],
                    r["levels"]])
