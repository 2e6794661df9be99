package scenario

import (
	"context"

	"github.com/ccreplay/ccreplay/cca"
	"github.com/ccreplay/ccreplay/internal/iostreams"
	"github.com/ccreplay/ccreplay/netcalc"
	"github.com/ccreplay/ccreplay/plot"
)

// CommandOptions are the flags of `ccreplay netcalc`, as given; Request
// checks the ones that are the command's own and builds the Request.
type CommandOptions struct {
	// Trace, Workload, Topology, Seed, Strict, Dt, Horizon, Record, Out,
	// Force, Format and Compare are the Request's.
	Trace, Workload, Topology string
	Seed                      uint64
	// CCA is the model congestion control (Request.CC), CCAParams its
	// KEY=VALUE overrides.
	CCA       string
	CCAParams []string
	// PFC is on or off.
	PFC                 string
	Dt, Horizon, Record string
	Out, Format         string
	// JSON prints summary.json on stdout instead of the text summary.
	JSON, Force, Strict bool
	Compare             bool
	// Figure is the --figure flag (plot.ParseFigureFormats).
	Figure string
	// Set names the flags given on the command line.
	Set map[string]bool
	// Registry builds the packet replay's algorithms.
	Registry *cca.Registry
}

// Request checks the flags that are the command's own (usage errors) and
// builds the scenario's request; warn receives the warnings found.
func (o *CommandOptions) Request(warn func(string)) (*Request, error) {
	if o.PFC != "on" && o.PFC != "off" {
		return nil, usageErrorf("--pfc %q: want on or off", o.PFC)
	}
	figures, err := plot.ParseFigureFormats(o.Figure)
	if err != nil {
		return nil, err
	}
	return &Request{Trace: o.Trace, Workload: o.Workload, Topology: o.Topology, Seed: o.Seed,
		Strict: o.Strict, Set: o.Set, CC: netcalc.CCKind(o.CCA), Params: o.CCAParams, PFC: o.PFC == "on",
		Dt: o.Dt, Horizon: o.Horizon, Record: o.Record, Out: o.Out, Force: o.Force, Format: o.Format,
		Compare: o.Compare, Figures: figures, Registry: o.Registry, Warn: warn}, nil
}

// Run runs the model (and with Compare the replay) into Out and prints
// its summary on s.Out, warnings on s.Err.
func (o *CommandOptions) Run(ctx context.Context, s iostreams.Streams) error {
	req, err := o.Request(s.Warn)
	if err != nil {
		return err
	}
	sum, err := Run(ctx, req)
	if err != nil {
		return err
	}
	if o.JSON {
		b, err := sum.Marshal()
		s.Out.Write(b)
		return err
	}
	return sum.WriteText(s.Out)
}
