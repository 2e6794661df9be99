package metrics

import (
	"fmt"
	"math"

	"github.com/ccreplay/ccreplay/units"
)

// Unit says how a metric's value reads and prints.
type Unit string

// Units of the metrics in Summary.
const (
	UnitNs    Unit = "ns"    // a duration in nanoseconds: "12.500 us"
	UnitX     Unit = "x"     // a slowdown: "3.21x"
	UnitPct   Unit = "pct"   // a fraction printed as a percentage: "12.35 %"
	UnitBps   Unit = "bps"   // bits per second: "93.750 Gb/s"
	UnitBytes Unit = "bytes" // bytes, binary prefixes: "1.500 KiB"
	UnitCount Unit = "count" // a count: "17"
	UnitRatio Unit = "ratio" // a plain ratio: "0.0251"
)

// Format prints v in unit u the way every ccreplay table does; NaN (a
// metric a run has nothing for) prints as "n/a".
func Format(v float64, u Unit) string {
	if math.IsNaN(v) {
		return "n/a"
	}
	switch u {
	case UnitNs:
		return units.HumanNs(v)
	case UnitX:
		return fmtX(v)
	case UnitPct:
		return fmtPct(v)
	case UnitBps:
		return units.HumanBps(v)
	case UnitBytes:
		return units.HumanBytes(v)
	case UnitCount:
		return fmt.Sprintf("%.0f", v)
	default:
		return fmt.Sprintf("%.4f", v)
	}
}

// Metric is one line of a side-by-side table: a label, how to read the
// value from a Summary, and its unit.
type Metric struct {
	Label string
	Get   func(*Summary) float64
	Unit  Unit
}

// Compared are the metrics `ccreplay compare` and `ccreplay metrics` show
// side by side for several runs.
var Compared = []Metric{
	{"FCT mean", func(s *Summary) float64 { return s.FCTMeanNs }, UnitNs},
	{"FCT p50", func(s *Summary) float64 { return float64(s.FCTP50Ns) }, UnitNs},
	{"FCT p95", func(s *Summary) float64 { return float64(s.FCTP95Ns) }, UnitNs},
	{"FCT p99", func(s *Summary) float64 { return float64(s.FCTP99Ns) }, UnitNs},
	{"slowdown p50", func(s *Summary) float64 { return s.SlowdownP50 }, UnitX},
	{"slowdown p95", func(s *Summary) float64 { return s.SlowdownP95 }, UnitX},
	{"slowdown p99", func(s *Summary) float64 { return s.SlowdownP99 }, UnitX},
	{"MCT p50", func(s *Summary) float64 { return float64(s.MCTP50Ns) }, UnitNs},
	{"MCT p99", func(s *Summary) float64 { return float64(s.MCTP99Ns) }, UnitNs},
	{"collective mean", func(s *Summary) float64 {
		if s.Collectives == 0 {
			return math.NaN()
		}
		return s.CCTMeanNs
	}, UnitNs},
	{"ECN ratio", func(s *Summary) float64 { return s.ECNRatio }, UnitPct},
	{"unfair ratio", func(s *Summary) float64 { return s.UnfairRatio }, UnitRatio},
	{"unfair ratio concurrent", concurrent(func(s *Summary) float64 { return s.UnfairRatioConcurrent }), UnitRatio},
	{"Jain index concurrent", concurrent(func(s *Summary) float64 { return s.JainIndexConcurrent }), UnitRatio},
	{"min/max rate concurrent", concurrent(func(s *Summary) float64 { return s.MinMaxRateRatioConcurrent }), UnitRatio},
	{"concurrent window", concurrent(func(s *Summary) float64 { return float64(s.ConcurrentWindowNs) }), UnitNs},
	{"goodput", func(s *Summary) float64 { return s.GoodputBps }, UnitBps},
	{"max queue", func(s *Summary) float64 { return float64(s.QLenMaxBytes) }, UnitBytes},
	{"PFC paused", func(s *Summary) float64 { return s.PFCPauseFraction }, UnitPct},
	{"drops", func(s *Summary) float64 { return float64(s.DropsPkts) }, UnitCount},
}

// concurrent reads a *_concurrent metric as NaN ("n/a") when the run has no
// usable concurrency window (concurrent_window_ns = 0).
func concurrent(get func(*Summary) float64) func(*Summary) float64 {
	return func(s *Summary) float64 {
		if s.ConcurrentWindowNs <= 0 {
			return math.NaN()
		}
		return get(s)
	}
}

// fmtPct formats a fraction as a percentage: "12.35 %".
func fmtPct(f float64) string { return fmt.Sprintf("%.2f %%", f*100) }

// fmtX formats a slowdown: "3.21x".
func fmtX(f float64) string { return fmt.Sprintf("%.2fx", f) }
