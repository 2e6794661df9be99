package metrics

import (
	"fmt"
	"math/bits"
)

// Hist is a log-linear histogram of non-negative int64 values (queue
// delays in ns, queue depths in bytes) for percentiles over more values
// than memory should hold, such as every row of packets.parquet. Its memory
// depends on the largest value, never on how many values were added: at
// most 55,296 bins of 16 bytes (864 KiB) for any int64, 384 KiB for values
// below 2^33 (8.6 s in ns or 8 GiB in bytes).
//
// Bins: a value v < 2*HistSub (2048) has a bin of its own, so those
// percentiles are exact. A larger value with bit length L goes into a bin
// of width 2^(L-11), so that every bin spans less than 1/HistSub (0.098 %)
// of its values. Each bin remembers the largest value it received.
//
// Percentile (nearest rank, as everywhere in this package: the element of
// rank ceil(p*n) among the n sorted values) returns the largest value seen
// in the bin that holds that element. So a reported percentile is always a
// value that occurred, never below the exact nearest-rank value q, and
// below q*(1 + 1/1024); it equals q when q < 2048 or when q's bin holds a
// single distinct value. Mean and Max are exact.
//
// The zero Hist is empty and ready to use; it is not safe for concurrent
// use.
type Hist struct {
	count []int64 // values per bin
	top   []int64 // largest value per bin
	n     int64   // values added
	sum   int64   // Σ values (an int64: 9.2e18 ns is 292 years of delay)
	max   int64
}

// HistSub is the number of bins per power of two above 2*HistSub (and the
// inverse of the relative bin width there).
const HistSub = 1 << 10

// histBin returns the bin index of v >= 0.
func histBin(v int64) int {
	if v < 2*HistSub {
		return int(v)
	}
	shift := bits.Len64(uint64(v)) - 11 // >= 1: v>>shift keeps 11 bits
	return 2*HistSub + (shift-1)*HistSub + int(v>>shift) - HistSub
}

// Add records v. A negative v is an error and is not recorded.
func (h *Hist) Add(v int64) error {
	if v < 0 {
		return fmt.Errorf("negative value %d", v)
	}
	b := histBin(v)
	if b >= len(h.count) {
		// Grow by whole octaves so that growth happens a few times only.
		n := max(b+1, 2*HistSub)
		n = (n + HistSub - 1) / HistSub * HistSub
		h.count = append(h.count, make([]int64, n-len(h.count))...)
		h.top = append(h.top, make([]int64, n-len(h.top))...)
	}
	h.count[b]++
	h.top[b] = max(h.top[b], v)
	h.n++
	h.sum += v
	h.max = max(h.max, v)
	return nil
}

// N is the number of values added.
func (h *Hist) N() int64 { return h.n }

// Max is the largest value added (0 when empty).
func (h *Hist) Max() int64 { return h.max }

// Mean is the exact mean of the values added (0 when empty).
func (h *Hist) Mean() float64 { return ratio(float64(h.sum), float64(h.n)) }

// Percentile returns the perMille/1000 percentile (500 = median, 999 =
// p99.9) as described on Hist; 0 when empty.
func (h *Hist) Percentile(perMille int) int64 {
	if h.n == 0 {
		return 0
	}
	want := int64(rank64(h.n, int64(perMille))) + 1 // 1-based rank
	var seen int64
	for b, c := range h.count {
		if seen += c; seen >= want {
			return h.top[b]
		}
	}
	return h.max // not reached: the counts sum to n
}

// rank64 is rank for int64 counts: ceil(p*n) - 1 clamped to [0, n-1].
func rank64(n, perMille int64) int64 {
	i := (perMille*n+999)/1000 - 1
	return max(0, min(i, n-1))
}

// Stats summarizes h for JSON.
func (h *Hist) Stats() HistStats {
	return HistStats{
		N: h.n, Mean: h.Mean(), P50: h.Percentile(p50), P90: h.Percentile(p90),
		P99: h.Percentile(p99), P999: h.Percentile(p999), Max: h.max,
	}
}

// HistStats are a Hist's count, exact mean and max, and its percentiles
// (see Hist for their error bound). The unit is that of the values: the
// field names of PacketStats say which.
type HistStats struct {
	N    int64   `json:"n"`
	Mean float64 `json:"mean"`
	P50  int64   `json:"p50"`
	P90  int64   `json:"p90"`
	P99  int64   `json:"p99"`
	P999 int64   `json:"p999"`
	Max  int64   `json:"max"`
}
