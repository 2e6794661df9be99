// Package cli is `ccreplay gen` as a Go call: the output file checked
// (CommandOptions.Validate), the generator's trace built within the
// memory budget (refused before it is built when it cannot fit, with the
// estimate), written, and described as text or JSON.
package cli

import (
	"errors"
	"path/filepath"
	"strings"

	"github.com/ccreplay/ccreplay/internal/clierr"
	"github.com/ccreplay/ccreplay/internal/iostreams"
	"github.com/ccreplay/ccreplay/replay"
	"github.com/ccreplay/ccreplay/trace"
	"github.com/ccreplay/ccreplay/trace/gen"
)

// CommandOptions are the arguments and flags of `ccreplay gen`.
type CommandOptions struct {
	// Spec is the generator spec, KIND:key=value,...
	Spec string
	// Out is the trace file (.parquet, .csv or .jsonl).
	Out string
	// Seed seeds the generator.
	Seed uint64
	// JSON prints what was generated as JSON.
	JSON bool
	// MaxMemory is --max-memory as given ("": the machine's memory).
	MaxMemory string
	// MemoryBudget turns MaxMemory into bytes (0: no check) and the words
	// naming the budget in an error ("--max-memory 8GB"); a bad value is
	// its error.
	MemoryBudget func(flag string) (int64, string, error)
}

// Validate checks the output file's name (usage errors).
func (o *CommandOptions) Validate() error {
	switch strings.ToLower(filepath.Ext(o.Out)) {
	case ".parquet", ".csv", ".jsonl":
	case "":
		return clierr.Usagef("give the output file: -o FILE (.parquet, .csv or .jsonl)")
	default:
		return clierr.Usagef("-o %s: unknown trace format %q (want .parquet, .csv or .jsonl)", o.Out, filepath.Ext(o.Out))
	}
	return nil
}

// Run generates the trace, writes it to Out and says what it holds on
// s.Out. A spec whose trace cannot fit the memory budget is refused
// before it is built (docs/LIMITS.md, "Memory"), as an input error.
func (o *CommandOptions) Run(s iostreams.Streams) error {
	budget, what, err := o.MemoryBudget(o.MaxMemory)
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
		return clierr.Inputf("gen: %s: the trace needs about %s: %.0f messages x %d B + %s, more than %s; give fewer flows or a shorter duration, or --max-memory (docs/LIMITS.md, \"Memory\")",
			many.Generator, replay.FormatMemory(need), many.Messages, gen.MemPerMessage, replay.FormatMemory(replay.MemBase), what)
	}
	if err != nil {
		return clierr.Inputf("%v", err)
	}
	if err := trace.WriteFile(o.Out, tr); err != nil {
		return err
	}
	r := gen.NewReport(o.Spec, o.Out, o.Seed, tr, st)
	if o.JSON {
		return s.PrintJSON(r)
	}
	r.WriteText(s.Out)
	return nil
}
