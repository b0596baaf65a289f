#!/usr/bin/env bash
# Installs a built tac3map into a temporary prefix and uses it as an outside project would
# (docs/install.md): examples/consumer built with find_package(tac3map) must map a trace and
# score its map and identity exactly as the installed `tac3map score` does, and a one-file
# program built with `pkg-config --cflags --libs tac3map` must run. Reuses the build: only
# the install and the two small programs are built. ctest runs it (install.consumer).
# Usage: scripts/test-install.sh [BUILD_DIR]   (default: build; CXX picks the compiler,
# TAC3MAP_LAUNCHER e.g. ccache the compiler launcher)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$root/build}" && pwd)
cxx=${CXX:-c++}
launcher=${TAC3MAP_LAUNCHER:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
prefix=$tmp/prefix
fail() { echo "test-install: $*" >&2; exit 1; }

cmake --install "$build" --prefix "$prefix" >"$tmp/install.log" || { cat "$tmp/install.log"; fail "cmake --install failed"; }
for f in bin/tac3map include/tac3map/version.hpp include/tac3map/network/machine.hpp; do
  [ -f "$prefix/$f" ] || fail "$f was not installed"
done
libdir=$(dirname "$(find "$prefix" -name libtac3map_core.a | head -1)")
[ -f "$libdir/libtac3map_core.a" ] || fail "libtac3map_core.a was not installed"
[ -f "$libdir/cmake/tac3map/tac3mapConfig.cmake" ] || fail "tac3mapConfig.cmake was not installed"
[ -f "$libdir/cmake/tac3map/tac3mapConfigVersion.cmake" ] || fail "tac3mapConfigVersion.cmake was not installed"
[ -f "$libdir/pkgconfig/tac3map.pc" ] || fail "tac3map.pc was not installed"
"$prefix/bin/tac3map" --version | grep -q '^tac3map [0-9][0-9.]* (git [^ ]*)$' ||
  fail "installed tac3map --version: $("$prefix/bin/tac3map" --version)"

machine=$root/topologies/fx10.json
shape=2x2x2x2x3x2
trace=$root/examples/cg64-sendrecv.trace

# 1. CMake: find_package(tac3map 0.2) from the prefix; the consumer maps the trace and scores
# its map and identity.
cmake -S "$root/examples/consumer" -B "$tmp/consumer" -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_CXX_COMPILER="$cxx" \
  ${launcher:+-DCMAKE_CXX_COMPILER_LAUNCHER="$launcher"} >"$tmp/configure.log" 2>&1 ||
  { cat "$tmp/configure.log"; fail "examples/consumer does not configure against the prefix"; }
cmake --build "$tmp/consumer" >"$tmp/build.log" 2>&1 ||
  { cat "$tmp/build.log"; fail "examples/consumer does not build against the prefix"; }
got=$("$tmp/consumer/map-and-score" "$machine" "$shape" "$trace" "$tmp/consumer.map")
echo "$got"
# The installed command's own scores of the same mappings (JSON: "tac3": <number>,).
for mapping in identity "$tmp/consumer.map"; do
  json=$("$prefix/bin/tac3map" score --machine "$machine" --shape "$shape" --trace "$trace" "$mapping" --json)
  for key in tac3 tahb; do
    want=$(sed -n "s/^ *\"$key\": *\([^,]*\),\{0,1\}\$/\1/p" <<<"$json")
    have=$(grep -F "$mapping " <<<"$got" | sed -n "s/.* $key \([^ ]*\).*/\1/p")
    [ -n "$want" ] && [ -n "$have" ] || fail "no $key of $mapping in the consumer's output or in tac3map score --json"
    awk -v a="$have" -v b="$want" 'BEGIN { exit !(a + 0 == b + 0) }' ||
      fail "$mapping: $key: the consumer says $have, tac3map score says $want"
  done
done

# 2. pkg-config: a one-file program, compiled and linked with the .pc file's flags alone.
flags=$(PKG_CONFIG_PATH="$libdir/pkgconfig" pkg-config --cflags --libs tac3map) ||
  fail "pkg-config does not find tac3map.pc"
# shellcheck disable=SC2086  # the flags are words
$launcher "$cxx" -std=c++20 -O1 "$root/examples/consumer/machine_name.cpp" -o "$tmp/machine-name" $flags ||
  fail "machine_name.cpp does not build with: $flags"
name=$(sed -n 's/^ *"name": *"\([^"]*\)",*$/\1/p' "$machine" | head -1)
"$tmp/machine-name" "$machine" | grep -q "^$name [0-9x]* (tac3map " ||
  fail "machine-name: $("$tmp/machine-name" "$machine")"
echo "test-install: find_package and pkg-config consumers agree with tac3map $("$prefix/bin/tac3map" --version | cut -d' ' -f2-)"
