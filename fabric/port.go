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
	p  *Packet // its arrKey orders the arrival event, taken when it left
}

// Event kinds a port schedules for itself.
const (
	evTry    uint8 = 0 // transmitter free or wake-up: try to send
	evArrive uint8 = 1 // head of the link pipe reaches the peer
)

// Port is an egress port and the link leaving it: a transmitter that
// serializes one packet at a time at Rate, then a pipe (its Inlet) that
// delivers each packet to the peer Delay later (store and forward: a
// packet arrives when its last bit does).
type Port struct {
	sim *kernel.Sim
	id  kernel.HandlerID
	src Source
	in  *Inlet
	out *Outbox // the sending partition's, when the far end is another's
	// Node and Index identify the port (node id, port index on the node).
	Node, Index int32
	// Rate is the link rate, bits per second; Delay the propagation delay.
	Rate  units.BitsPerSec
	Delay units.Time

	pendingAt units.Time // the one live try event, or units.Never

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

// Inlet is the far end of a link: the packets on the wire in the order
// they left, and the one pending event of the first one's arrival. It
// belongs to the receiving node, whose Sim runs that event.
type Inlet struct {
	sim      *kernel.Sim
	id       kernel.HandlerID
	pipe     Ring[inflight]
	peer     Receiver
	peerPort int32
}

// Outbox holds the packets that one partition's ports sent, during a
// window, onto links whose far end another partition runs (see
// kernel.Group). Deliver hands them over at the barrier.
type Outbox struct {
	items []transfer
}

type transfer struct {
	in *Inlet
	f  inflight
}

// Len is the number of packets waiting in the outbox.
func (o *Outbox) Len() int { return len(o.items) }

// Deliver puts every packet of the outbox on its link's far end, in the
// order sent, and empties it. It runs between windows, when no partition
// runs; each packet arrives no earlier than the window's end (its link's
// delay is at least the window).
func (o *Outbox) Deliver() {
	for i := range o.items {
		t := &o.items[i]
		t.in.accept(t.f)
		t.in, t.f.p = nil, nil
	}
	o.items = o.items[:0]
}

// NewPort makes a port of node (index idx) whose packets come from src and
// go to peer's ingress port peerPort (peer may be nil and set later with
// SetPeer or Connect).
func NewPort(sim *kernel.Sim, node, idx int32, rate units.BitsPerSec, delay units.Time, src Source, peer Receiver, peerPort int32) *Port {
	pt := &Port{sim: sim, src: src, Node: node, Index: idx, Rate: rate, Delay: delay, pendingAt: units.Never}
	pt.id = sim.RegisterAt(pt, node)
	if peer != nil {
		pt.SetPeer(peer, peerPort)
	}
	return pt
}

// SetSource replaces the packet source (used while wiring).
func (pt *Port) SetSource(s Source) { pt.src = s }

// SetPeer connects the link's far end (used while wiring) to r, run by
// the port's own Sim as a node of unknown number: for a single Sim; a
// partitioned run uses Connect.
func (pt *Port) SetPeer(r Receiver, peerPort int32) { pt.Connect(r, -1, peerPort, pt.sim, nil) }

// Connect attaches the link's far end: ingress port peerPort of r, which
// is node peerNode run by peerSim. When peerSim is not the port's Sim
// (another partition of a kernel.Group), out must be the port's
// partition's Outbox, which the run delivers at every barrier. Connect
// must come before the first packet is sent.
func (pt *Port) Connect(r Receiver, peerNode, peerPort int32, peerSim *kernel.Sim, out *Outbox) {
	in := &Inlet{sim: peerSim, peer: r, peerPort: peerPort}
	in.id = peerSim.RegisterAt(in, peerNode)
	pt.in, pt.out = in, nil
	if peerSim != pt.sim {
		if out == nil {
			panic("fabric.Port.Connect: a far end in another Sim needs an Outbox")
		}
		pt.out = out
	}
}

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
// propagating, not yet delivered): for conservation checks, which in a
// partitioned run come at a barrier, after Outbox.Deliver.
func (pt *Port) InFlight(fn func(*Packet)) {
	in := pt.in
	for i := 0; i < in.pipe.Len(); i++ {
		fn(in.pipe.At(i).p)
	}
}

// Handle runs the port's own events.
func (pt *Port) Handle(now units.Time, _ uint8, _ int32) {
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

// accept puts a packet on the wire at the link's far end, and schedules
// its arrival if it is the first one there. The event's key was taken when
// the packet left, so the arrival is ordered the same whether the packet
// came straight from the port or through an Outbox.
func (in *Inlet) accept(f inflight) {
	if in.pipe.Len() == 0 {
		in.sim.ScheduleKeyed(f.at, f.p.arrKey, in.id, evArrive, 0)
	}
	in.pipe.Push(f)
}

// Handle runs the arrival of the packet at the head of the pipe.
func (in *Inlet) Handle(now units.Time, _ uint8, _ int32) {
	f := in.pipe.Pop()
	if in.pipe.Len() > 0 {
		nx := in.pipe.Peek()
		// Reading the next packet's key also reads it ahead, a few
		// hundred events before its arrival needs it: on large
		// topologies the packet has left the caches since it was sent,
		// and its arrival would otherwise start with a miss to memory.
		in.sim.ScheduleKeyed(nx.at, nx.p.arrKey, in.id, evArrive, 0)
	}
	in.peer.Receive(now, f.p, in.peerPort)
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
	p.arrKey = pt.sim.NewKey(pt.id)
	f := inflight{at: done + pt.Delay, p: p}
	if pt.out != nil {
		pt.out.items = append(pt.out.items, transfer{pt.in, f})
	} else {
		pt.in.accept(f)
	}
	switch {
	case next == units.Never:
		pt.pendingAt = units.Never // idle until a Kick
	case next <= done:
		pt.arm(done)
	default:
		pt.arm(next)
	}
}
