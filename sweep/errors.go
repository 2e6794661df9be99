package sweep

import (
	"fmt"

	"github.com/ccreplay/ccreplay/runconfig"
	"github.com/ccreplay/ccreplay/schema/v1/runfolder"
)

// Errors are runconfig's, so the CLI maps them to its exit codes: a bad
// flag value exits 2, a bad input (specification, manifest) 3; a refused
// output folder wraps runfolder.ErrRefused.
func inputErrorf(format string, a ...any) error {
	return &runconfig.InputError{Err: fmt.Errorf(format, a...)}
}

func flagErrorf(format string, a ...any) error {
	return &runconfig.FlagError{Err: fmt.Errorf(format, a...)}
}

func refusedf(format string, a ...any) error { return &refusal{fmt.Sprintf(format, a...)} }

// refusal is an output folder the sweep may not write into.
type refusal struct{ msg string }

func (r *refusal) Error() string        { return r.msg }
func (r *refusal) Is(target error) bool { return target == runfolder.ErrRefused }
