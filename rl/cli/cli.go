// Package cli is the learning commands (`ccreplay train`, `distill`,
// `eval`, `explain`) as Go calls: each command's flag values as a struct
// (the CLI binds its flags to the fields), their checking into the
// trainers' and evaluators' Options with one-line errors typed by
// internal/clierr (a bad flag value a usage error, a bad file an input
// error), the staged writing of training folders and the text and JSON
// each command prints. The cobra wiring and the help texts stay in
// cmd/ccreplay.
package cli

import (
	"context"
	"errors"
	"strconv"
	"strings"

	"github.com/ccreplay/ccreplay/cca"
	"github.com/ccreplay/ccreplay/internal/clierr"
	"github.com/ccreplay/ccreplay/internal/iostreams"
	"github.com/ccreplay/ccreplay/internal/progress"
	"github.com/ccreplay/ccreplay/units"
)

// Env is what a command's run takes from the command line: its output
// streams (progress and notes on Err only when it is a terminal), its
// context, the status line and the algorithms.
type Env struct {
	iostreams.Streams
	Ctx context.Context
	// Progress is the status line on a terminal (nil: none).
	Progress *progress.Line
	// Registry builds the baselines of the evaluations.
	Registry *cca.Registry
}

// check is one check of the command line: when bad holds, msg is the
// usage error to report.
type check struct {
	bad bool
	msg string
}

// firstUsageError is the first failed check as a usage error (exit 2), or
// nil when every check passes.
func firstUsageError(checks ...check) error {
	for _, c := range checks {
		if c.bad {
			return clierr.Usagef("%s", c.msg)
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
			return nil, clierr.Usagef("--%s: %q is not a %s in 1..%d", flag, p, what, hi)
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

// parseBuffer parses --buffer (a positive size such as 5MB).
func parseBuffer(s string) (units.Bytes, error) {
	b, err := units.ParseSize(s)
	if err != nil || b <= 0 {
		return 0, clierr.Usagef("--buffer: want a positive size such as 5MB, got %q", s)
	}
	return b, nil
}

// parseDuration parses a flag's duration (> 0, or >= 0 when zeroOK).
func parseDuration(flag, s string, zeroOK bool) (units.Time, error) {
	d, err := units.ParseDuration(s)
	if err != nil || d < 0 || (d == 0 && !zeroOK) {
		return 0, clierr.Usagef("--%s: want a positive time such as 10ms, got %q", flag, s)
	}
	return d, nil
}

// flagValues parses flag values one after another and keeps the first
// error: once one fails, the later ones are not parsed and give zero
// values, so a run of them reports what a chain of early returns would.
type flagValues struct{ err error }

// flowList is parseFlowList's list, after no earlier error.
func (p *flagValues) flowList(flag, s string, allowNone bool) []int {
	if p.err != nil {
		return nil
	}
	v, err := parseFlowList(flag, s, allowNone)
	p.err = err
	return v
}

// duration is parseDuration's time, after no earlier error.
func (p *flagValues) duration(flag, s string, zeroOK bool) units.Time {
	if p.err != nil {
		return 0
	}
	v, err := parseDuration(flag, s, zeroOK)
	p.err = err
	return v
}

// interrupted is err, or for a cancelled command (context.Canceled) the
// interruption saying what was left undone: "nothing " + nothing.
func interrupted(err error, nothing string) error {
	if errors.Is(err, context.Canceled) {
		return clierr.Interruptedf("%v; nothing %s", err, nothing)
	}
	return err
}
