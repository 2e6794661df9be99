package replay

import (
	"context"
	"testing"

	"github.com/ccreplay/ccreplay/internal/replaytest"

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
			tr := replaytest.Workload(t, c.wl, 1)
			cfg := baseConfig(t, replaytest.Topology(t, c.topo, tr.Hosts), c.cc)
			cfg.CheckEvery = 0
			r := &run{cfg: &cfg, tr: tr}
			if err := r.build(context.Background()); err != nil {
				t.Fatal(err)
			}
			defer r.g.Close()
			r.schedule()
			// Warm up: every flow started, queues and pools at their working size.
			for r.g.Events() < 8_000_000 {
				if !r.step(units.Never) {
					t.Fatal("the run ended during the warm-up")
				}
			}
			pkts := r.g.Events()
			// 100 windows and their barriers: ~100,000 events here.
			allocs := testing.AllocsPerRun(5, func() {
				for i := 0; i < 100; i++ {
					if !r.step(units.Never) {
						t.Fatal("the run ended during the measurement: not steady state")
					}
				}
			})
			if allocs != 0 {
				t.Errorf("%.1f allocations per 100 windows (%d events run before), want 0", allocs, pkts)
			}
		})
	}
}
