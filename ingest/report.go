package ingest

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/ccreplay/ccreplay/units"
)

// Report is what ingest found in a capture: packets by kind, what was
// skipped and why, the RoCEv2 queue pairs and messages with their
// congestion signals (ECN marks, CNPs, NAKs, retransmissions) as
// captured, the TCP/UDP flows, the host mapping and the trace built.
// Times are nanoseconds, relative to the capture's first packet unless
// the name says otherwise. JSON names are stable (ccreplay ingest --json).
type Report struct {
	File                string `json:"file"`                           // the capture's name as given
	Format              string `json:"format"`                         // "pcap" or "pcapng", with " (gzip)" when compressed
	LinkType            string `json:"link_type"`                      // e.g. "Ethernet (1)"; for pcapng, the first packet's
	TimestampResolution string `json:"timestamp_resolution,omitempty"` // "ns" or "us" for pcap files, "" for pcapng
	Packets             int64  `json:"packets"`                        // packets read
	WireBytes           int64  `json:"wire_bytes"`                     // their original lengths, summed
	FirstPacketUnixNs   int64  `json:"first_packet_unix_ns"`           // the first packet's capture time, ns since the Unix epoch
	DurationNs          int64  `json:"duration_ns"`                    // from the first packet to the last
	// Kinds counts packets by kind: "rocev2", "tcp", "udp", "skipped"
	// (kinds with no packet are left out). They add up to Packets.
	Kinds map[string]int64 `json:"packets_by_kind"`
	// Skipped counts the packets ingest did not use, by reason (e.g. "not
	// IP (ARP)", "not TCP/UDP (ICMPv6)", "truncated IPv4 header").
	Skipped map[string]int64 `json:"skipped"`
	// SlicedPackets were captured only in part (a small snap length):
	// their sizes come from the IP and UDP headers.
	SlicedPackets int64 `json:"sliced_packets"`
	// Truncated is set when the capture ended in the middle of a packet
	// record or a record could not be read: packets before it are used.
	Truncated *Truncation  `json:"truncated,omitempty"`
	RoCE      RoCEReport   `json:"rocev2"`             // what the RoCEv2 traffic held
	L4        L4Report     `json:"tcp_udp"`            // what the other TCP and UDP traffic held
	Hosts     []HostReport `json:"hosts"`              // the mapping from addresses to simulated hosts
	Trace     TraceReport  `json:"trace"`              // the trace built
	Warnings  []string     `json:"warnings,omitempty"` // things the user should know, one sentence each
}

// Truncation locates where reading a capture stopped early.
type Truncation struct {
	// Packet is the 1-based number of the record that could not be read;
	// packets 1..Packet-1 were used.
	Packet int64 `json:"packet"`
	// Error says what was wrong with it.
	Error string `json:"error"`
}

// RoCEReport sums up the RoCEv2 packets (UDP destination port 4791).
type RoCEReport struct {
	Packets int64            `json:"packets"` // RoCEv2 packets
	Opcodes map[string]int64 `json:"opcodes"` // packets by BTH opcode name ("RC_SEND_FIRST", "CNP")
	// QPs are the queue pairs, each keyed by (source IP, destination IP,
	// destination QP), in order of first appearance; QPCount is their
	// number.
	QPs     []QPReport `json:"qps"`
	QPCount int        `json:"qp_count"`
	// Messages reconstructed (SEND, RDMA WRITE and RDMA READ), their
	// bytes, and how many were cut by the capture's start or end (or lost
	// a FIRST/LAST packet before it).
	Messages           int64 `json:"messages"`
	MessageBytes       int64 `json:"message_bytes"`
	IncompleteMessages int64 `json:"incomplete_messages"`
	// DataPackets carry message data (SEND, RDMA WRITE, READ RESPONSE),
	// retransmissions left out.
	DataPackets int64 `json:"data_packets"`
	// Congestion and loss signals as captured (a replay re-creates them):
	// packets with ECT(0), ECT(1) or CE, CE-marked packets, CNPs, ACKs,
	// NAKs and RNR NAKs (by AETH syndrome), and retransmitted packets
	// (by PSN) with their data bytes.
	ECT                int64 `json:"ect_packets"`
	CEMarked           int64 `json:"ce_marked"`
	CNPs               int64 `json:"cnps"`
	ACKs               int64 `json:"acks"`
	NAKs               int64 `json:"naks"`
	RNRNAKs            int64 `json:"rnr_naks"`
	Retransmissions    int64 `json:"retransmissions"`
	RetransmittedBytes int64 `json:"retransmitted_bytes"`
	// MissingPSNs counts request PSNs skipped in the capture (packets lost
	// before the capture point, or not captured).
	MissingPSNs int64 `json:"missing_psns"`
	// ICRCChecked and ICRCBad count the ICRC verification
	// (Options.VerifyICRC) of the packets captured whole.
	ICRCChecked int64 `json:"icrc_checked"`
	ICRCBad     int64 `json:"icrc_bad"`
}

// QPReport is one queue pair as the capture saw it: the packets sent to
// destination QP DestQP at Dst from Src. Requests (SEND, WRITE, READ
// REQUEST) travel on the responder's QP; ACKs, NAKs, READ RESPONSEs and
// CNPs travel on the requester's, so the counts of a QP row describe the
// QP's inbound traffic: its ACKs and CNPs are the ones that pace the
// requests it sends.
type QPReport struct {
	Src                string `json:"src"`                 // source IP address
	Dst                string `json:"dst"`                 // destination IP address
	DestQP             uint32 `json:"dest_qp"`             // destination queue pair number
	Packets            int64  `json:"packets"`             // packets of every kind sent to this QP
	DataPackets        int64  `json:"data_packets"`        // the ones carrying message data, first transmissions
	Messages           int64  `json:"messages"`            // messages whose requests were sent to this QP
	MessageBytes       int64  `json:"message_bytes"`       // their bytes
	ReadRequests       int64  `json:"read_requests"`       // RDMA READ REQUESTs
	ECT                int64  `json:"ect_packets"`         // packets with ECT(0), ECT(1) or CE
	CEMarked           int64  `json:"ce_marked"`           // packets with CE
	ACKs               int64  `json:"acks"`                // ACKs (AETH syndrome 000xxxxx)
	NAKs               int64  `json:"naks"`                // NAKs (011xxxxx)
	RNRNAKs            int64  `json:"rnr_naks"`            // receiver-not-ready NAKs (001xxxxx)
	CNPs               int64  `json:"cnps"`                // congestion notification packets
	Retransmissions    int64  `json:"retransmissions"`     // packets whose PSN was already seen (go-back-N resends), not counted again in any message
	RetransmittedBytes int64  `json:"retransmitted_bytes"` // their data bytes
	MissingPSNs        int64  `json:"missing_psns"`        // request PSNs the capture skipped
	FirstNs            int64  `json:"first_ns"`            // first packet
	LastNs             int64  `json:"last_ns"`             // last packet
}

// L4Report sums up the TCP and UDP traffic that is not RoCEv2.
type L4Report struct {
	TCPFlows int64 `json:"tcp_flows"` // TCP flows (one per direction)
	UDPFlows int64 `json:"udp_flows"` // UDP flows (one per direction)
	// Flows are the flows by 5-tuple (one per direction), in order of
	// first appearance.
	Flows []FlowReport `json:"flows"`
}

// FlowReport is one direction of a TCP or UDP conversation.
type FlowReport struct {
	Proto              string `json:"proto"`               // "tcp" or "udp"
	Src                string `json:"src"`                 // source IP address
	SrcPort            uint16 `json:"src_port"`            // source port
	Dst                string `json:"dst"`                 // destination IP address
	DstPort            uint16 `json:"dst_port"`            // destination port
	Packets            int64  `json:"packets"`             // packets
	PayloadBytes       int64  `json:"payload_bytes"`       // TCP/UDP payload bytes, summed
	UniqueBytes        int64  `json:"unique_bytes"`        // without TCP retransmissions: the message size
	RetransmittedBytes int64  `json:"retransmitted_bytes"` // TCP payload bytes sent before
	ECT                int64  `json:"ect_packets"`         // packets with ECT(0), ECT(1) or CE
	CEMarked           int64  `json:"ce_marked"`           // packets with CE
	StartNs            int64  `json:"start_ns"`            // first packet
	EndNs              int64  `json:"end_ns"`              // last packet
}

// HostReport is one simulated host and the addresses mapped to it.
type HostReport struct {
	Host  int32    `json:"host"`  // host index in the trace
	Addrs []string `json:"addrs"` // its IP addresses, in order of first appearance
}

// TraceReport describes the trace built from the capture.
type TraceReport struct {
	Timing     string `json:"timing"`       // "open" or "closed"
	Hosts      int    `json:"hosts"`        // the trace's host count
	Messages   int    `json:"messages"`     // messages in the trace
	Bytes      int64  `json:"bytes"`        // their bytes
	Flows      int    `json:"flows"`        // trace flows (queue pairs)
	FromRoCE   int    `json:"from_rocev2"`  // messages reconstructed from RoCEv2
	FromTCPUDP int    `json:"from_tcp_udp"` // messages made from TCP/UDP flows
	// SameHost counts messages between two addresses of one host, which
	// the replay completes locally.
	SameHost int `json:"same_host"`
	// Dependent counts messages released by a dependency (closed loop).
	Dependent int `json:"dependent"`
}

// maxRows bounds the QP and flow tables of WriteText.
const maxRows = 20

// WriteText prints the report for people: a summary, the skipped packets,
// the largest QPs and flows and the host mapping; not the warnings, which
// a caller prints apart (the CLI on stderr).
func (r *Report) WriteText(w io.Writer) error {
	var b strings.Builder
	p := func(format string, a ...any) { fmt.Fprintf(&b, format, a...) }
	p("%s: %s, %s", r.File, r.Format, r.LinkType)
	if r.TimestampResolution != "" {
		p(", %s timestamps", r.TimestampResolution)
	}
	p("\n%d packets, %d bytes on the wire, %s\n", r.Packets, r.WireBytes, units.HumanNs(float64(r.DurationNs)))
	p("packets by kind: %s\n", fmtCounts(r.Kinds))
	if len(r.Skipped) > 0 {
		p("skipped: %s\n", fmtCounts(r.Skipped))
	}
	if r.SlicedPackets > 0 {
		p("sliced packets (sizes from headers): %d\n", r.SlicedPackets)
	}
	if r.Truncated != nil {
		p("TRUNCATED at packet %d: %s (packets before it are used)\n", r.Truncated.Packet, r.Truncated.Error)
	}
	if x := &r.RoCE; x.Packets > 0 {
		p("\nRoCEv2: %d packets, %d QPs, %d messages (%d bytes, %d incomplete), %d data packets\n",
			x.Packets, x.QPCount, x.Messages, x.MessageBytes, x.IncompleteMessages, x.DataPackets)
		p("  ECN: %d ECT, %d CE-marked; %d CNPs; %d ACKs, %d NAKs, %d RNR NAKs; %d retransmissions (%d bytes), %d missing PSNs\n",
			x.ECT, x.CEMarked, x.CNPs, x.ACKs, x.NAKs, x.RNRNAKs, x.Retransmissions, x.RetransmittedBytes, x.MissingPSNs)
		if x.ICRCChecked > 0 {
			p("  ICRC: %d checked, %d bad\n", x.ICRCChecked, x.ICRCBad)
		}
		p("  opcodes: %s\n", fmtCounts(x.Opcodes))
		writeQPs(&b, x.QPs)
	}
	if len(r.L4.Flows) > 0 {
		p("\nTCP/UDP: %d TCP flows, %d UDP flows\n", r.L4.TCPFlows, r.L4.UDPFlows)
		writeFlows(&b, r.L4.Flows)
	}
	p("\nhosts: %d\n", len(r.Hosts))
	for i, h := range r.Hosts {
		if i == maxRows {
			p("  ... %d more\n", len(r.Hosts)-maxRows)
			break
		}
		p("  %d  %s\n", h.Host, strings.Join(h.Addrs, " "))
	}
	t := &r.Trace
	p("\ntrace: %d messages (%d from RoCEv2, %d from TCP/UDP), %d bytes, %d flows, %d hosts, %s timing",
		t.Messages, t.FromRoCE, t.FromTCPUDP, t.Bytes, t.Flows, t.Hosts, t.Timing)
	if t.Dependent > 0 {
		p(", %d released by dependencies", t.Dependent)
	}
	if t.SameHost > 0 {
		p(", %d same-host", t.SameHost)
	}
	p("\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// writeQPs prints the QPs with the most packets.
func writeQPs(b *strings.Builder, qps []QPReport) {
	writeTop(b, "  src\tdst\tdest QP\tpackets\tdata\tmessages\tbytes\tCE\tACK\tNAK\tCNP\tretx\t", qps,
		func(a, c QPReport) int { return cmp.Compare(c.Packets, a.Packets) },
		func(q QPReport) string {
			return fmt.Sprintf("  %s\t%s\t%#06x\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t\n", q.Src, q.Dst, q.DestQP, q.Packets,
				q.DataPackets, q.Messages, q.MessageBytes, q.CEMarked, q.ACKs, q.NAKs, q.CNPs, q.Retransmissions)
		})
}

// writeFlows prints the flows with the most payload.
func writeFlows(b *strings.Builder, flows []FlowReport) {
	writeTop(b, "  proto\tsrc\tdst\tpackets\tbytes\tunique\tECT\tCE\tduration\t", flows,
		func(a, c FlowReport) int { return cmp.Compare(c.PayloadBytes, a.PayloadBytes) },
		func(f FlowReport) string {
			return fmt.Sprintf("  %s\t%s\t%s\t%d\t%d\t%d\t%d\t%d\t%s\t\n", f.Proto, hostPort(f.Src, f.SrcPort), hostPort(f.Dst, f.DstPort),
				f.Packets, f.PayloadBytes, f.UniqueBytes, f.ECT, f.CEMarked, units.HumanNs(float64(f.EndNs-f.StartNs)))
		})
}

// writeTop prints the table header and the first maxRows of rows in the
// (stable) order of order, one line each, then how many it left out.
func writeTop[T any](b *strings.Builder, header string, rows []T, order func(a, c T) int, line func(T) string) {
	rows = slices.Clone(rows)
	slices.SortStableFunc(rows, order)
	tw := tabwriter.NewWriter(b, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, header)
	for i, r := range rows {
		if i == maxRows {
			fmt.Fprintf(tw, "  ... %d more\t\n", len(rows)-maxRows)
			break
		}
		fmt.Fprint(tw, line(r))
	}
	tw.Flush()
}

func hostPort(a string, port uint16) string {
	if strings.Contains(a, ":") {
		return fmt.Sprintf("[%s]:%d", a, port)
	}
	return fmt.Sprintf("%s:%d", a, port)
}

// fmtCounts prints "a 3, b 2" with the largest counts first, names
// breaking ties.
func fmtCounts(m map[string]int64) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b string) int {
		if m[a] != m[b] {
			if m[a] > m[b] {
				return -1
			}
			return 1
		}
		return strings.Compare(a, b)
	})
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s %d", k, m[k])
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, ", ")
}
