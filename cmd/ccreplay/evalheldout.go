package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime"
	"strings"

	"github.com/spf13/cobra"

	"github.com/ccreplay/ccreplay/cca"
	"github.com/ccreplay/ccreplay/cca/fdcc"
	"github.com/ccreplay/ccreplay/cca/rlcc"
	"github.com/ccreplay/ccreplay/rl/heldout"
	"github.com/ccreplay/ccreplay/units"
)

// evalHeldoutOptions are `ccreplay eval heldout`'s flags.
type evalHeldoutOptions struct {
	f         *Factory
	ctx       context.Context // the command's (set when it runs)
	Set       string
	Policy    string
	Latency   string
	Baselines string
	Seed      uint64
	Parallel  int
	JSON      bool
}

// NewCmdEvalHeldout is `ccreplay eval heldout`; runF, when not nil, is called with the
// parsed options instead of running (tests).
func NewCmdEvalHeldout(f *Factory, runF func(*evalHeldoutOptions) error) *cobra.Command {
	o := &evalHeldoutOptions{f: f}
	c := &cobra.Command{
		Use:   "heldout --set fdcc|rlcc [--policy FILE] [--baselines LIST]",
		Short: "Score a learned policy and baselines on the held-out scenarios the trainers choose checkpoints by (goodput and fairness)",
		Long: `Replays the held-out set the trainer of FDCC (--set fdcc) or RL-CC (--set rlcc)
chooses its checkpoints by (package rl/heldout: incasts of sizes and flow counts
the training does not use, with Gaussian start jitter; flows joining one after
another; a WebSearch mix on a 2-rack fat-tree) under the learned policy and
each baseline, and prints per scenario: flows, finished flows, goodput, fairness
(min / max flow rate while every flow is active), unfair ratio ((max - mean) /
mean over the same rates), the span measured, the mean FCT slowdown and the
score. The score rule: a scenario scores min(goodput/0.85, fairness, 1) (a mix:
min(goodput/0.85, 1)), a policy the mean over scenarios. Nothing is written.`,
		Example: `  # the shipped FDCC policy against DCQCN and HPCC on FDCC's held-out set
  ccreplay eval heldout --set fdcc --baselines dcqcn,hpcc

  # a trained RL-CC policy on RL-CC's set, JSON for scripts
  ccreplay eval heldout --set rlcc --policy teacher --baselines none --json`,
		Args: usageArgs(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.ctx = commandContext(cmd)
			if runF != nil {
				return runF(o)
			}
			return evalHeldoutRun(o)
		},
	}
	fl := c.Flags()
	fl.StringVar(&o.Set, "set", "fdcc", "held-out set: fdcc or rlcc (the learned algorithm is the set's)")
	fl.StringVar(&o.Policy, "policy", "default", `policy file of the set's algorithm (written by ccreplay train), or "default" (the embedded one; for rlcc also "teacher")`)
	fl.StringVar(&o.Latency, "latency", "2us", "RL-CC decision latency (--set rlcc; RL-CC-NIC, Fuhrer 2023, Table III: 2 us)")
	fl.StringVar(&o.Baselines, "baselines", "dcqcn,hpcc", `comma-separated algorithm specs (name[:preset]) to compare with, or "none"`)
	fl.Uint64Var(&o.Seed, "seed", 1, "seed of every run (trace draws, ECN)")
	fl.IntVarP(&o.Parallel, "parallel", "j", runtime.GOMAXPROCS(0), "scenarios replayed at once (the tables do not depend on it)")
	fl.BoolVar(&o.JSON, "json", false, "print the tables as JSON")
	return c
}

// learned is the spec of the set's learned algorithm with --policy.
func (o *evalHeldoutOptions) learned() ([]heldout.Scenario, cca.Spec, error) {
	switch o.Set {
	case "fdcc":
		params := map[string]string{}
		if o.Policy != "default" {
			if _, err := fdcc.Load(o.Policy); err != nil {
				return nil, cca.Spec{}, inputErrorf("--policy: %v", err)
			}
			params["policy"] = o.Policy
		}
		sp, err := fdcc.Build("", params)
		if err != nil {
			return nil, sp, inputErrorf("--policy: %v", err)
		}
		return heldout.FDCC, sp, nil
	case "rlcc":
		lat, err := parseDurationFlag("latency", o.Latency, true)
		if err != nil {
			return nil, cca.Spec{}, err
		}
		sp, err := rlccSpec("rlcc", o.Policy, lat)
		return heldout.RLCC, sp, err
	}
	return nil, cca.Spec{}, usageErrorf("--set: want fdcc or rlcc, got %q", o.Set)
}

func evalHeldoutRun(o *evalHeldoutOptions) error {
	scs, learned, err := o.learned()
	if err != nil {
		return err
	}
	if o.Parallel < 1 {
		return usageErrorf("--parallel: want at least 1, got %d", o.Parallel)
	}
	baselines, err := baselineSpecs(o.f.registry(), o.Baselines)
	if err != nil {
		return err
	}
	entries := []heldout.Entry{{Label: o.Set + " (" + o.Policy + ")", Spec: learned}}
	for _, sp := range baselines {
		entries = append(entries, heldout.Entry{Label: sp.Name, Spec: sp})
	}
	out, err := heldout.Compare(entries, scs, heldout.Options{Seed: o.Seed, Parallel: o.Parallel, Context: o.ctx})
	if errors.Is(err, context.Canceled) {
		return interrupted("%v; nothing printed", err)
	}
	if err != nil {
		return err
	}
	if o.JSON {
		enc := json.NewEncoder(o.f.Out)
		enc.SetIndent("", "  ")
		return enc.Encode(out)
	}
	for _, e := range out {
		fmt.Fprint(o.f.Out, e.Table.Format(e.Label))
	}
	return nil
}

// baselineSpecs builds --baselines: comma-separated algorithm specs
// (name[:preset]), or "none".
func baselineSpecs(reg *cca.Registry, s string) ([]cca.Spec, error) {
	s = strings.TrimSpace(s)
	if s == "none" || s == "" {
		return nil, nil
	}
	var out []cca.Spec
	for _, name := range strings.Split(s, ",") {
		sp, err := reg.Build(strings.TrimSpace(name), nil)
		if err != nil {
			return nil, usageErrorf("--baselines: %v", err)
		}
		out = append(out, sp)
	}
	return out, nil
}

// rlccSpec is RL-CC with the named policy (rlcc.Named) at a decision
// latency.
func rlccSpec(name, policy string, latency units.Time) (cca.Spec, error) {
	pol, err := rlcc.Named(policy)
	if err != nil {
		return cca.Spec{}, inputErrorf("--policy: %v", err)
	}
	sp, err := rlcc.NewSpec(name, rlcc.Config{Policy: pol, PolicyPath: policy, Latency: latency})
	if err != nil {
		return sp, inputErrorf("--policy: %v", err)
	}
	return sp, nil
}
