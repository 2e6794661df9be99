package ingest

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"net"
	"net/netip"
	"testing"
	"time"

	"github.com/google/gopacket"
	"github.com/google/gopacket/layers"
	"github.com/google/gopacket/pcapgo"

	"github.com/ccreplay/ccreplay/ingest/internal/examplegen"
	"github.com/ccreplay/ccreplay/ingest/roce"
	"github.com/ccreplay/ccreplay/trace"
)

// traceMessage is a trace message.
type traceMessage = trace.Message

// t0 is the time of the first packet of hand-built captures.
var t0 = time.Date(2024, 5, 1, 12, 0, 0, 0, time.UTC)

// frameAt is one packet of a hand-built capture.
type frameAt struct {
	at    time.Duration // after t0
	data  []byte
	wire  int // original length, when more than len(data)
	label string
}

// writePcap writes frames as a nanosecond pcap of link type lt (16 bits,
// beyond what gopacket's LinkType holds).
func writePcap(t testing.TB, lt uint16, frames []frameAt) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := pcapgo.NewWriterNanos(&buf)
	if err := w.WriteFileHeader(262144, layers.LinkType(lt&0xff)); err != nil {
		t.Fatal(err)
	}
	binary.LittleEndian.PutUint32(buf.Bytes()[20:24], uint32(lt))
	for _, f := range frames {
		ci := gopacket.CaptureInfo{Timestamp: t0.Add(f.at), CaptureLength: len(f.data), Length: max(f.wire, len(f.data))}
		if err := w.WritePacket(ci, f.data); err != nil {
			t.Fatal(err)
		}
	}
	return buf.Bytes()
}

// generate writes an examplegen capture.
func generate(t testing.TB, c examplegen.Config) ([]byte, *examplegen.Truth) {
	t.Helper()
	var buf bytes.Buffer
	truth, err := examplegen.Write(&buf, c)
	if err != nil {
		t.Fatal(err)
	}
	return buf.Bytes(), truth
}

// load ingests capture bytes and fails the test on error.
func load(t testing.TB, data []byte, opt Options) (*trace.Trace, *Report) {
	t.Helper()
	tr, rep, err := Read(bytes.NewReader(data), "test.pcap", opt)
	if err != nil {
		t.Fatal(err)
	}
	checkReport(t, rep)
	return tr, rep
}

// checkReport checks the invariants every report keeps.
func checkReport(t testing.TB, rep *Report) {
	t.Helper()
	var sum int64
	for _, n := range rep.Kinds {
		sum += n
	}
	if sum != rep.Packets {
		t.Errorf("packets by kind %v add up to %d, not %d", rep.Kinds, sum, rep.Packets)
	}
	var skipped int64
	for _, n := range rep.Skipped {
		skipped += n
	}
	if skipped != rep.Kinds["skipped"] {
		t.Errorf("skip reasons %v add up to %d, not %d", rep.Skipped, skipped, rep.Kinds["skipped"])
	}
	var op int64
	for _, n := range rep.RoCE.Opcodes {
		op += n
	}
	if op != rep.RoCE.Packets || rep.RoCE.Packets != rep.Kinds["rocev2"] {
		t.Errorf("opcodes add up to %d, RoCE packets %d, kind rocev2 %d", op, rep.RoCE.Packets, rep.Kinds["rocev2"])
	}
}

// filterCapture rewrites a nanosecond pcap keeping the packets keep
// accepts (i is 0-based).
func filterCapture(t testing.TB, data []byte, keep func(i int, frame []byte) bool) []byte {
	t.Helper()
	r, err := pcapgo.NewReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	w := pcapgo.NewWriterNanos(&out)
	if err := w.WriteFileHeader(65536, r.LinkType()); err != nil {
		t.Fatal(err)
	}
	for i := 0; ; i++ {
		d, ci, err := r.ReadPacketData()
		if errors.Is(err, io.EOF) {
			return out.Bytes()
		}
		if err != nil {
			t.Fatal(err)
		}
		if keep(i, d) {
			if err := w.WritePacket(ci, d); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// countSliced counts the packets of a capture whose captured length is
// less than their length.
func countSliced(t testing.TB, data []byte) int64 {
	t.Helper()
	var n int64
	src, err := openCapture(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	for {
		_, ci, _, err := src.src.next()
		if err != nil {
			return n
		}
		if ci.CaptureLength < ci.Length {
			n++
		}
	}
}

// opcodeOf returns the BTH opcode of an examplegen frame (VLAN-less IPv4).
func opcodeOf(frame []byte, vlan bool) roce.Opcode {
	off := 42
	if vlan {
		off = 46
	}
	return roce.Opcode(frame[off])
}

// addrHost returns the host of each address in the report.
func addrHost(t testing.TB, rep *Report) map[netip.Addr]int32 {
	t.Helper()
	m := map[netip.Addr]int32{}
	for _, h := range rep.Hosts {
		for _, a := range h.Addrs {
			m[netip.MustParseAddr(a)] = h.Host
		}
	}
	return m
}

// l4Frame builds an Ethernet/IP/TCP or UDP frame.
type l4Frame struct {
	src, dst     string
	sport, dport uint16
	tcp          bool
	seq          uint32
	syn          bool
	ecn          uint8
	payload      []byte
	fragment     bool
}

func (f l4Frame) bytes(t testing.TB) []byte {
	t.Helper()
	src, dst := net.ParseIP(f.src), net.ParseIP(f.dst)
	eth := &layers.Ethernet{SrcMAC: net.HardwareAddr{2, 0, 0, 0, 0, 1}, DstMAC: net.HardwareAddr{2, 0, 0, 0, 0, 2}}
	var ip gopacket.NetworkLayer
	ls := []gopacket.SerializableLayer{eth}
	proto := layers.IPProtocolUDP
	if f.tcp {
		proto = layers.IPProtocolTCP
	}
	if src.To4() != nil {
		eth.EthernetType = layers.EthernetTypeIPv4
		ip4 := &layers.IPv4{Version: 4, IHL: 5, TOS: f.ecn, TTL: 64, Protocol: proto, SrcIP: src.To4(), DstIP: dst.To4()}
		if f.fragment {
			ip4.Flags = layers.IPv4MoreFragments
		}
		ip = ip4
		ls = append(ls, ip4)
	} else {
		eth.EthernetType = layers.EthernetTypeIPv6
		ip6 := &layers.IPv6{Version: 6, TrafficClass: f.ecn, NextHeader: proto, HopLimit: 64, SrcIP: src, DstIP: dst}
		ip = ip6
		ls = append(ls, ip6)
	}
	if f.tcp {
		tcp := &layers.TCP{SrcPort: layers.TCPPort(f.sport), DstPort: layers.TCPPort(f.dport), Seq: f.seq, SYN: f.syn, ACK: !f.syn, Window: 1000}
		tcp.SetNetworkLayerForChecksum(ip)
		ls = append(ls, tcp)
	} else {
		udp := &layers.UDP{SrcPort: layers.UDPPort(f.sport), DstPort: layers.UDPPort(f.dport)}
		udp.SetNetworkLayerForChecksum(ip)
		ls = append(ls, udp)
	}
	ls = append(ls, gopacket.Payload(f.payload))
	buf := gopacket.NewSerializeBuffer()
	if err := gopacket.SerializeLayers(buf, gopacket.SerializeOptions{FixLengths: true, ComputeChecksums: true}, ls...); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}
