package nic

import (
	"slices"

	"github.com/ccreplay/ccreplay/cca"
	"github.com/ccreplay/ccreplay/fabric"
	"github.com/ccreplay/ccreplay/kernel"
	"github.com/ccreplay/ccreplay/units"
)

// Hooks tell the replay about message completions.
type Hooks interface {
	// Delivered: the last byte of m reached the receiver, in order.
	Delivered(now units.Time, f *Flow, m *Message)
	// SenderDone: the ACK completing m reached the sender.
	SenderDone(now units.Time, f *Flow, m *Message)
}

// Counters are the NIC-level byte counts used by conservation checks.
type Counters struct {
	// SentDataBytes are wire bytes of data packets the NIC transmitted,
	// retransmissions included; RecvDataBytes those that reached it.
	SentDataBytes, RecvDataBytes int64
}

// NIC is one host's network interface.
type NIC struct {
	sim   *kernel.Sim
	id    kernel.HandlerID
	pool  *fabric.Pool
	tap   fabric.Tap
	hooks Hooks
	cfg   *Config
	flows []*Flow // the run's flow table, indexed by Flow.ID
	host  int32

	// Port is the NIC's transmitter and link to its switch.
	Port *fabric.Port

	// ctrl holds the packets that go before data, in the order they were
	// queued: ACK, NACK, CNP and RTT responses (class 0, never paused, or
	// ACKs and NACKs in their data class with Config.AckInDataClass) and
	// RTT requests (their flow's data class). A packet whose class is
	// paused when it reaches the head moves to held, so that it neither
	// leaves during the pause nor blocks the class-0 packets behind it.
	ctrl fabric.Ring[*fabric.Packet]
	// held are packets taken out of ctrl while their class was paused,
	// oldest first; they leave ahead of ctrl once it resumes.
	held []*fabric.Packet
	// The data scheduler: flows that may send now wait in ready, in
	// round-robin order; flows held back by pacing wait in pacing until
	// their next send time; flows blocked by their window or a PFC pause
	// are in neither and are woken by an ACK, NACK, timeout, timer or
	// RESUME. Each send costs O(log flows), not a scan of every flow.
	ready       fabric.Ring[*Flow]
	pacing      pacingHeap
	pausedFlows []*Flow // blocked by a PAUSE of their class

	// PauseState is the PFC state of the data classes: PausedTime is how
	// long a data class was PFC-paused, picoseconds; PausesReceived counts
	// PAUSE frames.
	fabric.PauseState
	Counters Counters

	ack cca.Ack // reused for every OnAck call: no allocation per ACK

	// OnQuiet, when set, is called with a flow that has just become
	// quiet (Flow.Quiet) after one of its packets arrived here, or after a
	// RESUME or the send queue let go of it, so that the owner of the flow
	// table may retire it. It reads the other NIC's state: not for a run
	// whose two NICs are simulated at once (replay checks Quiet between
	// windows instead). The NIC does not look up a flow again once
	// OnQuiet has returned unless the owner releases a new message on it.
	OnQuiet func(now units.Time, f *Flow)
	// OnInOrder, when set, is called with the payload bytes each data
	// packet adds to its flow's in-order bytes at this receiver (RxBytes),
	// after they are counted: to know a flow's RxBytes at a past instant.
	OnInOrder func(now units.Time, f *Flow, b units.Bytes)
	// DeferPublish leaves Flow.PublishMessages to the owner of the flow
	// table (a partitioned run); otherwise Release publishes.
	DeferPublish bool
}

// quiet hands f to OnQuiet if it has become quiet.
func (n *NIC) quiet(now units.Time, f *Flow) {
	if n.OnQuiet != nil && f.Quiet() {
		n.OnQuiet(now, f)
	}
}

// New makes host's NIC. flows is the run's shared flow table; the port is
// attached by the caller with SetPort.
func New(sim *kernel.Sim, pool *fabric.Pool, tap fabric.Tap, hooks Hooks, cfg *Config, flows []*Flow, host int32) *NIC {
	n := &NIC{sim: sim, pool: pool, tap: tap, hooks: hooks, cfg: cfg, flows: flows, host: host}
	n.id = sim.RegisterAt(n, host)
	return n
}

// SetPort attaches the NIC's egress port.
func (n *NIC) SetPort(p *fabric.Port) { n.Port = p }

// Host is the NIC's host index.
func (n *NIC) Host() int32 { return n.host }

// QueuedControl calls fn for every control packet waiting to be sent,
// RTT requests held by a PAUSE of their class included.
func (n *NIC) QueuedControl(fn func(*fabric.Packet)) {
	for _, p := range n.held {
		fn(p)
	}
	for i := 0; i < n.ctrl.Len(); i++ {
		fn(*n.ctrl.At(i))
	}
}

// Release adds message m to flow f's send queue at now.
func (n *NIC) Release(now units.Time, f *Flow, m *Message) {
	m.FirstPSN = f.relPSN
	m.NPkts = n.cfg.Packets(m.Bytes)
	m.Release = now
	f.relPSN += m.NPkts
	f.msgs = append(f.msgs, m)
	if !n.DeferPublish {
		f.rxMsgs = f.msgs
	}
	if !f.started {
		f.started = true
		f.Start = now
		f.CC = f.newCC()
		if f.Prio == 0 {
			f.Prio = n.cfg.DataPrio
		}
		f.obs, _ = f.CC.(cca.MessageObserver)
		rtt := f.BaseRTT
		if f.CCBaseRTT > 0 {
			rtt = f.CCBaseRTT
		}
		hops := f.Hops
		if f.CCHops > 0 {
			hops = f.CCHops
		}
		f.CC.Start(now, cca.FlowInfo{LineRate: n.Port.Rate, BaseRTT: rtt, MTU: n.cfg.MTUPayload + n.cfg.HeaderBytes, Hops: hops})
		if pr, ok := f.CC.(cca.RTTProber); ok && pr.ProbesRTT() {
			f.prober = pr
		}
		f.window = n.cfg.Window
		if n.cfg.WindowBDP {
			f.window = units.BytesIn(rtt, n.Port.Rate)
		}
	}
	if !f.Outstanding() || f.una == m.FirstPSN {
		f.lastProgress = now
	}
	n.wake(now, f)
	n.rearm(now, f)
	n.Port.Kick(now)
}

// unblock requeues a flow that waits for its window, once it may send. A
// flow whose window opens while its class is paused waits for the RESUME
// instead: it joins pausedFlows, which setPaused wakes. (It once stayed
// blocked for good when the ACKs that opened its window all came during a
// pause: no later ACK unblocked it and the RESUME did not know it.)
func (n *NIC) unblock(now units.Time, f *Flow) {
	if f.sched != schedBlocked || !n.windowOpen(f) {
		return
	}
	if n.ClassPaused(f.Prio) {
		n.holdForResume(now, f)
		return
	}
	f.sched = schedIdle
	n.wake(now, f)
}

// holdForResume puts a blocked flow in pausedFlows once, at now: from then
// until the RESUME that wakes it counts as the flow's PFCPaused time.
func (n *NIC) holdForResume(now units.Time, f *Flow) {
	if !f.pauseHeld {
		f.pauseHeld, f.heldSince = true, now
		n.pausedFlows = append(n.pausedFlows, f)
	}
}

// Flow scheduling states.
const (
	schedIdle    uint8 = iota // nothing to send
	schedReady                // in n.ready
	schedPacing               // in n.pacing
	schedBlocked              // window closed or class paused: waiting for a wake
)

// wake queues f for sending if it has data and is not queued yet: in
// ready when its pacing time has come, else in pacing. Whether its window
// is open and its class unpaused is checked when it reaches the head.
func (n *NIC) wake(now units.Time, f *Flow) {
	if f.sched == schedReady || f.sched == schedPacing {
		return
	}
	if f.nxt >= f.relPSN {
		f.sched = schedIdle
		return
	}
	if f.nextAvail > now {
		f.sched = schedPacing
		n.pacing.push(f)
		return
	}
	f.sched = schedReady
	n.ready.Push(f)
}

// gap is the pacing interval after a packet of size bytes at rate r: its
// serialization time, truncated to Config.TxStep.
func (n *NIC) gap(size units.Bytes, r units.BitsPerSec) units.Time {
	g := units.TxTime(size, r)
	if n.cfg.TxStep > 0 {
		g -= g % n.cfg.TxStep
	}
	return g
}

// repace moves f's next send time after its rate changed from old to cur
// (Config.RepaceOnRateChange), keeping the pacing heap in order.
func (n *NIC) repace(f *Flow, old, cur units.BitsPerSec) {
	if old == cur || f.lastSize == 0 {
		return
	}
	pacing := f.sched == schedPacing
	if pacing {
		n.pacing.remove(f)
	}
	f.nextAvail += n.gap(f.lastSize, cur) - n.gap(f.lastSize, old)
	if pacing {
		n.pacing.push(f)
	}
}

func (n *NIC) rate(f *Flow) units.BitsPerSec {
	r := f.CC.Rate()
	if r < n.cfg.MinRate {
		r = n.cfg.MinRate
	}
	if r > n.Port.Rate {
		r = n.Port.Rate
	}
	return r
}

func (n *NIC) windowOpen(f *Flow) bool {
	w := f.window
	if n.cfg.WindowVar && w > 0 {
		w = max(1, units.Bytes(float64(w)*float64(f.CC.Rate())/float64(n.Port.Rate)))
	}
	if cw := f.CC.Window(); cw > 0 && (w == 0 || cw < w) {
		w = cw
	}
	if w == 0 {
		return true
	}
	pkt := n.cfg.MTUPayload + n.cfg.HeaderBytes
	if n.cfg.WindowPayload {
		// Full packets' payload: exact while only a message's last packet
		// is short, as on the simulator's one-message QPs.
		pkt = n.cfg.MTUPayload
	}
	inflight := units.Bytes(f.nxt-f.una) * pkt
	return inflight < w
}

// Dequeue implements fabric.Source: control packets first (RTT requests
// only while their class is not paused), then one data packet from the
// next eligible flow in round-robin order.
func (n *NIC) Dequeue(now units.Time) (*fabric.Packet, units.Time) {
	if p := n.nextCtrl(); p != nil {
		if p.Kind == fabric.RTTReq {
			p.SentAt = now // stamped as it leaves, behind its data packet
		}
		if n.tap != nil {
			n.tap.Dequeue(now, n.host, 0, p)
		}
		return p, n.nextHint()
	}
	for n.pacing.len() > 0 && n.pacing.min().nextAvail <= now {
		f := n.pacing.pop()
		f.sched = schedReady
		n.ready.Push(f)
	}
	for n.ready.Len() > 0 {
		f := n.ready.Pop()
		f.sched = schedIdle
		switch {
		case f.nxt >= f.relPSN:
			n.quiet(now, f)
			continue // a late ACK moved it past its released data
		case n.ClassPaused(f.Prio):
			f.sched = schedBlocked
			n.holdForResume(now, f)
			continue
		case !n.windowOpen(f):
			f.sched = schedBlocked // an ACK wakes it
			continue
		}
		p := n.makeData(now, f)
		n.wake(now, f) // back to the tail (round robin) or to pacing
		return p, n.nextHint()
	}
	return nil, n.nextHint()
}

// nextCtrl removes and returns the control packet to send now, or nil:
// the oldest held RTT request whose class has resumed, else the head of
// ctrl, moving RTT requests of a paused class to held on the way.
func (n *NIC) nextCtrl() *fabric.Packet {
	for i, p := range n.held {
		if !n.ClassPaused(p.Prio) {
			n.held = slices.Delete(n.held, i, i+1)
			return p
		}
	}
	for n.ctrl.Len() > 0 {
		p := n.ctrl.Pop()
		if p.Prio != fabric.ControlPrio && n.ClassPaused(p.Prio) && !(n.cfg.AckIgnoresPause && (p.Kind == fabric.Ack || p.Kind == fabric.Nack)) {
			n.held = append(n.held, p)
			continue
		}
		return p
	}
	return nil
}

// heldSendable reports whether a held RTT request's class has resumed.
func (n *NIC) heldSendable() bool {
	for _, p := range n.held {
		if !n.ClassPaused(p.Prio) {
			return true
		}
	}
	return false
}

// nextHint is the earliest time the NIC may have another packet without a
// Kick: now for a queued control packet, a held RTT request whose class
// has resumed or a ready flow, else the earliest pacing time. Blocked
// flows and held RTT requests wait for a Kick: releases, ACKs, NACKs,
// timeouts and RESUME all Kick the port.
func (n *NIC) nextHint() units.Time {
	if n.ctrl.Len() > 0 || n.ready.Len() > 0 || n.heldSendable() {
		return 0
	}
	if n.pacing.len() > 0 {
		return n.pacing.min().nextAvail
	}
	return units.Never
}

func (n *NIC) makeData(now units.Time, f *Flow) *fabric.Packet {
	if f.nxt == f.una {
		f.lastProgress = now // nothing was in flight: the RTO clock starts now
	}
	f.sendMsg = f.msgAt(f.nxt, f.sendMsg)
	m := f.msgs[f.sendMsg]
	psn := f.nxt
	pay := payloadOf(m, psn, n.cfg.MTUPayload)
	p := n.pool.Get()
	f.inNet[0]++
	p.Kind, p.Prio = fabric.Data, f.Prio
	p.Src, p.Dst, p.Flow, p.Hash = f.Src, f.Dst, f.ID, f.Hash
	p.PSN, p.MsgID = psn, int64(m.Index)
	p.Payload, p.Size = pay, pay+n.cfg.HeaderBytes
	p.Last = psn == m.FirstPSN+m.NPkts-1
	p.SentAt, p.EnqAt = now, now
	if m.FirstTx < 0 {
		m.FirstTx = now
		if f.obs != nil {
			f.obs.OnMessageStart(now, cca.MessageInfo{ID: int64(m.Index), Bytes: m.Bytes, Release: m.Release})
		}
	}
	f.nxt++
	if psn < f.highSent {
		f.RetxBytes += int64(pay)
	} else {
		f.highSent = f.nxt
	}
	f.DataPktsSent++
	f.DataBytesSent += int64(p.Size)
	n.Counters.SentDataBytes += int64(p.Size)
	f.lastSize = p.Size
	f.nextAvail = now + n.gap(p.Size, n.rate(f))
	f.CC.OnSend(now, p.Size)
	n.rearm(now, f)
	if n.tap != nil {
		n.tap.Dequeue(now, n.host, 0, p)
	}
	if f.prober != nil && (f.probeAt < 0 || now-f.probeAt >= n.probeTimeout()) {
		n.sendProbe(now, f)
	}
	return p
}

// probeTimeout is the configured RTT probe timeout or its default.
func (n *NIC) probeTimeout() units.Time {
	if n.cfg.ProbeTimeout > 0 {
		return n.cfg.ProbeTimeout
	}
	return DefaultProbeTimeout
}

// probeBytes is the configured RTT probe size or the ACK size.
func (n *NIC) probeBytes() units.Bytes {
	if n.cfg.ProbeBytes > 0 {
		return n.cfg.ProbeBytes
	}
	return n.cfg.AckBytes
}

// sendProbe queues an RTT request of f right behind the data packet just
// sent (the end of its burst), in f's data class: like data, it waits
// while a PAUSE holds that class (see held).
func (n *NIC) sendProbe(now units.Time, f *Flow) {
	p := n.pool.Get()
	f.inNet[0]++
	p.Kind, p.Prio = fabric.RTTReq, f.Prio
	p.Src, p.Dst, p.Flow, p.Hash = f.Src, f.Dst, f.ID, f.Hash
	p.Size, p.SentAt, p.EnqAt = n.probeBytes(), now, now
	f.probeAt = now
	f.RTTProbes++
	n.ctrl.Push(p)
}

func (n *NIC) sendCtrl(now units.Time, k fabric.Kind, f *Flow, size units.Bytes) *fabric.Packet {
	p := n.pool.Get()
	f.inNet[f.side(n.host)]++
	p.Kind, p.Prio = k, fabric.ControlPrio
	if n.cfg.AckInDataClass && (k == fabric.Ack || k == fabric.Nack) {
		p.Prio = f.Prio
		if p.Prio == 0 {
			p.Prio = n.cfg.DataPrio // the sender has not started the flow yet
		}
	}
	p.Src, p.Dst, p.Flow, p.Hash = f.Dst, f.Src, f.ID, f.Hash
	p.Size, p.EnqAt = size, now
	n.ctrl.Push(p)
	n.Port.Kick(now)
	return p
}

// Receive implements fabric.Receiver for packets arriving from the switch.
func (n *NIC) Receive(now units.Time, p *fabric.Packet, _ int32) {
	var f *Flow // the packet's flow, for every kind but PAUSE and RESUME
	switch p.Kind {
	case fabric.Data:
		n.Counters.RecvDataBytes += int64(p.Size)
		if n.tap != nil {
			n.tap.Deliver(now, n.host, p)
		}
		f = n.flows[p.Flow]
		n.receiveData(now, f, p)
	case fabric.Ack:
		f = n.flows[p.Flow]
		n.receiveAck(now, f, p)
	case fabric.Nack:
		f = n.flows[p.Flow]
		n.receiveNack(now, f, p)
	case fabric.CNP:
		f = n.flows[p.Flow]
		f.CNPs++
		if f.CC != nil {
			f.CC.OnCNP(now)
			n.rearm(now, f)
		}
	case fabric.Pause, fabric.Resume:
		n.setPaused(now, p.PausePrio, p.Kind == fabric.Pause)
	case fabric.RTTReq:
		f = n.flows[p.Flow]
		r := n.sendCtrl(now, fabric.RTTResp, f, n.probeBytes())
		r.SentAt = p.SentAt
	case fabric.RTTResp:
		f = n.flows[p.Flow]
		f.RTTResponses++
		if p.SentAt >= f.probeAt {
			f.probeAt = -1 // the outstanding request is answered
		}
		if f.prober != nil {
			f.prober.OnRTT(now, now-p.SentAt)
			n.rearm(now, f)
		}
	}
	n.pool.Put(p)
	if f != nil {
		f.inNet[f.side(n.host)]--
		n.quiet(now, f)
	}
}

func (n *NIC) setPaused(now units.Time, prio uint8, on bool) {
	n.RecordPause(now, prio, on)
	if !on {
		// Wake the flows a pause of this class had blocked. NB: a flow of
		// another class still paused is woken too and held again at the
		// next Dequeue; its PFCPaused misses that gap (at most one packet
		// time), which only happens with several data classes paused.
		// The slice is reused (no allocation per pause): nothing below
		// holds a flow before the loop is done.
		held := n.pausedFlows
		n.pausedFlows = held[:0]
		for _, f := range held {
			f.pauseHeld = false
			f.PFCPaused += now - f.heldSince
			if f.sched == schedBlocked {
				f.sched = schedIdle
				n.wake(now, f)
			}
			n.quiet(now, f)
		}
		n.Port.Kick(now)
	}
}

// receiveData is the receiver side: CNP on CE (at most one per
// CNPInterval per QP, DCQCN's notification point), in-order acceptance with
// cumulative ACKs, NACK on a gap (go-back-N), message completion.
func (n *NIC) receiveData(now units.Time, f *Flow, p *fabric.Packet) {
	if p.CE {
		f.CEPkts++
		f.ceSinceAck = true
		if !n.cfg.CNPOnAck && (!f.cnpSent || now-f.lastCNP >= n.cfg.CNPInterval) {
			f.cnpSent, f.lastCNP = true, now
			n.sendCtrl(now, fabric.CNP, f, n.cfg.CNPBytes)
		}
	}
	switch {
	case p.PSN == f.expect:
		f.expect++
		if n.OnInOrder != nil {
			n.OnInOrder(now, f, p.Payload)
		}
		f.nackFor = -1
		f.ackCount++
		done := p.Last
		var m *Message
		if done {
			f.rxMsg = f.msgAtRx(p.PSN)
			m = f.rxMsgs[f.rxMsg]
			m.Delivered = now
			f.Finish = now
			f.rxMsg++
		}
		if done || f.ackCount >= n.cfg.AckEvery {
			a := n.sendCtrl(now, fabric.Ack, f, n.cfg.AckBytes)
			a.PSN, a.ECE, a.SentAt, a.MsgDone, a.MsgID = f.expect, f.ceSinceAck, p.SentAt, done, p.MsgID
			a.Tel, p.Tel = p.Tel, nil // the ACK echoes the INT stack
			f.ackCount, f.ceSinceAck = 0, false
		}
		if done {
			n.hooks.Delivered(now, f, m)
		}
	case p.PSN > f.expect:
		if f.nackFor != f.expect {
			f.nackFor = f.expect
			k := n.sendCtrl(now, fabric.Nack, f, n.cfg.NackBytes)
			k.PSN, k.SentAt = f.expect, p.SentAt
		}
	default: // duplicate: repeat the cumulative ACK
		a := n.sendCtrl(now, fabric.Ack, f, n.cfg.AckBytes)
		a.PSN, a.SentAt = f.expect, p.SentAt
	}
}

func (f *Flow) msgAtRx(psn int64) int { return msgIn(f.rxMsgs, psn, f.rxMsg) }

// advance moves the cumulative acknowledgement to psn and returns the
// payload bytes newly acknowledged.
func (n *NIC) advance(now units.Time, f *Flow, psn int64) units.Bytes {
	if psn <= f.una {
		return 0
	}
	b := f.bytesBetween(f.una, psn, n.cfg.MTUPayload)
	f.una = psn
	f.lastProgress = now
	if f.nxt < f.una {
		f.nxt = f.una
	}
	return b
}

func (n *NIC) receiveAck(now units.Time, f *Flow, p *fabric.Packet) {
	var m *Message
	if p.MsgDone {
		m = f.msgs[f.msgAt(p.PSN-1, f.sendMsg)]
	}
	acked := n.advance(now, f, p.PSN)
	if f.CC != nil {
		a := &n.ack
		a.AckedBytes, a.RTT, a.ECE, a.MessageDone = acked, now-p.SentAt, p.ECE, p.MsgDone
		if m != nil {
			a.MsgID, a.MsgBytes, a.MsgRelease, a.MsgFirstTx = int64(m.Index), m.Bytes, m.Release, m.FirstTx
		}
		a.NumHops = 0
		if t := p.Tel; t != nil {
			a.NumHops = int(t.N)
			copy(a.Hops[:t.N], t.Hops[:t.N])
		}
		if n.cfg.CNPOnAck && p.ECE {
			f.CNPs++
			f.CC.OnCNP(now)
		}
		old := n.rate(f)
		f.CC.OnAck(now, a)
		if n.cfg.RepaceOnRateChange {
			n.repace(f, old, n.rate(f))
		}
	}
	if m != nil {
		if m.SenderDone < 0 {
			m.SenderDone = now
			n.hooks.SenderDone(now, f, m)
		}
	}
	n.unblock(now, f) // the ACK may have opened the window
	n.rearm(now, f)
	n.Port.Kick(now)
}

func (n *NIC) receiveNack(now units.Time, f *Flow, p *fabric.Packet) {
	f.Nacks++
	n.advance(now, f, p.PSN)
	if f.CC != nil {
		f.CC.OnNack(now)
	}
	if p.PSN >= f.una && p.PSN < f.nxt {
		f.nxt = p.PSN // go-back-N
	}
	n.wake(now, f)
	n.rearm(now, f)
	n.Port.Kick(now)
}

// Event kinds the NIC schedules for itself (arg = flow id).
const evFlowTimer uint8 = 10

// rearm keeps one pending timer event per flow at the earlier of the
// algorithm's next deadline and the retransmission deadline. Timers stop
// while the flow has nothing released and unacknowledged.
func (n *NIC) rearm(now units.Time, f *Flow) {
	want := units.Never
	if f.CC != nil && f.Outstanding() {
		want = f.CC.NextTimer()
		// The retransmission deadline matters only with data in flight:
		// released data not yet sent (paced, paused) is not late.
		if rto := f.lastProgress + n.cfg.RTO; f.una < f.nxt && rto < want {
			want = rto
		}
	}
	if want < now {
		want = now
	}
	if want == units.Never || (f.timerAt != units.Never && f.timerAt <= want) {
		return
	}
	f.timerAt = want
	n.sim.Schedule(want, n.id, evFlowTimer, f.ID)
}

// Handle runs the NIC's timer events.
func (n *NIC) Handle(now units.Time, kind uint8, arg int32) {
	f := n.flows[arg]
	if f == nil || now != f.timerAt {
		// Superseded, or the flow was retired (OnQuiet) with this timer
		// pending: it had nothing outstanding, so the timer would have
		// done nothing.
		return
	}
	f.timerAt = units.Never
	if !f.Outstanding() {
		return
	}
	if f.CC.NextTimer() <= now {
		f.CC.OnTimer(now)
		n.unblock(now, f) // a timer may have grown the window
		n.Port.Kick(now)
	}
	if now-f.lastProgress >= n.cfg.RTO && f.una < f.nxt {
		if t, ok := f.CC.(cca.TimeoutObserver); ok {
			t.OnTimeout(now)
		}
		f.Timeouts++
		f.nxt = f.una
		f.lastProgress = now
		n.wake(now, f)
		n.Port.Kick(now)
	}
	n.rearm(now, f)
}
