package main

import (
	"encoding/json"
	"fmt"
	"runtime"

	"github.com/spf13/cobra"

	v2 "github.com/ccreplay/ccreplay/schema/v2"
	"github.com/ccreplay/ccreplay/trace"
	"github.com/ccreplay/ccreplay/version"
)

func newVersionCmd(s *streams) *cobra.Command {
	var asJSON bool
	c := &cobra.Command{
		Use:     "version",
		Short:   "Print ccreplay's version and the schema versions it writes",
		Example: "  ccreplay version\n  ccreplay version --json",
		Args:    usageArgs(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, args []string) error {
			b := version.Info()
			v := struct {
				Version      string `json:"version"`
				OutputSchema string `json:"output_schema"`
				TraceSchema  string `json:"trace_schema"`
				Go           string `json:"go"`
				version.Build
			}{version.Version, v2.Version, trace.SchemaVersion, runtime.Version(), b}
			if asJSON {
				out, _ := json.MarshalIndent(v, "", "  ")
				fmt.Fprintln(s.Out, string(out))
				return nil
			}
			fmt.Fprintf(s.Out, "ccreplay %s (outputs %s, traces %s, %s)\n", version.String(), v.OutputSchema, v.TraceSchema, v.Go)
			return nil
		},
	}
	c.Flags().BoolVar(&asJSON, "json", false, "print as JSON")
	return c
}
