package main

import (
	"context"
	"strings"

	"github.com/ccreplay/ccreplay/internal/clierr"
	"github.com/spf13/cobra"

	"github.com/spf13/pflag"
)

type pflagFlag = pflag.Flag

// usageArgs wraps a cobra argument validator so that its errors are
// usage errors (exit 2) by type, not recognised by their text.
func usageArgs(v cobra.PositionalArgs) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if err := v(cmd, args); err != nil {
			return clierr.Usage(err)
		}
		return nil
	}
}

// learnerGroupCmd is a verb whose only argument is the learned algorithm it
// acts on (`ccreplay train rlcc`, `distill rlcc`, ...): run bare, it says
// which names it takes (exit 2).
func learnerGroupCmd(use, short, verb string, children ...*cobra.Command) *cobra.Command {
	c := &cobra.Command{
		Use:   use,
		Short: short,
		Args:  usageArgs(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, args []string) error {
			names := make([]string, len(children))
			for i, ch := range children {
				names[i] = ch.Name()
			}
			return usageErrorf("name what to %s: ccreplay %s %s", verb, use, strings.Join(names, "|"))
		},
	}
	c.AddCommand(children...)
	return c
}

// oldOutputFlag keeps --output, the name some commands used before every
// command took --out/-o, working as a hidden alias that says it is
// deprecated.
func oldOutputFlag(f *pflag.FlagSet, dst *string) {
	f.StringVar(dst, "output", "", "")
	f.MarkDeprecated("output", "use --out (or -o)")
}

// commandContext is the command's context, or context.Background when it
// was executed without one.
func commandContext(cmd *cobra.Command) context.Context {
	if ctx := cmd.Context(); ctx != nil {
		return ctx
	}
	return context.Background()
}

// givenFlags names the flags given on the command line.
func givenFlags(cmd *cobra.Command) map[string]bool {
	set := map[string]bool{}
	cmd.Flags().Visit(func(fl *pflagFlag) { set[fl.Name] = true })
	return set
}

// runOr ends a command's RunE: it calls runF with the parsed options o
// when runF is not nil (a test keeping them), and run otherwise.
func runOr[O any](runF, run func(O) error, o O) error {
	if runF != nil {
		return runF(o)
	}
	return run(o)
}
