#!/usr/bin/env bash
# docs/cli.md's option lists are the command's own --help texts, so that they cannot drift:
# this script replaces every block between
#   <!-- help: tac3map SUBCOMMAND... -->  and  <!-- end help -->
# with the current `tac3map SUBCOMMAND... --help`, and fails when a (sub)command has no block.
#   scripts/update-cli-doc.sh [TAC3MAP]          rewrite docs/cli.md in place
#   scripts/update-cli-doc.sh --check [TAC3MAP]  only compare (ctest cli.doc_is_current); exit 1
#                                                and a diff when docs/cli.md is out of date
# TAC3MAP defaults to build/tac3map.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
check=0
if [ "${1:-}" = "--check" ]; then check=1; shift; fi
tac3map=${1:-$root/build/tac3map}
doc=$root/docs/cli.md

# Every command path, depth first, from the "Subcommands:" sections of the help texts.
commands() {
  local path=$1
  echo "$path"
  # shellcheck disable=SC2086
  "$tac3map" $path --help | awk '/^Subcommands:/ {s = 1; next} s && /^  [a-z]/ {print $1}' |
    while read -r sub; do commands "$path $sub"; done
}

tmp=$(mktemp "$doc.tmp.XXXXXX")
trap 'rm -f "$tmp"' EXIT
missing=0
while read -r path; do
  if ! grep -qxF "<!-- help: tac3map${path:+ $path} -->" "$doc"; then
    echo "docs/cli.md: no section for 'tac3map${path:+ $path}' (add <!-- help: tac3map${path:+ $path} --> ... <!-- end help -->)" >&2
    missing=1
  fi
done < <(commands "")

# Rewrite each block: the marker line, a fenced block with the help, the end marker.
awk -v tac3map="$tac3map" '
  /^<!-- help: tac3map.* -->$/ {
    print
    command = $0
    sub(/ -->$/, "", command)
    sub(/^<!-- help: tac3map ?/, "", command)
    print "```text"
    help = tac3map " " command " --help"
    while ((help | getline line) > 0) print line
    close(help)
    print "```"
    skipping = 1
    next
  }
  /^<!-- end help -->$/ { skipping = 0 }
  !skipping { print }
' "$doc" > "$tmp"

if [ "$check" = 1 ]; then
  if ! diff -u "$doc" "$tmp"; then
    echo "docs/cli.md is out of date: run scripts/update-cli-doc.sh" >&2
    exit 1
  fi
  exit "$missing"
fi
mv "$tmp" "$doc"
trap - EXIT
exit "$missing"
