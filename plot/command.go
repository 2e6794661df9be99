package plot

import (
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/ccreplay/ccreplay/fidelity"
	"github.com/ccreplay/ccreplay/internal/clierr"
	"github.com/ccreplay/ccreplay/internal/iostreams"
	"github.com/ccreplay/ccreplay/runfolder"
)

// CommandOptions are the arguments and flags of `ccreplay plot`.
type CommandOptions struct {
	// Dirs are the run folders (or trees of them) as given.
	Dirs []string
	// Out is the folder the figures are written into.
	Out string
	// Formats are the image formats (Formats: png, svg).
	Formats []string
	// Views are the views to draw (Views).
	Views []string
	// Bins, TopPorts and TopFlows tune the time views (TimeOptions), counts.
	Bins, TopPorts, TopFlows int
	// Buckets is the slowdown view's flow-size buckets, count.
	Buckets int
	// JSON prints the files written and the views skipped as JSON.
	JSON bool
	// Pool is DrawOptions.Pool: auto, yes or no.
	Pool string
}

// Validate checks the flags (usage errors) before any folder is read.
func (o *CommandOptions) Validate() error {
	for _, f := range o.Formats {
		if !slices.Contains(Formats, f) {
			return clierr.Usagef("--format %q: want png or svg", f)
		}
	}
	if len(o.Formats) == 0 {
		return clierr.Usagef("--format: give png, svg or both")
	}
	for _, v := range o.Views {
		if !slices.Contains(Views, v) {
			return clierr.Usagef("--views %q: want some of %s", v, strings.Join(Views, ", "))
		}
	}
	if len(o.Views) == 0 {
		return clierr.Usagef("--views: give at least one of %s", strings.Join(Views, ", "))
	}
	if !slices.Contains([]string{"auto", "yes", "no"}, o.Pool) {
		return clierr.Usagef("--pool %q: want auto, yes or no", o.Pool)
	}
	for _, n := range []struct {
		name string
		v    int
	}{{"bins", o.Bins}, {"top-ports", o.TopPorts}, {"top-flows", o.TopFlows}, {"buckets", o.Buckets}} {
		if n.v < 1 || n.v > 100000 {
			return clierr.Usagef("--%s must be between 1 and 100000, got %d", n.name, n.v)
		}
	}
	return nil
}

// Run draws the figures of the runs in Dirs into Out and lists them on
// s.Out; progress goes to s.Err when it is a terminal. Every view skipped
// is an input error.
func (o *CommandOptions) Run(s iostreams.Streams) error {
	found, err := runfolder.Expand(o.Dirs)
	if err != nil {
		return clierr.Input(err)
	}
	dirs := runfolder.Dirs(found)
	if s.ErrIsTerminal {
		fmt.Fprintf(s.Err, "plot: reading %d runs\n", len(dirs))
	}
	runs, err := LoadRuns(dirs)
	if err != nil {
		return clierr.Input(err)
	}
	if err := os.MkdirAll(o.Out, 0o755); err != nil {
		return fmt.Errorf("output folder: %w", err)
	}
	opt := DrawOptions{Views: o.Views, Formats: o.Formats, Buckets: o.Buckets, Pool: o.Pool,
		Time: TimeOptions{Bins: o.Bins, TopPorts: o.TopPorts, TopFlows: o.TopFlows}}
	if s.ErrIsTerminal {
		opt.Log = func(v string) { fmt.Fprintf(s.Err, "plot: %s\n", v) }
	}
	rep, err := Draw(runs, dirs, o.Out, opt)
	if err != nil {
		return err
	}
	if o.JSON {
		if err := s.PrintJSON(rep); err != nil {
			return err
		}
	} else {
		o.writeText(s, len(runs), rep)
	}
	if len(rep.Files) == 0 {
		return clierr.Inputf("nothing to plot: every view was skipped")
	}
	return nil
}

// writeText lists the files written, the notes and the views skipped.
func (o *CommandOptions) writeText(s iostreams.Streams, runs int, rep DrawReport) {
	fmt.Fprintf(s.Out, "ccreplay plot: %d runs, %d files in %s\n", runs, len(rep.Files), o.Out)
	for _, f := range rep.Files {
		fmt.Fprintf(s.Out, "  wrote %s\n", f)
	}
	for _, n := range rep.Notes {
		fmt.Fprintf(s.Out, "  note: %s\n", n)
	}
	for _, sk := range rep.Skipped {
		fmt.Fprintf(s.Out, "  skipped %s: %s\n", sk.View, sk.Reason)
	}
}

// WriteFidelityFigures writes the figures of a validate report (Fidelity)
// into dir, created if need be, in every format, and returns the files
// written (`ccreplay validate --plots`).
func WriteFidelityFigures(dir string, rep *fidelity.Report) ([]string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("validate: --plots: %w", err)
	}
	var paths []string
	for _, fig := range Fidelity(rep) {
		p, err := WriteFigure(dir, fig, Formats)
		paths = append(paths, p...)
		if err != nil {
			return paths, fmt.Errorf("validate: %w", err)
		}
	}
	return paths, nil
}

// ParseFigureFormats reads a --figure flag: png, svg, both ("png,svg" in
// either order) or none (nil); anything else is a usage error.
func ParseFigureFormats(s string) ([]string, error) {
	switch s {
	case "none", "":
		return nil, nil
	case "png", "svg":
		return []string{s}, nil
	case "png,svg", "svg,png":
		return []string{"png", "svg"}, nil
	}
	return nil, clierr.Usagef("--figure: want png, svg, png,svg or none, got %q", s)
}
