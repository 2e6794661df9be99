package chakra

import (
	"container/heap"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/ccreplay/ccreplay/ingest/chakra/etpb"
	"github.com/ccreplay/ccreplay/limits"
)

// One rank's graph: its nodes checked and reduced to what the trace
// needs, in a topological order of their dependencies.

// opKind is what a node becomes in the trace.
type opKind uint8

const (
	opNone  opKind = iota // nothing: completes when its dependencies do
	opDelay               // a delay of dur (compute and memory nodes)
	opSend                // a message to peer
	opRecv                // waits for the matching message from peer
	opColl                // takes part in a collective
)

// op is one node of a rank's graph.
type op struct {
	kind  opKind
	deps  []int32 // indices of the nodes it has a data dependency on
	ctrl  []int32 // indices of the nodes it has a control dependency on
	dur   int64   // µs, for opDelay
	peer  int32   // world rank: the destination of a send, the source of a receive
	tag   int64   // send and receive
	bytes int64   // send and collective
	coll  etpb.CollectiveCommType
	pg    string // process group of a collective, "" for all ranks
}

// rankGraph is one rank's file reduced to ops.
type rankGraph struct {
	file  string
	rank  int32
	ops   []op
	order []int32 // a topological order of ops, earliest in file first
	types map[string]int64
	skips map[skipKey]int64
	// first and end span the recorded node times, µs; seen is false when
	// no node carries a time.
	first, end int64
	seen       bool
}

// skipKey is a kind of node or attribute left out, with why.
type skipKey struct{ kind, reason string }

// supported is what each collective kind becomes; a kind not listed is
// skipped.
var supported = map[etpb.CollectiveCommType]bool{
	etpb.CollectiveCommType_ALL_REDUCE:           true,
	etpb.CollectiveCommType_ALL_GATHER:           true,
	etpb.CollectiveCommType_BROADCAST:            true,
	etpb.CollectiveCommType_ALL_TO_ALL:           true,
	etpb.CollectiveCommType_REDUCE_SCATTER:       true,
	etpb.CollectiveCommType_REDUCE_SCATTER_BLOCK: true,
	etpb.CollectiveCommType_BARRIER:              true,
}

// newRankGraph checks rank's file and reduces its nodes to ops: node ids
// unique, data dependencies on nodes of the file and without cycles,
// node types and comm_type values of the schema, peers among the n
// ranks. Control dependencies are kept unless ignoreCtrl; those on a
// node not in the file, on the node itself or closing a cycle are
// dropped and reported.
func newRankGraph(f *File, rank int32, n int, ignoreCtrl bool) (*rankGraph, error) {
	g := &rankGraph{file: f.Name, rank: rank, ops: make([]op, len(f.Nodes)),
		types: map[string]int64{}, skips: map[skipKey]int64{}}
	byID := make(map[uint64]int32, len(f.Nodes))
	for i, nd := range f.Nodes {
		if j, dup := byID[nd.GetId()]; dup {
			return nil, errorf(f.Name, i, "id %d is also node %d's", nd.GetId(), j)
		}
		byID[nd.GetId()] = int32(i)
	}
	for i, nd := range f.Nodes {
		o := &g.ops[i]
		for k, list := range [][]uint64{nd.GetDataDeps(), nd.GetCtrlDeps()} {
			if k == 1 && ignoreCtrl {
				break
			}
			for _, id := range list {
				j, ok := byID[id]
				if !ok && k == 1 {
					// NB: Chakra's PyTorch converter writes an op's parent as
					// its control dependency and may then drop the parent
					// (pytorch_converter.py, remove_dangling_nodes).
					g.skips[skipKey{"ctrl_deps", "on a node not in the file (a parent op the converter removed): dropped"}]++
					continue
				}
				if !ok {
					return nil, errorf(f.Name, i, "data dependency on node id %d, which is not in the file", id)
				}
				if j == int32(i) && k == 1 {
					// NB: so does it write some nodes' own id (the second half
					// of a split op, "aten::threshold_backward(1)").
					g.skips[skipKey{"ctrl_deps", "on the node itself: dropped"}]++
					continue
				}
				if j == int32(i) {
					return nil, errorf(f.Name, i, "depends on itself (id %d)", id)
				}
				if k == 0 {
					o.deps = append(o.deps, j)
				} else {
					o.ctrl = append(o.ctrl, j)
				}
			}
		}
		if err := g.reduce(o, nd, n); err != nil {
			return nil, errorf(f.Name, i, "%s", err.Error())
		}
		if st, d := nd.GetStartTimeMicros(), nd.GetDurationMicros(); st != 0 {
			end := satAdd(int64(min(st, math.MaxInt64)), int64(min(d, math.MaxInt64)))
			if !g.seen || int64(st) < g.first {
				g.first = int64(min(st, math.MaxInt64))
			}
			g.end = max(g.end, end)
			g.seen = true
		}
	}
	if err := g.sort(); err != nil {
		return nil, err
	}
	return g, nil
}

// satAdd adds two non-negative values, saturating.
func satAdd(a, b int64) int64 {
	if a > math.MaxInt64-b {
		return math.MaxInt64
	}
	return a + b
}

// reduce fills o from node nd.
func (g *rankGraph) reduce(o *op, nd *etpb.Node, n int) error {
	t := nd.GetType()
	name, known := etpb.NodeType_name[int32(t)]
	if !known || t == etpb.NodeType_INVALID_NODE {
		return fmt.Errorf("node type %d is not a Chakra node type", int32(t))
	}
	g.types[name]++
	at, err := readAttrs(nd)
	if err != nil {
		return err
	}
	for _, a := range at.ignored {
		g.skips[skipKey{"attribute " + a, reasonUnused}]++
	}
	if at.hasPriority {
		g.skips[skipKey{"attribute comm_priority", "not modelled: every message uses the default traffic class"}]++
	}
	if at.hasInvolvedDim {
		for _, d := range at.involvedDim {
			if !d {
				g.skips[skipKey{"attribute involved_dim", "network dimensions are not modelled: the collective spans its whole process group"}]++
				break
			}
		}
	}
	size := func() (int64, error) {
		switch {
		case at.commSize > limits.MaxMessageBytes, at.commSize < 0 && at.tensorSize > limits.MaxMessageBytes:
			return 0, fmt.Errorf("size %d is beyond the limit of %d bytes", max(at.commSize, at.tensorSize), limits.MaxMessageBytes)
		case at.commSize >= 0:
			return at.commSize, nil
		case at.commSize < -1:
			return 0, fmt.Errorf("comm_size %d is negative", at.commSize)
		case at.tensorSize >= 0:
			return at.tensorSize, nil
		case at.tensorSize < -1:
			return 0, fmt.Errorf("tensor_size %d is negative", at.tensorSize)
		}
		return -1, nil
	}
	// NB: durations are unsigned in the schema; Convert rejects those
	// beyond limits.MaxTime once scaled.
	dur := int64(min(nd.GetDurationMicros(), math.MaxInt64))
	switch t {
	case etpb.NodeType_METADATA_NODE:
		o.kind = opNone
	case etpb.NodeType_COMP_NODE:
		o.kind, o.dur = opDelay, dur
		if dur == 0 && at.numOps > 0 {
			g.skips[skipKey{name, "num_ops without duration_micros: the compute time is not derived from operation counts (no roofline model); the node takes no time"}]++
		}
	case etpb.NodeType_MEM_LOAD_NODE, etpb.NodeType_MEM_STORE_NODE:
		o.kind, o.dur = opDelay, dur
		g.skips[skipKey{name, "memory traffic is not modelled: the node is a delay of its duration_micros"}]++
	case etpb.NodeType_COMM_SEND_NODE, etpb.NodeType_COMM_RECV_NODE:
		peer, what := at.commDst, "comm_dst"
		if t == etpb.NodeType_COMM_RECV_NODE {
			peer, what = at.commSrc, "comm_src"
		}
		if peer == -1 {
			g.skips[skipKey{name, "no " + what + " attribute: the peer is unknown; the node takes no time"}]++
			return nil
		}
		if peer < 0 || peer >= int64(n) {
			return fmt.Errorf("%s %d is not one of the %d ranks", what, peer, n)
		}
		b, err := size()
		if err != nil {
			return err
		}
		if b < 0 {
			b = 0
			if t == etpb.NodeType_COMM_SEND_NODE {
				g.skips[skipKey{name, "no comm_size attribute: sent as 0 bytes"}]++
			}
		}
		o.kind, o.peer, o.tag, o.bytes = opSend, int32(peer), at.commTag, b
		if t == etpb.NodeType_COMM_RECV_NODE {
			o.kind = opRecv
		}
	case etpb.NodeType_COMM_COLL_NODE:
		if at.commType == -1 {
			g.skips[skipKey{name, "no comm_type attribute: the collective is unknown; the node takes no time"}]++
			return nil
		}
		ct := etpb.CollectiveCommType(at.commType)
		ctName, ok := etpb.CollectiveCommType_name[int32(ct)]
		if !ok || at.commType != int64(int32(ct)) {
			return fmt.Errorf("comm_type %d is not a Chakra collective type", at.commType)
		}
		if !supported[ct] {
			g.skips[skipKey{name + " " + ctName, "collective not modelled: the node takes no time"}]++
			return nil
		}
		b, err := size()
		if err != nil {
			return err
		}
		if b < 0 {
			b = 0
			if ct != etpb.CollectiveCommType_BARRIER {
				g.skips[skipKey{name + " " + ctName, "no comm_size attribute: moves 0 bytes"}]++
			}
		}
		o.kind, o.coll, o.bytes, o.pg = opColl, ct, b, at.pgName
	}
	return nil
}

// indexHeap is a min-heap of node indices.
type indexHeap []int32

// Len, Less, Swap, Push and Pop implement heap.Interface.
func (h indexHeap) Len() int           { return len(h) }
func (h indexHeap) Less(i, j int) bool { return h[i] < h[j] }
func (h indexHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *indexHeap) Push(x any)        { *h = append(*h, x.(int32)) }
func (h *indexHeap) Pop() any {
	x := (*h)[len(*h)-1]
	*h = (*h)[:len(*h)-1]
	return x
}

// sort sets g.order to a topological order of the dependencies that
// takes the earliest node in file order first (Kahn's algorithm), or
// reports a cycle of data dependencies. When only control dependencies
// stand in the way (the remaining nodes wait for each other through at
// least one of them), the earliest node whose data dependencies are done
// goes next and its pending control dependencies are dropped.
func (g *rankGraph) sort() error {
	n := len(g.ops)
	indeg := make([]int32, n)  // pending dependencies, data and control
	dindeg := make([]int32, n) // pending data dependencies
	dsucc := make([][]int32, n)
	csucc := make([][]int32, n)
	for i := range g.ops {
		o := &g.ops[i]
		for _, d := range o.deps {
			dsucc[d] = append(dsucc[d], int32(i))
		}
		for _, d := range o.ctrl {
			csucc[d] = append(csucc[d], int32(i))
		}
		dindeg[i] = int32(len(o.deps))
		indeg[i] = int32(len(o.deps) + len(o.ctrl))
	}
	if err := g.dataCycle(dindeg, dsucc); err != nil {
		return err
	}
	const (
		waiting = iota
		queued
		done
	)
	state := make([]uint8, n)
	h, dataReady := indexHeap{}, indexHeap{}
	for i := range n {
		if indeg[i] == 0 {
			h = append(h, int32(i))
			state[i] = queued
		} else if dindeg[i] == 0 {
			dataReady = append(dataReady, int32(i))
		}
	}
	heap.Init(&h)
	heap.Init(&dataReady)
	g.order = make([]int32, 0, n)
	for len(g.order) < n {
		if h.Len() == 0 {
			// Only control dependencies are left, in a cycle: break it at
			// the earliest node whose data dependencies are done (one is,
			// the data dependencies having no cycle).
			var i int32
			for {
				i = heap.Pop(&dataReady).(int32)
				if state[i] == waiting {
					break
				}
			}
			o := &g.ops[i]
			kept := o.ctrl[:0]
			for _, d := range o.ctrl {
				if state[d] == done {
					kept = append(kept, d)
				} else {
					g.skips[skipKey{"ctrl_deps", "closing a dependency cycle: dropped"}]++
				}
			}
			o.ctrl = kept
			state[i] = queued
			heap.Push(&h, i)
		}
		i := heap.Pop(&h).(int32)
		state[i] = done
		g.order = append(g.order, i)
		for _, s := range dsucc[i] {
			if state[s] != waiting {
				continue
			}
			indeg[s]--
			if dindeg[s]--; dindeg[s] == 0 && indeg[s] > 0 {
				heap.Push(&dataReady, s)
			}
			if indeg[s] == 0 {
				state[s] = queued
				heap.Push(&h, s)
			}
		}
		for _, s := range csucc[i] {
			if state[s] != waiting {
				continue
			}
			if indeg[s]--; indeg[s] == 0 {
				state[s] = queued
				heap.Push(&h, s)
			}
		}
	}
	return nil
}

// dataCycle reports a cycle of data dependencies, given the number of
// data dependencies of each node and its data successors.
func (g *rankGraph) dataCycle(dindeg []int32, dsucc [][]int32) error {
	n := len(g.ops)
	left := slices.Clone(dindeg)
	stack := []int32{}
	for i := range n {
		if left[i] == 0 {
			stack = append(stack, int32(i))
		}
	}
	visited := 0
	for len(stack) > 0 {
		i := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		visited++
		for _, s := range dsucc[i] {
			if left[s]--; left[s] == 0 {
				stack = append(stack, s)
			}
		}
	}
	if visited == n {
		return nil
	}
	// Walk back along data dependencies among the nodes left over until
	// one repeats: it is on a cycle.
	at := int32(-1)
	for i := range n {
		if left[i] > 0 {
			at = int32(i)
			break
		}
	}
	next := make([]int32, n)
	seen := make([]bool, n)
	for !seen[at] {
		seen[at] = true
		for _, d := range g.ops[at].deps {
			if left[d] > 0 {
				next[at] = d
				break
			}
		}
		at = next[at]
	}
	cycle := []int32{at}
	for c := next[at]; c != at; c = next[c] {
		cycle = append(cycle, c)
	}
	return errorf(g.file, int(at), "data dependency cycle through nodes %s", cycleString(cycle))
}

// cycleString prints a cycle of node indices, the first repeated last.
func cycleString(c []int32) string {
	var b strings.Builder
	for i, x := range c {
		if i == 8 && len(c) > 10 {
			fmt.Fprintf(&b, " ... (%d more)", len(c)-i)
			break
		}
		fmt.Fprintf(&b, "%d <- ", x)
	}
	fmt.Fprintf(&b, "%d", c[0])
	return b.String()
}

// reasonUnused marks attributes the reader has no use for; the report
// counts them apart from the skipped ones.
const reasonUnused = "not used by the reader"
