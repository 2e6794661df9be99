package chakra

import (
	"container/heap"
	"fmt"
	"path/filepath"
	"slices"

	"github.com/ccreplay/ccreplay/trace"
	"github.com/ccreplay/ccreplay/units"
)

// The trace order and the trace itself.

// estHeap orders node indices by estimated release time, then index.
type estHeap struct {
	idx []int32
	est []units.Time
}

// Len, Less, Swap, Push and Pop implement heap.Interface.
func (h *estHeap) Len() int { return len(h.idx) }
func (h *estHeap) Less(i, j int) bool {
	a, c := h.idx[i], h.idx[j]
	if h.est[a] != h.est[c] {
		return h.est[a] < h.est[c]
	}
	return a < c
}
func (h *estHeap) Swap(i, j int) { h.idx[i], h.idx[j] = h.idx[j], h.idx[i] }
func (h *estHeap) Push(x any)    { h.idx = append(h.idx, x.(int32)) }
func (h *estHeap) Pop() any {
	x := h.idx[len(h.idx)-1]
	h.idx = h.idx[:len(h.idx)-1]
	return x
}

// order returns the nodes in trace order: a topological order of the
// dependencies (Kahn's algorithm) that takes first the node whose
// release would come first if the network took no time (the longest
// path of gaps to it). A cycle means the ranks wait for each other: a
// receive or collective of one rank waits for a message another rank
// sends only after waiting for the first.
func (b *builder) order() ([]int32, error) {
	n := len(b.nodes)
	indeg := make([]int32, n)
	start := make([]int32, n+1)
	for i := range b.nodes {
		nd := &b.nodes[i]
		slices.Sort(nd.deps)
		nd.deps = slices.Compact(nd.deps)
		indeg[i] = int32(len(nd.deps))
		for _, d := range nd.deps {
			start[d+1]++
		}
	}
	for i := range n {
		start[i+1] += start[i]
	}
	succ := make([]int32, start[n])
	fill := slices.Clone(start[:n])
	for i := range b.nodes {
		for _, d := range b.nodes[i].deps {
			succ[fill[d]] = int32(i)
			fill[d]++
		}
	}
	h := &estHeap{est: make([]units.Time, n)}
	for i := range n {
		if indeg[i] == 0 {
			h.idx = append(h.idx, int32(i))
		}
	}
	heap.Init(h)
	order := make([]int32, 0, n)
	for h.Len() > 0 {
		i := heap.Pop(h).(int32)
		order = append(order, i)
		for _, s := range succ[start[i]:start[i+1]] {
			h.est[s] = max(h.est[s], h.est[i])
			if indeg[s]--; indeg[s] == 0 {
				h.est[s] = min(h.est[s]+b.nodes[s].gap, units.Never/2)
				heap.Push(h, s)
			}
		}
	}
	if len(order) == n {
		return order, nil
	}
	for i := range n {
		if indeg[i] > 0 {
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
