package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/ccreplay/ccreplay/hpccfmt"
	"github.com/ccreplay/ccreplay/internal/clierr"
	"github.com/ccreplay/ccreplay/metrics"
	"github.com/ccreplay/ccreplay/replay"
	"github.com/ccreplay/ccreplay/runconfig"
	"github.com/ccreplay/ccreplay/runfolder"
	"github.com/ccreplay/ccreplay/runner"
	"github.com/ccreplay/ccreplay/trace/gen"
)

// runOptions are the flags of `ccreplay run`.
type runOptions struct {
	f   *Factory
	ctx context.Context // the command's (set when it runs)

	Trace     string
	Workload  string
	CCA       string
	CCAParams []string
	Topology  string
	Seed      uint64
	Out       string
	Packets   string
	Config    string
	JSON      bool
	MaxTime   string
	Check     string
	Stats     bool
	Threads   int
	HPCC      string
	FCTTxt    string
	PPN       int
	Scale     float64
	Force     bool
	Strict    bool
	MaxMemory string

	set map[string]bool // flags given on the command line
}

// request turns the flags into what runconfig resolves; list says that
// --cca is a comma-separated list (compare).
func (o *runOptions) request(list bool) runconfig.Request {
	return runconfig.Request{
		Config: o.Config, Trace: o.Trace, Workload: o.Workload, HPCCConfig: o.HPCC,
		CCA: o.CCA, CCAList: list, CCAParams: o.CCAParams, Topology: o.Topology, Seed: o.Seed,
		Out: o.Out, Packets: o.Packets, MaxTime: o.MaxTime, Check: o.Check, PPN: o.PPN, ComputeScale: o.Scale,
		Strict: o.Strict, Set: o.set,
	}
}

// resolve resolves the flags and the configuration file into a Setup
// (workload, topology, algorithms), prints the input's warnings on
// stderr, and takes the merged --out (the file may give it).
func (o *runOptions) resolve(list bool) (*runconfig.Setup, error) {
	st, err := runconfig.Resolve(o.request(list), o.f.registry())
	if err != nil {
		return nil, err
	}
	o.Out, o.Seed = st.Req.Out, st.Req.Seed
	for _, w := range st.Warnings {
		fmt.Fprintf(o.f.Err, "warning: %s: %s\n", st.TraceName, w)
	}
	return st, nil
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
			if runF != nil {
				return runF(o)
			}
			return runRun(o)
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
	fl.BoolVar(&o.JSON, "json", false, "print summary.json to stdout instead of the table")
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
func (o *runOptions) given(cmd *cobra.Command) {
	o.ctx = cmd.Context()
	o.set = map[string]bool{}
	cmd.Flags().Visit(func(fl *pflagFlag) { o.set[fl.Name] = true })
}

// stage checks --out and creates the hidden folder the run is written
// into; Commit moves it to --out as the last step.
func (o *runOptions) stage() (*runfolder.Staged, error) {
	st, err := runfolder.Stage(o.Out, runfolder.StageOptions{Force: o.Force, Flag: "--out"})
	if errors.Is(err, runfolder.ErrRefused) {
		return nil, clierr.Usage(err)
	}
	return st, err
}

// stagedPath maps a path inside --out (e.g. --fct-txt out/fct.txt) to the
// same place in the staged folder, so that it arrives with the run; other
// paths are returned as they are.
func (o *runOptions) stagedPath(stage *runfolder.Staged, p string) string {
	out, err1 := filepath.Abs(o.Out)
	abs, err2 := filepath.Abs(p)
	if err1 != nil || err2 != nil {
		return p
	}
	rel, err := filepath.Rel(out, abs)
	if err != nil || rel == "." || strings.HasPrefix(rel, "..") {
		return p
	}
	dst := filepath.Join(stage.Dir, rel)
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return p
	}
	return dst
}

// scenarioOf is the scenario of st under cfg, for runner.Run.
func scenarioOf(st *runconfig.Setup, cfg *replay.Config) *runner.Scenario {
	return &runner.Scenario{Config: cfg, Trace: st.Trace, TraceName: filepath.ToSlash(st.TraceName), Warnings: st.Warnings}
}

// failed explains a run that did not finish. An interrupted run says
// what was kept: nothing new, and --out as it was.
func (o *runOptions) failed(err error, stage *runfolder.Staged) error {
	if !errors.Is(err, context.Canceled) {
		return err
	}
	kept := "nothing written"
	if stage.Replaces {
		kept += ", " + o.Out + " still holds the previous run"
	}
	return interrupted("%v; %s", err, kept)
}

// runRun replays the workload and writes the run folder.
func runRun(o *runOptions) error {
	st, err := o.resolve(false)
	if err != nil {
		return err
	}
	cfg, err := st.Config(st.Specs[0], o.Seed)
	if err != nil {
		return err
	}
	if o.Threads < 1 {
		return usageErrorf("--threads must be at least 1, got %d", o.Threads)
	}
	cfg.Threads = o.Threads
	if err := checkMemory(o.MaxMemory, st.Topology, st.Trace, 1); err != nil {
		return err
	}
	stage, err := o.stage()
	if err != nil {
		return err
	}
	defer stage.Abort()
	prog := o.f.newProgressLine()
	cfg.Progress = prog.replayProgress()
	var hpccOut *runconfig.HPCCOutputs
	if st.HPCC != nil {
		// pfc.txt and qlen.txt when the config asks for them.
		hpccOut = st.HPCC.Outputs(&cfg)
	}
	start := o.f.now()
	// Rows go to their files as flows finish, unless fct.txt is to be
	// written from them; an OSU benchmark's report folds them as they pass.
	sc := scenarioOf(st, &cfg)
	sc.StreamRows = st.HPCC == nil && o.FCTTxt == ""
	var spans osuSpans
	if sc.StreamRows && gen.IsOSU(st.Req.Workload) {
		spans = osuSpans{}
		sc.OnMessage = spans.add
	}
	res, man, err := runner.Run(o.ctx, sc, stage.Dir, func(dir string, res *replay.Result, man *runner.Manifest) error {
		prog.clear()
		if o.Stats {
			printStats(o.f.Err, o.f.now().Sub(start), res)
		}
		return o.extraFiles(st, &cfg, stage, hpccOut, dir, res, man)
	})
	prog.clear()
	if err != nil {
		return o.failed(err, stage)
	}
	if err := stage.Commit(); err != nil {
		return err
	}
	return o.print(st, res, man, spans)
}

// extraFiles writes what a run adds to its folder beyond runner's (the
// HPCC simulator's files, --fct-txt) and warns of a stalled or collapsed
// run.
func (o *runOptions) extraFiles(st *runconfig.Setup, cfg *replay.Config, stage *runfolder.Staged, hpccOut *runconfig.HPCCOutputs, dir string, res *replay.Result, man *runner.Manifest) error {
	if st.HPCC != nil {
		if note := st.HPCC.IgnoredNote(); note != "" && o.f.ErrIsTerminal {
			fmt.Fprintln(o.f.Err, note)
		}
	}
	if o.FCTTxt != "" {
		var ff *hpccfmt.FlowFile
		if st.HPCC != nil {
			ff = st.HPCC.Flows
		}
		if err := runconfig.WriteFCT(o.stagedPath(stage, o.FCTTxt), st.Topology, st.Trace, ff, res); err != nil {
			return err
		}
	}
	if st.HPCC != nil {
		// An HPCC scenario's run folder holds its fct.txt too, for
		// `ccreplay validate` and the simulator's analysis scripts.
		if err := runconfig.WriteFCT(filepath.Join(dir, runfolder.FCTFile), st.Topology, st.Trace, st.HPCC.Flows, res); err != nil {
			return err
		}
		if err := hpccOut.Write(dir); err != nil {
			return err
		}
	}
	if w := replay.StalledWarning(cfg, res.SimEnd, man.Summary.Flows, man.Summary.FlowsFinished); w != "" {
		fmt.Fprintf(o.f.Err, "warning: %s\n", w)
	}
	if w := runner.CheckCollapse(cfg, st.Trace, res, man); w != "" {
		fmt.Fprintf(o.f.Err, "warning: %s\n", w)
	}
	return nil
}

// print prints the finished run: summary.json with --json, else the
// header and the metrics table (and the OSU report of osu-alltoall).
func (o *runOptions) print(st *runconfig.Setup, res *replay.Result, man *runner.Manifest, spans osuSpans) error {
	if o.JSON {
		return printJSON(o.f, man)
	}
	spec := st.Specs[0]
	fmt.Fprintf(o.f.Out, "ccreplay run: %s under %s on %s, seed %d\n", st.TraceName, spec.Name, st.Topology.Describe(), o.Seed)
	if note := presetNote(spec.Name); note != "" {
		fmt.Fprintln(o.f.Out, note)
	}
	fmt.Fprintf(o.f.Out, "simulated %v in %d events, %d data packets; outputs in %s\n\n", res.SimEnd, res.Events, res.DataPackets, o.Out)
	metrics.WriteTable(o.f.Out, man.Summary)
	if w := st.Req.Workload; gen.IsOSU(w) { // the flag's or the configuration file's
		pts, err := osuLatencyOf(w, res, spans)
		if err != nil {
			return err
		}
		gen.WriteOSUTable(o.f.Out, []string{spec.Name}, [][][]gen.OSUPoint{{pts}})
	}
	return nil
}
