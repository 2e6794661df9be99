//go:build unix

package procstat

import (
	"fmt"
	"runtime"
	"syscall"
)

// PeakRSS is the process's peak resident memory as text ("52.3 MiB"), or
// "unknown" when the system does not say.
func PeakRSS() string {
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
