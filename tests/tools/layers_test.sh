#!/usr/bin/env bash
# cmake/CheckLayers.cmake on made-up trees: a clean one passes; an upward include (io
# including search) and a loop (io/p -> io/q -> io/p) each fail, naming the file or the loop.
set -euo pipefail
cmake=$1 check=$2
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
tree() {  # name: a fresh tree with one clean module per layer used
  rm -rf "${d:?}/$1"
  mkdir -p "$d/$1/src/io" "$d/$1/src/search" "$d/$1/include/tac3map/io" "$d/$1/include/tac3map/search"
  printf '#pragma once\n' > "$d/$1/include/tac3map/io/a.hpp"
  printf '#include "tac3map/io/a.hpp"\n' > "$d/$1/src/io/a.cpp"
  printf '#pragma once\n#include "tac3map/io/a.hpp"\n' > "$d/$1/include/tac3map/search/b.hpp"
  printf '#include "tac3map/search/b.hpp"\n' > "$d/$1/src/search/b.cpp"
}
tree clean
"$cmake" -DROOT="$d/clean" -P "$check" || { echo "a clean tree was refused" >&2; exit 1; }
tree upward
printf '#include "tac3map/io/a.hpp"\n#include "tac3map/search/b.hpp"\n' > "$d/upward/src/io/a.cpp"
if "$cmake" -DROOT="$d/upward" -P "$check" > "$d/upward.log" 2>&1; then
  echo "an upward include was accepted" >&2; exit 1
fi
grep -q "src/io/a.cpp: includes tac3map/search/b.hpp" "$d/upward.log" || { cat "$d/upward.log" >&2; exit 1; }
tree loop
printf '#include "q.hpp"\n' > "$d/loop/src/io/p.cpp"
printf '#pragma once\n#include "p.hpp"\n' > "$d/loop/src/io/q.hpp"
printf '#pragma once\n' > "$d/loop/src/io/p.hpp"
printf '#pragma once\n#include "q.hpp"\n' > "$d/loop/src/io/p.hpp"
if "$cmake" -DROOT="$d/loop" -P "$check" > "$d/loop.log" 2>&1; then
  echo "an include loop was accepted" >&2; exit 1
fi
grep -q "io/p -> io/q -> io/p" "$d/loop.log" || { cat "$d/loop.log" >&2; exit 1; }
echo "layers check: clean tree passes, upward include and loop refused"
