package main

import "github.com/ccreplay/ccreplay/internal/membudget"

// The --max-memory check (internal/membudget) under the names the
// commands call.
const maxMemoryHelp = membudget.FlagHelp

var (
	memoryBudget  = membudget.Budget
	checkMemory   = membudget.Check
	machineMemory = membudget.MachineMemory
)
