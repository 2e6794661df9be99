// Package star is the one setting the tests that replay a workload share
// (the algorithms' replay tests, the importers', the schema samples): a
// trace/gen workload on the default star topology, checked against the
// physics every finished run obeys.
package star

import (
	"testing"

	"github.com/ccreplay/ccreplay/cca"
	"github.com/ccreplay/ccreplay/internal/replaytest"
	"github.com/ccreplay/ccreplay/internal/testfiles"
	"github.com/ccreplay/ccreplay/metrics"
	"github.com/ccreplay/ccreplay/nic"
	"github.com/ccreplay/ccreplay/replay"
	"github.com/ccreplay/ccreplay/switchmodel"
	"github.com/ccreplay/ccreplay/trace"
	"github.com/ccreplay/ccreplay/units"
)

// The algorithms' replay tests share one setting: a trace/gen workload
// (seed 1) on the default topology, a star of 100 Gb/s links with 1 us
// propagation delay (every flow has the same base RTT of 4.18 us and one
// switch egress as its bottleneck), with the default switch (lossless,
// PFC) and NIC, seed 1, no packet rows, and the algorithm's hints applied.

// Spec builds the algorithm name (preset and params as cca.Registry.Build
// takes them) from a registry holding what register adds, failing t on an
// error.
func Spec(t testing.TB, name string, params map[string]string, register ...func(*cca.Registry)) cca.Spec {
	t.Helper()
	r := cca.NewRegistry()
	for _, add := range register {
		add(r)
	}
	return Build(t, r, name, params)
}

// Build builds the algorithm name with params from r, failing t on an
// error.
func Build(t testing.TB, r *cca.Registry, name string, params map[string]string) cca.Spec {
	t.Helper()
	s, err := r.Build(name, params)
	return testfiles.Must(t, s, err)
}

// Workload generates the trace/gen workload spec with seed 1, failing t
// on a bad spec.
func Workload(t testing.TB, spec string) *trace.Trace {
	t.Helper()
	return replaytest.Workload(t, spec, 1)
}

// Config is the shared configuration (see above) for tr's hosts under s.
func Config(t testing.TB, tr *trace.Trace, s cca.Spec) replay.Config {
	t.Helper()
	topo := replaytest.Topology(t, "", tr.Hosts)
	cfg := replay.Config{
		Topology: topo, CC: s, Switch: switchmodel.DefaultConfig(),
		NIC: nic.DefaultConfig(), Seed: 1, Packets: replay.PacketsNone,
	}
	cfg.ApplyCCHints()
	return cfg
}

// Run replays tr under cfg, failing t on an error.
func Run(t testing.TB, cfg replay.Config, tr *trace.Trace) *replay.Result {
	t.Helper()
	res, err := replay.Run(cfg, tr)
	return testfiles.Must(t, res, err)
}

// RunWorkload replays workload on the shared star under s, after tweak (which
// may be nil) has changed the configuration.
func RunWorkload(t testing.TB, s cca.Spec, workload string, tweak func(*replay.Config)) *replay.Result {
	t.Helper()
	tr := Workload(t, workload)
	cfg := Config(t, tr, s)
	if tweak != nil {
		tweak(&cfg)
	}
	return Run(t, cfg, tr)
}

// CheckFinished asserts the physics every completed replay obeys: every
// flow finished, none beat its ideal FCT (docs/OUTPUTS.md: slowdown >= 1
// by construction) and, the fabric being lossless, nothing was dropped.
// It returns the run's summary.
func CheckFinished(t testing.TB, res *replay.Result) metrics.Summary {
	t.Helper()
	s := metrics.Compute(res.Flows, res.Messages, res.Ports, metrics.Options{})
	if s.FlowsFinished != s.Flows {
		t.Fatalf("%d of %d flows finished", s.FlowsFinished, s.Flows)
	}
	for _, f := range res.Flows {
		if f.FCTNs < f.IdealFCTNs {
			t.Errorf("flow %d finished in %d ns, before its ideal %d ns", f.FlowID, f.FCTNs, f.IdealFCTNs)
		}
	}
	if s.DropsPkts != 0 {
		t.Errorf("%d packets dropped", s.DropsPkts)
	}
	return s
}

// BoundNs is the time n flows of size payload bytes need to cross one
// link of rate bits/s with their headers (48 B per 1000 B packet), ns:
// the last FCT no schedule can beat when they share that link.
func BoundNs(n, size int64, rate float64) float64 {
	return float64(n*size) * 1048 / 1000 * 8 / rate * 1e9
}

// LongFlows is the workload of the convergence tests: four 2 GB flows to
// one receiver, joining 2 ms apart.
const LongFlows = "longflows:n=4,size=2GB,stagger=2ms"

// Meter replays workload on the shared star under s until to, with a
// RateMeter on [from, to) (in slots of slot when slot > 0), and returns
// the meter and the result.
func Meter(t testing.TB, s cca.Spec, workload string, from, to, slot units.Time) (*replaytest.RateMeter, *replay.Result) {
	t.Helper()
	m := replaytest.NewRateMeter(from, to, slot)
	res := RunWorkload(t, s, workload, func(c *replay.Config) {
		c.Observer = m
		c.MaxTime = to
	})
	return m, res
}

// CheckBound is CheckFinished and, of the last flow's FCT, that no
// schedule beat bound (ns, see BoundNs) and that it stayed within slack
// times it. It logs the FCTs and the largest queue, and returns the
// run's summary.
func CheckBound(t testing.TB, res *replay.Result, bound, slack float64) metrics.Summary {
	t.Helper()
	s := CheckFinished(t, res)
	got := float64(s.FCTMaxNs)
	t.Logf("FCT p50 %d ns, max %d ns = %.4f x bound %.0f ns; queue p99 %d B, max %d B",
		s.FCTP50Ns, s.FCTMaxNs, got/bound, bound, s.QLenP99Bytes, s.QLenMaxBytes)
	if got < bound || got > slack*bound {
		t.Errorf("last FCT %.0f ns, want within [1, %v] x the bound %.0f ns", got, slack, bound)
	}
	return s
}

// Conserving is a RunWorkload tweak that checks byte conservation (every
// byte sent is queued, on a wire, delivered or dropped) every 5 us of
// simulated time.
func Conserving(c *replay.Config) { c.CheckEvery = 5 * units.Microsecond }
