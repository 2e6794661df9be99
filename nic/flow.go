package nic

import (
	"github.com/ccreplay/ccreplay/cca"
	"github.com/ccreplay/ccreplay/units"
)

// Message is one message on a flow, with its place in the flow's packet
// sequence and its completion times.
type Message struct {
	// ID is the trace's message id; Index its position in the run's table.
	ID    int64
	Index int32
	Bytes units.Bytes
	// FirstPSN and NPkts place it in the flow's sequence space.
	FirstPSN, NPkts int64
	// Release, FirstTx, Delivered (last byte at the receiver) and
	// SenderDone (completion notice at the sender), picoseconds; -1 unset.
	Release, FirstTx, Delivered, SenderDone units.Time
}

// Flow is one queue pair: the sender's and the receiver's state of a
// stream of messages from Src to Dst.
type Flow struct {
	ID       int32
	Src, Dst int32
	Hash     uint64
	// Prio is the priority class of the flow's data packets (1..7); 0 takes
	// the NIC's default (Config.DataPrio) when the flow starts.
	Prio uint8
	// Path facts the replay computed: base RTT (ps), bottleneck (bit/s),
	// hop count.
	BaseRTT    units.Time
	Bottleneck units.BitsPerSec
	lastSize   units.Bytes // wire size of the last data packet sent (Config.RepaceOnRateChange)
	// CCBaseRTT, when positive, is the base RTT the flow's algorithm and
	// its BDP window are given instead of BaseRTT, picoseconds.
	CCBaseRTT units.Time
	Hops      int
	// CCHops, when positive, is the hop count the flow's algorithm is
	// given instead of Hops.
	CCHops int
	// CC is the flow's algorithm, made on its first release.
	CC      cca.Algorithm
	obs     cca.MessageObserver // CC, when it decides per message
	prober  cca.RTTProber       // CC, when it measures RTT with probes
	probeAt units.Time          // send time of the outstanding RTT request, -1 none
	newCC   func() cca.Algorithm
	started bool

	msgs    []*Message
	relPSN  int64 // PSNs [0, relPSN) belong to released messages
	sendMsg int   // index in msgs of the message holding nxt

	// sender
	nxt, una, highSent int64
	nextAvail          units.Time
	lastProgress       units.Time
	sched              uint8 // schedIdle, schedReady, schedPacing or schedBlocked
	// pauseHeld is true while the flow is in its NIC's pausedFlows: a
	// RESUME of its class wakes it. heldSince is when it was put there.
	pauseHeld bool
	heldSince units.Time
	timerAt   units.Time
	window    units.Bytes
	// inNet counts the flow's packets made and not yet consumed: data,
	// ACKs, NACKs, CNPs and RTT probes queued at a NIC, on a link or in a
	// switch. Each end keeps its own count, [0] the sender's NIC and [1]
	// the receiver's (packets it made less packets it took in), and
	// dropped those that switches dropped (PacketDropped), so that in a
	// partitioned run no count is written by two partitions: the sum is
	// what is in the network.
	inNet   [2]int32
	dropped int32

	// receiver
	rxMsgs     []*Message // the receiver's view of msgs (PublishMessages)
	expect     int64
	rxMsg      int
	lastCNP    units.Time
	cnpSent    bool
	ackCount   int
	ceSinceAck bool
	nackFor    int64 // expect value a NACK was sent for, -1 none

	// Counters for flows.parquet.
	DataPktsSent, DataBytesSent, CEPkts, CNPs, Nacks, Timeouts, RetxBytes, DroppedPkts int64
	// RTTProbes counts the RTT requests sent and RTTResponses the answers
	// that came back.
	RTTProbes, RTTResponses int64
	// PFCPaused is the time the flow had a data packet it could send
	// (released, window open, pacing time reached) while a PFC PAUSE of
	// its class held it at this NIC, summed over its pauses, picoseconds;
	// PFCPausedUntil adds a pause still on.
	PFCPaused units.Time
	// Start is the first release; Finish the last delivery (-1 unset).
	Start, Finish units.Time
	// SizeBytes is the payload of all its messages.
	SizeBytes units.Bytes
}

// NewFlow makes a flow whose algorithm is built by newCC on first use.
func NewFlow(id, src, dst int32, hash uint64, newCC func() cca.Algorithm) *Flow {
	return &Flow{ID: id, Src: src, Dst: dst, Hash: hash, newCC: newCC, timerAt: units.Never, nackFor: -1, Start: -1, Finish: -1, probeAt: -1}
}

// PFCPausedUntil is PFCPaused plus the pause holding the flow now, if
// any, up to now (flows.parquet's pfc_paused_ns at the end of a run).
func (f *Flow) PFCPausedUntil(now units.Time) units.Time {
	if f.pauseHeld {
		return f.PFCPaused + now - f.heldSince
	}
	return f.PFCPaused
}

// PacketDropped takes a packet of the flow that a switch discarded out of
// the packets in the network (see Quiet).
func (f *Flow) PacketDropped() { f.dropped++ }

// side is the index of the NIC of host in inNet: 0 the sender's.
func (f *Flow) side(host int32) int {
	if host == f.Src {
		return 0
	}
	return 1
}

// PublishMessages makes the messages released so far visible to the
// receiving NIC. The NIC does it at every release unless
// NIC.DeferPublish is set; then the owner of the flow table does, in a
// partitioned run between two windows, so that the receiver never reads
// the list while the sender appends to it (a message's first packet
// reaches the receiver at least a window after its release).
func (f *Flow) PublishMessages() { f.rxMsgs = f.msgs }

// Quiet reports whether nothing of the flow is left to happen: it has
// started, every released packet was delivered and acknowledged, no packet
// of it is queued, on a link or in a switch, it waits in no send queue and
// no PFC pause holds it. A quiet flow whose trace has no further message
// can be retired: no later event changes its state or its counters (a
// timer still pending finds nothing outstanding and does nothing). It
// reads the state of both NICs and the drops counted so far, so a
// partitioned run asks it between windows only (replay's barrier).
func (f *Flow) Quiet() bool {
	return f.started && f.inNet[0]+f.inNet[1] == f.dropped && f.sched == schedIdle && !f.pauseHeld &&
		f.una == f.relPSN && f.expect == f.relPSN
}

// Messages are the flow's released messages in order.
func (f *Flow) Messages() []*Message { return f.msgs }

// Outstanding reports whether any released data is not yet acknowledged.
func (f *Flow) Outstanding() bool { return f.una < f.relPSN }

// payloadOf is the payload of packet psn of message m.
func payloadOf(m *Message, psn int64, mtu units.Bytes) units.Bytes {
	if psn == m.FirstPSN+m.NPkts-1 {
		return m.Bytes - units.Bytes(m.NPkts-1)*mtu
	}
	return mtu
}

// msgAt finds the message holding psn, starting from hint.
func (f *Flow) msgAt(psn int64, hint int) int { return msgIn(f.msgs, psn, hint) }

// msgIn finds the message of msgs holding psn, starting from hint.
func msgIn(msgs []*Message, psn int64, hint int) int {
	i := hint
	if i >= len(msgs) {
		i = len(msgs) - 1
	}
	for i > 0 && msgs[i].FirstPSN > psn {
		i--
	}
	for i < len(msgs)-1 && psn >= msgs[i].FirstPSN+msgs[i].NPkts {
		i++
	}
	return i
}

// bytesBetween is the payload in PSNs [from, to).
func (f *Flow) bytesBetween(from, to int64, mtu units.Bytes) units.Bytes {
	var b units.Bytes
	i := f.msgAt(from, f.sendMsg)
	for from < to && i < len(f.msgs) {
		m := f.msgs[i]
		end := m.FirstPSN + m.NPkts
		if to < end {
			end = to
		}
		for p := from; p < end; p++ {
			b += payloadOf(m, p, mtu)
		}
		from = end
		i++
	}
	return b
}

// RxBytes is the payload the receiver has accepted in order so far: the
// bytes of PSNs [0, expect), with mtu the payload of a full packet. It
// walks the flow's messages (not its packets), so it is meant for a few
// snapshots per run, not for every packet.
func (f *Flow) RxBytes(mtu units.Bytes) units.Bytes {
	var b units.Bytes
	for _, m := range f.msgs {
		end := m.FirstPSN + m.NPkts
		if f.expect >= end {
			b += m.Bytes
			continue
		}
		if f.expect > m.FirstPSN {
			// Every packet but a message's last carries a full payload.
			b += units.Bytes(f.expect-m.FirstPSN) * mtu
		}
		break
	}
	return b
}
