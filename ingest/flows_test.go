package ingest

import (
	"bytes"
	"errors"
	"net"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/google/gopacket"
	"github.com/google/gopacket/layers"

	"github.com/ccreplay/ccreplay/ingest/internal/examplegen"
	"github.com/ccreplay/ccreplay/limits"
	"github.com/ccreplay/ccreplay/units"
)

// TestIngestTCPUDPFlows builds TCP and UDP conversations: unique bytes
// leave out a retransmitted segment, CE marks are counted, multicast
// flows are reported but make no message.
func TestIngestTCPUDPFlows(t *testing.T) {
	a, b, c := "10.1.0.1", "10.1.0.2", "fd00::3"
	pay := func(n int) []byte { return bytes.Repeat([]byte{'x'}, n) }
	frames := []frameAt{
		{0, l4Frame{src: a, dst: b, sport: 40000, dport: 80, tcp: true, seq: 99, syn: true}.bytes(t), 0, "SYN"},
		{1 * time.Microsecond, l4Frame{src: b, dst: a, sport: 80, dport: 40000, tcp: true, seq: 499, syn: true}.bytes(t), 0, "SYN-ACK"},
		{2 * time.Microsecond, l4Frame{src: a, dst: b, sport: 40000, dport: 80, tcp: true, seq: 100, ecn: 2, payload: pay(100)}.bytes(t), 0, "request"},
		{3 * time.Microsecond, l4Frame{src: b, dst: a, sport: 80, dport: 40000, tcp: true, seq: 500, ecn: 3, payload: pay(1000)}.bytes(t), 0, "data 1 CE"},
		{4 * time.Microsecond, l4Frame{src: b, dst: a, sport: 80, dport: 40000, tcp: true, seq: 1500, ecn: 2, payload: pay(1000)}.bytes(t), 0, "data 2"},
		{5 * time.Microsecond, l4Frame{src: b, dst: a, sport: 80, dport: 40000, tcp: true, seq: 1500, ecn: 3, payload: pay(1000)}.bytes(t), 0, "data 2 again"},
		{6 * time.Microsecond, l4Frame{src: b, dst: a, sport: 80, dport: 40000, tcp: true, seq: 2000, ecn: 2, payload: pay(1000)}.bytes(t), 0, "half new"},
		{7 * time.Microsecond, l4Frame{src: a, dst: b, sport: 40000, dport: 80, tcp: true, seq: 200}.bytes(t), 0, "pure ACK"},
		{8 * time.Microsecond, l4Frame{src: c, dst: "fd00::4", sport: 5000, dport: 6000, payload: pay(300)}.bytes(t), 0, "UDP over IPv6"},
		{9 * time.Microsecond, l4Frame{src: a, dst: "224.0.0.251", sport: 5353, dport: 5353, payload: pay(40)}.bytes(t), 0, "mDNS"},
		{10 * time.Microsecond, l4Frame{src: a, dst: b, sport: 4791, dport: 5000, payload: pay(3)}.bytes(t), 0, "UDP from port 4791"},
	}
	tr, rep := load(t, writePcap(t, 1, frames), Options{Timing: ClosedLoop})
	if rep.Kinds["tcp"] != 8 || rep.Kinds["udp"] != 3 || rep.L4.TCPFlows != 2 || rep.L4.UDPFlows != 3 {
		t.Fatalf("kinds %v, %d TCP and %d UDP flows", rep.Kinds, rep.L4.TCPFlows, rep.L4.UDPFlows)
	}
	down := rep.L4.Flows[1]
	want := FlowReport{Proto: "tcp", Src: b, SrcPort: 80, Dst: a, DstPort: 40000, Packets: 5, PayloadBytes: 4000,
		UniqueBytes: 2500, RetransmittedBytes: 1500, ECT: 4, CEMarked: 2, StartNs: 1000, EndNs: 6000}
	if !reflect.DeepEqual(down, want) {
		t.Errorf("download flow\n%+v\nwant\n%+v", down, want)
	}
	// Messages: the request, the download, the IPv6 UDP flow and the flow
	// from port 4791 (not RoCEv2: its destination port is not 4791);
	// mDNS has no single receiver.
	type msg struct {
		src, dst int32
		bytes    int64
		release  units.Time
	}
	var got []msg
	for _, m := range tr.Messages {
		got = append(got, msg{m.Src, m.Dst, m.Bytes, m.Release})
		if len(m.Deps) != 0 {
			t.Errorf("TCP/UDP message %d has deps %v in closed loop", m.ID, m.Deps)
		}
	}
	wantMsgs := []msg{{0, 1, 100, 0}, {1, 0, 2500, 1 * units.Microsecond}, {2, 3, 300, 8 * units.Microsecond}, {0, 1, 3, 10 * units.Microsecond}}
	if !reflect.DeepEqual(got, wantMsgs) {
		t.Errorf("messages %+v, want %+v", got, wantMsgs)
	}
	if tr.Hosts != 4 || rep.Trace.FromTCPUDP != 4 || rep.Trace.Flows != 4 {
		t.Errorf("%d hosts, trace report %+v", tr.Hosts, rep.Trace)
	}
}

// TestIngestSkipReasons checks that packets ingest cannot use are counted
// with the reason.
func TestIngestSkipReasons(t *testing.T) {
	arp := gopacket.NewSerializeBuffer()
	gopacket.SerializeLayers(arp, gopacket.SerializeOptions{FixLengths: true},
		&layers.Ethernet{SrcMAC: net.HardwareAddr{2, 0, 0, 0, 0, 1}, DstMAC: layers.EthernetBroadcast, EthernetType: layers.EthernetTypeARP},
		&layers.ARP{AddrType: layers.LinkTypeEthernet, Protocol: layers.EthernetTypeIPv4, HwAddressSize: 6, ProtAddressSize: 4,
			SourceHwAddress: []byte{2, 0, 0, 0, 0, 1}, SourceProtAddress: []byte{10, 0, 0, 1}, DstHwAddress: make([]byte, 6), DstProtAddress: []byte{10, 0, 0, 2}})
	icmp := gopacket.NewSerializeBuffer()
	gopacket.SerializeLayers(icmp, gopacket.SerializeOptions{FixLengths: true},
		&layers.Ethernet{SrcMAC: net.HardwareAddr{2, 0, 0, 0, 0, 1}, DstMAC: net.HardwareAddr{2, 0, 0, 0, 0, 2}, EthernetType: layers.EthernetTypeIPv4},
		&layers.IPv4{Version: 4, IHL: 5, TTL: 64, Protocol: layers.IPProtocolICMPv4, SrcIP: net.IP{10, 0, 0, 1}, DstIP: net.IP{10, 0, 0, 2}},
		&layers.ICMPv4{TypeCode: layers.CreateICMPv4TypeCode(8, 0)})
	udp := l4Frame{src: "10.0.0.1", dst: "10.0.0.2", sport: 1, dport: 4791, payload: []byte{0x06, 0, 0xff, 0xff, 0, 0, 0, 1, 0, 0, 0, 1}}.bytes(t)
	frames := []frameAt{
		{data: arp.Bytes()},
		{data: icmp.Bytes()},
		{data: l4Frame{src: "10.0.0.1", dst: "10.0.0.2", sport: 1, dport: 2, payload: []byte("frag"), fragment: true}.bytes(t)},
		{data: udp},                // WRITE FIRST without its RETH
		{data: udp[:40], wire: 66}, // sliced inside the UDP header
		{data: udp[:10]},           // not even an Ethernet header
	}
	_, rep, err := Read(bytes.NewReader(writePcap(t, 1, frames)), "skip.pcap", Options{})
	if !errors.Is(err, ErrNoMessages) || rep == nil {
		t.Fatalf("error %v, want ErrNoMessages with a report", err)
	}
	checkReport(t, rep)
	want := map[string]int64{
		"not IP (ARP)":                1,
		"not TCP/UDP (ICMPv4)":        1,
		"IP fragment":                 1,
		"truncated RoCEv2 BTH header": 1,
		"truncated UDP header":        1,
		"malformed Ethernet":          1,
	}
	if !reflect.DeepEqual(rep.Skipped, want) {
		t.Errorf("skipped %v, want %v", rep.Skipped, want)
	}
}

// TestIngestNoMessages: a capture with one CNP holds nothing to replay.
func TestIngestNoMessages(t *testing.T) {
	data, _ := generate(t, examplegen.Config{Hosts: 2, MessageBytes: 100, HotHost: 1, CEEvery: 1})
	var cnp []byte
	filterCapture(t, data, func(_ int, f []byte) bool {
		if opcodeOf(f, false) == 0x81 {
			cnp = f
		}
		return true
	})
	tr, rep, err := Read(bytes.NewReader(writePcap(t, 1, []frameAt{{data: cnp}})), "cnp.pcap", Options{})
	if !errors.Is(err, ErrNoMessages) || !strings.HasPrefix(err.Error(), "cnp.pcap: no messages found") {
		t.Fatalf("error %v", err)
	}
	if tr == nil || len(tr.Messages) != 0 || rep.RoCE.CNPs != 1 || rep.RoCE.QPCount != 1 {
		t.Errorf("trace %v, report %+v", tr, rep.RoCE)
	}
	var text bytes.Buffer
	if err := rep.WriteText(&text); err != nil || !strings.Contains(text.String(), "1 CNPs") {
		t.Errorf("text report (%v):\n%s", err, text.String())
	}
}

// TestIngestHosts checks automatic numbering, hosts files and the fit
// check.
func TestIngestHosts(t *testing.T) {
	data, _ := generate(t, examplegen.Config{Hosts: 4, MessageBytes: 100})
	dir := t.TempDir()
	file := func(name, content string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	// Automatic: in order of first appearance (host 0 sends first).
	tr, rep := load(t, data, Options{})
	if tr.Hosts != 4 || rep.Hosts[0].Addrs[0] != "10.0.0.1" || rep.Hosts[3].Addrs[0] != "10.0.0.4" {
		t.Errorf("automatic hosts: %d, %+v", tr.Hosts, rep.Hosts)
	}
	// A hosts file, reversed, with comments, an unused address and IPv4
	// in IPv6 form; hosts 10.0.0.3 and .4 share host 0.
	hf := file("hosts.txt", "# address host\n10.0.0.1 7\n\n::ffff:10.0.0.2   5  # mapped\n10.0.0.3 0\n10.0.0.4 0\n10.9.9.9 3\n")
	tr, rep = load(t, data, Options{HostsFile: hf})
	if tr.Hosts != 8 || len(rep.Hosts) != 3 || rep.Hosts[0].Host != 0 || len(rep.Hosts[0].Addrs) != 2 {
		t.Errorf("hosts file: %d hosts, %+v", tr.Hosts, rep.Hosts)
	}
	if rep.Trace.SameHost != 2 {
		t.Errorf("same-host messages %d, want 2 (10.0.0.3 <-> 10.0.0.4)", rep.Trace.SameHost)
	}
	// It fits 8 hosts, not 7.
	if tr, _ := load(t, data, Options{HostsFile: hf, Hosts: 10}); tr.Hosts != 10 {
		t.Errorf("Hosts 10: trace has %d", tr.Hosts)
	}
	for _, c := range []struct {
		name string
		opt  Options
		want string
	}{
		{"too few hosts", Options{Hosts: 3}, "the capture's messages use 4 hosts (10.0.0.1, 10.0.0.2, 10.0.0.3, 10.0.0.4) but only 3 fit"},
		{"file beyond the host count", Options{HostsFile: hf, Hosts: 7}, "uses host indices up to 7 but only 7 hosts (0..6) fit"},
		{"address missing", Options{HostsFile: file("missing.txt", "10.0.0.1 0\n10.0.0.2 1\n")}, "does not map 10.0.0.3, 10.0.0.4"},
		{"bad line", Options{HostsFile: file("bad.txt", "10.0.0.1 0 extra\n")}, "bad.txt:1: want \"address host\""},
		{"bad address", Options{HostsFile: file("addr.txt", "\n10.0.0.300 0\n")}, "addr.txt:2: \"10.0.0.300\" is not an IP address"},
		{"bad host", Options{HostsFile: file("host.txt", "10.0.0.1 -1\n")}, "host.txt:1: host \"-1\" must be an integer"},
		{"duplicate", Options{HostsFile: file("dup.txt", "10.0.0.1 0\n10.0.0.1 1\n")}, "dup.txt:2: address 10.0.0.1 is already mapped on line 1"},
		{"no file", Options{HostsFile: filepath.Join(dir, "nope.txt")}, "hosts file: open"},
		{"negative host count", Options{Hosts: -1}, "host count -1"},
		// One line, in our words, quoting a short prefix of what is wrong
		// (it said "bufio.Scanner: token too long", and echoed a long line
		// whole).
		{"endless line", Options{HostsFile: file("long.txt", "10.0.0.1 0\n"+strings.Repeat("x", limits.MaxTableLineBytes+1))},
			"long.txt:2: line longer than 1 MiB, the longest line of a hosts file (docs/LIMITS.md)"},
		{"long bad line", Options{HostsFile: file("wide.txt", strings.Repeat("y", 100_000)+" 0\n")},
			"wide.txt:1: \"yyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyy\"... (100000 bytes) is not an IP address"},
	} {
		_, _, err := Read(bytes.NewReader(data), "h.pcap", c.opt)
		if err == nil || !strings.Contains(err.Error(), c.want) || len(err.Error()) > 400 {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
	}
}

func TestParseTiming(t *testing.T) {
	for s, want := range map[string]Timing{"open": OpenLoop, "closed": ClosedLoop} {
		if got, err := ParseTiming(s); err != nil || got != want || got.String() != s {
			t.Errorf("ParseTiming(%q) = %v, %v", s, got, err)
		}
	}
	if _, err := ParseTiming("half"); err == nil {
		t.Error("ParseTiming accepted half")
	}
}

// TestIngestFlowPolicy: TCP beside RoCEv2 is reported, and in the trace
// only when asked.
func TestIngestFlowPolicy(t *testing.T) {
	data, _ := generate(t, examplegen.Config{Hosts: 2, MessageBytes: 100})
	frames := []frameAt{}
	i := 0
	filterCapture(t, data, func(_ int, f []byte) bool {
		frames = append(frames, frameAt{at: time.Duration(i) * time.Microsecond, data: f})
		i++
		return true
	})
	frames = append(frames, frameAt{at: 50 * time.Microsecond,
		data: l4Frame{src: "10.0.0.1", dst: "10.0.0.2", sport: 1, dport: 9000, tcp: true, seq: 1, payload: []byte("hello")}.bytes(t)})
	capture := writePcap(t, 1, frames)
	for _, c := range []struct {
		p    FlowPolicy
		want int
	}{{FlowsAuto, 2}, {FlowsNever, 2}, {FlowsAlways, 3}} {
		tr, rep := load(t, capture, Options{Flows: c.p})
		if len(tr.Messages) != c.want || rep.L4.TCPFlows != 1 {
			t.Errorf("policy %d: %d messages, %d TCP flows; want %d, 1", c.p, len(tr.Messages), rep.L4.TCPFlows, c.want)
		}
	}
}
