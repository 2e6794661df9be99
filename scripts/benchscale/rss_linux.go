//go:build linux

package main

import (
	"os"
	"syscall"
)

// maxRSSKiB is the peak resident set of a finished child, KiB (Linux's
// getrusage reports KiB); 0 when unknown.
func maxRSSKiB(ps *os.ProcessState) int64 {
	if ps == nil {
		return 0
	}
	if ru, ok := ps.SysUsage().(*syscall.Rusage); ok && ru != nil {
		return int64(ru.Maxrss)
	}
	return 0
}
