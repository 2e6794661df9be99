package otf2

import (
	"github.com/ccreplay/ccreplay/ingest/dumpi"
)

// From events to calls. A rank's MPI events happen inside the region of
// the MPI call that made them (Score-P writes Enter(MPI_Isend), MpiIsend,
// Leave(MPI_Isend)); the call's entry and exit are that region's Enter
// and Leave. Each region with MPI events becomes, in program order:
//
//   - per MpiSend or MpiIsend, a send (dumpi.CallSend) issued at the
//     region's entry;
//   - per MpiIrecvRequest, a receive posted at the region's entry; its
//     source, tag and communicator come from the MpiIrecv that completes
//     it; per MpiRecv (and MpiIrecv without a request record), a receive
//     posted at the region's entry;
//   - per MpiCollectiveBegin/End, a collective whose entry is the
//     region's;
//   - then one wait (dumpi.CallWait) from the region's entry to its exit
//     for what completed in it: blocking sends and receives, and the
//     requests MpiIsendComplete and MpiIrecv complete.
//
// MPI events outside any region (a writer without Enter/Leave records)
// are calls of their own, entered and left at the event's time; a
// collective outside a region spans MpiCollectiveBegin to
// MpiCollectiveEnd.

// frame is an entered region.
type frame struct {
	region uint32
	enter  int64
	calls  []int32 // calls made in it, whose exit is the region's Leave
	done   []int32 // sends and receives completed in it
	begin  int64   // time of the pending MpiCollectiveBegin, or -1
}

// rankConv converts one rank's events.
type rankConv struct {
	c       *converter
	rank    int
	calls   []dumpi.Call
	stack   []*frame
	reqSend map[uint64]int32 // request -> CallSend
	reqRecv map[uint64]int32 // request -> CallRecv posted by MpiIrecvRequest
	last    int64
	begin   int64 // MpiCollectiveBegin outside any region
	inBegin bool
	colls   []collRef
}

// funcFor returns the MPI function of a call made in the current region,
// when the region is one, else def.
func (rc *rankConv) funcFor(def string) dumpi.FuncID {
	if n := len(rc.stack); n > 0 {
		if reg, ok := rc.c.a.Defs.Regions[rc.stack[n-1].region]; ok {
			if fn, ok := dumpi.FuncByName(reg.Name); ok && int(fn) < dumpi.NumFunctions {
				return fn
			}
		}
	}
	fn, _ := dumpi.FuncByName(def)
	return fn
}

// add appends a call made at time t and returns its index.
func (rc *rankConv) add(call dumpi.Call, t int64) int32 {
	if n := len(rc.stack); n > 0 {
		f := rc.stack[n-1]
		call.Entry, call.Exit = f.enter, f.enter
		rc.calls = append(rc.calls, call)
		i := int32(len(rc.calls) - 1)
		f.calls = append(f.calls, i)
		return i
	}
	call.Entry, call.Exit = t, t
	rc.calls = append(rc.calls, call)
	return int32(len(rc.calls) - 1)
}

// completed records that call i completed at time t.
func (rc *rankConv) completed(i int32, t int64) {
	if n := len(rc.stack); n > 0 {
		f := rc.stack[n-1]
		f.done = append(f.done, i)
		return
	}
	rc.calls = append(rc.calls, dumpi.Call{Kind: dumpi.CallWait, Func: rc.funcFor("MPI_Wait"), Entry: t, Exit: t, Done: []int32{i}})
}

// event handles one event at time t (ns).
func (rc *rankConv) event(ev *Event, t int64) {
	rc.last = max(rc.last, t)
	c := rc.c
	kind := ev.Type.String()
	switch ev.Type {
	case EvEnter:
		rc.stack = append(rc.stack, &frame{region: ev.Region, enter: t, begin: -1})
	case EvLeave:
		n := len(rc.stack)
		if n == 0 {
			c.skip(kind, "Leave without a matching Enter")
			return
		}
		f := rc.stack[n-1]
		rc.stack = rc.stack[:n-1]
		rc.close(f, t)
	case EvMpiSend, EvMpiIsend:
		cm, why := c.comm(ev.Comm, rc.rank)
		if cm < 0 {
			c.skip(kind, why)
			return
		}
		def, blocking := "MPI_Send", ev.Type == EvMpiSend
		if !blocking {
			def = "MPI_Isend"
		}
		fn := rc.funcFor(def)
		name := fn.String()
		sync := name == "MPI_Ssend" || name == "MPI_Issend" || name == "MPI_Ssend_init"
		i := rc.add(dumpi.Call{Kind: dumpi.CallSend, Func: fn, Comm: cm, Peer: peer(ev.Peer), Tag: int32(ev.Tag),
			Bytes: clampBytes(ev.Bytes), Sync: sync, Root: -1}, t)
		if blocking {
			rc.completed(i, t)
		} else {
			rc.reqSend[ev.Request] = i
		}
	case EvMpiIsendComplete:
		if i, ok := rc.reqSend[ev.Request]; ok {
			delete(rc.reqSend, ev.Request)
			rc.completed(i, t)
			return
		}
		c.skip(kind, "completes a request this reader did not see start")
	case EvMpiIrecvRequest:
		i := rc.add(dumpi.Call{Kind: dumpi.CallRecv, Func: rc.funcFor("MPI_Irecv"), Comm: -1, Root: -1, Source: -1}, t)
		rc.reqRecv[ev.Request] = i
	case EvMpiRecv, EvMpiIrecv:
		cm, why := c.comm(ev.Comm, rc.rank)
		if cm < 0 {
			c.skip(kind, why)
			if ev.Type == EvMpiIrecv {
				delete(rc.reqRecv, ev.Request)
			}
			return
		}
		call := dumpi.Call{Kind: dumpi.CallRecv, Comm: cm, Peer: peer(ev.Peer), Tag: int32(ev.Tag), Root: -1, Source: -1}
		if ev.Type == EvMpiIrecv {
			if i, ok := rc.reqRecv[ev.Request]; ok {
				delete(rc.reqRecv, ev.Request)
				p := &rc.calls[i]
				p.Comm, p.Peer, p.Tag = call.Comm, call.Peer, call.Tag
				rc.completed(i, t)
				return
			}
			call.Func = rc.funcFor("MPI_Irecv")
		} else {
			call.Func = rc.funcFor("MPI_Recv")
		}
		rc.completed(rc.add(call, t), t)
	case EvMpiCollectiveBegin:
		if n := len(rc.stack); n > 0 {
			rc.stack[n-1].begin = t
		} else {
			rc.begin, rc.inBegin = t, true
		}
	case EvMpiCollectiveEnd:
		rc.collective(ev, t)
	case EvMpiRequestCancelled:
		if i, ok := rc.reqRecv[ev.Request]; ok {
			delete(rc.reqRecv, ev.Request)
			rc.calls[i].Comm = -1
		}
		delete(rc.reqSend, ev.Request)
		c.skip(kind, skipReason(ev.Type))
	default:
		c.skip(kind, skipReason(ev.Type))
	}
}

// peer converts a rank of an event (undefined = MPI_PROC_NULL) to a
// communicator rank.
func peer(p uint32) int32 {
	if p > 1<<30 {
		return -3 // outside every communicator: left out as MPI_PROC_NULL
	}
	return int32(p)
}

// clampBytes caps a recorded size.
func clampBytes(b uint64) int64 { return int64(min(b, 1<<50)) }

// close ends region f at time t: the exit of its calls, then the wait for
// what completed in it.
func (rc *rankConv) close(f *frame, t int64) {
	for _, i := range f.calls {
		rc.calls[i].Exit = t
	}
	if len(f.done) > 0 {
		rc.calls = append(rc.calls, dumpi.Call{Kind: dumpi.CallWait, Func: rc.regionFunc(f), Entry: f.enter, Exit: t, Done: f.done})
	}
}

// regionFunc is the MPI function of region f, or MPI_Wait.
func (rc *rankConv) regionFunc(f *frame) dumpi.FuncID {
	if reg, ok := rc.c.a.Defs.Regions[f.region]; ok {
		if fn, ok := dumpi.FuncByName(reg.Name); ok && int(fn) < dumpi.NumFunctions {
			return fn
		}
	}
	fn, _ := dumpi.FuncByName("MPI_Wait")
	return fn
}

// finish closes the regions still open at the end of the rank's events.
func (rc *rankConv) finish() {
	for n := len(rc.stack); n > 0; n-- {
		rc.close(rc.stack[n-1], rc.last)
	}
	rc.stack = nil
	// Receives whose request never completed are left out.
	for _, i := range rc.reqRecv {
		rc.calls[i].Comm = -1
		rc.c.skip("MpiIrecvRequest", "the receive never completed")
	}
	kept := rc.calls[:0]
	remap := make([]int32, len(rc.calls))
	for i, call := range rc.calls {
		if call.Kind == dumpi.CallRecv && call.Comm < 0 {
			remap[i] = -1
			continue
		}
		remap[i] = int32(len(kept))
		kept = append(kept, call)
	}
	for k := range kept {
		if kept[k].Kind != dumpi.CallWait {
			continue
		}
		done := kept[k].Done[:0]
		for _, d := range kept[k].Done {
			if remap[d] >= 0 {
				done = append(done, remap[d])
			}
		}
		kept[k].Done = done
	}
	// Collective references were taken before the compaction.
	for _, ref := range rc.colls {
		ref.call = int(remap[ref.call])
		rc.c.colls[ref.comm] = append(rc.c.colls[ref.comm], ref)
	}
	rc.calls = kept
}

// Collective operations and the MPI functions whose algorithm expands
// them (ingest/dumpi/collective.go).
var collectiveFuncs = map[CollectiveOp]string{
	0: "MPI_Barrier", 1: "MPI_Bcast", 2: "MPI_Gather", 3: "MPI_Gatherv", 4: "MPI_Scatter",
	5: "MPI_Scatterv", 6: "MPI_Allgather", 7: "MPI_Allgatherv", 8: "MPI_Alltoall", 9: "MPI_Alltoallv",
	10: "MPI_Alltoallw", 11: "MPI_Allreduce", 12: "MPI_Reduce", 13: "MPI_Reduce_scatter",
	14: "MPI_Scan", 15: "MPI_Exscan", 16: "MPI_Reduce_scatter",
}

// collective handles an MpiCollectiveEnd. The sizes a rank records are
// totals over all its peers, itself included (Score-P's accounting);
// the rank's contribution to the algorithm (dumpi.Call.Bytes) is derived
// from them, n being the communicator's size and r the rank in it:
//
//	BARRIER                     none
//	BCAST                       received (the root: received, or sent / n)
//	REDUCE, GATHER(V)           sent
//	SCATTER(V)                  received
//	ALLREDUCE, ALLTOALL,
//	ALLGATHER                   sent / n
//	ALLTOALLV, ALLTOALLW        sent / n to every peer (per-peer sizes are not recorded)
//	ALLGATHERV                  block k = sent_k / n (every member's record)
//	REDUCE_SCATTER(_BLOCK)      block k = received_k / n (every member's record)
//	SCAN                        sent / (n - r)
//	EXSCAN                      sent / (n - 1 - r), the last rank received / r
func (rc *rankConv) collective(ev *Event, t int64) {
	c := rc.c
	kind := "MpiCollectiveEnd " + ev.Op.String()
	name, ok := collectiveFuncs[ev.Op]
	if !ok {
		c.skip(kind, "this collective operation is not modelled")
		return
	}
	cm, why := c.comm(ev.Comm, rc.rank)
	if cm < 0 {
		c.skip(kind, why)
		return
	}
	members := c.comms[cm]
	n := int64(len(members))
	me := int64(-1)
	for k, w := range members {
		if int(w) == rc.rank {
			me = int64(k)
		}
	}
	if me < 0 {
		c.skip(kind, "the rank is not a member of the communicator")
		return
	}
	sent, recv := clampBytes(ev.Sent), clampBytes(ev.Received)
	root := int32(-1)
	if ev.Root != undef32 && ev.Root < 1<<30 {
		root = int32(ev.Root)
	}
	var b int64
	switch ev.Op {
	case 1: // BCAST
		b = recv
		if b == 0 && int64(root) == me {
			b = sent / n
		}
	case 12, 2, 3: // REDUCE, GATHER(V)
		b = sent
	case 4, 5: // SCATTER(V)
		b = recv
	case 11, 8, 6, 9, 10, 7: // ALLREDUCE, ALLTOALL, ALLGATHER, ALLTOALLV/W, ALLGATHERV
		b = sent / n
	case 14: // SCAN
		b = sent / (n - me)
	case 15: // EXSCAN
		if me < n-1 {
			b = sent / (n - 1 - me)
		} else if me > 0 {
			b = recv / me
		}
	}
	fn, _ := dumpi.FuncByName(name)
	call := dumpi.Call{Kind: dumpi.CallCollective, Func: fn, Comm: cm, Bytes: b, Root: root, Source: -1}
	switch ev.Op {
	case 9, 10: // ALLTOALLV, ALLTOALLW: uniform
		call.Counts = make([]int64, n)
		for k := range call.Counts {
			call.Counts[k] = b
		}
	case 7, 13, 16: // filled from every member's record (fillCounts)
		call.Counts = make([]int64, n)
	}
	if fr := len(rc.stack); fr > 0 {
		f := rc.stack[fr-1]
		f.begin = -1
	} else if rc.inBegin {
		rc.inBegin = false
		i := rc.addAt(call, rc.begin, t)
		rc.colls = append(rc.colls, collRef{comm: cm, rank: rc.rank, call: int(i), sent: ev.Sent, recv: ev.Received, op: ev.Op})
		return
	}
	i := rc.add(call, t)
	rc.colls = append(rc.colls, collRef{comm: cm, rank: rc.rank, call: int(i), sent: ev.Sent, recv: ev.Received, op: ev.Op})
}

// addAt appends a call outside any region, from entry to exit.
func (rc *rankConv) addAt(call dumpi.Call, entry, exit int64) int32 {
	call.Entry, call.Exit = entry, exit
	rc.calls = append(rc.calls, call)
	return int32(len(rc.calls) - 1)
}

// fillCounts sets the per-block sizes of ALLGATHERV and REDUCE_SCATTER
// from every member's record of the same call: the k-th collective call
// of each member of a communicator is one operation (MPI's rule, as in
// ingest/dumpi).
func (c *converter) fillCounts() {
	for cm, refs := range c.colls {
		members := c.comms[cm]
		n := int64(len(members))
		pos := map[int32]int{}
		for k, w := range members {
			pos[w] = k
		}
		byRank := map[int][]collRef{}
		for _, ref := range refs {
			if ref.call >= 0 {
				byRank[ref.rank] = append(byRank[ref.rank], ref)
			}
		}
		for seq := 0; ; seq++ {
			var inst []collRef
			for _, w := range members {
				if l := byRank[int(w)]; seq < len(l) {
					inst = append(inst, l[seq])
				}
			}
			if len(inst) == 0 {
				break
			}
			if len(inst) != len(members) {
				continue // incomplete: the builder leaves it out
			}
			op := inst[0].op
			if op != 7 && op != 13 && op != 16 {
				continue
			}
			block := make([]int64, n)
			for _, ref := range inst {
				k := pos[int32(ref.rank)]
				if op == 7 {
					block[k] = clampBytes(ref.sent) / n
				} else {
					block[k] = clampBytes(ref.recv) / n
				}
			}
			for _, ref := range inst {
				call := &c.progs[ref.rank].Calls[ref.call]
				if len(call.Counts) == len(block) {
					copy(call.Counts, block)
				}
			}
		}
	}
}
