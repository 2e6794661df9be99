package replay

import (
	"testing"

	"github.com/ccreplay/ccreplay/internal/replaytest"

	"github.com/ccreplay/ccreplay/cca"
	"github.com/ccreplay/ccreplay/fabric"
	"github.com/ccreplay/ccreplay/metrics"
	"github.com/ccreplay/ccreplay/trace"
	"github.com/ccreplay/ccreplay/units"
)

// msgRecorder is a line-rate algorithm that records the per-message hooks
// (cca.MessageObserver and the Msg* fields of a completing ACK).
type msgRecorder struct {
	rate    units.BitsPerSec
	started map[int64]units.Time
	done    map[int64]cca.Ack
}

func (m *msgRecorder) Name() string                         { return "rec" }
func (m *msgRecorder) Start(now units.Time, f cca.FlowInfo) { m.rate = f.LineRate }
func (m *msgRecorder) OnSend(units.Time, units.Bytes)       {}
func (m *msgRecorder) OnCNP(units.Time)                     {}
func (m *msgRecorder) OnNack(units.Time)                    {}
func (m *msgRecorder) OnTimer(units.Time)                   {}
func (m *msgRecorder) NextTimer() units.Time                { return units.Never }
func (m *msgRecorder) Rate() units.BitsPerSec               { return m.rate }
func (m *msgRecorder) Window() units.Bytes                  { return 0 }
func (m *msgRecorder) OnMessageStart(now units.Time, i cca.MessageInfo) {
	if _, dup := m.started[i.ID]; dup {
		panic("message started twice")
	}
	m.started[i.ID] = now
}
func (m *msgRecorder) OnAck(now units.Time, a *cca.Ack) {
	if a.MessageDone {
		m.done[a.MsgID] = *a
	}
}

// Per-message algorithms (Dolce-RC+; Dolce-RC, Ye 2023, Alg. 3) see each
// message start once, at its first packet's departure, and the ACK
// completing it carries its id, size, release and first departure.
func TestMessageObserverHooks(t *testing.T) {
	rec := &msgRecorder{started: map[int64]units.Time{}, done: map[int64]cca.Ack{}}
	tr := &trace.Trace{Hosts: 3}
	for i := 0; i < 6; i++ {
		tr.Messages = append(tr.Messages, trace.Message{ID: int64(10 + i), Src: int32(i % 2), Dst: 2, Bytes: int64(3000 * (i + 1)),
			Release: units.Time(i) * units.Microsecond, FlowID: int64(i % 2), CollectiveID: -1})
	}
	cfg := baseConfig(t, replaytest.Topology(t, "", 3), "linerate")
	cfg.CC = cca.Spec{Name: "rec", New: func() cca.Algorithm { return rec }}
	res := mustRun(t, cfg, tr, "")
	for i, m := range res.Messages {
		start, ok := rec.started[int64(i)]
		if !ok || start != units.Time(m.FirstTxNs)*units.Nanosecond {
			t.Errorf("message %d: OnMessageStart at %v, first packet left at %d ns", i, start, m.FirstTxNs)
		}
		a, ok := rec.done[int64(i)]
		if !ok || a.MsgBytes != units.Bytes(m.SizeBytes) || a.MsgFirstTx.Nanoseconds() != m.FirstTxNs || a.MsgRelease.Nanoseconds() != m.ReleaseNs {
			t.Errorf("message %d: completing ACK %+v does not describe it (%+v)", i, a, m)
		}
	}
}

// toRecorder counts retransmission timeouts reported to the algorithm.
type toRecorder struct {
	msgRecorder
	timeouts int64
}

func (m *toRecorder) OnTimeout(units.Time) { m.timeouts++ }

// Algorithms implementing cca.TimeoutObserver (Swift's "On Retransmit
// Timeout") hear every go-back-N timeout the NIC counts.
func TestTimeoutObserverHook(t *testing.T) {
	rec := &toRecorder{msgRecorder: msgRecorder{started: map[int64]units.Time{}, done: map[int64]cca.Ack{}}}
	tr := replaytest.Workload(t, "incast:n=8,size=1MB", 1)
	cfg := baseConfig(t, replaytest.Topology(t, "", tr.Hosts), "linerate")
	cfg.CC = cca.Spec{Name: "rec", New: func() cca.Algorithm { return rec }}
	cfg.Switch.PFC.Enabled = false
	cfg.Switch.BufferBytes = 200 * units.KB
	cfg.NIC.RTO = 200 * units.Microsecond
	res := mustRun(t, cfg, tr, "")
	if metrics.Compute(res.Flows, res.Messages, res.Ports, metrics.Options{}).Timeouts == 0 || rec.timeouts != metrics.Compute(res.Flows, res.Messages, res.Ports, metrics.Options{}).Timeouts {
		t.Fatalf("algorithm heard %d timeouts, the NIC counted %d (want equal and > 0)", rec.timeouts, metrics.Compute(res.Flows, res.Messages, res.Ports, metrics.Options{}).Timeouts)
	}
}

// prioMeter records the priority class of each flow's data packets.
type prioMeter struct{ prio map[int32]uint8 }

func (m *prioMeter) Dequeue(_ units.Time, _, _ int32, p *fabric.Packet) {
	if p.Kind == fabric.Data {
		m.prio[p.Flow] = p.Prio
	}
}
func (m *prioMeter) Deliver(units.Time, int32, *fabric.Packet)     {}
func (m *prioMeter) Drop(units.Time, int32, int32, *fabric.Packet) {}

// A message's Priority becomes its flow's data class; 0 keeps the NIC
// default (class 3).
func TestMessagePriorityIsTheDataClass(t *testing.T) {
	tr := &trace.Trace{Hosts: 3, Messages: []trace.Message{
		{ID: 0, Src: 0, Dst: 2, Bytes: 5000, FlowID: -1, CollectiveID: -1, Priority: 5, Iteration: -1, SrcRank: -1, DstRank: -1},
		{ID: 1, Src: 1, Dst: 2, Bytes: 5000, FlowID: -1, CollectiveID: -1, Iteration: -1, SrcRank: -1, DstRank: -1},
	}}
	cfg := baseConfig(t, replaytest.Topology(t, "", 3), "linerate")
	m := &prioMeter{prio: map[int32]uint8{}}
	cfg.Observer = m
	mustRun(t, cfg, tr, "")
	if m.prio[0] != 5 || m.prio[1] != cfg.NIC.DataPrio {
		t.Fatalf("data classes %v, want flow 0 in 5 and flow 1 in %d", m.prio, cfg.NIC.DataPrio)
	}
}
