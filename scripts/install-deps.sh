#!/usr/bin/env bash
# Installs the Debian 12 packages tac3map builds and tests with. Idempotent: does nothing
# when they are all present. Run as root (or with sudo available). With --clang, also clang
# and its libFuzzer and sanitizer runtimes (the fuzz targets and the sanitizer test pass).
set -euo pipefail
packages=(cmake g++ make libcli11-dev nlohmann-json3-dev libgtest-dev libbenchmark-dev
  libopenmpi-dev openmpi-bin libeigen3-dev libscotch-dev libboost-graph-dev pkgconf)
[ "${1:-}" = "--clang" ] && packages+=(clang libclang-rt-14-dev)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
echo "installing: ${missing[*]}" >&2
$sudo apt-get update -q
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
