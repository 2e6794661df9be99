package main

import (
	"fmt"
	"strings"

	"github.com/ccreplay/ccreplay/internal/clierr"
	"github.com/spf13/cobra"
)

func init() {
	registerCommand(func(f *Factory) *cobra.Command { return NewCmdAlgorithms(f, nil) })
}

// algorithmsOptions are `ccreplay algorithms`' argument and flag.
type algorithmsOptions struct {
	f    *Factory
	Name string // "" lists every algorithm
	JSON bool
}

// NewCmdAlgorithms lists the algorithms, or one algorithm's presets and
// parameters, from the algorithms' own parameter tables (the same tables
// --cca-param is parsed with, so the help cannot go stale); runF, when
// not nil, is called with the parsed options instead of running (tests).
func NewCmdAlgorithms(f *Factory, runF func(*algorithmsOptions) error) *cobra.Command {
	o := &algorithmsOptions{f: f}
	c := &cobra.Command{
		Use:   "algorithms [NAME]",
		Short: "List the congestion control algorithms, or one algorithm's presets and parameters",
		Long: `Without NAME: every algorithm --cca takes, with its presets. With NAME: its
presets (the default marked) and every --cca-param key with its unit, default,
accepted values, description and the values the other presets give it.
docs/PARAMETERS.md is the same information for every algorithm.`,
		Example: `  ccreplay algorithms
  ccreplay algorithms dcqcn
  ccreplay algorithms hpcc --json`,
		Args: usageArgs(cobra.MaximumNArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) > 0 {
				o.Name = args[0]
			}
			return runOr(runF, algorithmsRun, o)
		},
	}
	c.Flags().BoolVar(&o.JSON, "json", false, "print the presets and parameters as JSON")
	return c
}

// algorithmsRun prints the list, or one algorithm's presets and
// parameters.
func algorithmsRun(o *algorithmsOptions) error {
	reg := o.f.registry()
	switch {
	case o.Name == "" && o.JSON:
		return printJSON(o.f, reg.Schemas())
	case o.Name == "":
		fmt.Fprint(o.f.Out, algorithmHelp())
		return nil
	}
	name, _, _ := strings.Cut(o.Name, ":")
	sc, ok := reg.Schema(name)
	if !ok {
		return clierr.Inputf("unknown congestion control %q (known: %s)", name, algorithmNames())
	}
	if o.JSON {
		return printJSON(o.f, sc)
	}
	fmt.Fprint(o.f.Out, reg.ParamHelp(name))
	return nil
}

// printJSON writes v indented to stdout (iostreams.Streams.PrintJSON).
func printJSON(f *Factory, v any) error { return f.ioStreams().PrintJSON(v) }

// presetNote says which preset a run uses and what it is
// (cca.Registry.PresetNote).
func presetNote(spec string) string { return registry().PresetNote(spec) }
