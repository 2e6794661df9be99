package fabric_test

import (
	"math/rand/v2"
	"testing"

	"github.com/ccreplay/ccreplay/fabric"
	"github.com/ccreplay/ccreplay/kernel"
	"github.com/ccreplay/ccreplay/units"
)

// The ring is a FIFO: whatever interleaving of pushes and pops, including
// growth while the head has wrapped around, items come out in the order
// they went in, and At(i) is the i-th item from the head.
func TestRingFIFOAcrossGrowth(t *testing.T) {
	var r fabric.Ring[int]
	var model []int
	rng := rand.New(rand.NewPCG(1, 2))
	next := 0
	for step := 0; step < 20000; step++ {
		// Bias toward pushes early so the ring grows several times with a
		// non-zero head, then toward pops so it drains.
		push := rng.IntN(100) < 60
		if step > 15000 {
			push = rng.IntN(100) < 30
		}
		if push || len(model) == 0 {
			r.Push(next)
			model = append(model, next)
			next++
		} else {
			if got := *r.Peek(); got != model[0] {
				t.Fatalf("step %d: Peek=%d want %d", step, got, model[0])
			}
			if got := r.Pop(); got != model[0] {
				t.Fatalf("step %d: Pop=%d want %d", step, got, model[0])
			}
			model = model[1:]
		}
		if r.Len() != len(model) {
			t.Fatalf("step %d: Len=%d want %d", step, r.Len(), len(model))
		}
		if step%97 == 0 {
			for i := range model {
				if got := *r.At(i); got != model[i] {
					t.Fatalf("step %d: At(%d)=%d want %d", step, i, got, model[i])
				}
			}
		}
	}
	for len(model) > 0 {
		if got := r.Pop(); got != model[0] {
			t.Fatalf("drain: Pop=%d want %d", got, model[0])
		}
		model = model[1:]
	}
	if r.Len() != 0 {
		t.Fatalf("drained ring has Len %d", r.Len())
	}
}

// Growth exactly when the ring is full with a wrapped head keeps the order
// (the case a naive copy of buf gets wrong).
func TestRingGrowWithWrappedHead(t *testing.T) {
	var r fabric.Ring[int]
	for i := 0; i < 16; i++ { // initial capacity
		r.Push(i)
	}
	for i := 0; i < 10; i++ {
		if r.Pop() != i {
			t.Fatal("order before wrap")
		}
	}
	for i := 16; i < 40; i++ { // wraps, then fills and grows
		r.Push(i)
	}
	for want := 10; want < 40; want++ {
		if got := r.Pop(); got != want {
			t.Fatalf("Pop=%d want %d", got, want)
		}
	}
}

// Pool.Live counts packets out of the pool; Put zeroes the packet and Get
// hands the same memory out again.
func TestPoolRecycles(t *testing.T) {
	var pl fabric.Pool
	a, b := pl.Get(), pl.Get()
	if pl.Live != 2 {
		t.Fatalf("Live=%d after 2 Gets, want 2", pl.Live)
	}
	a.Kind, a.PSN, a.CE, a.Size = fabric.Ack, 9, true, 60
	pl.Put(a)
	if pl.Live != 1 {
		t.Fatalf("Live=%d after Put, want 1", pl.Live)
	}
	c := pl.Get()
	if c != a {
		t.Fatal("Get after Put did not recycle the returned packet")
	}
	if *c != (fabric.Packet{}) {
		t.Fatalf("recycled packet not zeroed: %+v", *c)
	}
	pl.Put(b)
	pl.Put(c)
	if pl.Live != 0 {
		t.Fatalf("Live=%d after returning everything, want 0", pl.Live)
	}
}

// One text form per packet, the same in logs, test expectations and error
// messages.
func TestPacketString(t *testing.T) {
	for _, tc := range []struct {
		p    fabric.Packet
		want string
	}{
		{fabric.Packet{Kind: fabric.Data, Src: 3, Dst: 7, Flow: 5, PSN: 118, CE: true, Size: 1048}, "h3->h7 DATA flow=5 psn=118 CE 1048B"},
		{fabric.Packet{Kind: fabric.Data, Src: 3, Dst: 7, Flow: 5, PSN: 118, Size: 1048}, "h3->h7 DATA flow=5 psn=118 1048B"},
		{fabric.Packet{Kind: fabric.Ack, Src: 7, Dst: 3, Flow: 5, PSN: 119, Size: 60}, "h7->h3 ACK flow=5 psn=119 60B"},
		{fabric.Packet{Kind: fabric.Pause, PausePrio: 3, Size: 64}, "PAUSE prio=3 64B"},
		{fabric.Packet{Kind: fabric.Resume, PausePrio: 3, Size: 64}, "RESUME prio=3 64B"},
	} {
		if got := tc.p.String(); got != tc.want {
			t.Errorf("String()=%q want %q", got, tc.want)
		}
	}
	if got := fabric.Kind(42).String(); got != "kind(42)" {
		t.Errorf("unknown kind: %q", got)
	}
}

// ---- port ----

// queueSource hands out queued packets, each not before its ready time,
// and records when the transmitter asked.
type queueSource struct {
	pkts  []*fabric.Packet
	ready []units.Time
	asks  []units.Time
}

func (s *queueSource) Dequeue(now units.Time) (*fabric.Packet, units.Time) {
	s.asks = append(s.asks, now)
	if len(s.pkts) == 0 {
		return nil, units.Never
	}
	if s.ready[0] > now {
		return nil, s.ready[0]
	}
	p := s.pkts[0]
	s.pkts, s.ready = s.pkts[1:], s.ready[1:]
	return p, 0
}

func (s *queueSource) add(p *fabric.Packet, ready units.Time) {
	s.pkts = append(s.pkts, p)
	s.ready = append(s.ready, ready)
}

type arrival struct {
	at     units.Time
	psn    int64
	inPort int32
}

type sink struct {
	pool *fabric.Pool
	got  []arrival
}

func (k *sink) Receive(now units.Time, p *fabric.Packet, inPort int32) {
	k.got = append(k.got, arrival{now, p.PSN, inPort})
	k.pool.Put(p)
}

func newPort(rate units.BitsPerSec, delay units.Time) (*kernel.Sim, *fabric.Pool, *queueSource, *sink, *fabric.Port) {
	sim := kernel.NewSim(1)
	pool := &fabric.Pool{}
	src := &queueSource{}
	dst := &sink{pool: pool}
	pt := fabric.NewPort(sim, 4, 2, rate, delay, src, dst, 7)
	return sim, pool, src, dst, pt
}

func pkt(pool *fabric.Pool, psn int64, size units.Bytes) *fabric.Packet {
	p := pool.Get()
	p.Kind, p.PSN, p.Size = fabric.Data, psn, size
	return p
}

// Store and forward at line rate (fabric/port.go): back-to-back packets
// start exactly one serialization time apart, each arrives Delay after its
// last bit left, in order, on the peer's port, and the counters add up.
func TestPortSerializesBackToBack(t *testing.T) {
	const rate = 25 * units.Gbps
	const delay = 1500 * units.Nanosecond
	sim, pool, src, dst, pt := newPort(rate, delay)
	sizes := []units.Bytes{1048, 64, 1500, 1, 9000, 1048, 333}
	for i, s := range sizes {
		src.add(pkt(pool, int64(i), s), 0)
	}
	pt.Kick(0)
	if !pt.Busy(0) {
		t.Fatal("port idle after a Kick with packets ready")
	}
	inflight := 0
	pt.InFlight(func(*fabric.Packet) { inflight++ })
	if inflight != 1 {
		t.Fatalf("InFlight=%d right after the first Kick, want 1", inflight)
	}
	sim.Run(units.Never)

	if len(dst.got) != len(sizes) {
		t.Fatalf("delivered %d packets, want %d", len(dst.got), len(sizes))
	}
	var end units.Time
	var total int64
	for i, s := range sizes {
		end += units.TxTime(s, rate)
		total += int64(s)
		a := dst.got[i]
		if a.psn != int64(i) || a.at != end+delay || a.inPort != 7 {
			t.Errorf("packet %d: arrived psn=%d at %v on port %d, want psn=%d at %v on port 7",
				i, a.psn, a.at, a.inPort, i, end+delay)
		}
	}
	if pt.TxPkts != int64(len(sizes)) || pt.TxBytes != total || pt.TxDataBytes != total {
		t.Errorf("counters TxPkts=%d TxBytes=%d TxDataBytes=%d, want %d %d %d",
			pt.TxPkts, pt.TxBytes, pt.TxDataBytes, len(sizes), total, total)
	}
	if pt.Busy(end) || !pt.Busy(end-1) || pt.BusyUntil != end {
		t.Errorf("after the run BusyUntil=%v, want %v", pt.BusyUntil, end)
	}
	if pool.Live != 0 {
		t.Errorf("pool.Live=%d after delivery, want 0", pool.Live)
	}
}

// recordingSource wraps a source and checks that the transmitter never
// takes a packet while the previous one is still being serialized.
type overlapCheck struct {
	queueSource
	rate    units.BitsPerSec
	freeAt  units.Time
	overlap []units.Time
}

func (s *overlapCheck) Dequeue(now units.Time) (*fabric.Packet, units.Time) {
	p, w := s.queueSource.Dequeue(now)
	if p != nil {
		if now < s.freeAt {
			s.overlap = append(s.overlap, now)
		}
		s.freeAt = now + units.TxTime(p.Size, s.rate)
	}
	return p, w
}

// Kicks at random times while packets trickle in never make the port
// start a packet before the previous one is fully serialized; each packet
// starts at max(ready, previous end).
func TestPortNeverOverlapsUnderKicks(t *testing.T) {
	const rate = 10 * units.Gbps
	sim := kernel.NewSim(3)
	pool := &fabric.Pool{}
	src := &overlapCheck{rate: rate}
	dst := &sink{pool: pool}
	pt := fabric.NewPort(sim, 0, 0, rate, 100*units.Nanosecond, src, dst, 0)
	rng := rand.New(rand.NewPCG(5, 6))
	var ready units.Time
	var want []units.Time // arrival times
	var end units.Time
	for i := 0; i < 300; i++ {
		ready += units.Time(rng.IntN(2000)) * units.Nanosecond / 10
		size := units.Bytes(64 + rng.IntN(1500))
		src.add(pkt(pool, int64(i), size), ready)
		start := max(ready, end)
		end = start + units.TxTime(size, rate)
		want = append(want, end+100*units.Nanosecond)
	}
	// Kick at each packet's ready time, plus random spurious kicks. The
	// source's wake-up times alone would do; kicks must not disturb them.
	kick := func(now units.Time) { pt.Kick(now) }
	for i := range src.ready {
		at(sim, src.ready[i], kick)
		at(sim, units.Time(rng.Int64N(int64(end))), kick)
	}
	sim.Run(units.Never)
	if len(src.overlap) > 0 {
		t.Fatalf("transmitter started %d packets while busy, first at %v", len(src.overlap), src.overlap[0])
	}
	if len(dst.got) != len(want) {
		t.Fatalf("delivered %d, want %d", len(dst.got), len(want))
	}
	for i := range want {
		if dst.got[i].at != want[i] || dst.got[i].psn != int64(i) {
			t.Fatalf("packet %d arrived psn=%d at %v, want psn=%d at %v", i, dst.got[i].psn, dst.got[i].at, i, want[i])
		}
	}
}

// A Kick while a packet is being serialized does not even ask the source.
func TestPortKickWhileBusyDoesNothing(t *testing.T) {
	const rate = 100 * units.Gbps
	sim, pool, src, _, pt := newPort(rate, units.Microsecond)
	src.add(pkt(pool, 0, 1000), 0)
	src.add(pkt(pool, 1, 1000), 0)
	pt.Kick(0)
	asks := len(src.asks)
	busyUntil := pt.BusyUntil
	pt.Kick(1)
	pt.Kick(busyUntil - 1)
	if len(src.asks) != asks || pt.TxPkts != 1 || pt.BusyUntil != busyUntil {
		t.Fatalf("Kick while busy: asks %d->%d, TxPkts=%d, BusyUntil %v->%v",
			asks, len(src.asks), pt.TxPkts, busyUntil, pt.BusyUntil)
	}
	sim.Run(units.Never)
	if pt.TxPkts != 2 {
		t.Fatalf("TxPkts=%d, want 2", pt.TxPkts)
	}
}

// A source that says "nothing now, ask again at T" is asked again at T
// without any Kick, and the packet leaves then.
func TestPortRetriesAtWakeTime(t *testing.T) {
	const rate = 40 * units.Gbps
	const delay = 2 * units.Microsecond
	sim, pool, src, dst, pt := newPort(rate, delay)
	wake := 7*units.Microsecond + 3
	src.add(pkt(pool, 0, 500), wake)
	pt.Kick(0)
	if pt.Busy(0) {
		t.Fatal("port busy though the source had nothing ready")
	}
	sim.Run(units.Never)
	if len(dst.got) != 1 {
		t.Fatalf("delivered %d packets, want 1", len(dst.got))
	}
	if want := wake + units.TxTime(500, rate) + delay; dst.got[0].at != want {
		t.Fatalf("arrived at %v, want %v (wake + tx + delay)", dst.got[0].at, want)
	}
	if len(src.asks) < 2 || src.asks[0] != 0 || src.asks[1] != wake {
		t.Fatalf("source asked at %v, want at 0 (Kick) then at the wake time %v", src.asks, wake)
	}
}

// A later Kick with an earlier-ready packet sends at the Kick, and the old
// wake-up does not start a second transmission early or twice.
func TestPortKickBeforeWake(t *testing.T) {
	const rate = 10 * units.Gbps
	sim, pool, src, dst, pt := newPort(rate, 0)
	src.add(pkt(pool, 0, 1000), 5*units.Microsecond)
	pt.Kick(0) // arms a wake-up at 5us
	// At 1us a packet that is ready now is put in front.
	at(sim, units.Microsecond, func(now units.Time) {
		src.pkts = append([]*fabric.Packet{pkt(pool, 9, 1000)}, src.pkts...)
		src.ready = append([]units.Time{now}, src.ready...)
		pt.Kick(now)
	})
	sim.Run(units.Never)
	tx := units.TxTime(1000, rate) // 800ns
	want := []arrival{{units.Microsecond + tx, 9, 7}, {5*units.Microsecond + tx, 0, 7}}
	if len(dst.got) != 2 || dst.got[0] != want[0] || dst.got[1] != want[1] {
		t.Fatalf("arrivals %v, want %v", dst.got, want)
	}
}

// fnHandler runs a test action as a simulator event.
type fnHandler func(now units.Time)

func (f fnHandler) Handle(now units.Time, _ uint8, _ int32) { f(now) }

// at schedules fn to run at time t.
func at(sim *kernel.Sim, t units.Time, fn func(now units.Time)) {
	sim.Schedule(t, sim.Register(fnHandler(fn)), 0, 0)
}

// TxStep truncates each serialization to whole steps, as the HPCC ns-3
// simulator's QbbNetDevice::TransmitStart does with Seconds(bits/rate) at
// its 1 ns resolution: 1048 B at 100 Gb/s take 83 ns, not 83.84.
func TestPortTxStep(t *testing.T) {
	sim, pool, src, dst, pt := newPort(100*units.Gbps, units.Microsecond)
	pt.TxStep = units.Nanosecond
	for i := range 3 {
		src.add(pkt(pool, int64(i), 1048), 0)
	}
	pt.Kick(0)
	sim.Run(units.Never)
	for i, a := range dst.got {
		if want := units.Time(i+1)*83*units.Nanosecond + units.Microsecond; a.at != want {
			t.Errorf("packet %d arrived at %v, want %v", i, a.at, want)
		}
	}
}
