package estimate

import (
	"context"

	"github.com/ccreplay/ccreplay/batch/pool"
)

// Chunk sizes of the work Prepare and Assemble split over Options.Jobs
// workers: links per chunk (their features and backlogs) and flows per
// chunk (their paths' base RTTs, their rows). Variables so that tests
// can cut small inputs into many chunks.
var (
	linkChunk = 256
	flowChunk = 8192
)

// split calls fn(lo, hi) over [0, n) cut into chunks of at most chunk
// indexes, up to jobs chunks at a time (jobs < 2 or one chunk: in turn,
// on the caller's goroutine). Every index is in exactly one chunk, so an
// fn that writes only what belongs to its own indexes computes the same
// thing whatever jobs is.
func split(jobs, n, chunk int, fn func(lo, hi int)) {
	chunk = max(chunk, 1)
	if jobs < 2 || n <= chunk {
		fn(0, n)
		return
	}
	k := (n + chunk - 1) / chunk
	// NB: the jobs return no error and the context is never cancelled.
	_ = pool.Run(context.Background(), k, pool.Options{Parallel: jobs}, func(_ context.Context, c int) error {
		fn(c*chunk, min(n, (c+1)*chunk))
		return nil
	})
}
