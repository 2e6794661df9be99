// Package examplegen writes synthetic RoCEv2 captures: an MPI-like
// all-to-all among hosts over RC queue pairs, serialized packet by packet
// with gopacket (Ethernet, optional 802.1Q, IPv4 or IPv6, UDP, the BTH of
// ingest/roce with a correct ICRC), with ACKs, CE-marked packets, CNPs,
// and go-back-N retransmissions after injected losses. Write returns the
// ground truth (every message and the counts of each packet kind), which
// the ingest tests compare with what they reconstruct.
//
// Example is the configuration of examples/alltoall_roce.pcap, which the
// package's test regenerates (go test ./ingest/internal/examplegen -update) and
// checks byte for byte. The output is a pure function of the Config.
//
// The timing model is deliberately simple: every host sends on its own
// link at Config.Rate, one message after another; control packets (ACK,
// NAK, CNP) are stamped without occupying a link. The capture point sees
// every packet, like a mirror port on the switch: a lost packet is lost
// after it (the original is in the capture, then its retransmission).
package examplegen

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"net/netip"
	"time"
)

// Op is the RDMA operation the all-to-all uses.
type Op int

const (
	// OpWrite sends each message as RDMA WRITE FIRST/MIDDLE/LAST (or ONLY).
	OpWrite Op = iota
	// OpSend sends each message as SEND FIRST/MIDDLE/LAST (or ONLY).
	OpSend
	// OpRead has each host read MessageBytes from every peer: an RDMA READ
	// REQUEST and READ RESPONSE FIRST/MIDDLE/LAST (or ONLY).
	OpRead
)

// Pattern is who sends to whom in a round.
type Pattern int

const (
	// AllToAll: every host sends to every other host, in pairwise
	// exchange order (host h to h+1, h+2, ... in turn), one message after
	// another on its link.
	AllToAll Pattern = iota
	// Incast: every host but Root sends one message to Root, all starting
	// at the round's start (a gather, a parameter-server push): the
	// receiver's link is where a replay's congestion builds.
	Incast
)

// Format is the capture file format.
type Format int

const (
	// PcapNano is classic pcap with nanosecond timestamps.
	PcapNano Format = iota
	// PcapMicro is classic pcap with microsecond timestamps.
	PcapMicro
	// Pcapng is pcapng with nanosecond timestamps.
	Pcapng
)

// Loss drops one data packet after the capture point: the receiver
// answers the next one with a NAK (PSN sequence error) and the sender
// resends from the lost packet to the end of the message (go-back-N).
type Loss struct {
	// Round, Src and Dst name the message (Src sends to Dst in Round).
	Round, Src, Dst int
	// Packet is the 0-based index of the lost packet in the message.
	Packet int
}

// Config describes a capture. Zero values take the defaults noted.
type Config struct {
	// Hosts in the all-to-all, 2..200 (default 8).
	Hosts int
	// Pattern of each round (default AllToAll); Root is Incast's
	// receiver.
	Pattern Pattern
	Root    int
	// Rounds of all-to-all (default 1).
	Rounds int
	// MessageBytes each host sends to every other host per round
	// (default 4096).
	MessageBytes int
	// MTU is the RoCE payload per packet, bytes (default 1024).
	MTU int
	// Op is the operation (default OpWrite).
	Op Op
	// Rate is the link rate, bits per second (default 100 Gb/s).
	Rate int64
	// AckDelay is the time from a packet to the ACK or NAK it causes
	// (default 2 us).
	AckDelay time.Duration
	// RoundGap is the compute time between rounds (default 10 us).
	RoundGap time.Duration
	// HotHost receives the CE-marked packets: every CEEvery-th data
	// packet sent to it is marked (no marks when CEEvery is 0).
	HotHost, CEEvery int
	// CNPInterval is the least time between two CNPs to one QP (default
	// 50 us, DCQCN's); a CNP follows a CE-marked packet by 1 us.
	CNPInterval time.Duration
	// Losses are the packets lost after the capture point (not with
	// OpRead).
	Losses []Loss
	// VLAN tags every frame with VLAN 100, priority 3.
	VLAN bool
	// IPv6 uses fd00::h+1 instead of 10.0.0.h+1.
	IPv6 bool
	// Snaplen, when > 0, keeps only that many bytes of each packet.
	Snaplen int
	// Format of the file (default PcapNano).
	Format Format
	// Start is the first packet's time (default 2024-01-01 00:00:00 UTC).
	Start time.Time
}

// Example returns the configuration of examples/alltoall_roce.pcap: 8
// hosts, 2 rounds of all-to-all of 701-byte RDMA WRITEs in 256-byte
// packets (FIRST, MIDDLE, LAST with 3 bytes of padding) on VLAN 100, every
// 4th packet into host 0 CE-marked with CNPs back, and one lost MIDDLE
// packet recovered by go-back-N.
func Example() Config {
	return Config{
		Hosts: 8, Rounds: 2, MessageBytes: 701, MTU: 256, Op: OpWrite, VLAN: true,
		HotHost: 0, CEEvery: 4,
		Losses: []Loss{{Round: 1, Src: 3, Dst: 5, Packet: 1}},
	}
}

// IncastExample returns the configuration of examples/incast_roce.pcap, the
// README's headline capture: 8 hosts, 4 rounds in which hosts 1..7 each
// RDMA WRITE 512 KiB to host 0 at once (4 KiB packets, 100 us of compute
// between rounds), captured with a 96-byte snap length (headers only, as
// RoCE captures usually are). Replayed, it is a 7-to-1 incast four times
// over, so congestion control decides the completion times.
func IncastExample() Config {
	return Config{
		Hosts: 8, Rounds: 4, Pattern: Incast, Root: 0, MessageBytes: 512 << 10, MTU: 4096, Op: OpWrite,
		RoundGap: 100 * time.Microsecond, Snaplen: 96,
	}
}

// Message is one message the capture carries, as ingest should find it.
type Message struct {
	Round int // the all-to-all round, from 0
	// Src sends the data to Dst (for a READ, Src is the responder), from
	// address SrcIP to DstIP.
	Src, Dst     int
	SrcIP, DstIP netip.Addr
	// DestQP is the QP the message's requests were sent to.
	DestQP uint32
	Bytes  int64 // the message's size
	// Start is the first packet (the READ REQUEST for a read), End the
	// last data packet's first transmission, ns since the Unix epoch.
	Start, End int64
}

// Truth is what a capture holds.
type Truth struct {
	// Messages in the order they start.
	Messages []Message
	// Packets counts every packet; DataPackets the data packets' first
	// transmissions (SEND, WRITE, READ RESPONSE).
	Packets, DataPackets int64
	// Control packets and signals.
	ReadRequests, ACKs, NAKs, CNPs, CEMarked int64
	// Retransmissions are resent data packets and their data bytes.
	Retransmissions, RetransmittedBytes int64
	// QPs counts the (src IP, dst IP, dest QP) triples used.
	QPs int
	// FirstNs and LastNs are the first and last packet times.
	FirstNs, LastNs int64
}

func (c *Config) defaults() error {
	c.Hosts = cmp.Or(c.Hosts, 8)
	c.Rounds = cmp.Or(c.Rounds, 1)
	c.MessageBytes = cmp.Or(c.MessageBytes, 4096)
	c.MTU = cmp.Or(c.MTU, 1024)
	c.Rate = cmp.Or(c.Rate, 100e9)
	c.AckDelay = cmp.Or(c.AckDelay, 2*time.Microsecond)
	c.RoundGap = cmp.Or(c.RoundGap, 10*time.Microsecond)
	c.CNPInterval = cmp.Or(c.CNPInterval, 50*time.Microsecond)
	if c.Start.IsZero() {
		c.Start = time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	}
	switch {
	case c.Hosts < 2 || c.Hosts > 200:
		return fmt.Errorf("hosts %d must be in 2..200", c.Hosts)
	case c.Rounds < 1 || c.MessageBytes < 0 || c.MTU < 4 || c.Rate < 1e6:
		return errors.New("rounds >= 1, message bytes >= 0, MTU >= 4 and rate >= 1 Mb/s")
	case c.Op == OpRead && len(c.Losses) > 0:
		return errors.New("losses are not modelled for RDMA READ")
	case c.Snaplen < 0:
		return fmt.Errorf("snaplen %d must be >= 0", c.Snaplen)
	case c.Pattern != AllToAll && c.Pattern != Incast:
		return fmt.Errorf("unknown pattern %d", c.Pattern)
	case c.Pattern == Incast && (c.Root < 0 || c.Root >= c.Hosts):
		return fmt.Errorf("incast root %d is not a host (0..%d)", c.Root, c.Hosts-1)
	}
	return nil
}

// Write writes the capture c describes to w and returns its ground truth.
// Memory holds one round's packets at a time.
func Write(w io.Writer, c Config) (*Truth, error) {
	if err := c.defaults(); err != nil {
		return nil, err
	}
	g, err := newGen(w, c)
	if err != nil {
		return nil, err
	}
	t := g.c.Start.UnixNano()
	for r := 0; r < c.Rounds; r++ {
		end, err := g.round(r, t)
		if err != nil {
			return nil, err
		}
		t = end + int64(c.RoundGap)
	}
	if err := g.flush(); err != nil {
		return nil, err
	}
	g.truth.QPs = len(g.qpsUsed)
	return &g.truth, nil
}

// QPN is host a's queue pair number for its connection with host b. Data
// from a to b goes to QPN(b, a); ACKs and CNPs back go to QPN(a, b).
func QPN(a, b int) uint32 { return 0x1000 + uint32(a)<<8 + uint32(b) }

// initialPSN is the first PSN a's QP to b uses. Host 0's QP to host 1
// starts 2 below the 24-bit wrap so that every capture exercises it.
func initialPSN(a, b int) uint32 {
	if a == 0 && b == 1 {
		return 1<<24 - 2
	}
	return uint32(a*7919+b*104729) & (1<<24 - 1)
}
