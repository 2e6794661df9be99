package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/ccreplay/ccreplay/sweep"
)

// BenchmarkSweepPointOverhead measures what a sweep adds to each point
// beyond the run itself: one worker runs N small points (a 2-to-1 incast
// of 10 KB, seeds 1..N) through the sweep (staging, markers, point.json,
// the rename, the state check), and the same N runs are made directly
// into folders with the function the sweep calls. The difference per point
// is reported as overhead-ms/point; run-ms/point is the run alone.
//
//	go test ./cmd/ccreplay -run '^$' -bench SweepPointOverhead -benchtime 1x
func BenchmarkSweepPointOverhead(b *testing.B) {
	const n = 200
	exec := sweepExec(&Factory{})
	for i := 0; i < b.N; i++ {
		root := filepath.Join(b.TempDir(), "sw")
		sp, err := sweep.FromFlags(sweep.Flags{Workload: "incast:n=2,size=10KB", CCA: "dcqcn", Seeds: fmt.Sprintf("1..%d", n)})
		if err != nil {
			b.Fatal(err)
		}
		t0 := time.Now()
		pl, err := sweep.NewPlan(sp)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := pl.Prepare(root); err != nil {
			b.Fatal(err)
		}
		c, err := pl.RunLocal(context.Background(), root, 1, exec, nil)
		if err != nil || c.Done != n {
			b.Fatalf("%+v %v", c, err)
		}
		swept := time.Since(t0)
		direct := filepath.Join(b.TempDir(), "direct")
		t1 := time.Now()
		for j := range pl.Points {
			p := &pl.Points[j]
			dir := filepath.Join(direct, p.Dir)
			if err := os.MkdirAll(dir, 0o755); err != nil {
				b.Fatal(err)
			}
			if err := exec(context.Background(), sp, p.Config(), "bench", dir); err != nil {
				b.Fatal(err)
			}
		}
		alone := time.Since(t1)
		b.ReportMetric(float64(alone.Microseconds())/1e3/n, "run-ms/point")
		b.ReportMetric(float64((swept-alone).Microseconds())/1e3/n, "overhead-ms/point")
	}
}
