package ingest

import (
	"net/netip"

	"github.com/google/gopacket/layers"
)

// Generic TCP and UDP flows: one per direction of a 5-tuple. A flow with
// payload becomes one message of its unique payload bytes (TCP
// retransmissions left out), released at its first packet; flows to
// multicast or broadcast addresses are reported but never become
// messages (they have no single receiving host).

// l4Key is a directional 5-tuple.
type l4Key struct {
	proto        layers.IPProtocol
	src, dst     netip.Addr
	sport, dport uint16
}

// l4Flow is one flow's state and counters.
type l4Flow struct {
	key      l4Key
	rep      FlowReport
	start    int64 // first packet, ns since the epoch
	end      int64 // last packet
	firstPkt int64
	tcpInit  bool
	tcpNext  uint32 // next new sequence number
}

// l4 accounts one TCP or UDP packet that is not RoCEv2.
func (in *ingester) l4(p *packet) {
	isTCP := p.proto == layers.IPProtocolTCP
	if isTCP {
		in.nTCP++
	} else {
		in.nUDP++
	}
	k := l4Key{p.proto, p.src, p.dst, p.sport, p.dport}
	f, ok := in.flows[k]
	if !ok {
		f = &l4Flow{key: k, start: p.t, firstPkt: p.index}
		f.rep = FlowReport{Proto: "udp", Src: k.src.String(), SrcPort: k.sport, Dst: k.dst.String(), DstPort: k.dport}
		if isTCP {
			f.rep.Proto = "tcp"
			in.rep.L4.TCPFlows++
		} else {
			in.rep.L4.UDPFlows++
		}
		in.flows[k] = f
		in.flowOrder = append(in.flowOrder, f)
		in.see(p.src)
		in.see(p.dst)
	}
	f.end = max(f.end, p.t)
	f.rep.Packets++
	f.rep.PayloadBytes += int64(p.payload)
	if p.ecn != 0 {
		f.rep.ECT++
		if p.ecn == ecnCE {
			f.rep.CEMarked++
		}
	}
	if !isTCP {
		f.rep.UniqueBytes += int64(p.payload)
		return
	}
	f.tcp(p)
}

// tcp counts the new and the retransmitted payload bytes of a segment by
// its sequence numbers (32 bits, compared modulo 2^32).
func (f *l4Flow) tcp(p *packet) {
	if p.syn {
		if !f.tcpInit {
			f.tcpInit, f.tcpNext = true, p.seq+1
		}
		return
	}
	if !f.tcpInit { // the capture began mid-connection
		f.tcpInit, f.tcpNext = true, p.seq
	}
	n := uint32(p.payload)
	if n == 0 {
		return
	}
	end := p.seq + n
	newBytes := n
	switch {
	case int32(p.seq-f.tcpNext) >= 0: // in order, or after a gap
		f.tcpNext = end
	case int32(end-f.tcpNext) > 0: // overlaps what was seen, then goes on
		newBytes = end - f.tcpNext
		f.tcpNext = end
	default: // all seen before
		newBytes = 0
	}
	f.rep.UniqueBytes += int64(newBytes)
	f.rep.RetransmittedBytes += int64(n - newBytes)
}

// unicast reports whether a is a single host's address.
func unicast(a netip.Addr) bool {
	if a.IsMulticast() || a.IsUnspecified() {
		return false
	}
	return !(a.Is4() && a == netip.AddrFrom4([4]byte{255, 255, 255, 255}))
}

// finishL4 fills the flow report and returns the flows' messages.
func (in *ingester) finishL4() []message {
	var msgs []message
	in.rep.L4.Flows = make([]FlowReport, len(in.flowOrder))
	for i, f := range in.flowOrder {
		f.rep.StartNs, f.rep.EndNs = in.rel(f.start), in.rel(f.end)
		in.rep.L4.Flows[i] = f.rep
		if f.rep.UniqueBytes == 0 || !unicast(f.key.dst) {
			continue
		}
		kind := msgUDP
		if f.key.proto == layers.IPProtocolTCP {
			kind = msgTCP
		}
		msgs = append(msgs, message{kind: kind, src: f.key.src, dst: f.key.dst, start: f.start, end: f.end,
			firstPkt: f.firstPkt, bytes: f.rep.UniqueBytes, declared: -1, flow: flowRef{flowL4, int32(i)}, chain: -1, qp: -1})
	}
	return msgs
}
