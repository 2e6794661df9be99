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

// Validate reports the first impossible setting.
func (c *Config) Validate() error {
	switch {
	case c.MTUPayload <= 0:
		return fmt.Errorf("mtu payload must be > 0 bytes, got %d", c.MTUPayload)
	case c.HeaderBytes < 0:
		return fmt.Errorf("header bytes must be >= 0, got %d", c.HeaderBytes)
	case c.AckBytes <= 0 || c.NackBytes <= 0 || c.CNPBytes <= 0:
		return fmt.Errorf("control packet sizes must be > 0 bytes")
	case c.AckEvery < 1:
		return fmt.Errorf("ack interval must be >= 1 packet, got %d", c.AckEvery)
	case c.CNPInterval < 0:
		return fmt.Errorf("cnp interval must be >= 0, got %v", c.CNPInterval)
	case c.RTO <= 0:
		return fmt.Errorf("retransmission timeout must be > 0, got %v", c.RTO)
	case c.Window < 0:
		return fmt.Errorf("window must be >= 0 bytes, got %d", c.Window)
	case c.DataPrio < 1 || c.DataPrio > 7:
		return fmt.Errorf("data priority must be in 1..7, got %d", c.DataPrio)
	case c.MinRate <= 0:
		return fmt.Errorf("minimum rate must be > 0, got %d", c.MinRate)
	case c.ProbeBytes < 0 || c.ProbeTimeout < 0:
		return fmt.Errorf("probe size and timeout must be >= 0, got %d bytes and %v", c.ProbeBytes, c.ProbeTimeout)
	}
	return nil
}

// Packets is the number of data packets a message of b payload bytes needs
// (a zero-byte message still sends one packet).
func (c *Config) Packets(b units.Bytes) int64 {
	if b <= 0 {
		return 1
	}
	return int64((b + c.MTUPayload - 1) / c.MTUPayload)
}
