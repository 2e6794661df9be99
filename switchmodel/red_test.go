package switchmodel_test

import (
	"math"
	"testing"

	"github.com/ccreplay/ccreplay/fabric"
	"github.com/ccreplay/ccreplay/switchmodel"
	"github.com/ccreplay/ccreplay/units"
)

// RED (CC-NetCalc, Lehal 2024, Section V, DCQCN's marking at the congestion
// point): no marking at or below Kmin, Pmax*(q-Kmin)/(Kmax-Kmin) up to Kmax,
// always above Kmax.
func TestMarkProbabilityTable(t *testing.T) {
	const kmin, kmax = 5 * units.KB, 200 * units.KB
	for _, tc := range []struct {
		q    units.Bytes
		pmax float64
		want float64
	}{
		{0, 0.01, 0},
		{kmin - 1, 0.01, 0},
		{kmin, 0.01, 0}, // "at or below Kmin"
		{kmin + 1, 0.01, 0.01 * 1 / 195000},
		{kmin + 97500, 0.01, 0.005}, // half way
		{kmin + 97500, 0.5, 0.25},
		{kmax - 1, 1, 194999.0 / 195000},
		{kmax, 0.01, 0.01}, // at Kmax: Pmax, not 1
		{kmax, 1, 1},
		{kmax + 1, 0.01, 1}, // above Kmax: always
		{10 * kmax, 0, 1},
	} {
		got := switchmodel.MarkProbability(tc.q, kmin, kmax, tc.pmax)
		if math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("MarkProbability(q=%d, pmax=%g) = %g, want %g", tc.q, tc.pmax, got, tc.want)
		}
	}
	// Kmin == Kmax is a step: nothing at the threshold, everything above.
	if p := switchmodel.MarkProbability(100, 100, 100, 0.3); p != 0 {
		t.Errorf("step RED at threshold: %g, want 0", p)
	}
	if p := switchmodel.MarkProbability(101, 100, 100, 0.3); p != 1 {
		t.Errorf("step RED above threshold: %g, want 1", p)
	}
}

// red is the formula written out again, independent of the package.
func red(q, kmin, kmax units.Bytes, pmax float64) float64 {
	switch {
	case q <= kmin:
		return 0
	case q > kmax:
		return 1
	}
	return pmax * float64(q-kmin) / float64(kmax-kmin)
}

// markRig is a switch whose egress toward host 1 is paused for the data
// priority, so that its queue only grows, plus helpers to hold the queue at
// a fixed depth.
type markRig struct {
	*rig
	now units.Time
}

func newMarkRig(t *testing.T, ecn switchmodel.ECNConfig, rate units.BitsPerSec) *markRig {
	cfg := switchmodel.Config{BufferBytes: 100 * units.MB, ECN: ecn}
	m := &markRig{rig: newRig(t, cfg, ports(2, rate, units.Microsecond)...)}
	m.pfc(0, 1, dataPrio, true)
	return m
}

// fill grows the paused queue toward host 1 to depth q with packets of
// size bytes.
func (m *markRig) fill(t *testing.T, q, size units.Bytes) {
	t.Helper()
	e := m.sw.Port(1)
	for e.QueueBytes(dataPrio) < q {
		m.sw.Receive(m.now, m.data(0, 1, -1, size), 0)
	}
	if got := e.QueueBytes(dataPrio); got != q {
		t.Fatalf("filled queue to %d B, want %d (sizes must divide)", got, q)
	}
}

// trial sends one packet of size bytes into the queue, then lets the port
// send exactly one packet (the head) by a RESUME immediately followed by a
// PAUSE, so that the depth returns to where it was. It reports the
// packet's depth at enqueue and whether it was marked.
func (m *markRig) trial(t *testing.T, size units.Bytes, mark func(p *fabric.Packet)) {
	p := m.data(0, 1, 0, size)
	m.sw.Receive(m.now, p, 0)
	mark(p) // p sits in the paused queue: still ours to read
	m.pfc(m.now, 1, dataPrio, false)
	m.pfc(m.now, 1, dataPrio, true)
	m.now = m.sim.Run(units.Never)
}

// The measured marking frequency at a fixed egress queue depth matches
// RED's probability within 4 binomial standard deviations, with exact 0 at
// and below Kmin and exact 1 above Kmax. The queue is held at depth q by
// pausing the egress, filling it, then for each trial enqueueing one packet
// and releasing one.
func TestREDMarkingFrequencyAtFixedDepth(t *testing.T) {
	const (
		kmin   = 10 * units.KB
		kmax   = 50 * units.KB
		pmax   = 0.8
		size   = 500
		trials = 2000
	)
	m := newMarkRig(t, switchmodel.ECNConfig{Enabled: true, KminBytes: kmin, KmaxBytes: kmax, Pmax: pmax}, 100*units.Gbps)
	e := m.sw.Port(1)
	for _, q := range []units.Bytes{0, 5000, kmin, kmin + size, 20000, 30000, 40000, kmax, kmax + size, 80000} {
		m.fill(t, q, size)
		before := e.MarkedPkts
		marks := 0
		for i := 0; i < trials; i++ {
			m.trial(t, size, func(p *fabric.Packet) {
				if p.QDepth != q {
					t.Fatalf("q=%d: packet saw depth %d at enqueue", q, p.QDepth)
				}
				if p.CE {
					marks++
				}
			})
			if got := e.QueueBytes(dataPrio); got != q {
				t.Fatalf("q=%d: depth drifted to %d", q, got)
			}
		}
		if got := e.MarkedPkts - before; got != int64(marks) {
			t.Errorf("q=%d: MarkedPkts grew by %d, %d packets were marked", q, got, marks)
		}
		p := red(q, kmin, kmax, pmax)
		mean := trials * p
		sd := math.Sqrt(trials * p * (1 - p))
		t.Logf("q=%6d: marked %4d/%d, RED expects %.1f (sd %.1f)", q, marks, trials, mean, sd)
		if math.Abs(float64(marks)-mean) > 4*sd {
			t.Errorf("q=%d: marked %d of %d, RED probability %.4f expects %.1f +- %.1f (4 sd)",
				q, marks, trials, p, mean, 4*sd)
		}
	}
	if m.pool.Live != 80000/size {
		t.Errorf("pool.Live=%d, want %d queued packets", m.pool.Live, 80000/size)
	}
}

// ECNConfig.Thresholds scales Kmin and Kmax linearly with the port rate
// when RefRate is set, and leaves them alone when it is not.
func TestECNThresholdsScaleWithRate(t *testing.T) {
	c := switchmodel.ECNConfig{Enabled: true, KminBytes: 5 * units.KB, KmaxBytes: 200 * units.KB, Pmax: 0.01}
	for _, r := range []units.BitsPerSec{10 * units.Gbps, 100 * units.Gbps} {
		if kmin, kmax := c.Thresholds(r); kmin != 5*units.KB || kmax != 200*units.KB {
			t.Errorf("RefRate 0 at %v: %d/%d, want unscaled", r, kmin, kmax)
		}
	}
	c.RefRate = 25 * units.Gbps
	for _, tc := range []struct {
		rate       units.BitsPerSec
		kmin, kmax units.Bytes
	}{
		{25 * units.Gbps, 5000, 200000},
		{10 * units.Gbps, 2000, 80000},
		{100 * units.Gbps, 20000, 800000},
		{400 * units.Gbps, 80000, 3200000},
		{40 * units.Gbps, 8000, 320000},
	} {
		if kmin, kmax := c.Thresholds(tc.rate); kmin != tc.kmin || kmax != tc.kmax {
			t.Errorf("RefRate 25G at %v: %d/%d, want %d/%d", tc.rate, kmin, kmax, tc.kmin, tc.kmax)
		}
	}
}

// A switch applies the scaled thresholds: with Kmin 5 kB / Kmax 200 kB
// given for 25 Gb/s, a 100 Gb/s port uses 20 kB / 800 kB. Unscaled RED
// would mark at 15 kB (p = 2.6 %) and always at 300 kB; scaled RED never
// marks at 15 kB, marks with p = 0.5*280/780 at 300 kB and always above
// 800 kB.
func TestSwitchUsesRateScaledThresholds(t *testing.T) {
	ecn := switchmodel.ECNConfig{Enabled: true, KminBytes: 5 * units.KB, KmaxBytes: 200 * units.KB, Pmax: 0.5, RefRate: 25 * units.Gbps}
	for _, tc := range []struct {
		q      units.Bytes
		trials int
	}{{15 * units.KB, 2000}, {300 * units.KB, 1000}, {800*units.KB + 500, 300}} {
		m := newMarkRig(t, ecn, 100*units.Gbps)
		m.fill(t, tc.q, 500)
		marks := 0
		for i := 0; i < tc.trials; i++ {
			m.trial(t, 500, func(p *fabric.Packet) {
				if p.CE {
					marks++
				}
			})
		}
		p := red(tc.q, 20*units.KB, 800*units.KB, 0.5)
		mean, sd := float64(tc.trials)*p, math.Sqrt(float64(tc.trials)*p*(1-p))
		if math.Abs(float64(marks)-mean) > 4*sd {
			t.Errorf("100G port at %d B: marked %d/%d, RED with scaled thresholds expects %.1f +- %.1f",
				tc.q, marks, tc.trials, mean, 4*sd)
		}
	}
}

// With marking disabled nothing is marked however deep the queue.
func TestECNDisabledMarksNothing(t *testing.T) {
	m := newMarkRig(t, switchmodel.ECNConfig{Enabled: false, KminBytes: 0, KmaxBytes: 0, Pmax: 1}, 100*units.Gbps)
	for i := 0; i < 500; i++ {
		p := m.data(0, 1, int64(i), 1000)
		m.sw.Receive(0, p, 0)
		if p.CE {
			t.Fatalf("packet %d marked with ECN disabled", i)
		}
	}
	if n := m.sw.Port(1).MarkedPkts; n != 0 {
		t.Fatalf("MarkedPkts=%d with ECN disabled", n)
	}
}

// Only data packets are marked, a packet that already carries CE is not
// counted again, and the depth that matters is the packet's own priority
// queue at its egress (the HPCC simulator's per-queue RED).
func TestECNMarksOnlyUnmarkedDataAtItsQueue(t *testing.T) {
	m := newMarkRig(t, switchmodel.ECNConfig{Enabled: true, KminBytes: 0, KmaxBytes: 0, Pmax: 1}, 100*units.Gbps)
	m.pfc(0, 1, fabric.ControlPrio, true) // keep ACKs queued too
	e := m.sw.Port(1)
	m.fill(t, 10*units.KB, 1000) // the first one (depth 0) is not marked
	if e.MarkedPkts != 9 {
		t.Fatalf("MarkedPkts=%d after 10 packets with Kmin=Kmax=0, want 9", e.MarkedPkts)
	}

	pre := m.data(0, 1, 0, 1000)
	pre.CE = true
	m.sw.Receive(0, pre, 0)
	if !pre.CE || e.MarkedPkts != 9 {
		t.Errorf("already-CE packet: CE=%v MarkedPkts=%d, want true and 9 (not re-counted)", pre.CE, e.MarkedPkts)
	}

	for i := 0; i < 5; i++ { // ACKs: a deep control queue marks nothing
		a := m.ctrl(0, 1, 1000)
		m.sw.Receive(0, a, 0)
		if a.CE {
			t.Fatalf("control packet marked at control depth %d", e.QueueBytes(fabric.ControlPrio))
		}
	}
	if e.MarkedPkts != 9 {
		t.Errorf("MarkedPkts=%d after ACKs, want 9", e.MarkedPkts)
	}

	// Another priority's queue is empty: its first packet is not marked.
	other := m.data(0, 1, 0, 1000)
	other.Prio = 5
	m.sw.Receive(0, other, 0)
	if other.CE || other.QDepth != 0 {
		t.Errorf("first packet of an empty priority-5 queue: CE=%v depth=%d", other.CE, other.QDepth)
	}
}

// While the paused queue grows through a wide [Kmin, Kmax], each packet's
// mark is drawn with RED's probability at the depth it saw at enqueue
// (p.QDepth): binned by depth, the marking frequency matches the formula
// averaged over the bin within 4 binomial standard deviations.
func TestREDMarkingWhileQueueGrows(t *testing.T) {
	const (
		kmin = 100 * units.KB
		kmax = 10 * units.MB
		pmax = 0.5
		bin  = units.MB
	)
	m := newMarkRig(t, switchmodel.ECNConfig{Enabled: true, KminBytes: kmin, KmaxBytes: kmax, Pmax: pmax}, 100*units.Gbps)
	type acc struct {
		n, marks int
		sumP     float64
		sumPQ    float64 // sum of p(1-p): variance of a sum of Bernoullis
	}
	bins := make([]acc, 12)
	for i := 0; m.sw.Port(1).QueueBytes(dataPrio) < 12*units.MB; i++ {
		size := units.Bytes(64 + (i*7919)%1437) // varied sizes: depths off the 1000 B grid
		p := m.data(0, 1, int64(i), size)
		depth := m.sw.Port(1).QueueBytes(dataPrio)
		m.sw.Receive(0, p, 0)
		if p.QDepth != depth {
			t.Fatalf("packet %d: QDepth=%d, queue held %d before it", i, p.QDepth, depth)
		}
		b := &bins[depth/bin]
		pr := red(depth, kmin, kmax, pmax)
		b.n++
		b.sumP += pr
		b.sumPQ += pr * (1 - pr)
		if p.CE {
			b.marks++
		}
	}
	for i, b := range bins {
		sd := math.Sqrt(b.sumPQ)
		if math.Abs(float64(b.marks)-b.sumP) > 4*sd {
			t.Errorf("depth bin [%d, %d) MB: %d of %d marked, RED expects %.1f +- %.1f (4 sd)",
				i, i+1, b.marks, b.n, b.sumP, 4*sd)
		}
	}
	if got, want := m.sw.Port(1).MarkedPkts, int64(sumMarks(bins, func(b acc) int { return b.marks })); got != want {
		t.Errorf("MarkedPkts=%d, counted %d marked packets", got, want)
	}
}

func sumMarks[T any](xs []T, f func(T) int) int {
	s := 0
	for _, x := range xs {
		s += f(x)
	}
	return s
}

// ECN.AtDequeue marks as the packet leaves, by the bytes queued behind it
// (the HPCC ns-3 simulator's SwitchNode::SwitchNotifyDequeue calls
// SwitchMmu::ShouldSendCN after removing the packet from its egress
// count). Ten 1000 B packets wait in a paused queue with Kmin = Kmax =
// 4500 B: none is marked on arrival; on the way out the first five leave
// 9000..5000 B behind and are marked, the last five (4000..0 B) are not.
func TestECNAtDequeue(t *testing.T) {
	m := newMarkRig(t, switchmodel.ECNConfig{Enabled: true, KminBytes: 4500, KmaxBytes: 4500, Pmax: 1, AtDequeue: true}, 100*units.Gbps)
	for i := range 10 {
		p := m.data(0, 1, int64(i), 1000)
		m.sw.Receive(m.now, p, 0)
		if p.CE {
			t.Fatalf("packet %d marked on arrival", i)
		}
	}
	m.pfc(m.now, 1, dataPrio, false)
	m.sim.Run(units.Never)
	got := m.peers[1].got
	if len(got) != 10 {
		t.Fatalf("delivered %d packets", len(got))
	}
	for i, p := range got {
		if want := i < 5; p.p.CE != want {
			t.Errorf("packet %d: CE=%v, want %v (%d B behind it)", i, p.p.CE, want, (9-i)*1000)
		}
	}
	if e := m.sw.Port(1); e.MarkedPkts != 5 {
		t.Errorf("MarkedPkts=%d, want 5", e.MarkedPkts)
	}
}
