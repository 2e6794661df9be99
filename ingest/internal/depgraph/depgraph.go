// Package depgraph holds what the application-trace readers (ingest/dumpi,
// which ingest/otf2 drives, and ingest/chakra) share once their ranks'
// calls are nodes with dependencies: the dependencies of a rank's messages
// in a collective decomposed into steps, and the trace order, a
// topological order of the nodes, and the trace written in that order;
// and the counts of their reports that every reader has (P2P, Counts).
package depgraph

import (
	"container/heap"
	"fmt"
	"slices"

	"github.com/ccreplay/ccreplay/trace"
	"github.com/ccreplay/ccreplay/units"
)

// Part is one message of a rank in a decomposed collective: its node, the
// algorithm's step it belongs to, and whether the rank sends it (else it
// receives it).
type Part struct {
	Step int32
	Node int32
	Out  bool
}

// Steps sets, through setDeps, the dependencies of the messages a rank
// sends in one collective, given its parts in step order and its entry
// node, and returns the nodes its last step completed. The rank's progress
// P starts as {entry}. A message it sends in a step depends on P; after
// the step, P becomes the step's messages, sent and received, when the
// rank sent in it, else P plus the step's received messages. Each step is
// a send-receive exchange (MPI_Sendrecv) that ends when its messages are
// delivered.
func Steps(parts []Part, entry int32, setDeps func(node int32, deps []int32)) []int32 {
	p := []int32{entry}
	for i := 0; i < len(parts); {
		j := i
		for j < len(parts) && parts[j].Step == parts[i].Step {
			j++
		}
		sent := false
		var step []int32
		for _, pt := range parts[i:j] {
			if pt.Out {
				setDeps(pt.Node, slices.Clone(p))
				sent = true
			}
			step = append(step, pt.Node)
		}
		if sent {
			p = step
		} else {
			p = append(p, step...)
		}
		i = j
	}
	return p
}

// Tidy sorts deps and drops repeats, in place, as Order wants a node's
// dependencies, and returns the shortened slice.
func Tidy(deps []int32) []int32 {
	slices.Sort(deps)
	return slices.Compact(deps)
}

// Order returns a topological order of n nodes, deps(i) being the nodes
// node i depends on, sorted and without repeats: Kahn's algorithm, taking
// among the nodes whose dependencies are all taken the one of least key,
// then of least index. When a node is taken, relax (if not nil) is called
// for each edge from it to a node that depends on it; key(i) is read once,
// when node i's last dependency has been taken (or at the start for a node
// without dependencies). The order is shorter than n when the dependencies
// have a cycle; the nodes left out are those whose in-degree is left
// positive (Left says which).
func Order(n int, deps func(i int32) []int32, key func(i int32) int64, relax func(from, to int32)) (order []int32, left func(i int32) bool) {
	indeg := make([]int32, n)
	start := make([]int32, n+1)
	for i := range n {
		ds := deps(int32(i))
		indeg[i] = int32(len(ds))
		for _, d := range ds {
			start[d+1]++
		}
	}
	for i := range n {
		start[i+1] += start[i]
	}
	succ := make([]int32, start[n])
	fill := slices.Clone(start[:n])
	for i := range n {
		for _, d := range deps(int32(i)) {
			succ[fill[d]] = int32(i)
			fill[d]++
		}
	}
	h := &keyHeap{key: make([]int64, n)}
	for i := range n {
		if indeg[i] == 0 {
			h.key[i] = key(int32(i))
			h.idx = append(h.idx, int32(i))
		}
	}
	heap.Init(h)
	order = make([]int32, 0, n)
	for h.Len() > 0 {
		i := heap.Pop(h).(int32)
		order = append(order, i)
		for _, s := range succ[start[i]:start[i+1]] {
			if relax != nil {
				relax(i, s)
			}
			if indeg[s]--; indeg[s] == 0 {
				h.key[s] = key(s)
				heap.Push(h, s)
			}
		}
	}
	return order, func(i int32) bool { return indeg[i] > 0 }
}

// keyHeap orders node indices by key, then index.
type keyHeap struct {
	idx []int32
	key []int64
}

// Len, Less, Swap, Push and Pop implement heap.Interface.
func (h *keyHeap) Len() int { return len(h.idx) }
func (h *keyHeap) Less(i, j int) bool {
	a, c := h.idx[i], h.idx[j]
	if h.key[a] != h.key[c] {
		return h.key[a] < h.key[c]
	}
	return a < c
}
func (h *keyHeap) Swap(i, j int) { h.idx[i], h.idx[j] = h.idx[j], h.idx[i] }
func (h *keyHeap) Push(x any)    { h.idx = append(h.idx, x.(int32)) }
func (h *keyHeap) Pop() any {
	x := h.idx[len(h.idx)-1]
	h.idx = h.idx[:len(h.idx)-1]
	return x
}

// Node is what Emit needs of one node of a builder's graph.
type Node struct {
	// Src and Dst are ranks; a synchronization point has Src == Dst,
	// Bytes 0 and Sync set.
	Src, Dst int32
	Bytes    int64
	Sync     bool
	// Coll is the collective id, or trace.NoCollective.
	Coll int64
	// Deps are node indices; Gap applies after the last of them, Release
	// when there is none.
	Deps         []int32
	Gap, Release units.Time
}

// Counts are what Emit wrote: the data messages of the trace
// (point-to-point and collective) and their bytes, and the zero-byte
// same-host synchronization messages that carry each rank's dependencies
// and compute gaps. The readers' reports hold them.
type Counts struct {
	Messages   int64 `json:"messages"`
	Bytes      int64 `json:"bytes"`
	SyncPoints int64 `json:"sync_points"`
}

// Add adds d to c.
func (c *Counts) Add(d Counts) {
	c.Messages += d.Messages
	c.Bytes += d.Bytes
	c.SyncPoints += d.SyncPoints
}

// Line is the line of a report for people that gives c.
func (c Counts) Line() string {
	return fmt.Sprintf("trace: %d messages, %d bytes, %d synchronization points\n", c.Messages, c.Bytes, c.SyncPoints)
}

// P2P are the point-to-point counts of a reader's report: the sends that
// became messages and their bytes, the receives, those matched to a send,
// and the sends no receive matched (they are in the trace all the same).
type P2P struct {
	Sends          int64 `json:"sends"`
	SendBytes      int64 `json:"send_bytes"`
	Receives       int64 `json:"receives"`
	Matched        int64 `json:"matched"`
	UnmatchedSends int64 `json:"unmatched_sends"`
}

// Line is the line of a report for people that gives p.
func (p P2P) Line() string {
	return fmt.Sprintf("point-to-point: %d sends, %d bytes; %d receives, %d matched; %d sends unmatched\n",
		p.Sends, p.SendBytes, p.Receives, p.Matched, p.UnmatchedSends)
}

// Warnings are the report's warnings of p, one sentence each: the sends
// no receive matched.
func (p P2P) Warnings() []string {
	if p.UnmatchedSends > 0 {
		return []string{fmt.Sprintf("%d point-to-point sends matched no receive (they are replayed all the same)", p.UnmatchedSends)}
	}
	return nil
}

// Emit writes the nodes as a trace in the given order, a permutation of
// all of them (the position in
// the order is the message id): ranks placed on hosts, a queue pair per
// (source rank, destination rank), synchronization points on no queue
// pair, dependencies as message ids in ascending order.
func Emit(order []int32, node func(i int32) Node, nRanks int, hosts []int32, nHosts, ppn int) (*trace.Trace, Counts) {
	var c Counts
	id := make([]int64, len(order))
	for pos, i := range order {
		id[i] = int64(pos)
	}
	tr := &trace.Trace{Hosts: nHosts, Ranks: hosts, PPN: ppn, Messages: make([]trace.Message, len(order))}
	for pos, i := range order {
		nd := node(i)
		m := &tr.Messages[pos]
		*m = trace.Message{ID: int64(pos), Src: hosts[nd.Src], Dst: hosts[nd.Dst], Bytes: nd.Bytes,
			FlowID: int64(nd.Src)*int64(nRanks) + int64(nd.Dst), CollectiveID: nd.Coll,
			Iteration: trace.NoIteration, SrcRank: nd.Src, DstRank: nd.Dst}
		if nd.Sync {
			m.FlowID = trace.NoFlow
			c.SyncPoints++
		} else {
			c.Messages++
			c.Bytes += nd.Bytes
		}
		if len(nd.Deps) == 0 {
			m.Release = nd.Release
			continue
		}
		m.Deps = make([]int64, len(nd.Deps))
		for k, d := range nd.Deps {
			m.Deps[k] = id[d]
		}
		slices.Sort(m.Deps)
		m.Gap = nd.Gap
	}
	return tr, c
}
