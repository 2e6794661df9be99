package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/ccreplay/ccreplay/internal/clierr"
	"github.com/ccreplay/ccreplay/reproduce"
	"github.com/ccreplay/ccreplay/schema/v1/runfolder"
)

func init() { registerCommand(newReproduceCmd) }

// reproduceOptions are the flags of `ccreplay reproduce`.
type reproduceOptions struct {
	s        *streams
	List     bool
	Scale    string
	Out      string
	Force    bool
	JSON     bool
	Parallel int
	Figures  string
	// params are extra algorithm parameters (eval fdcc's --policy).
	params map[string]map[string]string
}

const reproduceExamples = `  # every experiment, with the paper each comes from
  ccreplay reproduce --list

  # FDCC (Zhang 2023) Table 6.2 at the small scale: the paper's numbers beside ours
  ccreplay reproduce fdcc-table6.2 -o repro/table6.2

  # the paper's own scale, the report as JSON for scripts
  ccreplay reproduce fdcc-table6.2 --scale full -o repro/table6.2-full --json`

func newReproduceCmd(s *streams) *cobra.Command {
	o := &reproduceOptions{s: s}
	c := &cobra.Command{
		Use:   "reproduce NAME [--scale small|full] [-o DIR] [--json] | --list",
		Short: "Rerun a paper's table or figure and set its numbers beside ccreplay's",
		Long: `Runs the setup of one headline table or figure of the papers ccreplay implements
(docs/REPRODUCTION.md lists them with their results) and prints, for every number
the paper reports, the paper's value, ccreplay's, the difference and a verdict:
  reproduces      same direction, size within the factor the experiment states
  same direction  a relative change with the paper's sign but another size
  differs         anything else (docs/REPRODUCTION.md says why, where known)
--scale small (the default) shrinks the setup to run on a laptop in minutes;
--scale full is the paper's own setup. Written to --out, whole or not at all:
  NAME=.../        one run folder per simulation (as ccreplay run writes it)
  configs/*.yaml   each simulation's configuration: ccreplay run --config FILE reruns it
  reproduction.json  the report (--json prints the same)
  reproduction.png   ccreplay / paper for every claim
The exit code is 0 whatever the verdicts: a difference is a result, not an error.`,
		Example: reproduceExamples,
		Args:    usageArgs(cobra.MaximumNArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			if o.List {
				if len(args) > 0 {
					return usageErrorf("--list takes no experiment name")
				}
				return o.list()
			}
			if len(args) == 0 {
				return usageErrorf("name an experiment (ccreplay reproduce --list shows them)")
			}
			return o.run(cmd.Context(), args[0], cmd.Flags().Changed("out"))
		},
	}
	f := c.Flags()
	f.BoolVar(&o.List, "list", false, "list the experiments and exit")
	f.StringVar(&o.Scale, "scale", "small", "small (minutes on a laptop) or full (the paper's setup)")
	f.StringVarP(&o.Out, "out", "o", "", "output folder (default reproduce-NAME-SCALE)")
	f.BoolVar(&o.Force, "force", false, "replace a previous ccreplay output folder at --out")
	f.BoolVar(&o.JSON, "json", false, "print the report (or the list) as JSON")
	f.IntVar(&o.Parallel, "parallel", runtime.GOMAXPROCS(0), "simulations at once")
	f.StringVar(&o.Figures, "figure", "png", "figure formats: png, svg, png,svg or none")
	return c
}

type reproduceListEntry struct {
	Name  string `json:"name"`
	Paper string `json:"paper"`
	Title string `json:"title"`
	Runs  struct {
		Small int `json:"small"`
		Full  int `json:"full"`
	} `json:"runs"`
}

func (o *reproduceOptions) list() error {
	var out []reproduceListEntry
	for _, e := range reproduce.All() {
		en := reproduceListEntry{Name: e.Name, Paper: e.Paper, Title: e.Title}
		en.Runs.Small, en.Runs.Full = len(e.Runs(reproduce.Small)), len(e.Runs(reproduce.Full))
		out = append(out, en)
	}
	if o.JSON {
		enc := json.NewEncoder(o.s.Out)
		enc.SetIndent("", "  ")
		return enc.Encode(out)
	}
	tw := tabwriter.NewWriter(o.s.Out, 2, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tPAPER\tRUNS (small/full)\tWHAT")
	for _, en := range out {
		fmt.Fprintf(tw, "%s\t%s\t%d/%d\t%s\n", en.Name, en.Paper, en.Runs.Small, en.Runs.Full, en.Title)
	}
	return tw.Flush()
}

func (o *reproduceOptions) run(ctx context.Context, name string, outGiven bool) error {
	e, err := reproduce.Lookup(name)
	if err != nil {
		return clierr.Usage(err)
	}
	scale, err := reproduce.ParseScale(o.Scale)
	if err != nil {
		return usageErrorf("--scale: %v", err)
	}
	if o.Parallel < 1 {
		return usageErrorf("--parallel must be >= 1, got %d", o.Parallel)
	}
	figs, err := parseFigureFormats(o.Figures)
	if err != nil {
		return err
	}
	if !outGiven {
		o.Out = fmt.Sprintf("reproduce-%s-%s", e.Name, scale)
	}
	prog := o.s.newProgressLine()
	rep, err := reproduce.Execute(ctx, e, reproduce.Options{
		Scale: scale, Out: o.Out, Force: o.Force, Parallel: o.Parallel, Registry: registry(), Figures: figs, CCAParams: o.params,
		Progress: func(done, total int) {
			prog.set(fmt.Sprintf("reproduce %s: %d/%d simulations done", e.Name, done, total))
		},
	})
	prog.clear()
	switch {
	case errors.Is(err, runfolder.ErrRefused):
		return clierr.Usage(err)
	case errors.Is(err, context.Canceled):
		return interrupted("interrupted; nothing written, %s left as it was", o.Out)
	case err != nil:
		return err
	}
	rep.Out = o.Out
	if o.JSON {
		enc := json.NewEncoder(o.s.Out)
		enc.SetIndent("", "  ")
		return enc.Encode(rep)
	}
	return rep.WriteText(o.s.Out)
}

// parseFigureFormats reads --figure: png, svg, both, or none.
func parseFigureFormats(s string) ([]string, error) {
	switch s {
	case "none", "":
		return nil, nil
	case "png", "svg":
		return []string{s}, nil
	case "png,svg", "svg,png":
		return []string{"png", "svg"}, nil
	}
	return nil, usageErrorf("--figure: want png, svg, png,svg or none, got %q", s)
}
