package main

import (
	"runtime"

	"github.com/spf13/cobra"

	"github.com/ccreplay/ccreplay/rl/cli"
)

// evalHeldoutOptions are `ccreplay eval heldout`'s flags (cli.EvalHeldout).
type evalHeldoutOptions struct {
	learnBase
	cli.EvalHeldout
}

// NewCmdEvalHeldout is `ccreplay eval heldout`; runF, when not nil, is called with the
// parsed options instead of running (tests).
func NewCmdEvalHeldout(f *Factory, runF func(*evalHeldoutOptions) error) *cobra.Command {
	o := &evalHeldoutOptions{learnBase: learnBase{f: f}}
	c := &cobra.Command{
		Use:   "heldout --set fdcc|rlcc [--policy FILE] [--baselines LIST]",
		Short: "Score a learned policy and baselines on the held-out scenarios the trainers choose checkpoints by (goodput, fairness, queueing)",
		Long: `Replays the held-out set the trainer of FDCC (--set fdcc) or RL-CC (--set rlcc)
chooses its checkpoints by (package rl/heldout: incasts of sizes and flow counts
the training does not use, with Gaussian start jitter; flows joining one after
another; a WebSearch mix on a 2-rack fat-tree; one flow alone on an idle link)
under the learned policy and each baseline, and prints per scenario: flows,
finished flows, goodput, fairness (min / max flow rate while every flow is
active), unfair ratio ((max - mean) / mean over the same rates), the span
measured, the mean FCT slowdown, the queueing delay (the mean over data packets
of the time each waited in switch queues, summed over its switches) and the
score. The score rule: a scenario scores min(goodput/0.85, 1) x fairness x
min(10us/queueing delay, 1) (a mix: min(goodput/0.85, 1) x min(10us/queueing
delay, 1)), a policy the mean over scenarios; 10 us is RL-CC's queue latency at
128 flows (Tessler 2022, Table 1). Nothing is written.`,
		Example: `  # the shipped FDCC policy against DCQCN and HPCC on FDCC's held-out set
  ccreplay eval heldout --set fdcc --baselines dcqcn,hpcc

  # a trained RL-CC policy on RL-CC's set, JSON for scripts
  ccreplay eval heldout --set rlcc --policy teacher --baselines none --json`,
		Args: usageArgs(cobra.NoArgs),
		RunE: learnRunE(&o.learnBase, o, runF),
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
