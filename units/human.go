package units

import (
	"fmt"
	"math"
)

// The Human formatters print a value for a person reading a table: three
// decimals in the unit that keeps one to three integer digits (the
// smallest unit without decimals). Unlike the Format functions they round,
// and ParseDuration, ParseRate and ParseSize do not take their output back.

// step is one unit of a Human scale: values from size on print in it.
type step struct {
	size float64
	name string
}

var (
	nsSteps    = []step{{1, "ns"}, {1e3, "us"}, {1e6, "ms"}, {1e9, "s"}}
	bpsSteps   = []step{{1, "b/s"}, {1e3, "Kb/s"}, {1e6, "Mb/s"}, {1e9, "Gb/s"}, {1e12, "Tb/s"}}
	bytesSteps = []step{{1, "B"}, {1 << 10, "KiB"}, {1 << 20, "MiB"}, {1 << 30, "GiB"}}
)

// human prints v in the largest step of scale whose size |v| reaches (the
// last one for NaN).
func human(v float64, scale []step) string {
	a, i := math.Abs(v), 0
	for i+1 < len(scale) && !(a < scale[i+1].size) {
		i++
	}
	if i == 0 {
		return fmt.Sprintf("%.0f %s", v, scale[0].name)
	}
	return fmt.Sprintf("%.3f %s", v/scale[i].size, scale[i].name)
}

// HumanNs prints a duration given in ns: "850 ns", "12.500 us",
// "1.342 ms", "2.000 s".
func HumanNs(ns float64) string { return human(ns, nsSteps) }

// HumanBps prints a rate in bit/s with decimal prefixes: "93.750 Gb/s".
func HumanBps(bps float64) string { return human(bps, bpsSteps) }

// HumanBytes prints a size in bytes with binary prefixes: "1000 B",
// "1.500 KiB", "3.000 MiB".
func HumanBytes(b float64) string { return human(b, bytesSteps) }
