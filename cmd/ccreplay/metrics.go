package main

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/ccreplay/ccreplay/metrics"
	"github.com/ccreplay/ccreplay/metrics/inspect"
	"github.com/ccreplay/ccreplay/runfolder"
	"github.com/ccreplay/ccreplay/runner"
)

func init() {
	registerCommand(func(f *Factory) *cobra.Command { return NewCmdMetrics(f, nil) })
}

// metricsOptions are the flags of `ccreplay metrics`.
type metricsOptions struct {
	f    *Factory
	ctx  context.Context // the command's: Ctrl-C stops a scan of packets.parquet
	args []string
	opts inspect.Options
	// Phases prints one run's per-phase throughput shares instead.
	Phases bool
}

const metricsExamples = `  # a run and a comparison to look at
  ccreplay run --workload incast:n=16,size=1MB --out runs/incast
  ccreplay compare --workload incast:n=16,size=1MB --cca dcqcn,hpcc --seeds 1..3 --out cmp

  # recompute a run's metrics from its Parquet files (the table ccreplay run prints)
  ccreplay metrics runs/incast

  # the same as JSON, checked against the run's own ` + runfolder.SummaryFile + `
  ccreplay metrics --json --verify runs/incast

  # every run of a compare or sweep tree, one row per run, partition keys as columns
  ccreplay metrics cmp

  # grouped by algorithm (mean over seeds, [min, max]), or the HPCC
  # FCT-slowdown per flow-size bucket view with 20 buckets
  ccreplay metrics cmp --by cca
  ccreplay metrics cmp --by size-bucket --buckets 20

  # FDCC's fair-share join, scaled down: each flow's share of the throughput
  # between consecutive flow starts and finishes (needs ` + runfolder.PacketsFile + `)
  ccreplay run --workload fairshare:size=5MB,stagger=100us --packets data --out runs/fs
  ccreplay metrics runs/fs --phases`

// NewCmdMetrics is `ccreplay metrics`; runF, when not nil, is called with
// the parsed options instead of running (tests).
func NewCmdMetrics(f *Factory, runF func(*metricsOptions) error) *cobra.Command {
	o := &metricsOptions{f: f}
	c := &cobra.Command{
		Use:   "metrics RUN_DIR... [--json] [--by size-bucket|cca|seed|KEY] [--verify] [--phases]",
		Short: "Recompute every metric of run folders from their Parquet files, and compare runs",
		Long: `Reads ` + runfolder.FlowsFile + `, ` + runfolder.MessagesFile + ` and ` + runfolder.PortsFile + ` of each run folder with
Apache Arrow and recomputes every metric of ` + runfolder.SummaryFile + `; streams ` + runfolder.PacketsFile + `
(when present) in record batches, never whole, for packet counts and the queue
delay and depth at switch hops (log-linear histograms: exact below 2048, at most
0.1 % above the exact value beyond; see docs/OUTPUTS.md).

A RUN_DIR is a run folder (it holds ` + runfolder.FlowsFile + `) or a folder with run folders
below it, such as the hive-partitioned tree of ccreplay compare
(cca=NAME/seed=N/). One run prints the table (or JSON) of ccreplay run; several
print one comparison with the partition keys as columns; one run also prints
the message completion time per message size (OSU style: messages, MCT mean,
p50, p99 and, with collectives, their mean completion time per size; more than
20 distinct sizes are grouped into log-spaced ranges). --by KEY groups runs by
a partition key (mean over each group, [min, max]); --by size-bucket shows the
FCT slowdown p50/p95/p99 per flow-size bucket (flows sorted by size, buckets of
equal count).

--phases (one run) splits the run at every flow start and finish and prints,
per phase, each active flow's throughput (its data packets delivered in the
phase, from ` + runfolder.PacketsFile + `), its share and the phase's Jain index: the FDCC
thesis' fair-share join (Fig. 6.2). It needs ` + runfolder.PacketsFile + ` (ccreplay run
--packets data or all) and refuses a run without it.

--verify compares the recomputed metrics with each run's ` + runfolder.SummaryFile + `: counts
and integers exactly, floating point within a relative 1e-12 (in practice they
are bit-identical); a difference fails with exit code 1.`,
		Example: metricsExamples,
		Args:    usageArgs(cobra.MinimumNArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.ctx, o.args = cmd.Context(), args
			if cmd.Flags().Changed("buckets") && o.opts.Buckets < 1 {
				return usageErrorf("--buckets must be >= 1, got %d", o.opts.Buckets)
			}
			if o.Phases {
				for _, f := range []string{"by", "verify", "no-packets", "buckets", "stats"} {
					if cmd.Flags().Changed(f) {
						return usageErrorf("--phases prints the phase table only: it does not take --%s", f)
					}
				}
			}
			return runOr(runF, metricsRun, o)
		},
	}
	fl := c.Flags()
	fl.BoolVar(&o.opts.JSON, "json", false, "print JSON to stdout instead of the table")
	fl.StringVar(&o.opts.By, "by", "", "group several runs: size-bucket, or a partition key such as cca or seed")
	fl.IntVar(&o.opts.Buckets, "buckets", metrics.DefaultBuckets, "flow-size buckets of equal flow count (the run's default is 10)")
	fl.BoolVar(&o.opts.Verify, "verify", false, "check the recomputed metrics against each run's "+runfolder.SummaryFile+" (exit 1 on a difference)")
	fl.BoolVar(&o.opts.NoPackets, "no-packets", false, "do not scan "+runfolder.PacketsFile+" (packet_rows then comes from its footer)")
	fl.BoolVar(&o.opts.Stats, "stats", false, "print wall time, packet rows per second and peak memory to stderr")
	fl.BoolVar(&o.Phases, "phases", false, "one run: each flow's throughput share and the Jain index between consecutive flow starts and finishes (needs "+runfolder.PacketsFile+")")
	return c
}

// metricsRun prints the metrics (or the phases) of the run folders.
func metricsRun(o *metricsOptions) error {
	if o.Phases {
		return inspect.PrintPhases(o.ctx, o.args, o.opts.JSON, o.f.Out)
	}
	o.opts.Out, o.opts.Err = o.f.Out, o.f.Err
	if o.f.ErrIsTerminal {
		o.opts.Progress = o.f.Err
	}
	o.opts.OSULatency = runner.OSULatency
	return inspect.Print(o.ctx, o.args, o.opts)
}
