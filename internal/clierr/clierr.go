// Package clierr is the one set of typed errors the command line maps to
// its documented exit codes (README.md, "Exit codes"): a bad command line
// (exit 2), a bad input (exit 3) and an interrupted command (exit 130).
// runconfig, sweep and the commands return them; the CLI's Code reads
// them back, by type and never by message text.
package clierr

import (
	"context"
	"errors"
	"fmt"
)

// The exit codes, as README.md documents them.
const (
	ExitOK       = 0 // success
	ExitFailure  = 1 // the run failed (an invariant broke, an output could not be written)
	ExitUsage    = 2 // bad command line: unknown flag, missing or conflicting arguments
	ExitBadInput = 3 // bad input: trace, topology, workload, config file or parameter
	// ExitInterrupted: SIGINT (Ctrl-C) or SIGTERM stopped the command; it
	// removed its temporary files and left its output folder as it was.
	ExitInterrupted = 130
)

// UsageError is a bad command line: an unknown flag, a missing or
// conflicting argument, a bad value given as a flag (exit 2). The same
// value read from a configuration file is an InputError naming the file.
type UsageError struct{ Err error }

func (e *UsageError) Error() string { return e.Err.Error() }
func (e *UsageError) Unwrap() error { return e.Err }

// InputError is a bad input: a trace, workload, topology, algorithm or
// parameter, or a value in a configuration file (exit 3).
type InputError struct{ Err error }

func (e *InputError) Error() string { return e.Err.Error() }
func (e *InputError) Unwrap() error { return e.Err }

// InterruptedError is a command stopped by SIGINT or SIGTERM (exit 130);
// its message says what was kept. errors.Is(err, context.Canceled) holds.
type InterruptedError struct{ Msg string }

func (e *InterruptedError) Error() string { return e.Msg }
func (e *InterruptedError) Unwrap() error { return context.Canceled }

// Usage marks err as a usage error (nil stays nil).
func Usage(err error) error {
	if err == nil {
		return nil
	}
	return &UsageError{err}
}

// Usagef is a usage error formatted as fmt.Errorf formats.
func Usagef(format string, a ...any) error { return &UsageError{fmt.Errorf(format, a...)} }

// Input marks err as an input error (nil stays nil).
func Input(err error) error {
	if err == nil {
		return nil
	}
	return &InputError{err}
}

// Inputf is an input error formatted as fmt.Errorf formats.
func Inputf(format string, a ...any) error { return &InputError{fmt.Errorf(format, a...)} }

// Interruptedf is an interrupted command's error; the message says what
// was kept.
func Interruptedf(format string, a ...any) error {
	return &InterruptedError{fmt.Sprintf(format, a...)}
}

// Code is the exit code of err: 0 for nil, 130 for a cancelled context
// (an interrupt), 2 for a usage error, 3 for an input error (or any error
// for which badInput says so), 1 otherwise. When one error wraps several
// kinds, an interrupt wins over a usage error, and that over an input error.
func Code(err error, badInput ...error) int {
	var ue *UsageError
	var ie *InputError
	switch {
	case err == nil:
		return ExitOK
	case errors.Is(err, context.Canceled):
		return ExitInterrupted
	case errors.As(err, &ue):
		return ExitUsage
	case errors.As(err, &ie):
		return ExitBadInput
	}
	for _, b := range badInput {
		if errors.Is(err, b) {
			return ExitBadInput
		}
	}
	return ExitFailure
}
