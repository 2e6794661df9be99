#!/usr/bin/env python3
"""Benchmark input: a WebSearch-like trace in ccreplay's CSV format.

Samples flow sizes from an HPCC-format CDF (`size cdf_percent` lines, linear
interpolation between points, as the HPCC simulator's traffic generator does),
with Poisson arrivals per host at a target load: mean inter-arrival =
1 / (bandwidth x load / (8 x mean size)), destinations uniform among the other
hosts. Until `ccreplay gen cdf` exists this is how the end-to-end benchmark gets
its fat-tree workload.

usage: websearch_trace.py CDF_FILE HOSTS LOAD DURATION_MS [SEED] > trace.csv
"""
import bisect
import random
import sys


def main():
    cdf_path, hosts, load, dur_ms = sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4])
    seed = int(sys.argv[5]) if len(sys.argv) > 5 else 1
    pts = []
    for line in open(cdf_path):
        f = line.split()
        if len(f) >= 2:
            pts.append((float(f[0]), float(f[1]) / 100.0))
    sizes = [p[0] for p in pts]
    probs = [p[1] for p in pts]
    # mean of the piecewise-linear distribution
    mean = sum((probs[i] - probs[i - 1]) * (sizes[i] + sizes[i - 1]) / 2 for i in range(1, len(pts)))
    rng = random.Random(seed)

    def sample():
        u = rng.random()
        i = bisect.bisect_left(probs, u)
        if i == 0:
            return int(sizes[0])
        p0, p1, s0, s1 = probs[i - 1], probs[i], sizes[i - 1], sizes[i]
        return int(s0 + (u - p0) / (p1 - p0) * (s1 - s0)) if p1 > p0 else int(s1)

    bw = 100e9
    mean_gap_ns = 1e9 / (bw * load / (8 * mean))
    end_ns = dur_ms * 1e6
    msgs = []
    for src in range(hosts):
        t = rng.expovariate(1 / mean_gap_ns)
        while t < end_ns:
            dst = rng.randrange(hosts - 1)
            dst += dst >= src
            msgs.append((int(t), src, dst, max(1, sample())))
            t += rng.expovariate(1 / mean_gap_ns)
    msgs.sort()
    print(f"# hosts={hosts}")
    print("id,src,dst,bytes,release_ns,flow_id,collective_id,deps,gap_ns")
    for i, (t, s, d, b) in enumerate(msgs):
        print(f"{i},{s},{d},{b},{t},-1,-1,,0")
    print(f"mean size {mean:.0f} B, {len(msgs)} flows", file=sys.stderr)


if __name__ == "__main__":
    main()
