//go:build linux || darwin

package main

import (
	"bytes"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/creack/pty"

	"github.com/ccreplay/ccreplay/runfolder"
)

// These tests run the real command as a separate process on a pseudo-
// terminal, as a person at a terminal meets it: the progress line is on,
// and Ctrl-C reaches the process through the terminal's line discipline.
// The process is this test binary itself: TestMain runs Main when
// CCREPLAY_TEST_MAIN is set.

func TestMain(m *testing.M) {
	if os.Getenv("CCREPLAY_TEST_MAIN") == "1" {
		os.Exit(Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

// ttyProc is the command running on a pseudo-terminal.
type ttyProc struct {
	cmd  *exec.Cmd
	tty  *os.File
	mu   sync.Mutex
	out  bytes.Buffer
	done chan struct{}
	err  error
}

// startTTY starts ccreplay args in dir with a pseudo-terminal as its
// stdin, stdout and stderr, and collects everything it prints.
func startTTY(t *testing.T, dir string, args ...string) *ttyProc {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "CCREPLAY_TEST_MAIN=1", "GOMAXPROCS=1")
	tty, err := pty.StartWithSize(cmd, &pty.Winsize{Rows: 40, Cols: 160})
	if err != nil {
		t.Skipf("no pseudo-terminal here: %v", err)
	}
	p := &ttyProc{cmd: cmd, tty: tty, done: make(chan struct{})}
	go func() {
		buf := make([]byte, 4096)
		for {
			n, err := tty.Read(buf)
			p.mu.Lock()
			p.out.Write(buf[:n])
			p.mu.Unlock()
			if err != nil {
				break
			}
		}
	}()
	go func() {
		p.err = cmd.Wait()
		close(p.done)
	}()
	t.Cleanup(func() {
		select {
		case <-p.done:
		default:
			cmd.Process.Kill()
			<-p.done
		}
		tty.Close()
	})
	return p
}

// output is everything printed so far.
func (p *ttyProc) output() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.out.String()
}

// waitFor waits until the output contains s.
func (p *ttyProc) waitFor(t *testing.T, s string, limit time.Duration) {
	t.Helper()
	deadline := time.Now().Add(limit)
	for !strings.Contains(p.output(), s) {
		select {
		case <-p.done:
			t.Fatalf("exited before printing %q; output:\n%s", s, p.output())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("no %q after %v; output:\n%s", s, limit, p.output())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// ctrlC waits settle, types Ctrl-C and returns the exit code, failing the
// test unless the command stops within a second and a half (it should
// take under a second).
func (p *ttyProc) ctrlC(t *testing.T, settle time.Duration) int {
	t.Helper()
	time.Sleep(settle)
	sent := time.Now()
	if _, err := p.tty.Write([]byte{3}); err != nil {
		t.Fatal(err)
	}
	code := p.wait(t, 5*time.Second)
	if took := time.Since(sent); took > 1500*time.Millisecond {
		t.Errorf("took %v to stop after Ctrl-C, want under a second", took)
	}
	return code
}

// wait waits for the exit and returns the exit code; a process still
// running after limit fails the test (it is killed by the cleanup).
func (p *ttyProc) wait(t *testing.T, limit time.Duration) int {
	t.Helper()
	select {
	case <-p.done:
	case <-time.After(limit):
		t.Fatalf("still running after %v; output so far:\n%s", limit, p.output())
	}
	// Let the reader drain what the process printed last.
	time.Sleep(50 * time.Millisecond)
	var ee *exec.ExitError
	switch {
	case p.err == nil:
		return 0
	case errors.As(p.err, &ee):
		return ee.ExitCode()
	}
	t.Fatalf("wait: %v", p.err)
	return -1
}

// Regression (issue "Runs a user can trust", 1): with stderr on a
// terminal, a workload whose first message is released after an idle gap
// longer than the old 100 us progress step printed "messages 0/2
// simulated 100us" forever. The run must finish, show progress on the
// terminal and erase it before the table.
func TestTerminalRunWithIdleGapFinishes(t *testing.T) {
	dir := t.TempDir()
	gap := writeFile(t, dir, "gap.csv", csvTrace(
		"0,0,1,10000,0,-1,-1,,0",
		"1,1,0,10000,50000000,-1,-1,,0", // 50 ms later
	))
	for _, args := range [][]string{
		{"run", "--workload", "incast:n=2,size=10KB,start=1ms", "--out", "a"},
		{"run", "--trace", gap, "--out", "b", "--packets", "none"},
	} {
		p := startTTY(t, dir, args...)
		if code := p.wait(t, 60*time.Second); code != 0 {
			t.Fatalf("%v: exit %d\n%s", args, code, p.output())
		}
		out := p.output()
		if !strings.Contains(out, "simulated ") || !strings.Contains(out, "\x1b[K") {
			t.Errorf("%v: no progress line on the terminal:\n%q", args, out)
		}
		if !strings.Contains(out, "flows ") {
			t.Errorf("%v: no result table:\n%s", args, out)
		}
	}
}

// Regression (issue "Runs a user can trust", 7): Ctrl-C at a terminal
// stops a run within a second, prints one line saying what was kept,
// exits 130, removes the staging folder and leaves the previous run in
// --out untouched.
func TestTerminalCtrlCStopsRunAndKeepsPreviousOutput(t *testing.T) {
	dir := t.TempDir()
	if r := runCLI(t, "run", "--workload", smallWorkload, "--out", filepath.Join(dir, "out")); r.code != 0 {
		t.Fatalf("first run: %d %s", r.code, r.stderr)
	}
	before, err := os.ReadFile(filepath.Join(dir, "out", runfolder.SummaryFile))
	if err != nil {
		t.Fatal(err)
	}
	p := startTTY(t, dir, "run", "--workload", "incast:n=16,size=2GB", "--out", "out", "--force")
	p.waitFor(t, "simulated ", 30*time.Second)
	code := p.ctrlC(t, 300*time.Millisecond) // well inside the run, its packet log open
	if code != ExitInterrupted {
		t.Errorf("exit %d, want %d\n%s", code, ExitInterrupted, p.output())
	}
	out := p.output()
	if !strings.Contains(out, "ccreplay: interrupted at simulated time") || !strings.Contains(out, "out still holds the previous run") {
		t.Errorf("no line saying what was kept:\n%s", out)
	}
	after, err := os.ReadFile(filepath.Join(dir, "out", runfolder.SummaryFile))
	if err != nil || !bytes.Equal(before, after) {
		t.Errorf("the previous run's "+runfolder.SummaryFile+" changed or is gone: %v", err)
	}
	for _, n := range dirNames(t, dir) {
		if strings.Contains(n, ".tmp-") {
			t.Errorf("leftover staging folder %s", n)
		}
	}
	if names := dirNames(t, filepath.Join(dir, "out")); strings.Contains(strings.Join(names, " "), ".tmp-") {
		t.Errorf("leftover temporary files in out: %v", names)
	}
}

// SIGTERM (what a batch scheduler sends) stops compare the same way:
// exit 130, nothing written, no staging folder left.
func TestSIGTERMStopsCompare(t *testing.T) {
	dir := t.TempDir()
	cmd := exec.Command(os.Args[0], "compare", "--workload", "incast:n=16,size=1GB", "--cca", "dcqcn,hpcc", "--seeds", "1..2", "--out", "cmp", "--parallel", "2")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "CCREPLAY_TEST_MAIN=1")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	cmd.Stdout = io.Discard
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// Wait until the staging folder exists: the runs are under way.
	deadline := time.Now().Add(30 * time.Second)
	for !strings.Contains(strings.Join(dirNames(t, dir), " "), ".cmp.tmp-") {
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatal("compare never started writing")
		}
		time.Sleep(20 * time.Millisecond)
	}
	time.Sleep(300 * time.Millisecond)
	sent := time.Now()
	cmd.Process.Signal(syscall.SIGTERM)
	err := cmd.Wait()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != ExitInterrupted {
		t.Errorf("exit %v, want %d\n%s", err, ExitInterrupted, stderr.String())
	}
	if took := time.Since(sent); took > 1500*time.Millisecond {
		t.Errorf("took %v to stop, want under a second", took)
	}
	if !strings.Contains(stderr.String(), "ccreplay: interrupted after 0 of 4 runs; nothing written") {
		t.Errorf("stderr: %s", stderr.String())
	}
	if names := dirNames(t, dir); len(names) != 0 {
		t.Errorf("left %v behind", names)
	}
}

// Ctrl-C during training: exit 130, nothing written, the line says how
// far it got.
func TestTerminalCtrlCStopsTraining(t *testing.T) {
	ctrlCStopsTraining(t, 60*time.Second, "train", "rlcc", "--episodes", "100000", "--flows", "64", "-o", "pol")
}

// ctrlCStopsTraining starts a training into pol on a terminal and presses
// Ctrl-C once its first episode line shows (within wait): exit 130 within
// a second and a half, a line saying nothing was written to pol, nothing
// left in the folder.
func ctrlCStopsTraining(t *testing.T, wait time.Duration, args ...string) {
	t.Helper()
	dir := t.TempDir()
	p := startTTY(t, dir, args...)
	p.waitFor(t, "episode ", wait)
	code := p.ctrlC(t, 0)
	if code != ExitInterrupted || !strings.Contains(p.output(), "nothing written to pol") {
		t.Errorf("exit %d, output:\n%s", code, p.output())
	}
	if names := dirNames(t, dir); len(names) != 0 {
		t.Errorf("left %v behind", names)
	}
}

// reproduce shows its progress on a terminal and stops on Ctrl-C: exit
// 130, one line saying nothing was written, no staging folder left.
func TestTerminalCtrlCStopsReproduce(t *testing.T) {
	dir := t.TempDir()
	p := startTTY(t, dir, "reproduce", "fdcc-table6.2", "--scale", "full", "-o", "repro")
	p.waitFor(t, "simulations done", 60*time.Second)
	code := p.ctrlC(t, 200*time.Millisecond)
	if code != ExitInterrupted {
		t.Errorf("exit %d, want %d\n%s", code, ExitInterrupted, p.output())
	}
	if out := p.output(); !strings.Contains(out, "interrupted; nothing written, repro left as it was") {
		t.Errorf("no line saying what was kept:\n%s", out)
	}
	if names := dirNames(t, dir); len(names) != 0 {
		t.Errorf("left %v behind", names)
	}
}

// Ctrl-C while FDCC trains (in an episode or in the TD3 updates): exit
// 130 within a second and a half, nothing written.
func TestTerminalCtrlCStopsFDCCTraining(t *testing.T) {
	ctrlCStopsTraining(t, 90*time.Second, "train", "fdcc", "--curriculum", "16", "--episodes-per-stage", "1000", "--duration", "2ms", "--batch", "64", "-o", "pol")
}

// A sweep at a terminal shows its progress (points done, failed, running,
// pending); Ctrl-C stops it within a second, keeps the points done, leaves
// no folder of the points that were running (status: 2 done, 2 pending,
// which the same command then runs).
func TestTerminalCtrlCStopsSweepAndResumes(t *testing.T) {
	dir := t.TempDir()
	// Two quick points, then two long ones that are running at Ctrl-C.
	args := []string{"sweep", "--workload", "incast:n=16,size={64KB,2GB}", "--seeds", "1..2", "--out", "sw", "-j", "2", "--packets", "none"}
	p := startTTY(t, dir, args...)
	p.waitFor(t, "2/4 done, 0 failed, 2 running", 60*time.Second)
	code := p.ctrlC(t, 300*time.Millisecond)
	out := p.output()
	if code != ExitInterrupted || !strings.Contains(out, "interrupted: 2 of 4 points done") {
		t.Fatalf("exit %d, output:\n%s", code, out)
	}
	if _, err := os.Stat(filepath.Join(dir, "sw", "size=2GB")); !os.IsNotExist(err) {
		t.Errorf("the interrupted points left their folders: %v", dirNames(t, filepath.Join(dir, "sw")))
	}
	st := runCLI(t, "sweep", "status", filepath.Join(dir, "sw"))
	if !strings.Contains(st.stdout, "4 points: 2 done, 0 failed, 0 running, 2 pending") {
		t.Errorf("status after Ctrl-C: %s", st.stdout)
	}
}
