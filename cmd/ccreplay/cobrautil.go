package main

import (
	"strings"

	"github.com/spf13/cobra"

	"github.com/spf13/pflag"
)

type pflagFlag = pflag.Flag

// isCobraUsage recognises cobra's own command-line errors.
func isCobraUsage(err error) bool {
	m := err.Error()
	for _, p := range []string{"unknown command", "unknown flag", "unknown shorthand", "accepts ", "requires ", "invalid argument", "flag needs an argument"} {
		if strings.Contains(m, p) {
			return true
		}
	}
	return false
}

// learnerGroupCmd is a verb whose only argument is the learned algorithm it
// acts on (`ccreplay train rlcc`, `distill rlcc`, ...): run bare, it says
// which names it takes (exit 2).
func learnerGroupCmd(use, short, verb string, children ...*cobra.Command) *cobra.Command {
	c := &cobra.Command{
		Use:   use,
		Short: short,
		Args:  cobra.NoArgs,
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
