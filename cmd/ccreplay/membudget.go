package main

import (
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/ccreplay/ccreplay/replay"
	"github.com/ccreplay/ccreplay/topology"
	"github.com/ccreplay/ccreplay/trace"
	"github.com/ccreplay/ccreplay/units"
)

// maxMemoryHelp is the --max-memory flag's help.
const maxMemoryHelp = "refuse a run whose estimated peak memory is above this size (e.g. 8GB; 0: no check; default: the machine's memory, or its cgroup's limit)"

// memoryBudget is the --max-memory value in bytes: flag as given, or the
// machine's memory when empty; 0 means no check.
func memoryBudget(flag string) (int64, string, error) {
	if flag == "" {
		m := machineMemory()
		return m, "the machine's memory", nil
	}
	b, err := units.ParseSize(flag)
	if err != nil {
		return 0, "", usageErrorf("--max-memory: %v", err)
	}
	return int64(b), "--max-memory " + flag, nil
}

// checkMemory refuses, in one line with the estimate, a run of tr on topo
// that would need more than the budget (times runs, replays held at once).
func checkMemory(flag string, topo *topology.Topology, tr *trace.Trace, runs int) error {
	budget, what, err := memoryBudget(flag)
	if err != nil || budget <= 0 {
		return err
	}
	e := replay.EstimateMemory(topo, tr)
	need := e.Bytes * int64(max(runs, 1))
	if need <= budget {
		return nil
	}
	at := ""
	if runs > 1 {
		at = fmt.Sprintf(" x %d runs at once = %s", runs, replay.FormatMemory(need))
	}
	if flag == "" {
		what += " (" + replay.FormatMemory(budget) + ")"
	}
	return inputErrorf("the run needs %s%s, more than %s; give a smaller workload or network, or --max-memory (docs/LIMITS.md, \"Memory\")",
		e, at, what)
}

// machineMemory is the memory this process may use: the smaller of the
// physical memory (/proc/meminfo MemTotal) and the cgroup v2 limit
// (memory.max), 0 when neither can be read (then nothing is refused).
func machineMemory() int64 {
	var m int64
	if b, err := os.ReadFile("/proc/meminfo"); err == nil {
		for _, line := range strings.Split(string(b), "\n") {
			if rest, ok := strings.CutPrefix(line, "MemTotal:"); ok {
				f := strings.Fields(rest)
				if len(f) == 2 && f[1] == "kB" {
					if v, err := strconv.ParseInt(f[0], 10, 64); err == nil {
						m = v * 1024
					}
				}
			}
		}
	}
	if b, err := os.ReadFile("/sys/fs/cgroup/memory.max"); err == nil {
		if v, err := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64); err == nil && v > 0 && (m == 0 || v < m) {
			m = v
		}
	}
	return m
}
