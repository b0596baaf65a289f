#!/usr/bin/env bash
# The speed of `tac3map bcast --algorithm optimal` on the paper's example trees (Hourai et al.,
# Tables 1-4; issue 13): for each tree in topologies/trees/ and roots c0 and c1, the optimal
# broadcast time, whether the search finished, its search.seconds, and binomial's and flat's
# times. docs/bcast.md records a run. Needs a built tac3map (BUILD=build by default) and python3.
#
# usage: bench/bcast_paper.sh            environment: BUILD, TIME_LIMIT (default 60 s)
set -euo pipefail
cd "$(dirname "$0")/.."
tool=${BUILD:-build}/tac3map
limit=${TIME_LIMIT:-60}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
printf '%-22s %-4s %12s %8s %12s %12s %12s\n' tree root "optimal[ms]" finished "search[ms]" \
  "binomial[ms]" "flat[ms]"
for tree in star-8 star-12 star-16 dual-cpu-2x4 dual-cpu-2x6 dual-cpu-2x8 clusters-2x2x2 \
            clusters-2x3x2 clusters-2x4x2 nonuniform-2x2x1+1 nonuniform-2x3x1+1 nonuniform-2x4x1+1; do
  for root in c0 c1; do
    for algorithm in optimal binomial flat; do
      "$tool" bcast --machine "topologies/trees/$tree.json" --root "$root" --algorithm "$algorithm" \
        --time-limit "$limit" -o "$work/$algorithm.json" >/dev/null
    done
    python3 - "$tree" "$root" "$work" <<'PY'
import json, sys
tree, root, work = sys.argv[1:4]
o, b, f = (json.load(open(f"{work}/{a}.json")) for a in ("optimal", "binomial", "flat"))
print(f"{tree:<22} {root:<4} {o['time'] * 1e3:12.2f} {'yes' if o['optimal'] else 'no':>8} "
      f"{o['search']['seconds'] * 1e3:12.3f} {b['time'] * 1e3:12.2f} {f['time'] * 1e3:12.2f}")
PY
  done
done
