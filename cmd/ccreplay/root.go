package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strconv"
	"syscall"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"golang.org/x/term"

	"github.com/ccreplay/ccreplay/cca"
	"github.com/ccreplay/ccreplay/cca/all"
	"github.com/ccreplay/ccreplay/limits"
	"github.com/ccreplay/ccreplay/replay"
	"github.com/ccreplay/ccreplay/runconfig"
)

// Exit codes (documented in README.md).
const (
	ExitOK       = 0 // success
	ExitFailure  = 1 // the run failed (an invariant broke, an output could not be written)
	ExitUsage    = 2 // bad command line: unknown flag, missing or conflicting arguments
	ExitBadInput = 3 // bad input: trace, topology, workload, config file or parameter
	// ExitInterrupted: SIGINT (Ctrl-C) or SIGTERM stopped the command; it
	// removed its temporary files and left its output folder as it was.
	ExitInterrupted = 130
)

// usageError marks command-line mistakes (exit 2).
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }
func (e usageError) Unwrap() error { return e.err }

// inputError marks bad inputs (exit 3).
type inputError struct{ err error }

func (e inputError) Error() string { return e.err.Error() }
func (e inputError) Unwrap() error { return e.err }

// interruptedError is a command stopped by SIGINT or SIGTERM (exit 130);
// its message says what was kept.
type interruptedError struct{ msg string }

func (e interruptedError) Error() string { return e.msg }
func (e interruptedError) Unwrap() error { return context.Canceled }

func interrupted(format string, a ...any) error { return interruptedError{fmt.Sprintf(format, a...)} }

func usageErrorf(format string, a ...any) error { return usageError{fmt.Errorf(format, a...)} }
func inputErrorf(format string, a ...any) error { return inputError{fmt.Errorf(format, a...)} }

// streams are the command's I/O, injected so tests run in memory.
type streams struct {
	In       io.Reader
	Out, Err io.Writer
	// ErrIsTerminal enables progress lines on Err.
	ErrIsTerminal bool
	// progress is the status line being shown on Err, if any.
	progress *progressLine
}

// registry is every congestion control algorithm the CLI knows.
func registry() *cca.Registry { return all.Registry() }

func newRootCmd(s *streams) *cobra.Command {
	root := &cobra.Command{
		Use:   "ccreplay",
		Short: "Trace-driven packet-level replay of datacenter congestion control",
		Long: `ccreplay replays a workload (a trace file or a built-in generator) packet by
packet through NIC and switch models (shared buffers, ECN/RED, PFC, INT) under a
congestion control algorithm, writes per-packet and per-flow Parquet, and
computes FCT/MCT percentiles, slowdown, ECN ratio, unfair ratio and more.`,
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetIn(s.In)
	root.SetOut(s.Out)
	root.SetErr(s.Err)
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error { return usageError{flagValueError(err)} })
	root.AddCommand(newRunCmd(s), newCompareCmd(s), newGenCmd(s), newIngestCmd(s), newVersionCmd(s))
	for _, mk := range extraCommands {
		root.AddCommand(mk(s))
	}
	return root
}

// extraCommands are subcommands that register themselves from their own
// files (analysis and learning commands) with registerCommand in an init
// function; cobra lists subcommands sorted by name, so the order of
// registration does not show.
var extraCommands []func(*streams) *cobra.Command

// registerCommand adds a subcommand constructor to the root command.
func registerCommand(mk func(*streams) *cobra.Command) { extraCommands = append(extraCommands, mk) }

// Main runs the CLI with args and returns the process exit code. SIGINT
// and SIGTERM cancel the command's context: a command stops within about a
// second, removes its temporaries, says in one line what was kept and
// exits ExitInterrupted. A second signal exits at once.
func Main(args []string, in io.Reader, out, errw io.Writer) int {
	return mainContext(context.Background(), args, in, out, errw)
}

// stopGrace is how long after SIGINT or SIGTERM a command may take to stop
// by itself (every long phase looks at its context at least every few
// milliseconds and then removes its temporaries) before the process exits
// regardless.
const stopGrace = 2 * time.Second

// mainContext is Main under a parent context (tests end examples that
// run long with a deadline).
func mainContext(parent context.Context, args []string, in io.Reader, out, errw io.Writer) int {
	s := &streams{In: in, Out: out, Err: errw}
	if f, ok := errw.(*os.File); ok {
		s.ErrIsTerminal = term.IsTerminal(int(f.Fd()))
	}
	ctx, cancel := context.WithCancel(parent)
	defer cancel()
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(sigs)
	finished := make(chan struct{})
	defer close(finished)
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
			os.Exit(ExitInterrupted)
		case <-time.After(stopGrace):
			// A phase that does not look at the context (opening a named
			// pipe no process writes to, a read the system does not
			// interrupt) is not waited for.
			fmt.Fprintf(errw, "\nccreplay: interrupted: still busy %v after the signal; exiting now (a hidden .NAME.tmp-* folder may be left beside the output; the next run into it removes it)\n", stopGrace)
			os.Exit(ExitInterrupted)
		case <-finished:
		}
	}()
	root := newRootCmd(s)
	root.SetArgs(args)
	err := root.ExecuteContext(ctx)
	if _, _, ferr := root.Find(args); ferr != nil {
		// An unknown command: cobra's Find says so; a usage error.
		err = usageError{ferr}
	}
	if err == nil {
		return ExitOK
	}
	if s.progress != nil {
		s.progress.clear()
	}
	fmt.Fprintln(errw, "ccreplay: "+errorLine(err.Error()))
	return exitCode(err)
}

// maxErrorLine bounds the error line: readers quote at most a short
// prefix of a bad value (limits.Quote), and this catches any message that
// still echoes a long input.
const maxErrorLine = 2000

// errorLine cuts msg to at most maxErrorLine bytes.
func errorLine(msg string) string {
	if len(msg) <= maxErrorLine {
		return msg
	}
	cut := maxErrorLine
	for cut > 0 && msg[cut]&0xC0 == 0x80 {
		cut--
	}
	return fmt.Sprintf("%s... (%d bytes more)", msg[:cut], len(msg)-cut)
}

func exitCode(err error) int {
	var ue usageError
	var ie inputError
	var fe *runconfig.FlagError
	var rie *runconfig.InputError
	switch {
	case errors.Is(err, context.Canceled):
		return ExitInterrupted
	case errors.As(err, &ue), errors.As(err, &fe):
		return ExitUsage
	case errors.As(err, &ie), errors.As(err, &rie), errors.Is(err, replay.ErrBadInput):
		return ExitBadInput
	default:
		return ExitFailure
	}
}

// flagValueError rewords pflag's error for a value its type cannot parse
// ("invalid argument "-1" for "--seed" flag: strconv.ParseUint: parsing
// "-1": invalid syntax") as one line naming the flag, the value and what
// it wants; other flag errors pass unchanged.
func flagValueError(err error) error {
	var ive *pflag.InvalidValueError
	if !errors.As(err, &ive) {
		return err
	}
	f := ive.GetFlag()
	want := "a valid " + f.Value.Type()
	switch f.Value.Type() {
	case "uint", "uint8", "uint16", "uint32", "uint64":
		want = "a whole number >= 0"
	case "int", "int8", "int16", "int32", "int64":
		want = "an integer"
	case "float32", "float64":
		want = "a number"
	case "bool":
		want = "true or false"
	case "duration":
		want = "a duration such as 10ms"
	}
	what := "is not"
	if errors.Is(err, strconv.ErrRange) {
		what = "is out of range for"
	}
	return fmt.Errorf("--%s: %s %s %s", f.Name, limits.Quote(ive.GetValue()), what, want)
}
