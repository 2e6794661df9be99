//go:build unix

package runconfig

import (
	"os"
	"syscall"
	"testing"
	"time"

	"github.com/ccreplay/ccreplay/cca/all"
)

// A trace that is a named pipe when the run is hashed (read once already:
// a pipe cannot be read twice) is refused at once, in one line naming it,
// instead of waiting for a writer for ever.
func TestCanonicalRefusesAPipeAtOnce(t *testing.T) {
	dir := t.TempDir()
	trace := writeFile(t, dir, "t.csv", "id,src,dst,bytes,release_ns,flow_id,collective_id,deps,gap_ns\n0,0,1,1000,0,-1,-1,,0\n")
	st, err := Resolve(Request{Trace: trace, CCA: "dcqcn", Packets: "none", Seed: 1}, all.Registry())
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := st.Config(st.Specs[0], 1)
	if err != nil {
		t.Fatal(err)
	}
	os.Remove(trace)
	if err := syscall.Mkfifo(trace, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := st.Canonical(&cfg)
		done <- err
	}()
	select {
	case err := <-done:
		want := "hashing the workload: " + trace + ": is a named pipe (FIFO); a hashed workload file must be a regular file"
		if err == nil || err.Error() != want {
			t.Errorf("got %v, want %q", err, want)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("hashing a named pipe with no writer blocked")
	}
}
