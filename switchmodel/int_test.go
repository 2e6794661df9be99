package switchmodel_test

import (
	"testing"

	"github.com/ccreplay/ccreplay/fabric"
	"github.com/ccreplay/ccreplay/kernel"
	"github.com/ccreplay/ccreplay/switchmodel"
	"github.com/ccreplay/ccreplay/telemetry"
	"github.com/ccreplay/ccreplay/units"
)

// chain is host 0 -> switch A -> switch B -> host 1: A's port 1 (100 Gb/s)
// feeds B's port 0, B's port 1 (25 Gb/s) leads to host 1. Every link has a
// 1 us propagation delay.
type chain struct {
	sim  *kernel.Sim
	pool *fabric.Pool
	a, b *switchmodel.Switch
	h0   *peer
	h1   *peer
}

func newChain(t *testing.T, intOn bool) *chain {
	t.Helper()
	cfg := switchmodel.Config{BufferBytes: 10 * units.MB, INT: intOn}
	c := &chain{sim: kernel.NewSim(1), pool: &fabric.Pool{}}
	c.h0, c.h1 = &peer{pool: c.pool}, &peer{pool: c.pool}
	c.a = switchmodel.New(c.sim, c.pool, portPerHost{}, nil, 10, cfg, []switchmodel.PortSpec{
		{Rate: 100 * units.Gbps, Delay: units.Microsecond}, {Rate: 100 * units.Gbps, Delay: units.Microsecond}})
	c.b = switchmodel.New(c.sim, c.pool, portPerHost{}, nil, 11, cfg, []switchmodel.PortSpec{
		{Rate: 100 * units.Gbps, Delay: units.Microsecond}, {Rate: 25 * units.Gbps, Delay: units.Microsecond}})
	c.a.Port(0).Port.SetPeer(c.h0, 0)
	c.a.Port(1).Port.SetPeer(c.b, 0)
	c.b.Port(0).Port.SetPeer(c.a, 1)
	c.b.Port(1).Port.SetPeer(c.h1, 0)
	return c
}

func (c *chain) send(now units.Time, kind fabric.Kind, psn int64) {
	p := c.pool.Get()
	p.Kind, p.Prio, p.Src, p.Dst, p.PSN, p.Size = kind, dataPrio, 0, 1, psn, 1000
	if kind != fabric.Data {
		p.Prio = fabric.ControlPrio
	}
	c.a.Receive(now, p, 0)
}

// INT (HPCC; the observations of FDCC, Zhang 2023): each switch egress
// stamps one hop at dequeue: the queue length left behind the packet, the
// port's cumulative transmitted bytes including this packet, the dequeue
// time and the link rate. Four 1000 B packets reach A at once (the first
// leaves before the others are queued) and cross B, whose link is 4x slower.
func TestINTStampsEveryHopAtDequeue(t *testing.T) {
	c := newChain(t, true)
	for i := int64(0); i < 4; i++ {
		c.send(0, fabric.Data, i)
	}
	c.sim.Run(units.Never)
	if len(c.h1.got) != 4 {
		t.Fatalf("host 1 got %d packets", len(c.h1.got))
	}
	txA := units.TxTime(1000, 100*units.Gbps) // 80 ns
	txB := units.TxTime(1000, 25*units.Gbps)  // 320 ns
	// B: packet i arrives at (i+1)*txA + 1us; B's link is 4x slower, so
	// packet i leaves B at d0 + i*txB where d0 is packet 0's arrival.
	d0 := txA + units.Microsecond
	// Packets 1..3 have all reached B (by d0 + 2*txA) when packet 1 leaves
	// it at d0 + txB.
	const a, b = 100 * units.Gbps, 25 * units.Gbps
	want := [4][2]telemetry.Hop{
		{{QLen: 0, TxBytes: 1000, TS: 0, LinkRate: a}, {QLen: 0, TxBytes: 1000, TS: d0, LinkRate: b}},
		{{QLen: 2000, TxBytes: 2000, TS: txA, LinkRate: a}, {QLen: 2000, TxBytes: 2000, TS: d0 + txB, LinkRate: b}},
		{{QLen: 1000, TxBytes: 3000, TS: 2 * txA, LinkRate: a}, {QLen: 1000, TxBytes: 3000, TS: d0 + 2*txB, LinkRate: b}},
		{{QLen: 0, TxBytes: 4000, TS: 3 * txA, LinkRate: a}, {QLen: 0, TxBytes: 4000, TS: d0 + 3*txB, LinkRate: b}},
	}
	for i, f := range c.h1.got {
		if f.tel == nil || f.tel.N != 2 {
			t.Fatalf("packet %d carries %v hops, want 2", i, f.tel)
		}
		for h := 0; h < 2; h++ {
			if got := f.tel.Hops[h]; got != want[i][h] {
				t.Errorf("packet %d hop %d: %+v, want %+v", i, h, got, want[i][h])
			}
		}
		if f.at != d0+units.Time(i+1)*txB+units.Microsecond {
			t.Errorf("packet %d arrived at %v", i, f.at)
		}
	}
	// Control packets carry no telemetry.
	c.send(c.sim.Now(), fabric.Ack, 9)
	c.sim.Run(units.Never)
	if f := c.h1.got[4]; f.p.Kind != fabric.Ack || f.tel != nil {
		t.Errorf("ACK crossed with telemetry %+v", f.tel)
	}
	if c.pool.Live != 0 {
		t.Errorf("pool.Live=%d", c.pool.Live)
	}
}

// With INT off, nothing is stamped.
func TestINTOffStampsNothing(t *testing.T) {
	c := newChain(t, false)
	c.send(0, fabric.Data, 0)
	c.sim.Run(units.Never)
	if len(c.h1.got) != 1 || c.h1.got[0].tel != nil {
		t.Fatalf("INT off: %d arrivals, telemetry %+v", len(c.h1.got), c.h1.got[0].tel)
	}
}

// The stack holds at most telemetry.MaxHops entries: further switches leave
// it alone.
func TestINTStackIsBounded(t *testing.T) {
	r := newRig(t, switchmodel.Config{BufferBytes: units.MB, INT: true}, ports(2, 100*units.Gbps, 0)...)
	p := r.data(0, 1, 0, 1000)
	p.Tel = r.pool.GetTel()
	p.Tel.N = telemetry.MaxHops
	r.sw.Receive(0, p, 0)
	r.sim.Run(units.Never)
	if f := r.peers[1].got[0]; f.tel == nil || f.tel.N != telemetry.MaxHops {
		t.Fatalf("full stack became %+v", f.tel)
	}
}

// With INTQLenUnit and INTBytesUnit, a hop carries the queue length and
// the byte counter rounded down to those units, as the HPCC ns-3
// simulator's IntHop::Set stores them (qlen / (80 * INT_MULTI) in a 17-bit
// field, bytes / (128 * INT_MULTI)). Units of 320 and 512 bytes on the
// packets of TestINTStampsEveryHopAtDequeue: queue 2000 -> 1920, 1000 ->
// 960; bytes 1000 -> 512, 2000 -> 1536, 3000 -> 2560, 4000 -> 3584. A
// queue of 2^17 units or more wraps as the field does.
func TestINTRounding(t *testing.T) {
	c := newChain(t, true)
	for _, sw := range []*switchmodel.Switch{c.a, c.b} {
		sw.SetINTUnits(320, 512)
	}
	for i := int64(0); i < 4; i++ {
		c.send(0, fabric.Data, i)
	}
	c.sim.Run(units.Never)
	wantQ := [4]units.Bytes{0, 1920, 960, 0}
	wantB := [4]units.Bytes{512, 1536, 2560, 3584}
	for i, f := range c.h1.got {
		for h := 0; h < 2; h++ {
			if got := f.tel.Hops[h]; got.QLen != wantQ[i] || got.TxBytes != wantB[i] {
				t.Errorf("packet %d hop %d: qlen %d bytes %d, want %d and %d", i, h, got.QLen, got.TxBytes, wantQ[i], wantB[i])
			}
		}
	}
	if got := switchmodel.RoundINTQLen(switchmodel.INTQLenFieldUnits*80+160, 80); got != 160/80*80 {
		t.Errorf("a queue of 2^17 units + 160 B reads %d, want it wrapped to 160", got)
	}
}
