#!/usr/bin/env bash
# The viz pictures as a browser shows them (headless chromium, docs/viz.md): the CG-64 example
# on fx10 (every link, one panel per CCS, two mappings side by side), 1,152 nodes of the K
# computer (auto: each node coloured by its busiest link; forced: the summary) and a
# fat-tree, inlined in one HTML page whose script measures every <text>
# (getBoundingClientRect) and checks that no two overlap and that all lie within their
# picture, writing its verdict into the page. One chromium run (its start-up is most of the
# test's time) (a) takes a screenshot, which must be a PNG with something drawn on it, and
# (b) dumps the page, the verdict read back from it.
# Also `viz -o x.png` (rsvg-convert) writes a PNG. Fails, never skips, when chromium or
# rsvg-convert is missing (scripts/install-deps.sh --browser installs them); a developer
# without them may set TAC3MAP_SKIP_BROWSER_TESTS=1 to skip (exit 77).
# Usage: viz_browser_test.sh TAC3MAP SOURCE_DIR
set -euo pipefail
tac3map=$1 source=$2
if [ "${TAC3MAP_SKIP_BROWSER_TESTS:-0}" = 1 ]; then
  echo "skipped: TAC3MAP_SKIP_BROWSER_TESTS=1"
  exit 77
fi
chromium=${TAC3MAP_CHROMIUM:-}
if [ -z "$chromium" ]; then
  for candidate in chromium chromium-browser google-chrome; do
    if command -v "$candidate" >/dev/null; then
      chromium=$(command -v "$candidate")
      break
    fi
  done
fi
if [ -z "$chromium" ]; then
  echo "FAIL: chromium not found (install it: scripts/install-deps.sh --browser)" >&2
  exit 1
fi
command -v rsvg-convert >/dev/null ||
  { echo "FAIL: rsvg-convert not found (scripts/install-deps.sh --browser)" >&2; exit 1; }
work=$(mktemp -d)
trap '[ -n "${KEEP:-}" ] && echo "kept $work" || rm -rf "$work"' EXIT
browser() {  # chromium, headless, as root too; its chatter goes to a log shown on failure
  "$chromium" --headless --no-sandbox --disable-gpu --disable-dev-shm-usage --no-first-run \
    --hide-scrollbars --user-data-dir="$work/profile" "$@" 2>>"$work/chromium.log"
}

cd "$source"
fx10="--machine topologies/fx10.json --shape 2x2x2x2x3x2 --trace examples/cg64-sendrecv.trace"
k="--machine topologies/k-computer.json --shape 4x4x6x2x3x2 --trace $work/s1152.trace"
"$tac3map" gen stencil --dims 12x12x8 --points 7 -o "$work/s1152.trace"
"$tac3map" topology fat-tree --k 4 --levels 2 -o "$work/ft.json" >/dev/null
"$tac3map" gen cg --ranks 16 -o "$work/cg16.trace"
pictures=(cg64 k1152 k1152-summary fat-tree)
# shellcheck disable=SC2086
{
  "$tac3map" viz $fx10 tofu-default --compare identity -o "$work/cg64.svg"
  "$tac3map" viz $k identity -o "$work/k1152.svg"
  "$tac3map" viz $k identity --detail summary -o "$work/k1152-summary.svg"
  "$tac3map" viz --machine "$work/ft.json" --trace "$work/cg16.trace" identity \
    --compare random:3 -o "$work/fat-tree.svg"
  "$tac3map" viz $fx10 identity -o "$work/cg64.png"
} >/dev/null
png_ok() {  # a PNG file of at least $2 bytes
  [ "$(head -c 8 "$1" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] &&
    [ "$(wc -c <"$1")" -ge "$2" ]
}
png_ok "$work/cg64.png" 10000 || { echo "FAIL: viz -o cg64.png wrote no PNG" >&2; exit 1; }

# Every picture in one page, each <svg> inline; the script measures their texts.
{
  echo '<!DOCTYPE html><html><head><meta charset="utf-8"><title>viz check</title></head><body>'
  for name in "${pictures[@]}"; do
    echo "<div data-picture=\"$name\">"
    grep -v '^<?xml' "$work/$name.svg"
    echo '</div>'
  done
  cat <<'EOF'
<pre id="verdict">NOT RUN</pre>
<script>
const problems = [];
let count = 0;
const tolerance = 0.5;  // px: boxes touching within half a pixel do not overlap
for (const div of document.querySelectorAll('div[data-picture]')) {
  const name = div.dataset.picture;
  const svg = div.querySelector('svg');
  const frame = svg.getBoundingClientRect();
  const view = svg.viewBox.baseVal;
  if (Math.abs(frame.width - view.width) > 1 || Math.abs(frame.height - view.height) > 1)
    problems.push(`${name}: drawn ${frame.width}x${frame.height}, viewBox ${view.width}x${view.height}`);
  const boxes = [];
  for (const text of svg.querySelectorAll('text')) {
    const label = text.textContent;
    if (!label.trim()) continue;
    const box = text.getBoundingClientRect();
    if (box.width <= 0 || box.height <= 0) { problems.push(`${name}: '${label}' has no size`); continue; }
    ++count;
    if (box.left < frame.left - tolerance || box.top < frame.top - tolerance ||
        box.right > frame.right + tolerance || box.bottom > frame.bottom + tolerance)
      problems.push(`${name}: '${label}' leaves the picture (${box.left - frame.left},${box.top - frame.top} ` +
                    `${box.width}x${box.height} in ${frame.width}x${frame.height})`);
    boxes.push({box, label});
  }
  // Sweep from left to right: only boxes that start before one ends can overlap it.
  boxes.sort((a, b) => a.box.left - b.box.left);
  for (let i = 0; i < boxes.length; ++i) {
    const a = boxes[i].box;
    for (let j = i + 1; j < boxes.length && boxes[j].box.left < a.right - tolerance; ++j) {
      const b = boxes[j].box;
      if (Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > tolerance)
        problems.push(`${name}: '${boxes[i].label}' overlaps '${boxes[j].label}' at ` +
                      `${a.left - frame.left},${a.top - frame.top}`);
    }
  }
}
document.getElementById('verdict').textContent = problems.length === 0
    ? `PASS ${count} texts` : `FAIL ${problems.length} problems: ${problems.slice(0, 20).join('; ')}`;
</script></body></html>
EOF
} >"$work/page.html"
browser --screenshot="$work/shot.png" --window-size=1300,1000 --dump-dom "file://$work/page.html" \
  >"$work/dom.html"
# (a) The screenshot (the page's top: the CG-64 picture): a PNG, and not a blank page (a white
# 1300x1000 page compresses to a few kB; the picture's text and colours take far more).
if ! png_ok "$work/shot.png" 20000; then
  echo "FAIL: the screenshot is missing, not a PNG or blank" >&2
  tail -20 "$work/chromium.log" >&2
  exit 1
fi
# (b) The verdict on the texts.
verdict=$(sed -n 's/.*<pre id="verdict">\([^<]*\)<\/pre>.*/\1/p' "$work/dom.html")
echo "texts in ${pictures[*]}: ${verdict:-no verdict}"
case "$verdict" in
  PASS*) ;;
  *)
    echo "FAIL: the page gave no PASS verdict" >&2
    [ -n "$verdict" ] || tail -20 "$work/chromium.log" >&2
    exit 1
    ;;
esac
