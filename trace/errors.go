package trace

import (
	"errors"
	"fmt"

	"github.com/ccreplay/ccreplay/limits"
)

// ParseError locates a problem in a trace file: "trace.csv:7: bytes "-5"
// must be >= 0" for line-based formats, "trace.parquet: row 7: ..." for
// Parquet. Errors found by validation after reading wrap a
// *ValidationError, which errors.As finds.
type ParseError struct {
	// File is the path as given to ReadFile, or "" when reading a stream.
	File string
	// Line is the 1-based line number (CSV, JSON Lines), or 0.
	Line int
	// Row is the 1-based row number (Parquet), or 0.
	Row int
	// Err is what is wrong.
	Err error
}

// Error formats e on one line, "file:line: message" or "file: row N:
// message".
func (e *ParseError) Error() string {
	var where string
	switch {
	case e.File != "" && e.Line > 0:
		where = fmt.Sprintf("%s:%d", e.File, e.Line)
	case e.Line > 0:
		where = fmt.Sprintf("line %d", e.Line)
	case e.File != "" && e.Row > 0:
		where = fmt.Sprintf("%s: row %d", e.File, e.Row)
	case e.Row > 0:
		where = fmt.Sprintf("row %d", e.Row)
	default:
		where = e.File
	}
	if where == "" {
		return e.Err.Error()
	}
	return where + ": " + e.Err.Error()
}

// Unwrap returns e.Err.
func (e *ParseError) Unwrap() error { return e.Err }

// locator maps a message index to its place in the file it was read from:
// a line number when lines is set, else a 1-based row number.
type locator struct {
	lines []int // line of each message, for line-based formats
}

// at returns a ParseError positioned at message i.
func (l locator) at(i int, err error) *ParseError {
	if l.lines != nil {
		return &ParseError{Line: l.lines[i], Err: err}
	}
	return &ParseError{Row: i + 1, Err: err}
}

// where names the place of message i inside a message ("line 12").
func (l locator) where(i int) string {
	if l.lines != nil {
		return fmt.Sprintf("line %d", l.lines[i])
	}
	return fmt.Sprintf("row %d", i+1)
}

// finish resolves a host count of 0 and validates a trace just read,
// positioning any error at the offending message's line or row.
func finish(t *Trace, loc locator) (*Trace, error) {
	t.InferHosts()
	if _, err := t.check(loc.where); err != nil {
		if err.Index < 0 {
			return nil, &ParseError{Err: err}
		}
		return nil, loc.at(err.Index, err)
	}
	return t, nil
}

// withFile sets the file name of a *ParseError, or prefixes any other
// error with it.
func withFile(path string, err error) error {
	if err == nil {
		return nil
	}
	var pe *ParseError
	if errors.As(err, &pe) && pe.File == "" {
		pe.File = path
		return err
	}
	return fmt.Errorf("%s: %w", path, err)
}

// lineTooLong turns a *limits.LineError from a line-based reader into a
// *ParseError at its line.
func lineTooLong(err error) error {
	var le *limits.LineError
	if err == nil || !errors.As(err, &le) {
		return err
	}
	return &ParseError{Line: le.Line, Err: fmt.Errorf("the line is longer than %s, the longest a trace line may be (docs/LIMITS.md)",
		limits.SizeString(int64(le.Max)))}
}

// TooManyMessagesError is a generator's refusal of a spec that would make
// more messages than its caller allowed (a memory budget), before anything
// is built.
type TooManyMessagesError struct {
	// Generator is the spec's generator ("cdf", "incast", ...).
	Generator string
	// Messages is the count the spec makes (expected, for random arrivals).
	Messages float64
	// Limit is the count allowed.
	Limit int
}

func (e *TooManyMessagesError) Error() string {
	return fmt.Sprintf("%s: the spec makes about %.0f messages, more than the %d allowed", e.Generator, e.Messages, e.Limit)
}
