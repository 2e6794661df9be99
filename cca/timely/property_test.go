package timely

import (
	"math/rand/v2"
	"testing"

	"github.com/ccreplay/ccreplay/cca"
	"github.com/ccreplay/ccreplay/cca/internal/ccatest"
	"github.com/ccreplay/ccreplay/units"
)

// TestRandomEvents drives random configurations through random ACK
// sequences and checks after every ACK: min_rate <= Rate <= line rate; at
// most one completion event per ACK, and only when a segment completes
// (or per RTT); the rate rises only on rules (1) and (3), by at most
// hai_factor x delta, and falls only on rules (2) and (4), never below
// 1 - beta of its value on rule (2).
func TestRandomEvents(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	ccatest.RandomSpecs(t, rng, 200, Build, []string{"mittal2015", "hpcc", "scaled"}, []ccatest.Choice{
		ccatest.Pick("t_low", "5us", "20us", "2.5x"),
		ccatest.Pick("t_high", "100us", "500us", "25x"),
		ccatest.Pick("delta", "10Mbps", "0.001x"),
		ccatest.Pick("segment", "1KB", "16KB", "rtt"),
		ccatest.Pick("hai_mode", "gradient", "increase"),
		ccatest.Pick("min_rtt", "base", "20us"),
	}, func(run int, spec cca.Spec, _ map[string]string) {
		tm := spec.New().(*Timely)
		line := 100 * units.Gbps
		tm.Start(0, cca.FlowInfo{LineRate: line, BaseRTT: 4 * units.Microsecond, MTU: 1048, Hops: 2})
		c := tm.Config()
		lo := min(c.MinRate, line)
		now := units.Time(0)
		for step := range 3000 {
			now += units.Time(rng.Int64N(int64(2 * units.Microsecond)))
			rtt := units.Time(rng.Int64N(int64(300*units.Microsecond))) + 1
			before, updates := tm.Rate(), tm.Updates()
			tm.OnAck(now, &cca.Ack{AckedBytes: units.Bytes(rng.IntN(3000)), RTT: rtt, MessageDone: rng.IntN(50) == 0})
			r := tm.Rate()
			if r < lo || r > line {
				t.Fatalf("run %d step %d: rate %v outside [%v, %v]", run, step, r, lo, line)
			}
			switch n := tm.Updates() - updates; {
			case n > 1:
				t.Fatalf("run %d step %d: %d updates on one ACK", run, step, n)
			case n == 0:
				if r != before {
					t.Fatalf("run %d step %d: rate changed %v -> %v without an update", run, step, before, r)
				}
				continue
			}
			diff := float64(r) - float64(before)
			switch b := tm.Branch(); b {
			case BranchLow, BranchIncrease, BranchHAI:
				if diff < 0 || diff > float64(c.HAIFactor)*c.Delta.resolve(line)+1 {
					t.Fatalf("run %d step %d: %v changed the rate by %v", run, step, b, diff)
				}
			case BranchHigh:
				if float64(r) < (1-c.Beta)*float64(before)-1 && r != lo || diff > 0 {
					t.Fatalf("run %d step %d: rule (2) moved %v -> %v", run, step, before, r)
				}
			case BranchDecrease:
				if diff > 0 {
					t.Fatalf("run %d step %d: rule (4) raised %v -> %v", run, step, before, r)
				}
			}
		}
	})
}
