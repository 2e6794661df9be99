package chakra

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/ccreplay/ccreplay/ingest/chakra/etpb"
	"github.com/ccreplay/ccreplay/ingest/chakra/internal/etgen"
	"github.com/ccreplay/ccreplay/units"
)

// pingPong: rank 0 computes 10 µs then sends 4 KiB to rank 1 (tag 3);
// rank 1 receives it, computes 5 µs and sends 1 KiB back; rank 0
// receives the reply.
func pingPong() [][]*etpb.Node {
	return [][]*etpb.Node{
		{etgen.Comp(1, 10), etgen.Send(2, 1, 4096, 3, 1), etgen.Recv(3, 1, 1024, 3, 2)},
		{etgen.Recv(1, 0, 4096, 3), etgen.Comp(2, 5, 1), etgen.Send(3, 0, 1024, 3, 2)},
	}
}

// TestSendRecv checks the package comment's rules on a ping-pong: a send
// depends on the point its dependencies reached, a compute node is a
// gap on the edge after its dependencies, a receive completes when the
// matching send is delivered.
func TestSendRecv(t *testing.T) {
	tr, rep := load(t, pingPong(), Options{PPN: 1})
	msgs := data(tr)
	if len(msgs) != 2 || rep.Sends != 2 || rep.Matched != 2 || rep.SendBytes != 5120 {
		t.Fatalf("messages %+v, report %+v", msgs, rep)
	}
	ping, pong := msgs[0], msgs[1]
	if ping.SrcRank != 0 || ping.Bytes != 4096 || pong.SrcRank != 1 || pong.Bytes != 1024 {
		t.Fatalf("ping %+v pong %+v", ping, pong)
	}
	// ping <- P0 (Gap 10 µs) <- rank 0's start.
	p := msg(tr, ping.Deps[0])
	if len(ping.Deps) != 1 || !p.IsSync() || p.Gap != units.Microseconds(10) || p.SrcRank != 0 {
		t.Errorf("ping depends on %+v", p)
	}
	// pong <- P1 (Gap 5 µs) <- J (the receive: rank 1's start and ping).
	p = msg(tr, pong.Deps[0])
	if len(pong.Deps) != 1 || !p.IsSync() || p.Gap != units.Microseconds(5) || p.SrcRank != 1 || len(p.Deps) != 1 {
		t.Fatalf("pong depends on %+v", p)
	}
	j := msg(tr, p.Deps[0])
	if !j.IsSync() || !dependsOn(j, ping.ID) || len(j.Deps) != 2 {
		t.Errorf("rank 1's receive is %+v, want a join on its start and the ping", j)
	}
	// Rank 0's receive joins the pong and its own send (its dependency).
	last := tr.Messages[len(tr.Messages)-1]
	if !last.IsSync() || !dependsOn(last, pong.ID) || !dependsOn(last, ping.ID) {
		t.Errorf("rank 0's receive is %+v", last)
	}
	// Options.ComputeScale multiplies the gaps.
	tr, _ = load(t, pingPong(), Options{ComputeScale: 2})
	if g := msg(tr, data(tr)[0].Deps[0]).Gap; g != units.Microseconds(20) {
		t.Errorf("scaled gap %v, want 20 µs", g)
	}
	// Options.PPN places both ranks on one host.
	tr, rep = load(t, pingPong(), Options{PPN: 2})
	if tr.Hosts != 1 || rep.Hosts != 1 || data(tr)[0].Src != data(tr)[0].Dst {
		t.Errorf("PPN 2: %d hosts", tr.Hosts)
	}
}

// TestMatchOrder checks matching by (source, destination, tag, order):
// two sends with tag 1 and one with tag 2 go to the receives with their
// tag in the order posted, whatever the order of the receives' tags.
func TestMatchOrder(t *testing.T) {
	ranks := [][]*etpb.Node{
		{etgen.Send(1, 1, 100, 1), etgen.Send(2, 1, 200, 2), etgen.Send(3, 1, 300, 1)},
		{etgen.Recv(1, 0, 0, 2), etgen.Recv(2, 0, 0, 1), etgen.Recv(3, 0, 0, 1),
			etgen.Send(4, 0, 7, 0, 1), etgen.Send(5, 0, 8, 0, 2), etgen.Send(6, 0, 9, 0, 3)},
		// Rank 1 sends 7 bytes after the tag-2 receive (200 bytes), 8 after
		// the first tag-1 receive (100 bytes), 9 after the second (300).
	}
	tr, rep := load(t, ranks, Options{})
	if rep.Matched != 3 || rep.UnmatchedSends != 3 || rep.UnmatchedReceives != 0 {
		t.Fatalf("report %+v", rep)
	}
	want := map[int64]int64{7: 200, 8: 100, 9: 300}
	for _, m := range byPair(tr, 1, 0) {
		j := msg(tr, m.Deps[0])
		var got int64 = -1
		for _, d := range j.Deps {
			if x := msg(tr, d); !x.IsSync() {
				got = x.Bytes
			}
		}
		if got != want[m.Bytes] {
			t.Errorf("the %d-byte reply waits for the %d-byte send, want %d", m.Bytes, got, want[m.Bytes])
		}
	}
}

// TestCtrlDeps checks that control dependencies order nodes as data
// dependencies do: the send waits for a compute node it does not
// consume, and for the node listed after it in the file.
func TestCtrlDeps(t *testing.T) {
	send := etgen.Send(1, 1, 64, 0)
	send.CtrlDeps = []uint64{3}
	ranks := [][]*etpb.Node{
		{send, etgen.Comp(2, 7), etgen.Comp(3, 4, 2)},
		{etgen.Recv(1, 0, 64, 0)},
	}
	tr, _ := load(t, ranks, Options{})
	m := data(tr)[0]
	p := msg(tr, m.Deps[0])
	if p.Gap != units.Microseconds(4) {
		t.Fatalf("send depends on %+v, want the 4 µs compute", p)
	}
	if q := msg(tr, p.Deps[0]); q.Gap != units.Microseconds(7) {
		t.Errorf("then on %+v, want the 7 µs compute", q)
	}
}

// TestFanIn checks that a send with several dependencies waits for one
// synchronization point joining them, and that zero-duration and
// metadata nodes pass their dependencies on.
func TestFanIn(t *testing.T) {
	meta := &etpb.Node{Id: 4, Type: etpb.NodeType_METADATA_NODE, DataDeps: []uint64{1, 2, 3}}
	ranks := [][]*etpb.Node{
		{etgen.Comp(1, 3), etgen.Comp(2, 5), etgen.Comp(3, 0), meta, etgen.Send(5, 1, 8, 0, 4)},
		{etgen.Recv(1, 0, 8, 0)},
	}
	tr, rep := load(t, ranks, Options{})
	m := data(tr)[0]
	j := msg(tr, m.Deps[0])
	if len(m.Deps) != 1 || !j.IsSync() || len(j.Deps) != 3 || j.Gap != 0 {
		t.Fatalf("send depends on %+v", j)
	}
	if rep.NodeTypes["METADATA_NODE"] != 1 || rep.NodeTypes["COMP_NODE"] != 3 || rep.ComputeMicros != 8 {
		t.Errorf("report %+v", rep)
	}
}

// TestMemoryAndAttributes checks that memory nodes are delays, reported,
// and that unused attributes are counted apart.
func TestMemoryAndAttributes(t *testing.T) {
	load1 := &etpb.Node{Id: 1, Type: etpb.NodeType_MEM_LOAD_NODE, DurationMicros: 9,
		Attr: []*etpb.AttributeProto{etgen.Int64("tensor_size", 1024), etgen.String("op_schema", "x")}}
	coll := etgen.Coll(2, etpb.CollectiveCommType_ALL_REDUCE, 64, "", 1)
	coll.Attr = append(coll.Attr, &etpb.AttributeProto{Name: "involved_dim",
		Value: &etpb.AttributeProto_BoolList{BoolList: &etpb.BoolList{Values: []bool{true, false}}}})
	tr, rep := load(t, [][]*etpb.Node{{load1, coll}, {load1, coll}}, Options{})
	if len(data(tr)) != 4 { // ring of 2: 2 steps of S/2 each way
		t.Errorf("%d messages", len(data(tr)))
	}
	if rep.Ignored["op_schema"] != 2 {
		t.Errorf("ignored %v", rep.Ignored)
	}
	var b bytes.Buffer
	if err := rep.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"skipped 2 MEM_LOAD_NODE", "skipped 2 attribute involved_dim", "collective ALL_REDUCE: 1, 128 bytes", "op_schema (2)"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("report lacks %q:\n%s", want, b.String())
		}
	}
	js, err := json.Marshal(rep)
	if err != nil || !strings.Contains(string(js), `"collective_bytes":{"ALL_REDUCE":128}`) {
		t.Errorf("JSON %s, %v", js, err)
	}
}

// TestCtrlDepsAsRecorded checks the control dependencies real Chakra
// traces carry (the PyTorch converter writes an op's parent there, see
// pytorch_converter.py): on a node not in the file, on the node itself,
// and against a data dependency (a parent op listing its own kernel).
// They are dropped and reported; with IgnoreCtrlDeps they are not read.
func TestCtrlDepsAsRecorded(t *testing.T) {
	parent := etgen.Comp(10, 5)
	parent.CtrlDeps = []uint64{3, 11} // 3: removed root; 11: its own kernel
	kernel := etgen.Comp(11, 2, 10)
	kernel.CtrlDeps = []uint64{11} // itself
	send := etgen.Send(12, 1, 64, 0, 11)
	send.CtrlDeps = []uint64{10}
	ranks := [][]*etpb.Node{{parent, kernel, send}, {etgen.Recv(1, 0, 64, 0)}}
	tr, rep := load(t, ranks, Options{})
	want := map[string]int64{
		"on a node not in the file (a parent op the converter removed): dropped": 1,
		"on the node itself: dropped":                                            1,
		"closing a dependency cycle: dropped":                                    1,
	}
	for _, s := range rep.Skipped {
		if s.Kind == "ctrl_deps" {
			if want[s.Reason] != s.Count {
				t.Errorf("skip %+v", s)
			}
			delete(want, s.Reason)
		}
	}
	if len(want) != 0 {
		t.Errorf("not reported: %v", want)
	}
	// The send waits for the kernel (2 µs) after the parent (5 µs).
	// (A join of both, as the send lists both.)
	j := msg(tr, data(tr)[0].Deps[0])
	if len(j.Deps) != 2 {
		t.Fatalf("send depends on %+v", j)
	}
	p, k := msg(tr, j.Deps[0]), msg(tr, j.Deps[1])
	if p.Gap != units.Microseconds(5) || k.Gap != units.Microseconds(2) || !dependsOn(k, p.ID) {
		t.Errorf("parent %+v, kernel %+v", p, k)
	}
	_, rep = load(t, ranks, Options{IgnoreCtrlDeps: true})
	for _, s := range rep.Skipped {
		if s.Kind == "ctrl_deps" {
			t.Errorf("IgnoreCtrlDeps: skip %+v", s)
		}
	}
}
