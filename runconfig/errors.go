package runconfig

import "github.com/ccreplay/ccreplay/internal/clierr"

// Errors are clierr's: a bad value given on the command line is a
// *clierr.UsageError (the CLI exits 2 on it), the same value from a
// configuration file, or any other bad input (trace, workload, topology,
// algorithm, parameter), a *clierr.InputError naming the file (exit 3).
var (
	inputErrorf = clierr.Inputf
	flagErrorf  = clierr.Usagef
	inputError  = clierr.Input
)
