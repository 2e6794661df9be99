package metrics

import (
	"math"
	"testing"

	v2 "github.com/ccreplay/ccreplay/schema/v2"
)

// The FDCC thesis' metrics (Zhang 2023, Sec. 5.4, Table 6.1, Table 6.2 and
// Fig. 6.3), on hand-computed rows.

// FCTSD = FCT / standalone FCT over the finished flows, with the
// receiver-side fct_ns (Sec. 5.4, "FCT slow down").
func TestSlowdownStandalone(t *testing.T) {
	flows := []v2.FlowRow{
		{FlowID: 0, StartNs: 0, FinishNs: 1000, FCTNs: 1000, StandaloneNs: 500},  // 2
		{FlowID: 1, StartNs: 0, FinishNs: 3000, FCTNs: 3000, StandaloneNs: 1000}, // 3
		{FlowID: 2, StartNs: 0, FinishNs: 800, FCTNs: 800, StandaloneNs: 1000},   // 0.8
		{FlowID: 3, StartNs: 0, FinishNs: -1, FCTNs: -1, StandaloneNs: 1000},     // unfinished: out
		{FlowID: 4, StartNs: 0, FinishNs: 900, FCTNs: 900, StandaloneNs: 0},      // no standalone FCT: out
	}
	s := Compute(flows, nil, nil, Options{})
	// Sorted 0.8, 2, 3: p50 is index ceil(0.5*3)-1 = 1, p99 index 2.
	if want := (2 + 3 + 0.8) / 3; math.Abs(s.SlowdownStandaloneMean-want) > 1e-15 {
		t.Errorf("slowdown_standalone_mean = %v, want %v", s.SlowdownStandaloneMean, want)
	}
	if s.SlowdownStandaloneP50 != 2 || s.SlowdownStandaloneP99 != 3 {
		t.Errorf("slowdown_standalone_p50, _p99 = %v, %v, want 2, 3", s.SlowdownStandaloneP50, s.SlowdownStandaloneP99)
	}
}

// Goodput normalized to the receiver's link rate (Table 6.1, Table 6.2,
// "Goodput"): n-to-1 runs only.
func TestGoodputNorm(t *testing.T) {
	// 2-to-1 to host 4: (1000 + 2000) B * 8 = 24000 b over [0, 3000] ns
	// = 8 Gb/s; the receiver's NIC runs at 10 Gb/s: 0.8.
	flows := func() []v2.FlowRow {
		return []v2.FlowRow{
			{FlowID: 0, Src: 0, Dst: 4, SizeBytes: 1000, StartNs: 0, FinishNs: 2000, FCTNs: 2000},
			{FlowID: 1, Src: 1, Dst: 4, SizeBytes: 2000, StartNs: 500, FinishNs: 3000, FCTNs: 2500},
		}
	}
	ports := []v2.PortRow{
		{Node: 0, RateBps: 100e9},
		{Node: 4, RateBps: 10e9},
		// the switch port towards host 4 (node 5 is the switch) is not the receiver's NIC
		{Node: 5, Port: 4, IsSwitch: true, PeerNode: 4, RateBps: 40e9},
	}
	s := Compute(flows(), nil, ports, Options{})
	if s.GoodputBps != 8e9 || s.GoodputNorm != 0.8 {
		t.Errorf("goodput_bps %v, goodput_norm %v, want 8e9 and 0.8", s.GoodputBps, s.GoodputNorm)
	}

	// At 100 Gb/s it is goodput_bps * 1e-11 to the bit (what reproduce's
	// fdcc-table6.2 reported before the metric existed).
	fast := []v2.PortRow{{Node: 4, RateBps: 100e9}}
	odd := flows()
	odd[1].SizeBytes = 1002 // here goodput_bps / 1e11 differs from goodput_bps * 1e-11 in the last bit
	s = Compute(odd, nil, fast, Options{})
	if s.GoodputNorm != s.GoodputBps*1e-11 {
		t.Errorf("goodput_norm %v != goodput_bps * 1e-11 = %v", s.GoodputNorm, s.GoodputBps*1e-11)
	}

	for name, c := range map[string]struct {
		flows []v2.FlowRow
		ports []v2.PortRow
	}{
		"two receivers":    {append(flows(), v2.FlowRow{FlowID: 2, Dst: 0, SizeBytes: 10, StartNs: 0, FinishNs: 10, FCTNs: 10}), ports},
		"no ports rows":    {flows(), nil},
		"nothing finished": {[]v2.FlowRow{{FlowID: 0, Dst: 4, SizeBytes: 1000, FinishNs: -1, FCTNs: -1}}, ports},
		"no flows":         {nil, ports},
	} {
		if s := Compute(c.flows, nil, c.ports, Options{}); s.GoodputNorm != 0 {
			t.Errorf("%s: goodput_norm %v, want 0 (undefined)", name, s.GoodputNorm)
		}
	}
}

// Per-flow PFC pause over FCT (Fig. 6.3b), the mean over finished flows.
func TestPFCPausedFracMean(t *testing.T) {
	flows := []v2.FlowRow{
		{FlowID: 0, FinishNs: 1000, FCTNs: 1000, PFCPausedNs: 250},  // 0.25
		{FlowID: 1, FinishNs: 2000, FCTNs: 2000, PFCPausedNs: 0},    // 0
		{FlowID: 2, FinishNs: 4000, FCTNs: 4000, PFCPausedNs: 1000}, // 0.25
		{FlowID: 3, FinishNs: -1, FCTNs: -1, PFCPausedNs: 500},      // unfinished: out
		{FlowID: 4, FinishNs: 0, FCTNs: 0, PFCPausedNs: 0},          // fct 0: out
	}
	if got, want := Compute(flows, nil, nil, Options{}).PFCPausedFracMean, 0.5/3; got != want {
		t.Errorf("pfc_paused_frac_mean = %v, want %v", got, want)
	}
	flows[1].PFCPausedNs = -1 // unknown (schema v1)
	if got := Compute(flows, nil, nil, Options{}).PFCPausedFracMean; got != 0 {
		t.Errorf("pfc_paused_frac_mean with an unknown pfc_paused_ns = %v, want 0", got)
	}
}
