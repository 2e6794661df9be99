#!/usr/bin/env bash
# Peak memory and speed of `ccreplay metrics` on a run of more than 20 million
# packet rows (the issue: under 300 MB; report rows per second). Not part of
# CI: it simulates a 16-to-1 incast of 256 MB flows with --packets all
# (4.1 M data packets, about 20.5 M rows at 5 rows per packet: NIC send, switch
# hop, delivery, and the ACK's NIC send and switch hop), then measures
# `ccreplay metrics --verify` with /usr/bin/time -v. It needs about 150 MB of
# disk and a minute on one core.
#
# Usage: scripts/metrics-memory.sh [path/to/ccreplay] [workload spec]
# Environment: KEEP=1 keeps the run folder; LIMIT_MB (default 300) is the
# peak RSS the script fails above.
set -euo pipefail
bin=${1:-./ccreplay}
workload=${2:-incast:n=16,size=256MB}
limit_mb=${LIMIT_MB:-300}
out=$(mktemp -d)
if [ "${KEEP:-0}" = 1 ]; then echo "run folder: $out/run"; else trap 'rm -rf "$out"' EXIT; fi
[ -x /usr/bin/time ] || { echo "needs /usr/bin/time (GNU time) for the peak RSS" >&2; exit 1; }

echo "simulating $workload with --packets all ..."
"$bin" run --workload "$workload" --cca linerate --packets all --out "$out/run" --stats >/dev/null 2>"$out/run.err" ||
  { cat "$out/run.err"; exit 1; }
grep '^stats:' "$out/run.err" | sed 's/^/run /'
rows=$(grep -o '"packet_rows": [0-9]*' "$out/run/summary.json" | grep -o '[0-9]*$')
size=$(stat -c %s "$out/run/packets.parquet")
echo "packets.parquet: $rows rows, $((size / 1000000)) MB"

# One core, as a user's laptop shard would give it; the Go runtime's memory
# limit is left at its default so that the figure is what a user gets.
GOMAXPROCS=1 /usr/bin/time -v "$bin" metrics --verify --stats "$out/run" >"$out/metrics.txt" 2>"$out/time.txt" ||
  { cat "$out/time.txt"; exit 1; }
grep '^stats:' "$out/time.txt" | sed 's/^/metrics /'
rss_kb=$(grep 'Maximum resident set size' "$out/time.txt" | grep -o '[0-9]*$')
wall=$(grep 'Elapsed (wall clock)' "$out/time.txt" | sed 's/.*): //')
rss_mb=$((rss_kb * 1024 / 1000000)) # MB (10^6 bytes)
echo "metrics: $rows packet rows, wall $wall, peak RSS $rss_mb MB (/usr/bin/time -v), verify: $(tail -1 "$out/metrics.txt")"
if [ "$rows" -lt 20000000 ]; then
  echo "FAIL: only $rows packet rows, want >= 20000000" >&2
  exit 1
fi
if [ "$rss_mb" -ge "$limit_mb" ]; then
  echo "FAIL: peak RSS $rss_mb MB >= $limit_mb MB" >&2
  exit 1
fi
echo "OK: peak RSS $rss_mb MB < $limit_mb MB"
