package staging

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// sleeper starts a process that waits until killed, for an owner that
// runs; stop kills it and waits, making it an owner that no longer runs.
func sleeper(t *testing.T) (pid int, stop func()) {
	t.Helper()
	cmd := exec.Command("sleep", "60")
	if err := cmd.Start(); err != nil {
		t.Skipf("cannot start a process: %v", err)
	}
	stopped := false
	stop = func() {
		if !stopped {
			stopped = true
			cmd.Process.Kill()
			cmd.Wait()
		}
	}
	t.Cleanup(stop)
	return cmd.Process.Pid, stop
}

func owner(pid int, start uint64) string {
	return strconv.Itoa(pid) + "." + strconv.FormatUint(start, 10)
}

// Clean removes the staging entries of dead writers (files and folders,
// with what is inside) and keeps those of live ones, of this process, of
// other bases, and those without an owner in their name.
func TestCleanRemovesOnlyDeadOwners(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("start times are read from /proc")
	}
	live, _ := sleeper(t)
	dead, stop := sleeper(t)
	liveStart, deadStart := startTime(live), startTime(dead)
	if liveStart == 0 || deadStart == 0 {
		t.Fatal("no start time read from /proc")
	}
	stop()

	dir := t.TempDir()
	mk := func(name string, folder bool) string {
		p := filepath.Join(dir, name)
		if folder {
			if err := os.MkdirAll(filepath.Join(p, "sub"), 0o755); err != nil {
				t.Fatal(err)
			}
			return name
		}
		if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
		return name
	}
	gone := []string{
		mk(".out.tmp-"+owner(dead, deadStart)+"-123", true),
		mk(".out.tmp-"+owner(dead, deadStart)+"-456.old", true),
		mk(".out.tmp-"+owner(live, liveStart+1)+"-789", true), // the pid now runs another process
	}
	kept := []string{
		mk(".out.tmp-"+owner(live, liveStart)+"-1", true),
		mk(strings.TrimSuffix(Prefix(".out"), "-")+"-2", true),
		mk(".out.tmp-987654", true), // no owner recorded
		mk(".other.tmp-"+owner(dead, deadStart)+"-3", true),
		mk(".out", false),
		mk(".out.tmp-x.y-4", false),
	}
	if n := Clean(dir, ".out"); n != len(gone) {
		t.Errorf("Clean removed %d entries, want %d", n, len(gone))
	}
	for _, n := range gone {
		if _, err := os.Lstat(filepath.Join(dir, n)); !os.IsNotExist(err) {
			t.Errorf("%s of a dead writer was left (%v)", n, err)
		}
	}
	for _, n := range kept {
		if _, err := os.Lstat(filepath.Join(dir, n)); err != nil {
			t.Errorf("%s was removed: %v", n, err)
		}
	}
}

// Prefix records this process as the owner, and os.MkdirTemp keeps it.
func TestPrefixNamesThisProcess(t *testing.T) {
	d, err := os.MkdirTemp(t.TempDir(), Prefix(".run"))
	if err != nil {
		t.Fatal(err)
	}
	rest, ok := strings.CutPrefix(filepath.Base(d), ".run.tmp-")
	if !ok {
		t.Fatalf("staging folder %q", d)
	}
	own, _, _ := strings.Cut(rest, "-")
	pid, start, ok := parseOwner(own)
	if !ok || pid != os.Getpid() || start != startTime(pid) {
		t.Fatalf("owner %q, want pid %d start %d", own, os.Getpid(), startTime(os.Getpid()))
	}
	if !alive(pid, start) {
		t.Fatal("this process is not alive")
	}
}
