package main

import (
	"github.com/spf13/cobra"

	"github.com/ccreplay/ccreplay/estimate"
	estcli "github.com/ccreplay/ccreplay/estimate/cli"
)

// newEstimateLinkCmd is `ccreplay estimate link`: what a Slurm task runs.
func newEstimateLinkCmd(f *Factory) *cobra.Command {
	o := &estcli.LinkOptions{}
	c := &cobra.Command{
		Use:   "link DIR (--index I | --list FILE --task T [--chunk K])",
		Short: "Run link simulations of an estimate's link folder (what each Slurm array task runs)",
		Long: `Plans the estimate of the link folder DIR again from its ` + estimate.LinksManifestFile + ` (the same
inputs, which must still give the same link simulations) and runs its link simulation I, or those a
Slurm submission lists for array task T (entries T*K..T*K+K-1 of FILE; the submission's own copy of
the manifest, beside FILE, is read instead of the folder's when there is one), each into
DIR/link=N-HASH (the link network's run folder and ` + estimate.OutcomeFile + `). A link already done is skipped; a failure is
recorded in DIR/` + estimate.LinksStateDir + `/failed and the command exits non-zero after trying every link
of its share.`,
		Example: `  # the link simulations of an estimate kept in a link folder, then link simulation 0 again (done: skipped)
  ccreplay estimate --workload cdf:dist=websearch,hosts=16,bw=100G,load=0.3,duration=50us \
      --topology fattree:pods=2,tors=2,hosts=4,aggs=2,cores=2 --links-dir est.links --out est
  ccreplay estimate link est.links --index 0

  # what a Slurm array task runs:
  #   ccreplay estimate link /shared/est.links --list /shared/est.links/.estimate/slurm/submit-001.list --task "$SLURM_ARRAY_TASK_ID" --chunk 4`,
		Args: usageArgs(cobra.ExactArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			return o.Run(f.estimateEnv(cmd.Context()), args[0])
		},
	}
	c.Flags().IntVar(&o.Index, "index", -1, "the link simulation to run (its place in the link folder's list)")
	c.Flags().StringVar(&o.List, "list", "", "a submission's list of link simulations (one index per line)")
	c.Flags().IntVar(&o.Task, "task", 0, "the array task: runs entries task*chunk .. task*chunk+chunk-1 of --list")
	c.Flags().IntVar(&o.Chunk, "chunk", 1, "link simulations per task")
	return c
}

// newEstimateStatusCmd is `ccreplay estimate status`.
func newEstimateStatusCmd(f *Factory) *cobra.Command {
	o := &estcli.StatusOptions{}
	c := &cobra.Command{
		Use:   "status DIR",
		Short: "Show an estimate's link simulations done, failed, running and pending, from its link folder alone",
		Long: `Reads the link folder DIR (estimate --links-dir, or --slurm's OUT.links) and counts its link
simulations: done (the folder holds a complete link simulation of the link's hash), failed (the last
attempt's error), running (a process is on it) and pending; then lists those not done, failures first.
Exits 0 whatever the states are.`,
		Example: `  ccreplay estimate --workload cdf:dist=websearch,hosts=16,bw=100G,load=0.3,duration=50us \
      --topology fattree:pods=2,tors=2,hosts=4,aggs=2,cores=2 --links-dir est.links --out est
  ccreplay estimate status est.links
  ccreplay estimate status est.links --json`,
		Args: usageArgs(cobra.ExactArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			return o.Run(f.estimateEnv(cmd.Context()), args[0])
		},
	}
	c.Flags().BoolVar(&o.JSON, "json", false, "print the counts and the link simulations not done as JSON")
	c.Flags().IntVar(&o.Limit, "limit", 50, "list at most this many link simulations not done (0 = all)")
	return c
}
