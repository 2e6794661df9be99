package sweep

import (
	"fmt"

	"github.com/ccreplay/ccreplay/internal/clierr"
	"github.com/ccreplay/ccreplay/runfolder"
)

// Errors are clierr's, so the CLI maps them to its exit codes: a bad
// flag value exits 2, a bad input (specification, manifest) 3; a refused
// output folder wraps runfolder.ErrRefused.
var (
	inputErrorf = clierr.Inputf
	flagErrorf  = clierr.Usagef
)

func refusedf(format string, a ...any) error { return &refusal{fmt.Sprintf(format, a...)} }

// refusal is an output folder the sweep may not write into.
type refusal struct{ msg string }

func (r *refusal) Error() string        { return r.msg }
func (r *refusal) Is(target error) bool { return target == runfolder.ErrRefused }
