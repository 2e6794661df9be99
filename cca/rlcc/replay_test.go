package rlcc

import (
	"testing"

	"github.com/ccreplay/ccreplay/cca"
	"github.com/ccreplay/ccreplay/metrics"
	"github.com/ccreplay/ccreplay/nic"
	"github.com/ccreplay/ccreplay/replay"
	"github.com/ccreplay/ccreplay/switchmodel"
	"github.com/ccreplay/ccreplay/topology"
	"github.com/ccreplay/ccreplay/trace/gen"
)

// An 8-to-1 incast of 500 KB under the embedded default policy (auto
// latency, 17 us for an MLP) on the default lossless 100 Gb/s star: every
// flow finishes, none beats its ideal FCT, nothing is dropped, the last
// flow ends within 5 % of the bound 8 x 500 KB x 1.048 x 8 / 100 Gb/s =
// 335.4 us (measured 337.4 us, 1.006 x). Every flow starts at line rate,
// so the first RTT queues about 3.6 MB (a 290 us RTT) and each agent
// still takes at least two decisions.
func TestIncastDefaultPolicy(t *testing.T) {
	tr, err := gen.Parse("incast:n=8,size=500KB", 1)
	if err != nil {
		t.Fatal(err)
	}
	topo, err := topology.Parse("", tr.Hosts)
	if err != nil {
		t.Fatal(err)
	}
	r := cca.NewRegistry()
	Register(r)
	spec, err := r.Build("rlcc", nil)
	if err != nil {
		t.Fatal(err)
	}
	var agents []*Agent
	cfg := replay.Config{Topology: topo, CC: spec, Switch: switchmodel.DefaultConfig(), NIC: nic.DefaultConfig(), Seed: 1, Packets: replay.PacketsNone,
		WrapCC: func(_ int32, a cca.Algorithm) cca.Algorithm { agents = append(agents, a.(*Agent)); return a }}
	cfg.ApplyCCHints()
	res, err := replay.Run(cfg, tr)
	if err != nil {
		t.Fatal(err)
	}
	s := metrics.Compute(res.Flows, res.Messages, res.Ports, metrics.Options{})
	if s.FlowsFinished != s.Flows || s.Flows != 8 || s.DropsPkts != 0 {
		t.Fatalf("%d of %d flows finished, %d drops", s.FlowsFinished, s.Flows, s.DropsPkts)
	}
	for _, f := range res.Flows {
		if f.FCTNs < f.IdealFCTNs {
			t.Errorf("flow %d: FCT %d ns below ideal %d ns", f.FlowID, f.FCTNs, f.IdealFCTNs)
		}
	}
	bound := 8 * 500e3 * 1.048 * 8 / 100e9 * 1e9
	if got := float64(s.FCTMaxNs); got < bound || got > 1.05*bound {
		t.Errorf("last FCT %.0f ns, want within [1, 1.05] x %.0f ns", got, bound)
	}
	// Each flow sends its 500 KB in the first ~40 us at line rate and takes
	// its decisions on RTT probes, which follow data packets: at least one.
	for i, a := range agents {
		if a.Decisions() < 1 {
			t.Errorf("agent %d took %d decisions", i, a.Decisions())
		}
	}
	t.Logf("FCT max %d ns (%.4f x bound), max queue %d B, decisions of flow 0: %d", s.FCTMaxNs, float64(s.FCTMaxNs)/bound, s.QLenMaxBytes, agents[0].Decisions())
}
