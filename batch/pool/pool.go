// Package pool runs independent jobs on a bounded number of goroutines:
// the one pool of ccreplay, under the batch executor (simulation runs of
// compare, reproduce and sweeps) and the trace loaders that read one file
// per rank (DUMPI, Chakra). Jobs are identified by their index, so
// results gathered by index do not depend on the order jobs finish in.
//
// By default the first failure cancels the jobs still running and no
// further job starts (fail fast); with KeepGoing every job runs whatever
// the others do. Either way Run reports the failure of the lowest index,
// so that the error a caller shows does not depend on scheduling.
package pool

import (
	"context"
	"errors"
	"sync"
)

// Counts are the jobs by state, as Progress is told them.
type Counts struct {
	// Done finished without error, Failed with one (cancellations
	// included), Running are under way, Pending not started.
	Done, Failed, Running, Pending int
	// Total is the number of jobs.
	Total int
}

// Options say how Run runs its jobs.
type Options struct {
	// Parallel is the most jobs at a time (< 1 means 1).
	Parallel int
	// KeepGoing runs every job even when some fail; otherwise the first
	// failure cancels the context the others run under and no job starts
	// after it.
	KeepGoing bool
	// Progress, when not nil, is told the counts when a job starts and
	// when it ends, under a lock (calls never overlap).
	Progress func(Counts)
}

// Run calls job(ctx, i) for i in 0..n-1, at most opt.Parallel at a time,
// starting them in index order. It returns the error of the lowest-indexed
// job that failed for a reason of its own (not a cancellation), else the
// lowest-indexed cancellation, else ctx's error when ctx ended before every
// job ran, else nil.
func Run(ctx context.Context, n int, opt Options, job func(ctx context.Context, i int) error) error {
	errs := RunAll(ctx, n, opt, job)
	for _, err := range errs {
		if err != nil && !errors.Is(err, context.Canceled) && !errors.Is(err, context.DeadlineExceeded) {
			return err
		}
	}
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// RunAll is Run returning each job's error by index; a job that never
// started because ctx ended (or, failing fast, because another failed)
// has ctx's error (context.Canceled).
func RunAll(ctx context.Context, n int, opt Options, job func(ctx context.Context, i int) error) []error {
	parallel := max(opt.Parallel, 1)
	runCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	errs := make([]error, n)
	var mu sync.Mutex
	c := Counts{Pending: n, Total: n}
	tell := func() {
		if opt.Progress != nil {
			opt.Progress(c)
		}
	}
	next := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < min(parallel, n); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				if err := runCtx.Err(); err != nil {
					errs[i] = err // handed over as the pool stopped: not started
					continue
				}
				mu.Lock()
				c.Pending--
				c.Running++
				tell()
				mu.Unlock()
				err := job(runCtx, i)
				mu.Lock()
				errs[i] = err
				c.Running--
				if err != nil {
					c.Failed++
					if !opt.KeepGoing {
						cancel()
					}
				} else {
					c.Done++
				}
				tell()
				mu.Unlock()
			}
		}()
	}
	i := 0
feed:
	for ; i < n; i++ {
		if runCtx.Err() != nil {
			break
		}
		select {
		case next <- i:
		case <-runCtx.Done():
			break feed
		}
	}
	close(next)
	wg.Wait()
	for ; i < n; i++ {
		errs[i] = context.Canceled
		if err := ctx.Err(); err != nil {
			errs[i] = err
		}
	}
	return errs
}
