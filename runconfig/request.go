package runconfig

import (
	"fmt"
	"slices"
	"strings"

	"github.com/ccreplay/ccreplay/cca"
	"github.com/ccreplay/ccreplay/ingest"
	"github.com/ccreplay/ccreplay/nic"
	"github.com/ccreplay/ccreplay/replay"
	"github.com/ccreplay/ccreplay/switchmodel"
	"github.com/ccreplay/ccreplay/topology"
	"github.com/ccreplay/ccreplay/trace"
	"github.com/ccreplay/ccreplay/trace/gen"
	"github.com/ccreplay/ccreplay/units"
)

// Request is what a user asked for, as text: the values of the command
// line's flags. Resolve fills the ones not given on the command line (Set)
// from the configuration file Config.
type Request struct {
	// Config is a YAML run configuration (see File); "" for none.
	Config string
	// Trace is a trace file, packet capture or DUMPI trace; Workload a
	// generator spec (trace/gen); HPCCConfig an HPCC ns-3 config.txt. At
	// most one of Trace and Workload.
	Trace, Workload, HPCCConfig string
	// CCA is the algorithm NAME[:PRESET], or with CCAList a comma-separated
	// list of them (compare).
	CCA     string
	CCAList bool
	// CCAParams are KEY=VALUE overrides for every algorithm.
	CCAParams []string
	// Topology is a topology spec ("" = a star sized to the workload).
	Topology string
	// Seed seeds the run (ECN draws, ECMP hashes, generators).
	Seed uint64
	// Out is the output folder (the file may give it).
	Out string
	// Packets is the per-packet log level: none, data or all.
	Packets string
	// MaxTime and Check are durations with units ("10ms"); "" for none.
	MaxTime, Check string
	// PPN is the MPI processes per node of application traces (DUMPI,
	// OTF2, Chakra).
	PPN int
	// ComputeScale multiplies the compute gaps of application traces (0
	// means 1).
	ComputeScale float64
	// Strict refuses damaged inputs instead of warning.
	Strict bool
	// Set names the flags given on the command line (they win over the
	// file); their values' errors are usage errors.
	Set map[string]bool
	// Loaded, when not nil, is the configuration already read (a sweep's
	// point): Resolve uses it instead of reading Config, which then only
	// names it in messages.
	Loaded *File

	fromFile map[string]bool // values taken from the configuration file
}

// Setup is a Request resolved: the configuration file merged in, the
// workload loaded, the topology built, the algorithms built. It gives each
// run's replay.Config with Config.
type Setup struct {
	// Req is the request with the file's values merged in.
	Req Request
	// File is the configuration file (empty without one).
	File File
	// Level is the per-packet log level.
	Level replay.PacketLevel
	// Params are the algorithm parameter overrides, the file's and the
	// command line's (which win).
	Params map[string]string
	// Names are the algorithms as given and Specs as built, in order.
	Names []string
	Specs []cca.Spec
	// Trace is the workload and TraceName its name (the file or the
	// generator spec).
	Trace     *trace.Trace
	TraceName string
	// Topology is the network the workload runs on.
	Topology *topology.Topology
	// MaxTime and Check are the parsed durations (0 = none).
	MaxTime, Check units.Time
	// HPCC is the HPCC simulator scenario (--hpcc-config), or nil.
	HPCC *HPCC
	// Warnings are what the input's reader found damaged or left out (a
	// truncated capture, unmatched MPI sends), one sentence each.
	Warnings []string
}

// merge fills the values not given on the command line from the file.
func (r *Request) merge(fc *File) {
	r.fromFile = map[string]bool{}
	str := func(flag string, dst *string, v string) {
		if !r.Set[flag] && v != "" {
			*dst = v
			r.fromFile[flag] = true
		}
	}
	// A workload given on the command line replaces the file's, whichever
	// kind (trace or generator) either names.
	if !r.Set["trace"] && !r.Set["workload"] {
		str("trace", &r.Trace, fc.Trace)
		str("workload", &r.Workload, fc.Workload)
	}
	str("cca", &r.CCA, fc.CCA)
	str("topology", &r.Topology, fc.Topology)
	str("out", &r.Out, fc.Out)
	str("packets", &r.Packets, fc.Packets)
	str("max-time", &r.MaxTime, fc.MaxTime)
	if !r.Set["seed"] && fc.Seed != nil {
		r.Seed = *fc.Seed
	}
}

// badValue reports a bad value of flag: a usage error when it came from the
// command line, an input error naming the configuration file and its key
// otherwise.
func (r *Request) badValue(flag, key string, err error) error {
	if r.fromFile[flag] {
		return inputErrorf("%s: %s: %v", r.Config, key, err)
	}
	return flagErrorf("--%s: %v", flag, err)
}

// ccaNames splits the algorithm list and checks it.
func (r *Request) ccaNames() ([]string, error) {
	if !r.CCAList {
		return []string{r.CCA}, nil
	}
	if strings.TrimSpace(r.CCA) == "" {
		return nil, flagErrorf("give the algorithms to compare: --cca A,B,...")
	}
	names := strings.Split(r.CCA, ",")
	for i := range names {
		names[i] = strings.TrimSpace(names[i])
		if names[i] == "" || slices.Contains(names[:i], names[i]) {
			return nil, r.badValue("cca", "cca", fmt.Errorf("%q: empty or repeated algorithm", r.CCA))
		}
	}
	return names, nil
}

// params merges the file's and the command line's KEY=VALUE overrides.
func params(kvs []string, fromFile map[string]string) (map[string]string, error) {
	p := map[string]string{}
	for k, v := range fromFile {
		p[k] = v
	}
	for _, kv := range kvs {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || k == "" {
			return nil, flagErrorf("--cca-param %q: want KEY=VALUE", kv)
		}
		p[k] = v
	}
	return p, nil
}

// IsDUMPI tells an SST DUMPI trace (.meta, or a rank's .bin) by its name.
func IsDUMPI(path string) bool { return AppFormatOf(path) == FormatDUMPI }

// loadWorkload reads the trace or runs the generator. Its warnings are
// what the reader found damaged or left out of the input.
func (r *Request) loadWorkload() (*trace.Trace, string, []string, error) {
	switch {
	case r.Trace != "" && r.Workload != "" && r.fromFile["trace"]:
		return nil, "", nil, inputErrorf("%s: give either trace or workload, not both", r.Config)
	case r.Trace != "" && r.Workload != "":
		return nil, "", nil, flagErrorf("give either --trace or --workload, not both")
	case r.Trace == "" && r.Workload == "":
		return nil, "", nil, flagErrorf("give a workload: --trace FILE or --workload SPEC (e.g. incast:n=16,size=1MB)")
	case AppFormatOf(r.Trace) != "":
		// An application trace (SST DUMPI or OTF2 MPI, Chakra execution
		// trace): point-to-point and collective messages with the
		// application's dependencies and compute gaps.
		tr, rep, err := LoadApp(r.Trace, AppFormatOf(r.Trace), AppOptions{PPN: r.PPN, ComputeScale: r.ComputeScale})
		if err != nil {
			return nil, "", nil, inputError(err)
		}
		return tr, r.Trace, rep.Warnings(), nil
	case ingest.IsCapture(r.Trace):
		// A packet capture: RoCEv2 messages (or TCP/UDP flows) become the
		// trace, released at their captured times.
		tr, rep, err := ingest.Load(r.Trace, ingest.Options{})
		if err != nil {
			return nil, "", nil, inputError(err)
		}
		return tr, r.Trace, rep.Warnings, nil
	case r.Trace != "":
		tr, err := trace.ReadFile(r.Trace)
		if err != nil {
			return nil, "", nil, inputError(err)
		}
		if len(tr.Messages) == 0 {
			return nil, "", nil, inputErrorf("%s: the trace has no messages (nothing to replay)", r.Trace)
		}
		return tr, r.Trace, nil, nil
	default:
		tr, err := gen.Parse(r.Workload, int64(r.Seed))
		if err != nil {
			return nil, "", nil, inputErrorf("workload: %v", err)
		}
		return tr, r.Workload, nil, nil
	}
}

// Resolve reads the configuration file, merges it under the command line,
// builds every algorithm with reg, loads the workload and the topology.
// Errors come in a fixed order: configuration file, packet level,
// parameters, algorithms, workload, topology, durations, damaged input
// under Strict. A bad command-line value is a *clierr.UsageError, anything else a
// *clierr.InputError.
func Resolve(req Request, reg *cca.Registry) (*Setup, error) {
	st := &Setup{Req: req}
	r := &st.Req
	if r.Set == nil {
		r.Set = map[string]bool{}
	}
	if r.Loaded != nil {
		st.File = *r.Loaded
	} else if r.Config != "" {
		fc, err := Load(r.Config)
		if err != nil {
			return nil, err
		}
		st.File = *fc
	}
	r.merge(&st.File)
	if err := CheckAppFlags(r.PPN, r.Set["ppn"], r.ComputeScale); err != nil {
		return nil, err
	}
	var err error
	if st.Level, err = replay.ParsePacketLevel(r.Packets); err != nil {
		return nil, r.badValue("packets", "packets", err)
	}
	if st.Params, err = params(r.CCAParams, st.File.CCAParams); err != nil {
		return nil, err
	}
	if r.HPCCConfig != "" {
		if st.HPCC, err = loadHPCCConfig(r.HPCCConfig); err != nil {
			return nil, err
		}
		if !r.Set["cca"] && !r.fromFile["cca"] {
			name, p := st.HPCC.cfg.CCParams()
			r.CCA = name
			for k, v := range p {
				if _, given := st.Params[k]; !given {
					st.Params[k] = v
				}
			}
		}
		if r.Topology == "" {
			p, err := st.HPCC.file("TOPOLOGY_FILE", st.HPCC.cfg.TopologyFile)
			if err != nil {
				return nil, err
			}
			r.Topology = "hpcc:" + p
		}
	}
	if st.Names, err = r.ccaNames(); err != nil {
		return nil, err
	}
	for _, name := range st.Names {
		spec, err := reg.Build(name, st.Params)
		if err != nil {
			return nil, inputError(err)
		}
		st.Specs = append(st.Specs, spec)
	}
	if st.HPCC != nil && r.Trace == "" && r.Workload == "" {
		// The scenario's own flows: the topology first, to map node ids.
		if st.Topology, err = topology.Parse(r.Topology, 0); err != nil {
			return nil, inputErrorf("topology: %v", err)
		}
		if st.Trace, st.TraceName, err = st.HPCC.loadFlows(st.Topology); err != nil {
			return nil, err
		}
	} else {
		if st.Trace, st.TraceName, st.Warnings, err = r.loadWorkload(); err != nil {
			return nil, err
		}
		if st.Topology, err = topology.Parse(r.Topology, st.Trace.Hosts); err != nil {
			return nil, inputErrorf("topology: %v", err)
		}
	}
	if st.HPCC != nil {
		if err := st.HPCC.checkECNRates(st.Topology); err != nil {
			return nil, err
		}
		if err := st.HPCC.checkQCN(st.Specs); err != nil {
			return nil, err
		}
		// Keys third.cc does not read: the simulator skips them, so they
		// are warnings (--strict refuses them).
		st.Warnings = append(st.Warnings, st.HPCC.cfg.Warnings()...)
	}
	if r.MaxTime != "" {
		if st.MaxTime, err = units.ParseDuration(r.MaxTime); err != nil {
			return nil, r.badValue("max-time", "max_time", err)
		}
	}
	if r.Check != "" {
		if st.Check, err = units.ParseDuration(r.Check); err != nil {
			return nil, flagErrorf("--check: %v", err)
		}
	}
	if len(st.Warnings) > 0 && r.Strict {
		more := ""
		if n := len(st.Warnings) - 1; n > 0 {
			more = fmt.Sprintf("%d more warning(s); ", n)
		}
		return nil, inputErrorf("%s: %s (%s--strict refuses damaged inputs)", st.TraceName, st.Warnings[0], more)
	}
	return st, nil
}

// Config builds one run's configuration: defaults, then the algorithm's
// network hints, then the HPCC scenario's keys, then the configuration
// file's switch and NIC sections; the result is validated.
func (st *Setup) Config(spec cca.Spec, seed uint64) (replay.Config, error) {
	cfg := replay.Config{
		Topology: st.Topology, CC: spec, Switch: switchmodel.DefaultConfig(), NIC: nic.DefaultConfig(),
		Seed: seed, Packets: st.Level, MaxTime: st.MaxTime, CheckEvery: st.Check,
	}
	cfg.ApplyCCHints()
	if st.HPCC != nil {
		st.HPCC.apply(&cfg, st.Params)
		st.HPCC.applyModel(&cfg)
	}
	if err := st.File.ApplySwitch(st.Req.Config, &cfg.Switch); err != nil {
		return cfg, err
	}
	if err := st.File.ApplyNIC(st.Req.Config, &cfg.NIC); err != nil {
		return cfg, err
	}
	var err error
	if cfg.LocalRate, err = st.File.LocalRate(st.Req.Config); err != nil {
		return cfg, err
	}
	if err := cfg.Validate(); err != nil {
		return cfg, inputError(err)
	}
	return cfg, nil
}
