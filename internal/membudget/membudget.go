// Package membudget is the --max-memory check of the commands that replay
// or generate a workload: the budget a flag gives (or the machine's
// memory), and the refusal, in one line with the estimate, of a run that
// would need more.
package membudget

import (
	"cmp"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/ccreplay/ccreplay/internal/clierr"
	"github.com/ccreplay/ccreplay/replay"
	"github.com/ccreplay/ccreplay/topology"
	"github.com/ccreplay/ccreplay/trace"
	"github.com/ccreplay/ccreplay/units"
)

// FlagHelp is the --max-memory flag's help.
const FlagHelp = "refuse a run whose estimated peak memory is above this size (e.g. 8GB; 0: no check; default: the machine's memory, or its cgroup's limit)"

// Budget is the --max-memory value in bytes and how to name it: flag as
// given, or the machine's memory when flag is empty; 0 means no check. A
// size that does not parse is a usage error.
func Budget(flag string) (int64, string, error) {
	if flag == "" {
		m := MachineMemory()
		return m, "the machine's memory", nil
	}
	b, err := units.ParseSize(flag)
	if err != nil {
		return 0, "", clierr.Usagef("--max-memory: %v", err)
	}
	return int64(b), "--max-memory " + flag, nil
}

// Check refuses, as a bad input naming the estimate, a replay of tr on
// topo that would need more than the budget of flag (times runs, the
// replays held at once).
func Check(flag string, topo *topology.Topology, tr *trace.Trace, runs int) error {
	budget, what, err := Budget(flag)
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
	return clierr.Inputf("the run needs %s%s, more than %s; give a smaller workload or network, or --max-memory (docs/LIMITS.md, \"Memory\")",
		e, at, named(flag, what, budget))
}

// CheckRuns refuses, as a bad input naming the estimates, a batch of runs
// (each their replay.EstimateMemory) of which the parallel largest, held
// at once, would need more than the budget of flag together.
func CheckRuns(flag string, each []replay.MemoryEstimate, parallel int) error {
	budget, what, err := Budget(flag)
	if err != nil || budget <= 0 || len(each) == 0 {
		return err
	}
	big := slices.SortedFunc(slices.Values(each), func(a, b replay.MemoryEstimate) int { return cmp.Compare(b.Bytes, a.Bytes) })
	big = big[:min(max(parallel, 1), len(big))]
	var need int64
	for _, e := range big {
		need += e.Bytes
	}
	if need <= budget {
		return nil
	}
	at := ""
	if len(big) > 1 {
		at = fmt.Sprintf("; the %d largest held at once (--parallel %d) need about %s", len(big), parallel, replay.FormatMemory(need))
	}
	return clierr.Inputf("the largest run needs %s%s, more than %s; give a smaller --parallel or --scale, or --max-memory (docs/LIMITS.md, \"Memory\")",
		big[0], at, named(flag, what, budget))
}

// named is the budget's name in a refusal: with no flag, the machine's
// memory and its size.
func named(flag, what string, budget int64) string {
	if flag == "" {
		what += " (" + replay.FormatMemory(budget) + ")"
	}
	return what
}

// MachineMemory is the memory this process may use: the smaller of the
// physical memory (/proc/meminfo MemTotal) and the cgroup v2 limit
// (memory.max), 0 when neither can be read (then nothing is refused).
func MachineMemory() int64 {
	var m int64
	if b, err := os.ReadFile("/proc/meminfo"); err == nil {
		m = memTotal(string(b))
	}
	if b, err := os.ReadFile("/sys/fs/cgroup/memory.max"); err == nil {
		if v, err := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64); err == nil && v > 0 && (m == 0 || v < m) {
			m = v
		}
	}
	return m
}

// memTotal is the MemTotal line of /proc/meminfo in bytes, 0 without one.
func memTotal(meminfo string) int64 {
	var m int64
	for _, line := range strings.Split(meminfo, "\n") {
		if rest, ok := strings.CutPrefix(line, "MemTotal:"); ok {
			f := strings.Fields(rest)
			if len(f) == 2 && f[1] == "kB" {
				if v, err := strconv.ParseInt(f[0], 10, 64); err == nil {
					m = v * 1024
				}
			}
		}
	}
	return m
}
