package chakra

import (
	"fmt"
	"github.com/ccreplay/ccreplay/ingest/internal/depgraph"
	"maps"
	"math"
	"path/filepath"
	"slices"

	"github.com/ccreplay/ccreplay/ingest/chakra/etpb"
	"github.com/ccreplay/ccreplay/units"
)

// The trace builder: point-to-point matching, collectives, then each
// rank's graph as dependencies, gaps and synchronization points.

// node is a message of the trace being built: a data message between
// ranks, or a synchronization point of one rank (sync).
type node struct {
	src, dst int32 // world ranks
	bytes    int64
	sync     bool
	coll     int64   // collective id, or -1
	deps     []int32 // node indices
	gap      units.Time
	// rank and op say which ET node made the message, for errors.
	rank, op int32
}

// instance is one collective over a process group.
type instance struct {
	ct      etpb.CollectiveCommType
	id      int64
	members []int32 // world ranks, by group rank
	// parts[k] are group rank k's messages, by step.
	parts [][]part
}

// part is one message a rank sends (out) or receives in a collective.
type part = depgraph.Part

// builder turns the ranks' graphs into trace messages.
type builder struct {
	opt    Options
	graphs []*rankGraph
	nodes  []node
	rep    *Report
	skips  map[skipKey]int64

	sendNode  [][]int32 // rank -> op -> node of its send, or -1
	recvMatch [][]int32 // rank -> op -> node of the matched send, or -1
	collInst  [][]*instance
	collRank  [][]int32 // rank -> op -> the rank's group rank in collInst
}

// add appends a node and returns its index.
func (b *builder) add(nd node) int32 {
	b.nodes = append(b.nodes, nd)
	return int32(len(b.nodes) - 1)
}

// newTable returns one slice per rank, one entry per op, all v.
func newTable[T any](graphs []*rankGraph, v T) [][]T {
	t := make([][]T, len(graphs))
	for r, g := range graphs {
		t[r] = make([]T, len(g.ops))
		for i := range t[r] {
			t[r][i] = v
		}
	}
	return t
}

// p2pKey identifies a channel of point-to-point messages.
type p2pKey struct {
	src, dst int32
	tag      int64
}

// matchP2P makes a message of every send and matches receives to sends:
// the k-th receive a rank posts (in file order) from src with tag t
// takes the k-th send of src to it with tag t.
func (b *builder) matchP2P() {
	b.sendNode = newTable(b.graphs, int32(-1))
	b.recvMatch = newTable(b.graphs, int32(-1))
	queue := map[p2pKey][]int32{}
	for r, g := range b.graphs {
		for i, o := range g.ops {
			if o.kind != opSend {
				continue
			}
			nd := b.add(node{src: int32(r), dst: o.peer, bytes: o.bytes, coll: -1, rank: int32(r), op: int32(i)})
			b.sendNode[r][i] = nd
			k := p2pKey{int32(r), o.peer, o.tag}
			queue[k] = append(queue[k], nd)
			b.rep.Sends++
			b.rep.SendBytes += o.bytes
			b.rep.PerRank[r].Sends++
			b.rep.PerRank[r].SendBytes += o.bytes
		}
	}
	for r, g := range b.graphs {
		for i, o := range g.ops {
			if o.kind != opRecv {
				continue
			}
			b.rep.Receives++
			b.rep.PerRank[r].Receives++
			k := p2pKey{o.peer, int32(r), o.tag}
			if q := queue[k]; len(q) > 0 {
				b.recvMatch[r][i] = q[0]
				queue[k] = q[1:]
				b.rep.Matched++
			}
		}
	}
	b.rep.UnmatchedSends = b.rep.Sends - b.rep.Matched
	b.rep.UnmatchedReceives = b.rep.Receives - b.rep.Matched
}

// collectives matches the collective nodes of the ranks into instances
// and decomposes each into messages. The k-th collective node (in file
// order) of every member of a process group is one instance; an instance
// some member lacks is left out.
func (b *builder) collectives() error {
	n := len(b.graphs)
	b.collInst = newTable[*instance](b.graphs, nil)
	b.collRank = newTable(b.graphs, int32(-1))
	seq := map[string][][]int32{} // group -> rank -> op indices
	for r, g := range b.graphs {
		for i, o := range g.ops {
			if o.kind != opColl {
				continue
			}
			if seq[o.pg] == nil {
				seq[o.pg] = make([][]int32, n)
			}
			seq[o.pg][r] = append(seq[o.pg][r], int32(i))
		}
	}
	var id int64
	for _, pg := range slices.Sorted(maps.Keys(seq)) {
		ops := seq[pg]
		members, err := b.members(pg, ops)
		if err != nil {
			return err
		}
		b.rep.Groups[pg] = members
		most := 0
		for _, l := range ops {
			most = max(most, len(l))
		}
		for k := range most {
			if err := b.instance(pg, k, members, ops, &id); err != nil {
				return err
			}
		}
	}
	return nil
}

// members returns the world ranks of process group pg, by group rank:
// Options.Groups[pg] when given, all ranks for the unnamed group, else
// the ranks with a collective on pg, in rank order.
func (b *builder) members(pg string, ops [][]int32) ([]int32, error) {
	var members []int32
	if given, ok := b.opt.Groups[pg]; ok {
		in := map[int32]bool{}
		for _, r := range given {
			if r < 0 || r >= len(b.graphs) || in[int32(r)] {
				return nil, fmt.Errorf("chakra: process group %q: rank %d is out of range or listed twice", pg, r)
			}
			in[int32(r)] = true
			members = append(members, int32(r))
		}
		for r, l := range ops {
			if len(l) > 0 && !in[int32(r)] {
				return nil, errorf(b.graphs[r].file, int(l[0]), "collective on process group %q, of which rank %d is not a member", pg, r)
			}
		}
		return members, nil
	}
	for r, l := range ops {
		if pg == "" || len(l) > 0 {
			members = append(members, int32(r))
		}
	}
	return members, nil
}

// instance builds the k-th collective of process group pg, or leaves it
// out when a member lacks it.
func (b *builder) instance(pg string, k int, members []int32, ops [][]int32, id *int64) error {
	var ct etpb.CollectiveCommType
	complete, ref := true, int32(-1) // ref: the first member with a k-th collective
	for _, r := range members {
		if k >= len(ops[r]) {
			complete = false
			continue
		}
		o := &b.graphs[r].ops[ops[r][k]]
		if ref < 0 {
			ct, ref = o.coll, r
			continue
		}
		if o.coll != ct {
			return errorf(b.graphs[r].file, int(ops[r][k]), "collective %d on process group %q is %s here but %s on rank %d (%s node %d)",
				k, pg, o.coll, ct, ref, filepath.Base(b.graphs[ref].file), ops[ref][k])
		}
	}
	if !complete {
		for _, r := range members {
			if k < len(ops[r]) {
				o := &b.graphs[r].ops[ops[r][k]]
				b.skips[skipKey{"COMM_COLL_NODE " + o.coll.String(), "not issued by every member of its process group: left out"}]++
			}
		}
		return nil
	}
	in := &instance{ct: ct, id: *id, members: members, parts: make([][]part, len(members))}
	*id++
	sizes := make([]int64, len(members))
	for m, r := range members {
		sizes[m] = b.graphs[r].ops[ops[r][k]].bytes
		b.collInst[r][ops[r][k]] = in
		b.collRank[r][ops[r][k]] = int32(m)
	}
	name := ct.String()
	b.rep.Collectives[name]++
	for _, cm := range decompose(ct, sizes) {
		src := members[cm.src]
		nd := b.add(node{src: src, dst: members[cm.dst], bytes: cm.bytes, coll: in.id, rank: src, op: ops[src][k]})
		in.parts[cm.src] = append(in.parts[cm.src], part{Step: cm.step, Node: nd, Out: true})
		in.parts[cm.dst] = append(in.parts[cm.dst], part{Step: cm.step, Node: nd})
		b.rep.CollectiveMessages++
		b.rep.CollectiveBytes[name] += cm.bytes
	}
	return nil
}

// gap converts a duration of d µs to a gap, scaled by the compute scale.
func (b *builder) gap(d int64) units.Time {
	ps := float64(d) * b.opt.ComputeScale * float64(units.Microsecond)
	if ps >= math.MaxInt64/2 {
		return math.MaxInt64 / 2
	}
	return units.Time(math.Round(ps))
}

// walk turns rank r's graph into dependencies. Every node has a
// completion set: the trace messages whose completion means the node is
// done. A node's dependencies are done when the union U of their
// completion sets is complete (the rank's start point when it has none):
//
//   - a compute or memory node of d µs adds P = sync(U, Gap = d x
//     ComputeScale) and completes with P; of 0 µs, it completes with U;
//   - a send is its message, which depends on U when U is one message and
//     on sync(U) otherwise, and completes when delivered;
//   - a receive adds J = sync(U + the matched send) and completes with J;
//     an unmatched receive completes with U;
//   - a collective adds X = sync(U), the rank entering it (it carries the
//     CollectiveID), then the rank's messages step by step
//     (collectiveSteps), then J = sync(the messages of its last step), and
//     completes with J;
//   - any other node (metadata, skipped) completes with U.
func (b *builder) walk(r int) {
	g := b.graphs[r]
	rank := int32(r)
	point := func(deps []int32, gap units.Time, coll int64, op int32) int32 {
		return b.add(node{src: rank, dst: rank, sync: true, coll: coll, deps: deps, gap: gap, rank: rank, op: op})
	}
	start := point(nil, 0, -1, -1)
	done := make([][]int32, len(g.ops))
	for _, i := range g.order {
		o := &g.ops[i]
		var u []int32
		for _, d := range o.deps {
			u = append(u, done[d]...)
		}
		for _, d := range o.ctrl {
			u = append(u, done[d]...)
		}
		slices.Sort(u)
		u = slices.Compact(u)
		if len(u) == 0 {
			u = []int32{start}
		}
		switch o.kind {
		case opDelay:
			if o.dur == 0 {
				done[i] = u
				continue
			}
			done[i] = []int32{point(u, b.gap(o.dur), -1, i)}
		case opSend:
			if len(u) > 1 {
				u = []int32{point(u, 0, -1, i)}
			}
			nd := b.sendNode[r][i]
			b.nodes[nd].deps = u
			done[i] = []int32{nd}
		case opRecv:
			m := b.recvMatch[r][i]
			if m < 0 {
				done[i] = u
				continue
			}
			done[i] = []int32{point(append(slices.Clone(u), m), 0, -1, i)}
		case opColl:
			in := b.collInst[r][i]
			if in == nil {
				done[i] = u
				continue
			}
			x := point(u, 0, in.id, i)
			last := b.collectiveSteps(in.parts[b.collRank[r][i]], x)
			if len(last) == 1 && last[0] == x {
				done[i] = last
				continue
			}
			done[i] = []int32{point(last, 0, -1, i)}
		default:
			done[i] = u
		}
	}
}

// collectiveSteps sets the dependencies of a rank's messages in one
// collective and returns the messages its last step completed. The rank's
// progress P starts as {x}, its entry. A message it sends in a step
// depends on P (Gap 0); after the step, P becomes the step's messages,
// sent and received, when the rank sent in it, else P plus the step's
// received messages. Each step is a send-receive exchange that ends when
// its messages are delivered.
func (b *builder) collectiveSteps(parts []part, x int32) []int32 {
	return depgraph.Steps(parts, x, func(node int32, deps []int32) { b.nodes[node].deps = deps })
}
