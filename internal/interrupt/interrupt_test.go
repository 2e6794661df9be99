//go:build unix

package interrupt

import (
	"bytes"
	"context"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/ccreplay/ccreplay/internal/clierr"
)

// syncBuffer is a buffer the watching goroutine and the test share.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// watch replaces exit for one test: the code it was called with arrives
// on the channel.
func watch(t *testing.T) chan int {
	codes := make(chan int, 2)
	exit = func(c int) { codes <- c }
	t.Cleanup(func() { exit = realExit })
	return codes
}

var realExit = exit

// The first signal cancels the context and nothing more; stop then ends
// the watch without an exit.
func TestFirstSignalCancels(t *testing.T) {
	codes := watch(t)
	var errw syncBuffer
	ctx, stop := Watch(context.Background(), &errw, time.Minute)
	syscall.Kill(syscall.Getpid(), syscall.SIGINT)
	select {
	case <-ctx.Done():
	case <-time.After(10 * time.Second):
		t.Fatal("SIGINT did not cancel the context")
	}
	stop()
	select {
	case c := <-codes:
		t.Fatalf("exited %d after stop", c)
	case <-time.After(100 * time.Millisecond):
	}
	if errw.String() != "" {
		t.Errorf("wrote %q", errw.String())
	}
}

// A second signal exits at once with clierr.ExitInterrupted and says so in one line.
func TestSecondSignalExits(t *testing.T) {
	codes := watch(t)
	var errw syncBuffer
	ctx, stop := Watch(context.Background(), &errw, time.Minute)
	defer stop()
	syscall.Kill(syscall.Getpid(), syscall.SIGTERM)
	<-ctx.Done()
	syscall.Kill(syscall.Getpid(), syscall.SIGINT)
	checkInterrupted(t, codes, &errw, "second interrupt", "a second signal did not exit")
}

// A command still busy grace after the signal is not waited for.
func TestGraceExits(t *testing.T) {
	codes := watch(t)
	var errw syncBuffer
	ctx, stop := Watch(context.Background(), &errw, 50*time.Millisecond)
	defer stop()
	syscall.Kill(syscall.Getpid(), syscall.SIGINT)
	<-ctx.Done()
	checkInterrupted(t, codes, &errw, "still busy 50ms after the signal", "not exited after the grace period")
}

// checkInterrupted waits up to 10 s for an exit on codes, which must be
// ExitInterrupted with errw holding want; late is the failure when none
// comes.
func checkInterrupted(t *testing.T, codes chan int, errw *syncBuffer, want, late string) {
	t.Helper()
	select {
	case c := <-codes:
		if c != clierr.ExitInterrupted || !strings.Contains(errw.String(), want) {
			t.Errorf("exit %d, %q", c, errw.String())
		}
	case <-time.After(10 * time.Second):
		t.Fatal(late)
	}
}
