package scenario

import "github.com/ccreplay/ccreplay/internal/clierr"

// Errors are clierr's: a bad command-line value is a usage error (the CLI
// exits 2), a bad input an input error (exit 3).
var (
	usageErrorf = clierr.Usagef
	inputErrorf = clierr.Inputf
)
