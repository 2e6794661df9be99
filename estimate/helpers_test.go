package estimate

import (
	"testing"

	"github.com/ccreplay/ccreplay/cca/all"
	"github.com/ccreplay/ccreplay/nic"
	"github.com/ccreplay/ccreplay/replay"
	"github.com/ccreplay/ccreplay/switchmodel"
	"github.com/ccreplay/ccreplay/topology"
	"github.com/ccreplay/ccreplay/trace"
	"github.com/ccreplay/ccreplay/units"
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

// message is a one-message flow of size bytes from src to dst released
// at at, without rank, collective or iteration.
func message(id int, src, dst int32, size int64, at units.Time) trace.Message {
	return trace.Message{ID: int64(id), Src: src, Dst: dst, Bytes: size, Release: at,
		FlowID: trace.NoFlow, CollectiveID: trace.NoCollective, Iteration: trace.NoIteration, SrcRank: trace.NoRank, DstRank: trace.NoRank}
}
