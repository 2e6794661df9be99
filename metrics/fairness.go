package metrics

// MinConcurrentWindowNs is the shortest concurrency window the
// *_concurrent fairness metrics are computed over, ns. Over a shorter one
// each flow delivers a handful of packets (10 us is 125 KB at 100 Gb/s,
// about 31 packets of 1000 B per flow of a 4-to-1 incast), so the rates
// would measure packet granularity rather than the allocation.
const MinConcurrentWindowNs = 10_000

// Fairness indices over per-flow rates x_1..x_n (goodputs, bit/s). Each
// returns 0 for no flows or all-zero rates instead of NaN; sums run in the
// given order.

// unfairRatio is the FDCC thesis' "bandwidth allocation deviation"
// (FDCC, Zhang 2023, Sec. 5.4, "Test Metrics", and Table 6.2):
//
//	unfair = (BW_max - BW_avg) / BW_avg
//
// 0 when every flow got the same rate; larger is less fair.
func unfairRatio(x []float64) float64 {
	if len(x) == 0 {
		return 0
	}
	var sum, hi float64
	for _, v := range x {
		sum += v
		hi = max(hi, v)
	}
	avg := sum / float64(len(x))
	return ratio(hi-avg, avg)
}

// jainIndex is Jain's fairness index:
//
//	J = (Σ x_i)^2 / (n Σ x_i^2)
//
// in [1/n, 1], 1 when all rates are equal.
func jainIndex(x []float64) float64 {
	var sum, sq float64
	for _, v := range x {
		sum += v
		sq += v * v
	}
	return ratio(sum*sum, float64(len(x))*sq)
}

// minMaxRatio is PCC-RL's fairness (RL-CC, Tessler 2022, Sec. 3.2,
// "Objective", item 4, and Table 1, "FR = minrate*100/maxrate", here
// without the 100):
//
//	F = min_i x_i / max_i x_i
//
// in [0, 1], 1 when all rates are equal.
func minMaxRatio(x []float64) float64 {
	if len(x) == 0 {
		return 0
	}
	lo, hi := x[0], x[0]
	for _, v := range x[1:] {
		lo, hi = min(lo, v), max(hi, v)
	}
	return ratio(lo, hi)
}

// concurrentStats fills the *_concurrent fairness fields (see Summary):
// the window runs from the latest start of the flows to the earliest
// finish (sim_duration_ns for a flow that did not finish), and each flow's
// rate is its concurrent_bytes*8 over the window. Needs s.SimDurationNs.
// Nothing when a flow never started or has no concurrent_bytes (schema v1).
func (a *Accumulator) concurrentStats(s *Summary) {
	if s.Flows == 0 || !a.concOK {
		return
	}
	start, end := a.concStart, s.SimDurationNs
	if a.hasEnd {
		end = min(end, a.concEnd)
	}
	window := end - start
	if window < MinConcurrentWindowNs {
		return
	}
	rates := make([]float64, len(a.conc))
	for i, b := range a.conc {
		rates[i] = finite(float64(b) * 8e9 / float64(window))
	}
	s.ConcurrentWindowStartNs, s.ConcurrentWindowNs = start, window
	s.UnfairRatioConcurrent = unfairRatio(rates)
	s.JainIndexConcurrent = jainIndex(rates)
	s.MinMaxRateRatioConcurrent = minMaxRatio(rates)
}
