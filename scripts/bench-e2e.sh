#!/usr/bin/env bash
# End-to-end speed of ccreplay on one core: data packets per second and peak
# memory (maximum resident set size) for the issue's reference scenarios.
# Usage: scripts/bench-e2e.sh [path/to/ccreplay]
set -euo pipefail
bin=${1:-./ccreplay}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
run() {
  local name=$1; shift
  GOMAXPROCS=1 "$bin" run "$@" --out "$out/$name" --stats >/dev/null 2>"$out/$name.err" || { cat "$out/$name.err"; exit 1; }
  printf '%-34s %s\n' "$name" "$(grep '^stats:' "$out/$name.err" | sed 's/^stats: //')"
}
run incast16-1MB-none     --workload incast:n=16,size=1MB --cca dcqcn --packets none
run incast16-1MB-data     --workload incast:n=16,size=1MB --cca dcqcn --packets data
run incast16-10MB-none    --workload incast:n=16,size=10MB --cca linerate --packets none
run incast16-100MB-none   --workload incast:n=16,size=100MB --cca linerate --packets none
run fattree320-incast-none --workload incast:n=64,size=1MB --cca dcqcn --topology hpcc-fattree --packets none
