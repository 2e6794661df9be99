package otf2

import (
	"fmt"
	"strings"
	"testing"

	"github.com/ccreplay/ccreplay/trace"
)

// p2pScript writes, with the reference library, 4 ranks on 2 nodes (two
// processes per node) and a second, non-MPI thread in rank 0's process:
// blocking sends and receives in a ring, a nonblocking exchange
// (MPI_Isend, MPI_Irecv, MPI_Wait with a request test), an allreduce,
// messages on MPI_COMM_SELF, an attribute list, a metric and an OpenMP
// fork (both skipped), and two clock offsets on locations 0 and 1
// (offset 0 at tick 5, 1000 at tick 1005: their times t become 2t - 5).
const p2pScript = `
import sys, otf2, _otf2
from otf2.enums import Type, CollectiveOp, Paradigm, GroupType, RegionRole
with otf2.writer.open(sys.argv[1], timer_resolution=1000000) as trace:
    d = trace.definitions
    root = d.system_tree_node("machine")
    nodes = [d.system_tree_node("node%d" % k, parent=root) for k in range(2)]
    lgs = [d.location_group("rank %d" % r, system_tree_parent=nodes[r // 2]) for r in range(4)]
    locs = [d.location("Master thread", group=lgs[r]) for r in range(4)]
    thr = d.location("OMP thread 1", group=lgs[0])
    ws = [trace.event_writer_from_location(l) for l in locs]
    wt = trace.event_writer_from_location(thr)
    d.group("MPI_COMM_WORLD", group_type=GroupType.COMM_LOCATIONS, paradigm=Paradigm.MPI, members=locs)
    gw = d.group("", group_type=GroupType.COMM_GROUP, paradigm=Paradigm.MPI, members=[0,1,2,3])
    gs = d.group("", group_type=GroupType.COMM_SELF, paradigm=Paradigm.MPI, members=[])
    world = d.comm("MPI_COMM_WORLD", group=gw)
    self_ = d.comm("MPI_COMM_SELF", group=gs)
    rs = d.region("MPI_Send", region_role=RegionRole.POINT2POINT, paradigm=Paradigm.MPI)
    ri = d.region("MPI_Isend", region_role=RegionRole.POINT2POINT, paradigm=Paradigm.MPI)
    rr = d.region("MPI_Recv", region_role=RegionRole.POINT2POINT, paradigm=Paradigm.MPI)
    rw = d.region("MPI_Wait", region_role=RegionRole.POINT2POINT, paradigm=Paradigm.MPI)
    ra = d.region("MPI_Allreduce", region_role=RegionRole.COLL_ALL2ALL, paradigm=Paradigm.MPI)
    attr = d.attribute("note", "a note", Type.STRING)
    metric = d.metric("flops", unit="1")
    t = 10
    for r in range(4):
        ws[r].enter(t, rs, {attr: "hello"})
        ws[r].mpi_send(t+1, (r+1) % 4, world, 5, 1000 * (r+1))
        ws[r].leave(t+2, rs)
        ws[r].enter(t+3, rr)
        ws[r].mpi_recv(t+4, (r+3) % 4, world, 5, 1000 * ((r+3) % 4 + 1))
        ws[r].leave(t+5, rr)
        ws[r].metric(t+6, metric, 3.0)
        ws[r].enter(t+7, ri)
        ws[r].mpi_isend(t+8, (r+2) % 4, world, 9, 1 << 20, 77)
        ws[r].leave(t+9, ri)
        ws[r].mpi_irecv_request(t+10, 78)
        ws[r].enter(t+11, rw)
        ws[r].mpi_irecv(t+12, (r+2) % 4, world, 9, 1 << 20, 78)
        ws[r].mpi_isend_complete(t+12, 77)
        ws[r].mpi_request_test(t+12, 79)
        ws[r].leave(t+13, rw)
        ws[r].enter(t+14, ra)
        ws[r].mpi_collective_begin(t+15)
        ws[r].mpi_collective_end(t+16, CollectiveOp.ALLREDUCE, world, 0xffffffff, 4*64, 4*64)
        ws[r].leave(t+17, ra)
        ws[r].mpi_send(t+18, 0, self_, 1, 8)
        ws[r].mpi_recv(t+19, 0, self_, 1, 8)
    wt.omp_fork(12, 4)
    wt.enter(13, rs)
    wt.leave(14, rs)
    for w in ws[:2]:
        _otf2.DefWriter_WriteClockOffset(w._def_handle, 5, 0, 0.0)
        _otf2.DefWriter_WriteClockOffset(w._def_handle, 1005, 1000, 0.0)
`

// TestReferenceArchiveMatchesPrint checks every event of an archive the
// reference library wrote against otf2-print. OTF2 user documentation,
// chapter Events: sections Enter, Leave, MpiSend, MpiIsend,
// MpiIsendComplete, MpiIrecvRequest, MpiRecv, MpiIrecv, MpiRequestTest,
// MpiCollectiveBegin, MpiCollectiveEnd (attributes); chapter Definitions,
// section ClockOffset (times corrected as the reference reader does).
func TestReferenceArchiveMatchesPrint(t *testing.T) {
	anchor := pyArchive(t, p2pScript)
	if n := compareWithPrint(t, anchor); n < 80 {
		t.Errorf("compared %d events", n)
	}
	// Definitions, section ClockOffset: location 0's first event, at
	// tick 10, is at 2*10 - 5 = 15 after correction; location 2 has no
	// offsets.
	a, err := Open(anchor)
	if err != nil {
		t.Fatal(err)
	}
	first := map[uint64]uint64{}
	for _, l := range a.Defs.Locations {
		a.Events(l.ID, func(e *Event) error {
			if _, ok := first[l.ID]; !ok {
				first[l.ID] = e.Time
			}
			return nil
		})
	}
	if first[0] != 15 || first[2] != 10 {
		t.Errorf("first event times %v, want location 0 at 15 and 2 at 10", first)
	}
}

// TestReferenceArchiveTrace checks the trace made of the reference
// archive: the ring sends, the nonblocking exchange and the self
// messages become messages; the allreduce (4 ranks, 64-byte buffer:
// Score-P accounts 4 x 64 bytes sent) becomes recursive doubling, 2
// steps of 4 messages of 64 bytes; the OpenMP thread's events, the
// metric and the request test are reported as skipped.
func TestReferenceArchiveTrace(t *testing.T) {
	anchor := pyArchive(t, p2pScript)
	tr, rep, err := Load(anchor, Options{PPN: 2})
	if err != nil {
		t.Fatal(err)
	}
	if err := tr.Validate(); err != nil {
		t.Fatal(err)
	}
	if rep.Ranks != 4 || rep.Hosts != 2 || rep.Locations != 5 {
		t.Errorf("ranks %d hosts %d locations %d, want 4, 2, 5", rep.Ranks, rep.Hosts, rep.Locations)
	}
	// 4 ring sends (1000..4000 bytes), 4 x 1 MiB, 4 self messages of 8.
	if rep.Sends != 12 || rep.SendBytes != 10000+4<<20+32 || rep.Matched != 12 {
		t.Errorf("sends %d (%d bytes), %d matched", rep.Sends, rep.SendBytes, rep.Matched)
	}
	if rep.Collectives["MPI_Allreduce"] != 1 || rep.CollectiveBytes["MPI_Allreduce"] != 8*64 || rep.CollectiveMessages != 8 {
		t.Errorf("collectives %v bytes %v messages %d", rep.Collectives, rep.CollectiveBytes, rep.CollectiveMessages)
	}
	skipped := map[string]int64{}
	for _, s := range rep.Skipped {
		skipped[s.Kind] += s.Count
	}
	if skipped["Metric"] != 4 || skipped["MpiRequestTest"] != 4 || skipped["OmpFork"] != 1 || skipped["Enter"] != 1 {
		t.Errorf("skipped %+v", rep.Skipped)
	}
	if rep.ClockOffsets != 4 {
		t.Errorf("%d clock offsets, want 4", rep.ClockOffsets)
	}
	checkOrder(t, tr)
	var buf strings.Builder
	if err := rep.WriteText(&buf); err != nil || !strings.Contains(buf.String(), "collective MPI_Allreduce: 1, 512 bytes") {
		t.Errorf("report:\n%s", buf.String())
	}
}

// checkOrder checks that every message depends only on earlier messages
// (the trace is in a topological order of its dependencies) and that a
// data message depends on a synchronization point or a message of its
// sender (the rank's program order).
func checkOrder(t *testing.T, tr *trace.Trace) {
	t.Helper()
	for i := range tr.Messages {
		m := &tr.Messages[i]
		for _, d := range m.Deps {
			if d >= m.ID {
				t.Fatalf("message %d depends on later message %d", m.ID, d)
			}
			dm := &tr.Messages[d]
			if dm.DstRank != m.SrcRank && dm.SrcRank != m.SrcRank {
				t.Fatalf("message %d (rank %d) depends on message %d between ranks %d and %d", m.ID, m.SrcRank, d, dm.SrcRank, dm.DstRank)
			}
		}
	}
}

// collScript writes 5 ranks calling, in order, each MPI collective the
// reader expands, with the sizes Score-P records (totals over all peers,
// the calling rank included; B = 64 bytes per block): Barrier, Bcast
// (root 1), Reduce (root 2), Allreduce, Gather and Scatter (root 0),
// Allgather, Alltoall, Scan, Exscan, Reduce_scatter, Allgatherv (rank r's
// block 8(r+1) bytes) and Alltoallv.
const collScript = `
import sys, otf2
from otf2.enums import CollectiveOp as C, Paradigm, GroupType, RegionRole
n, B = 5, 64
with otf2.writer.open(sys.argv[1], timer_resolution=1000000000) as trace:
    d = trace.definitions
    node = d.system_tree_node("node")
    locs = [d.location("Master thread", group=d.location_group("rank %d" % r, system_tree_parent=node)) for r in range(n)]
    ws = [trace.event_writer_from_location(l) for l in locs]
    d.group("MPI_COMM_WORLD", group_type=GroupType.COMM_LOCATIONS, paradigm=Paradigm.MPI, members=locs)
    world = d.comm("MPI_COMM_WORLD", group=d.group("", group_type=GroupType.COMM_GROUP, paradigm=Paradigm.MPI, members=list(range(n))))
    U = 0xffffffff
    ops = [
        ("MPI_Barrier", C.BARRIER, U, lambda r: (0, 0)),
        ("MPI_Bcast", C.BCAST, 1, lambda r: (n*B if r == 1 else 0, B)),
        ("MPI_Reduce", C.REDUCE, 2, lambda r: (B, n*B if r == 2 else 0)),
        ("MPI_Allreduce", C.ALLREDUCE, U, lambda r: (n*B, n*B)),
        ("MPI_Gather", C.GATHER, 0, lambda r: (B, n*B if r == 0 else 0)),
        ("MPI_Scatter", C.SCATTER, 0, lambda r: (n*B if r == 0 else 0, B)),
        ("MPI_Allgather", C.ALLGATHER, U, lambda r: (n*B, n*B)),
        ("MPI_Alltoall", C.ALLTOALL, U, lambda r: (n*B, n*B)),
        ("MPI_Scan", C.SCAN, U, lambda r: ((n-r)*B, (r+1)*B)),
        ("MPI_Exscan", C.EXSCAN, U, lambda r: ((n-1-r)*B, r*B)),
        ("MPI_Reduce_scatter", C.REDUCE_SCATTER, U, lambda r: (n*B, n*B)),
        ("MPI_Allgatherv", C.ALLGATHERV, U, lambda r: (n*8*(r+1), 8*15)),
        ("MPI_Alltoallv", C.ALLTOALLV, U, lambda r: (n*B, n*B)),
    ]
    t = 1000
    for name, op, root, size in ops:
        reg = d.region(name, region_role=RegionRole.COLL_ALL2ALL, paradigm=Paradigm.MPI)
        for r in range(n):
            s, rv = size(r)
            ws[r].enter(t + r, reg)
            ws[r].mpi_collective_begin(t + r + 1)
            ws[r].mpi_collective_end(t + 50, op, world, root, s, rv)
            ws[r].leave(t + 60, reg)
        t += 100
`

// TestReferenceCollectives checks each collective's expansion against
// the algorithm ingest/dumpi documents, for 5 ranks (not a power of two)
// and B = 64: message count and bytes per operation. OTF2 user
// documentation, chapter Events, section MpiCollectiveEnd (collective
// operation, root, sizes sent and received).
func TestReferenceCollectives(t *testing.T) {
	anchor := pyArchive(t, collScript)
	compareWithPrint(t, anchor)
	tr, rep, err := Load(anchor, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := tr.Validate(); err != nil {
		t.Fatal(err)
	}
	const n, B = 5, 64
	want := []struct {
		name   string
		msgs   int
		bytes  int64
		sender func(m *trace.Message) bool // checks a message, nil = any
	}{
		{"MPI_Barrier", 15, 0, nil},                 // dissemination: 3 steps x 5
		{"MPI_Bcast", n - 1, (n - 1) * B, nil},      // binomial tree
		{"MPI_Reduce", n - 1, (n - 1) * B, nil},     // binomial tree
		{"MPI_Allreduce", 1 + 2*4 + 1, 10 * B, nil}, // recursive doubling, p = 4, m = 1
		{"MPI_Gather", n - 1, (n - 1) * B, func(m *trace.Message) bool { return m.DstRank == 0 }},
		{"MPI_Scatter", n - 1, (n - 1) * B, func(m *trace.Message) bool { return m.SrcRank == 0 }},
		{"MPI_Allgather", (n - 1) * n, (n - 1) * n * B, func(m *trace.Message) bool { return m.DstRank == (m.SrcRank+1)%n }},
		{"MPI_Alltoall", (n - 1) * n, (n - 1) * n * B, nil},                     // pairwise exchange
		{"MPI_Scan", 4 + 3 + 1, 8 * B, nil},                                     // Hillis-Steele
		{"MPI_Exscan", 4 + 3 + 1, 8 * B, nil},                                   //
		{"MPI_Reduce_scatter", (n - 1) * n, (n - 1) * n * B, nil},               // pairwise
		{"MPI_Allgatherv", (n - 1) * n, (n - 1) * 8 * (1 + 2 + 3 + 4 + 5), nil}, // ring, blocks 8(r+1)
		{"MPI_Alltoallv", (n - 1) * n, (n - 1) * n * B, nil},                    // pairwise, uniform
	}
	msgs := map[int64]int{}
	bytes := map[int64]int64{}
	for i := range tr.Messages {
		m := &tr.Messages[i]
		if m.CollectiveID < 0 || m.IsSync() {
			continue
		}
		msgs[m.CollectiveID]++
		bytes[m.CollectiveID] += m.Bytes
		if f := want[m.CollectiveID].sender; f != nil && !f(m) {
			t.Errorf("%s: message %d -> %d", want[m.CollectiveID].name, m.SrcRank, m.DstRank)
		}
	}
	for id, w := range want {
		if msgs[int64(id)] != w.msgs || bytes[int64(id)] != w.bytes {
			t.Errorf("%s (id %d): %d messages, %d bytes; want %d, %d", w.name, id, msgs[int64(id)], bytes[int64(id)], w.msgs, w.bytes)
		}
		if rep.Collectives[w.name] != 1 || rep.CollectiveBytes[w.name] != w.bytes {
			t.Errorf("report %s: %d calls, %d bytes", w.name, rep.Collectives[w.name], rep.CollectiveBytes[w.name])
		}
	}
	checkOrder(t, tr)
	if len(rep.Skipped) != 0 {
		t.Errorf("skipped: %+v", rep.Skipped)
	}
}

func TestPrintNames(t *testing.T) {
	for et, want := range map[EventType]string{EvMpiIsendComplete: "MPI_ISEND_COMPLETE", EvEnter: "ENTER", 24: "OMP_FORK"} {
		if got := printName(et); got != want {
			t.Errorf("%d: %s, want %s", et, got, want)
		}
	}
	if s := fmt.Sprint(EventType(250)); s != "event type 250" {
		t.Error(s)
	}
}

// TestReferenceNoMPI loads an archive without MPI (the reference
// library's own high-level writer example: one thread entering and
// leaving a region, metrics): each process is a rank, nothing is
// communicated, and the metrics are reported as skipped.
func TestReferenceNoMPI(t *testing.T) {
	anchor := pyArchive(t, `
import sys, otf2
with otf2.writer.open(sys.argv[1], timer_resolution=1000000) as trace:
    f = trace.definitions.region("My Function")
    node = trace.definitions.system_tree_node("myHost")
    lg = trace.definitions.location_group("Initial Process", system_tree_parent=node)
    w = trace.event_writer("Main Thread", group=lg)
    w.enter(100, f)
    m = trace.definitions.metric("Time since last coffee", unit="min")
    w.metric(150, m, 72.0)
    w.leave(200, f)
`)
	compareWithPrint(t, anchor)
	tr, rep, err := Load(anchor, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Ranks != 1 || rep.Messages != 0 || len(tr.Ranks) != 1 || len(rep.Warnings()) != 2 {
		t.Errorf("report %+v, warnings %q", rep, rep.Warnings())
	}
}
