package dcqcn

import (
	"math/rand/v2"
	"testing"

	"github.com/ccreplay/ccreplay/cca"
	"github.com/ccreplay/ccreplay/cca/internal/ccatest"
	"github.com/ccreplay/ccreplay/units"
)

// TestRandomEvents drives many random configurations through long random
// event sequences and checks, after every event:
//   - min_rate <= R_C <= R_T <= line rate and 0 <= alpha <= 1;
//   - NextTimer is never in the past;
//   - a NIC that calls OnTimer exactly at each deadline and a NIC that
//     never calls it (so every timer is replayed late, at the next event)
//     see the same state.
func TestRandomEvents(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	ccatest.RandomSpecs(t, rng, 100, Build, []string{"zhu2015", "hpcc", "dolce"}, []ccatest.Choice{
		ccatest.Pick("cut", "half-alpha", "alpha"),
		ccatest.Pick("alpha_mode", "zhu", "mlx"),
		ccatest.Pick("increase_mode", "zhu", "mlx"),
		ccatest.Pick("byte_counter", "off", "64KB", "1MB", "10MB"),
		ccatest.Pick("decrease_interval", "0us", "4us", "50us"),
		ccatest.Pick("clamp_target_rate", "true", "false"),
		ccatest.Pick("fast_recovery", "1", "2", "5"),
		ccatest.Pick("increase_timer", "1us", "55us", "900us"),
		ccatest.Pick("alpha_timer", "1us", "55us"),
		ccatest.Pick("alpha_init", "1", "0.5", "0.01"),
		ccatest.Pick("g", "0.00390625", "0.0625", "1"),
		ccatest.Pick("hai_rate", "50Mbps", "5Gbps"),
		ccatest.Pick("min_rate", "100Mbps", "10Gbps"),
	}, func(run int, spec cca.Spec, params map[string]string) {
		line := []units.BitsPerSec{25 * units.Gbps, 100 * units.Gbps, 400 * units.Gbps}[rng.IntN(3)]
		punctual, late := spec.New().(*DCQCN), spec.New().(*DCQCN)
		f := cca.FlowInfo{LineRate: line, BaseRTT: 8 * units.Microsecond, MTU: 1000}
		punctual.Start(0, f)
		late.Start(0, f)
		minRate := min(punctual.Config().MinRate, line)

		now := units.Time(0)
		for step := range 3000 {
			// Time moves on by up to 1 us mostly, sometimes by up to 2 ms.
			gap := units.Time(rng.Int64N(int64(units.Microsecond)))
			if rng.IntN(50) == 0 {
				gap = units.Time(rng.Int64N(int64(2 * units.Millisecond)))
			}
			now += gap
			for punctual.NextTimer() <= now {
				punctual.OnTimer(punctual.NextTimer())
			}
			switch k := rng.IntN(10); {
			case k < 2:
				punctual.OnCNP(now)
				late.OnCNP(now)
			case k < 9:
				b := units.Bytes(1 + rng.IntN(1<<20))
				punctual.OnSend(now, b)
				late.OnSend(now, b)
			default:
				punctual.OnAck(now, &cca.Ack{})
				late.OnAck(now, &cca.Ack{})
			}
			for _, d := range []*DCQCN{punctual, late} {
				rc, rt, a := d.Rate(), d.TargetRate(), d.Alpha()
				if !(minRate <= rc && rc <= rt && rt <= line) {
					t.Fatalf("run %d step %d: rates out of order: min %v rc %v rt %v line %v (%v)", run, step, minRate, rc, rt, line, params)
				}
				if !(a >= 0 && a <= 1) {
					t.Fatalf("run %d step %d: alpha %v", run, step, a)
				}
				if d.NextTimer() <= now {
					t.Fatalf("run %d step %d: NextTimer %v not after now %v", run, step, d.NextTimer(), now)
				}
			}
			if punctual.Describe() != late.Describe() || punctual.NextTimer() != late.NextTimer() {
				t.Fatalf("run %d step %d at %v: punctual and late NIC differ:\n%s next=%v\n%s next=%v\n(%v)",
					run, step, now, punctual, punctual.NextTimer(), late, late.NextTimer(), params)
			}
		}
	})
}
