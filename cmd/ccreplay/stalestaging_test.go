//go:build linux || darwin

package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ccreplay/ccreplay/runfolder"
)

// stagingOf lists the staging folders of --out out in dir written by the
// process pid (".out.tmp-<pid>.<start>-*", see internal/staging).
func stagingOf(t *testing.T, dir string, pid int) []string {
	t.Helper()
	var out []string
	for _, name := range dirNames(t, dir) {
		if strings.HasPrefix(name, ".out.tmp-"+strconv.Itoa(pid)+".") {
			out = append(out, name)
		}
	}
	return out
}

// waitStaging waits until the running command p has created its staging
// folder in dir and returns its name.
func waitStaging(t *testing.T, dir string, p *started) string {
	t.Helper()
	deadline := time.Now().Add(2 * time.Minute)
	for {
		if s := stagingOf(t, dir, p.cmd.Process.Pid); len(s) > 0 {
			return s[0]
		}
		select {
		case <-p.done:
			t.Fatalf("ended before writing anything: %s", p.stderr.String())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("no staging folder after 2 minutes: %s", p.stderr.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// Regression (issue 33, finding 7): a run killed outright (SIGKILL) left
// its staging folder beside --out for ever, and later runs into the same
// --out never removed it. Through the real command, as separate
// processes: a killed run's staging stays until the next run into that
// --out, which removes it and lands its own folder, while the staging of
// a run still writing there is left alone.
func TestSIGKILLedRunsStagingIsCleanedByTheNextRun(t *testing.T) {
	dir := t.TempDir()
	// 16 x 1 GB at 100 Gb/s: over a simulated second, many minutes of
	// replay; both are killed long before they end.
	long := []string{"run", "--workload", "incast:n=16,size=1GB", "--packets", "none", "--out", "out"}

	live := startCmd(t, dir, long...)
	liveStaging := waitStaging(t, dir, live)

	dead := startCmd(t, dir, long...)
	deadStaging := waitStaging(t, dir, dead)
	if err := dead.cmd.Process.Kill(); err != nil { // SIGKILL: no handler runs
		t.Fatal(err)
	}
	<-dead.done // reaped: its process id no longer runs
	if got := stagingOf(t, dir, dead.cmd.Process.Pid); len(got) != 1 || got[0] != deadStaging {
		t.Fatalf("after SIGKILL, the run's staging is %v, want %s left behind", got, deadStaging)
	}

	next := startCmd(t, dir, "run", "--workload", "incast:n=2,size=1KB", "--packets", "none", "--out", "out")
	select {
	case <-next.done:
	case <-time.After(2 * time.Minute):
		t.Fatal("a 2-flow run did not end in 2 minutes")
	}
	if code := next.cmd.ProcessState.ExitCode(); code != 0 {
		t.Fatalf("the next run: exit %d\n%s", code, next.stderr.String())
	}
	if _, err := os.Stat(filepath.Join(dir, deadStaging)); !os.IsNotExist(err) {
		t.Errorf("the killed run's staging %s is still there after the next run (stat: %v)", deadStaging, err)
	}
	if _, err := os.Stat(filepath.Join(dir, "out", runfolder.SummaryFile)); err != nil {
		t.Errorf("the next run did not land in out: %v", err)
	}
	select {
	case <-live.done:
		t.Fatalf("the live run ended: %s", live.stderr.String())
	default:
	}
	if _, err := os.Stat(filepath.Join(dir, liveStaging)); err != nil {
		t.Errorf("the staging of a run still writing was removed: %v", err)
	}
}
