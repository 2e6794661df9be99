// Package nic is the host NIC: queue pairs (flows) with per-QP rate
// limiting and pacing, round-robin among active QPs, segmentation of
// messages into MTU packets, the receiver's ACK/NACK/CNP generation,
// go-back-N retransmission with a timeout, an optional window cap, and
// message completion at the receiver with its notice to the sender.
//
// The NIC calls the flow's cca.Algorithm on events and applies its rate
// and window; it never knows which algorithm runs.
package nic

import (
	"fmt"

	"github.com/ccreplay/ccreplay/limits"
	"github.com/ccreplay/ccreplay/units"
)

// Config is the NIC configuration, the same on every host.
type Config struct {
	// MTUPayload is the payload of a full data packet, bytes (HPCC
	// simulator PACKET_PAYLOAD_SIZE 1000).
	MTUPayload units.Bytes
	// HeaderBytes is the per-packet header overhead on the wire, bytes
	// (48: Ethernet + IPv4 + UDP + BTH + ICRC as the HPCC simulator counts).
	HeaderBytes units.Bytes
	// AckBytes, NackBytes and CNPBytes are control packet wire sizes, bytes.
	AckBytes, NackBytes, CNPBytes units.Bytes
	// AckEvery sends an ACK every N in-order data packets (and always on a
	// message's last packet); 1 = per packet.
	AckEvery int
	// CNPInterval is the receiver's minimum gap between CNPs of one QP,
	// picoseconds (DCQCN T_gap: 50 us; 1 us in the Dolce-RC setup).
	CNPInterval units.Time
	// RTO is the retransmission timeout: with data outstanding and no ACK
	// progress for RTO, the sender goes back to the first unacknowledged
	// packet, picoseconds.
	RTO units.Time
	// Window caps bytes in flight per QP, bytes; 0 = no cap. WindowBDP
	// sets the cap per QP to one bandwidth-delay product of its path (the
	// "+w" variants of the HPCC paper) and overrides Window.
	Window    units.Bytes
	WindowBDP bool
	// WindowVar scales the window above by the algorithm's current rate
	// over the line rate (at least 1 byte), the HPCC ns-3 simulator's
	// VAR_WIN (RdmaQueuePair::GetWin).
	WindowVar bool
	// DataPrio is the default priority class of data packets (1..7); a
	// flow may set its own (Flow.Prio).
	DataPrio uint8
	// MinRate is the floor the NIC applies to any algorithm's rate, bit/s.
	MinRate units.BitsPerSec
	// ProbeBytes is the wire size of RTT request and response packets,
	// bytes (flows whose algorithm is a cca.RTTProber); 0 takes AckBytes.
	ProbeBytes units.Bytes
	// ProbeTimeout is how long an unanswered RTT request keeps the flow
	// from sending another, picoseconds; after it the request counts as
	// lost. 0 takes DefaultProbeTimeout.
	ProbeTimeout units.Time
	// TxStep, when positive, truncates each pacing interval (a packet's
	// serialization time at the flow's rate) to a multiple of it,
	// picoseconds, as fabric.Port.TxStep does for links (the HPCC ns-3
	// simulator's RdmaHw::UpdateNextAvail in whole nanoseconds). Set
	// from replay.Config.TimeStep.
	TxStep units.Time `json:"-"`
	// WindowPayload counts a window's bytes in flight as payload bytes
	// (the HPCC ns-3 simulator's snd_nxt - snd_una) instead of wire bytes
	// of the packets in flight.
	WindowPayload bool
	// INTBytes is the part of HeaderBytes and AckBytes that is in-band
	// telemetry, bytes: the HPCC ns-3 simulator adds its IntHeader to
	// every data packet and ACK (42 B under HPCC: 5 hops of 8 B and a hop
	// count; 8 B of timestamp under TIMELY; 0 otherwise) and leaves it out
	// of the standalone FCT. At most HeaderBytes and AckBytes.
	INTBytes units.Bytes
	// AckInDataClass sends ACKs and NACKs in their flow's data class
	// instead of the control class 0, so that switches queue them behind
	// that class's data and PFC pauses them with it (the HPCC ns-3
	// simulator's ACK_HIGH_PRIO 0; CNPs, PAUSE and RESUME stay in class 0).
	AckInDataClass bool
	// AckIgnoresPause lets ACKs and NACKs of a data class leave the NIC
	// while that class is paused (the HPCC ns-3 simulator's ACK_HIGH_PRIO
	// 1: the hosts' ACK queue index is 0, which PFC never pauses).
	AckIgnoresPause bool
	// RepaceOnRateChange moves a flow's next send time when an ACK
	// changes its algorithm's rate: by the last packet's serialization at
	// the new rate minus at the old one, so the gap already waited counts
	// at the new rate (the HPCC ns-3 simulator's RdmaHw::ChangeRate, which
	// its HPCC uses on every rate update). False keeps the gap fixed when
	// the packet left.
	RepaceOnRateChange bool
	// CNPOnAck carries congestion notification on the ACKs instead of
	// CNP packets: the receiver sends no CNP, and an ACK echoing a CE mark
	// counts as a CNP at the sender (Flow.CNPs, cca.Algorithm.OnCNP),
	// before the algorithm sees the ACK itself. This is the HPCC ns-3
	// simulator's model (RdmaHw::ReceiveUdp sets the CNP flag on the ACK
	// of a marked packet; ReceiveAck hands it to DCQCN first), in which
	// the notification waits behind data wherever the ACK does.
	// CNPInterval then has no effect.
	CNPOnAck bool
}

// DefaultProbeTimeout is Config.ProbeTimeout's default: 100 us, about 25
// base RTTs of a 100 Gb/s star and a quarter of the queueing delay of a
// full 5 MB buffer.
const DefaultProbeTimeout = 100 * units.Microsecond

// DefaultConfig follows the HPCC simulator: 1000 B payload, 48 B headers,
// ACK per packet, CNP interval 50 us.
func DefaultConfig() Config {
	return Config{
		MTUPayload: 1000, HeaderBytes: 48,
		AckBytes: 60, NackBytes: 60, CNPBytes: 60,
		AckEvery: 1, CNPInterval: 50 * units.Microsecond,
		RTO: 4 * units.Millisecond, DataPrio: 3, MinRate: 1 * units.Mbps,
	}
}

// Validate reports the first impossible setting, in a lowercase one-line
// error that names the run.yaml key (nic.*; the fields run.yaml does not
// set are named in the same form) and the value. Sizes must be at most
// units.MaxSize, times at most limits.MaxTime, rates at most
// units.MaxRate. What depends on the switch or the topology (one data
// packet must fit a switch buffer) is checked by replay.Config.Validate.
func (c *Config) Validate() error {
	for _, f := range []bound[units.Bytes]{
		{"nic.mtu_payload", c.MTUPayload, 1},
		{"nic.header", c.HeaderBytes, 0},
		{"nic.ack_bytes", c.AckBytes, 1},
		{"nic.nack_bytes", c.NackBytes, 1},
		{"nic.cnp_bytes", c.CNPBytes, 1},
		{"nic.window", c.Window, 0},
		{"nic.probe_bytes", c.ProbeBytes, 0},
	} {
		if !(f.v >= f.min && f.v <= units.MaxSize) {
			return fmt.Errorf("%s must be in [%d, 10^18] bytes, got %d B", f.key, int64(f.min), int64(f.v))
		}
	}
	for _, f := range []bound[units.Time]{
		{"nic.cnp_interval", c.CNPInterval, 0},
		{"nic.rto", c.RTO, 1},
		{"nic.probe_timeout", c.ProbeTimeout, 0},
	} {
		switch {
		case f.v < f.min && f.min == 0:
			return fmt.Errorf("%s must not be negative, got %v", f.key, f.v)
		case f.v < f.min:
			return fmt.Errorf("%s must be > 0, got %v", f.key, f.v)
		case f.v > limits.MaxTime:
			return limits.TimeError(f.key, f.v)
		}
	}
	switch {
	case c.AckEvery < 1:
		return fmt.Errorf("nic.ack_every must be >= 1 packet, got %d", c.AckEvery)
	case c.INTBytes < 0 || c.INTBytes > c.HeaderBytes || c.INTBytes > c.AckBytes:
		return fmt.Errorf("nic INT bytes %d must be in [0, min(nic.header %d, nic.ack_bytes %d)]", int64(c.INTBytes), int64(c.HeaderBytes), int64(c.AckBytes))
	case c.DataPrio < 1 || c.DataPrio > 7:
		return fmt.Errorf("nic.data_prio must be in 1..7, got %d", c.DataPrio)
	case !(c.MinRate > 0 && c.MinRate <= units.MaxRate):
		return fmt.Errorf("nic.min_rate must be in (0, 1Pbps], got %d bps", int64(c.MinRate))
	}
	if pkt := c.MTUPayload + c.HeaderBytes; c.Window > 0 && !c.WindowBDP {
		// The sender stops at Window bytes in flight and the receiver
		// acknowledges every AckEvery packets (or a message's last): with
		// fewer packets in the window than that, each window waits for
		// the retransmission timeout before its ACK comes.
		if fit := (c.Window + pkt - 1) / pkt; int64(c.AckEvery) > int64(fit) {
			return fmt.Errorf("nic.ack_every %d is more packets than nic.window %dB lets out (%d of %d B): every window would wait for nic.rto before its ack", c.AckEvery, int64(c.Window), int64(fit), int64(pkt))
		}
	}
	return nil
}

// bound is one field Validate checks: its key, its value and the least
// value it may take.
type bound[T any] struct {
	key string
	v   T
	min T
}

// Packets is the number of data packets a message of b payload bytes needs
// (a zero-byte message still sends one packet).
func (c *Config) Packets(b units.Bytes) int64 {
	if b <= 0 {
		return 1
	}
	return int64((b + c.MTUPayload - 1) / c.MTUPayload)
}
