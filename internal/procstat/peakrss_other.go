//go:build !unix

package procstat

// PeakRSS is "unknown": this system has no getrusage.
func PeakRSS() string { return "unknown" }
