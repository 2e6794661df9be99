package dumpi

import "slices"

// Phase 3: point-to-point sends become messages; receives are matched to them.

// sendQueue holds the sends from one rank to another on one communicator,
// in the sender's program order.
type sendQueue struct {
	nodes   []int32
	tags    []int32
	matched []bool
	head    int // first unmatched
}

// find returns the first unmatched send whose tag matches, or -1.
func (q *sendQueue) find(tag int32) int {
	for q.head < len(q.nodes) && q.matched[q.head] {
		q.head++
	}
	for i := q.head; i < len(q.nodes); i++ {
		if !q.matched[i] && (tag == anyTag || q.tags[i] == tag) {
			return i
		}
	}
	return -1
}

type queueKey struct{ comm, src, dst int32 }

// matchP2P is phase 3: sends become messages; each receive is matched to
// the first unmatched send from its source with a matching tag on its
// communicator, in the order receives were posted (MPI's non-overtaking
// rule). A receive from MPI_ANY_SOURCE takes the source its recorded
// status names when that works, else the earliest-sent candidate.
func (b *builder) matchP2P() {
	queues := map[queueKey]*sendQueue{}
	sources := map[[2]int32][]int32{} // (comm, dst) -> sources with sends, ascending
	b.sendNode = make([][]int32, len(b.logs))
	for r, l := range b.logs {
		b.sendNode[r] = slices.Repeat([]int32{-1}, len(l.sends))
		for k := range l.sends {
			s := &l.sends[k]
			c, gid := b.comm(r, s.comm, s.fn)
			if c == nil {
				continue
			}
			if s.dest < 0 || int(s.dest) >= len(c.members) {
				b.skip(s.fn, "destination outside the communicator (MPI_PROC_NULL): nothing sent")
				continue
			}
			dst := c.members[s.dest]
			nd := b.add(node{src: int32(r), dst: dst, bytes: s.bytes, coll: -1, when: s.entry - b.t0})
			b.sendNode[r][k] = nd
			key := queueKey{gid, int32(r), dst}
			q := queues[key]
			if q == nil {
				q = &sendQueue{}
				queues[key] = q
				sk := [2]int32{gid, dst}
				sources[sk] = append(sources[sk], int32(r))
			}
			q.nodes = append(q.nodes, nd)
			q.tags = append(q.tags, s.tag)
			q.matched = append(q.matched, false)
		}
	}
	b.recvMatch = make([][]int32, len(b.logs))
	for r, l := range b.logs {
		b.recvMatch[r] = slices.Repeat([]int32{-1}, len(l.recvs))
		for k := range l.recvs {
			rv := &l.recvs[k]
			c, gid := b.comm(r, rv.comm, rv.fn)
			if c == nil {
				continue
			}
			var q *sendQueue
			i := -1
			switch {
			case rv.source == anySource:
				if rv.stSource >= 0 && int(rv.stSource) < len(c.members) {
					if q = queues[queueKey{gid, c.members[rv.stSource], int32(r)}]; q != nil {
						i = q.find(rv.tag)
					}
				}
				if i < 0 {
					best := int64(0)
					for _, src := range sources[[2]int32{gid, int32(r)}] {
						cq := queues[queueKey{gid, src, int32(r)}]
						if j := cq.find(rv.tag); j >= 0 && (i < 0 || b.nodes[cq.nodes[j]].when < best) {
							q, i, best = cq, j, b.nodes[cq.nodes[j]].when
						}
					}
				}
			case rv.source < 0 || int(rv.source) >= len(c.members):
				b.skip(rv.fn, "source outside the communicator (MPI_PROC_NULL): nothing received")
				continue
			default:
				if q = queues[queueKey{gid, c.members[rv.source], int32(r)}]; q != nil {
					i = q.find(rv.tag)
				}
			}
			if i < 0 {
				continue
			}
			q.matched[i] = true
			b.recvMatch[r][k] = q.nodes[i]
		}
	}
}
