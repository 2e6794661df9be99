package main

import (
	"strings"

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
