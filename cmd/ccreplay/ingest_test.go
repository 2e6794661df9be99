package main

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/ccreplay/ccreplay/ingest"
	ingestcli "github.com/ccreplay/ccreplay/ingest/cli"
	"github.com/ccreplay/ccreplay/trace"
)

// exampleCapture is the RoCEv2 capture shipped in examples/.
const exampleCapture = "../../examples/alltoall_roce.pcap"

// runIngest runs `ccreplay ingest args...` through Main.
func runIngest(t *testing.T, args ...string) cliResult {
	t.Helper()
	r := runCLI(t, append([]string{"ingest"}, args...)...)
	if strings.Contains(r.stderr, `unknown command "ingest"`) {
		t.Fatal("ingest is not wired into the root command: add NewCmdIngest(f, nil) to root.AddCommand in root.go")
	}
	return r
}

func TestIngestReportText(t *testing.T) {
	t.Parallel()
	r := runIngest(t, exampleCapture)
	r.mustSucceed(t)
	for _, want := range []string{
		exampleCapture + ": pcap, Ethernet (1), ns timestamps",
		"458 packets",
		"packets by kind: rocev2 458",
		"RoCEv2: 458 packets, 56 QPs, 112 messages (78512 bytes, 0 incomplete)",
		"10 CE-marked; 7 CNPs; 112 ACKs, 1 NAKs",
		"2 retransmissions (445 bytes)",
		"RC_RDMA_WRITE_FIRST 112",
		"ICRC: 458 checked, 0 bad",
		"hosts: 8",
		"trace: 112 messages (112 from RoCEv2, 0 from TCP/UDP), 78512 bytes, 56 flows, 8 hosts, open timing",
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("report lacks %q:\n%s", want, r.stdout)
		}
	}
	if r.stderr != "" {
		t.Errorf("stderr: %q", r.stderr)
	}
}

// TestIngestWritesTrace writes the trace in each format and reads it back;
// closed-loop timing chains each QP's two messages.
func TestIngestWritesTrace(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, name := range []string{"t.parquet", "t.csv", "t.jsonl"} {
		out := filepath.Join(dir, name)
		r := runIngest(t, exampleCapture, "-o", out, "--timing", "closed")
		r.mustSucceed(t)
		if !strings.HasSuffix(r.stdout, "wrote 112 messages on 8 hosts to "+out+"\n") {
			t.Errorf("%s: stdout ends %q", name, r.stdout[max(0, len(r.stdout)-80):])
		}
		tr, err := trace.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		deps := 0
		for _, m := range tr.Messages {
			deps += len(m.Deps)
		}
		if tr.Hosts != 8 || len(tr.Messages) != 112 || deps != 56 {
			t.Errorf("%s: %d hosts, %d messages, %d deps; want 8, 112, 56", name, tr.Hosts, len(tr.Messages), deps)
		}
	}
}

func TestIngestJSON(t *testing.T) {
	t.Parallel()
	out := filepath.Join(t.TempDir(), "t.parquet")
	r := runIngest(t, exampleCapture, "--json", "-o", out)
	r.mustSucceed(t)
	var rep ingest.Report
	if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil {
		t.Fatalf("stdout is not one JSON report: %v\n%s", err, r.stdout)
	}
	if rep.Packets != 458 || rep.RoCE.Messages != 112 || rep.RoCE.CNPs != 7 || len(rep.RoCE.QPs) != 56 || rep.Trace.Messages != 112 {
		t.Errorf("JSON report: %d packets, %+v", rep.Packets, rep.Trace)
	}
	for _, key := range []string{`"packets_by_kind"`, `"rocev2"`, `"ce_marked"`, `"dest_qp"`, `"retransmissions"`, `"skipped"`} {
		if !strings.Contains(r.stdout, key) {
			t.Errorf("JSON lacks %s", key)
		}
	}
	if _, err := os.Stat(out); err != nil {
		t.Errorf("--json with -o wrote no trace: %v", err)
	}
}

func TestIngestHostsFlag(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	var b strings.Builder
	for h := 0; h < 8; h++ {
		b.WriteString("10.0.0." + string(rune('1'+h)) + " " + string(rune('0'+7-h)) + "\n")
	}
	hosts := writeFile(t, dir, "hosts.txt", b.String())
	out := filepath.Join(dir, "t.csv")
	runIngest(t, exampleCapture, "--hosts", hosts, "-o", out).mustSucceed(t)
	tr, err := trace.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	// The first message goes from 10.0.0.1 (host 7 here) to 10.0.0.2 (6).
	if m := tr.Messages[0]; m.Src != 7 || m.Dst != 6 {
		t.Errorf("first message %d->%d, want 7->6", m.Src, m.Dst)
	}
}

// pcapOfLinkType is an empty pcap of the given link type.
func pcapOfLinkType(lt uint32) []byte {
	h := make([]byte, 24)
	binary.LittleEndian.PutUint32(h[0:], 0xa1b2c3d4)
	binary.LittleEndian.PutUint16(h[4:], 2)
	binary.LittleEndian.PutUint16(h[6:], 4)
	binary.LittleEndian.PutUint32(h[16:], 65535)
	binary.LittleEndian.PutUint32(h[20:], lt)
	return h
}

func TestIngestErrors(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	erf := writeFile(t, dir, "ib.pcap", string(pcapOfLinkType(197)))
	garbage := writeFile(t, dir, "garbage.pcap", "this is not a capture\n")
	badHosts := writeFile(t, dir, "hosts.txt", "10.0.0.1\n")
	for _, c := range []struct {
		name string
		args []string
		code int
		want string
	}{
		{"no file", nil, ExitUsage, "accepts 1 arg(s), received 0"},
		{"two files", []string{"a.pcap", "b.pcap"}, ExitUsage, "accepts 1 arg(s), received 2"},
		{"bad timing", []string{exampleCapture, "--timing", "later"}, ExitUsage, `--timing: timing "later": want open or closed`},
		{"bad output format", []string{exampleCapture, "-o", "t.txt"}, ExitUsage, "-o t.txt: want a .parquet, .csv or .jsonl file"},
		{"unknown flag", []string{exampleCapture, "--bogus"}, ExitUsage, "unknown flag: --bogus"},
		{"missing file", []string{filepath.Join(dir, "nope.pcap")}, ExitBadInput, "nope.pcap: no such file"},
		{"native InfiniBand", []string{erf}, ExitBadInput, "ib.pcap: ERF (197) is not supported"},
		{"not a capture", []string{garbage}, ExitBadInput, "garbage.pcap: not a pcap or pcapng file"},
		{"bad hosts file", []string{exampleCapture, "--hosts", badHosts}, ExitBadInput, `hosts.txt:1: want "address host"`},
	} {
		r := runIngest(t, c.args...)
		if msg := checkOneErrorLine(t, r, c.code); !strings.Contains(msg, c.want) {
			t.Errorf("%s: %q, want it to contain %q", c.name, msg, c.want)
		}
	}
}

// TestIngestNoMessages prints what the capture held, then fails (exit 3).
func TestIngestNoMessages(t *testing.T) {
	t.Parallel()
	empty := writeFile(t, t.TempDir(), "empty.pcap", string(pcapOfLinkType(1)))
	r := runIngest(t, empty)
	if r.code != ExitBadInput || !strings.Contains(r.stdout, "0 packets") ||
		!strings.Contains(r.stderr, "empty.pcap: no messages found") || strings.Count(r.stderr, "\n") != 1 {
		t.Errorf("exit %d\nstdout: %s\nstderr: %s", r.code, r.stdout, r.stderr)
	}
}

// TestIngestTruncatedCapture: a capture cut short is used up to the cut,
// with a warning.
func TestIngestTruncatedCapture(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile(exampleCapture)
	if err != nil {
		t.Fatal(err)
	}
	cut := writeFile(t, t.TempDir(), "cut.pcap", string(data[:len(data)-10]))
	r := runIngest(t, cut, "--json")
	r.mustSucceed(t)
	var rep ingest.Report
	if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil {
		t.Fatal(err)
	}
	if rep.Truncated == nil || rep.Truncated.Packet != rep.Packets+1 || rep.Packets != 457 {
		t.Errorf("truncated %+v after %d packets", rep.Truncated, rep.Packets)
	}
	if !strings.HasPrefix(r.stderr, "warning: the capture is truncated or damaged at packet 458") {
		t.Errorf("stderr: %q", r.stderr)
	}
}

// TestIngestThenRun replays an ingested capture (what `run --trace x.pcap`
// will do in one step).
func TestIngestThenRun(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	tr := filepath.Join(dir, "alltoall.parquet")
	runIngest(t, exampleCapture, "-o", tr, "--timing", "closed").mustSucceed(t)
	r := runCLI(t, "run", "--trace", tr, "--cca", "dcqcn", "--out", filepath.Join(dir, "run"), "--packets", "none")
	r.mustSucceed(t)
	if !strings.Contains(r.stdout, "112 of 112 finished") {
		t.Errorf("run output:\n%s", r.stdout)
	}
}

// TestParseIngestFlags parses command lines through the cobra command
// with a runF that keeps the options, running nothing.
func TestParseIngestFlags(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		args   []string
		want   ingestcli.CommandOptions
		timing ingest.Timing
	}{
		{nil, ingestcli.CommandOptions{File: "c.pcap", Timing: "open", PPN: 1, Scale: 1}, ingest.OpenLoop},
		{[]string{"-o", "t.csv", "--timing", "closed"}, ingestcli.CommandOptions{File: "c.pcap", Out: "t.csv", Timing: "closed", PPN: 1, Scale: 1}, ingest.ClosedLoop},
		{[]string{"--out=t.parquet", "--hosts", "h.txt", "--json", "--ppn", "4"}, ingestcli.CommandOptions{File: "c.pcap", Out: "t.parquet", HostsFile: "h.txt", JSON: true, Timing: "open", PPN: 4, Scale: 1}, ingest.OpenLoop},
	} {
		var out, errw bytes.Buffer
		var got *ingestOptions
		cmd := NewCmdIngest(&Factory{In: strings.NewReader(""), Out: &out, Err: &errw}, func(o *ingestOptions) error { got = o; return nil })
		cmd.SetArgs(append([]string{"c.pcap"}, c.args...))
		if err := cmd.Execute(); err != nil || got == nil {
			t.Fatalf("%v: %v", c.args, err)
		}
		if got.ParsedTiming() != c.timing {
			t.Errorf("%v: timing %v, want %v", c.args, got.ParsedTiming(), c.timing)
		}
		want := c.want
		if err := want.Validate(); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got.CommandOptions, want) {
			t.Errorf("%v: parsed %+v, want %+v", c.args, got.CommandOptions, want)
		}
	}
}
