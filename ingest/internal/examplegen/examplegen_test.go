package examplegen

import (
	"bytes"
	"flag"
	"os"
	"testing"
)

var update = flag.Bool("update", false, "rewrite examples/alltoall_roce.pcap")

// examplePath is the committed example capture, from this directory.
const examplePath = "../../../examples/alltoall_roce.pcap"

// maxExampleBytes keeps the committed example small.
const maxExampleBytes = 200 << 10

// TestExampleUpToDate regenerates examples/alltoall_roce.pcap and checks
// that the committed file is byte-identical (run with -update to rewrite
// it after changing the generator, and read the ingest report before
// committing).
func TestExampleUpToDate(t *testing.T) {
	var buf bytes.Buffer
	truth, err := Write(&buf, Example())
	if err != nil {
		t.Fatal(err)
	}
	if buf.Len() > maxExampleBytes {
		t.Errorf("example is %d bytes, more than %d", buf.Len(), maxExampleBytes)
	}
	if *update {
		if err := os.WriteFile(examplePath, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(examplePath)
	if err != nil {
		t.Fatalf("%v (run go test ./ingest/internal/examplegen -update)", err)
	}
	if !bytes.Equal(got, buf.Bytes()) {
		t.Fatalf("%s (%d bytes) differs from what Example generates (%d bytes): run go test ./ingest/internal/examplegen -update",
			examplePath, len(got), buf.Len())
	}
	// What the example promises in its doc comment.
	if len(truth.Messages) != 2*8*7 || truth.CEMarked == 0 || truth.CNPs == 0 || truth.NAKs != 1 || truth.Retransmissions != 2 {
		t.Errorf("example truth: %d messages, %d CE, %d CNPs, %d NAKs, %d retransmissions",
			len(truth.Messages), truth.CEMarked, truth.CNPs, truth.NAKs, truth.Retransmissions)
	}
}

// incastPath is the README's headline capture.
const incastPath = "../../../examples/incast_roce.pcap"

// TestIncastExampleUpToDate is TestExampleUpToDate for
// examples/incast_roce.pcap (IncastExample): 4 rounds of 7 x 512 KiB into
// host 0, every message of a round starting at the round's start.
func TestIncastExampleUpToDate(t *testing.T) {
	var buf bytes.Buffer
	truth, err := Write(&buf, IncastExample())
	if err != nil {
		t.Fatal(err)
	}
	if buf.Len() > 600<<10 {
		t.Errorf("incast example is %d bytes, more than 600 KiB", buf.Len())
	}
	if *update {
		if err := os.WriteFile(incastPath, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(incastPath)
	if err != nil || !bytes.Equal(got, buf.Bytes()) {
		t.Fatalf("%s differs from what IncastExample generates (%v): run go test ./ingest/internal/examplegen -update", incastPath, err)
	}
	if len(truth.Messages) != 4*7 {
		t.Fatalf("%d messages, want 28", len(truth.Messages))
	}
	for i, m := range truth.Messages {
		first := truth.Messages[i-i%7]
		if m.Dst != 0 || m.Start != first.Start || m.Bytes != 512<<10 {
			t.Errorf("message %d: %d -> %d, %d bytes, starts at %d (round start %d)", i, m.Src, m.Dst, m.Bytes, m.Start, first.Start)
		}
	}
}

func TestWriteDeterministic(t *testing.T) {
	for _, c := range []Config{
		Example(),
		{Hosts: 3, Op: OpRead, Format: Pcapng, IPv6: true},
		{Hosts: 4, Op: OpSend, Format: PcapMicro, Snaplen: 80, Rounds: 2},
	} {
		var a, b bytes.Buffer
		if _, err := Write(&a, c); err != nil {
			t.Fatal(err)
		}
		if _, err := Write(&b, c); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(a.Bytes(), b.Bytes()) {
			t.Errorf("%+v: two writes differ", c)
		}
	}
}

func TestConfigErrors(t *testing.T) {
	for _, c := range []Config{
		{Hosts: 1},
		{Hosts: 300},
		{Op: OpRead, Losses: []Loss{{}}},
		{MTU: 2},
		{Snaplen: -1},
	} {
		if _, err := Write(&bytes.Buffer{}, c); err == nil {
			t.Errorf("%+v: no error", c)
		}
	}
}
