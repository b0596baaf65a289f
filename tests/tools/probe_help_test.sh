#!/usr/bin/env bash
# tac3map-probe --help prints its use and exits 0 without running the probe (no MPI job, no
# node table); an unknown option is a usage error (2). Usage: probe_help_test.sh PROBE
set -u
probe=$1
out=$("$probe" --help) || { echo "--help exited $?"; exit 1; }
grep -q "Usage: tac3map-probe" <<<"$out" || { echo "no usage line: $out"; exit 1; }
if grep -q "node table: machine coordinates" <<<"$out"; then echo "--help ran the probe"; exit 1; fi
"$probe" --no-such-option >/dev/null 2>&1
code=$?
[ "$code" -eq 2 ] || { echo "--no-such-option exited $code, not 2"; exit 1; }
echo ok
