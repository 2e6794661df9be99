package cdf

import (
	"math"
	"strings"
	"testing"
)

// FuzzRead: Read never panics; an error is one line naming the file; a
// distribution it accepts has a finite mean >= 0 and a Sample that is
// monotone in u and at least 1 B.
func FuzzRead(f *testing.F) {
	for _, s := range []string{
		"0 0\n10000 15\n20000 20\n30000000 100\n",
		"4000,0\n5971,0.077\n28589215,1\n",
		"692975.6\n50 0\n53 0.00408\n3837698 1\n",
		"185.0\n1 0.00583\n15 0.47\n",
		"1e300 1\n", "0 0\n0 100\n", "5\n", ",\n", "1,2,3\n", "# x\n\n1 1\n",
	} {
		for _, name := range []string{"x.txt", "FacebookKeyValueMsgSizeDist.txt", "DCTCP_x.txt"} {
			f.Add(s, name, uint8(0))
		}
	}
	f.Fuzz(func(t *testing.T, text, name string, conv uint8) {
		if strings.ContainsAny(name, "\n\r") {
			return
		}
		d, err := Read(strings.NewReader(text), name, Options{Convention: Convention(conv % 3)})
		if err != nil {
			if msg := err.Error(); strings.ContainsAny(msg, "\n") || !strings.HasPrefix(msg, name) {
				t.Fatalf("error %q is not one line starting with the file name", msg)
			}
			return
		}
		if m := d.Mean(); math.IsNaN(m) || math.IsInf(m, 0) || m < 0 {
			t.Fatalf("mean %v", m)
		}
		prev := int64(0)
		for i := range 101 {
			s := d.Sample(float64(i) / 100)
			if s < 1 || s < prev {
				t.Fatalf("Sample(%v) = %d after %d", float64(i)/100, s, prev)
			}
			prev = s
		}
	})
}
