#!/usr/bin/env bash
# Installs the Debian 12 packages tac3map builds and tests with. Idempotent: does nothing
# when they are all present. Run as root (or with sudo available). Options (any order):
#   --clang    also clang and its libFuzzer and sanitizer runtimes (the fuzz targets and the
#              sanitizer test pass);
#   --browser  also what `viz` pictures need beyond the build: rsvg-convert (librsvg2-bin, the
#              runtime dependency of `viz -o x.png`), the DejaVu fonts the pictures are laid
#              out for, and chromium (the viz.browser_texts_apart test renders them headless).
set -euo pipefail
packages=(cmake g++ make libcli11-dev nlohmann-json3-dev libgtest-dev libbenchmark-dev
  libopenmpi-dev openmpi-bin libeigen3-dev libscotch-dev libboost-graph-dev pkgconf)
for option in "$@"; do
  case "$option" in
    --clang) packages+=(clang libclang-rt-14-dev) ;;
    --browser) packages+=(librsvg2-bin fonts-dejavu-core chromium) ;;
    *)
      echo "install-deps.sh: unknown option $option (expected --clang, --browser)" >&2
      exit 2
      ;;
  esac
done
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
