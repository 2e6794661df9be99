package depgraph

import (
	"reflect"
	"testing"
)

// Kahn's order takes the ready node of least key, then least index; a
// node's key is read when its last dependency is taken, after relax saw
// every edge into it; a cycle leaves its nodes out.
func TestOrder(t *testing.T) {
	deps := [][]int32{{}, {}, {0, 1}, {2}, {}}
	when := []int64{5, 1, 0, 0, 5}
	var relaxed [][2]int32
	order, left := Order(len(deps), func(i int32) []int32 { return deps[i] }, func(i int32) int64 { return when[i] },
		func(from, to int32) { relaxed = append(relaxed, [2]int32{from, to}) })
	if want := []int32{1, 0, 2, 3, 4}; !reflect.DeepEqual(order, want) {
		t.Errorf("order %v, want %v (1 has the least key; 0 and 4 tie at 5, index first; 2 and 3 become ready at key 0)", order, want)
	}
	if want := [][2]int32{{1, 2}, {0, 2}, {2, 3}}; !reflect.DeepEqual(relaxed, want) {
		t.Errorf("relaxed %v, want %v", relaxed, want)
	}
	if left(2) {
		t.Error("no node is left in an acyclic graph")
	}
	cyc := [][]int32{{}, {2}, {1}}
	order, left = Order(3, func(i int32) []int32 { return cyc[i] }, func(int32) int64 { return 0 }, nil)
	if len(order) != 1 || !left(1) || !left(2) || left(0) {
		t.Errorf("cycle: order %v", order)
	}
}

// A collective's steps: a rank that sends in a step makes the step's
// messages its progress; a rank that only receives adds them to it.
func TestSteps(t *testing.T) {
	deps := map[int32][]int32{}
	last := Steps([]Part{{Step: 0, Node: 10, Out: true}, {Step: 0, Node: 11}, {Step: 1, Node: 12}, {Step: 2, Node: 13, Out: true}}, 9,
		func(n int32, d []int32) { deps[n] = d })
	want := map[int32][]int32{10: {9}, 13: {10, 11, 12}}
	if !reflect.DeepEqual(deps, want) {
		t.Errorf("deps %v, want %v", deps, want)
	}
	if !reflect.DeepEqual(last, []int32{13}) {
		t.Errorf("last step %v, want [13]", last)
	}
}

// Emit numbers messages by their position in the order, maps dependencies
// to those ids (ascending), puts a synchronization point on no queue pair
// and a data message on its (source rank, destination rank) one.
func TestEmit(t *testing.T) {
	nodes := []Node{
		{Src: 0, Dst: 0, Sync: true, Coll: -1, Release: 7},
		{Src: 0, Dst: 1, Bytes: 100, Coll: 3, Deps: []int32{2, 0}, Gap: 5},
		{Src: 1, Dst: 1, Sync: true, Coll: -1},
	}
	tr, c := Emit([]int32{2, 0, 1}, func(i int32) Node { return nodes[i] }, 2, []int32{0, 0}, 1, 2)
	if c != (Counts{Messages: 1, Bytes: 100, SyncPoints: 2}) {
		t.Errorf("counts %+v", c)
	}
	m := tr.Messages[2]
	if m.ID != 2 || !reflect.DeepEqual(m.Deps, []int64{0, 1}) || m.Gap != 5 || m.FlowID != 1 || m.CollectiveID != 3 || m.SrcRank != 0 || m.DstRank != 1 {
		t.Errorf("data message %+v", m)
	}
	if s := tr.Messages[1]; s.FlowID != -1 || s.Release != 7 || !s.IsSync() {
		t.Errorf("sync point %+v", s)
	}
	if err := tr.Validate(); err != nil {
		t.Error(err)
	}
}

// The report lines and warnings of the shared counts, as the three
// readers print them.
func TestCountsLines(t *testing.T) {
	p := P2P{Sends: 4, SendBytes: 400, Receives: 3, Matched: 3, UnmatchedSends: 1}
	if got, want := p.Line(), "point-to-point: 4 sends, 400 bytes; 3 receives, 3 matched; 1 sends unmatched\n"; got != want {
		t.Errorf("P2P line %q, want %q", got, want)
	}
	if got := p.Warnings(); len(got) != 1 || got[0] != "1 point-to-point sends matched no receive (they are replayed all the same)" {
		t.Errorf("warnings %q", got)
	}
	if got := (P2P{Sends: 2, Matched: 2}).Warnings(); got != nil {
		t.Errorf("all matched: warnings %q", got)
	}
	c := Counts{Messages: 1, Bytes: 100, SyncPoints: 2}
	c.Add(Counts{Messages: 2, Bytes: 5, SyncPoints: 1})
	if got, want := c.Line(), "trace: 3 messages, 105 bytes, 3 synchronization points\n"; got != want {
		t.Errorf("counts line %q, want %q", got, want)
	}
}
