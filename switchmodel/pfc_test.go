package switchmodel_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/ccreplay/ccreplay/fabric"
	"github.com/ccreplay/ccreplay/switchmodel"
	"github.com/ccreplay/ccreplay/units"
)

func staticPFC(buffer units.Bytes) switchmodel.Config {
	return switchmodel.Config{
		BufferBytes: buffer,
		PFC: switchmodel.PFCConfig{
			Enabled: true, Mode: switchmodel.PFCStatic,
			XoffPerGbps: 9500, XonPerGbps: 9250, FrameBytes: 64,
		},
	}
}

// Static PFC (CC-NetCalc, Lehal 2024, Section V: Xoff 9.5 kB and Xon 9.25 kB
// per port per Gb/s): the switch sends PAUSE for (ingress port, priority) on
// the first arrival that takes the bytes it holds above Xoff, and RESUME
// when draining brings them to Xon or below. Both frames leave on the
// ingress port's own egress (toward the sender), at control priority, and
// arrive TxTime(64 B) + propagation delay later.
func TestStaticPFCPauseAndResume(t *testing.T) {
	// 500 B packets make the held bytes land exactly on Xoff (not above:
	// no PAUSE yet) and exactly on Xon (RESUME) at 10 Gb/s.
	for _, tc := range []struct {
		rate units.BitsPerSec
		size units.Bytes
	}{{10 * units.Gbps, 1000}, {10 * units.Gbps, 500}, {25 * units.Gbps, 1000}} {
		t.Run(fmt.Sprintf("%v/%dB", tc.rate, tc.size), func(t *testing.T) {
			const delay = units.Microsecond
			rate, size := tc.rate, tc.size
			r := newRig(t, staticPFC(10*units.MB), ports(2, rate, delay)...)
			r.pfc(0, 1, dataPrio, true) // the egress toward host 1 holds everything
			xoff := units.Bytes(9500 * int64(rate/units.Gbps))
			xon := units.Bytes(9250 * int64(rate/units.Gbps))
			wantK := int(xoff/size) + 1 // first k with k*size > Xoff
			in := r.sw.Port(0)
			for k := 1; k <= wantK+5; k++ {
				r.sw.Receive(0, r.data(0, 1, int64(k), size), 0)
				want := int64(0)
				if k >= wantK {
					want = 1
				}
				if in.PausesSent != want {
					t.Fatalf("after %d B held (Xoff %d B): PausesSent=%d, want %d", units.Bytes(k)*size, xoff, in.PausesSent, want)
				}
			}
			if n := r.sw.Port(1).PausesSent; n != 0 {
				t.Fatalf("PAUSE counted on the egress port: %d", n)
			}
			r.sim.Run(units.Never)
			ctl := units.TxTime(64, rate)
			pauses := r.peers[0].got
			if len(pauses) != 1 {
				t.Fatalf("upstream got %d frames, want one PAUSE", len(pauses))
			}
			f := pauses[0]
			if f.p.Kind != fabric.Pause || f.p.PausePrio != dataPrio || f.p.Prio != fabric.ControlPrio || f.p.Size != 64 || f.at != ctl+delay {
				t.Fatalf("got %v at %v (class %d), want PAUSE prio=%d 64B at %v on class 0", &f.p, f.at, f.p.Prio, dataPrio, ctl+delay)
			}
			if len(r.peers[1].got) != 0 {
				t.Fatalf("paused egress sent %d packets", len(r.peers[1].got))
			}

			// Drain: RESUME the egress at 10us; it sends one packet per
			// TxTime. The j-th dequeue (j = 1, 2, ...) happens at
			// 10us + (j-1)*tx and leaves held = H - j*size.
			tR := 10 * units.Microsecond
			held := units.Bytes(wantK+5) * size
			j := int((held - xon + size - 1) / size) // first j with held - j*size <= Xon
			r.pfc(tR, 1, dataPrio, false)
			r.sim.Run(units.Never)
			tx := units.TxTime(size, rate)
			got := r.peers[0].got
			if len(got) != 2 || got[1].p.Kind != fabric.Resume || got[1].p.PausePrio != dataPrio {
				t.Fatalf("upstream frames %v, want PAUSE then RESUME", describe(got))
			}
			if want := tR + units.Time(j-1)*tx + ctl + delay; got[1].at != want {
				t.Errorf("RESUME arrived at %v, want %v (sent at dequeue %d, held %d <= Xon %d)",
					got[1].at, want, j, held-units.Bytes(j)*size, xon)
			}
			if in.PausesSent != 1 || r.sw.BufferUsed() != 0 {
				t.Errorf("PausesSent=%d BufferUsed=%d after draining", in.PausesSent, r.sw.BufferUsed())
			}
		})
	}
}

// A PFC frame waits for the packet being serialized on its port (no
// preemption), then goes ahead of data queued behind it.
func TestPFCFrameQueuesBehindPacketInTransmission(t *testing.T) {
	const rate = 10 * units.Gbps
	const delay = units.Microsecond
	r := newRig(t, staticPFC(10*units.MB), ports(2, rate, delay)...)
	r.pfc(0, 1, dataPrio, true)
	// Two packets toward host 0: the first is on the wire 0..800ns, the
	// second waits.
	r.sw.Receive(0, r.data(1, 0, 100, 1000), 1)
	r.sw.Receive(0, r.data(1, 0, 101, 1000), 1)
	// At 300ns host 0 pushes 96 kB at the paused egress: PAUSE on port 0.
	at(r.sim, 300*units.Nanosecond, func(now units.Time) {
		for k := 0; k < 96; k++ {
			r.sw.Receive(now, r.data(0, 1, int64(k), 1000), 0)
		}
		if r.sw.Port(0).PausesSent != 1 {
			t.Errorf("PausesSent=%d, want 1", r.sw.Port(0).PausesSent)
		}
	})
	r.sim.Run(units.Never)
	tx, ctl := units.TxTime(1000, rate), units.TxTime(64, rate)
	want := []string{
		fmt.Sprintf("%v h1->h0 DATA flow=0 psn=100 1000B", tx+delay),
		fmt.Sprintf("%v PAUSE prio=3 64B", tx+ctl+delay),
		fmt.Sprintf("%v h1->h0 DATA flow=0 psn=101 1000B", tx+ctl+tx+delay),
	}
	got := describe(r.peers[0].got)
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("upstream received\n%v\nwant\n%v", got, want)
	}
}

func describe(fs []frame) []string {
	var out []string
	for _, f := range fs {
		out = append(out, fmt.Sprintf("%v %v", f.at, &f.p))
	}
	return out
}

// The control class is lossless by construction: it never triggers a
// PAUSE however much of it an ingress holds, a PAUSE of the data class
// does not hold ACKs back, and PFC frames leave even when every class of
// their port is paused.
func TestControlPriorityNeverPaused(t *testing.T) {
	const rate = 10 * units.Gbps
	const delay = units.Microsecond
	r := newRig(t, staticPFC(10*units.MB), ports(2, rate, delay)...)

	// 200 kB of control traffic held at ingress 0 (Xoff is 95 kB).
	r.pfc(0, 1, fabric.ControlPrio, true)
	for k := 0; k < 200; k++ {
		r.sw.Receive(0, r.ctrl(0, 1, 1000), 0)
	}
	r.sim.Run(units.Never)
	if n := r.sw.Port(0).PausesSent; n != 0 || len(r.peers[0].got) != 0 {
		t.Fatalf("control traffic triggered %d PAUSEs (%d frames upstream)", n, len(r.peers[0].got))
	}
	r.pfc(r.sim.Now(), 1, fabric.ControlPrio, false)
	r.sim.Run(units.Never)
	if len(r.peers[1].got) != 200 {
		t.Fatalf("delivered %d of 200 ACKs", len(r.peers[1].got))
	}

	// Data class paused at egress 1: an ACK still goes through.
	t0 := r.sim.Now() + 10*units.Microsecond
	r.pfc(t0, 1, dataPrio, true)
	r.sw.Receive(t0, r.data(0, 1, 1, 1000), 0)
	r.sw.Receive(t0, r.ctrl(0, 1, 60), 0)
	r.sim.Run(units.Never)
	last := r.peers[1].got[len(r.peers[1].got)-1]
	if len(r.peers[1].got) != 201 || last.p.Kind != fabric.Ack || last.at != t0+units.TxTime(60, rate)+delay {
		t.Fatalf("with data paused, last arrival %v at %v (%d arrivals), want the ACK at %v",
			&last.p, last.at, len(r.peers[1].got), t0+units.TxTime(60, rate)+delay)
	}

	// Every class of port 0 paused by host 0: the switch's own PAUSE
	// toward host 0 still leaves.
	t1 := r.sim.Now() + 10*units.Microsecond
	for prio := uint8(0); prio < fabric.NumPrio; prio++ {
		r.pfc(t1, 0, prio, true)
	}
	for k := 0; k < 96; k++ {
		r.sw.Receive(t1, r.data(0, 1, int64(k), 1000), 0)
	}
	r.sim.Run(units.Never)
	if p := r.peers[0].kinds(fabric.Pause); len(p) != 1 || p[0].at != t1+units.TxTime(64, rate)+delay {
		t.Fatalf("PAUSE out of a fully paused port: %v", describe(p))
	}
}

// A PAUSE received on a port stops that port's transmissions of the paused
// class until the RESUME; other classes keep going. PausedTime is the time
// any class was paused (the union of the intervals), and PausedUntilNow
// includes a pause in progress.
func TestPauseReceivedStopsClassAndAccountsTime(t *testing.T) {
	const rate = 10 * units.Gbps
	const delay = units.Microsecond
	r := newRig(t, staticPFC(10*units.MB), ports(2, rate, delay)...)
	e := r.sw.Port(1)
	us := units.Microsecond
	tx := units.TxTime(1000, rate)
	at(r.sim, 2*us, func(now units.Time) { r.pfc(now, 1, dataPrio, true) })
	at(r.sim, 2500*units.Nanosecond, func(now units.Time) {
		r.sw.Receive(now, r.data(0, 1, 1, 1000), 0)
		p := r.data(0, 1, 2, 1000)
		p.Prio = 5
		r.sw.Receive(now, p, 0)
	})
	at(r.sim, 3*us, func(now units.Time) {
		r.pfc(now, 1, 5, true)
		p := r.data(0, 1, 3, 1000)
		p.Prio = 5
		r.sw.Receive(now, p, 0)
	})
	at(r.sim, 4*us, func(now units.Time) {
		if got := e.PausedUntilNow(now); got != 2*us {
			t.Errorf("PausedUntilNow(4us)=%v, want 2us", got)
		}
	})
	at(r.sim, 5*us, func(now units.Time) { r.pfc(now, 1, dataPrio, false) })
	at(r.sim, 9*us, func(now units.Time) { r.pfc(now, 1, 5, false) })
	r.sim.Run(units.Never)

	want := []string{
		fmt.Sprintf("%v h0->h1 DATA flow=0 psn=2 1000B", 2500*units.Nanosecond+tx+delay), // class 5, not yet paused
		fmt.Sprintf("%v h0->h1 DATA flow=0 psn=1 1000B", 5*us+tx+delay),                  // class 3 after its RESUME
		fmt.Sprintf("%v h0->h1 DATA flow=0 psn=3 1000B", 9*us+tx+delay),                  // class 5 after its RESUME
	}
	if got := describe(r.peers[1].got); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("host 1 received\n%v\nwant\n%v", got, want)
	}
	if e.PausedTime != 7*us || e.PausedUntilNow(20*us) != 7*us {
		t.Errorf("PausedTime=%v PausedUntilNow(20us)=%v, want 7us (2us..9us)", e.PausedTime, e.PausedUntilNow(20*us))
	}
	if e.PausesReceived != 2 {
		t.Errorf("PausesReceived=%d, want 2", e.PausesReceived)
	}
	if r.pool.Live != 0 {
		t.Errorf("pool.Live=%d at the end", r.pool.Live)
	}
}

// Lossy mode: with PFC off a packet that does not fit the shared buffer is
// dropped and counted at its egress port (packets and bytes, and data bytes
// at the switch); a packet that exactly fills the buffer is accepted.
func TestLossyFullBufferDrops(t *testing.T) {
	cfg := switchmodel.Config{BufferBytes: 10 * units.KB}
	r := newRig(t, cfg, ports(2, 10*units.Gbps, units.Microsecond)...)
	var hooked []fabric.Kind // OnDrop sees every dropped packet, control ones too
	r.sw.OnDrop = func(_ units.Time, p *fabric.Packet) { hooked = append(hooked, p.Kind) }
	r.pfc(0, 1, dataPrio, true)
	r.pfc(0, 1, fabric.ControlPrio, true)
	for k := 0; k < 15; k++ {
		r.sw.Receive(0, r.data(0, 1, int64(k), 1000), 0)
	}
	r.sw.Receive(0, r.ctrl(0, 1, 700), 0)
	e := r.sw.Port(1)
	if e.DroppedPkts != 6 || e.DroppedBytes != 5700 || r.sw.DroppedDataBytes != 5000 {
		t.Errorf("DroppedPkts=%d DroppedBytes=%d DroppedDataBytes=%d, want 6, 5700, 5000",
			e.DroppedPkts, e.DroppedBytes, r.sw.DroppedDataBytes)
	}
	if r.sw.BufferUsed() != 10*units.KB || r.pool.Live != 10 {
		t.Errorf("BufferUsed=%d pool.Live=%d, want 10000 and 10 queued packets", r.sw.BufferUsed(), r.pool.Live)
	}
	if r.sw.Port(0).DroppedPkts != 0 {
		t.Errorf("drops counted on the ingress port")
	}
	want := []fabric.Kind{fabric.Data, fabric.Data, fabric.Data, fabric.Data, fabric.Data, fabric.Ack}
	if !slices.Equal(hooked, want) {
		t.Errorf("OnDrop saw %v, want %v: the 5 data packets, then the ACK", hooked, want)
	}
}

// host is a minimal PFC-compliant sender: n packets of 1000 B to host 1 at
// line rate, stopped by PAUSE and restarted by RESUME of the data class.
type host struct {
	r      *rig
	port   *fabric.Port
	left   int
	psn    int64
	paused bool
}

func (h *host) Dequeue(units.Time) (*fabric.Packet, units.Time) {
	if h.paused || h.left == 0 {
		return nil, units.Never
	}
	h.left--
	p := h.r.data(0, 1, h.psn, 1000)
	h.psn++
	return p, 0
}

func (h *host) Receive(now units.Time, p *fabric.Packet, _ int32) {
	if p.PausePrio == dataPrio {
		switch p.Kind {
		case fabric.Pause:
			h.paused = true
		case fabric.Resume:
			h.paused = false
			h.port.Kick(now)
		}
	}
	h.r.pool.Put(p)
}

// The same 1 MB burst from a 10 Gb/s host into a 1 Gb/s bottleneck with a
// 300 kB buffer: without PFC the buffer overflows and drops exactly what
// was not delivered; with static or dynamic PFC the host is paused in time
// and nothing is dropped, every packet arrives once and in order.
func TestPFCPreventsDropsThatLossyModeSuffers(t *testing.T) {
	const n = 1000
	dyn := switchmodel.DefaultConfig()
	dyn.BufferBytes = 300 * units.KB
	dyn.ECN.Enabled = false
	lossy := switchmodel.Config{BufferBytes: 300 * units.KB}
	for _, tc := range []struct {
		name string
		cfg  switchmodel.Config
	}{{"lossy", lossy}, {"static", staticPFC(300 * units.KB)}, {"dynamic", dyn}} {
		t.Run(tc.name, func(t *testing.T) {
			r := newRig(t, tc.cfg,
				switchmodel.PortSpec{Rate: 10 * units.Gbps, Delay: units.Microsecond},
				switchmodel.PortSpec{Rate: 1 * units.Gbps, Delay: units.Microsecond})
			h := &host{r: r, left: n}
			h.port = fabric.NewPort(r.sim, 7, 0, 10*units.Gbps, units.Microsecond, h, r.sw, 0)
			r.sw.Port(0).Port.SetPeer(h, 0)
			h.port.Kick(0)
			r.sim.Run(units.Never)

			got := r.peers[1].got
			e := r.sw.Port(1)
			if e.Stats.Max > 300*units.KB {
				t.Errorf("queue reached %d B in a 300 kB buffer", e.Stats.Max)
			}
			if r.pool.Live != 0 {
				t.Errorf("pool.Live=%d: packets leaked", r.pool.Live)
			}
			if int(e.DroppedPkts)+len(got) != n || e.DroppedBytes != e.DroppedPkts*1000 || r.sw.DroppedDataBytes != e.DroppedBytes {
				t.Errorf("delivered %d + dropped %d (%d B, data %d B) != %d packets of 1000 B",
					len(got), e.DroppedPkts, e.DroppedBytes, r.sw.DroppedDataBytes, n)
			}
			if !tc.cfg.PFC.Enabled {
				if e.DroppedPkts == 0 {
					t.Errorf("lossy mode: no drops for a 1 MB burst into 300 kB")
				}
				return
			}
			if e.DroppedPkts != 0 || len(got) != n {
				t.Fatalf("PFC: %d dropped, %d delivered", e.DroppedPkts, len(got))
			}
			for i, f := range got {
				if f.p.PSN != int64(i) {
					t.Fatalf("arrival %d is psn %d", i, f.p.PSN)
				}
			}
			if r.sw.Port(0).PausesSent == 0 {
				t.Errorf("no PAUSE sent")
			}
		})
	}
}
