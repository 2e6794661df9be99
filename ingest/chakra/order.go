package chakra

import (
	"fmt"
	"path/filepath"

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
		b.nodes[i].deps = depgraph.Tidy(b.nodes[i].deps)
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
	tr, c := depgraph.Emit(order, func(i int32) depgraph.Node {
		nd := &b.nodes[i]
		return depgraph.Node{Src: nd.src, Dst: nd.dst, Bytes: nd.bytes, Sync: nd.sync, Coll: nd.coll, Deps: nd.deps, Gap: nd.gap}
	}, len(b.graphs), hosts, nHosts, ppn)
	b.rep.Counts.Add(c)
	return tr
}
