package main

import (
	"github.com/spf13/cobra"

	"github.com/ccreplay/ccreplay/rl/cli"
	"github.com/ccreplay/ccreplay/runfolder"
)

// evalFDCCOptions are `ccreplay eval fdcc`'s own flags; the rest are
// reproduce's.
type evalFDCCOptions struct {
	reproduceOptions
	Table  string
	Policy string
}

func newEvalFDCCCmd(s *Factory) *cobra.Command {
	o := &evalFDCCOptions{reproduceOptions: reproduceOptions{s: s}}
	c := &cobra.Command{
		Use:   "fdcc --table 6.1|6.2 [--policy FILE] [--scale small|full] [-o DIR] [--json]",
		Short: "FDCC (Zhang 2023), Table 6.1 or 6.2: FDCC and the baselines on the thesis' incasts, beside the thesis' numbers",
		Long: `Runs FDCC (Zhang 2023)'s incast experiment of Table 6.2 (n-to-1 on the 64-to-64
dumbbell: queue, FCT slowdown, unfair ratio, goodput) or Table 6.1 (n-to-1 on the
two-level fat-tree: goodput) under DCQCN, TIMELY, HPCC, RL-CC and FDCC with the
given policy, and prints each number of the table beside ccreplay's with a
verdict. It is ccreplay reproduce fdcc-table6.1|fdcc-table6.2 with the FDCC
runs' policy replaced by --policy: the run folders, configs/*.yaml,
` + runfolder.ReproductionFile + ` and the figure are written to --out the same way
(docs/REPRODUCTION.md explains the verdicts and the setup).`,
		Example: `  # the shipped policy on Table 6.2's 4- and 16-to-1 incasts
  ccreplay eval fdcc --table 6.2 -o eval-fdcc

  # a policy of your own (here a smoke run of the trainer) on the fat-tree, JSON for scripts
  ccreplay train fdcc --curriculum 2 --episodes-per-stage 2 --duration 1ms --updates 2 --batch 16 -o my-fdcc
  ccreplay eval fdcc --table 6.1 --policy my-fdcc/` + runfolder.PolicyFile + ` -o eval-fdcc-6.1 --json`,
		Args: usageArgs(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, args []string) error {
			name := cli.FDCCTables[o.Table]
			if name == "" {
				return usageErrorf("--table: want 6.1 or 6.2, got %q", o.Table)
			}
			params, err := cli.FDCCPolicyParams(o.Policy)
			if err != nil {
				return err
			}
			o.params = params
			return o.run(cmd.Context(), name, cmd.Flags().Changed("out"))
		},
	}
	f := c.Flags()
	f.StringVar(&o.Table, "table", "6.2", "the table: 6.1 (fat-tree goodput) or 6.2 (dumbbell queue, slowdown, unfairness, goodput)")
	f.StringVar(&o.Policy, "policy", "default", `FDCC policy file (written by ccreplay train fdcc), or "default" (the embedded one)`)
	o.addFlags(f, "the thesis' flow counts", "reproduce-fdcc-table6.N-SCALE", "report")
	return c
}
