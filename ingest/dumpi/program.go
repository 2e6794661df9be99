package dumpi

import (
	"fmt"

	"github.com/ccreplay/ccreplay/trace"
)

// A neutral entry to phases 3 to 5, for readers of other trace formats
// (ingest/otf2): they describe each rank's MPI activity as a Program over
// explicit communicators, and Build turns it into a trace with exactly the
// rules of Load (point-to-point matching, collective algorithms,
// dependencies, gaps and synchronization points; see the package
// comment).

// CallKind is the kind of a Call.
type CallKind uint8

// The kinds of calls of a Program.
const (
	// CallSend starts a point-to-point send (Peer is the destination's
	// rank in Comm). A blocking send is a CallSend followed by a CallWait
	// naming it.
	CallSend CallKind = iota + 1
	// CallRecv posts a receive (Peer is the source's rank in Comm, or
	// AnySource). A blocking receive is a CallRecv followed by a CallWait.
	CallRecv
	// CallWait is a call that returned after the sends and receives
	// listed in Done completed (MPI_Wait and its kin, blocking calls).
	CallWait
	// CallCollective is a collective call on Comm (Func says which).
	CallCollective
)

// AnySource is the Peer of a receive from MPI_ANY_SOURCE, and AnyTag the
// Tag of a receive of MPI_ANY_TAG.
const (
	AnySource int32 = anySource
	AnyTag    int32 = anyTag
)

// Call is one step of a rank's Program.
type Call struct {
	// Kind says what the call does.
	Kind CallKind
	// Func is the MPI function, for reports and for the collective
	// algorithm of a CallCollective (e.g. FuncByName("MPI_Allreduce")).
	Func FuncID
	// Entry and Exit are the call's wall-clock times, nanoseconds on a
	// clock common to all ranks.
	Entry, Exit int64
	// Comm is the communicator: an index into the communicators given to
	// Build.
	Comm int32
	// Peer is the other rank of a send or receive, as a rank of Comm.
	Peer int32
	// Tag is the message tag of a send or receive.
	Tag int32
	// Bytes is the size of a send, or the rank's contribution to a
	// collective (see collective's table in calls.go: the buffer of
	// Bcast, Reduce, Allreduce, Scan; the block of Gather, Scatter,
	// Allgather, Alltoall).
	Bytes int64
	// Sync marks a synchronous send (it completes only when delivered).
	Sync bool
	// Root is the root of a rooted collective, as a rank of Comm; -1 for
	// others.
	Root int32
	// Counts are per-peer byte counts of the v and w collectives, by rank
	// of Comm.
	Counts []int64
	// Done lists, for a CallWait, the indices into Program.Calls of the
	// CallSend and CallRecv calls it completed.
	Done []int32
	// Source is, for a CallRecv from AnySource, the source the completed
	// receive reported (a rank of Comm), or -1.
	Source int32
}

// Program is one rank's MPI activity in program order.
type Program struct {
	// File names where the rank's calls were read, for reports.
	File string
	// Calls are the rank's calls in program order.
	Calls []Call
}

// Build turns the programs of a job's ranks (progs[r] is world rank r's)
// into a trace, with the rules of Load. comms[k] lists the world ranks of
// communicator k, by rank in it; Call.Comm indexes it. Report fields that
// come from DUMPI files (Files, Version, Hostname, StartTime, NotRecorded)
// are left empty.
func Build(progs []Program, comms [][]int32, opt Options) (*trace.Trace, *Report, error) {
	tr, rep, _, err := BuildCollectives(progs, comms, opt)
	return tr, rep, err
}

// BuildCollectives is Build that also returns the MPI function of each
// decomposed collective, indexed by the CollectiveID of its messages.
func BuildCollectives(progs []Program, comms [][]int32, opt Options) (*trace.Trace, *Report, []FuncID, error) {
	n := len(progs)
	if n == 0 {
		return nil, nil, nil, fmt.Errorf("dumpi: no ranks")
	}
	for k, c := range comms {
		seen := make(map[int32]bool, len(c))
		for _, w := range c {
			if w < 0 || int(w) >= n {
				return nil, nil, nil, fmt.Errorf("dumpi: communicator %d has world rank %d out of %d ranks", k, w, n)
			}
			if seen[w] {
				return nil, nil, nil, fmt.Errorf("dumpi: communicator %d lists world rank %d twice", k, w)
			}
			seen[w] = true
		}
	}
	logs := make([]*rankLog, n)
	for r := range progs {
		logs[r] = programLog(r, &progs[r])
	}
	return buildWith(logs, opt, explicitComms(logs, comms))
}

// programLog reduces a Program to a rankLog (phase 1).
func programLog(r int, p *Program) *rankLog {
	l := &rankLog{rank: r, file: p.File, calls: make([]int64, len(funcTable)), skips: map[skipKey]int64{}}
	refs := make([]opRef, len(p.Calls))
	valid := make([]bool, len(p.Calls))
	for i := range p.Calls {
		c := &p.Calls[i]
		l.records++
		if int(c.Func) < len(l.calls) {
			l.calls[c.Func]++
		}
		entry, exit := c.Entry, max(c.Exit, c.Entry)
		if l.records == 1 {
			l.first, l.last = entry, exit
		}
		l.first, l.last = min(l.first, entry), max(l.last, exit)
		switch c.Kind {
		case CallSend:
			l.sends = append(l.sends, sendOp{fn: c.Func, comm: c.Comm, dest: c.Peer, tag: c.Tag,
				bytes: min(max(c.Bytes, 0), maxBytes), entry: entry, sync: c.Sync})
			refs[i], valid[i] = sendRef(len(l.sends)-1), true
			l.events = append(l.events, event{kind: evIssue, a: int32(refs[i]), entry: entry, exit: exit})
		case CallRecv:
			src := c.Source
			if c.Peer != anySource || src < 0 {
				src = -2
			}
			l.recvs = append(l.recvs, recvOp{fn: c.Func, comm: c.Comm, source: c.Peer, tag: c.Tag, stSource: src})
			refs[i], valid[i] = recvRef(len(l.recvs)-1), true
			l.events = append(l.events, event{kind: evPost, a: int32(len(l.recvs) - 1), entry: entry, exit: exit})
		case CallWait:
			var done []opRef
			for _, d := range c.Done {
				if d >= 0 && int(d) < i && valid[d] {
					done = append(done, refs[d])
				}
			}
			if len(done) > 0 {
				l.events = append(l.events, event{kind: evWait, entry: entry, exit: exit, done: done})
			}
		case CallCollective:
			counts := make([]int64, len(c.Counts))
			for k, v := range c.Counts {
				counts[k] = min(max(v, 0), maxBytes)
			}
			if c.Counts == nil {
				counts = nil
			}
			l.colls = append(l.colls, collOp{fn: c.Func, comm: c.Comm, entry: entry, root: c.Root,
				bytes: min(max(c.Bytes, 0), maxBytes), counts: counts})
			l.events = append(l.events, event{kind: evColl, a: int32(len(l.colls) - 1), entry: entry, exit: exit})
		}
	}
	return l
}

// explicitComms is phase 2 for communicators given by their members: a
// rank's reference k is communicator k when the rank is a member.
func explicitComms(logs []*rankLog, comms [][]int32) *resolver {
	res := &resolver{}
	for _, c := range comms {
		res.comms = append(res.comms, newComm(append([]int32(nil), c...)))
	}
	for r, l := range logs {
		rc := &rankComms{log: l, refs: make([]int32, len(comms)), why: make([]string, len(comms))}
		for k, c := range res.comms {
			if c.rankOf(int32(r)) >= 0 {
				rc.refs[k] = int32(k)
			} else {
				rc.refs[k] = -1
				rc.why[k] = fmt.Sprintf("rank %d is not a member of the communicator", r)
			}
		}
		res.ranks = append(res.ranks, rc)
	}
	return res
}
