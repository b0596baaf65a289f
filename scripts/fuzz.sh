#!/usr/bin/env bash
# Builds the libFuzzer targets of tests/fuzz with clang (AddressSanitizer and
# UndefinedBehaviorSanitizer on everything) and runs each for SECONDS, FUZZ_JOBS at a time
# (default: one per processor), from its seed corpus (docs/fuzzing.md). Exits 1 when a target finds a crash, a leak, a
# time-out or an out-of-memory input, printing the reproducer's path.
#
#   scripts/fuzz.sh SECONDS [TARGET...]   # all targets, or the ones named (e.g. dumpi machine)
#
# Environment: BUILD (build folder, default build-fuzz; an existing TAC3MAP_FUZZ build such as
# CI's build-asan is reused), JOBS (build parallelism, default nproc), FUZZ_FINDINGS (where
# reproducers are kept, default $BUILD/fuzz-findings).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
seconds=${1:?usage: scripts/fuzz.sh SECONDS [TARGET...]}
shift
all=(native_trace simgrid_ti dumpi machine node_table rank_map sweep_spec profile)
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=("${all[@]}")

# The longest input each target tries: a little over its largest seed.
max_len() {
  case $1 in
    native_trace) echo 16384 ;;
    simgrid_ti | dumpi) echo 8192 ;;
    machine) echo 4096 ;;
    rank_map | sweep_spec) echo 2048 ;;
    *) echo 1024 ;;
  esac
}

# The project's packages, clang and its libFuzzer runtime (Debian 12).
"$root/scripts/install-deps.sh" --clang

build="$root/${BUILD:-build-fuzz}"
if ! grep -q '^TAC3MAP_FUZZ:BOOL=ON' "$build/CMakeCache.txt" 2>/dev/null; then
  cmake -S "$root" -B "$build" -DCMAKE_CXX_COMPILER=clang++ -DTAC3MAP_FUZZ=ON \
    -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -gline-tables-only" \
    -DTAC3MAP_WITH_MPI=OFF -DTAC3MAP_BUILD_BENCH=OFF >/dev/null
fi
cmake --build "$build" -j"${JOBS:-$(nproc)}" --target "${targets[@]/#/fuzz_}"

findings=${FUZZ_FINDINGS:-$build/fuzz-findings}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1}
# One target's run; a finding leaves $work/<target>.failed. FUZZ_JOBS targets run at once
# (default: the number of processors), each on one core.
fuzz_one() {
  local t=$1 corpus log status runs
  # The corpus is a copy: what a run adds to it stays out of the repository.
  corpus="$work/$t"
  mkdir -p "$corpus" "$findings/$t"
  cp "$root/tests/fuzz/corpus/$t/"* "$corpus/" 2>/dev/null || true
  while read -r target path; do
    [ "$target" = "$t" ] && cp "$root/$path" "$corpus/seed-$(basename "$path")"
  done < <(grep -v '^#' "$root/tests/fuzz/seeds.txt")
  log="$findings/$t/fuzz.log"
  rm -f "$findings/$t/"{crash,leak,timeout,oom,slow-unit}-*
  set +e
  "$build/tests/fuzz/fuzz_$t" -max_total_time="$seconds" -rss_limit_mb=2048 \
    -max_len="$(max_len "$t")" -timeout=20 -print_final_stats=1 \
    -artifact_prefix="$findings/$t/" "$corpus" >"$log" 2>&1
  status=$?
  set -e
  runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || true)
  if [ $status -eq 0 ]; then
    echo "fuzz $t: ${seconds} s, ${runs:-?} inputs, no finding"
  else
    touch "$work/$t.failed"
    echo "fuzz $t: FINDING (exit $status); log $log"
    # What went wrong, and the top of the stack in tac3map's own code.
    grep -E 'ERROR: |runtime error: |what\(\): |SUMMARY: ' "$log" | head -5 || true
    grep -E '^ +#[0-9]+ .* in tac3map::' "$log" | head -4 || true
    for f in "$findings/$t/"{crash,leak,timeout,oom}-*; do
      [ -e "$f" ] && echo "reproducer: $f (rerun: $build/tests/fuzz/fuzz_$t $f)"
    done
  fi
  return 0
}
at_once=${FUZZ_JOBS:-$(nproc)}
for t in "${targets[@]}"; do
  fuzz_one "$t" >"$work/$t.out" 2>&1 &
  while [ "$(jobs -rp | wc -l)" -ge "$at_once" ]; do wait -n || true; done
done
wait
failed=()
for t in "${targets[@]}"; do
  if [ -e "$work/$t.failed" ]; then
    failed+=("$t")
    cat "$work/$t.out" >&2
  else
    cat "$work/$t.out"
  fi
done
if [ ${#failed[@]} -gt 0 ]; then
  echo "fuzz: findings in ${failed[*]}" >&2
  exit 1
fi
echo "fuzz: ${#targets[@]} targets, ${seconds} s each, no finding"
