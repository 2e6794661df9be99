package gen_test

import (
	"bytes"
	"io"
	"strings"
	"testing"

	"github.com/ccreplay/ccreplay/limits"
	"github.com/ccreplay/ccreplay/trace/gen"
)

// endless is a stream of data lines that never ends (a report read from
// a device or a pipe gone wrong).
type endless struct{}

func (endless) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = "1 2.0\n"[i%6]
	}
	return len(p), nil
}

// An OSU report is read within its bounds (docs/LIMITS.md): an endless
// stream stops after limits.MaxOSUReportBytes, a line past
// limits.MaxOSUReportLineBytes is an error naming it, not
// "bufio.Scanner: token too long".
func TestReadOSUReportBounded(t *testing.T) {
	head := "# Size  Avg Latency(us)\n"
	_, err := gen.ReadOSUReport(io.MultiReader(strings.NewReader(head), endless{}))
	if err == nil || err.Error() != "more than 1 MiB, the limit of an OSU report (docs/LIMITS.md)" {
		t.Errorf("endless: %v", err)
	}
	long := head + "1 2.0\n" + strings.Repeat("9", limits.MaxOSUReportLineBytes+1) + "\n"
	_, err = gen.ReadOSUReport(strings.NewReader(long))
	if err == nil || err.Error() != "line 3 is longer than 65536 bytes, the longest line of an OSU report (docs/LIMITS.md)" {
		t.Errorf("long line: %v", err)
	}
	// At the bound, a report is read.
	var b bytes.Buffer
	b.WriteString(head)
	for int64(b.Len())+6 <= limits.MaxOSUReportBytes {
		b.WriteString("1 2.0\n")
	}
	if rep, err := gen.ReadOSUReport(&b); err != nil || len(rep.Points) == 0 {
		t.Errorf("within the bound: %v", err)
	}
}

// FuzzReadOSUReport: any bytes give a report or one error line, never a
// panic; a report has points, each a size >= 0 and a latency >= 0.
func FuzzReadOSUReport(f *testing.F) {
	f.Add([]byte("# OSU MPI All-to-All Personalized Exchange Latency Test v5.8\n# Size       Avg Latency(us)   Min Latency(us)   Max Latency(us)  Iterations\n1    1.50   1.20   1.90   1000\n"))
	f.Add([]byte("# Size  Avg Latency(us)\n1 2.0\n\n4 3e3\n"))
	f.Add([]byte("# t\n1 2.0\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		rep, err := gen.ReadOSUReport(bytes.NewReader(b))
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("error of more than one line: %q", err)
			}
			return
		}
		if len(rep.Points) == 0 {
			t.Fatal("a report with no points")
		}
		for _, p := range rep.Points {
			if p.Bytes < 0 || p.AvgLatency < 0 || p.Iterations < 0 {
				t.Fatalf("point %+v", p)
			}
		}
	})
}
