package ingest

import (
	"bytes"
	"testing"
	"time"

	"github.com/ccreplay/ccreplay/ingest/internal/examplegen"
)

// FuzzLoadPcap feeds arbitrary bytes to the capture reader and the whole
// ingest pipeline: it must never panic, and what it accepts must be a
// valid trace with a consistent report.
func FuzzLoadPcap(f *testing.F) {
	for _, c := range []examplegen.Config{
		{Hosts: 2, MessageBytes: 300, MTU: 128, HotHost: 1, CEEvery: 2, Losses: []examplegen.Loss{{Src: 0, Dst: 1, Packet: 1}}},
		{Hosts: 2, MessageBytes: 200, MTU: 128, Op: examplegen.OpRead, Format: examplegen.Pcapng, VLAN: true},
		{Hosts: 2, MessageBytes: 100, Op: examplegen.OpSend, Format: examplegen.PcapMicro, IPv6: true, Snaplen: 60},
	} {
		data, _ := generate(f, c)
		f.Add(data)
	}
	f.Add(writePcap(f, 1, []frameAt{
		{0, l4Frame{src: "10.0.0.1", dst: "10.0.0.2", sport: 1, dport: 80, tcp: true, seq: 7, payload: []byte("GET /")}.bytes(f), 0, ""},
		{time.Microsecond, l4Frame{src: "fd00::1", dst: "fd00::2", sport: 1, dport: 2, ecn: 3, payload: []byte("x")}.bytes(f), 0, ""},
	}))
	f.Add(writePcap(f, 101, nil))
	f.Add([]byte{0x0a, 0x0d, 0x0d, 0x0a})
	f.Fuzz(func(t *testing.T, data []byte) {
		tr, rep, err := Read(bytes.NewReader(data), "fuzz.pcap", Options{VerifyICRC: true, Flows: FlowsAlways, Timing: ClosedLoop})
		if rep != nil {
			checkReport(t, rep)
			var b bytes.Buffer
			if err := rep.WriteText(&b); err != nil {
				t.Fatal(err)
			}
		}
		if err != nil {
			return
		}
		if verr := tr.Validate(); verr != nil {
			t.Fatalf("invalid trace: %v", verr)
		}
	})
}
