package dumpi

import (
	"fmt"
	"math"
	"slices"

	"github.com/ccreplay/ccreplay/ingest/internal/depgraph"
	"github.com/ccreplay/ccreplay/trace"
	"github.com/ccreplay/ccreplay/units"
)

// The trace order, the trace itself and the report's counts.

// maxNs caps times and gaps, ns, so that picoseconds fit an int64 (about
// 106 days).
const maxNs = math.MaxInt64 / int64(units.Nanosecond)

// order returns the nodes in trace order: a topological order of the
// dependencies that follows the recorded times where it can (Kahn's
// algorithm with the earliest recorded node first). A cycle means the
// receives were matched inconsistently with the program order.
func (b *builder) order() ([]int32, error) {
	n := len(b.nodes)
	for i := range b.nodes {
		b.nodes[i].deps = depgraph.Tidy(b.nodes[i].deps)
	}
	order, _ := depgraph.Order(n, func(i int32) []int32 { return b.nodes[i].deps },
		func(i int32) int64 { return b.nodes[i].when }, nil)
	if len(order) != n {
		return nil, fmt.Errorf("dumpi: dependency cycle among %d messages: the receives could not be matched consistently with the ranks' program order (MPI_ANY_SOURCE receives?)", n-len(order))
	}
	return order, nil
}

// emit writes the nodes as a trace in the given order; the position in
// the order is the message id.
func (b *builder) emit(order []int32, hosts []int32, nHosts, ppn int) *trace.Trace {
	tr, c := depgraph.Emit(order, func(i int32) depgraph.Node {
		nd := &b.nodes[i]
		return depgraph.Node{Src: nd.src, Dst: nd.dst, Bytes: nd.bytes, Sync: nd.sync, Coll: nd.coll, Deps: nd.deps,
			Gap: units.Nanos(min(nd.gap, maxNs)), Release: units.Nanos(min(nd.release, maxNs))}
	}, len(b.logs), hosts, nHosts, ppn)
	b.rep.Messages += c.Messages
	b.rep.Bytes += c.Bytes
	b.rep.SyncPoints += c.SyncPoints
	return tr
}

// report fills the counts of the report.
func (b *builder) report() {
	rep := b.rep
	for r, l := range b.logs {
		rr := RankReport{File: l.file, Records: l.records, Calls: map[string]int64{}, Receives: int64(len(l.recvs))}
		for fn, c := range l.calls {
			if c > 0 {
				rr.Calls[FuncID(fn).String()] += c
				rep.Calls[FuncID(fn).String()] += c
			}
		}
		for k, nd := range b.sendNode[r] {
			if nd >= 0 {
				rr.Sends++
				rr.SendBytes += l.sends[k].bytes
			}
		}
		for _, m := range b.recvMatch[r] {
			if m >= 0 {
				rep.Matched++
			}
		}
		for fn, c := range l.ignored {
			if c > 0 && fn < NumFunctions {
				rep.NotRecorded[FuncID(fn).String()] += int64(c)
			}
		}
		rep.Records += l.records
		rep.Sends += rr.Sends
		rep.SendBytes += rr.SendBytes
		rep.Receives += rr.Receives
		rep.PerRank = append(rep.PerRank, rr)
		for k, c := range l.skips {
			b.skips[k] += c
		}
	}
	rep.UnmatchedSends = rep.Sends - rep.Matched
	for k, c := range b.skips {
		rep.Skipped = append(rep.Skipped, Skip{Call: k.call, Reason: k.reason, Count: c})
	}
	slices.SortFunc(rep.Skipped, func(x, y Skip) int {
		if x.Call != y.Call {
			if x.Call < y.Call {
				return -1
			}
			return 1
		}
		switch {
		case x.Reason < y.Reason:
			return -1
		case x.Reason > y.Reason:
			return 1
		}
		return 0
	})
}
