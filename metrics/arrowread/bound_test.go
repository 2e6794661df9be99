//go:build unix

package arrowread

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ccreplay/ccreplay/internal/testfiles"
	"github.com/ccreplay/ccreplay/limits"
)

// Every reader of a run folder's Parquet files takes a regular file within
// its kind's bound (docs/LIMITS.md, "Input files"): a file larger than the
// bound is refused from its size before anything is read, a device or a
// folder at once, and a named pipe with no writer at once too (a plain
// open would wait for a writer for ever), each in one line naming the file.
func TestReadersAreBounded(t *testing.T) {
	for _, r := range fileReaders {
		dir := t.TempDir()
		p := filepath.Join(dir, r.name)
		oneLine := func(kind string, err error, want string) {
			t.Helper()
			if err == nil || !strings.HasPrefix(err.Error(), "arrowread: "+p+": ") || !strings.HasSuffix(err.Error(), want) || strings.Contains(err.Error(), "\n") {
				t.Errorf("%s, %s: %v (want one line naming %s, ending %q)", r.name, kind, err, p, want)
			}
		}

		// One byte past the bound: a sparse file, refused from its size.
		testfiles.Sparse(t, p, r.max+1)
		oneLine("over the bound", r.read(p), "more than "+limits.SizeString(r.max)+", the limit of "+r.what+" (docs/LIMITS.md)")
		os.Remove(p)

		// A folder, and a link to a device.
		os.Mkdir(p, 0o755)
		oneLine("folder", r.read(p), "is a folder; "+r.what+" must be a regular file")
		os.Remove(p)
		if _, err := os.Stat("/dev/zero"); err == nil {
			os.Symlink("/dev/zero", p)
			oneLine("/dev/zero", r.read(p), "is a character device; "+r.what+" must be a regular file")
			os.Remove(p)
		}

		// A named pipe nobody writes to.
		if err := syscall.Mkfifo(p, 0o600); err != nil {
			t.Skipf("mkfifo: %v", err)
		}
		done := make(chan error, 1)
		go func() { done <- r.read(p) }()
		select {
		case err := <-done:
			oneLine("FIFO", err, "is a named pipe (FIFO); "+r.what+" must be a regular file")
		case <-time.After(5 * time.Second):
			t.Fatalf("%s: reading a named pipe with no writer blocked", r.name)
		}
	}
}
