package pool

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"
)

// Every job runs once, never more than parallel at a time.
func TestRunBoundsParallelism(t *testing.T) {
	var running, peak atomic.Int32
	ran := make([]atomic.Int32, 50)
	err := Run(context.Background(), 50, 3, func(ctx context.Context, i int) error {
		if r := running.Add(1); r > peak.Load() {
			peak.Store(r)
		}
		time.Sleep(time.Millisecond)
		running.Add(-1)
		ran[i].Add(1)
		return nil
	}, nil)
	if err != nil || peak.Load() > 3 {
		t.Fatalf("err %v, peak %d", err, peak.Load())
	}
	for i := range ran {
		if ran[i].Load() != 1 {
			t.Fatalf("job %d ran %d times", i, ran[i].Load())
		}
	}
}

// The first failure cancels the others; Run reports it, not the
// cancellations it caused, and later jobs are not started.
func TestRunFirstFailureCancels(t *testing.T) {
	boom := errors.New("boom")
	var started atomic.Int32
	err := Run(context.Background(), 100, 2, func(ctx context.Context, i int) error {
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
	}, nil)
	if !errors.Is(err, boom) {
		t.Fatalf("err = %v, want boom", err)
	}
	if n := started.Load(); n > 10 {
		t.Errorf("%d jobs started after the failure", n)
	}
}

// A cancelled parent context stops the pool and Run says so.
func TestRunParentCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(20*time.Millisecond, cancel)
	var progressed atomic.Int32
	err := Run(ctx, 20, 2, func(ctx context.Context, i int) error {
		if i < 4 {
			return nil
		}
		<-ctx.Done()
		return ctx.Err()
	}, func(done, failed, total int) { progressed.Add(1) })
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v", err)
	}
	if progressed.Load() == 0 || progressed.Load() > 20 {
		t.Errorf("progress called %d times", progressed.Load())
	}
}
