#!/usr/bin/env bash
# Fresh machine to green tests: installs what is needed (with --browser: rsvg-convert and
# chromium, for viz's PNG output and its browser test), builds, runs every test with ctest.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/install-deps.sh" --browser
"$root/scripts/build.sh"
cd "$root/${BUILD:-build}"
# One job more than cores: several tests wait on processes (mpirun, chromium).
ctest --output-on-failure -j"$(($(nproc) + 1))"
