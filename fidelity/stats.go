package fidelity

import (
	"math"
	"slices"
)

// Stats are the mean and percentiles of one set of values (slowdowns),
// or, in a ratio field, the other side's over the reference's, field by
// field.
type Stats struct {
	Mean float64 `json:"mean"`
	P50  float64 `json:"p50"`
	P95  float64 `json:"p95"`
	P99  float64 `json:"p99"`
}

// Percentile rules (Report.Percentiles, BucketSet.Percentiles).
const (
	// NearestRank is ccreplay's rule (metrics): index ceil(p n) - 1.
	NearestRank = "nearest-rank"
	// HPCCIndex is the HPCC analysis script's get_pctl: index int(n p).
	HPCCIndex = "hpcc-int"
)

// nearestRank returns the perMille/1000 percentile of sorted values,
// index ceil(p n) - 1 clamped to [0, n-1] in integers (metrics' rank); 0
// when empty.
func nearestRank(sorted []float64, perMille int) float64 {
	n := len(sorted)
	if n == 0 {
		return 0
	}
	i := (perMille*n+999)/1000 - 1
	return sorted[max(0, min(i, n-1))]
}

// hpccIndex is fct_analysis.py's get_pctl(a, p) = a[int(len(a) * p)],
// the product in float64 as Python computes it; 0 when empty.
func hpccIndex(sorted []float64, p float64) float64 {
	n := len(sorted)
	if n == 0 {
		return 0
	}
	return sorted[max(0, min(int(float64(n)*p), n-1))]
}

// summarize returns the Stats of vs under the rule (NearestRank or
// HPCCIndex). The mean is summed in the given order; vs is not changed.
func summarize(vs []float64, rule string) Stats {
	if len(vs) == 0 {
		return Stats{}
	}
	var sum float64
	for _, v := range vs {
		sum += v
	}
	s := slices.Clone(vs)
	slices.Sort(s)
	st := Stats{Mean: finite(sum / float64(len(vs)))}
	if rule == HPCCIndex {
		st.P50, st.P95, st.P99 = hpccIndex(s, 0.5), hpccIndex(s, 0.95), hpccIndex(s, 0.99)
	} else {
		st.P50, st.P95, st.P99 = nearestRank(s, 500), nearestRank(s, 950), nearestRank(s, 990)
	}
	return st
}

// ratioStats is other / ref field by field (see ratio).
func ratioStats(other, ref Stats) Stats {
	return Stats{
		Mean: ratio(other.Mean, ref.Mean),
		P50:  ratio(other.P50, ref.P50),
		P95:  ratio(other.P95, ref.P95),
		P99:  ratio(other.P99, ref.P99),
	}
}

// ratio is other / ref: 1 when both are 0, 0 when only ref is (or the
// quotient is not finite).
func ratio(other, ref float64) float64 {
	if ref == 0 {
		if other == 0 {
			return 1
		}
		return 0
	}
	return finite(other / ref)
}

// finite returns x, or 0 when x is NaN or ±Inf.
func finite(x float64) float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return 0
	}
	return x
}

// slowdown is the HPCC script's max(1, fct / standalone); a standalone FCT
// of 0 gives 1 (no denominator: nothing to say about that flow).
func slowdown(fct, standalone int64) float64 {
	if standalone <= 0 {
		return 1
	}
	return max(1, float64(fct)/float64(standalone))
}
