package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/ccreplay/ccreplay/replay"
	"github.com/ccreplay/ccreplay/trace"
	"github.com/ccreplay/ccreplay/trace/gen"
)

// genOptions are the flags of `ccreplay gen`.
type genOptions struct {
	s    *streams
	Out  string
	Seed uint64
	JSON bool
	// MaxMemory is --max-memory (see membudget.go).
	MaxMemory string
}

func newGenCmd(s *streams) *cobra.Command {
	o := &genOptions{s: s}
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
			return o.run(args[0])
		},
	}
	c.Flags().StringVarP(&o.Out, "out", "o", "", "output trace file (.parquet, .csv or .jsonl)")
	oldOutputFlag(c.Flags(), &o.Out)
	c.Flags().Uint64Var(&o.Seed, "seed", 1, "random seed")
	c.Flags().BoolVar(&o.JSON, "json", false, "print what was generated as JSON")
	c.Flags().StringVar(&o.MaxMemory, "max-memory", "", strings.Replace(maxMemoryHelp, "a run", "a trace", 1))
	return c
}

// genReport is what `gen` prints.
type genReport struct {
	Spec          string  `json:"spec"`
	File          string  `json:"file"`
	Seed          uint64  `json:"seed"`
	Hosts         int     `json:"hosts"`
	Ranks         int     `json:"ranks"`
	Messages      int     `json:"messages"`
	Bytes         int64   `json:"bytes"`
	Collectives   int     `json:"collectives"`
	LastReleaseNs int64   `json:"last_release_ns"`
	MeanSizeBytes float64 `json:"mean_size_bytes,omitempty"`
	TargetLoad    float64 `json:"target_load,omitempty"`
	AchievedLoad  float64 `json:"achieved_load,omitempty"`
}

func (o *genOptions) run(spec string) error {
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
	tr, st, err := gen.ParseWithin(spec, int64(o.Seed), limit)
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
	r := genReport{Spec: spec, File: o.Out, Seed: o.Seed, Hosts: tr.Hosts, Ranks: len(tr.Ranks), Messages: len(tr.Messages),
		MeanSizeBytes: st.MeanSize, TargetLoad: st.TargetLoad, AchievedLoad: st.AchievedLoad}
	coll := map[int64]bool{}
	for i := range tr.Messages {
		m := &tr.Messages[i]
		r.Bytes += m.Bytes
		if m.CollectiveID >= 0 {
			coll[m.CollectiveID] = true
		}
		if ns := m.Release.Nanoseconds(); ns > r.LastReleaseNs {
			r.LastReleaseNs = ns
		}
	}
	r.Collectives = len(coll)
	if o.JSON {
		b, _ := json.MarshalIndent(r, "", "  ")
		fmt.Fprintln(o.s.Out, string(b))
		return nil
	}
	fmt.Fprintf(o.s.Out, "wrote %s: %d messages, %d bytes, %d hosts", o.Out, r.Messages, r.Bytes, r.Hosts)
	if r.Ranks > 0 {
		fmt.Fprintf(o.s.Out, ", %d ranks", r.Ranks)
	}
	if r.Collectives > 0 {
		fmt.Fprintf(o.s.Out, ", %d collectives", r.Collectives)
	}
	fmt.Fprintln(o.s.Out)
	if st.MeanSize > 0 {
		fmt.Fprintf(o.s.Out, "mean flow size used %.0f B; target load %.3f, achieved %.3f\n", st.MeanSize, st.TargetLoad, st.AchievedLoad)
	}
	return nil
}
