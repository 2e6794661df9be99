package main

import "github.com/ccreplay/ccreplay/internal/membudget"

// The --max-memory check (internal/membudget) under the names run's and
// compare's files call.
const maxMemoryHelp = membudget.FlagHelp

var checkMemory = membudget.Check
