package switchmodel_test

import (
	"slices"
	"testing"

	"github.com/ccreplay/ccreplay/fabric"
	"github.com/ccreplay/ccreplay/switchmodel"
	"github.com/ccreplay/ccreplay/telemetry"
	"github.com/ccreplay/ccreplay/units"
)

// pkt is one data packet of a flow-counter scenario: its flow, the host
// (and so the switch port) it goes to, and whether it is the last packet
// of its message (fabric.Packet.Last, the WRITE LAST of Algorithm 2).
type pkt struct {
	flow, dst int32
	last      bool
}

// flowRig is a 3-port switch with INT on and the flow counter on or off.
func flowRig(t testing.TB, counter bool) *rig {
	t.Helper()
	cfg := switchmodel.Config{BufferBytes: units.MB, INT: true, FlowCounter: counter}
	return newRig(t, cfg, ports(3, 100*units.Gbps, 0)...)
}

// sendAll hands the packets to the switch at time 0, in order, on ingress
// port 0, and runs the switch until every one has left. Each egress port
// sends in FIFO order, so it updates its counter in the order given.
func (r *rig) sendAll(ps []pkt) {
	for i, q := range ps {
		p := r.data(0, q.dst, int64(i), 1000)
		p.Flow, p.Last = q.flow, q.last
		r.sw.Receive(0, p, 0)
	}
	r.sim.Run(units.Never)
}

// stamped is the Flows each packet that reached host dst carried in its
// (only) INT hop, in arrival order.
func (r *rig) stamped(t *testing.T, dst int) []int32 {
	t.Helper()
	var out []int32
	for i, f := range r.peers[dst].got {
		if f.tel == nil || f.tel.N != 1 {
			t.Fatalf("packet %d to host %d carries %+v, want one INT hop", i, dst, f.tel)
		}
		out = append(out, f.tel.Hops[0].Flows)
	}
	return out
}

// FDCC (Zhang 2023), Algorithm 2: an unseen flow is added (line 9), a seen
// flow's packets pass (line 4) until its WRITE LAST packet deletes it
// (line 6), and the hop carries the set's size after the packet's own
// update (line 11): a flow's first packet counts itself, its last packet
// no longer does.
func TestFlowCounterAddsUnseenRemovesOnLast(t *testing.T) {
	r := flowRig(t, true)
	r.sendAll([]pkt{
		{flow: 1, dst: 1},             // line 9: {1}
		{flow: 1, dst: 1},             // line 4: {1}
		{flow: 2, dst: 1},             // line 9: {1 2}
		{flow: 1, dst: 1, last: true}, // line 6: {2}
		{flow: 2, dst: 1},             // line 4: {2}
		{flow: 2, dst: 1, last: true}, // line 6: {}
		{flow: 1, dst: 1},             // line 9: flow 1's next message, {1}
	})
	want := []int32{1, 1, 2, 1, 1, 0, 1}
	if got := r.stamped(t, 1); !slices.Equal(got, want) {
		t.Errorf("Flows stamped %v, want %v", got, want)
	}
	if n := r.sw.Port(1).FlowCount(); n != 1 {
		t.Errorf("port 1 counts %d flows at the end, want 1", n)
	}
}

// Algorithm 2 removes only a flow it has seen (line 2 before line 6): the
// only packet of a one-packet message, Last on its first packet, finds its
// flow unseen and adds it (line 9), and the flow stays counted until a
// later Last packet of it crosses the port.
func TestFlowCounterOnePacketMessageStays(t *testing.T) {
	r := flowRig(t, true)
	r.sendAll([]pkt{
		{flow: 3, dst: 1, last: true}, // line 9, though Last: {3}
		{flow: 4, dst: 1},             // line 9: {3 4}
		{flow: 3, dst: 1, last: true}, // line 6: flow 3's next one-packet message removes it: {4}
		{flow: 3, dst: 1, last: true}, // line 9 again: {3 4}
	})
	want := []int32{1, 2, 1, 2}
	if got := r.stamped(t, 1); !slices.Equal(got, want) {
		t.Errorf("Flows stamped %v, want %v", got, want)
	}
}

// A retransmission after the WRITE LAST packet removed its flow (go-back-N
// resends from the lost PSN, Last included) finds the flow unseen and adds
// it again (Algorithm 2 line 9); the resent Last removes it once more
// (line 6).
func TestFlowCounterResendReAdds(t *testing.T) {
	r := flowRig(t, true)
	r.sendAll([]pkt{
		{flow: 5, dst: 1},             // psn 0, line 9: {5}
		{flow: 5, dst: 1},             // psn 1, line 4
		{flow: 5, dst: 1, last: true}, // psn 2, line 6: {}
		{flow: 5, dst: 1},             // psn 1 resent, line 9: {5}
		{flow: 5, dst: 1, last: true}, // psn 2 resent, line 6: {}
	})
	want := []int32{1, 1, 0, 1, 0}
	if got := r.stamped(t, 1); !slices.Equal(got, want) {
		t.Errorf("Flows stamped %v, want %v", got, want)
	}
}

// Algorithm 2 keeps one set per egress port (Egress_port_flow): the same
// flow id on two ports is two entries, and a Last packet leaving one port
// leaves the other's set alone.
func TestFlowCounterPortsCountIndependently(t *testing.T) {
	r := flowRig(t, true)
	r.sendAll([]pkt{
		{flow: 1, dst: 1},             // port 1: {1}
		{flow: 1, dst: 2},             // port 2: {1}
		{flow: 2, dst: 2},             // port 2: {1 2}
		{flow: 3, dst: 2},             // port 2: {1 2 3}
		{flow: 1, dst: 1, last: true}, // port 1: {}
		{flow: 2, dst: 2},             // port 2: {1 2 3}
	})
	if got, want := r.stamped(t, 1), []int32{1, 0}; !slices.Equal(got, want) {
		t.Errorf("port 1 stamped %v, want %v", got, want)
	}
	if got, want := r.stamped(t, 2), []int32{1, 2, 3, 3}; !slices.Equal(got, want) {
		t.Errorf("port 2 stamped %v, want %v", got, want)
	}
	if a, b := r.sw.Port(1).FlowCount(), r.sw.Port(2).FlowCount(); a != 0 || b != 3 {
		t.Errorf("ports 1 and 2 count %d and %d flows, want 0 and 3", a, b)
	}
}

// flowScenario mixes flows, Last packets and two ports.
var flowScenario = []pkt{
	{flow: 1, dst: 1}, {flow: 2, dst: 2}, {flow: 1, dst: 2}, {flow: 3, dst: 1, last: true},
	{flow: 1, dst: 1, last: true}, {flow: 2, dst: 2}, {flow: 2, dst: 2, last: true}, {flow: 1, dst: 1},
}

// With the counter off (the default) every hop carries Flows 0, and what
// reaches the hosts is otherwise exactly what the counter-on switch
// delivers: the counter observes and changes no timing, queue or byte
// counter.
func TestFlowCounterOffStampsZero(t *testing.T) {
	off, on := flowRig(t, false), flowRig(t, true)
	off.sendAll(flowScenario)
	on.sendAll(flowScenario)
	for dst := 1; dst <= 2; dst++ {
		a, b := off.peers[dst].got, on.peers[dst].got
		if len(a) != len(b) || len(a) == 0 {
			t.Fatalf("host %d: %d arrivals with the counter off, %d on", dst, len(a), len(b))
		}
		for i := range a {
			if f := a[i].tel.Hops[0].Flows; f != 0 {
				t.Errorf("host %d packet %d: counter off stamped Flows %d", dst, i, f)
			}
			hb := *b[i].tel
			hb.Hops[0].Flows = 0
			if a[i].at != b[i].at || a[i].p != b[i].p || *a[i].tel != hb {
				t.Errorf("host %d packet %d: off %+v %+v, on %+v %+v", dst, i, a[i], *a[i].tel, b[i], *b[i].tel)
			}
		}
		if n := off.sw.Port(dst).FlowCount(); n != 0 {
			t.Errorf("counter off: port %d counts %d flows", dst, n)
		}
	}
}

// The counter rides on INT: with INT off it neither stamps nor counts.
func TestFlowCounterNeedsINT(t *testing.T) {
	r := newRig(t, switchmodel.Config{BufferBytes: units.MB, FlowCounter: true}, ports(3, 100*units.Gbps, 0)...)
	r.sendAll(flowScenario)
	for _, f := range r.peers[1].got {
		if f.tel != nil {
			t.Fatalf("INT off: a packet carries %+v", f.tel)
		}
	}
	if n := r.sw.Port(1).FlowCount(); n != 0 {
		t.Errorf("INT off: port 1 counts %d flows", n)
	}
}

// A packet whose INT stack is full is still counted (the set belongs to
// the port, not to the packet): the next packet's hop includes its flow.
func TestFlowCounterCountsFullStack(t *testing.T) {
	r := flowRig(t, true)
	p := r.data(0, 1, 0, 1000)
	p.Flow, p.Tel = 7, r.pool.GetTel()
	p.Tel.N = telemetry.MaxHops
	r.sw.Receive(0, p, 0)
	r.sendAll([]pkt{{flow: 8, dst: 1}})
	if f := r.peers[1].got[0].tel; f.N != telemetry.MaxHops {
		t.Fatalf("full stack became %+v", f)
	}
	if got := r.peers[1].got[1].tel.Hops[0].Flows; got != 2 {
		t.Errorf("flow 8's hop counts %d flows, want 2 (7 and 8)", got)
	}
}

// sink takes packets off a switch port and returns them to the pool.
type sink struct{ pool *fabric.Pool }

func (s sink) Receive(_ units.Time, p *fabric.Packet, _ int32) { s.pool.Put(p) }

// BenchmarkFlowCounter is the switch's cost per data packet (Receive,
// queueing, Dequeue with INT stamping, delivery) with INT on and the flow
// counter off or on: 1024 flows take turns through one port in batches of
// 64 packets, each flow's every 16th packet the last of a message.
func BenchmarkFlowCounter(b *testing.B) {
	for _, c := range []struct {
		name         string
		int, counter bool
	}{{"int=off", false, false}, {"counter=off", true, false}, {"counter=on", true, true}} {
		b.Run(c.name, func(b *testing.B) {
			cfg := switchmodel.Config{BufferBytes: units.MB, INT: c.int, FlowCounter: c.counter}
			r := newRig(b, cfg, ports(2, 100*units.Gbps, 0)...)
			r.sw.Port(1).Port.SetPeer(sink{r.pool}, 0)
			const batch, flows = 64, 1024
			i := 0
			send := func(n int) {
				now := r.sim.Now()
				for range n {
					p := r.data(0, 1, int64(i), 1000)
					p.Flow, p.Last = int32(i%flows), (i/flows)%16 == 15
					r.sw.Receive(now, p, 0)
					i++
				}
				r.sim.Run(units.Never)
			}
			send(4 * flows) // warm up: pools, rings and the flow set grown
			b.ReportAllocs()
			b.ResetTimer()
			for n := b.N; n > 0; n -= batch {
				send(min(n, batch))
			}
		})
	}
}
