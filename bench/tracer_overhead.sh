#!/usr/bin/env bash
# Cost of libtac3trace per MPI call: tac3map-pingpong's one-way time for 8 B and 32 B messages
# (one traced send and one traced receive per message) without the tracer, with it
# line-buffered (the default: crash-safe), and with TAC3TRACE_BUFFER=full. Needs a build with
# MPI (BUILD=build by default) and python3.
set -euo pipefail
cd "$(dirname "$0")/.."
build=$(realpath "${BUILD:-build}")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for run in untraced line full; do
  preload=()
  [ "$run" != untraced ] && preload=(-x LD_PRELOAD="$build/libtac3trace.so")
  TAC3TRACE_PREFIX="$work/pp" TAC3TRACE_BUFFER=$run mpirun --allow-run-as-root --oversubscribe \
    -n 2 "${preload[@]}" "$build/tac3map-pingpong" --max-bytes 32 --repetitions 50000 \
    --pool-mib 8 -o "$work/$run.json" >/dev/null
done
python3 - "$work" <<'PY'
import json, sys
runs = {r: {s["bytes"]: s["seconds"] for s in json.load(open(f"{sys.argv[1]}/{r}.json"))["pingpong"]}
        for r in ("untraced", "line", "full")}
print(f"{'bytes':<6} {'untraced us':<12} {'line us':<9} {'full us':<9} {'per call, line':<15} per call, full")
for b in sorted(runs["untraced"]):
    u, l, f = (runs[r][b] * 1e6 for r in ("untraced", "line", "full"))
    print(f"{b:<6} {u:<12.3f} {l:<9.3f} {f:<9.3f} {(l - u) / 2:<15.3f} {(f - u) / 2:.3f}")
PY
