#!/usr/bin/env bash
# End-to-end speed of ccreplay on the performance issue's reference cases
# (docs/PERFORMANCE.md): data packets per second, events per data packet,
# events per second, peak memory (maximum resident set size, from
# /usr/bin/time, else --stats)
# and the cost of the per-packet log (wall time with --packets data over
# --packets none).
#
# Usage: scripts/bench-e2e.sh [--full] [--runs N] [--base OLD_BIN] [--no-compare]
#                             [--threads N] [--only CASE] [BIN]
#
#   BIN          the ccreplay binary to measure (default ./ccreplay)
#   --full       the issue's full scale (fat-tree 5 ms of arrivals, a 1 KiB
#                all-to-all over 1,024 hosts; several minutes); the default
#                scale runs in about a minute on 2 cores
#   --runs N     runs per case and binary; the figures are medians (default 1)
#   --base OLD   also run OLD, alternating with BIN run by run (A/B
#                interleaved, so that both see the same machine load), print
#                OLD's median wall time over BIN's, and fail unless both
#                wrote byte-identical output files
#   --no-compare with --base: do not compare the outputs (an OLD from before
#                a change of the outputs, e.g. the event order of issue 20)
#   --threads N  pass --threads N to BIN (not to OLD, which may predate it);
#                default: BIN's own (every core)
#   --only CASE  run only the cases whose name contains CASE
#   --packets L  only this --packets level (none or data; default both,
#                and the Parquet cost line)
#
# Environment: GOMAXPROCS is passed through (unset: every core; the
# simulation runs on --threads goroutines, --packets data encodes on
# another and keeps the run on one).
set -euo pipefail

full=0 runs=1 base="" only="" levels="none data" compare=1 threads=()
while [ $# -gt 0 ]; do
  case $1 in
    --full) full=1 ;;
    --runs) runs=$2; shift ;;
    --base) base=$2; shift ;;
    --no-compare) compare=0 ;;
    --threads) threads=(--threads "$2"); shift ;;
    --only) only=$2; shift ;;
    --packets) levels=$2; shift ;;
    -h|--help) sed -n '2,31p' "$0"; exit 0 ;;
    -*) echo "bench-e2e: unknown option $1" >&2; exit 2 ;;
    *) break ;;
  esac
  shift
done
bin=${1:-./ccreplay}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# The cases: name, then the run flags. The fat-tree and star cases draw
# WebSearch flow sizes with the built-in cdf generator (Poisson arrivals
# per host at 30 % of the 100 Gb/s host links).
if [ "$full" = 1 ]; then
  ft320="cdf:dist=websearch,hosts=320,bw=100G,load=0.3,duration=5ms"
  osu="osu-alltoall:nodes=1024,ppn=1,sizes=1KiB,warmup=0,iters=1"
else
  ft320="cdf:dist=websearch,hosts=320,bw=100G,load=0.3,duration=1ms"
  osu="osu-alltoall:nodes=1024,ppn=1,sizes=256,warmup=0,iters=1,algo=pairwise"
fi
cases=(
  "fattree320-websearch30|--workload $ft320 --topology hpcc-fattree --cca dcqcn"
  "star16-websearch30-20ms|--workload cdf:dist=websearch,hosts=16,bw=100G,load=0.3,duration=20ms --cca dcqcn"
  "incast16-1MB|--workload incast:n=16,size=1MB --cca dcqcn"
  "fattree1024-osu-alltoall|--workload $osu --topology dolce-fattree --cca dcqcn"
)

# one BIN DIR PACKETS FLAGS...: one run; prints "wall pkts events rss_mib":
# whole-process wall time (workload generation and output files included)
# and peak RSS as /usr/bin/time reports them (--stats' own figure without it).
one() {
  local b=$1 dir=$2 level=$3; shift 3
  local timer=()
  [ -x /usr/bin/time ] && timer=(/usr/bin/time -f 'time: %e %M' -o "$dir.time")
  rm -rf "$dir" "$dir.time"
  local t0 t1
  t0=$(date +%s%N)
  "${timer[@]}" "$b" run "$@" --packets "$level" --out "$dir" --stats >/dev/null 2>"$dir.err" || { cat "$dir.err" >&2; exit 1; }
  t1=$(date +%s%N)
  local rss
  if [ -f "$dir.time" ]; then
    rss=$(awk '/^time:/ {printf "%.1f", $3/1024}' "$dir.time")
  else
    rss=$(sed -n 's/^stats: .*peak RSS \([0-9.]*\) \([KMG]i\)B.*/\1 \2/p' "$dir.err" |
      awk '{m=$1; if ($2=="Ki") m/=1024; if ($2=="Gi") m*=1024; printf "%.1f", m}')
  fi
  sed -n 's/^stats: wall [0-9.]* s, \([0-9]*\) data packets, .* \([0-9]*\) events, .*/\1 \2/p' "$dir.err" |
    awk -v t0="$t0" -v t1="$t1" -v r="$rss" '{printf "%.3f %s %s %s\n", (t1-t0)/1e9, $1, $2, r}'
}

median() { sort -g | awk '{a[NR]=$1} END {if (NR%2) print a[(NR+1)/2]; else printf "%.3f\n", (a[NR/2]+a[NR/2+1])/2}'; }

# hashes DIR: one line per output file, its name and SHA-256.
hashes() { (cd "$1" && sha256sum -- *.parquet summary.json | awk '{print $2, $1}'); }

printf '%-26s %-5s %9s %11s %11s %10s %12s %9s' case pkts wall_s data_pkts pkts/s events/pkt events/s rss_MiB
[ -n "$base" ] && printf ' %9s %7s %9s' base_wall speedup base_rss
printf '\n'
status=0
for c in "${cases[@]}"; do
  name=${c%%|*} flags=${c#*|}
  [ -n "$only" ] && [[ $name != *"$only"* ]] && continue
  declare -A wall=()
  for level in $levels; do
    : >"$out/new.w" ; : >"$out/base.w"; : >"$out/new.r"; : >"$out/base.r"
    for ((i = 0; i < runs; i++)); do
      # shellcheck disable=SC2086
      read -r w p e r < <(one "$bin" "$out/new" "$level" $flags "${threads[@]}")
      [ -n "${w:-}" ] || { echo "bench-e2e: $name: $bin failed" >&2; exit 1; }
      echo "$w" >>"$out/new.w"; echo "$r" >>"$out/new.r"
      if [ -n "$base" ]; then
        # shellcheck disable=SC2086
        read -r bw _ _ br < <(one "$base" "$out/base" "$level" $flags)
        [ -n "${bw:-}" ] || { echo "bench-e2e: $name: $base failed" >&2; exit 1; }
        echo "$bw" >>"$out/base.w"; echo "$br" >>"$out/base.r"
        if [ "$compare" = 1 ] && ! diff <(hashes "$out/base") <(hashes "$out/new") >"$out/diff"; then
          echo "bench-e2e: $name --packets $level: outputs differ from $base:" >&2
          cat "$out/diff" >&2
          status=1
        fi
      fi
    done
    mw=$(median <"$out/new.w") mr=$(median <"$out/new.r")
    wall[$level]=$mw
    awk -v n="$name" -v l="$level" -v w="$mw" -v p="$p" -v e="$e" -v r="$mr" \
      'BEGIN {printf "%-26s %-5s %9.3f %11d %11.0f %10.2f %12.0f %9.1f", n, l, w, p, p/w, e/p, e/w, r}'
    if [ -n "$base" ]; then
      bw=$(median <"$out/base.w") br=$(median <"$out/base.r")
      awk -v b="$bw" -v w="$mw" -v r="$br" 'BEGIN {printf " %9.3f %6.2fx %9.1f", b, b/w, r}'
    fi
    printf '\n'
  done
  [ -n "${wall[data]:-}" ] && [ -n "${wall[none]:-}" ] && awk -v n="$name" -v d="${wall[data]}" -v z="${wall[none]}" 'BEGIN {printf "%-26s parquet cost (--packets data / none): %.2fx\n", n, d/z}'
  unset wall
done
exit $status
