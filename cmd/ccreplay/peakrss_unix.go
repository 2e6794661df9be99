//go:build unix

package main

import (
	"fmt"
	"runtime"
	"syscall"
)

// peakRSS is the process's peak resident memory as text ("52.3 MiB").
func peakRSS() string {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return "unknown"
	}
	kib := float64(ru.Maxrss) // Linux and the BSDs report KiB
	if runtime.GOOS == "darwin" {
		kib /= 1024 // macOS reports bytes
	}
	return fmt.Sprintf("%.1f MiB", kib/1024)
}
