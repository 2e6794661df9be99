package main

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/ccreplay/ccreplay/netcalc/scenario"
	"github.com/ccreplay/ccreplay/runfolder"
)

func init() {
	registerCommand(func(f *Factory) *cobra.Command { return NewCmdNetcalc(f, nil) })
}

// netcalcOptions are the flags of `ccreplay netcalc`.
type netcalcOptions struct {
	f   *Factory
	ctx context.Context // the command's (set when it runs)
	scenario.CommandOptions
}

const netcalcExamples = `  # the paper's 31-to-1 incast (Section V): DCQCN without PFC, 10 ms of model time
  ccreplay netcalc --topology star:hosts=32,rate=100G,delay=1us --workload incast:n=31,size=10MB \
      --cca dcqcn --pfc off --out nc/dcqcn

  # PFC only (no congestion control), 2 ms, summary on stdout
  ccreplay netcalc --workload incast:n=8,size=1MB --cca linerate --pfc on --horizon 2ms --out nc/pfc --json

  # AIMD with its parameters, CSV files
  ccreplay netcalc --workload incast:n=2,size=5MB --cca aimd-rate --cca-param beta=0.5 \
      --cca-param ai_every=20us --horizon 2ms --format csv --out nc/aimd`

// netcalcLong is the long help of `ccreplay netcalc`, before the
// parameter, workload and topology lists.
const netcalcLong = `Maps a workload on a topology onto the CC-NetCalc model (paper 003,
docs/NETCALC.md) and writes its curves: all messages must go to one host
(one bottleneck, the slowest link every path shares, usually the
receiver's), with no dependencies. C is that link's rate, ΔR twice the
path's propagation delay, and each message (each queue pair) is a flow
whose bytes arrive at its release time; r_o is the sender's link rate.
Workloads and topologies are resolved as ` + "`ccreplay run`" + ` does. Writes, into
--out (whole or not at all):
  ` + runfolder.CurvesFile + `   per recorded step (--record) the aggregate (flow_id -1) and
                   each flow: t_ns, flow_id, epoch, a_bytes, ahat_bytes, d_bytes,
                   d_lo_bytes, d_hi_bytes, backlog_bytes, rate_bps, window_bytes,
                   rtt_ns, paused (-1 where a value is not defined)
  ` + runfolder.EventsFile + `   t_ns, flow_id, kind (inc, cnp, timeout, pause, resume, flight),
                   before, after, unit (bps or bytes)
  ` + runfolder.SummaryFile + `     inputs, the model's C/ΔR/flows, peak backlog and its time,
                   first PFC pause, cuts, events
  backlog.png      aggregate backlog (MB) over time (ms): the model's, the
                   replay's with --compare, PFC pauses as bars above (Figs. 7b-10b)
  rates.png        aggregate arrival rate into the bottleneck (Gb/s) over time:
                   model, replay, and the first 4 flows' model rates (Figs. 7a-10a)
--figure svg or png,svg changes the figures' format, --figure none leaves them out.
--format csv writes .csv files instead. --pfc on sets X_off/X_on to 9.5/9.25 kB
per Gb/s of C (950/925 kB at 100 Gb/s).
--compare also replays the workload packet by packet up to --horizon (linerate
as linerate, dcqcn as dcqcn:zhu2015; static PFC at the same thresholds, a
buffer that never overflows) and writes:
  replay/          the run folder, as ccreplay run writes it (--packets data)
  ` + runfolder.CompareFile + `  per recorded step: t_ns, model_/replay_backlog_bytes (payload
                   queued at the bottleneck), model_/replay_rate_bps (payload into
                   it), model_/replay_paused (1 or 0)`

// NewCmdNetcalc is `ccreplay netcalc`; runF, when not nil, is called with
// the parsed options instead of running (tests).
func NewCmdNetcalc(f *Factory, runF func(*netcalcOptions) error) *cobra.Command {
	o := &netcalcOptions{f: f}
	c := &cobra.Command{
		Use:     "netcalc (--workload SPEC | --trace FILE) --out DIR [flags]",
		Short:   "Run the network-calculus model of congestion control (CC-NetCalc) on an n-to-1 workload",
		Long:    netcalcLong + "\n\n" + scenario.ParamHelp() + "\n" + workloadHelp() + "\n" + topologyHelp(),
		Example: netcalcExamples,
		Args:    usageArgs(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.ctx, o.Set, o.Registry = commandContext(cmd), givenFlags(cmd), f.registry()
			return runOr(runF, netcalcRun, o)
		},
	}
	fl := c.Flags()
	fl.StringVar(&o.Trace, "trace", "", "trace file (.csv, .parquet, .jsonl) or packet capture, as for run")
	fl.StringVar(&o.Workload, "workload", "", "built-in workload generator spec, e.g. incast:n=31,size=10MB")
	fl.StringVar(&o.Topology, "topology", "", "topology spec (see above); default: a star sized to the workload")
	fl.Uint64Var(&o.Seed, "seed", 1, "random seed of the workload generators")
	fl.StringVar(&o.CCA, "cca", "dcqcn", "model congestion control: linerate, dcqcn, aimd-rate, aimd-window or vegas")
	fl.StringArrayVar(&o.CCAParams, "cca-param", nil, "model parameter KEY=VALUE (repeatable; keys above)")
	fl.StringVar(&o.PFC, "pfc", "off", "per-ingress PFC: on or off")
	fl.StringVar(&o.Dt, "dt", "100ns", "grid step of the model (a whole number of ns)")
	fl.StringVar(&o.Horizon, "horizon", "10ms", "model time to compute")
	fl.StringVar(&o.Record, "record", "1us", "time between recorded rows of curves (a multiple of --dt)")
	fl.StringVarP(&o.Out, "out", "o", "", "output folder (required)")
	fl.StringVar(&o.Format, "format", "parquet", "file format of curves and events: parquet or csv")
	fl.BoolVar(&o.JSON, "json", false, "print "+runfolder.SummaryFile+" to stdout")
	fl.BoolVar(&o.Force, "force", false, "replace the output folder when it holds a previous ccreplay output")
	fl.BoolVar(&o.Compare, "compare", false, "also run the packet replay (linerate, or dcqcn:zhu2015 for dcqcn) into replay/ and write "+runfolder.CompareFile)
	fl.StringVar(&o.Figure, "figure", "png", "figures backlog and rates (Figs. 7-10 of the paper): png, svg, png,svg or none")
	fl.BoolVar(&o.Strict, "strict", false, "refuse a damaged input (a truncated capture) instead of warning")
	return c
}

// netcalcRun runs the model (and with --compare the replay) into --out.
func netcalcRun(o *netcalcOptions) error { return o.Run(o.ctx, o.f.ioStreams()) }
