package dumpi

import "github.com/ccreplay/ccreplay/ingest/internal/depgraph"

// Phase 5: each rank's program becomes dependencies, gaps and
// synchronization points.

// walk is phase 5 for rank r: its program becomes dependencies. The rank
// is a sequential process whose state is its current synchronization
// point cur, completed at wall time anchor of the recording:
//
//   - a message the rank issues depends on cur, with Gap = its call's
//     entry - anchor;
//   - a call that waits (MPI_Wait*, MPI_Recv, a blocking or successful
//     MPI_Test*, a rendezvous send) for a set W of messages to complete
//     (the sends matched to its receives, its own rendezvous sends) adds
//     R = sync(cur, Gap = entry - anchor), the rank reaching the call, and
//     J = sync(W + R), the call returning; then cur = J, anchor = the
//     call's exit. A wait for nothing modelled changes nothing;
//   - a collective adds X = sync(cur, Gap = entry - anchor), the rank
//     entering it, then its messages step by step (collectiveSteps), then
//     J = sync(the messages of its last step), cur = J, anchor = exit.
//
// The rank's first synchronization point has no dependencies and is
// released at the rank's first recorded call.
func (b *builder) walk(r int) {
	l := b.logs[r]
	rank := int32(r)
	point := func(deps []int32, gap, when int64, coll int64) int32 {
		return b.add(node{src: rank, dst: rank, sync: true, coll: coll, deps: deps, gap: max(gap, 0), when: when - b.t0})
	}
	anchor := l.first
	cur := point(nil, 0, l.first, -1)
	b.nodes[cur].release = max(l.first-b.t0, 0)
	for _, ev := range l.events {
		switch ev.kind {
		case evIssue:
			if nd := b.sendNode[r][ev.a]; nd >= 0 {
				b.nodes[nd].deps = []int32{cur}
				b.nodes[nd].gap = max(ev.entry-anchor, 0)
			}
		case evWait:
			var w []int32
			for _, op := range ev.done {
				if op >= 0 {
					if nd := b.sendNode[r][op]; nd >= 0 && b.rendezvous(&l.sends[op]) {
						w = append(w, nd)
					}
				} else if nd := b.recvMatch[r][-1-int(op)]; nd >= 0 {
					w = append(w, nd)
				}
			}
			if len(w) == 0 {
				continue
			}
			reach := point([]int32{cur}, ev.entry-anchor, ev.entry, -1)
			cur = point(append(w, reach), 0, ev.exit, -1)
			anchor = ev.exit
		case evColl:
			in := b.collInst[r][ev.a]
			if in == nil || in.parts == nil {
				continue
			}
			me := in.comm.rankOf(rank)
			x := point([]int32{cur}, ev.entry-anchor, ev.entry, in.id)
			last := b.collectiveSteps(in.parts[me], x)
			if len(last) == 1 && last[0] == x {
				cur, anchor = x, ev.entry
				continue
			}
			cur = point(last, 0, ev.exit, -1)
			anchor = ev.exit
		}
	}
}

// collectiveSteps sets the dependencies of a rank's messages in one
// collective and returns the messages its last step completed. The rank's
// progress P starts as {x}, its entry. A message it sends in a step
// depends on P (Gap 0); after the step, P becomes the step's messages,
// sent and received, when the rank sent in it (those sends depend on the
// old P), else P plus the step's received messages. This is MPI_Sendrecv
// per step with rendezvous completion: a step ends when its messages are
// delivered.
func (b *builder) collectiveSteps(parts []part, x int32) []int32 {
	return depgraph.Steps(parts, x, func(node int32, deps []int32) { b.nodes[node].deps = deps })
}
