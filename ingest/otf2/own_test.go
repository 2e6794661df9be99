package otf2

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ccreplay/ccreplay/ingest/otf2/internal/otf2write"
	"github.com/ccreplay/ccreplay/trace"
)

// halo is the example job: 8 ranks, 4 per node, 3 iterations of a
// 64 KiB halo exchange with both ring neighbours and an 8-byte
// allreduce, 100 us of compute per iteration.
var halo = otf2write.HaloSpec{Ranks: 8, PPN: 4, Iters: 3, HaloBytes: 64 << 10, AllreduceBytes: 8, ComputeNs: 100_000}

func writeArchive(t *testing.T, w *otf2write.Writer) string {
	t.Helper()
	anchor, err := w.Write(t.TempDir(), "traces")
	if err != nil {
		t.Fatal(err)
	}
	return anchor
}

// TestOwnWriterMatchesPrint checks the project's writer and this reader
// against otf2-print on the same archives: little- and big-endian chunks
// (chunk header byte-order mark; OTF2_Buffer.c reads each chunk in its
// own order), clock offsets (Definitions, section ClockOffset), and
// files of several chunks (event files of more than the 256 KiB chunk
// size: a record never straddles chunks, a 0 byte ends a chunk).
func TestOwnWriterMatchesPrint(t *testing.T) {
	needPrint(t)
	s := halo
	s.Offsets = true
	compareWithPrint(t, writeArchive(t, otf2write.Halo(s)))

	be := otf2write.Halo(s)
	be.BigEndian = true
	compareWithPrint(t, writeArchive(t, be))

	long := otf2write.Halo(otf2write.HaloSpec{Ranks: 2, PPN: 1, Iters: 2500, HaloBytes: 1 << 20, AllreduceBytes: 1 << 40, ComputeNs: 1000, Offsets: true})
	anchor := writeArchive(t, long)
	if st, err := os.Stat(filepath.Join(filepath.Dir(anchor), "traces", "0.evt")); err != nil || st.Size() < 2*otf2write.MinChunk {
		t.Fatalf("event file not multi-chunk: %v %v", st.Size(), err)
	}
	if n := compareWithPrint(t, anchor); n < 2*2500*20 {
		t.Errorf("compared %d events", n)
	}
}

// TestMappingTables checks local-to-global id mapping (Definitions,
// section MappingTable): location 1 writes its events with local region
// and communicator ids, mapped by dense tables in its local definitions.
func TestMappingTables(t *testing.T) {
	w := otf2write.New()
	w.ClockProperties(1000, 0, 1000)
	w.SystemTreeNode(0, "node", "node", otf2write.Undefined32)
	w.Region(0, "MPI_Send", otf2write.RolePoint2Point, otf2write.ParadigmMPI)
	w.Region(1, "MPI_Recv", otf2write.RolePoint2Point, otf2write.ParadigmMPI)
	w.LocationGroup(0, "rank 0", 0)
	w.LocationGroup(1, "rank 1", 0)
	l0 := w.Location(0, "Master thread", 0)
	l1 := w.Location(1, "Master thread", 1)
	w.Group(0, "MPI_COMM_WORLD", otf2write.GroupCommLocations, otf2write.ParadigmMPI, []uint64{0, 1})
	w.Group(1, "", otf2write.GroupCommGroup, otf2write.ParadigmMPI, []uint64{0, 1})
	w.Comm(0, "MPI_COMM_WORLD", 1, otf2write.Undefined32)
	w.Comm(1, "dup", 1, 0)
	l0.Enter(10, 0)
	l0.MpiSend(11, 1, 1, 3, 100)
	l0.Leave(12, 0)
	// Location 1: local region 0 is global 1, local comm 0 is global 1.
	l1.MappingTable(3, []uint64{1, 0})
	l1.MappingTable(6, []uint64{1, 0})
	l1.Enter(10, 0)
	l1.MpiRecv(13, 0, 0, 3, 100)
	l1.Leave(14, 0)
	anchor := writeArchive(t, w)
	a, err := Open(anchor)
	if err != nil {
		t.Fatal(err)
	}
	var got []Event
	a.Events(1, func(e *Event) error { got = append(got, *e); return nil })
	if len(got) != 3 || got[0].Region != 1 || got[1].Comm != 1 || got[2].Region != 1 {
		t.Fatalf("events %+v", got)
	}
	if _, err := exec.LookPath("otf2-print"); err == nil {
		compareWithPrint(t, anchor)
	}
	tr, rep, err := Load(anchor, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Sends != 1 || rep.Matched != 1 || rep.Messages != 1 {
		t.Errorf("report %+v", rep)
	}
	if err := tr.Validate(); err != nil {
		t.Fatal(err)
	}
}

// TestFormatVariants reads records as the format defines them rather
// than as the writers at hand emit them: definitions of format 1.0
// (Region without the attributes added in 1.1, Group with only the type
// of before 1.2), ClockProperties without the realtime timestamp of 3.0,
// a record with a length of 255 bytes or more (the 0xff escape and a full
// 64-bit length), attributes appended by a later version (skipped by the
// record length), and definition and event records of unknown types
// (skipped by their length). Buffer encoding: OTF2_Buffer.c,
// OTF2_Buffer_GuaranteeRecord; Definitions, sections Region and Group.
func TestFormatVariants(t *testing.T) {
	w := otf2write.New()
	w.SystemTreeNode(0, "node", "node", otf2write.Undefined32)
	// ClockProperties (type 5), 3 attributes only: resolution 1000,
	// offset 0x100, length 5.
	w.Raw(5, []byte{2, 0xe8, 0x03, 2, 0x00, 0x01, 1, 5})
	// A 1.0 Region 7: self, name (string 0 "node"), description, region
	// type, source file, begin, end. No role or paradigm.
	w.Raw(15, []byte{1, 7, 0, 0, 0, 0xff, 0, 0})
	// A 1.0 Group 3 of type MPI locations (6 before 1.2), members 0 and 1,
	// and Group 4, MPI group (4 before 1.2) of ranks 0 and 1.
	w.LocationGroup(0, "rank 0", 0)
	w.LocationGroup(1, "rank 1", 0)
	l0 := w.Location(0, "a", 0)
	l1 := w.Location(1, "b", 1)
	w.Raw(18, []byte{1, 3, 0, 6, 1, 2, 0, 1, 1})
	w.Raw(18, []byte{1, 4, 0, 4, 1, 2, 0, 1, 1})
	// A Comm over group 4 with 300 bytes of attributes of a future
	// version: a large record.
	big := append([]byte{0, 0, 1, 4, 0xff}, make([]byte, 300)...)
	w.Raw(22, big)
	// An unknown definition type.
	w.Raw(200, []byte{1, 2, 3})
	l0.Enter(0x100, 7)
	l0.RawEvent(0x101, 230, []byte{9, 9, 9}) // unknown event type
	// MpiSend with an extra attribute of a future version.
	l0.RawEvent(0x102, 14, []byte{1, 1, 0, 1, 4, 2, 0x00, 0x10, 1, 0x42})
	l0.Leave(0x103, 7)
	l0.OmpFork(0x104, 8)
	l1.MpiRecv(0x105, 0, 0, 4, 4096)
	anchor := writeArchive(t, w)
	a, err := Open(anchor)
	if err != nil {
		t.Fatal(err)
	}
	d := a.Defs
	if !d.HaveClock || d.Clock.Resolution != 1000 || d.Clock.GlobalOffset != 256 || d.Clock.Realtime != 0 {
		t.Errorf("clock %+v", d.Clock)
	}
	if g := d.Groups[3]; g.Type != groupCommLocations || g.Paradigm != paradigmMPI || len(g.Members) != 2 {
		t.Errorf("group 3 %+v", g)
	}
	if g := d.Groups[4]; g.Type != groupCommGroup {
		t.Errorf("group 4 %+v", g)
	}
	if c, ok := d.Comms[0]; !ok || c.Group != 4 {
		t.Errorf("comm %+v", d.Comms)
	}
	if d.Regions[7].Name != "node" {
		t.Errorf("region %+v", d.Regions[7])
	}
	tr, rep, err := Load(anchor, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Sends != 1 || rep.SendBytes != 4096 || rep.Matched != 1 || tr.Messages[1].Bytes != 4096 {
		t.Errorf("report %+v", rep)
	}
	skipped := map[string]int64{}
	for _, s := range rep.Skipped {
		skipped[s.Kind] = s.Count
	}
	if skipped["event type 230"] != 1 || skipped["OmpFork"] != 1 {
		t.Errorf("skipped %+v", rep.Skipped)
	}
	// The region is 1.0's, so its MPI events come from the send's region
	// entry (0x100 ticks = the start): the send leaves at gap 0.
	if len(rep.Warnings()) == 0 {
		t.Error("no warnings for skipped events")
	}
}

// TestHaloTrace checks the example job's trace against what the
// algorithms imply: per iteration and rank two 64 KiB halo messages, and
// an 8-rank recursive-doubling allreduce of 3 steps x 8 messages of 8
// bytes; program order through each rank's synchronization points; the
// compute gap before each iteration's first halo message; ComputeScale
// doubling it; placement by PPN and by system tree.
func TestHaloTrace(t *testing.T) {
	anchor := writeArchive(t, otf2write.Halo(halo))
	tr, rep, err := Load(anchor, Options{PPN: 4})
	if err != nil {
		t.Fatal(err)
	}
	if err := tr.Validate(); err != nil {
		t.Fatal(err)
	}
	r, it := int64(halo.Ranks), int64(halo.Iters)
	if rep.Sends != 2*r*it || rep.SendBytes != 2*r*it*64<<10 || rep.Matched != rep.Sends {
		t.Errorf("sends %d bytes %d matched %d", rep.Sends, rep.SendBytes, rep.Matched)
	}
	if rep.Collectives["MPI_Allreduce"] != it || rep.CollectiveMessages != 24*it || rep.CollectiveBytes["MPI_Allreduce"] != 24*8*it {
		t.Errorf("collectives %v %v %d", rep.Collectives, rep.CollectiveBytes, rep.CollectiveMessages)
	}
	if rep.Hosts != 2 || tr.Ranks[3] != 0 || tr.Ranks[4] != 1 {
		t.Errorf("hosts %d ranks %v", rep.Hosts, tr.Ranks)
	}
	checkOrder(t, tr)
	// Rank 0's first halo message: released after its first point by the
	// time from its first call (main's region is not MPI: the first MPI
	// call is the first MPI_Irecv, entered after compute) to the entry of
	// its MPI_Isend: 2 x (300 ns in MPI_Irecv + 100 ns).
	first := map[int32]*trace.Message{}
	for i := range tr.Messages {
		m := &tr.Messages[i]
		if !m.IsSync() && m.CollectiveID < 0 && first[m.SrcRank] == nil {
			first[m.SrcRank] = m
		}
	}
	if g := first[0].Gap; g.Nanoseconds() != 800 {
		t.Errorf("rank 0's first send: gap %v, want 800ns", g)
	}
	// In the later iterations, the compute phase separates the
	// allreduce's end (rank 0's synchronization point) from the two
	// sends and from the MPI_Waitall's entry: three gaps of at least the
	// compute time per iteration.
	var long int
	for i := range tr.Messages {
		if m := &tr.Messages[i]; m.SrcRank == 0 && m.Gap.Nanoseconds() >= int64(halo.ComputeNs) {
			long++
		}
	}
	if long != 3*(halo.Iters-1) {
		t.Errorf("rank 0 has %d compute gaps, want %d", long, 3*(halo.Iters-1))
	}
	scaled, _, err := Load(anchor, Options{PPN: 4, ComputeScale: 2})
	if err != nil {
		t.Fatal(err)
	}
	for i := range tr.Messages {
		if scaled.Messages[i].Gap != 2*tr.Messages[i].Gap {
			t.Fatalf("message %d: scaled gap %v, unscaled %v", i, scaled.Messages[i].Gap, tr.Messages[i].Gap)
		}
	}
	st, rep2, err := Load(anchor, Options{SystemTree: true})
	if err != nil {
		t.Fatal(err)
	}
	if rep2.Hosts != 2 || rep2.PPN != 4 || st.Ranks[3] != 0 || st.Ranks[4] != 1 || rep2.Placement != "system tree" {
		t.Errorf("system tree: hosts %d ppn %d ranks %v", rep2.Hosts, rep2.PPN, st.Ranks)
	}
}

// TestErrors checks that damaged archives fail with one-line errors
// naming the file and the record, and never panic.
func TestErrors(t *testing.T) {
	anchor := writeArchive(t, otf2write.Halo(halo))
	dir := filepath.Dir(anchor)
	evt := filepath.Join(dir, "traces", "3.evt")
	data, err := os.ReadFile(evt)
	if err != nil {
		t.Fatal(err)
	}
	// Cut the file inside an MpiIsend: the record after 18 bytes of header
	// and the first events.
	cut := strings.Index(string(data), "\x0f") // first MpiIsend type byte
	for cut >= 0 && cut < 40 {
		cut = strings.Index(string(data[cut+1:]), "\x0f") + cut + 1
	}
	if err := os.WriteFile(evt, data[:cut+4], 0o644); err != nil {
		t.Fatal(err)
	}
	_, _, err = Load(anchor, Options{})
	var de *DecodeError
	if !errors.As(err, &de) || de.File != evt || de.Record == 0 || !strings.Contains(err.Error(), "MpiIsend") || strings.Contains(err.Error(), "\n") {
		t.Errorf("error %v", err)
	}
	if !strings.HasPrefix(err.Error(), evt+": event ") {
		t.Errorf("error %q does not start with the file and event", err)
	}
	// Every truncation of every file fails cleanly or reads fine.
	for _, name := range []string{"traces.otf2", "traces.def", "traces/0.evt", "traces/0.def"} {
		p := filepath.Join(dir, name)
		orig, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		for n := 0; n < len(orig); n += max(1, len(orig)/97) {
			os.WriteFile(p, orig[:n], 0o644)
			Load(anchor, Options{}) // must not panic
		}
		os.WriteFile(p, orig, 0o644)
	}
	if IsOTF2(evt) || !IsOTF2(anchor) || IsOTF2(dir) || IsOTF2(filepath.Join(dir, "nope")) {
		t.Error("IsOTF2")
	}
}
