// Package cca defines the boundary between the NIC and a congestion control
// algorithm, and a registry of algorithms by name.
//
// An Algorithm is a pure state machine (docs/ARCHITECTURE.md, "Packages"):
// the NIC calls its event methods with the current simulated time and reads
// back the rate, the optional window and the next timer deadline. An
// algorithm never sees the event queue, a wall clock or a global RNG.
package cca

import (
	"github.com/ccreplay/ccreplay/telemetry"
	"github.com/ccreplay/ccreplay/units"
)

// FlowInfo is what an algorithm learns about its flow when it starts.
type FlowInfo struct {
	// LineRate is the sender NIC's port rate in bits per second.
	LineRate units.BitsPerSec
	// BaseRTT is the path's round-trip time without queueing, in picoseconds.
	BaseRTT units.Time
	// MTU is the wire size of a full data packet (payload + headers), bytes.
	MTU units.Bytes
	// Hops is the number of links on the forward path.
	Hops int
}

// Ack is what the sender learns from one acknowledgement.
type Ack struct {
	// AckedBytes is the number of newly acknowledged payload bytes.
	AckedBytes units.Bytes
	// RTT is the round-trip sample of the packet this ACK answers, ps
	// (send time of that packet to arrival of this ACK).
	RTT units.Time
	// ECE is true when the acknowledged packet arrived CE-marked.
	ECE bool
	// NumHops is how many entries of Hops are valid (0 without INT).
	NumHops int
	// Hops is the INT stack echoed from the data packet, one record per
	// switch egress crossed (telemetry.Hop).
	Hops [telemetry.MaxHops]telemetry.Hop
	// MessageDone is true when this ACK completes a message; the Msg*
	// fields below then describe that message.
	MessageDone bool
	// MsgID is the message's index in the run, MsgBytes its payload.
	MsgID    int64
	MsgBytes units.Bytes
	// MsgRelease is when the message became ready to send and MsgFirstTx
	// when its first packet left the NIC, picoseconds.
	MsgRelease, MsgFirstTx units.Time
}

// MessageInfo describes a message whose first packet is about to be sent.
type MessageInfo struct {
	ID      int64       // the message's index in the run
	Bytes   units.Bytes // payload
	Release units.Time  // when it became ready to send, picoseconds
}

// MessageObserver is implemented by algorithms that decide per message
// (Dolce-RC+, Dolce-RC (Ye 2023), Algorithm 3): the NIC calls OnMessageStart just
// before a message's first packet is sent, then paces that packet at the
// Rate() read afterwards.
type MessageObserver interface {
	OnMessageStart(now units.Time, m MessageInfo)
}

// Algorithm is one flow's congestion controller.
//
// Rate is the pacing rate the NIC applies to the queue pair; Window, when
// positive, caps the bytes in flight. NextTimer reports the earliest time at
// which the algorithm wants OnTimer to be called (units.Never for none); the
// NIC calls OnTimer at or after that time and re-reads NextTimer after every
// event method.
type Algorithm interface {
	// Name is the algorithm's registry name, e.g. "dcqcn".
	Name() string
	// Start initialises the algorithm when the flow becomes active.
	Start(now units.Time, f FlowInfo)
	// OnSend is called when a data packet of size bytes (wire) leaves the NIC.
	OnSend(now units.Time, bytes units.Bytes)
	// OnAck is called for each ACK that reaches the sender. The NIC reuses
	// *Ack between calls: an algorithm must not keep the pointer.
	OnAck(now units.Time, a *Ack)
	// OnCNP is called for each congestion notification packet received.
	OnCNP(now units.Time)
	// OnNack is called when the receiver reports a sequence gap.
	OnNack(now units.Time)
	// OnTimer is called at or after NextTimer.
	OnTimer(now units.Time)
	// NextTimer is the next deadline the algorithm wants, or units.Never.
	NextTimer() units.Time
	// Rate is the current sending rate limit, bits per second.
	Rate() units.BitsPerSec
	// Window is the current cap on bytes in flight, or 0 for none.
	Window() units.Bytes
}

// TimeoutObserver is implemented by algorithms that react to the NIC's
// retransmission timeout (Swift, Kumar et al. 2020, Algorithm 1 "On
// Retransmit Timeout"); the NIC calls OnTimeout when it goes back to the
// first unacknowledged packet after RTO without progress.
type TimeoutObserver interface {
	OnTimeout(now units.Time)
}

// RTTProber is implemented by algorithms that measure RTT with probe
// packets instead of data ACKs (RL-CC, Tessler 2022, Section 2 and Fig. 2: the sender
// ends each burst with an RTT packet and the receiver answers it at once,
// so samples keep coming while data is lost and not acknowledged). When
// ProbesRTT reports true at Start, the NIC sends an RTT request after a
// data packet whenever no request of the flow is outstanding (or the last
// one is older than the NIC's probe timeout, as lost), and calls OnRTT with
// each response's round trip. Requests wait in the data queues; responses
// travel in the control class.
type RTTProber interface {
	ProbesRTT() bool
	// OnRTT is called when an RTT response arrives; rtt is the round trip
	// of its request, picoseconds.
	OnRTT(now, rtt units.Time)
}
