package metrics

import (
	"testing"

	v2 "github.com/ccreplay/ccreplay/schema/v2"
)

// jitteredIncast is a hand-built 4-to-1 incast of 10 MB flows released
// 0, 0.2, 0.4 and 1 ms apart (FDCC thesis, Sec. 5.3: starts "following a
// Gaussian distribution with an interval of 1 millisecond"). Every flow
// gets 20 Gb/s while all four are active, the window [1 ms, 3 ms]: 5 MB
// each in it. Their lifetimes differ, so their lifetime goodputs do.
func jitteredIncast() []v2.FlowRow {
	const size = 10_000_000
	rows := []v2.FlowRow{
		{FlowID: 0, StartNs: 0, FinishNs: 3_000_000},
		{FlowID: 1, StartNs: 200_000, FinishNs: 3_500_000},
		{FlowID: 2, StartNs: 400_000, FinishNs: 3_800_000},
		{FlowID: 3, StartNs: 1_000_000, FinishNs: 4_000_000},
	}
	for i := range rows {
		r := &rows[i]
		r.SizeBytes, r.ConcurrentBytes = size, 5_000_000
		r.FCTNs = r.FinishNs - r.StartNs
	}
	return rows
}

// FDCC thesis (Zhang 2023), Sec. 5.4, "Test Metrics": the unfair ratio is
// "the deviation of the normalized bandwidth of each flow during an incast
// event (i.e. (BW_max - BW_avg)/BW_avg)". Over the concurrency window a
// fair share gives 0 whatever the release jitter; over the lifetimes it
// does not.
func TestConcurrentFairnessFairShare(t *testing.T) {
	s := Compute(jitteredIncast(), nil, nil, Options{})
	if s.ConcurrentWindowStartNs != 1_000_000 || s.ConcurrentWindowNs != 2_000_000 {
		t.Fatalf("window [%d, +%d], want [1000000, +2000000]", s.ConcurrentWindowStartNs, s.ConcurrentWindowNs)
	}
	if s.UnfairRatioConcurrent != 0 || s.JainIndexConcurrent != 1 || s.MinMaxRateRatioConcurrent != 1 {
		t.Errorf("fair share during the incast: unfair %v, Jain %v, min/max %v; want 0, 1, 1",
			s.UnfairRatioConcurrent, s.JainIndexConcurrent, s.MinMaxRateRatioConcurrent)
	}
	// Lifetime goodputs 80 Mb over 3, 3.3, 3.4 and 3 ms: the fastest
	// 26.667 Gb/s, the mean 25.276 Gb/s, unfair 0.055.
	if s.UnfairRatio < 0.05 {
		t.Errorf("lifetime unfair ratio %v, want the jitter to show (> 0.05)", s.UnfairRatio)
	}
}

// An unequal share inside the window, computed by hand.
func TestConcurrentFairnessUnequal(t *testing.T) {
	flows := jitteredIncast()
	flows[3].ConcurrentBytes = 7_500_000
	s := Compute(flows, nil, nil, Options{})
	// x = 5 MB*8/2 ms = 20 Gb/s (three flows) and 7.5 MB*8/2 ms = 30 Gb/s.
	// FDCC thesis: (BW_max - BW_avg)/BW_avg = (30 - 22.5)/22.5 = 1/3.
	// Jain: (Σx)^2/(n Σx^2) = 90^2/(4*2100) = 8100/8400. PCC-RL: 20/30.
	for _, c := range []struct {
		name      string
		got, want float64
	}{
		{"unfair_ratio_concurrent", s.UnfairRatioConcurrent, 1.0 / 3},
		{"jain_index_concurrent", s.JainIndexConcurrent, 8100.0 / 8400},
		{"min_max_rate_ratio_concurrent", s.MinMaxRateRatioConcurrent, 2.0 / 3},
	} {
		if !closeTo(c.got, c.want) {
			t.Errorf("%s = %v, want %v", c.name, c.got, c.want)
		}
	}
}

// Runs without a usable window report window 0 and the three metrics 0.
func TestConcurrentFairnessNoWindow(t *testing.T) {
	for _, c := range []struct {
		name string
		edit func([]v2.FlowRow)
		dur  int64 // sim_duration_ns of a port row, 0: no ports
	}{
		{"a flow finishes before the last starts", func(f []v2.FlowRow) { f[0].FinishNs, f[0].FCTNs = 900_000, 900_000 }, 0},
		{"shorter than MinConcurrentWindowNs", func(f []v2.FlowRow) {
			f[0].FinishNs = f[3].StartNs + MinConcurrentWindowNs - 1
			f[0].FCTNs = f[0].FinishNs
		}, 0},
		{"a flow never started", func(f []v2.FlowRow) { f[2].StartNs, f[2].FinishNs, f[2].FCTNs = -1, -1, -1 }, 5_000_000},
		{"schema v1 rows (concurrent_bytes unknown)", func(f []v2.FlowRow) {
			for i := range f {
				f[i].ConcurrentBytes = -1
			}
		}, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			flows := jitteredIncast()
			c.edit(flows)
			var ports []v2.PortRow
			if c.dur > 0 {
				ports = []v2.PortRow{{SimDurationNs: c.dur}}
			}
			s := Compute(flows, nil, ports, Options{})
			if s.ConcurrentWindowStartNs != 0 || s.ConcurrentWindowNs != 0 || s.UnfairRatioConcurrent != 0 ||
				s.JainIndexConcurrent != 0 || s.MinMaxRateRatioConcurrent != 0 {
				t.Errorf("want window and metrics 0, got %d +%d, %v %v %v", s.ConcurrentWindowStartNs, s.ConcurrentWindowNs,
					s.UnfairRatioConcurrent, s.JainIndexConcurrent, s.MinMaxRateRatioConcurrent)
			}
		})
	}
	// Exactly the minimum is long enough.
	flows := jitteredIncast()
	flows[0].FinishNs = flows[3].StartNs + MinConcurrentWindowNs
	if s := Compute(flows, nil, nil, Options{}); s.ConcurrentWindowNs != MinConcurrentWindowNs {
		t.Errorf("window of exactly %d ns: got %d", MinConcurrentWindowNs, s.ConcurrentWindowNs)
	}
}

// No flow finished (a run stopped by --max-time): the window ends with the
// run, sim_duration_ns.
func TestConcurrentFairnessUnfinished(t *testing.T) {
	flows := jitteredIncast()
	for i := range flows {
		flows[i].FinishNs, flows[i].FCTNs = -1, -1
		flows[i].ConcurrentBytes = int64(1_000_000 * (i + 1))
	}
	s := Compute(flows, nil, []v2.PortRow{{SimDurationNs: 2_000_000}}, Options{})
	if s.ConcurrentWindowStartNs != 1_000_000 || s.ConcurrentWindowNs != 1_000_000 {
		t.Fatalf("window [%d, +%d], want [1000000, +1000000]", s.ConcurrentWindowStartNs, s.ConcurrentWindowNs)
	}
	// x = 8, 16, 24, 32 Gb/s: mean 20, (32-20)/20 = 0.6; lifetime metrics 0.
	if !closeTo(s.UnfairRatioConcurrent, 0.6) || !closeTo(s.MinMaxRateRatioConcurrent, 0.25) || s.UnfairRatio != 0 {
		t.Errorf("unfair %v (want 0.6), min/max %v (want 0.25), lifetime unfair %v (want 0)",
			s.UnfairRatioConcurrent, s.MinMaxRateRatioConcurrent, s.UnfairRatio)
	}
}
