package main

import (
	"fmt"
	"io"
	"time"

	"github.com/ccreplay/ccreplay/units"
)

// newProgress returns a replay progress callback that rewrites one status
// line on a terminal at most every 200 ms of wall time.
func newProgress(w io.Writer) func(now units.Time, delivered, total int) {
	var last time.Time
	return func(now units.Time, delivered, total int) {
		if t := time.Now(); t.Sub(last) >= 200*time.Millisecond || delivered == total {
			last = t
			fmt.Fprintf(w, "\rsimulated %-12v  messages %d/%d ", now, delivered, total)
			if delivered == total {
				fmt.Fprintln(w)
			}
		}
	}
}
