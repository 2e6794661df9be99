package fabric

import (
	"github.com/ccreplay/ccreplay/kernel"
	"github.com/ccreplay/ccreplay/units"
)

// Source supplies a port's transmitter with packets.
type Source interface {
	// Dequeue returns the next packet to transmit at now, and the earliest
	// time another packet may be ready without outside help (0 or any time
	// not after now: as soon as the transmitter is free; units.Never: only a
	// Kick can make one ready). With no packet it returns nil and that time.
	// A source that answers units.Never must Kick the port when a packet
	// becomes ready; the port then sends no event of its own while idle.
	Dequeue(now units.Time) (p *Packet, next units.Time)
}

// Receiver takes packets arriving from a link: the peer's ingress.
type Receiver interface {
	Receive(now units.Time, p *Packet, inPort int32)
}

type inflight struct {
	at units.Time
	p  *Packet
}

// Event kinds a port schedules for itself.
const (
	evTry    uint8 = 0 // transmitter free or wake-up: try to send
	evArrive uint8 = 1 // head of the link pipe reaches the peer
)

// Port is an egress port and the link leaving it: a transmitter that
// serializes one packet at a time at Rate, then a pipe that delivers each
// packet to the peer Delay later (store and forward: a packet arrives when
// its last bit does).
type Port struct {
	sim      *kernel.Sim
	id       kernel.HandlerID
	src      Source
	peer     Receiver
	peerPort int32
	// Node and Index identify the port (node id, port index on the node).
	Node, Index int32
	// Rate is the link rate, bits per second; Delay the propagation delay.
	Rate  units.BitsPerSec
	Delay units.Time

	pendingAt units.Time // the one live try event, or units.Never
	pipe      Ring[inflight]
	warm      Kind // see Handle: the last byte read ahead, kept so the read stays

	// TxBytes, TxPkts and TxDataBytes count what left the port.
	TxBytes, TxPkts, TxDataBytes int64
	// BusyUntil is when the current transmission ends.
	BusyUntil units.Time
	// TxStep, when positive, truncates every serialization time to a
	// multiple of it, picoseconds: 1 ns reproduces the HPCC ns-3
	// simulator, whose Time holds whole nanoseconds and whose
	// Seconds(bits/rate) truncates (a 1048-byte packet takes 83 ns at
	// 100 Gb/s there, not 83.84). 0 keeps exact picoseconds.
	TxStep units.Time
}

// NewPort makes a port of node (index idx) whose packets come from src and
// go to peer's ingress port peerPort.
func NewPort(sim *kernel.Sim, node, idx int32, rate units.BitsPerSec, delay units.Time, src Source, peer Receiver, peerPort int32) *Port {
	pt := &Port{sim: sim, src: src, peer: peer, peerPort: peerPort, Node: node, Index: idx, Rate: rate, Delay: delay, pendingAt: units.Never}
	pt.id = sim.Register(pt)
	return pt
}

// SetSource replaces the packet source (used while wiring).
func (pt *Port) SetSource(s Source) { pt.src = s }

// SetPeer connects the link's far end (used while wiring).
func (pt *Port) SetPeer(r Receiver, peerPort int32) { pt.peer, pt.peerPort = r, peerPort }

// Busy reports whether a packet is being serialized at now.
func (pt *Port) Busy(now units.Time) bool { return now < pt.BusyUntil }

// Kick tells the transmitter that its source may have a packet ready: it
// sends now if free, else makes sure it looks again when it becomes free.
func (pt *Port) Kick(now units.Time) {
	if now < pt.BusyUntil {
		if pt.pendingAt > pt.BusyUntil {
			pt.arm(pt.BusyUntil)
		}
		return
	}
	pt.try(now)
}

// arm makes at the one live try event.
func (pt *Port) arm(at units.Time) {
	pt.pendingAt = at
	pt.sim.Schedule(at, pt.id, evTry, 0)
}

// InFlight calls fn for every packet on the link (serialized or
// propagating, not yet delivered): for conservation checks.
func (pt *Port) InFlight(fn func(*Packet)) {
	for i := 0; i < pt.pipe.Len(); i++ {
		fn(pt.pipe.At(i).p)
	}
}

// Handle runs the port's own events.
func (pt *Port) Handle(now units.Time, kind uint8, _ int32) {
	if kind == evArrive {
		f := pt.pipe.Pop()
		if pt.pipe.Len() > 0 {
			nx := pt.pipe.Peek()
			pt.sim.Schedule(nx.at, pt.id, evArrive, 0)
			// Read the next packet now, a few hundred events before its
			// arrival needs it: on large topologies the packet has left
			// the caches since it was sent, and its arrival otherwise
			// starts with a miss to memory.
			pt.warm ^= nx.p.Kind
		}
		pt.peer.Receive(now, f.p, pt.peerPort)
		return
	}
	if now != pt.pendingAt {
		return // superseded
	}
	pt.pendingAt = units.Never
	if now < pt.BusyUntil {
		pt.arm(pt.BusyUntil)
		return
	}
	pt.try(now)
}

// try starts the next transmission if the source has a packet; the port
// is free (now >= BusyUntil).
func (pt *Port) try(now units.Time) {
	p, next := pt.src.Dequeue(now)
	if p == nil {
		if next != units.Never && (next < pt.pendingAt || pt.pendingAt <= now) {
			if next < now {
				next = now
			}
			pt.arm(next)
		}
		return
	}
	tx := units.TxTime(p.Size, pt.Rate)
	if pt.TxStep > 0 {
		tx -= tx % pt.TxStep
	}
	done := now + tx
	pt.BusyUntil = done
	pt.TxBytes += int64(p.Size)
	pt.TxPkts++
	if p.Kind == Data {
		pt.TxDataBytes += int64(p.Size)
	}
	if pt.pipe.Len() == 0 {
		pt.sim.Schedule(done+pt.Delay, pt.id, evArrive, 0)
	}
	pt.pipe.Push(inflight{at: done + pt.Delay, p: p})
	switch {
	case next == units.Never:
		pt.pendingAt = units.Never // idle until a Kick
	case next <= done:
		pt.arm(done)
	default:
		pt.arm(next)
	}
}
