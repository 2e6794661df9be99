package main

import (
	"strconv"
	"strings"

	"github.com/ccreplay/ccreplay/units"
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

// parseFlowList parses many-to-one flow counts in 1..8192 ("64,512"), or
// "none" when allowNone.
func parseFlowList(flag, s string, allowNone bool) ([]int, error) {
	if allowNone && strings.TrimSpace(s) == "none" {
		return nil, nil
	}
	return parseCounts(flag, s, "flow count", 8192)
}

// parseBufferFlag parses --buffer (a positive size such as 5MB).
func parseBufferFlag(s string) (units.Bytes, error) {
	b, err := units.ParseSize(s)
	if err != nil || b <= 0 {
		return 0, usageErrorf("--buffer: want a positive size such as 5MB, got %q", s)
	}
	return b, nil
}

// parseDurationFlag parses a flag's duration (> 0, or >= 0 when zeroOK).
func parseDurationFlag(flag, s string, zeroOK bool) (units.Time, error) {
	d, err := units.ParseDuration(s)
	if err != nil || d < 0 || (d == 0 && !zeroOK) {
		return 0, usageErrorf("--%s: want a positive time such as 10ms, got %q", flag, s)
	}
	return d, nil
}
