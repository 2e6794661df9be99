package replay

import (
	"reflect"
	"testing"

	"github.com/ccreplay/ccreplay/internal/replaytest"

	"github.com/ccreplay/ccreplay/cca"
	v2 "github.com/ccreplay/ccreplay/schema/v2"
)

// recordingSink keeps the rows at their index, each once.
type recordingSink struct {
	t       *testing.T
	flows   []v2.FlowRow
	msgs    []v2.MessageRow
	gotF    []bool
	gotM    []bool
	n       int
	made    *int // flows made so far (WrapCC)
	atFirst int  // flows made when the first flow row came
}

func (s *recordingSink) Flow(i int, r *v2.FlowRow) {
	if s.n == 0 {
		s.atFirst = *s.made
	}
	s.n++
	if s.gotF[i] {
		s.t.Errorf("flow row %d given twice", i)
	}
	s.flows[i], s.gotF[i] = *r, true
}

func (s *recordingSink) Message(i int, r *v2.MessageRow) {
	if s.gotM[i] {
		s.t.Errorf("message row %d given twice", i)
	}
	s.msgs[i], s.gotM[i] = *r, true
}

// With a RowSink a run hands a flow's row on when the flow finishes, not
// at the end: the first row comes while most flows have not started (a
// pairwise all-to-all, whose steps follow one another; WebSearch at 30 %
// load). The sink gets every row Result would hold, once, at its index,
// and Result holds none.
func TestRowSinkGetsRowsAsFlowsFinish(t *testing.T) {
	t.Parallel()
	for _, spec := range []string{"osu-alltoall:nodes=16,ppn=1,sizes=64KiB,warmup=0,iters=1,algo=pairwise", "cdf:dist=websearch,hosts=16,bw=100G,load=0.3,duration=4ms"} {
		t.Run(spec[:3], func(t *testing.T) { rowSinkRun(t, spec) })
	}
}

func rowSinkRun(t *testing.T, spec string) {
	tr := replaytest.Workload(t, spec, 3)
	cfg := baseConfig(t, replaytest.Topology(t, "star", tr.Hosts), "dcqcn")
	want := mustRun(t, cfg, tr, "")
	made := 0
	sink := &recordingSink{t: t, made: &made, flows: make([]v2.FlowRow, len(want.Flows)), msgs: make([]v2.MessageRow, len(want.Messages)),
		gotF: make([]bool, len(want.Flows)), gotM: make([]bool, len(want.Messages))}
	cfg.RowSink = sink
	cfg.WrapCC = func(_ int32, a cca.Algorithm) cca.Algorithm { made++; return a }
	res := mustRun(t, cfg, tr, "")
	if res.Flows != nil || res.Messages != nil {
		t.Errorf("Result holds %d flow and %d message rows with a RowSink", len(res.Flows), len(res.Messages))
	}
	if !reflect.DeepEqual(sink.flows, want.Flows) || !reflect.DeepEqual(sink.msgs, want.Messages) {
		t.Fatalf("the sink got %d flow and %d message rows, not the %d and %d of Result", len(sink.flows), len(sink.msgs), len(want.Flows), len(want.Messages))
	}
	if res.DataPackets != want.DataPackets {
		t.Errorf("data packets %d with a sink, %d without", res.DataPackets, want.DataPackets)
	}
	if n := len(want.Flows); sink.atFirst*3 > n {
		t.Errorf("the first flow row came when %d of %d flows had started, want it as the first flows finish", sink.atFirst, n)
	}
}
