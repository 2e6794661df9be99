package main

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/ccreplay/ccreplay/cca"
)

func init() { registerCommand(newAlgorithmsCmd) }

// newAlgorithmsCmd lists the algorithms, or one algorithm's presets and
// parameters, from the algorithms' own parameter tables (the same tables
// --cca-param is parsed with, so the help cannot go stale).
func newAlgorithmsCmd(s *streams) *cobra.Command {
	var asJSON bool
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
			reg := registry()
			if len(args) == 0 {
				if asJSON {
					all := map[string]cca.Schema{}
					for _, n := range reg.Names() {
						if sc, ok := reg.Schema(n); ok {
							all[n] = sc
						}
					}
					return printJSON(s, all)
				}
				fmt.Fprint(s.Out, algorithmHelp())
				return nil
			}
			name, _, _ := strings.Cut(args[0], ":")
			sc, ok := reg.Schema(name)
			if !ok {
				return inputErrorf("unknown congestion control %q (known: %s)", name, algorithmNames())
			}
			if asJSON {
				return printJSON(s, sc)
			}
			fmt.Fprint(s.Out, reg.ParamHelp(name))
			return nil
		},
	}
	c.Flags().BoolVar(&asJSON, "json", false, "print the presets and parameters as JSON")
	return c
}

// printJSON writes v indented to stdout.
func printJSON(s *streams, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	_, err = fmt.Fprintln(s.Out, string(b))
	return err
}

// presetNote says which preset a run uses and what it is, from the
// algorithm's table: "preset hpcc: the HPCC simulator's ...".
func presetNote(spec string) string {
	name, preset, _ := strings.Cut(spec, ":")
	sc, ok := registry().Schema(name)
	if !ok {
		return ""
	}
	for _, p := range sc.Presets {
		if p.Name == preset {
			note := "preset " + preset + ": " + p.Doc
			if preset == sc.Default {
				note += " (the default; `ccreplay algorithms " + name + "` lists the others)"
			}
			return note
		}
	}
	return ""
}
