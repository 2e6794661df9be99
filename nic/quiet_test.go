package nic_test

import (
	"testing"

	"github.com/ccreplay/ccreplay/fabric"
	"github.com/ccreplay/ccreplay/nic"
	"github.com/ccreplay/ccreplay/units"
)

// quietLog records OnQuiet calls of both NICs of a pair.
type quietLog struct {
	at    []units.Time
	flows []int32
}

func watchQuiet(p *pair) *quietLog {
	q := &quietLog{}
	on := func(now units.Time, f *nic.Flow) {
		q.at = append(q.at, now)
		q.flows = append(q.flows, f.ID)
	}
	p.a.OnQuiet, p.b.OnQuiet = on, on
	return q
}

// lastArrival is when the last packet of flow f reached either end.
func (p *pair) lastArrival(f int32) units.Time {
	last := units.Time(-1)
	for _, w := range []*wire{p.ab, p.ba} {
		for _, s := range w.log {
			if s.p.Flow == f && s.at > last {
				last = s.at
			}
		}
	}
	return last
}

// A flow becomes quiet once, after the last of its packets (data, ACKs,
// CNPs) has been consumed, never while one is still on a link: the replay
// retires a quiet flow, so a packet arriving later would find no state.
func TestQuietAfterEveryPacketOfTheFlow(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name  string
		size  units.Bytes
		probe bool          // the algorithm measures RTT with probes
		wire  func(p *pair) // changes what the links do
	}{
		{"clean", 30000, false, func(*pair) {}},
		// A one-packet message: its RTT request leaves right behind its
		// only data packet, so the response comes back after the ACK.
		{"RTT probe (a response behind the last ACK)", 1000, true, func(*pair) {}},
		{"every data packet CE-marked (CNPs)", 30000, false, func(p *pair) {
			p.ab.drop = func(d *fabric.Packet) bool {
				if d.Kind == fabric.Data {
					d.CE = true
				}
				return false
			}
		}},
		{"one data packet lost (NACK, go-back-N)", 30000, false, func(p *pair) {
			lost := false
			p.ab.drop = func(d *fabric.Packet) bool {
				if d.Kind == fabric.Data && d.PSN == 3 && !lost {
					lost = true
					p.flows[d.Flow].PacketDropped() // as a switch's OnDrop does
					return true
				}
				return false
			}
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := newPair(t, nic.DefaultConfig(), true, &fixed{probe: c.probe})
			c.wire(p)
			q := watchQuiet(p)
			p.release(0, 0, c.size)
			if f := p.flows[0]; f.Quiet() {
				t.Fatal("quiet right after its release")
			}
			p.run(horizon)
			if len(q.at) != 1 || q.flows[0] != 0 {
				t.Fatalf("OnQuiet calls %v (flows %v), want one for flow 0", q.at, q.flows)
			}
			if last := p.lastArrival(0); q.at[0] < last {
				t.Errorf("quiet at %v, before the flow's last packet arrived at %v", q.at[0], last)
			}
			if f := p.flows[0]; !f.Quiet() || f.Outstanding() {
				t.Errorf("at the end: Quiet %v, Outstanding %v", f.Quiet(), f.Outstanding())
			}
			if len(p.hooks.senderDone) != 1 || q.at[0] < p.hooks.senderDone[0].at {
				t.Errorf("quiet at %v, sender done %v", q.at, p.hooks.senderDone)
			}
			if c.probe && q.at[0] == p.hooks.senderDone[0].at {
				t.Errorf("quiet at the last ACK (%v) with an RTT response still on the link", q.at[0])
			}
		})
	}
}

// A flow held by a PFC pause is not quiet, and a flow that was never
// released is not quiet either.
func TestQuietNotWhilePausedOrUnstarted(t *testing.T) {
	t.Parallel()
	p := newPair(t, nic.DefaultConfig(), true, &fixed{}, &fixed{})
	q := watchQuiet(p)
	p.pfc(p.a, 0, true)
	p.release(0, 0, 5000)
	p.run(20 * units.Microsecond)
	if len(q.at) != 0 || p.flows[0].Quiet() {
		t.Fatalf("quiet while a PAUSE holds its data: calls %v", q.at)
	}
	p.pfc(p.a, p.sim.Now(), false)
	p.run(horizon)
	if len(q.at) != 1 || q.flows[0] != 0 {
		t.Fatalf("after the RESUME: OnQuiet calls %v flows %v, want one for flow 0", q.at, q.flows)
	}
	if p.flows[1].Quiet() {
		t.Error("a flow never released reports quiet")
	}
}
