#!/usr/bin/env bash
# The starts of --init auto side by side (issue 12's cases): for each case, `map --init auto
# --report` and a table of every candidate start (identity, round-robin, tofu-default,
# geometric, graph and the hop-bytes search from each) with its tac3, hop-bytes and average
# hops, then the map's result, wall time and peak memory. docs/initial-mappers.md records a
# run.
#
# usage: bench/starts.sh [OUTDIR]
# environment: TAC3MAP (default build/tac3map), CASES (default "stencil1152 random4096"):
#   stencil1152  12x12x8 periodic 7-point stencil, 256 KiB, on K 4x4x6x2x3x2
#   random4096   4,096 ranks, 3 partners each, 64-256 KiB, on K 8x8x6x2x3x2
#   stencil512   8x8x8 periodic stencil on the whole FX10 (4x2x8x2x3x2... as fx10.json says)
#   fugaku       48x46x72 periodic stencil on the whole of Fugaku (24x23x24x2x3x2)
#   MAP_FLAGS    extra flags for map (e.g. "--time-limit 60")
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
TAC3MAP=${TAC3MAP:-$root/build/tac3map}
CASES=${CASES:-stencil1152 random4096}
MAP_FLAGS=${MAP_FLAGS:-}
out=${1:-$(mktemp -d)}
mkdir -p "$out"
for c in $CASES; do
  case $c in
    stencil1152) machine=k-computer; shape=4x4x6x2x3x2
      gen="gen stencil --dims 12x12x8 --points 7 --periodic --bytes 262144" ;;
    random4096) machine=k-computer; shape=8x8x6x2x3x2
      gen="gen random --ranks 4096 --degree 3 --bytes 65536 --max-bytes 262144 --seed 1" ;;
    stencil512) machine=fx10; shape=$(python3 -c "import json;print('x'.join(str(a['size']) for a in json.load(open('$root/topologies/fx10.json'))['axes']))")
      gen="gen stencil --dims 8x8x8 --points 7 --periodic --bytes 262144" ;;
    fugaku) machine=fugaku; shape=24x23x24x2x3x2
      gen="gen stencil --dims 48x46x72 --points 7 --periodic --bytes 262144" ;;
    *) echo "unknown case $c" >&2; exit 2 ;;
  esac
  "$TAC3MAP" $gen -o "$out/$c.trace" > /dev/null
  /usr/bin/time -f "%e %M" -o "$out/$c.time" "$TAC3MAP" map --machine "$root/topologies/$machine.json" \
    --shape "$shape" --trace "$out/$c.trace" --quiet $MAP_FLAGS -o "$out/$c.map" \
    --report "$out/$c.json" > /dev/null
  python3 - "$c" "$out/$c.json" "$out/$c.time" <<'PY'
import json, sys
case, report, timing = sys.argv[1:]
r = json.load(open(report))
seconds, kib = open(timing).read().split()
print(f"\n{case}: {r['tasks']} ranks on {r['nodes']} nodes ({r['shape']})")
print("| start | tac3 [µs] | / identity | hop-bytes | avg hops |")
print("|---|---|---|---|---|")
ident = None
for c in r["start"]["candidates"]:
    s = c["scores"]
    ident = ident or s["tac3"]
    mark = " (chosen)" if c["name"] == r["start"]["chosen"] else ""
    print(f"| {c['name']}{mark} | {s['tac3']*1e6:.1f} | {s['tac3']/ident:.3f} | {s['tahb']:.4g} | {s['avg_hops']:.3f} |")
s = r["scores"]
print(f"| **map result** | {s['tac3']*1e6:.1f} | {s['tac3']/ident:.3f} | {s['tahb']:.4g} | {s['avg_hops']:.3f} |")
print(f"map: {float(seconds):.1f} s wall, {int(kib)/1024:.0f} MiB peak, search stopped: {r['search']['stopped']}")
PY
done
