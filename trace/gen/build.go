package gen

import (
	"github.com/ccreplay/ccreplay/trace"
	"github.com/ccreplay/ccreplay/units"
)

// newMsg returns a message of bytes from host src to host dst, with every
// optional field at its "none" value (no flow, collective, iteration or
// ranks; priority 0).
func newMsg(src, dst int32, bytes int64) trace.Message {
	return trace.Message{
		Src: src, Dst: dst, Bytes: bytes,
		FlowID: trace.NoFlow, CollectiveID: trace.NoCollective,
		Iteration: trace.NoIteration, SrcRank: trace.NoRank, DstRank: trace.NoRank,
	}
}

// builder appends messages to a trace, numbering them 0, 1, ... in trace
// order, so that a message's id is its index.
type builder struct {
	t     *trace.Trace
	arena []int64 // backing store for one-element Deps
}

// add appends m with the next id and returns the id.
func (b *builder) add(m trace.Message) int64 {
	m.ID = int64(len(b.t.Messages))
	b.t.Messages = append(b.t.Messages, m)
	return m.ID
}

// one returns the dependency list [id] without one allocation per call.
func (b *builder) one(id int64) []int64 {
	if len(b.arena) == 0 {
		b.arena = make([]int64, 4096)
	}
	d := b.arena[:1:1]
	b.arena = b.arena[1:]
	d[0] = id
	return d
}

// start makes m wait for dep plus gap, or, when dep is -1 (nothing to wait
// for), releases it at release.
func (b *builder) start(m *trace.Message, dep int64, gap, release units.Time) {
	if dep < 0 {
		m.Release = release
		return
	}
	m.Deps, m.Gap = b.one(dep), gap
}

// sync adds a synchronization point on host h (a zero-byte same-host
// message, trace.Message.IsSync) released gap after every message of deps
// has completed, or at release when deps is empty, and returns its id.
func (b *builder) sync(h int32, deps []int64, gap, release units.Time, iter int64, srcRank int32) int64 {
	m := newMsg(h, h, 0)
	m.Iteration, m.SrcRank, m.DstRank = iter, srcRank, srcRank
	if len(deps) == 0 {
		m.Release = release
	} else {
		m.Deps, m.Gap = deps, gap
	}
	return b.add(m)
}

// group is the members of a collective: member a runs on host hosts[a].
type group struct {
	hosts []int32
	// mpi says the members are MPI ranks: messages carry SrcRank and
	// DstRank (the trace's Ranks must equal hosts).
	mpi bool
	// perPair gives each ordered pair of members on different hosts one
	// queue pair, reused by every phase and iteration (as an MPI library
	// keeps its RC connections); otherwise every message gets its own.
	perPair bool
	// flowBase offsets the flow ids of this group.
	flowBase int64
	prio     int32
}

// msg returns a message of bytes from member a to member b.
func (g *group) msg(a, b int, bytes int64) trace.Message {
	m := newMsg(g.hosts[a], g.hosts[b], bytes)
	m.Priority = g.prio
	if g.mpi {
		m.SrcRank, m.DstRank = int32(a), int32(b)
	}
	if g.perPair && m.Src != m.Dst {
		m.FlowID = g.flowBase + int64(a)*int64(len(g.hosts)) + int64(b)
	}
	return m
}

// phase is when the members may start a collective: member a after
// message ready[a] has completed, plus gap, or at release when ready[a]
// is -1.
type phase struct {
	ready   []int64
	gap     units.Time
	release units.Time
	coll    int64 // collective id of the messages
	iter    int64 // iteration of the messages
}

// result is what a collective produced: every message id, and for each
// member the messages whose completion ends its part (after which it may
// go on).
type result struct {
	msgs  []int64
	touch [][]int64
}

// alltoall adds a personalized all-to-all: every member sends bytes to
// every other member, in the order of a pairwise exchange (shift k = 1,
// ..., n-1 outer, member a inner: a sends to (a+k) mod n), so that at each
// shift every member receives one message. A member's part ends when all
// its messages, in and out, have completed.
func (b *builder) alltoall(g *group, ph phase, bytes int64) result {
	n := len(g.hosts)
	res := result{touch: make([][]int64, n)}
	for k := 1; k < n; k++ {
		for a := range n {
			to := (a + k) % n
			m := g.msg(a, to, bytes)
			m.CollectiveID, m.Iteration = ph.coll, ph.iter
			b.start(&m, ph.ready[a], ph.gap, ph.release)
			id := b.add(m)
			res.msgs = append(res.msgs, id)
			res.touch[a] = append(res.touch[a], id)
			res.touch[to] = append(res.touch[to], id)
		}
	}
	return res
}

// pairwiseAlltoall adds an all-to-all by pairwise exchange (Open MPI's
// coll/tuned "pairwise" algorithm, MPICH's for long messages): n-1 steps;
// in step k member a sends bytes to (a+k) mod n and receives from
// (a-k) mod n, as MPI_Sendrecv, so a's step k waits for both its own step
// k-1 send and its step k-1 receive. A member's part ends with its last
// send and receive.
func (b *builder) pairwiseAlltoall(g *group, ph phase, bytes int64) result {
	return b.sendrecvSteps(g, ph, upTo(len(g.hosts)-1), func(int) int64 { return bytes }, shiftTo, shiftFrom)
}

// shiftTo and shiftFrom are the partners of member a in a step of
// distance d among n members: it sends to (a+d) mod n and receives from
// (a-d) mod n.
func shiftTo(a, d, n int) int   { return (a + d) % n }
func shiftFrom(a, d, n int) int { return (a - d + n) % n }

// upTo returns 1, 2, ..., k.
func upTo(k int) []int {
	out := make([]int, max(k, 0))
	for i := range out {
		out[i] = i + 1
	}
	return out
}

// sendrecvSteps adds an algorithm made of MPI_Sendrecv steps, one per
// element d of steps: in step d member a sends size(d) bytes to
// to(a, d, n) and receives from from(a, d, n) (the member that sends to
// it). A member's first send waits for the phase; its later sends wait for
// both its own previous send and its previous receive. A member's part
// ends with its last send and receive. Fewer than 2 members exchange
// nothing.
func (b *builder) sendrecvSteps(g *group, ph phase, steps []int, size func(d int) int64, to, from func(a, d, n int) int) result {
	n := len(g.hosts)
	res := result{touch: make([][]int64, n)}
	if n < 2 || len(steps) == 0 {
		return res
	}
	var prev []int64 // member a's send of the previous step
	for i, d := range steps {
		bytes := size(d)
		cur := make([]int64, n)
		for a := range n {
			m := g.msg(a, to(a, d, n), bytes)
			m.CollectiveID, m.Iteration = ph.coll, ph.iter
			if i == 0 {
				b.start(&m, ph.ready[a], ph.gap, ph.release)
			} else {
				m.Deps = []int64{prev[from(a, steps[i-1], n)], prev[a]} // receive, own send
			}
			cur[a] = b.add(m)
			res.msgs = append(res.msgs, cur[a])
		}
		prev = cur
	}
	last := steps[len(steps)-1]
	for a := range n {
		res.touch[a] = []int64{prev[a], prev[from(a, last, n)]}
	}
	return res
}

// ringAllreduce adds a ring all-reduce of a vector of bytes: a
// reduce-scatter then an all-gather, 2(n-1) steps in each of which member
// a sends a chunk of ceil(bytes/n) bytes to member (a+1) mod n. As with
// MPI_Sendrecv, a member's step s waits for both its own step s-1 send and
// its step s-1 receive. A member's part ends with its last send and
// receive.
func (b *builder) ringAllreduce(g *group, ph phase, bytes int64) result {
	n := len(g.hosts)
	chunk := (bytes + int64(n) - 1) / int64(n)
	ones := make([]int, max(2*(n-1), 0))
	for s := range ones {
		ones[s] = 1
	}
	return b.sendrecvSteps(g, ph, ones, func(int) int64 { return chunk }, shiftTo, shiftFrom)
}

// binomialBcast adds a broadcast of bytes from member 0 along a binomial
// tree (MPICH's short-message algorithm): in the round of mask = 1, 2, 4,
// ..., every member r < mask sends to r+mask. A member sends after it has
// received (and reached the phase), its sends one after the other as
// blocking MPI_Send calls. The receiver's readiness is not modelled (an
// eager send). A member's part ends with its receive and its last send.
func (b *builder) binomialBcast(g *group, ph phase, bytes int64) result {
	n := len(g.hosts)
	res := result{touch: make([][]int64, n)}
	recv := make([]int64, n)
	last := make([]int64, n) // last send of each member, -1 if none
	for a := range n {
		recv[a], last[a] = -1, -1
	}
	for mask := 1; mask < n; mask <<= 1 {
		for r := 0; r < mask && r+mask < n; r++ {
			m := g.msg(r, r+mask, bytes)
			m.CollectiveID, m.Iteration = ph.coll, ph.iter
			switch {
			case last[r] >= 0:
				m.Deps = b.one(last[r])
			case r == 0:
				b.start(&m, ph.ready[0], ph.gap, ph.release)
			case ph.ready[r] >= 0:
				m.Deps, m.Gap = []int64{recv[r], ph.ready[r]}, ph.gap
			default:
				m.Deps = b.one(recv[r])
			}
			last[r] = b.add(m)
			recv[r+mask] = last[r]
			res.msgs = append(res.msgs, last[r])
		}
	}
	for a := range n {
		for _, id := range []int64{recv[a], last[a]} {
			if id >= 0 {
				res.touch[a] = append(res.touch[a], id)
			}
		}
	}
	return res
}

// joins adds one synchronization point per member on its host, released
// gap after the member's part of res has completed (or after ready[a]
// when it had no part), and returns them as the next phase's ready list.
func (b *builder) joins(g *group, res result, ready []int64, gap, release units.Time, iter int64) []int64 {
	next := make([]int64, len(g.hosts))
	for a := range g.hosts {
		deps := res.touch[a]
		if len(deps) == 0 && ready[a] >= 0 {
			deps = b.one(ready[a])
		}
		rank := trace.NoRank
		if g.mpi {
			rank = int32(a)
		}
		next[a] = b.sync(g.hosts[a], deps, gap, release, iter, rank)
	}
	return next
}

// filled returns n copies of v.
func filled(n int, v int64) []int64 {
	out := make([]int64, n)
	for i := range out {
		out[i] = v
	}
	return out
}

// bruckAlltoall adds an all-to-all by Bruck's algorithm as MPICH runs it
// (MPIR_Alltoall_intra_brucks): ceil(log2 n) steps; in the step of
// distance d = 1, 2, 4, ... member a sends to (a+d) mod n, in one message,
// the blocks whose index has bit d set (bytes each, after the local
// rotation), and receives as many from (a-d) mod n. Each step is an
// MPI_Sendrecv: a's step waits for both its own previous send and its
// previous receive. The local rotations before and after cost no network
// time and are not modelled.
func (b *builder) bruckAlltoall(g *group, ph phase, bytes int64) result {
	n := len(g.hosts)
	var dist []int
	for d := 1; d < n; d *= 2 {
		dist = append(dist, d)
	}
	blocks := func(d int) int64 { // the block indices with bit d set
		c := int64(0)
		for i := range n {
			if i&d != 0 {
				c++
			}
		}
		return c * bytes
	}
	return b.sendrecvSteps(g, ph, dist, blocks, shiftTo, shiftFrom)
}

// scatteredAlltoall adds an all-to-all by MPICH's "scattered" algorithm
// (MPIR_Alltoall_intra_scattered): member a posts nonblocking receives
// and sends in batches of throttle destinations (all at once when
// throttle is 0), sending in batch ii to (a-ii-i) mod n for i < throttle,
// and waits for the whole batch (MPI_Waitall) before posting the next.
// The wait is a synchronization point on a's host after a's sends and
// receives of the batch; the last batch's messages end a's part.
func (b *builder) scatteredAlltoall(g *group, ph phase, bytes int64, throttle int) result {
	n := len(g.hosts)
	res := result{touch: make([][]int64, n)}
	if throttle <= 0 || throttle > n {
		throttle = n
	}
	join := slicesClone(ph.ready) // what member a's next batch waits for (-1: nothing)
	for ii := 0; ii < n; ii += throttle {
		ss := min(throttle, n-ii)
		done := make([][]int64, n) // member a's sends and receives of this batch
		for a := range n {
			for i := range ss {
				dst := ((a-ii-i)%n + n) % n
				if dst == a {
					continue // the copy to itself
				}
				m := g.msg(a, dst, bytes)
				m.CollectiveID, m.Iteration = ph.coll, ph.iter
				if ii == 0 {
					b.start(&m, join[a], ph.gap, ph.release)
				} else if join[a] >= 0 {
					m.Deps = b.one(join[a])
				} else {
					m.Release = ph.release
				}
				id := b.add(m)
				res.msgs = append(res.msgs, id)
				done[a] = append(done[a], id)
				done[dst] = append(done[dst], id)
			}
		}
		if ii+ss >= n {
			for a := range n {
				res.touch[a] = done[a]
			}
			break
		}
		for a := range n {
			if len(done[a]) == 0 {
				continue // nothing to wait for: the next batch waits for what this one did
			}
			rank := trace.NoRank
			if g.mpi {
				rank = int32(a)
			}
			join[a] = b.sync(g.hosts[a], done[a], 0, ph.release, ph.iter, rank)
		}
	}
	return res
}

func slicesClone(s []int64) []int64 { return append([]int64(nil), s...) }

// xorPairwiseAlltoall adds MPICH's pairwise exchange for a power-of-two
// number of members (MPIR_Alltoall_intra_pairwise): n-1 steps; in step k
// member a exchanges bytes with a XOR k, as MPI_Sendrecv, so a's step k
// waits for its own step k-1 send and its step k-1 receive (the send of
// a XOR (k-1)). For other sizes MPICH sends to a+k and receives from a-k,
// which is pairwiseAlltoall.
func (b *builder) xorPairwiseAlltoall(g *group, ph phase, bytes int64) result {
	xor := func(a, k, _ int) int { return a ^ k }
	return b.sendrecvSteps(g, ph, upTo(len(g.hosts)-1), func(int) int64 { return bytes }, xor, xor)
}
