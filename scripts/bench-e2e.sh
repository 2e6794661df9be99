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
# The HPCC paper's 320-host fat-tree under WebSearch at 30 % load (5 ms of
# arrivals), when the shared CDF and python3 are available.
cdf="$(dirname "$0")/../../shared/data/cdf/hpcc/WebSearch_distribution.txt"
if [ -f "$cdf" ] && command -v python3 >/dev/null; then
  python3 "$(dirname "$0")/websearch_trace.py" "$cdf" 320 0.3 5 > "$out/ws320.csv" 2>/dev/null
  run fattree320-websearch30-none --trace "$out/ws320.csv" --cca dcqcn --topology hpcc-fattree --packets none
else
  echo "fattree320-websearch30: skipped (needs ../shared/data and python3)"
fi
