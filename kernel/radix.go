package kernel

import (
	"math/bits"
	"slices"

	"github.com/ccreplay/ccreplay/units"
)

// radixQueue is the pending-event set: a radix heap (Ahuja, Mehlhorn,
// Orlin and Tarjan 1990) keyed by event time, which a discrete-event
// simulation may use because its clock never goes back: no event is
// scheduled before the last one taken out.
//
// Bucket b > 0 holds the events whose time first differs from last (the
// time of the last event taken) at bit b-1; bucket 0 holds those at
// exactly last, in insertion order (sequence order), and is a FIFO.
// Taking the earliest event is O(1) while bucket 0 has one; otherwise the
// lowest non-empty bucket's earliest time becomes last and its events
// move to lower buckets, each event moving at most 64 times in all and
// in practice a few. Against the 4-ary heap of ~2,000 events this does
// sequential appends instead of log-depth sifts with unpredictable
// comparisons.
//
// Ties: events at one time all land in the same bucket, and when they
// reach bucket 0 they are sorted by key (see Key). An event scheduled for
// the current time usually has a key no smaller than any pending one and
// goes at the end of bucket 0; one whose key is smaller (scheduled at this
// same instant by another node, or before the first event runs, when every
// node's first key ties on time) goes into b0x, a binary heap beside it.
// The event taken out is the smaller of b0's first and b0x's top: always
// the pending one with the smallest (time, key), as from a heap. (Keeping
// b0 sorted by insertion instead cost O(n) per event when n nodes each
// scheduled one event at time 0 in an order unlike their keys: set-up of a
// 100,000-flow incast took 46 s.)
type radixQueue struct {
	last    units.Time
	b0      []event // events at last, in key order, from b0head on
	b0head  int
	b0x     []event     // more events at last: a binary heap by key (see above)
	buckets [65][]event // buckets[0] unused (b0 instead)
	// mins[b] is the earliest time in buckets[b] while it is non-empty,
	// kept on every push so that finding the next time scans nothing.
	mins [65]units.Time
	mask uint64 // bit b-1 set when buckets[b] is non-empty (b >= 1)
	n    int
}

// bucketOf is the bucket of an event at time at (at >= last).
func (q *radixQueue) bucketOf(at units.Time) int {
	return bits.Len64(uint64(at ^ q.last))
}

// len is the number of pending events.
func (q *radixQueue) len() int { return q.n }

// push adds e; e.at must not be before the last event taken.
func (q *radixQueue) push(e event) {
	q.n++
	b := q.bucketOf(e.at)
	if b == 0 {
		if n := len(q.b0); n == q.b0head || !e.less(&q.b0[n-1]) {
			q.b0 = append(q.b0, e)
		} else {
			q.pushX(e)
		}
		return
	}
	q.add(b, e)
}

// add appends e to bucket b >= 1, keeping mins and mask.
func (q *radixQueue) add(b int, e event) {
	bit := uint64(1) << (b - 1)
	if q.mask&bit == 0 || e.at < q.mins[b] {
		q.mins[b] = e.at
	}
	q.buckets[b] = append(q.buckets[b], e)
	q.mask |= bit
}

// minBucket returns the lowest non-empty bucket b >= 1 and its earliest
// time; the queue must hold no event in b0.
func (q *radixQueue) minBucket() (int, units.Time) {
	b := bits.TrailingZeros64(q.mask) + 1
	return b, q.mins[b]
}

// peek is the time of the earliest event, or units.Never.
func (q *radixQueue) peek() units.Time {
	if q.b0head < len(q.b0) {
		return q.b0[q.b0head].at
	}
	if len(q.b0x) > 0 {
		return q.b0x[0].at
	}
	if q.mask == 0 {
		return units.Never
	}
	_, m := q.minBucket()
	return m
}

// popUntil removes and returns the earliest event if it is not later than
// until; ok is false (and nothing changes) when there is none.
func (q *radixQueue) popUntil(until units.Time) (e event, ok bool) {
	if len(q.b0x) > 0 {
		if q.b0head == len(q.b0) || q.b0x[0].less(&q.b0[q.b0head]) {
			if q.b0x[0].at > until {
				return e, false
			}
			q.n--
			return q.popX(), true
		}
	} else if q.b0head == len(q.b0) {
		if q.mask == 0 {
			return e, false
		}
		b, m := q.minBucket()
		if m > until {
			return e, false
		}
		q.refill(b, m)
	}
	e = q.b0[q.b0head]
	if e.at > until {
		return event{}, false
	}
	q.b0head++
	q.n--
	if q.b0head == len(q.b0) {
		q.b0, q.b0head = q.b0[:0], 0
	}
	return e, true
}

// pushX adds e to the heap b0x.
func (q *radixQueue) pushX(e event) {
	h := append(q.b0x, e)
	siftUp(h, len(h)-1, e, 2)
	q.b0x = h
}

// siftUp puts e, which belongs at index i of the d-ary heap h (the
// children of j at d*j+1 .. d*j+d), at i or above: each ancestor later
// than e moves down one level.
func siftUp(h []event, i int, e event, d int) {
	for i > 0 {
		p := (i - 1) / d
		if !e.less(&h[p]) {
			break
		}
		h[i] = h[p]
		i = p
	}
	h[i] = e
}

// popX removes and returns the top of the heap b0x, which is not empty.
func (q *radixQueue) popX() event {
	h := q.b0x
	top := h[0]
	n := len(h) - 1
	last := h[n]
	h = h[:n]
	i := 0
	for {
		c := 2*i + 1
		if c >= n {
			break
		}
		if c+1 < n && h[c+1].less(&h[c]) {
			c++
		}
		if !h[c].less(&last) {
			break
		}
		h[i] = h[c]
		i = c
	}
	if n > 0 {
		h[i] = last
	}
	q.b0x = h
	return top
}

// refill makes m, the earliest time of bucket b (the lowest non-empty
// one), the new last and moves b's events to lower buckets: those at m to
// b0 in key order. b0 and b0x are empty.
func (q *radixQueue) refill(b int, m units.Time) {
	q.last = m
	bk := q.buckets[b]
	q.buckets[b] = bk[:0]
	q.mask &^= 1 << (b - 1)
	for i := range bk {
		e := &bk[i]
		nb := q.bucketOf(e.at)
		if nb == 0 {
			q.b0 = append(q.b0, *e)
			continue
		}
		q.add(nb, *e)
	}
	if len(q.b0) > 1 {
		// The bucket held events in the order they reached it, not
		// always key order.
		slices.SortFunc(q.b0, func(x, y event) int {
			if x.key.Less(y.key) {
				return -1
			}
			return 1
		})
	}
}
