#!/usr/bin/env bash
# Runs every fuzz target of the module (found by name, so a new target is
# never left out) for FUZZTIME each (default 20s). Usage: scripts/fuzz.sh [FUZZTIME]
set -euo pipefail
cd "$(dirname "$0")/.."
fuzztime=${1:-${FUZZTIME:-20s}}
targets=$(grep -rl --include='*_test.go' -E '^func Fuzz[A-Za-z0-9_]*\(' . | grep -v '^./tests/' | sort)
n=0
for f in $targets; do
  pkg=./$(dirname "${f#./}")
  for fn in $(grep -oE '^func Fuzz[A-Za-z0-9_]*' "$f" | sed 's/^func //'); do
    echo "== $pkg $fn ($fuzztime)"
    go test "$pkg" -run '^$' -fuzz "^${fn}\$" -fuzztime "$fuzztime" -fuzzminimizetime 100x
    n=$((n + 1))
  done
done
echo "fuzz: $n targets, $fuzztime each"
