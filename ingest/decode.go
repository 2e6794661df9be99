package ingest

import (
	"fmt"
	"net/netip"

	"github.com/google/gopacket"
	"github.com/google/gopacket/layers"

	"github.com/ccreplay/ccreplay/ingest/roce"
)

// packet is what ingest keeps of one captured packet: the rest of the
// package works on these fields, never on gopacket types.
type packet struct {
	index    int64 // 1-based position in the capture, as Wireshark numbers packets
	t        int64 // capture time, ns since the Unix epoch
	src, dst netip.Addr
	ecn      uint8 // the IP ECN field: 0 not-ECT, 1 ECT(1), 2 ECT(0), 3 CE
	proto    layers.IPProtocol
	sport    uint16
	dport    uint16
	payload  int  // TCP/UDP payload bytes per the headers (not the captured bytes)
	sliced   bool // the capture kept only part of the packet
	// TCP only.
	seq      uint32
	syn, fin bool
	// RoCEv2 only (bth != nil): data is the BTH payload without padding
	// and ICRC, computed from the UDP length so that sliced captures count.
	bth  *roce.BTH
	data int
	// icrc is the ICRC check: 0 not checked, 1 good, 2 bad.
	icrc uint8
}

const (
	ecnCE = 3

	icrcUnchecked = 0
	icrcGood      = 1
	icrcBad       = 2
)

// decoder turns packet bytes into packets with gopacket's
// DecodingLayerParser, one parser per first layer, sharing the layers.
type decoder struct {
	eth     layers.Ethernet
	dot1q   layers.Dot1Q
	sll     layers.LinuxSLL
	ip4     layers.IPv4
	ip6     layers.IPv6
	udp     layers.UDP
	tcp     layers.TCP
	bth     roce.BTH
	payload gopacket.Payload

	parsers map[gopacket.LayerType]*gopacket.DecodingLayerParser
	layers  map[gopacket.LayerType]gopacket.DecodingLayer
	decoded []gopacket.LayerType
	// verifyICRC checks every complete RoCEv2 packet's ICRC.
	verifyICRC bool
}

func newDecoder(verifyICRC bool) *decoder {
	d := &decoder{parsers: map[gopacket.LayerType]*gopacket.DecodingLayerParser{}, verifyICRC: verifyICRC}
	d.layers = map[gopacket.LayerType]gopacket.DecodingLayer{}
	for _, l := range d.all() {
		d.layers[l.CanDecode().LayerTypes()[0]] = l
	}
	return d
}

func (d *decoder) all() []gopacket.DecodingLayer {
	return []gopacket.DecodingLayer{&d.eth, &d.dot1q, &d.sll, &d.ip4, &d.ip6, &d.udp, &d.tcp, &d.bth, &d.payload}
}

func (d *decoder) parser(first gopacket.LayerType) *gopacket.DecodingLayerParser {
	p, ok := d.parsers[first]
	if !ok {
		p = gopacket.NewDecodingLayerParser(first)
		// A sparse container indexes decoders by layer type: no map
		// lookup per layer.
		dlc := gopacket.DecodingLayerContainer(gopacket.DecodingLayerSparse(nil))
		for _, l := range d.all() {
			dlc = dlc.Put(l)
		}
		p.SetDecodingLayerContainer(dlc)
		// Layers without a decoder here (ARP, ICMP, DNS, ...) end
		// decoding quietly: what was decoded says what the packet is.
		p.IgnoreUnsupported = true
		d.parsers[first] = p
	}
	return p
}

// decode fills p from data, which starts with layer first, and returns ""
// or why the packet is skipped (a reason counted in the report).
func (d *decoder) decode(data []byte, first gopacket.LayerType, p *packet) string {
	parser := d.parser(first)
	err := parser.DecodeLayers(data, &d.decoded)
	var haveIP4, haveIP6, haveUDP, haveTCP, haveBTH bool
	for _, t := range d.decoded {
		switch t {
		case layers.LayerTypeIPv4:
			haveIP4 = true
		case layers.LayerTypeIPv6:
			haveIP6 = true
		case layers.LayerTypeUDP:
			haveUDP = true
		case layers.LayerTypeTCP:
			haveTCP = true
		case roce.LayerTypeBTH:
			haveBTH = true
		}
	}
	isRoCE := haveUDP && d.udp.DstPort == roce.UDPPort
	// An error after the transport header only matters for RoCEv2, whose
	// BTH ingest needs; other payloads are not ingest's business.
	if err != nil && (!(haveUDP || haveTCP) || isRoCE) {
		what := d.failedLayer(first)
		if parser.Truncated {
			return "truncated " + what + " header"
		}
		return "malformed " + what
	}
	switch {
	case haveIP4:
		if d.ip4.Flags&layers.IPv4MoreFragments != 0 || d.ip4.FragOffset != 0 {
			return "IP fragment"
		}
		p.src, _ = netip.AddrFromSlice(d.ip4.SrcIP)
		p.dst, _ = netip.AddrFromSlice(d.ip4.DstIP)
		p.ecn = d.ip4.TOS & 3
		p.proto = d.ip4.Protocol
	case haveIP6:
		p.src, _ = netip.AddrFromSlice(d.ip6.SrcIP)
		p.dst, _ = netip.AddrFromSlice(d.ip6.DstIP)
		p.ecn = d.ip6.TrafficClass & 3
		p.proto = d.ip6.NextHeader
		if d.ip6.HopByHop != nil {
			p.proto = d.ip6.HopByHop.NextHeader
		}
	default:
		return fmt.Sprintf("not IP (%v)", d.etherType())
	}
	p.src, p.dst = p.src.Unmap(), p.dst.Unmap()
	p.sliced = parser.Truncated
	switch {
	case haveUDP:
		p.proto = layers.IPProtocolUDP
		p.sport, p.dport = uint16(d.udp.SrcPort), uint16(d.udp.DstPort)
		p.payload = len(d.udp.Payload)
		if d.udp.Length >= 8 {
			p.payload = int(d.udp.Length) - 8
		}
		if !isRoCE {
			return ""
		}
		if !haveBTH { // a UDP header alone, the capture cut before the BTH
			return "truncated RoCEv2 BTH header"
		}
		p.bth = &d.bth
		b := &d.bth
		p.data = max(0, p.payload-b.Opcode.HeaderLen()-roce.ICRCLen-int(b.PadCount))
		p.sliced = p.sliced || b.Truncated
		if d.verifyICRC && !p.sliced {
			p.icrc = icrcBad
			if b.VerifyICRC(d.ipHeader(haveIP4), d.udp.Contents) {
				p.icrc = icrcGood
			}
		}
		return ""
	case haveTCP:
		p.proto = layers.IPProtocolTCP
		p.sport, p.dport = uint16(d.tcp.SrcPort), uint16(d.tcp.DstPort)
		p.payload = max(0, d.ipPayloadLen(haveIP4)-int(d.tcp.DataOffset)*4)
		p.seq, p.syn, p.fin = d.tcp.Seq, d.tcp.SYN, d.tcp.FIN
		return ""
	}
	return fmt.Sprintf("not TCP/UDP (%v)", p.proto)
}

// ipHeader returns the decoded IP header's bytes.
func (d *decoder) ipHeader(v4 bool) []byte {
	if v4 {
		return d.ip4.Contents
	}
	return d.ip6.Contents
}

// ipPayloadLen returns the IP payload length the header declares.
func (d *decoder) ipPayloadLen(v4 bool) int {
	if v4 {
		return int(d.ip4.Length) - int(d.ip4.IHL)*4
	}
	n := int(d.ip6.Length)
	if d.ip6.HopByHop != nil {
		n -= d.ip6.HopByHop.ActualLength
	}
	if d.ip6.Length == 0 { // jumbogram: the payload as captured
		n = len(d.ip6.Payload)
	}
	return n
}

// etherType returns the EtherType of the last link-layer header decoded.
func (d *decoder) etherType() layers.EthernetType {
	et := layers.EthernetType(0)
	for _, t := range d.decoded {
		switch t {
		case layers.LayerTypeEthernet:
			et = d.eth.EthernetType
		case layers.LayerTypeDot1Q:
			et = d.dot1q.Type
		case layers.LayerTypeLinuxSLL:
			et = d.sll.EthernetType
		}
	}
	return et
}

// failedLayer names the layer whose decoding failed: the one after the
// last layer decoded.
func (d *decoder) failedLayer(first gopacket.LayerType) string {
	t := first
	if n := len(d.decoded); n > 0 {
		t = d.layers[d.decoded[n-1]].NextLayerType()
	}
	if t == roce.LayerTypeBTH {
		return "RoCEv2 BTH"
	}
	return t.String()
}
