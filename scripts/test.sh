#!/usr/bin/env bash
# Fresh machine to green tests: installs what is needed, builds, runs every test with ctest.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/install-deps.sh"
"$root/scripts/build.sh"
cd "$root/${BUILD:-build}"
ctest --output-on-failure -j"$(nproc)"
