// Package interrupt turns SIGINT and SIGTERM into the cancellation of a
// command's context: the command then stops by itself, removes its
// temporaries and says what was kept. A second signal, or a command still
// busy a grace period after the first, ends the process at once.
package interrupt

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/ccreplay/ccreplay/internal/clierr"
)

// exit ends the process (tests replace it).
var exit = os.Exit

// Watch returns a context derived from parent that SIGINT or SIGTERM
// cancels, and stop, which ends the watch (call it when the command
// returns). After the first signal, a second one, or grace passing
// without stop being called, writes one line to errw and exits with
// clierr.ExitInterrupted: a phase that does not look at its context (opening a named
// pipe no process writes to, a read the system does not interrupt) is not
// waited for.
func Watch(parent context.Context, errw io.Writer, grace time.Duration) (ctx context.Context, stop func()) {
	ctx, cancel := context.WithCancel(parent)
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	finished := make(chan struct{})
	go func() {
		select {
		case <-sigs:
			cancel()
		case <-finished:
			return
		}
		select {
		case <-sigs:
			fmt.Fprintln(errw, "\nccreplay: second interrupt: exiting now (a hidden .NAME.tmp-* folder may be left beside the output; the next run into it removes it)")
			exit(clierr.ExitInterrupted)
		case <-time.After(grace):
			fmt.Fprintf(errw, "\nccreplay: interrupted: still busy %v after the signal; exiting now (a hidden .NAME.tmp-* folder may be left beside the output; the next run into it removes it)\n", grace)
			exit(clierr.ExitInterrupted)
		case <-finished:
		}
	}()
	return ctx, func() {
		close(finished)
		signal.Stop(sigs)
		cancel()
	}
}
