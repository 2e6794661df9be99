package main

import (
	"github.com/spf13/cobra"

	"github.com/ccreplay/ccreplay/rl/cli"
	"github.com/ccreplay/ccreplay/runfolder"
)

func init() { registerCommand(newExplainCmd) }

// explainOptions are `ccreplay explain rlcc`'s flags (cli.Explain).
type explainOptions struct {
	learnBase
	cli.Explain
}

func newExplainCmd(f *Factory) *cobra.Command {
	return learnerGroupCmd("explain", "Show how a learned congestion controller reacts to typical conditions", "explain", NewCmdExplainRLCC(f, nil))
}

// NewCmdExplainRLCC is `ccreplay explain rlcc`; runF, when not nil, is
// called with the parsed options instead of running (tests).
func NewCmdExplainRLCC(f *Factory, runF func(*explainOptions) error) *cobra.Command {
	o := &explainOptions{learnBase: learnBase{f: f}}
	c := &cobra.Command{
		Use:   "rlcc",
		Short: "Print the RL-CC policy's action for RL-CC-NIC (Fuhrer 2023), Table VI's nine condition pairs",
		Long: `Evaluates the RL-CC policy (the embedded default, or policy=FILE) on the nine
combinations of previous and current system condition of RL-CC-NIC (Fuhrer 2023), Table VI:
under-utilized (rate 0.4/N, RTT inflation 1, no CNP), on target (rate 1/N, RTT
inflation beta + target sqrt(N) = RL-CC-NIC (Fuhrer 2023), Eq. 2, no CNP) and congested (rate
1.6/N, RTT inflation 4, one CNP), for N flows (default 4, as in the analysis of
RL-CC-NIC, Fuhrer 2023), with the previous action 1 and no NACK. Prints each action next to
the paper's.`,
		Example: `  ccreplay explain rlcc
  ccreplay explain rlcc --json
  ccreplay distill rlcc --teacher teacher --flows 2,4,8 --rounds 2 --duration 2ms --eval-flows none --select-flows none -o student
  ccreplay explain rlcc --cca-param policy=student/` + runfolder.PolicyFile + ` --flows 8`,
		Args: usageArgs(cobra.NoArgs),
		RunE: learnRunE(&o.learnBase, o, runF),
	}
	fl := c.Flags()
	fl.StringArrayVar(&o.Params, "cca-param", nil, "rlcc parameter KEY=VALUE (policy=FILE selects the policy)")
	fl.IntVar(&o.Flows, "flows", 4, "number of flows N sharing the bottleneck, which sets the conditions' rates")
	fl.BoolVar(&o.JSON, "json", false, "print the nine rows as JSON")
	return c
}
