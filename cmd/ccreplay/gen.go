package main

import (
	"errors"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/ccreplay/ccreplay/replay"
	"github.com/ccreplay/ccreplay/trace"
	"github.com/ccreplay/ccreplay/trace/gen"
)

// genOptions are the flags of `ccreplay gen`.
type genOptions struct {
	f    *Factory
	Spec string
	Out  string
	Seed uint64
	JSON bool
	// MaxMemory is --max-memory (see membudget.go).
	MaxMemory string
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
			switch strings.ToLower(filepath.Ext(o.Out)) {
			case ".parquet", ".csv", ".jsonl":
			case "":
				return usageErrorf("give the output file: -o FILE (.parquet, .csv or .jsonl)")
			default:
				return usageErrorf("-o %s: unknown trace format %q (want .parquet, .csv or .jsonl)", o.Out, filepath.Ext(o.Out))
			}
			o.Spec = args[0]
			if runF != nil {
				return runF(o)
			}
			return genRun(o)
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
	// A spec whose trace cannot fit the memory budget is refused before
	// it is built (docs/LIMITS.md, "Memory").
	budget, what, err := memoryBudget(o.MaxMemory)
	if err != nil {
		return err
	}
	limit := 0
	if budget > 0 {
		limit = int(max(budget-replay.MemBase, gen.MemPerMessage) / gen.MemPerMessage)
	}
	tr, st, err := gen.ParseWithin(o.Spec, int64(o.Seed), limit)
	var many *trace.TooManyMessagesError
	if errors.As(err, &many) {
		if o.MaxMemory == "" {
			what += " (" + replay.FormatMemory(budget) + ")"
		}
		need := replay.MemBase + int64(many.Messages)*gen.MemPerMessage
		return inputErrorf("gen: %s: the trace needs about %s: %.0f messages x %d B + %s, more than %s; give fewer flows or a shorter duration, or --max-memory (docs/LIMITS.md, \"Memory\")",
			many.Generator, replay.FormatMemory(need), many.Messages, gen.MemPerMessage, replay.FormatMemory(replay.MemBase), what)
	}
	if err != nil {
		return inputErrorf("%v", err)
	}
	if err := trace.WriteFile(o.Out, tr); err != nil {
		return err
	}
	r := gen.NewReport(o.Spec, o.Out, o.Seed, tr, st)
	if o.JSON {
		return printJSON(o.f, r)
	}
	r.WriteText(o.f.Out)
	return nil
}
