//go:build unix

package batch

import "syscall"

// processExists says whether a process of that id exists on this host.
func processExists(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || err == syscall.EPERM
}
