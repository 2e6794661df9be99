package nic_test

import (
	"testing"

	"github.com/ccreplay/ccreplay/fabric"
	"github.com/ccreplay/ccreplay/nic"
	"github.com/ccreplay/ccreplay/units"
)

// The retransmission timer must not spin when the RTO deadline passes with
// released data not yet sent (nothing in flight): (a) a flow paced slower
// than one packet per RTO whose in-flight packet was ACKed, (b) a flow held
// by a PFC PAUSE for longer than RTO. In both the data simply waits; no
// timeout is due and time must keep advancing, and the RTO clock of the
// next packet starts when it is sent (no spurious retransmission).
func TestRTODeadlineWithNothingInFlight(t *testing.T) {
	us := units.Microsecond
	t.Run("slow pacing", func(t *testing.T) {
		cfg := nic.DefaultConfig()
		cfg.RTO = 10 * us
		p := newPair(t, cfg, false, &fixed{rate: 100 * units.Mbps}) // 83.84 us per packet
		p.release(0, 0, 2000)
		at(p.sim, us, func(now units.Time) { p.a.Receive(now, p.ctrl(fabric.Ack, 0, 1), 0) })
		at(p.sim, 85*us, func(now units.Time) { p.a.Receive(now, p.ctrl(fabric.Ack, 0, 2), 0) })
		p.guard.run(200 * us)
		if p.guard.tripped {
			t.Fatalf("livelock at %v: with una == nxt < released and the RTO deadline passed, "+
				"NIC.Handle takes no timeout and rearm re-arms the timer at now, forever", p.sim.Now())
		}
		data := p.ab.kind(fabric.Data)
		if short(data) != "f0:0, f0:1" || departed(data[1]) != units.TxTime(1048, 100*units.Mbps) {
			t.Fatalf("sent %s", short(data))
		}
		if p.flows[0].Timeouts != 0 {
			t.Errorf("Timeouts=%d with nothing in flight", p.flows[0].Timeouts)
		}
	})
	t.Run("long pause", func(t *testing.T) {
		cfg := nic.DefaultConfig()
		cfg.RTO = 10 * us
		p := newPair(t, cfg, false, &fixed{})
		p.pfc(p.a, 0, true)
		p.release(0, 0, 2000)
		at(p.sim, 30*us, func(now units.Time) { p.pfc(p.a, now, false) })
		p.guard.run(35 * us)
		if p.guard.tripped {
			t.Fatalf("livelock at %v: a flow PFC-paused for longer than RTO with nothing in flight "+
				"re-arms its timer at now forever (NIC.Handle/rearm)", p.sim.Now())
		}
		data := p.ab.kind(fabric.Data)
		if len(data) != 2 || departed(data[0]) != 30*us {
			t.Fatalf("after RESUME at 30us sent %s", short(data))
		}
	})
}

// A data packet is only ever made for a released PSN. Here a NACK sends
// the flow back to PSN 1 while pacing holds the retransmission; then a
// cumulative ACK for everything arrives (the original PSN 1 made it after
// all). The pending go-back must not produce a packet for PSN 2, which no
// message holds.
func TestNoDataBeyondReleasedAfterLateAck(t *testing.T) {
	p := newPair(t, nic.DefaultConfig(), false, &fixed{rate: 10 * units.Gbps}) // 838.4 ns per packet
	p.release(0, 0, 2000)
	at(p.sim, 1000*units.Nanosecond, func(now units.Time) { p.a.Receive(now, p.ctrl(fabric.Nack, 0, 1), 0) })
	at(p.sim, 1100*units.Nanosecond, func(now units.Time) { p.a.Receive(now, p.ctrl(fabric.Ack, 0, 2), 0) })
	p.run(horizon)
	for _, s := range p.ab.kind(fabric.Data) {
		if s.p.PSN >= 2 {
			t.Fatalf("sent %v (payload %d B, last=%v) though only PSNs 0..1 were released: "+
				"advance() moves nxt up to una but leaves the flow on the active list, and Dequeue calls "+
				"makeData without checking nxt < relPSN; all sent: %s", &s.p, s.p.Payload, s.p.Last, short(p.ab.log))
		}
	}
	if got := short(p.ab.log); got != "f0:0, f0:1" {
		t.Errorf("sent %s, want f0:0, f0:1", got)
	}
}
