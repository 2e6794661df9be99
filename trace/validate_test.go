package trace_test

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/ccreplay/ccreplay/trace"
)

// msg is a valid message from src to dst with no flow, collective,
// iteration, ranks or deps.
func msg(id int64, src, dst int32, deps ...int64) trace.Message {
	return trace.Message{ID: id, Src: src, Dst: dst, Bytes: 100, FlowID: -1, CollectiveID: -1, Deps: deps,
		Iteration: -1, SrcRank: -1, DstRank: -1}
}

func TestValidate(t *testing.T) {
	flowMsg := func(id int64, src, dst int32, flow int64, deps ...int64) trace.Message {
		m := msg(id, src, dst, deps...)
		m.FlowID = flow
		return m
	}
	with := func(f func(m *trace.Message)) trace.Message {
		m := msg(1, 0, 1)
		f(&m)
		return m
	}
	for _, tc := range []struct {
		name  string
		hosts int
		msgs  []trace.Message
		want  string // "" = valid
		index int    // ValidationError.Index when want != ""
	}{
		{"ok", 3, []trace.Message{msg(0, 0, 1), msg(1, 2, 1, 0), flowMsg(2, 0, 2, 9), flowMsg(3, 0, 2, 9, 1)}, "", 0},
		{"empty", 0, nil, "", 0},
		{"hosts 0", 0, []trace.Message{msg(0, 0, 1)}, "hosts is 0 but there are messages (set Trace.Hosts or call InferHosts)", -1},
		{"hosts negative", -1, nil, "hosts -1 must be in 0..1048576", -1},
		{"negative id", 2, []trace.Message{msg(-4, 0, 1)}, "message -4: id -4 must be >= 0", 0},
		{"src too big", 2, []trace.Message{msg(0, 0, 1), msg(1, 2, 1)}, "message 1: src 2 is not a host (hosts are 0..1)", 1},
		{"src negative", 2, []trace.Message{msg(1, -1, 1)}, "message 1: src -1 is not a host (hosts are 0..1)", 0},
		{"dst too big", 2, []trace.Message{msg(1, 0, 5)}, "message 1: dst 5 is not a host (hosts are 0..1)", 0},
		{"src == dst is a same-host transfer", 2, []trace.Message{msg(1, 1, 1)}, "", 0},
		{"zero-value ranks without Ranks", 2, []trace.Message{{ID: 0, Src: 0, Dst: 1, FlowID: -1, CollectiveID: -1}}, "", 0},
		{"priority", 2, []trace.Message{with(func(m *trace.Message) { m.Priority = 8 })}, "message 1: priority 8 must be in 0..7 (0 = the NIC's default data class)", 0},
		{"negative priority", 2, []trace.Message{with(func(m *trace.Message) { m.Priority = -1 })}, "message 1: priority -1 must be in 0..7 (0 = the NIC's default data class)", 0},
		{"iteration", 2, []trace.Message{with(func(m *trace.Message) { m.Iteration = -2 })}, "message 1: iteration -2 must be >= -1 (-1 = none)", 0},
		{"src_rank", 2, []trace.Message{with(func(m *trace.Message) { m.SrcRank = -2 })}, "message 1: src_rank -2 must be >= -1 (-1 = not an MPI rank)", 0},
		{"dst_rank", 2, []trace.Message{with(func(m *trace.Message) { m.DstRank = -7 })}, "message 1: dst_rank -7 must be >= -1 (-1 = not an MPI rank)", 0},
		{"flow priority", 3, []trace.Message{flowMsg(0, 0, 1, 4), with(func(m *trace.Message) { m.FlowID, m.Priority = 4, 2 })},
			"message 1: flow 4 has priority 2 here but 0 at message index 0 (messages of one flow share a priority)", 1},
		{"negative bytes", 2, []trace.Message{with(func(m *trace.Message) { m.Bytes = -5 })}, "message 1: bytes -5 must be >= 0", 0},
		{"negative release", 2, []trace.Message{with(func(m *trace.Message) { m.Release = -2000 })}, "message 1: release -2ns must be >= 0", 0},
		{"negative gap", 2, []trace.Message{with(func(m *trace.Message) { m.Gap = -7 })}, "message 1: gap -7ps must be >= 0", 0},
		{"flow -2", 2, []trace.Message{with(func(m *trace.Message) { m.FlowID = -2 })}, "message 1: flow_id -2 must be >= -1 (-1 = a queue pair of its own)", 0},
		{"collective -2", 2, []trace.Message{with(func(m *trace.Message) { m.CollectiveID = -2 })}, "message 1: collective_id -2 must be >= -1 (-1 = none)", 0},
		{"duplicate id", 3, []trace.Message{msg(0, 0, 1), msg(1, 0, 1), msg(0, 2, 1)}, "message 0: id 0 is also used at message index 0", 2},
		{"flow endpoints", 3, []trace.Message{flowMsg(0, 0, 1, 4), flowMsg(1, 2, 1, 4)}, "message 1: flow 4 goes 2->1 here but 0->1 at message index 0 (messages of one flow share src and dst)", 1},
		{"unknown dep", 2, []trace.Message{msg(0, 0, 1, 42)}, "message 0: depends on unknown message 42", 0},
		{"self dep", 2, []trace.Message{msg(0, 0, 1), msg(1, 0, 1, 0, 1)}, "message 1: depends on itself", 1},
		{"dep twice", 2, []trace.Message{msg(0, 0, 1), msg(1, 0, 1, 0, 0)}, "message 1: lists dependency 0 twice", 1},
		{"cycle", 2, []trace.Message{msg(0, 0, 1), msg(1, 0, 1, 0, 3), msg(2, 0, 1, 1), msg(3, 0, 1, 2)},
			"message 1: dependency cycle: 1 depends on 3, 3 depends on 2, 2 depends on 1", 1},
		{"two-cycle", 2, []trace.Message{msg(10, 0, 1, 11), msg(11, 1, 0, 10)},
			"message 10: dependency cycle: 10 depends on 11, 11 depends on 10", 0},
		// Message 0 waits for 1, which is queued behind 0 on flow 5.
		{"cycle through flow order", 2, []trace.Message{flowMsg(0, 0, 1, 5, 1), flowMsg(1, 0, 1, 5)},
			"message 0: dependency cycle: 0 depends on 1, 1 is sent after 0 on flow 5", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tr := &trace.Trace{Hosts: tc.hosts, Messages: tc.msgs}
			err := tr.Validate()
			if !wantErr(t, "Validate()", err, tc.want) {
				return
			}
			var ve *trace.ValidationError
			if !errors.As(err, &ve) || ve.Index != tc.index {
				t.Errorf("error %#v, want a *ValidationError with Index %d", err, tc.index)
			}
		})
	}
}

func TestCycleReportIsCapped(t *testing.T) {
	const n = 40
	tr := &trace.Trace{Hosts: 2}
	for i := range n {
		tr.Messages = append(tr.Messages, msg(int64(i), 0, 1, int64((i+1)%n)))
	}
	err := tr.Validate()
	if err == nil || !strings.HasSuffix(err.Error(), ", ... (40 messages in the cycle)") ||
		!strings.HasPrefix(err.Error(), "message 0: dependency cycle: 0 depends on 1, 1 depends on 2,") {
		t.Errorf("Validate() = %v", err)
	}
}

func TestTopoOrder(t *testing.T) {
	tr := &trace.Trace{Hosts: 3, Messages: []trace.Message{
		msg(0, 0, 1, 2), // waits for message 2 (index 2)
		msg(1, 1, 2),
		msg(2, 2, 0, 1),
		msg(3, 0, 2),
	}}
	tr.Messages[3].FlowID, tr.Messages[1].FlowID = 8, -1
	order, err := tr.TopoOrder()
	if err != nil {
		t.Fatal(err)
	}
	if want := []int{1, 3, 2, 0}; !reflect.DeepEqual(order, want) {
		t.Errorf("TopoOrder() = %v, want %v", order, want)
	}
	// Flow order counts: the later message of a flow comes after the
	// earlier one even without a dependency.
	tr = &trace.Trace{Hosts: 2, Messages: []trace.Message{msg(0, 0, 1, 1), msg(1, 0, 1), msg(2, 0, 1)}}
	tr.Messages[0].FlowID, tr.Messages[2].FlowID = 3, 3
	if order, err := tr.TopoOrder(); err != nil || !reflect.DeepEqual(order, []int{1, 0, 2}) {
		t.Errorf("TopoOrder() = %v, %v, want [1 0 2]", order, err)
	}
}

// TestValidateLinear checks that a long dependency chain is handled
// without recursion and quickly.
func TestValidateLinear(t *testing.T) {
	const n = 200_000
	tr := &trace.Trace{Hosts: 2, Messages: make([]trace.Message, n)}
	for i := range n {
		tr.Messages[i] = msg(int64(i), 0, 1)
		if i > 0 {
			tr.Messages[i].Deps = []int64{int64(i - 1)}
		}
	}
	order, err := tr.TopoOrder()
	if err != nil || len(order) != n || order[n-1] != n-1 {
		t.Fatalf("TopoOrder: len %d, err %v", len(order), err)
	}
	tr.Messages[0].Deps = []int64{n - 1}
	if err := tr.Validate(); err == nil || !strings.Contains(err.Error(), fmt.Sprintf("(%d messages in the cycle)", n)) {
		t.Errorf("Validate() = %v", err)
	}
}

func TestInferHosts(t *testing.T) {
	tr := &trace.Trace{Messages: []trace.Message{msg(0, 0, 6), msg(1, 3, 1)}}
	tr.InferHosts()
	if tr.Hosts != 7 {
		t.Errorf("Hosts = %d, want 7", tr.Hosts)
	}
	tr = &trace.Trace{Ranks: []int32{0, 8}, Messages: []trace.Message{msg(0, 0, 6)}}
	if tr.InferHosts(); tr.Hosts != 9 {
		t.Errorf("with ranks: Hosts = %d, want 9", tr.Hosts)
	}
	tr.Hosts = 9
	tr.InferHosts()
	if tr.Hosts != 9 {
		t.Errorf("InferHosts changed a set host count to %d", tr.Hosts)
	}
}

func TestValidateRanks(t *testing.T) {
	rk := func(id int64, src, dst, srcRank, dstRank int32) trace.Message {
		m := msg(id, src, dst)
		m.SrcRank, m.DstRank = srcRank, dstRank
		return m
	}
	for _, tc := range []struct {
		name  string
		hosts int
		ppn   int
		ranks []int32
		msgs  []trace.Message
		want  string
	}{
		{"ok", 3, 2, []int32{0, 0, 1}, []trace.Message{rk(0, 0, 1, 1, 2), rk(1, 0, 0, 0, 1), rk(2, 2, 0, -1, -1), msg(3, 0, 0)}, ""},
		{"ppn without ranks", 2, 4, nil, nil, "ppn is 4 but there are no ranks (ppn is 0 when the trace is not an MPI job)"},
		{"negative ppn", 2, -1, nil, nil, "ppn -1 must be in 0..2147483647 (0 = not an MPI job)"},
		{"ranks without ppn", 2, 0, []int32{0}, nil, "there are 1 ranks but ppn is 0 (set PPN, the processes per node)"},
		{"ranks without hosts", 0, 1, []int32{0}, nil, "hosts is 0 but there are ranks (set Trace.Hosts or call InferHosts)"},
		{"rank on unknown host", 2, 1, []int32{0, 2}, nil, "rank 1 is on host 2, which is not a host (hosts are 0..1)"},
		{"negative host", 2, 1, []int32{-1}, nil, "rank 0 is on host -1, which is not a host (hosts are 0..1)"},
		{"too many per host", 2, 2, []int32{1, 0, 1, 1}, nil, "host 1 runs more than ppn 2 ranks (rank 3 is one too many)"},
		{"unknown rank", 2, 1, []int32{0, 1}, []trace.Message{rk(0, 0, 1, 0, 2)}, "message 0: dst_rank 2 is not a rank (ranks are 0..1)"},
		{"wrong src host", 2, 1, []int32{0, 1}, []trace.Message{rk(0, 1, 0, 0, 0)}, "message 0: src_rank 0 runs on host 0, not on src 1"},
		{"wrong dst host", 2, 1, []int32{0, 1}, []trace.Message{rk(0, 0, 0, 0, 1)}, "message 0: dst_rank 1 runs on host 1, not on dst 0"},
		{"half a rank", 2, 1, []int32{0, 1}, []trace.Message{rk(0, 0, 1, -1, 1)}, "message 0: src_rank -1 and dst_rank 1 must both be ranks or both -1"},
		// In an MPI trace the zero value is rank 0, checked like any rank.
		{"zero-value ranks with Ranks", 2, 1, []int32{1, 0}, []trace.Message{{ID: 0, Src: 0, Dst: 1, FlowID: -1, CollectiveID: -1}},
			"message 0: src_rank 0 runs on host 1, not on src 0"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tr := &trace.Trace{Hosts: tc.hosts, PPN: tc.ppn, Ranks: tc.ranks, Messages: tc.msgs}
			err := tr.Validate()
			wantErr(t, "Validate()", err, tc.want)
		})
	}
}

func TestIsSync(t *testing.T) {
	for _, tc := range []struct {
		m    trace.Message
		want bool
	}{
		{trace.Message{Src: 2, Dst: 2}, true},
		{trace.Message{Src: 2, Dst: 2, Bytes: 1}, false},
		{trace.Message{Src: 2, Dst: 3}, false},
	} {
		if got := tc.m.IsSync(); got != tc.want {
			t.Errorf("%+v.IsSync() = %v, want %v", tc.m, got, tc.want)
		}
	}
}
