package dumpi

import (
	"strings"
)

// Phase 1 of building a trace: each rank's records reduced to what the
// builder needs, in program order, with the rank's local handles
// (requests, datatypes, communicator and group handles) resolved as far as
// one rank can: requests to the operations they stand for, datatypes to
// sizes, communicator handles to references into the rank's own list of
// communicator-creating calls (resolved across ranks in comm.go).

// Communicator references of a rank: refWorld, refSelf, refUnknown, or
// refFirstOp+k for the communicator made by the rank's k-th commOp.
const (
	refUnknown int32 = -1
	refWorld   int32 = 0
	refSelf    int32 = 1
	refFirstOp int32 = 2
)

// evKind is the kind of a rank event.
type evKind uint8

const (
	evIssue evKind = iota // a point-to-point send starts: sends[a]
	evPost                // a receive is posted: recvs[a]
	evWait                // a call returned after the operations in done completed
	evColl                // a collective call: colls[a]
)

// opRef names a point-to-point operation of a rank: a send index when >= 0,
// receive index -1-r when < 0.
type opRef int32

func sendRef(i int) opRef { return opRef(i) }
func recvRef(i int) opRef { return opRef(-1 - i) }

// event is one step of a rank's program.
type event struct {
	kind        evKind
	a           int32
	entry, exit int64 // wall-clock ns of the call
	done        []opRef
}

// sendOp is a point-to-point send.
type sendOp struct {
	fn    FuncID
	comm  int32 // communicator reference
	dest  int32 // rank in comm
	tag   int32
	bytes int64
	entry int64
	sync  bool // synchronous (Ssend, Issend): completes only when delivered
}

// recvOp is a posted receive.
type recvOp struct {
	fn     FuncID
	comm   int32
	source int32 // rank in comm, or anySource
	tag    int32 // or anyTag
	// stSource is the completed status's source, when a status was
	// recorded (for MPI_ANY_SOURCE matching), else -2.
	stSource int32
}

// collOp is a collective call's arguments as this rank gives them.
type collOp struct {
	fn     FuncID
	comm   int32
	entry  int64
	root   int32
	bytes  int64   // this rank's block (see collBytes)
	counts []int64 // per comm rank, bytes (the -v and -w variants)
}

// commOp is a call that makes or transforms a communicator or group.
type commOp struct {
	fn       FuncID
	parent   int32 // communicator reference of the parent, if any
	newRef   bool  // the call gives this rank a new communicator
	isNull   bool  // the new communicator is MPI_COMM_NULL on this rank
	color    int64
	key      int64
	size     int64   // Cart_create, Graph_create: ranks in the new communicator
	g1, g2   int64   // group handles read
	newGroup int64   // group handle written
	ranks    []int64 // Group_incl/excl ranks, Group_range_* triples
}

// skipKey counts calls the builder leaves out, by call and reason.
type skipKey struct {
	call, reason string
}

// rankLog is one rank's program, reduced.
type rankLog struct {
	rank        int
	file        string
	records     int64
	calls       []int64  // by FuncID
	ignored     []uint32 // the footer's calls not recorded, by FuncID
	first, last int64    // wall ns of the first entry and the last exit
	events      []event
	sends       []sendOp
	recvs       []recvOp
	colls       []collOp
	commOps     []commOp
	skips       map[skipKey]int64
}

// request is what a live request handle stands for.
type request struct {
	op         opRef
	active     bool    // op is set (a persistent request may be inactive)
	persistent *sendOp // template of a persistent send, or nil
	precv      *recvOp // template of a persistent receive, or nil
}

// extractor is phase 1's per-rank state.
type extractor struct {
	log      *rankLog
	f        *File
	types    map[int64]int64 // datatype handle -> size, bytes
	comms    map[int64]int32 // communicator handle -> reference
	reqs     map[int64]*request
	wrap     unwrapper
	haveTime bool
}

// unwrapper undoes the wrap-around of DUMPI's 16-bit second counts, so
// that wall times stay monotone in traces longer than 18 hours.
type unwrapper struct {
	add, last int64
}

const wrapNs = int64(1<<16) * 1e9

// fix returns t unwrapped: moved forward by whole wraps until it is no
// more than half a wrap before the latest time seen.
func (u *unwrapper) fix(t int64) int64 {
	t += u.add
	for t < u.last-wrapNs/2 {
		u.add += wrapNs
		t += wrapNs
	}
	u.last = max(u.last, t)
	return t
}

// extract reads one rank's file into a rankLog.
func extract(f *File, rank int) (*rankLog, error) {
	x := &extractor{
		log: &rankLog{rank: rank, file: f.Name, calls: make([]int64, len(funcTable)),
			skips: map[skipKey]int64{}},
		f:     f,
		types: map[int64]int64{},
		comms: map[int64]int32{commWorld: refWorld, commSelf: refSelf},
		reqs:  map[int64]*request{},
	}
	x.log.ignored = f.Ignored
	for i, s := range f.TypeSizes {
		x.types[int64(i)] = int64(s)
	}
	if err := f.Records(x.record); err != nil {
		return nil, err
	}
	return x.log, nil
}

// skip counts a call not (fully) modelled, with why.
func (x *extractor) skip(fn FuncID, reason string) {
	x.log.skips[skipKey{fn.String(), reason}]++
}

// size returns count elements of datatype dt, in bytes; an unknown
// datatype counts as 0 bytes and is reported.
func (x *extractor) size(fn FuncID, count, dt int64) int64 {
	s, ok := x.types[dt]
	if !ok {
		x.skip(fn, "unknown datatype: counted as 0 bytes")
		return 0
	}
	return satMul(count, s)
}

// maxBytes caps sizes computed from a trace's counts (1 PiB), so that
// corrupt or adversarial counts cannot overflow.
const maxBytes = int64(1) << 50

// satMul multiplies two sizes or counts, treating negatives as 0 and
// saturating at maxBytes.
func satMul(a, b int64) int64 {
	if a <= 0 || b <= 0 {
		return 0
	}
	if a > maxBytes/b {
		return maxBytes
	}
	return a * b
}

// satAdd adds two sizes, saturating at maxBytes.
func satAdd(a, b int64) int64 { return min(max(a, 0)+max(b, 0), maxBytes) }

// comm returns the reference of communicator handle h.
func (x *extractor) comm(h int64) int32 {
	if r, ok := x.comms[h]; ok {
		return r
	}
	return refUnknown
}

// record turns one record into events.
func (x *extractor) record(r *Record) error {
	l := x.log
	l.records++
	l.calls[r.Func]++
	entry, exit := x.wrap.fix(r.Wall.Start), x.wrap.fix(r.Wall.Stop)
	exit = max(exit, entry)
	if !x.haveTime {
		x.haveTime = true
		l.first, l.last = entry, exit
	}
	l.last = max(l.last, exit)
	i := func(name string) int64 { v, _ := r.Int(name); return v }
	switch fn := r.Func; fn {
	case fnSend, fnBsend, fnRsend, fnSsend, fnIsend, fnIbsend, fnIrsend, fnIssend:
		s := sendOp{fn: fn, comm: x.comm(i("comm")), dest: int32(i("dest")), tag: int32(i("tag")),
			bytes: x.size(fn, i("count"), i("datatype")), entry: entry, sync: fn == fnSsend || fn == fnIssend}
		ref := x.issue(s, entry, exit)
		if req, ok := r.Int("request"); ok {
			x.reqs[req] = &request{op: ref, active: true}
		} else {
			x.wait(entry, exit, ref) // blocking send: returns when its buffer is free
		}
	case fnRecv, fnIrecv:
		ref := x.post(recvOp{fn: fn, comm: x.comm(i("comm")), source: int32(i("source")), tag: int32(i("tag"))}, entry, exit)
		if req, ok := r.Int("request"); ok {
			x.reqs[req] = &request{op: ref, active: true}
		} else {
			x.status(ref, r.Field("status"), 0)
			x.wait(entry, exit, ref)
		}
	case fnSendrecv, fnSendrecvReplace:
		sc, st := "sendcount", "sendtype"
		if fn == fnSendrecvReplace {
			sc, st = "count", "datatype"
		}
		c := x.comm(i("comm"))
		s := x.issue(sendOp{fn: fn, comm: c, dest: int32(i("dest")), tag: int32(i("sendtag")),
			bytes: x.size(fn, i(sc), i(st)), entry: entry}, entry, exit)
		rv := x.post(recvOp{fn: fn, comm: c, source: int32(i("source")), tag: int32(i("recvtag"))}, entry, exit)
		x.status(rv, r.Field("status"), 0)
		x.wait(entry, exit, s, rv)
	case fnSendInit, fnBsendInit, fnRsendInit, fnSsendInit:
		s := sendOp{fn: fn, comm: x.comm(i("comm")), dest: int32(i("dest")), tag: int32(i("tag")),
			bytes: x.size(fn, i("count"), i("datatype")), sync: fn == fnSsendInit}
		x.reqs[i("request")] = &request{persistent: &s}
	case fnRecvInit:
		rv := recvOp{fn: fn, comm: x.comm(i("comm")), source: int32(i("source")), tag: int32(i("tag"))}
		x.reqs[i("request")] = &request{precv: &rv}
	case fnStart:
		x.start(i("request"), entry, exit)
	case fnStartall:
		for _, q := range r.Ints("requests") {
			x.start(q, entry, exit)
		}
	case fnWait, fnIOWait:
		x.complete(entry, exit, []int64{i("request")}, r.Field("status"))
	case fnWaitall, fnIOWaitall:
		x.complete(entry, exit, r.Ints("requests"), r.Field("statuses"))
	case fnTest, fnIOTest, fnRequestGetStatus:
		if i("flag") != 0 {
			x.complete(entry, exit, []int64{i("request")}, r.Field("status"))
		}
	case fnTestall, fnIOTestall:
		if i("flag") != 0 {
			x.complete(entry, exit, r.Ints("requests"), r.Field("statuses"))
		}
	case fnWaitany, fnTestany, fnIOWaitany, fnIOTestany:
		idx := i("index")
		reqs := r.Ints("requests")
		if (fn == fnTestany || fn == fnIOTestany) && i("flag") == 0 {
			break
		}
		if idx >= 0 && idx < int64(len(reqs)) {
			st := r.Field("status")
			if st == nil {
				st = r.Field("statuses")
			}
			x.complete(entry, exit, reqs[idx:idx+1], st)
		}
	case fnWaitsome, fnTestsome, fnIOWaitsome, fnIOTestsome:
		reqs := r.Ints("requests")
		var done []int64
		for _, k := range r.Ints("indices") {
			if k >= 0 && k < int64(len(reqs)) {
				done = append(done, reqs[k])
			}
		}
		x.complete(entry, exit, done, r.Field("statuses"))
	case fnRequestFree, fnCancel:
		delete(x.reqs, i("request"))
	case fnProbe, fnIprobe:
		x.skip(fn, "probes are not modelled (the receive that follows is)")
	default:
		if x.collective(r, entry, exit) || x.commCall(r) || x.typeCall(r) {
			return nil
		}
		x.other(fn)
	}
	return nil
}

// other reports calls that move data the builder does not model.
func (x *extractor) other(fn FuncID) {
	name := fn.String()
	switch {
	case fn == fnPut || fn == fnGet || fn == fnAccumulate:
		x.skip(fn, "one-sided communication is not modelled")
	case strings.HasPrefix(name, "MPI_File_") && (strings.Contains(name, "read") || strings.Contains(name, "write")):
		x.skip(fn, "MPI-IO is not modelled")
	case fn == fnIntercommCreate || fn == fnIntercommMerge || fn == fnCommSpawn || fn == fnCommSpawnMultiple ||
		fn == fnCommAccept || fn == fnCommConnect || fn == fnCommJoin || fn == fnCommGetParent:
		x.skip(fn, "inter-communicators are not modelled: calls on them are left out")
	}
}

// issue records a send.
func (x *extractor) issue(s sendOp, entry, exit int64) opRef {
	l := x.log
	l.sends = append(l.sends, s)
	ref := sendRef(len(l.sends) - 1)
	l.events = append(l.events, event{kind: evIssue, a: int32(ref), entry: entry, exit: exit})
	return ref
}

// post records a posted receive.
func (x *extractor) post(rv recvOp, entry, exit int64) opRef {
	l := x.log
	rv.stSource = -2
	l.recvs = append(l.recvs, rv)
	l.events = append(l.events, event{kind: evPost, a: int32(len(l.recvs) - 1), entry: entry, exit: exit})
	return recvRef(len(l.recvs) - 1)
}

// wait records a call that returned after the operations completed.
func (x *extractor) wait(entry, exit int64, done ...opRef) {
	x.log.events = append(x.log.events, event{kind: evWait, entry: entry, exit: exit, done: done})
}

// status keeps the envelope of a completed receive's status, for
// MPI_ANY_SOURCE matching.
func (x *extractor) status(ref opRef, f *Field, k int) {
	if ref >= 0 || f == nil || k >= len(f.Statuses) {
		return
	}
	rv := &x.log.recvs[-1-int(ref)]
	rv.stSource = f.Statuses[k].Source
}

// start starts a persistent request: a new send or receive.
func (x *extractor) start(req, entry, exit int64) {
	q := x.reqs[req]
	switch {
	case q == nil:
	case q.persistent != nil:
		s := *q.persistent
		s.entry = entry
		q.op, q.active = x.issue(s, entry, exit), true
	case q.precv != nil:
		q.op, q.active = x.post(*q.precv, entry, exit), true
	}
}

// complete records a call that completed the given requests.
func (x *extractor) complete(entry, exit int64, reqs []int64, st *Field) {
	var done []opRef
	for k, h := range reqs {
		q := x.reqs[h]
		if q == nil || !q.active {
			continue
		}
		x.status(q.op, st, k)
		done = append(done, q.op)
		q.active = false
		if q.persistent == nil && q.precv == nil {
			delete(x.reqs, h) // the handle may be reused
		}
	}
	if len(done) > 0 {
		x.wait(entry, exit, done...)
	}
}
