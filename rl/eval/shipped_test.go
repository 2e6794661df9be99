package eval

import (
	"testing"

	"github.com/ccreplay/ccreplay/cca/rlcc"
	"github.com/ccreplay/ccreplay/units"
)

// TestShippedPolicyTable1 replays the policy `--cca rlcc` uses by default
// (the distilled trees embedded from cca/rlcc/policy/default.json, at their
// 0.9 us decision latency, RL-CC-NIC, Fuhrer 2023, Table I) on the
// many-to-one 16 and 128 of RL-CC (Tessler 2022), Table 1 (100 Gb/s, 5 MB
// buffer, PFC, every flow starting at line rate at once) and checks, over
// 10..20 ms, that the bottleneck stays busy (SU), nothing is dropped (DR)
// and every flow is near the fair share line rate / N, the fixed point of
// RL-CC (Tessler 2022), Proposition 1 (share and Jain's index; FR = min x
// 100 / max as Table 1 defines it).
func TestShippedPolicyTable1(t *testing.T) {
	if testing.Short() {
		t.Skip("replays 16 and 128 flows for 20 ms")
	}
	spec, err := rlcc.Build("", nil)
	if err != nil {
		t.Fatal(err)
	}
	pol, err := rlcc.Default()
	if err != nil {
		t.Fatal(err)
	}
	if pol.Kind != rlcc.KindTrees {
		t.Fatalf("the default policy is a %s policy; the distilled trees should ship", pol.Kind)
	}
	for _, tc := range []struct {
		flows              int
		minFR              float64
		minShare, maxShare float64
	}{
		{16, 85, 0.85, 1.05},
		{128, 70, 0.75, 1.10},
	} {
		r, err := ManyToOne(spec, tc.flows, Options{Duration: 20 * units.Millisecond})
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%d to 1: SU %.1f FR %.1f QL %.2f us DR %.2f share %.2f-%.2f Jain %.4f", tc.flows, r.SU, r.FR, r.QL, r.DR, r.ShareMin, r.ShareMax, r.Jain)
		// SU counts data bytes only; the agents' RTT probes (60 B per flow
		// per RTT) take about 4 % of the link at 128 flows.
		if r.SU < 90 || r.DR != 0 || r.DropPkts != 0 {
			t.Errorf("%d to 1: SU %.1f %% DR %v Gbit/s (%d drops), want >= 90 %% and none", tc.flows, r.SU, r.DR, r.DropPkts)
		}
		if r.FR < tc.minFR || r.ShareMin < tc.minShare || r.ShareMax > tc.maxShare || r.Jain < 0.99 {
			t.Errorf("%d to 1: FR %.1f, shares %.3f-%.3f, Jain %.4f; want FR >= %v, shares in [%v, %v], Jain >= 0.99",
				tc.flows, r.FR, r.ShareMin, r.ShareMax, r.Jain, tc.minFR, tc.minShare, tc.maxShare)
		}
	}
}
