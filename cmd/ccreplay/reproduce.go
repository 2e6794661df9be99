package main

import (
	"context"
	"runtime"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/ccreplay/ccreplay/internal/membudget"
	"github.com/ccreplay/ccreplay/reproduce"
	"github.com/ccreplay/ccreplay/runfolder"
)

func init() {
	registerCommand(func(f *Factory) *cobra.Command { return NewCmdReproduce(f, nil) })
}

// reproduceOptions are the flags of `ccreplay reproduce`.
type reproduceOptions struct {
	s   *Factory
	ctx context.Context
	reproduce.CommandOptions
	// params are extra algorithm parameters (eval fdcc's --policy).
	params map[string]map[string]string
}

const reproduceExamples = `  # every experiment, with the paper each comes from
  ccreplay reproduce --list

  # FDCC (Zhang 2023) Table 6.2 at the small scale: the paper's numbers beside ours
  ccreplay reproduce fdcc-table6.2 -o repro/table6.2

  # the paper's own scale, the report as JSON for scripts
  ccreplay reproduce fdcc-table6.2 --scale full -o repro/table6.2-full --json`

// NewCmdReproduce is `ccreplay reproduce`; runF, when not nil, is called
// with the parsed options instead of running (tests).
func NewCmdReproduce(f *Factory, runF func(*reproduceOptions) error) *cobra.Command {
	o := &reproduceOptions{s: f}
	c := &cobra.Command{
		Use:   "reproduce NAME [--scale small|full] [-o DIR] [--json] | --list",
		Short: "Rerun a paper's table or figure and set its numbers beside ccreplay's",
		Long: `Runs the setup of one headline table or figure of the papers ccreplay implements
(docs/REPRODUCTION.md lists them with their results) and prints, for every number
the paper reports, the paper's value, ccreplay's, the difference and a verdict:
  reproduces      same direction, size within the factor the experiment states
  same direction  a relative change with the paper's sign but another size
  differs         anything else (docs/REPRODUCTION.md says why, where known)
--scale small (the default) shrinks the setup to run on a laptop in minutes;
--scale full is the paper's own setup. Written to --out, whole or not at all:
  NAME=.../        one run folder per simulation (as ccreplay run writes it)
  configs/*.yaml   each simulation's configuration: ccreplay run --config FILE reruns it
  ` + runfolder.ReproductionFile + `  the report (--json prints the same)
  reproduction.png   ccreplay / paper for every claim
The exit code is 0 whatever the verdicts: a difference is a result, not an error.`,
		Example: reproduceExamples,
		Args:    usageArgs(cobra.MaximumNArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			if o.List && len(args) > 0 {
				return usageErrorf("--list takes no experiment name")
			}
			if !o.List && len(args) == 0 {
				return usageErrorf("name an experiment (ccreplay reproduce --list shows them)")
			}
			o.ctx, o.OutGiven = cmd.Context(), cmd.Flags().Changed("out")
			if len(args) > 0 {
				o.Name = args[0]
			}
			return runOr(runF, reproduceRun, o)
		},
	}
	fl := c.Flags()
	fl.BoolVar(&o.List, "list", false, "list the experiments and exit")
	o.addFlags(fl, "the paper's setup", "reproduce-NAME-SCALE", "report (or the list)")
	return c
}

// addFlags binds the flags of how a reproduction runs and where it is
// written, which eval fdcc shares; full, out and printed are the command's
// words for the full scale, the default folder and what --json prints.
func (o *reproduceOptions) addFlags(fl *pflag.FlagSet, full, out, printed string) {
	fl.StringVar(&o.Scale, "scale", "small", "small (minutes on a laptop) or full ("+full+")")
	fl.StringVarP(&o.Out, "out", "o", "", "output folder (default "+out+")")
	fl.BoolVar(&o.Force, "force", false, "replace a previous ccreplay output folder at --out")
	fl.BoolVar(&o.JSON, "json", false, "print the "+printed+" as JSON")
	fl.IntVar(&o.Parallel, "parallel", runtime.GOMAXPROCS(0), "simulations at once")
	fl.StringVar(&o.Figures, "figure", "png", "figure formats: png, svg, png,svg or none")
	fl.StringVar(&o.MaxMemory, "max-memory", "", strings.Replace(maxMemoryHelp, "a run whose estimated peak memory is", "the simulations whose estimated peak memory, the --parallel largest at once, is", 1))
}

// reproduceRun lists the experiments or runs one.
func reproduceRun(o *reproduceOptions) error { return o.run(o.ctx, o.Name, o.OutGiven) }

// run runs the experiment name (eval fdcc names its own).
func (o *reproduceOptions) run(ctx context.Context, name string, outGiven bool) error {
	prog := o.s.newProgressLine()
	o.Name, o.OutGiven, o.Params, o.Registry, o.Progress, o.ClearProgress = name, outGiven, o.params, o.s.registry(), prog.set, prog.clear
	o.CheckMemory = membudget.CheckRuns
	return o.Run(ctx, o.s.ioStreams())
}
