package dumpi

import (
	"github.com/ccreplay/ccreplay/ingest/internal/depgraph"
	"github.com/ccreplay/ccreplay/trace"
)

// The trace builder: phases 3 to 5 over the ranks' reduced programs
// (events.go) and their resolved communicators (comm.go).

// node is a message of the trace being built: a data message between
// ranks, or a synchronization point of one rank (sync).
type node struct {
	src, dst int32 // ranks
	bytes    int64
	sync     bool
	coll     int64   // collective id, or -1
	deps     []int32 // node indices
	gap      int64   // ns after the last dependency
	release  int64   // ns after the trace's start, for nodes without dependencies
	when     int64   // recorded time, ns after the start: the order of the trace
}

// instance is one collective call over a communicator.
type instance struct {
	fn    FuncID
	comm  *commInfo
	key   commKey
	ops   []*collOp // by communicator rank
	id    int64
	first int64 // earliest entry
	// parts[k] are communicator rank k's messages, by step.
	parts [][]part
	skip  string // why the call is left out, or ""
}

// part is one message a rank sends (out) or receives in a collective.
type part = depgraph.Part

// builder holds phases 3 to 5.
type builder struct {
	opt   Options
	logs  []*rankLog
	res   *resolver
	rep   *Report
	nodes []node
	t0    int64
	skips map[skipKey]int64

	sendNode  [][]int32 // rank -> send index -> node, or -1
	recvMatch [][]int32 // rank -> receive index -> node of the matched send, or -1
	collInst  [][]*instance
	collFns   []FuncID // by collective id
}

// build turns the ranks' reduced programs into a trace: communicators
// (phase 2), point-to-point matching (3), collectives (4), dependencies
// (5), then the trace order.
func build(logs []*rankLog, opt Options) (*trace.Trace, *Report, error) {
	tr, rep, _, err := buildWith(logs, opt, nil)
	return tr, rep, err
}

// buildWith is build with phase 2 done by the caller when res is not nil;
// it also returns the function of each collective, by CollectiveID.
func buildWith(logs []*rankLog, opt Options, res *resolver) (*trace.Trace, *Report, []FuncID, error) {
	n := len(logs)
	if opt.EagerLimit == 0 {
		opt.EagerLimit = DefaultEagerLimit
	}
	hosts, nHosts, ppn, err := placement(n, opt)
	if err != nil {
		return nil, nil, nil, err
	}
	b := &builder{opt: opt, logs: logs, skips: map[skipKey]int64{},
		rep: &Report{Ranks: n, Hosts: nHosts, PPN: ppn, Calls: map[string]int64{}, NotRecorded: map[string]int64{}, Collectives: map[string]int64{}}}
	// The trace starts at the earliest first call of any rank.
	started := false
	last := int64(0)
	for _, l := range logs {
		if l.records == 0 {
			continue
		}
		if !started || l.first < b.t0 {
			b.t0 = l.first
		}
		if !started || l.last > last {
			last = l.last
		}
		started = true
	}
	b.rep.DurationNs = last - b.t0
	b.res = res
	if b.res == nil {
		b.res = resolveComms(logs)
	}
	b.matchP2P()
	b.collectives()
	for r := range logs {
		b.walk(r)
	}
	order, err := b.order()
	if err != nil {
		return nil, nil, nil, err
	}
	tr := b.emit(order, hosts, nHosts, ppn)
	b.report()
	return tr, b.rep, b.collFns, nil
}

// add appends a node and returns its index.
func (b *builder) add(nd node) int32 {
	b.nodes = append(b.nodes, nd)
	return int32(len(b.nodes) - 1)
}

// skip counts a call left out, with why.
func (b *builder) skip(fn FuncID, why string) { b.skips[skipKey{fn.String(), why}]++ }

// comm resolves rank r's communicator handle ref, used by a call fn, to
// the communicator and its global id. When it cannot, it counts the call
// as skipped, with the reason, and returns nil.
func (b *builder) comm(r int, ref int32, fn FuncID) (*commInfo, int32) {
	c, gid, why := b.res.global(r, ref)
	if c == nil {
		b.skip(fn, why)
	}
	return c, gid
}

// rendezvous reports whether waiting for send s means waiting for its
// delivery (Options.EagerLimit).
func (b *builder) rendezvous(s *sendOp) bool {
	return s.sync || b.opt.EagerLimit < 0 || s.bytes > b.opt.EagerLimit
}
