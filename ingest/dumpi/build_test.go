package dumpi

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/ccreplay/ccreplay/trace"
	"github.com/ccreplay/ccreplay/units"
)

// Argument helpers for the fixtures' programs.
type args = map[string]any

func isend(count, dt, dest, tag, comm, req int) args {
	return args{"count": count, "datatype": dt, "dest": dest, "tag": tag, "comm": comm, "request": req}
}

func recv(count, dt, src, tag, comm int) args {
	return args{"count": count, "datatype": dt, "source": src, "tag": tag, "comm": comm}
}

const (
	dtInt    = 9  // MPI_INT, 4 B
	dtDouble = 14 // MPI_DOUBLE, 8 B
	dtByte   = 5  // MPI_BYTE
)

// ringProgs is one round of a ring: Isend to r+1, Recv from r-1, Wait.
func ringProgs(n int) []*prog {
	progs := make([]*prog, n)
	for r := range progs {
		p := newProg().compute(int64(r) * 1000)
		p.call(fnInit, 100, args{"argv": []string{"./ring"}})
		p.call(fnIsend, 500, isend(1, dtInt, (r+1)%n, 7, commWorld, 2))
		p.call(fnRecv, 2000, recv(1, dtInt, (r+n-1)%n, 7, commWorld))
		p.call(fnWait, 100, args{"request": 2})
		p.call(fnFinalize, 100, nil)
		progs[r] = p
	}
	return progs
}

// TestRing checks the smallest program: n ring messages of 4 B, each rank
// waiting for the message into it before it finishes, and the gaps of
// the recording.
func TestRing(t *testing.T) {
	rep, r := loadProgs(t, Options{}, ringProgs(5)...)
	checkTrace(t, r)
	p2p := r.p2p()
	if len(p2p) != 5 || rep.Matched != 5 || rep.Sends != 5 || rep.SendBytes != 20 {
		t.Fatalf("%d messages, report %+v", len(p2p), rep)
	}
	for _, m := range p2p {
		if m.Bytes != 4 || m.DstRank != (m.SrcRank+1)%5 || m.FlowID != int64(m.SrcRank)*5+int64(m.DstRank) {
			t.Errorf("message %+v", m)
		}
		// The rank starts at MPI_Init's entry; the Isend comes after
		// Init's 100 ns and 1 us of compute.
		if m.Gap != units.Nanos(1100) || len(m.Deps) != 1 {
			t.Errorf("message %d: gap %v deps %v, want 1.1us after the rank's start", m.ID, m.Gap, m.Deps)
		}
		start := r.Messages[m.Deps[0]]
		if !isSyncPoint(start) || len(start.Deps) != 0 || start.Release != units.Nanos(int64(m.SrcRank)*1000) {
			t.Errorf("message %d's start %+v, want the rank's first call (%d ns)", m.ID, start, m.SrcRank*1000)
		}
	}
	// Rank r's MPI_Recv adds a point "reached the call" and one "returned",
	// which waits for the message into r.
	for _, m := range r.Messages {
		if !isSyncPoint(m) || len(m.Deps) != 2 {
			continue
		}
		in, reach := r.Messages[m.Deps[0]], r.Messages[m.Deps[1]]
		if isSyncPoint(in) {
			in, reach = reach, in
		}
		if in.DstRank != m.SrcRank || in.Bytes != 4 || !isSyncPoint(reach) || reach.SrcRank != m.SrcRank {
			t.Errorf("rank %d's receive completes on %+v and %+v", m.SrcRank, in, reach)
		}
	}
}

// TestCommSplit checks a communicator made by MPI_Comm_split: color r%2,
// key -r, so the odd ranks {1, 3} are ranked {3, 1} and the even {0, 2}
// are ranked {2, 0}; an MPI_Bcast from communicator rank 0 then goes from
// world rank 2 to 0 and from 3 to 1, and MPI_Isend to communicator rank 1
// reaches the other member.
func TestCommSplit(t *testing.T) {
	progs := make([]*prog, 4)
	for r := range progs {
		p := newProg()
		p.call(fnCommSplit, 100, args{"oldcomm": commWorld, "color": r % 2, "key": -r, "newcomm": 5})
		p.call(fnBcast, 100, args{"count": 10, "datatype": dtDouble, "root": 0, "comm": 5})
		me := map[int]int{0: 1, 1: 1, 2: 0, 3: 0}[r] // rank in the new communicator
		p.call(fnIsend, 100, isend(3, dtInt, 1-me, 1, 5, 9))
		p.call(fnIrecv, 100, args{"count": 3, "datatype": dtInt, "source": 1 - me, "tag": 1, "comm": 5, "request": 10})
		p.call(fnWaitall, 100, args{"count": 2, "requests": []int64{9, 10}})
		p.call(fnCommFree, 100, args{"comm": 5})
		progs[r] = p
	}
	rep, r := loadProgs(t, Options{}, progs...)
	checkTrace(t, r)
	var bcast, p2p [][2]int32
	for _, m := range r.data() {
		pair := [2]int32{m.SrcRank, m.DstRank}
		if m.CollectiveID >= 0 {
			bcast = append(bcast, pair)
			if m.Bytes != 80 {
				t.Errorf("bcast message of %d B, want 80", m.Bytes)
			}
		} else {
			p2p = append(p2p, pair)
		}
	}
	if !sameSet(bcast, [][2]int32{{2, 0}, {3, 1}}) || !sameSet(p2p, [][2]int32{{0, 2}, {2, 0}, {1, 3}, {3, 1}}) {
		t.Errorf("bcast %v, point-to-point %v", bcast, p2p)
	}
	if rep.Matched != 4 || rep.Collectives["MPI_Bcast"] != 2 {
		t.Errorf("report %+v", rep)
	}
}

// sameSet reports whether a and b hold the same elements, each as often.
func sameSet[T comparable](a, b []T) bool {
	m := map[T]int{}
	for _, x := range a {
		m[x]++
	}
	for _, x := range b {
		m[x]--
	}
	for _, v := range m {
		if v != 0 {
			return false
		}
	}
	return true
}

// TestCommCreateGroups checks MPI_Comm_group, MPI_Group_incl (reversed
// ranks) and MPI_Comm_create: communicator rank k is world rank 3-k; a
// rank left out of a second communicator gets MPI_COMM_NULL.
func TestCommCreateGroups(t *testing.T) {
	progs := make([]*prog, 4)
	for r := range progs {
		p := newProg()
		p.call(fnCommGroup, 10, args{"comm": commWorld, "group": 3})
		p.call(fnGroupIncl, 10, args{"group": 3, "count": 4, "ranks": []int64{3, 2, 1, 0}, "newgroup": 4})
		p.call(fnCommCreate, 10, args{"oldcomm": commWorld, "group": 4, "newcomm": 6})
		p.call(fnGroupExcl, 10, args{"group": 3, "count": 1, "ranks": []int64{0}, "newgroup": 5})
		newc := 7
		if r == 0 {
			newc = commNull
		}
		p.call(fnCommCreate, 10, args{"oldcomm": commWorld, "group": 5, "newcomm": newc})
		if r == 1 { // communicator rank 2 (world 1) sends to communicator rank 0 (world 3)
			p.call(fnSend, 10, args{"count": 2, "datatype": dtDouble, "dest": 0, "tag": 5, "comm": 6})
		}
		if r == 3 {
			p.call(fnRecv, 10, recv(2, dtDouble, 2, 5, 6))
		}
		if r != 0 { // in the second communicator (world 1, 2, 3): Allgather
			p.call(fnAllgather, 10, args{"sendcount": 1, "sendtype": dtInt, "recvcount": 1, "recvtype": dtInt, "comm": 7})
		}
		progs[r] = p
	}
	rep, r := loadProgs(t, Options{}, progs...)
	checkTrace(t, r)
	p2p := r.p2p()
	if len(p2p) != 1 || p2p[0].SrcRank != 1 || p2p[0].DstRank != 3 || p2p[0].Bytes != 16 || rep.Matched != 1 {
		t.Fatalf("point-to-point %+v, matched %d", p2p, rep.Matched)
	}
	// Ring allgather over 3 ranks: 2 steps of 3 messages.
	if rep.Collectives["MPI_Allgather"] != 1 || rep.CollectiveMessages != 6 {
		t.Errorf("collectives %v, %d messages", rep.Collectives, rep.CollectiveMessages)
	}
	for _, m := range r.data() {
		if m.CollectiveID >= 0 && (m.SrcRank == 0 || m.DstRank == 0 || m.Bytes != 4) {
			t.Errorf("allgather message %+v", m)
		}
	}
}

// TestMatchingRules checks tag matching, non-overtaking, MPI_ANY_SOURCE
// (by the recorded status, else the earliest send), MPI_ANY_TAG,
// persistent requests and MPI_Sendrecv.
func TestMatchingRules(t *testing.T) {
	p0, p1, p2 := newProg(), newProg(), newProg()
	// Rank 0: two sends to 1 with tags 1 then 2, a persistent send to 2
	// started twice, and a Sendrecv with 2.
	p0.call(fnIsend, 10, isend(1, dtByte, 1, 1, commWorld, 2))
	p0.call(fnIsend, 10, isend(2, dtByte, 1, 2, commWorld, 3))
	p0.call(fnSendInit, 10, args{"count": 3, "datatype": dtByte, "dest": 2, "tag": 0, "comm": commWorld, "request": 4})
	p0.call(fnStart, 10, args{"request": 4})
	p0.call(fnWait, 10, args{"request": 4})
	p0.call(fnStart, 10, args{"request": 4})
	p0.call(fnWaitall, 10, args{"count": 3, "requests": []int64{2, 3, 4}})
	p0.call(fnSendrecv, 10, args{"sendcount": 4, "sendtype": dtByte, "dest": 2, "sendtag": 9, "recvcount": 5, "recvtype": dtByte, "source": 2, "recvtag": 9, "comm": commWorld})
	// Rank 1: receives tag 2 first, then any tag; then from any source
	// with a status naming rank 2.
	p1.compute(50)
	p1.call(fnRecv, 10, recv(2, dtByte, 0, 2, commWorld))
	p1.call(fnRecv, 10, recv(1, dtByte, 0, anyTag, commWorld))
	p1.call(fnRecv, 10, args{"count": 6, "datatype": dtByte, "source": anySource, "tag": anyTag, "comm": commWorld,
		"status": []Status{{Bytes: 6, Source: 2, Tag: 3}}})
	// Rank 2: a send to 1 (matched through the status), two receives on
	// the persistent request, and the other half of the Sendrecv.
	p2.call(fnSend, 10, args{"count": 6, "datatype": dtByte, "dest": 1, "tag": 3, "comm": commWorld})
	p2.call(fnRecvInit, 10, args{"count": 3, "datatype": dtByte, "source": 0, "tag": 0, "comm": commWorld, "request": 8})
	p2.call(fnStartall, 10, args{"count": 1, "requests": []int64{8}})
	p2.call(fnWait, 10, args{"request": 8})
	p2.call(fnStart, 10, args{"request": 8})
	p2.call(fnWait, 10, args{"request": 8})
	p2.call(fnSendrecv, 10, args{"sendcount": 5, "sendtype": dtByte, "dest": 0, "sendtag": 9, "recvcount": 4, "recvtype": dtByte, "source": 0, "recvtag": 9, "comm": commWorld})
	rep, r := loadProgs(t, Options{}, p0, p1, p2)
	checkTrace(t, r)
	if rep.Sends != 7 || rep.Receives != 7 || rep.Matched != 7 || rep.UnmatchedSends != 0 {
		t.Fatalf("report %+v", rep)
	}
	// Every receive completion depends on the send with its byte count.
	bytesOf := map[int64]int64{}
	for _, m := range r.p2p() {
		bytesOf[m.ID] = m.Bytes
	}
	var waited []int64
	for _, m := range r.Messages {
		if isSyncPoint(m) && len(m.Deps) >= 2 {
			for _, d := range m.Deps {
				if b, ok := bytesOf[d]; ok && r.Messages[d].DstRank == m.SrcRank {
					waited = append(waited, int64(m.SrcRank)*100+b)
				}
			}
		}
	}
	// Rank 1 gets 2, 1, 6 B; rank 2 gets 3, 3, 4 B; rank 0 gets 5 B.
	if !sameSet(waited, []int64{102, 101, 106, 203, 203, 204, 5}) {
		t.Errorf("receives completed on %v (rank*100+bytes)", waited)
	}
}

// TestEagerLimit checks when waiting for a send means waiting for its
// delivery: a blocking MPI_Send above the limit, or MPI_Ssend of any size.
func TestEagerLimit(t *testing.T) {
	waitsFor := func(opt Options, fn FuncID, count int) bool {
		p0, p1 := newProg(), newProg()
		p0.call(fn, 10, args{"count": count, "datatype": dtByte, "dest": 1, "tag": 0, "comm": commWorld})
		p0.call(fnBarrier, 10, args{"comm": commWorld})
		p1.call(fnRecv, 10, recv(count, dtByte, 0, 0, commWorld))
		p1.call(fnBarrier, 10, args{"comm": commWorld})
		_, r := loadProgs(t, opt, p0, p1)
		checkTrace(t, r)
		send := r.p2p()[0]
		for _, m := range r.Messages {
			if isSyncPoint(m) && m.SrcRank == 0 && len(m.Deps) == 2 && (m.Deps[0] == send.ID || m.Deps[1] == send.ID) {
				return true
			}
		}
		return false
	}
	for _, c := range []struct {
		opt   Options
		fn    FuncID
		count int
		want  bool
	}{
		{Options{}, fnSend, DefaultEagerLimit, false},
		{Options{}, fnSend, DefaultEagerLimit + 1, true},
		{Options{}, fnSsend, 1, true},
		{Options{EagerLimit: 100}, fnSend, 101, true},
		{Options{EagerLimit: -1}, fnSend, 0, true},
	} {
		if got := waitsFor(c.opt, c.fn, c.count); got != c.want {
			t.Errorf("%v of %d B with limit %d: waits for delivery %v, want %v", c.fn, c.count, c.opt.EagerLimit, got, c.want)
		}
	}
}

// TestSkipped checks that calls the builder cannot turn into messages are
// reported with a reason, and that everything else still builds.
func TestSkipped(t *testing.T) {
	p0, p1 := newProg(), newProg()
	p0.call(fnSend, 10, args{"count": 1, "datatype": dtInt, "dest": -2, "tag": 0, "comm": commWorld}) // MPI_PROC_NULL
	p0.call(fnSend, 10, args{"count": 1, "datatype": 200, "dest": 1, "tag": 0, "comm": commWorld})    // unknown datatype
	p0.call(fnSend, 10, args{"count": 1, "datatype": dtInt, "dest": 1, "tag": 0, "comm": 77})         // unknown communicator
	p0.call(fnPut, 10, args{"origincount": 1, "origintype": dtInt, "targetrank": 1, "targetcount": 1, "targettype": dtInt, "win": 3})
	p0.call(fnCartSub, 10, args{"ndim": 1, "oldcomm": commWorld, "remain_dims": []int64{1}, "newcomm": 9})
	p0.call(fnBarrier, 10, args{"comm": 9})
	p0.call(fnAllreduce, 10, args{"count": 1, "datatype": dtInt, "op": 3, "comm": commWorld}) // rank 1 never calls it
	p1.fx.ignored = map[FuncID]uint32{fnWtime: 12}
	p1.call(fnRecv, 10, recv(1, dtInt, 0, 0, commWorld))
	p1.call(fnCartSub, 10, args{"ndim": 1, "oldcomm": commWorld, "remain_dims": []int64{1}, "newcomm": 9})
	p1.call(fnBarrier, 10, args{"comm": 9})
	rep, r := loadProgs(t, Options{}, p0, p1)
	checkTrace(t, r)
	want := []Skip{
		{"MPI_Allreduce", "not every member of the communicator made this call (trace incomplete?)", 1},
		{"MPI_Barrier", "made by MPI_Cart_sub, which is not modelled", 2},
		{"MPI_Put", "one-sided communication is not modelled", 1},
		{"MPI_Send", "destination outside the communicator (MPI_PROC_NULL): nothing sent", 1},
		{"MPI_Send", "unknown communicator handle", 1},
		{"MPI_Send", "unknown datatype: counted as 0 bytes", 1},
	}
	if !reflect.DeepEqual(rep.Skipped, want) {
		t.Errorf("skipped\n%v\nwant\n%v", rep.Skipped, want)
	}
	if !reflect.DeepEqual(rep.NotRecorded, map[string]int64{"MPI_Wtime": 12}) {
		t.Errorf("not recorded %v", rep.NotRecorded)
	}
	if p2p := r.p2p(); len(p2p) != 1 || p2p[0].Bytes != 0 || rep.Matched != 1 {
		t.Errorf("point-to-point %+v", p2p)
	}
	var b strings.Builder
	if err := rep.WriteText(&b); err != nil || !strings.Contains(b.String(), "skipped 1 MPI_Put: one-sided communication is not modelled") {
		t.Errorf("WriteText: %v\n%s", err, b.String())
	}
}

// TestPlacement checks explicit host placement and its errors.
func TestPlacement(t *testing.T) {
	progs := ringProgs(4)
	_, r := loadProgs(t, Options{Hosts: []int32{1, 0, 1, 0}}, progs...)
	checkTrace(t, r)
	if r.Hosts != 2 || r.PPN != 2 || !reflect.DeepEqual(r.Ranks, []int32{1, 0, 1, 0}) {
		t.Fatalf("hosts %d ppn %d ranks %v", r.Hosts, r.PPN, r.Ranks)
	}
	for _, m := range r.Messages {
		if m.Src != r.Ranks[m.SrcRank] || m.Dst != r.Ranks[m.DstRank] {
			t.Fatalf("message %+v", m)
		}
	}
	fxs := []*fixture{&progs[0].fx, &progs[1].fx}
	meta := writeSet(t, t.TempDir(), "p", fxs)
	for _, opt := range []Options{{Hosts: []int32{0}}, {Hosts: []int32{0, -1}}} {
		if _, _, err := Load(meta, opt); err == nil {
			t.Errorf("placement %v accepted", opt.Hosts)
		}
	}
}

// TestFindFiles checks the ways to name a trace set: its .meta, any rank's
// .bin (with or without a .meta beside it), and the errors for a missing
// rank file.
func TestFindFiles(t *testing.T) {
	progs := ringProgs(3)
	fxs := []*fixture{&progs[0].fx, &progs[1].fx, &progs[2].fx}
	dir := t.TempDir()
	meta := writeSet(t, dir, "ring", fxs)
	want, _, err := Load(meta, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{filepath.Join(dir, "ring-0002.bin"), filepath.Join(dir, "ring-0000.bin")} {
		got, _, err := Load(p, Options{})
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("Load(%s): %v", p, err)
		}
	}
	if err := os.Remove(meta); err != nil {
		t.Fatal(err)
	}
	if got, rep, err := Load(filepath.Join(dir, "ring-0001.bin"), Options{}); err != nil || rep.Ranks != 3 || !reflect.DeepEqual(got, want) {
		t.Errorf("without a .meta: %v", err)
	}
	meta = writeSet(t, dir, "ring", fxs)
	if err := os.Remove(filepath.Join(dir, "ring-0001.bin")); err != nil {
		t.Fatal(err)
	}
	_, _, err = Load(meta, Options{})
	if err == nil || !strings.Contains(err.Error(), "numprocs=3 but ring-0001.bin is missing") {
		t.Errorf("missing rank file: %v", err)
	}
	single := filepath.Join(dir, "alone.bin")
	if err := os.WriteFile(single, fxs[0].bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, rep, err := Load(single, Options{}); err != nil || rep.Ranks != 1 || rep.Sends != 0 {
		t.Errorf("one-rank trace: %v %+v", err, rep)
	}
}

// TestReadMeta checks the .meta parser.
func TestReadMeta(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct{ text, err string }{
		{"numprocs=2\nfileprefix=a/b\nstartime=17\nversion=1\nsubversion=2\nsubsubversion=3\n", ""},
		{"numprocs=x\nfileprefix=a\n", "numprocs \"x\" is not an integer"},
		{"numprocs=0\nfileprefix=a\n", "numprocs 0 must be in"},
		{"fileprefix=a\n", "no numprocs"},
		{"numprocs=2\n", "no fileprefix"},
		{"numprocs\n", "is not key=value"},
		// A long line is quoted in part, an endless one refused naming its
		// line (it said "bufio.Scanner: token too long").
		{strings.Repeat("z", 100_000) + "\n", `t.meta:1: "zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz"... (100000 bytes) is not key=value`},
	} {
		p := filepath.Join(dir, "t.meta")
		if err := os.WriteFile(p, []byte(c.text), 0o644); err != nil {
			t.Fatal(err)
		}
		m, err := ReadMeta(p)
		if c.err == "" {
			if err != nil || m.NumProcs != 2 || m.StartTime != 17 || m.Version != [3]int{1, 2, 3} ||
				!reflect.DeepEqual(m.Files(), []string{filepath.Join(dir, "b-0000.bin"), filepath.Join(dir, "b-0001.bin")}) {
				t.Errorf("%q: %+v %v", c.text, m, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), c.err) || len(err.Error()) > 400 {
			t.Errorf("%.80q: error %.400v, want %q", c.text, err, c.err)
		}
	}
	// An endless stream of one line is refused naming it, in our words.
	if _, err := os.Stat("/dev/zero"); err == nil {
		p := filepath.Join(dir, "z.meta")
		os.Symlink("/dev/zero", p)
		_, err := ReadMeta(p)
		if want := p + ":1: line longer than 1 MiB, the longest line of a DUMPI .meta file (docs/LIMITS.md)"; err == nil || err.Error() != want {
			t.Errorf("/dev/zero: %.400v, want %q", err, want)
		}
	}
}

// TestCollectiveTiming checks the collective rule: a rank's first step
// waits for its entry point (its gap from the rank's previous point), and
// after the collective the rank waits for its last step's messages.
func TestCollectiveTiming(t *testing.T) {
	progs := make([]*prog, 2)
	for r := range progs {
		p := newProg()
		p.compute(int64(r) * 7000)
		p.call(fnAlltoall, 3000, args{"sendcount": 2, "sendtype": dtDouble, "recvcount": 2, "recvtype": dtDouble, "comm": commWorld})
		p.compute(4000)
		p.call(fnIsend, 10, isend(1, dtByte, 1-r, 0, commWorld, 2))
		progs[r] = p
	}
	_, r := loadProgs(t, Options{}, progs...)
	checkTrace(t, r)
	at := r.zeroLatency()
	var coll, p2p []trace.Message
	for _, m := range r.data() {
		if m.CollectiveID >= 0 {
			coll = append(coll, m)
		} else {
			p2p = append(p2p, m)
		}
	}
	if len(coll) != 2 || len(p2p) != 2 {
		t.Fatalf("collective %v, point-to-point %v", coll, p2p)
	}
	// Rank 1 enters 7 us after rank 0; each sends its 16 B block when it
	// enters, then both continue when both blocks are delivered, and send
	// 1 us (the 1 us after the call) + 4 us after the collective returns.
	for _, m := range coll {
		if want := units.Nanos(int64(m.SrcRank) * 7000); at[m.ID] != want || m.Bytes != 16 {
			t.Errorf("alltoall message %+v released at %v, want %v", m, at[m.ID], want)
		}
	}
	for _, m := range p2p {
		if want := units.Nanos(7000 + 5000); at[m.ID] != want {
			t.Errorf("rank %d's send after the alltoall released at %v, want %v", m.SrcRank, at[m.ID], want)
		}
	}
}

// TestGroupOps checks the group calls that feed MPI_Comm_create.
func TestGroupOps(t *testing.T) {
	g1, g2 := []int32{10, 11, 12, 13, 14}, []int32{14, 12, 20}
	for _, c := range []struct {
		fn    FuncID
		ranks []int64
		want  []int32
	}{
		{fnGroupIncl, []int64{4, 0}, []int32{14, 10}},
		{fnGroupIncl, []int64{5}, nil}, // out of range
		{fnGroupExcl, []int64{1, 3}, []int32{10, 12, 14}},
		{fnGroupRangeIncl, []int64{0, 4, 2, 3, 3, 1}, []int32{10, 12, 14, 13}},
		{fnGroupRangeIncl, []int64{4, 0, -2}, []int32{14, 12, 10}},
		{fnGroupRangeIncl, []int64{0, 1, 0}, nil}, // zero stride
		{fnGroupRangeExcl, []int64{1, 3, 1}, []int32{10, 14}},
		{fnGroupUnion, nil, []int32{10, 11, 12, 13, 14, 20}},
		{fnGroupIntersection, nil, []int32{12, 14}},
		{fnGroupDifference, nil, []int32{10, 11, 13}},
	} {
		got := groupOp(&commOp{fn: c.fn, ranks: c.ranks}, g1, g2)
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%v %v: %v, want %v", c.fn, c.ranks, got, c.want)
		}
	}
	if groupOp(&commOp{fn: fnGroupUnion}, nil, g2) != nil || groupOp(&commOp{fn: fnGroupUnion}, g1, nil) != nil {
		t.Error("an unknown group gave a known result")
	}
}
