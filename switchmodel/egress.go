package switchmodel

import (
	"math/bits"

	"github.com/ccreplay/ccreplay/fabric"
	"github.com/ccreplay/ccreplay/telemetry"
	"github.com/ccreplay/ccreplay/units"
)

// Egress is one switch port's output side: priority queues in front of the
// link transmitter.
type Egress struct {
	sw  *Switch
	idx int32
	// Port is the transmitter and link.
	Port *fabric.Port

	q        [fabric.NumPrio]fabric.Ring[*fabric.Packet]
	qBytes   [fabric.NumPrio]units.Bytes
	bytes    units.Bytes
	warm     fabric.Kind // the last byte read ahead in Dequeue, kept so the read stays
	nonEmpty uint8       // bit i set when q[i] holds packets
	pfcQ     fabric.Ring[*fabric.Packet]

	kmin, kmax, headroom, xoff, xon units.Bytes
	pmax                            float64

	flows flowSet // FDCC's flow counter (Config.FlowCounter)

	// Stats is the queue length over time.
	Stats QueueStats
	// MarkedPkts, DroppedPkts, DroppedBytes and PausesSent count events at
	// this port.
	MarkedPkts, DroppedPkts, DroppedBytes, PausesSent int64
	// PauseState is the PFC state of the port's priorities: PausesReceived
	// counts PAUSE frames, PausedTime is the time any priority of it was
	// paused, picoseconds.
	fabric.PauseState
}

// QueueBytes is the bytes queued at priority prio.
func (e *Egress) QueueBytes(prio int) units.Bytes { return e.qBytes[prio] }

// Bytes is the bytes queued at all priorities (PFC frames waiting to
// leave are not counted).
func (e *Egress) Bytes() units.Bytes { return e.bytes }

// Queued calls fn for every packet waiting in this port's queues.
func (e *Egress) Queued(fn func(*fabric.Packet)) {
	for pr := range e.q {
		for i := 0; i < e.q[pr].Len(); i++ {
			fn(*e.q[pr].At(i))
		}
	}
}

func (e *Egress) enqueue(now units.Time, p *fabric.Packet) {
	p.EnqAt = now
	p.QDepth = e.qBytes[p.Prio]
	e.q[p.Prio].Push(p)
	e.qBytes[p.Prio] += p.Size
	e.bytes += p.Size
	e.nonEmpty |= 1 << p.Prio
	e.Stats.Set(now, e.bytes)
}

// Dequeue implements fabric.Source: PFC frames first, then the highest
// non-empty priority that is not paused.
func (e *Egress) Dequeue(now units.Time) (*fabric.Packet, units.Time) {
	if e.pfcQ.Len() > 0 {
		p := e.pfcQ.Pop()
		if e.sw.tap != nil {
			e.sw.tap.Dequeue(now, e.sw.id, e.idx, p)
		}
		return p, e.nextHint()
	}
	ready := e.nonEmpty &^ e.PausedClasses()
	if ready == 0 {
		return nil, units.Never
	}
	prio := uint8(bits.TrailingZeros8(ready))
	p := e.q[prio].Pop()
	if e.q[prio].Len() == 0 {
		e.nonEmpty &^= 1 << prio
	} else {
		// Read the next queued packet now, one serialization before it is
		// sent (see fabric.Port's arrival: on large topologies a queued
		// packet has left the caches).
		e.warm ^= (*e.q[prio].Peek()).Kind
	}
	e.qBytes[prio] -= p.Size
	e.bytes -= p.Size
	e.Stats.Set(now, e.bytes)
	sw := e.sw
	if p.Kind == fabric.Data && sw.cfg.ECN.Enabled && sw.cfg.ECN.AtDequeue && !p.CE {
		if sw.shouldMark(e.qBytes[prio], e.kmin, e.kmax, e.pmax) {
			p.CE = true
			e.MarkedPkts++
		}
	}
	sw.used -= p.Size
	sw.ing[p.InPort][prio] -= p.Size
	sw.hold(p.InPort, -p.Size)
	if sw.cfg.PFC.Enabled && prio != fabric.ControlPrio {
		sw.checkResume(now, p.InPort, prio)
	}
	if sw.cfg.INT && p.Kind == fabric.Data {
		// NB: the count stamped is the one after this packet's own update
		// (FDCC, Zhang 2023, Algorithm 2 line 11 returns the size once
		// lines 2-10 have run), and the port updates its set even when the
		// packet's INT stack is full.
		var flows int32
		if sw.cfg.FlowCounter {
			flows = e.flows.update(p.Flow, p.Last)
		}
		if p.Tel == nil {
			p.Tel = sw.pool.GetTel()
		}
		if t := p.Tel; int(t.N) < telemetry.MaxHops {
			q, b := e.bytes, units.Bytes(e.Port.TxBytes)+p.Size
			if u := sw.cfg.INTQLenUnit; u > 0 {
				q = RoundINTQLen(q, u)
			}
			if u := sw.cfg.INTBytesUnit; u > 0 {
				b = b / u * u
			}
			t.Hops[t.N] = telemetry.Hop{QLen: q, TxBytes: b, TS: now, LinkRate: e.Port.Rate, Flows: flows}
			t.N++
		}
	}
	if sw.tap != nil {
		sw.tap.Dequeue(now, sw.id, e.idx, p)
	}
	return p, e.nextHint()
}

// nextHint tells the port whether another packet is ready to follow
// (0: when the transmitter is free) or whether it must wait for a Kick
// (enqueue, RESUME or a PFC frame).
func (e *Egress) nextHint() units.Time {
	if e.pfcQ.Len() > 0 || e.nonEmpty&^e.PausedClasses() != 0 {
		return 0
	}
	return units.Never
}

func (e *Egress) setPaused(now units.Time, prio uint8, on bool) {
	e.RecordPause(now, prio, on)
	if !on {
		e.Port.Kick(now)
	}
}
