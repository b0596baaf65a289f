#!/usr/bin/env bash
# Reading whole-run traces: wall time and peak memory of `tac3map ccs` and `tac3map score`
# (identity on FX10 box 2x2x2x2x3x2) on a SimGrid time-independent trace and on the same trace
# with every rank's actions repeated 4 times (4x the file, 4x the messages), from /usr/bin/time.
# The last column, peak resident memory over the trace's bytes, should stay flat from 1x to 4x.
#
#   bench/read_trace.sh [TRACE]
#
# TRACE: a SimGrid TI trace, one file or an index of per-rank files (e.g. NPB CG class A on 64
# ranks as SMPI writes it: docs/performance.md). Without it, a synthetic one: the CG pattern of
# `tac3map gen cg` (64 ranks, irecv+send+wait, 14,000-byte messages) written with `convert --to
# simgrid-ti`, its one iteration repeated ITERATIONS times (default 2000) per rank.
# Needs a built tac3map (BUILD=build by default) and /usr/bin/time.
set -euo pipefail
cd "$(dirname "$0")/.."
tool=$(realpath "${BUILD:-build}/tac3map")
machine=$PWD/topologies/fx10.json
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The rank files of a trace (the trace itself when it is not an index).
rank_files() {
  local trace=$1 dir line
  dir=$(dirname "$trace")
  while IFS= read -r line; do
    line=${line%$'\r'}
    [ -z "$line" ] && continue
    case $line in /*) ;; *) line=$dir/$line ;; esac
    if [ ! -f "$line" ]; then echo "$trace"; return; fi
  done <"$trace"
  while IFS= read -r line; do
    line=${line%$'\r'}
    [ -z "$line" ] && continue
    case $line in /*) echo "$line" ;; *) echo "$dir/$line" ;; esac
  done <"$trace"
}

# repeat TRACE TIMES OUTDIR: an index OUTDIR/trace.txt of the rank files, each repeated.
repeat() {
  local trace=$1 times=$2 out=$3 file name i
  mkdir -p "$out"
  : >"$out/trace.txt"
  while IFS= read -r file; do
    name=$(basename "$file")
    for ((i = 0; i < times; i++)); do cat "$file"; done >"$out/$name"
    echo "$name" >>"$out/trace.txt"
  done < <(rank_files "$trace")
}

if [ $# -ge 1 ]; then
  base=$1
else
  "$tool" gen cg --ranks 64 --bytes 14000 --variant send -o "$work/cg.trace"
  "$tool" convert "$work/cg.trace" --to simgrid-ti -o "$work/cg.ti" >/dev/null
  repeat "$work/cg.ti" "${ITERATIONS:-2000}" "$work/synthetic"
  base=$work/synthetic/trace.txt
fi
repeat "$base" 4 "$work/x4"

printf '%-6s %-9s %-12s %-6s %-8s %-8s %-9s %-s\n' trace "file MB" messages command \
  "wall s" "user s" "peak MiB" "peak B per trace B"
for scale in 1x 4x; do
  trace=$base
  [ "$scale" = 4x ] && trace=$work/x4/trace.txt
  bytes=0
  while IFS= read -r file; do bytes=$((bytes + $(wc -c <"$file"))); done < <(rank_files "$trace")
  for command in ccs score; do
    if [ "$command" = ccs ]; then
      set -- ccs --trace "$trace"
    else
      set -- score --machine "$machine" --shape 2x2x2x2x3x2 --trace "$trace" identity
    fi
    /usr/bin/time -f "%e %U %M" -o "$work/time" "$tool" "$@" >"$work/out"
    read -r wall user kib <"$work/time"
    [ "$command" = ccs ] && messages=$(sed -n '1s/.* ranks, \([0-9]*\) communications.*/\1/p' "$work/out")
    awk -v s="$scale" -v b="$bytes" -v m="$messages" -v c="$command" -v w="$wall" -v u="$user" \
      -v k="$kib" 'BEGIN { printf "%-6s %-9.1f %-12s %-6s %-8.2f %-8.2f %-9.0f %.2f\n",
        s, b / 1e6, m, c, w, u, k / 1024, k * 1024 / b }'
  done
done
