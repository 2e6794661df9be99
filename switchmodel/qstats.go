package switchmodel

import (
	"math/bits"

	"github.com/ccreplay/ccreplay/units"
)

// subBuckets is the number of histogram buckets per power of two of queue
// length: percentiles are exact to within 1/32 (about 3 %).
const subBuckets = 32

// QueueStats tracks a queue's length over time: maximum, time-weighted mean
// and a time-weighted log-linear histogram for percentiles.
type QueueStats struct {
	last     units.Time
	cur      units.Bytes
	Max      units.Bytes
	integral float64 // byte x picoseconds
	hist     []int64 // picoseconds spent in each length bucket
}

func bucketOf(b units.Bytes) int {
	if b < subBuckets {
		return int(b)
	}
	e := bits.Len64(uint64(b)) - 1 // b in [2^e, 2^(e+1))
	shift := e - 5                 // log2(subBuckets) = 5
	return (e-4)*subBuckets + int(uint64(b)>>uint(shift)) - subBuckets
}

// bucketUpper is the largest length that falls in bucket i.
func bucketUpper(i int) units.Bytes {
	if i < subBuckets {
		return units.Bytes(i)
	}
	e := i/subBuckets + 4
	m := i%subBuckets + subBuckets
	shift := e - 5
	return units.Bytes((uint64(m+1) << uint(shift)) - 1)
}

// Set records that the queue length changed to b at time now.
func (q *QueueStats) Set(now units.Time, b units.Bytes) {
	if dt := now - q.last; dt > 0 {
		q.integral += float64(q.cur) * float64(dt)
		if q.cur > 0 || q.hist != nil {
			q.addHist(q.cur, int64(dt))
		}
		q.last = now
	}
	q.cur = b
	if b > q.Max {
		q.Max = b
	}
}

func (q *QueueStats) addHist(b units.Bytes, dt int64) {
	i := bucketOf(b)
	if i >= len(q.hist) {
		n := i + 1
		if n < 2*len(q.hist) {
			n = 2 * len(q.hist)
		}
		nh := make([]int64, n)
		copy(nh, q.hist)
		q.hist = nh
	}
	q.hist[i] += dt
}

// Finish closes the accounting at time end (the run's end) and returns the
// time-weighted mean and the time-weighted p99, bytes.
func (q *QueueStats) Finish(end units.Time) (mean float64, p99 units.Bytes) {
	q.Set(end, q.cur)
	if end <= 0 {
		return 0, 0
	}
	mean = q.integral / float64(end)
	var seen int64
	for _, v := range q.hist {
		seen += v
	}
	zero := int64(end) - seen // time at length 0 before the histogram existed
	target := int64(end) - int64(end)/100
	acc := zero
	if acc >= target {
		return mean, 0
	}
	for i, v := range q.hist {
		acc += v
		if acc >= target {
			ub := bucketUpper(i)
			if ub > q.Max {
				ub = q.Max
			}
			return mean, ub
		}
	}
	return mean, q.Max
}
