package chakra

import (
	"fmt"
	"path/filepath"
	"slices"

	"github.com/ccreplay/ccreplay/ingest/internal/depgraph"
	"github.com/ccreplay/ccreplay/trace"
	"github.com/ccreplay/ccreplay/units"
)

// The trace order and the trace itself.

// order returns the nodes in trace order: a topological order of the
// dependencies (Kahn's algorithm) that takes first the node whose
// release would come first if the network took no time (the longest
// path of gaps to it). A cycle means the ranks wait for each other: a
// receive or collective of one rank waits for a message another rank
// sends only after waiting for the first.
func (b *builder) order() ([]int32, error) {
	n := len(b.nodes)
	for i := range b.nodes {
		nd := &b.nodes[i]
		slices.Sort(nd.deps)
		nd.deps = slices.Compact(nd.deps)
	}
	est := make([]units.Time, n)
	order, left := depgraph.Order(n, func(i int32) []int32 { return b.nodes[i].deps },
		func(i int32) int64 {
			if len(b.nodes[i].deps) > 0 {
				est[i] = min(est[i]+b.nodes[i].gap, units.Never/2)
			}
			return int64(est[i])
		},
		func(from, to int32) { est[to] = max(est[to], est[from]) })
	if len(order) == n {
		return order, nil
	}
	for i := range n {
		if left(int32(i)) {
			nd := &b.nodes[i]
			return nil, fmt.Errorf("chakra: the ranks wait for each other: %d messages can never be sent, among them one of %s node %d (a receive or collective that waits for a message its peer sends only later)",
				n-len(order), filepath.Base(b.graphs[nd.rank].file), nd.op)
		}
	}
	return order, nil
}

// emit writes the nodes as a trace in the given order; the position in
// the order is the message id.
func (b *builder) emit(order []int32, hosts []int32, nHosts, ppn int) *trace.Trace {
	nRanks := int64(len(b.graphs))
	id := make([]int64, len(b.nodes))
	for pos, i := range order {
		id[i] = int64(pos)
	}
	tr := &trace.Trace{Hosts: nHosts, Ranks: hosts, PPN: ppn, Messages: make([]trace.Message, len(order))}
	for pos, i := range order {
		nd := &b.nodes[i]
		m := &tr.Messages[pos]
		*m = trace.Message{ID: int64(pos), Src: hosts[nd.src], Dst: hosts[nd.dst], Bytes: nd.bytes,
			FlowID: int64(nd.src)*nRanks + int64(nd.dst), CollectiveID: nd.coll,
			Iteration: trace.NoIteration, SrcRank: nd.src, DstRank: nd.dst}
		if nd.sync {
			m.FlowID = trace.NoFlow
			b.rep.SyncPoints++
		} else {
			b.rep.Messages++
			b.rep.Bytes += nd.bytes
		}
		if len(nd.deps) == 0 {
			continue
		}
		m.Deps = make([]int64, len(nd.deps))
		for k, d := range nd.deps {
			m.Deps[k] = id[d]
		}
		slices.Sort(m.Deps)
		m.Gap = nd.gap
	}
	return tr
}
