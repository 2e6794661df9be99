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
)

// evalHeldoutOptions are `ccreplay eval heldout`'s flags.
type evalHeldoutOptions struct {
	s         *streams
	Set       string
	Policy    string
	Latency   string
	Baselines string
	Seed      uint64
	Parallel  int
	JSON      bool
}

// heldoutEntry is one algorithm's table in `eval heldout --json`.
type heldoutEntry struct {
	Label string        `json:"label"`
	Table heldout.Table `json:"table"`
}

func newEvalHeldoutCmd(s *streams) *cobra.Command {
	o := &evalHeldoutOptions{s: s}
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
		RunE: func(cmd *cobra.Command, args []string) error { return o.run(cmd.Context()) },
	}
	f := c.Flags()
	f.StringVar(&o.Set, "set", "fdcc", "held-out set: fdcc or rlcc (the learned algorithm is the set's)")
	f.StringVar(&o.Policy, "policy", "default", `policy file of the set's algorithm (written by ccreplay train), or "default" (the embedded one; for rlcc also "teacher")`)
	f.StringVar(&o.Latency, "latency", "2us", "RL-CC decision latency (--set rlcc; RL-CC-NIC, Fuhrer 2023, Table III: 2 us)")
	f.StringVar(&o.Baselines, "baselines", "dcqcn,hpcc", `comma-separated algorithm specs (name[:preset]) to compare with, or "none"`)
	f.Uint64Var(&o.Seed, "seed", 1, "seed of every run (trace draws, ECN)")
	f.IntVarP(&o.Parallel, "parallel", "j", runtime.GOMAXPROCS(0), "scenarios replayed at once (the tables do not depend on it)")
	f.BoolVar(&o.JSON, "json", false, "print the tables as JSON")
	return c
}

func (o *evalHeldoutOptions) run(ctx context.Context) error {
	var scs []heldout.Scenario
	var learned cca.Spec
	switch o.Set {
	case "fdcc":
		scs = heldout.FDCC
		params := map[string]string{}
		if o.Policy != "default" {
			if _, err := fdcc.Load(o.Policy); err != nil {
				return inputErrorf("--policy: %v", err)
			}
			params["policy"] = o.Policy
		}
		sp, err := fdcc.Build("", params)
		if err != nil {
			return inputErrorf("--policy: %v", err)
		}
		learned = sp
	case "rlcc":
		scs = heldout.RLCC
		lat, err := parseDurationFlag("latency", o.Latency, true)
		if err != nil {
			return err
		}
		pol, err := rlcc.Named(o.Policy)
		if err != nil {
			return inputErrorf("--policy: %v", err)
		}
		if learned, err = rlcc.NewSpec("rlcc", rlcc.Config{Policy: pol, PolicyPath: o.Policy, Latency: lat}); err != nil {
			return inputErrorf("--policy: %v", err)
		}
	default:
		return usageErrorf("--set: want fdcc or rlcc, got %q", o.Set)
	}
	if o.Parallel < 1 {
		return usageErrorf("--parallel: want at least 1, got %d", o.Parallel)
	}
	entries := []struct {
		label string
		spec  cca.Spec
	}{{o.Set + " (" + o.Policy + ")", learned}}
	if b := strings.TrimSpace(o.Baselines); b != "none" && b != "" {
		reg := registry()
		for _, name := range strings.Split(b, ",") {
			sp, err := reg.Build(strings.TrimSpace(name), nil)
			if err != nil {
				return usageErrorf("--baselines: %v", err)
			}
			entries = append(entries, struct {
				label string
				spec  cca.Spec
			}{sp.Name, sp})
		}
	}
	var out []heldoutEntry
	for _, e := range entries {
		t, err := heldout.Evaluate(e.spec, scs, heldout.Options{Seed: o.Seed, Parallel: o.Parallel, Context: ctx})
		if errors.Is(err, context.Canceled) {
			return interrupted("%v; nothing printed", err)
		}
		if err != nil {
			return err
		}
		out = append(out, heldoutEntry{Label: e.label, Table: t})
	}
	if o.JSON {
		enc := json.NewEncoder(o.s.Out)
		enc.SetIndent("", "  ")
		return enc.Encode(out)
	}
	for _, e := range out {
		fmt.Fprint(o.s.Out, e.Table.Format(e.Label))
	}
	return nil
}
