package units

import (
	"fmt"
	"math"
)

// The Human formatters print a value for a person reading a table: three
// decimals in the unit that keeps one to three integer digits. Unlike the
// Format functions they round, and ParseDuration, ParseRate and ParseSize
// do not take their output back.

// HumanNs prints a duration given in ns: "850 ns", "12.500 us",
// "1.342 ms", "2.000 s".
func HumanNs(ns float64) string {
	switch a := math.Abs(ns); {
	case a < 1e3:
		return fmt.Sprintf("%.0f ns", ns)
	case a < 1e6:
		return fmt.Sprintf("%.3f us", ns/1e3)
	case a < 1e9:
		return fmt.Sprintf("%.3f ms", ns/1e6)
	default:
		return fmt.Sprintf("%.3f s", ns/1e9)
	}
}

// HumanBps prints a rate in bit/s with decimal prefixes: "93.750 Gb/s".
func HumanBps(bps float64) string {
	switch a := math.Abs(bps); {
	case a < 1e3:
		return fmt.Sprintf("%.0f b/s", bps)
	case a < 1e6:
		return fmt.Sprintf("%.3f Kb/s", bps/1e3)
	case a < 1e9:
		return fmt.Sprintf("%.3f Mb/s", bps/1e6)
	case a < 1e12:
		return fmt.Sprintf("%.3f Gb/s", bps/1e9)
	default:
		return fmt.Sprintf("%.3f Tb/s", bps/1e12)
	}
}

// HumanBytes prints a size in bytes with binary prefixes: "1000 B",
// "1.500 KiB", "3.000 MiB".
func HumanBytes(b float64) string {
	switch a := math.Abs(b); {
	case a < 1<<10:
		return fmt.Sprintf("%.0f B", b)
	case a < 1<<20:
		return fmt.Sprintf("%.3f KiB", b/(1<<10))
	case a < 1<<30:
		return fmt.Sprintf("%.3f MiB", b/(1<<20))
	default:
		return fmt.Sprintf("%.3f GiB", b/(1<<30))
	}
}
