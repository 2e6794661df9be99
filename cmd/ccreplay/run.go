package main

import (
	"context"
	"runtime"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/ccreplay/ccreplay/runconfig"
	"github.com/ccreplay/ccreplay/runfolder"
	runcli "github.com/ccreplay/ccreplay/runner/cli"
)

// runOptions are the flags of `ccreplay run` (and of dataset and
// estimate, which resolve their runs the same way).
type runOptions struct {
	f   *Factory
	ctx context.Context // the command's (set when it runs)

	runconfig.Flags
}

// resolve resolves the flags and the configuration file into a Setup,
// printing the input's warnings on stderr, and takes the merged --out and
// --seed (runconfig.Flags.Resolve).
func (o *runOptions) resolve(list bool) (*runconfig.Setup, error) {
	return o.Flags.Resolve(list, o.f.registry(), o.f.Err)
}

const runExamples = `  # 16-to-1 incast of 1 MB flows under DCQCN on a star sized to the workload
  ccreplay run --workload incast:n=16,size=1MB --cca dcqcn --out runs/incast

  # the shipped RoCEv2 capture (an 8-host all-to-all) on the Dolce-RC testbed under Dolce-RC
  ccreplay run --trace examples/alltoall_roce.pcap --cca dolce --topology dolce-testbed --out runs/roce

  # a trace file under DCQCN with the HPCC simulator's parameters, replacing that run
  ccreplay run --trace examples/alltoall8.csv --cca dcqcn:hpcc --topology dolce-testbed --out runs/roce --force

  # override parameters, log every packet (data and control), JSON summary on stdout
  ccreplay run --workload longflows:n=4,size=50MB --cca dcqcn --cca-param ai_rate=40Mbps \
      --packets all --out runs/long --json

  # an MPI job traced by Score-P (OTF2, 4 ranks per node) and an AI training step (Chakra)
  ccreplay run --trace examples/otf2_halo8/traces.otf2 --ppn 4 --cca dolce --out runs/halo
  ccreplay run --trace examples/chakra_allreduce8/workload.0.et --cca hpcc --out runs/allreduce

  # the HPCC paper's 320-host fat-tree under WebSearch at 30 % load, on two cores (the same
  # outputs as on one), with the speed figures on stderr
  ccreplay run --workload cdf:dist=websearch,hosts=320,bw=100G,load=0.3,duration=100us \
      --topology hpcc-fattree --packets none --threads 2 --stats --out runs/fattree

  # everything from a YAML file (flags given explicitly still win)
  ccreplay run --config examples/run.yaml`

// NewCmdRun is `ccreplay run`; runF, when not nil, is called with the
// parsed options instead of running (tests).
func NewCmdRun(f *Factory, runF func(*runOptions) error) *cobra.Command {
	o := &runOptions{f: f}
	c := &cobra.Command{
		Use:   "run (--trace FILE | --workload SPEC) [flags]",
		Short: "Replay a trace or a generated workload under one congestion control algorithm",
		Long: `Replays a workload packet by packet and writes a run folder:
  ` + runfolder.PacketsFile + `   one row per packet per hop (level set by --packets)
  ` + runfolder.FlowsFile + `     one row per flow (queue pair): FCT, ideal FCT, slowdown, ECN, CNPs, ...
  ` + runfolder.MessagesFile + `  one row per message: MCT, ideal, slowdown, collective id
  ` + runfolder.PortsFile + `     one row per egress port: bytes, queue length stats, marks, drops, PFC pause time
  ` + runfolder.SummaryFile + `      configuration, versions and every metric (names carry units)
The folder is written whole or not at all: into a hidden sibling renamed
as the last step. A folder holding a previous run is replaced only with
--force; Ctrl-C stops the run and leaves --out as it was (exit 130).

` + workloadHelp() + "\n" + algorithmHelp() + "\n" + topologyHelp(),
		Example: runExamples,
		Args:    usageArgs(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.given(cmd)
			return runOr(runF, runRun, o)
		},
	}
	fl := c.Flags()
	fl.StringVar(&o.Trace, "trace", "", "trace file (.csv, .parquet, .jsonl), packet capture (.pcap, .pcapng, .cap, optionally .gz), MPI trace (SST DUMPI .meta or a rank's .bin; OTF2 anchor .otf2) or Chakra execution trace (any rank's prefix.N.et)")
	fl.StringVar(&o.Workload, "workload", "", "built-in workload generator spec, e.g. incast:n=16,size=1MB")
	fl.StringVar(&o.CCA, "cca", "dcqcn", "congestion control NAME[:PRESET]: "+algorithmNames())
	fl.StringArrayVar(&o.CCAParams, "cca-param", nil, "algorithm parameter override KEY=VALUE (repeatable)")
	fl.StringVar(&o.Topology, "topology", "", "topology spec (see above); default: a star sized to the workload")
	fl.Uint64Var(&o.Seed, "seed", 1, "random seed (ECN marking draws, ECMP hashes, generators)")
	fl.StringVarP(&o.Out, "out", "o", "out", "output folder")
	fl.StringVar(&o.Packets, "packets", "data", "per-packet log detail: none, data or all")
	fl.StringVar(&o.Config, "config", "", "YAML run configuration (unknown keys are rejected)")
	fl.BoolVar(&o.JSON, "json", false, "print "+runfolder.SummaryFile+" to stdout instead of the table")
	fl.StringVar(&o.MaxTime, "max-time", "", "stop at this simulated time (e.g. 10ms); default: when all messages complete")
	fl.StringVar(&o.Check, "check", "", "verify byte conservation at this simulated period (e.g. 10us)")
	fl.BoolVar(&o.Stats, "stats", false, "print wall time, data packets per second and peak memory to stderr")
	fl.IntVar(&o.Threads, "threads", runtime.NumCPU(), "split the network among this many partitions, one core each (the outputs are the same for any value)")
	fl.StringVar(&o.HPCC, "hpcc-config", "", "an HPCC ns-3 simulator config.txt: its topology, flows, algorithm and network keys (flags still win)")
	addAppFlags(fl, o)
	fl.StringVar(&o.FCTTxt, "fct-txt", "", "also write flow completions in the HPCC simulator's "+runfolder.FCTFile+" layout to this file")
	addOutputFlags(fl, o)
	return c
}

// addAppFlags adds the flags of application traces (DUMPI, OTF2, Chakra).
func addAppFlags(f *pflag.FlagSet, o *runOptions) {
	f.IntVar(&o.PPN, "ppn", 1, "MPI and Chakra traces: processes (ranks) per node, placed in blocks of ppn per host")
	f.Float64Var(&o.Scale, "compute-scale", 1, "MPI and Chakra traces: multiply every compute gap by this (0.5 = compute twice as fast)")
}

// addOutputFlags adds the flags every command writing a run folder has.
func addOutputFlags(f *pflag.FlagSet, o *runOptions) {
	f.BoolVar(&o.Force, "force", false, "replace the output folder when it holds a previous ccreplay run or comparison")
	f.BoolVar(&o.Strict, "strict", false, "refuse to run on a damaged input (a truncated capture, unmatched MPI sends) instead of warning")
	f.StringVar(&o.MaxMemory, "max-memory", "", maxMemoryHelp)
}

// given records the flags given on the command line and the command's
// context, as the command starts.
func (o *runOptions) given(cmd *cobra.Command) { o.ctx, o.Set = cmd.Context(), givenFlags(cmd) }

// scenarioOf is the scenario of st under cfg, for runner.Run.
var scenarioOf = runcli.Scenario

// runEnv is what runner/cli takes from the Factory.
func (f *Factory) runEnv() runcli.Env {
	return runcli.Env{Streams: f.ioStreams(), Registry: f.registry(), Progress: f.newProgressLine().line(),
		Now: f.now, CheckMemory: checkMemory, Stats: printStats, PresetNote: presetNote}
}

// runRun replays the workload and writes the run folder.
func runRun(o *runOptions) error { return runcli.Run(o.ctx, &o.Flags, o.f.runEnv()) }
