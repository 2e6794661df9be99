//go:build linux || darwin

package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/binary"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ccreplay/ccreplay/internal/membudget"
)

// These tests run the real command as a separate process (this test
// binary, see TestMain) and signal it in phases that do not simulate:
// LIMITS.md promises that every command stops within about a second of
// SIGINT or SIGTERM.

// started is a command running as a separate process.
type started struct {
	cmd    *exec.Cmd
	stderr bytes.Buffer
	done   chan struct{}
}

func startCmd(t *testing.T, dir string, args ...string) *started {
	t.Helper()
	p := &started{cmd: exec.Command(os.Args[0], args...), done: make(chan struct{})}
	p.cmd.Dir = dir
	p.cmd.Env = append(os.Environ(), "CCREPLAY_TEST_MAIN=1")
	p.cmd.Stdout = io.Discard
	p.cmd.Stderr = &p.stderr
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { p.cmd.Wait(); close(p.done) }()
	t.Cleanup(func() {
		select {
		case <-p.done:
		default:
			p.cmd.Process.Kill()
			<-p.done
		}
	})
	return p
}

// stop sends SIGTERM after wait and returns the exit code and how long the
// process took to end after the signal; a process still running limit
// after the signal fails the test.
func (p *started) stop(t *testing.T, wait, limit time.Duration) (int, time.Duration) {
	t.Helper()
	time.Sleep(wait)
	select {
	case <-p.done:
		t.Fatalf("ended before the signal: %s", p.stderr.String())
	default:
	}
	sent := time.Now()
	p.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-p.done:
	case <-time.After(limit):
		t.Fatalf("still running %v after SIGTERM", limit)
	}
	return p.cmd.ProcessState.ExitCode(), time.Since(sent)
}

// Regression (issue 33, class 3): opening a named pipe no process writes
// to blocked for ever and SIGTERM was ignored. The command now exits 130
// at most stopGrace after the signal.
func TestSIGTERMStopsWaitingOnANamedPipe(t *testing.T) {
	dir := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(dir, "t.csv"), 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	fifo := filepath.Join(dir, "t.csv")
	p := startCmd(t, dir, "run", "--trace", "t.csv", "--packets", "none", "--out", "out")
	// Once the command has opened the pipe (a writer can then open it
	// without blocking), it has its signal handler; it then waits for
	// bytes that never come.
	deadline := time.Now().Add(30 * time.Second)
	for {
		w, err := os.OpenFile(fifo, os.O_WRONLY|syscall.O_NONBLOCK, 0)
		if err == nil {
			defer w.Close()
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the command never opened the pipe: %v", err)
		}
		time.Sleep(20 * time.Millisecond)
	}
	code, took := p.stop(t, 200*time.Millisecond, stopGrace+5*time.Second)
	if code != ExitInterrupted {
		t.Errorf("exit %d, want %d\n%s", code, ExitInterrupted, p.stderr.String())
	}
	if took > stopGrace+1500*time.Millisecond {
		t.Errorf("took %v to stop", took)
	}
	if !strings.Contains(p.stderr.String(), "ccreplay: interrupted") {
		t.Errorf("stderr: %s", p.stderr.String())
	}
}

// Regression (issue 33, class 3): a trace read from a named pipe lost its
// first bytes to the OTF2 format check, and the run waited for ever for a
// second writer. The pipe is now read once, whole.
func TestTraceFromANamedPipe(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "t.csv")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	data, err := os.ReadFile(filepath.Join("..", "..", "examples", "alltoall8.csv"))
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		f, err := os.OpenFile(fifo, os.O_WRONLY, 0)
		if err != nil {
			return
		}
		f.Write(data)
		f.Close()
	}()
	p := startCmd(t, dir, "run", "--trace", "t.csv", "--packets", "none", "--out", "out")
	select {
	case <-p.done:
	case <-time.After(60 * time.Second):
		t.Fatalf("still running after 60 s: %s", p.stderr.String())
	}
	if code := p.cmd.ProcessState.ExitCode(); code != 0 {
		t.Fatalf("exit %d: %s", code, p.stderr.String())
	}
	s := readSummary(t, filepath.Join(dir, "out"))
	if f := s.Metrics["flows"]; f != float64(56) {
		t.Errorf("%v flows, want the 56 of examples/alltoall8.csv", f)
	}
}

// longGzipCapture writes a 37 MB gzip file that inflates to a classic
// pcap of about 4 GB of empty packet records: gzip members, one of them
// 1 MB of zeros written 4,096 times (readers inflate every member in
// turn). Each member carries 8 KB of header extra field, so that the
// file inflates about 115 times, below limits.MaxCaptureInflateRatio: a
// long capture, not a gzip bomb refused early.
func longGzipCapture(t *testing.T, path string) {
	t.Helper()
	member := func(b []byte) []byte {
		var buf bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
		zw.Extra = make([]byte, 8<<10)
		zw.Write(b)
		zw.Close()
		return buf.Bytes()
	}
	hdr := make([]byte, 24)
	binary.LittleEndian.PutUint32(hdr[0:], 0xa1b2c3d4)
	binary.LittleEndian.PutUint16(hdr[4:], 2)
	binary.LittleEndian.PutUint16(hdr[6:], 4)
	binary.LittleEndian.PutUint32(hdr[16:], 65535)
	binary.LittleEndian.PutUint32(hdr[20:], 1) // Ethernet
	out := member(hdr)
	zeros := member(make([]byte, 1<<20))
	for i := 0; i < 4096; i++ {
		out = append(out, zeros...)
	}
	if err := os.WriteFile(path, out, 0o644); err != nil {
		t.Fatal(err)
	}
}

// Regression (issue 33, class 3): ingest of a capture that inflates
// without end read on after SIGTERM. It stops at once and says so.
func TestSIGTERMStopsIngest(t *testing.T) {
	dir := t.TempDir()
	longGzipCapture(t, filepath.Join(dir, "bomb.pcap.gz"))
	p := startCmd(t, dir, "ingest", "bomb.pcap.gz")
	code, took := p.stop(t, 1500*time.Millisecond, 10*time.Second)
	if code != ExitInterrupted {
		t.Errorf("exit %d, want %d\n%s", code, ExitInterrupted, p.stderr.String())
	}
	if took > 1500*time.Millisecond {
		t.Errorf("took %v to stop, want under a second", took)
	}
	if want := "ccreplay: ingest: interrupted while reading bomb.pcap.gz; nothing written"; !strings.Contains(p.stderr.String(), want) {
		t.Errorf("stderr %q, want %q", p.stderr.String(), want)
	}
}

// Regression (issue 33, class 3): the set-up of a large trace (every
// message released at one instant) ran on for tens of seconds after
// SIGTERM. It now stops within a second whatever it was doing, by itself,
// and removes its staging folder. (On a machine so loaded that a phase
// between two looks at the context takes over stopGrace, the process is
// ended by the grace period instead: that is logged, and only the time
// and the exit code are checked.)
func TestSIGTERMStopsALargeSetUp(t *testing.T) {
	if testing.Short() {
		t.Skip("a 200,000-flow incast")
	}
	for _, wait := range []time.Duration{1200 * time.Millisecond, 2500 * time.Millisecond} {
		dir := t.TempDir()
		p := startCmd(t, dir, "run", "--workload", "incast:n=200000,size=1KB", "--packets", "none", "--out", "out")
		code, took := p.stop(t, wait, 10*time.Second)
		if code != ExitInterrupted {
			t.Fatalf("signal after %v: exit %d, want %d\n%s", wait, code, ExitInterrupted, p.stderr.String())
		}
		if !strings.Contains(p.stderr.String(), "ccreplay: interrupted") {
			t.Errorf("signal after %v: stderr %s", wait, p.stderr.String())
		}
		if strings.Contains(p.stderr.String(), "still busy") {
			t.Logf("signal after %v: ended by the grace period (a loaded machine): %s", wait, p.stderr.String())
			if took > stopGrace+1500*time.Millisecond {
				t.Errorf("signal after %v: took %v to stop", wait, took)
			}
			continue
		}
		if took > 1500*time.Millisecond {
			t.Errorf("signal after %v: took %v to stop: %s", wait, took, p.stderr.String())
		}
		if names := dirNames(t, dir); len(names) != 0 {
			t.Errorf("signal after %v: left %v behind", wait, names)
		}
	}
}

// Regression (issue 33, class 3): metrics scanning packets.parquet ran to
// the end and exited 0 after Ctrl-C. Under a cancelled context it now
// exits 130 and prints no table.
func TestMetricsStopsWhenInterrupted(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "run")
	runCLI(t, "run", "--workload", smallWorkload, "--packets", "data", "--out", out).mustSucceed(t)
	for _, args := range [][]string{{"metrics", out}, {"metrics", "--phases", out}} {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		var stdout, stderr bytes.Buffer
		code := mainContext(ctx, args, strings.NewReader(""), &stdout, &stderr)
		if code != ExitInterrupted {
			t.Errorf("%v: exit %d, want %d\nstderr: %s", args, code, ExitInterrupted, stderr.String())
		}
		if stdout.Len() != 0 {
			t.Errorf("%v: printed %q", args, stdout.String())
		}
		if want := "ccreplay: metrics: interrupted while reading "; !strings.HasPrefix(stderr.String(), want) {
			t.Errorf("%v: stderr %q, want %q...", args, stderr.String(), want)
		}
	}
}

// Regression (issue 33, class 4): a network or trace too large for the
// memory budget ran until the machine ran out of memory. It is refused
// before anything is built, in one line with the estimate (exit 3), and
// --max-memory 0 turns the check off.
func TestMaxMemoryRefusesEarly(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "out")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"run", "--workload", "incast:n=2,size=1KB", "--topology", "leafspine:leaves=2,hosts=2,spines=1000,uplinks=1000", "--max-memory", "4GB"},
			"ccreplay: the run needs about 5.66 GB: 2 messages x 3.6 KB + 4 hosts x 3 KB + 2000000 links between switches x 2.8 KB + 64 MB, more than --max-memory 4GB; give a smaller workload or network, or --max-memory (docs/LIMITS.md, \"Memory\")\n"},
		{[]string{"run", "--workload", "incast:n=1000,size=1KB", "--max-memory", "60MB"},
			"ccreplay: the run needs about 70.6 MB: 1000 messages x 3.6 KB + 1001 hosts x 3 KB + 0 links between switches x 2.8 KB + 64 MB, more than --max-memory 60MB; give a smaller workload or network, or --max-memory (docs/LIMITS.md, \"Memory\")\n"},
		{[]string{"compare", "--workload", "incast:n=2,size=1KB", "--cca", "dcqcn,hpcc", "--parallel", "2", "--max-memory", "100MB"},
			"ccreplay: the run needs about 64.02 MB: 2 messages x 3.6 KB + 3 hosts x 3 KB + 0 links between switches x 2.8 KB + 64 MB x 2 runs at once = 128.03 MB, more than --max-memory 100MB; give a smaller workload or network, or --max-memory (docs/LIMITS.md, \"Memory\")\n"},
	} {
		r := runCLI(t, append(tc.args, "--packets", "none", "--out", out)...)
		if r.code != ExitBadInput || r.stderr != tc.want {
			t.Errorf("%v: exit %d, stderr %q\nwant exit %d, %q", tc.args, r.code, r.stderr, ExitBadInput, tc.want)
		}
		if names := dirNames(t, dir); len(names) != 0 {
			t.Errorf("%v: left %v", tc.args, names)
		}
	}
	runCLI(t, "run", "--workload", "incast:n=2,size=1KB", "--max-memory", "0", "--packets", "none", "--out", out).mustSucceed(t)
	if r := runCLI(t, "run", "--workload", "incast:n=2,size=1KB", "--max-memory", "lots", "--out", out); r.code != ExitUsage {
		t.Errorf("--max-memory lots: exit %d (%s)", r.code, r.stderr)
	}
	if membudget.MachineMemory() <= 0 {
		t.Log("the machine's memory could not be read: the default budget is off here")
	}
}
