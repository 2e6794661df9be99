package procstat

import (
	"regexp"
	"runtime"
	"testing"
)

// The peak resident memory is a positive figure in MiB with one decimal
// (what the --stats lines print), and it covers memory this process has
// touched: after writing 64 MiB it is at least 64 MiB.
func TestPeakRSS(t *testing.T) {
	if runtime.GOOS == "windows" || runtime.GOOS == "plan9" {
		if got := PeakRSS(); got != "unknown" {
			t.Fatalf("PeakRSS() = %q, want unknown", got)
		}
		return
	}
	buf := make([]byte, 64<<20)
	for i := range buf {
		buf[i] = byte(i)
	}
	got := PeakRSS()
	m := regexp.MustCompile(`^([0-9]+)\.[0-9] MiB$`).FindStringSubmatch(got)
	if m == nil {
		t.Fatalf("PeakRSS() = %q, want N.N MiB", got)
	}
	var mib int
	for _, c := range m[1] {
		mib = mib*10 + int(c-'0')
	}
	if mib < 64 {
		t.Errorf("PeakRSS() = %q after touching 64 MiB, want at least 64 MiB", got)
	}
	runtime.KeepAlive(buf)
}
