package main

import (
	"github.com/spf13/cobra"

	"github.com/ccreplay/ccreplay/rl/cli"
	"github.com/ccreplay/ccreplay/runfolder"
)

func init() { registerCommand(newEvalCmd) }

// evalOptions are `ccreplay eval rlcc`'s flags (cli.EvalRLCC).
type evalOptions struct {
	learnBase
	cli.EvalRLCC
}

func newEvalCmd(s *Factory) *cobra.Command {
	return learnerGroupCmd("eval", "Evaluate a learned congestion controller against baselines", "evaluate", NewCmdEvalRLCC(s, nil), newEvalFDCCCmd(s), NewCmdEvalHeldout(s, nil))
}

// NewCmdEvalRLCC is `ccreplay eval rlcc`; runF, when not nil, is called with the
// parsed options instead of running (tests).
func NewCmdEvalRLCC(f *Factory, runF func(*evalOptions) error) *cobra.Command {
	o := &evalOptions{learnBase: learnBase{f: f}}
	c := &cobra.Command{
		Use:   "rlcc",
		Short: "RL-CC (Tessler 2022), Table 1: RL-CC vs DCQCN and HPCC on many-to-one 16 and 128 flows",
		Long: `Replays many-to-one N to 1 (N long flows from distinct senders through one
100 Gb/s switch) under RL-CC with the given policy and under each baseline, and
prints RL-CC (Tessler 2022), Table 1's figures measured over the second half of the run:
SU switch utilization [%], FR fairness min rate x 100 / max rate, QL queue
latency [us], DR drop rate [Gbit/s], and each flow's goodput in units of the
fair share line rate / N (RL-CC, Tessler 2022, Proposition 1's fixed point is 1.00-1.00).
Nothing is written; --json prints the rows.`,
		Example: `  # the shipped policy against DCQCN and HPCC (RL-CC, Tessler 2022, Table 1)
  ccreplay eval rlcc --flows 16 --duration 5ms

  # a policy of your own (here a quick distillation), lossy fabric
  ccreplay distill rlcc --teacher teacher --flows 2,4,8 --rounds 2 --duration 2ms --eval-flows none --select-flows none -o student
  ccreplay eval rlcc --policy student/` + runfolder.PolicyFile + ` --flows 16 --lossy --duration 5ms

  # the paper's scales, JSON for scripts (minutes)
  ccreplay eval rlcc --flows 16,128,1024 --baselines dcqcn:hpcc-repo,hpcc,swift --json

  # RL-CC-NIC (Fuhrer 2023), Table III as that paper measures in simulation: one
  # simulated second, the last 0.5 s measured (its Section IV); GP and latency in --json (minutes)
  ccreplay eval rlcc --flows 64,512,2048 --duration 1s --baselines none --json`,
		Args: usageArgs(cobra.NoArgs),
		RunE: learnRunE(&o.learnBase, o, runF),
	}
	fl := c.Flags()
	fl.StringVar(&o.Policy, "policy", "default", `RL-CC policy file (any file --cca-param policy= loads), or "default" (the embedded trees) or "teacher" (the embedded MLP teacher)`)
	fl.StringVar(&o.Baselines, "baselines", "dcqcn:zhu2015,hpcc", `comma-separated algorithm specs (name[:preset]) to compare with, or "none"`)
	fl.StringVar(&o.Flows, "flows", "16,128", "many-to-one flow counts (comma-separated)")
	fl.StringVar(&o.Duration, "duration", "10ms", "simulated time of each run (measured over its second half)")
	fl.StringVar(&o.Latency, "latency", "2us", "RL-CC decision latency (RL-CC-NIC, Fuhrer 2023, Table III: 2 us)")
	fl.Uint64Var(&o.Seed, "seed", 1, "seed of every run (ECN draws)")
	fl.BoolVar(&o.Lossy, "lossy", false, "lossy fabric (PFC off) instead of PFC")
	fl.StringVar(&o.Buffer, "buffer", "5MB", "switch shared buffer of the comparison runs (RL-CC, Tessler 2022, Fig. 3: 5 MB; rl/scenario trains with 32MB)")
	fl.BoolVar(&o.JSON, "json", false, "print the rows as JSON")
	return c
}
