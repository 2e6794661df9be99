// Package pool runs independent jobs (simulation runs) on a bounded number
// of goroutines: compare and sweeps share it. Jobs are identified by their
// index, so results gathered by index do not depend on the order jobs
// finish in, and the first failure cancels the jobs still running.
package pool

import (
	"context"
	"errors"
	"sync"
)

// Progress is told after every job: how many finished without error, how
// many failed, and the total.
type Progress func(done, failed, total int)

// Run calls job(ctx, i) for i in 0..n-1, at most parallel at a time
// (parallel < 1 means 1). The first job to fail cancels the context the
// others run under, and jobs not yet started are not started. Run returns
// the error of the lowest-indexed job that failed for a reason of its own
// (not the cancellation), else ctx's error when ctx ended before every job
// finished, else nil. progress, when not nil, is called under a lock after
// each job.
func Run(ctx context.Context, n, parallel int, job func(ctx context.Context, i int) error, progress Progress) error {
	if parallel < 1 {
		parallel = 1
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	errs := make([]error, n)
	sem := make(chan struct{}, parallel)
	var wg sync.WaitGroup
	var mu sync.Mutex
	done, failed := 0, 0
	for i := 0; i < n; i++ {
		select {
		case sem <- struct{}{}:
		case <-ctx.Done():
		}
		if ctx.Err() != nil {
			break
		}
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			defer func() { <-sem }()
			err := job(ctx, i)
			mu.Lock()
			defer mu.Unlock()
			errs[i] = err
			if err != nil {
				failed++
				cancel()
			} else {
				done++
			}
			if progress != nil {
				progress(done, failed, n)
			}
		}(i)
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil && !errors.Is(err, context.Canceled) {
			return err
		}
	}
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	if done < n {
		if err := ctx.Err(); err != nil {
			return err
		}
	}
	return nil
}
