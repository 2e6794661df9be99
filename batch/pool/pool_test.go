package pool

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync/atomic"
	"testing"
	"time"
)

// Every job runs exactly once and never more than Parallel at a time.
func TestRunBoundsParallelism(t *testing.T) {
	for _, par := range []int{0, 1, 3, 64} {
		var running, peak atomic.Int32
		ran := make([]atomic.Int32, 50)
		err := Run(context.Background(), 50, Options{Parallel: par}, func(ctx context.Context, i int) error {
			r := running.Add(1)
			for {
				p := peak.Load()
				if r <= p || peak.CompareAndSwap(p, r) {
					break
				}
			}
			time.Sleep(time.Millisecond)
			running.Add(-1)
			ran[i].Add(1)
			return nil
		})
		if err != nil || int(peak.Load()) > max(par, 1) {
			t.Fatalf("parallel %d: err %v, peak %d", par, err, peak.Load())
		}
		for i := range ran {
			if ran[i].Load() != 1 {
				t.Fatalf("parallel %d: job %d ran %d times", par, i, ran[i].Load())
			}
		}
	}
}

// Results gathered by index and the error reported are the same whatever
// the parallelism and the order jobs finish in: the lowest-indexed
// failure, not the first to happen.
func TestRunDeterministicForAnyParallelism(t *testing.T) {
	var want []int
	var wantErr string
	for _, par := range []int{1, 2, 5, 40} {
		out := make([]int, 40)
		err := Run(context.Background(), 40, Options{Parallel: par, KeepGoing: true}, func(ctx context.Context, i int) error {
			time.Sleep(time.Duration((40-i)%7) * 100 * time.Microsecond) // later jobs finish first
			out[i] = i * i
			if i == 11 || i == 29 {
				return fmt.Errorf("job %d failed", i)
			}
			return nil
		})
		if err == nil {
			t.Fatalf("parallel %d: no error", par)
		}
		if want == nil {
			want, wantErr = out, err.Error()
			continue
		}
		if !slices.Equal(out, want) || err.Error() != wantErr {
			t.Fatalf("parallel %d: results %v err %q, with parallel 1 %v %q", par, out, err, want, wantErr)
		}
	}
	if wantErr != "job 11 failed" {
		t.Fatalf("error %q, want the lowest index's", wantErr)
	}
}

// Failing fast: the first failure cancels the running jobs, no job starts
// after it, and Run reports the failure, not the cancellations it caused.
func TestRunFailFast(t *testing.T) {
	boom := errors.New("boom")
	var started atomic.Int32
	errs := RunAll(context.Background(), 100, Options{Parallel: 2}, func(ctx context.Context, i int) error {
		started.Add(1)
		if i == 3 {
			return boom
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(20 * time.Millisecond):
			return nil
		}
	})
	if !errors.Is(errs[3], boom) {
		t.Fatalf("job 3: %v, want boom", errs[3])
	}
	if n := started.Load(); n > 10 {
		t.Errorf("%d jobs started after the failure", n)
	}
	if !errors.Is(errs[99], context.Canceled) {
		t.Errorf("job 99 never ran but its error is %v", errs[99])
	}
	if err := Run(context.Background(), 10, Options{Parallel: 3}, func(ctx context.Context, i int) error {
		if i == 0 {
			time.Sleep(5 * time.Millisecond)
			return boom
		}
		<-ctx.Done()
		return ctx.Err()
	}); !errors.Is(err, boom) {
		t.Fatalf("Run = %v, want boom over the cancellations", err)
	}
}

// Keeping going: a failed job does not lose the others; every job runs
// and each keeps its own outcome.
func TestRunKeepGoing(t *testing.T) {
	var last Counts
	errs := RunAll(context.Background(), 30, Options{Parallel: 4, KeepGoing: true, Progress: func(c Counts) { last = c }},
		func(ctx context.Context, i int) error {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			if i%5 == 0 {
				return fmt.Errorf("job %d", i)
			}
			return nil
		})
	for i, err := range errs {
		if (i%5 == 0) != (err != nil) {
			t.Fatalf("job %d: %v", i, err)
		}
	}
	if last != (Counts{Done: 24, Failed: 6, Total: 30}) {
		t.Fatalf("last progress %+v", last)
	}
}

// A cancelled parent context stops the pool; Run says so, and jobs not
// started carry the cancellation.
func TestRunParentCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(20*time.Millisecond, cancel)
	var progressed atomic.Int32
	err := Run(ctx, 20, Options{Parallel: 2, KeepGoing: true, Progress: func(Counts) { progressed.Add(1) }},
		func(ctx context.Context, i int) error {
			if i < 4 {
				return nil
			}
			<-ctx.Done()
			return ctx.Err()
		})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if progressed.Load() == 0 {
		t.Fatal("no progress told")
	}
}

// No jobs: nothing runs, no error.
func TestRunEmpty(t *testing.T) {
	if err := Run(context.Background(), 0, Options{}, nil); err != nil {
		t.Fatal(err)
	}
}
