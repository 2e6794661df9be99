package gen

import (
	"bytes"
	"testing"

	"github.com/ccreplay/ccreplay/units"
)

func TestIsOSU(t *testing.T) {
	for spec, want := range map[string]bool{
		"osu-alltoall":               true,
		" osu-alltoall :nodes=4":     true,
		"osu-alltoall:nodes=4,ppn=2": true,
		"incast:n=4":                 false,
		"osu-alltoallv:nodes=4":      false,
		"":                           false,
	} {
		if got := IsOSU(spec); got != want {
			t.Errorf("IsOSU(%q) = %v, want %v", spec, got, want)
		}
	}
}

// TestWriteOSUTable checks the mean over runs per size and column
// (osu_alltoall's Avg Latency(us): microseconds, two decimals).
func TestWriteOSUTable(t *testing.T) {
	us := func(x float64) units.Time { return units.Time(x * float64(units.Microsecond)) }
	a := [][]OSUPoint{
		{{Bytes: 1, AvgLatency: us(2)}, {Bytes: 1024, AvgLatency: us(10)}},
		{{Bytes: 1, AvgLatency: us(4)}, {Bytes: 1024, AvgLatency: us(11)}},
	}
	b := [][]OSUPoint{{{Bytes: 1, AvgLatency: us(1.5)}, {Bytes: 1024, AvgLatency: us(7.125)}}}
	var buf bytes.Buffer
	WriteOSUTable(&buf, []string{"dcqcn", "dolce"}, [][][]OSUPoint{a, b})
	want := "\nMPI_Alltoall average latency (us) per message size, as osu_alltoall reports it\n" +
		"  size (B)  dcqcn  dolce\n" +
		"         1   3.00   1.50\n" +
		"      1024  10.50   7.12\n"
	if buf.String() != want {
		t.Errorf("got\n%q\nwant\n%q", buf.String(), want)
	}
	buf.Reset()
	WriteOSUTable(&buf, []string{"x"}, nil)
	if want := "\nMPI_Alltoall average latency (us) per message size, as osu_alltoall reports it\n  size (B)  x\n"; buf.String() != want {
		t.Errorf("no points: got %q, want %q", buf.String(), want)
	}
}
