package scenario

import (
	"math"
	"slices"

	"github.com/ccreplay/ccreplay/cca"
	"github.com/ccreplay/ccreplay/netcalc"
	"github.com/ccreplay/ccreplay/runconfig"
	"github.com/ccreplay/ccreplay/units"
)

// Schema names the layout of a netcalc output folder.
const Schema = "ccreplay.netcalc.v1"

// Request is one run of the model as `ccreplay netcalc` gives it.
type Request struct {
	// Trace, Workload, Topology, Seed and Strict are resolved as
	// `ccreplay run` resolves them (runconfig.Request); Set names the
	// flags given on the command line.
	Trace, Workload, Topology string
	Seed                      uint64
	Strict                    bool
	Set                       map[string]bool
	// CC is the model congestion control, Params its KEY=VALUE
	// overrides in order (ParamHelp).
	CC     netcalc.CCKind
	Params []string
	// PFC sets X_off/X_on to 9.5/9.25 kB per Gb/s of C.
	PFC bool
	// Dt, Horizon and Record are the grid step, the model time to compute
	// and the time between recorded rows, as durations ("100ns", "10ms";
	// Dt and Record whole numbers of nanoseconds, Record a multiple of Dt).
	Dt, Horizon, Record string
	// Out is the output folder, written whole or not at all; Force
	// replaces a previous ccreplay output there.
	Out   string
	Force bool
	// Format of curves and events: parquet or csv.
	Format string
	// Compare also replays the workload packet by packet (CompareCheck).
	Compare bool
	// Figures are the figures' formats (png, svg); none when empty.
	Figures []string
	// Registry builds the packet replay's algorithms.
	Registry *cca.Registry
	// Warn, if set, receives each warning as it is found.
	Warn func(string)
}

// Check validates what needs no input, in the order the CLI reports it.
func (r *Request) Check() error {
	switch {
	case r.Out == "":
		return usageErrorf("give the output folder: --out DIR")
	case r.Format != "parquet" && r.Format != "csv":
		return usageErrorf("--format %q: want parquet or csv", r.Format)
	case !slices.Contains(CCs, r.CC):
		return inputErrorf("--cca %q: unknown model congestion control (want linerate, dcqcn, aimd-rate, aimd-window or vegas)", r.CC)
	}
	if _, ok := replayCCA[r.CC]; !ok && r.Compare {
		return usageErrorf("--compare: %s has no packet counterpart in the replay (want --cca linerate or dcqcn)", r.CC)
	}
	return nil
}

// grid parses Dt, Horizon and Record.
func (r *Request) grid() (dt, horizon, record units.Time, err error) {
	parse := func(flag, v string) (units.Time, error) {
		d, err := units.ParseDuration(v)
		if err != nil {
			return 0, usageErrorf("--%s: %v", flag, err)
		}
		if d <= 0 || d%units.Nanosecond != 0 {
			return 0, usageErrorf("--%s %s: want a positive whole number of nanoseconds", flag, v)
		}
		return d, nil
	}
	if dt, err = parse("dt", r.Dt); err != nil {
		return
	}
	if horizon, err = parse("horizon", r.Horizon); err != nil {
		return
	}
	if record, err = parse("record", r.Record); err != nil {
		return
	}
	switch {
	case horizon < dt:
		err = usageErrorf("--horizon %s is shorter than --dt %s", r.Horizon, r.Dt)
	case record%dt != 0:
		err = usageErrorf("--record %s must be a multiple of --dt %s", r.Record, r.Dt)
	}
	return
}

// Model is a request resolved: the model's inputs and where they came
// from.
type Model struct {
	Config netcalc.Config
	Path   *Path
	Setup  *runconfig.Setup
}

// Resolve resolves the workload and the topology as `ccreplay run` does
// and builds the model's Config.
func (r *Request) Resolve() (*Model, error) {
	dt, horizon, record, err := r.grid()
	if err != nil {
		return nil, err
	}
	// NB: Resolve builds the packet replay's algorithms; "dcqcn" with no
	// parameters always builds, and the model's CC is checked apart.
	st, err := runconfig.Resolve(runconfig.Request{
		Trace: r.Trace, Workload: r.Workload, CCA: "dcqcn", Topology: r.Topology, Seed: r.Seed,
		Out: r.Out, Packets: "none", Strict: r.Strict, Set: r.Set,
	}, r.Registry)
	if err != nil {
		return nil, err
	}
	p, err := MapWorkload(st.Trace, st.Topology)
	if err != nil {
		return nil, err
	}
	cfg := netcalc.Config{Dt: dt, Horizon: horizon, Record: record, C: p.C, DeltaR: p.DeltaR,
		Flows: p.Flows, CC: r.CC}
	if r.PFC {
		gbps := float64(p.C) / float64(units.Gbps)
		cfg.PFC = &netcalc.PFCParams{XOff: units.Bytes(math.Round(9500 * gbps)), XOn: units.Bytes(math.Round(9250 * gbps))}
	}
	if err := Configure(&cfg, r.Params); err != nil {
		return nil, err
	}
	return &Model{Config: cfg, Path: p, Setup: st}, nil
}
