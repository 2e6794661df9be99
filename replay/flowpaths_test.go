package replay

import (
	"slices"
	"testing"

	"github.com/ccreplay/ccreplay/internal/replaytest"
	"github.com/ccreplay/ccreplay/trace"

	"github.com/ccreplay/ccreplay/fabric"
	"github.com/ccreplay/ccreplay/units"
)

// hopTap records the (node, port) of every data packet's dequeue per flow.
type hopTap struct{ seen map[int32]map[[2]int32]bool }

func (h *hopTap) Dequeue(_ units.Time, node, port int32, p *fabric.Packet) {
	if p.Kind != fabric.Data {
		return
	}
	m := h.seen[p.Flow]
	if m == nil {
		m = map[[2]int32]bool{}
		h.seen[p.Flow] = m
	}
	m[[2]int32{node, port}] = true
}
func (h *hopTap) Deliver(units.Time, int32, *fabric.Packet)     {}
func (h *hopTap) Drop(units.Time, int32, int32, *fabric.Packet) {}

// TestFlowPathsAreTheRunsLinks checks that FlowPaths numbers and routes
// flows exactly as Run does: on a fat-tree with ECMP at every level, every
// data packet of flow i leaves through the links of FlowPaths' path i and
// no other.
func TestFlowPathsAreTheRunsLinks(t *testing.T) {
	topo := replaytest.Topology(t, "fattree:pods=4", 16)
	tr := replaytest.Workload(t, "cdf:dist=websearch,hosts=16,bw=100G,load=0.3,duration=200us", 3)
	cfg := baseConfig(t, topo, "dcqcn")
	cfg.Seed = 7
	tap := &hopTap{seen: map[int32]map[[2]int32]bool{}}
	cfg.Observer = tap
	res := mustRun(t, cfg, tr, "")
	fps, err := FlowPaths(&cfg, tr)
	if err != nil {
		t.Fatal(err)
	}
	if len(fps) != len(res.Flows) || len(fps) < 10 {
		t.Fatalf("FlowPaths has %d flows, the run %d (want the same, at least 10)", len(fps), len(res.Flows))
	}
	for _, fp := range fps {
		row := res.Flows[fp.ID]
		if row.Src != fp.Src || row.Dst != fp.Dst || row.SizeBytes != int64(fp.Size) || row.StartNs != fp.Start.Nanoseconds() {
			t.Fatalf("flow %d: FlowPaths %d->%d %d B at %v, run %+v", fp.ID, fp.Src, fp.Dst, fp.Size, fp.Start, row)
		}
		want := map[[2]int32]bool{}
		for _, h := range fp.Path {
			want[[2]int32{h.Node, h.Port}] = true
		}
		got := tap.seen[fp.ID]
		if len(got) != len(want) {
			t.Fatalf("flow %d: run used links %v, FlowPaths says %v", fp.ID, got, want)
		}
		for k := range got {
			if !want[k] {
				t.Fatalf("flow %d: run used link %v not on FlowPaths' path %v", fp.ID, k, want)
			}
		}
	}
}

// TestNumberFlows checks the numbering on the cases the workloads above
// may not hold: a message without a queue pair is a flow of its own, a
// same-host message has none, a queue pair's later messages join its flow.
func TestNumberFlows(t *testing.T) {
	msgs := []trace.Message{
		{Src: 0, Dst: 1, FlowID: 5},
		{Src: 2, Dst: 2, FlowID: 6},  // same host: no flow
		{Src: 1, Dst: 0, FlowID: -1}, // a flow of its own
		{Src: 0, Dst: 1, FlowID: 5},  // joins flow 0
		{Src: 1, Dst: 0, FlowID: -1}, // another flow of its own
		{Src: 3, Dst: 0, FlowID: 9},
	}
	flowOf, first := NumberFlows(msgs)
	if want := []int32{0, -1, 1, 0, 2, 3}; !slices.Equal(flowOf, want) {
		t.Errorf("flowOf = %v, want %v", flowOf, want)
	}
	if want := []int32{0, 2, 4, 5}; !slices.Equal(first, want) {
		t.Errorf("first = %v, want %v", first, want)
	}
}
