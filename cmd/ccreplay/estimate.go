package main

import (
	"context"
	"runtime"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/ccreplay/ccreplay/estimate"
	estcli "github.com/ccreplay/ccreplay/estimate/cli"
	"github.com/ccreplay/ccreplay/internal/progress"
	"github.com/ccreplay/ccreplay/runfolder"
)

const estimateExamples = `  # the HPCC paper's 320-host fat-tree under 30 % WebSearch, estimated by link simulations
  ccreplay estimate --workload cdf:dist=websearch,hosts=320,bw=100G,load=0.3,duration=200us \
      --topology hpcc-fattree --cca hpcc --out runs/est

  # every link simulated (no clustering), on 2 cores, wall time per link recorded
  ccreplay estimate --workload cdf:dist=websearch,hosts=32,bw=100G,load=0.3,duration=200us \
      --topology fattree:pods=2,tors=2,hosts=8 --cca dcqcn --no-cluster -j 2 --timings --out runs/est-all

  # every host downlink simulated, the rest clustered; the link simulations kept, then the
  # same estimate drawn again from them with another seed (nothing simulated again)
  ccreplay estimate --workload cdf:dist=websearch,hosts=32,bw=100G,load=0.3,duration=200us \
      --topology fattree:pods=2,tors=2,hosts=8 --cca dcqcn --simulate-every host-down \
      --links-dir runs/est-links --out runs/est-hd
  ccreplay estimate --workload cdf:dist=websearch,hosts=32,bw=100G,load=0.3,duration=200us \
      --topology fattree:pods=2,tors=2,hosts=8 --cca dcqcn --simulate-every host-down \
      --links-dir runs/est-links --draw-seed 2 --out runs/est-hd2

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
func NewCmdEstimate(f *Factory, runF func(*estcli.CommandOptions) error) *cobra.Command {
	o := &estcli.CommandOptions{}
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
DIR/link=N-HASH (the link network's run folder), named by a hash of the
scenario, the link network's construction and the link: an interrupted
estimate goes on from those done, and several estimates may share the folder,
also at once. With --slurm
the link simulations not done are submitted as one job array (sbatch
--array, each task 'ccreplay estimate link'; the folder defaults to
OUT.links); 'ccreplay estimate status DIR' follows them, and the same
command run again, once they are done, writes the estimate.

` + workloadHelp() + "\n" + algorithmHelp() + "\n" + topologyHelp(),
		Example: estimateExamples,
		Args:    usageArgs(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, args []string) error {
			cmd.Flags().Visit(func(fl *pflagFlag) { o.Set = append(o.Set, fl.Name) })
			if runF != nil {
				return runF(o)
			}
			return o.Run(f.estimateEnv(cmd.Context()))
		},
	}
	addEstimateFlags(c.Flags(), o)
	c.AddCommand(newEstimateLinkCmd(f), newEstimateStatusCmd(f))
	return c
}

// addEstimateFlags binds the estimate's flags to o.
func addEstimateFlags(fl *pflag.FlagSet, o *estcli.CommandOptions) {
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
	fl.StringSliceVar(&o.SimulateEvery, "simulate-every", nil, "simulate every link of these kinds (host-up, fabric, host-down; comma-separated or repeated) and cluster the others: host-down gives every flow its own delay at its receiver's link, where the draws miss most, at several times the default's cost (docs/ESTIMATE.md)")
	fl.IntVarP(&o.Jobs, "jobs", "j", runtime.GOMAXPROCS(0), "link simulations run at once (also the workers of the per-link and per-flow work around them)")
	fl.StringVar(&o.Aggregate, "aggregate", estimate.AggregateOwn, "a flow's delay at a link simulated with it: own (its own delay there) or sample (a draw from the link's distribution, as Parsimon)")
	fl.StringVar(&o.Combine, "combine", estimate.CombineMax, "a flow's delays along its path: max (its slowest link's) or sum (Parsimon's)")
	fl.Uint64Var(&o.DrawSeed, "draw-seed", 0, "seed of the draws of the flows' delays at the links not simulated (default: --seed); with --links-dir, another draw seed reuses every link simulation and shows how much the estimate's percentiles move with its draws")
	fl.StringVar(&o.SenderNICs, "sender-nics", estimate.SenderNICsShares, "what each sender's NIC carries in a link simulation: shares (the link's flows from that host, each released at its processor-sharing share of the host's NIC), alone (the link's flows, at line rate) or shared (also the host's other flows that may run beside them, which leave before the link; needs --no-cluster)")
	fl.StringVar(&o.ReverseAcks, "reverse-acks", estimate.ReverseAcksRate, "the ACKs crossing a link against its flows, in its link simulation: rate (the link slower by their mean rate, as Parsimon) or packets (the flows that send them run there too, the link at its rate)")
	fl.BoolVar(&o.Timings, "timings", false, "record each link simulation's wall time in "+runfolder.LinksFile+" (wall_ns; the one output that then differs between reruns)")
	fl.BoolVar(&o.Force, "force", false, "replace the output folder when it holds a previous ccreplay run or comparison")
	fl.BoolVar(&o.Strict, "strict", false, "refuse damaged inputs and estimates with warnings (PFC pauses, drops, links above 95 % load) instead of warning")
	fl.StringVar(&o.LinksDir, "links-dir", "", "keep the link simulations in this folder, one folder each (resumable by hash; default with --slurm: OUT.links)")
	fl.BoolVar(&o.Slurm, "slurm", false, "submit the link simulations not done to Slurm as one job array; run the command again when they are done to write the estimate")
	fl.StringVar(&o.SlurmOptions.Partition, "partition", "", "Slurm partition (--slurm)")
	fl.StringVar(&o.SlurmOptions.Time, "time", "", "Slurm time limit per task, e.g. 00:30:00 (--slurm)")
	fl.IntVar(&o.SlurmOptions.ArrayMax, "array-max", 0, "Slurm: at most this many tasks at once (0 = no limit)")
	fl.IntVar(&o.SlurmOptions.Chunk, "chunk", 1, "Slurm: link simulations per array task")
	fl.StringVar(&o.SlurmOptions.Exe, "ccreplay", "", "Slurm: the ccreplay binary the tasks run (default: this one)")
	fl.StringVar(&o.SlurmOptions.Sbatch, "sbatch", "sbatch", "Slurm: the sbatch command")
}

// estimateEnv is what the estimate commands' runs (estimate/cli) take
// from f: its streams, the command's context, status lines on a terminal,
// the clock and the algorithms.
func (f *Factory) estimateEnv(ctx context.Context) estcli.Env {
	return estcli.Env{Streams: f.ioStreams(), Ctx: ctx, Registry: f.registry(), Now: f.now,
		NewProgress: func() *progress.Line { return f.newProgressLine().line() }}
}

// writeEstimate estimates one resolved configuration into a folder (a
// sweep point of kind estimate).
var writeEstimate = estcli.WriteEstimate
