package conformance_test

import (
	"github.com/ccreplay/ccreplay/cca"
	"github.com/ccreplay/ccreplay/telemetry"
	"github.com/ccreplay/ccreplay/units"
)

// burst is a train of back-to-back packets the model sends at once and
// that one ACK acknowledges (as a NIC coalescing ACKs would).
type burst struct {
	sent, arrive units.Time
	bytes        units.Bytes
	ece          bool
	hop          telemetry.Hop
	done         bool // the last bytes of a message
	msg          cca.MessageInfo
	first        units.Time // the message's first transmission
}

// flow is an open-loop model of one flow through one bottleneck of the
// flow's line rate. The sender paces bursts of up to burstPkts packets at
// the algorithm's rate within its window; the receiver acknowledges each
// burst one RTT later, in order. While the bottleneck is congested it
// holds a standing queue of queue bytes: every ACK echoes CE, the RTT
// carries the queue's delay, INT (when the spec asks for it) reports the
// queue and a saturated link, and the receiver sends a CNP per CNP
// interval. Otherwise the RTT is the base RTT and nothing is marked.
type flow struct {
	a    cca.Algorithm
	spec cca.Spec
	info cca.FlowInfo
	now  units.Time

	congested bool
	queue     units.Bytes

	lastSend  units.Time  // when the last burst was sent
	lastBytes units.Bytes // its size
	inflight  units.Bytes
	q         []burst
	head      int
	lastArr   units.Time
	lastCNP   units.Time
	cnpGap    units.Time

	txBytes units.Bytes // INT: bytes the bottleneck has sent
	lastTx  units.Time

	prober   cca.RTTProber
	probeOut bool
	probeAt  units.Time
	probeRTT units.Time

	msgs     cca.MessageObserver
	msgID    int64
	msgLeft  units.Bytes
	msgFirst units.Time

	ack cca.Ack // reused, as the NIC does

	// area is the integral of the effective rate (bits) since mark.
	area      float64
	mark      units.Time
	lastEvent units.Time
}

const (
	burstPkts = 4
	msgBytes  = 16 * units.KB
)

func newFlow(spec cca.Spec, info cca.FlowInfo) *flow {
	f := &flow{a: spec.New(), spec: spec, info: info, cnpGap: spec.CNPInterval, lastCNP: -units.Second}
	if f.cnpGap == 0 {
		f.cnpGap = 50 * units.Microsecond // the NIC's default
	}
	f.a.Start(0, info)
	if p, ok := f.a.(cca.RTTProber); ok && p.ProbesRTT() {
		f.prober = p
	}
	f.msgs, _ = f.a.(cca.MessageObserver)
	return f
}

// rtt is the round trip of a packet sent now.
func (f *flow) rtt() units.Time {
	if f.congested {
		return f.info.BaseRTT + units.TxTime(f.queue, f.info.LineRate)
	}
	return f.info.BaseRTT
}

// effective is the rate the flow can send at: the pacing rate, capped by
// window/RTT when there is a window.
func (f *flow) effective() float64 {
	r := float64(f.a.Rate())
	if w := f.a.Window(); w > 0 {
		r = min(r, float64(w)*8/f.rtt().Seconds())
	}
	return r
}

// meanRate is the time-average effective rate since the last reset.
func (f *flow) meanRate() float64 {
	if f.now == f.mark {
		return f.effective()
	}
	return f.area / (f.now - f.mark).Seconds()
}

func (f *flow) resetMean() { f.area, f.mark = 0, f.now }

// run processes events until the simulated time until; after each event
// it calls check (which may be nil).
func (f *flow) run(until units.Time, check func()) {
	for {
		t, kind := until, 0
		if at := f.a.NextTimer(); at < t {
			t, kind = at, 1
		}
		if f.head < len(f.q) && f.q[f.head].arrive < t {
			t, kind = f.q[f.head].arrive, 2
		}
		if f.probeOut && f.probeAt < t {
			t, kind = f.probeAt, 3
		}
		// NB: the pacing gap follows the current rate, as a NIC re-times
		// its next packet when the rate changes (the HPCC simulator's
		// UpdateNextAvail): a burst sent at the floor rate does not hold
		// the flow back after the rate has recovered.
		if at := max(f.lastSend+units.TxTime(f.lastBytes, max(f.a.Rate(), 1)), f.now); f.canSend() && at < t {
			t, kind = at, 4
		}
		f.area += f.effective() * (t - f.lastEvent).Seconds()
		f.now, f.lastEvent = t, t
		switch kind {
		case 0:
			return
		case 1:
			f.a.OnTimer(t)
		case 2:
			f.onAck()
		case 3:
			f.probeOut = false
			f.prober.OnRTT(t, f.probeRTT)
		case 4:
			f.send()
		}
		if check != nil {
			check()
		}
	}
}

func (f *flow) canSend() bool {
	w := f.a.Window()
	return w == 0 || f.inflight == 0 || f.inflight+f.info.MTU <= w
}

func (f *flow) send() {
	b := burstPkts * f.info.MTU
	if w := f.a.Window(); w > 0 {
		b = min(b, max(f.info.MTU, (w-f.inflight)/f.info.MTU*f.info.MTU))
	}
	var done bool
	var msg cca.MessageInfo
	if f.msgs != nil {
		if f.msgLeft == 0 {
			f.msgID++
			f.msgLeft, f.msgFirst = msgBytes, f.now
			f.msgs.OnMessageStart(f.now, cca.MessageInfo{ID: f.msgID, Bytes: msgBytes, Release: f.now})
		}
		b = min(b, f.msgLeft)
		f.msgLeft -= b
		done, msg = f.msgLeft == 0, cca.MessageInfo{ID: f.msgID, Bytes: msgBytes}
	}
	f.a.OnSend(f.now, b)
	rtt := f.rtt()
	x := burst{sent: f.now, arrive: max(f.now+rtt, f.lastArr), bytes: b, ece: f.congested, done: done, msg: msg, first: f.msgFirst}
	f.lastArr = x.arrive
	if f.spec.NeedsINT {
		if f.congested {
			f.txBytes += units.BytesIn(f.now-f.lastTx, f.info.LineRate)
			x.hop.QLen = f.queue
		} else {
			f.txBytes += b
		}
		f.lastTx = f.now
		x.hop.TxBytes, x.hop.TS, x.hop.LinkRate = f.txBytes, f.now, f.info.LineRate
	}
	f.q = append(f.q, x)
	f.inflight += b
	if f.prober != nil && !f.probeOut {
		f.probeOut, f.probeAt, f.probeRTT = true, x.arrive, x.arrive-f.now
	}
	f.lastSend, f.lastBytes = f.now, b
}

func (f *flow) onAck() {
	x := f.q[f.head]
	f.head++
	if f.head > 1024 && f.head*2 > len(f.q) {
		f.q, f.head = append(f.q[:0], f.q[f.head:]...), 0
	}
	f.inflight -= x.bytes
	a := &f.ack
	*a = cca.Ack{AckedBytes: x.bytes, RTT: f.now - x.sent, ECE: x.ece}
	if f.spec.NeedsINT {
		a.NumHops, a.Hops[0] = 1, x.hop
	}
	if x.done {
		a.MessageDone, a.MsgID, a.MsgBytes, a.MsgRelease, a.MsgFirstTx = true, x.msg.ID, x.msg.Bytes, x.first, x.first
	}
	f.a.OnAck(f.now, a)
	if x.ece && f.now-f.lastCNP >= f.cnpGap {
		f.lastCNP = f.now
		f.a.OnCNP(f.now)
	}
}
