package report

import (
	"errors"
	"fmt"

	"github.com/ccreplay/ccreplay/internal/clierr"
	"github.com/ccreplay/ccreplay/internal/iostreams"
)

// CommandOptions are the arguments and flags of `ccreplay report`.
type CommandOptions struct {
	// Dirs are the output folders to report on, as given.
	Dirs []string
	// Out is the HTML file to write (-o).
	Out string
	// JSON prints what was written as JSON instead of one line of text.
	JSON bool
	// Buckets is the slowdown figure's flow-size buckets, count (1..100000).
	Buckets int
	// Generator names the program in the page (Options.Generator).
	Generator string
}

// Run checks the flags, writes the report and says what it holds on s.Out.
// A bad flag is a usage error, an input that is no output folder an input
// error, a file that cannot be written a plain error (exit 1).
func (o *CommandOptions) Run(s iostreams.Streams) error {
	if o.Buckets < 1 || o.Buckets > 100000 {
		return clierr.Usagef("--buckets must be between 1 and 100000, got %d", o.Buckets)
	}
	res, err := Write(o.Out, o.Dirs, Options{Generator: o.Generator, Buckets: o.Buckets})
	if errors.Is(err, ErrWrite) {
		return fmt.Errorf("report: %v", err) // exit 1: the output, not the inputs
	}
	if err != nil {
		return clierr.Inputf("report: %v", err)
	}
	if o.JSON {
		return s.PrintJSON(res)
	}
	_, err = fmt.Fprintf(s.Out, "ccreplay report: wrote %s (%d bytes: %d runs, %d figures, %d tables, %d warnings)\n",
		res.Path, res.Bytes, res.Runs, len(res.Figures), len(res.Tables), len(res.Warnings))
	return err
}
