package timely

import (
	"math"
	"testing"

	"github.com/ccreplay/ccreplay/internal/replaytest/star"
	"github.com/ccreplay/ccreplay/metrics"
	"github.com/ccreplay/ccreplay/replay"
	"github.com/ccreplay/ccreplay/units"
)

// The 16-to-1 incast under every preset is cca/conformance's
// TestIncast16To1 (one table for every algorithm).

// gbps is bytes delivered in d as Gb/s.
func gbps(b int64, d units.Time) float64 { return float64(b) * 8 / d.Seconds() / 1e9 }

// longFlows runs 4 long flows joining 2 ms apart under spec and returns
// each flow's goodput over [from, to), in Gb/s, and per 5 ms slot.
func longFlows(t *testing.T, spec string, from, to units.Time) (rates []float64, slots [][]float64, res *replay.Result) {
	t.Helper()
	const slot = 5 * units.Millisecond
	m, res := star.Meter(t, star.Spec(t, spec, nil, Register), star.LongFlows, from, to, slot)
	for f := int32(0); f < 4; f++ {
		rates = append(rates, gbps(m.Bytes[f], to-from))
		var s []float64
		for _, b := range m.Slots[f] {
			s = append(s, math.Round(gbps(b, slot)*100)/100)
		}
		slots = append(slots, s)
		t.Logf("flow %d: %.2f Gb/s; per 5 ms: %v", f, rates[f], s)
	}
	return rates, slots, res
}

// N = 4 long flows under the scaled preset (the one for this fabric) share
// the bottleneck equally, but do not fill it.
//
// TIMELY does not guarantee fairness: in its gradient band any split of
// the capacity with a flat RTT is a fixed point (Zhu et al., "ECN or
// Delay", CoNEXT 2016, section 4), so which split a run reaches depends on
// its history. Here the scaled preset's T_low = 2.5 base RTTs = 10.4 us is
// above most RTT samples: of the updates in [10 ms, 60 ms), 96 % take rule
// (1), +delta per RTT, 2.6 % cut by rule (4) when the queue has grown past
// T_low (all flows by about the same factor, since they share the queue)
// and 0.8 % take rule (3). That is AIMD on a common signal, which
// equalizes the rates (Chiu and Jain); the cuts by beta x gradient
// overshoot, so the link is not full.
//
// Measured over [10 ms, 60 ms) (the last flow joins at 6 ms): 22.29 to
// 22.81 Gb/s per flow (fair share of the 95.42 Gb/s payload capacity:
// 23.85), 90.04 Gb/s in total (94 %), per 5 ms slot 21.0 to 24.4 Gb/s,
// queue at most 351 KB. Asserted: each flow within 5 % of the flows' mean,
// each 5 ms slot within 15 % of it, at least 85 % of the capacity used,
// and the queue below 1 MB.
func TestLongFlowsScaled(t *testing.T) {
	from, to := 10*units.Millisecond, 60*units.Millisecond
	rates, slots, res := longFlows(t, "timely:scaled", from, to)
	capacity := 100 * 1000.0 / 1048
	var total float64
	for _, r := range rates {
		total += r
	}
	mean := total / 4
	for f, r := range rates {
		if math.Abs(r-mean)/mean > 0.05 {
			t.Errorf("flow %d: %.2f Gb/s, more than 5 %% from the mean %.2f", f, r, mean)
		}
		for i, s := range slots[f] {
			if math.Abs(s-mean)/mean > 0.15 {
				t.Errorf("flow %d slot %d: %.2f Gb/s, more than 15 %% from the mean %.2f", f, i, s, mean)
			}
		}
	}
	if total < 0.85*capacity {
		t.Errorf("bottleneck carried %.2f of %.2f Gb/s", total, capacity)
	}
	if q := metrics.Compute(res.Flows, res.Messages, res.Ports, metrics.Options{}).QLenMaxBytes; q > 1_000_000 {
		t.Errorf("queue reached %d B", q)
	}
	t.Logf("total %.2f of %.2f Gb/s; queue max %d B", total, capacity, metrics.Compute(res.Flows, res.Messages, res.Ports, metrics.Options{}).QLenMaxBytes)
}

// The paper's 10 Gb/s settings do not carry over to a 100 Gb/s fabric with
// a 4.18 us base RTT, which is why the scaled preset exists. Normalized by
// a 4.18 us min_rtt, the gradients when a flow joins (up to 0.61) cut by
// up to half per 16 KB segment, and a segment ends every 1.3 us at
// 100 Gb/s: repeated cuts take every flow down to min_rate (100 Mb/s).
// From there +10 Mb/s per 16 KB segment (1.3 ms at 100 Mb/s; HAI adds 5x)
// recovers by tens of Mb/s per millisecond. Measured over [10 ms, 30 ms):
// 0.39 to 0.49 Gb/s per flow, 1.8 Gb/s in total, per 5 ms slot rising from
// 0.2 to 0.8 Gb/s. Asserted: the link is less than a quarter used, so that
// a change in this behaviour is noticed and this comment revisited.
func TestLongFlowsPaperPresetUnderuses100G(t *testing.T) {
	from, to := 10*units.Millisecond, 30*units.Millisecond
	rates, _, _ := longFlows(t, "timely:mittal2015", from, to)
	var total float64
	for _, r := range rates {
		total += r
	}
	if total > 0.25*100*1000/1048 {
		t.Errorf("mittal2015 carried %.2f Gb/s: no longer collapses on this fabric", total)
	}
}
