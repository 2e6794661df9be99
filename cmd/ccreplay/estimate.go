package main

import (
	"context"
	"fmt"
	"path/filepath"
	"runtime"

	"github.com/spf13/cobra"

	"github.com/ccreplay/ccreplay/batch"
	"github.com/ccreplay/ccreplay/estimate"
	"github.com/ccreplay/ccreplay/metrics"
	"github.com/ccreplay/ccreplay/replay"
	"github.com/ccreplay/ccreplay/runconfig"
	"github.com/ccreplay/ccreplay/runfolder"
)

// estimateOptions are run's inputs plus the method's settings.
type estimateOptions struct {
	runOptions
	Tolerance float64
	PoolFlows int
	NoCluster bool
	Jobs      int
	Aggregate string
	Timings   bool
	Combine   string
	// LinksDir keeps the link simulations (resumable); Slurm submits
	// them as a job array (see estimatelinks.go).
	LinksDir string
	Slurm    bool
	slurm    batch.SlurmOptions
}

const estimateExamples = `  # the HPCC paper's 320-host fat-tree under 30 % WebSearch, estimated by link simulations
  ccreplay estimate --workload cdf:dist=websearch,hosts=320,bw=100G,load=0.3,duration=200us \
      --topology hpcc-fattree --cca hpcc --out runs/est

  # every link simulated (no clustering), on 2 cores, wall time per link recorded
  ccreplay estimate --workload cdf:dist=websearch,hosts=32,bw=100G,load=0.3,duration=200us \
      --topology fattree:pods=2,tors=2,hosts=8 --cca dcqcn --no-cluster -j 2 --timings --out runs/est-all

  # compare an estimate with the packet-level run of the same scenario
  ccreplay run --workload cdf:dist=websearch,hosts=32,bw=100G,load=0.3,duration=200us \
      --topology fattree:pods=2,tors=2,hosts=8 --cca dcqcn --packets none --out runs/full
  ccreplay validate runs/est-all runs/full

  # on a Slurm cluster (a folder every node sees, a ccreplay binary every node runs): the link
  # simulations as one job array, then the same command again to write the estimate
  #   ccreplay estimate --workload cdf:dist=websearch,hosts=1024,bw=100G,load=0.3,duration=20ms \
  #       --topology fattree:pods=16 --cca dcqcn --out /shared/est --slurm --chunk 8 --time 00:30:00
  #   ccreplay estimate status /shared/est.links`

func init() {
	registerCommand(func(f *Factory) *cobra.Command { return NewCmdEstimate(f, nil) })
}

// NewCmdEstimate is `ccreplay estimate`; runF, when not nil, is called
// with the parsed options instead of running (tests).
func NewCmdEstimate(f *Factory, runF func(*estimateOptions) error) *cobra.Command {
	o := &estimateOptions{runOptions: runOptions{f: f}}
	c := &cobra.Command{
		Use:   "estimate (--trace FILE | --workload SPEC) [flags]",
		Short: "Estimate flow completion times by per-link packet-level simulations (Parsimon's decomposition)",
		Long: `Estimates what run would measure without simulating the whole network at
once (Parsimon, Zhao et al., NSDI 2023; docs/ESTIMATE.md): every link that
carries traffic is simulated alone with the flows that cross it, in a small
network that keeps their base RTTs, upstream rates, ACKs, the switch buffer,
ECN/PFC settings and the same algorithm; similar links share one simulation
(--tolerance, --no-cluster); each flow's FCT is its ideal plus its delays at
the links of its path. Open-loop workloads only (one message per flow,
releases at fixed times). Writes a run folder that metrics, plot and
validate read:
  ` + runfolder.FlowsFile + `     one row per flow: estimated FCT, ideal FCT, slowdown (run's columns)
  ` + runfolder.MessagesFile + `  one row per message (= its flow)
  ` + runfolder.PortsFile + `     empty (an estimate has no switch ports of its own)
  ` + runfolder.LinksFile + `     one row per link with traffic: flows, bytes, offered load, cluster,
                    simulated or represented by, events, PFC pauses, drops, warnings
  ` + runfolder.SummaryFile + `      run's metric names, "mode": "estimate" and the method's settings
Links where the method's assumption breaks (PFC pauses, drops, offered load
above 95 %) are reported as warning: lines; --strict refuses them (exit 1).

The link simulations run on -j cores here. With --links-dir DIR each is kept in
DIR/link=N (the link network's run folder), named by a hash of the scenario
and the link: an interrupted estimate goes on from those done. With --slurm
the link simulations not done are submitted as one job array (sbatch
--array, each task 'ccreplay estimate link'; the folder defaults to
OUT.links); 'ccreplay estimate status DIR' follows them, and the same
command run again, once they are done, writes the estimate.

` + workloadHelp() + "\n" + algorithmHelp() + "\n" + topologyHelp(),
		Example: estimateExamples,
		Args:    usageArgs(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.given(cmd)
			if runF != nil {
				return runF(o)
			}
			return estimateRun(o)
		},
	}
	fl := c.Flags()
	fl.StringVar(&o.Trace, "trace", "", "trace file (.csv, .parquet, .jsonl) or packet capture of an open-loop workload")
	fl.StringVar(&o.Workload, "workload", "", "built-in workload generator spec, e.g. cdf:dist=websearch,hosts=320,bw=100G,load=0.3,duration=1ms")
	fl.StringVar(&o.CCA, "cca", "dcqcn", "congestion control NAME[:PRESET]: "+algorithmNames())
	fl.StringArrayVar(&o.CCAParams, "cca-param", nil, "algorithm parameter override KEY=VALUE (repeatable)")
	fl.StringVar(&o.Topology, "topology", "", "topology spec (see above); default: a star sized to the workload")
	fl.Uint64Var(&o.Seed, "seed", 1, "random seed (ECN marking draws, ECMP hashes, generators, the estimate's draws)")
	fl.StringVarP(&o.Out, "out", "o", "out", "output folder")
	fl.StringVar(&o.Config, "config", "", "YAML run configuration (unknown keys are rejected)")
	fl.StringVar(&o.HPCC, "hpcc-config", "", "an HPCC ns-3 simulator config.txt: its topology, flows, algorithm and network keys (flags still win)")
	fl.StringVar(&o.MaxTime, "max-time", "", "stop each link simulation at this simulated time (e.g. 10ms); default: when all its flows complete")
	fl.BoolVar(&o.JSON, "json", false, "print "+runfolder.SummaryFile+" to stdout instead of the table")
	fl.BoolVar(&o.Stats, "stats", false, "print wall time, link simulations and peak memory to stderr")
	fl.Float64Var(&o.Tolerance, "tolerance", estimate.DefaultTolerance, "clustering tolerance: links of the same kind, rate and delay whose offered load, senders and mean base RTT differ by at most this fraction share a cluster")
	fl.IntVar(&o.PoolFlows, "pool-flows", estimate.DefaultPoolFlows, "about how many flows each cluster's link simulations carry together (links spread over its range of load); 1: one link per cluster, as Parsimon")
	fl.BoolVar(&o.NoCluster, "no-cluster", false, "simulate every link (no clustering)")
	fl.IntVarP(&o.Jobs, "jobs", "j", runtime.GOMAXPROCS(0), "link simulations run at once")
	fl.StringVar(&o.Aggregate, "aggregate", estimate.AggregateOwn, "a flow's delay at a link simulated with it: own (its own delay there) or sample (a draw from the link's distribution, as Parsimon)")
	fl.StringVar(&o.Combine, "combine", estimate.CombineMax, "a flow's delays along its path: max (its slowest link's) or sum (Parsimon's)")
	fl.BoolVar(&o.Timings, "timings", false, "record each link simulation's wall time in "+runfolder.LinksFile+" (wall_ns; the one output that then differs between reruns)")
	fl.BoolVar(&o.Force, "force", false, "replace the output folder when it holds a previous ccreplay run or comparison")
	fl.BoolVar(&o.Strict, "strict", false, "refuse damaged inputs and estimates with warnings (PFC pauses, drops, links above 95 % load) instead of warning")
	fl.StringVar(&o.LinksDir, "links-dir", "", "keep the link simulations in this folder, one folder each (resumable by hash; default with --slurm: OUT.links)")
	fl.BoolVar(&o.Slurm, "slurm", false, "submit the link simulations not done to Slurm as one job array; run the command again when they are done to write the estimate")
	fl.StringVar(&o.slurm.Partition, "partition", "", "Slurm partition (--slurm)")
	fl.StringVar(&o.slurm.Time, "time", "", "Slurm time limit per task, e.g. 00:30:00 (--slurm)")
	fl.IntVar(&o.slurm.ArrayMax, "array-max", 0, "Slurm: at most this many tasks at once (0 = no limit)")
	fl.IntVar(&o.slurm.Chunk, "chunk", 1, "Slurm: link simulations per array task")
	fl.StringVar(&o.slurm.Exe, "ccreplay", "", "Slurm: the ccreplay binary the tasks run (default: this one)")
	fl.StringVar(&o.slurm.Sbatch, "sbatch", "sbatch", "Slurm: the sbatch command")
	c.AddCommand(newEstimateLinkCmd(f), newEstimateStatusCmd(f))
	return c
}

func (o *estimateOptions) options() (estimate.Options, error) {
	if o.Tolerance < 0 {
		return estimate.Options{}, usageErrorf("--tolerance must not be negative, got %v (use --no-cluster to simulate every link)", o.Tolerance)
	}
	if o.PoolFlows < 1 {
		return estimate.Options{}, usageErrorf("--pool-flows must be at least 1, got %d", o.PoolFlows)
	}
	if o.Jobs < 1 {
		return estimate.Options{}, usageErrorf("--jobs must be at least 1, got %d", o.Jobs)
	}
	if o.Aggregate != estimate.AggregateOwn && o.Aggregate != estimate.AggregateSample {
		return estimate.Options{}, usageErrorf("--aggregate %q: want %s or %s", o.Aggregate, estimate.AggregateOwn, estimate.AggregateSample)
	}
	if o.Combine != estimate.CombineMax && o.Combine != estimate.CombineSum {
		return estimate.Options{}, usageErrorf("--combine %q: want %s or %s", o.Combine, estimate.CombineMax, estimate.CombineSum)
	}
	opt := estimate.Options{Tolerance: o.Tolerance, PoolFlows: o.PoolFlows, Jobs: o.Jobs, Aggregate: o.Aggregate, Timings: o.Timings, Combine: o.Combine}
	if o.NoCluster {
		opt.Tolerance = -1
	}
	return opt, nil
}

// plan resolves the inputs into the setup, the configuration and the
// method's options.
func (o *estimateOptions) plan() (*runconfig.Setup, replay.Config, estimate.Options, error) {
	opt, err := o.options()
	if err != nil {
		return nil, replay.Config{}, opt, err
	}
	o.Packets = string(replay.PacketsNone)
	st, err := o.resolve(false)
	if err != nil {
		return nil, replay.Config{}, opt, err
	}
	cfg, err := st.Config(st.Specs[0], o.Seed)
	return st, cfg, opt, err
}

// estimateRun estimates the scenario and writes its run folder.
func estimateRun(o *estimateOptions) error {
	if o.slurm.Chunk < 1 || o.slurm.ArrayMax < 0 {
		return usageErrorf("--chunk must be at least 1 and --array-max not negative")
	}
	st, cfg, opt, err := o.plan()
	if err != nil {
		return err
	}
	stage, err := o.stage()
	if err != nil {
		return err
	}
	defer stage.Abort()
	prog := o.f.newProgressLine()
	if prog != nil {
		opt.Progress = func(done, total int) { prog.set(fmt.Sprintf("link simulations %d/%d", done, total)) }
	}
	start := o.f.now()
	p, err := estimate.Prepare(cfg, st.Trace, opt)
	if err != nil {
		return err
	}
	var res *estimate.Result
	if o.linksDir() != "" {
		prog.clear()
		sims, err := o.viaLinks(st, p)
		if err != nil || sims == nil {
			return o.failed(err, stage)
		}
		res = p.Assemble(sims)
	} else {
		res, err = p.Run(o.ctx)
		prog.clear()
		if err != nil {
			return o.failed(err, stage)
		}
	}
	for _, w := range res.Warnings {
		fmt.Fprintf(o.f.Err, "warning: %s\n", w)
	}
	if o.Strict && len(res.Warnings) > 0 {
		return fmt.Errorf("--strict: the estimate has %d warnings (above); nothing written", len(res.Warnings))
	}
	if o.Stats {
		fmt.Fprintf(o.f.Err, "wall %.3f s, %d of %d links simulated, %d events, peak RSS %s\n",
			o.f.now().Sub(start).Seconds(), res.Simulated, len(res.Links), res.Events, peakRSS())
	}
	man, err := estimate.WriteFolder(stage.Dir, &cfg, filepath.ToSlash(st.TraceName), st.Warnings, opt, res)
	if err != nil {
		return err
	}
	if err := stage.Commit(); err != nil {
		return err
	}
	if o.JSON {
		return printJSON(o.f, man)
	}
	fmt.Fprintf(o.f.Out, "ccreplay estimate: %s under %s on %s, seed %d\n", st.TraceName, cfg.CC.Name, cfg.Topology.Describe(), o.Seed)
	fmt.Fprintf(o.f.Out, "%d links carry traffic, %d simulated (%d events); outputs in %s\n\n", len(res.Links), res.Simulated, res.Events, o.Out)
	fmt.Fprintln(o.f.Out, "(estimated: FCT, slowdown and goodput; packet, ECN, queue and PFC counters are not, see "+runfolder.LinksFile+")")
	metrics.WriteTable(o.f.Out, res.Summary)
	return nil
}

// writeEstimate estimates one resolved configuration into dir (a sweep
// point of kind estimate).
func writeEstimate(ctx context.Context, st *runconfig.Setup, cfg replay.Config, opt estimate.Options, dir string) error {
	res, err := estimate.Run(ctx, cfg, st.Trace, opt)
	if err != nil {
		return err
	}
	_, err = estimate.WriteFolder(dir, &cfg, filepath.ToSlash(st.TraceName), st.Warnings, opt, res)
	return err
}
