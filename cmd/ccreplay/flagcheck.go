package main

import (
	"strconv"
	"strings"
)

// usageCheck is one check of the command line: when bad holds, msg is the
// usage error to report.
type usageCheck struct {
	bad bool
	msg string
}

// firstUsageError is the first failed check as a usage error (exit 2), or
// nil when every check passes.
func firstUsageError(checks ...usageCheck) error {
	for _, c := range checks {
		if c.bad {
			return usageErrorf("%s", c.msg)
		}
	}
	return nil
}

// parseCounts parses a comma-separated list of whole numbers in 1..hi
// given as --flag: `--flag: "x" is not a WHAT in 1..HI`.
func parseCounts(flag, s, what string, hi int) ([]int, error) {
	var out []int
	for _, p := range strings.Split(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(p))
		if err != nil || n < 1 || n > hi {
			return nil, usageErrorf("--%s: %q is not a %s in 1..%d", flag, p, what, hi)
		}
		out = append(out, n)
	}
	return out, nil
}
