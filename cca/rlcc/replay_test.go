package rlcc

import (
	"testing"

	"github.com/ccreplay/ccreplay/cca"
	"github.com/ccreplay/ccreplay/internal/replaytest/star"
	"github.com/ccreplay/ccreplay/replay"
)

// An 8-to-1 incast of 500 KB under the embedded default policy (auto
// latency, 17 us for an MLP) on the default lossless 100 Gb/s star: every
// flow finishes, none beats its ideal FCT, nothing is dropped, the last
// flow ends within 5 % of the bound 8 x 500 KB x 1.048 x 8 / 100 Gb/s =
// 335.4 us (measured 337.4 us, 1.006 x). Every flow starts at line rate,
// so the first RTT queues about 3.6 MB (a 290 us RTT) and each agent
// still takes at least two decisions.
func TestIncastDefaultPolicy(t *testing.T) {
	var agents []*Agent
	res := star.RunWorkload(t, star.Spec(t, "rlcc", nil, Register), "incast:n=8,size=500KB", func(c *replay.Config) {
		c.WrapCC = func(_ int32, a cca.Algorithm) cca.Algorithm { agents = append(agents, a.(*Agent)); return a }
	})
	bound := star.BoundNs(8, 500_000, 100e9)
	if s := star.CheckBound(t, res, bound, 1.05); s.Flows != 8 {
		t.Fatalf("%d flows, want 8", s.Flows)
	}
	// Each flow sends its 500 KB in the first ~40 us at line rate and takes
	// its decisions on RTT probes, which follow data packets: at least one.
	for i, a := range agents {
		if a.Decisions() < 1 {
			t.Errorf("agent %d took %d decisions", i, a.Decisions())
		}
	}
	t.Logf("decisions of flow 0: %d", agents[0].Decisions())
}
