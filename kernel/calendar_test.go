package kernel

import "github.com/ccreplay/ccreplay/units"

// calendar is a calendar queue (Brown 1988), kept to compare with the
// radix heap in BenchmarkQueue*: 1<<calBits buckets of 1<<calShift ps
// each (2 ns days, a "year" of ~4.2 us, longer than the fabric's link
// delay plus a serialization), each bucket sorted by (time, sequence).
// Not used by the kernel: faster than the radix heap on the synthetic
// mixes of BenchmarkQueue*, it was slower on whole runs (0.83x on the 320-host
// fat-tree, 0.93x on the star) and its 2,048 buckets, each grown to its
// own peak, multiplied peak memory by five (docs/PERFORMANCE.md).
type calendar struct {
	b   [1 << calBits]calBucket
	day int64 // current day: time >> calShift
	n   int
}

const (
	calShift = 11 // 2 ns buckets
	calBits  = 11 // 2,048 buckets
)

type calBucket struct {
	ev   []event
	head int
}

func (q *calendar) push(e event) {
	q.n++
	bk := &q.b[(int64(e.at)>>calShift)&(1<<calBits-1)]
	bk.ev = append(bk.ev, e)
	i := len(bk.ev) - 1
	for i > bk.head && e.less(&bk.ev[i-1]) {
		bk.ev[i] = bk.ev[i-1]
		i--
	}
	bk.ev[i] = e
}

func (q *calendar) popUntil(until units.Time) (event, bool) {
	if q.n == 0 {
		return event{}, false
	}
	for scanned := 0; ; scanned++ {
		if scanned == 1<<calBits {
			// A whole year empty: jump to the earliest event.
			m := units.Never
			for i := range q.b {
				if bk := &q.b[i]; bk.head < len(bk.ev) && bk.ev[bk.head].at < m {
					m = bk.ev[bk.head].at
				}
			}
			q.day, scanned = int64(m)>>calShift, 0
		}
		bk := &q.b[q.day&(1<<calBits-1)]
		if bk.head < len(bk.ev) && int64(bk.ev[bk.head].at)>>calShift == q.day {
			e := bk.ev[bk.head]
			if e.at > until {
				return event{}, false
			}
			bk.head++
			if bk.head == len(bk.ev) {
				bk.ev, bk.head = bk.ev[:0], 0
			}
			q.n--
			return e, true
		}
		q.day++
	}
}
