package main

import "github.com/ccreplay/ccreplay/internal/runstats"

// printStats is run's --stats line (internal/runstats) under the name
// run's file calls.
var printStats = runstats.Write
