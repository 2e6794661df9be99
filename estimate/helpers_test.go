package estimate

import (
	"testing"

	"github.com/ccreplay/ccreplay/cca/all"
	"github.com/ccreplay/ccreplay/nic"
	"github.com/ccreplay/ccreplay/replay"
	"github.com/ccreplay/ccreplay/switchmodel"
	"github.com/ccreplay/ccreplay/topology"
	"github.com/ccreplay/ccreplay/trace"
	"github.com/ccreplay/ccreplay/trace/gen"
)

func mustTopo(t testing.TB, spec string, hosts int) *topology.Topology {
	t.Helper()
	topo, err := topology.Parse(spec, hosts)
	if err != nil {
		t.Fatal(err)
	}
	return topo
}

func mustGen(t testing.TB, spec string, seed int64) *trace.Trace {
	t.Helper()
	tr, err := gen.Parse(spec, seed)
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// config is a default network under the named algorithm (with its hints).
func config(t testing.TB, topo *topology.Topology, cc string) replay.Config {
	t.Helper()
	spec, err := all.Registry().Build(cc, nil)
	if err != nil {
		t.Fatal(err)
	}
	cfg := replay.Config{Topology: topo, CC: spec, Switch: switchmodel.DefaultConfig(), NIC: nic.DefaultConfig(), Seed: 1, Packets: replay.PacketsNone}
	cfg.ApplyCCHints()
	return cfg
}
