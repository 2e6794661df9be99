// Package fabric holds what NICs and switches share: the packet, its pool,
// ring-buffer queues, and the egress port that serializes packets onto a
// link and delivers them to the peer after the propagation delay.
//
// A port keeps at most one live pending event for its transmitter and one
// for its link (docs/ARCHITECTURE.md, "The event loop"; after htsim):
// packets in flight wait in a FIFO ring, not as one event each.
package fabric

import (
	"fmt"
	"github.com/ccreplay/ccreplay/kernel"

	"github.com/ccreplay/ccreplay/telemetry"
	"github.com/ccreplay/ccreplay/units"
)

// Kind is a packet's type.
type Kind uint8

// Packet kinds.
const (
	Data Kind = iota
	Ack
	Nack
	CNP
	Pause
	Resume
	// RTTReq is an RTT request the sender sends after a data packet, in
	// the flow's data class so it waits in the same queues as the data;
	// RTTResp is the receiver's immediate answer, echoing SentAt
	// (RL-CC, Tessler 2022, Fig. 2: "at the end transmits an RTT packet").
	RTTReq
	RTTResp
)

var kindNames = [...]string{"DATA", "ACK", "NACK", "CNP", "PAUSE", "RESUME", "RTT_REQ", "RTT_RESP"}

// String is the kind's name as written to packets.parquet.
func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("kind(%d)", k)
}

// NumPrio is the number of priority classes per port. Class 0 is the
// highest; control packets (ACK, NACK, CNP, PAUSE) travel in it.
const NumPrio = 8

// ControlPrio is the class of ACK, NACK, CNP, PAUSE and RESUME.
const ControlPrio = 0

// Packet is one frame on the wire. Packets come from a Pool and go back to
// it when delivered or dropped, so the hot path allocates nothing.
type Packet struct {
	Kind Kind
	Prio uint8
	// CE is the ECN congestion-experienced mark (data packets).
	CE bool
	// Last marks the last packet of a message (data packets).
	Last bool
	// ECE echoes the CE mark of the acknowledged packet (ACK).
	ECE bool
	// MsgDone says this ACK completes a message (ACK).
	MsgDone bool
	// arrKey orders the packet's arrival at the far end of the link it is
	// on (see Port.try); in the first cache line, which the link's read
	// ahead loads.
	arrKey kernel.Key
	Src    int32 // source host
	Dst    int32 // destination host
	// Flow is the flow (queue pair) index; -1 for PAUSE/RESUME.
	Flow int32
	// InPort is the ingress port at the switch currently holding it.
	InPort int32
	// Size is the wire size in bytes (payload + headers).
	Size units.Bytes
	// Payload is the payload carried (data packets), bytes.
	Payload units.Bytes
	// PSN is the data packet's sequence number, or the cumulative next
	// expected PSN carried by ACK/NACK.
	PSN int64
	// MsgID is the message this data packet (or completing ACK) belongs to.
	MsgID int64
	// Hash is the flow hash ECMP uses.
	Hash uint64
	// SentAt is when the data packet (or RTT request) left the sender NIC;
	// ACKs (and RTT responses) echo it.
	SentAt units.Time
	// EnqAt and QDepth describe the queue it currently waits in: when it
	// was enqueued and the queue's depth in bytes at that moment.
	EnqAt  units.Time
	QDepth units.Bytes
	// Tel is the INT stack stamped by switches and echoed by the ACK; nil
	// unless switches stamp INT. It belongs to the packet and returns to
	// the pool with it.
	Tel *Telemetry
	// PausePrio and PauseQuanta describe a PAUSE/RESUME frame's class.
	PausePrio uint8
}

// String is the one text form of a packet used in logs and tests,
// e.g. "h3->h7 DATA flow=5 psn=118 CE 1048B".
func (p *Packet) String() string {
	ce := ""
	if p.CE {
		ce = " CE"
	}
	switch p.Kind {
	case Pause, Resume:
		return fmt.Sprintf("%v prio=%d %dB", p.Kind, p.PausePrio, p.Size)
	case Data:
		return fmt.Sprintf("h%d->h%d DATA flow=%d psn=%d%s %dB", p.Src, p.Dst, p.Flow, p.PSN, ce, p.Size)
	default:
		return fmt.Sprintf("h%d->h%d %v flow=%d psn=%d %dB", p.Src, p.Dst, p.Kind, p.Flow, p.PSN, p.Size)
	}
}

// Telemetry is the in-band network telemetry a packet carries: one entry
// per switch egress it crossed. It lives outside Packet so that packets
// stay small (two cache lines) when INT is off.
type Telemetry struct {
	N    uint8
	Hops [telemetry.MaxHops]telemetry.Hop
}

// Pool recycles packets and telemetry stacks. It is not safe for
// concurrent use; each run owns one.
type Pool struct {
	free    []*Packet
	freeTel []*Telemetry
	// Live counts packets handed out and not yet returned.
	Live int
}

// GetTel returns an empty telemetry stack.
func (pl *Pool) GetTel() *Telemetry {
	if n := len(pl.freeTel); n > 0 {
		t := pl.freeTel[n-1]
		pl.freeTel = pl.freeTel[:n-1]
		t.N = 0
		return t
	}
	return new(Telemetry)
}

// Get returns a zeroed packet.
func (pl *Pool) Get() *Packet {
	pl.Live++
	if n := len(pl.free); n > 0 {
		p := pl.free[n-1]
		pl.free = pl.free[:n-1]
		return p
	}
	return new(Packet)
}

// Put returns p to the pool; p must not be used afterwards.
func (pl *Pool) Put(p *Packet) {
	pl.Live--
	if p.Tel != nil {
		pl.freeTel = append(pl.freeTel, p.Tel)
	}
	*p = Packet{}
	pl.free = append(pl.free, p)
}
