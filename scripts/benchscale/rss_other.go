//go:build !linux

package main

import "os"

// maxRSSKiB reports 0 (unknown) off Linux: the unit and meaning of the
// child's maxrss differ between systems.
func maxRSSKiB(*os.ProcessState) int64 { return 0 }
