//go:build !unix

package main

// peakRSS is not measured on this system (no getrusage).
func peakRSS() string { return "unknown" }
