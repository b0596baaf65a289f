#!/usr/bin/env bash
# Annealing trials per second of two tac3map binaries, measured in alternating runs so that
# both see the same machine (issue 26 item 1; docs/performance.md, "Speed on the paper's case").
#
#   bench/trial_rate.sh BASE NEW [RUNS] [MAP FLAGS...]
#
# Each run is `map` on CG-64 (examples/cg64-sendrecv.trace), FX10 box 2x2x2x2x3x2, the full
# schedule on one thread (--no-early-stop --threads 1) plus MAP FLAGS (e.g. --engines 1); the
# rate is the report's search.trials / search.seconds (the annealing, the tie-break descent and
# the flow check: not reading, routing or the starts). Prints each binary's rates, their
# medians, NEW / BASE, and whether the two wrote the same map file. Needs python3.
set -euo pipefail
[ $# -ge 2 ] || { sed -n 2,11p "$0" >&2; exit 2; }
root=$(cd "$(dirname "$0")/.." && pwd)
base=$1 new=$2
shift 2
runs=5
if [ $# -gt 0 ] && [[ $1 =~ ^[0-9]+$ ]]; then runs=$1; shift; fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
rate() {  # binary label run
  "$1" map --machine "$root/topologies/fx10.json" --shape 2x2x2x2x3x2 \
    --trace "$root/examples/cg64-sendrecv.trace" --no-early-stop --threads 1 --quiet "${@:4}" \
    --report "$work/$2.json" -o "$work/$2.map" > /dev/null
  python3 -c "import json,sys; s=json.load(open(sys.argv[1]))['search']; print(s['trials']/s['seconds']/1e6)" \
    "$work/$2.json" >> "$work/$2.rates"
}
for ((i = 0; i < runs; i++)); do
  rate "$base" base "$i" "$@"
  rate "$new" new "$i" "$@"
done
python3 - "$work/base.rates" "$work/new.rates" <<'PY'
import statistics, sys
base, new = ([float(x) for x in open(f)] for f in sys.argv[1:3])
for name, rates in (("base", base), ("new", new)):
    print(f"{name}: median {statistics.median(rates):.2f} M trials/s ({', '.join(f'{r:.2f}' for r in sorted(rates))})")
print(f"new / base: {statistics.median(new) / statistics.median(base):.3f}")
PY
if cmp -s "$work/base.map" "$work/new.map"; then echo "same map file"; else echo "map files differ"; fi
