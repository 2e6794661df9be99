package dolce_test

import (
	"testing"

	"github.com/ccreplay/ccreplay/cca"
	"github.com/ccreplay/ccreplay/cca/dcqcn"
	"github.com/ccreplay/ccreplay/cca/dolce"
	"github.com/ccreplay/ccreplay/cca/internal/ccatest"
	"github.com/ccreplay/ccreplay/internal/replaytest/star"
	"github.com/ccreplay/ccreplay/units"
)

// spec builds dolce, dolceplus or dcqcn with params.
func spec(t testing.TB, name string, params map[string]string) cca.Spec {
	t.Helper()
	return star.Spec(t, name, params, dolce.Register, dcqcn.Register)
}

// A 16-to-1 incast of 1 MB flows under Dolce-RC (both estimators, float
// and fixed point) and Dolce-RC+ completes: every flow finishes, none
// before its ideal (docs/OUTPUTS.md: slowdown >= 1 by construction), nothing is dropped (PFC),
// and the last flow cannot beat 16 x 1 MB x 1048/1000 x 8 / 100G =
// 1.342 ms (the receiver's link carries every byte).
func TestIncast16To1Completes(t *testing.T) {
	bound := star.BoundNs(16, 1_000_000, 100e9)
	for _, c := range []struct {
		name   string
		params map[string]string
	}{
		{"dolce", nil},
		{"dolce", map[string]string{"estimator": "ideal"}},
		{"dolce", map[string]string{"fixed_point": "true"}},
		{"dolceplus", nil},
		{"dolceplus", map[string]string{"fixed_point": "true"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			res := star.RunWorkload(t, spec(t, c.name, c.params), "incast:n=16,size=1MB", star.Conserving)
			s := star.CheckFinished(t, res)
			if s.Flows != 16 {
				t.Fatalf("%d flows, want 16", s.Flows)
			}
			if float64(s.FCTMaxNs) < bound {
				t.Errorf("last flow finished in %d ns, before the bound %.0f ns", s.FCTMaxNs, bound)
			}
			t.Logf("%s %v: mean FCT %.3f ms, last %.3f ms (%.3f x bound), ECN ratio %.3f, CNPs %d, pause frames %d",
				c.name, c.params, s.FCTMeanNs/1e6, float64(s.FCTMaxNs)/1e6, float64(s.FCTMaxNs)/bound, s.ECNRatio, s.CNPs, s.PauseFrames)
		})
	}
}

// N = 4 long Dolce-RC flows on one bottleneck, joining 2 ms apart,
// converge to a fair share C/N, but more slowly than DCQCN.
//
// DCQCN in this simulator is within 10 % of C/N over [40 ms, 120 ms)
// (replay.TestDCQCNConvergesToFairShare, R_AI = 40 Mb/s). Dolce-RC with
// the same R_AI is not: over that window we measured -2/+10/-0/-14 %, and
// over [120, 200 ms) -32/-0/+15/+10 %. The reason is the bandit: in steady
// state every arm's ECN ratio is below 0.5 %, so the four arms' rewards
// differ by less than the exploration bonus and DR-UCB cycles through
// them almost uniformly, one arm per qualified CNP (about every 1.4 ms
// here). A flow's cut then varies from alpha = 0.08 to 0.625 at random,
// and its mean rate converges like an average over iterations.
//
// So the window is [100 ms, 500 ms), about 280 iterations per flow, and
// the tolerance 15 % of C/N per flow (measured -7.7/-4.7/+8.9/-2.9 % in
// float, +0.3/+3.5/-7.6/-2.5 % in fixed point), with Jain's index at
// least 0.99 (measured 0.996 and 0.998) and the bottleneck at least 90 %
// used (measured 98 %). With the paper's R_AI = 5 Mb/s convergence is far
// slower still (-9/-12/+26/-18 % over the same window), as for DCQCN.
func TestDolceRCConvergesToFairShare(t *testing.T) {
	if testing.Short() {
		t.Skip("long-running convergence test")
	}
	from, to := 100*units.Millisecond, 500*units.Millisecond
	capacity := float64(100*units.Gbps) * 1000 / 1048 // payload bit/s
	for _, fixed := range []string{"false", "true"} {
		t.Run("fixed_point="+fixed, func(t *testing.T) {
			m, _ := star.Meter(t, spec(t, "dolce", map[string]string{"ai_rate": "40Mbps", "fixed_point": fixed}), star.LongFlows, from, to, 0)
			ccatest.CheckFairShare(t, m.Rates(4), ccatest.FairShare{Capacity: capacity, Tol: 0.15, Jain: 0.99, Used: 0.90})
		})
	}
}
