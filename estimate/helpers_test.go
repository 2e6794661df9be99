package estimate

import (
	"testing"

	"github.com/ccreplay/ccreplay/cca/all"
	"github.com/ccreplay/ccreplay/nic"
	"github.com/ccreplay/ccreplay/replay"
	"github.com/ccreplay/ccreplay/switchmodel"
	"github.com/ccreplay/ccreplay/topology"
)

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
