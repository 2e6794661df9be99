// Package procstat measures the running process for the commands' --stats
// lines: its peak resident memory, as text.
package procstat
