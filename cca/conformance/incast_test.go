package conformance_test

import (
	"testing"

	"github.com/ccreplay/ccreplay/internal/replaytest/star"
)

// TestIncast16To1 replays a 16-to-1 incast of 1 MB flows on replaytest's
// star (100 Gb/s links, 1 us propagation delay, base RTT 4.18 us, a BDP of
// 52 KB) under each algorithm and preset below, conservation checked every
// 5 us: every flow finishes, none beats its ideal FCT, nothing is
// dropped, and the last flow ends no earlier than the 1.3414 ms the
// receiver's link needs (16 x 1 MB x 1.048 x 8 / 100 Gb/s) and within the
// row's slack of it.
func TestIncast16To1(t *testing.T) {
	bound := star.BoundNs(16, 1_000_000, 100e9)
	r := registry()
	for _, tc := range []struct {
		spec  string
		slack float64
	}{
		// DCTCP, within 5 %. Measured: 1.3435 ms (1.002 x) under both
		// presets. Every flow starts at line rate; with the paper preset
		// (no window) DCTCP cuts at most once per window, and its windows
		// stretch with the queue it builds (the 16 MB burst is queued
		// almost whole, 14.1 MB at most, and no PAUSE was sent), so the
		// incast is over before the cuts matter. hpcc-run's variable
		// window (BDP*R/line) bounds the queue to 16 windows, 787 KB.
		{"dctcp:paper", 1.05}, {"dctcp:hpcc-run", 1.05},
		// HPCC, within 10 %. Measured: the last flow ends at 1.460 ms
		// (paper, 1.088 x the bound) and 1.432 ms (hpcc-repo, 1.067 x):
		// every flow starts at line rate (W_init = BDP), so the first RTT
		// queues about 16 BDP (787 KB measured) which HPCC drains while
		// running at eta = 95 % of the link.
		{"hpcc:paper", 1.10}, {"hpcc:hpcc-repo", 1.10},
		// TIMELY has no window: every flow starts at line rate and the
		// first RTT samples only arrive after megabytes are queued (PFC
		// keeps it lossless). Measured last FCT:
		//
		//	scaled      1.87 ms (1.39 x): one update per RTT with T_low at 10.4 us
		//	hpcc        1.34 ms (1.0016 x): RTTs stay under T_high = 500 us and
		//	            the 20 us min_rtt keeps the cuts mild, so the queue drains
		//	            at line rate
		//	mittal2015 11.25 ms (8.4 x): normalized by a 4.18 us min_rtt, the
		//	            gradients reach 4.8 > 1/beta and cut every flow to
		//	            min_rate (100 Mb/s), from which +10 Mb/s per 16 KB segment
		//	            takes milliseconds to recover
		//
		// Asserted: within 1.5 x for the presets meant for this fabric
		// (scaled, hpcc), 10 x for the 10 Gb/s paper preset.
		{"timely:scaled", 1.5}, {"timely:hpcc", 1.5}, {"timely:mittal2015", 10},
		// Swift keeps the receiver's link busy: within 1 % (measured
		// 1.3435 ms, 1.0016 x). The windows start at one BDP each (50
		// packets), so the first round trip queues 16 x 50 KB = 0.8 MB.
		{"swift", 1.01},
	} {
		t.Run(tc.spec, func(t *testing.T) {
			res := star.RunWorkload(t, star.Build(t, r, tc.spec, nil), "incast:n=16,size=1MB", star.Conserving)
			star.CheckBound(t, res, bound, tc.slack)
		})
	}
}
