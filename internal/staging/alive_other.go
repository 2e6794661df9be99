//go:build !unix

package staging

// processExists cannot tell on this system: every owner is taken to run,
// and nothing is cleaned.
func processExists(pid int) bool { return true }
