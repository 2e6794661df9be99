package main

import (
	"strings"

	"github.com/spf13/cobra"

	"github.com/ccreplay/ccreplay/internal/membudget"
	"github.com/ccreplay/ccreplay/trace/gen"
	gencli "github.com/ccreplay/ccreplay/trace/gen/cli"
)

// genOptions are the flags of `ccreplay gen`.
type genOptions struct {
	f *Factory
	gencli.CommandOptions
}

// NewCmdGen is `ccreplay gen`; runF, when not nil, is called with the
// parsed options instead of running (tests).
func NewCmdGen(f *Factory, runF func(*genOptions) error) *cobra.Command {
	o := &genOptions{f: f}
	c := &cobra.Command{
		Use:   "gen KIND[:key=value,...] -o FILE",
		Short: "Generate a workload trace (MPI all-to-all, VASP-like, datacenter CDFs, incast, ...)",
		Long: "Writes the trace a generator spec describes to FILE (.parquet, .csv or .jsonl by\n" +
			"extension; written to a temporary name and renamed). The same spec works inline\n" +
			"with `ccreplay run --workload`. Generators and their keys:\n\n" + gen.Usage(),
		Example: `  ccreplay gen osu-alltoall:nodes=8,ppn=16,sizes=1..1MiB -o osu16.parquet
  ccreplay gen cdf:dist=websearch,hosts=320,load=0.3,duration=20ms -o ws.parquet
  ccreplay gen cdf:dist=examples/sizes_cdf.txt,conv=step,hosts=16,load=0.5,flows=10000 -o mine.csv
  ccreplay gen incast:n=32,size=20MB,jitter=1ms,dist=gaussian -o incast.jsonl --json`,
		Args: usageArgs(cobra.ExactArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := o.Validate(); err != nil {
				return err
			}
			o.Spec = args[0]
			return runOr(runF, genRun, o)
		},
	}
	c.Flags().StringVarP(&o.Out, "out", "o", "", "output trace file (.parquet, .csv or .jsonl)")
	oldOutputFlag(c.Flags(), &o.Out)
	c.Flags().Uint64Var(&o.Seed, "seed", 1, "random seed")
	c.Flags().BoolVar(&o.JSON, "json", false, "print what was generated as JSON")
	c.Flags().StringVar(&o.MaxMemory, "max-memory", "", strings.Replace(maxMemoryHelp, "a run", "a trace", 1))
	return c
}

// genRun generates the trace, writes it and says what it holds.
func genRun(o *genOptions) error {
	o.MemoryBudget = membudget.Budget
	return o.Run(o.f.ioStreams())
}
