package main

import (
	"encoding/json"
	"fmt"
	"runtime"

	"github.com/spf13/cobra"

	v1 "github.com/ccreplay/ccreplay/schema/v1"
	"github.com/ccreplay/ccreplay/trace"
	"github.com/ccreplay/ccreplay/version"
)

func newVersionCmd(s *streams) *cobra.Command {
	var asJSON bool
	c := &cobra.Command{
		Use:     "version",
		Short:   "Print ccreplay's version and the schema versions it writes",
		Example: "  ccreplay version\n  ccreplay version --json",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			v := map[string]string{
				"version": version.Version, "output_schema": v1.Version,
				"trace_schema": trace.SchemaVersion, "go": runtime.Version(),
			}
			if asJSON {
				b, _ := json.MarshalIndent(v, "", "  ")
				fmt.Fprintln(s.Out, string(b))
				return nil
			}
			fmt.Fprintf(s.Out, "ccreplay %s (outputs %s, traces %s, %s)\n", v["version"], v["output_schema"], v["trace_schema"], v["go"])
			return nil
		},
	}
	c.Flags().BoolVar(&asJSON, "json", false, "print as JSON")
	return c
}
