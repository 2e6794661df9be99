package main

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/ccreplay/ccreplay/cca"
	"github.com/ccreplay/ccreplay/cca/dcqcn"
	"github.com/ccreplay/ccreplay/cca/dctcp"
	"github.com/ccreplay/ccreplay/cca/dolce"
	"github.com/ccreplay/ccreplay/cca/hpcc"
	"github.com/ccreplay/ccreplay/cca/linerate"
	"github.com/ccreplay/ccreplay/cca/rlcc"
	"github.com/ccreplay/ccreplay/cca/swift"
	"github.com/ccreplay/ccreplay/cca/timely"
)

// Exit codes (documented in README.md).
const (
	ExitOK       = 0 // success
	ExitFailure  = 1 // the run failed (an invariant broke, an output could not be written)
	ExitUsage    = 2 // bad command line: unknown flag, missing or conflicting arguments
	ExitBadInput = 3 // bad input: trace, topology, workload, config file or parameter
)

// usageError marks command-line mistakes (exit 2).
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }
func (e usageError) Unwrap() error { return e.err }

// inputError marks bad inputs (exit 3).
type inputError struct{ err error }

func (e inputError) Error() string { return e.err.Error() }
func (e inputError) Unwrap() error { return e.err }

func usageErrorf(format string, a ...any) error { return usageError{fmt.Errorf(format, a...)} }
func inputErrorf(format string, a ...any) error { return inputError{fmt.Errorf(format, a...)} }

// streams are the command's I/O, injected so tests run in memory.
type streams struct {
	In       io.Reader
	Out, Err io.Writer
	// ErrIsTerminal enables progress lines on Err.
	ErrIsTerminal bool
}

// registry is every congestion control algorithm the CLI knows.
func registry() *cca.Registry {
	r := cca.NewRegistry()
	dcqcn.Register(r)
	dctcp.Register(r)
	dolce.Register(r)
	hpcc.Register(r)
	linerate.Register(r)
	rlcc.Register(r)
	swift.Register(r)
	timely.Register(r)
	return r
}

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
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error { return usageError{err} })
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

// Main runs the CLI with args and returns the process exit code.
func Main(args []string, in io.Reader, out, errw io.Writer) int {
	s := &streams{In: in, Out: out, Err: errw}
	if f, ok := errw.(*os.File); ok {
		s.ErrIsTerminal = term.IsTerminal(int(f.Fd()))
	}
	root := newRootCmd(s)
	root.SetArgs(args)
	err := root.Execute()
	if err == nil {
		return ExitOK
	}
	fmt.Fprintln(errw, "ccreplay: "+err.Error())
	return exitCode(err)
}

func exitCode(err error) int {
	var ue usageError
	var ie inputError
	switch {
	case errors.As(err, &ue):
		return ExitUsage
	case errors.As(err, &ie):
		return ExitBadInput
	default:
		// cobra's own argument errors ("unknown command", "unknown flag")
		// arrive as plain errors: treat them as usage errors.
		if isCobraUsage(err) {
			return ExitUsage
		}
		return ExitFailure
	}
}
