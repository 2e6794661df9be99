package replay

import (
	"path/filepath"
	"testing"

	"github.com/ccreplay/ccreplay/cca"
	"github.com/ccreplay/ccreplay/cca/all"
	"github.com/ccreplay/ccreplay/metrics"
	"github.com/ccreplay/ccreplay/nic"
	"github.com/ccreplay/ccreplay/output"
	"github.com/ccreplay/ccreplay/runfolder"
	v2 "github.com/ccreplay/ccreplay/schema/v2"
	"github.com/ccreplay/ccreplay/switchmodel"
	"github.com/ccreplay/ccreplay/topology"
	"github.com/ccreplay/ccreplay/trace"
	"github.com/ccreplay/ccreplay/units"
)

// ccSpec builds name (algorithm[:preset]) with params from the registry of
// every shipped algorithm.
func ccSpec(t testing.TB, name string, params map[string]string) cca.Spec {
	t.Helper()
	s, err := all.Registry().Build(name, params)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// baseConfig is a lossless default network with conservation checked
// every 5 us of simulated time.
func baseConfig(t testing.TB, topo *topology.Topology, cc string) Config {
	cfg := Config{
		Topology: topo, CC: ccSpec(t, cc, nil), Switch: switchmodel.DefaultConfig(),
		NIC: nic.DefaultConfig(), Seed: 1, Packets: PacketsNone, CheckEvery: 5 * units.Microsecond,
	}
	cfg.ApplyCCHints()
	return cfg
}

// mustRun replays tr under cfg; when out is not empty it writes the run's
// Parquet files there (packets.parquet from the packet sink, flows,
// messages, ports), as package runner does for a run folder: the replay
// itself writes nothing, and the tests that compare folders byte for byte
// compare these.
func mustRun(t testing.TB, cfg Config, tr *trace.Trace, out string) *Result {
	t.Helper()
	res, err := runTo(cfg, tr, out)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func runTo(cfg Config, tr *trace.Trace, out string) (*Result, error) {
	if out == "" {
		return Run(cfg, tr)
	}
	var packets *output.Stream[v2.PacketRow]
	if cfg.Packets != PacketsNone && cfg.Packets != "" {
		var err error
		if packets, err = output.NewStream[v2.PacketRow](filepath.Join(out, runfolder.PacketsFile), 8192); err != nil {
			return nil, err
		}
		cfg.PacketSink = packets
	}
	res, err := Run(cfg, tr)
	if packets != nil {
		if err != nil {
			packets.Abort()
			return nil, err
		}
		if err := packets.Close(); err != nil {
			return nil, err
		}
	}
	if err != nil {
		return nil, err
	}
	for _, w := range []error{
		output.WriteRows(filepath.Join(out, runfolder.FlowsFile), res.Flows),
		output.WriteRows(filepath.Join(out, runfolder.MessagesFile), res.Messages),
		output.WriteRows(filepath.Join(out, runfolder.PortsFile), res.Ports),
	} {
		if w != nil {
			return nil, w
		}
	}
	return res, nil
}

// checkCausality asserts that no flow or message beats its ideal
// (slowdown >= 1 by construction in a correct simulator; docs/OUTPUTS.md).
func checkCausality(t *testing.T, res *Result) {
	t.Helper()
	for _, f := range res.Flows {
		if f.FCTNs >= 0 && f.FCTNs < f.IdealFCTNs {
			t.Errorf("flow %d finished in %d ns, before its ideal %d ns", f.FlowID, f.FCTNs, f.IdealFCTNs)
		}
	}
	for _, m := range res.Messages {
		if m.MCTNs >= 0 && m.MCTNs < m.IdealMCTNs {
			t.Errorf("message %d completed in %d ns, before its ideal %d ns", m.MsgID, m.MCTNs, m.IdealMCTNs)
		}
	}
}

func allFinished(t *testing.T, res *Result) {
	t.Helper()
	if metrics.Compute(res.Flows, res.Messages, res.Ports, metrics.Options{}).FlowsFinished != metrics.Compute(res.Flows, res.Messages, res.Ports, metrics.Options{}).Flows {
		t.Fatalf("%d of %d flows finished", metrics.Compute(res.Flows, res.Messages, res.Ports, metrics.Options{}).FlowsFinished, metrics.Compute(res.Flows, res.Messages, res.Ports, metrics.Options{}).Flows)
	}
}
