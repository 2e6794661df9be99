package replay

import (
	"testing"

	"github.com/ccreplay/ccreplay/kernel"
	"github.com/ccreplay/ccreplay/units"
)

// The hot path allocates nothing per packet in steady state: once queues,
// rings, pools and the event queue have grown to the working size, running
// more events (packets forwarded, ACKs, CNPs, timers) allocates nothing.
// Per-packet logging is off (its Parquet encoder, on another goroutine,
// allocates per batch, not per row; output.BenchmarkStreamAppend).
func TestSteadyStateZeroAllocsPerPacket(t *testing.T) {
	for _, c := range []struct{ name, topo, cc, wl string }{
		{"incast-star-dcqcn", "", "dcqcn", "incast:n=16,size=100MB"},
		{"longflows-fattree-dcqcn", "hpcc-fattree", "dcqcn", "longflows:n=64,size=100MB"},
	} {
		t.Run(c.name, func(t *testing.T) {
			tr := mustGen(t, c.wl, 1)
			cfg := baseConfig(t, mustTopo(t, c.topo, tr.Hosts), c.cc)
			cfg.CheckEvery = 0
			r := &run{cfg: &cfg, tr: tr, sim: kernel.NewSim(cfg.Seed)}
			r.id = r.sim.Register(r)
			if err := r.build(); err != nil {
				t.Fatal(err)
			}
			r.schedule()
			// Warm up: every flow started, queues and pools at their working size.
			r.sim.RunBudget(units.Never, 8_000_000)
			pkts := r.sim.Events
			allocs := testing.AllocsPerRun(5, func() { r.sim.RunBudget(units.Never, 100_000) })
			if r.sim.Pending() == 0 {
				t.Fatal("the run ended during the measurement: not steady state")
			}
			if allocs != 0 {
				t.Errorf("%.1f allocations per 100,000 events (%d events run before), want 0", allocs, pkts)
			}
		})
	}
}
