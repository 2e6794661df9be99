package swift

import (
	"math/rand/v2"
	"testing"

	"github.com/ccreplay/ccreplay/cca"
	"github.com/ccreplay/ccreplay/cca/internal/ccatest"
	"github.com/ccreplay/ccreplay/units"
)

// TestRandomEvents drives random configurations through random ACK, NACK
// and timeout sequences and checks after every event:
//   - min_cwnd <= cwnd <= max_cwnd, 0 < Rate <= line rate, Window >= 1 MTU;
//   - a decrease other than the timeout reset to min_cwnd is by a factor of
//     at least 1 - max_mdf (or stops at min_cwnd), and comes at least one
//     RTT (the latest sample) after the previous decrease (Algorithm 1's
//     can_decrease);
//   - an ACK below the target never decreases the window.
func TestRandomEvents(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	ccatest.RandomSpecs(t, rng, 200, Build, nil, []ccatest.Choice{
		ccatest.Pick("base_target", "5us", "25us"),
		ccatest.Pick("fs_range", "0us", "30us", "125us"),
		ccatest.Pick("max_mdf", "0.5", "0.2", "0.9"),
		ccatest.Pick("beta", "0.8", "2"),
		ccatest.Pick("init_cwnd", "bdp", "0.5", "20"),
		ccatest.Pick("max_cwnd", "auto", "40"),
		ccatest.Pick("retx_reset", "1", "3", "5"),
	}, func(run int, spec cca.Spec, _ map[string]string) {
		s := spec.New().(*Swift)
		line := 100 * units.Gbps
		s.Start(0, cca.FlowInfo{LineRate: line, BaseRTT: 4 * units.Microsecond, MTU: 1048, Hops: 2})
		c := s.Config()
		now, lastDec, decreased := units.Time(0), units.Time(0), false
		for step := range 2000 {
			now += units.Time(rng.Int64N(int64(20 * units.Microsecond)))
			prev, target := s.Cwnd(), s.TargetDelay()
			kind := rng.IntN(20)
			var rtt units.Time
			switch {
			case kind == 0:
				s.OnNack(now)
			case kind == 1:
				s.OnTimeout(now)
			default:
				rtt = units.Time(rng.Int64N(int64(200*units.Microsecond))) + 1
				s.OnAck(now, &cca.Ack{AckedBytes: units.Bytes(rng.IntN(4000)), RTT: rtt})
			}
			w := s.Cwnd()
			if w < c.MinCwnd || w > s.MaxCwnd() {
				t.Fatalf("run %d step %d: cwnd %v outside [%v, %v]", run, step, w, c.MinCwnd, s.MaxCwnd())
			}
			if r := s.Rate(); r <= 0 || r > line {
				t.Fatalf("run %d step %d: rate %v", run, step, r)
			}
			if s.Window() < 1048 {
				t.Fatalf("run %d step %d: window %d below one MTU", run, step, s.Window())
			}
			if w >= prev {
				continue
			}
			if kind != 1 && w < prev*(1-c.MaxMDF)*(1-1e-12) && w != c.MinCwnd {
				t.Fatalf("run %d step %d: cut %v -> %v is more than max_mdf %v", run, step, prev, w, c.MaxMDF)
			}
			if kind >= 2 && rtt < target {
				t.Fatalf("run %d step %d: delay %v below target %v decreased %v -> %v", run, step, rtt, target, prev, w)
			}
			if w != c.MinCwnd || kind != 1 {
				if decreased && now-lastDec < s.rtt {
					t.Fatalf("run %d step %d: decrease %v after the previous, less than rtt %v", run, step, now-lastDec, s.rtt)
				}
			}
			lastDec, decreased = now, true
		}
	})
}
