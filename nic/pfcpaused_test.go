package nic_test

import (
	"testing"

	"github.com/ccreplay/ccreplay/fabric"
	"github.com/ccreplay/ccreplay/nic"
	"github.com/ccreplay/ccreplay/units"
)

// A flow's PFCPaused is the time it had a data packet to send while a
// PAUSE of its class held it (FDCC thesis, Fig. 6.3b, per flow): from the
// moment it would have sent (its release, or the ACK that opened its
// window) to the RESUME; not the time its window kept it back, and not
// the time before its release.
func TestPFCPausedPerFlow(t *testing.T) {
	us := units.Microsecond
	t.Run("held from release to resume", func(t *testing.T) {
		// PAUSE at 0; flow 0 released at 0, flow 1 at 2us; RESUME at 5us:
		// 5us and 3us.
		p := newPair(t, nic.DefaultConfig(), false, &fixed{}, &fixed{})
		p.pfc(p.a, 0, true)
		p.release(0, 0, 4000)
		at(p.sim, 2*us, func(now units.Time) { p.release(now, 1, 4000) })
		at(p.sim, 5*us, func(now units.Time) { p.pfc(p.a, now, false) })
		p.run(4 * us)
		if got := p.flows[0].PFCPausedUntil(4 * us); got != 4*us {
			t.Errorf("flow 0 at 4us, still paused: %v, want 4us", got)
		}
		if p.flows[0].PFCPaused != 0 {
			t.Errorf("flow 0's PFCPaused before the RESUME = %v, want 0 (the pause is still on)", p.flows[0].PFCPaused)
		}
		p.run(horizon)
		if got := p.flows[0].PFCPaused; got != 5*us {
			t.Errorf("flow 0: PFCPaused = %v, want 5us", got)
		}
		if got := p.flows[1].PFCPaused; got != 3*us {
			t.Errorf("flow 1: PFCPaused = %v, want 3us", got)
		}
		if got := p.flows[1].PFCPausedUntil(horizon); got != 3*us {
			t.Errorf("flow 1 after the RESUME: PFCPausedUntil = %v, want 3us", got)
		}
	})
	t.Run("window closed is not paused", func(t *testing.T) {
		// A 3-packet window: packets 0-2 leave at once and the window
		// closes. PAUSE at 1us, the ACK of two packets at 2us opens the
		// window while paused, RESUME at 4us: held 2us, not 3us.
		cfg := nic.DefaultConfig()
		cfg.Window = 3 * 1048
		p := newPair(t, cfg, false, &fixed{})
		p.release(0, 0, 10000)
		at(p.sim, us, func(now units.Time) { p.pfc(p.a, now, true) })
		at(p.sim, 2*us, func(now units.Time) { p.a.Receive(now, p.ctrl(fabric.Ack, 0, 2), 0) })
		at(p.sim, 4*us, func(now units.Time) { p.pfc(p.a, now, false) })
		p.run(3 * us)
		if n := len(p.ab.kind(fabric.Data)); n != 3 {
			t.Fatalf("sent %d data packets before the RESUME, want the window's 3", n)
		}
		p.run(horizon)
		if got := p.flows[0].PFCPaused; got != 2*us {
			t.Errorf("PFCPaused = %v, want 2us (the ACK at 2us to the RESUME at 4us)", got)
		}
	})
	t.Run("no pause", func(t *testing.T) {
		p := newPair(t, nic.DefaultConfig(), false, &fixed{})
		p.release(0, 0, 4000)
		p.run(horizon)
		if got := p.flows[0].PFCPausedUntil(horizon); got != 0 {
			t.Errorf("PFCPaused without a PAUSE = %v", got)
		}
	})
	t.Run("nothing to send", func(t *testing.T) {
		// A pause while the flow has sent everything does not count.
		p := newPair(t, nic.DefaultConfig(), false, &fixed{})
		p.release(0, 0, 2000)
		at(p.sim, us, func(now units.Time) { p.pfc(p.a, now, true) })
		at(p.sim, 3*us, func(now units.Time) { p.pfc(p.a, now, false) })
		p.run(horizon)
		if got := p.flows[0].PFCPaused; got != 0 {
			t.Errorf("PFCPaused of a flow with nothing left to send = %v, want 0", got)
		}
		if p.a.PausedTime != 2*us {
			t.Errorf("the NIC's PausedTime = %v, want 2us", p.a.PausedTime)
		}
	})
}

// Counting a flow's paused time allocates nothing: a PAUSE that holds a
// backlogged flow and its RESUME, over and over.
func TestPFCPausedNoAllocation(t *testing.T) {
	p := newPair(t, nic.DefaultConfig(), false, &fixed{})
	p.release(0, 0, 100_000_000)
	now := p.sim.Now()
	cycle := func() {
		p.pfc(p.a, now, true)
		now += units.Microsecond
		p.run(now) // the port finds the flow paused and holds it
		p.pfc(p.a, now, false)
		now += units.Microsecond
		p.run(now)
	}
	for range 4 {
		cycle() // warm up the pools and the held-flows slice
	}
	before := p.flows[0].PFCPaused
	if allocs := testing.AllocsPerRun(50, cycle); allocs != 0 {
		t.Errorf("%v allocations per PAUSE/RESUME cycle, want 0", allocs)
	}
	// 51 more cycles (AllocsPerRun runs it once more to warm up), each
	// held from the end of the packet on the wire at its PAUSE (at most
	// one packet time) to its RESUME.
	lo, hi := 51*(units.Microsecond-units.TxTime(1048, lineRate)), 51*units.Microsecond
	if got := p.flows[0].PFCPaused - before; got < lo || got > hi {
		t.Errorf("PFCPaused grew by %v over 51 cycles of 1us pauses, want within [%v, %v]", got, lo, hi)
	}
}
