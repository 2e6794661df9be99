package hpccfmt

import (
	"bytes"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/ccreplay/ccreplay/trace"
	"github.com/ccreplay/ccreplay/units"
)

func TestSeconds(t *testing.T) {
	for _, c := range []struct {
		in   string
		want units.Time
		out  string
	}{
		{"2", 2 * units.Second, "2"},
		{"2.000", 2 * units.Second, "2"},
		{"0.0000015", 1500 * units.Nanosecond, "0.0000015"},
		{".5", 500 * units.Millisecond, "0.5"},
		{"3.", 3 * units.Second, "3"},
		{"+1.000000000001", units.Second + 1, "1.000000000001"},
		{"0.0000000000015", 2, "0.000000000002"}, // 13th digit rounds
		{"2e-3", 2 * units.Millisecond, "0.002"},
		{"1.5E0", 1500 * units.Millisecond, "1.5"},
		{"0", 0, "0"},
	} {
		got, err := parseSeconds(c.in)
		if err != nil || got != c.want {
			t.Errorf("parseSeconds(%q) = %v, %v; want %v", c.in, got, err, c.want)
		}
		if s := formatSeconds(got); s != c.out {
			t.Errorf("formatSeconds(%v) = %q, want %q", got, s, c.out)
		}
	}
	for _, bad := range []string{"", "-1", "1.2.3", "abc", ".", "1e400", "nan", "99999999", "1,5", "0x10"} {
		if _, err := parseSeconds(bad); err == nil {
			t.Errorf("parseSeconds(%q) accepted", bad)
		}
	}
}

const smallFlows = `3
1 2 3 100 1000 0.000001
2 1 3 100 5000 0.000001

3 1 0 4791 0 0.0000025
this line and the next are never read
9 9 9
`

func TestReadFlows(t *testing.T) {
	ff, err := ReadFlows(strings.NewReader(smallFlows), "flow.txt", nil)
	if err != nil {
		t.Fatal(err)
	}
	us := units.Microsecond
	want := &trace.Trace{Hosts: 4, Messages: []trace.Message{
		{ID: 0, Src: 1, Dst: 2, Bytes: 1000, Release: us - units.Nanosecond, FlowID: trace.NoFlow, CollectiveID: trace.NoCollective},
		{ID: 1, Src: 2, Dst: 1, Bytes: 5000, Release: us - units.Nanosecond, FlowID: trace.NoFlow, CollectiveID: trace.NoCollective},
		{ID: 2, Src: 3, Dst: 1, Bytes: 0, Release: 2500 * units.Nanosecond, FlowID: trace.NoFlow, CollectiveID: trace.NoCollective},
	}}
	for i := range want.Messages {
		want.Messages[i].Iteration, want.Messages[i].SrcRank, want.Messages[i].DstRank = trace.NoIteration, trace.NoRank, trace.NoRank
	}
	if !reflect.DeepEqual(ff.Trace, want) {
		t.Errorf("trace\n%+v\nwant\n%+v", ff.Trace, want)
	}
	wantFlows := []Flow{{2, 1, 2, 3, 100, -1}, {3, 2, 1, 3, 100, -1}, {5, 3, 1, 0, 4791, -1}}
	if !reflect.DeepEqual(ff.Flows, wantFlows) || ff.Ignored != 2 {
		t.Errorf("flows %+v ignored %d; want %+v and 2", ff.Flows, ff.Ignored, wantFlows)
	}
	if got := SourcePorts(ff.Trace); !reflect.DeepEqual(got, []int{10000, 10000, 10000}) {
		t.Errorf("SourcePorts = %v", got)
	}
}

// A mapper renumbers nodes the way topology.ReadHPCC does (hosts first,
// in ascending original id; here node 0 is the switch) and its errors
// carry the line.
func TestReadFlowsMapper(t *testing.T) {
	host := func(id int) (int32, error) {
		if id == 0 || id > 3 {
			return 0, fmt.Errorf("node %d is not a host", id)
		}
		return int32(id - 1), nil
	}
	ff, err := ReadFlows(strings.NewReader(smallFlows), "flow.txt", host)
	if err != nil {
		t.Fatal(err)
	}
	if m := ff.Trace.Messages[2]; m.Src != 2 || m.Dst != 0 || ff.Trace.Hosts != 3 {
		t.Errorf("mapped message %+v, hosts %d", m, ff.Trace.Hosts)
	}
	_, err = ReadFlows(strings.NewReader("1\n0 1 3 100 10 0\n"), "flow.txt", host)
	if err == nil || err.Error() != "flow.txt:2: src: node 0 is not a host" {
		t.Errorf("mapper error: %v", err)
	}
}

func TestReadFlowsErrors(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"", "f.txt: empty file"},
		{"\n\n", "f.txt: empty file"},
		{"2 3\n", `f.txt:1: first line "2 3": want the number of flows alone`},
		{"x\n", `f.txt:1: flow count "x"`},
		{"-1\n", `f.txt:1: flow count "-1"`},
		{"2\n1 2 3 100 10 0\n", "f.txt:2: the first line declares 2 flows but the file has 1"},
		{"1\n1 2 3 100 10\n", "f.txt:2: want 6 fields (src dst priority dport size_bytes start_seconds), or 7 with a flow id first, got 5"},
		{"1\n1 2 3 100 10 0 7 8\n", "f.txt:2: want 6 fields"},
		{"1\n1 1 3 100 10 0\n", "f.txt:2: src and dst are both node 1"},
		{"1\na 2 3 100 10 0\n", `f.txt:2: src "a": want an integer in 0..4294967295`},
		{"1\n1 2 8 100 10 0\n", `f.txt:2: priority "8": want an integer in 0..7`},
		{"1\n1 2 3 70000 10 0\n", `f.txt:2: dport "70000"`},
		{"1\n1 2 3 100 4294967296 0\n", `f.txt:2: size "4294967296": want an integer in 0..4294967295`},
		{"1\n1 2 3 100 -5 0\n", `f.txt:2: size "-5"`},
		{"1\n1 2 3 100 10 -1\n", `f.txt:2: start "-1": want a time in seconds >= 0`},
		{"1\n1 2 3 100 10 soon\n", `f.txt:2: start "soon"`},
		{"2\n1 2 3 100 10 2\n2 1 3 100 10 1.5\n", "f.txt:3: start 1.5 s is before the previous flow's 2 s"},
		{"1\n1 3000000000 3 100 10 0\n", "f.txt:2: dst: node id 3000000000 too large"},
	} {
		_, err := ReadFlows(strings.NewReader(c.in), "f.txt", nil)
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("ReadFlows(%q) error\n  %v\nwant prefix\n  %s", c.in, err, c.want)
		}
	}
}

// Start times are read as the simulator reads them: a double, converted
// to whole nanoseconds with truncation (third.cc ScheduleFlowInputs,
// Seconds(start_time)); the reference runs' README gives 2.000407938 s ->
// 2,000,407,937 ns.
func TestReadFlowsTruncatesToNanoseconds(t *testing.T) {
	for in, want := range map[string]units.Time{
		"0.0000000015": 1 * units.Nanosecond,
		"2.000407938":  2_000_407_937 * units.Nanosecond,
		"0.000001":     999 * units.Nanosecond,
		"0.0000025":    2500 * units.Nanosecond,
		"2":            2 * units.Second,
		"2e-6":         1999 * units.Nanosecond,
	} {
		ff, err := ReadFlows(strings.NewReader("1\n1 2 3 100 10 "+in+"\n"), "f", nil)
		if err != nil {
			t.Fatal(err)
		}
		if got := ff.Trace.Messages[0].Release; got != want {
			t.Errorf("start %s: release %v, want %v", in, got, want)
		}
	}
}

// WriteFlows writes times the simulator reads back to the same nanosecond.
func TestNS3SecondsRoundTrip(t *testing.T) {
	for ns := int64(0); ns < 20000; ns += 7 {
		tm := units.Time(ns)*units.Nanosecond + 2*units.Second
		if got := ns3Start(ns3Seconds(tm), tm); got != tm {
			t.Fatalf("%v written %s read back %v", tm, ns3Seconds(tm), got)
		}
	}
}

// Read, write, read: the same trace, and the same text the second time.
func TestFlowsRoundTrip(t *testing.T) {
	ff, err := ReadFlows(strings.NewReader(smallFlows), "flow.txt", nil)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := WriteFlows(&buf, ff.Trace, nil); err != nil {
		t.Fatal(err)
	}
	want := "3\n1 2 3 100 1000 0.000000999\n2 1 3 100 5000 0.000000999\n3 1 3 100 0 0.0000025\n"
	if buf.String() != want {
		t.Errorf("WriteFlows wrote\n%s\nwant\n%s", buf.String(), want)
	}
	back, err := ReadFlows(bytes.NewReader(buf.Bytes()), "back.txt", nil)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back.Trace, ff.Trace) {
		t.Errorf("round trip changed the trace:\n%+v\n%+v", back.Trace, ff.Trace)
	}
}

// A trace not in release order is written sorted, with host ids mapped.
func TestWriteFlowsSortsAndMaps(t *testing.T) {
	tr := &trace.Trace{Hosts: 3, Messages: []trace.Message{
		{ID: 7, Src: 0, Dst: 1, Bytes: 10, Release: 5 * units.Microsecond, FlowID: 4, CollectiveID: trace.NoCollective},
		{ID: 8, Src: 2, Dst: 0, Bytes: 20, Release: units.Microsecond, FlowID: trace.NoFlow, CollectiveID: trace.NoCollective},
		{ID: 9, Src: 1, Dst: 2, Bytes: 30, Release: 5 * units.Microsecond, FlowID: trace.NoFlow, CollectiveID: trace.NoCollective},
	}}
	var buf bytes.Buffer
	if err := WriteFlows(&buf, tr, func(h int32) int { return int(h) + 1 }); err != nil {
		t.Fatal(err)
	}
	want := "3\n3 1 3 100 20 0.0000010005\n1 2 3 100 10 0.000005\n2 3 3 100 30 0.000005\n"
	if buf.String() != want {
		t.Errorf("wrote\n%s\nwant\n%s", buf.String(), want)
	}
}

func TestWriteFlowsErrors(t *testing.T) {
	msg := func(id int64, flow int64) trace.Message {
		return trace.Message{ID: id, Src: 0, Dst: 1, Bytes: 1, FlowID: flow, CollectiveID: trace.NoCollective}
	}
	deps := msg(1, trace.NoFlow)
	deps.Deps = []int64{0}
	big := msg(0, trace.NoFlow)
	big.Bytes = 1 << 33
	for _, c := range []struct {
		msgs []trace.Message
		want string
	}{
		{[]trace.Message{msg(0, trace.NoFlow), deps}, "message 1 depends on other messages"},
		{[]trace.Message{msg(0, 5), msg(1, 5)}, "messages 0 and 1 share flow 5"},
		{[]trace.Message{big}, "above the simulator's 32-bit size field"},
		{[]trace.Message{msg(0, trace.NoFlow), msg(0, trace.NoFlow)}, "id 0 is also used"},
	} {
		err := WriteFlows(&bytes.Buffer{}, &trace.Trace{Hosts: 2, Messages: c.msgs}, nil)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("error %v, want %q", err, c.want)
		}
	}
}

func TestSourcePortsWrap(t *testing.T) {
	tr := &trace.Trace{Hosts: 2}
	for i := range 55537 {
		tr.Messages = append(tr.Messages, trace.Message{ID: int64(i), Src: 0, Dst: 1})
	}
	tr.Messages = append(tr.Messages, trace.Message{ID: 55537, Src: 1, Dst: 0})
	p := SourcePorts(tr)
	if p[0] != 10000 || p[55535] != 65535 || p[55536] != 0 || p[55537] != 10000 {
		t.Errorf("ports %d %d %d %d", p[0], p[55535], p[55536], p[55537])
	}
}

// Ports count per (source, destination) pair, not per source: third.cc's
// portNumder[src][dst]++ with every pair starting at 10000.
func TestSourcePortsPerPair(t *testing.T) {
	tr := &trace.Trace{Hosts: 3}
	for i, p := range [][2]int32{{0, 1}, {0, 2}, {0, 1}, {2, 1}, {0, 2}, {0, 1}} {
		tr.Messages = append(tr.Messages, trace.Message{ID: int64(i), Src: p[0], Dst: p[1]})
	}
	if got, want := SourcePorts(tr), []int{10000, 10000, 10001, 10000, 10001, 10002}; !reflect.DeepEqual(got, want) {
		t.Errorf("SourcePorts = %v, want %v", got, want)
	}
}

// The research fork's flow files (the simulator's Parsimon and m3
// backends) put a flow id before the six fields; each line's field count
// says which layout it has. The id is kept in Flow.ID (-1 without one);
// messages keep file-order ids.
func TestReadFlowsWithFlowIDs(t *testing.T) {
	ff, err := ReadFlows(strings.NewReader("3\n41 1 2 3 100 1000 2\n2 1 3 100 5000 2\n43 3 1 3 100 700 2.5\n"), "flow.txt", nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := []int64{ff.Flows[0].ID, ff.Flows[1].ID, ff.Flows[2].ID}; !reflect.DeepEqual(got, []int64{41, -1, 43}) {
		t.Errorf("ids %v", got)
	}
	m := ff.Trace.Messages
	if m[0].ID != 0 || m[0].Src != 1 || m[0].Dst != 2 || m[0].Bytes != 1000 || m[2].ID != 2 || m[2].Src != 3 || m[2].Bytes != 700 ||
		m[2].Release != 2500*units.Millisecond || ff.Flows[2].Priority != 3 || ff.Flows[2].DPort != 100 {
		t.Errorf("messages %+v flows %+v", m, ff.Flows)
	}
	for _, c := range []struct{ in, want string }{
		{"1\nx 1 2 3 100 10 2\n", `flow.txt:2: flow id "x": want an integer >= 0`},
		{"1\n-4 1 2 3 100 10 2\n", `flow.txt:2: flow id "-4"`},
		{"1\n9 9 1 2 3 100 10 2\n", "flow.txt:2: want 6 fields (src dst priority dport size_bytes start_seconds), or 7 with a flow id first, got 8"},
	} {
		if _, err := ReadFlows(strings.NewReader(c.in), "flow.txt", nil); err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("ReadFlows(%q) error %v, want prefix %q", c.in, err, c.want)
		}
	}
}
