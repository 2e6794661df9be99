package replay

import (
	"fmt"

	"github.com/ccreplay/ccreplay/internal/splitmix"
	"github.com/ccreplay/ccreplay/topology"
	"github.com/ccreplay/ccreplay/trace"
	"github.com/ccreplay/ccreplay/units"
)

// FlowPath is one flow (queue pair) of a trace as Run numbers and routes
// it: the same id as its row of flows.parquet, the same ECMP hash, hence
// the same links. Estimators that work per link (package estimate) use it
// so that a flow crosses the same links there as in a packet-level run.
type FlowPath struct {
	ID       int32          // the flow's id in flows.parquet (order of first appearance)
	Src, Dst int32          // hosts
	Hash     uint64         // ECMP hash (from the run's seed and the id)
	Prio     uint8          // trace priority class (0: the NIC's default)
	Size     units.Bytes    // payload of all its messages, bytes
	Start    units.Time     // release of its first message, picoseconds
	Msgs     []int32        // indices of its messages in the trace, in trace order
	Path     []topology.Hop // the links it takes, the first one leaving Src
}

// FlowPaths returns the flows of tr under cfg in Run's order, each with
// the path Run gives it (Run.build's numbering: one flow per FlowID, or per
// message without one; same-host messages have none). It fails, as Run
// does, on a message whose hosts have no route.
func FlowPaths(cfg *Config, tr *trace.Trace) ([]FlowPath, error) {
	topo := cfg.Topology
	if topo == nil {
		return nil, fmt.Errorf("no topology")
	}
	routes := topo.Routes()
	byQP := map[int64]int32{}
	var out []FlowPath
	for i := range tr.Messages {
		m := &tr.Messages[i]
		if m.Src == m.Dst {
			continue
		}
		fid, ok := int32(-1), false
		if m.FlowID >= 0 {
			fid, ok = byQP[m.FlowID]
		}
		if !ok {
			fid = int32(len(out))
			h := splitmix.Next(cfg.Seed ^ splitmix.Next(uint64(fid)))
			path := routes.Path(m.Src, m.Dst, h)
			if path == nil {
				return nil, badInput{fmt.Errorf("message %d: topology %s has no route from host %d to host %d", m.ID, topo.Name, m.Src, m.Dst)}
			}
			out = append(out, FlowPath{ID: fid, Src: m.Src, Dst: m.Dst, Hash: h, Prio: uint8(m.Priority), Start: m.Release, Path: path})
			if m.FlowID >= 0 {
				byQP[m.FlowID] = fid
			}
		}
		f := &out[fid]
		f.Size += units.Bytes(m.Bytes)
		f.Msgs = append(f.Msgs, int32(i))
	}
	return out, nil
}
