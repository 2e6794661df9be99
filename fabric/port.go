package fabric

import (
	"github.com/ccreplay/ccreplay/replay/kernel"
	"github.com/ccreplay/ccreplay/units"
)

// Source supplies a port's transmitter with packets.
type Source interface {
	// Dequeue returns the next packet to transmit at now, or nil and the
	// earliest time a packet may become ready without outside help
	// (units.Never when only a Kick can make one ready).
	Dequeue(now units.Time) (p *Packet, wake units.Time)
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
	evTry    int32 = 0 // transmitter free or wake-up: try to send
	evArrive int32 = 1 // head of the link pipe reaches the peer
)

// Port is an egress port and the link leaving it: a transmitter that
// serializes one packet at a time at Rate, then a pipe that delivers each
// packet to the peer Delay later (store and forward: a packet arrives when
// its last bit does).
type Port struct {
	sim      *kernel.Sim
	src      Source
	peer     Receiver
	peerPort int32
	// Node and Index identify the port (node id, port index on the node).
	Node, Index int32
	// Rate is the link rate, bits per second; Delay the propagation delay.
	Rate  units.BitsPerSec
	Delay units.Time

	busy      bool
	pendingAt units.Time // the one live try event, or units.Never
	pipe      Ring[inflight]

	// TxBytes, TxPkts and TxDataBytes count what left the port.
	TxBytes, TxPkts, TxDataBytes int64
	// BusyUntil is when the current transmission ends.
	BusyUntil units.Time
}

// NewPort makes a port of node (index idx) whose packets come from src and
// go to peer's ingress port peerPort.
func NewPort(sim *kernel.Sim, node, idx int32, rate units.BitsPerSec, delay units.Time, src Source, peer Receiver, peerPort int32) *Port {
	return &Port{sim: sim, src: src, peer: peer, peerPort: peerPort, Node: node, Index: idx, Rate: rate, Delay: delay, pendingAt: units.Never}
}

// SetSource replaces the packet source (used while wiring).
func (pt *Port) SetSource(s Source) { pt.src = s }

// SetPeer connects the link's far end (used while wiring).
func (pt *Port) SetPeer(r Receiver, peerPort int32) { pt.peer, pt.peerPort = r, peerPort }

// Busy reports whether a packet is being serialized.
func (pt *Port) Busy() bool { return pt.busy }

// Kick tells an idle transmitter that its source may have a packet now.
func (pt *Port) Kick(now units.Time) {
	if pt.busy {
		return
	}
	pt.try(now)
}

// InFlight calls fn for every packet on the link (serialized or
// propagating, not yet delivered): for conservation checks.
func (pt *Port) InFlight(fn func(*Packet)) {
	for i := 0; i < pt.pipe.Len(); i++ {
		fn(pt.pipe.At(i).p)
	}
}

// Handle runs the port's own events.
func (pt *Port) Handle(now units.Time, kind int32, _ int64) {
	if kind == evArrive {
		f := pt.pipe.Pop()
		if pt.pipe.Len() > 0 {
			pt.sim.Schedule(pt.pipe.Peek().at, pt, evArrive, 0)
		}
		pt.peer.Receive(now, f.p, pt.peerPort)
		return
	}
	if now != pt.pendingAt {
		return // superseded by a Kick
	}
	pt.pendingAt = units.Never
	pt.busy = false
	pt.try(now)
}

func (pt *Port) try(now units.Time) {
	p, wake := pt.src.Dequeue(now)
	if p == nil {
		if wake < pt.pendingAt || pt.pendingAt <= now {
			pt.pendingAt = wake
			if wake != units.Never {
				pt.sim.Schedule(wake, pt, evTry, 0)
			}
		}
		return
	}
	tx := units.TxTime(p.Size, pt.Rate)
	done := now + tx
	pt.busy = true
	pt.BusyUntil = done
	pt.TxBytes += int64(p.Size)
	pt.TxPkts++
	if p.Kind == Data {
		pt.TxDataBytes += int64(p.Size)
	}
	if pt.pipe.Len() == 0 {
		pt.sim.Schedule(done+pt.Delay, pt, evArrive, 0)
	}
	pt.pipe.Push(inflight{at: done + pt.Delay, p: p})
	pt.pendingAt = done
	pt.sim.Schedule(done, pt, evTry, 0)
}
