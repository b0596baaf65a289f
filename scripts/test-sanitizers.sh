#!/usr/bin/env bash
# The second CI pass (docs/fuzzing.md): the whole test suite once more under AddressSanitizer
# (leaks included) and UndefinedBehaviorSanitizer (any undefined behaviour aborts), then every
# fuzz target for FUZZ_SECONDS (default 20) from its seed corpus.
#
# One build folder (${BUILD:-build-asan}) serves both: clang, -O1 with line tables only (stacks
# keep file:line; faster to build), TAC3MAP_FUZZ=ON, which
# compiles everything with -fsanitize=fuzzer-no-link,address,undefined. Without MPI (Open MPI
# under LeakSanitizer reports its own allocations; the MPI tests ran in the first pass) and
# without the benchmarks.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/install-deps.sh" --clang
build=${BUILD:-build-asan}
cd "$root"
cmake -S . -B "$build" -DCMAKE_CXX_COMPILER=clang++ -DTAC3MAP_FUZZ=ON \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -gline-tables-only" \
  -DTAC3MAP_WITH_MPI=OFF -DTAC3MAP_BUILD_BENCH=OFF >/dev/null
cmake --build "$build" -j"$(nproc)"
(
  cd "$build"
  ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 TAC3MAP_SANITIZED=1 \
    ctest --output-on-failure -j4
)
# All eight targets at once: each still fuzzes 20 s of wall time (on a share of the two
# cores), so the step takes 20 s instead of 40 s and .ci/run stays within its 15 minutes.
BUILD=$build FUZZ_JOBS=${FUZZ_JOBS:-8} bash scripts/fuzz.sh "${FUZZ_SECONDS:-20}"
