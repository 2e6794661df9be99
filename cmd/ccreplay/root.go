package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"golang.org/x/term"

	"github.com/ccreplay/ccreplay/cca"
	"github.com/ccreplay/ccreplay/cca/all"
	"github.com/ccreplay/ccreplay/internal/clierr"
	"github.com/ccreplay/ccreplay/internal/interrupt"
	"github.com/ccreplay/ccreplay/limits"
	"github.com/ccreplay/ccreplay/replay"
)

// Exit codes (documented in README.md, "Exit codes"); the typed errors of
// internal/clierr carry them.
const (
	ExitOK          = clierr.ExitOK
	ExitFailure     = clierr.ExitFailure
	ExitUsage       = clierr.ExitUsage
	ExitBadInput    = clierr.ExitBadInput
	ExitInterrupted = clierr.ExitInterrupted
)

// usageErrorf is clierr.Usagef, the shorthand run's and compare's files call.
var usageErrorf = clierr.Usagef

// How a command is built
//
// Every command is a constructor NewCmdX(f *Factory, runF func(*xOptions)
// error) *cobra.Command, after the GitHub CLI's pkg/cmd:
//
//   - f is the Factory: what the command takes from its environment (the
//     I/O streams, whether stderr is a terminal, the clock, the algorithm
//     registry). Main builds the one real Factory; tests build one over
//     buffers.
//   - The constructor binds the flags to a fresh options struct whose
//     first field is f. Its RunE records which flags were given, stores
//     the command's context and then calls runF(opts) when runF is not
//     nil, else the command's own run function (xRun(opts)).
//   - A test that checks flag parsing passes a runF that keeps opts and
//     returns nil: it gets the parsed options through the cobra command,
//     with nothing run.
//   - Errors are internal/clierr's typed errors (usage: exit 2, input:
//     exit 3, interrupted: exit 130); Main turns them into the exit code.
//
// The root command adds the constructors with runF nil.

// Factory is what every command takes from its environment.
type Factory struct {
	In       io.Reader
	Out, Err io.Writer
	// ErrIsTerminal enables progress lines on Err.
	ErrIsTerminal bool
	// Now is the wall clock (progress lines, --stats); nil is time.Now.
	Now func() time.Time
	// Registry is every congestion control algorithm the command may
	// run; nil is all of them (cca/all).
	Registry func() *cca.Registry

	// progress is the status line being shown on Err, if any.
	progress *progressLine
}

// now is the Factory's clock.
func (f *Factory) now() time.Time {
	if f.Now == nil {
		return time.Now()
	}
	return f.Now()
}

// registry is the Factory's algorithm registry.
func (f *Factory) registry() *cca.Registry {
	if f.Registry == nil {
		return registry()
	}
	return f.Registry()
}

// registry is every congestion control algorithm the CLI knows.
func registry() *cca.Registry { return all.Registry() }

func newRootCmd(f *Factory) *cobra.Command {
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
	root.SetIn(f.In)
	root.SetOut(f.Out)
	root.SetErr(f.Err)
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error { return clierr.Usage(flagValueError(err)) })
	root.AddCommand(NewCmdRun(f, nil), NewCmdCompare(f, nil), NewCmdGen(f, nil), NewCmdIngest(f, nil), NewCmdVersion(f, nil))
	for _, mk := range extraCommands {
		root.AddCommand(mk(f))
	}
	return root
}

// extraCommands are subcommands that register themselves from their own
// files (analysis and learning commands) with registerCommand in an init
// function; cobra lists subcommands sorted by name, so the order of
// registration does not show.
var extraCommands []func(*Factory) *cobra.Command

// registerCommand adds a subcommand constructor to the root command.
func registerCommand(mk func(*Factory) *cobra.Command) { extraCommands = append(extraCommands, mk) }

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
	f := &Factory{In: in, Out: out, Err: errw}
	if fd, ok := errw.(*os.File); ok {
		f.ErrIsTerminal = term.IsTerminal(int(fd.Fd()))
	}
	ctx, stop := interrupt.Watch(parent, errw, stopGrace)
	defer stop()
	root := newRootCmd(f)
	root.SetArgs(args)
	err := root.ExecuteContext(ctx)
	if _, _, ferr := root.Find(args); ferr != nil {
		// An unknown command: cobra's Find says so; a usage error.
		err = clierr.Usage(ferr)
	}
	if err == nil {
		return ExitOK
	}
	if f.progress != nil {
		f.progress.clear()
	}
	fmt.Fprintln(errw, "ccreplay: "+clierr.Line(err.Error()))
	return exitCode(err)
}

// exitCode is err's documented exit code (clierr.Code); a run's error
// from its inputs (replay.ErrBadInput) is a bad input.
func exitCode(err error) int { return clierr.Code(err, replay.ErrBadInput) }

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
