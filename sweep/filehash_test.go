//go:build unix

package sweep

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// The files a point names are hashed only when they are regular files: a
// named pipe is "unreadable" at once (a plain open waits for a writer for
// ever, and planning the sweep with it), a file that is not there
// "missing".
func TestFileHashDoesNotWaitOnAPipe(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "t.csv")
	if err := os.WriteFile(p, []byte("abc"), 0o644); err != nil {
		t.Fatal(err)
	}
	if h := fileHash(p); h != "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad" {
		t.Errorf("sha256(abc) = %s", h)
	}
	if h := fileHash(filepath.Join(dir, "none.csv")); h != "missing" {
		t.Errorf("a missing file: %s", h)
	}
	fifo := filepath.Join(dir, "pipe.csv")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	done := make(chan string, 1)
	go func() { done <- fileHash(fifo) }()
	select {
	case h := <-done:
		if h != "unreadable" {
			t.Errorf("a named pipe: %s", h)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("hashing a named pipe with no writer blocked")
	}
}
