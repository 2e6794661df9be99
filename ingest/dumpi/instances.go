package dumpi

import (
	"fmt"
	"slices"
)

// Phase 4: collective calls across ranks become instances and their
// messages (collective.go).

// collectives is phase 4: the k-th collective call of each member on a
// communicator is one instance; each becomes the messages of its
// algorithm (collective.go), numbered in order of first entry.
func (b *builder) collectives() {
	insts := map[commKey]*instance{}
	var list []*instance
	seq := map[[2]int32]int32{} // (rank, comm) -> calls so far
	b.collInst = make([][]*instance, len(b.logs))
	for r, l := range b.logs {
		b.collInst[r] = make([]*instance, len(l.colls))
		for k := range l.colls {
			op := &l.colls[k]
			c, gid := b.comm(r, op.comm, op.fn)
			if c == nil {
				continue
			}
			sk := [2]int32{int32(r), gid}
			key := commKey{gid, seq[sk]}
			seq[sk]++
			in := insts[key]
			if in == nil {
				in = &instance{fn: op.fn, comm: c, key: key, ops: make([]*collOp, len(c.members)), first: op.entry}
				insts[key] = in
				list = append(list, in)
			}
			me := c.rankOf(int32(r))
			if in.fn != op.fn && in.skip == "" {
				in.skip = fmt.Sprintf("the ranks of a communicator disagree on the collective (%v and %v)", in.fn, op.fn)
			}
			in.ops[me] = op
			in.first = min(in.first, op.entry)
			b.collInst[r][k] = in
		}
	}
	slices.SortStableFunc(list, func(x, y *instance) int {
		switch {
		case x.first != y.first:
			return cmpInt(x.first, y.first)
		case x.key.parent != y.key.parent:
			return cmpInt(int64(x.key.parent), int64(y.key.parent))
		}
		return cmpInt(int64(x.key.seq), int64(y.key.seq))
	})
	nextID := int64(0)
	for _, in := range list {
		if in.skip == "" && slices.Contains(in.ops, nil) {
			in.skip = "not every member of the communicator made this call (trace incomplete?)"
		}
		var msgs []collMsg
		if in.skip == "" {
			var err error
			if msgs, err = decompose(in.fn, in.ops); err != nil {
				in.skip = err.Error()
			}
		}
		if in.skip != "" {
			for _, op := range in.ops {
				if op != nil {
					b.skip(op.fn, in.skip)
				}
			}
			in.parts = nil
			continue
		}
		in.id = nextID
		nextID++
		b.collFns = append(b.collFns, in.fn)
		b.rep.Collectives[in.fn.String()]++
		in.parts = make([][]part, len(in.ops))
		for _, m := range msgs {
			src, dst := in.comm.members[m.src], in.comm.members[m.dst]
			nd := b.add(node{src: src, dst: dst, bytes: m.bytes, coll: in.id, when: in.ops[m.src].entry - b.t0})
			in.parts[m.src] = append(in.parts[m.src], part{Step: m.step, Node: nd, Out: true})
			in.parts[m.dst] = append(in.parts[m.dst], part{Step: m.step, Node: nd})
			b.rep.CollectiveMessages++
			b.rep.CollectiveBytes += m.bytes
		}
	}
}

// cmpInt compares two integers for sorting.
func cmpInt(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
