package runconfig

import "fmt"

// InputError is a bad input: a trace, workload, topology, algorithm or
// parameter, or a value in a configuration file. The CLI exits 3 on it.
type InputError struct{ Err error }

func (e *InputError) Error() string { return e.Err.Error() }
func (e *InputError) Unwrap() error { return e.Err }

// FlagError is a bad value given on the command line (the CLI exits 2 on
// it and shows usage); the same value from a configuration file is an
// InputError naming the file.
type FlagError struct{ Err error }

func (e *FlagError) Error() string { return e.Err.Error() }
func (e *FlagError) Unwrap() error { return e.Err }

func inputErrorf(format string, a ...any) error { return &InputError{fmt.Errorf(format, a...)} }
func flagErrorf(format string, a ...any) error  { return &FlagError{fmt.Errorf(format, a...)} }
func inputError(err error) error                { return &InputError{err} }
