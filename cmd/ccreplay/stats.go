package main

import (
	"github.com/ccreplay/ccreplay/internal/procstat"
	"github.com/ccreplay/ccreplay/internal/runstats"
)

// The --stats figures under the names the commands call: the process's
// peak resident memory (estimate) and a run's line (run).
var (
	peakRSS    = procstat.PeakRSS
	printStats = runstats.Write
)
