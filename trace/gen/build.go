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
	n := len(g.hosts)
	res := result{touch: make([][]int64, n)}
	if n < 2 {
		return res
	}
	prev := make([]int64, n) // member a's send of the previous step
	for k := 1; k < n; k++ {
		cur := make([]int64, n)
		for a := range n {
			m := g.msg(a, (a+k)%n, bytes)
			m.CollectiveID, m.Iteration = ph.coll, ph.iter
			if k == 1 {
				b.start(&m, ph.ready[a], ph.gap, ph.release)
			} else {
				// the receive of step k-1 is the send of a-(k-1)
				m.Deps = []int64{prev[(a-(k-1)+n)%n], prev[a]}
			}
			cur[a] = b.add(m)
			res.msgs = append(res.msgs, cur[a])
		}
		prev = cur
	}
	for a := range n {
		res.touch[a] = []int64{prev[a], prev[(a-(n-1)+n)%n]}
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
	res := result{touch: make([][]int64, n)}
	if n < 2 {
		return res
	}
	chunk := (bytes + int64(n) - 1) / int64(n)
	prev := make([]int64, n) // member a's send of the previous step
	for s := range 2 * (n - 1) {
		cur := make([]int64, n)
		for a := range n {
			m := g.msg(a, (a+1)%n, chunk)
			m.CollectiveID, m.Iteration = ph.coll, ph.iter
			if s == 0 {
				b.start(&m, ph.ready[a], ph.gap, ph.release)
			} else {
				m.Deps = []int64{prev[(a+n-1)%n], prev[a]} // receive, own send
			}
			cur[a] = b.add(m)
			res.msgs = append(res.msgs, cur[a])
		}
		prev = cur
	}
	for a := range n {
		res.touch[a] = []int64{prev[a], prev[(a+n-1)%n]}
	}
	return res
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
