package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/ccreplay/ccreplay/cca"
	"github.com/ccreplay/ccreplay/hpccfmt"
	"github.com/ccreplay/ccreplay/ingest"
	"github.com/ccreplay/ccreplay/ingest/dumpi"
	"github.com/ccreplay/ccreplay/metrics"
	"github.com/ccreplay/ccreplay/nic"
	"github.com/ccreplay/ccreplay/replay"
	"github.com/ccreplay/ccreplay/schema/v1/runfolder"
	"github.com/ccreplay/ccreplay/switchmodel"
	"github.com/ccreplay/ccreplay/topology"
	"github.com/ccreplay/ccreplay/trace"
	"github.com/ccreplay/ccreplay/trace/gen"
	"github.com/ccreplay/ccreplay/units"
)

// runOptions are the flags of `ccreplay run`.
type runOptions struct {
	s *streams

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
	HPCC      string
	FCTTxt    string
	PPN       int
	Force     bool
	Strict    bool

	set      map[string]bool // flags given on the command line
	fromFile map[string]bool // values taken from the --config file
}

const runExamples = `  # 16-to-1 incast of 1 MB flows under DCQCN (zhu2015 preset) on a star
  ccreplay run --workload incast:n=16,size=1MB --cca dcqcn --out runs/incast

  # a trace file on the Dolce-RC testbed topology, DCQCN with the HPCC simulator's parameters
  ccreplay run --trace examples/alltoall.csv --cca dcqcn:hpcc --topology dolce-testbed

  # override parameters, log every packet (data and control), JSON summary on stdout
  ccreplay run --workload longflows:n=4,size=50MB --cca dcqcn --cca-param ai_rate=40Mbps \
      --packets all --json

  # everything from a YAML file (flags given explicitly still win)
  ccreplay run --config run.yaml`

func newRunCmd(s *streams) *cobra.Command {
	o := &runOptions{s: s}
	c := &cobra.Command{
		Use:   "run (--trace FILE | --workload SPEC) [flags]",
		Short: "Replay a trace or a generated workload under one congestion control algorithm",
		Long: `Replays a workload packet by packet and writes a run folder:
  packets.parquet   one row per packet per hop (level set by --packets)
  flows.parquet     one row per flow (queue pair): FCT, ideal FCT, slowdown, ECN, CNPs, ...
  messages.parquet  one row per message: MCT, ideal, slowdown, collective id
  ports.parquet     one row per egress port: bytes, queue length stats, marks, drops, PFC pause time
  summary.json      configuration, versions and every metric (names carry units)
Every file is written to a temporary name and renamed when complete.

Workloads (--workload): incast:n=16,size=1MB[,jitter=100us,dist=uniform|gaussian,start=0,dst=N]
                        longflows:n=4,size=100MB[,stagger=1ms,mode=incast|pairs]
Topologies (--topology): star:hosts=16,rate=100G,delay=1us | dumbbell:n=4,rate=100G,bottleneck=100G
  | leafspine:leaves=2,hosts=4,spines=1,uplinks=4,rate=100G,fabric=100G | fattree:pods=5,tors=4,hosts=16,
  aggs=4,cores=4,rate=100G,fabric=400G | dolce-testbed | hpcc-fattree | dolce-fattree | hpcc:topology.txt
  (default: a 100G star with 1 us links sized to the workload)`,
		Example: runExamples,
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			o.set = map[string]bool{}
			cmd.Flags().Visit(func(f *pflagFlag) { o.set[f.Name] = true })
			return o.run(cmd.Context())
		},
	}
	f := c.Flags()
	f.StringVar(&o.Trace, "trace", "", "trace file (.csv, .parquet, .jsonl), packet capture (.pcap, .pcapng, .cap, optionally .gz) or SST DUMPI MPI trace (.meta or a rank's .bin)")
	f.StringVar(&o.Workload, "workload", "", "built-in workload generator spec, e.g. incast:n=16,size=1MB")
	f.StringVar(&o.CCA, "cca", "dcqcn", "congestion control NAME[:PRESET] (dcqcn, dcqcn:hpcc, dcqcn:dolce, linerate)")
	f.StringArrayVar(&o.CCAParams, "cca-param", nil, "algorithm parameter override KEY=VALUE (repeatable)")
	f.StringVar(&o.Topology, "topology", "", "topology spec (see above); default: a star sized to the workload")
	f.Uint64Var(&o.Seed, "seed", 1, "random seed (ECN marking draws, ECMP hashes, generators)")
	f.StringVar(&o.Out, "out", "out", "output folder")
	f.StringVar(&o.Packets, "packets", "data", "per-packet log detail: none, data or all")
	f.StringVar(&o.Config, "config", "", "YAML run configuration (unknown keys are rejected)")
	f.BoolVar(&o.JSON, "json", false, "print summary.json to stdout instead of the table")
	f.StringVar(&o.MaxTime, "max-time", "", "stop at this simulated time (e.g. 10ms); default: when all messages complete")
	f.StringVar(&o.Check, "check", "", "verify byte conservation at this simulated period (e.g. 10us)")
	f.BoolVar(&o.Stats, "stats", false, "print wall time, data packets per second and peak memory to stderr")
	f.StringVar(&o.HPCC, "hpcc-config", "", "an HPCC ns-3 simulator config.txt: its topology, flows, algorithm and network keys (flags still win)")
	f.IntVar(&o.PPN, "ppn", 1, "DUMPI traces: MPI processes per node (ranks placed in blocks of ppn per host)")
	f.StringVar(&o.FCTTxt, "fct-txt", "", "also write flow completions in the HPCC simulator's fct.txt layout to this file")
	addOutputFlags(f, o)
	return c
}

// addOutputFlags adds the flags every command writing a run folder has.
func addOutputFlags(f *pflag.FlagSet, o *runOptions) {
	f.BoolVar(&o.Force, "force", false, "replace the output folder when it holds a previous ccreplay run or comparison")
	f.BoolVar(&o.Strict, "strict", false, "refuse to run on a damaged input (a truncated capture, unmatched MPI sends) instead of warning")
}

// merge fills unset flags from the config file.
func (o *runOptions) merge(fc *fileConfig) {
	o.fromFile = map[string]bool{}
	str := func(flag string, dst *string, v string) {
		if !o.set[flag] && v != "" {
			*dst = v
			o.fromFile[flag] = true
		}
	}
	// A workload given on the command line replaces the file's, whichever
	// kind (trace or generator) either names.
	if !o.set["trace"] && !o.set["workload"] {
		str("trace", &o.Trace, fc.Trace)
		str("workload", &o.Workload, fc.Workload)
	}
	str("cca", &o.CCA, fc.CCA)
	str("topology", &o.Topology, fc.Topology)
	str("out", &o.Out, fc.Out)
	str("packets", &o.Packets, fc.Packets)
	str("max-time", &o.MaxTime, fc.MaxTime)
	if !o.set["seed"] && fc.Seed != nil {
		o.Seed = *fc.Seed
	}
}

// stage checks --out and creates the hidden folder the run is written
// into; Commit moves it to --out as the last step.
func (o *runOptions) stage() (*runfolder.Staged, error) {
	st, err := runfolder.Stage(o.Out, runfolder.StageOptions{Force: o.Force, Flag: "--out"})
	if errors.Is(err, runfolder.ErrRefused) {
		return nil, usageError{err}
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

// badValue reports a bad value of flag: a usage error when it came from
// the command line, a bad-input error naming the config file otherwise.
func (o *runOptions) badValue(flag, key string, err error) error {
	if o.fromFile[flag] {
		return inputErrorf("%s: %s: %v", o.Config, key, err)
	}
	return usageErrorf("--%s: %v", flag, err)
}

func parseParams(kvs []string, fromFile map[string]string) (map[string]string, error) {
	p := map[string]string{}
	for k, v := range fromFile {
		p[k] = v
	}
	for _, kv := range kvs {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || k == "" {
			return nil, usageErrorf("--cca-param %q: want KEY=VALUE", kv)
		}
		p[k] = v
	}
	return p, nil
}

// loadWorkload reads the trace or runs the generator. Its warnings are
// what the reader found damaged or left out of the input.
func (o *runOptions) loadWorkload() (*trace.Trace, string, []string, error) {
	switch {
	case o.Trace != "" && o.Workload != "" && o.fromFile["trace"]:
		return nil, "", nil, inputErrorf("%s: give either trace or workload, not both", o.Config)
	case o.Trace != "" && o.Workload != "":
		return nil, "", nil, usageErrorf("give either --trace or --workload, not both")
	case o.Trace == "" && o.Workload == "":
		return nil, "", nil, usageErrorf("give a workload: --trace FILE or --workload SPEC (e.g. incast:n=16,size=1MB)")
	case isDUMPI(o.Trace):
		// An SST DUMPI MPI trace: point-to-point and collective messages
		// with the application's dependencies and compute gaps.
		tr, rep, err := dumpi.Load(o.Trace, dumpi.Options{PPN: o.PPN})
		if err != nil {
			return nil, "", nil, inputError{err}
		}
		return tr, o.Trace, rep.Warnings(), nil
	case ingest.IsCapture(o.Trace):
		// A packet capture: RoCEv2 messages (or TCP/UDP flows) become the
		// trace, released at their captured times.
		tr, rep, err := ingest.Load(o.Trace, ingest.Options{})
		if err != nil {
			return nil, "", nil, inputError{err}
		}
		return tr, o.Trace, rep.Warnings, nil
	case o.Trace != "":
		tr, err := trace.ReadFile(o.Trace)
		if err != nil {
			return nil, "", nil, inputError{err}
		}
		return tr, o.Trace, nil, nil
	default:
		tr, err := gen.Parse(o.Workload, int64(o.Seed))
		if err != nil {
			return nil, "", nil, inputErrorf("workload: %v", err)
		}
		return tr, o.Workload, nil, nil
	}
}

// setup is a run's inputs resolved from the flags and the config file,
// everything but the algorithm and the seed.
type setup struct {
	fc        fileConfig
	level     replay.PacketLevel
	params    map[string]string
	tr        *trace.Trace
	traceName string
	topo      *topology.Topology
	maxTime   units.Time
	check     units.Time
	hpcc      *hpccScenario // run --hpcc-config
	// warnings are what the input's reader found damaged or left out.
	warnings []string
}

// resolve reads the config file, resolves each algorithm spec that ccas
// returns (called after the file is merged) and loads the workload and
// topology. Errors come in a fixed order: config
// file, packet level, parameters, algorithms, workload, topology.
func (o *runOptions) resolve(ccas func() []string) (*setup, []cca.Spec, error) {
	st := &setup{}
	if o.Config != "" {
		p, err := loadConfig(o.Config)
		if err != nil {
			return nil, nil, err
		}
		st.fc = *p
		o.merge(&st.fc)
	}
	var err error
	if st.level, err = replay.ParsePacketLevel(o.Packets); err != nil {
		return nil, nil, o.badValue("packets", "packets", err)
	}
	if st.params, err = parseParams(o.CCAParams, st.fc.CCAParams); err != nil {
		return nil, nil, err
	}
	if o.HPCC != "" {
		if st.hpcc, err = loadHPCCConfig(o.HPCC); err != nil {
			return nil, nil, err
		}
		if !o.set["cca"] && !o.fromFile["cca"] {
			name, params := st.hpcc.cfg.CCParams()
			o.CCA = name
			for k, v := range params {
				if _, given := st.params[k]; !given {
					st.params[k] = v
				}
			}
		}
		if o.Topology == "" {
			p, err := st.hpcc.file("TOPOLOGY_FILE", st.hpcc.cfg.TopologyFile)
			if err != nil {
				return nil, nil, err
			}
			o.Topology = "hpcc:" + p
		}
	}
	reg := registry()
	var specs []cca.Spec
	for _, name := range ccas() {
		spec, err := reg.Build(name, st.params)
		if err != nil {
			return nil, nil, inputError{err}
		}
		specs = append(specs, spec)
	}
	if st.hpcc != nil && o.Trace == "" && o.Workload == "" {
		// The scenario's own flows: the topology first, to map node ids.
		if st.topo, err = topology.Parse(o.Topology, 0); err != nil {
			return nil, nil, inputErrorf("topology: %v", err)
		}
		if st.tr, st.traceName, err = st.hpcc.loadFlows(st.topo); err != nil {
			return nil, nil, err
		}
	} else {
		if st.tr, st.traceName, st.warnings, err = o.loadWorkload(); err != nil {
			return nil, nil, err
		}
		if st.topo, err = topology.Parse(o.Topology, st.tr.Hosts); err != nil {
			return nil, nil, inputErrorf("topology: %v", err)
		}
	}
	if o.MaxTime != "" {
		if st.maxTime, err = units.ParseDuration(o.MaxTime); err != nil {
			return nil, nil, o.badValue("max-time", "max_time", err)
		}
	}
	if o.Check != "" {
		if st.check, err = units.ParseDuration(o.Check); err != nil {
			return nil, nil, usageErrorf("--check: %v", err)
		}
	}
	if len(st.warnings) > 0 && o.Strict {
		more := ""
		if n := len(st.warnings) - 1; n > 0 {
			more = fmt.Sprintf("%d more warning(s); ", n)
		}
		return nil, nil, inputErrorf("%s: %s (%s--strict refuses damaged inputs)", st.traceName, st.warnings[0], more)
	}
	for _, w := range st.warnings {
		fmt.Fprintf(o.s.Err, "warning: %s: %s\n", st.traceName, w)
	}
	return st, specs, nil
}

// config builds one run's configuration: defaults, then the algorithm's
// network hints, then the config file's switch and NIC sections.
func (o *runOptions) config(st *setup, spec cca.Spec, seed uint64) (replay.Config, error) {
	cfg := replay.Config{
		Topology: st.topo, CC: spec, Switch: switchmodel.DefaultConfig(), NIC: nic.DefaultConfig(),
		Seed: seed, Packets: st.level, MaxTime: st.maxTime, CheckEvery: st.check,
	}
	cfg.ApplyCCHints()
	if st.hpcc != nil {
		st.hpcc.apply(&cfg, st.params)
	}
	if err := st.fc.applySwitch(o.Config, &cfg.Switch); err != nil {
		return cfg, err
	}
	if err := st.fc.applyNIC(o.Config, &cfg.NIC); err != nil {
		return cfg, err
	}
	var err error
	if cfg.LocalRate, err = st.fc.localRate(o.Config); err != nil {
		return cfg, err
	}
	if err := cfg.Validate(); err != nil {
		return cfg, inputError{err}
	}
	return cfg, nil
}

func (o *runOptions) run(ctx context.Context) error {
	st, specs, err := o.resolve(func() []string { return []string{o.CCA} })
	if err != nil {
		return err
	}
	spec, tr, traceName, topo := specs[0], st.tr, st.traceName, st.topo
	cfg, err := o.config(st, spec, o.Seed)
	if err != nil {
		return err
	}
	stage, err := o.stage()
	if err != nil {
		return err
	}
	defer stage.Abort()
	prog := o.s.newProgressLine()
	cfg.Progress = prog.replayProgress()
	start := time.Now()
	res, err := replay.RunContext(ctx, cfg, tr, stage.Dir)
	prog.clear()
	if err != nil {
		return o.failed(err, stage)
	}
	if o.Stats {
		printStats(o.s.Err, time.Since(start), res)
	}
	if st.hpcc != nil {
		if note := st.hpcc.ignoredNote(); note != "" && o.s.ErrIsTerminal {
			fmt.Fprintln(o.s.Err, note)
		}
	}
	if o.FCTTxt != "" {
		var ff *hpccfmt.FlowFile
		if st.hpcc != nil {
			ff = st.hpcc.ff
		}
		if err := writeFCT(o.stagedPath(stage, o.FCTTxt), topo, tr, ff, res); err != nil {
			return err
		}
	}
	man := replay.NewManifest(&cfg, filepath.ToSlash(traceName), res)
	man.Warnings = st.warnings
	if err := replay.WriteManifest(stage.Dir, &man); err != nil {
		return err
	}
	if err := stage.Commit(); err != nil {
		return err
	}
	if o.JSON {
		b, _ := json.MarshalIndent(man, "", "  ")
		fmt.Fprintln(o.s.Out, string(b))
		return nil
	}
	fmt.Fprintf(o.s.Out, "ccreplay run: %s under %s on %s, seed %d\n", traceName, spec.Name, topo.Describe(), o.Seed)
	fmt.Fprintf(o.s.Out, "simulated %v in %d events, %d data packets; outputs in %s\n\n", res.SimEnd, res.Events, res.DataPackets, o.Out)
	metrics.WriteTable(o.s.Out, res.Summary)
	if isOSU(o.Workload) {
		pts, err := osuLatency(o.Workload, res)
		if err != nil {
			return err
		}
		writeOSUTable(o.s.Out, []string{spec.Name}, [][][]gen.OSUPoint{{pts}})
	}
	return nil
}
