package main

import (
	"fmt"
	"runtime"

	"github.com/spf13/cobra"

	v2 "github.com/ccreplay/ccreplay/schema/v2"
	"github.com/ccreplay/ccreplay/trace"
	"github.com/ccreplay/ccreplay/version"
)

// versionOptions are `ccreplay version`'s flag.
type versionOptions struct {
	f    *Factory
	JSON bool
}

// NewCmdVersion is `ccreplay version`; runF, when not nil, is called with
// the parsed options instead of running (tests).
func NewCmdVersion(f *Factory, runF func(*versionOptions) error) *cobra.Command {
	o := &versionOptions{f: f}
	c := &cobra.Command{
		Use:     "version",
		Short:   "Print ccreplay's version and the schema versions it writes",
		Example: "  ccreplay version\n  ccreplay version --json",
		Args:    usageArgs(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runOr(runF, versionRun, o)
		},
	}
	c.Flags().BoolVar(&o.JSON, "json", false, "print as JSON")
	return c
}

// versionRun prints the versions.
func versionRun(o *versionOptions) error {
	v := struct {
		Version      string `json:"version"`
		OutputSchema string `json:"output_schema"`
		TraceSchema  string `json:"trace_schema"`
		Go           string `json:"go"`
		version.Build
	}{version.Version, v2.Version, trace.SchemaVersion, runtime.Version(), version.Info()}
	if o.JSON {
		return printJSON(o.f, v)
	}
	fmt.Fprintf(o.f.Out, "ccreplay %s (outputs %s, traces %s, %s)\n", version.String(), v.OutputSchema, v.TraceSchema, v.Go)
	return nil
}
