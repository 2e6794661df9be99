//go:build unix

package ingest

import (
	"syscall"
	"time"
)

// cpuTime returns the process's user plus system CPU time, or 0.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
