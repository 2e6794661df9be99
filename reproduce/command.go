package reproduce

import (
	"context"
	"errors"
	"fmt"

	"github.com/ccreplay/ccreplay/cca"
	"github.com/ccreplay/ccreplay/internal/clierr"
	"github.com/ccreplay/ccreplay/internal/iostreams"
	"github.com/ccreplay/ccreplay/plot"
	"github.com/ccreplay/ccreplay/replay"
	"github.com/ccreplay/ccreplay/runfolder"
)

// CommandOptions are the arguments and flags of `ccreplay reproduce` (and
// of `ccreplay eval fdcc`, which is a reproduction with other parameters).
type CommandOptions struct {
	// List lists the experiments instead of running one.
	List bool
	// Name is the experiment; OutGiven says whether --out was given (else
	// Out is reproduce-NAME-SCALE).
	Name     string
	OutGiven bool
	// Scale (small or full), Out, Force and Parallel (runs at once) are
	// Options'; Figures is the --figure flag (plot.ParseFigureFormats).
	Scale    string
	Out      string
	Force    bool
	Parallel int
	Figures  string
	// JSON prints the report (or the list) as JSON.
	JSON bool
	// MaxMemory is --max-memory as given ("": the machine's memory);
	// CheckMemory (nil: no check) refuses the runs whose parallel largest
	// estimates exceed it together (Options.CheckMemory).
	MaxMemory   string
	CheckMemory func(flag string, each []replay.MemoryEstimate, parallel int) error
	// Params are Options.CCAParams (eval fdcc's --policy).
	Params map[string]map[string]string
	// Registry builds the algorithms.
	Registry *cca.Registry
	// Progress shows a status line (nil: none); ClearProgress erases it.
	Progress      func(text string)
	ClearProgress func()
}

// Run lists the experiments or runs the one named, and prints the list or
// the report on s.Out.
func (o *CommandOptions) Run(ctx context.Context, s iostreams.Streams) error {
	if o.List {
		if o.JSON {
			return s.PrintJSON(List())
		}
		return WriteList(s.Out, List())
	}
	e, opt, err := o.options()
	if err != nil {
		return err
	}
	rep, err := Execute(ctx, e, opt)
	if o.ClearProgress != nil {
		o.ClearProgress()
	}
	switch {
	case errors.Is(err, runfolder.ErrRefused):
		return clierr.Usage(err)
	case errors.Is(err, context.Canceled):
		return clierr.Interruptedf("interrupted; nothing written, %s left as it was", o.Out)
	case err != nil:
		return err
	}
	rep.Out = o.Out
	if o.JSON {
		return s.PrintJSON(rep)
	}
	return rep.WriteText(s.Out)
}

// options checks the flags (usage errors) and turns them into the
// experiment and its Options.
func (o *CommandOptions) options() (*Experiment, Options, error) {
	e, err := Lookup(o.Name)
	if err != nil {
		return nil, Options{}, clierr.Usage(err)
	}
	scale, err := ParseScale(o.Scale)
	if err != nil {
		return nil, Options{}, clierr.Usagef("--scale: %v", err)
	}
	if o.Parallel < 1 {
		return nil, Options{}, clierr.Usagef("--parallel must be >= 1, got %d", o.Parallel)
	}
	figs, err := plot.ParseFigureFormats(o.Figures)
	if err != nil {
		return nil, Options{}, err
	}
	if !o.OutGiven {
		o.Out = fmt.Sprintf("reproduce-%s-%s", e.Name, scale)
	}
	opt := Options{Scale: scale, Out: o.Out, Force: o.Force, Parallel: o.Parallel, Registry: o.Registry, Figures: figs, CCAParams: o.Params}
	if o.CheckMemory != nil {
		opt.CheckMemory = func(each []replay.MemoryEstimate, parallel int) error {
			return o.CheckMemory(o.MaxMemory, each, parallel)
		}
	}
	if o.Progress != nil {
		opt.Progress = func(done, total int) {
			o.Progress(fmt.Sprintf("reproduce %s: %d/%d simulations done", e.Name, done, total))
		}
	}
	return e, opt, nil
}
