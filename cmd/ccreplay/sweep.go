package main

import (
	"context"
	"runtime"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/ccreplay/ccreplay/estimate"
	"github.com/ccreplay/ccreplay/replay"
	"github.com/ccreplay/ccreplay/rl/dataset"
	"github.com/ccreplay/ccreplay/runconfig"
	"github.com/ccreplay/ccreplay/runfolder"
	"github.com/ccreplay/ccreplay/runner"
	"github.com/ccreplay/ccreplay/sweep"
)

func init() {
	registerCommand(func(f *Factory) *cobra.Command { return NewCmdSweep(f, nil) })
}

// sweepOptions are the flags of `ccreplay sweep`.
type sweepOptions struct {
	f    *Factory
	ctx  context.Context
	opts sweep.Options
	// a dataset sweep's options, taken when given
	reward string
	gamma  float64
	nstep  int
}

const sweepExamples = `  # three algorithms x three loads x two seeds (18 runs), -j cores at a time, then ` + runfolder.SweepTableFile + `
  ccreplay sweep --cca dcqcn,hpcc,dolce --workload 'cdf:dist=websearch,load={0.3,0.5,0.7},hosts=16,flows=100' \
      --seeds 1..2 --out sw

  # the same command again runs only what is not done (after Ctrl-C, a failure, a new axis value)
  ccreplay sweep --cca dcqcn,hpcc,dolce --workload 'cdf:dist=websearch,load={0.3,0.5,0.7},hosts=16,flows=100' \
      --seeds 1..2 --out sw

  # DCQCN's marking thresholds on an incast: any configuration key is an axis, zip ties two
  ccreplay sweep --workload incast:n=8,size=256KB --cca dcqcn --axis switch.ecn.kmin=5KB,50KB \
      --axis switch.ecn.kmax=200KB,400KB --zip switch.ecn.kmin,switch.ecn.kmax --seeds 1..3 --out sw-ecn

  # the same from a specification file; reward datasets instead of runs
  ccreplay sweep --spec examples/sweep.yaml --out sw-spec
  ccreplay sweep --spec examples/sweep.yaml --kind dataset --out ds-spec

  # where it stands, one table, one figure
  ccreplay sweep status sw
  ccreplay sweep collect sw
  ccreplay sweep plot sw --metric slowdown_p99 --x load -o figs

  # on a Slurm cluster (a folder every node sees, a ccreplay binary every node runs):
  #   ccreplay sweep --spec sweep.yaml --out /shared/sw --slurm --chunk 4 --array-max 50 --time 00:30:00`

// NewCmdSweep is `ccreplay sweep` and its subcommands; runF, when not
// nil, is called with the parsed options instead of running (tests).
func NewCmdSweep(f *Factory, runF func(*sweepOptions) error) *cobra.Command {
	o := &sweepOptions{f: f}
	c := &cobra.Command{
		Use:   "sweep (--spec FILE | flags) --out DIR",
		Short: "Run a parameter study: every point of a grid of configurations, locally or on Slurm, resumable, one table out",
		Long: `Runs one ccreplay run (or dataset) per point of a grid of configurations and writes
  OUT/` + runfolder.SweepManifestFile + `          the sweep: its specification and every point with the hash of its configuration
  OUT/COL=V/.../COL=V/    each point's run folder (as 'ccreplay run' writes it, plus ` + runfolder.PointFile + `), a
                          hive-partitioned tree: read_parquet('OUT/**/` + runfolder.FlowsFile + `', hive_partitioning=true)
  OUT/` + runfolder.SweepTableFile + `       one row per point: each axis as a column, state, and every number of its ` + runfolder.SummaryFile + `

Axes are any key a run takes. On the command line: --cca A,B (algorithms), --seeds 1..5,
braces in a spec's parameter (--workload 'cdf:dist=websearch,load={0.3,0.5,0.7}',
--topology 'star:hosts={16,32}'), --cca-param 'ai_rate={5Mbps,40Mbps}', and
--axis KEY=V1,V2 for any configuration key (switch.buffer, switch.ecn.kmin, nic.window,
max_time, ...). A specification file (--spec) holds the keys of 'run --config' plus
'axes:' (in order, outermost first; values as lists, A..B, or {from, to, step, unit}),
'zip:' (axes that move together) and 'kind: run|dataset|estimate'. Points are the grid product
of the axes, first axis slowest.

Every point is written atomically. Running the same command again skips the points whose
folder holds a complete run of the same configuration hash and runs the others: the ones
interrupted, failed, or changed by an edited specification. A point that fails does not
stop the others; the command then exits 1 and 'sweep status' lists the failures.

With --slurm the points not done are submitted as one job array (sbatch --array=0-N%M),
each task running 'ccreplay sweep point' on its share against the same folder; run the
same command again to submit what failed. Follow with 'sweep status', finish with
'sweep collect'.`,
		Example: sweepExamples,
		Args:    usageArgs(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, args []string) error {
			fs := cmd.Flags()
			if fs.Changed("reward") {
				o.opts.Flags.Dataset.Reward = o.reward
			}
			if fs.Changed("gamma") {
				o.opts.Flags.Dataset.Gamma = &o.gamma
			}
			if fs.Changed("nstep") {
				o.opts.Flags.Dataset.NStep = &o.nstep
			}
			o.ctx = cmd.Context()
			return runOr(runF, sweepRun, o)
		},
	}
	o.addFlags(c.Flags())
	c.AddCommand(newSweepPointCmd(f), newSweepStatusCmd(f), newSweepCollectCmd(f), newSweepPlotCmd(f))
	return c
}

// addFlags binds the sweep's flags to o.
func (o *sweepOptions) addFlags(fl *pflag.FlagSet) {
	fl.StringVar(&o.opts.Flags.Spec, "spec", "", "sweep specification (YAML: run configuration keys plus axes, zip, kind)")
	fl.StringVar(&o.opts.Flags.Config, "config", "", "YAML run configuration every point starts from")
	fl.StringVar(&o.opts.Kind, "kind", "", "what each point runs: run (default), dataset (a reward dataset per point) or estimate (ccreplay estimate with its defaults)")
	fl.StringVar(&o.opts.Flags.Trace, "trace", "", "trace file of every point (braces: several files, an axis)")
	fl.StringVar(&o.opts.Flags.Workload, "workload", "", "workload generator spec; a parameter's {V1,V2} or {A..B} is an axis")
	fl.StringVar(&o.opts.Flags.CCA, "cca", "", "algorithm NAME[:PRESET], or a comma list (an axis): "+algorithmNames())
	fl.StringArrayVar(&o.opts.Flags.CCAParams, "cca-param", nil, "parameter KEY=VALUE or KEY={V1,V2} (an axis); repeatable")
	fl.StringVar(&o.opts.Flags.Topology, "topology", "", "topology spec; a parameter's {V1,V2} is an axis")
	fl.StringVar(&o.opts.Flags.Seeds, "seeds", "", "seeds: N, A..B or a comma list (an axis when several)")
	fl.StringArrayVar(&o.opts.Flags.Axes, "axis", nil, "an axis over any configuration key: KEY=V1,V2,... or KEY=A..B; repeatable")
	fl.StringArrayVar(&o.opts.Flags.Zip, "zip", nil, "axes that move together: KEY,KEY,...; repeatable")
	fl.StringVar(&o.opts.Flags.Packets, "packets", "", "per-packet log detail of each point: none (default), data or all")
	fl.StringVar(&o.opts.Flags.MaxTime, "max-time", "", "stop each point at this simulated time (e.g. 10ms)")
	fl.StringVar(&o.reward, "reward", "", "--kind dataset: rewards, comma-separated, or all (default all; as 'ccreplay dataset')")
	fl.Float64Var(&o.gamma, "gamma", dataset.DefaultGamma, "--kind dataset: discount factor of return_fdcc_nstep, in [0, 1]")
	fl.IntVar(&o.nstep, "nstep", dataset.DefaultNStep, "--kind dataset: steps of return_fdcc_nstep")
	fl.StringVarP(&o.opts.Dir, "out", "o", "", "the sweep's folder (required)")
	fl.IntVarP(&o.opts.Jobs, "jobs", "j", runtime.GOMAXPROCS(0), "points run at once (local)")
	fl.BoolVar(&o.opts.JSON, "json", false, "print the outcome as JSON to stdout")
	fl.BoolVar(&o.opts.Slurm, "slurm", false, "submit the points not done to Slurm as one job array instead of running them here")
	fl.StringVar(&o.opts.SlurmOptions.Partition, "partition", "", "Slurm partition (--slurm)")
	fl.StringVar(&o.opts.SlurmOptions.Time, "time", "", "Slurm time limit per task, e.g. 00:30:00 (--slurm)")
	fl.IntVar(&o.opts.SlurmOptions.ArrayMax, "array-max", 0, "Slurm: at most this many tasks at once (0 = no limit)")
	fl.IntVar(&o.opts.SlurmOptions.Chunk, "chunk", 1, "Slurm: points per array task")
	fl.StringVar(&o.opts.SlurmOptions.Exe, "ccreplay", "", "Slurm: the ccreplay binary the tasks run (default: this one)")
	fl.StringVar(&o.opts.SlurmOptions.Sbatch, "sbatch", "sbatch", "Slurm: the sbatch command")
}

// sweepRun runs (or submits) the points not done and collects the table.
func sweepRun(o *sweepOptions) error {
	return sweep.Run(o.ctx, o.opts, sweep.Env{Out: o.f.Out, Now: o.f.now, Progress: o.f.newProgressLine().line(),
		Exec: sweepExec(o.f), CheckDataset: func(d sweep.DatasetOptions) error {
			_, err := datasetParamsOf(d)
			return err
		}})
}

// sweepExec runs one point as `ccreplay run` would (or `dataset`, or
// `estimate`), into
// dir, without printing.
func sweepExec(f *Factory) sweep.Exec {
	return func(ctx context.Context, sp *sweep.Spec, fc *runconfig.File, name, dir string) error {
		req := runconfig.Request{Config: name, Loaded: fc, CCA: "dcqcn", Seed: 1, Packets: "none", PPN: 1, Set: map[string]bool{}}
		st, err := runconfig.Resolve(req, f.registry())
		if err != nil {
			return err
		}
		cfg, err := st.Config(st.Specs[0], st.Req.Seed)
		if err != nil {
			return err
		}
		if sp.Kind == sweep.KindDataset {
			p, err := datasetParamsOf(sp.Dataset)
			if err != nil {
				return err
			}
			_, err = dataset.Write(ctx, *scenarioOf(st, &cfg), p, dir)
			return err
		}
		if sp.Kind == sweep.KindEstimate {
			return writeEstimate(ctx, st, cfg, estimate.Options{Tolerance: estimate.DefaultTolerance, Jobs: 1}, dir)
		}
		sc := scenarioOf(st, &cfg)
		sc.StreamRows = true // the point's rows are read from its files
		_, _, err = runner.Run(ctx, sc, dir, func(_ string, res *replay.Result, man *runner.Manifest) error {
			runner.CheckCollapse(&cfg, st.Trace, res, man) // in summary.json; sweep prints no per-point warnings
			return nil
		})
		return err
	}
}

// newSweepPointCmd is `ccreplay sweep point`: what a Slurm task runs.
func newSweepPointCmd(f *Factory) *cobra.Command {
	var index, task, chunk int
	var list string
	c := &cobra.Command{
		Use:   "point DIR (--index I | --list FILE --task T [--chunk K])",
		Short: "Run points of a planned sweep (what each Slurm array task runs)",
		Long: `Runs points of the sweep in DIR, as planned in DIR/` + runfolder.SweepManifestFile + `: point I, or the points a
Slurm submission lists for array task T (entries T*K..T*K+K-1 of FILE). A point already done
is skipped; a failure is recorded in DIR/.sweep/failed and the command exits non-zero after
trying every point of its share.`,
		Example: `  # a sweep, then its point 3 on its own (already done here, so skipped)
  ccreplay sweep --workload incast:n=4,size=64KB --cca dcqcn,hpcc --seeds 1..2 --out sw -j 1
  ccreplay sweep point sw --index 3

  # what a Slurm array task runs:
  #   ccreplay sweep point /shared/sw --list /shared/sw/.sweep/slurm/submit-001.list --task "$SLURM_ARRAY_TASK_ID" --chunk 4`,
		Args: usageArgs(cobra.ExactArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			return sweep.RunPoints(cmd.Context(), args[0], index, list, task, chunk, sweepExec(f))
		},
	}
	c.Flags().IntVar(&index, "index", -1, "the point to run")
	c.Flags().StringVar(&list, "list", "", "a submission's list of points (one index per line)")
	c.Flags().IntVar(&task, "task", 0, "the array task: runs entries task*chunk .. task*chunk+chunk-1 of --list")
	c.Flags().IntVar(&chunk, "chunk", 1, "points per task")
	return c
}

func newSweepStatusCmd(f *Factory) *cobra.Command {
	var asJSON bool
	var limit int
	c := &cobra.Command{
		Use:   "status DIR",
		Short: "Show a sweep's points done, failed, running and pending, from its folder alone",
		Long: `Reads DIR (local or Slurm sweeps alike) and counts its points: done (the folder holds a
complete run of the point's configuration hash), failed (the last attempt's error), running
(a process is on it) and pending; then lists the points not done, failures first. Exits 0
whatever the states are.`,
		Example: `  ccreplay sweep --workload incast:n=4,size=64KB --cca dcqcn,hpcc --seeds 1..2 --out sw
  ccreplay sweep status sw
  ccreplay sweep status sw --json --limit 0`,
		Args: usageArgs(cobra.ExactArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			return sweep.PrintStatus(f.Out, args[0], asJSON, limit)
		},
	}
	c.Flags().BoolVar(&asJSON, "json", false, "print the counts and the points not done as JSON")
	c.Flags().IntVar(&limit, "limit", 50, "list at most this many points not done (0 = all)")
	return c
}

func newSweepCollectCmd(f *Factory) *cobra.Command {
	var asJSON bool
	c := &cobra.Command{
		Use:   "collect DIR",
		Short: "Write DIR/" + runfolder.SweepTableFile + ": one row per point, every axis and every metric",
		Long: `Writes DIR/` + runfolder.SweepTableFile + ` (atomically): one row per point of the sweep, in point order, with
  point, dir, status, error, hash   the point and its state
  one column per axis               named after its key's last part (load, seed, cca, kmin),
                                    int64 or float64 when every value is a number, else text
  every number of ` + runfolder.SummaryFile + `      sim_end_ns, events, data_packets and each metric
                                    (fct_p99_ns, slowdown_p99, ...), null for points not done
A local sweep collects at its end; a Slurm sweep is collected with this command.`,
		Example: `  ccreplay sweep --workload incast:n=4,size=64KB --cca dcqcn,hpcc --seeds 1..2 --out sw
  ccreplay sweep collect sw
  duckdb -c "select cca, load, avg(slowdown_p99) from 'sw/` + runfolder.SweepTableFile + `' where status = 'done' group by all order by all"`,
		Args: usageArgs(cobra.ExactArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			return sweep.WriteTable(f.Out, args[0], asJSON)
		},
	}
	c.Flags().BoolVar(&asJSON, "json", false, "print the counts and the table's columns as JSON")
	return c
}

func newSweepPlotCmd(f *Factory) *cobra.Command {
	var o sweep.PlotOptions
	c := &cobra.Command{
		Use:   "plot DIR --metric M --x AXIS [--line AXIS] -o OUTDIR",
		Short: "Draw a metric of a sweep against an axis, one line per algorithm (or another axis)",
		Long: `Draws METRIC (a column of ` + runfolder.SweepTableFile + `) against the axis X, one line per value of --line
(default: cca when it is an axis), each point the mean over the done points that share its x
and line (seeds and the other axes). Writes OUTDIR/sweep_METRIC_vs_X.png (or .svg).`,
		Example: `  ccreplay sweep --workload 'incast:n={2,4,8},size=64KB' --cca dcqcn,hpcc --seeds 1..2 --out sw
  ccreplay sweep plot sw --metric fct_p99_ns --x n -o figs`,
		Args: usageArgs(cobra.ExactArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.LineGiven = cmd.Flags().Changed("line")
			return sweep.Plot(f.Out, args[0], o)
		},
	}
	c.Flags().StringVar(&o.Metric, "metric", "slowdown_p99", "the column to draw")
	c.Flags().StringVar(&o.X, "x", "", "the axis on the x axis (required)")
	c.Flags().StringVar(&o.Line, "line", "", "one line per value of this axis (default: cca)")
	c.Flags().StringVarP(&o.Dir, "out", "o", ".", "folder of the figure")
	c.Flags().StringVar(&o.Format, "format", "png", "png or svg")
	c.MarkFlagRequired("x")
	return c
}
