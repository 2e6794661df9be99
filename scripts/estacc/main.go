// Command estacc measures an estimate against the packet-level run of the
// same scenario: the p50, p95 and p99 of the slowdown (fct_ns /
// ideal_fct_ns, nearest rank) of both folders' flows, overall and in four
// fixed flow-size buckets (< 10 KB, 10-100 KB, 100 KB-1 MB, > 1 MB; KB =
// 1000 bytes), with the estimate's relative error, as a Markdown table
// (docs/ESTIMATE.md).
//
//	go run ./scripts/estacc -label "DCQCN 30 %" RUN_DIR ESTIMATE_DIR
package main

import (
	"flag"
	"fmt"
	"math"
	"os"
	"slices"

	"github.com/ccreplay/ccreplay/metrics/arrowread"
	"github.com/ccreplay/ccreplay/runfolder"
	v2 "github.com/ccreplay/ccreplay/schema/v2"
)

type bucket struct {
	name   string
	lo, hi int64 // sizes in [lo, hi), bytes
}

var buckets = []bucket{
	{"all", 0, math.MaxInt64},
	{"< 10 KB", 0, 10_000},
	{"10-100 KB", 10_000, 100_000},
	{"100 KB-1 MB", 100_000, 1_000_000},
	{"> 1 MB", 1_000_000, math.MaxInt64},
}

var qs = []float64{0.5, 0.95, 0.99}

func main() {
	label := flag.String("label", "", "scenario label for the first column")
	header := flag.Bool("header", false, "print the table header first")
	flag.Parse()
	if flag.NArg() != 2 {
		fmt.Fprintln(os.Stderr, "usage: estacc [-label L] [-header] RUN_DIR ESTIMATE_DIR")
		os.Exit(2)
	}
	full, err := read(flag.Arg(0))
	if err == nil {
		var est []v2.FlowRow
		if est, err = read(flag.Arg(1)); err == nil {
			print(*label, *header, full, est)
			return
		}
	}
	fmt.Fprintln(os.Stderr, "estacc:", err)
	os.Exit(1)
}

func read(dir string) ([]v2.FlowRow, error) {
	rf, err := runfolder.Open(dir)
	if err != nil {
		return nil, err
	}
	return arrowread.ReadFlows(rf.Path(runfolder.FlowsFile))
}

// slowdowns are the finished flows' slowdowns in b, sorted.
func slowdowns(rows []v2.FlowRow, b bucket) []float64 {
	var s []float64
	for _, r := range rows {
		if r.FCTNs >= 0 && r.SizeBytes >= b.lo && r.SizeBytes < b.hi {
			s = append(s, r.Slowdown)
		}
	}
	slices.Sort(s)
	return s
}

// rank is the nearest-rank percentile (index ceil(p n) - 1).
func rank(s []float64, p float64) float64 {
	if len(s) == 0 {
		return math.NaN()
	}
	return s[max(int(math.Ceil(p*float64(len(s))))-1, 0)]
}

func print(label string, header bool, full, est []v2.FlowRow) {
	if header {
		fmt.Println("| scenario | bucket | flows | p50 run | p50 est | err | p95 run | p95 est | err | p99 run | p99 est | err |")
		fmt.Println("|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|")
	}
	for _, b := range buckets {
		f, e := slowdowns(full, b), slowdowns(est, b)
		fmt.Printf("| %s | %s | %d", label, b.name, len(f))
		for _, q := range qs {
			a, x := rank(f, q), rank(e, q)
			fmt.Printf(" | %.2f | %.2f | %+.1f %%", a, x, (x/a-1)*100)
		}
		fmt.Println(" |")
	}
}
