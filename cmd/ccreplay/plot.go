package main

import (
	"strings"

	"github.com/spf13/cobra"

	"github.com/ccreplay/ccreplay/metrics"
	"github.com/ccreplay/ccreplay/plot"
	"github.com/ccreplay/ccreplay/runfolder"
)

func init() {
	registerCommand(func(f *Factory) *cobra.Command { return NewCmdPlot(f, nil) })
}

// plotOptions are the flags of `ccreplay plot`.
type plotOptions struct {
	f *Factory
	plot.CommandOptions
}

const plotExamples = `  # two algorithms on an incast with the per-packet log, then every figure
  ccreplay compare --workload incast:n=16,size=1MB --cca dcqcn,hpcc --packets data --out cmp
  ccreplay plot cmp -o figs

  # MPI_Alltoall latency per message size (log-log), SVG only
  ccreplay compare --workload 'osu-alltoall:nodes=4,ppn=2,sizes=1..64KiB' --cca dcqcn,hpcc --out osu
  ccreplay plot osu -o figs-osu --views alltoall --format svg

  # single runs side by side, list the files as JSON
  ccreplay run --workload incast:n=8,size=1MB --cca dcqcn --packets data --out runA
  ccreplay run --workload incast:n=8,size=1MB --cca hpcc --packets data --out runB
  ccreplay plot runA runB -o figs-ab --json`

// NewCmdPlot is `ccreplay plot`; runF, when not nil, is called with the
// parsed options instead of running (tests).
func NewCmdPlot(f *Factory, runF func(*plotOptions) error) *cobra.Command {
	o := &plotOptions{f: f}
	c := &cobra.Command{
		Use:   "plot RUN_DIR... [-o DIR] [flags]",
		Short: "Draw PNG/SVG figures of runs: FCT CDF, slowdown, queues, rates, MPI_Alltoall latency",
		Long: `Reads run folders (written by ccreplay run, or a ccreplay compare output folder,
whose cca=NAME/seed=N/ runs are all taken) and writes one file per view and format
into DIR:
  fct_cdf            CDF of flow completion time, one curve per run
  slowdown_buckets   p50/p95/p99 slowdown per flow-size bucket (equal counts)
  queue_time         queue length over time of the most congested switch ports
                     (needs ` + runfolder.PacketsFile + `: run with --packets data)
  rate_time          sending rate over time of the largest flows (` + runfolder.DecisionsFile + `,
                     else first-hop bytes from ` + runfolder.PacketsFile + `)
  alltoall_latency   MPI_Alltoall latency per message size, log-log (osu-alltoall)
A view that does not apply (no ` + runfolder.PacketsFile + `, no all-to-all) is skipped with a
note; that is not an error. See docs/PLOTS.md.`,
		Example: plotExamples,
		Args:    usageArgs(cobra.ArbitraryArgs),
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return usageErrorf("give at least one run folder: ccreplay plot RUN_DIR... -o DIR")
			}
			if err := o.Validate(); err != nil {
				return err
			}
			o.Dirs = args
			return runOr(runF, plotRun, o)
		},
	}
	fl := c.Flags()
	fl.StringVarP(&o.Out, "out", "o", "plots", "output folder for the figures")
	fl.StringSliceVar(&o.Formats, "format", []string{"png", "svg"}, "image formats: png, svg")
	fl.StringSliceVar(&o.Views, "views", plot.Views, "views to draw: "+strings.Join(plot.Views, ", "))
	fl.IntVar(&o.Bins, "bins", plot.DefaultBins, "time bins over the longest run (count), queue and rate views")
	fl.IntVar(&o.TopPorts, "top-ports", plot.DefaultTopPorts, "switch ports in the queue view, by max queue (count)")
	fl.IntVar(&o.TopFlows, "top-flows", plot.DefaultTopFlows, "flows per run in the rate view, by size (count)")
	fl.IntVar(&o.Buckets, "buckets", metrics.DefaultBuckets, "flow-size buckets of equal count in the slowdown view")
	fl.BoolVar(&o.JSON, "json", false, "print the files written and the views skipped as JSON")
	fl.StringVar(&o.Pool, "pool", "auto", "one curve per algorithm with its seeds' flows pooled (yes), one per run (no), or yes when an algorithm has more than 2 runs (auto); time views then draw each algorithm's first run")
	return c
}

// plotRun draws the figures of the runs in o.Dirs.
func plotRun(o *plotOptions) error { return o.Run(o.f.ioStreams()) }
