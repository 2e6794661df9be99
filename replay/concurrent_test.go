package replay

import (
	"testing"

	"github.com/ccreplay/ccreplay/internal/replaytest"

	"github.com/ccreplay/ccreplay/metrics"
	"github.com/ccreplay/ccreplay/trace"
	"github.com/ccreplay/ccreplay/units"
)

// checkConcurrentBytes: no flow delivers more inside the window than its
// size, nor the flows together more than the receiver's link carries in it.
func checkConcurrentBytes(t *testing.T, res *Result, rate units.BitsPerSec) {
	t.Helper()
	var sum int64
	for _, f := range res.Flows {
		if f.ConcurrentBytes < 0 || f.ConcurrentBytes > f.SizeBytes {
			t.Errorf("flow %d: concurrent_bytes %d outside [0, size %d]", f.FlowID, f.ConcurrentBytes, f.SizeBytes)
		}
		sum += f.ConcurrentBytes
	}
	if w := metrics.Compute(res.Flows, res.Messages, res.Ports, metrics.Options{}).ConcurrentWindowNs; float64(sum)*8 > float64(rate)*float64(w+1)/1e9 {
		t.Errorf("flows delivered %d B in a %d ns window, more than %v carries", sum, w, rate)
	}
}

// FDCC thesis (Zhang 2023), Sec. 5.4: the unfair ratio is measured "during
// an incast event". Four equal 2 MB flows into one host, released within
// 200 us (Gaussian, as the thesis' 1 ms start), each capped at one BDP in
// flight at line rate: the windows are equal, so the share while all four
// are active is fair (unfair_ratio_concurrent near 0), while the lifetime
// unfair ratio shows the release jitter.
func TestConcurrentFairnessJitteredIncast(t *testing.T) {
	tr := replaytest.Workload(t, "incast:n=4,size=2MB,jitter=200us,dist=gaussian", 7)
	cfg := baseConfig(t, replaytest.Topology(t, "", tr.Hosts), "linerate")
	cfg.NIC.WindowBDP = true
	res := mustRun(t, cfg, tr, "")
	allFinished(t, res)
	s := metrics.Compute(res.Flows, res.Messages, res.Ports, metrics.Options{})
	if s.ConcurrentWindowNs < metrics.MinConcurrentWindowNs {
		t.Fatalf("no concurrency window: start %d, length %d", s.ConcurrentWindowStartNs, s.ConcurrentWindowNs)
	}
	var lastStart, firstFinish int64 = 0, s.SimDurationNs
	for _, f := range res.Flows {
		lastStart, firstFinish = max(lastStart, f.StartNs), min(firstFinish, f.FinishNs)
	}
	if s.ConcurrentWindowStartNs != lastStart || s.ConcurrentWindowNs != firstFinish-lastStart {
		t.Errorf("window [%d, +%d], want [last start %d, first finish %d]", s.ConcurrentWindowStartNs, s.ConcurrentWindowNs, lastStart, firstFinish)
	}
	checkConcurrentBytes(t, res, 100*units.Gbps)
	t.Logf("window %d ns from %d ns; unfair ratio concurrent %.5f, lifetime %.5f; Jain concurrent %.6f",
		s.ConcurrentWindowNs, s.ConcurrentWindowStartNs, s.UnfairRatioConcurrent, s.UnfairRatio, s.JainIndexConcurrent)
	if s.UnfairRatioConcurrent > 0.01 {
		t.Errorf("unfair_ratio_concurrent %.5f, want near 0 (a fair share)", s.UnfairRatioConcurrent)
	}
	if s.UnfairRatio < 5*s.UnfairRatioConcurrent || s.UnfairRatio < 0.02 {
		t.Errorf("lifetime unfair_ratio %.5f, want clearly above the concurrent %.5f", s.UnfairRatio, s.UnfairRatioConcurrent)
	}
}

// A flow whose first message waits for another flow's message (a trace
// with dependencies): its start is not known up front, and the window opens
// when it starts, the last of the run's flows to do so.
func TestConcurrentWindowOpensOnDependentStart(t *testing.T) {
	tr := &trace.Trace{Hosts: 3, Messages: []trace.Message{
		{ID: 0, Src: 0, Dst: 2, Bytes: 100_000, FlowID: 0, CollectiveID: -1},
		{ID: 1, Src: 1, Dst: 2, Bytes: 1_000_000, FlowID: 1, CollectiveID: -1, Deps: []int64{0}},
		{ID: 2, Src: 0, Dst: 2, Bytes: 1_000_000, FlowID: 0, CollectiveID: -1},
	}}
	res := mustRun(t, baseConfig(t, replaytest.Topology(t, "", tr.Hosts), "dcqcn"), tr, "")
	allFinished(t, res)
	s := metrics.Compute(res.Flows, res.Messages, res.Ports, metrics.Options{})
	if want := res.Messages[1].ReleaseNs; s.ConcurrentWindowStartNs != want || want <= 0 || want != res.Flows[1].StartNs {
		t.Errorf("window starts at %d ns, want the dependent flow's start %d ns", s.ConcurrentWindowStartNs, want)
	}
	if s.ConcurrentWindowNs < metrics.MinConcurrentWindowNs {
		t.Fatalf("window of %d ns", s.ConcurrentWindowNs)
	}
	for _, f := range res.Flows {
		if f.ConcurrentBytes <= 0 {
			t.Errorf("flow %d delivered nothing in the window", f.FlowID)
		}
	}
	checkConcurrentBytes(t, res, 100*units.Gbps)

	// Released only when flow 0 is done: the window is empty.
	tr.Messages[1].Deps = []int64{2}
	res = mustRun(t, baseConfig(t, replaytest.Topology(t, "", tr.Hosts), "dcqcn"), tr, "")
	allFinished(t, res)
	if s := metrics.Compute(res.Flows, res.Messages, res.Ports, metrics.Options{}); s.ConcurrentWindowNs != 0 || s.UnfairRatioConcurrent != 0 || s.JainIndexConcurrent != 0 {
		t.Errorf("sequential flows: window %d ns, unfair %v, Jain %v; want 0", s.ConcurrentWindowNs, s.UnfairRatioConcurrent, s.JainIndexConcurrent)
	}
	for _, f := range res.Flows {
		if f.ConcurrentBytes != 0 {
			t.Errorf("sequential flows: flow %d concurrent_bytes %d, want 0", f.FlowID, f.ConcurrentBytes)
		}
	}
}

// A run stopped before any flow finishes: the window ends with the run.
func TestConcurrentWindowEndsWithRun(t *testing.T) {
	tr := replaytest.Workload(t, "incast:n=3,size=5MB", 1)
	cfg := baseConfig(t, replaytest.Topology(t, "", tr.Hosts), "dcqcn")
	cfg.MaxTime = 200 * units.Microsecond
	res := mustRun(t, cfg, tr, "")
	s := metrics.Compute(res.Flows, res.Messages, res.Ports, metrics.Options{})
	if s.FlowsFinished != 0 {
		t.Fatalf("%d flows finished in 200 us", s.FlowsFinished)
	}
	if s.ConcurrentWindowStartNs != 0 || s.ConcurrentWindowNs != s.SimDurationNs || s.JainIndexConcurrent <= 0 {
		t.Errorf("window [%d, +%d], want [0, +%d]; Jain %v", s.ConcurrentWindowStartNs, s.ConcurrentWindowNs, s.SimDurationNs, s.JainIndexConcurrent)
	}
	checkConcurrentBytes(t, res, 100*units.Gbps)
}
