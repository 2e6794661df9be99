package main

import (
	"github.com/spf13/cobra"

	"github.com/ccreplay/ccreplay/internal/iostreams"
	"github.com/ccreplay/ccreplay/report"
	"github.com/ccreplay/ccreplay/runfolder"
	"github.com/ccreplay/ccreplay/version"
)

func init() { registerCommand(func(f *Factory) *cobra.Command { return NewCmdReport(f, nil) }) }

// reportOptions are the arguments and flags of `ccreplay report`.
type reportOptions struct {
	f *Factory
	report.CommandOptions
}

const reportExamples = `  # one run, as a page to attach to a design review
  ccreplay run --workload incast:n=8,size=1MB --cca dcqcn --out runA
  ccreplay report runA -o runA.html

  # a comparison and a sweep on one page, and what it holds as JSON
  ccreplay compare --workload incast:n=8,size=1MB --cca dcqcn,hpcc --out cmp
  ccreplay sweep --spec examples/sweep.yaml --out sw
  ccreplay report cmp sw -o cmp.html --json`

// NewCmdReport is `ccreplay report`; runF, when not nil, is called with
// the parsed options instead of writing the report (tests).
func NewCmdReport(f *Factory, runF func(*reportOptions) error) *cobra.Command {
	o := &reportOptions{f: f}
	c := &cobra.Command{
		Use:   "report DIR... [-o FILE] [--json]",
		Short: "Write one self-contained HTML page about runs, a comparison, a sweep, a reproduction or an estimate",
		Long: `Reads output folders and writes one HTML file that opens offline: no script,
font or style sheet is fetched, figures are inline SVG, tables are real tables.
A DIR is a run folder (ccreplay run), an estimate (ccreplay estimate), a compare
tree (` + runfolder.CollectionFile + `), any folder with run folders below it, a sweep (` + runfolder.SweepManifestFile + `)
or a reproduce folder (` + runfolder.ReproductionFile + `). The page says what was run (commands,
version, seed, topology, every effective parameter, the settings that differ),
shows the metrics as ccreplay metrics prints them, the per-size-bucket tables,
the warnings and the figures of ccreplay plot; a sweep each headline metric
against each axis, one line per algorithm; a reproduction the paper's numbers
beside ours with the verdicts; an estimate the links simulated. The file is
written atomically; a folder that is none of these is an input error (exit 3),
a file that cannot be written a failure (exit 1). See docs/REPORT.md.`,
		Example: reportExamples,
		Args:    usageArgs(cobra.MinimumNArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.Dirs = args
			return runOr(runF, reportRun, o)
		},
	}
	fl := c.Flags()
	fl.StringVarP(&o.Out, "out", "o", "report.html", "the HTML file to write")
	fl.BoolVar(&o.JSON, "json", false, "print the file written and its sections, figures, tables and warnings as JSON")
	fl.IntVar(&o.Buckets, "buckets", 10, "flow-size buckets of equal count in the slowdown figure")
	return c
}

// reportRun writes the report and says what it holds.
func reportRun(o *reportOptions) error {
	o.Generator = "ccreplay " + version.String()
	return o.Run(o.f.ioStreams())
}

// ioStreams are the Factory's streams, as the packages' command runs take
// them.
func (f *Factory) ioStreams() iostreams.Streams {
	return iostreams.Streams{Out: f.Out, Err: f.Err, ErrIsTerminal: f.ErrIsTerminal}
}
