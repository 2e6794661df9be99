package staging

import (
	"bytes"
	"os"
	"strconv"
)

// startTime is when process pid started, in clock ticks since boot (field
// 22 of /proc/<pid>/stat), or 0 when it cannot be read.
func startTime(pid int) uint64 {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0
	}
	// The command name (field 2) is in parentheses and may hold spaces
	// and parentheses itself: the fields that follow start after the
	// last ')'. The state is field 3, the start time field 22.
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return 0
	}
	f := bytes.Fields(b[i+1:])
	if len(f) < 20 {
		return 0
	}
	v, err := strconv.ParseUint(string(f[19]), 10, 64)
	if err != nil {
		return 0
	}
	return v
}
