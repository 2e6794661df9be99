package examplegen

import (
	"cmp"
	"encoding/binary"
	"io"
	"net"
	"net/netip"
	"slices"
	"time"

	"github.com/google/gopacket"
	"github.com/google/gopacket/layers"
	"github.com/google/gopacket/pcapgo"

	"github.com/ccreplay/ccreplay/ingest/roce"
)

// event is one packet of the capture.
type event struct {
	t     int64 // ns since the epoch
	seq   int   // creation order, breaks ties
	frame []byte
}

// qpPair is the state of host a's QP for its connection with host b.
type qpPair struct {
	psn     uint32 // next request PSN
	msn     uint32 // messages acknowledged
	lastCNP int64  // last CNP sent to this QP, or -1
}

// gen builds the packets of a capture.
type gen struct {
	c       Config
	out     packetWriter
	truth   Truth
	events  []event
	seq     int
	clock   []int64 // when each host's link is free
	pairs   map[[2]int]*qpPair
	qpsUsed map[[3]uint32]bool
	hot     int // data packets sent to HotHost so far
	ipID    []uint16
	// from and to are the hosts of the packet being built.
	from, to int

	buf   gopacket.SerializeBuffer
	eth   layers.Ethernet
	dot1q layers.Dot1Q
	ip4   layers.IPv4
	ip6   layers.IPv6
	udp   layers.UDP
	bth   roce.BTH
	pay   []byte
}

// packetWriter is pcapgo's pcap or pcapng writer.
type packetWriter interface {
	WritePacket(ci gopacket.CaptureInfo, data []byte) error
}

func newGen(w io.Writer, c Config) (*gen, error) {
	g := &gen{c: c, clock: make([]int64, c.Hosts), pairs: map[[2]int]*qpPair{}, qpsUsed: map[[3]uint32]bool{},
		ipID: make([]uint16, c.Hosts), buf: gopacket.NewSerializeBuffer()}
	snap := uint32(65536)
	if c.Snaplen > 0 {
		snap = uint32(c.Snaplen)
	}
	switch c.Format {
	case PcapNano, PcapMicro:
		pw := pcapgo.NewWriterNanos(w)
		if c.Format == PcapMicro {
			pw = pcapgo.NewWriter(w)
		}
		if err := pw.WriteFileHeader(snap, layers.LinkTypeEthernet); err != nil {
			return nil, err
		}
		g.out = pw
	case Pcapng:
		intf := pcapgo.NgInterface{Name: "mirror0", LinkType: layers.LinkTypeEthernet, SnapLength: snap, TimestampResolution: 9}
		nw, err := pcapgo.NewNgWriterInterface(w, intf, pcapgo.NgWriterOptions{
			SectionInfo: pcapgo.NgSectionInfo{Application: "ccreplay examplegen"}})
		if err != nil {
			return nil, err
		}
		g.out = nw
	}
	return g, nil
}

// pair returns the state of the connection a->b (a is the requester).
func (g *gen) pair(a, b int) *qpPair {
	k := [2]int{a, b}
	p, ok := g.pairs[k]
	if !ok {
		p = &qpPair{psn: initialPSN(a, b), lastCNP: -1}
		g.pairs[k] = p
	}
	return p
}

// round generates one round starting at t and returns when its last
// packet was sent: an all-to-all (host h sends to h+1, h+2, ... in turn,
// pairwise exchange order) or an incast to Root.
func (g *gen) round(r int, t int64) (int64, error) {
	for h := range g.clock {
		g.clock[h] = max(g.clock[h], t)
	}
	send := func(h, d int) {
		if g.c.Op == OpRead {
			g.read(r, h, d)
		} else {
			g.message(r, h, d)
		}
	}
	if g.c.Pattern == Incast {
		// Every sender's link starts at t: the messages overlap.
		for h := 0; h < g.c.Hosts; h++ {
			if h != g.c.Root {
				send(h, g.c.Root)
			}
		}
	} else {
		for s := 1; s < g.c.Hosts; s++ {
			for h := 0; h < g.c.Hosts; h++ {
				send(h, (h+s)%g.c.Hosts)
			}
		}
	}
	end := t
	for _, e := range g.events {
		end = max(end, e.t)
	}
	for _, c := range g.clock {
		end = max(end, c)
	}
	return end, g.flush()
}

// segments splits n bytes into MTU-sized packets (one empty packet for a
// 0-byte message).
func (g *gen) segments(n int) []int {
	var s []int
	for n > g.c.MTU {
		s = append(s, g.c.MTU)
		n -= g.c.MTU
	}
	return append(s, n)
}

// opcode returns the opcode of packet k of n of a message of kind base
// (SEND or WRITE or READ RESPONSE, given by its FIRST opcode).
func opcode(first roce.Opcode, k, n int) roce.Opcode {
	// FIRST, MIDDLE, LAST, ONLY sit at these offsets from FIRST for SEND
	// (0, 1, 2, 4), RDMA WRITE (6, 7, 8, 10) and READ RESPONSE (13..16).
	only := first + 4
	if first == roce.RCReadResponseFirst {
		only = first + 3
	}
	switch {
	case n == 1:
		return only
	case k == 0:
		return first
	case k == n-1:
		return first + 2
	}
	return first + 1
}

// message sends MessageBytes from a to b as SEND or RDMA WRITE.
func (g *gen) message(r, a, b int) {
	p := g.pair(a, b)
	segs := g.segments(g.c.MessageBytes)
	first := roce.RCWriteFirst
	if g.c.Op == OpSend {
		first = roce.RCSendFirst
	}
	lost := -1
	for _, l := range g.c.Losses {
		if l.Round == r && l.Src == a && l.Dst == b && l.Packet < len(segs) {
			lost = l.Packet
		}
	}
	m := Message{Round: r, Src: a, Dst: b, SrcIP: g.addr(a), DstIP: g.addr(b), DestQP: QPN(b, a), Bytes: int64(g.c.MessageBytes)}
	psn0 := p.psn
	var lostAt int64
	for k, n := range segs {
		op := opcode(first, k, len(segs))
		t := g.data(a, b, QPN(b, a), op, psn0+uint32(k), n, k == len(segs)-1, true)
		if k == 0 {
			m.Start = t
		}
		m.End = t
		if k == lost {
			lostAt = t
		}
	}
	last := m.End
	if lost >= 0 {
		// The receiver sees the packet after the lost one out of order
		// (or times out for a lost LAST) and NAKs the missing PSN.
		nakAt := lostAt + int64(g.c.AckDelay)
		g.ack(b, a, QPN(a, b), psn0+uint32(lost), 0x60, p.msn, nakAt)
		g.truth.NAKs++
		g.clock[a] = max(g.clock[a], nakAt+int64(g.c.AckDelay)/4)
		for k := lost; k < len(segs); k++ {
			op := opcode(first, k, len(segs))
			last = g.data(a, b, QPN(b, a), op, psn0+uint32(k), segs[k], k == len(segs)-1, false)
			g.truth.Retransmissions++
			g.truth.RetransmittedBytes += int64(segs[k])
		}
	}
	p.psn = psn0 + uint32(len(segs))
	p.msn++
	g.ack(b, a, QPN(a, b), psn0+uint32(len(segs)-1), 0x1f, p.msn, last+int64(g.c.AckDelay))
	g.truth.ACKs++
	g.truth.Messages = append(g.truth.Messages, m)
}

// read has a read MessageBytes from b.
func (g *gen) read(r, a, b int) {
	p := g.pair(a, b)
	segs := g.segments(g.c.MessageBytes)
	psn0 := p.psn
	m := Message{Round: r, Src: b, Dst: a, SrcIP: g.addr(b), DstIP: g.addr(a), DestQP: QPN(b, a), Bytes: int64(g.c.MessageBytes)}
	g.bth = roce.BTH{Opcode: roce.RCReadRequest, PKey: 0xffff, DestQP: QPN(b, a), PSN: psn0 & (1<<24 - 1), AckReq: true,
		RETH: roce.RETH{VirtualAddress: 0x7f0000000000 + uint64(b)<<20, RKey: 0x100 + uint32(b), DMALength: uint32(g.c.MessageBytes)}}
	m.Start = g.send(a, b, nil, false)
	g.truth.ReadRequests++
	g.clock[b] = max(g.clock[b], m.Start+int64(g.c.AckDelay)/2)
	for k, n := range segs {
		op := opcode(roce.RCReadResponseFirst, k, len(segs))
		m.End = g.data(b, a, QPN(a, b), op, psn0+uint32(k), n, false, true)
	}
	p.psn = psn0 + uint32(len(segs))
	p.msn++
	g.truth.Messages = append(g.truth.Messages, m)
}

// data sends one data packet of n payload bytes from host a to host b on
// its link and returns its time. CE marks (and CNPs) follow Config.
func (g *gen) data(a, b int, dqp uint32, op roce.Opcode, psn uint32, n int, ackReq, firstTx bool) int64 {
	g.bth = roce.BTH{Opcode: op, PKey: 0xffff, DestQP: dqp, PSN: psn & (1<<24 - 1), AckReq: ackReq}
	if op.Headers()&roce.HasRETH != 0 {
		g.bth.RETH = roce.RETH{VirtualAddress: 0x7f0000000000 + uint64(b)<<20, RKey: 0x100 + uint32(b), DMALength: uint32(g.c.MessageBytes)}
	}
	if op.Headers()&roce.HasAETH != 0 {
		g.bth.AETH = roce.AETH{Syndrome: 0x1f, MSN: g.pair(b, a).msn + 1}
	}
	ce := false
	if b == g.c.HotHost && g.c.CEEvery > 0 {
		g.hot++
		ce = g.hot%g.c.CEEvery == 0
	}
	pay := g.payload(psn, n)
	t := g.send(a, b, pay, ce)
	if firstTx {
		g.truth.DataPackets++
	}
	if ce {
		g.truth.CEMarked++
		// The notification point (b) tells the sender's QP, a's QP for
		// its connection with b, to slow down.
		if q := g.pair(a, b); q.lastCNP < 0 || t-q.lastCNP >= int64(g.c.CNPInterval) {
			q.lastCNP = t
			g.bth = roce.BTH{Opcode: roce.CNP, PKey: 0xffff, BECN: true, DestQP: QPN(a, b)}
			g.control(b, a, make([]byte, 16), t+int64(time.Microsecond))
			g.truth.CNPs++
		}
	}
	return t
}

// payload returns n bytes of recognisable data.
func (g *gen) payload(psn uint32, n int) []byte {
	g.pay = slices.Grow(g.pay[:0], n)[:n]
	for i := range g.pay {
		g.pay[i] = byte(int(psn) + i)
	}
	return g.pay
}

// ack sends an ACK or NAK (AETH syndrome) from a to b's QP at time t.
func (g *gen) ack(a, b int, dqp, psn uint32, syndrome uint8, msn uint32, t int64) {
	g.bth = roce.BTH{Opcode: roce.RCAcknowledge, PKey: 0xffff, DestQP: dqp, PSN: psn & (1<<24 - 1),
		AETH: roce.AETH{Syndrome: syndrome, MSN: msn & (1<<24 - 1)}}
	g.control(a, b, nil, t)
}

// send serializes g.bth with payload from a to b at a's link clock,
// advances the clock and returns the packet's time.
func (g *gen) send(a, b int, pay []byte, ce bool) int64 {
	frame := g.frame(a, b, pay, ce)
	t := g.clock[a]
	g.clock[a] += (int64(len(frame)+24)*8*int64(time.Second) + g.c.Rate - 1) / g.c.Rate // + preamble, IFG, FCS
	g.emit(t, frame)
	return t
}

// control emits a control packet from a to b at time t, off the link
// clock.
func (g *gen) control(a, b int, pay []byte, t int64) {
	g.emit(t, g.frame(a, b, pay, false))
}

func (g *gen) emit(t int64, frame []byte) {
	g.events = append(g.events, event{t: t, seq: g.seq, frame: frame})
	g.seq++
	g.truth.Packets++
	g.qpsUsed[[3]uint32{uint32(g.from), uint32(g.to), g.bth.DestQP}] = true
}

// addr returns host h's IP address.
func (g *gen) addr(h int) netip.Addr {
	if g.c.IPv6 {
		return netip.AddrFrom16([16]byte{0xfd, 15: byte(h + 1)})
	}
	return netip.AddrFrom4([4]byte{10, 0, 0, byte(h + 1)})
}

// frame serializes Ethernet, [802.1Q], IP, UDP, g.bth and pay from a to b
// and returns a copy with the IPv4 checksum and the ICRC set.
func (g *gen) frame(a, b int, pay []byte, ce bool) []byte {
	g.from, g.to = a, b
	ecn := uint8(2) // ECT(0)
	if ce {
		ecn = 3
	}
	g.eth = layers.Ethernet{SrcMAC: mac(a), DstMAC: mac(b), EthernetType: layers.EthernetTypeIPv4}
	ls := []gopacket.SerializableLayer{&g.eth}
	if g.c.VLAN {
		g.eth.EthernetType = layers.EthernetTypeDot1Q
		g.dot1q = layers.Dot1Q{Priority: 3, VLANIdentifier: 100, Type: layers.EthernetTypeIPv4}
		ls = append(ls, &g.dot1q)
	}
	ipType := &g.eth.EthernetType
	if g.c.VLAN {
		ipType = &g.dot1q.Type
	}
	src, dst := g.addr(a).AsSlice(), g.addr(b).AsSlice()
	if g.c.IPv6 {
		*ipType = layers.EthernetTypeIPv6
		g.ip6 = layers.IPv6{Version: 6, TrafficClass: 26<<2 | ecn, NextHeader: layers.IPProtocolUDP, HopLimit: 64,
			SrcIP: net.IP(src), DstIP: net.IP(dst)}
		ls = append(ls, &g.ip6)
	} else {
		g.ipID[a]++
		g.ip4 = layers.IPv4{Version: 4, IHL: 5, TOS: 26<<2 | ecn, Id: g.ipID[a], Flags: layers.IPv4DontFragment, TTL: 64,
			Protocol: layers.IPProtocolUDP, SrcIP: net.IP(src), DstIP: net.IP(dst)}
		ls = append(ls, &g.ip4)
	}
	// The UDP source port is the QP's entropy, as NICs do.
	g.udp = layers.UDP{SrcPort: layers.UDPPort(0xc000 | g.bth.DestQP&0x3fff), DstPort: roce.UDPPort}
	ls = append(ls, &g.udp, &g.bth, gopacket.Payload(pay))
	if err := gopacket.SerializeLayers(g.buf, gopacket.SerializeOptions{FixLengths: true}, ls...); err != nil {
		panic("examplegen: serialize: " + err.Error()) // only fixed, valid layers are serialized
	}
	frame := slices.Clone(g.buf.Bytes())
	ipOff := 14
	if g.c.VLAN {
		ipOff = 18
	}
	ipLen := 20
	if g.c.IPv6 {
		ipLen = 40
	} else {
		binary.BigEndian.PutUint16(frame[ipOff+10:], ipChecksum(frame[ipOff:ipOff+20]))
	}
	udpOff := ipOff + ipLen
	if err := roce.SetICRC(frame[ipOff:udpOff], frame[udpOff:udpOff+8], frame[udpOff+8:]); err != nil {
		panic("examplegen: ICRC: " + err.Error())
	}
	return frame
}

// ipChecksum computes an IPv4 header checksum (the field being 0).
func ipChecksum(h []byte) uint16 {
	var s uint32
	for i := 0; i < len(h); i += 2 {
		s += uint32(h[i])<<8 | uint32(h[i+1])
	}
	for s > 0xffff {
		s = s&0xffff + s>>16
	}
	return ^uint16(s)
}

func mac(h int) net.HardwareAddr { return net.HardwareAddr{2, 0, 0, 0, byte(h >> 8), byte(h + 1)} }

// flush writes the buffered packets in time order.
func (g *gen) flush() error {
	slices.SortFunc(g.events, func(x, y event) int { return cmp.Or(cmp.Compare(x.t, y.t), cmp.Compare(x.seq, y.seq)) })
	for _, e := range g.events {
		ci := gopacket.CaptureInfo{Timestamp: time.Unix(0, e.t).UTC(), CaptureLength: len(e.frame), Length: len(e.frame)}
		data := e.frame
		if g.c.Snaplen > 0 && len(data) > g.c.Snaplen {
			data = data[:g.c.Snaplen]
			ci.CaptureLength = g.c.Snaplen
		}
		if g.c.Format == PcapMicro {
			ci.Timestamp = ci.Timestamp.Truncate(time.Microsecond)
		}
		if err := g.out.WritePacket(ci, data); err != nil {
			return err
		}
		if g.truth.FirstNs == 0 {
			g.truth.FirstNs = e.t
		}
		g.truth.LastNs = e.t
	}
	g.events = g.events[:0]
	if f, ok := g.out.(interface{ Flush() error }); ok {
		return f.Flush()
	}
	return nil
}
