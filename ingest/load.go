package ingest

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/netip"
	"path/filepath"
	"strings"

	"github.com/ccreplay/ccreplay/limits"
	"github.com/ccreplay/ccreplay/trace"
)

// Timing says how the messages of a capture are released in the replay.
type Timing int

const (
	// OpenLoop releases every message at its captured time (its first
	// packet), relative to the capture's first packet.
	OpenLoop Timing = iota
	// ClosedLoop chains the messages of each queue pair: the first is
	// released at its captured time, each later one when the previous
	// one has completed plus the captured gap between the previous
	// message's last packet and its own first packet (at least 0). A
	// capture taken under one congestion control can then be replayed
	// under another without the captured pacing.
	ClosedLoop
)

// String returns "open" or "closed".
func (t Timing) String() string {
	if t == ClosedLoop {
		return "closed"
	}
	return "open"
}

// ParseTiming parses "open" or "closed".
func ParseTiming(s string) (Timing, error) {
	switch s {
	case "open":
		return OpenLoop, nil
	case "closed":
		return ClosedLoop, nil
	}
	return 0, fmt.Errorf("timing %q: want open or closed", s)
}

// FlowPolicy says when TCP and UDP flows become messages of the trace.
type FlowPolicy int

const (
	// FlowsAuto turns TCP/UDP flows into messages only when the capture
	// has no RoCEv2 message (RDMA captures often carry a little TCP for
	// connection setup, which is not the workload).
	FlowsAuto FlowPolicy = iota
	// FlowsAlways adds TCP/UDP flows to the RoCEv2 messages.
	FlowsAlways
	// FlowsNever leaves TCP/UDP flows out of the trace (they are still
	// reported).
	FlowsNever
)

// Options control Load.
type Options struct {
	// Timing is OpenLoop (the default) or ClosedLoop.
	Timing Timing
	// Hosts, when > 0, is the number of hosts the trace must fit, e.g.
	// the topology's: Load fails when the capture needs more. The trace's
	// host count is then Hosts. When 0 the trace has as many hosts as the
	// mapping uses.
	Hosts int
	// HostsFile maps addresses to hosts, one "address host" pair per
	// line (# starts a comment; several addresses may share a host).
	// Empty: hosts are numbered from 0 in the order their addresses first
	// appear in the capture.
	HostsFile string
	// VerifyICRC checks the ICRC of every RoCEv2 packet captured whole
	// and counts the bad ones in the report.
	VerifyICRC bool
	// Flows says when TCP/UDP flows become messages (default FlowsAuto).
	Flows FlowPolicy
	// Context, when not nil, stops the read when it is done (looked at
	// every checkEvery packets): Load then returns its error. A capture
	// can hold billions of packets, or inflate from a small gzip file.
	Context context.Context
}

// checkEvery is how many packets Load reads between two looks at its
// context: about a millisecond's work.
const checkEvery = 1 << 12

// ErrNoMessages is returned (wrapped, with the file name) when a capture
// holds no message to replay. The trace (empty) and the report are still
// returned, so that callers can show what the capture did hold.
var ErrNoMessages = errors.New("no messages found: the capture has no RoCEv2 SEND/WRITE/READ and no TCP/UDP payload")

// Extensions are the file extensions of packet captures (lower case),
// also with ".gz" appended.
var Extensions = []string{".pcap", ".pcapng", ".cap"}

// IsCapture reports whether path names a packet capture by its extension
// (.pcap, .pcapng, .cap, optionally followed by .gz), case-insensitively.
func IsCapture(path string) bool {
	p := strings.TrimSuffix(strings.ToLower(path), ".gz")
	for _, e := range Extensions {
		if filepath.Ext(p) == e {
			return true
		}
	}
	return false
}

// Load reads a packet capture (pcap or pcapng, optionally gzip
// compressed) and builds a trace from it: the RoCEv2 messages of every
// queue pair and, per opt.Flows, the TCP/UDP flows, on hosts mapped from
// IP addresses, released per opt.Timing. The report says what the
// capture held and what was skipped.
//
// A capture that ends in the middle of a packet, or whose records go bad,
// is read up to that packet: Report.Truncated says where, a warning
// repeats it, and the packets before it are used (unless it is the first
// packet: then Load fails). Files that are not captures, and captures of
// a link type ingest does not decode (such as native InfiniBand in ERF),
// are refused with an error naming the file. Errors are one line.
//
// Memory grows with the number of queue pairs, flows and messages, not
// with the number of packets.
func Load(path string, opt Options) (*trace.Trace, *Report, error) {
	f, err := limits.Open(path, "a packet capture", limits.MaxCaptureBytes, false)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	return Read(f.Reader, path, opt)
}

// Read is Load on an open stream; name is used in errors and the report.
func Read(r io.Reader, name string, opt Options) (*trace.Trace, *Report, error) {
	if opt.Hosts < 0 {
		return nil, nil, fmt.Errorf("host count %d must be >= 0", opt.Hosts)
	}
	var hf *hostFile
	if opt.HostsFile != "" {
		var err error
		if hf, err = readHostFile(opt.HostsFile); err != nil {
			return nil, nil, err
		}
	}
	c, err := openCapture(r)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", name, err)
	}
	if !c.ng && !linkTypeOK(c.linkType) {
		return nil, nil, fmt.Errorf("%s: %w", name, errLinkType(c.linkType))
	}
	in := newIngester(name, c, opt)
	if err := in.readAll(); err != nil {
		return nil, nil, fmt.Errorf("%s: %w", name, err)
	}
	tr, err := in.build(hf)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", name, err)
	}
	if len(tr.Messages) == 0 {
		return tr, in.rep, fmt.Errorf("%s: %w", name, ErrNoMessages)
	}
	return tr, in.rep, nil
}

// readAll reads every packet of the capture.
func (in *ingester) readAll() error {
	var p packet
	for {
		if ctx := in.opt.Context; ctx != nil && in.rep.Packets%checkEvery == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		data, ci, lt, err := in.c.src.next()
		if err == io.EOF {
			return nil
		}
		n := in.rep.Packets + 1
		if err != nil && in.c.inflate != nil && in.c.inflate.err != nil {
			// Not a damaged capture: one too large to read.
			return in.c.inflate.err
		}
		if err != nil {
			if err == io.ErrUnexpectedEOF {
				err = errors.New("the file ends in the middle of the packet record")
			}
			if n == 1 {
				return fmt.Errorf("cannot read packet 1: %v", err)
			}
			in.rep.Truncated = &Truncation{Packet: n, Error: err.Error()}
			in.warnf("the capture is truncated or damaged at packet %d (%v): packets 1..%d are used", n, err, n-1)
			return nil
		}
		first, ok := firstLayer(lt, data)
		if n == 1 {
			in.rep.LinkType = linkTypeName(lt)
			if !ok {
				return errLinkType(lt)
			}
		}
		in.rep.Packets = n
		p = packet{index: n, t: ci.Timestamp.UnixNano()}
		in.rep.WireBytes += int64(max(ci.Length, ci.CaptureLength))
		in.clock(p.t)
		if !ok {
			in.skip("link type " + linkTypeName(lt))
			continue
		}
		if reason := in.dec.decode(data, first, &p); reason != "" {
			in.skip(reason)
			continue
		}
		if ci.CaptureLength < ci.Length {
			p.sliced = true
		}
		if p.sliced {
			in.rep.SlicedPackets++
		}
		if p.bth != nil {
			in.roce(&p)
		} else {
			in.l4(&p)
		}
	}
}

// ingester is the state of one Load.
type ingester struct {
	c   *capture
	opt Options
	dec *decoder
	rep *Report

	t0, tLast int64 // first and last packet times, ns since the epoch
	// Packets by kind (Report.Kinds, filled at the end).
	nRoCE, nTCP, nUDP int64
	reordered         int64 // packets stamped before the first packet

	// RoCEv2 state.
	qps      map[qpKey]*qpState
	qpOrder  []*qpState
	pending  map[readKey]int32 // READ requests awaiting their response, by PSN
	opcodes  [256]int64
	msgs     []message
	roceRep  *RoCEReport
	addrSeen map[netip.Addr]int64 // address -> order of first appearance

	// TCP/UDP state.
	flows     map[l4Key]*l4Flow
	flowOrder []*l4Flow
}

func newIngester(name string, c *capture, opt Options) *ingester {
	rep := &Report{
		File: name, Format: c.format, TimestampResolution: c.resolution,
		Kinds: map[string]int64{}, Skipped: map[string]int64{},
	}
	if !c.ng {
		rep.LinkType = linkTypeName(c.linkType)
	}
	return &ingester{
		c: c, opt: opt, dec: newDecoder(opt.VerifyICRC), rep: rep,
		qps: map[qpKey]*qpState{}, pending: map[readKey]int32{}, roceRep: &rep.RoCE,
		addrSeen: map[netip.Addr]int64{}, flows: map[l4Key]*l4Flow{},
	}
}

// clock records a packet time.
func (in *ingester) clock(t int64) {
	if in.rep.Packets == 1 {
		in.t0, in.tLast = t, t
		in.rep.FirstPacketUnixNs = t
		return
	}
	if t < in.t0 {
		in.reordered++
	}
	in.tLast = max(in.tLast, t)
}

// rel returns t relative to the first packet, at least 0.
func (in *ingester) rel(t int64) int64 { return max(0, t-in.t0) }

func (in *ingester) skip(reason string) {
	in.rep.Kinds["skipped"]++
	in.rep.Skipped[reason]++
}

func (in *ingester) warnf(format string, a ...any) {
	in.rep.Warnings = append(in.rep.Warnings, fmt.Sprintf(format, a...))
}
