package cli

import (
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/ccreplay/ccreplay/cca"
	"github.com/ccreplay/ccreplay/cca/fdcc"
	"github.com/ccreplay/ccreplay/cca/rlcc"
	"github.com/ccreplay/ccreplay/internal/clierr"
	"github.com/ccreplay/ccreplay/rl/eval"
	"github.com/ccreplay/ccreplay/rl/heldout"
	"github.com/ccreplay/ccreplay/units"
)

// EvalRLCC are `ccreplay eval rlcc`'s flag values.
type EvalRLCC struct {
	Policy    string
	Baselines string
	Flows     string
	Duration  string
	Latency   string
	Seed      uint64
	Lossy     bool
	Buffer    string
	JSON      bool
}

// entries are RL-CC with --policy at --latency, then --baselines.
func (o *EvalRLCC) entries(reg *cca.Registry) ([]eval.Entry, error) {
	lat, err := parseDuration("latency", o.Latency, true)
	if err != nil {
		return nil, err
	}
	spec, err := RLCCSpec("rlcc", o.Policy, lat)
	if err != nil {
		return nil, err
	}
	baselines, err := BaselineSpecs(reg, o.Baselines)
	if err != nil {
		return nil, err
	}
	entries := []eval.Entry{{Label: "rlcc", Spec: spec}}
	for _, sp := range baselines {
		entries = append(entries, eval.Entry{Label: sp.Name, Spec: sp})
	}
	return entries, nil
}

// Run replays RL-CC and the baselines on each many-to-one flow count and
// prints RL-CC (Tessler 2022), Table 1's rows, as text or JSON.
func (o *EvalRLCC) Run(env Env) error {
	flows, err := parseFlowList("flows", o.Flows, false)
	if err != nil {
		return err
	}
	dur, err := parseDuration("duration", o.Duration, false)
	if err != nil {
		return err
	}
	entries, err := o.entries(env.Registry)
	if err != nil {
		return err
	}
	buf, err := parseBuffer(o.Buffer)
	if err != nil {
		return err
	}
	eo := eval.Options{Duration: dur, Lossy: o.Lossy, Seed: o.Seed, BufferBytes: buf, Context: env.Ctx}
	rows, err := eval.Compare(entries, flows, eo, env.evalProgress())
	if err := interrupted(err, "printed"); err != nil {
		return err
	}
	if o.JSON {
		return env.PrintJSON(rows)
	}
	fmt.Fprintf(env.Out, "RL-CC (Tessler 2022), Table 1 (%s fabric, %s buffer, window %s; share = flow goodput / fair share, min-max):\n", eval.FabricName(o.Lossy), o.Buffer, eo.Window())
	return eval.WriteTable1(env.Out, rows)
}

// evalProgress prints each run's figures on a terminal.
func (e Env) evalProgress() func(eval.Result) {
	if !e.ErrIsTerminal {
		return nil
	}
	start := time.Now()
	return func(r eval.Result) {
		fmt.Fprintf(e.Err, "%s on %d to 1: SU %.0f FR %.0f QL %.1f DR %.2g (%v)\n", r.Label, r.Flows, r.SU, r.FR, r.QL, r.DR, time.Since(start).Round(time.Second))
	}
}

// EvalHeldout are `ccreplay eval heldout`'s flag values.
type EvalHeldout struct {
	Set       string
	Policy    string
	Latency   string
	Baselines string
	Seed      uint64
	Parallel  int
	JSON      bool
}

// Learned is the held-out set --set names and the spec of its learned
// algorithm with --policy.
func (o *EvalHeldout) Learned() ([]heldout.Scenario, cca.Spec, error) {
	switch o.Set {
	case "fdcc":
		params := map[string]string{}
		if o.Policy != "default" {
			if _, err := fdcc.Load(o.Policy); err != nil {
				return nil, cca.Spec{}, clierr.Inputf("--policy: %v", err)
			}
			params["policy"] = o.Policy
		}
		sp, err := fdcc.Build("", params)
		if err != nil {
			return nil, sp, clierr.Inputf("--policy: %v", err)
		}
		return heldout.FDCC, sp, nil
	case "rlcc":
		lat, err := parseDuration("latency", o.Latency, true)
		if err != nil {
			return nil, cca.Spec{}, err
		}
		sp, err := RLCCSpec("rlcc", o.Policy, lat)
		return heldout.RLCC, sp, err
	}
	return nil, cca.Spec{}, clierr.Usagef("--set: want fdcc or rlcc, got %q", o.Set)
}

// Run replays the held-out set under the learned policy and each baseline
// and prints one table per policy, as text or JSON.
func (o *EvalHeldout) Run(env Env) error {
	scs, learned, err := o.Learned()
	if err != nil {
		return err
	}
	if o.Parallel < 1 {
		return clierr.Usagef("--parallel: want at least 1, got %d", o.Parallel)
	}
	baselines, err := BaselineSpecs(env.Registry, o.Baselines)
	if err != nil {
		return err
	}
	entries := []heldout.Entry{{Label: o.Set + " (" + o.Policy + ")", Spec: learned}}
	for _, sp := range baselines {
		entries = append(entries, heldout.Entry{Label: sp.Name, Spec: sp})
	}
	out, err := heldout.Compare(entries, scs, heldout.Options{Seed: o.Seed, Parallel: o.Parallel, Context: env.Ctx})
	if err := interrupted(err, "printed"); err != nil {
		return err
	}
	if o.JSON {
		return env.PrintJSON(out)
	}
	for _, e := range out {
		fmt.Fprint(env.Out, e.Table.Format(e.Label))
	}
	return nil
}

// BaselineSpecs builds --baselines: comma-separated algorithm specs
// (name[:preset]), or "none".
func BaselineSpecs(reg *cca.Registry, s string) ([]cca.Spec, error) {
	s = strings.TrimSpace(s)
	if s == "none" || s == "" {
		return nil, nil
	}
	var out []cca.Spec
	for _, name := range strings.Split(s, ",") {
		sp, err := reg.Build(strings.TrimSpace(name), nil)
		if err != nil {
			return nil, clierr.Usagef("--baselines: %v", err)
		}
		out = append(out, sp)
	}
	return out, nil
}

// RLCCSpec is RL-CC with the named policy (rlcc.Named) at a decision
// latency; a policy that does not load is an input error naming --policy.
func RLCCSpec(name, policy string, latency units.Time) (cca.Spec, error) {
	pol, err := rlcc.Named(policy)
	if err != nil {
		return cca.Spec{}, clierr.Inputf("--policy: %v", err)
	}
	sp, err := rlcc.NewSpec(name, rlcc.Config{Policy: pol, PolicyPath: policy, Latency: latency})
	if err != nil {
		return sp, clierr.Inputf("--policy: %v", err)
	}
	return sp, nil
}

// FDCCTables are the reproduction experiments `ccreplay eval fdcc
// --table` names.
var FDCCTables = map[string]string{"6.1": "fdcc-table6.1", "6.2": "fdcc-table6.2"}

// FDCCPolicyParams are the parameters `ccreplay eval fdcc --policy FILE`
// gives the FDCC runs: the policy checked to load and named by its
// absolute path, so that the configurations written rerun from anywhere
// (nil for "default", the embedded policy).
func FDCCPolicyParams(policy string) (map[string]map[string]string, error) {
	if policy == "default" {
		return nil, nil
	}
	if _, err := fdcc.Load(policy); err != nil {
		return nil, clierr.Inputf("--policy: %v", err)
	}
	abs, err := filepath.Abs(policy)
	if err != nil {
		return nil, clierr.Inputf("--policy: %v", err)
	}
	return map[string]map[string]string{"fdcc": {"policy": abs}}, nil
}
