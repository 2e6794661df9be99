package dumpi

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/ccreplay/ccreplay/trace"
	"github.com/ccreplay/ccreplay/units"
)

// traceResult wraps a built trace with the tests' helpers.
type traceResult struct{ *trace.Trace }

// data returns the data messages (no synchronization points).
func (r *traceResult) data() []trace.Message {
	var out []trace.Message
	for _, m := range r.Messages {
		if !isSyncPoint(m) {
			out = append(out, m)
		}
	}
	return out
}

// isSyncPoint reports whether m is one rank's synchronization point (not
// a zero-byte message between two ranks of one host).
func isSyncPoint(m trace.Message) bool { return m.IsSync() && m.SrcRank == m.DstRank }

// p2p returns the point-to-point data messages.
func (r *traceResult) p2p() []trace.Message {
	var out []trace.Message
	for _, m := range r.data() {
		if m.CollectiveID == trace.NoCollective {
			out = append(out, m)
		}
	}
	return out
}

// zeroLatency returns each message's release time in a replay where the
// network takes no time: a message completes when it is released, and is
// released at max(Release, last dependency + Gap). Messages are in trace
// order, which the tests check is topological.
func (r *traceResult) zeroLatency() []units.Time {
	at := make([]units.Time, len(r.Messages))
	for i, m := range r.Messages {
		t := m.Release
		for _, d := range m.Deps {
			t = max(t, at[d]+m.Gap)
		}
		at[i] = t
	}
	return at
}

// checkTrace checks what every built trace must satisfy: it validates;
// its order is topological (deps have smaller ids, ids are positions);
// a rank waits only for its own synchronization points and for messages
// it sends or receives (dependencies respect program order); every
// message but each rank's first synchronization point has dependencies;
// and, with a network that takes no time, each rank's messages are
// released in trace order.
func checkTrace(t *testing.T, r *traceResult) {
	t.Helper()
	if err := r.Validate(); err != nil {
		t.Fatalf("trace does not validate: %v", err)
	}
	if _, err := r.TopoOrder(); err != nil {
		t.Fatalf("dependency cycle: %v", err)
	}
	roots := map[int32]int{}
	for i, m := range r.Messages {
		if m.ID != int64(i) {
			t.Fatalf("message %d has id %d", i, m.ID)
		}
		owner := m.SrcRank
		if len(m.Deps) == 0 {
			roots[owner]++
			if !isSyncPoint(m) {
				t.Errorf("message %d (%d->%d) has no dependencies", m.ID, m.SrcRank, m.DstRank)
			}
		}
		for _, d := range m.Deps {
			if d >= m.ID {
				t.Fatalf("message %d depends on later message %d", m.ID, d)
			}
			dm := r.Messages[d]
			if dm.SrcRank != owner && dm.DstRank != owner {
				t.Errorf("message %d of rank %d depends on message %d (%d->%d), which rank %d neither sends nor receives",
					m.ID, owner, d, dm.SrcRank, dm.DstRank, owner)
			}
			if isSyncPoint(dm) && dm.SrcRank != owner {
				t.Errorf("message %d of rank %d depends on rank %d's synchronization point %d", m.ID, owner, dm.SrcRank, d)
			}
		}
	}
	for rank := range r.Ranks {
		if roots[int32(rank)] != 1 {
			t.Errorf("rank %d has %d messages without dependencies, want 1 (its start)", rank, roots[int32(rank)])
		}
	}
	at := r.zeroLatency()
	last := map[int32]units.Time{}
	for i, m := range r.Messages {
		if isSyncPoint(m) {
			continue
		}
		if at[i] < last[m.SrcRank] {
			t.Errorf("rank %d's message %d is released at %v, before its previous message (%v)", m.SrcRank, m.ID, at[i], last[m.SrcRank])
		}
		last[m.SrcRank] = at[i]
	}
}

func loadShared(t *testing.T, name string, opt Options) (*traceResult, *Report) {
	t.Helper()
	tr, rep, err := Load(sharedData(t, name), opt)
	if err != nil {
		t.Fatal(err)
	}
	return &traceResult{tr}, rep
}

// TestSharedDataTestbgpCounts checks the BlueGene/P trace's counts: per
// rank 84 MPI_Isend of 89 doubles (712 B), 84 MPI_Irecv, 14 MPI_Waitall,
// 7 MPI_Alltoall and 3 MPI_Barrier (over the 7 ranks: 588, 588, 98, 49,
// 21), all on a sub-communicator made by MPI_Comm_create.
func TestSharedDataTestbgpCounts(t *testing.T) {
	r, rep := loadShared(t, "testbgp.meta", Options{})
	checkTrace(t, r)
	if rep.Ranks != 7 || rep.Hosts != 7 || len(rep.PerRank) != 7 || rep.Version != "1.1.0" {
		t.Fatalf("ranks %d, hosts %d, version %s", rep.Ranks, rep.Hosts, rep.Version)
	}
	want := map[string]int64{"MPI_Isend": 588, "MPI_Irecv": 588, "MPI_Waitall": 98, "MPI_Alltoall": 49, "MPI_Barrier": 21,
		"MPI_Comm_create": 7, "MPI_Group_incl": 7, "MPI_Init": 7, "MPI_Finalize": 7}
	for k, v := range want {
		if rep.Calls[k] != v {
			t.Errorf("%s: %d calls, want %d", k, rep.Calls[k], v)
		}
	}
	for rank, rr := range rep.PerRank {
		if rr.Calls["MPI_Isend"] != 84 || rr.Sends != 84 || rr.SendBytes != 84*712 || rr.Receives != 84 {
			t.Errorf("rank %d: %d Isend, %d sends of %d B, %d receives; want 84 of 84*712", rank, rr.Calls["MPI_Isend"], rr.Sends, rr.SendBytes, rr.Receives)
		}
	}
	if rep.Sends != 588 || rep.SendBytes != 588*712 || rep.Matched != 588 || rep.UnmatchedSends != 0 {
		t.Errorf("sends %d (%d B), matched %d, unmatched %d", rep.Sends, rep.SendBytes, rep.Matched, rep.UnmatchedSends)
	}
	if rep.Collectives["MPI_Alltoall"] != 7 || rep.Collectives["MPI_Barrier"] != 3 || len(rep.Collectives) != 2 {
		t.Errorf("collectives %v, want 7 alltoalls and 3 barriers over the communicators", rep.Collectives)
	}
	// Pairwise alltoall: 7*6 messages of 712 B each; dissemination
	// barrier over 7 ranks: 3 steps of 7 zero-byte messages.
	if rep.CollectiveMessages != 7*42+3*21 || rep.CollectiveBytes != 7*42*712 {
		t.Errorf("collective messages %d (%d B)", rep.CollectiveMessages, rep.CollectiveBytes)
	}
	if len(rep.Skipped) != 0 || len(rep.NotRecorded) != 0 {
		t.Errorf("skipped %v, not recorded %v", rep.Skipped, rep.NotRecorded)
	}
	p2p := r.p2p()
	if len(p2p) != 588 {
		t.Fatalf("%d point-to-point messages, want 588", len(p2p))
	}
	pairs := map[[2]int32]int{}
	for _, m := range p2p {
		if m.Bytes != 712 || m.SrcRank == m.DstRank {
			t.Fatalf("message %+v", m)
		}
		pairs[[2]int32{m.SrcRank, m.DstRank}]++
	}
	// 14 rounds in which every rank sends once to every other rank.
	for a := range int32(7) {
		for b := range int32(7) {
			if a != b && pairs[[2]int32{a, b}] != 14 {
				t.Errorf("%d->%d: %d messages, want 14", a, b, pairs[[2]int32{a, b}])
			}
		}
	}
	colls := map[int64]int{}
	for _, m := range r.data() {
		if m.CollectiveID >= 0 {
			colls[m.CollectiveID]++
		}
	}
	if len(colls) != 10 {
		t.Errorf("%d collective ids, want 10", len(colls))
	}
}

// TestSharedDataP2PMatchesDumps checks that, for every rank of both
// traces, the point-to-point messages are the sends the reference text
// dumps show: the same count, destinations and bytes.
func TestSharedDataP2PMatchesDumps(t *testing.T) {
	for _, set := range []struct {
		meta   string
		prefix string
		ranks  int
	}{{"testbgp.meta", "testbgp", 7}, {"testtrace.meta", "testtrace", 4}} {
		r, rep := loadShared(t, set.meta, Options{})
		got := map[int32][]trace.Message{}
		for _, m := range r.p2p() {
			got[m.SrcRank] = append(got[m.SrcRank], m)
		}
		for rank := range set.ranks {
			f, err := Open(rep.Files[rank])
			if err != nil {
				t.Fatal(err)
			}
			sizes := f.TypeSizes
			f.Close()
			d := parseASCII(t, strings.TrimSuffix(rep.Files[rank], ".bin")+".dumpi2ascii.txt")
			var want []int64 // dest, bytes pairs in order
			for _, c := range d.calls {
				if c.name != "MPI_Isend" && c.name != "MPI_Send" {
					continue
				}
				args := map[string]string{}
				for _, a := range c.args {
					args[a.name] = normalize(a, nil)
				}
				var count, dt, dest int64
				for k, p := range map[string]*int64{"count": &count, "datatype": &dt, "dest": &dest} {
					if _, err := fmt.Sscan(args[k], p); err != nil {
						t.Fatalf("rank %d: %s %q: %v", rank, k, args[k], err)
					}
				}
				want = append(want, dest, count*int64(sizes[dt]))
			}
			var have []int64
			for _, m := range got[int32(rank)] {
				have = append(have, int64(m.DstRank), m.Bytes)
			}
			// The trace orders a rank's sends by time, as the dump does;
			// both communicators map communicator rank k to world rank k.
			if !reflect.DeepEqual(have, want) {
				t.Errorf("%s rank %d: sends (dest, bytes) %v, the dump has %v", set.prefix, rank, have, want)
			}
		}
	}
}

// TestSharedDataTesttraceRing checks the 4-rank test trace: one round of
// the MPI_Isend/MPI_Recv ring of one MPI_INT (4 messages of 4 B, rank r to
// r+1), the MPI_Barrier before it (dissemination, 2 steps of 4 zero-byte
// messages) and the MPI_Allreduce after it (recursive doubling, 2 steps of
// 4 messages of 4 B).
func TestSharedDataTesttraceRing(t *testing.T) {
	r, rep := loadShared(t, "testtrace-0002.bin", Options{})
	checkTrace(t, r)
	p2p := r.p2p()
	if len(p2p) != 4 {
		t.Fatalf("%d point-to-point messages, want 4", len(p2p))
	}
	for _, m := range p2p {
		if m.Bytes != 4 || m.DstRank != (m.SrcRank+1)%4 || m.Src != m.SrcRank || m.Dst != m.DstRank {
			t.Errorf("ring message %+v", m)
		}
	}
	// Each receive completes before the rank's next collective: rank
	// r's MPI_Allreduce messages depend (through its synchronization
	// points) on the ring message into r.
	into := map[int32]int64{}
	for _, m := range p2p {
		into[m.DstRank] = m.ID
	}
	for _, m := range r.data() {
		if m.CollectiveID < 0 || m.Bytes == 0 {
			continue
		}
		if !reaches(r.Trace, m.ID, into[m.SrcRank]) {
			t.Errorf("allreduce message %d of rank %d does not wait for the ring message %d into it", m.ID, m.SrcRank, into[m.SrcRank])
		}
	}
	if rep.Collectives["MPI_Barrier"] != 1 || rep.Collectives["MPI_Allreduce"] != 1 {
		t.Errorf("collectives %v", rep.Collectives)
	}
	if rep.CollectiveMessages != 16 || rep.CollectiveBytes != 8*4 {
		t.Errorf("collective messages %d (%d B), want 16 (32 B)", rep.CollectiveMessages, rep.CollectiveBytes)
	}
	// The recorded times survive: with a network that takes no time, a
	// rank's waits can only get shorter, so each ring send is released no
	// later than it was recorded (relative to the first call of any rank)
	// and no earlier than that minus the time the rank spent in MPI calls
	// before it.
	at := r.zeroLatency()
	var t0 int64 = -1
	dumps := make([]*asciiDump, 4)
	for rank := range dumps {
		dumps[rank] = parseASCII(t, strings.TrimSuffix(rep.Files[rank], ".bin")+".dumpi2ascii.txt")
		if first := dumps[rank].calls[0].wall[0]; t0 < 0 || first < t0 {
			t0 = first
		}
	}
	for _, m := range p2p {
		inCalls := int64(0)
		for _, c := range dumps[m.SrcRank].calls {
			if c.name == "MPI_Isend" {
				hi, lo := units.Nanos(c.wall[0]-t0), units.Nanos(c.wall[0]-t0-inCalls)
				if got := at[m.ID]; got > hi || got < lo {
					t.Errorf("rank %d's ring send released at %v with no network time, want %v..%v", m.SrcRank, got, lo, hi)
				}
				break
			}
			inCalls += c.wall[1] - c.wall[0]
		}
	}
}

// reaches reports whether message a depends, directly or not, on b.
func reaches(tr *trace.Trace, a, b int64) bool {
	seen := map[int64]bool{}
	stack := []int64{a}
	for len(stack) > 0 {
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if x == b {
			return true
		}
		for _, d := range tr.Messages[x].Deps {
			if !seen[d] {
				seen[d] = true
				stack = append(stack, d)
			}
		}
	}
	return false
}

// TestSharedDataDeterministic loads each trace twice, from different
// files of the set, and expects identical results.
func TestSharedDataDeterministic(t *testing.T) {
	for _, pair := range [][2]string{{"testbgp.meta", "testbgp-0005.bin"}, {"testtrace-0000.bin", "testtrace.meta"}} {
		a, ra := loadShared(t, pair[0], Options{})
		b, rb := loadShared(t, pair[1], Options{})
		checkTrace(t, a)
		if !reflect.DeepEqual(a.Trace, b.Trace) || !reflect.DeepEqual(ra, rb) {
			t.Errorf("%s and %s give different results", pair[0], pair[1])
		}
	}
}

// TestSharedDataPPN places the BlueGene/P ranks 4 per host: 2 hosts,
// messages between ranks of one host stay on it.
func TestSharedDataPPN(t *testing.T) {
	r, rep := loadShared(t, "testbgp.meta", Options{PPN: 4})
	checkTrace(t, r)
	if r.Hosts != 2 || r.PPN != 4 || rep.Hosts != 2 || !reflect.DeepEqual(r.Ranks, []int32{0, 0, 0, 0, 1, 1, 1, 1}[:7]) {
		t.Fatalf("hosts %d, ppn %d, ranks %v", r.Hosts, r.PPN, r.Ranks)
	}
	local := 0
	for _, m := range r.p2p() {
		if m.Src != m.SrcRank/4 || m.Dst != m.DstRank/4 {
			t.Fatalf("message %+v placed wrong", m)
		}
		if m.Src == m.Dst {
			local++
		}
	}
	// Ranks 0-3 share host 0 and 4-6 host 1: 12+6 of the 42 ordered
	// pairs, 14 messages each.
	if local != 18*14 {
		t.Errorf("%d same-host messages, want %d", local, 18*14)
	}
}

// TestSharedDataWritesBack writes the built trace as Parquet and CSV with
// the trace package and reads it back unchanged: every time is a whole
// number of nanoseconds and every field is in the files' ranges.
func TestSharedDataWritesBack(t *testing.T) {
	r, _ := loadShared(t, "testbgp-0000.bin", Options{PPN: 2})
	for _, ext := range []string{".parquet", ".csv"} {
		path := t.TempDir() + "/bgp" + ext
		if err := trace.WriteFile(path, r.Trace); err != nil {
			t.Fatalf("%s: %v", ext, err)
		}
		back, err := trace.ReadFile(path)
		if err != nil {
			t.Fatalf("%s: %v", ext, err)
		}
		if !reflect.DeepEqual(normDeps(back), normDeps(r.Trace)) {
			t.Errorf("%s: the trace read back differs", ext)
		}
	}
}

// normDeps returns a copy of tr with empty dependency lists as nil.
func normDeps(tr *trace.Trace) *trace.Trace {
	c := *tr
	c.Messages = slices.Clone(tr.Messages)
	for i := range c.Messages {
		if len(c.Messages[i].Deps) == 0 {
			c.Messages[i].Deps = nil
		}
	}
	return &c
}
