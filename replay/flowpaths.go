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
	flowOf, first := NumberFlows(tr.Messages)
	out := make([]FlowPath, 0, len(first))
	for fid, i := range first {
		m := &tr.Messages[i]
		h := splitmix.Next(cfg.Seed ^ splitmix.Next(uint64(fid)))
		path := routes.Path(m.Src, m.Dst, h)
		if path == nil {
			return nil, badInput{fmt.Errorf("message %d: topology %s has no route from host %d to host %d", m.ID, topo.Name, m.Src, m.Dst)}
		}
		out = append(out, FlowPath{ID: int32(fid), Src: m.Src, Dst: m.Dst, Hash: h, Prio: uint8(m.Priority), Start: m.Release, Path: path})
	}
	for i, fid := range flowOf {
		if fid < 0 {
			continue
		}
		f := &out[fid]
		f.Size += units.Bytes(tr.Messages[i].Bytes)
		f.Msgs = append(f.Msgs, int32(i))
	}
	return out, nil
}

// NumberFlows numbers the flows of msgs as Run does: one per queue pair
// (FlowID), or per message without one, in order of first appearance; a
// message between endpoints on the same host has no flow. flowOf is each
// message's flow (-1: none), first each flow's first message.
func NumberFlows(msgs []trace.Message) (flowOf, first []int32) {
	byQP := map[int64]int32{}
	flowOf = make([]int32, len(msgs))
	for i := range msgs {
		m := &msgs[i]
		if m.Src == m.Dst {
			flowOf[i] = -1
			continue
		}
		fid, ok := int32(-1), false
		if m.FlowID >= 0 {
			fid, ok = byQP[m.FlowID]
		}
		if !ok {
			fid = int32(len(first))
			first = append(first, int32(i))
			if m.FlowID >= 0 {
				byQP[m.FlowID] = fid
			}
		}
		flowOf[i] = fid
	}
	return flowOf, first
}
