package metrics

import (
	"cmp"
	"math"
	"slices"
)

// Percentiles are given in per mille so that the rank is computed in
// integers and never depends on floating-point rounding of p*n.
const (
	p50  = 500
	p90  = 900
	p95  = 950
	p99  = 990
	p999 = 999
)

// rank returns the 0-based index of the perMille/1000 percentile among n
// sorted values by the nearest-rank method:
//
//	index = ceil(p*n) - 1, clamped to [0, n-1]
//
// so p50 of {1,2} is 1, p90 of {1,2} is 2, and every percentile of one
// value is that value. No interpolation: a percentile is always one of the
// values. (HPCC's fct_analysis.py also picks a value by index, at int(p*n),
// which can be one position higher.)
func rank(n, perMille int) int {
	i := (perMille*n+999)/1000 - 1
	return max(0, min(i, n-1))
}

// percentile returns the perMille percentile of sorted values (see rank),
// 0 when there are none.
func percentile[T cmp.Ordered](sorted []T, perMille int) T {
	var zero T
	if len(sorted) == 0 {
		return zero
	}
	return sorted[rank(len(sorted), perMille)]
}

// stats summarizes values: nanoseconds (int64) or slowdowns (float64). The
// mean of int64 values is that of their exact int64 sum; the percentiles
// are values of the input.
type stats[T int64 | float64] struct {
	mean                          float64
	p50, p90, p95, p99, p999, max T
}

// summary sorts vs in place and summarizes them; all zeros when empty.
// Float values must be finite; their mean is summed in the given (row)
// order before vs is sorted, so the result does not depend on anything but
// the rows (a sum of int64 values is exact in any order).
func summary[T int64 | float64](vs []T) stats[T] {
	if len(vs) == 0 {
		return stats[T]{}
	}
	var sum T
	for _, v := range vs {
		sum += v
	}
	mean := float64(sum) / float64(len(vs))
	slices.Sort(vs)
	return stats[T]{
		mean: finite(mean),
		p50:  percentile(vs, p50),
		p90:  percentile(vs, p90),
		p95:  percentile(vs, p95),
		p99:  percentile(vs, p99),
		p999: percentile(vs, p999),
		max:  vs[len(vs)-1],
	}
}

// isFinite reports whether x is neither NaN nor ±Inf.
func isFinite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

// finite returns x, or 0 when x is NaN or ±Inf: JSON cannot hold either.
func finite(x float64) float64 {
	if !isFinite(x) {
		return 0
	}
	return x
}

// ratio returns a/b, or 0 when b is 0 or the quotient is not finite.
func ratio(a, b float64) float64 {
	if b == 0 {
		return 0
	}
	return finite(a / b)
}
