package hpccfmt

import (
	"bytes"
	"reflect"
	"strings"
	"testing"
)

// third.cc node_id_to_ip: 0x0b000001 + (id/256)*0x10000 + (id%256)*0x100.
func TestNodeIP(t *testing.T) {
	for id, want := range map[int]uint32{0: 0x0b000001, 1: 0x0b000101, 255: 0x0b00ff01, 256: 0x0b010001, 65535: 0x0bffff01} {
		if got := NodeIP(id); got != want {
			t.Errorf("NodeIP(%d) = %08x, want %08x", id, got, want)
		}
		if back := IPNode(want); back != id {
			t.Errorf("IPNode(%08x) = %d, want %d", want, back, id)
		}
	}
}

func TestWriteReadFCT(t *testing.T) {
	rows := []FCTRow{
		{ID: -1, Src: 2, Dst: 1, SPort: 10000, DPort: 100, Size: 200000000, StartNs: 2000000000, FCTNs: 32049876, StandaloneNs: 16332004},
		{ID: -1, Src: 300, Dst: 17, SPort: 10001, DPort: 100, Size: 1, StartNs: 5, FCTNs: 7, StandaloneNs: 6},
	}
	var buf bytes.Buffer
	if err := WriteFCT(&buf, rows); err != nil {
		t.Fatal(err)
	}
	want := "0b000201 0b000101 10000 100 200000000 2000000000 32049876 16332004\n" +
		"0b012c01 0b001101 10001 100 1 5 7 6\n"
	if buf.String() != want {
		t.Errorf("WriteFCT wrote\n%s\nwant\n%s", buf.String(), want)
	}
	back, err := ReadFCT(&buf, DefaultFCTOutput)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back, rows) {
		t.Errorf("round trip: %+v", back)
	}
}

func TestFCTErrors(t *testing.T) {
	for _, rows := range [][]FCTRow{{{Src: 70000}}, {{SPort: -1}}, {{FCTNs: -1}}} {
		if err := WriteFCT(&bytes.Buffer{}, rows); err == nil {
			t.Errorf("WriteFCT(%+v) accepted", rows)
		}
	}
	for _, c := range []struct{ in, want string }{
		{"0b000201 0b000101 1 2 3 4 5\n", DefaultFCTOutput + ":1: want 8 fields"},
		{"1 2 0b000201 0b000101 1 2 3 4 5 6\n", DefaultFCTOutput + ":1: want 8 fields (src_ip dst_ip sport dport size_bytes start_ns fct_ns standalone_fct_ns), or 9 with a flow id first, got 10"},
		{"x 0b000201 0b000101 1 2 3 4 5 6\n", DefaultFCTOutput + `:1: flow id "x": want an integer >= 0`},
		{"-1 0b000201 0b000101 1 2 3 4 5 6\n", DefaultFCTOutput + `:1: flow id "-1"`},
		{"\nzz 0b000101 1 2 3 4 5 6\n", DefaultFCTOutput + `:2: ip "zz"`},
		{"0b000202 0b000101 1 2 3 4 5 6\n", DefaultFCTOutput + `:1: ip "0b000202" is not an HPCC node address`},
		{"0b000201 0b000101 1 70000 3 4 5 6\n", DefaultFCTOutput + `:1: port "70000"`},
		{"0b000201 0b000101 1 2 3 4 -5 6\n", DefaultFCTOutput + `:1: fct_ns "-5": want an integer >= 0`},
	} {
		_, err := ReadFCT(strings.NewReader(c.in), DefaultFCTOutput)
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("ReadFCT(%q) error %v, want prefix %q", c.in, err, c.want)
		}
	}
}

// The research fork's fct.txt (the simulator's Parsimon and m3 backends)
// prints a flow id before the eight fields; each line's field count says
// which layout it has, and ID is -1 on the original layout.
func TestReadFCTWithFlowIDs(t *testing.T) {
	in := "7 0b000201 0b000101 10000 100 1000 2000000000 5000 4160\n" +
		"0b000301 0b000101 10000 100 2000 2000000001 6000 5000\n"
	rows, err := ReadFCT(strings.NewReader(in), DefaultFCTOutput)
	if err != nil {
		t.Fatal(err)
	}
	want := []FCTRow{
		{ID: 7, Src: 2, Dst: 1, SPort: 10000, DPort: 100, Size: 1000, StartNs: 2000000000, FCTNs: 5000, StandaloneNs: 4160},
		{ID: -1, Src: 3, Dst: 1, SPort: 10000, DPort: 100, Size: 2000, StartNs: 2000000001, FCTNs: 6000, StandaloneNs: 5000},
	}
	if !reflect.DeepEqual(rows, want) {
		t.Errorf("ReadFCT = %+v\nwant %+v", rows, want)
	}
}
