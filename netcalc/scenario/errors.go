package scenario

import (
	"fmt"

	"github.com/ccreplay/ccreplay/runconfig"
)

// usageErrorf is a bad command-line value (the CLI exits 2).
func usageErrorf(format string, a ...any) error {
	return &runconfig.FlagError{Err: fmt.Errorf(format, a...)}
}

// inputErrorf is a bad input (the CLI exits 3).
func inputErrorf(format string, a ...any) error {
	return &runconfig.InputError{Err: fmt.Errorf(format, a...)}
}
