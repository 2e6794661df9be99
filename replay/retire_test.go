package replay

import (
	"testing"

	"github.com/ccreplay/ccreplay/internal/replaytest"

	"github.com/ccreplay/ccreplay/metrics"
	"github.com/ccreplay/ccreplay/trace"
	"github.com/ccreplay/ccreplay/units"
)

// A run holds the state of the flows in progress, not of every flow of
// the trace: on a steady WebSearch load, finished flows are retired (their
// row taken, their state let go) while later ones start, so the most flows
// held at once is a small part of all of them; every flow still gets its
// complete row.
func TestFinishedFlowsAreRetired(t *testing.T) {
	t.Parallel()
	tr := replaytest.Workload(t, "cdf:dist=websearch,hosts=16,bw=100G,load=0.3,duration=4ms", 3)
	cfg := baseConfig(t, replaytest.Topology(t, "star", tr.Hosts), "dcqcn")
	res := mustRun(t, cfg, tr, "")
	allFinished(t, res)
	n := len(res.Flows)
	if n < 100 {
		t.Fatalf("only %d flows: the test needs a long steady load", n)
	}
	if res.PeakFlowsHeld <= 0 || res.PeakFlowsHeld*3 > n {
		t.Errorf("at most %d of %d flows held at once, want a small part of them", res.PeakFlowsHeld, n)
	}
	for i, f := range res.Flows {
		if f.FlowID != int64(i) || f.FCTNs <= 0 || f.SenderFCTNs <= 0 || f.Messages != 1 || f.DataPktsSent == 0 || f.BaseRTTNs <= 0 {
			t.Fatalf("flow %d row incomplete after retiring: %+v", i, f)
		}
	}
}

// A flow whose trace has a later message (released by a dependency, after
// a compute gap) is not retired between its messages: the second message
// continues the queue pair (one flow row, two messages, PSNs continued).
func TestFlowNotRetiredBeforeItsLastMessage(t *testing.T) {
	t.Parallel()
	tr := &trace.Trace{Hosts: 2, Messages: []trace.Message{
		{ID: 1, Src: 0, Dst: 1, Bytes: 20000, FlowID: 7, CollectiveID: -1, Iteration: -1, SrcRank: -1, DstRank: -1},
		{ID: 2, Src: 0, Dst: 1, Bytes: 30000, FlowID: 7, CollectiveID: -1, Iteration: -1, SrcRank: -1, DstRank: -1,
			Deps: []int64{1}, Gap: 50 * units.Microsecond},
	}}
	cfg := baseConfig(t, replaytest.Topology(t, "star", 2), "dcqcn")
	res := mustRun(t, cfg, tr, "")
	if len(res.Flows) != 1 {
		t.Fatalf("%d flow rows, want 1", len(res.Flows))
	}
	f := res.Flows[0]
	if f.Messages != 2 || f.Packets != 50 || f.SizeBytes != 50000 || f.FCTNs <= 0 {
		t.Errorf("flow row %+v: want both messages (50 packets, 50000 bytes) on one finished queue pair", f)
	}
	m := res.Messages
	if len(m) != 2 || m[1].ReleaseNs < m[0].FinishNs+50000 || m[1].FinishNs <= m[1].ReleaseNs {
		t.Errorf("messages %+v: the second should start 50 us after the first finished", m)
	}
	if res.PeakFlowsHeld != 1 {
		t.Errorf("PeakFlowsHeld = %d, want 1", res.PeakFlowsHeld)
	}
}

// Retiring also holds when switches drop packets (PFC off, a small
// buffer): a dropped packet leaves its flow's count of packets in the
// network, go-back-N resends, and every flow still finishes with its drops
// in its row while finished flows are let go.
func TestFlowsRetiredUnderDrops(t *testing.T) {
	t.Parallel()
	tr := replaytest.Workload(t, "cdf:dist=websearch,hosts=16,bw=100G,load=0.5,duration=4ms", 5)
	cfg := baseConfig(t, replaytest.Topology(t, "star", tr.Hosts), "dcqcn")
	cfg.Switch.PFC.Enabled = false
	cfg.Switch.BufferBytes = 400 * units.KB
	cfg.NIC.WindowBDP = true
	cfg.NIC.RTO = 200 * units.Microsecond
	cfg.MaxTime = 100 * units.Millisecond // a collapse fails allFinished instead of hanging
	res := mustRun(t, cfg, tr, "")
	allFinished(t, res)
	var drops int64
	for _, f := range res.Flows {
		drops += f.DroppedPkts
	}
	if drops == 0 || metrics.Compute(res.Flows, res.Messages, res.Ports, metrics.Options{}).RetxBytes == 0 {
		t.Fatalf("drops %d, retransmitted %d bytes: the test needs a lossy run", drops, metrics.Compute(res.Flows, res.Messages, res.Ports, metrics.Options{}).RetxBytes)
	}
	t.Logf("%d flows, %d packets dropped, at most %d flows held", len(res.Flows), drops, res.PeakFlowsHeld)
	if n := len(res.Flows); res.PeakFlowsHeld*2 > n {
		t.Errorf("at most %d of %d flows held at once, want finished flows let go", res.PeakFlowsHeld, n)
	}
}
