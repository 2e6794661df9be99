package membudget

import (
	"strings"
	"testing"

	"github.com/ccreplay/ccreplay/internal/clierr"
	"github.com/ccreplay/ccreplay/replay"
	"github.com/ccreplay/ccreplay/topology"
	"github.com/ccreplay/ccreplay/trace"
)

// /proc/meminfo's MemTotal is in KiB; a line in another unit, or none,
// is no figure (then nothing is refused).
func TestMemTotal(t *testing.T) {
	for in, want := range map[string]int64{
		"MemTotal:       16318408 kB\nMemFree: 1 kB\n": 16318408 * 1024,
		"MemFree:        1 kB\n":                       0,
		"MemTotal:       16318408 MB\n":                0,
	} {
		if got := memTotal(in); got != want {
			t.Errorf("memTotal(%q) = %d, want %d", in, got, want)
		}
	}
}

// A size given is the budget, named by the flag; "0" checks nothing; a
// size that does not parse is a usage error (exit 2).
func TestBudget(t *testing.T) {
	b, what, err := Budget("8GB")
	if err != nil || b != 8e9 || what != "--max-memory 8GB" {
		t.Errorf("Budget(8GB) = %d, %q, %v", b, what, err)
	}
	if b, _, err := Budget("0"); err != nil || b != 0 {
		t.Errorf("Budget(0) = %d, %v", b, err)
	}
	if _, _, err := Budget("lots"); clierr.Code(err) != clierr.ExitUsage {
		t.Errorf("Budget(lots): %v, want a usage error", err)
	}
}

// A run needing more than the budget is refused as a bad input (exit 3)
// naming the estimate (replay.EstimateMemory) and, with several at once,
// their product; within the budget, or with no budget, it passes.
func TestCheck(t *testing.T) {
	topo, err := topology.Parse("star:hosts=4", 1)
	if err != nil {
		t.Fatal(err)
	}
	tr := &trace.Trace{}
	e := replay.EstimateMemory(topo, tr)
	if err := Check("0", topo, tr, 8); err != nil {
		t.Errorf("no budget: %v", err)
	}
	if err := Check("512GB", topo, tr, 1); err != nil {
		t.Errorf("within 512 GB: %v", err)
	}
	err = Check("1KB", topo, tr, 3)
	if clierr.Code(err) != clierr.ExitBadInput || !strings.Contains(err.Error(), e.String()) ||
		!strings.Contains(err.Error(), "x 3 runs at once = "+replay.FormatMemory(3*e.Bytes)) ||
		!strings.Contains(err.Error(), "more than --max-memory 1KB") {
		t.Errorf("over budget: %v", err)
	}
}

// A batch of runs is refused when the --parallel largest of their
// estimates (replay.EstimateMemory), held at once, add up to more than
// the budget, named with the largest and the sum; the smaller ones and
// the order given do not count.
func TestCheckRuns(t *testing.T) {
	mb := func(n int64) replay.MemoryEstimate { return replay.MemoryEstimate{Bytes: n * 1e6} }
	each := []replay.MemoryEstimate{mb(10), mb(100), mb(1), mb(50)}
	if err := CheckRuns("0", each, 4); err != nil {
		t.Errorf("no budget: %v", err)
	}
	if err := CheckRuns("150MB", each, 2); err != nil {
		t.Errorf("100 + 50 MB within 150 MB: %v", err)
	}
	if err := CheckRuns("100MB", each, 1); err != nil {
		t.Errorf("one at once, 100 MB within 100 MB: %v", err)
	}
	if err := CheckRuns("1KB", nil, 4); err != nil {
		t.Errorf("no runs: %v", err)
	}
	err := CheckRuns("150MB", each, 3)
	if clierr.Code(err) != clierr.ExitBadInput || strings.Contains(err.Error(), "\n") ||
		!strings.Contains(err.Error(), "the largest run needs "+mb(100).String()) ||
		!strings.Contains(err.Error(), "the 3 largest held at once (--parallel 3) need about 160 MB") ||
		!strings.Contains(err.Error(), "more than --max-memory 150MB") {
		t.Errorf("100 + 50 + 10 MB over 150 MB: %v", err)
	}
	err = CheckRuns("99MB", each, 1)
	if clierr.Code(err) != clierr.ExitBadInput || strings.Contains(err.Error(), "held at once") ||
		!strings.Contains(err.Error(), "the largest run needs "+mb(100).String()+", more than --max-memory 99MB") {
		t.Errorf("100 MB alone over 99 MB: %v", err)
	}
	if err := CheckRuns("lots", each, 1); clierr.Code(err) != clierr.ExitUsage {
		t.Errorf("CheckRuns(lots): %v, want a usage error", err)
	}
}
