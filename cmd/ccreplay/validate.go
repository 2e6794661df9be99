package main

import (
	"github.com/spf13/cobra"

	"github.com/ccreplay/ccreplay/fidelity"
	"github.com/ccreplay/ccreplay/plot"
	"github.com/ccreplay/ccreplay/runfolder"
)

func init() {
	registerCommand(func(f *Factory) *cobra.Command { return NewCmdValidate(f, nil) })
}

// validateOptions are the flags of `ccreplay validate`.
type validateOptions struct {
	f *Factory
	fidelity.CommandOptions
}

const validateExamples = `  # an HPCC-style scenario run twice by ccreplay (` + runfolder.FCTFile + ` in the simulator's layout),
  # compared flow by flow: every ratio is exactly 1
  ccreplay run --workload incast:n=4,size=100KB --packets none --out runs/a --fct-txt runs/a.txt
  ccreplay validate runs/a --ns3-fct runs/a.txt

  # bands: exit 1 when a ratio is off by more than 5 % overall or 10 % in a bucket of
  # at least 30 flows; the report as JSON, and the two figures
  ccreplay validate runs/a --ns3-fct runs/a.txt --bands --max-overall-err 0.05 --json --plots runs/fig

  # a run against the simulator's own output (the folder of a config.txt run by ns-3,
  # or its ` + runfolder.FCTFile + `), two run folders, or two ` + runfolder.FCTFile + ` files
  ccreplay validate runs/a runs/a.txt --top 3`

// validateLong is the long help of `ccreplay validate`.
const validateLong = `Matches the flows of two sides one to one and compares their completion times,
to check ccreplay against the HPCC ns-3 simulator on the same config.txt:

  ccreplay validate RUN_DIR --ns3-fct ns3/` + runfolder.FCTFile + `   reference = the simulator's ` + runfolder.FCTFile + `
  ccreplay validate A B                             reference = A; A and B are each a
                                                    run folder or an ` + runfolder.FCTFile + ` file

A run folder's rows come from its ` + runfolder.FCTFile + ` (ccreplay run writes one for HPCC
scenarios; the simulator's folders hold theirs), else from ` + runfolder.MessagesFile + ` and
` + runfolder.FlowsFile + ` (FCT = sender_done_ns - release_ns, as --fct-txt writes it); the
output says which. Flows are matched by (src, dst, sport, dport) when that key is
unique on both sides and the sizes agree, the rest by (src, dst, size) with start
times within --start-tolerance (ns-3 truncates start times to whole ns). Fewer than
--min-match of either side's flows matched is an error (exit 3).

Slowdown = max(1, FCT / standalone FCT) of each side, as the HPCC analysis
script computes it; where the standalone FCTs differ, the other side's FCT over
the reference's standalone FCT is shown too. Printed: p50/p95/p99 slowdown of
each side and their ratio (other / reference), the mean FCT ratio, the last
completion (max start+FCT - min start) of each side, the same per flow-size
bucket under the HPCC script's buckets (5 % of the flows each, percentile index
int(n p)) and ccreplay's (10 equal-count buckets, nearest rank), and the --top
flows whose FCT ratio is largest and smallest. --json prints the whole report
(field names in docs/VALIDATE.md); --plots DIR writes fidelity_fct_scatter (FCT of
each matched flow, log-log, with y = x) and fidelity_slowdown (p50 and p99
slowdown per bucket, both sides) as PNG and SVG.

--bands checks every ratio: overall |ratio - 1| <= --max-overall-err, per bucket
of at least --min-bucket-flows flows <= --max-bucket-err (setting one of these
flags implies --bands). A ratio outside is listed and the command exits 1, as
metrics --verify does on a difference.

Exit codes: 0 compared (and within the bands), 1 a ratio outside the bands or a
plot not written, 2 bad command line, 3 bad input (a missing or malformed file,
reported with file:line, or too few flows matched).`

// NewCmdValidate is `ccreplay validate`; runF, when not nil, is called
// with the parsed options instead of running (tests).
func NewCmdValidate(f *Factory, runF func(*validateOptions) error) *cobra.Command {
	o := &validateOptions{f: f}
	c := &cobra.Command{
		Use:     "validate (RUN_DIR --ns3-fct ns3/" + runfolder.FCTFile + " | A B) [--json] [--plots DIR] [--top N] [--bands]",
		Short:   "Cross-check flow completion times against the HPCC ns-3 simulator's " + runfolder.FCTFile + " or another run",
		Long:    validateLong,
		Example: validateExamples,
		Args:    usageArgs(cobra.RangeArgs(1, 2)),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := o.Validate(args, cmd.Flags().Changed); err != nil {
				return err
			}
			return runOr(runF, validateRun, o)
		},
	}
	fl := c.Flags()
	fl.StringVar(&o.NS3FCT, "ns3-fct", "", "the reference: the HPCC ns-3 simulator's "+runfolder.FCTFile+" (with one RUN_DIR)")
	fl.BoolVar(&o.JSON, "json", false, "print the whole report as JSON to stdout instead of the tables")
	fl.StringVar(&o.Plots, "plots", "", "write the FCT scatter and slowdown figures (PNG and SVG) into this folder")
	fl.IntVar(&o.Top, "top", fidelity.DefaultTop, "list this many flows whose FCT ratio is largest, and as many smallest")
	fl.Float64Var(&o.MinMatch, "min-match", fidelity.DefaultMinMatch, "smallest fraction of each side's flows that must match (0..1)")
	fl.Int64Var(&o.StartTolNs, "start-tolerance", fidelity.DefaultStartToleranceNs, "largest start-time difference of flows matched by (src, dst, size, start), ns")
	fl.IntVar(&o.HPCCStep, "hpcc-step", fidelity.DefaultHPCCStepPct, "HPCC buckets' width, percent of the flows (fct_analysis.py -s)")
	fl.IntVar(&o.Buckets, "buckets", fidelity.DefaultBuckets, "ccreplay's equal-count flow-size buckets")
	fl.BoolVar(&o.Bands, "bands", false, "exit 1 when a ratio is outside its band (defaults below)")
	fl.Float64Var(&o.MaxOverallErr, "max-overall-err", fidelity.DefaultMaxOverallErr, "band of the overall ratios: |ratio - 1| at most this")
	fl.Float64Var(&o.MaxBucketErr, "max-bucket-err", fidelity.DefaultMaxBucketErr, "band of the per-bucket slowdown ratios")
	fl.IntVar(&o.MinBucketFlows, "min-bucket-flows", fidelity.DefaultMinBucketFlows, "buckets with fewer flows are not checked")
	return c
}

// validateRun compares the two sides and prints the report.
func validateRun(o *validateOptions) error {
	o.WritePlots = plot.WriteFidelityFigures
	return o.Run(o.f.ioStreams())
}
